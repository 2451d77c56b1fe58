/* BUG (classic `len += snprintf(...)`): returns what vsnprintf would have
 * written, not what it wrote, so callers advance past the buffer. The
 * mistake that motivated scnprintf (LWN "snprintf() confusion", 2008). */
#include <stdarg.h>
#include <stdio.h>

int bug_would_be_scnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int i = vsnprintf(buf, size, fmt, args);
    va_end(args);
    return i < 0 ? 0 : i;
}
