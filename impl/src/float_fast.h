/* The fast decimal paths: D = round(value * 10^s) computed directly as one
 * uint64_t, with the exact remainder compared with one half (ties, directed
 * modes), for results of at most 19 digits (18 for tiny and huge values).
 * fast_conv (conv_float.c) picks the path and formats D (float_body.h); the
 * tests compare its output with the big-number route byte for byte.
 *
 * Ordinary values: when value = ip + f / 2^k (ip < 2^128, k <= FAST_MAX_K)
 * and the rounded result has at most 19 digits, round(value * 10^s) is
 * computed directly as a uint64_t: value * 10^s = ip * 10^s + (f * 10^s) /
 * 2^k, exact in unsigned __int128 when the bit lengths allow it (checked;
 * with k <= 64 the fraction is a 0.64 fixed-point word and the remainder is
 * the low word of one 64x64->128 product); the remainder gives the exact
 * comparison with one half.  s < 0 divides ip by 10^-s.  Tiny values (bin5)
 * and huge ones (huge_e): below.
 *
 * Part of conv_float.c's translation unit (see there): included by
 * conv_float.c only, its functions static as in a single file.
 */
#ifndef SCN_REF_FLOAT_FAST_H
#define SCN_REF_FLOAT_FAST_H

#include "float_internal.h"

