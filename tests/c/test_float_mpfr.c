/* Conformance of the reference's floating-point converter (conv_float)
 * against an independent oracle: MPFR.  Each value is converted exactly to an
 * mpfr_t (64-bit precision holds every double and x86 long double) and
 * formatted with mpfr_snprintf (%.*R*e, %.*R*f) in the matching rounding
 * mode; %g and %a are built here from MPFR results following the C17 text
 * (7.21.6.1p8), since MPFR's own %Rg/%Ra conventions differ from C's.
 * Flags and width are applied by this file's own small padder.
 *
 * Also checks: a list of hard cases with literal expected strings, the fast
 * digit source against the big-number one (bit-for-bit), sink truncation and
 * counting for huge precisions.
 *
 * SCN_FLOAT_ITERS=N (default 1000) sets the number of random values per type;
 * SCN_FLOAT_SEED=S the seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <ctype.h>
#include <float.h>
#include <gmp.h>
#include <mpfr.h>

/* internal.h's enum fp_class uses FP_NAN, which <math.h> defines as a macro:
 * this file does without <math.h>. */
#include "internal.h"
#define INFINITY __builtin_inf()
#define NAN __builtin_nan("")
#define nextafter __builtin_nextafter
#define ldexp __builtin_ldexp

void conv_float_ex(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                   enum ref_rounding rm, int force_big);

static long failures, checks;
static char *outbuf, *expbuf, *tmpbuf;
#define BUFSZ 40000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd64() % n); }

static const char *rm_name[4] = {"RN", "RZ", "RU", "RD"};
static const mpfr_rnd_t rm_mpfr[4] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD};

/* ---- the value under test, in both forms ---- */
struct tv {
    struct fp_value v;
    int isld;
    double d;
    long double ld;
    mpfr_t x; /* exact value (finite only) */
};

static void tv_from_d(struct tv *t, double d)
{
    t->isld = 0;
    t->d = d;
    t->v = fp_from_double(d);
    mpfr_set_d(t->x, d, MPFR_RNDN);
}

static void tv_from_ld(struct tv *t, long double ld)
{
    t->isld = 1;
    t->ld = ld;
    t->v = fp_from_long_double(ld);
    mpfr_set_ld(t->x, ld, MPFR_RNDN);
}

static void describe(const struct tv *t, char *o, size_t n)
{
    if (t->isld) {
        unsigned char raw[16] = {0};
        memcpy(raw, &t->ld, 10);
        uint64_t m;
        memcpy(&m, raw, 8);
        snprintf(o, n, "ldouble:%La (se=%04x m=%016llx)", t->ld,
                 raw[8] | raw[9] << 8, (unsigned long long)m);
    } else {
        snprintf(o, n, "double:%a", t->d);
    }
}

/* ---- run the converter ---- */
static size_t run(const struct tv *t, char conv, unsigned flags, int width, int prec,
                  int rm, int force_big, char *buf, size_t size)
{
    struct fmt_spec sp = {0};
    struct sink w = {buf, size, 0};
    sp.conv = (unsigned char)conv;
    sp.flags = flags;
    sp.width = width;
    sp.prec = prec;
    sp.length = t->isld ? LEN_BIG_L : LEN_NONE;
    conv_float_ex(&w, &sp, &t->v, (enum ref_rounding)rm, force_big);
    if (size)
        buf[w.len < size ? w.len : size - 1] = 0;
    return w.len;
}

/* ---- expected strings ---- */

/* MPFR %e / %f of the signed value, sign stripped. */
static void mp_ef(const struct tv *t, char conv, int hash, int prec, int rm, char *o)
{
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%%s.*R*%c", hash ? "#" : "", conv);
    mpfr_snprintf(tmpbuf, BUFSZ, fmt, prec, rm_mpfr[rm], t->x);
    strcpy(o, tmpbuf[0] == '-' ? tmpbuf + 1 : tmpbuf);
}

static void strip_zeros(char *s)
{
    /* remove trailing zeros of the fraction (before an exponent if any) */
    char *e = strchr(s, 'e');
    char *dot = strchr(s, '.');
    if (!dot)
        return;
    char *end = e ? e : s + strlen(s);
    char *p = end;
    while (p > dot + 1 && p[-1] == '0')
        p--;
    if (p == dot + 1)
        p = dot;
    memmove(p, end, strlen(end) + 1);
}

/* C17 7.21.6.1p8 %g: P = prec (6 if none, 1 if 0); X = exponent of the %e
 * conversion with precision P-1; f style with precision P-1-X when P > X >= -4,
 * else e style with P-1; trailing zeros (and a bare '.') removed unless '#'. */
