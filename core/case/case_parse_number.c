/* The case text form in: the numbers of argument values (canonical decimal
 * integers, hex or decimal floats, pointer values). */
#define _GNU_SOURCE
#include "case.h"
#include "case_text.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* decimal integer in [lo, hi] (signed) or [0, uhi] (unsigned) */
int scn_text_parse_dec(const char *s, size_t n, int is_signed, long long lo, long long hi,
                       unsigned long long uhi, long long *iv, unsigned long long *uv,
                       size_t col, char *err, size_t errlen)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && s[i] == '-') {
        if (!is_signed) ERR("col %zu: expected an unsigned decimal value, got '-'", col);
        neg = 1;
        i++;
    }
    if (i >= n || s[i] < '0' || s[i] > '9')
        ERR("col %zu: expected a decimal digit", col + i);
    if (s[i] == '0' && (n - i > 1 || neg))
        ERR("col %zu: expected a canonical decimal (no leading zeros, no -0)", col + i);
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') ERR("col %zu: expected a decimal digit", col + i);
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (ULLONG_MAX - d) / 10) ERR("col %zu: value out of range", col);
        v = v * 10 + d;
    }
    if (is_signed) {
        if (neg) {
            if (v > (unsigned long long)(-(lo + 1)) + 1ull)
                ERR("col %zu: value out of range (min %lld)", col, lo);
            *iv = v == 0 ? 0 : -(long long)(v - 1) - 1;
        } else {
            if (v > (unsigned long long)hi) ERR("col %zu: value out of range (max %lld)", col, hi);
            *iv = (long long)v;
        }
    } else {
        if (v > uhi) ERR("col %zu: value out of range (max %llu)", col, uhi);
        *uv = v;
    }
    return 0;
}

/* Decimal floating values ("999999.5", "-0.1", "1e300": a C decimal floating
 * constant without suffix, so at least a '.' or an exponent) are accepted as
 * input and converted correctly rounded by the libc's strtod_l/strtold_l in the
 * C locale; the case keeps the value, printed back as its exact hex form. Not
 * in the executor builds (programs/exec, -Dstrtod=scn_strtod): their strtod is
 * the hex-only compat/scn_strtod.c (dietlibc's is not exact, klibc has none),
 * and the cases they get are the printed hex form. */
#if !defined(strtod) && !defined(SCN_CASE_HEX_FLOATS_ONLY)
#define SCN_CASE_DECIMAL_FLOATS 1
#include <locale.h>
#include <math.h>

/* The length of the decimal floating constant at m ([digits][.digits][e[+-]digits]
 * with a digit in the mantissa and a '.' or an exponent), 0 if there is none. */
static size_t decimal_float_len(const char *m)
{
    size_t i = 0, digits = 0;
    int dot = 0, expo = 0;
    while (m[i] >= '0' && m[i] <= '9') i++, digits++;
    if (m[i] == '.') {
        dot = 1;
        i++;
        while (m[i] >= '0' && m[i] <= '9') i++, digits++;
    }
    if (!digits) return 0;
    if (m[i] == 'e' || m[i] == 'E') {
        size_t j = i + 1;
        if (m[j] == '+' || m[j] == '-') j++;
        if (!(m[j] >= '0' && m[j] <= '9')) return 0;
        while (m[j] >= '0' && m[j] <= '9') j++;
        i = j;
        expo = 1;
    }
    return dot || expo ? i : 0;
}

static locale_t c_locale(void)
{
    static locale_t loc;
    locale_t l = __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
    if (l) return l;
    locale_t mine = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!mine) return (locale_t)0;
    locale_t expected = (locale_t)0;
    if (!__atomic_compare_exchange_n(&loc, &expected, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        freelocale(mine);
        return expected;
    }
    return mine;
}
#endif

