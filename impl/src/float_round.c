/* The exact route's digits: picks a digit source for the value and rounds
 * it to L digits.  A digit source (struct dsrc) is the expansion as digits,
 * with the decimal exponent E of the first non-zero digit:
 *   - fast source (fast_init, here): when ip < 2^64 and k <= 98 the fraction
 *     f / 2^k yields 9 digits per (f * 1e9) >> k in unsigned __int128,
 *     lazily, only as many as the rounding needs (at most 119 digits);
 *   - the truncated sources for tiny and huge values and the whole exact
 *     expansion, in base-1e9 limbs (float_big.c).
 * Rounding (round_src) looks at the first discarded digit, a sticky
 * "anything non-zero beyond" and the parity of the last kept digit; a carry
 * is kept as prefix + one incremented digit + zeros.
 *
 * The choice of the source (src_init, try_trunc), the fast source and the
 * source readers stay in this file: they inline into fp_round_value.
 */
#include "float_internal.h"

const uint32_t fp_p10[10] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u,
};

/* x != 0 without leading zeros; returns the digit count */
static int put_u64(char *o, uint64_t x)
{
    char t[20];
    int n = 20;
    while (x >= 100) {
        uint64_t q = x / 100;
        n -= 2;
        __builtin_memcpy(t + n, ref_dec_pairs + 2 * (x - q * 100), 2);
        x = q;
    }
    if (x >= 10) {
        n -= 2;
        __builtin_memcpy(t + n, ref_dec_pairs + 2 * x, 2);
    } else {
        t[--n] = (char)('0' + x);
    }
    for (int i = n; i < 20; i++)
        o[i - n] = t[i];
    return 20 - n;
}

/* m * 2^e, e >= 0 with m*2^e < 2^64, or -FAST_MAX_K <= e < 0. */
static void fast_init(struct dsrc *s, uint64_t m, int e, char *dbuf)
{
    uint64_t ip;
    int k = e < 0 ? -e : 0;
    s->dig = dbuf;
    s->lim = 0;
    s->nl = 0;
    s->skip = 0;
    s->fast = 1;
    s->tail = 0;
    s->zero = 0;
    s->k = k;
    if (e >= 0) {
        ip = m << e;
        s->f = 0;
    } else if (k < 64) {
        ip = m >> k;
        s->f = m & ((1ull << k) - 1);
    } else {
        ip = 0;
        s->f = m;
    }
    if (ip) {
        s->nd = put_u64(dbuf, ip);
        s->E = s->nd - 1;
    } else {
        /* 0.xxx: skip whole zero chunks of the fraction */
        u128 mask = ((u128)1 << k) - 1;
        long z = 0;
        uint32_t l;
        for (;;) {
            s->f *= 1000000000u;
            l = (uint32_t)(s->f >> k);
            s->f &= mask;
            if (l)
                break;
            z++;
        }
        s->nd = put_u64(dbuf, l);
        s->E = -(9 * z + (9 - s->nd)) - 1;
    }
}

/* force_big: for the tests' fast-vs-big comparison (see conv_float_ex). */
static void src_init(struct dsrc *s, const struct fp_value *v, uint32_t *buf, char *dbuf,
                     int force_big)
{
    uint64_t m = v->mant;
    int e = v->exp;
    if (m == 0) {
        *s = (struct dsrc){ .lim = buf, .zero = 1 };
        return;
    }
    int tz = __builtin_ctzll(m);
    m >>= tz;
    e += tz;
    if (!force_big) {
        if (e < 0 ? e >= -FAST_MAX_K : (e < 64 && (m >> (63 - e)) >> 1 == 0)) {
            fast_init(s, m, e, dbuf);
            return;
        }
    }
    fp_big_init(s, m, e, buf);
}

/* The truncated sources when they apply: tiny values whose rounding needs at
 * most TRUNC_DIG digits, and huge ones in %e and %g. */
static int try_trunc(struct dsrc *s, const struct fp_value *v, char conv, long long L,
                     uint64_t *wk, uint32_t *w32)
{
    uint64_t m;
    int e;
    if (!odd_mant(v, &m, &e))
        return 0;
    long l2 = (long)(64 - __builtin_clzll(m)) - 1 + e;          /* 2^l2 <= value */
    long El = (long)(((long long)l2 * 1292913986ll) >> 32) - 1; /* <= E */
    if (e >= 0) {
        /* digits down to 10^x, x <= E - L: L + 1 to L + 4 of them */
        long long x = El - L;
        if (conv != 'e' || l2 < 64 || x < 14 || x > 5000 || L + 4 > TRUNC_DIG)
            return 0;
        return fp_huge_src(s, m, e, (long)x, wk, w32);
    }
    if (e >= -FAST_MAX_K)
        return 0;
    long long t = conv == 'f' ? L + 1 : L - El; /* digits to 10^-t: L + 1 kept */
    if (t < -El)
        t = -El; /* at least one non-zero digit: q >= 1 */
    if (t > -(long long)e)
        t = -(long long)e; /* the exact expansion ends there */
    if (t + El + 3 > TRUNC_DIG)
        return 0;
    return fp_trunc_init(s, m, e, (long)t, wk, w32 + 2 * TRUNC_W);
}

static inline long src_n(const struct dsrc *s)
{
    return s->dig ? s->nd : 9 * s->nl - s->skip;
}

