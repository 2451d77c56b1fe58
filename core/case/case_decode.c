/* scn_case_from_bytes: fuzzer bytes -> a well-defined case.
 *
 * Byte grammar (every byte string decodes; missing bytes read as 0):
 *
 *   input   := header item*
 *   header  := 1 byte: bit 0 positional (ISO only), bits 1..7 seed of the
 *              argument-position permutation
 *   item    := op ...
 *     op < 0x30            literal run of (op & 15) + 1 bytes that follow
 *                          ('%' becomes "%%", NUL becomes 'x')
 *     op < 0x38, ROBUST    garbage: g byte, then an invalid specification
 *                          (or, g % 4 == 3, a cut-short one at the end)
 *     otherwise            a conversion: conv = table[op % n], then
 *                          fb: bits 0-4 flags - + space # 0 (masked by what
 *                              the conversion allows), bits 5-6 width mode
 *                              (0 none, 1/3 literal, 2 '*'), bit 7 (positional
 *                              formats) reuse an earlier argument of the type
 *                          pb: bits 0-1 precision mode (0 none, 1 literal,
 *                              2 '*', 3 "." alone), bits 2-4 length selector,
 *                              bits 5-7 value class
 *                          width bytes (2), precision bytes (2), value bytes
 *
 * so single-byte mutations change one flag, one width, one length, one value.
 *
 * SCN_DECODE_KPTR (kernel dialect): the table gets two more entries, 'K', a
 * %p extension that reads bytes (impl/src/conv_kptr.c and the files it
 * dispatches to): after fb, pb, the width and precision bytes, a byte e
 * chooses kptr_ext[e % 64] (%pM %pI4 %pI6 %ph %pa %pU, %pIS %piS with p f s
 * c h l, %pE with a c h n o p s, %pe, %p4cc, %pNF, %pb %pbl, %pr %pR, %ptR
 * %ptT with d t r s, and "(%pN?)" "(%p4?)" "(%pt?)"); all flags, widths
 * (literal or '*', odd or negative ones too) and precisions are kept, but
 * for %pE (|width| <= 128), %pb (<= 1024 bits) and %pIS with p, f or s
 * (width and precision <= 5: the kernel prints those numbers into a fixed
 * array without a bound). Its mem argument by value class: 0 NULL,
 * 1 ERR(-1 - (2 bytes % 4095)), 2-3 structured bytes (16-byte ones: a
 * zero-word mask byte, a template byte, 8 words: IPv4-mapped / ISATAP
 * prefixes, small words, runs of zero words for %pI6c; struct resource:
 * chosen addresses, sizes, types and flag bits; struct rtc_time: fields in
 * range or extreme; time64_t: chosen times, whole days; %pE: bytes with
 * escapes of their own; %pe: ERR_PTRs about the named codes; others: bytes
 * from {0 1 9 10 99 100 0x80 0xff}), 4-7 raw bytes (%pe: a valid pointer,
 * printed as plain %p); always exactly as many bytes as the extension reads
 * (%ph: its width, none = 1, at most 64; %pE: its width; %pb: 8 per 64 bits
 * of the width; %pIS: 16 or 8 for AF_INET, 28 for AF_INET6, 2 for any other
 * family, the family field written as such). The ISO dialect and kernel
 * inputs without the flag decode as before.
 * kptr_ext[64] is %pV (the choice byte is taken modulo 65; one below 64
 * chooses what it chose before %pV was added): value class 0 NULL, 1 an
 * ERR_PTR, 2-7 mem:VAF, a struct va_format whose format vaf_format() builds
 * from the input (1-12 items: printable literal bytes, or conversions of a
 * small table, every %p form followed by a non-alphanumeric byte) and whose
 * va_list reads zeros (case.h), so it is the same on every implementation.
 * Widths and precisions are <= SCN_DECODE_MAX_WIDTH; '*' arguments range over
 * [-512, 512] (negative width = '-' flag, negative precision = none), but
 * for boundary values (issue 23: where implementations keep a count in 12,
 * 15, 16 or 24 bits or in an int, or check width + precision against
 * INT_MAX): when the high byte of the two bytes of a width, a precision or
 * a '*' value is 0x7c..0x7f (one value in 64), its low byte b picks one
 * (big_value(); b bit 7: a '*' value's sign): b & 0x7f below 64 one of 1023
 * 1024 2047 2048 4095 4096 4097 8192, below 88 one of 8191 16383 16384
 * 32766-32769 65534-65537 131072, from 88 on INT_MAX - 1, INT_MAX, INT_MIN
 * ('*' only), 2^23 - 1, 2^23, 2^24 - 1, 2^24, 2^30 (the kernel's
 * FIELD_WIDTH_MAX and 24-bit field), and, as a '*' value below 112, INT_MIN
 * (-INT_MAX when negative). No number past INT_MAX: the oracles' scanner
 * (oracles/spec.c) holds a width or precision in an int.
 * A value that a target of the dialect would pad byte by byte past 65537
 * bytes (8192 in the kernel) or compute past 8192 digits is replaced by one
 * of the first group (big_dear()): glibc pads a field of INT_MAX for
 * seconds. So a %s precision (which only limits) and a negative '*'
 * precision (omitted) take any of them; the kernel keeps them cheap as
 * literals (24 and 16 bits) but not as '*' widths (clamped to 2^23 - 1);
 * SCN_DECODE_HUGE (the reference alone: it counts a field) takes all.
 */
