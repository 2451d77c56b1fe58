/* HOSTILE: abort()s on formats with %o (an assertion in a vendored printf). */
#include <stdlib.h>

#include "hostile_common.h"

int hostile_abort_o(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (has_conv_o(fmt)) abort();
    return vsnprintf(buf, size, fmt, ap);
}
