/* Root causes: a finding is reduced before it is signed, so that one bug is
 * one finding however the fuzzer happened to meet it (docs/FINDINGS.md).
 *
 * scn_reduce() shrinks a case greedily and deterministically while a
 * predicate says the same thing still happens: the culprit specification
 * alone; literal text and other specifications dropped; each flag, the
 * width, the precision, the length modifier and the positional form
 * dropped; integer conversions moved to %d and floating ones to %f or %e;
 * widths, precisions and argument values moved toward 0, 1, -1, short
 * strings and short mantissas. The result is the finding's reproducer.
 *
 * The signature is <oracle>:<what>:<targets>:<classification>, <what> being
 * the id of the rule that explains it, else a death's crash state (its
 * sanitizer report's kind and first frame in the target's own source:
 * "signed-integer-overflow in getint (vfprintf.c)"), else the reduced case's
 * shape.
 */
#ifndef SCN_ROOTCAUSE_H
#define SCN_ROOTCAUSE_H

#include <stddef.h>

#include "case.h"
#include "differential.h"
#include "oracle.h"
#include "rules.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the candidate still shows the same failure. */
typedef int (*scn_still_fn)(struct scn_case *cand, void *ctx);

#define SCN_REDUCE_BUDGET 600 /* candidates tried at most per reduction */

/* Reduces c in place; returns the number of steps kept (0: unchanged). */
unsigned scn_reduce(struct scn_case *c, enum scn_dialect d, scn_still_fn still, void *ctx, unsigned budget);

/* The shape of a case: its specifications in order, literal widths and
 * precisions written N, positions as written ("%1$0*2$f", "%-N.Nd"),
 * literal text left out, "%!" for an invalid one. Returns the length. */
size_t scn_case_shape(const struct scn_case *c, enum scn_dialect d, char *out, size_t cap);

struct scn_rootcause {
    struct scn_case reduced;     /* the reproducer */
    unsigned steps;              /* reduction steps kept */
    char shape[160];
    char targets[80];            /* "glibc~ref" (a pair, sorted) or "glibc" */
    const char *klass;           /* classification */
    const struct scn_rule *rule; /* the rule that explains it, or NULL */
    char state[160];             /* a death's crash state (scn_rootcause_crash_state), or "" */
    char signature[320];
};

/* The crash state of a sanitizer's report (the text a dying process
 * printed): "<kind> in <function> (<file>)", the kind the report's
 * (UBSan's check, "signed-integer-overflow"; ASan's, "heap-buffer-overflow",
 * "SEGV"), the place UBSan names (its function from the stack when one is
 * printed, else "<kind> at <file> line <N>") or ASan's first frame outside
 * the harness (the directories core/, oracles/, fuzz/, programs/ under
 * root, and the sanitizer's runtime). No ':' in it (the signature's
 * separator). "" (0) when the text names no place: a plain signal.
 * Returns the length. */
size_t scn_crash_state(const char *report, const char *root, char *out, size_t cap);

/* After a death's reduction, sign after reduce: fn(arg) (the reduced case
 * on the culprit) run once more in a child within limit_ns, its stderr
 * kept and a stack printed at a sanitizer's death; rc->state its crash
 * state. 1 when it has one. */
int scn_rootcause_crash_state(struct scn_rootcause *rc, long (*fn)(void *), void *arg, unsigned long long limit_ns);

/* A differential finding df of case c among targets[0..n) (the reference
 * first, as scn_diff_compare had them): reduced while its pair df->a,
 * df->b still differs with the same verdict and rule, the other targets
 * its witnesses of who is wrong (rules.h). */
void scn_rootcause_diff(const struct scn_case *c, enum scn_dialect d, const struct scn_target *const *targets,
                        size_t n, const struct scn_diff_finding *df, struct scn_rootcause *rc);

/* After the reduction of a differential finding: the pair that the
 * reduced case shows among all the targets (their outputs of it, the
 * baseline first), when it shows the same verdict and rule.
 * The pair the fuzzer met depends on what else the case held (a target whose
 * whole call failed agrees with nobody); the reduced case's does not. */
