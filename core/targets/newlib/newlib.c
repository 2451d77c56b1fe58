/* Target "newlib": newlib's vsnprintf (libc/stdio/vsnprintf.c over
 * _svfprintf_r, the full vfprintf.c, not nano-vfprintf), built from Debian's
 * newlib-source with C99 formats and long long on, positional arguments
 * and long double off (both crash on x86-64: see CMakeLists.txt). A C99 vsnprintf;
 * the registry's canonical wrapper gives its scnprintf family. */
#include "target.h"

#ifndef SCN_LIBC_VERSION
#define SCN_LIBC_VERSION "newlib (unknown version)"
#endif

/* newlib's vsnprintf, renamed by musl-objlink.sh: every other newlib symbol
 * (its _impure_ptr, _svfprintf_r, mprec's freelists) is local. */
int newlib_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

static const char *newlib_version(void)
{
    return SCN_LIBC_VERSION;
}

static int newlib_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return newlib_vsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_newlib = {
    .name = "newlib",
    .version = newlib_version,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = newlib_entry,
    .vscnprintf = NULL,
    .where = "in-process",
    .api = SCN_API_C99,
    .group = SCN_GROUP_MATRIX,
    .conventions = "C99 vsnprintf; built without io-pos-args (no n$) and io-long-double (%L "
                   "printed as double), both crash on x86-64; no _MB_CAPABLE (newlib configure options)",
};
