/* The target registry: every adapter compiled into this binary, in the
 * order of targets.def.
 *
 * An optional target (SCN_IF_BUILT) is referenced through a weak
 * declaration, so a target whose library was not built (no kernel source, no
 * musl source, a vendored printf whose package is missing) is simply absent.
 * A weak undefined reference does not pull an archive member: each optional
 * target's library makes whatever links it ask for its adapter
 * (LINKER:--undefined=scn_target_<name>). The others (SCN_ALWAYS) are strong
 * references, which pull their members out of scn_targets.
 */
#include <string.h>

#include "target.h"

#define SCN_ALWAYS
#define SCN_IF_BUILT __attribute__((weak))
#define SCN_TARGET(n, presence) extern const struct scn_target scn_target_##n presence;
#include "targets.def"
#undef SCN_TARGET

#define SCN_TARGET(n, presence) +1
enum { n_declared = 0
#include "targets.def"
};
#undef SCN_TARGET

static const struct scn_target *list[n_declared + 1];

const struct scn_target *const *scn_targets(void)
{
    if (!list[0]) {
#define SCN_TARGET(n, presence) &scn_target_##n,
        const struct scn_target *all[] = {
#include "targets.def"
        };
#undef SCN_TARGET
        size_t n = 0;
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
            const struct scn_target *volatile t = all[i]; /* weak: may be NULL */
            if (t) list[n++] = t;
        }
        list[n] = NULL;
    }
    return list;
}

const struct scn_target *scn_target_find(const char *name)
{
    for (const struct scn_target *const *t = scn_targets(); *t; t++)
        if (!strcmp((*t)->name, name)) return *t;
    return NULL;
}

int scn_target_vscnprintf(const struct scn_target *t, char *buf, size_t size, const char *fmt,
                          va_list ap)
{
    if (t->vscnprintf) return t->vscnprintf(buf, size, fmt, ap);
    return scn_canonical_vscnprintf(t->vsnprintf, buf, size, fmt, ap);
}
