/* The canonical scnprintf-family wrapper: what a target's scnprintf family
 * is when it has no native one; and the converse, a target's full output
 * under the C99 contract when it has only the scnprintf family (target.h). */
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

int scn_target_full_call(void *target, char *buf, size_t size, const char *fmt, va_list ap)
{
    const struct scn_target *t = target;
    if (t->vsnprintf) return t->vsnprintf(buf, size, fmt, ap);
    int r = t->vscnprintf(buf, size, fmt, ap);
    /* a full buffer says nothing of what did not fit: "cut", for the caller */
    if (size && r >= 0 && (size_t)r == size - 1) return (int)size;
    return r;
}
