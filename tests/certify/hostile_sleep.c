/* HOSTILE: sleeps 5 s in every call (a printf that waits on a lock or a
 * device). */
#include <unistd.h>

#include "hostile_common.h"

int hostile_sleep(char *buf, size_t size, const char *fmt, va_list ap)
{
    sleep(5);
    return vsnprintf(buf, size, fmt, ap);
}
