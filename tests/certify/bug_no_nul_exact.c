/* BUG: formats into a scratch buffer, then strncpy()s it into the caller's:
 * when the output fills the buffer exactly (or more), no NUL is written. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bug_no_nul_exact_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    va_list cp;
    va_copy(cp, args);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) return n;
    char *tmp = malloc((size_t)n + 1);
    if (!tmp) return -1;
    vsnprintf(tmp, (size_t)n + 1, fmt, args);
    if (size) strncpy(buf, tmp, size);
    free(tmp);
    return n;
}
