/* Target "uclibc": uClibc-ng's vsnprintf (libc/stdio/vsnprintf.c over
 * _vfprintf_internal, libc/stdio/_vfprintf.c), built from Debian's
 * uclibc-source with its x86_64 defconfig plus wide characters and %a
 * (uclibc.config, CMakeLists.txt). A C99 vsnprintf; the registry's canonical
 * wrapper gives its scnprintf family. */
#include "matrix_adapter.h"

/* uClibc-ng's vsnprintf, renamed by musl-objlink.sh: every other uClibc-ng
 * symbol (its errno, its __stdio_fwrite, ...) is local. */
int uclibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

SCN_MATRIX_ADAPTER(uclibc, SCN_LIBC_VERSION, vsnprintf, uclibc_vsnprintf, SCN_API_C99,
                   "C99 vsnprintf; at most 9 n$ arguments (NL_ARGMAX, "
                   "UCLIBC_PRINTF_SCANF_POSITIONAL_ARGS); no locale, no %m (defconfig)");