static const uint64_t p10_64[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

static inline u128 pow10_128(int s) /* 0 <= s <= 38 */
{
    return s <= 19 ? p10_64[s] : (u128)p10_64[19] * p10_64[s - 19];
}

static inline int bitlen128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

struct fxval {
    u128 ip;
    u128 f;
    int k;
};

/* q rounded by its remainder (cmp: against one half, -1 below, 0 equal, 1
 * above; nz: non-zero) in mode rm for a value of sign neg, into *D; 1. */
static int round_bits(uint64_t q, int cmp, int nz, enum ref_rounding rm, int neg,
                      uint64_t *D)
{
    int up;
    switch (rm) {
    case REF_ROUND_TOWARD_ZERO: up = 0; break;
    case REF_ROUND_UPWARD: up = !neg && nz; break;
    case REF_ROUND_DOWNWARD: up = neg && nz; break;
    default: up = cmp > 0 || (cmp == 0 && (q & 1)); break;
    }
    *D = q + (uint64_t)up;
    return 1;
}

/* round((ip + f/2^k) * 10^s) into *D; 0 if it does not provably fit.  The
 * caller guarantees the result is below 10^19 (so ip * 10^s fits). */
static int scaled_round(const struct fxval *x, int s, enum ref_rounding rm, int neg,
                        uint64_t *D)
{
    uint64_t q;
    int cmp, nz; /* remainder vs one half: -1 below, 0 equal, 1 above; non-zero */
    if (s >= 0 && s <= 19 && x->k <= 64) {
        /* the fraction as 0.64 fixed point: f / 2^k = fr / 2^64 exactly */
        uint64_t p = p10_64[s];
        uint64_t fr = x->k ? (uint64_t)x->f << (64 - x->k) : 0;
        u128 t = (u128)fr * p;
        uint64_t r = (uint64_t)t;
        q = (uint64_t)x->ip * p + (uint64_t)(t >> 64);
        cmp = r > (1ull << 63) ? 1 : r == (1ull << 63) ? 0 : -1;
        nz = r != 0;
    } else if (s >= 0) {
        if (s > 38)
            return 0;
        u128 p = pow10_128(s);
        u128 t = 0;
        if (x->f) {
            if (bitlen128(x->f) + bitlen128(p) > 128)
                return 0;
            t = x->f * p;
        }
        q = (uint64_t)(x->ip * p) + (uint64_t)(t >> x->k);
        if (x->k) {
            u128 r = t & (((u128)1 << x->k) - 1), half = (u128)1 << (x->k - 1);
            cmp = r > half ? 1 : r == half ? 0 : -1;
            nz = r != 0;
        } else {
            cmp = -1;
            nz = 0;
        }
    } else {
        if (s < -38)
            return 0;
        u128 p = pow10_128(-s), rem;
        if (x->ip >> 64) {
            u128 qq = x->ip / p; /* < 10^19 (caller) */
            q = (uint64_t)qq;
            rem = x->ip - qq * p;
        } else {
            uint64_t p64 = (uint64_t)p, ip = (uint64_t)x->ip; /* p < 2^64 unless q == 0 */
            if (p >> 64) {
                q = 0;
                rem = ip;
            } else {
                q = ip / p64;
                rem = ip - q * p64;
            }
        }
        u128 half = p / 2;
        cmp = rem > half ? 1 : rem < half ? -1 : x->f ? 1 : 0;
        nz = rem != 0 || x->f != 0;
    }
    return round_bits(q, cmp, nz, rm, neg, D);
}

/* value = ip + f / 2^k for the fast route; E = decimal exponent of the
 * first digit.  0 if the value is zero or outside the fast domain. */
static int fast_prep(const struct fp_value *v, struct fxval *x, long *E)
{
    uint64_t m;
    int e;
    if (!odd_mant(v, &m, &e))
        return 0;
    if (e >= 0) {
        if (e + 64 - __builtin_clzll(m) > 128)
            return 0;
        x->ip = (u128)m << e;
        x->f = 0;
        x->k = 0;
    } else {
        if (e < -FAST_MAX_K)
            return 0;
        x->k = -e;
        x->ip = x->k < 64 ? m >> x->k : 0;
        x->f = x->k < 64 ? (m & ((1ull << x->k) - 1)) : m;
    }
    if (x->ip) {
        long l = bitlen128(x->ip) - 1;
        long est = (l * 78913) >> 18; /* floor(l * log10 2), 0 <= l <= 127 */
        *E = est + (est < 38 && x->ip >= pow10_128((int)est + 1));
    } else {
        int l2 = bitlen128(x->f) - 1 - x->k; /* value in [2^l2, 2^(l2+1)), -98 <= l2 < 0 */
        long est = -((-(long)l2 * 78913 + (1 << 18) - 1) >> 18); /* floor(l2 * log10 2) */
        /* value >= 10^(est+1)?  f * 10^t < 2^(k+1) here, no overflow */
        int t = -(int)(est + 1);
        *E = est + (x->f * pow10_128(t) >= ((u128)1 << x->k));
    }
    return 1;
}

/* ---- tiny values (outside the fast domain, e < 0): value * 10^s = m * 5^s
 * * 2^(e+s), with m * 5^s as a binary big integer (64-bit limbs, multiplied
 * by 5^27 per step); the integer part and the exact remainder are bit fields
 * of it.  s <= B5_MAX_S: 64 + 4990 * log2(5) < 11650 bits = 183 limbs
 * (in the caller's big-number buffer). */
#define B5_MAX_S 4990

/* floor(m * 10^s * 2^e) into *q (0 if it does not fit 64 bits), cmp/nz: the
 * remainder against one half / non-zero.  m odd, e < 0, 0 <= s <= B5_MAX_S. */
static int bin5(uint64_t m, int e, int s, uint64_t *q, int *cmp, int *nz, uint64_t *n)
{
    int nl = 1;
    if (s < 0 || s > B5_MAX_S)
        return 0;
    n[0] = m;
    for (int t = s; t > 0;) {
        int st = t < 27 ? t : 27;
        uint64_t mul = fp_p5_64[st];
        u128 c = 0;
        for (int i = 0; i < nl; i++) {
            c += (u128)n[i] * mul;
            n[i] = (uint64_t)c;
            c >>= 64;
        }
        if (c)
            n[nl++] = (uint64_t)c;
        t -= st;
    }
    long sh = -((long)e + s); /* value * 10^s = N / 2^sh */
    if (sh <= 0) {
        if (nl > 1 || -sh >= 64 || (n[0] >> (63 + sh)) >> 1)
            return 0;
        *q = n[0] << -sh;
        *cmp = -1;
        *nz = 0;
        return 1;
    }
    long li = sh / 64;
    int bi = (int)(sh % 64);
    /* q = bits [sh, sh + 64); everything above must be zero */
    if (li + 2 < nl || (li + 1 < nl && bi && (n[li + 1] >> bi)) ||
        (li + 1 < nl && !bi))
        return 0;
    uint64_t lo = li < nl ? n[li] : 0, hi = li + 1 < nl ? n[li + 1] : 0;
    *q = bi ? (lo >> bi) | (hi << (64 - bi)) : lo;
    long hb = sh - 1;
    long l2 = hb / 64;
    int b2 = (int)(hb % 64);
    int half = l2 < nl ? (int)((n[l2] >> b2) & 1) : 0;
    int st = l2 < nl && (n[l2] & ((1ull << b2) - 1)) != 0;
    for (long j = 0; j < l2 && j < nl && !st; j++)
        st = n[j] != 0;
    *cmp = half ? (st ? 1 : 0) : -1;
    *nz = half || st;
    return 1;
}

/* e-style rounding of a tiny value to L <= 18 significant digits */
static int tiny_e(const struct fp_value *v, int L, enum ref_rounding rm, uint64_t *D, long *Eo,
                  uint64_t *wk)
{
    uint64_t m, q;
    int e, cmp, nz;
    odd_mant(v, &m, &e); /* a tiny value is not zero */
    long l2 = (long)(64 - __builtin_clzll(m)) - 1 + e; /* value in [2^l2, 2^(l2+1)) */
    long long pr = (long long)l2 * 1292913986ll;        /* log10(2) * 2^32 */
    long E = (long)(pr >= 0 ? pr >> 32 : -((-pr + 0xffffffffll) >> 32));
    for (int tries = 0; tries < 3; tries++) {
        if (!bin5(m, e, (int)(L - 1 - E), &q, &cmp, &nz, wk))
            return 0;
        if (q >= p10_64[L])
            E++;
        else if (q < p10_64[L - 1])
            E--;
        else {
            round_bits(q, cmp, nz, rm, v->neg, D);
            if (*D == p10_64[L]) {
                *D = p10_64[L - 1];
                E++;
            }
            *Eo = E;
            return 1;
        }
    }
    return 0;
}

/* f-style rounding of a tiny value to P fraction digits (result < 2^63) */
static int tiny_f(const struct fp_value *v, int P, enum ref_rounding rm, uint64_t *D,
                  uint64_t *wk)
{
    uint64_t m, q;
    int e, cmp, nz;
    odd_mant(v, &m, &e); /* a tiny value is not zero */
    long l2 = (long)(64 - __builtin_clzll(m)) - 1 + e;
    if (l2 + 1 + (P * 10 + 2) / 3 + 1 > 63)
        return 0;
    if (!bin5(m, e, P, &q, &cmp, &nz, wk))
        return 0;
    return round_bits(q, cmp, nz, rm, v->neg, D);
}

/* ---- huge values (m * 2^e >= 2^128): q = floor(m * 2^(e-t) / 5^t) with
 * t = E - L + 1 > 0, a one-limb quotient of two binary big integers:
 * estimated from the top bits (at most 3 below the true quotient) and
 * corrected; the remainder against the divisor gives the rounding.  5^t has
 * at most 182 limbs (t <= 5000), N = m * 2^(e-t) at most 258. */
#define HG_B 184
#define HG_N 262

static int big_bitlen(const uint64_t *x, int n)
{
    while (n > 0 && !x[n - 1])
        n--;
    return n ? 64 * (n - 1) + 64 - __builtin_clzll(x[n - 1]) : 0;
}

/* the 64 bits of x at [pos, pos + 64); pos may be negative */
static uint64_t big_bits(const uint64_t *x, int n, long pos)
{
    if (pos <= -64)
        return 0;
    if (pos < 0)
        return x[0] << -pos;
    long li = pos / 64;
    int b = (int)(pos % 64);
    uint64_t lo = li < n ? x[li] : 0, hi = li + 1 < n ? x[li + 1] : 0;
    return b ? (lo >> b) | (hi << (64 - b)) : lo;
}

/* compare (x << sx) with y, sx in {0, 1} */
static int big_cmp(const uint64_t *x, int nx, int sx, const uint64_t *y, int ny)
{
    int n = (nx > ny ? nx : ny) + 1;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t a = i < nx ? x[i] : 0;
        if (sx)
            a = (a << 1) | (i > 0 && i - 1 < nx ? x[i - 1] >> 63 : 0);
        uint64_t b = i < ny ? y[i] : 0;
        if (a != b)
            return a > b ? 1 : -1;
    }
    return 0;
}

