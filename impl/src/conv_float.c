/* The floating-point converter of the reference engine: %a %e %f %g (and
 * upper-case variants) for double and x86 80-bit long double, correctly
 * rounded at every precision in any of the four rounding directions.
 *
 * Method (all exact, no floating-point arithmetic, no libc).  A finite
 * non-zero value is  m * 2^e  (m < 2^64); its decimal expansion terminates.
 *
 * 1. Short results (fast_conv): %e/%g with at most 19 significant digits and
 *    %f whose rounded value has at most 19 digits compute
 *    D = round(value * 10^s) as one uint64_t, with the exact remainder
 *    compared with one half (ties, directed modes):
 *    - ordinary values (value = ip + f/2^k, ip < 2^128, k <= 98):
 *      unsigned __int128 arithmetic (scaled_round);
 *    - tiny values (e < -98, subnormals of both types): m * 5^s as a binary
 *      big integer, the integer part and remainder are bit fields (bin5);
 *    - huge values (>= 2^128): floor(m * 2^(e-t) / 5^t), a one-limb quotient
 *      of two binary big integers, estimated from the top bits and corrected
 *      (huge_e).
 *    The body is assembled in a small local buffer and written in one piece.
 *
 * 2. Everything else (long precisions, %f of large values, ...) uses a
 *    "digit source" (struct dsrc): the expansion as digits, with the decimal
 *    exponent E of the first non-zero digit:
 *    - fast source (fast_init): when ip < 2^64 and k <= 98 the fraction
 *      f / 2^k yields 9 digits per (f * 1e9) >> k in unsigned __int128,
 *      lazily, only as many as the rounding needs (at most 119 digits);
 *    - truncated source (trunc_init), tiny values (e < -98) whose rounding
 *      needs at most 1152 digits: q = floor(value * 10^t) in binary
 *      (m * 5^t >> (-e - t)), then in base 1e9, plus a "tail" flag for a
 *      non-zero remainder: the L + 1 digits the rounding looks at, without
 *      the whole expansion;
 *    - truncated source for huge values (huge_src), %e/%g of m * 2^e >=
 *      2^64 keeping at most 1152 digits: q = floor(value / 10^x) by long
 *      division of m * 2^(e-x) by 5^x (Knuth's algorithm D), plus the tail;
 *    - big source (big_init): the full exact expansion as big-endian
 *      base-1e9 limbs: e >= 0: N = m * 2^e; e < 0: N = m * 5^-e (value =
 *      N * 10^e), multiplied by 2^29 or 5^13 per step.
 *    Rounding (round_src) looks at the first discarded digit, a sticky
 *    "anything non-zero beyond" and the parity of the last kept digit; a
 *    carry is kept as prefix + one incremented digit + zeros.  Digits stream
 *    from the source into the sink; zeros past the exact expansion are
 *    written with sink_pad, so huge precisions cost no memory.
 *
 * Every route is exact, so all give the same bytes; the tests compare the
 * routes with the big source (conv_float_ex(..., force_big = 1)) byte for
 * byte, and everything with MPFR.
 *
 * Stack bound: one work area serves every route.  The longest exact
 * expansion is that of an x86 long double subnormal: m < 2^64 times 5^16445,
 * < 10^11514, i.e. 1280 base-1e9 limbs (LDBL_MAX needs 549; double alone
 * 86).  BIG_LIMBS = 1288 uint32_t = 5152 bytes; bin5 uses at most 184 and
 * huge_e at most 446 of its 644 64-bit words, trunc_init 232 words plus 129
 * limbs above them, huge_src 1140 of the 1288 32-bit words.  Measured frames
 * (-fstack-usage): conv_float_ex 5.7 KiB at -O2; the deepest chain at -O0
 * is under 6.6 KiB.  Bound: 7 KiB.
 *
 * x86 80-bit long double encodings (fp_from_long_double): like the x87 FPU
 * (and glibc >= 2.33 printf), unnormals (exponent 1..0x7ffe, integer bit
 * clear), pseudo-infinities and pseudo-NaNs (exponent 0x7fff, integer bit
 * clear) are invalid operands and format as NaN (sign kept).
 * Pseudo-denormals (exponent 0, integer bit set) have the value the FPU
 * gives them: m * 2^-16445, like exponent 1.
 */
