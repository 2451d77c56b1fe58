/* HOSTILE: on formats with %o, allocates 2 GB and touches it all (a
 * vendored printf sizing a work buffer from garbage). */
#include <stdlib.h>

#include "hostile_common.h"

int hostile_memory(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (has_conv_o(fmt)) {
        size_t n = (size_t)2 << 30;
        volatile char *p = malloc(n); /* volatile: the compiler may not elide it */
        if (p) {
            for (size_t i = 0; i < n; i += 4096) p[i] = 1;
            free((void *)p);
        }
    }
    return vsnprintf(buf, size, fmt, ap);
}
