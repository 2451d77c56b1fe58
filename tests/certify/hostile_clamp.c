/* HOSTILE (a conformance failure with a very long result line): glibc's
 * output with every run of more than 32767 '0' digits cut to 32767, which
 * is what clamping the precision to 32767 (as Linux's vsnprintf does)
 * prints for "%.*d" int:40000 int:1. ISO C has no such limit. */
#include <stdlib.h>

#include "hostile_common.h"

#define CLAMP 32767

int hostile_clamp(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) return vsnprintf(buf, size, fmt, ap);
    char *t = malloc((size_t)n + 1);
    if (!t) return -1;
    vsnprintf(t, (size_t)n + 1, fmt, ap);
    size_t o = 0, run = 0;
    for (int i = 0; i < n; i++) {
        run = t[i] == '0' ? run + 1 : 0;
        if (run <= CLAMP) t[o++] = t[i];
    }
    t[o] = 0;
    if (size) {
        size_t k = o < size - 1 ? o : size - 1;
        memcpy(buf, t, k);
        buf[k] = 0;
    }
    free(t);
    return (int)o;
}
