/* Target "picolibc": picolibc's default printf, tinystdio's vsnprintf over
 * its "double" vfprintf variant with the exact (ryu) float conversion, built
 * from Debian's picolibc source with picolibc's default configuration (see
 * CMakeLists.txt). A C99 vsnprintf; the registry's canonical wrapper gives
 * its scnprintf family. */
#include "matrix_adapter.h"

/* picolibc's vsnprintf (newlib/libc/tinystdio/vsnprintf.c), renamed by
 * musl-objlink.sh: every other picolibc symbol is local. */
int picolibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

SCN_MATRIX_ADAPTER(picolibc, SCN_LIBC_VERSION " (tinystdio 'd' variant, io-float-exact)",
                   vsnprintf, picolibc_vsnprintf, SCN_API_C99,
                   "C99 vsnprintf; default build: no %n, no long double (io-long-double off), "
                   "no wide %lc/%ls (io-wchar off) (picolibc doc/printf.md, build options)");
