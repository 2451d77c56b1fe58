/* What an output may differ in and still be right: the predicates of the
 * rules' output terms (hexvalue, digitsonly, fraczeros, signdropped,
 * nanform, pspelling, nullform; asround: the reference re-run under
 * another direction). See rule_outputs.h. */
#define _GNU_SOURCE
#include "rule_outputs.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_form.h"
#include "scn/ref_printf.h"
#include "spec.h"

/* hexvalue's reading of one %a/%A output: the digit before the point, the
 * digits after it, whether the point is written, the exponent. */
struct hex_form {
    int lead;
    const unsigned char *frac;
    size_t nfrac;
    int point;
    long exp;
};

static int hex_digit(unsigned char c, int upper)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= (upper ? 'A' : 'a') && c <= (upper ? 'F' : 'f')) return c - (upper ? 'A' : 'a') + 10;
    return -1;
}

/* [pos, len) from "0x" ("0X" for %A) to the end of the exponent: the zero
 * flag's zeros (zero_pad), one digit, the point and the fraction, p (P), the
 * exponent's sign and its decimal digits without a leading zero (p8 (a,A):
 * "[-]0xh.hhhhp±d"; "the exponent always contains at least one digit, and
 * only as many more digits as necessary"); digits in the conversion's case.
 * *zeros: the padding zeros; *end: where the exponent ends. */
static int hex_parse(const unsigned char *out, size_t len, size_t pos, int upper, int zero_pad, struct hex_form *h,
                     size_t *zeros, size_t *end)
{
    if (len - pos < 2 || out[pos] != '0' || out[pos + 1] != (upper ? 'X' : 'x')) return 0;
    pos += 2;
    size_t run = 0;
    if (zero_pad)
        while (pos + run < len && out[pos + run] == '0') run++;
    /* the digit is the run's last zero unless another digit follows it */
    *zeros = run && (pos + run == len || hex_digit(out[pos + run], upper) < 0) ? run - 1 : run;
    pos += *zeros;
    if (pos == len || (h->lead = hex_digit(out[pos], upper)) < 0) return 0;
    pos++;
    h->point = pos < len && out[pos] == '.';
    pos += (size_t)h->point;
    h->frac = out + pos;
    h->nfrac = 0;
    while (pos < len && hex_digit(out[pos], upper) >= 0) pos++, h->nfrac++;
    if (len - pos < 3 || out[pos] != (upper ? 'P' : 'p') || (out[pos + 1] != '+' && out[pos + 1] != '-')) return 0;
    int neg = out[pos + 1] == '-';
    pos += 2;
    size_t first = pos;
    h->exp = 0;
    while (pos < len && out[pos] >= '0' && out[pos] <= '9' && h->exp < 100000) h->exp = h->exp * 10 + (out[pos++] - '0');
    if (pos == first || (out[first] == '0' && pos - first > 1) || (pos < len && out[pos] >= '0' && out[pos] <= '9'))
        return 0;
    if (neg) h->exp = -h->exp;
    *end = pos;
    return 1;
}

/* The output's digits are v's (v >= 0) at its exponent, cut after its last
 * digit and rounded to nearest, a tie to the even digit (p13 "correctly
 * rounded", the default rounding direction), or in the case's directed
 * rounding direction (F.5; neg: the value's sign); exact: every digit of v and
 * nothing left (p8: "sufficient for an exact representation"). v's digits
 * are exact: the scaling by the exponent is checked to lose nothing, and a
 * long double times 16 less its integer part is exact. A carry into a lead
 * of 16 is no output's. */
static int hex_digits_are(const struct hex_form *h, long double v, int exact, int upper, int round, int neg)
{
    if (h->exp < -20000 || h->exp > 20000) return 0;
    long double vs = ldexpl(v, (int)-h->exp);
    if (!(vs < 16.0L) || ldexpl(vs, (int)h->exp) != v) return 0;
    int lead = (int)vs, small[64];
    long double r = vs - lead;
    size_t n = h->nfrac;
    int *digit = n <= 64 ? small : malloc(n * sizeof *digit);
    if (!digit) return 0;
    for (size_t i = 0; i < n; i++) {
        r *= 16;
        digit[i] = (int)r;
        r -= digit[i];
    }
    int ok = !exact || r == 0;
    /* r: what is past the cut, in units of the last digit */
    int up = round == SCN_ROUND_NEAREST ? r > 0.5L || (r == 0.5L && (n ? digit[n - 1] : lead) % 2)
           : round == SCN_HEX_TIES_AWAY ? r >= 0.5L
           : round == SCN_ROUND_UPWARD ? !neg && r > 0 : round == SCN_ROUND_DOWNWARD ? neg && r > 0 : 0;
    if (!exact && up) {
        size_t i = n;
        while (i > 0 && digit[i - 1] == 15) digit[--i] = 0;
        if (i > 0) digit[i - 1]++;
        else lead++;
    }
    ok = ok && lead == h->lead;
    for (size_t i = 0; ok && i < n; i++) ok = hex_digit(h->frac[i], upper) == digit[i];
    if (digit != small) free(digit);
    return ok;
}

