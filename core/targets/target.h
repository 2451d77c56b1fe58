/* A target: one implementation under test, seen through one small adapter.
 *
 * Every adapter (core/targets/<name>.c, or its own directory) defines one
 * `const struct scn_target scn_target_<name>`. The registry (registry.c)
 * refers to each by a weak declaration, so a target whose library was not
 * built (no kernel source, no musl source) is simply absent.
 */
#ifndef SCN_TARGET_H
#define SCN_TARGET_H

#include <stdarg.h>
#include <stddef.h>

#include "scn_base.h"


struct scn_target {
    const char *name;          /* "ref", "ref-kernel", "glibc", "musl", "kernel" */
    const char *(*version)(void); /* e.g. "glibc 2.36", "linux-source-6.1 6.1.158-1" */
    enum scn_dialect dialect;
    scn_vprintf_fn vsnprintf;  /* the C99-family entry (kernel: its own vsnprintf) */
    scn_vprintf_fn vscnprintf; /* native scnprintf-family entry, or NULL: canonical wrapper */
    const char *where;         /* "in-process" (executor targets are described elsewhere) */
};

/* The target's scnprintf-family call: native when it has one, otherwise the
 * canonical wrapper over its vsnprintf:
 *   ret < 0            -> "" and 0 (size > 0), 0 (size == 0)
 *   ret < size         -> ret
 *   otherwise          -> size ? size - 1 : 0                                */
int scn_target_vscnprintf(const struct scn_target *t, char *buf, size_t size,
                          const char *fmt, va_list ap);

/* The canonical scnprintf-family wrapper over a C99-family function:
 *   ret < 0 -> "" and 0 (size > 0), 0 (size == 0); ret < size -> ret;
 *   otherwise size ? size - 1 : 0 */
int scn_canonical_vscnprintf(scn_vprintf_fn vsn, char *buf, size_t size, const char *fmt, va_list ap);

/* NULL-terminated list of the targets compiled into this binary. */
const struct scn_target *const *scn_targets(void);
const struct scn_target *scn_target_find(const char *name);

#endif /* SCN_TARGET_H */
