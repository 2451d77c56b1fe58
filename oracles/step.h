/* The check step: what every program that meets findings does with them.
 *
 * A per-size oracle finding on a target (scn_check_case), or a difference
 * between targets' outputs (scn_diff_compare), is first localised to a
 * pre-key (the oracle or verdict, the culprit specification, the targets):
 * what was met. The first time a program meets a pre-key, the finding is
 * reduced to its root cause and signed (rootcause.h); after that it is the
 * same bug again and costs nothing more. The fuzzers (fuzz/fuzz_core.c),
 * scn-exec-fuzz and certification's campaign all take this step; what each
 * does with a root cause (a record, an abort, a certificate line) is its own.
 */
#ifndef SCN_STEP_H
#define SCN_STEP_H

#include <stddef.h>

#include "differential.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

struct scn_step {
    enum scn_dialect dialect;
    struct scn_oracle_ctx *loc;          /* the calls of localisation and reduction */
    int (*first)(const char *prekey);    /* 1 the first time: NULL is scn_seen_first */
};

/* The pre-key of finding f of scn_check_case(flags) on t:
 * oracle:conv:flags:target:family, conv/flags those of the first
 * specification that alone makes the same oracle fire ("-" if none does). */
void scn_step_oracle_key(const struct scn_step *s, const struct scn_case *c, const struct scn_target *t,
                         unsigned flags, const struct scn_finding *f, char *key, size_t cap);

/* Finding f on t, met for the first time: 1 and its root cause in rc;
 * met before: 0. */
int scn_step_oracle(const struct scn_step *s, const struct scn_case *c, const struct scn_target *t, unsigned flags,
                    const struct scn_finding *f, struct scn_rootcause *rc);

/* The targets' outputs outs[0..nt) of c (the baseline first): the verdict,
 * with df. A difference met for the first time (pre-key df.key:klass) is
 * reduced into rc and *fresh set; with ov (nt views), the reduced case's
 * outputs are put there and the pair the reduced case shows among all nt
 * targets is the one signed. */
enum scn_diff_verdict scn_step_diff(const struct scn_step *s, struct scn_case *c, const struct scn_diff_out *outs,
                                    size_t nt, struct scn_diff_finding *df, struct scn_rootcause *rc,
                                    struct scn_out_view *ov, int *fresh);

#ifdef __cplusplus
}
#endif

#endif /* SCN_STEP_H */
