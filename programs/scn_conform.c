/* scn-conform: the conformance runner.
 *
 *   scn-conform [--target NAME]... [--exec PATH [--exec-name NAME]] [--category C]...
 *               [--edge-sizes] [--every-size | --every-size-up-to N] [--fail-only] [--no-catch]
 *               [--call-limit SECONDS] [--no-isolate] [--until-new BASELINE] [--mutant-reach]
 *               FILE.tsv[:LINE]...
 *   scn-conform [--target NAME]... [--exec PATH] --case 'TEXT'...   (prints each target's output for each
 *                 case, one line a target, the cases in turn: several cases in one process)
 *   scn-conform --list-targets   (name, dialect, version, native/wrapped scnprintf, where, api, group,
 *                                 conventions: tab-separated; every group)
 *   scn-conform --list-oracles   (the oracle registry, oracles/oracles.def: name, class, stage,
 *                                 promise, what it checks: tab-separated)
 *   scn-conform --list-terms     (the terms of the rules' patterns, oracles/rule_terms.c: name, what
 *                                 it looks at, doc: tab-separated)
 *   scn-conform --features       (case lines on stdin -> {"case","features","syntax"} lines)
 *
 * --exec PATH: the executor at PATH (programs/exec/scn_exec.c built with any
 * libc's compiler driver) is a target (core/targets/executor.h; dialect ISO,
 * named by --exec-name or its banner), checked like the others; its death
 * (crash, hang) or a write outside the buffer on a case is that case's
 * failure (programs/exec/exec_check.h), and the executor is restarted.
 * Without --target, --exec is the only target; without either, the core
 * group (scn_targets(): ref, ref-kernel, glibc, musl, kernel); a matrix
 * target (a vendored printf) is checked when named. A target without a C99
 * family (api scnprintf or pointer) is checked on the scnprintf family only.
 * --category C: only the cases of category C or C.* (repeatable).
 * Isolation (conform_isolate.h): the corpus is checked in a worker process;
 * a target that kills it (a fatal signal, exit()) or stalls a call for more
 * than --call-limit seconds (default 1, as scn-certify's) fails that case with a "crash" or
 * "hang" result, reduced in children and signed, and a new worker goes on
 * with the next. --no-isolate checks in this process (a death ends the run).
 * Mutation analysis (./scnfuzz mutate, core/targets/mutant_switch.h):
 * --until-new BASELINE: BASELINE lists failing results of the unmodified
 * target, a line "FILE.tsv:LINE<TAB>TARGET<TAB>ORACLE" each (FILE as given
 * here); a failing result in it is neither reduced nor printed, and the run
 * ends after the first failing result not in it (exit 1; 0 when there is
 * none); a hang found so is signed unreduced (its reduction costs a second
 * per candidate). --mutant-reach: after each unit, the mutation points it
 * reached (env SCN_MUTANT=-1), as a line {"reach":[ids],"file","line",
 * "target","us"} (us: the unit's microseconds), when it reached any.
 * --mutant-server: mutants, one per stdin line "ID<TAB>BASELINE<TAB>FILE.tsv",
 * each checked as --until-new BASELINE FILE.tsv with SCN_MUTANT=ID checks it,
 * in a child forked from this process, which was started once: no mutant
 * pays a process start (exec, the sanitizer's start, the targets' setup),
 * and whatever a mutant changes dies with its child. After the child's
 * lines, {"mutant_end":ID,"status":S} (S: its exit status, or -SIGNAL).
 *
 * For each corpus case (docs/CASE_FORMAT.md) and each selected target whose
 * dialect has an expectation (iso for ISO targets, kernel for kernel targets;
 * '-' skips), checks every buffer size 0..len+1 (and the case's @sizes) for
 * both families with the oracles (oracles/oracle.h), then compares the full
 * output, the %n values and '!err' (negative C99 return) with the expectation.
 * One JSON line per (case, target):
 *   {"target","category","case","kind","status":"pass|fail|error","oracle",
 *    "expected","actual","ret","size","family","detail","features","file","line","citation"}
 * features: what the case uses ("%d", "length hh", "positional"; spec.h).
 * oracle is a name of the oracle registry (oracles/oracles.def).
 * An expectation without n= means no %n object was stored to (all stay 0).
 * For kind "impl" cases, a target other than ref/ref-kernel whose output
 * differs from the expectation passes with "note":"impl-differs" when an
 * allowance (oracles/allowances.tsv) explains every difference from the
 * reference's output (the differential's verdict "implementation-defined");
 * otherwise it fails as on any case (a known bug or gap then names its rule).
 * A failing result also carries "finding": the finding record of its root
 * cause (docs/FINDINGS.md), and "rule_kind" when a rule (an allowance, a
 * known bug or gap) explains it.
 * Then a summary line {"summary":{...}} (with --exec, "restarts": the
 * executor's deaths, those in reductions included). Exit 0: all pass; 1: failures or
 * errors; 2: usage or corpus parse error (one line on stderr naming file:line).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "conform_isolate.h"
#include "differential.h"
#include "exec_check.h"
#include "executor.h"
#include "expect.h"
#include "finding.h"
#include "mutant_switch.h"
#include "oracle.h"
#include "oracle_registry.h"
#include "result_line.h"
#include "rule_terms.h"
#include "rootcause.h"
#include "spec.h"
#include "supervise.h"
#include "target.h"

static int fail_only, isolate = 1, mutant_reach, mutant_server;
static unsigned check_flags = SCN_CHECK_ALL_SIZES;
static struct scn_oracle_ctx ctx;
#define N (conform_sh->n) /* the counts, in shared memory (conform_isolate.h) */

