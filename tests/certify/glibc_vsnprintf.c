/* glibc's own vsnprintf, as a vendored function: what the hostile ones are
 * measured against (it must stay CERTIFIED on their categories). */
#include <stdarg.h>
#include <stdio.h>

int glibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}