static void exp_g(const struct tv *t, int hash, int prec, int rm, char *o)
{
    int P = prec < 0 ? 6 : prec == 0 ? 1 : prec;
    mp_ef(t, 'e', hash, P - 1, rm, o);
    long X = strtol(strchr(o, 'e') + 1, NULL, 10);
    if (P > X && X >= -4)
        mp_ef(t, 'f', hash, (int)(P - 1 - X), rm, o);
    if (!hash)
        strip_zeros(o);
}

/* %a: leading hex digit 1 (0 for zero); exact without precision; otherwise
 * rounded to prec hex digits in direction rm (a carry to 2 renormalises). */
static void exp_a(const struct tv *t, int prec, int rm, char *o)
{
    if (mpfr_zero_p(t->x)) {
        if (prec <= 0)
            strcpy(o, "0x0p+0");
        else {
            strcpy(o, "0x0.");
            memset(o + 4, '0', (size_t)prec);
            strcpy(o + 4 + prec, "p+0");
        }
        return;
    }
    int P = prec < 0 ? 16 : prec;
    long X = mpfr_get_exp(t->x) - 1;
    mpfr_t y;
    mpz_t z, lim;
    mpfr_init2(y, 256);
    mpz_inits(z, lim, NULL);
    mpfr_mul_2si(y, t->x, (long)(4 * P) - X, MPFR_RNDN); /* exact */
    mpfr_rint(y, y, rm_mpfr[rm]);
    mpfr_abs(y, y, MPFR_RNDN);
    mpfr_get_z(z, y, MPFR_RNDN);
    mpz_ui_pow_ui(lim, 16, (unsigned long)P);
    mpz_mul_ui(lim, lim, 2);
    if (mpz_cmp(z, lim) >= 0) {
        mpz_tdiv_q_2exp(z, z, 1);
        X++;
    }
    mpz_tdiv_q_2exp(lim, lim, 1);
    mpz_sub(z, z, lim); /* fraction digits */
    char *hex = malloc((size_t)P + 8), *frac = malloc((size_t)P + 8);
    mpz_get_str(hex, 16, z);
    size_t hl = strlen(hex);
    if (P == 0) {
        frac[0] = 0;
    } else {
        memset(frac, '0', (size_t)P - hl);
        strcpy(frac + P - hl, hex);
    }
    if (prec < 0) {
        int n = P;
        while (n > 0 && frac[n - 1] == '0')
            n--;
        frac[n] = 0;
    }
    sprintf(o, "0x1%s%sp%+ld", (frac[0] || prec > 0) ? "." : "", frac, X);
    free(hex);
    free(frac);
    mpfr_clear(y);
    mpz_clears(z, lim, NULL);
}

/* sign, width, flags, upper-case applied to a body */
static void apply_field(const struct tv *t, char conv, unsigned flags, int width,
                        const char *body, char *o)
{
    char sign = t->v.neg ? '-' : (flags & FL_PLUS) ? '+' : (flags & FL_SPACE) ? ' ' : 0;
    int finite = t->v.cls == FP_FINITE;
    size_t bl = strlen(body);
    size_t pre = (conv == 'a' && finite) ? 2 : 0;
    size_t tot = bl + (sign ? 1 : 0);
    size_t pad = width > 0 && (size_t)width > tot ? (size_t)width - tot : 0;
    char *p = o;
    if (!(flags & FL_MINUS) && !((flags & FL_ZERO) && finite)) {
        memset(p, ' ', pad);
        p += pad;
    }
    if (sign)
        *p++ = sign;
    memcpy(p, body, pre);
    p += pre;
    if (!(flags & FL_MINUS) && (flags & FL_ZERO) && finite) {
        memset(p, '0', pad);
        p += pad;
    }
    strcpy(p, body + pre);
    p += strlen(p);
    if (flags & FL_MINUS) {
        memset(p, ' ', pad);
        p += pad;
    }
    *p = 0;
    if (flags & FL_UPPER)
        for (p = o; *p; p++)
            *p = (char)toupper((unsigned char)*p);
}

static void expected(const struct tv *t, char conv, unsigned flags, int width, int prec,
                     int rm, char *o)
{
    char *body = malloc(BUFSZ);
    int hash = (flags & FL_HASH) != 0;
    if (t->v.cls != FP_FINITE) {
        strcpy(body, t->v.cls == FP_INF ? "inf" : "nan");
    } else if (conv == 'e' || conv == 'f') {
        mp_ef(t, conv, hash, prec < 0 ? 6 : prec, rm, body);
    } else if (conv == 'g') {
        exp_g(t, hash, prec, rm, body);
    } else {
        exp_a(t, prec, rm, body);
        if (hash && !strchr(body, '.')) {
            char *pp = strchr(body, 'p');
            memmove(pp + 1, pp, strlen(pp) + 1);
            *pp = '.';
        }
    }
    apply_field(t, conv, flags, width, body, o);
    free(body);
}