static char *json_text(const char *s, size_t n)
{
    size_t cap = n * 6 + 3;
    char *o = malloc(cap);
    if (!o) exit(3);
    scn_json_bytes((const unsigned char *)s, n, o, cap);
    return o;
}

/* actual result in the expectation's text form (expect.h, as certification writes it) */
static void actual_text(const struct scn_report *r, char *out, size_t cap)
{
    static struct scn_expect a;
    const struct scn_outcome o = { r->full_ret, r->full, r->full_len, r->n, r->nn };
    scn_outcome_expect(&o, &a, out, cap);
}

/* The features a case uses, as a JSON array (the summaries of a libc,
 * runner/scnfuzz/anylibc.py, read them; result_line.h says which):
 * with `syntax`, everything the specifications are written with
 * (--features' "syntax"). */
static const char *features_json(const struct scn_case *c, enum scn_dialect d, int syntax)
{
    return scn_features_json(c, d, syntax ? SCN_FEATURES_SYNTAX : 0);
}

static int is_reference(const struct scn_target *t)
{
    return !strcmp(t->name, "ref") || !strcmp(t->name, "ref-kernel");
}

/* the explained finding hidden_miss saw before a miss no rule explains: emit writes it
 * beside that result */
static struct {
    const char *oracle;
    char signature[320];
} after_first;
/* the root cause hidden_miss already reduced for the result emit writes next (NULL: none) */
static const struct scn_rootcause *signed_already;

/* The root cause of a failing result, as a record (finding.h). died: the
 * supervisor's root cause of a worker's death on this case (t is not called
 * again: its output is not shown). known: one hidden_miss reduced already. */
static const char *finding_json(const struct scn_target *t, const struct scn_corpus_entry *e, const char *file,
                                long line, const char *oracle, const struct scn_finding *f,
                                const struct scn_rootcause *died, const struct scn_rootcause *known,
                                const struct scn_rootcause **rcp)
{
    static struct scn_rootcause rc;
    static struct scn_case work;
    enum scn_dialect d = t->dialect;
    const struct scn_target *ref = scn_target_find(d == SCN_DIALECT_KERNEL ? "ref-kernel" : "ref");
    memcpy(&work, &e->c, sizeof work);
    if (died) memcpy(&rc, died, sizeof rc);
    else if (known) memcpy(&rc, known, sizeof rc);
    else if (f) scn_exec_rootcause_oracle(&work, d, &ctx, t, check_flags, f->oracle, f->klass, &rc);
    else scn_rootcause_expect(&work, d, t, ref, oracle, &rc);
    *rcp = &rc;
    struct scn_out_view ov[3];
    const struct scn_target *shown[2] = { t, ref && ref != t ? ref : NULL };
    const struct scn_target *const *show = died ? shown + 1 : shown;
    size_t nov = (size_t)(shown[1] != NULL) + !died;
    scn_record_outputs(show, nov, &rc.reduced, ov);
    const struct scn_expect *x = d == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
    if (!rc.steps && x->kind != SCN_EXPECT_NONE) { /* the corpus expectation, for the case as it is */
        int err = x->kind == SCN_EXPECT_ERR;
        ov[nov++] = (struct scn_out_view){ "expected", err ? -1 : (int)x->len, err, (const unsigned char *)x->bytes,
                                           err ? 0 : x->len };
    }
    static struct scn_jbuf extra;
    char t2[64];
    extra.n = 0;
    scn_jbuf_str(&extra, ",\"category\":");
    scn_jbuf_json(&extra, e->category, strlen(e->category));
    scn_jbuf_str(&extra, ",\"kind\":");
    scn_jbuf_json(&extra, e->kind, strlen(e->kind));
    scn_jbuf_str(&extra, ",\"citation\":");
    scn_jbuf_json(&extra, e->citation, strlen(e->citation));
    scn_jbuf_str(&extra, ",\"where\":");
    snprintf(t2, sizeof t2, ":%ld", line);
    static struct scn_jbuf where;
    where.n = 0;
    scn_jbuf_str(&where, file);
    scn_jbuf_str(&where, t2);
    scn_jbuf_json(&extra, where.p, where.n);
    struct scn_record r = scn_record_new("conform", "scn-conform", f ? f->oracle : oracle, &rc, &e->c, d,
                                         f ? f->detail : "the output differs from the corpus expectation");
    if (f) { /* a per-size oracle's: where it fired */
        r.target = t->name;
        r.family = scn_family_name(f->family);
        r.size = (long)f->size;
    }
    r.outs = ov;
    r.nouts = nov;
    r.extra = extra.p;
    size_t n;
    return scn_record_json(&r, &n);
}

