/* Root causes: the predicates the reducer keeps a finding with, and the
 * signature. See rootcause.h and docs/FINDINGS.md. */
#define _GNU_SOURCE
#include "rootcause.h"

#include "finding.h"
#include "oracle.h"
#include "rule_terms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scn_rootcause_sign(struct scn_rootcause *rc, const char *oracle, enum scn_dialect d)
{
    scn_case_shape(&rc->reduced, d, rc->shape, sizeof rc->shape);
    snprintf(rc->signature, sizeof rc->signature, "%s:%s:%s:%s", oracle,
             rc->rule ? rc->rule->id : rc->state[0] ? rc->state : rc->shape, rc->targets, rc->klass);
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

/* One full call of t on c into buf (OUT_CAP bytes): in OUT_CAP bytes, or
 * (conform) at the sizes the conformance took its full output at, where an
 * output can differ from a larger buffer's: sqlite's temporary buffer fails
 * into the exact size ("%.4095d" into 4,096 bytes is ""), in 64 KiB it does
 * not. 1 when the call crashed. */
static int full_call(const struct scn_target *t, struct scn_case *c, unsigned char *buf, int conform, int *r)
{
    size_t size = conform ? SCN_FULL_FIRST_SIZE : OUT_CAP;
    if (scn_oracle_full_call(t, c, (char *)buf, size, r)) return 1;
    if (!conform || *r < (int)size || *r >= (int)OUT_CAP) return 0;
    return scn_oracle_full_call(t, c, (char *)buf, (size_t)*r + 1, r);
}

/* The outputs of targets t[0..n) on c (t[0] the reference) into outs, with
 * their %n values, each called as full_call says; 0 when one of them is
 * longer than a finding needs, or crashed: a candidate of a difference's
 * reduction may crash a target (a %n reading an argument the target did not
 * consume), and the fuzzers, which catch faults, must live through it as
 * through the checks' calls. */
static int outputs_of(const struct scn_target *const *t, size_t n, struct scn_case *c, int conform,
                      struct scn_diff_out *outs)
{
    static unsigned char *buf[SCN_DIFF_MAX_TARGETS];
    static long long nv[SCN_DIFF_MAX_TARGETS][SCN_CASE_MAX_ARGS];
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < n; i++) {
        if (!buf[i] && !(buf[i] = malloc(OUT_CAP))) abort();
        int r = -1;
        if (full_call(t[i], c, buf[i], conform, &r)) return 0;
        if (r >= (int)OUT_CAP) return 0;
        for (size_t j = 0; j < nn; j++) nv[i][j] = scn_case_n_value(c, idx[j]);
        outs[i] = (struct scn_diff_out){ t[i], r, buf[i], r < 0 ? 0 : (size_t)r, nn, nv[i] };
    }
    return 1;
}

/* A pair (a, b) of the targets t[0..n) still differs with the same verdict
 * and rule, the other targets (the reference first) its witnesses. */
struct diff_still {
    const struct scn_target *t[SCN_DIFF_MAX_TARGETS];
    size_t n, a, b;
    enum scn_dialect d;
    const char *oracle;
    enum scn_diff_verdict verdict;
    const struct scn_rule *rule;
    int conform; /* the outputs at the conformance's sizes (full_call) */
};

static int diff_still(struct scn_case *cand, void *vctx)
{
    const struct diff_still *k = vctx;
    struct scn_diff_out outs[SCN_DIFF_MAX_TARGETS];
    if (!outputs_of(k->t, k->n, cand, k->conform, outs) || scn_diff_agree(outs, k->n)) return 0;
    struct scn_diff_finding f;
    return scn_diff_compare_pair(cand, outs, k->n, k->d, k->oracle, k->a, k->b, &f) == k->verdict &&
           f.rule == k->rule;
}

/* The pair's target that is not the reference (targets[0]), or NULL. */
static const char *non_reference(const struct diff_still *k)
{
    return k->a == 0 ? k->t[k->b]->name : k->b == 0 ? k->t[k->a]->name : NULL;
}

static void reduce_diff(const struct scn_case *c, struct diff_still *k, const struct scn_diff_finding *df,
                        struct scn_rootcause *rc)
{
    /* A difference a rule explains is signed by the rule: its first
     * reduction is its reproducer, later ones would add nothing. */
    char key[sizeof df->key + 96];
    snprintf(key, sizeof key, "diff|%s|%s|%s|%d", k->oracle, df->rule ? df->rule->id : "", df->pair, (int)k->d);
    const struct scn_rootcause *known = df->rule ? memo_find(key) : NULL;
    if (known) {
        memcpy(rc, known, sizeof *rc);
        return;
    }
    memcpy(&rc->reduced, c, sizeof *c);
    rc->state[0] = 0;
    rc->steps = scn_reduce(&rc->reduced, k->d, diff_still, k, SCN_REDUCE_BUDGET);
    rc->rule = df->rule;
    rc->klass = df->klass;
    const char *lacking = df->rule ? NULL : non_reference(k);
    if (lacking && (rc->rule = scn_rootcause_lacking(&rc->reduced, k->d, lacking)))
        rc->klass = scn_rule_classification(rc->rule->kind);
    snprintf(rc->targets, sizeof rc->targets, "%s", df->pair);
    scn_rootcause_sign(rc, SCN_DIFF_ORACLE, k->d);
    if (df->rule) memo_add(key, rc);
}