static void check1(const struct tv *t, char conv, unsigned flags, int width, int prec, int rm)
{
    size_t n = run(t, conv, flags, width, prec, rm, 0, outbuf, BUFSZ);
    expected(t, conv, flags, width, prec, rm, expbuf);
    checks++;
    int bad = strcmp(outbuf, expbuf) != 0 || n != strlen(expbuf);
    if (!bad && t->v.cls == FP_FINITE && conv != 'a') {
        /* the big-number source must give the same bytes */
        size_t n2 = run(t, conv, flags, width, prec, rm, 1, tmpbuf, BUFSZ);
        if (n2 != n || strcmp(tmpbuf, outbuf) != 0) {
            bad = 1;
            strcpy(expbuf, "(fast path differs from big path) ");
            strncat(expbuf, tmpbuf, 200);
        }
    }
    if (!bad) {
        /* the same conversion into a short buffer: a prefix, NUL-terminated,
         * and the same count (size 0: nothing written at all) */
        size_t size = rndn((unsigned)(n < 100 ? n + 2 : 100));
        char *small = malloc(size ? size : 1);
        small[0] = 'X';
        size_t n3 = run(t, conv, flags, width, prec, rm, 0, size ? small : NULL, size);
        if (n3 != n || (size == 0 ? 0 : strlen(small) != size - 1 ||
                                         strncmp(small, outbuf, size - 1) != 0)) {
            bad = 1;
            snprintf(expbuf, BUFSZ, "(truncated to size %zu: count %zu, \"%s\")", size, n3,
                     size ? small : "");
        }
        free(small);
    }
    if (bad && failures++ < 30) {
        char d[120];
        describe(t, d, sizeof d);
        fprintf(stderr, "FAIL %s %c flags=%#x width=%d prec=%d %s\n  got      \"%.300s\" (%zu)\n"
                "  expected \"%.300s\"\n", d, conv, flags, width, prec, rm_name[rm], outbuf, n,
                expbuf);
    }
}

/* ---- literal hard cases (expected strings from the C text, not the code) ---- */
static void lit(const char *what, const struct tv *t, char conv, unsigned flags, int width,
                int prec, int rm, const char *exp)
{
    size_t n = run(t, conv, flags, width, prec, rm, 0, outbuf, BUFSZ);
    checks++;
    if (strcmp(outbuf, exp) != 0 || n != strlen(exp)) {
        failures++;
        fprintf(stderr, "FAIL literal %s: got \"%.200s\" expected \"%.200s\"\n", what, outbuf, exp);
    }
}

