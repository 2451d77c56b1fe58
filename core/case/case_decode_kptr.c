/* The decoder's kernel %p extensions (SCN_DECODE_KPTR): which extension a
 * choice byte picks, and its mem argument: NULL, an ERR_PTR, or exactly the
 * bytes the extension reads, raw or structured (case_decode.c's grammar). */
#include "case_decode.h"

#include <string.h>

/* SCN_DECODE_KPTR: the kernel's %p extensions the reference implements
 * (docs/CHOICES.md), with the bytes each reads: n bytes (KX_FIXED, and the
 * structured ones of KX_RES, KX_RTC, KX_TIME), or a number the case decides
 * (KX_HEX %ph: the width, at most 64; KX_ESC %pE: the width; KX_BITS %pb:
 * 8 per 64 bits of the width; KX_SOCK %pIS: by the family; KX_ERR %pe:
 * none). Entries 0-31 are the first set (fuzzer inputs made before the others
 * decode as they did), entry 64 %pV (KX_VAF: a VAF argument, vaf_format());
 * the choice byte is taken modulo 65. */
enum { KX_FIXED, KX_HEX, KX_ESC, KX_BITS, KX_SOCK, KX_ERR, KX_RES, KX_RTC, KX_TIME, KX_VAF };
#define VAF_MAX 96 /* a %pV format's bytes at most (12 items) */
static const struct {
    char name[7];
    unsigned char n, kind;
} kptr_ext[65] = {
    { "M", 6, 0 },    { "MR", 6, 0 },   { "MF", 6, 0 },   { "m", 6, 0 },     { "mR", 6, 0 },   { "mF", 6, 0 },
    { "I4", 4, 0 },   { "I4h", 4, 0 },  { "I4n", 4, 0 },  { "I4b", 4, 0 },   { "I4l", 4, 0 },  { "i4", 4, 0 },
    { "i4h", 4, 0 },  { "i4n", 4, 0 },  { "i4b", 4, 0 },  { "i4l", 4, 0 },   { "I6", 16, 0 },  { "i6", 16, 0 },
    { "I6c", 16, 0 }, { "i6c", 16, 0 }, { "h", 0, KX_HEX }, { "hC", 0, KX_HEX }, { "hD", 0, KX_HEX },
    { "hN", 0, KX_HEX }, { "a", 8, 0 }, { "ap", 8, 0 }, { "ad", 8, 0 }, { "U", 16, 0 }, { "Ub", 16, 0 },
    { "UB", 16, 0 },  { "Ul", 16, 0 },  { "UL", 16, 0 },
    /* 32: struct sockaddr */
    { "IS", 0, KX_SOCK }, { "iS", 0, KX_SOCK }, { "ISc", 0, KX_SOCK }, { "ISpc", 0, KX_SOCK },
    { "ISpfsc", 0, KX_SOCK }, { "iSpfs", 0, KX_SOCK }, { "ISph", 0, KX_SOCK }, { "ISfl", 0, KX_SOCK },
    /* 40: escaped buffers */
    { "E", 0, KX_ESC }, { "Ea", 0, KX_ESC }, { "Ec", 0, KX_ESC }, { "Eh", 0, KX_ESC },
    { "Eo", 0, KX_ESC }, { "Ep", 0, KX_ESC }, { "Ens", 0, KX_ESC }, { "Ehp", 0, KX_ESC },
    /* 48: error names, fourcc, netdev features (and their "(%p4?)" "(%pN?)"), bitmaps, resources */
    { "e", 0, KX_ERR }, { "4cc", 4, 0 }, { "4c", 4, 0 }, { "NF", 8, 0 }, { "N", 8, 0 },
    { "b", 0, KX_BITS }, { "bl", 0, KX_BITS }, { "r", 32, KX_RES }, { "R", 32, KX_RES },
    /* 57: struct rtc_time (36 bytes), time64_t, "(%pt?)" */
    { "tR", 36, KX_RTC }, { "tRd", 36, KX_RTC }, { "tRtr", 36, KX_RTC }, { "tRs", 36, KX_RTC },
    { "tT", 8, KX_TIME }, { "tTdr", 8, KX_TIME }, { "t", 0, 0 },
    /* 64: struct va_format */
    { "V", 0, KX_VAF },
};

