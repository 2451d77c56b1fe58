/* A stand-in "libc" for the executor's crash and hang handling (forced in
 * with `gcc -include tests/certify/crashy_libc.h`): vsnprintf is glibc's,
 * except that a format containing "CRASH" faults and one containing "HANG"
 * never returns. Used by tests/test_any_libc.py only. */
#ifndef SCN_CRASHY_LIBC_H
#define SCN_CRASHY_LIBC_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
static inline int crashy_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (strstr(fmt, "CRASH")) {
        volatile char *volatile p = (volatile char *)0;
        *p = 1;
    }
    if (strstr(fmt, "HANG"))
        for (volatile int spin = 1; spin;) {
        }
    return vsnprintf(buf, size, fmt, ap);
}
#define vsnprintf crashy_vsnprintf
#endif
