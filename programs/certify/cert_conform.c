/* scn-certify: phase conform: every case of the corpus in the claimed
 * categories with an expectation in the dialect's column, every size. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_state.h"
#include "expect.h"
#include "rules.h"

/* ------------------------------------------------------------ conform */

struct cert_plan_line *cert_plan;
long cert_nplan;

static int in_claim(const char *cat)
{
    if (!cert_opt_categories || !*cert_opt_categories) return 1;
    const char *p = cert_opt_categories;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && !strncmp(cat, p, n) && (cat[n] == 0 || cat[n] == '.')) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static const struct scn_expect *expectation(const struct scn_corpus_entry *e)
{
    return cert_dialect == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
}

/* Reads the corpus: the cases with an expectation in the dialect's column,
 * in the claimed categories, in order. */
int cert_load_plan(int nfiles, char **files)
{
    static struct scn_corpus_entry e;
    static long cap_plan;
    char err[300];
    for (int i = 0; i < nfiles; i++) {
        FILE *fp = fopen(files[i], "r");
        if (!fp) {
            fprintf(stderr, "scn-certify: cannot open %s: %s\n", files[i], strerror(errno));
            return -1;
        }
        char *l = NULL;
        size_t cap = 0;
        ssize_t n;
        long ln = 0;
        while ((n = getline(&l, &cap, fp)) >= 0) {
            ln++;
            if (n && l[n - 1] == '\n') l[--n] = 0;
            int k = scn_corpus_parse_line(l, (size_t)n, &e, err, sizeof err);
            if (k < 0) {
                fprintf(stderr, "scn-certify: %s:%ld: %s\n", files[i], ln, err);
                fclose(fp);
                return -1;
            }
            if (!k || expectation(&e)->kind == SCN_EXPECT_NONE || !in_claim(e.category)) continue;
            if (cert_nplan == cap_plan) {
                /* doubled: one line at a time was quadratic in the corpus (ASan's
                 * realloc always moves, onto fresh pages) */
                cap_plan = cap_plan ? 2 * cap_plan : 1024;
                if (!(cert_plan = realloc(cert_plan, (size_t)cap_plan * sizeof *cert_plan))) abort();
            }
            if (!(cert_plan[cert_nplan].text = strdup(l))) abort();
            cert_plan[cert_nplan].file = files[i];
            cert_plan[cert_nplan++].line = ln;
        }
        free(l);
        fclose(fp);
    }
    return 0;
}

void cert_parse_plan(long i, struct scn_corpus_entry *e)
{
    char err[300];
    scn_corpus_parse_line(cert_plan[i].text, strlen(cert_plan[i].text), e, err, sizeof err);
}

/* One case of the phase: what the checks and the function's own output
 * said, and the verdict drawn from them. */
struct conform_case {
    long i;
    const struct scn_expect *x;
    unsigned flags;
    struct scn_finding f;             /* the oracles' first finding (have_f) */
    int have_f, faulted, ret, fd;     /* fd: 1/2 when the function wrote to stdout/stderr */
    size_t len, nn;
    long long n[SCN_CASE_MAX_ARGS];
    const char *oracle, *klass, *status, *note;
    const struct scn_rootcause *rc;
    int sides;                        /* outputs in the record: 1 after a fault (the reference's) */
    char side[400];
    const char *after;                /* the explained first finding a hidden miss came after (its oracle) */
    struct scn_rootcause *erc;        /* the miss's root cause, when hidden_miss reduced it already */
    char after_signature[320];
    /* from here on, set for each case as needed (not cleared: they are big) */
    struct scn_corpus_entry e;
    struct scn_expect a;              /* what the function gave, as an expectation */
    char expected[SCN_EXPECT_MAX * 4 + 64], actual[SCN_EXPECT_MAX * 4 + 64];
    unsigned char out[BIG];
};

/* The expectation oracle (oracles/expect.h) on the function's own output. */
static void judge_output(struct conform_case *k)
{
    k->ret = cert_own_output(&k->e.c, k->out, &k->len, k->n, &k->nn, &k->faulted);
    if (k->faulted) {
        k->oracle = "crash";
        k->klass = "memory-safety";
    } else {
        const struct scn_outcome o = { k->ret, k->out, k->len, k->n, k->nn };
        k->oracle = scn_expect_miss(k->x, &o, cert_is_scn);
    }
    /* what it gave, as scn-conform writes its "actual" (a fault: an error) */
    const struct scn_outcome got = { k->faulted ? -1 : k->ret, k->out, k->len, k->n, k->nn };
    scn_outcome_expect(&got, &k->a, k->actual, sizeof k->actual);
}

