/* The one definition of a matrix target's adapter (core/targets/<name>/<name>.c).
 *
 * Every matrix target is an ISO-dialect printf linked in-process; what
 * differs between them is only its name, its version text, its one entry
 * point (a C99 vsnprintf, or a scnprintf-family call), that entry's family
 * (target.h, enum scn_api) and the line of conventions that cites its
 * documentation. So an adapter says only those:
 *
 *   SCN_MATRIX_ADAPTER(apr, SCN_MATRIX_VERSION, vscnprintf, apr_vsnprintf,
 *                      SCN_API_SCN, "apr_vsnprintf returns ...");
 *
 * defines `const struct scn_target scn_target_apr` (the symbol the registry's
 * weak reference and matrix_target.cmake's --undefined look for). <field> is
 * `vsnprintf` for a C99 entry (the registry's canonical wrapper then gives
 * the scnprintf family) or `vscnprintf` for a target with only the
 * scnprintf family; <entry> is an scn_vprintf_fn, the library's own function
 * where its signature is already that one. The version text is a string
 * expression: SCN_MATRIX_VERSION (a Debian package, matrix_target.cmake) or
 * SCN_LIBC_VERSION (a libc built from source, libc-from-source.cmake). */
#ifndef SCN_MATRIX_ADAPTER_H
#define SCN_MATRIX_ADAPTER_H

#include "target.h"

/* A libc built from source always has its version defined by
 * libc-from-source.cmake; this keeps an adapter compilable on its own. */
#ifndef SCN_LIBC_VERSION
#define SCN_LIBC_VERSION "(unknown version)"
#endif

#define SCN_MATRIX_ADAPTER(cname, version_text, field, entry, api_, conventions_) \
    SCN_MATRIX_ADAPTER_NAMED(cname, #cname, version_text, field, entry, api_, conventions_)

/* The same for a target whose name is no C identifier ("linux-tools"):
 * cname is the name with '_' for '-' (matrix_target.cmake's C name). */
#define SCN_MATRIX_ADAPTER_NAMED(cname, name_, version_text, field, entry, api_, conventions_) \
    static const char *scn_matrix_version_##cname(void) { return version_text; } \
    const struct scn_target scn_target_##cname = {                                 \
        .name = name_,                                                             \
        .version = scn_matrix_version_##cname,                                     \
        .dialect = SCN_DIALECT_ISO,                                                \
        .field = entry,                                                            \
        .where = "in-process",                                                     \
        .api = api_,                                                               \
        .group = SCN_GROUP_MATRIX,                                                 \
        .conventions = conventions_,                                               \
    }

#endif
