/* Target "gnulib": gnulib's vasnprintf (lib/vasnprintf.c of Debian's
 * gnulib package, module vasnprintf-posix; see CMakeLists.txt), as
 * gnulib_vasnprintf.
 *
 * vasnprintf(resultbuf, &length, format, args) returns the whole output in
 * resultbuf when it fits (length: its size on entry) or in a malloc'd
 * string, its length (without the NUL) in *length, NULL and errno on error
 * (lib/vasnprintf.h: "Return value: ... NULL upon failure, with errno set").
 * It has no size-limited form (gnulib's vsnprintf module is one over it);
 * the adapter is that C99 form: the result copied into buf, cut to size - 1
 * and NUL-terminated, the return the whole length (-1 on failure).
 * On glibc, gnulib's configure finds the libc's printf right (no
 * NEED_PRINTF_*; gnulib-config.h records it), so every directive goes to
 * glibc's snprintf: what this target checks is gnulib's
 * own format parsing, argument fetching and result assembly. */
#include <stdlib.h>
#include <string.h>

#include "matrix_adapter.h"

char *gnulib_vasnprintf(char *resultbuf, size_t *lengthp, const char *format, va_list args);

static int gnulib_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    size_t len = 0;
    char *out = gnulib_vasnprintf(NULL, &len, fmt, ap);
    if (!out) return -1;
    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, out, n);
        buf[n] = 0;
    }
    free(out);
    return len > (size_t)0x7fffffff ? -1 : (int)len;
}

SCN_MATRIX_ADAPTER(gnulib, SCN_MATRIX_VERSION " (vasnprintf-posix)", vsnprintf, gnulib_entry, SCN_API_C99,
                   "vasnprintf returns a malloc'd string and its length (lib/vasnprintf.h); adapted to C99: "
                   "copied, cut to size-1, returns the length; on glibc each directive is glibc's snprintf");
