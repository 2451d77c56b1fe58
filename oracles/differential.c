/* The differential oracle. See differential.h. */
#define _GNU_SOURCE
#include "differential.h"
#include "oracle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------- comparing */

#define SUB_CAP (1u << 16)

static int outs_equal(const struct scn_diff_out *x, const struct scn_diff_out *y, const char **what)
{
    if (x->ret < 0 && y->ret < 0) {
        if (x->len != y->len || (x->len && memcmp(x->bytes, y->bytes, x->len))) { *what = "bytes"; return 0; }
        return 1;
    }
    if (x->ret != y->ret) { *what = "ret"; return 0; }
    if (x->len != y->len || (x->len && memcmp(x->bytes, y->bytes, x->len))) { *what = "bytes"; return 0; }
    if (x->nn != y->nn) { *what = "n"; return 0; }
    for (size_t i = 0; i < x->nn; i++)
        if (x->n[i] != y->n[i]) { *what = "n"; return 0; }
    return 1;
}

static void spec_text(const struct scn_case *c, const struct scn_spec *s, char *out, size_t cap)
{
    size_t l = s->end - s->start;
    if (l >= cap) l = cap - 1;
    memcpy(out, c->fmt + s->start, l);
    out[l] = 0;
}

/* ------------------------------------------------------------ memo */

/* The verdicts on one specification alone (for each pair of targets: same
 * output, or different but explained by rule j) depend only on the
 * sub-case (its rounding direction too), the dialect, the targets and the
 * table. A fuzzer meets the same sub-cases over and over ("%p" of NULL,
 * "%a" of 1.0 ...): localising them again was a sixth of the ISO
 * differential fuzzer's time. The memo keys on the exact bytes of all of
 * that (no hash is trusted: a collision could hide a divergence), keeps only
 * sub-cases where every pair is "same" or explained by a rule (an
 * unexplained difference is always re-run, so its report carries its real
 * outputs) and is off with env SCN_DIFF_NO_MEMO=1 or scn_diff_set_memo(0). */
#define MEMO_SLOTS 4096
#define MEMO_KEY 232
#define MEMO_SAME (-1)
#define MAX_PAIRS (SCN_DIFF_MAX_TARGETS * (SCN_DIFF_MAX_TARGETS - 1) / 2)
struct memo_slot {
    unsigned gen, rules_gen;
    unsigned short klen;
    short verdict[MAX_PAIRS]; /* per pair: MEMO_SAME, or the index of the rule */
    unsigned char key[MEMO_KEY];
};
static struct memo_slot memo_tab[MEMO_SLOTS];
static int memo_state = -1; /* -1 unread, 0 off, 1 on */
static unsigned memo_gen = 1;
static unsigned long long memo_hits, memo_misses;

void scn_diff_set_memo(int on)
{
    memo_state = on ? 1 : 0;
    memo_gen++;
}

void scn_diff_memo_stats(unsigned long long *hits, unsigned long long *misses)
{
    *hits = memo_hits;
    *misses = memo_misses;
}

static int memo_on(void)
{
    if (memo_state < 0) {
        const char *e = getenv("SCN_DIFF_NO_MEMO");
        memo_state = !(e && !strcmp(e, "1"));
    }
    return memo_state;
}

static int key_put(unsigned char *k, size_t *n, const void *p, size_t l)
{
    if (*n + l > MEMO_KEY) return -1;
    memcpy(k + *n, p, l);
    *n += l;
    return 0;
}

/* The memo key of sub-case sub (of specification s) for the targets of
 * outs[0..n): its length, or 0 when it does not fit (then nothing is
 * memoised). */