/* The root cause of the expectation k->oracle misses, reduced against the
 * reference (a known bug or gap of the --allow-as target explains it). */
static struct scn_rootcause *expect_rootcause(struct conform_case *k)
{
    static struct scn_rootcause erc;
    scn_rootcause_expect(&k->e.c, cert_dialect, &cert_view, cert_ref, k->oracle, &erc);
    return &erc;
}

/* Whether the certification excuses the difference rc explains: a known bug
 * or gap of the --allow-as target (inherited), or an allowance on a case
 * whose output the standard leaves to the implementation (kind impl). */
static int excused(const struct conform_case *k, const struct scn_rootcause *rc)
{
    if (!rc->rule) return 0;
    if (rc->rule->kind == SCN_RULE_ALLOWANCE) return !strcmp(k->e.kind, "impl");
    return cert_opt_allow_as != NULL;
}

/* A case's first finding (an oracle's, at some size: every case of the Linux
 * tools first fails at size 0) would hide any other bug of the case: when
 * the output the checks took at the large buffer also misses the
 * expectation, and the certification does not excuse that miss, the miss is
 * the case's result and the first finding is written beside it
 * (after_oracle, after_signature), so that the certificate names both, as
 * scn-conform's hidden_miss (programs/scn_conform.c) shows a bug behind a
 * rule's. Unlike scn-conform, the first finding need not be explained: a
 * certificate names every failure. */
static void hidden_miss(struct conform_case *k, const struct scn_report *r)
{
    struct scn_outcome o;
    const char *miss = scn_expect_report_miss(k->x, r, cert_is_scn, &o);
    /* a negative return of the scnprintf family is what the return-value oracles
     * check at every size (scn.ret-*, scn.size0-ret0): the first finding's bug, not another */
    if (!miss || (cert_is_scn && r->full_ret < 0)) return;
    /* the output as text before the reductions' calls reuse the buffers */
    scn_outcome_expect(&o, &k->a, k->actual, sizeof k->actual);
    const int ret = r->full_ret;
    const struct scn_rootcause *first = cert_oracle_rootcause(&k->e.c, &k->f, k->flags);
    const char *first_oracle = k->oracle;
    k->oracle = miss;
    struct scn_rootcause *other = expect_rootcause(k);
    if (excused(k, other)) { /* the first finding stands */
        k->oracle = first_oracle;
        k->actual[0] = 0;
        return;
    }
    k->after = first_oracle;
    snprintf(k->after_signature, sizeof k->after_signature, "%s", first->signature);
    k->erc = other;
    k->have_f = 0;
    k->klass = "conformance";
    k->ret = ret;
}

/* The verdict of the case and its root cause. */
static void verdict(struct conform_case *k)
{
    static struct scn_rootcause crc;
    k->status = "pass";
    if (k->fd) {
        k->status = "fail";
        k->oracle = k->fd == 1 ? "writes-stdout" : "writes-stderr";
        k->klass = "invariant";
        k->rc = cert_side_rootcause(&k->e.c, k->fd);
    } else if (k->have_f || (k->oracle && strncmp(k->oracle, "expect.", 7))) { /* an oracle, or a fault */
        k->status = "fail";
        if (k->have_f) k->rc = cert_oracle_rootcause(&k->e.c, &k->f, k->flags);
        else {
            cert_sign_reduced(&k->e.c, k->oracle, k->klass, NULL, NULL, &crc);
            k->rc = &crc;
        }
    } else if (k->oracle) {
        /* an expectation missed: reduced against the reference; a known
         * bug or gap of the --allow-as target explains it (inherited) */
        struct scn_rootcause *erc = k->erc ? k->erc : expect_rootcause(k);
        k->klass = erc->klass;
        cert_own_names(erc, k->oracle, 0);
        k->rc = erc;
        if (excused(k, erc) && erc->rule->kind != SCN_RULE_ALLOWANCE) {
            k->status = "known";
        } else {
            /* the corpus says whether the standard leaves this open (kind
             * impl): passed when an allowance explains the difference from the
             * reference, as scn-conform passes it (any other output of an impl
             * case is a failure: a %p printing "0" for 0x1 is not a spelling);
             * an allowance does not excuse a std expectation */
            if (excused(k, erc)) k->note = "impl-differs";
            else k->status = "fail";
            erc->rule = NULL;
            erc->klass = k->klass = "conformance";
            cert_own_names(erc, k->oracle, 0);
        }
    }
}