static void literal_cases(struct tv *t)
{
    tv_from_d(t, 0.5);  lit("%.0f 0.5", t, 'f', 0, 0, 0, 0, "0");
    tv_from_d(t, 1.5);  lit("%.0f 1.5", t, 'f', 0, 0, 0, 0, "2");
    tv_from_d(t, 2.5);  lit("%.0f 2.5", t, 'f', 0, 0, 0, 0, "2");
    tv_from_d(t, 2.5);  lit("%.0f 2.5 RU", t, 'f', 0, 0, 0, 2, "3");
    tv_from_d(t, -2.5); lit("%.0f -2.5 RU", t, 'f', 0, 0, 0, 2, "-2");
    tv_from_d(t, -2.5); lit("%.0f -2.5 RD", t, 'f', 0, 0, 0, 3, "-3");
    tv_from_d(t, -2.5); lit("%.0f -2.5 RZ", t, 'f', 0, 0, 0, 1, "-2");
    tv_from_d(t, 1e-300); lit("%.3f 1e-300 RU", t, 'f', 0, 0, 3, 2, "0.001");
    tv_from_d(t, -1e-300); lit("%.3f -1e-300 RU", t, 'f', 0, 0, 3, 2, "-0.000");
    tv_from_d(t, 0.0);  lit("%f 0", t, 'f', 0, 0, -1, 0, "0.000000");
    tv_from_d(t, -0.0); lit("%e -0", t, 'e', 0, 0, -1, 0, "-0.000000e+00");
    tv_from_d(t, -0.0); lit("%g -0", t, 'g', 0, 0, -1, 0, "-0");
    tv_from_d(t, 0.0);  lit("%#g 0", t, 'g', FL_HASH, 0, -1, 0, "0.00000");
    tv_from_d(t, 0.0);  lit("%a 0", t, 'a', 0, 0, -1, 0, "0x0p+0");
    tv_from_d(t, -0.0); lit("%.2a -0", t, 'a', 0, 0, 2, 0, "-0x0.00p+0");
    tv_from_d(t, 1.0);  lit("%a 1", t, 'a', 0, 0, -1, 0, "0x1p+0");
    tv_from_d(t, 1.0);  lit("%#a 1", t, 'a', FL_HASH, 0, -1, 0, "0x1.p+0");
    tv_from_d(t, 3.0);  lit("%A 3", t, 'a', FL_UPPER, 0, -1, 0, "0X1.8P+1");
    tv_from_d(t, 1.5);  lit("%.0a 1.5", t, 'a', 0, 0, 0, 0, "0x1p+1");
    tv_from_d(t, 0x1.08p0); lit("%.1a 0x1.08", t, 'a', 0, 0, 1, 0, "0x1.0p+0");
    tv_from_d(t, 0x1.18p0); lit("%.1a 0x1.18", t, 'a', 0, 0, 1, 0, "0x1.2p+0");
    tv_from_d(t, 0x1.f8p0); lit("%.1a 0x1.f8", t, 'a', 0, 0, 1, 0, "0x1.0p+1");
    tv_from_d(t, 0x1.01p0); lit("%.1a 0x1.01 RU", t, 'a', 0, 0, 1, 2, "0x1.1p+0");
    tv_from_d(t, 0x1.01p0); lit("%.1a 0x1.01 RD", t, 'a', 0, 0, 1, 3, "0x1.0p+0");
    tv_from_d(t, 4.9406564584124654e-324); lit("%a DBL_TRUE_MIN", t, 'a', 0, 0, -1, 0, "0x1p-1074");
    tv_from_d(t, 0x0.8p-1022); lit("%a subnormal", t, 'a', 0, 0, -1, 0, "0x1p-1023");
    tv_from_d(t, 0x1.fffffffffffffp+1023);
    lit("%a DBL_MAX", t, 'a', 0, 0, -1, 0, "0x1.fffffffffffffp+1023");
    tv_from_d(t, 1.0);  lit("%.20a 1", t, 'a', 0, 0, 20, 0, "0x1.00000000000000000000p+0");
    tv_from_d(t, 2.2250738585072014e-308);
    lit("%.60e DBL_MIN", t, 'e', 0, 0, 60, 0,
        "2.225073858507201383090232717332404064219215980462331830553327e-308");
    tv_from_d(t, 0.1);  lit("%.17g 0.1", t, 'g', 0, 0, 17, 0, "0.10000000000000001");
    tv_from_d(t, 0.1);  lit("%.30f 0.1", t, 'f', 0, 0, 30, 0, "0.100000000000000005551115123126");
    tv_from_d(t, 1e23); lit("%f 1e23", t, 'f', 0, 0, -1, 0, "99999999999999991611392.000000");
    tv_from_d(t, 100000.0); lit("%g 1e5", t, 'g', 0, 0, -1, 0, "100000");
    tv_from_d(t, 1000000.0); lit("%g 1e6", t, 'g', 0, 0, -1, 0, "1e+06");
    tv_from_d(t, 0.0001); lit("%g 1e-4", t, 'g', 0, 0, -1, 0, "0.0001");
    tv_from_d(t, 0.00001); lit("%g 1e-5", t, 'g', 0, 0, -1, 0, "1e-05");
    tv_from_d(t, 999999.5); lit("%g 999999.5", t, 'g', 0, 0, -1, 0, "1e+06");
    tv_from_d(t, 9.5);  lit("%.0e 9.5", t, 'e', 0, 0, 0, 0, "1e+01");
    tv_from_d(t, 9.5);  lit("%#.0e 9.5", t, 'e', FL_HASH, 0, 0, 0, "1.e+01");
    tv_from_d(t, 12250.25); lit("%.2e 12250.25", t, 'e', 0, 0, 2, 0, "1.23e+04");
    tv_from_d(t, 12250.0); lit("%.2e 12250", t, 'e', 0, 0, 2, 0, "1.22e+04");
    tv_from_d(t, 12350.0); lit("%.2e 12350", t, 'e', 0, 0, 2, 0, "1.24e+04");
    tv_from_d(t, 1e100); lit("%.3e 1e100", t, 'e', 0, 0, 3, 0, "1.000e+100");
    tv_from_d(t, 3.14159); lit("%+010.3f", t, 'f', FL_PLUS | FL_ZERO, 10, 3, 0, "+00003.142");
    tv_from_d(t, 3.14159); lit("%-10.3f|", t, 'f', FL_MINUS | FL_ZERO, 10, 3, 0, "3.142     ");
    tv_from_d(t, 3.14159); lit("% .3e", t, 'e', FL_SPACE, 0, 3, 0, " 3.142e+00");
    tv_from_d(t, 255.0); lit("%#012a", t, 'a', FL_ZERO | FL_HASH, 12, -1, 0, "0x0001.fep+7");
    tv_from_d(t, INFINITY); lit("%05f inf", t, 'f', FL_ZERO, 5, -1, 0, "  inf");
    tv_from_d(t, -INFINITY); lit("%E -inf", t, 'e', FL_UPPER, 0, -1, 0, "-INF");
    tv_from_d(t, -NAN); lit("%f -nan", t, 'f', 0, 0, -1, 0, "-nan");
    tv_from_d(t, NAN); lit("%+G nan", t, 'g', FL_PLUS | FL_UPPER, 0, -1, 0, "+NAN");
    tv_from_d(t, NAN); lit("% -6a nan", t, 'a', FL_SPACE | FL_MINUS, 6, -1, 0, " nan  ");
    tv_from_ld(t, 1.0L); lit("%La 1", t, 'a', 0, 0, -1, 0, "0x1p+0");
    tv_from_ld(t, 0.1L); lit("%La 0.1", t, 'a', 0, 0, -1, 0, "0x1.999999999999999ap-4");
    tv_from_ld(t, 0x1p-16445L); lit("%La LDBL_TRUE_MIN", t, 'a', 0, 0, -1, 0, "0x1p-16445");
    tv_from_ld(t, LDBL_MAX); lit("%La LDBL_MAX", t, 'a', 0, 0, -1, 0, "0x1.fffffffffffffffep+16383");
    tv_from_ld(t, 0.1L); lit("%.25Lf 0.1", t, 'f', 0, 0, 25, 0, "0.1000000000000000000013553");

    /* special long double encodings: bits -> expected */
    static const struct { uint16_t se; uint64_t m; const char *exp; } enc[] = {
        {0x7fff, 0x8000000000000000ull, "inf"},
        {0xffff, 0x8000000000000000ull, "-inf"},
        {0x7fff, 0xc000000000000000ull, "nan"},
        {0xffff, 0xc000000000000000ull, "-nan"},
        {0x7fff, 0x0000000000000000ull, "nan"},   /* pseudo-infinity */
        {0x7fff, 0x4000000000000000ull, "nan"},   /* pseudo-NaN */
        {0x3fff, 0x4000000000000000ull, "nan"},   /* unnormal */
        {0x0000, 0x8000000000000000ull, "3.3621e-4932"}, /* pseudo-denormal = 2^-16382 */
        {0x0001, 0x8000000000000000ull, "3.3621e-4932"}, /* LDBL_MIN */
        {0x0000, 0x0000000000000001ull, "3.6452e-4951"}, /* LDBL_TRUE_MIN */
    };
    for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
        unsigned char raw[16] = {0};
        long double ld;
        memcpy(raw, &enc[i].m, 8);
        raw[8] = (unsigned char)enc[i].se;
        raw[9] = (unsigned char)(enc[i].se >> 8);
        memcpy(&ld, raw, sizeof ld);
        t->isld = 1;
        t->ld = ld;
        t->v = fp_from_long_double(ld);
        lit("ld encoding", t, 'e', 0, 0, 4, 0, enc[i].exp);
    }
}

