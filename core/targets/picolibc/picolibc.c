/* Target "picolibc": picolibc's default printf, tinystdio's vsnprintf over
 * its "double" vfprintf variant with the exact (ryu) float conversion, built
 * from Debian's picolibc source with picolibc's default configuration (see
 * CMakeLists.txt). A C99 vsnprintf; the registry's canonical wrapper gives
 * its scnprintf family. */
#include "matrix_adapter.h"

/* picolibc's vsnprintf (newlib/libc/tinystdio/vsnprintf.c), renamed by
 * musl-objlink.sh: every other picolibc symbol is local. */
int picolibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* picolibc 1.8.10's "%.255e" prints a digit read from outside the digits it
 * wrote (known bug picolibc-e-prec255): whatever the stack holds there. The
 * stack its call will use is cleared first, so that the byte is the same on
 * every call: a finding reproduces, and two calls never differ by chance. */
static __attribute__((noinline)) void clear_stack_below(void)
{
    volatile char pad[16384];
    for (size_t i = 0; i < sizeof pad; i++) pad[i] = 0;
}

static int picolibc_vsnprintf_cleared(char *buf, size_t size, const char *fmt, va_list ap)
{
    clear_stack_below();
    return picolibc_vsnprintf(buf, size, fmt, ap);
}

SCN_MATRIX_ADAPTER(picolibc, SCN_LIBC_VERSION " (tinystdio 'd' variant, io-float-exact)",
                   vsnprintf, picolibc_vsnprintf_cleared, SCN_API_C99,
                   "C99 vsnprintf; default build: no %n, no long double (io-long-double off), "
                   "no wide %lc/%ls (io-wchar off) (picolibc doc/printf.md, build options)");