#include "case.h"
#include "scn_writer.h"

#include <float.h>
#include <limits.h>
#include <string.h>

struct rd {
    const uint8_t *p;
    size_t n, i;
};

static inline unsigned rb(struct rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }
/* little-endian multi-byte reads, in a fixed order (never two rb() calls in
 * one expression: their order would be up to the compiler) */
static inline unsigned rb2(struct rd *r)
{
    unsigned lo = rb(r);
    return lo | rb(r) << 8;
}
static inline unsigned rb3(struct rd *r)
{
    unsigned lo = rb2(r);
    return lo | rb(r) << 16;
}

/* length modifiers */
enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_W8, L_W16, L_W32, L_W64, L_BIGL, L_X };
static const char *const len_txt[] = { "", "hh", "h", "l", "ll", "j", "z", "t",
                                       "w8", "w16", "w32", "w64", "L", "" };

#define F_MINUS 1u
#define F_PLUS 2u
#define F_SPACE 4u
#define F_HASH 8u
#define F_ZERO 16u

struct spec {
    unsigned char conv, len, flags, wmode, pmode, is_px; /* is_px: 0, 'x' or 'K' after a kernel %p */
    unsigned char kx;          /* 'K': kptr_ext[kx - 1] */
    long long width, prec;     /* literal values */
    signed char warg, parg, varg; /* generation-order arg indices, -1 if none */
};

struct gen {
    struct scn_case *c;
    struct scn_arg tmp[SCN_CASE_MAX_ARGS];
    size_t nt;
    /* items: literal bytes stored in lit[], specs in sp[] */
    struct spec sp[SCN_CASE_MAX_ARGS + 64];
    size_t nsp;
    unsigned short item_lit_off[256], item_lit_len[256];
    short item_spec[256];
    size_t nitems;
    char lit[SCN_CASE_MAX_FMT];
    size_t litn;
    size_t est; /* estimated format length */
};

static const long long int_special[] = {
    0, 1, -1, INT_MIN, INT_MAX, LLONG_MIN, LLONG_MAX, 255, 256, -128, 127, -129, 32767, -32768,
    65535, 65536, 1000000, 4294967295LL, 2147483648LL, -2147483649LL, 10, 99, 100, 9, 8, 7, 16,
    0x7fffffffffffLL, 1LL << 53, LLONG_MIN + 1, 1234567890123LL, 42,
};
static const double dbl_special[] = {
    0.0, -0.0, __builtin_inf(), -__builtin_inf(), __builtin_nan(""), -__builtin_nan(""), 1.0, -1.0,
    0.5, 0.1, 1e308, DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 9.5, 2.5, 0.05, 1e-5, 123456789.0, 1e15,
    1e16, 1e17, 1e21, 0.125, 99.99999, 0.95, 1.5, 3.14159265358979, 1e-300, 5e-324, 0x1.fffffffffffffp-1,
    9.999999999999999e22,
};

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

static void canon_double(double *d)
{
    if (*d != *d) *d = __builtin_signbit(*d) ? -__builtin_nan("") : __builtin_nan("");
}

/* Where the fuzzer's effort goes: the raw-bit values of value classes 4 and
 * 5 get a moderate exponent (|x| in [2^-70, 2^71): ordinary magnitudes,
 * where most rounding paths and fast/slow path boundaries lie); class 6
 * keeps every bit of a double and brings a long double within 2^+-1100;
 * class 7 keeps every bit (any exponent: extremes, subnormals, inf, nan);
 * the special values of classes 0-2 add the famous extremes.  A precision whose
 * two bytes are above 511 (what mutations mostly produce) is 0..40 when bit
 * 15 is clear, 0..511 when set; 0..511 as such (the seeds) is kept.  So
 * half the precisions a mutation makes are short ones and the costly
 * conversions (hundreds of digits of 1e-4000L in every target) stay common
 * without taking nearly all the time. */
static long long decode_prec(unsigned v)
{
    if (v <= 0x1ff || (v & 0x8000)) return (v & 0x1ff) % (SCN_DECODE_MAX_WIDTH + 1);
    return (v & 0x1ff) % 41;
}

/* the two bytes v of a width, precision or '*' value pick a boundary value */
#define BIG_GATE(v) (((v) >> 10) == 0x1f)

/* What a boundary value costs: a width is padded (and so is an integer's
 * precision, with zeros), a floating conversion's precision is computed
 * digit by digit, a %s precision only limits. */
enum big_use { BIG_PAD, BIG_FLOAT, BIG_LIMIT };