int scn_out_hex_ok(const unsigned char *out, size_t len, const struct scn_hex_want *want)
{
    unsigned flags = want->flags;
    long double v = want->v;
    long w = want->w, prec = want->prec;
    /* the output is len bytes: a NUL in them is a byte of it, never its end */
    if (memchr(out, 0, len)) return 0;
    char sign = signbit(v) ? '-' : (flags & SCN_FL_PLUS) ? '+' : (flags & SCN_FL_SPACE) ? ' ' : 0;
    int left = (flags & SCN_FL_MINUS) != 0, zero_pad = !left && (flags & SCN_FL_ZERO);
    size_t pos = 0;
    if (!left && !zero_pad)
        while (pos < len && out[pos] == ' ') pos++;
    if (sign == ' ' && pos > 0) pos--; /* the last space is the space flag's sign */
    size_t spaces = pos;
    if (sign && (pos == len || out[pos++] != sign)) return 0;
    struct hex_form h;
    size_t zeros, end, trail = 0;
    int upper = want->conv == 'A';
    if (!hex_parse(out, len, pos, upper, zero_pad, &h, &zeros, &end)) return 0;
    if (left)
        while (end + trail < len && out[end + trail] == ' ') trail++;
    if (end + trail != len) return 0;
    /* padding only up to the width, on the side and of the kind the flags say */
    size_t pad = spaces + zeros + trail, body = len - pad;
    if (pad != (w > 0 && (size_t)w > body ? (size_t)w - body : 0)) return 0;
    /* a precision is the number of digits after the point; without one, no
     * zero the value does not need; the point only before a digit or with # */
    if (prec >= 0 ? h.nfrac != (size_t)prec : (h.nfrac && h.frac[h.nfrac - 1] == '0')) return 0;
    if (h.point != (h.nfrac > 0 || (flags & SCN_FL_HASH) != 0)) return 0;
    /* the implementation's choice: the leading digit, nonzero for a normalized
     * argument; a zero's exponent is zero */
    if ((want->normal && h.lead == 0) || (v == 0 && h.exp != 0)) return 0;
    return hex_digits_are(&h, fabsl(v), prec < 0, upper, want->round, signbit(v) != 0);
}

/* The field of one output: [a, b) without the padding spaces the width w
 * and the '-' flag put there, 1 when the output is laid out as they say
 * (only spaces, only up to w, on the right with '-', else on the left;
 * none on the other side). */
static int unpad(const unsigned char *out, size_t len, long w, unsigned flags, size_t *a, size_t *b)
{
    *a = 0;
    *b = len;
    if ((flags & SCN_FL_MINUS) != 0)
        while (*b > 0 && out[*b - 1] == ' ') --*b;
    else
        while (*a < len && out[*a] == ' ') ++*a;
    /* the space flag's space before a value that has no '-' is its sign,
     * not padding (C17 7.21.6.1p6) */
    int space_sign = (flags & SCN_FL_SPACE) && !(flags & SCN_FL_PLUS) && *a < *b && out[*a] != '-' &&
                     (*a > 0 || out[*a] == ' ');
    if (space_sign && *a > 0 && !(flags & SCN_FL_MINUS)) --*a;
    size_t core = *b - *a, want = w > 0 && (size_t)w > core ? (size_t)w : core;
    return core > 0 && len == want && (out[*a] != ' ' || space_sign) && out[*b - 1] != ' ';
}

int scn_out_null_ok(const unsigned char *out, size_t len, long prec, long w, unsigned flags)
{
    size_t a = 0, b = len;
    while (a < len && out[a] == ' ') a++;
    if (a == len) return len == (size_t)(w > 0 ? w : 0);
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    size_t core = b - a;
    if (prec >= 0 && core > (size_t)prec) return 0;
    static const char spelled[] = "(null)";
    if (core <= 6 && !memcmp(out + a, spelled, core))
        return core == (prec >= 0 && prec < 6 ? (size_t)prec : 6);
    return 1;
}

int scn_out_nan_ok(const unsigned char *out, size_t len, int neg, char conv, long w, unsigned flags)
{
    size_t a, b;
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    char sign = neg ? '-' : (flags & SCN_FL_PLUS) ? '+' : (flags & SCN_FL_SPACE) ? ' ' : 0;
    if (sign && out[a++] != sign) return 0;
    const char *nan = conv >= 'a' ? "nan" : "NAN";
    if (b - a < 3 || memcmp(out + a, nan, 3)) return 0;
    a += 3;
    if (a == b) return 1;
    if (out[a] != '(' || out[b - 1] != ')') return 0;
    for (size_t i = a + 1; i + 1 < b; i++) /* n-char-sequence: digits, letters, _ (7.22.1.3p3) */
        if (!(out[i] == '_' || (out[i] >= '0' && out[i] <= '9') || ((out[i] | 32) >= 'a' && (out[i] | 32) <= 'z')))
            return 0;
    return 1;
}

