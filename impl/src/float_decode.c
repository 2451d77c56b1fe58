/* Decoding of double and x86 80-bit long double into struct fp_value (sign,
 * class, significand and binary exponent), so that one converter serves
 * both types.
 *
 * x86 80-bit long double encodings (fp_from_long_double): like the x87 FPU
 * (and glibc >= 2.33 printf), unnormals (exponent 1..0x7ffe, integer bit
 * clear), pseudo-infinities and pseudo-NaNs (exponent 0x7fff, integer bit
 * clear) are invalid operands and format as NaN (sign kept).
 * Pseudo-denormals (exponent 0, integer bit set) have the value the FPU
 * gives them: m * 2^-16445, like exponent 1.
 */
#include "internal.h"

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