/* --until-new: the baseline's failing results (sorted keys "FILE:LINE\tTARGET\tORACLE")
 * and, in memory the workers share, whether a new one was printed (the run ends) */
static char **baseline;
static size_t nbaseline;
static volatile int *new_failure;

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_baseline(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "scn-conform: --until-new %s: %s\n", path, strerror(errno));
        exit(2);
    }
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, fp)) >= 0) {
        if (n && line[n - 1] == '\n') line[--n] = 0;
        if (!n) continue;
        if (nbaseline == alloc) {
            alloc = alloc ? 2 * alloc : 256;
            baseline = realloc(baseline, alloc * sizeof *baseline);
        }
        if (!baseline || !(baseline[nbaseline++] = strdup(line))) exit(3);
    }
    free(line);
    fclose(fp);
    if (nbaseline) qsort(baseline, nbaseline, sizeof *baseline, key_cmp);
    new_failure = mmap(NULL, sizeof *new_failure, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (new_failure == MAP_FAILED) exit(3);
}

/* --until-new: whether a failing result is one of the baseline's */
static int in_baseline(const char *file, long line, const struct scn_target *t, const char *oracle)
{
    char key[4200];
    snprintf(key, sizeof key, "%s:%ld\t%s\t%s", file, line, t->name, oracle ? oracle : "");
    const char *k = key;
    return nbaseline && bsearch(&k, baseline, nbaseline, sizeof *baseline, key_cmp);
}

static void emit(const struct scn_target *t, const struct scn_corpus_entry *e, const char *file,
                 long line, const char *status, const char *oracle, const char *expected,
                 const char *actual, const struct scn_finding *f, const char *note, long full_ret,
                 const struct scn_rootcause *died)
{
    /* what hidden_miss left for this result, taken now whether it is written or not */
    const struct scn_rootcause *known = signed_already;
    const char *after = after_first.oracle;
    signed_already = NULL;
    after_first.oracle = NULL;
    if (fail_only && !strcmp(status, "pass")) return;
    if (new_failure && strcmp(status, "pass")) {
        if (in_baseline(file, line, t, oracle)) return;
        *new_failure = 1;
    }
    struct scn_result r = scn_result_new(e->case_text, e->case_len, status, oracle);
    r.target = t->name;
    r.category = e->category;
    r.kind = e->kind;
    r.expected = expected;
    r.actual = actual;
    r.f = f;
    if (!f && actual) { /* expectation mismatch: the large-buffer C99 call */
        r.has_ret = 1;
        r.ret = full_ret;
        r.size_null = 1;
    }
    r.note = note;
    if (after) {
        r.after_oracle = after;
        r.after_signature = after_first.signature;
    }
    r.features = features_json(&e->c, t->dialect, 0);
    if (strcmp(status, "pass")) {
        const struct scn_rootcause *rc;
        r.finding = finding_json(t, e, file, line, oracle, f, died, known, &rc);
        r.finding_len = strlen(r.finding);
        if (rc->rule) r.rule_kind = scn_rule_kind_name(rc->rule->kind);
        r.signature = rc->signature;
    }
    r.file = file;
    r.line = line;
    r.citation = e->citation;
    size_t n;
    const char *j = scn_result_json(&r, &n);
    fwrite(j, 1, n, stdout);
}

/* A kind-impl case that t prints otherwise than expected: whether the
 * allowances explain every difference between t's output and the
 * reference's (the standard leaves exactly that open). A target printing
 * what the reference prints still misses the expectation: not explained. */