static size_t memo_key(const struct scn_case *sub, const struct scn_spec *s, enum scn_dialect dialect,
                       const char *oracle, const struct scn_diff_out *outs, size_t n, unsigned char *k)
{
    size_t kn = 0;
    /* the sub-case is called under the case's rounding direction: upward,
     * glibc's and the reference's %.La of 0xf.46365707865dbdbp+998 are the
     * same, to nearest they are not */
    unsigned char d[2] = { (unsigned char)dialect, sub->round };
    /* make_subcase copies at most ~120 bytes of a specification */
    if (s->end - s->start > 100) return 0;
    if (key_put(k, &kn, d, sizeof d)) return 0;
    /* the rules' verdicts depend on the oracle (oracle=), and on who is
     * wrong: every target's output, the reference's (the first) among them,
     * which the targets in order and the sub-case determine */
    if (key_put(k, &kn, oracle, strlen(oracle) + 1)) return 0;
    for (size_t t = 0; t < n; t++)
        if (key_put(k, &kn, outs[t].target->name, strlen(outs[t].target->name) + 1)) return 0;
    if (key_put(k, &kn, sub->fmt, sub->fmt_len + 1)) return 0;
    for (size_t i = 0; i < sub->nargs; i++) {
        const struct scn_arg *a = &sub->args[i];
        unsigned char h[3] = { a->type, a->ntype, a->is_null };
        if (key_put(k, &kn, h, sizeof h)) return 0;
        int r = 0;
        switch (a->type) {
        case SCN_ARG_DOUBLE: r = key_put(k, &kn, &a->v.d, sizeof a->v.d); break;
        case SCN_ARG_LDOUBLE: r = key_put(k, &kn, &a->v.ld, 10); break; /* x86: 10 value bytes */
        case SCN_ARG_STR:
            r = key_put(k, &kn, &a->len, sizeof a->len) ||
                (!a->is_null && key_put(k, &kn, sub->arena + a->off, a->len));
            break;
        case SCN_ARG_WSTR:
            r = key_put(k, &kn, &a->len, sizeof a->len) ||
                (!a->is_null && key_put(k, &kn, sub->arena + a->off, a->len * sizeof(wchar_t)));
            break;
        case SCN_ARG_N: break;
        case SCN_ARG_MEM: { /* which form (bytes, ERR, VAF), the error value, the bytes */
            unsigned char form[2] = { a->is_err, a->is_vaf };
            r = key_put(k, &kn, form, sizeof form) || key_put(k, &kn, &a->v.u, sizeof a->v.u) ||
                key_put(k, &kn, &a->len, sizeof a->len) ||
                (!a->is_null && key_put(k, &kn, sub->arena + a->off, a->len));
            break;
        }
        default: r = key_put(k, &kn, &a->v.u, sizeof a->v.u); break;
        }
        if (r) return 0;
    }
    return kn;
}

static struct memo_slot *memo_slot_of(const unsigned char *k, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    return &memo_tab[(h ^ (h >> 29)) % MEMO_SLOTS];
}

/* 1 with verdict[] set when the memo knows this key */
static int memo_get(const unsigned char *k, size_t n, short *verdict)
{
    const struct memo_slot *m = memo_slot_of(k, n);
    if (m->gen != memo_gen || m->rules_gen != scn_rules_generation() || m->klen != n || memcmp(m->key, k, n)) {
        memo_misses++;
        return 0;
    }
    memo_hits++;
    memcpy(verdict, m->verdict, sizeof m->verdict);
    return 1;
}

static void memo_put(const unsigned char *k, size_t n, const short *verdict)
{
    struct memo_slot *m = memo_slot_of(k, n);
    m->gen = memo_gen;
    m->rules_gen = scn_rules_generation();
    m->klen = (unsigned short)n;
    memcpy(m->verdict, verdict, sizeof m->verdict);
    memcpy(m->key, k, n);
}

/* ---------------------------------------------------------- classifying */

/* The localisation of one pair of targets whose full outputs differ: its
 * first culprit specification that no rule explains (which decides), else
 * the first one explained by the most severe rule (a known bug outweighs an
 * allowance). */
struct pair_state {
    size_t a, b;
    const char *what;
    int asked; /* 0: a pair with the reference, localised only to say who is known wrong */
    int nbad, nok;
    struct scn_culprit bad, ok;
    const struct scn_rule *rule;
    char sbad[48], sok[48];
};

/* index of pair (a, b), a < b, among the n*(n-1)/2 pairs in (a, b) order */
static size_t pair_index(size_t a, size_t b, size_t n) { return a * (2 * n - a - 1) / 2 + (b - a - 1); }

/* What a comparison classifies with: the dialect, the oracle whose finding
 * it is, and every target's output of the culprit at hand (who is wrong,
 * rules.h; outs[0] is the reference). */
struct judge {
    enum scn_dialect dialect;
    const char *oracle;
    struct scn_blame all;
    const char *names[SCN_DIFF_MAX_TARGETS];
    int ret[SCN_DIFF_MAX_TARGETS];
    const unsigned char *out[SCN_DIFF_MAX_TARGETS];
    size_t len[SCN_DIFF_MAX_TARGETS];
    size_t nn[SCN_DIFF_MAX_TARGETS];
    const long long *nv[SCN_DIFF_MAX_TARGETS];
};

static void judge_init(struct judge *j, enum scn_dialect dialect, const char *oracle, const struct scn_diff_out *outs,
                       size_t n)
{
    j->dialect = dialect;
    j->oracle = oracle;
    j->all = (struct scn_blame){ .n = n, .names = j->names, .ret = j->ret, .out = j->out, .len = j->len };
    for (size_t t = 0; t < n; t++) j->names[t] = outs[t].target->name;
}