const char *scn_dec_kptr_name(unsigned kx)
{
    return kptr_ext[kx - 1].name;
}

/* the n bytes behind a %p extension's pointer (value class vc >= 2) */
static void kptr_bytes(unsigned char *d, unsigned n, unsigned vc, struct rd *r)
{
    if (vc >= 4) {
        for (unsigned i = 0; i < n; i++) d[i] = (unsigned char)rb(r);
    } else if (n == 16) { /* eight big-endian words */
        unsigned m = rb(r), t = rb(r);
        for (unsigned i = 0; i < 8; i++) {
            unsigned w = rb2(r);
            if (t % 4 == 3) w %= 3;                                 /* small words: 1:0:2::1 */
            if (m >> i & 1) w = 0;                                  /* runs of zero words */
            if (t % 4 == 1 && i < 6) w = i == 5 ? 0xffff : 0;       /* IPv4-mapped ::ffff:a.b.c.d */
            if (t % 4 == 2 && i == 4) w = t & 4 ? 0x0200 : 0;       /* ISATAP ..:0:5efe:a.b.c.d */
            if (t % 4 == 2 && i == 5) w = 0x5efe;
            d[2 * i] = (unsigned char)(w >> 8);
            d[2 * i + 1] = (unsigned char)w;
        }
    } else {
        static const unsigned char alpha[8] = { 0, 1, 9, 10, 99, 100, 0x80, 0xff };
        for (unsigned i = 0; i < n; i++) d[i] = alpha[rb(r) & 7];
    }
}

static void put_le(unsigned char *d, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) d[i] = (unsigned char)(v >> (8 * i));
}

/* %pIS: a struct sockaddr_in (16 bytes; 8, all the kernel reads, when
 * short), sockaddr_in6 (28) or a family of neither (2 bytes: "(einval)");
 * the address structured or raw as kptr_bytes() makes it, the port, flow
 * information and scope id raw */
static unsigned sock_bytes(unsigned char *d, unsigned vc, struct rd *r)
{
    static const unsigned other[4] = { 0, 1, 0x0a00, 0xffff };
    unsigned f = rb(r) % 4, n = f == 0 ? 16 : f == 1 ? 28 : f == 2 ? 8 : 2;
    memset(d, 0, n);
    put_le(d, f == 1 ? 10 : f == 3 ? other[rb(r) & 3] : 2, 2);
    if (n == 2) return n;
    d[2] = (unsigned char)rb(r); /* port, network order */
    d[3] = (unsigned char)rb(r);
    if (f == 1) {
        for (int i = 4; i < 8; i++) d[i] = (unsigned char)rb(r); /* flowinfo */
        kptr_bytes(d + 8, 16, vc, r);
        for (int i = 24; i < 28; i++) d[i] = (unsigned char)rb(r); /* scope id */
    } else {
        kptr_bytes(d + 4, 4, vc, r);
    }
    return n;
}

/* structured contents (value classes 2-3) of the kinds that are not byte
 * strings: a struct resource, a struct rtc_time, a time64_t */