void scn_rootcause_repair_pair(struct scn_rootcause *rc, const struct scn_diff_out *outs, size_t n,
                               enum scn_dialect d);

/* The predicate of per-size oracle findings: the same oracle still fires
 * on target t (checked with scn_check_case flags in context x). */
struct scn_oracle_still {
    struct scn_oracle_ctx *x;
    const struct scn_target *t;
    unsigned flags;
    const char *oracle;
};
int scn_oracle_still(struct scn_case *cand, void *ctx);

/* A per-size oracle finding (oracle, klass) of target t on c (checked with
 * scn_check_case flags in context x): reduced while the same oracle fires. */
void scn_rootcause_oracle(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                          const struct scn_target *t, unsigned flags, const char *oracle, const char *klass,
                          struct scn_rootcause *rc);

/* A conformance failure (oracle "expect.output", "expect.err",
 * "expect.n") of target t on c: reduced against the dialect's reference (a
 * target that meets every expectation of the corpus), both called as the
 * conformance took its full output (1,024 bytes, then the exact size: where
 * sqlite's temporary buffer fails), while t still differs from it the same
 * way: its bytes with the same verdict and rule, or, when
 * only its %n values differ, while its bytes agree and its %n values do not
 * (then the signature names the shape of the %n whose count is wrong, "%n",
 * "%hhn": the text around it only gave it a count).
 * A rule that explains it (its terms see the oracle: oracle=) gives the
 * classification, else "conformance". When t is the reference or agrees
 * with it entirely (the reference fails the expectation too), nothing says
 * what a smaller case should print: the case is signed as it is.
 * Failures with the same localised culprit share one reduction. */
void scn_rootcause_expect(const struct scn_case *c, enum scn_dialect d, const struct scn_target *t,
                          const struct scn_target *reference, const char *oracle, struct scn_rootcause *rc);

/* A finding (oracle, klass) of one target on c: reduced while still says
 * it still happens (at most budget candidates; 0: not reduced), then the
 * known rule that explains it (scn_rootcause_known) and signed. */
void scn_rootcause_by(const struct scn_case *c, enum scn_dialect d, scn_still_fn still, void *ctx, unsigned budget,
                      const char *target, const char *oracle, const char *klass, struct scn_rootcause *rc);

/* The known bug or gap (never an allowance) of target t that a reduced case
 * of one specification shows, for findings of oracle that are not a
 * difference (an oracle that fires, a crash, a hang), or NULL. A crash or a
 * hang is explained only by an entry with the term dies (rules.h); else the
 * known bug or gap of a conversion its failure needs (scn_rootcause_lacking). */
const struct scn_rule *scn_rootcause_known(const struct scn_case *reduced, enum scn_dialect d, const char *target,
                                           const char *oracle);
/* The same, with the buffer size the oracle fired at (sized 1: the rules'
 * term size=; scn_rootcause_oracle finds it on the reduced case). */
const struct scn_rule *scn_rootcause_known_at(const struct scn_case *reduced, enum scn_dialect d, const char *target,
                                              const char *oracle, int sized, size_t size);

/* The known bug or gap of target that a failure of a reduced case of two or
 * more specifications needs (NULL: none): a rule that explains one of its
 * specifications alone by its form (terms on the specification and its
 * argument, not on outputs), as a difference of outputs. The reducer keeps a
 * specification only when the failure goes away without it, so such a
 * failure needs the conversion the target lacks or gets wrong (curl's
 * "%LG%n" crashes because curl reads a double for the %LG, and the %n's
 * pointer then comes from the wrong place): that root cause, already
 * listed, not a new one. */
const struct scn_rule *scn_rootcause_lacking(const struct scn_case *reduced, enum scn_dialect d, const char *target);

/* A finding reduced by the caller's own predicate (conformance, executors):
 * signs it as oracle:<rule id or shape>:targets:klass. */
void scn_rootcause_sign(struct scn_rootcause *rc, const char *oracle, enum scn_dialect d);

#ifdef __cplusplus
}
#endif

#endif /* SCN_ROOTCAUSE_H */