/* ---- exact long expansions and huge precisions ---- */
static void big_cases(struct tv *t)
{
    /* LDBL_MAX with %Lf: all 4933 integer digits, checked against MPFR */
    tv_from_ld(t, LDBL_MAX);
    check1(t, 'f', 0, 0, -1, 0);
    check1(t, 'f', 0, 0, 0, 1);
    /* the integer part has exactly 4933 digits */
    size_t n = run(t, 'f', 0, 0, 0, 0, 0, outbuf, BUFSZ);
    checks++;
    if (n != 4933 || strncmp(outbuf, "11897314953572317650", 20) != 0) {
        failures++;
        fprintf(stderr, "FAIL %%.0Lf LDBL_MAX: %zu digits, starts %.20s\n", n, outbuf);
    }
    /* LDBL_TRUE_MIN: %.16500Lf and %.20000Le are exact; past the expansion zeros */
    tv_from_ld(t, 0x1p-16445L);
    for (int rm = 0; rm < 4; rm++) {
        check1(t, 'f', 0, 0, 16500, rm);
        check1(t, 'e', 0, 0, 20000, rm);
        check1(t, 'e', 0, 0, 11000, rm);
        check1(t, 'g', 0, 0, 11400, rm);
    }
    n = run(t, 'e', 0, 0, 20000, 0, 0, outbuf, BUFSZ);
    checks++;
    /* 2^-16445 = 5^16445 * 10^-16445: 11495 significant digits, the last a 5 */
    if (n != 20008 || strspn(outbuf + 11496, "0") != 20000 - 11494 ||
        outbuf[11495] != '5' || strcmp(outbuf + 20002, "e-4951") != 0) {
        failures++;
        fprintf(stderr, "FAIL %%.20000Le LDBL_TRUE_MIN (len %zu) tail \"%s\"\n", n, outbuf + 19990);
    }
    tv_from_d(t, 4.9406564584124654e-324);
    for (int rm = 0; rm < 4; rm++) {
        check1(t, 'f', 0, 0, 1100, rm);
        check1(t, 'e', 0, 0, 760, rm);
        check1(t, 'e', 0, 0, 700, rm);
    }
    /* huge precision: counted, not stored; output clipped to the buffer */
    tv_from_d(t, 1.0 / 3);
    {
        char small[32];
        struct fmt_spec sp = {0};
        struct sink w = {small, sizeof small, 0};
        sp.conv = 'f';
        sp.prec = 2000000000;
        conv_float(&w, &sp, &t->v, REF_ROUND_NEAREST);
        small[sizeof small - 1] = 0;
        checks++;
        if (w.len != 2000000002u || strcmp(small, "0.33333333333333331482961625624") != 0) {
            failures++;
            fprintf(stderr, "FAIL %%.2000000000f: len %zu \"%s\"\n", w.len, small);
        }
        w.buf = NULL; w.size = 0; w.len = 0;
        sp.conv = 'e';
        sp.prec = 2147483647;
        sp.width = 5;
        conv_float(&w, &sp, &t->v, REF_ROUND_UPWARD);
        checks++;
        if (w.len != 2147483647u + 6) {
            failures++;
            fprintf(stderr, "FAIL %%.INT_MAXe: len %zu\n", w.len);
        }
    }
}