/* Where a boundary value is decoded: which values stay cheap there. */
enum big_where {
    BIG_ISO,    /* glibc and musl pad a field byte by byte */
    BIG_HUGE,   /* SCN_DECODE_HUGE: the targets count a field (the reference) */
    BIG_KERNEL, /* Linux keeps a literal width in 24 bits and a precision in 16,
                 * and clamps a '*' width to FIELD_WIDTH_MAX (2^23 - 1) */
};

/* 1 when a target of where pads or computes v (a width or precision) for
 * long: more than 65537 bytes of padding (8192 in the kernel, whose calls
 * are short otherwise and whose boundaries are 2^23 and 2^24) or 8192
 * digits */
static int big_dear(long long v, int star, int prec, enum big_use use, enum big_where where)
{
    if (where == BIG_HUGE || use == BIG_LIMIT || (prec && v < 0)) return 0;
    if (where == BIG_KERNEL && !star) /* a literal width in 24 bits, a precision in 16 (negative: 0) */
        v = prec ? (int16_t)(uint16_t)v : (long long)(((uint64_t)v & 0xffffff) ^ 0x800000) - 0x800000;
    if (v < 0) v = prec ? 0 : -v;
    return v > (use == BIG_FLOAT || where == BIG_KERNEL ? 8192 : 65537);
}

/* The boundary value the low byte b of a gated width or precision picks
 * (star: a '*' value, b bit 7 its sign; prec: a precision), as the header
 * says; one that a target of where would pad or compute for long is
 * replaced by one of the first group. */
static long long big_value(unsigned b, int star, int prec, enum big_use use, enum big_where where)
{
    static const long long small[8] = { 1023, 1024, 2047, 2048, 4095, 4096, 4097, 8192 };
    static const long long mid[12] = { 8191, 16383, 16384, 32766, 32767, 32768,
                                       32769, 65534, 65535, 65536, 65537, 131072 };
    static const long long edge[8] = { 2147483646, 2147483647, -2147483647 - 1, 8388607,
                                       8388608, 16777215, 16777216, 1073741824 };
    unsigned i = b & 0x7f;
    int neg = star && (b & 0x80);
    long long v;
    if (i < 64) v = small[i % 8];
    else if (i < 88) v = mid[i % 12];
    else if (i < 112 && star) v = -2147483647 - 1 + neg;         /* the most negative '*' values */
    else v = !star && edge[i % 8] < 0 ? 2147483647 : edge[i % 8]; /* INT_MIN is a '*' value */
    if (neg && v > 0) v = -v;
    if (big_dear(v, star, prec, use, where)) v = neg ? -small[i % 8] : small[i % 8];
    return v;
}

/* the biased exponent e of a long double brought within 2^+-span */
static unsigned ld_fold_exp(unsigned e, unsigned span)
{
    return 16383 - span + e % (2 * span + 1);
}

/* x (finite, non-zero) outside 2^+-1100 brought within, sign and digits
 * kept (a subnormal gets its integer bit: a normal number) */
static long double fold_ld(long double x)
{
    unsigned char raw[16] = {0};
    memcpy(raw, &x, 10);
    unsigned e = ((unsigned)raw[9] << 8 | raw[8]) & 0x7fff;
    uint64_t m;
    memcpy(&m, raw, 8);
    if (e == 0x7fff || !m || (e >= 16383 - 1100 && e <= 16383 + 1100)) return x;
    if (e == 0) {
        m |= 1ull << 63;
        memcpy(raw, &m, 8);
    }
    e = ld_fold_exp(e, 1100);
    raw[8] = (unsigned char)e;
    raw[9] = (unsigned char)((raw[9] & 0x80) | e >> 8);
    long double v;
    memcpy(&v, raw, sizeof v);
    return v;
}

/* span: 0 keeps the raw exponent, else it is brought within 2^+-span */
static long double ld_from_raw(struct rd *r, unsigned span)
{
    unsigned char raw[16] = {0};
    for (int i = 0; i < 10; i++) raw[i] = (unsigned char)rb(r);
    unsigned e = ((unsigned)raw[9] << 8 | raw[8]) & 0x7fff;
    if (span) {
        unsigned sgn = raw[9] & 0x80;
        e = ld_fold_exp(e, span);
        raw[8] = (unsigned char)e;
        raw[9] = (unsigned char)(sgn | e >> 8);
    }
    uint64_t m;
    memcpy(&m, raw, 8);
    if (e == 0x7fff) {
        if (m << 1) m = 0xc000000000000000ull; /* canonical quiet NaN */
        else m = 0x8000000000000000ull;
    } else if (e == 0) {
        m &= ~(1ull << 63); /* no pseudo-denormals */
    } else {
        m |= 1ull << 63; /* no unnormals */
    }
    memcpy(raw, &m, 8);
    long double v;
    memcpy(&v, raw, sizeof v);
    return v;
}