void scn_rootcause_diff(const struct scn_case *c, enum scn_dialect d, const struct scn_target *const *targets,
                        size_t n, const struct scn_diff_finding *df, struct scn_rootcause *rc)
{
    static struct diff_still k;
    if (n > SCN_DIFF_MAX_TARGETS) n = SCN_DIFF_MAX_TARGETS;
    k = (struct diff_still){ { NULL }, n, df->a, df->b, d, SCN_DIFF_ORACLE, df->verdict, df->rule, 0 };
    memcpy(k.t, targets, n * sizeof targets[0]);
    reduce_diff(c, &k, df, rc);
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

const struct scn_rule *scn_rootcause_known_at(const struct scn_case *reduced, enum scn_dialect d, const char *target,
                                              const char *oracle, int sized, size_t size)
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
    struct scn_culprit k = { .s = valid == 1 ? one : NULL, .death = !strcmp(oracle, "crash") || !strcmp(oracle, "hang"),
                             .oracle = oracle, .sized = sized, .size = size };
    /* one target: it is the one that is wrong; allowances (two targets) do not apply */
    size_t rules = scn_rules_count();
    for (size_t j = 0; j < rules; j++) {
        const struct scn_rule *r = scn_rule_at(j);
        if (r->kind == SCN_RULE_ALLOWANCE) continue;
        struct scn_culprit kj = k;
        if (scn_rule_explains(r, d, reduced, &kj, target, target)) return r;
    }
    return NULL;
}

const struct scn_rule *scn_rootcause_known(const struct scn_case *reduced, enum scn_dialect d, const char *target,
                                           const char *oracle)
{
    const struct scn_rule *r = scn_rootcause_known_at(reduced, d, target, oracle, 0, 0);
    return r ? r : scn_rootcause_lacking(reduced, d, target);
}

const struct scn_rule *scn_rootcause_lacking(const struct scn_case *reduced, enum scn_dialect d, const char *target)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    static struct scn_case sub;
    size_t n = scn_scan_specs(reduced, d, sp, SCN_MAX_SPECS), valid = 0, invalid = 0;
    for (size_t i = 0; i < n; i++) {
        valid += !sp[i].invalid && sp[i].conv != '%';
        invalid += sp[i].invalid;
    }
    /* an invalid specification the reduced case still needs is a second
     * piece too: stb's "%F%y...%n" dies of the %F it lacks, as "%F%n" does */
    if (valid + invalid < 2 || !valid) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].conv == '%' || scn_spec_subcase(reduced, &sp[i], &sub)) continue;
        const struct scn_rule *r = scn_rootcause_known_at(&sub, d, target, "differential", 0, 0);
        /* a rule with a term that looks at the outputs, the whole case or the
         * finding says nothing of a specification checked alone, without outputs
         * (oracle= aside: it is checked as a differential, so a rule that lists
         * the differential among its oracles still judges it by its form) */
        if (r && scn_terms_by_form_alone(r)) return r;
    }
    return NULL;
}

/* ------------------------------------------------------- per-size oracles */

int scn_oracle_still(struct scn_case *cand, void *vctx)
{
    const struct scn_oracle_still *k = vctx;
    static struct scn_report r;
    return scn_check_case(k->x, k->t, cand, k->flags, &r) && !strcmp(r.first.oracle, k->oracle);
}

static void sign_one(struct scn_rootcause *rc, enum scn_dialect d, const char *target, const char *oracle,
                     const char *klass, int sized, size_t size)
{
    rc->rule = scn_rootcause_known_at(&rc->reduced, d, target, oracle, sized, size);
    if (!rc->rule) rc->rule = scn_rootcause_lacking(&rc->reduced, d, target);
    rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : klass;
    snprintf(rc->targets, sizeof rc->targets, "%s", target);
    scn_rootcause_sign(rc, oracle, d);
}

void scn_rootcause_oracle(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                          const struct scn_target *t, unsigned flags, const char *oracle, const char *klass,
                          struct scn_rootcause *rc)
{
    struct scn_oracle_still k = { x, t, flags, oracle };
    memcpy(&rc->reduced, c, sizeof *c);
    rc->state[0] = 0;
    rc->steps = scn_reduce(&rc->reduced, d, scn_oracle_still, &k, SCN_REDUCE_BUDGET);
    /* the size the reduced case fails at, for the rules' term size= */
    static struct scn_case again;
    static struct scn_report r;
    memcpy(&again, &rc->reduced, sizeof again);
    int sized = scn_check_case(x, t, &again, flags, &r) && !strcmp(r.first.oracle, oracle);
    sign_one(rc, d, t->name, oracle, klass, sized, sized ? r.first.size : 0);
}