static int impl_explained(const struct scn_target *t, const struct scn_corpus_entry *e, const char *oracle)
{
    enum { CAP = 1 << 16 };
    static unsigned char buf[2][CAP];
    static long long nv[2][SCN_CASE_MAX_ARGS];
    static struct scn_case work;
    const struct scn_target *pair[2] = { scn_target_find(t->dialect == SCN_DIALECT_KERNEL ? "ref-kernel" : "ref"), t };
    struct scn_diff_out outs[2];
    size_t idx[SCN_CASE_MAX_ARGS];
    if (!pair[0]) return 0;
    memcpy(&work, &e->c, sizeof work);
    size_t nn = scn_case_n_args(&work, idx, SCN_CASE_MAX_ARGS);
    for (int i = 0; i < 2; i++) {
        int r = scn_case_call_ctx(scn_target_full_call, (void *)pair[i], &work, (char *)buf[i], CAP);
        if (r >= CAP) return 0;
        for (size_t j = 0; j < nn; j++) nv[i][j] = scn_case_n_value(&work, idx[j]);
        outs[i] = (struct scn_diff_out){ pair[i], r, buf[i], r < 0 ? 0 : (size_t)r, nn, nv[i] };
    }
    if (scn_diff_agree(outs, 2)) return 0;
    struct scn_diff_finding df;
    return scn_diff_compare_as(&work, outs, 2, t->dialect, oracle, &df) == SCN_DIFF_IMPL;
}

/* A case whose first finding (an oracle's, at some size) a rule explains may
 * also miss its expectation for another reason (r's full output: read before
 * the root causes below, whose calls reuse the ctx): apr's %g writes ".125" for
 * 0.125, and every apr case first fails at size 0 (apr-size0-would-be). The
 * result is then that miss, when no rule explains it: a rule written for one
 * bug must not hide another. Returns the expectation's oracle, or NULL (the
 * first finding stands). */
static const char *hidden_miss(const struct scn_target *t, const struct scn_corpus_entry *e,
                               const struct scn_expect *x, const struct scn_report *r)
{
    struct scn_outcome o;
    const char *miss = scn_expect_report_miss(x, r, 0, &o);
    if (!miss) return NULL;
    if (!strcmp(e->kind, "impl") && !is_reference(t) && impl_explained(t, e, miss)) return NULL;
    /* each root cause reduced here once: the result's is handed to emit (signed_already) */
    static struct scn_rootcause first, other;
    static struct scn_case work;
    memcpy(&work, &e->c, sizeof work);
    scn_exec_rootcause_oracle(&work, t->dialect, &ctx, t, check_flags, r->first.oracle, r->first.klass, &first);
    signed_already = &first;
    if (!first.rule) return NULL; /* the first finding is itself unexplained: it is the result */
    const struct scn_target *ref = scn_target_find(t->dialect == SCN_DIALECT_KERNEL ? "ref-kernel" : "ref");
    memcpy(&work, &e->c, sizeof work);
    scn_rootcause_expect(&work, t->dialect, t, ref, miss, &other);
    if (other.rule) return NULL;
    after_first.oracle = r->first.oracle;
    snprintf(after_first.signature, sizeof after_first.signature, "%s", first.signature);
    signed_already = &other;
    return miss;
}

static void run_entry(const struct scn_target *t, struct scn_corpus_entry *e, const char *file, long line)
{
    const struct scn_expect *x = t->dialect == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
    if (x->kind == SCN_EXPECT_NONE) {
        N.skip++;
        return;
    }
    static char expected[SCN_EXPECT_MAX * 4 + 64], actual[SCN_EXPECT_MAX * 4 + 64];
    scn_expect_format(x, expected, sizeof expected);
    struct scn_report r;
    size_t nf = scn_exec_check_case(&ctx, t, &e->c, check_flags, &r);
    if (nf) {
        const char *status = !strcmp(r.first.oracle, "full-too-long") ? "error" : "fail";
        if (*status == 'e') N.error++;
        else N.fail++;
        actual_text(&r, actual, sizeof actual); /* before the root causes' calls reuse the ctx's output */
        const char *miss = *status == 'f' ? hidden_miss(t, e, x, &r) : NULL;
        if (miss) {
            emit(t, e, file, line, "fail", miss, expected, actual, NULL, NULL, r.full_ret, NULL);
            return;
        }
        char buf[SCN_FINDING_BYTES * 4 + 8];
        scn_quoted_format((const char *)r.first.got, r.first.got_len, buf, sizeof buf);
        emit(t, e, file, line, status, r.first.oracle, expected, buf, &r.first, NULL, r.full_ret, NULL);
        return;
    }
    actual_text(&r, actual, sizeof actual);
    const struct scn_outcome o = { r.full_ret, r.full, r.full_len, r.n, r.nn };
    const char *oracle = scn_expect_miss(x, &o, 0);
    if (!oracle) {
        N.pass++;
        emit(t, e, file, line, "pass", NULL, NULL, NULL, NULL, NULL, r.full_ret, NULL);
    } else if (!strcmp(e->kind, "impl") && !is_reference(t) && impl_explained(t, e, oracle)) {
        N.pass++;
        emit(t, e, file, line, "pass", oracle, expected, actual, NULL, "impl-differs", r.full_ret, NULL);
    } else {
        N.fail++;
        emit(t, e, file, line, "fail", oracle, expected, actual, NULL, NULL, r.full_ret, NULL);
    }
}