static int huge_e(const struct fp_value *v, int L, enum ref_rounding rm, uint64_t *D, long *Eo,
                  uint64_t *wk)
{
    uint64_t m = v->mant;
    int e = v->exp;
    int tz = __builtin_ctzll(m);
    m >>= tz;
    e += tz;
    long l2 = (long)(64 - __builtin_clzll(m)) - 1 + e;
    long E = (long)(((long long)l2 * 1292913986ll) >> 32); /* floor(l2 log10 2), l2 > 0 */
    uint64_t *B = wk, *N = wk + HG_B;
    for (int tries = 0; tries < 3; tries++) {
        long t = E - (L - 1);
        if (t <= 0 || t > 5000 || e - t < 0)
            return 0;
        /* B = 5^t */
        B[0] = 1;
        int nb = mul_pow5(B, 1, t, HG_B);
        if (nb < 0)
            return 0;
        /* N = m << (e - t) */
        long sh = e - t;
        int nw = (int)(sh / 64), bs = (int)(sh % 64);
        int nn = nw + 2;
        if (nn > HG_N)
            return 0;
        for (int i = 0; i < nw; i++)
            N[i] = 0;
        N[nw] = m << bs;
        N[nw + 1] = bs ? m >> (64 - bs) : 0;
        int sb = big_bitlen(B, nb), sn = big_bitlen(N, nn);
        if (sn > sb + 64) { /* quotient >= 2^64: E too small */
            E++;
            continue;
        }
        u128 nt = ((u128)big_bits(N, nn, sb) << 64) | big_bits(N, nn, sb - 64);
        uint64_t bt = big_bits(B, nb, sb - 64);
        uint64_t q = (uint64_t)(nt / ((u128)bt + 1));
        /* N -= q * B */
        u128 c = 0;
        uint64_t br = 0;
        for (int i = 0; i < nn; i++) {
            c += i < nb ? (u128)B[i] * q : 0;
            uint64_t pl = (uint64_t)c, ni = N[i];
            c >>= 64;
            uint64_t r1 = ni - pl;
            uint64_t b1 = ni < pl;
            N[i] = r1 - br;
            br = b1 | (r1 < br);
        }
        while (big_cmp(N, nn, 0, B, nb) >= 0) {
            uint64_t bb = 0;
            for (int i = 0; i < nn; i++) {
                uint64_t y = i < nb ? B[i] : 0, ni = N[i];
                uint64_t r1 = ni - y;
                uint64_t b1 = ni < y;
                N[i] = r1 - bb;
                bb = b1 | (r1 < bb);
            }
            q++;
        }
        if (q >= p10_64[L]) {
            E++;
            continue;
        }
        if (q < p10_64[L - 1]) {
            E--;
            continue;
        }
        int cmp = big_cmp(N, nn, 1, B, nb);
        int nz = big_bitlen(N, nn) != 0;
        round_bits(q, cmp, nz, rm, v->neg, D);
        if (*D == p10_64[L]) {
            *D = p10_64[L - 1];
            E++;
        }
        *Eo = E;
        return 1;
    }
    return 0;
}

#endif /* SCN_REF_FLOAT_FAST_H */
