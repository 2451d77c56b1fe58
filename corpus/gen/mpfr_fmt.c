/* mpfr_fmt: exact decimal digits of a double or x87 long double, for the
 * scnfuzz conformance corpus generator (corpus/gen/generate.py).
 *
 * Reads requests on stdin, one per line:
 *     D <16 hex digits: IEEE-754 binary64 bits> <e|f> <precision> [N|U|D|Z]
 *     L <4 hex digits: sign+exponent> <16 hex digits: significand> <e|f> <precision> [N|U|D|Z]
 * and answers one line each: mpfr_asprintf("%.<prec>R<mode><e|f>") of the
 * value, in the rounding direction the last field names (C17 F.5: a
 * conversion honours the current direction): N to nearest, ties to even (the
 * default), U toward +inf (MPFR_RNDU), D toward -inf (MPFR_RNDD), Z toward
 * zero (MPFR_RNDZ). To nearest, the value's absolute value is converted (the
 * digits do not depend on the sign); in a directed mode the signed value, since
 * upward rounds -1.5 to -1 and 1.5 to 2 (the answer has its '-' then). The
 * value is set exactly (mpfr_t with 64 bits of precision holds every double
 * and every long double). The Python model adds sign, flags, width, the %g
 * rules and the C exponent form. Non-finite values are not requested. Output
 * is flushed after every line.
 */
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char line[256];
    mpfr_t x;
    mpfr_init2(x, 64);
    while (fgets(line, sizeof line, stdin)) {
        char kind, conv, mode = 'N';
        int prec;
        if (line[0] == 'D') {
            unsigned long long bits;
            double d;
            if (sscanf(line, "%c %llx %c %d %c", &kind, &bits, &conv, &prec, &mode) < 4)
                return 2;
            memcpy(&d, &bits, sizeof d);
            mpfr_set_d(x, d, MPFR_RNDN);
        } else if (line[0] == 'L') {
            unsigned int se;
            unsigned long long mant;
            unsigned char b[sizeof(long double)];
            long double ld;
            if (sscanf(line, "%c %x %llx %c %d %c", &kind, &se, &mant, &conv, &prec, &mode) < 5)
                return 2;
            memset(b, 0, sizeof b);
            memcpy(b, &mant, 8);
            b[8] = (unsigned char)(se & 0xff);
            b[9] = (unsigned char)(se >> 8);
            memcpy(&ld, b, sizeof ld);
            mpfr_set_ld(x, ld, MPFR_RNDN);
        } else {
            return 2;
        }
        mpfr_rnd_t rnd;
        switch (mode) {
        case 'N': rnd = MPFR_RNDN; mpfr_abs(x, x, MPFR_RNDN); break;
        case 'U': rnd = MPFR_RNDU; break;
        case 'D': rnd = MPFR_RNDD; break;
        case 'Z': rnd = MPFR_RNDZ; break;
        default: return 2;
        }
        char *out = NULL;
        int n = conv == 'e' ? mpfr_asprintf(&out, "%.*R*e", prec, rnd, x)
                            : mpfr_asprintf(&out, "%.*R*f", prec, rnd, x);
        if (n < 0)
            return 3;
        fputs(out, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        mpfr_free_str(out);
    }
    mpfr_clear(x);
    return 0;
}
