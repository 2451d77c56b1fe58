/* The decoder's value classes: a conversion's value argument from the
 * bytes of its value class (case_decode.c's grammar), special values,
 * canonical floating values (no NaN payloads, no invalid long doubles). */
#include "case_decode.h"

#include <float.h>
#include <limits.h>
#include <string.h>

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

long long scn_dec_int_special(unsigned b)
{
    return int_special[b % (sizeof int_special / sizeof int_special[0])];
}

static void canon_double(double *d)
{
    if (*d != *d) *d = __builtin_signbit(*d) ? -__builtin_nan("") : __builtin_nan("");
}

/* the biased exponent e of a long double brought within 2^+-span */
static unsigned ld_fold_exp(unsigned e, unsigned span)
{
    return 16383 - span + e % (2 * span + 1);
}

/* x (finite, non-zero) outside 2^+-1100 brought within, sign and digits
 * kept (a subnormal gets its integer bit: a normal number) */
long double scn_dec_fold_ld(long double x)
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

int scn_dec_add_tmp(struct gen *g, int type)
{
    if (g->nt >= SCN_CASE_MAX_ARGS) return -1;
    memset(&g->tmp[g->nt], 0, sizeof g->tmp[0]);
    g->tmp[g->nt].type = (unsigned char)type;
    return (int)g->nt++;
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

int scn_dec_value_int(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
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
    int k = scn_dec_add_tmp(g, type);
    int_value(&g->tmp[k], vc, r);
    return k;
}

int scn_dec_value_char(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    static const unsigned wide[4] = { 0xe9, 0x20ac, 0x1f600, 0xd800 };
    int k;
    if (!(x->flags & SCN_DECODE_NO_WIDE) && (lsel & 4)) {
        s->len = L_L;
        k = scn_dec_add_tmp(g, SCN_ARG_WINT);
        unsigned b = rb(r);
        g->tmp[k].v.u = b < 0xc0 ? b : b < 0xf0 ? wide[b & 3] : rb3(r);
    } else {
        k = scn_dec_add_tmp(g, SCN_ARG_INT);
        unsigned b = rb(r);
        g->tmp[k].v.i = vc == 7 ? (int)(b | rb(r) << 8) - 32768 : (int)b;
    }
    return k;
}

int scn_dec_value_str(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    int wide = !(x->flags & SCN_DECODE_NO_WIDE) && (lsel & 4);
    if (wide) s->len = L_L;
    int k = scn_dec_add_tmp(g, wide ? SCN_ARG_WSTR : SCN_ARG_STR);
    return add_string(g, k, r, wide, x->kern, vc) ? -1 : k;
}

int scn_dec_value_ptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    int k = scn_dec_add_tmp(g, SCN_ARG_PTR);
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

int scn_dec_value_n(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    static const unsigned char nl[] = { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T };
    static const unsigned char nt[] = { SCN_N_INT, SCN_N_SCHAR, SCN_N_SHORT, SCN_N_LONG,
                                        SCN_N_LLONG, SCN_N_INTMAX, SCN_N_SIZE, SCN_N_PTRDIFF };
    (void)vc, (void)r, (void)x;
    s->len = nl[lsel];
    int k = scn_dec_add_tmp(g, SCN_ARG_N);
    g->tmp[k].ntype = nt[lsel];
    return k;
}

/* A special value's choice byte b: b % 32 picks it; with SCN_DECODE_ROUND,
 * value class 0 and b >> 5 == 7 (one float value in 64), the argument's
 * index k also picks the case's rounding direction (upward, downward, toward
 * zero by k % 3: not tied to the value). */
static double special_value(struct gen *g, unsigned vc, int k, struct rd *r, const struct dctx *x)
{
    _Static_assert(sizeof dbl_special / sizeof dbl_special[0] == 32, "b % 32 picks a special value");
    unsigned b = rb(r);
    if ((x->flags & SCN_DECODE_ROUND) && vc == 0 && (b >> 5) == 7)
        g->c->round = (unsigned char)(SCN_ROUND_UPWARD + k % 3);
    return dbl_special[b % 32];
}

int scn_dec_value_float(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x)
{
    int k;
    if (lsel >= 6) {
        s->len = L_BIGL;
        k = scn_dec_add_tmp(g, SCN_ARG_LDOUBLE);
        if (vc < 3) g->tmp[k].v.ld = special_value(g, vc, k, r, x);
        else if (vc == 3) g->tmp[k].v.ld = (long double)(int8_t)rb(r) / 8;
        else g->tmp[k].v.ld = ld_from_raw(r, vc < 6 ? 70 : vc == 6 ? 1100 : 0);
        return k;
    }
    s->len = lsel == 5 ? L_L : L_NONE;
    k = scn_dec_add_tmp(g, SCN_ARG_DOUBLE);
    double d;
    if (vc < 3) d = special_value(g, vc, k, r, x);
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
