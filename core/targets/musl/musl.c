/* Adapter for the `musl` target: musl's vsnprintf built from musl's source
 * (see CMakeLists.txt). musl has no scnprintf family: the registry's
 * canonical wrapper over vsnprintf is used. */
#include <stdlib.h>

#include "musl_api.h"
#include "target.h"

#ifndef SCN_MUSL_VERSION
#define SCN_MUSL_VERSION "musl (unknown version)"
#endif

/* musl 1.2.3 reads its uninitialised nl_arg[] in the dry-run pass of a
 * "*n$" width (vfprintf.c:482, `w = nl_arg[...].i` before any argument is
 * fetched): what earlier calls left on the stack decides the result, and
 * INT_MIN there makes `w = -w` overflow (UBSan stops the fuzzer).  Zeroing
 * the stack just below this adapter, where musl's frames will lie, makes
 * the read see 0 on every call: runs are repeatable, and the known bug does
 * not end every campaign.  SCN_MUSL_NO_SCRUB=1 (read once) turns it off to
 * see the bug. */
static __attribute__((noinline)) void scrub_below(void)
{
    volatile unsigned char pad[4096];
    __builtin_memset((unsigned char *)pad, 0, sizeof pad);
    __asm__ volatile("" : : "r"(pad) : "memory");
}

static int musl_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    static int scrub = -1;
    if (scrub < 0) {
        const char *e = getenv("SCN_MUSL_NO_SCRUB");
        scrub = !(e && e[0] == '1');
    }
    if (scrub)
        scrub_below();
    return musl_vsnprintf(buf, size, fmt, ap);
}

static const char *musl_version(void)
{
    return SCN_MUSL_VERSION;
}

const struct scn_target scn_target_musl = {
    .name = "musl",
    .version = musl_version,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = musl_entry,
    .vscnprintf = NULL,
    .where = "in-process",
};
