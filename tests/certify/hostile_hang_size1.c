/* HOSTILE: loops forever when the buffer has room for the NUL only. */
#include "hostile_common.h"

int hostile_hang_size1(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (size == 1)
        for (volatile int spin = 1; spin;) {
        }
    return vsnprintf(buf, size, fmt, ap);
}
