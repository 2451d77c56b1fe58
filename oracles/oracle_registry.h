/* The oracle registry: each oracle's name, class, stage, promise and what it
 * checks, from the one list oracles/oracles.def (Python reads the same file).
 * A finding's class comes from here, not from comparisons of names. */
#ifndef SCN_ORACLE_REGISTRY_H
#define SCN_ORACLE_REGISTRY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scn_oracle_info {
    const char *name;
    const char *klass;   /* memory-safety, crash, hang, invariant, divergence, conformance, error */
    const char *stage;   /* per-size, expectation, differential, process, side-effect, parser */
    const char *promise; /* bytes, c99-return, scn-return, bounds, no-crash, or "-" */
    const char *doc;
};

/* Every oracle, in the list's order; *n is set to their number. */
const struct scn_oracle_info *scn_oracles(size_t *n);

/* The oracle named name, or NULL when the list has none. */
const struct scn_oracle_info *scn_oracle_find(const char *name);

/* Its class ("invariant" for a name the list does not have: the caller's
 * test names its own oracle). */
const char *scn_oracle_class(const char *name);

/* 1 when the oracle compares the output with another one (the corpus's
 * expectation or the reference): a rule about output bytes applies to it. */
int scn_oracle_on_output(const char *name);

/* The list as TSV (name, class, stage, promise, doc), one line an oracle. */
void scn_oracles_print(void);

#ifdef __cplusplus
}
#endif

#endif /* SCN_ORACLE_REGISTRY_H */