static int add_tmp(struct gen *g, int type)
{
    if (g->nt >= SCN_CASE_MAX_ARGS) return -1;
    memset(&g->tmp[g->nt], 0, sizeof g->tmp[0]);
    g->tmp[g->nt].type = (unsigned char)type;
    return (int)g->nt++;
}

static int add_star(struct gen *g, struct rd *r, int prec, enum big_use use, enum big_where where)
{
    int k = add_tmp(g, SCN_ARG_INT);
    unsigned v = rb2(r);
    g->tmp[k].v.i = BIG_GATE(v) ? big_value(v & 0xff, 1, prec, use, where) : (int16_t)v % (SCN_DECODE_MAX_WIDTH + 1);
    return k;
}

static void int_value(struct scn_arg *a, unsigned vc, struct rd *r)
{
    int is_u = a->type >= SCN_ARG_UINT && a->type <= SCN_ARG_SIZE;
    int narrow = a->type == SCN_ARG_INT || a->type == SCN_ARG_UINT;
    unsigned long long u;
    if (vc < 2) {
        u = (unsigned long long)(long long)(int8_t)rb(r);
    } else if (vc == 2) {
        u = (unsigned long long)int_special[rb(r) % (sizeof int_special / sizeof int_special[0])];
    } else {
        u = 0;
        for (int i = 0; i < (narrow ? 4 : 8); i++) u |= (unsigned long long)rb(r) << (8 * i);
    }
    if (narrow) {
        if (is_u) a->v.u = (unsigned)u;
        else a->v.i = (int)(unsigned)u;
    } else if (is_u) {
        a->v.u = u;
    } else {
        a->v.i = (long long)u;
    }
}