static const char *categories[64];
static size_t ncategories;

static int selected(const char *category)
{
    if (!ncategories) return 1;
    for (size_t i = 0; i < ncategories; i++) {
        size_t n = strlen(categories[i]);
        if (!strncmp(category, categories[i], n) && (category[n] == 0 || category[n] == '.')) return 1;
    }
    return 0;
}

/* A corpus argument FILE.tsv:LINE (a finding's "where", what its
 * reproduce line passes) runs that one line: *only gets LINE and the path
 * is cut there, when FILE.tsv:LINE is not itself a file. */
static const char *file_and_line(const char *arg, long *only, char *path, size_t cap)
{
    *only = 0;
    const char *colon = strrchr(arg, ':');
    if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) || access(arg, F_OK) == 0 ||
        (size_t)(colon - arg) >= cap)
        return arg;
    memcpy(path, arg, (size_t)(colon - arg));
    path[colon - arg] = 0;
    *only = strtol(colon + 1, NULL, 10);
    return path;
}

/* --mutant-reach: the mutation points the unit reached (mutant_switch.h) */
static void print_reach(const char *path, long line, const struct scn_target *t, uint64_t ns)
{
    static int ids[SCN_MUTANT_MAX];
    size_t n = scn_mutant_reached(ids, SCN_MUTANT_MAX);
    if (!n) return;
    printf("{\"reach\":[");
    for (size_t i = 0; i < n; i++) printf("%s%d", i ? "," : "", ids[i]);
    char *fl = json_text(path, strlen(path));
    printf("],\"file\":%s,\"line\":%ld,\"target\":\"%s\",\"us\":%llu}\n", fl, line, t->name,
           (unsigned long long)(ns / 1000));
    free(fl);
}

/* the run: its targets and corpus files, and the unit counter (conform_isolate.h) */
static const struct scn_target *ts[16];
static size_t nts;
static const char *files[1024];
static size_t nfiles;
static struct scn_corpus_entry *entry;
static long unit_seq;
static unsigned long restarts_base; /* the executor's restarts in the workers before */

/* pass 0: validate every line (exit 2 on error); pass 1: run file index fi */
static void do_file(const char *arg, int pass, size_t fi, struct scn_corpus_entry *e)
{
    char pathbuf[4096];
    long only;
    const char *path = file_and_line(arg, &only, pathbuf, sizeof pathbuf);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "scn-conform: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long ln = 0;
    char err[300];
    while ((n = getline(&line, &cap, fp)) >= 0) {
        ln++;
        if (n && line[n - 1] == '\n') n--;
        static char raw[CONFORM_TEXT_MAX]; /* the line as read: the parser cuts it */
        size_t nraw = pass && (size_t)n < sizeof raw ? (size_t)n : 0;
        memcpy(raw, line, nraw);
        int k = scn_corpus_parse_line(line, (size_t)n, e, err, sizeof err);
        if (k < 0) {
            fprintf(stderr, "scn-conform: %s:%ld: %s\n", path, ln, err);
            exit(2);
        }
        if (k == 0 || pass == 0 || !selected(e->category) || (only && ln != only)) continue;
        for (size_t i = 0; i < nts && !(new_failure && *new_failure); i++) {
            if (!conform_unit_begin(unit_seq++, (int)fi, ln, (int)i, raw, nraw,
                                    isolate && !scn_is_executor(ts[i]), i == 0))
                continue;
            uint64_t t0 = conform_now_ns();
            run_entry(ts[i], e, path, ln);
            if (scn_is_executor(ts[i])) N.restarts = restarts_base + scn_executor_restarts();
            if (mutant_reach) print_reach(path, ln, ts[i], conform_now_ns() - t0);
            conform_unit_end();
        }
        if (new_failure && *new_failure) break;
    }
    free(line);
    fclose(fp);
}

/* the worker's body: every file, its units from conform_sh->resume on */
static void check_corpus(void)
{
    unit_seq = 0;
    restarts_base = N.restarts;
    for (size_t i = 0; i < nfiles; i++) do_file(files[i], 1, i, entry);
    scn_executor_stop();
}

