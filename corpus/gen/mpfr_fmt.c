/* mpfr_fmt: exact decimal digits of a double or x87 long double, for the
 * scnfuzz conformance corpus generator (corpus/gen/generate.py).
 *
 * Reads requests on stdin, one per line:
 *     D <16 hex digits: IEEE-754 binary64 bits> <e|f> <precision>
 *     L <4 hex digits: sign+exponent> <16 hex digits: significand> <e|f> <precision>
 * and answers one line each: mpfr_asprintf("%.<prec>RN<e|f>") of |value|,
 * rounded to nearest, ties to even. The value is set exactly (mpfr_t with 64
 * bits of precision holds every double and every long double). The Python
 * model adds sign, flags, width, the %g rules and the C exponent form.
 * Non-finite values are not requested. Output is flushed after every line.
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
        char kind, conv;
        int prec;
        if (line[0] == 'D') {
            unsigned long long bits;
            double d;
            if (sscanf(line, "%c %llx %c %d", &kind, &bits, &conv, &prec) != 4)
                return 2;
            memcpy(&d, &bits, sizeof d);
            mpfr_set_d(x, d, MPFR_RNDN);
        } else if (line[0] == 'L') {
            unsigned int se;
            unsigned long long mant;
            unsigned char b[sizeof(long double)];
            long double ld;
            if (sscanf(line, "%c %x %llx %c %d", &kind, &se, &mant, &conv, &prec) != 5)
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
        mpfr_abs(x, x, MPFR_RNDN);
        char *out = NULL;
        int n = conv == 'e' ? mpfr_asprintf(&out, "%.*RNe", prec, x)
                            : mpfr_asprintf(&out, "%.*RNf", prec, x);
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
