/* HOSTILE: calls exit(0) on formats with %o (a vendored "unsupported
 * conversion" path that ends the program). */
#include <stdlib.h>

#include "hostile_common.h"

int hostile_exit_o(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (has_conv_o(fmt)) exit(0);
    return vsnprintf(buf, size, fmt, ap);
}
