/* Digit sources over base-1e9 limbs (struct dsrc with lim != NULL): the
 * whole exact expansion (fp_big_init) and two truncated ones that keep only
 * the digits the rounding looks at, plus a "tail" flag for a non-zero rest
 * (fp_trunc_init for tiny values, fp_huge_src for %e/%g of huge ones).
 *
 * fp_big_init: e >= 0: N = m * 2^e; e < 0: N = m * 5^-e (value = N * 10^e),
 * multiplied by 2^29 or 5^13 per step.
 */
#include "float_internal.h"

const uint64_t fp_p5_64[28] = {
    1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
    1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
    30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull,
    19073486328125ull, 95367431640625ull, 476837158203125ull, 2384185791015625ull,
    11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
    1490116119384765625ull, 7450580596923828125ull,
};

static int ndig32(uint32_t x)
{
    int n = 1;
    while (n < 10 && x >= fp_p10[n])
        n++;
    return n;
}

/* A big source over n base-1e9 limbs given least significant first (they
 * are reversed in place): value = the limbs' integer * 10^x. */
static void limbs_src(struct dsrc *s, uint32_t *lim, long n, long x, int tail)
{
    for (long i = 0, j = n - 1; i < j; i++, j--) {
        uint32_t t = lim[i];
        lim[i] = lim[j];
        lim[j] = t;
    }
    s->dig = 0;
    s->nd = 0;
    s->lim = lim;
    s->nl = n;
    s->skip = 9 - ndig32(lim[0]);
    s->E = 9 * n - s->skip - 1 + x;
    s->fast = 0;
    s->zero = 0;
    s->tail = tail;
    s->f = 0;
    s->k = 0;
}

/* The whole exact expansion of m * 2^e (m != 0). */
void fp_big_init(struct dsrc *s, uint64_t m, int e, uint32_t *buf)
{
    long n = 0;
    long q = 0;
    while (m) {
        buf[n++] = (uint32_t)(m % 1000000000u);
        m /= 1000000000u;
    }
    while (e > 0) {
        int sh = e < 29 ? e : 29;
        uint64_t carry = 0;
        for (long i = 0; i < n; i++) {
            uint64_t t = ((uint64_t)buf[i] << sh) + carry;
            carry = t / 1000000000u;
            buf[i] = (uint32_t)(t - carry * 1000000000u);
        }
        if (carry)
            buf[n++] = (uint32_t)carry; /* < 2^29 < 1e9 */
        e -= sh;
    }
    if (e < 0) {
        static const uint32_t p5[14] = {
            1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u, 390625u, 1953125u,
            9765625u, 48828125u, 244140625u, 1220703125u,
        };
        long k = -e;
        q = e;
        while (k > 0) {
            int st = k < 13 ? (int)k : 13;
            uint64_t mul = p5[st], carry = 0;
            for (long i = 0; i < n; i++) {
                uint64_t t = (uint64_t)buf[i] * mul + carry;
                carry = t / 1000000000u;
                buf[i] = (uint32_t)(t - carry * 1000000000u);
            }
            while (carry) {
                buf[n++] = (uint32_t)(carry % 1000000000u);
                carry /= 1000000000u;
            }
            k -= st;
        }
    }
    limbs_src(s, buf, n, q, 0);
}

/* ---- a truncated big source for tiny values (m * 2^e, e < -FAST_MAX_K):
 * q = floor(value * 10^t) = floor(m * 5^t / 2^(-e-t)) in binary, then q in
 * base 1e9; `tail` records a non-zero remainder.  The rounding needs only
 * the first L + 1 digits, while the whole expansion of a long double
 * subnormal has 11,500 (fp_big_init: quadratic in base 1e9, milliseconds);
 * here 5^t costs t / 27 one-limb multiplications.  q has at most TRUNC_DIG
 * digits (128 limbs of 9); the product at most 64 + 2.33 t bits, t <=
 * TRUNC_DIG + 4953: 224 64-bit words of the work area (wk[0..TRUNC_W)),
 * the limbs go to out (32-bit words that do not overlap it).  TRUNC_DIG and
 * TRUNC_W are in float_internal.h: try_trunc needs them too. */

/* q (nq > 0 words, destroyed) in base 1e9, least significant limb first;
 * returns the limb count.  32-bit halves keep every division a
 * 64-by-constant one. */
static long to_1e9(uint64_t *q, int nq, uint32_t *out)
{
    long nl = 0;
    while (nq) {
        uint64_t rem = 0;
        for (int i = nq - 1; i >= 0; i--) {
            uint64_t x = q[i], cur = (rem << 32) | (x >> 32);
            uint64_t qh = cur / 1000000000u;
            rem = cur - qh * 1000000000u;
            cur = (rem << 32) | (x & 0xffffffffu);
            uint64_t ql = cur / 1000000000u;
            rem = cur - ql * 1000000000u;
            q[i] = (qh << 32) | ql;
        }
        out[nl++] = (uint32_t)rem;
        while (nq && !q[nq - 1])
            nq--;
    }
    return nl;
}