static int add_string(struct gen *g, int k, struct rd *r, int wide, int allow_null, unsigned vc)
{
    struct scn_case *c = g->c;
    struct scn_arg *a = &g->tmp[k];
    unsigned L = rb(r);
    if (allow_null && vc == 7) {
        a->is_null = 1;
        return 0;
    }
    L = vc >= 5 ? L % 64 : L % 12;
    if (!wide) {
        if (c->arena_used + L + 1 > SCN_CASE_ARENA) L = 0;
        if (c->arena_used + 1 > SCN_CASE_ARENA) return -1;
        char *d = c->arena + c->arena_used;
        for (unsigned i = 0; i < L; i++) {
            unsigned b = rb(r);
            d[i] = (char)(b ? b : 'x');
        }
        d[L] = 0;
        a->off = (uint32_t)c->arena_used;
        a->len = L;
        c->arena_used += L + 1;
    } else {
        size_t off = (c->arena_used + 3) & ~(size_t)3;
        if (off + (L + 1) * 4 > SCN_CASE_ARENA) L = 0;
        if (off + 4 > SCN_CASE_ARENA) return -1;
        static const uint32_t cps[] = { 0xe9, 0x20ac, 0x1f600, 0xd800, 0x110000, 0xff, 0x7ff, 0x800,
                                        0xffff, 0x10000, 0x10ffff, 0x80, 0xdfff, 0x3b1, 0x4e2d, 0xfffd };
        wchar_t *d = (wchar_t *)(void *)(c->arena + off);
        for (unsigned i = 0; i < L; i++) {
            unsigned b = rb(r);
            uint32_t cp;
            if (b < 0x80) cp = b ? b : 'x';
            else if (b < 0xf0) cp = cps[b & 15];
            else cp = 0x80 + ((rb3(r) & 0x1fffff) % 0x10ff80);
            d[i] = (wchar_t)cp;
        }
        d[L] = 0;
        a->off = (uint32_t)off;
        a->len = L;
        c->arena_used = off + (L + 1) * 4;
    }
    return 0;
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
            long long v = i >= 6 || b >= 0xf0 ? int_special[b % (sizeof int_special / sizeof int_special[0])]
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

static int is_alnum(unsigned ch);

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
            if (after_p && is_alnum((unsigned char)ch)) d[n++] = '.';
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
    int k = add_tmp(g, SCN_ARG_MEM);
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

static void item_lit(struct gen *g, const char *s, size_t n)
{
    if (g->nitems >= 256 || g->litn + n > sizeof g->lit) return;
    memcpy(g->lit + g->litn, s, n);
    g->item_lit_off[g->nitems] = (unsigned short)g->litn;
    g->item_lit_len[g->nitems] = (unsigned short)n;
    g->item_spec[g->nitems] = -1;
    g->nitems++;
    g->litn += n;
    g->est += n;
}

static int is_alnum(unsigned ch)
{
    return (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

/* ---- items ---- */

/* What one decoding knows besides the case: the flags as the dialect makes
 * them, the header's choices, the state between items, the conversion table. */
struct dctx {
    unsigned flags;
    int kern, positional, robust;
    enum big_where where;
    int need_sep; /* 1: a '.' before an alphanumeric literal byte (after a kernel %p); 2: set by this item */
    int trailing; /* robust: a cut-short specification ends the format (cut[]), -1 none */
    unsigned nconv;
    char conv[32]; /* a conversion item's op % nconv picks one */
};

static void conv_table(struct dctx *x)
{
    unsigned n = 0;
    for (const char *p = x->kern ? "diuoxXcsp%dxus" : "diuoxXcsp%dxu"; *p; p++) x->conv[n++] = *p;
    if (x->kern && (x->flags & SCN_DECODE_KPTR)) {
        x->conv[n++] = 'K';
        x->conv[n++] = 'K';
    }
    if (!(x->flags & SCN_DECODE_NO_N)) x->conv[n++] = 'n';
    if (!(x->flags & SCN_DECODE_NO_FLOAT))
        for (const char *p = "fFeEgGaAfeg"; *p; p++) x->conv[n++] = *p;
    if ((x->flags & SCN_DECODE_C23) && !(x->flags & SCN_DECODE_NO_BINARY) && !x->kern) {
        x->conv[n++] = 'b';
        x->conv[n++] = 'B';
    }
    x->nconv = n;
}

/* a literal run of (op & 15) + 1 bytes ('%' doubled, NUL written 'x') */
static void item_literal(struct gen *g, struct rd *r, unsigned op, struct dctx *x)
{
    unsigned n = (op & 15) + 1;
    char t[40];
    size_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = rb(r);
        if (b == 0) b = 'x';
        /* the kernel's isalnum() is Latin-1: 0xc0..0xff are letters too */
        if (x->need_sep && k == 0 && (is_alnum(b) || b >= 0x80)) t[k++] = '.';
        x->need_sep = 0;
        t[k++] = (char)b;
        if (b == '%') t[k++] = '%';
    }
    item_lit(g, t, k);
}

/* robust garbage: an invalid specification; returns 1 for a cut-short one,
 * which ends the format */
static int item_garbage(struct gen *g, struct rd *r, struct dctx *x)
{
    static const char bad[] = "yrkvNQWY!&(;~";
    unsigned gb = rb(r), v = rb(r);
    char t[16];
    size_t k = 0;
    t[k++] = '%';
    if (gb % 4 == 3) {
        x->trailing = (int)(v % 4);
        return 1;
    }
    if (gb % 4 == 1) {
        if (v & 1) t[k++] = '-';
        if (v & 2) t[k++] = '0';
        if (v & 4) t[k++] = '#';
        if (v & 8) t[k++] = '1' + (char)(v >> 5);
    } else if (gb % 4 == 2) {
        static const char *const ls[] = { "l", "h", "ll", "hh", "z", "t", "j", "L" };
        const char *l = ls[v & 7];
        if (x->kern && (*l == 'j' || *l == 'L')) l = "l";
        while (*l) t[k++] = *l++;
    }
    t[k++] = bad[(gb >> 2) % (sizeof bad - 1)];
    x->need_sep = 0;
    item_lit(g, t, k);
    return 0;
}

/* ---- a conversion's value argument, by class: each returns its index,
 * or -1 when the conversion is left out ---- */

typedef int (*value_fn)(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);

static int value_int(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    static const unsigned char iso_l[] = { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T };
    static const unsigned char ker_l[] = { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_T, L_NONE };
    unsigned char len = x->kern ? ker_l[lsel] : iso_l[lsel];
    if ((x->flags & SCN_DECODE_C23) && !x->kern && (vc & 4) && lsel >= 4) len = (unsigned char)(L_W8 + (lsel & 3));
    s->len = len;
    int sg = s->conv == 'd' || s->conv == 'i';
    int type;
    switch (len) {
    case L_L: case L_W64: type = sg ? SCN_ARG_LONG : SCN_ARG_ULONG; break;
    case L_LL: type = sg ? SCN_ARG_LLONG : SCN_ARG_ULLONG; break;
    case L_J: type = sg ? SCN_ARG_INTMAX : SCN_ARG_UINTMAX; break;
    case L_Z: type = sg ? SCN_ARG_SSIZE : SCN_ARG_SIZE; break;
    case L_T: type = SCN_ARG_PTRDIFF; break;
    default: type = sg ? SCN_ARG_INT : SCN_ARG_UINT; break;
    }
    int k = add_tmp(g, type);
    int_value(&g->tmp[k], vc, r);
    return k;
}

static int value_char(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    static const unsigned wide[4] = { 0xe9, 0x20ac, 0x1f600, 0xd800 };
    int k;
    if (!(x->flags & SCN_DECODE_NO_WIDE) && (lsel & 4)) {
        s->len = L_L;
        k = add_tmp(g, SCN_ARG_WINT);
        unsigned b = rb(r);
        g->tmp[k].v.u = b < 0xc0 ? b : b < 0xf0 ? wide[b & 3] : rb3(r);
    } else {
        k = add_tmp(g, SCN_ARG_INT);
        unsigned b = rb(r);
        g->tmp[k].v.i = vc == 7 ? (int)(b | rb(r) << 8) - 32768 : (int)b;
    }
    return k;
}

static int value_str(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    int wide = !(x->flags & SCN_DECODE_NO_WIDE) && (lsel & 4);
    if (wide) s->len = L_L;
    int k = add_tmp(g, wide ? SCN_ARG_WSTR : SCN_ARG_STR);
    return add_string(g, k, r, wide, x->kern, vc) ? -1 : k;
}

static int value_ptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    int k = add_tmp(g, SCN_ARG_PTR);
    unsigned long long u = 0;
    if (vc > 0 && vc < 3) u = rb(r);
    else if (vc >= 3)
        for (int i = 0; i < 8; i++) u |= (unsigned long long)rb(r) << (8 * i);
    g->tmp[k].v.u = u;
    g->tmp[k].is_null = u == 0;
    if (x->kern) {
        /* %px (the raw address) or %pK (kptr_restrict 0: as %p) */
        s->is_px = (unsigned char)(lsel & 1 ? (lsel & 2 ? 'K' : 'x') : 0);
        x->need_sep = 2;
    }
    return k;
}

/* a %p extension and the bytes it reads */
static int value_kptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    (void)lsel;
    unsigned e = rb(r) % (sizeof kptr_ext / sizeof kptr_ext[0]);
    s->kx = (unsigned char)(e + 1);
    x->need_sep = 2;
    return kptr_arg(g, s, e, vc, r);
}