/* the supervisor: a worker died in the unit conform_sh names */
static void on_death(const char *oracle, const char *klass, const char *detail)
{
    char err[300], pathbuf[4096];
    long only;
    struct scn_corpus_entry *e = entry;
    const struct scn_target *t = ts[conform_sh->target];
    const char *path = file_and_line(files[conform_sh->file], &only, pathbuf, sizeof pathbuf);
    if (scn_corpus_parse_line(conform_sh->text, conform_sh->text_len, e, err, sizeof err) <= 0) {
        fprintf(stderr, "scn-conform: %s:%ld: the worker died, and the line does not parse again: %s\n", path,
                conform_sh->line, err);
        exit(3);
    }
    static struct scn_rootcause rc;
    if (new_failure && in_baseline(path, conform_sh->line, t, oracle)) return;
    if (new_failure && !strcmp(oracle, "hang")) /* signed as it is: see --until-new */
        scn_rootcause_by(&e->c, t->dialect, NULL, NULL, 0, t->name, oracle, klass, &rc);
    else
        conform_isolate_rootcause(&e->c, t->dialect, &ctx, t, check_flags, oracle, klass, &rc);
    struct scn_finding f;
    memset(&f, 0, sizeof f);
    f.oracle = oracle;
    f.klass = klass;
    f.family = SCN_FAM_C99;
    f.size = conform_sh->call_size;
    f.ret = f.expect_ret = -1;
    snprintf(f.detail, sizeof f.detail, "%s", detail);
    const struct scn_expect *x = t->dialect == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
    static char expected[SCN_EXPECT_MAX * 4 + 64];
    scn_expect_format(x, expected, sizeof expected);
    N.error += !strcmp(oracle, "hang");
    N.fail += !!strcmp(oracle, "hang");
    emit(t, e, path, conform_sh->line, "fail", oracle, expected, "", &f, NULL, -1, &rc);
}

static void usage(void)
{
    fprintf(stderr, "usage: scn-conform [--target NAME]... [--exec PATH [--exec-name NAME]] [--category C]...\n"
                    "                   [--edge-sizes] [--every-size | --every-size-up-to N] [--fail-only]\n"
                    "                   [--no-catch]\n"
                    "                   [--call-limit SECONDS] [--no-isolate] [--until-new BASELINE]\n"
                    "                   [--mutant-reach] FILE.tsv[:LINE]...\n"
                    "       scn-conform [--target NAME]... --mutant-server < 'ID<TAB>BASELINE<TAB>FILE.tsv' lines\n"
                    "       scn-conform [--target NAME]... [--exec PATH] --case 'TEXT' [--case 'TEXT']...\n"
                    "       scn-conform --list-targets\n"
                    "       scn-conform --list-oracles\n"
                    "       scn-conform --list-terms\n"
                    "       scn-conform --features < CASES\n");
    exit(2);
}

/* --features: a case per line on stdin -> {"case":"...","features":[...],"syntax":[...]} */
static int features_of_stdin(void)
{
    static struct scn_case c;
    char *line = NULL, err[300];
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n && line[n - 1] == '\n') line[--n] = 0;
        char *cs = json_text(line, (size_t)n);
        int ok = scn_case_parse(line, (size_t)n, &c, err, sizeof err) == 0;
        printf("{\"case\":%s,\"features\":%s", cs, ok ? features_json(&c, SCN_DIALECT_ISO, 0) : "[]");
        printf(",\"syntax\":%s}\n", ok ? features_json(&c, SCN_DIALECT_ISO, 1) : "[]");
        free(cs);
    }
    free(line);
    return 0;
}

/* --case: the case, checked on each target (a unit each, so that a target
 * that dies on it is its own failing result) */
static struct scn_case one;

static void one_case_body(void)
{
    for (size_t i = 0; i < nts; i++) {
        if (!conform_unit_begin((long)i, 0, 0, (int)i, "", 0, isolate && !scn_is_executor(ts[i]), 0)) continue;
        struct scn_report r;
        size_t nf = scn_exec_check_case(&ctx, ts[i], &one, check_flags, &r);
        static char actual[SCN_EXPECT_MAX * 4 + 64], f[4096];
        actual_text(&r, actual, sizeof actual);
        char *a = json_text(actual, strlen(actual));
        printf("{\"target\":\"%s\",\"status\":\"%s\",\"actual\":%s", ts[i]->name, nf ? "fail" : "pass", a);
        free(a);
        if (nf) {
            scn_finding_json(&r.first, f, sizeof f);
            printf(",\"finding\":%s", f);
            N.fail++;
        }
        printf("}\n");
        conform_unit_end();
    }
    scn_executor_stop();
}

/* the target died on the case: no output ("actual" null) */
static void one_case_death(const char *oracle, const char *klass, const char *detail)
{
    struct scn_finding f;
    memset(&f, 0, sizeof f);
    f.oracle = oracle;
    f.klass = klass;
    f.size = conform_sh->call_size;
    f.ret = f.expect_ret = -1;
    snprintf(f.detail, sizeof f.detail, "%s", detail);
    static char fj[4096];
    scn_finding_json(&f, fj, sizeof fj);
    printf("{\"target\":\"%s\",\"status\":\"fail\",\"actual\":null,\"finding\":%s}\n",
           ts[conform_sh->target]->name, fj);
    N.fail++;
}