/* What failed, on the case's result line. */
static void failure_members(const struct conform_case *k, struct scn_result *r)
{
    const struct scn_corpus_entry *e = &k->e;
    r->expected = k->expected;
    if (k->have_f && !k->fd) {
        r->f = &k->f;
    } else {
        r->actual = k->actual;
        r->has_ret = 1;
        r->ret = k->ret;
        r->size_null = 1;
        r->klass = k->klass;
        if (k->fd) r->detail = k->side;
    }
    r->note = k->note;
    if (k->after) {
        r->after_oracle = k->after;
        r->after_signature = k->after_signature;
    }
    r->iso_matches = cert_dialect == SCN_DIALECT_KERNEL && e->iso.kind == SCN_EXPECT_OUTPUT &&
                     k->a.kind == SCN_EXPECT_OUTPUT && k->a.len == e->iso.len &&
                     !memcmp(k->a.bytes, e->iso.bytes, k->a.len) && !k->have_f;
    if (k->rc && k->rc->rule) {
        r->rule = k->rc->rule->id;
        r->rule_kind = scn_rule_kind_name(k->rc->rule->kind);
    }
    if (k->rc) {
        r->signature = k->rc->signature;
        r->finding = cert_record(k->oracle, k->rc, &e->c,
                                 k->fd ? k->side : k->have_f ? k->f.detail : "the output differs from the corpus expectation",
                                 k->have_f ? (long)k->f.size : 0, k->have_f, k->sides, &r->finding_len);
    }
}

/* The case's result line: scn-conform's (programs/result_line.h), with the
 * phase and the case's index. */
static void send_result(const struct conform_case *k)
{
    size_t n;
    const char *text = cert_case_text(&k->e.c, &n);
    struct scn_result r = scn_result_new(text, n, k->status, k->oracle);
    r.phase = "conform";
    r.index = k->i;
    r.target = scn_cert_name;
    r.category = k->e.category;
    r.kind = k->e.kind;
    if (k->oracle) failure_members(k, &r);
    r.file = cert_plan[k->i].file;
    r.line = cert_plan[k->i].line;
    r.citation = k->e.citation;
    cert_send_result(&r);
}

static void conform_case(long i)
{
    static struct conform_case k;
    memset(&k, 0, offsetof(struct conform_case, a));
    k.a.kind = SCN_EXPECT_NONE;
    k.i = i;
    cert_parse_plan(i, &k.e);
    k.x = expectation(&k.e);
    cert_publish_case(i, k.e.category, &k.e.c);
    cert_set_limits(k.x->kind == SCN_EXPECT_OUTPUT ? k.x->len : 0);
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    k.flags = SCN_CHECK_ALL_SIZES | cert_fam_flags;
    struct scn_report r;
    size_t nf = cert_check(&cert_ctx, &k.e.c, k.flags, &r);
    k.have_f = nf && strcmp(r.first.oracle, "full-too-long");
    k.klass = "conformance";
    k.actual[0] = 0;
    if (k.have_f) {
        k.f = r.first;
        k.oracle = k.f.oracle;
        k.klass = k.f.klass;
        if (!cert_fault_oracle(k.f.oracle)) hidden_miss(&k, &r);
    } else {
        judge_output(&k);
    }
    cert_check_children();
    k.fd = cert_written_since(&m);
    if (k.fd) cert_side_detail(k.fd, &m, k.side, sizeof k.side);
    scn_expect_format(k.x, k.expected, sizeof k.expected);
    /* after a fault the records show the reference only: calling the
     * function again with a big buffer could end the worker before its line */
    k.sides = (k.have_f && cert_fault_oracle(k.f.oracle)) || k.faulted ? 1 : 2;
    verdict(&k);
    send_result(&k);
    cert_check_children(); /* a fork during the reductions: a second, fatal line for this case */
    /* a fault the oracles caught may leave the function's state broken
     * (a lock held, a heap half-updated): the next case gets a fresh worker */
    if (k.faulted) cert_after_fault("crash", i + 1);
    if (k.have_f && cert_fault_oracle(k.f.oracle)) cert_after_fault(k.f.oracle, i + 1);
}

void cert_conform_body(void *arg)
{
    (void)arg;
    for (long i = cert_sh->next; i < cert_nplan; i++) {
        conform_case(i);
        cert_sh->next = i + 1;
        cert_sh->case_set = 0; /* a death from here on is not this case's */
    }
}
