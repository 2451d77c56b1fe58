/* Private interfaces of the floating-point converter, shared by its files
 * (the layout and the reasons for it: conv_float.c).
 */
#ifndef SCN_REF_FLOAT_INTERNAL_H
#define SCN_REF_FLOAT_INTERNAL_H

#include "internal.h"

/* Stack bound: one work area serves every route.  The longest exact
 * expansion is that of an x86 long double subnormal: m < 2^64 times 5^16445,
 * < 10^11514, i.e. 1280 base-1e9 limbs (LDBL_MAX needs 549; double alone
 * 86).  BIG_LIMBS = 1288 uint32_t = 5152 bytes; bin5 uses at most 184 and
 * huge_e at most 446 of its 644 64-bit words, fp_trunc_init 232 words plus
 * 129 limbs above them, fp_huge_src 1140 of the 1288 32-bit words.  It is the
 * only large frame (conv_float_ex's): the deepest chain stays under 7 KiB
 * (gcc -fstack-usage shows the frames). */
#define BIG_LIMBS 1288
#define FAST_DIGS 144
#define FAST_MAX_K 98

/* The truncated source for tiny values (float_big.c) keeps at most
 * TRUNC_DIG digits; its product takes the first TRUNC_W 64-bit words of the
 * work area, its limbs the 32-bit words above them. */
#define TRUNC_DIG 1152
#define TRUNC_W 232

typedef unsigned __int128 u128;

extern const uint32_t fp_p10[10];   /* 10^0 .. 10^9 (float_round.c) */
extern const uint64_t fp_p5_64[28]; /* 5^0 .. 5^27 (float_big.c) */

/* v = m * 2^e with m odd; 0 for zero. */
static inline int odd_mant(const struct fp_value *v, uint64_t *m, int *e)
{
    if (!v->mant)
        return 0;
    int tz = __builtin_ctzll(v->mant);
    *m = v->mant >> tz;
    *e = v->exp + tz;
    return 1;
}

/* x (n little-endian 64-bit words) *= 5^t; returns the new length, or -1
 * when it would pass cap words. */
static inline int mul_pow5(uint64_t *x, int n, long t, int cap)
{
    for (long r = t; r > 0;) {
        int st = r < 27 ? (int)r : 27;
        u128 c = 0;
        for (int i = 0; i < n; i++) {
            c += (u128)x[i] * fp_p5_64[st];
            x[i] = (uint64_t)c;
            c >>= 64;
        }
        if (c) {
            if (n >= cap)
                return -1;
            x[n++] = (uint64_t)c;
        }
        r -= st;
    }
    return n;
}

/* ---- digit sources (float_round.c, float_big.c) ---- */

struct dsrc {
    char *dig;     /* fast source: the digits as characters ('0'..'9'), else NULL */
    long nd;       /* fast source: digits in dig */
    uint32_t *lim; /* big source: big-endian base-1e9 limbs, 9 digits each */
    long nl;       /* limbs in use */
    long skip;     /* leading zero digits of lim[0] */
    long E;        /* decimal exponent of digit 0 (first non-zero digit) */
    int zero;      /* the value is zero (nl == 0) */
    int fast;      /* lazily extended: f / 2^k still to expand */
    int tail;      /* truncated big source: non-zero digits follow the stored ones */
    int k;
    u128 f;
};

/* x < 1e9 as exactly 9 digits */
static inline void put9(char *o, uint32_t x)
{
    uint32_t a = x / 100000000u, r = x - a * 100000000u;
    uint32_t b = r / 1000000u;
    r -= b * 1000000u;
    uint32_t c = r / 10000u;
    r -= c * 10000u;
    uint32_t d = r / 100u, e = r - d * 100u;
    o[0] = (char)('0' + a);
    __builtin_memcpy(o + 1, ref_dec_pairs + 2 * b, 2);
    __builtin_memcpy(o + 3, ref_dec_pairs + 2 * c, 2);
    __builtin_memcpy(o + 5, ref_dec_pairs + 2 * d, 2);
    __builtin_memcpy(o + 7, ref_dec_pairs + 2 * e, 2);
}

/* Sources over base-1e9 limbs (float_big.c): the whole exact expansion of
 * m * 2^e (m odd), and the truncated ones for tiny and huge values. */
void fp_big_init(struct dsrc *s, uint64_t m, int e, uint32_t *buf);
int fp_trunc_init(struct dsrc *s, uint64_t m, int e, long t, uint64_t *wk, uint32_t *out);
int fp_huge_src(struct dsrc *s, uint64_t m, int e, long x, uint64_t *wk, uint32_t *w32);

/* ---- rounding (float_round.c) ---- */

/* The rounded digit string: digits 0..npre-1 of the source, then (if c)
 * the digit c, then zeros; E = exponent of digit 0; nsig = 0: value zero. */
struct rres {
    long npre;
    int c;
    long E;
    long nsig;
};

/* Rounds v for conversion conv ('e': L significant digits; 'f': L fraction
 * digits) into s/r with the digit sources. */
void fp_round_value(const struct fp_value *v, char conv, long long L, enum ref_rounding rm,
                    int force_big, uint32_t *buf, uint64_t *wk, char *dbuf, struct dsrc *s,
                    struct rres *r);
/* Index + 1 of the last non-zero digit among the first `lim` rounded digits. */
long fp_last_nonzero(const struct dsrc *s, const struct rres *r, long lim);

#endif /* SCN_REF_FLOAT_INTERNAL_H */
