/* A correct scnprintf over the C library's vsnprintf with a debug branch no
 * case can take (the flag is never set): certified, but the certificate must
 * say that the four lines marked below were never reached (llvm-cov counts
 * the line that ends the block too). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static volatile int debug_trace;

int good_unreached_scnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int i = vsnprintf(buf, size, fmt, args);
    va_end(args);
    if (debug_trace) {
        size_t n = strlen(fmt);          /* never reached */
        if (n > size) n = size;          /* never reached */
        memset(buf, '?', n);             /* never reached */
    }                                    /* never reached */
    if (i < 0) {
        if (size) buf[0] = '\0';
        return 0;
    }
    if ((size_t)i < size) return i;
    return size ? (int)(size - 1) : 0;
}
