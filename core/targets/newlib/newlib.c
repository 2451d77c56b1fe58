/* Target "newlib": newlib's vsnprintf (libc/stdio/vsnprintf.c over
 * _svfprintf_r, the full vfprintf.c, not nano-vfprintf), built from Debian's
 * newlib-source with C99 formats and long long on, positional arguments
 * and long double off (both crash on x86-64: see CMakeLists.txt). A C99 vsnprintf;
 * the registry's canonical wrapper gives its scnprintf family. */
#include "matrix_adapter.h"

/* newlib's vsnprintf, renamed by musl-objlink.sh: every other newlib symbol
 * (its _impure_ptr, _svfprintf_r, mprec's freelists) is local. */
int newlib_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

SCN_MATRIX_ADAPTER(newlib, SCN_LIBC_VERSION, vsnprintf, newlib_vsnprintf, SCN_API_C99,
                   "C99 vsnprintf; built without io-pos-args (no n$) and io-long-double (%L "
                   "printed as double), both crash on x86-64; no _MB_CAPABLE (newlib configure options)");