int scn_out_pointer_ok(const unsigned char *out, size_t len, long w, unsigned flags, int prec,
                      const struct scn_arg *val)
{
    size_t a, b;
    if (prec || (flags & (SCN_FL_ZERO | SCN_FL_HASH))) return len > 0;
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    if (!val || val->type != SCN_ARG_PTR || val->is_null) return 1;
    char hex[24];
    size_t n = (size_t)snprintf(hex, sizeof hex, "%llx", val->v.u);
    for (size_t i = a; i + n <= b; i++)
        if (!strncasecmp((const char *)out + i, hex, n)) return 1;
    return 0;
}

/* A decimal number: (neg) 0.d[0..n) x 10^e, d[0] != 0 (n == 0: zero); unit
 * the power of ten of the last digit written. */
#define DEC_MAX 1200
struct dec {
    int neg;
    size_t n;
    long e, unit;
    char d[DEC_MAX];
};

/* The number an output of %f, %e or %g writes ([-]ddd.ddd[e+dd], padding
 * spaces or zeros before it): 0, or -1 when it is none. */
static int dec_parse(const unsigned char *out, size_t len, struct dec *x)
{
    size_t i = 0, ip = 0, nd = 0, lead = 0;
    int point = 0;
    while (i < len && out[i] == ' ') i++;
    x->neg = i < len && out[i] == '-';
    if (i < len && (out[i] == '-' || out[i] == '+')) i++;
    x->n = 0;
    for (; i < len; i++) {
        if (out[i] == '.' && !point) {
            point = 1;
            continue;
        }
        if (out[i] < '0' || out[i] > '9') break;
        nd++;
        ip += !point;
        if (x->n == 0 && out[i] == '0') { /* before the first nonzero digit */
            lead++;
            continue;
        }
        if (x->n == DEC_MAX) { /* zeros after the digits kept add nothing (%.4096f of 0.1) */
            if (out[i] != '0') return -1;
            continue;
        }
        x->d[x->n++] = (char)(out[i] - '0');
    }
    if (!nd) return -1;
    long ex = 0;
    if (i < len && (out[i] | 32) == 'e') {
        char t[16];
        size_t k = 0;
        for (i++; i < len && out[i] != ' ' && k < sizeof t - 1; i++) t[k++] = (char)out[i];
        t[k] = 0;
        char *end;
        ex = strtol(t, &end, 10);
        if (end == t || *end) return -1;
    }
    while (i < len && out[i] == ' ') i++; /* the padding of '-' */
    if (i != len) return -1;
    /* 0.(the nd digits) x 10^(ip + ex): the last digit at the power ip + ex - nd */
    x->unit = (long)ip + ex - (long)nd;
    x->e = (long)ip + ex - (long)lead;
    return 0;
}

/* |x - y| <= 5 x 10^(p-1): half a unit at the power of ten p */
static int dec_within_half(const struct dec *x, const struct dec *y, long p)
{
    enum { L = 8192 };
    static signed char dx[L], dy[L];
    long hi = p, lo = p - 1;
    const struct dec *v[2] = { x, y };
    for (int k = 0; k < 2; k++)
        if (v[k]->n) {
            if (v[k]->e > hi) hi = v[k]->e;
            if (v[k]->e - (long)v[k]->n < lo) lo = v[k]->e - (long)v[k]->n;
        }
    if (hi - lo + 2 > L) return 0;
    size_t len = (size_t)(hi - lo + 1);
    memset(dx, 0, len);
    memset(dy, 0, len);
    for (size_t i = 0; i < x->n; i++) dx[x->e - 1 - (long)i - lo] = x->d[i]; /* digit i at power e-1-i */
    for (size_t i = 0; i < y->n; i++) dy[y->e - 1 - (long)i - lo] = y->d[i];
    int same_sign = x->neg == y->neg || !x->n || !y->n;
    if (same_sign) { /* |x| - |y|, the larger first */
        int cmp = 0;
        for (size_t i = len; i > 0 && !cmp; i--) cmp = (dx[i - 1] > dy[i - 1]) - (dx[i - 1] < dy[i - 1]);
        signed char *big = cmp >= 0 ? dx : dy, *small = cmp >= 0 ? dy : dx;
        int borrow = 0;
        for (size_t i = 0; i < len; i++) {
            int t = big[i] - small[i] - borrow;
            borrow = t < 0;
            dx[i] = (signed char)(t + (borrow ? 10 : 0));
        }
    } else {
        int carry = 0;
        for (size_t i = 0; i < len; i++) {
            int t = dx[i] + dy[i] + carry;
            carry = t >= 10;
            dx[i] = (signed char)(t - (carry ? 10 : 0));
        }
        if (carry) return 0;
    }
    /* compare with 5 at power p-1 */
    for (size_t j = len; j > 0; j--) {
        size_t i = j - 1;
        int half = (long)i + lo == p - 1 ? 5 : 0;
        if (dx[i] != half) return dx[i] < half;
    }
    return 1;
}

/* the reference engine itself, not the target registry: certification
 * links the oracles without the registry's targets */
static int call_ref(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = ref_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return r;
}

