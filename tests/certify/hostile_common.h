/* Shared by the hostile vendored printfs (tests/test_certify.py): each is
 * glibc's vsnprintf plus one way of misbehaving that certification must
 * turn into NOT CERTIFIED with the case named, in bounded time. */
#ifndef HOSTILE_COMMON_H
#define HOSTILE_COMMON_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* 1 when the format has a %o conversion (flags, width, precision and
 * length modifiers allowed in between) */
static inline int has_conv_o(const char *fmt)
{
    for (const char *p = fmt; (p = strchr(p, '%'));) {
        p++;
        if (*p == '%') {
            p++;
            continue;
        }
        p += strspn(p, "-+ #0123456789.*$hlLjzt");
        if (*p == 'o') return 1;
    }
    return 0;
}
#endif