/* the culprit's outputs: those of each target (NULL: the full outputs) */
static void judge_outputs(struct judge *j, const struct scn_diff_out *outs, unsigned char *const *buf,
                          const int *ret, const size_t *len)
{
    for (size_t t = 0; t < j->all.n; t++) {
        j->ret[t] = buf ? ret[t] : outs[t].ret;
        j->out[t] = buf ? buf[t] : outs[t].bytes;
        j->len[t] = buf ? len[t] : outs[t].len;
        j->nn[t] = outs[t].nn;
        j->nv[t] = outs[t].n;
    }
    /* a culprit run alone stores its %n values nowhere the judge sees */
    j->all.nn = buf ? NULL : j->nn;
    j->all.nv = buf ? NULL : j->nv;
}

static int find_rule(const struct judge *j, const struct scn_case *c, struct scn_culprit *k, const char *ta,
                     const char *tb)
{
    k->all = &j->all;
    k->oracle = j->oracle;
    return scn_rule_find(j->dialect, c, k, ta, tb);
}

static void note_culprit(struct pair_state *p, const struct scn_case *c, const struct scn_culprit *k, int rule)
{
    const struct scn_rule *r = rule >= 0 ? scn_rule_at((size_t)rule) : NULL;
    if (!r) {
        if (!p->nbad++) {
            p->bad = *k;
            spec_text(c, k->s, p->sbad, sizeof p->sbad);
        }
    } else if (!p->nok++ || r->kind > p->rule->kind) {
        p->ok = *k;
        p->rule = r;
        spec_text(c, k->s, p->sok, sizeof p->sok);
    }
}

/* Localises every differing pair at once, one specification at a time:
 * each specification's sub-case is built once, looked up once in the memo
 * and, when unknown, run once on each target (a target shared by two pairs
 * is not called twice). */