/* Whether out writes the value v "faithfully": (a) v correctly rounded at
 * the precision written, a tie either way (C17 7.21.6.1p13: "correctly
 * rounded"); (b) digits that read back as v itself (a shortest or a limited
 * form, zeros after the digits that matter: what strtod makes of them is v);
 * (c) v correctly rounded to DBL_DIG (15) or more significant digits,
 * zeros written after them (a fixed number of significant digits). */
static int digits_faithful(const unsigned char *out, size_t len, long double v, int ld, const struct dec *exact)
{
    static struct dec x;
    if (dec_parse(out, len, &x)) return 0;
    if (x.n && x.neg != (signbit(v) != 0)) return 0;
    if (dec_within_half(&x, exact, x.unit)) return 1;
    /* what strtod reads: the number as parsed, not the output's bytes, which a
     * large precision makes longer than any buffer here (stb's "%.2047e": 17
     * digits, then zeros dec_parse leaves out) */
    char t[DEC_MAX + 32];
    size_t k = 0;
    if (x.neg) t[k++] = '-';
    t[k++] = '0';
    t[k++] = '.';
    for (size_t i = 0; i < x.n; i++) t[k++] = (char)('0' + x.d[i]);
    snprintf(t + k, sizeof t - k, "e%ld", x.n ? x.e : 0);
    char *end;
    if (ld ? strtold(t, &end) == v : strtod(t, &end) == (double)v) return 1;
    size_t sig = x.n; /* significant digits written, the zeros after them left out */
    while (sig > 0 && x.d[sig - 1] == 0) sig--;
    return x.n >= 15 && dec_within_half(&x, exact, x.e - (long)(sig > 15 ? sig : 15));
}

/* The same characters but for digits (the sign, padding spaces, the point
 * and the exponent letter in the same places). */
static int same_but_digits(const unsigned char *oa, const unsigned char *ob, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (oa[i] != ob[i] && (oa[i] < '0' || oa[i] > '9' || ob[i] < '0' || ob[i] > '9')) return 0;
    return 1;
}

/* Outputs of two lengths whose digits differ in number: %g without '#'
 * removes trailing zeros ("0.1" and "0.10000000000000001"; "5E-324" and
 * "4.94066E-324"), and a shortest form can carry into one more integer digit
 * ("%f" of 1e23: "100000000000000000000000.000000" and
 * "99999999999999991611392.000000", as many digits after the point). Each
 * is laid out in its field (spaces, no zeros), with the same sign. */
static int other_length(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, long w,
                        unsigned flags, int g)
{
    size_t a0, a1, b0, b1;
    /* zeros padding a field are not told from digits; a 0 flag that pads nothing ("%0g") is no matter */
    if (((flags & SCN_FL_ZERO) && (w > (long)la || w > (long)lb)) || !unpad(oa, la, w, flags, &a0, &a1) ||
        !unpad(ob, lb, w, flags, &b0, &b1))
        return 0;
    oa += a0, la = a1 - a0, ob += b0, lb = b1 - b0;
    if ((strchr("+- ", oa[0]) || strchr("+- ", ob[0])) && oa[0] != ob[0]) return 0;
    const unsigned char *ea = memchr(oa, 'e', la), *eb = memchr(ob, 'e', lb);
    if (!ea) ea = memchr(oa, 'E', la);
    if (!eb) eb = memchr(ob, 'E', lb);
    if (!ea != !eb || (ea && (ea[1] != eb[1] || (*ea != *eb)))) return 0;
    /* digits, not a spelling: a digit on each side of the point, after it
     * only with # (apr's ".125" and "1.E-10" for "0.125" and "1E-10" are
     * samenumber's) */
    const unsigned char *o[2] = { oa, ob };
    const unsigned char *end[2] = { ea ? ea : oa + la, eb ? eb : ob + lb };
    size_t len[2] = { la, lb };
    for (int k = 0; k < 2; k++) {
        /* an exponent has two digits at least (p8 (e,E)): "e-6" is a spelling too */
        if (end[k] < o[k] + len[k] && (len[k] - (size_t)(end[k] - o[k]) < 4 || !isdigit(end[k][3]))) return 0;
        const unsigned char *p = memchr(o[k], '.', (size_t)(end[k] - o[k]));
        if (p && (p == o[k] || !isdigit(p[-1]) || (!(flags & SCN_FL_HASH) && (p + 1 == end[k] || !isdigit(p[1])))))
            return 0;
        /* a 0 before another integer digit is no carry: a digit too many (trio-leading-zero's) */
        const unsigned char *d = o[k] + (o[k][0] && strchr("+- ", o[k][0]));
        if (d + 1 < end[k] && d[0] == '0' && isdigit(d[1])) return 0;
    }
    if (g) return 1;
    const unsigned char *pa = memchr(oa, '.', la), *pb = memchr(ob, '.', lb); /* the fraction: as long */
    size_t fa = pa ? (size_t)((ea ? ea : oa + la) - pa) : 0, fb = pb ? (size_t)((eb ? eb : ob + lb) - pb) : 0;
    return fa == fb;
}