static void kptr_struct(unsigned char *d, unsigned kind, struct rd *r)
{
    static const uint64_t addr[8] = { 0, 1, 0x1000, 0x3f8, 0x60000000, 0xfee00000, ~0ull, 1ull << 63 };
    static const uint64_t delta[8] = { 0, 1, 7, 0xfff, 0xffff, 0x0fffffff, ~0ull, ~0ull - 1 };
    static const unsigned type[8] = { 0x100, 0x200, 0x400, 0x800, 0x1000, 0, 0x600, 0x1800 };
    static const int64_t times[16] = {
        0, -1, 86399, 951782400, 2147483647, -2147483647 - 1, 253402300799LL, -62167219201LL,
        INT64_MAX, INT64_MIN, 67767976233316800LL, -67768040609740801LL, 4107542400LL, 1234567890,
        13569465599LL, -86400,
    };
    if (kind == KX_RES) {
        unsigned a = rb(r), x = rb(r);
        uint64_t start = addr[a & 7], end = start + delta[a >> 3 & 7];
        /* the type, then prefetch, 64bit, window, disabled, unset */
        uint64_t flags = type[x & 7] | (x & 8 ? 0x2000 : 0) | (x & 16 ? 0x100000 : 0) |
                         (x & 32 ? 0x200000 : 0) | (x & 64 ? 0x10000000 : 0) | (x & 128 ? 0x20000000 : 0);
        put_le(d, start, 8);
        put_le(d + 8, end, 8);
        put_le(d + 16, 0, 8); /* the name pointer (include/linux/ioport.h), not read */
        put_le(d + 24, flags, 8);
    } else if (kind == KX_RTC) { /* sec min hour mday mon year, in range or any int */
        static const int span[6] = { 61, 60, 24, 31, 12, 300 }, base[6] = { 0, 0, 0, 1, 0, -100 };
        for (int i = 0; i < 9; i++) {
            unsigned b = rb(r);
            long long v = i >= 6 || b >= 0xf0 ? scn_dec_int_special(b)
                                              : base[i] + (long long)(b % (unsigned)span[i]);
            put_le(d + 4 * i, (uint64_t)v, 4);
        }
    } else { /* KX_TIME: a special time, a day boundary or any 32-bit number of seconds or days */
        unsigned b = rb(r);
        uint32_t lo = rb2(r), hi = rb2(r);
        int64_t v = (int32_t)(lo | hi << 16);
        put_le(d, (uint64_t)(b < 0x80 ? times[b % 16] : b & 1 ? v * 86400 : v), 8);
    }
}

/* %pE's structured bytes: those with an escape of their own and a few others */
static void esc_bytes(unsigned char *d, unsigned n, struct rd *r)
{
    static const unsigned char alpha[16] = { 0, '\a', 0x1b, '"', '\\', '\n', '\r', '\t', '\v', '\f', ' ',
                                             'A', 0x7f, 0x80, 0xa0, 0xff };
    for (unsigned i = 0; i < n; i++) d[i] = alpha[rb(r) & 15];
}

/* a %pV format of 1-12 items into d (at most VAF_MAX bytes, no NUL; returns
 * the length): a byte below 0xa0 is a printable literal byte ('%' doubled,
 * a '.' before an alphanumeric one after a %p form, so that no letters the
 * table does not name follow it), one above a conversion. With a va_list of
 * zeros each prints 0, "(null)", zeros or a NUL byte; "%*d" reads two. */
static unsigned vaf_format(char *d, struct rd *r)
{
    static const char *const conv[32] = {
        "%d", "%x", "%s", "%c", "%p", "%pM", "%pV", "%5d", "%-4x", "%08X", "%#o", "%+i", "%.2s", "%10s", "%*d",
        "%.*s", "%%", "%lu", "%hhd", "%zx", "%pI4", "%ph", "%pU", "%pE", "%20pV", "%-8pM", "%u", "% d", "%lld",
        "%px", "%pa", "%pISc",
    };
    unsigned items = rb(r) % 12 + 1, n = 0;
    int after_p = 0;
    for (unsigned i = 0; i < items; i++) {
        unsigned b = rb(r);
        if (b < 0xa0) {
            char ch = (char)(0x20 + b % 0x5f);
            if (after_p && scn_dec_is_alnum((unsigned char)ch)) d[n++] = '.';
            d[n++] = ch;
            if (ch == '%') d[n++] = '%';
            after_p = 0;
        } else {
            const char *cv = conv[(b - 0xa0) % 32];
            size_t l = strlen(cv);
            memcpy(d + n, cv, l);
            n += (unsigned)l;
            after_p = strchr(cv, 'p') != NULL;
        }
    }
    return n;
}

