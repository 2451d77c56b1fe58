/* The decoder's spec builder: a conversion item's flags, width and
 * precision (with the boundary values of case_decode.c's grammar), its
 * conversion class and value argument. */
#include "case_decode.h"

#include <string.h>

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

static int add_star(struct gen *g, struct rd *r, int prec, enum big_use use, enum big_where where)
{
    int k = scn_dec_add_tmp(g, SCN_ARG_INT);
    unsigned v = rb2(r);
    g->tmp[k].v.i = BIG_GATE(v) ? big_value(v & 0xff, 1, prec, use, where) : (int16_t)v % (SCN_DECODE_MAX_WIDTH + 1);
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
    [CL_FLOAT] = { F_ALL, 1, 1, BIG_FLOAT, scn_dec_value_float },
    [CL_DEC] = { F_MINUS | F_PLUS | F_SPACE | F_ZERO, 1, 1, BIG_PAD, scn_dec_value_int },
    [CL_BITS] = { F_ALL, 1, 1, BIG_PAD, scn_dec_value_int },
    [CL_CHAR] = { F_MINUS, 1, 0, BIG_PAD, scn_dec_value_char },
    [CL_STR] = { F_MINUS, 1, 1, BIG_LIMIT, scn_dec_value_str },
    [CL_PTR] = { F_MINUS, 1, 0, BIG_PAD, scn_dec_value_ptr },
    [CL_KPTR] = { F_ALL, 1, 1, BIG_PAD, scn_dec_value_kptr },
    [CL_N] = { 0, 0, 0, BIG_PAD, scn_dec_value_n },
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
int scn_dec_item_conversion(struct gen *g, struct rd *r, unsigned op, struct dctx *x)
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
        scn_dec_item_lit(g, "%%", 2);
        x->need_sep = 0;
        return 0;
    }
    size_t nt0 = g->nt;
    if (classes[cl].width && wmode) decode_width(g, &s, r, wmode, x->where);
    if (classes[cl].prec && pmode) decode_prec_of(g, &s, r, pmode, (enum big_use)classes[cl].prec_use, x->where);
    int k = classes[cl].value(g, &s, lsel, vc, r, x);
    if (k < 0) { /* left out, with its '*' arguments */
        g->nt = nt0;
        return 0;
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
    return 0;
}