int fp_trunc_init(struct dsrc *s, uint64_t m, int e, long t, uint64_t *wk, uint32_t *out)
{
    wk[0] = m;
    int n = mul_pow5(wk, 1, t, TRUNC_W);
    if (n < 0)
        return 0;
    /* q = product >> sh; tail: a bit shifted out is set */
    long sh = -(long)e - t, w = sh / 64;
    int b = (int)(sh % 64), tail = 0, nq = 0;
    for (long i = 0; i < w && i < n; i++)
        tail |= wk[i] != 0;
    if (b && w < n)
        tail |= (wk[w] << (64 - b)) != 0;
    for (long i = w; i < n; i++) /* in place: reads at or above the write */
        wk[nq++] = b ? (wk[i] >> b) | (i + 1 < n ? wk[i + 1] << (64 - b) : 0) : wk[i];
    while (nq && !wk[nq - 1])
        nq--;
    if (!nq)
        return 0;
    limbs_src(s, out, to_1e9(wk, nq, out), -t, tail);
    return 1;
}

/* ---- a truncated source for huge values (m * 2^e >= 2^64) in %e and %g:
 * q = floor(value / 10^x) = floor(m * 2^(e-x) / 5^x) by long division
 * (Knuth's algorithm D, 32-bit digits), the L + 1 digits the rounding needs
 * and a tail flag for a non-zero remainder, instead of the whole expansion
 * (4,933 digits for LDBL_MAX, quadratic in base 1e9).  Work area in 32-bit
 * words: divisor [0, 366), dividend [366, 888), quotient [888, 1010),
 * limbs [1010, 1140); 5^x is built first as 64-bit words [460, 644) of the
 * same area (32-bit [920, 1288)), and q as 64-bit words [0, 61) once the
 * divisor is no longer needed. */
#define HD_U 366
#define HD_Q 888
#define HD_OUT 1010
#define HD_B64 460

int fp_huge_src(struct dsrc *s, uint64_t m, int e, long x, uint64_t *wk, uint32_t *w32)
{
    uint32_t *v = w32, *u = w32 + HD_U, *q = w32 + HD_Q, *out = w32 + HD_OUT;
    uint64_t *b64 = wk + HD_B64;
    b64[0] = 1;
    int nb = mul_pow5(b64, 1, x, HD_U / 2);
    if (nb < 0)
        return 0;
    int n = 2 * nb;
    for (int i = 0; i < nb; i++) {
        v[2 * i] = (uint32_t)b64[i];
        v[2 * i + 1] = (uint32_t)(b64[i] >> 32);
    }
    while (n > 0 && !v[n - 1])
        n--;
    if (n < 2)
        return 0;
    int sh = __builtin_clz(v[n - 1]); /* normalise: the divisor's top bit set */
    if (sh)
        for (int i = n - 1; i >= 0; i--)
            v[i] = (v[i] << sh) | (i ? v[i - 1] >> (32 - sh) : 0);
    long bs = (long)e - x + sh; /* the dividend, shifted alike: m << bs */
    if (bs < 0)
        return 0;
    long wq = bs / 32;
    if (wq + 4 > HD_Q - HD_U)
        return 0;
    for (long i = 0; i < wq + 4; i++)
        u[i] = 0;
    u128 mm = (u128)m << (bs % 32);
    u[wq] = (uint32_t)mm;
    u[wq + 1] = (uint32_t)(mm >> 32);
    u[wq + 2] = (uint32_t)(mm >> 64);
    long mu = wq + 3; /* u[mu] == 0: algorithm D's extra top digit */
    while (mu > n && !u[mu - 1])
        mu--;
    if (mu < n || mu - n + 1 > HD_OUT - HD_Q)
        return 0;
    for (long j = mu - n; j >= 0; j--) {
        uint64_t num = ((uint64_t)u[j + n] << 32) | u[j + n - 1];
        uint64_t qh = num / v[n - 1], rh = num - qh * v[n - 1];
        while (qh >> 32 || qh * v[n - 2] > ((rh << 32) | u[j + n - 2])) {
            qh--;
            rh += v[n - 1];
            if (rh >> 32)
                break;
        }
        int64_t k = 0, t;
        for (int i = 0; i < n; i++) { /* u[j..j+n] -= qh * v */
            uint64_t p = qh * v[i];
            t = (int64_t)u[i + j] - k - (int64_t)(p & 0xffffffffu);
            u[i + j] = (uint32_t)t;
            k = (int64_t)(p >> 32) - (t >> 32);
        }
        t = (int64_t)u[j + n] - k;
        u[j + n] = (uint32_t)t;
        if (t < 0) { /* qh was one too large: add v back */
            qh--;
            uint64_t c = 0;
            for (int i = 0; i < n; i++) {
                c += (uint64_t)u[i + j] + v[i];
                u[i + j] = (uint32_t)c;
                c >>= 32;
            }
            u[j + n] += (uint32_t)c;
        }
        q[j] = (uint32_t)qh;
    }
    int tail = 0;
    for (int i = 0; i < n; i++)
        tail |= u[i] != 0;
    int nq = (int)((mu - n + 2) / 2);
    for (int i = 0; i < nq; i++)
        wk[i] = q[2 * i] | (2 * i + 1 <= mu - n ? (uint64_t)q[2 * i + 1] << 32 : 0);
    while (nq && !wk[nq - 1])
        nq--;
    if (!nq)
        return 0;
    limbs_src(s, out, to_1e9(wk, nq, out), x, tail);
    return 1;
}
