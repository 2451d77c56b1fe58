/* Target "glibc": the host C library's vsnprintf (ISO dialect). It has no
 * scnprintf, so vscnprintf is NULL and callers use the canonical wrapper
 * (scn_target_vscnprintf / scn_canonical_vscnprintf). */
#include <gnu/libc-version.h>
#include <stdio.h>

#include "target.h"

static const char *glibc_version(void)
{
    static char v[32];
    if (!v[0]) snprintf(v, sizeof v, "glibc %s", gnu_get_libc_version());
    return v;
}

static int glibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_glibc = {
    .name = "glibc", .version = glibc_version, .dialect = SCN_DIALECT_ISO,
    .vsnprintf = glibc_vsnprintf, .vscnprintf = NULL, .where = "in-process",
};
