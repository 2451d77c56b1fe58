/* scnfuzz differential oracle: several targets of one dialect, one case.
 *
 * The full outputs (C99 return value, bytes, %n values) of every target are
 * compared byte-exact. A mismatch between two targets is then localised: each
 * conversion specification of the case is re-run alone (a "sub-case": the
 * specification with its own arguments) on both targets; the specifications
 * whose outputs differ are the culprits. The mismatch is classified by the
 * rules (rules.h) that explain its culprits (or, with no culprit, the whole
 * case):
 *   "implementation-defined"  every culprit is explained by an allowance;
 *   "known-bug" / "known-gap" every culprit is explained, one of them by a
 *                             known bug or gap of the one of the two targets
 *                             that is wrong (it differs from the reference,
 *                             outs[0], and no target the rule does not list
 *                             agrees with it);
 *   "divergence"              otherwise (a new bug of one of the two, or a
 *                             difference nobody has justified yet).
 *
 * The fast path (all outputs equal) costs one memcmp per target; the
 * localisation only runs on a mismatch and uses a private heap buffer.
 * Its verdict is signed as a root cause after reduction (rootcause.h).
 */
#ifndef SCN_DIFFERENTIAL_H
#define SCN_DIFFERENTIAL_H

#include <stddef.h>

#include "case.h"
#include "rules.h"
#include "spec.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCN_DIFF_MAX_TARGETS 8
#define SCN_DIFF_ORACLE "differential"

/* One target's full-output call of the C99 family (big buffer). */
struct scn_diff_out {
    const struct scn_target *target;
    int ret;                    /* C99 return value (negative: error) */
    const unsigned char *bytes; /* the bytes stored before the NUL */
    size_t len;                 /* their count (0 when ret < 0 and nothing is compared) */
    size_t nn;                  /* %n values of the call, in argument order */
    const long long *n;
};

enum scn_diff_verdict { SCN_DIFF_AGREE = 0, SCN_DIFF_IMPL = 1, SCN_DIFF_KNOWN = 2, SCN_DIFF_DIVERGENCE = 3 };

struct scn_diff_finding {
    enum scn_diff_verdict verdict;
    const char *klass;          /* "divergence", "known-bug", "known-gap", "implementation-defined", "" */
    size_t a, b;                /* indices (into the outs array) of the pair reported */
    char what[8];               /* what differs first: "ret", "bytes", "n" */
    char conv[8];               /* culprit conversion with its length ("La", "lc", "p"); "-" none */
    char fclass[16];            /* flags class of the culprit: flags in "-+ #0" order, "w", ".p" */
    char spec[48];              /* the culprit specification as written in the format */
    const struct scn_rule *rule; /* the rule that explains it (verdicts IMPL, KNOWN) */
    char pair[80];              /* "<ta>~<tb>", the names sorted */
    char key[240];              /* the localised culprit, before reduction:
                                   differential:<conv>:<fclass>:<pair>:<rule id> */
    char detail[200];
};

/* Compares outs[0..n) (n <= SCN_DIFF_MAX_TARGETS, all of one dialect) on
 * case c. outs[0] is the reference (the dialect's baseline): a known bug or
 * gap of a listed target explains a difference only when that target's
 * output of the culprit differs from the reference's and no target the rule
 * does not list prints the same (rules.h, struct scn_culprit). Returns the
 * worst verdict over all pairs and describes the worst (first) pair in *f.
 * c is used (called) for the localisation, its %n slots are clobbered. */
enum scn_diff_verdict scn_diff_compare(struct scn_case *c, const struct scn_diff_out *outs,
                                       size_t n, enum scn_dialect dialect,
                                       struct scn_diff_finding *f);
/* The same, for a finding of another oracle than "differential" (the
 * expectation oracles of conformance: the rules' term oracle=). */
enum scn_diff_verdict scn_diff_compare_as(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                          enum scn_dialect dialect, const char *oracle,
                                          struct scn_diff_finding *f);
/* The verdict of the one pair (a, b) of outs[0..n), the other targets
 * only witnesses of who is wrong (the predicate of a pair's reduction). */
enum scn_diff_verdict scn_diff_compare_pair(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                            enum scn_dialect dialect, const char *oracle, size_t a, size_t b,
                                            struct scn_diff_finding *f);

/* The verdicts of localised sub-cases are memoised across calls (exact
 * keys: the sub-case, the targets in order, the oracle; only "same" and
 * "explained"; see differential.c). Off: env
 * SCN_DIFF_NO_MEMO=1 or scn_diff_set_memo(0) (which also empties it). */
void scn_diff_set_memo(int on);
void scn_diff_memo_stats(unsigned long long *hits, unsigned long long *misses);

/* 1 when all n outputs are equal (return value, bytes, %n values): the fast
 * path of scn_diff_compare, which calls nothing. */
int scn_diff_agree(const struct scn_diff_out *outs, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* SCN_DIFFERENTIAL_H */