void scn_rootcause_by(const struct scn_case *c, enum scn_dialect d, scn_still_fn still, void *ctx, unsigned budget,
                      const char *target, const char *oracle, const char *klass, struct scn_rootcause *rc)
{
    memcpy(&rc->reduced, c, sizeof *c);
    rc->state[0] = 0;
    rc->steps = budget ? scn_reduce(&rc->reduced, d, still, ctx, budget) : 0;
    sign_one(rc, d, target, oracle, klass, 0, 0);
}

/* ------------------------------------------------------- conformance */

/* The bytes of the reference and t agree and their %n values do not (an
 * expect.n failure reduced against the reference). */
static int n_still(struct scn_case *cand, void *vctx)
{
    const struct scn_target *const *t = vctx;
    struct scn_diff_out outs[2];
    if (!outputs_of(t, 2, cand, 1, outs) || !outs[0].nn) return 0;
    if (outs[0].ret != outs[1].ret || outs[0].len != outs[1].len || memcmp(outs[0].bytes, outs[1].bytes, outs[0].len))
        return 0;
    return memcmp(outs[0].n, outs[1].n, outs[0].nn * sizeof outs[0].n[0]) != 0;
}

/* A wrong %n value is the bug of the %n specification that stores it: the
 * signature names the shape of the first %n whose value differs from the
 * reference's on the reduced case ("%n", "%hhn"), not the text around it,
 * which only gives it a count (a wrong count shows in "%5d%n", "%e%n",
 * "a%db%n" alike). The reduced case stays the reproducer. */
static void sign_by_wrong_n(struct scn_rootcause *rc, const char *oracle, enum scn_dialect d,
                            const struct scn_target *const *t)
{
    static struct scn_case work, sub;
    static struct scn_spec sp[SCN_MAX_SPECS];
    struct scn_diff_out outs[2];
    memcpy(&work, &rc->reduced, sizeof work);
    if (!outputs_of(t, 2, &work, 1, outs)) return;
    size_t n = scn_scan_specs(&rc->reduced, d, sp, SCN_MAX_SPECS), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].conv != 'n') continue;
        if (k < outs[0].nn && outs[0].n[k] != outs[1].n[k] && !scn_spec_subcase(&rc->reduced, &sp[i], &sub)) {
            scn_case_shape(&sub, d, rc->shape, sizeof rc->shape);
            snprintf(rc->signature, sizeof rc->signature, "%s:%s:%s:%s", oracle, rc->rule ? rc->rule->id : rc->shape,
                     rc->targets, rc->klass);
            return;
        }
        k++;
    }
}

void scn_rootcause_expect(const struct scn_case *c, enum scn_dialect d, const struct scn_target *t,
                          const struct scn_target *reference, const char *oracle, struct scn_rootcause *rc)
{
    static struct scn_case work;
    const struct scn_target *pair[2] = { reference, t };
    struct scn_diff_out outs[2];
    struct scn_diff_finding df;
    memcpy(&work, c, sizeof work);
    int differs = 0, n_differs = 0;
    /* at the conformance's own sizes: the failure is what it saw there */
    if (reference && reference != t && outputs_of(pair, 2, &work, 1, outs)) {
        n_differs = outs[0].nn && outs[0].ret == outs[1].ret && outs[0].len == outs[1].len &&
                    !memcmp(outs[0].bytes, outs[1].bytes, outs[0].len) &&
                    memcmp(outs[0].n, outs[1].n, outs[0].nn * sizeof outs[0].n[0]);
        for (int i = 0; i < 2; i++) outs[i].nn = 0; /* the bytes: the differential localises them */
        differs = !scn_diff_agree(outs, 2) && scn_diff_compare_as(&work, outs, 2, d, oracle, &df) != SCN_DIFF_AGREE;
    }
    if (!differs) {
        /* the same bytes as the reference: only the %n values can differ,
         * reduced while they still do; else the reference fails the
         * expectation too, and nothing says what a smaller case should print */
        memcpy(&rc->reduced, c, sizeof *c);
        rc->state[0] = 0;
        rc->steps = n_differs ? scn_reduce(&rc->reduced, d, n_still, pair, SCN_REDUCE_BUDGET) : 0;
        sign_one(rc, d, t->name, oracle, "conformance", 0, 0);
        if (n_differs) sign_by_wrong_n(rc, oracle, d, pair);
        if (strcmp(oracle, "expect.n") && rc->rule) { /* bytes the reference prints too: no rule of t's */
            rc->rule = NULL;
            rc->klass = "conformance";
            scn_rootcause_sign(rc, oracle, d);
        }
        return;
    }
    char key[sizeof df.key + 96];
    snprintf(key, sizeof key, "%s|%s|%s|%d", oracle, t->name, df.key, (int)df.verdict);
    const struct scn_rootcause *known = memo_find(key);
    if (known) {
        memcpy(rc, known, sizeof *rc);
        return;
    }
    static struct diff_still k;
    k = (struct diff_still){ { reference, t }, 2, 0, 1, d, oracle, df.verdict, df.rule, 1 };
    reduce_diff(c, &k, &df, rc);
    rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : "conformance";
    snprintf(rc->targets, sizeof rc->targets, "%s", t->name);
    scn_rootcause_sign(rc, oracle, d);
    memo_add(key, rc);
}
