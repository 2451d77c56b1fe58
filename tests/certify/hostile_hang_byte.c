/* HOSTILE: spins forever when the format holds the byte 0x02 (a parser
 * loop that never advances on a control character). No corpus case has
 * one: the fuzz phase has to find it. */
#include "hostile_common.h"

int hostile_hang_byte(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (strchr(fmt, 0x02))
        for (volatile int spin = 1; spin;) {
        }
    return vsnprintf(buf, size, fmt, ap);
}