static void localise_pairs(struct scn_case *c, const struct scn_diff_out *outs, size_t n, struct judge *j,
                           struct pair_state *ps, size_t np)
{
    static struct scn_spec specs[SCN_MAX_SPECS];
    static struct scn_case sub;
    static unsigned char *buf[SCN_DIFF_MAX_TARGETS];
    static size_t cap[SCN_DIFF_MAX_TARGETS];
    int ret[SCN_DIFF_MAX_TARGETS];
    size_t len[SCN_DIFF_MAX_TARGETS];
    struct pair_state *of[MAX_PAIRS] = { 0 }; /* pair index -> its state, if it differs */
    for (size_t t = 0; t < n; t++)
        if (!buf[t]) {
            if (!(buf[t] = malloc(SUB_CAP))) abort();
            cap[t] = SUB_CAP;
        }
    for (size_t i = 0; i < np; i++) of[pair_index(ps[i].a, ps[i].b, n)] = &ps[i];
    size_t ns = scn_scan_specs(c, j->dialect, specs, SCN_MAX_SPECS), open = np;
    int memo = memo_on();
    for (size_t i = 0; i < ns && open; i++) {
        const struct scn_spec *s = &specs[i];
        if (s->invalid) { /* nothing to run alone: the full outputs say who is wrong */
            judge_outputs(j, outs, NULL, NULL, NULL);
            for (size_t q = 0; q < np; q++) {
                struct pair_state *p = &ps[q];
                if (p->nbad) continue;
                struct scn_culprit k = { .s = s, .oa = buf[p->a], .ob = buf[p->b] };
                note_culprit(p, c, &k, find_rule(j, c, &k, outs[p->a].target->name, outs[p->b].target->name));
                open -= p->nbad != 0;
            }
            continue;
        }
        if (scn_spec_subcase(c, s, &sub)) continue;
        unsigned char key[MEMO_KEY];
        short v[MAX_PAIRS];
        size_t kn = memo ? memo_key(&sub, s, j->dialect, j->oracle, outs, n, key) : 0;
        if (kn && memo_get(key, kn, v)) {
            for (size_t q = 0; q < np; q++) {
                struct pair_state *p = &ps[q];
                int mv = v[pair_index(p->a, p->b, n)];
                if (p->nbad || mv == MEMO_SAME) continue;
                struct scn_culprit k = { .s = s, .oa = buf[p->a], .ob = buf[p->b] };
                note_culprit(p, c, &k, mv);
            }
            continue;
        }
        int crashed = 0;
        for (size_t t = 0; t < n && !crashed; t++) {
            /* the whole field, however wide: a matcher reads it laid out */
            for (;;) {
                ret[t] = -1;
                crashed = scn_oracle_full_call(outs[t].target, &sub, (char *)buf[t], cap[t], &ret[t]);
                if (crashed || ret[t] < 0 || (size_t)ret[t] < cap[t] || (size_t)ret[t] >= SCN_ORACLE_MAX_OUTPUT)
                    break;
                unsigned char *g = realloc(buf[t], (size_t)ret[t] + 1);
                if (!g) break;
                buf[t] = g, cap[t] = (size_t)ret[t] + 1;
            }
            len[t] = ret[t] < 0 ? strnlen((char *)buf[t], cap[t]) : (size_t)ret[t] < cap[t] ? (size_t)ret[t] : cap[t] - 1;
        }
        /* a sub-case that crashes a target (caught where faults are: the
         * fuzzers) tells nothing of the difference; the death is the
         * checks' finding, and the program that localises lives on */
        if (crashed) continue;
        judge_outputs(j, outs, buf, ret, len);
        /* every pair's verdict (all of them, for the memo); culprits of the
         * pairs still open */
        int storable = kn != 0;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                size_t pi = pair_index(a, b, n);
                int same = (ret[a] < 0 && ret[b] < 0) || ret[a] == ret[b];
                if (ret[a] >= 0 && ret[b] >= 0) same = same && len[a] == len[b] && !memcmp(buf[a], buf[b], len[a]);
                if (same) {
                    v[pi] = MEMO_SAME;
                    continue;
                }
                struct scn_culprit k = { .s = s, .ret_a = ret[a], .ret_b = ret[b], .oa = buf[a], .ob = buf[b], .la = len[a], .lb = len[b] };
                int rule = find_rule(j, c, &k, outs[a].target->name, outs[b].target->name);
                if (rule >= 0) v[pi] = (short)rule;
                else storable = 0;
                struct pair_state *p = of[pi];
                if (p && !p->nbad) {
                    note_culprit(p, c, &k, rule);
                    open -= p->nbad != 0;
                }
            }
        if (storable) memo_put(key, kn, v);
    }
    judge_outputs(j, outs, NULL, NULL, NULL);
    /* the whole case, for the pairs no single specification explains: a
     * target a known bug of its own explains against the reference is no
     * witness that the reference is the odd one out */
    for (size_t q = 0; q < np; q++) {
        const struct pair_state *p = &ps[q];
        size_t ref = j->all.ref, other = p->a == ref ? p->b : p->a;
        if ((p->a == ref || p->b == ref) && !p->nbad && p->nok && p->rule->kind != SCN_RULE_ALLOWANCE && other < 32)
            j->all.known_wrong |= 1u << other;
    }
    for (size_t q = 0; q < np; q++) {
        struct pair_state *p = &ps[q];
        if (p->nbad || p->nok) continue;
        /* no single specification differs: the whole case */
        const struct scn_diff_out *A = &outs[p->a], *B = &outs[p->b];
        struct scn_culprit k = { .ret_a = A->ret, .ret_b = B->ret, .oa = A->bytes, .ob = B->bytes, .la = A->len, .lb = B->len,
                                 .na = A->n, .nb = B->n, .nna = A->nn, .nnb = B->nn };
        int rule = find_rule(j, c, &k, A->target->name, B->target->name);
        if (rule >= 0) { p->nok = 1; p->ok = k; p->rule = scn_rule_at((size_t)rule); }
        else { p->nbad = 1; p->bad = k; }
    }
}

static enum scn_diff_verdict pair_verdict(const struct pair_state *p)
{
    if (p->nbad) return SCN_DIFF_DIVERGENCE;
    return p->rule->kind == SCN_RULE_ALLOWANCE ? SCN_DIFF_IMPL : SCN_DIFF_KNOWN;
}