int scn_text_parse_float(const char *s, size_t n, int is_ld, struct scn_arg *a, size_t col,
                         char *err, size_t errlen)
{
    char buf[1024], back[80];
    if (n == 0) ERR("col %zu: expected a hex float, inf or nan", col);
    if (n >= sizeof buf) ERR("col %zu: a float value of more than %zu characters", col, sizeof buf - 1);
    const char *nul = memchr(s, 0, n);
    if (nul) ERR("col %zu: unexpected NUL byte in a float value", col + (size_t)(nul - s));
    memcpy(buf, s, n);
    buf[n] = 0;
    int neg = buf[0] == '-';
    const char *m = buf + neg;
    if (!strcmp(m, "inf") || !strcmp(m, "nan")) {
        if (is_ld) {
            long double v = m[0] == 'i' ? (long double)__builtin_infl() : (long double)__builtin_nanl("");
            a->v.ld = neg ? -v : v;
        } else {
            double v = m[0] == 'i' ? __builtin_inf() : __builtin_nan("");
            a->v.d = neg ? -v : v;
        }
        return 0;
    }
#ifdef SCN_CASE_DECIMAL_FLOATS
    size_t dl = strncmp(m, "0x", 2) ? decimal_float_len(m) : 0;
    if (dl) {
        if (m[dl]) ERR("col %zu: expected a decimal float, stopped at '%c'", col + (size_t)(m + dl - buf), m[dl]);
        locale_t loc = c_locale();
        if (!loc) ERR("col %zu: no C locale to convert a decimal float", col);
        char *end;
        int inf;
        if (is_ld) {
            a->v.ld = strtold_l(buf, &end, loc);
            inf = isinf(a->v.ld);
        } else {
            a->v.d = strtod_l(buf, &end, loc);
            inf = isinf(a->v.d);
        }
        if (*end) ERR("col %zu: expected a decimal float, stopped at '%c'", col + (size_t)(end - buf), *end);
        if (inf) ERR("col %zu: %s is beyond the range of %s (write inf)", col, buf, is_ld ? "ldouble" : "double");
        return 0;
    }
#define SCN_DECIMAL_HINT ", or a decimal float (1.5, -0.1, 1e300)"
#else
#define SCN_DECIMAL_HINT ""
#endif
    if (strncmp(m, "0x", 2) != 0)
        ERR("col %zu: expected a hex float (0x...p+N), inf, nan, -inf or -nan" SCN_DECIMAL_HINT, col);
#undef SCN_DECIMAL_HINT
    char *end;
    errno = 0;
    if (is_ld) {
        a->v.ld = strtold(buf, &end);
        scn_text_hex_ldouble(a->v.ld, back);
    } else {
        a->v.d = strtod(buf, &end);
        scn_text_hex_double(a->v.d, back);
    }
    if (*end) ERR("col %zu: expected a hex float, stopped at '%c'", col + (size_t)(end - buf), *end);
    if (strcmp(back, buf))
        ERR("col %zu: expected the exact canonical form %s (as %%%sa prints it)", col, back,
            is_ld ? "L" : "");
    return 0;
}

/* A ptr value (vn bytes at v, column vcol): NULL or 0x<lower-case hex>. */
int scn_text_parse_ptr(const char *v, size_t vn, struct scn_arg *a, size_t vcol, char *err, size_t errlen)
{
    if (vn == 4 && !memcmp(v, "NULL", 4)) {
        a->is_null = 1;
        return 0;
    }
    if (vn < 3 || v[0] != '0' || v[1] != 'x')
        ERR("col %zu: expected 0x<lower-case hex> or NULL", vcol);
    if (v[2] == '0') ERR("col %zu: expected no leading zeros (and NULL, not 0x0)", vcol + 2);
    if (vn > 18) ERR("col %zu: pointer value out of range", vcol);
    for (size_t i = 2; i < vn; i++) {
        int h = scn_text_hexval((unsigned char)v[i]);
        if (h < 0) ERR("col %zu: expected a lower-case hex digit", vcol + i);
        a->v.u = a->v.u * 16 + (unsigned)h;
    }
    return 0;
}