/* ---- random values ---- */
static const char convs[4] = {'a', 'e', 'f', 'g'};

static int rand_prec(char conv, const struct tv *t)
{
    unsigned r = rndn(100);
    if (r < 10)
        return -1;
    if (r < 85)
        return (int)rndn(41);
    if (conv == 'f' && t->v.cls == FP_FINITE && t->v.exp < -200)
        return 200 + (int)rndn(t->isld ? 5000 : 1200);
    return 40 + (int)rndn(t->isld ? 400 : 800);
}

static unsigned rand_flags(void)
{
    static const unsigned f[] = {FL_MINUS, FL_PLUS, FL_SPACE, FL_HASH, FL_ZERO, FL_UPPER};
    unsigned fl = 0;
    if (rndn(3) == 0)
        for (int i = 0; i < 6; i++)
            if (rndn(4) == 0)
                fl |= f[i];
    return fl;
}

static void check_value(const struct tv *t, int per_value)
{
    for (int i = 0; i < per_value; i++) {
        char conv = convs[rndn(4)];
        if (conv == 'f' && t->v.cls == FP_FINITE && t->v.exp > 200 && rndn(8) != 0)
            conv = 'e'; /* keep the (slow) long %f of huge values occasional */
        unsigned fl = rand_flags();
        int width = rndn(4) == 0 ? (int)rndn(40) : 0;
        check1(t, conv, fl, width, rand_prec(conv, t), (int)rndn(4));
    }
}

static double rand_double(void)
{
    uint64_t b;
    double d;
    unsigned kind = rndn(8);
    if (kind <= 2) {
        b = rnd64(); /* any bit pattern: subnormals, inf, nan */
        memcpy(&d, &b, 8);
        return d;
    }
    if (kind == 3) {
        /* near a power of ten: +-few ulps */
        mpfr_t p;
        mpfr_init2(p, 53);
        mpfr_ui_pow_ui(p, 10, rndn(300), MPFR_RNDN);
        d = mpfr_get_d(p, MPFR_RNDN);
        if (rndn(2))
            d = 1 / d;
        mpfr_clear(p);
        int k = (int)rndn(5) - 2;
        for (; k > 0; k--) d = nextafter(d, INFINITY);
        for (; k < 0; k++) d = nextafter(d, 0);
        return rndn(2) ? -d : d;
    }
    if (kind == 4) {
        /* dyadic with few bits: ties at some %f/%e precisions */
        d = ldexp((double)(rnd64() >> (40 + rndn(24))), -(int)rndn(30));
        return rndn(2) ? -d : d;
    }
    if (kind == 5) {
        /* ordinary magnitudes */
        d = ldexp((double)(rnd64() >> 11) / 9007199254740992.0 + 1, (int)rndn(200) - 70);
        return rndn(2) ? -d : d;
    }
    if (kind == 6) {
        /* subnormal */
        b = rnd64() & ((1ull << 52) - 1);
        b >>= rndn(52);
        b |= (uint64_t)rndn(2) << 63;
        memcpy(&d, &b, 8);
        return d;
    }
    /* runs of 9s / decimal round numbers */
    static const double vals[] = {0.5, 1.5, 2.5, 9.5, 99.5, 999999.5, 0.125, 0.375, 9.999999,
                                  99999.99, 0.9999999999, 1e15, 1e16, 1e17, 1e22, 1e23,
                                  123456.789, 3.14159, 1e-5, 6.02e23, 5e-324, 1.7976931348623157e308,
                                  2.2250738585072014e-308, 0.1, 0.2, 0.3};
    d = vals[rndn(sizeof vals / sizeof vals[0])];
    return rndn(2) ? -d : d;
}