#include "internal.h"

#define BIG_LIMBS 1288
#define FAST_DIGS 144
#define FAST_MAX_K 98

typedef unsigned __int128 u128;

static const uint32_t p10[10] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u,
};

/* ------------------------------------------------------------ decoding -- */

struct fp_value fp_from_double(double d)
{
    struct fp_value v = {0};
    uint64_t b;
    __builtin_memcpy(&b, &d, sizeof b);
    unsigned be = (unsigned)(b >> 52) & 0x7ff;
    uint64_t frac = b & ((1ull << 52) - 1);
    v.neg = (unsigned char)(b >> 63);
    v.bits = 53;
    if (be == 0x7ff) {
        v.cls = frac ? FP_NAN : FP_INF;
    } else if (be == 0) {
        v.mant = frac;
        v.exp = frac ? -1074 : 0;
    } else {
        v.mant = frac | (1ull << 52);
        v.exp = (int)be - 1075;
    }
    return v;
}

struct fp_value fp_from_long_double(long double d)
{
    struct fp_value v = {0};
    unsigned char raw[16];
    uint64_t m;
    unsigned se;
    __builtin_memcpy(raw, &d, 10);
    __builtin_memcpy(&m, raw, 8);
    se = (unsigned)raw[8] | ((unsigned)raw[9] << 8);
    v.neg = (unsigned char)(se >> 15);
    v.bits = 64;
    se &= 0x7fff;
    if (se == 0x7fff) {
        /* 1.000 = inf; 1.xxx = NaN; 0.xxx (pseudo-inf/NaN) = NaN */
        v.cls = (m == (1ull << 63)) ? FP_INF : FP_NAN;
    } else if (se == 0) {
        /* denormal (0.xxx) or pseudo-denormal (1.xxx): m * 2^(1-16383-63) */
        v.mant = m;
        v.exp = m ? -16445 : 0;
    } else if (!(m >> 63)) {
        v.cls = FP_NAN; /* unnormal */
    } else {
        v.mant = m;
        v.exp = (int)se - 16383 - 63;
    }
    return v;
}

/* ----------------------------------------------------- digit sources -- */

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

static int ndig32(uint32_t x)
{
    int n = 1;
    while (n < 10 && x >= p10[n])
        n++;
    return n;
}

static const char dpairs[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
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
    __builtin_memcpy(o + 1, dpairs + 2 * b, 2);
    __builtin_memcpy(o + 3, dpairs + 2 * c, 2);
    __builtin_memcpy(o + 5, dpairs + 2 * d, 2);
    __builtin_memcpy(o + 7, dpairs + 2 * e, 2);
}

