/* BUG: on truncation returns size instead of size - 1 (the NUL counted as
 * written); a caller's `buf + len` then points past the terminator. */
#include <stdarg.h>
#include <stdio.h>

int bug_ret_size_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int i = vsnprintf(buf, size, fmt, args);
    if (i < 0) return 0;
    return (size_t)i < size ? i : (int)size;
}
