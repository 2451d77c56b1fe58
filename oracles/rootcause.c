/* Root causes: the predicates the reducer keeps a finding with, and the
 * signature. See rootcause.h and docs/FINDINGS.md. */
#define _GNU_SOURCE
#include "rootcause.h"

#include "finding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scn_rootcause_sign(struct scn_rootcause *rc, const char *oracle, enum scn_dialect d)
{
    scn_case_shape(&rc->reduced, d, rc->shape, sizeof rc->shape);
    snprintf(rc->signature, sizeof rc->signature, "%s:%s:%s:%s", oracle, rc->rule ? rc->rule->id : rc->shape,
             rc->targets, rc->klass);
}

/* ------------------------------------------------------- memo */

/* Root causes already reduced in this process, by key. */
struct memo_ent {
    char *key;
    struct scn_rootcause *rc;
};
static struct memo_ent *memo;
static size_t memo_n, memo_cap;

static struct scn_rootcause *memo_find(const char *key)
{
    static unsigned gen;
    if (gen != scn_rules_generation()) { /* the rules changed: what was signed by them is stale */
        for (size_t i = 0; i < memo_n; i++) {
            free(memo[i].key);
            free(memo[i].rc);
        }
        memo_n = 0;
        gen = scn_rules_generation();
    }
    for (size_t i = 0; i < memo_n; i++)
        if (!strcmp(memo[i].key, key)) return memo[i].rc;
    return NULL;
}

static void memo_add(const char *key, const struct scn_rootcause *rc)
{
    if (memo_n == memo_cap) {
        memo_cap = memo_cap ? memo_cap * 2 : 64;
        if (!(memo = realloc(memo, memo_cap * sizeof *memo))) abort();
    }
    struct scn_rootcause *copy = malloc(sizeof *copy);
    if (!copy || !(memo[memo_n].key = strdup(key))) abort();
    memcpy(copy, rc, sizeof *copy);
    memo[memo_n++].rc = copy;
}

/* ------------------------------------------------------- differential */

#define OUT_CAP (1u << 16)

struct diff_still {
    const struct scn_target *t[2];
    enum scn_dialect d;
    enum scn_diff_verdict verdict;
    const struct scn_rule *rule;
};

static int diff_still(struct scn_case *cand, void *vctx)
{
    const struct diff_still *k = vctx;
    static unsigned char *buf[2];
    struct scn_diff_out outs[2];
    long long nv[2][SCN_CASE_MAX_ARGS];
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t nn = scn_case_n_args(cand, idx, SCN_CASE_MAX_ARGS);
    for (int i = 0; i < 2; i++) {
        if (!buf[i] && !(buf[i] = malloc(OUT_CAP))) abort();
        int r = scn_case_call_ctx(scn_target_full_call, (void *)k->t[i], cand, (char *)buf[i], OUT_CAP);
        if (r >= (int)OUT_CAP) return 0; /* longer than the finding needs */
        for (size_t j = 0; j < nn; j++) nv[i][j] = scn_case_n_value(cand, idx[j]);
        outs[i] = (struct scn_diff_out){ k->t[i], r, buf[i], r < 0 ? 0 : (size_t)r, nn, nv[i] };
    }
    if (scn_diff_agree(outs, 2)) return 0;
    struct scn_diff_finding f;
    return scn_diff_compare(cand, outs, 2, k->d, &f) == k->verdict && f.rule == k->rule;
}

void scn_rootcause_diff(const struct scn_case *c, enum scn_dialect d, const struct scn_target *ta,
                        const struct scn_target *tb, const struct scn_diff_finding *df,
                        struct scn_rootcause *rc)
{
    struct diff_still k = { { ta, tb }, d, df->verdict, df->rule };
    /* A difference a rule explains is signed by the rule: its first
     * reduction is its reproducer, later ones would add nothing. */
    char key[sizeof df->key + 64];
    snprintf(key, sizeof key, "diff|%s|%s|%d", df->rule ? df->rule->id : "", df->pair, (int)d);
    const struct scn_rootcause *known = df->rule ? memo_find(key) : NULL;
    if (known) {
        memcpy(rc, known, sizeof *rc);
        return;
    }
    memcpy(&rc->reduced, c, sizeof *c);
    rc->steps = scn_reduce(&rc->reduced, d, diff_still, &k, SCN_REDUCE_BUDGET);
    rc->rule = df->rule;
    rc->klass = df->klass;
    snprintf(rc->targets, sizeof rc->targets, "%s", df->pair);
    scn_rootcause_sign(rc, SCN_DIFF_ORACLE, d);
    if (df->rule) memo_add(key, rc);
}

void scn_rootcause_repair_pair(struct scn_rootcause *rc, const struct scn_diff_out *outs, size_t n,
                               enum scn_dialect d)
{
    static struct scn_case work;
    struct scn_diff_finding f;
    memcpy(&work, &rc->reduced, sizeof work);
    if (scn_diff_agree(outs, n)) return;
    enum scn_diff_verdict v = scn_diff_compare(&work, outs, n, d, &f);
    if (f.rule != rc->rule || strcmp(f.klass, rc->klass) || v == SCN_DIFF_AGREE || !strcmp(f.pair, rc->targets)) return;
    snprintf(rc->targets, sizeof rc->targets, "%s", f.pair);
    scn_rootcause_sign(rc, SCN_DIFF_ORACLE, d);
}

