/* A target: one implementation under test, seen through one small adapter.
 *
 * Every adapter (core/targets/<name>.c, or its own directory) defines one
 * `const struct scn_target scn_target_<name>`. The registry (registry.c)
 * refers to each by a weak declaration, so a target whose library was not
 * built (no kernel source, no musl source, no vendored printf's package) is
 * simply absent.
 *
 * Two groups: "core" (ref, ref-kernel, glibc, musl, kernel), what the
 * project's own runs check by default, and "matrix" (the printfs that
 * libraries vendor: curl, apr, sqlite, ...), reached by name (--target).
 */
#ifndef SCN_TARGET_H
#define SCN_TARGET_H

#include <stdarg.h>
#include <stddef.h>

#include "scn_base.h"


/* The family of a target's own entry points. */
enum scn_api {
    SCN_API_C99 = 0,    /* a C99 vsnprintf, the "would-be length" (C17 7.21.6.12p3) */
    SCN_API_SCN = 1,    /* only a "bytes written" entry (the scnprintf family): vsnprintf is NULL */
    SCN_API_POINTER = 2 /* returns a pointer (sqlite3_vsnprintf); the adapter returns the length of
                           what it stored, a scnprintf-family entry: vsnprintf is NULL */
};

enum scn_group { SCN_GROUP_CORE = 0, SCN_GROUP_MATRIX = 1 };

struct scn_target {
    const char *name;          /* "ref", "ref-kernel", "glibc", "musl", "kernel", "curl", ... */
    const char *(*version)(void); /* e.g. "glibc 2.36", "linux-source-6.1 6.1.158-1" */
    enum scn_dialect dialect;
    scn_vprintf_fn vsnprintf;  /* the C99-family entry (kernel: its own vsnprintf); NULL: none */
    scn_vprintf_fn vscnprintf; /* native scnprintf-family entry, or NULL: canonical wrapper */
    const char *where;         /* "in-process" (executor targets are described elsewhere) */
    /* the fields below default (0/NULL, in a designated initializer) to a C99
     * target of the core group */
    enum scn_api api;          /* SCN_API_C99 has vsnprintf; the others only vscnprintf */
    const char *conventions;   /* one line, no tab: how it differs from C99, with its doc citation */
    enum scn_group group;
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

/* The target's full-output call, under the C99 family's contract (the
 * length of the whole output; ret >= size: cut), as a scn_case_call_ctx
 * function whose ctx is the target: its vsnprintf, or, for a target with
 * only the scnprintf family, its vscnprintf, a return of size - 1 (the
 * buffer is full, the output may go on) given as size. What the checks
 * call for "the output with a big buffer". */
int scn_target_full_call(void *target, char *buf, size_t size, const char *fmt, va_list ap);

/* NULL-terminated lists of the targets compiled into this binary, in the
 * order of targets.def: scn_targets() the core group (the default of every
 * program), scn_targets_all() every group. scn_target_find looks in all. */
const struct scn_target *const *scn_targets(void);
const struct scn_target *const *scn_targets_all(void);
const struct scn_target *scn_target_find(const char *name);

/* Names for the tools: "c99" | "scnprintf" | "pointer"; "core" | "matrix";
 * the target's conventions (for a C99 target without its own text, the
 * C99 contract). */
const char *scn_api_name(enum scn_api api);
const char *scn_group_name(enum scn_group group);
const char *scn_target_conventions(const struct scn_target *t);

#endif /* SCN_TARGET_H */
