/* See exec_check.h. */
#define _GNU_SOURCE
#include "exec_check.h"

#include <stdio.h>
#include <string.h>

#include "executor.h"

/* The finding's oracle for what the executor saw, or NULL (nothing). */
static const char *fault_oracle(const struct scn_exec_status *s)
{
    switch (s->fault) {
    case SCN_EXEC_OVERRUN: return s->size ? "overrun" : "size0-untouched";
    case SCN_EXEC_HANG: return "hang";
    case SCN_EXEC_CRASH: return "crash";
    default: return NULL;
    }
}

size_t scn_exec_check_case(struct scn_oracle_ctx *x, const struct scn_target *t, struct scn_case *c,
                           unsigned flags, struct scn_report *r)
{
    if (!scn_is_executor(t)) return scn_check_case(x, t, c, flags, r);
    scn_executor_clear();
    size_t nf = scn_check_case(x, t, c, flags, r);
    const struct scn_exec_status *s = scn_executor_status();
    const char *oracle = fault_oracle(s);
    if (!oracle) return nf;
    struct scn_finding *f = &r->first;
    memset(f, 0, sizeof *f);
    f->oracle = oracle;
    f->klass = s->klass;
    f->family = s->scn_family ? SCN_FAM_SCN : SCN_FAM_C99;
    f->size = s->size;
    f->ret = f->expect_ret = -1;
    /* the executor's reason, cut to what the finding's detail holds beside the words around it */
    if (s->fault == SCN_EXEC_OVERRUN)
        snprintf(f->detail, sizeof f->detail, "%.*s, at size %zu (%s)", (int)sizeof f->detail - 48, s->why,
                 s->size, scn_family_name(f->family));
    else
        snprintf(f->detail, sizeof f->detail, "the executor: %.*s", (int)sizeof f->detail - 15, s->why);
    r->nfindings = nf + 1;
    return r->nfindings;
}

/* The executor still shows the same fault, or (none) the same oracle still fires. */
static int exec_still(struct scn_case *cand, void *vctx)
{
    const struct scn_oracle_still *k = vctx;
    scn_executor_clear();
    int fires = scn_oracle_still(cand, vctx);
    const char *fault = fault_oracle(scn_executor_status());
    return fault ? !strcmp(fault, k->oracle) : fires;
}

void scn_exec_rootcause_oracle(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                               const struct scn_target *t, unsigned flags, const char *oracle, const char *klass,
                               struct scn_rootcause *rc)
{
    if (!scn_is_executor(t)) {
        scn_rootcause_oracle(c, d, x, t, flags, oracle, klass, rc);
        return;
    }
    /* the reduction by what the executor saw (not for a hang: each try would
     * cost the executor's time limit); the rest as for any per-size finding */
    struct scn_oracle_still k = { x, t, flags, oracle };
    scn_rootcause_by(c, d, exec_still, &k, strcmp(oracle, "hang") ? SCN_REDUCE_BUDGET : 0, t->name, oracle, klass,
                     rc);
}