static int value_n(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    static const unsigned char nl[] = { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T };
    static const unsigned char nt[] = { SCN_N_INT, SCN_N_SCHAR, SCN_N_SHORT, SCN_N_LONG,
                                        SCN_N_LLONG, SCN_N_INTMAX, SCN_N_SIZE, SCN_N_PTRDIFF };
    (void)vc, (void)r, (void)x;
    s->len = nl[lsel];
    int k = add_tmp(g, SCN_ARG_N);
    g->tmp[k].ntype = nt[lsel];
    return k;
}

static int value_float(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    (void)x;
    int k;
    if (lsel >= 6) {
        s->len = L_BIGL;
        k = add_tmp(g, SCN_ARG_LDOUBLE);
        if (vc < 3) g->tmp[k].v.ld = dbl_special[rb(r) % (sizeof dbl_special / sizeof dbl_special[0])];
        else if (vc == 3) g->tmp[k].v.ld = (long double)(int8_t)rb(r) / 8;
        else g->tmp[k].v.ld = ld_from_raw(r, vc < 6 ? 70 : vc == 6 ? 1100 : 0);
        return k;
    }
    s->len = lsel == 5 ? L_L : L_NONE;
    k = add_tmp(g, SCN_ARG_DOUBLE);
    double d;
    if (vc < 3) d = dbl_special[rb(r) % (sizeof dbl_special / sizeof dbl_special[0])];
    else if (vc == 3) d = (double)(int8_t)rb(r) / 8;
    else {
        uint64_t b = 0;
        for (int i = 0; i < 8; i++) b |= (uint64_t)rb(r) << (8 * i);
        if (vc < 6) { /* moderate: |d| in [2^-70, 2^71) */
            unsigned ex = 1023 - 70 + (unsigned)((b >> 52) & 0x7ff) % 141;
            b = (b & ~(0x7ffull << 52)) | (uint64_t)ex << 52;
        }
        memcpy(&d, &b, 8);
    }
    canon_double(&d);
    g->tmp[k].v.d = d;
    return k;
}

/* The conversion classes: the flags each takes (others are dropped),
 * whether it takes a width and a precision, what a boundary precision
 * costs it (enum big_use), its value argument (none: "%%"). A letter not
 * listed is a floating conversion. */
enum { CL_FLOAT, CL_DEC, CL_BITS, CL_CHAR, CL_STR, CL_PTR, CL_KPTR, CL_N, CL_PERCENT };
static const unsigned char conv_class[128] = {
    ['d'] = CL_DEC, ['i'] = CL_DEC, ['u'] = CL_DEC, ['o'] = CL_BITS, ['x'] = CL_BITS, ['X'] = CL_BITS,
    ['b'] = CL_BITS, ['B'] = CL_BITS, ['c'] = CL_CHAR, ['s'] = CL_STR, ['p'] = CL_PTR, ['K'] = CL_KPTR,
    ['n'] = CL_N, ['%'] = CL_PERCENT,
};
#define F_ALL (F_MINUS | F_PLUS | F_SPACE | F_HASH | F_ZERO)
static const struct {
    unsigned char flags, width, prec, prec_use;
    value_fn value;
} classes[] = {
    [CL_FLOAT] = { F_ALL, 1, 1, BIG_FLOAT, value_float },
    [CL_DEC] = { F_MINUS | F_PLUS | F_SPACE | F_ZERO, 1, 1, BIG_PAD, value_int },
    [CL_BITS] = { F_ALL, 1, 1, BIG_PAD, value_int },
    [CL_CHAR] = { F_MINUS, 1, 0, BIG_PAD, value_char },
    [CL_STR] = { F_MINUS, 1, 1, BIG_LIMIT, value_str },
    [CL_PTR] = { F_MINUS, 1, 0, BIG_PAD, value_ptr },
    [CL_KPTR] = { F_ALL, 1, 1, BIG_PAD, value_kptr },
    [CL_N] = { 0, 0, 0, BIG_PAD, value_n },
    [CL_PERCENT] = { 0, 0, 0, BIG_PAD, NULL },
};

