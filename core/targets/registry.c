/* The target registry: every adapter compiled into this binary.
 *
 * Targets whose library may be absent (kernel, musl) are referenced through
 * weak declarations. A weak undefined reference does not pull an archive
 * member, so when CMake links the library it also defines
 * SCN_HAVE_TARGET_<NAME>=1 and the reference becomes a strong one.
 */
#include <string.h>

#include "target.h"

extern const struct scn_target scn_target_ref;
extern const struct scn_target scn_target_ref_kernel;
extern const struct scn_target scn_target_glibc;

#if SCN_HAVE_TARGET_KERNEL
extern const struct scn_target scn_target_kernel;
#else
extern const struct scn_target scn_target_kernel __attribute__((weak));
#endif
#if SCN_HAVE_TARGET_MUSL
extern const struct scn_target scn_target_musl;
#else
extern const struct scn_target scn_target_musl __attribute__((weak));
#endif

static const struct scn_target *list[8];

const struct scn_target *const *scn_targets(void)
{
    if (!list[0]) {
        const struct scn_target *all[] = { &scn_target_ref, &scn_target_ref_kernel, &scn_target_glibc,
                                           &scn_target_musl, &scn_target_kernel };
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
