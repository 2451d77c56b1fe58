/* The fast route's output: the digits of one integer (two per step from the
 * pair table), and the e- and f-style bodies written into fast_conv's local
 * buffer, which it hands to the sink in one piece.
 *
 * Part of conv_float.c's translation unit (see there): included by
 * conv_float.c only, its functions static as in a single file.
 */
#ifndef SCN_REF_FLOAT_BODY_H
#define SCN_REF_FLOAT_BODY_H

#include "float_fast.h"

/* x < 10^8 as exactly 8 digits: x * ceil(2^48 / 10^6) is x / 10^6 in 16.48
 * fixed point; each step takes two digits off the top (exhaustively checked
 * for every x < 10^8: the error stays below one unit of the last pair). */
static inline void put8(char *o, uint32_t x)
{
    const uint64_t mask = (1ull << 48) - 1;
    uint64_t y = (uint64_t)x * 281474977ull;
    __builtin_memcpy(o, ref_dec_pairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 2, ref_dec_pairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 4, ref_dec_pairs + 2 * (y >> 48), 2);
    y = (y & mask) * 100;
    __builtin_memcpy(o + 6, ref_dec_pairs + 2 * (y >> 48), 2);
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
    __builtin_memcpy(o + n, ref_dec_pairs + 2 * u, 2);
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

#endif /* SCN_REF_FLOAT_BODY_H */