static int one_case(const char *text, double call_limit)
{
    char err[300];
    if (scn_case_parse(text, strlen(text), &one, err, sizeof err)) {
        fprintf(stderr, "scn-conform: --case: %s\n", err);
        return 2;
    }
    if (isolate) conform_isolate_run(one_case_body, one_case_death, call_limit);
    else one_case_body();
    fflush(stdout); /* a later case's worker must not repeat this one's buffered lines */
    return N.fail != 0;
}

/* Each --case in turn (a bad one ends the run, status 2). */
static int some_cases(const char *const *texts, int n, double call_limit)
{
    int rc = 0;
    for (int i = 0; i < n; i++) {
        int r = one_case(texts[i], call_limit);
        if (r == 2) return 2;
        rc |= r;
    }
    return rc;
}

/* --list-targets: name, dialect, version, native/wrapped scnprintf, where,
 * api, group, conventions (tab-separated; every group) */
static int list_targets(void)
{
    for (const struct scn_target *const *p = scn_targets_all(); *p; p++)
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", (*p)->name, (*p)->dialect == SCN_DIALECT_KERNEL ? "kernel" : "iso",
               (*p)->version ? (*p)->version() : "", (*p)->vscnprintf ? "native" : "wrapped",
               (*p)->where ? (*p)->where : "in-process", scn_api_name((*p)->api), scn_group_name((*p)->group),
               scn_target_conventions(*p));
    return 0;
}

/* the last line: the counts, the time and the targets checked */
static void print_summary(double secs, int executor)
{
    printf("{\"summary\":{\"cases\":%lu,\"results\":%lu,\"pass\":%lu,\"fail\":%lu,\"error\":%lu,"
           "\"skipped\":%lu,\"seconds\":%.3f,\"targets\":[",
           N.cases, N.pass + N.fail + N.error, N.pass, N.fail, N.error, N.skip, secs);
    for (size_t i = 0; i < nts; i++) {
        char *v = json_text(ts[i]->version ? ts[i]->version() : "", ts[i]->version ? strlen(ts[i]->version()) : 0);
        printf("%s{\"name\":\"%s\",\"dialect\":\"%s\",\"version\":%s}", i ? "," : "", ts[i]->name,
               ts[i]->dialect == SCN_DIALECT_KERNEL ? "kernel" : "iso", v);
        free(v);
    }
    printf("]");
    if (executor) /* the executor's deaths (crashes, hangs), reductions included */
        printf(",\"restarts\":%lu", N.restarts);
    printf("}}\n");
}

/* The corpus files given: validated, checked (isolated unless --no-isolate),
 * the summary printed; the exit code. */
static int check_files(double call_limit, int executor)
{
    struct scn_corpus_entry *e = entry = malloc(sizeof *e);
    if (!e) return 3;
    for (size_t i = 0; i < nfiles; i++) do_file(files[i], 0, i, e);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (isolate) conform_isolate_run(check_corpus, on_death, call_limit);
    else check_corpus();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_summary((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, executor);
    free(e);
    if (new_failure) return *new_failure;
    return (N.fail || N.error) ? 1 : 0;
}

/* --mutant-server: one mutant per stdin line, each in a child of this process
 * started and watched by the one supervisor (core/supervise; no deadline:
 * the mutant's own cases are isolated and timed inside it); the counters and
 * the --until-new state are the child's own. */
struct mutant_job { long id; const char *baseline, *file; double call_limit; };

static long run_mutant(void *arg)
{
    const struct mutant_job *j = arg;
    scn_mutant = (int)j->id;
    if (conform_isolate_init()) return 3;
    load_baseline(j->baseline);
    files[0] = j->file;
    nfiles = 1;
    int rc = check_files(j->call_limit, 0);
    fflush(stdout);
    return rc;
}

static int serve_mutants(double call_limit)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n && line[n - 1] == '\n') line[--n] = 0;
        char *end, *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        long id = strtol(line, &end, 10);
        if (!tab2 || end != tab1 || id < 0 || id >= SCN_MUTANT_MAX) {
            fprintf(stderr, "scn-conform: --mutant-server: not 'ID<TAB>BASELINE<TAB>FILE.tsv': %s\n", line);
            free(line);
            return 2;
        }
        *tab1 = *tab2 = 0;
        struct mutant_job job = { id, tab1 + 1, tab2 + 1, call_limit };
        struct scn_sup_child ch;
        if (scn_sup_spawn(&ch, NULL, run_mutant, &job)) {
            perror("scn-conform: fork");
            return 3;
        }
        struct scn_sup_end e;
        scn_sup_wait(&ch, NULL, &e);
        int status = e.kind == SCN_SUP_OK ? (int)e.value : e.kind == SCN_SUP_SIGNAL ? -e.code : e.code;
        printf("{\"mutant_end\":%ld,\"status\":%d}\n", id, status);
        fflush(stdout);
    }
    free(line);
    return 0;
}

