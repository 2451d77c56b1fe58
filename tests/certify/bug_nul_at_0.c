/* BUG: "make sure it is terminated" after a cut, with the index clamped the
 * wrong way: at size == 0 it writes buf[0], a byte the caller never gave. */
#include <stdarg.h>
#include <stdio.h>

int bug_nul_at_0_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int i = vsnprintf(buf, size, fmt, args);
    if (i < 0) return 0;
    if ((size_t)i < size) return i;
    buf[size ? size - 1 : 0] = '\0';
    return size ? (int)(size - 1) : 0;
}
