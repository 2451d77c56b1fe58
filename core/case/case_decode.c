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
 * SCN_DECODE_ROUND: a floating value of class 0 (a special value, chosen by
 * its byte b % 32) with b >> 5 == 7 also sets the case's rounding direction
 * to upward, downward or toward zero by its argument's index % 3 (case.h,
 * enum scn_round); without the flag those bits are ignored, as they always were.
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
#include "case_decode.h"
#include "scn_writer.h"

#include <string.h>

static const char *const len_txt[] = { "", "hh", "h", "l", "ll", "j", "z", "t",
                                       "w8", "w16", "w32", "w64", "L", "" };

void scn_dec_item_lit(struct gen *g, const char *s, size_t n)
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

/* ---- items ---- */

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
static int item_literal(struct gen *g, struct rd *r, unsigned op, struct dctx *x)
{
    unsigned n = (op & 15) + 1;
    char t[40];
    size_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = rb(r);
        if (b == 0) b = 'x';
        /* the kernel's isalnum() is Latin-1: 0xc0..0xff are letters too */
        if (x->need_sep && k == 0 && (scn_dec_is_alnum(b) || b >= 0x80)) t[k++] = '.';
        x->need_sep = 0;
        t[k++] = (char)b;
        if (b == '%') t[k++] = '%';
    }
    scn_dec_item_lit(g, t, k);
    return 0;
}

/* robust garbage: an invalid specification; returns 1 for a cut-short one,
 * which ends the format */
static int item_garbage(struct gen *g, struct rd *r, unsigned op, struct dctx *x)
{
    static const char bad[] = "yrkvNQWY!&(;~";
    (void)op;
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
    scn_dec_item_lit(g, t, k);
    return 0;
}

/* The entry table: the item an op byte starts, the first entry whose
 * op_end is past op (and, for robust ones, only in robust decoding). An
 * item returns 1 when it ends the format (a cut-short specification). */
typedef int (*item_fn)(struct gen *g, struct rd *r, unsigned op, struct dctx *x);
static const struct {
    unsigned short op_end;
    unsigned char robust_only;
    item_fn item;
} items[] = {
    { 0x30, 0, item_literal },             /* a literal run */
    { 0x38, 1, item_garbage },             /* robust: an invalid specification */
    { 0x38, 0, item_literal },             /* otherwise a literal run too */
    { 0x100, 0, scn_dec_item_conversion }, /* a conversion */
};

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
            g->tmp[sp->varg].v.ld = scn_dec_fold_ld(g->tmp[sp->varg].v.ld);
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
    if (s->kx) scn_w_str(w, scn_dec_kptr_name(s->kx));
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
    c->round = SCN_ROUND_NEAREST; /* SCN_DECODE_ROUND: a float value may draw another */
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
        unsigned op = rb(&r), e = 0;
        while (op >= items[e].op_end || (items[e].robust_only && !x.robust)) e++;
        if (items[e].item(g, &r, op, &x)) break;
    }
    if (x.flags & SCN_DECODE_SHORT_LD) fold_short_ld(g);
    unsigned char pos[SCN_CASE_MAX_ARGS];
    place_args(g, x.positional, hdr, pos);
    render(g, pos, x.positional, x.trailing);
    return r.i;
}
