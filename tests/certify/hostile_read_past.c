/* HOSTILE: reads 64 bytes past the format's terminating NUL (a parser that
 * looks ahead a fixed distance). Its output is right. */
#include "hostile_common.h"

int hostile_read_past(char *buf, size_t size, const char *fmt, va_list ap)
{
    volatile char ahead = fmt[strlen(fmt) + 64];
    (void)ahead;
    return vsnprintf(buf, size, fmt, ap);
}
