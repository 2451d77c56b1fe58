/* A correct scnprintf/vscnprintf on top of the C library's vsnprintf, as
 * Linux's lib/vsprintf.c defines them: the number of characters written
 * into buf, never more than size - 1; 0 when size is 0. */
#include <stdarg.h>
#include <stdio.h>

int good_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int i = vsnprintf(buf, size, fmt, args);
    if (i < 0) {
        if (size) buf[0] = '\0';
        return 0;
    }
    if ((size_t)i < size) return i;
    return size ? (int)(size - 1) : 0;
}

int good_scnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int i = good_vscnprintf(buf, size, fmt, args);
    va_end(args);
    return i;
}
