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

static const struct scn_target *core[n_declared + 1], *all[n_declared + 1];

static void fill(void)
{
#define SCN_TARGET(n, presence) &scn_target_##n,
    const struct scn_target *declared[] = {
#include "targets.def"
    };
#undef SCN_TARGET
    size_t nc = 0, na = 0;
    for (size_t i = 0; i < sizeof declared / sizeof declared[0]; i++) {
        const struct scn_target *volatile t = declared[i]; /* weak: may be NULL */
        if (!t) continue;
        all[na++] = t;
        if (t->group == SCN_GROUP_CORE) core[nc++] = t;
    }
    core[nc] = all[na] = NULL;
}

const struct scn_target *const *scn_targets(void)
{
    if (!all[0]) fill();
    return core;
}

const struct scn_target *const *scn_targets_all(void)
{
    if (!all[0]) fill();
    return all;
}

const struct scn_target *scn_target_find(const char *name)
{
    for (const struct scn_target *const *t = scn_targets_all(); *t; t++)
        if (!strcmp((*t)->name, name)) return *t;
    return NULL;
}

const char *scn_api_name(enum scn_api api)
{
    return api == SCN_API_SCN ? "scnprintf" : api == SCN_API_POINTER ? "pointer" : "c99";
}

const char *scn_group_name(enum scn_group group)
{
    return group == SCN_GROUP_MATRIX ? "matrix" : "core";
}

const char *scn_target_conventions(const struct scn_target *t)
{
    if (t->conventions) return t->conventions;
    return t->vscnprintf ? "C99 vsnprintf (would-be length, C17 7.21.6.12p3) and a native vscnprintf (bytes written)"
                         : "C99 vsnprintf: returns the would-be length (C17 7.21.6.12p3)";
}

int scn_target_vscnprintf(const struct scn_target *t, char *buf, size_t size, const char *fmt,
                          va_list ap)
{
    if (t->vscnprintf) return t->vscnprintf(buf, size, fmt, ap);
    return scn_canonical_vscnprintf(t->vsnprintf, buf, size, fmt, ap);
}