/* |width| (literal or '*'), the width brought within max first */
static long long kptr_width(struct gen *g, struct spec *s, int max)
{
    if (s->wmode == 1) {
        if (s->width > max) s->width = max;
        return s->width;
    }
    if (s->wmode == 2) {
        long long *v = &g->tmp[s->warg].v.i;
        if (*v > max) *v = max;
        if (*v < -max) *v = -max;
        return *v < 0 ? -*v : *v;
    }
    return -1;
}

/* the precision brought within max (literal or '*') */
static void kptr_prec(struct gen *g, struct spec *s, int max)
{
    if (s->pmode == 1 && s->prec > max) s->prec = max;
    if (s->pmode == 2 && g->tmp[s->parg].v.i > max) g->tmp[s->parg].v.i = max;
}

/* a %p extension's mem argument: NULL (vc 0), an ERR_PTR (vc 1), the bytes
 * it reads; returns the arg index */
static int kptr_arg(struct gen *g, struct spec *s, unsigned e, unsigned vc, struct rd *r)
{
    struct scn_case *c = g->c;
    unsigned n = kptr_ext[e].n, kind = kptr_ext[e].kind;
    const char *name = kptr_ext[e].name;
    long long wv;
    switch (kind) {
    case KX_HEX: /* the width is the length (none: 1, at most 64) */
        wv = kptr_width(g, s, SCN_DECODE_MAX_WIDTH);
        n = wv < 0 ? 1 : wv < 64 ? (unsigned)wv : 64;
        break;
    case KX_ESC: /* the width is the length (none: 1) */
        wv = kptr_width(g, s, 128);
        n = wv < 0 ? 1 : (unsigned)wv;
        break;
    case KX_BITS: /* the width is the number of bits */
        wv = kptr_width(g, s, 1024);
        n = wv < 0 ? 0 : (unsigned)(wv + 63) / 64 * 8;
        break;
    case KX_VAF: /* the format and its NUL */
        n = VAF_MAX + 1;
        break;
    case KX_SOCK:
        /* the kernel prints p, f and s's numbers, with the conversion's width
         * and precision, into a fixed array without a bound: keep within it */
        if (strpbrk(name + 2, "pfs")) {
            kptr_width(g, s, 5);
            kptr_prec(g, s, 5);
        }
        n = 28;
        break;
    default:
        break;
    }
    int k = scn_dec_add_tmp(g, SCN_ARG_MEM);
    struct scn_arg *a = &g->tmp[k];
    if (vc == 1 || (kind == KX_ERR && vc < 4 && vc)) {
        unsigned v = rb2(r);
        a->is_err = 1;
        if (vc == 1) a->v.i = -1 - (long long)(v % SCN_CASE_MAX_ERRNO);
        else /* %pe, value classes 2-3: about the codes with names, 1-133 and 512-530 */
            a->v.i = v & 0x100 ? -511 - (long long)(v % 21) : -1 - (long long)(v % 134);
    } else if (vc == 0 || c->arena_used + n > SCN_CASE_ARENA) {
        a->is_null = 1;
    } else {
        unsigned char *d = (unsigned char *)c->arena + c->arena_used;
        if (kind == KX_VAF) {
            n = vaf_format((char *)d, r);
            d[n] = 0;
            a->is_vaf = 1;
        } else if (kind == KX_SOCK) n = sock_bytes(d, vc, r);
        else if (kind == KX_ERR) n = 0; /* a valid pointer: plain %p */
        else if (vc < 4 && (kind == KX_RES || kind == KX_RTC || kind == KX_TIME)) kptr_struct(d, kind, r);
        else if (vc < 4 && kind == KX_ESC) esc_bytes(d, n, r);
        else kptr_bytes(d, n, vc, r);
        a->off = (uint32_t)c->arena_used;
        a->len = n;
        c->arena_used += n + a->is_vaf; /* a VAF's format and its NUL */
    }
    return k;
}

/* a %p extension and the bytes it reads */
int scn_dec_value_kptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    (void)lsel;
    unsigned e = rb(r) % (sizeof kptr_ext / sizeof kptr_ext[0]);
    s->kx = (unsigned char)(e + 1);
    x->need_sep = 2;
    return kptr_arg(g, s, e, vc, r);
}