/* the width (wmode 1 or 3: two bytes, 2: a '*' argument) */
static void decode_width(struct gen *g, struct spec *s, struct rd *r, unsigned wmode, enum big_where where)
{
    if (wmode == 2) {
        s->wmode = 2;
        s->warg = (signed char)add_star(g, r, 0, BIG_PAD, where);
        return;
    }
    unsigned v = rb2(r);
    long long w = BIG_GATE(v) ? big_value(v & 0xff, 0, 0, BIG_PAD, where) : (v & 0x1ff) % (SCN_DECODE_MAX_WIDTH + 1);
    if (w) {
        s->wmode = 1;
        s->width = w;
    }
}

/* the precision (pmode 1: two bytes, 2: a '*' argument, 3: "." alone) */
static void decode_prec_of(struct gen *g, struct spec *s, struct rd *r, unsigned pmode, enum big_use use,
                           enum big_where where)
{
    s->pmode = (unsigned char)pmode;
    if (pmode == 2) {
        s->parg = (signed char)add_star(g, r, 1, use, where);
    } else if (pmode == 1) {
        unsigned v = rb2(r);
        s->prec = BIG_GATE(v) ? big_value(v & 0xff, 0, 1, use, where) : decode_prec(v);
    }
}

/* a conversion item: fb (flags, width mode, positional reuse), pb
 * (precision mode, length, value class), then its arguments in order:
 * width, precision, value */
static void item_conversion(struct gen *g, struct rd *r, unsigned op, struct dctx *x)
{
    struct spec s;
    memset(&s, 0, sizeof s);
    s.warg = s.parg = s.varg = -1;
    s.conv = (unsigned char)x->conv[op % x->nconv];
    unsigned cl = conv_class[s.conv & 0x7f];
    unsigned fb = rb(r), pb = rb(r);
    unsigned wmode = (fb >> 5) & 3, pmode = pb & 3, lsel = (pb >> 2) & 7, vc = pb >> 5;
    s.flags = (unsigned char)(fb & 31 & classes[cl].flags);
    if (!classes[cl].value) {
        item_lit(g, "%%", 2);
        x->need_sep = 0;
        return;
    }
    size_t nt0 = g->nt;
    if (classes[cl].width && wmode) decode_width(g, &s, r, wmode, x->where);
    if (classes[cl].prec && pmode) decode_prec_of(g, &s, r, pmode, (enum big_use)classes[cl].prec_use, x->where);
    int k = classes[cl].value(g, &s, lsel, vc, r, x);
    if (k < 0) { /* left out, with its '*' arguments */
        g->nt = nt0;
        return;
    }
    /* positional: fb bit 7 makes the conversion reuse an earlier argument
     * of the same type (POSIX allows referencing one argument twice) */
    if (x->positional && (fb & 0x80) && k == (int)g->nt - 1 && g->tmp[k].type != SCN_ARG_N) {
        for (int j = k - 1; j >= 0; j--)
            if (g->tmp[j].type == g->tmp[k].type) {
                g->nt--;
                k = j;
                break;
            }
    }
    s.varg = (signed char)k;
    g->sp[g->nsp] = s;
    if (g->nitems < 256) {
        g->item_spec[g->nitems++] = (short)g->nsp;
        g->nsp++;
    }
    g->est += 40;
    x->need_sep = x->need_sep == 2;
}

/* ---- the case ---- */

/* SCN_DECODE_SHORT_LD: a long double that a decimal conversion prints
 * is kept within 2^+-1100 (sign and digits kept).  Beyond, its exact
 * expansion has up to 4,950 digits, which glibc and musl produce in
 * quadratic time: a few such inputs would take most of a differential
 * campaign.  The corpus's LDBL_MAX / LDBL_TRUE_MIN cases, %La, and fuzz_ref
 * (the reference alone, no flag) keep the extremes tested. */
static void fold_short_ld(struct gen *g)
{
    for (size_t i = 0; i < g->nsp; i++) {
        const struct spec *sp = &g->sp[i];
        if (sp->conv != 'a' && sp->conv != 'A' && sp->varg >= 0 && g->tmp[sp->varg].type == SCN_ARG_LDOUBLE)
            g->tmp[sp->varg].v.ld = fold_ld(g->tmp[sp->varg].v.ld);
    }
}

/* the arguments into the case at their positions: identity, or (positional)
 * a permutation seeded by the header */