int scn_out_digits_only(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, const struct scn_arg *val,
                       char conv, unsigned flags, long w)
{
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE)) return 0;
    int ld = val->type == SCN_ARG_LDOUBLE;
    long double v = ld ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    int g = (conv | 32) == 'g' && !(flags & SCN_FL_HASH);
    if (!(la == lb && same_but_digits(oa, ob, la)) && !other_length(oa, la, ob, lb, w, flags, g)) return 0;
    static char buf[DEC_MAX + 64];
    static struct dec exact;
    if (call_ref(buf, sizeof buf, "%.*Le", DEC_MAX - 2, v) <= 0 ||
        dec_parse((const unsigned char *)buf, strlen(buf), &exact))
        return 0;
    return digits_faithful(oa, la, v, ld, &exact) && digits_faithful(ob, lb, v, ld, &exact);
}

int scn_out_twice_rounded(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                          const unsigned char *out, size_t len, const struct scn_arg *val, char conv, unsigned flags,
                          long w)
{
    static struct dec x, d17;
    static char buf[64];
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE)) return 0;
    long double v = val->type == SCN_ARG_LDOUBLE ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    int g = (conv | 32) == 'g' && !(flags & SCN_FL_HASH);
    if (!(la == lb && same_but_digits(oa, ob, la)) && !other_length(oa, la, ob, lb, w, flags, g)) return 0;
    /* the value to 17 significant digits, to nearest, then out's digits a rounding of those (a tie either way) */
    if (call_ref(buf, sizeof buf, "%.16Le", v) <= 0 || dec_parse((const unsigned char *)buf, strlen(buf), &d17) ||
        dec_parse(out, len, &x) || (x.n && x.neg != (signbit(v) != 0)))
        return 0;
    return dec_within_half(&x, &d17, x.unit);
}

/* x <=> y as numbers (-1, 0, 1) */
static int dec_cmp(const struct dec *x, const struct dec *y)
{
    int sx = x->n ? (x->neg ? -1 : 1) : 0, sy = y->n ? (y->neg ? -1 : 1) : 0;
    if (sx != sy || !sx) return (sx > sy) - (sx < sy);
    int mag = x->e != y->e ? (x->e > y->e ? 1 : -1) : 0;
    for (size_t i = 0; !mag && (i < x->n || i < y->n); i++) {
        int a = i < x->n ? x->d[i] : 0, b = i < y->n ? y->d[i] : 0;
        mag = (a > b) - (a < b);
    }
    return sx * mag;
}

/* x (v's sign) is within half a unit at the power unit of [v - k, v + k],
 * k as many ulps of v's own type as a digit-by-digit conversion takes
 * steps, each a rounding of a multiplication or division by 10: the
 * decimal exponent's (the scaling) and the digits x writes, and 2 more. */
static int near_value(const struct dec *x, long unit, long double v, int ld)
{
    static struct dec lo, hi;
    static char buf[DEC_MAX + 64];
    if (x->n && x->neg != (signbit(v) != 0)) return 0;
    if (call_ref(buf, sizeof buf, "%.*Le", DEC_MAX - 2, v) <= 0 || dec_parse((const unsigned char *)buf, strlen(buf), &lo))
        return 0;
    long steps = labs(lo.n ? lo.e - 1 : 0) + (long)x->n + 2;
    long double a = v, b = v;
    for (long i = 0; i < steps; i++) {
        a = ld ? nextafterl(a, -INFINITY) : nextafter((double)a, -INFINITY);
        b = ld ? nextafterl(b, INFINITY) : nextafter((double)b, INFINITY);
    }
    if (call_ref(buf, sizeof buf, "%.*Le", DEC_MAX - 2, a) <= 0 || dec_parse((const unsigned char *)buf, strlen(buf), &lo) ||
        call_ref(buf, sizeof buf, "%.*Le", DEC_MAX - 2, b) <= 0 || dec_parse((const unsigned char *)buf, strlen(buf), &hi))
        return 0;
    return (dec_cmp(&lo, x) <= 0 && dec_cmp(x, &hi) <= 0) || dec_within_half(x, &lo, unit) ||
           dec_within_half(x, &hi, unit);
}

int scn_out_digits_near(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                        const unsigned char *out, size_t len, const struct scn_arg *val, char conv, unsigned flags,
                        long w)
{
    static struct dec x;
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE)) return 0;
    int ld = val->type == SCN_ARG_LDOUBLE;
    long double v = ld ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    int g = (conv | 32) == 'g' && !(flags & SCN_FL_HASH);
    /* laid out alike: digits apart, the exponent's sign too (a carry: "1e+00" for "9e-01") */
    int alike = la == lb;
    for (size_t i = 0; alike && i < la; i++)
        alike = oa[i] == ob[i] || (isdigit(oa[i]) && isdigit(ob[i])) ||
                (i > 0 && (oa[i - 1] | 32) == 'e' && strchr("+-", oa[i]) && strchr("+-", ob[i]));
    if (!alike && !other_length(oa, la, ob, lb, w, flags, g)) return 0;
    return !dec_parse(out, len, &x) && near_value(&x, x.unit, v, ld);
}

