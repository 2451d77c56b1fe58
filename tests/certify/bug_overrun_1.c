/* BUG: off by one in the bound: the terminating NUL lands at buf[size]. */
#include <stdarg.h>
#include <stdio.h>

int bug_overrun_1_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    return vsnprintf(buf, size ? size + 1 : 0, fmt, args);
}
