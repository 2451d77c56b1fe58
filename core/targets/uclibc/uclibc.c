/* Target "uclibc": uClibc-ng's vsnprintf (libc/stdio/vsnprintf.c over
 * _vfprintf_internal, libc/stdio/_vfprintf.c), built from Debian's
 * uclibc-source with its x86_64 defconfig plus wide characters and %a
 * (uclibc.config, CMakeLists.txt). A C99 vsnprintf; the registry's canonical
 * wrapper gives its scnprintf family. */
#include "target.h"

#ifndef SCN_LIBC_VERSION
#define SCN_LIBC_VERSION "uClibc-ng (unknown version)"
#endif

/* uClibc-ng's vsnprintf, renamed by musl-objlink.sh: every other uClibc-ng
 * symbol (its errno, its __stdio_fwrite, ...) is local. */
int uclibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

static const char *uclibc_version(void)
{
    return SCN_LIBC_VERSION;
}

static int uclibc_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return uclibc_vsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_uclibc = {
    .name = "uclibc",
    .version = uclibc_version,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = uclibc_entry,
    .vscnprintf = NULL,
    .where = "in-process",
    .api = SCN_API_C99,
    .group = SCN_GROUP_MATRIX,
    .conventions = "C99 vsnprintf; at most 9 n$ arguments (NL_ARGMAX, "
                   "UCLIBC_PRINTF_SCANF_POSITIONAL_ARGS); no locale, no %m (defconfig)",
};