/* The finding of pair p (localised). */
static enum scn_diff_verdict describe_pair(const struct pair_state *p, const struct scn_diff_out *outs,
                                           struct scn_diff_finding *f)
{
    const char *ta = outs[p->a].target->name, *tb = outs[p->b].target->name;
    int bad = p->nbad != 0;
    const struct scn_culprit *k = bad ? &p->bad : &p->ok;
    memset(f, 0, sizeof *f);
    f->a = p->a;
    f->b = p->b;
    f->verdict = bad ? SCN_DIFF_DIVERGENCE : pair_verdict(p);
    f->klass = bad ? "divergence" : scn_rule_classification(p->rule->kind);
    f->rule = bad ? NULL : p->rule;
    snprintf(f->what, sizeof f->what, "%s", p->what);
    if (k->s) {
        snprintf(f->conv, sizeof f->conv, "%s%c", k->s->invalid ? "!" : k->s->len, k->s->invalid ? 'I' : k->s->conv);
        scn_spec_flags_class(k->s, f->fclass, sizeof f->fclass);
        snprintf(f->spec, sizeof f->spec, "%s", bad ? p->sbad : p->sok);
    } else {
        strcpy(f->conv, "-");
        f->fclass[0] = 0;
        f->spec[0] = 0;
    }
    int swap = strcmp(ta, tb) > 0;
    snprintf(f->pair, sizeof f->pair, "%s~%s", swap ? tb : ta, swap ? ta : tb);
    snprintf(f->key, sizeof f->key, "%s:%s:%s:%s:%s", SCN_DIFF_ORACLE, f->conv, f->fclass, f->pair,
             bad ? "" : p->rule->id);
    if (bad)
        snprintf(f->detail, sizeof f->detail, "%s differ between %s and %s%s%s (%s: ret %d vs %d)", p->what, ta, tb,
                 k->s ? " in " : "", k->s ? f->spec : "", k->s ? "alone" : "whole case", k->ret_a, k->ret_b);
    else
        snprintf(f->detail, sizeof f->detail, "%s differ between %s and %s%s%s: %s %s", p->what, ta, tb,
                 k->s ? " in " : "", k->s ? f->spec : "", scn_rule_kind_name(p->rule->kind), p->rule->id);
    return f->verdict;
}

int scn_diff_agree(const struct scn_diff_out *outs, size_t n)
{
    const char *what;
    for (size_t i = 1; i < n; i++)
        if (!outs_equal(&outs[0], &outs[i], &what)) return 0;
    return 1;
}

/* The pairs of outs[0..n) that differ (only (a, b) when only_a < n), localised. */
static enum scn_diff_verdict compare(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                     enum scn_dialect dialect, const char *oracle, size_t only_a, size_t only_b,
                                     struct scn_diff_finding *f)
{
    if (n > SCN_DIFF_MAX_TARGETS) n = SCN_DIFF_MAX_TARGETS;
    if (scn_diff_agree(outs, n)) {
        f->verdict = SCN_DIFF_AGREE;
        f->klass = "";
        return SCN_DIFF_AGREE;
    }
    /* slow path: localise every differing pair; report the worst verdict,
     * of the first pair (in (a, b) order) that has it */
    struct pair_state ps[MAX_PAIRS];
    size_t np = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            const char *what = NULL;
            int asked = only_a >= n || (a == only_a && b == only_b);
            if ((!asked && a != 0) || outs_equal(&outs[a], &outs[b], &what)) continue;
            memset(&ps[np], 0, sizeof ps[np]);
            ps[np].a = a;
            ps[np].b = b;
            ps[np].what = what;
            ps[np].asked = asked;
            np++;
        }
    size_t nasked = 0;
    for (size_t q = 0; q < np; q++) nasked += ps[q].asked;
    if (!nasked) {
        f->verdict = SCN_DIFF_AGREE;
        f->klass = "";
        return SCN_DIFF_AGREE;
    }
    static struct judge j;
    judge_init(&j, dialect, oracle ? oracle : SCN_DIFF_ORACLE, outs, n);
    localise_pairs(c, outs, n, &j, ps, np);
    size_t worst_p = 0;
    enum scn_diff_verdict worst = SCN_DIFF_AGREE;
    for (size_t q = 0; q < np; q++) {
        enum scn_diff_verdict v = ps[q].asked ? pair_verdict(&ps[q]) : SCN_DIFF_AGREE;
        if (v > worst) {
            worst = v;
            worst_p = q;
        }
    }
    return describe_pair(&ps[worst_p], outs, f);
}

enum scn_diff_verdict scn_diff_compare(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                       enum scn_dialect dialect, struct scn_diff_finding *f)
{
    return compare(c, outs, n, dialect, NULL, SIZE_MAX, SIZE_MAX, f);
}

enum scn_diff_verdict scn_diff_compare_as(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                          enum scn_dialect dialect, const char *oracle, struct scn_diff_finding *f)
{
    return compare(c, outs, n, dialect, oracle, SIZE_MAX, SIZE_MAX, f);
}

enum scn_diff_verdict scn_diff_compare_pair(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                            enum scn_dialect dialect, const char *oracle, size_t a, size_t b,
                                            struct scn_diff_finding *f)
{
    if (a > b) {
        size_t t = a;
        a = b;
        b = t;
    }
    return compare(c, outs, n, dialect, oracle, a, b, f);
}
