/* Adapter for the `musl` target: musl's vsnprintf built from musl's source
 * (see CMakeLists.txt). musl has no scnprintf family: the registry's
 * canonical wrapper over vsnprintf is used. */
#include "musl_api.h"
#include "target.h"

#ifndef SCN_MUSL_VERSION
#define SCN_MUSL_VERSION "musl (unknown version)"
#endif

static const char *musl_version(void)
{
    return SCN_MUSL_VERSION;
}

const struct scn_target scn_target_musl = {
    .name = "musl",
    .version = musl_version,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = musl_vsnprintf,
    .vscnprintf = NULL,
    .where = "in-process",
};
