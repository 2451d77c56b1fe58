/* BUG: a failing vsnprintf's negative return is passed through; a
 * scnprintf must return 0 (nothing written) and leave "" in the buffer. */
#include <stdarg.h>
#include <stdio.h>

int bug_neg_ret_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int i = vsnprintf(buf, size, fmt, args);
    if (i < 0) return i;
    if ((size_t)i < size) return i;
    return size ? (int)(size - 1) : 0;
}