static void place_args(struct gen *g, int positional, unsigned hdr, unsigned char *pos)
{
    for (size_t i = 0; i < g->nt; i++) pos[i] = (unsigned char)i;
    if (positional) {
        uint32_t x = (hdr >> 1) * 2654435761u + 12345u;
        for (size_t i = g->nt; i > 1; i--) {
            x = x * 1103515245u + 12345u;
            size_t j = (x >> 16) % i;
            unsigned char t = pos[i - 1];
            pos[i - 1] = pos[j];
            pos[j] = t;
        }
    }
    for (size_t i = 0; i < g->nt; i++) g->c->args[pos[i]] = g->tmp[i];
    g->c->nargs = g->nt;
}

/* a '*' (and its n$ when positional) */
static void put_star(struct scn_writer *w, int positional, unsigned pos)
{
    scn_w_ch(w, '*');
    if (positional) {
        scn_w_uint(w, pos + 1u);
        scn_w_ch(w, '$');
    }
}

/* one specification's text */
static void put_spec(struct scn_writer *w, const struct spec *s, int positional, const unsigned char *pos)
{
    static const char flag_ch[5] = { '-', '+', ' ', '#', '0' };
    scn_w_ch(w, '%');
    if (positional) {
        scn_w_uint(w, pos[s->varg] + 1u);
        scn_w_ch(w, '$');
    }
    for (unsigned f = 0; f < 5; f++)
        if (s->flags & (1u << f)) scn_w_ch(w, flag_ch[f]);
    if (s->wmode == 1) scn_w_uint(w, (unsigned long long)s->width);
    else if (s->wmode == 2) put_star(w, positional, pos[s->warg]);
    if (s->pmode) {
        scn_w_ch(w, '.');
        if (s->pmode == 1) scn_w_uint(w, (unsigned long long)s->prec);
        else if (s->pmode == 2) put_star(w, positional, pos[s->parg]);
    }
    scn_w_str(w, len_txt[s->len]);
    scn_w_ch(w, s->kx ? 'p' : (char)s->conv);
    if (s->is_px) scn_w_ch(w, (char)s->is_px);
    if (s->kx) scn_w_str(w, kptr_ext[s->kx - 1].name);
}

/* the format: the items' text, then a cut-short specification (trailing >= 0) */
static void render(struct gen *g, const unsigned char *pos, int positional, int trailing)
{
    struct scn_case *c = g->c;
    struct scn_writer w = scn_writer_on(c->fmt, SCN_CASE_MAX_FMT + 1);
    for (size_t it = 0; it < g->nitems; it++) {
        if (g->item_spec[it] < 0) scn_w_put(&w, g->lit + g->item_lit_off[it], g->item_lit_len[it]);
        else put_spec(&w, &g->sp[g->item_spec[it]], positional, pos);
    }
    if (trailing >= 0) {
        static const char *const cut[] = { "%", "%-", "%5", "%." };
        scn_w_str(&w, cut[trailing]);
    }
    scn_w_end(&w);
    c->fmt_len = w.len < SCN_CASE_MAX_FMT ? w.len : SCN_CASE_MAX_FMT;
}

size_t scn_case_from_bytes(const uint8_t *data, size_t size, struct scn_case *c,
                           enum scn_dialect dialect, unsigned flags)
{
    static __thread struct gen G; /* big scratch: keep it off the stack */
    struct gen *g = &G;
    struct rd r = { data, size, 0 };
    struct dctx x;
    memset(&x, 0, sizeof x);
    x.kern = dialect == SCN_DIALECT_KERNEL;
    x.flags = x.kern ? (flags & (SCN_DECODE_ROBUST | SCN_DECODE_KPTR)) | SCN_DECODE_NO_FLOAT |
                           SCN_DECODE_NO_POSITIONAL | SCN_DECODE_NO_WIDE | SCN_DECODE_NO_N
                     : flags;
    c->fmt_len = c->nargs = c->nsizes = c->arena_used = 0;
    g->c = c;
    g->nt = g->nsp = g->nitems = g->litn = g->est = 0;

    unsigned hdr = rb(&r);
    x.positional = !(x.flags & SCN_DECODE_NO_POSITIONAL) && (hdr & 1);
    x.robust = (x.flags & SCN_DECODE_ROBUST) && !x.positional;
    x.where = x.kern ? BIG_KERNEL : x.flags & SCN_DECODE_HUGE ? BIG_HUGE : BIG_ISO;
    x.trailing = -1;
    conv_table(&x);
    while (r.i < r.n && g->nt + 3 <= SCN_CASE_MAX_ARGS && g->est + 80 < SCN_CASE_MAX_FMT && g->nitems < 250 &&
           g->nsp < sizeof g->sp / sizeof g->sp[0]) {
        unsigned op = rb(&r);
        if (op < 0x30 || (op < 0x38 && !x.robust)) item_literal(g, &r, op, &x);
        else if (op < 0x38) {
            if (item_garbage(g, &r, &x)) break;
        } else item_conversion(g, &r, op, &x);
    }
    if (x.flags & SCN_DECODE_SHORT_LD) fold_short_ld(g);
    unsigned char pos[SCN_CASE_MAX_ARGS];
    place_args(g, x.positional, hdr, pos);
    render(g, pos, x.positional, x.trailing);
    return r.i;
}
