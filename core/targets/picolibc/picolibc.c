/* Target "picolibc": picolibc's default printf, tinystdio's vsnprintf over
 * its "double" vfprintf variant with the exact (ryu) float conversion, built
 * from Debian's picolibc source with picolibc's default configuration (see
 * CMakeLists.txt). A C99 vsnprintf; the registry's canonical wrapper gives
 * its scnprintf family. */
#include "target.h"

#ifndef SCN_LIBC_VERSION
#define SCN_LIBC_VERSION "picolibc (unknown version)"
#endif

/* picolibc's vsnprintf (newlib/libc/tinystdio/vsnprintf.c), renamed by
 * musl-objlink.sh: every other picolibc symbol is local. */
int picolibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

static const char *picolibc_version(void)
{
    return SCN_LIBC_VERSION " (tinystdio 'd' variant, io-float-exact)";
}

static int picolibc_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return picolibc_vsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_picolibc = {
    .name = "picolibc",
    .version = picolibc_version,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = picolibc_entry,
    .vscnprintf = NULL,
    .where = "in-process",
    .api = SCN_API_C99,
    .group = SCN_GROUP_MATRIX,
    .conventions = "C99 vsnprintf; default build: no %n, no long double (io-long-double off), "
                   "no wide %lc/%ls (io-wchar off) (picolibc doc/printf.md, build options)",
};
