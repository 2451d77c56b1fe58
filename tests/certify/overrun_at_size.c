/* A vscnprintf over glibc's vsnprintf, correct except at one buffer size:
 * at size 7 it passes 8 to vsnprintf, so a cut output's NUL lands one byte
 * past the buffer. Certification must refuse it for that, with a reduced
 * case. */
#include <stdarg.h>
#include <stdio.h>

int overrun7_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int i = vsnprintf(buf, size == 7 ? 8 : size, fmt, args);
    if (i < 0) {
        if (size) buf[0] = '\0';
        return 0;
    }
    if ((size_t)i < size) return i;
    return size ? (int)(size - 1) : 0;
}
