/* scn-certify: phase conform: every case of the corpus in the claimed
 * categories with an expectation in the dialect's column, every size. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_state.h"
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
            if (!(cert_plan = realloc(cert_plan, (size_t)(cert_nplan + 1) * sizeof *cert_plan)) ||
                !(cert_plan[cert_nplan].text = strdup(l)))
                abort();
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

static void conform_case(long i)
{
    static struct scn_corpus_entry e;
    static struct scn_expect a;
    static char expected[SCN_EXPECT_MAX * 4 + 64], actual[SCN_EXPECT_MAX * 4 + 64];
    static unsigned char out[BIG];
    cert_parse_plan(i, &e);
    const struct scn_expect *x = expectation(&e);
    cert_publish_case(i, e.category, &e.c);
    cert_set_limits(x->kind == SCN_EXPECT_OUTPUT ? x->len : 0);
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    unsigned flags = SCN_CHECK_ALL_SIZES | cert_fam_flags;
    struct scn_report r;
    size_t nf = cert_check(&cert_ctx, &e.c, flags, &r);
    static struct scn_finding f;
    int have_f = nf && strcmp(r.first.oracle, "full-too-long");
    if (have_f) f = r.first;
    long long n[SCN_CASE_MAX_ARGS];
    size_t len = 0, nn = 0;
    int faulted = 0, ret = 0;
    const char *oracle = have_f ? f.oracle : NULL, *klass = have_f ? f.klass : "conformance";
    if (!have_f) ret = cert_own_output(&e.c, out, &len, n, &nn, &faulted);
    cert_check_children();
    int fd = cert_written_since(&m);
    char side[400] = "";
    if (fd) cert_side_detail(fd, &m, side, sizeof side);
    scn_expect_format(x, expected, sizeof expected);
    actual[0] = 0;
    if (!have_f) {
        if (faulted) {
            oracle = "crash";
            klass = "memory-safety";
        } else if (x->kind == SCN_EXPECT_ERR) {
            /* C99 kinds: a negative return; scn kinds: 0 and "" (the error is not passed through) */
            if (cert_is_scn ? (ret != 0 || len != 0) : ret >= 0) oracle = "expect.err";
        } else if (ret < 0 || len != x->len || memcmp(out, x->bytes, len) || (size_t)ret != len) {
            oracle = "expect.output";
        } else if (x->nn == 0) {
            for (size_t j = 0; j < nn; j++)
                if (n[j]) oracle = "expect.n";
        } else if (nn != x->nn || memcmp(n, x->n, sizeof(long long) * nn)) {
            oracle = "expect.n";
        }
        if (ret < 0 || faulted) {
            a.kind = SCN_EXPECT_ERR;
        } else {
            a.kind = SCN_EXPECT_OUTPUT;
            a.len = len;
            memcpy(a.bytes, out, len);
            a.nn = nn;
            memcpy(a.n, n, sizeof(long long) * nn);
        }
        scn_expect_format(&a, actual, sizeof actual);
    }
    /* the verdict of the case and its root cause */
    const char *status = "pass", *note = NULL;
    const struct scn_rootcause *rc = NULL;
    static struct scn_rootcause erc;
    /* after a fault the records show the reference only: calling the
     * function again with a big buffer could end the worker before its line */
    int sides = (have_f && cert_fault_oracle(f.oracle)) || faulted ? 1 : 2;
    if (fd) {
        status = "fail";
        oracle = fd == 1 ? "writes-stdout" : "writes-stderr";
        klass = "invariant";
        rc = cert_side_rootcause(&e.c, fd);
    } else if (have_f || (oracle && strncmp(oracle, "expect.", 7))) { /* an oracle, or a fault */
        status = "fail";
        if (have_f) rc = cert_oracle_rootcause(&e.c, &f, flags);
        else {
            static struct scn_rootcause crc;
            cert_sign_reduced(&e.c, oracle, klass, NULL, NULL, &crc);
            rc = &crc;
        }
    } else if (oracle) {
        /* an expectation missed: reduced against the reference; a known
         * bug or gap of the --allow-as target explains it (inherited) */
        scn_rootcause_expect(&e.c, cert_dialect, &cert_view, cert_ref, oracle, &erc);
        klass = erc.klass;
        cert_own_names(&erc, oracle, 0);
        rc = &erc;
        if (erc.rule && erc.rule->kind != SCN_RULE_ALLOWANCE && cert_opt_allow_as) {
            status = "known";
        } else {
            /* the corpus says whether the standard leaves this open (kind
             * impl); an allowance does not excuse a std expectation */
            if (!strcmp(e.kind, "impl")) note = "impl-differs";
            else status = "fail";
            erc.rule = NULL;
            erc.klass = klass = "conformance";
            cert_own_names(&erc, oracle, 0);
        }
    }
    cert_begin();
    cert_jstr("phase", "conform");
    cert_jnum("index", i);
    cert_jstr("target", scn_cert_name);
    cert_jstr("category", e.category);
    cert_jcase("case", &e.c);
    cert_jstr("kind", e.kind);
    cert_jstr("status", status);
    cert_jstr("oracle", oracle);
    if (oracle) {
        cert_jstr("class", klass);
        cert_jstr("expected", expected);
        if (have_f && !fd) {
            cert_jnum("ret", f.ret);
            cert_jnum("size", (long long)f.size);
            cert_jstr("family", scn_family_name(f.family));
            cert_jstr("detail", f.detail);
        } else {
            cert_jstr("actual", actual);
            cert_jnum("ret", ret);
            cert_jraw("size", "null");
            if (fd) cert_jstr("detail", side);
        }
        if (note) cert_jstr("note", note);
        if (cert_dialect == SCN_DIALECT_KERNEL && e.iso.kind == SCN_EXPECT_OUTPUT && a.kind == SCN_EXPECT_OUTPUT &&
            a.len == e.iso.len && !memcmp(a.bytes, e.iso.bytes, a.len) && !have_f)
            cert_jraw("iso_matches", "true"); /* the dialect, not the function, may be what is wrong */
        if (rc && rc->rule) {
            cert_jstr("rule", rc->rule->id);
            cert_jstr("rule_kind", scn_rule_kind_name(rc->rule->kind));
        }
        if (rc) {
            cert_jstr("signature", rc->signature);
            cert_jrecord(oracle, rc, &e.c, fd ? side : have_f ? f.detail : "the output differs from the corpus expectation",
                         have_f ? (long)f.size : 0, have_f, sides);
        }
    }
    char where[600];
    snprintf(where, sizeof where, "%s", cert_plan[i].file);
    cert_jstr("file", where);
    cert_jnum("line", cert_plan[i].line);
    cert_jstr("citation", e.citation);
    cert_send();
    cert_check_children(); /* a fork during the reductions: a second, fatal line for this case */
    /* a fault the oracles caught may leave the function's state broken
     * (a lock held, a heap half-updated): the next case gets a fresh worker */
    if (faulted) cert_after_fault("crash", i + 1);
    if (have_f && cert_fault_oracle(f.oracle)) cert_after_fault(f.oracle, i + 1);
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