static inline int src_tail(const struct dsrc *s)
{
    return s->tail || (s->fast && s->f != 0);
}

/* Extends a fast source until it has at least `want` digits or is exact.
 * A fraction f / 2^k has exactly k <= FAST_MAX_K digits, so at most
 * 20 + 9 * ceil(98 / 9) = 119 digits are ever produced (FAST_DIGS). */
static void src_ensure(struct dsrc *s, long want)
{
    if (!s->fast)
        return;
    u128 mask = ((u128)1 << s->k) - 1;
    while (s->f != 0 && s->nd < want) {
        s->f *= 1000000000u;
        put9(s->dig + s->nd, (uint32_t)(s->f >> s->k));
        s->nd += 9;
        s->f &= mask;
    }
}

static inline int src_digit(const struct dsrc *s, long i)
{
    if (s->dig)
        return s->dig[i] - '0';
    long r = i + s->skip;
    return (int)((s->lim[r / 9] / fp_p10[8 - r % 9]) % 10);
}

/* Is there a non-zero digit at index >= i? */
static int src_sticky(const struct dsrc *s, long i)
{
    if (src_tail(s))
        return 1;
    if (i < 0)
        i = 0;
    if (s->dig) {
        for (; i < s->nd; i++)
            if (s->dig[i] != '0')
                return 1;
        return 0;
    }
    long r = i + s->skip;
    if (r >= 9 * s->nl)
        return 0;
    long li = r / 9;
    if (s->lim[li] % fp_p10[9 - r % 9])
        return 1;
    for (long j = li + 1; j < s->nl; j++)
        if (s->lim[j])
            return 1;
    return 0;
}

static int want_up(enum ref_rounding r, int neg, int odd, int d, int sticky)
{
    switch (r) {
    case REF_ROUND_TOWARD_ZERO:
        return 0;
    case REF_ROUND_UPWARD:
        return !neg && (d || sticky);
    case REF_ROUND_DOWNWARD:
        return neg && (d || sticky);
    default:
        return d > 5 || (d == 5 && (sticky || odd));
    }
}

/* Keeps L digits (L may be <= 0: everything is discarded, %f of tiny values). */
static void round_src(struct dsrc *s, long long L, enum ref_rounding rm, int neg,
                      struct rres *r)
{
    r->c = 0;
    r->E = s->E;
    if (s->zero) {
        r->npre = 0;
        r->nsig = 0;
        return;
    }
    if (L > (long long)BIG_LIMBS * 9 + 64)
        L = (long long)BIG_LIMBS * 9 + 64; /* beyond any expansion: exact */
    if (L < -(long long)BIG_LIMBS * 9 - 64)
        L = -(long long)BIG_LIMBS * 9 - 64;
    src_ensure(s, (long)L + 1);
    long n = src_n(s);
    if (L >= n && !src_tail(s)) {
        r->npre = n;
        r->nsig = n;
        return;
    }
    int d, sticky, odd;
    if (L >= 0) {
        d = src_digit(s, (long)L);
        sticky = src_sticky(s, (long)L + 1);
        odd = L >= 1 ? (src_digit(s, (long)L - 1) & 1) : 0;
    } else {
        d = 0;
        sticky = 1;
        odd = 0;
    }
    if (!want_up(rm, neg, odd, d, sticky)) {
        r->npre = L > 0 ? (long)L : 0;
        r->nsig = r->npre;
        return;
    }
    long j = (long)L - 1;
    while (j >= 0 && src_digit(s, j) == 9)
        j--;
    if (j >= 0) {
        r->npre = j;
        r->c = src_digit(s, j) + 1;
        r->nsig = j + 1;
    } else {
        r->npre = 0;
        r->c = 1;
        r->nsig = 1;
        r->E = s->E + 1 - (L < 0 ? (long)L : 0);
    }
}

long fp_last_nonzero(const struct dsrc *s, const struct rres *r, long lim)
{
    long n = r->nsig < lim ? r->nsig : lim;
    if (r->c && n == r->nsig)
        return n;
    while (n > 0 && src_digit(s, n - 1) == 0)
        n--;
    return n;
}

void fp_round_value(const struct fp_value *v, char conv, long long L, enum ref_rounding rm,
                    int force_big, uint32_t *buf, uint64_t *wk, char *dbuf, struct dsrc *s,
                    struct rres *r)
{
    if (conv == 'f' && v->mant && !force_big &&
        (long long)v->exp + (64 - __builtin_clzll(v->mant)) + 4 * (L + 1) <= 0) {
        /* value < 2^-4(L+1) < 10^-(L+1): every digit is discarded, the first
         * one is 0 and the rest is not zero: 0, or one unit of 10^-L away
         * from zero in the directed modes (no expansion needed) */
        /* any E < -L: the rounding position is before digit 0 */
        *s = (struct dsrc){ .dig = dbuf, .lim = buf, .E = -L - 1 };
        dbuf[0] = '0';
        r->c = 0;
        r->npre = 0;
        r->nsig = 0;
        r->E = -1;
        if (want_up(rm, v->neg, 0, 0, 1)) {
            r->c = 1;
            r->nsig = 1;
            r->E = (long)-L;
        }
        return;
    }
    if (force_big || !try_trunc(s, v, conv, L, wk, buf))
        src_init(s, v, buf, dbuf, force_big);
    round_src(s, conv == 'f' ? (long long)s->E + 1 + L : L, rm, v->neg, r);
}