/* x != 0 without leading zeros; returns the digit count */
static int put_u64(char *o, uint64_t x)
{
    char t[20];
    int n = 20;
    while (x >= 100) {
        uint64_t q = x / 100;
        n -= 2;
        __builtin_memcpy(t + n, dpairs + 2 * (x - q * 100), 2);
        x = q;
    }
    if (x >= 10) {
        n -= 2;
        __builtin_memcpy(t + n, dpairs + 2 * x, 2);
    } else {
        t[--n] = (char)('0' + x);
    }
    for (int i = n; i < 20; i++)
        o[i - n] = t[i];
    return 20 - n;
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
    return (int)((s->lim[r / 9] / p10[8 - r % 9]) % 10);
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
    if (s->lim[li] % p10[9 - r % 9])
        return 1;
    for (long j = li + 1; j < s->nl; j++)
        if (s->lim[j])
            return 1;
    return 0;
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
static void big_init(struct dsrc *s, uint64_t m, int e, uint32_t *buf)
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

/* force_big: for the tests' fast-vs-big comparison (see conv_float_ex). */
static void src_init(struct dsrc *s, const struct fp_value *v, uint32_t *buf, char *dbuf,
                     int force_big)
{
    uint64_t m = v->mant;
    int e = v->exp;
    if (m == 0) {
        s->dig = 0;
        s->nd = 0;
        s->lim = buf;
        s->nl = 0;
        s->skip = 0;
        s->E = 0;
        s->zero = 1;
        s->fast = 0;
        s->tail = 0;
        s->f = 0;
        s->k = 0;
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
    big_init(s, m, e, buf);
}

/* ------------------------------------------------------------ rounding -- */

/* The rounded digit string: digits 0..npre-1 of the source, then (if c)
 * the digit c, then zeros; E = exponent of digit 0; nsig = 0: value zero. */
struct rres {
    long npre;
    int c;
    long E;
    long nsig;
};

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

/* Index + 1 of the last non-zero digit among the first `lim` rounded digits. */
static long last_nonzero(const struct dsrc *s, const struct rres *r, long lim)
{
    long n = r->nsig < lim ? r->nsig : lim;
    if (r->c && n == r->nsig)
        return n;
    while (n > 0 && src_digit(s, n - 1) == 0)
        n--;
    return n;
}

/* -------------------------------------------------------------- output -- */

/* sink_write with a fast path when everything fits */
static inline void put_bytes(struct sink *w, const char *p, size_t n)
{
    if (w->len + n < w->size) {
        char *d = w->buf + w->len;
        size_t i = 0;
        for (; i + 8 <= n; i += 8)
            __builtin_memcpy(d + i, p + i, 8);
        for (; i < n; i++)
            d[i] = p[i];
        w->len += n;
    } else {
        sink_write(w, p, n);
    }
}

/* Source digits [a, b), 0 <= a <= b <= src_n. */
static void emit_src(struct sink *w, const struct dsrc *s, long a, long b)
{
    if (s->dig) {
        put_bytes(w, s->dig + a, (size_t)(b - a));
        return;
    }
    char t[9];
    long ra = a + s->skip, rb = b + s->skip;
    while (ra < rb) {
        long li = ra / 9, off = ra % 9;
        long end = (li + 1) * 9 < rb ? (li + 1) * 9 : rb;
        put9(t, s->lim[li]);
        put_bytes(w, t + off, (size_t)(end - ra));
        ra = end;
    }
}

/* Rounded digits [from, to): negative indices and indices past the
 * significant ones are zeros. */
static void emit_digits(struct sink *w, const struct dsrc *s, const struct rres *r,
                        long long from, long long to)
{
    if (from >= to)
        return;
    if (from < 0) {
        long long z = (to < 0 ? to : 0) - from;
        sink_pad(w, '0', (size_t)z);
        from += z;
    }
    long long b = to < r->npre ? to : r->npre;
    if (from < b) {
        emit_src(w, s, (long)from, (long)b);
        from = b;
    }
    if (r->c && from == r->npre && from < to) {
        sink_putc(w, (char)('0' + r->c));
        from++;
    }
    if (from < to)
        sink_pad(w, '0', (size_t)(to - from));
}

/* Left padding, sign, prefix and zero padding; returns the right padding. */
static size_t field_open(struct sink *w, unsigned fl, int width, char sign,
                         const char *pre, size_t prelen, size_t body, int zok)
{
    size_t tot = (sign ? 1 : 0) + prelen + body;
    size_t pad = (width > 0 && (size_t)width > tot) ? (size_t)width - tot : 0;
    int zero = zok && (fl & FL_ZERO) && !(fl & FL_MINUS);
    if (!(fl & FL_MINUS) && !zero) {
        sink_pad(w, ' ', pad);
        pad = 0;
    }
    if (sign)
        sink_putc(w, sign);
    if (prelen)
        sink_write(w, pre, prelen);
    if (zero) {
        sink_pad(w, '0', pad);
        pad = 0;
    }
    return pad;
}

static size_t exp_len(long x)
{
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    size_t n = 1;
    while (u >= 10) {
        u /= 10;
        n++;
    }
    return n < 2 ? 2 : n;
}

static void put_exp(struct sink *w, char ech, long x, size_t mind)
{
    char t[24];
    int n = 0;
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while ((size_t)n < mind)
        t[n++] = '0';
    sink_putc(w, ech);
    sink_putc(w, x < 0 ? '-' : '+');
    while (n)
        sink_putc(w, t[--n]);
}

static void print_e(struct sink *w, const struct fmt_spec *sp, char sign,
                    const struct dsrc *s, const struct rres *r, long long frac, int dot)
{
    long x = r->nsig ? r->E : 0;
    size_t el = exp_len(x);
    size_t body = 1 + (dot ? 1 + (size_t)frac : 0) + 2 + el;
    size_t rp = field_open(w, sp->flags, sp->width, sign, 0, 0, body, 1);
    emit_digits(w, s, r, 0, 1);
    if (dot) {
        sink_putc(w, '.');
        emit_digits(w, s, r, 1, 1 + frac);
    }
    put_exp(w, (sp->flags & FL_UPPER) ? 'E' : 'e', x, 2);
    sink_pad(w, ' ', rp);
}

static void print_f(struct sink *w, const struct fmt_spec *sp, char sign,
                    const struct dsrc *s, const struct rres *r, long long frac, int dot)
{
    int ip = r->nsig && r->E >= 0;
    size_t il = ip ? (size_t)r->E + 1 : 1;
    size_t body = il + (dot ? 1 + (size_t)frac : 0);
    size_t rp = field_open(w, sp->flags, sp->width, sign, 0, 0, body, 1);
    long long e1 = ip ? r->E + 1 : 0;
    if (ip)
        emit_digits(w, s, r, 0, e1);
    else
        sink_putc(w, '0');
    if (dot) {
        sink_putc(w, '.');
        /* fraction digit t (1-based) is index E + t */
        if (r->nsig)
            emit_digits(w, s, r, (long long)r->E + 1, (long long)r->E + 1 + frac);
        else
            sink_pad(w, '0', (size_t)frac);
    }
    sink_pad(w, ' ', rp);
}

/* ----------------------------------------------------------------- %a -- */

static void conv_hex(struct sink *w, const struct fmt_spec *sp, char sign,
                     const struct fp_value *v, enum ref_rounding rm)
{
    static const char lx[] = "0123456789abcdef", ux[] = "0123456789ABCDEF";
    const char *xd = (sp->flags & FL_UPPER) ? ux : lx;
    int up = (sp->flags & FL_UPPER) != 0;
    uint64_t fr = 0;  /* the 64 fraction bits after the leading 1 */
    long x = 0;       /* binary exponent of the leading digit */
    int nd;           /* fraction hex digits to print (from fr, then zeros) */
    long long prec = sp->prec;
    int lead = 0;

    if (v->mant) {
        int lz = __builtin_clzll(v->mant);
        uint64_t n = v->mant << lz;
        x = (long)v->exp + 63 - lz;
        fr = n << 1;
        lead = 1;
    }
    if (prec < 0) {
        nd = 16;
        while (nd > 0 && ((fr >> (64 - 4 * nd)) & 15) == 0)
            nd--;
        prec = nd;
    } else if (prec < 16 && lead) {
        /* round fr to prec hex digits */
        int kb = 4 * (int)prec; /* kept bits */
        uint64_t kept = kb ? fr >> (64 - kb) : 0;
        uint64_t disc = kb ? fr << kb : fr;
        int d = (int)(disc >> 63);
        int sticky = (disc << 1) != 0;
        int odd = kb ? (int)(kept & 1) : 1;
        /* reuse the decimal rule with a binary "digit": half = d */
        int upd;
        switch (rm) {
        case REF_ROUND_TOWARD_ZERO: upd = 0; break;
        case REF_ROUND_UPWARD: upd = !v->neg && (d || sticky); break;
        case REF_ROUND_DOWNWARD: upd = v->neg && (d || sticky); break;
        default: upd = d && (sticky || odd); break;
        }
        if (upd) {
            kept++;
            if (kb == 0 || kept >> kb) {
                /* carry into the leading digit: 0x2.00 -> 0x1.00p(x+1) */
                kept = 0;
                x++;
            }
        }
        fr = kb ? kept << (64 - kb) : 0;
    }
    nd = prec < 16 ? (int)prec : 16;
    int dot = prec > 0 || (sp->flags & FL_HASH);
    size_t el = 1;
    {
        unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
        while (u >= 10) {
            u /= 10;
            el++;
        }
    }
    size_t body = 1 + (dot ? 1 + (size_t)prec : 0) + 2 + el;
    size_t rp = field_open(w, sp->flags, sp->width, sign, up ? "0X" : "0x", 2, body, 1);
    sink_putc(w, lead ? '1' : '0');
    if (dot) {
        sink_putc(w, '.');
        for (int i = 0; i < nd; i++)
            sink_putc(w, xd[(fr >> (60 - 4 * i)) & 15]);
        if (prec > nd)
            sink_pad(w, '0', (size_t)(prec - nd));
    }
    char t[24];
    int n = 0;
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    sink_putc(w, up ? 'P' : 'p');
    sink_putc(w, x < 0 ? '-' : '+');
    while (n)
        sink_putc(w, t[--n]);
    sink_pad(w, ' ', rp);
}

/* ------------------------------------------------- fast rounded route --
 * When value = ip + f / 2^k (ip < 2^128, k <= FAST_MAX_K) and the rounded
 * result has at most 19 digits, round(value * 10^s) is computed directly as
 * a uint64_t: value * 10^s = ip * 10^s + (f * 10^s) / 2^k, exact in
 * unsigned __int128 when the bit lengths allow it (checked; with k <= 64
 * the fraction is a 0.64 fixed-point word and the remainder is the low word
 * of one 64x64->128 product); the remainder gives the exact comparison with
 * one half.  s < 0 divides ip by 10^-s.  fast_conv then formats the digits
 * of that integer (fbody_e / fbody_f); the tests compare its output with the
 * big-number route byte for byte. */

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

/* value = ip + f / 2^k for the fast route; E = decimal exponent of the
 * first digit.  0 if the value is zero or outside the fast domain. */
/* v = m * 2^e with m odd; 0 for zero. */
static int odd_mant(const struct fp_value *v, uint64_t *m, int *e)
{
    if (!v->mant)
        return 0;
    int tz = __builtin_ctzll(v->mant);
    *m = v->mant >> tz;
    *e = v->exp + tz;
    return 1;
}

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

/* x < 10^8 as exactly 8 digits: x * ceil(2^48 / 10^6) is x / 10^6 in 16.48
 * fixed point; each step takes two digits off the top (exhaustively checked
 * for every x < 10^8: the error stays below one unit of the last pair). */
static inline void put8(char *o, uint32_t x)
{
    const uint64_t mask = (1ull << 48) - 1;
    uint64_t y = (uint64_t)x * 281474977ull;
    __builtin_memcpy(o, dpairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 2, dpairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 4, dpairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 6, dpairs + 2 * (y >> 48), 2);
}

static inline int ndig64(uint64_t D)
{
    int t = ((64 - __builtin_clzll(D | 1)) * 1233) >> 12;
    return t - (D < p10_64[t]) + 1;
}

/* D > 0 as decimal digits ending at end; returns the start.  Writes up to 24
 * bytes before end (zero-padded groups of 8). */
static inline char *u64_chars(char *end, uint64_t D)
{
    int nd = ndig64(D);
    uint64_t q = D / 100000000u;
    put8(end - 8, (uint32_t)(D - q * 100000000u));
    if (q) {
        uint64_t q2 = q / 100000000u;
        put8(end - 16, (uint32_t)(q - q2 * 100000000u));
        if (q2)
            put8(end - 24, (uint32_t)q2);
    }
    return end - nd;
}

/* D > 0 (u128) as decimal digits ending at end; returns the start */
static char *u128_chars(char *end, u128 D)
{
    const uint64_t P19 = 10000000000000000000ull;
    while (D >> 64 || (uint64_t)D >= P19) {
        u128 q = D / P19;
        uint64_t r = (uint64_t)(D - q * P19);
        char *st = r ? u64_chars(end, r) : end;
        while (st > end - 19)
            *--st = '0';
        end = st;
        D = q;
    }
    return u64_chars(end, (uint64_t)D);
}

/* n bytes from p to o in 8-byte pieces: may read and write up to 7 bytes
 * past the end (the callers' buffers have that slack) */
static inline void cpy8(char *o, const char *p, long n)
{
    for (long i = 0; i < n; i += 8)
        __builtin_memcpy(o + i, p + i, 8);
}

static inline void zero8(char *o, long n)
{
    for (long i = 0; i < n; i += 8)
        __builtin_memcpy(o + i, "00000000", 8);
}

/* e-style body from nd digits dg (zeros beyond); |E| < 10000 */
static size_t fbody_e(char *o, const char *dg, int nd, long E, int frac, int dot, int upper)
{
    size_t n = 0;
    o[n++] = nd ? dg[0] : '0';
    if (dot) {
        o[n++] = '.';
        long c = nd - 1 < frac ? nd - 1 : frac;
        if (c > 0) {
            cpy8(o + n, dg + 1, c);
            n += (size_t)c;
        } else {
            c = 0;
        }
        zero8(o + n, frac - c);
        n += (size_t)(frac - c);
    }
    o[n++] = upper ? 'E' : 'e';
    o[n++] = E < 0 ? '-' : '+';
    unsigned u = (unsigned)(E < 0 ? -E : E);
    if (u >= 100) {
        if (u >= 1000) {
            o[n++] = (char)('0' + u / 1000);
            u %= 1000;
            o[n++] = (char)('0' + u / 100);
        } else {
            o[n++] = (char)('0' + u / 100);
        }
        u %= 100;
    }
    __builtin_memcpy(o + n, dpairs + 2 * u, 2);
    return n + 2;
}

/* f-style body from nd digits dg (nd == 0: zero) with first-digit exponent E */
static size_t fbody_f(char *o, const char *dg, int nd, long E, int frac, int dot)
{
    size_t n = 0;
    long used = 0; /* digits of dg written */
    if (nd == 0 || E < 0) {
        o[n++] = '0';
    } else {
        long c = E + 1 < nd ? E + 1 : nd;
        cpy8(o, dg, c);
        zero8(o + c, E + 1 - c);
        n = (size_t)(E + 1);
        used = c;
    }
    if (dot) {
        o[n++] = '.';
        long lead = 0; /* zeros between the point and the first digit */
        if (nd && E < -1)
            lead = -E - 1 < frac ? -E - 1 : frac;
        zero8(o + n, lead);
        n += (size_t)lead;
        long c = nd - used;
        if (c > frac - lead)
            c = frac - lead;
        if (c > 0) {
            cpy8(o + n, dg + used, c);
            n += (size_t)c;
        } else {
            c = 0;
        }
        zero8(o + n, frac - lead - c);
        n += (size_t)(frac - lead - c);
    }
    return n;
}

/* ---- tiny values (outside the fast domain, e < 0): value * 10^s = m * 5^s
 * * 2^(e+s), with m * 5^s as a binary big integer (64-bit limbs, multiplied
 * by 5^27 per step); the integer part and the exact remainder are bit fields
 * of it.  s <= B5_MAX_S: 64 + 4990 * log2(5) < 11650 bits = 183 limbs
 * (in the caller's big-number buffer). */
#define B5_MAX_S 4990

static const uint64_t p5_64[28] = {
    1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
    1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
    30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull,
    19073486328125ull, 95367431640625ull, 476837158203125ull, 2384185791015625ull,
    11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
    1490116119384765625ull, 7450580596923828125ull,
};

/* x (n little-endian 64-bit words) *= 5^t; returns the new length, or -1
 * when it would pass cap words. */
static int mul_pow5(uint64_t *x, int n, long t, int cap)
{
    for (long r = t; r > 0;) {
        int st = r < 27 ? (int)r : 27;
        u128 c = 0;
        for (int i = 0; i < n; i++) {
            c += (u128)x[i] * p5_64[st];
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
        uint64_t mul = p5_64[st];
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
    uint64_t m = v->mant, q;
    int e = v->exp, cmp, nz;
    int tz = __builtin_ctzll(m);
    m >>= tz;
    e += tz;
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
    uint64_t m = v->mant, q;
    int e = v->exp, cmp, nz;
    int tz = __builtin_ctzll(m);
    m >>= tz;
    e += tz;
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

/* The fast route for e, f, g: returns 1 when it printed the conversion. */
static int fast_conv(struct sink *w, const struct fmt_spec *sp, char sign,
                     const struct fp_value *v, enum ref_rounding rm, uint64_t *wk)
{
    struct fxval x;
    long E = -1;
    uint64_t D;
    char tb[80], ob[112];
    char *dg;
    int nd;
    size_t n;
    unsigned fl = sp->flags;
    int hash = (fl & FL_HASH) != 0;
    int prec = sp->prec < 0 ? 6 : sp->prec;

    int tiny = 0;

    if (prec > 19)
        return 0;
    if (!fast_prep(v, &x, &E)) {
        if (!v->mant)
            return 0;
        tiny = v->exp < 0 ? 1 : 2; /* 1: m * 2^e, e < -FAST_MAX_K; 2: >= 2^128 */
        x.f = 1;
        x.ip = 0;
    }
    if (sp->conv == 'f') {
        if (tiny) {
            if (tiny == 2 || !tiny_f(v, prec, rm, &D, wk))
                return 0;
            if (D) {
                dg = u64_chars(tb + 72, D);
                nd = (int)(tb + 72 - dg);
                E = nd - 1 - prec;
            } else {
                dg = tb;
                nd = 0;
            }
        } else if (x.f == 0) {
            /* an integer: no rounding */
            dg = u128_chars(tb + 72, x.ip);
            nd = (int)(tb + 72 - dg);
            E = nd - 1;
        } else if ((x.ip ? E + 1 : 0) + prec > 19 || !scaled_round(&x, prec, rm, v->neg, &D)) {
            return 0;
        } else if (D) {
            dg = u64_chars(tb + 72, D);
            nd = (int)(tb + 72 - dg);
            E = nd - 1 - prec;
        } else {
            dg = tb;
            nd = 0;
        }
        n = fbody_f(ob + 1, dg, nd, E, prec, prec || hash);
    } else {
        /* e and g: L significant digits */
        int L = sp->conv == 'e' ? prec + 1 : prec ? prec : 1;
        if (tiny) {
            if (L > 18 || !(tiny == 1 ? tiny_e(v, L, rm, &D, &E, wk)
                                      : huge_e(v, L, rm, &D, &E, wk)))
                return 0;
        } else {
            if (L > 19 || !scaled_round(&x, (int)(L - 1 - E), rm, v->neg, &D))
                return 0;
            if (D == p10_64[L]) { /* 9.99 -> 10.0 */
                D = p10_64[L - 1];
                E++;
            }
        }
        dg = u64_chars(tb + 72, D);
        nd = L;
        if (sp->conv == 'e') {
            n = fbody_e(ob + 1, dg, nd, E, prec, prec || hash, (fl & FL_UPPER) != 0);
        } else {
            if (!hash)
                while (nd > 1 && dg[nd - 1] == '0')
                    nd--;
            if (L > E && E >= -4) {
                int fd = hash ? (int)(L - 1 - E) : (int)(nd - (E + 1));
                if (fd < 0)
                    fd = 0;
                n = fbody_f(ob + 1, dg, nd, E, fd, fd || hash);
            } else {
                int fd = hash ? L - 1 : nd - 1;
                n = fbody_e(ob + 1, dg, nd, E, fd, fd || hash, (fl & FL_UPPER) != 0);
            }
        }
    }
    /* sign + body in one piece when no padding is needed */
    if ((size_t)sp->width <= n + (sign != 0) || sp->width <= 0) {
        char *st = ob + 1;
        if (sign) {
            *--st = sign;
            n++;
        }
        put_bytes(w, st, n);
    } else {
        size_t rp = field_open(w, fl, sp->width, sign, 0, 0, n, 1);
        put_bytes(w, ob + 1, n);
        sink_pad(w, ' ', rp);
    }
    return 1;
}

/* ---- a truncated big source for tiny values (m * 2^e, e < -FAST_MAX_K):
 * q = floor(value * 10^t) = floor(m * 5^t / 2^(-e-t)) in binary, then q in
 * base 1e9; `tail` records a non-zero remainder.  The rounding needs only
 * the first L + 1 digits, while the whole expansion of a long double
 * subnormal has 11,500 (big_init: quadratic in base 1e9, milliseconds);
 * here 5^t costs t / 27 one-limb multiplications.  q has at most TRUNC_DIG
 * digits (128 limbs of 9); the product at most 64 + 2.33 t bits, t <=
 * TRUNC_DIG + 4953: 224 64-bit words of the work area (wk[0..TRUNC_W)),
 * the limbs go to out (32-bit words that do not overlap it). */
#define TRUNC_DIG 1152
#define TRUNC_W 232

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

static int trunc_init(struct dsrc *s, uint64_t m, int e, long t, uint64_t *wk, uint32_t *out)
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

static int huge_src(struct dsrc *s, uint64_t m, int e, long x, uint64_t *wk, uint32_t *w32)
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
        return huge_src(s, m, e, (long)x, wk, w32);
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
    return trunc_init(s, m, e, (long)t, wk, w32 + 2 * TRUNC_W);
}

/* Rounds v for conversion conv ('e': L significant digits; 'f': L fraction
 * digits) into s/r with the digit sources. */
static void round_value(const struct fp_value *v, char conv, long long L, enum ref_rounding rm,
                        int force_big, uint32_t *buf, uint64_t *wk, char *dbuf, struct dsrc *s,
                        struct rres *r)
{
    if (conv == 'f' && v->mant && !force_big &&
        (long long)v->exp + (64 - __builtin_clzll(v->mant)) + 4 * (L + 1) <= 0) {
        /* value < 2^-4(L+1) < 10^-(L+1): every digit is discarded, the first
         * one is 0 and the rest is not zero: 0, or one unit of 10^-L away
         * from zero in the directed modes (no expansion needed) */
        s->dig = dbuf;
        s->nd = 0;
        s->lim = buf;
        s->nl = 0;
        s->skip = 0;
        s->zero = 0;
        s->fast = 0;
        s->tail = 0;
        s->f = 0;
        s->k = 0;
        s->E = -L - 1; /* any E < -L: the rounding position is before digit 0 */
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

/* ------------------------------------------------------------- driver -- */

void conv_float_ex(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                   enum ref_rounding rm, int force_big);

void conv_float_ex(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                   enum ref_rounding rm, int force_big)
{
    unsigned fl = sp->flags;
    char sign = v->neg ? '-' : (fl & FL_PLUS) ? '+' : (fl & FL_SPACE) ? ' ' : 0;

    if (v->cls != FP_FINITE) {
        const char *t = v->cls == FP_INF ? ((fl & FL_UPPER) ? "INF" : "inf")
                                         : ((fl & FL_UPPER) ? "NAN" : "nan");
        size_t rp = field_open(w, fl, sp->width, sign, 0, 0, 3, 0);
        sink_write(w, t, 3);
        sink_pad(w, ' ', rp);
        return;
    }
    if (sp->conv == 'a') {
        conv_hex(w, sp, sign, v, rm);
        return;
    }

    /* one big-number work area for every route */
    union {
        uint32_t l32[BIG_LIMBS];
        uint64_t l64[BIG_LIMBS / 2];
    } wk;
    if (!force_big && fast_conv(w, sp, sign, v, rm, wk.l64))
        return;

    uint32_t *buf = wk.l32;
    char dbuf[FAST_DIGS];
    struct dsrc s;
    struct rres r;
    long long prec = sp->prec < 0 ? 6 : sp->prec;
    int hash = (fl & FL_HASH) != 0;

    if (sp->conv == 'f') {
        round_value(v, 'f', prec, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        print_f(w, sp, sign, &s, &r, prec, prec > 0 || hash);
    } else if (sp->conv == 'e') {
        round_value(v, 'e', prec + 1, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        print_e(w, sp, sign, &s, &r, prec, prec > 0 || hash);
    } else { /* 'g' */
        long long P = prec == 0 ? 1 : prec;
        round_value(v, 'e', P, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        long long X = r.nsig ? r.E : 0;
        if (P > X && X >= -4) {
            long long fd = P - 1 - X;
            if (!hash) {
                long long nz = last_nonzero(&s, &r, P > (long long)r.nsig ? r.nsig : (long)P);
                fd = nz - (X + 1);
                if (fd < 0)
                    fd = 0;
            }
            print_f(w, sp, sign, &s, &r, fd, fd > 0 || hash);
        } else {
            long long fd = P - 1;
            if (!hash) {
                long long nz = last_nonzero(&s, &r, P > (long long)r.nsig ? r.nsig : (long)P);
                fd = nz - 1;
                if (fd < 0)
                    fd = 0;
            }
            print_e(w, sp, sign, &s, &r, fd, fd > 0 || hash);
        }
    }
}

void conv_float(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                enum ref_rounding rm)
{
    conv_float_ex(w, sp, v, rm, 0);
}