/* The sign an output writes (0: none) and its magnitude: [a, b) without
 * the padding spaces, the sign and the zeros padding before the digits. */
static char sign_of(const unsigned char *o, size_t l, int space_sign, size_t *a, size_t *b)
{
    *a = 0;
    *b = l;
    while (*a < *b && o[*a] == ' ') ++*a;
    while (*b > *a && o[*b - 1] == ' ') --*b;
    char sign = *a < *b && (o[*a] == '-' || o[*a] == '+') ? (char)o[(*a)++] : 0;
    if (!sign && space_sign && *a > 0) sign = ' '; /* the space flag's sign: the space before the number */
    while (*b - *a > 1 && o[*a] == '0' && o[*a + 1] >= '0' && o[*a + 1] <= '9') ++*a;
    return sign;
}

int scn_out_frac_zeros_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                               int space_sign)
{
    size_t a0, a1, b0, b1;
    char sa = sign_of(oa, la, space_sign, &a0, &a1), sb = sign_of(ob, lb, space_sign, &b0, &b1);
    int padded = a1 - a0 + (sa != 0) < la || b1 - b0 + (sb != 0) < lb;
    if (sa != sb || (padded && la != lb)) return 0;
    oa += a0, la = a1 - a0, ob += b0, lb = b1 - b0;
    if (la < lb) {
        const unsigned char *t = oa;
        oa = ob;
        ob = t;
        size_t tl = la;
        la = lb;
        lb = tl;
    }
    /* oa: d . 0...0 e..., ob: the same without the zeros */
    if (2 >= la || oa[0] < '1' || oa[0] > '9' || oa[1] != '.') return 0;
    size_t z = 2, e = z;
    while (e < la && oa[e] == '0') e++;
    if (e == z || e == la || (oa[e] | 32) != 'e') return 0;
    return lb == la - (e - z) && !memcmp(ob, oa, z) && !memcmp(ob + z, oa + e, la - e);
}

int scn_out_sign_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb)
{
    size_t a0, a1, b0, b1;
    char sa = sign_of(oa, la, 0, &a0, &a1), sb = sign_of(ob, lb, 0, &b0, &b1);
    if ((sa == '-') == (sb == '-')) return 0;
    return a1 - a0 == b1 - b0 && a1 > a0 && !memcmp(oa + a0, ob + b0, a1 - a0);
}

int scn_out_exponent_only(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb)
{
    if (la != lb || !la || !memcmp(oa, ob, la)) return 0;
    size_t e = la;
    while (e > 0 && (oa[e - 1] | 32) != 'e') e--;
    if (!e || memcmp(oa, ob, e)) return 0;
    /* after the letter: [+-]digits, then spaces, at the same places */
    const unsigned char *o[2] = { oa, ob };
    size_t end[2];
    for (int k = 0; k < 2; k++) {
        size_t i = e;
        if (i < la && (o[k][i] == '+' || o[k][i] == '-')) i++;
        else return 0;
        size_t d = i;
        while (i < la && o[k][i] >= '0' && o[k][i] <= '9') i++;
        if (i == d) return 0;
        end[k] = i;
        while (i < la && o[k][i] == ' ') i++;
        if (i != la) return 0;
    }
    return end[0] == end[1];
}

/* [a, b) of one output's number: its field unpadded, the sign character
 * apart (0: none) */
static int number_field(const unsigned char *o, size_t l, long w, unsigned flags, size_t *a, size_t *b, char *sign)
{
    if (!unpad(o, l, w, flags, a, b)) return 0;
    *sign = strchr("+- ", o[*a]) ? (char)o[(*a)++] : 0;
    return *a < *b;
}

int scn_out_same_number(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, long w,
                        unsigned flags)
{
    static struct dec x, y;
    size_t a0, a1, b0, b1;
    char sa, sb;
    if ((la == lb && !memcmp(oa, ob, la)) || !number_field(oa, la, w, flags, &a0, &a1, &sa) || !number_field(ob, lb, w, flags, &b0, &b1, &sb) || sa != sb)
        return 0;
    if (dec_parse(oa + a0, a1 - a0, &x) || dec_parse(ob + b0, b1 - b0, &y)) return 0;
    size_t nx = x.n, ny = y.n; /* the significant digits, trailing zeros left out */
    while (nx > 0 && x.d[nx - 1] == 0) nx--;
    while (ny > 0 && y.d[ny - 1] == 0) ny--;
    return nx == ny && (!nx || x.e == y.e) && !memcmp(x.d, y.d, nx);
}

int scn_out_respelled(const unsigned char *out, size_t len, const unsigned char *other, size_t olen,
                      const struct scn_arg *val, long w, unsigned flags, long prec)
{
    static struct dec x;
    size_t a0, a1, b0, b1;
    char sa, sb;
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE)) return 0;
    int ld = val->type == SCN_ARG_LDOUBLE;
    long double v = ld ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    if (!number_field(out, len, w, flags, &a0, &a1, &sa) || !number_field(other, olen, w, flags, &b0, &b1, &sb) ||
        sa != sb || dec_parse(out + a0, a1 - a0, &x))
        return 0;
    size_t sig = x.n, p = prec < 0 ? 6 : prec == 0 ? 1 : (size_t)prec;
    while (sig > 0 && x.d[sig - 1] == 0) sig--;
    /* rounded at the P-th significant digit, whatever zeros the spelling writes after it ("30" for 25) */
    return sig <= p && near_value(&x, x.n ? x.e - (long)p : x.unit, fabsl(v), ld);
}