static long double rand_ldouble(void)
{
    unsigned char raw[16] = {0};
    uint64_t m = rnd64();
    unsigned se;
    unsigned kind = rndn(8);
    long double ld;
    if (kind <= 3) {
        se = rndn(0x8000); /* any exponent */
        m |= 1ull << 63;
        if (se == 0x7fff && rndn(2))
            m = 1ull << 63;
    } else if (kind == 4) {
        se = 0; /* denormal */
        m &= ~(1ull << 63);
        m >>= rndn(63);
    } else if (kind == 5) {
        se = 16383 - 70 + rndn(140); /* ordinary magnitudes */
        m |= 1ull << 63;
    } else if (kind == 6) {
        se = 16383 + rndn(64); /* integers and halves */
        m |= 1ull << 63;
        m &= ~0ull << rndn(64);
        m |= 1ull << 63;
    } else {
        se = 16383 - 20 + rndn(40);
        m = (1ull << 63) | (m & (~0ull << (40 + rndn(24)))); /* few bits: ties */
    }
    se |= (unsigned)rndn(2) << 15;
    memcpy(raw, &m, 8);
    raw[8] = (unsigned char)se;
    raw[9] = (unsigned char)(se >> 8);
    memcpy(&ld, raw, sizeof ld);
    return ld;
}

/* values on the edges of the converter's internal routes: binary exponents
 * around 2^-128..2^-60 and 2^0..2^140, full 64-bit significands */
static void edge_values(struct tv *t)
{
    for (int e = -140; e <= 140; e++) {
        if (e > -50 && e < 50 && (e % 8) != 0)
            continue;
        for (int j = 0; j < 3; j++) {
            uint64_t m = rnd64() | (1ull << 63);
            if (j == 1)
                m |= 1; /* odd: longest expansion */
            unsigned char raw[16] = {0};
            unsigned se = (unsigned)(16383 + 63 + e) | (unsigned)rndn(2) << 15;
            long double ld;
            memcpy(raw, &m, 8);
            raw[8] = (unsigned char)se;
            raw[9] = (unsigned char)(se >> 8);
            memcpy(&ld, raw, sizeof ld);
            tv_from_ld(t, ld);
            for (int k = 0; k < 6; k++)
                check1(t, convs[1 + rndn(3)], 0, 0, (int)rndn(25), (int)rndn(4));
            tv_from_d(t, ldexp((double)(m >> 11), e + 11));
            for (int k = 0; k < 6; k++)
                check1(t, convs[1 + rndn(3)], 0, 0, (int)rndn(25), (int)rndn(4));
        }
    }
}

/* exact multiples of large powers of 5 above 2^128: remainders exactly zero
 * or one half in the huge-value route */
static void exact_huge(struct tv *t)
{
    for (int k = 60; k <= 100; k++) {
        long double ld = __builtin_ldexpl(7450580596923828125.0L, k);         /* 5^27 */
        tv_from_ld(t, ld);
        for (int p = 0; p <= 19; p++)
            check1(t, p & 1 ? 'e' : 'g', 0, 0, p, (int)rndn(4));
        tv_from_ld(t, __builtin_ldexpl(3725290298461914062.5L * 2, k - 1)); /* 5^27 / 2 */
        for (int p = 0; p <= 19; p++)
            check1(t, 'e', 0, 0, p, (int)rndn(4));
        tv_from_d(t, ldexp(2384185791015625.0, k + 20)); /* 5^22 */
        for (int p = 0; p <= 19; p++)
            check1(t, p & 1 ? 'e' : 'g', 0, 0, p, (int)rndn(4));
    }
}

/* ---- the truncated digit source (tiny values, float_big.c fp_trunc_init):
 * precisions on both sides of where it hands over to the full expansion
 * (1152 digits), exact tiny dyadics (remainder zero: ties and exact ends),
 * values whose expansion ends right at the kept digits, every mode ---- */
