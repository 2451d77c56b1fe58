/* The canonical scnprintf-family wrapper: what a target's scnprintf family
 * is when it has no native one (target.h). */
#include "target.h"

int scn_canonical_vscnprintf(scn_vprintf_fn vsn, char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsn(buf, size, fmt, ap);
    if (r < 0) {
        if (size) buf[0] = 0;
        return 0;
    }
    if ((size_t)r < size) return r;
    return size ? (int)(size - 1) : 0;
}
