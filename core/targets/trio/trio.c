/* Target "trio": trio's trio_vsnprintf (trio.c), a portable printf that
 * projects vendor to replace a missing or broken libc one (trio.h maps
 * vsnprintf to it without HAVE_VSNPRINTF); Debian's libtrio-dev (see
 * CMakeLists.txt). A C99 family: it returns the would-be length
 * (/usr/share/doc/libtrio-dev/html/group___printf.html, "Returns: Number of
 * printed characters"), a negative trio error code (TRIO_ERROR_RETURN) on a
 * bad format. */
#include <trio.h>

#include "target.h"

static const char *trio_version_text(void) { return SCN_MATRIX_VERSION; }

static int trio_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return trio_vsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_trio = {
    .name = "trio",
    .version = trio_version_text,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = trio_entry,
    .vscnprintf = NULL,
    .where = "in-process",
    .api = SCN_API_C99,
    .group = SCN_GROUP_MATRIX,
    .conventions = "trio_vsnprintf: C99 would-be length; a bad format returns a negative trio error code, "
                   "not -1 (trio.h TRIO_ERROR_RETURN; libtrio-dev html/group___printf.html)",
};