/* asround: the reference engine called with the direction as its option
 * (not the environment's: the case's copy is called to nearest) */
static int ref_call_with(void *opt, char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vsnprintf_ex(buf, size, opt, fmt, ap);
}

static const enum ref_rounding as_ref[SCN_ROUND__COUNT] = {
    [SCN_ROUND_NEAREST] = REF_ROUND_NEAREST, [SCN_ROUND_UPWARD] = REF_ROUND_UPWARD,
    [SCN_ROUND_DOWNWARD] = REF_ROUND_DOWNWARD, [SCN_ROUND_TOWARDZERO] = REF_ROUND_TOWARD_ZERO,
};

int scn_out_is_ref_under(const struct scn_case *c, enum scn_dialect d, enum scn_round r, int ret,
                         const unsigned char *out, size_t len)
{
    static struct scn_case work;
    static unsigned char *buf;
    static size_t cap;
    /* a cut output (past the differential's largest) says nothing of its end */
    if ((unsigned)r >= SCN_ROUND__COUNT || ret < 0 || (size_t)ret != len) return 0;
    if (cap < len + 1) {
        unsigned char *g = realloc(buf, len + 1);
        if (!g) return 0;
        buf = g, cap = len + 1;
    }
    memcpy(&work, c, sizeof work);
    work.round = SCN_ROUND_NEAREST;
    struct ref_options opt = { d == SCN_DIALECT_KERNEL ? REF_DIALECT_LINUX_KERNEL : REF_DIALECT_ISO, REF_ENCODING_C,
                               as_ref[r] };
    int got = scn_case_call_ctx(ref_call_with, &opt, &work, (char *)buf, len + 1);
    return got == ret && !memcmp(buf, out, len);
}

/* gstyleswap: the reference engine in the direction r, on one floating value */
static int ref_value_under(enum scn_round r, char *buf, size_t cap, const char *fmt, const struct scn_arg *val,
                           long prec)
{
    struct ref_options opt = { REF_DIALECT_ISO, REF_ENCODING_C, as_ref[r] };
    return val->type == SCN_ARG_LDOUBLE ? ref_snprintf_ex(buf, cap, &opt, fmt, (int)prec, val->v.ld)
                                        : ref_snprintf_ex(buf, cap, &opt, fmt, (int)prec, val->v.d);
}

int scn_out_g_style_e(const struct scn_arg *val, char conv, unsigned flags, long w, long prec, enum scn_round r,
                      int more, int ret, const unsigned char *out, size_t len)
{
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE) || (conv | 32) != 'g' ||
        (unsigned)r >= SCN_ROUND__COUNT || ret < 0 || (size_t)ret != len)
        return 0;
    long double v = val->type == SCN_ARG_LDOUBLE ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    long p = prec < 0 ? 6 : prec == 0 ? 1 : prec;
    if (p > 4000) return 0;
    const char *ld = val->type == SCN_ARG_LDOUBLE ? "L" : "";
    char fmt[24], core[4200];
    /* X, the exponent of the value rounded to P digits in the direction (p8 (g)) */
    snprintf(fmt, sizeof fmt, "%%.*%se", ld);
    int n = ref_value_under(r, core, sizeof core, fmt, val, p - 1);
    const char *e = n > 0 ? strrchr(core, 'e') : NULL;
    if (!e) return 0;
    long x = strtol(e + 1, NULL, 10);
    if (!more && (x < -4 || x >= p)) return 0; /* style e is C's: no other style to take */
    /* style e with precision P - 1, its sign flags and # */
    snprintf(fmt, sizeof fmt, "%%%s%s%s.*%s%c", flags & SCN_FL_PLUS ? "+" : "", flags & SCN_FL_SPACE ? " " : "",
             flags & SCN_FL_HASH ? "#" : "", ld, conv == 'G' ? 'E' : 'e');
    n = ref_value_under(r, core, sizeof core, fmt, val, p - 1 + (more != 0));
    if (n <= 0 || (size_t)n >= sizeof core) return 0;
    if (!(flags & SCN_FL_HASH)) { /* the zeros after the point removed, and a point left alone */
        char *ex = strpbrk(core, "eE"), *z = ex;
        if (!ex || !strchr(core, '.')) goto laid;
        while (z[-1] == '0') z--;
        if (z[-1] == '.') z--;
        memmove(z, ex, strlen(ex) + 1);
    }