const struct scn_rule *scn_rootcause_known(const struct scn_case *reduced, enum scn_dialect d, const char *target,
                                           const char *oracle)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(reduced, d, sp, SCN_MAX_SPECS), valid = 0, nn = 0;
    const struct scn_spec *one = NULL, *n_spec = NULL;
    for (size_t i = 0; i < n; i++)
        if (!sp[i].invalid && sp[i].conv != '%') {
            valid++;
            one = &sp[i];
            if (sp[i].conv == 'n') nn++, n_spec = &sp[i];
        }
    /* a %n value that is wrong: its one %n specification is the culprit,
     * whatever the case needs before it to have a count ("%d%n") */
    if (valid > 1 && nn == 1 && (!strcmp(oracle, "expect.n") || !strcmp(oracle, "n-consistent"))) {
        valid = 1;
        one = n_spec;
    }
    struct scn_culprit k = { valid == 1 ? one : NULL, 0, 0, NULL, NULL, 0, 0,
                             !strcmp(oracle, "crash") || !strcmp(oracle, "hang") };
    int r = scn_rule_find(d, reduced, &k, target, target);
    const struct scn_rule *rule = r >= 0 ? scn_rule_at((size_t)r) : NULL;
    return rule && rule->kind != SCN_RULE_ALLOWANCE ? rule : NULL;
}

/* ------------------------------------------------------- per-size oracles */

int scn_oracle_still(struct scn_case *cand, void *vctx)
{
    const struct scn_oracle_still *k = vctx;
    static struct scn_report r;
    return scn_check_case(k->x, k->t, cand, k->flags, &r) && !strcmp(r.first.oracle, k->oracle);
}

void scn_rootcause_oracle(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                          const struct scn_target *t, unsigned flags, const char *oracle, const char *klass,
                          struct scn_rootcause *rc)
{
    struct scn_oracle_still k = { x, t, flags, oracle };
    scn_rootcause_by(c, d, scn_oracle_still, &k, SCN_REDUCE_BUDGET, t->name, oracle, klass, rc);
}

void scn_rootcause_by(const struct scn_case *c, enum scn_dialect d, scn_still_fn still, void *ctx, unsigned budget,
                      const char *target, const char *oracle, const char *klass, struct scn_rootcause *rc)
{
    memcpy(&rc->reduced, c, sizeof *c);
    rc->steps = budget ? scn_reduce(&rc->reduced, d, still, ctx, budget) : 0;
    rc->rule = scn_rootcause_known(&rc->reduced, d, target, oracle);
    rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : klass;
    snprintf(rc->targets, sizeof rc->targets, "%s", target);
    scn_rootcause_sign(rc, oracle, d);
}

/* ------------------------------------------------------- conformance */

void scn_rootcause_expect(const struct scn_case *c, enum scn_dialect d, const struct scn_target *t,
                          const struct scn_target *reference, const char *oracle, struct scn_rootcause *rc)
{
    static struct scn_case work;
    struct scn_out_view ov[2];
    const struct scn_target *pair[2] = { reference, t };
    struct scn_diff_out outs[2];
    struct scn_diff_finding df;
    memcpy(&work, c, sizeof work);
    int differs = 0;
    if (reference && reference != t) {
        scn_record_outputs(pair, 2, &work, ov);
        for (int i = 0; i < 2; i++) outs[i] = (struct scn_diff_out){ pair[i], ov[i].ret, ov[i].bytes, ov[i].len, 0, NULL };
        differs = !scn_diff_agree(outs, 2) && scn_diff_compare(&work, outs, 2, d, &df) != SCN_DIFF_AGREE;
    }
    if (!differs) {
        memcpy(&rc->reduced, c, sizeof *c);
        rc->steps = 0;
        /* the same bytes as the reference: only the %n values can differ */
        rc->rule = !strcmp(oracle, "expect.n") ? scn_rootcause_known(c, d, t->name, oracle) : NULL;
        rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : "conformance";
        snprintf(rc->targets, sizeof rc->targets, "%s", t->name);
        scn_rootcause_sign(rc, oracle, d);
        return;
    }
    char key[sizeof df.key + 96];
    snprintf(key, sizeof key, "%s|%s|%s|%d", oracle, t->name, df.key, (int)df.verdict);
    const struct scn_rootcause *known = memo_find(key);
    if (known) {
        memcpy(rc, known, sizeof *rc);
        return;
    }
    scn_rootcause_diff(c, d, reference, t, &df, rc);
    rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : "conformance";
    snprintf(rc->targets, sizeof rc->targets, "%s", t->name);
    scn_rootcause_sign(rc, oracle, d);
    memo_add(key, rc);
}
