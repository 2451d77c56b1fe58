/* Decoding of double and x86 80-bit long double into struct fp_value (sign,
 * class, significand and binary exponent), so that one converter serves
 * both types; and the rounding direction the conversion is rounded in.
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

/* The current rounding direction (C17 F.5, IEEE 754-2019 5.12.2: binary to
 * decimal conversion honours it), freestanding: on x86-64 MXCSR's RC field
 * (bits 13-14: 00 to nearest, 01 downward, 10 upward, 11 toward zero; Intel
 * SDM vol. 1, 10.2.3), which fesetround sets with the x87 control word's;
 * elsewhere found by arithmetic as musl's fmt_fp finds it: 1 + 2^-60 and
 * -1 - 2^-60 in double, computed at run time (volatile). */
enum ref_rounding fp_current_rounding(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const enum ref_rounding by_rc[4] = {
        REF_ROUND_NEAREST, REF_ROUND_DOWNWARD, REF_ROUND_UPWARD, REF_ROUND_TOWARD_ZERO,
    };
    /* initialised first: MemorySanitizer does not see the asm's store, and
     * would take the register's bits for uninitialised memory */
    unsigned mxcsr = 0;
    __asm__ __volatile__("stmxcsr %0" : "=m"(mxcsr));
    return by_rc[(mxcsr >> 13) & 3];
#else
    volatile double one = 1.0, tiny = 0x1p-60;
    double up = one + tiny, down = -one - tiny;
    if (up > 1.0)
        return REF_ROUND_UPWARD;
    if (down < -1.0)
        return REF_ROUND_DOWNWARD;
    if (one - tiny < 1.0)
        return REF_ROUND_TOWARD_ZERO;
    return REF_ROUND_NEAREST;
#endif
}