laid:;
    size_t c = strlen(core), field = w > 0 && (size_t)w > c ? (size_t)w : c;
    if (len != field || field >= sizeof core) return 0;
    if (flags & SCN_FL_MINUS) /* spaces after, zeros after the sign, or spaces before */
        return !memcmp(out, core, c) && strspn((const char *)out + c, " ") >= len - c;
    size_t s = (flags & SCN_FL_ZERO) && strchr("+- ", core[0]) ? 1 : 0;
    char padc = (flags & SCN_FL_ZERO) ? '0' : ' ';
    if (padc == ' ') s = 0;
    for (size_t i = 0; i < len - c; i++)
        if (out[s + i] != (unsigned char)padc) return 0;
    return !memcmp(out, core, s) && !memcmp(out + s + (len - c), core + s, c - s);
}

int scn_out_less_prec(const struct scn_arg *val, char conv, unsigned flags, long w, long prec, enum scn_round r,
                      int ret, const unsigned char *out, size_t len)
{
    static char buf[4200];
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE) || !strchr("fFeEgG", conv) ||
        (unsigned)r >= SCN_ROUND__COUNT || ret < 0 || (size_t)ret != len || len >= sizeof buf || w >= (long)sizeof buf)
        return 0;
    if (prec < 0) prec = 6; /* none: p8's default */
    long double v = val->type == SCN_ARG_LDOUBLE ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    char fmt[32], wd[16] = "";
    if (w > 0) snprintf(wd, sizeof wd, "%ld", w);
    snprintf(fmt, sizeof fmt, "%%%s%s%s%s%s%s.*%s%c", flags & SCN_FL_MINUS ? "-" : "", flags & SCN_FL_PLUS ? "+" : "",
             flags & SCN_FL_SPACE ? " " : "", flags & SCN_FL_HASH ? "#" : "", flags & SCN_FL_ZERO ? "0" : "", wd,
             val->type == SCN_ARG_LDOUBLE ? "L" : "", conv);
    /* f and e: a precision's digit fewer is a byte fewer once the output is
     * wider than its field (g drops zeros and changes style: 400 tries) */
    for (long q = prec - 1; q >= 0 && prec - q <= 400; q--) {
        int n = ref_value_under(r, buf, sizeof buf, fmt, val, q);
        if (n == (int)len && !memcmp(buf, out, len)) return 1;
        if (n >= (int)sizeof buf || (n < (int)len && (conv | 32) != 'g')) break;
    }
    return 0;
}

int scn_out_leading_zero(const unsigned char *out, size_t len, const unsigned char *other, size_t olen,
                         const struct scn_arg *val, char conv, unsigned flags, long w)
{
    static unsigned char cut[4200];
    if (len + 1 >= sizeof cut || !len) return 0;
    size_t p = 0;
    while (p < len && out[p] == ' ') p++;
    if (p < len && strchr("+- ", out[p])) p++;
    if (p + 1 >= len || out[p] != '0' || !isdigit(out[p + 1])) return 0;
    /* the 0 taken away, and a space in its place when the field was wider */
    size_t n = 0, lead = (flags & SCN_FL_MINUS) ? 0 : (long)len <= w;
    if (lead) cut[n++] = ' ';
    memcpy(cut + n, out, p), n += p;
    memcpy(cut + n, out + p + 1, len - p - 1), n += len - p - 1;
    if ((flags & SCN_FL_MINUS) && (long)len <= w) cut[n++] = ' ';
    if (n != olen) return 0;
    return !memcmp(cut, other, olen) || scn_out_digits_only(cut, olen, other, olen, val, conv, flags, w);
}

int scn_out_ref_of_magnitude(const struct scn_case *c, enum scn_dialect d, int *ret, const unsigned char **out,
                             size_t *len)
{
    static struct scn_case work;
    static char *buf;
    static size_t cap;
    memcpy(&work, c, sizeof work);
    int any = 0;
    for (size_t i = 0; i < work.nargs; i++) {
        struct scn_arg *a = &work.args[i];
        if (a->type == SCN_ARG_DOUBLE && signbit(a->v.d)) a->v.d = -a->v.d, any = 1;
        if (a->type == SCN_ARG_LDOUBLE && signbit(a->v.ld)) a->v.ld = -a->v.ld, any = 1;
    }
    if (!any || (unsigned)c->round >= SCN_ROUND__COUNT) return -1;
    work.round = SCN_ROUND_NEAREST; /* the direction is the engine's option, as asround's */
    struct ref_options opt = { d == SCN_DIALECT_KERNEL ? REF_DIALECT_LINUX_KERNEL : REF_DIALECT_ISO, REF_ENCODING_C,
                               as_ref[c->round] };
    struct scn_case probe = work;
    int n = scn_case_call_ctx(ref_call_with, &opt, &probe, NULL, 0);
    if (n < 0) return -1;
    if (cap < (size_t)n + 1) {
        char *g = realloc(buf, (size_t)n + 1);
        if (!g) return -1;
        buf = g, cap = (size_t)n + 1;
    }
    *ret = scn_case_call_ctx(ref_call_with, &opt, &work, buf, (size_t)n + 1);
    *out = (const unsigned char *)buf, *len = (size_t)n;
    return *ret == n ? 0 : -1;
}