int main(int argc, char **argv)
{
    double call_limit = 1;
    const char *case_texts[4096], *exec_path = NULL, *exec_name = NULL;
    int ncases = 0;
    int catch = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--target")) {
            if (++i >= argc) usage();
            const struct scn_target *t = scn_target_find(argv[i]);
            if (!t) {
                fprintf(stderr, "scn-conform: unknown target '%s' (compiled in:", argv[i]);
                for (const struct scn_target *const *p = scn_targets_all(); *p; p++)
                    fprintf(stderr, " %s", (*p)->name);
                fprintf(stderr, ")\n");
                return 2;
            }
            if (nts < 16) ts[nts++] = t;
        } else if (!strcmp(a, "--edge-sizes")) {
            check_flags &= ~(unsigned)SCN_CHECK_ALL_SIZES;
        } else if (!strcmp(a, "--fail-only")) {
            fail_only = 1;
        } else if (!strcmp(a, "--every-size")) {
            /* every size 0..len+1 also for long outputs (slow for long floats) */
            scn_oracle_set_all_sizes_max(SIZE_MAX);
        } else if (!strcmp(a, "--every-size-up-to")) {
            /* every size for outputs of up to N bytes; a longer one at its
             * first and last sizes and evenly between (oracle.c): checking
             * each of a 32 KiB output's sizes costs its length squared */
            char *end;
            if (i + 1 >= argc) usage();
            unsigned long long n = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i]) {
                fprintf(stderr, "scn-conform: --every-size-up-to %s: expected a number of bytes\n", argv[i]);
                return 2;
            }
            scn_oracle_set_all_sizes_max((size_t)n + 2);
        } else if (!strcmp(a, "--no-catch")) {
            catch = 0;
        } else if (!strcmp(a, "--no-isolate")) {
            isolate = 0;
        } else if (!strcmp(a, "--mutant-reach")) {
            mutant_reach = 1;
        } else if (!strcmp(a, "--mutant-server")) {
            mutant_server = 1;
        } else if (!strcmp(a, "--until-new")) {
            if (++i >= argc) usage();
            load_baseline(argv[i]);
        } else if (!strcmp(a, "--call-limit")) {
            char *end;
            if (++i >= argc || (call_limit = strtod(argv[i], &end)) <= 0 || *end) {
                fprintf(stderr, "scn-conform: --call-limit takes a number of seconds > 0\n");
                return 2;
            }
        } else if (!strcmp(a, "--exec") || !strcmp(a, "--exec-name") || !strcmp(a, "--category")) {
            if (++i >= argc) usage();
            if (a[2] == 'c') {
                if (ncategories < 64) categories[ncategories++] = argv[i];
            } else {
                *(a[6] ? &exec_name : &exec_path) = argv[i];
            }
        } else if (!strcmp(a, "--features")) {
            return features_of_stdin();
        } else if (!strcmp(a, "--case")) {
            if (++i >= argc) usage();
            if (ncases == (int)(sizeof case_texts / sizeof *case_texts)) {
                fprintf(stderr, "scn-conform: more than %d --case\n", ncases);
                return 2;
            }
            case_texts[ncases++] = argv[i];
        } else if (!strcmp(a, "--list-targets")) {
            return list_targets();
        } else if (!strcmp(a, "--list-oracles")) {
            scn_oracles_print();
            return 0;
        } else if (!strcmp(a, "--list-terms")) {
            scn_terms_print();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "scn-conform: unknown option '%s'\n", a);
            usage();
        } else if (nfiles < 1024) {
            files[nfiles++] = a;
        }
    }
    if (exec_path) {
        char err[300];
        const struct scn_target *t = scn_executor_target(exec_path, exec_name, err, sizeof err);
        if (!t) {
            fprintf(stderr, "scn-conform: --exec: %s\n", err);
            return 2;
        }
        if (nts < 16) ts[nts++] = t;
    }
    if (!nts)
        for (const struct scn_target *const *p = scn_targets(); *p && nts < 16; p++) ts[nts++] = *p;
    scn_oracle_set_catch_faults(catch);
    if (scn_oracle_init(&ctx) || conform_isolate_init()) {
        fprintf(stderr, "scn-conform: cannot map the guarded buffer or the shared state\n");
        return 2;
    }
    if (exec_path) scn_executor_stop(); /* started to check it starts; each worker starts its own */
    if (ncases) return some_cases(case_texts, ncases, call_limit);
    if (mutant_server) return serve_mutants(call_limit);
    if (!nfiles) usage();
    int rc = check_files(call_limit, exec_path != NULL);
    scn_oracle_fini(&ctx);
    return rc;
}