static void trunc_cases(struct tv *t)
{
    static const int precs[] = {0, 1, 17, 18, 19, 20, 21, 29, 30, 60, 400, 1100, 1146, 1147,
                                1148, 1149, 1150, 1151, 1152, 1153, 1160};
    for (int k = 0; k < 20; k++) {
        int ld = k & 1;
        switch (k / 2) {
        case 0: tv_from_d(t, 4.9406564584124654e-324); break;     /* DBL_TRUE_MIN */
        case 1: tv_from_d(t, ldexp(1.0, -100)); break;            /* just past the fast source */
        case 2: tv_from_d(t, ldexp(5.0, -110)); break;
        case 3: tv_from_d(t, ldexp(1.0, -1074 + (int)rndn(900))); break;
        case 4: tv_from_d(t, 0x1.fffffffffffffp-1023); break;
        case 5: tv_from_d(t, 1e-300 * (1 + rndn(100))); break;
        case 6: tv_from_ld(t, __builtin_ldexpl(1.0L, -16445)); break; /* LDBL_TRUE_MIN */
        case 7: tv_from_ld(t, __builtin_ldexpl(3.0L, -16384)); break;
        case 8: tv_from_ld(t, __builtin_ldexpl((long double)(rnd64() | 1), -16445 + (int)rndn(16000))); break;
        default: tv_from_ld(t, 1e-4000L * (1 + rndn(1000))); break;
        }
        if (ld && t->isld == 0)
            tv_from_ld(t, (long double)t->d * __builtin_ldexpl(1.0L, -(int)rndn(15000)));
        for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
            int rm = (int)rndn(4);
            check1(t, 'e', 0, 0, precs[i], rm);
            check1(t, 'g', FL_HASH, 0, precs[i], (rm + 1) % 4);
            if (rndn(4) == 0)
                check1(t, 'f', 0, 0, precs[i] + (int)rndn(400), (rm + 2) % 4);
        }
    }
}

/* ---- the long-division source for huge values (float_big.c fp_huge_src):
 * 5^k * 2^j (remainders exactly zero where 10^x divides the value: ties),
 * LDBL_MAX, DBL_MAX and random huge values, precisions placing the kept
 * digits 14..40 digits above the units and up to the 1152-digit limit ---- */
static void huge_cases(struct tv *t)
{
    for (int k = 0; k < 40; k++) {
        int j = 64 + (int)rndn(k & 1 ? 16000 : 900);
        switch (k % 5) {
        case 0: tv_from_ld(t, __builtin_ldexpl(7450580596923828125.0L, j)); break; /* 5^27 */
        case 1: tv_from_ld(t, __builtin_ldexpl((long double)(1ull << 40) * 95367431640625.0L, j)); break;
        case 2:
            if (k & 1)
                tv_from_ld(t, 1.18973149535723176502e+4932L); /* LDBL_MAX */
            else
                tv_from_d(t, 1.7976931348623157e308); /* DBL_MAX */
            break;
        case 3: tv_from_d(t, ldexp(2384185791015625.0 * (1 + rndn(3)), 64 + (int)rndn(900))); break;
        default: tv_from_ld(t, __builtin_ldexpl((long double)(rnd64() | 1), j)); break;
        }
        long E = (long)(t->isld ? (double)__builtin_log10l(__builtin_fabsl(t->ld)) : __builtin_log10(t->d));
        for (int i = 0; i < 8; i++) {
            long p = E - 14 - (long)rndn(30); /* x = E - 1 - p around 14..44 */
            if (i == 6) p = 1140 + (long)rndn(20);
            if (i == 7) p = (long)rndn(40);
            if (p < 0) p = 0;
            int rm = (int)rndn(4);
            check1(t, 'e', 0, 0, (int)p, rm);
            check1(t, 'g', (i & 1) ? FL_HASH : 0, 0, (int)p + 1, (rm + 1) % 4);
        }
    }
}

int main(void)
{
    long iters = 1000;
    const char *e = getenv("SCN_FLOAT_ITERS");
    if (e)
        iters = atol(e);
    e = getenv("SCN_FLOAT_SEED");
    if (e)
        rng_state = strtoull(e, NULL, 0);
    outbuf = malloc(BUFSZ);
    expbuf = malloc(BUFSZ);
    tmpbuf = malloc(BUFSZ);
    struct tv t;
    mpfr_init2(t.x, 64);

    literal_cases(&t);
    big_cases(&t);
    edge_values(&t);
    exact_huge(&t);
    trunc_cases(&t);
    huge_cases(&t);
    for (long i = 0; i < iters; i++) {
        tv_from_d(&t, rand_double());
        check_value(&t, 8);
    }
    for (long i = 0; i < iters; i++) {
        tv_from_ld(&t, rand_ldouble());
        check_value(&t, 8);
    }
    printf("test_float_mpfr: %ld checks, %ld failures\n", checks, failures);
    mpfr_clear(t.x);
    free(outbuf);
    free(expbuf);
    free(tmpbuf);
    mpfr_free_cache();
    return failures != 0;
}
