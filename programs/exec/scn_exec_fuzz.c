/* scn-exec-fuzz: a differential campaign against a libc in its executor.
 *
 *   scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]
 *
 * Runs the executor (programs/exec/scn_exec.c, any libc) as a child and sees
 * it as a struct scn_target whose vsnprintf is one protocol-1 round trip:
 * the case (found from the format pointer: scn_case_call always passes
 * c->fmt) is sent with @size, the answer's bytes, return value and %n
 * values are put back. So the project's oracles (edge sizes, C99 family)
 * and the differential oracle against the reference (with localisation of
 * the culprit specification and the allowances table) run unchanged.
 * Random fuzzer bytes -> scn_case_from_bytes (ISO dialect).
 *
 * Output: one finding record (docs/FINDINGS.md) per new localised finding,
 * reduced to its root cause through the executor, then {"stats":{...}}.
 * An executor crash or hang is a finding ("crash"/"hang"); the executor is
 * restarted and the campaign goes on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "differential.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "target.h"

extern const struct scn_target scn_target_ref;

static const char *exe_path;
static pid_t child = -1;
static FILE *to_child, *from_child;
static int exec_died;      /* the last call killed the executor */
static char death[64];
static int exec_overrun;   /* the last call wrote outside its buffer (executor's guard) */
static unsigned long restarts;
static int overrun_case;   /* some call of this case wrote outside its buffer */

static void stop_child(void)
{
    if (child > 0) {
        if (to_child) fclose(to_child);
        if (from_child) fclose(from_child);
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    child = -1;
    to_child = from_child = NULL;
}

static void start_child(void)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out)) exit(3);
    child = fork();
    if (child < 0) exit(3);
    if (child == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        /* the executor dies with this campaign, and runs under the memory limit
         * scnfuzz gives its children (env SCN_CHILD_MEM_MB, default 1024 MiB;
         * this process is ASan-built and cannot carry RLIMIT_AS itself) */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        const char *mem = getenv("SCN_CHILD_MEM_MB");
        unsigned long mb = mem && *mem ? strtoul(mem, NULL, 10) : 1024;
        if (mb) {
            struct rlimit rl = { (rlim_t)mb << 20, (rlim_t)mb << 20 };
            setrlimit(RLIMIT_AS, &rl);
        }
        setenv("SCN_EXEC_TIMEOUT", "5", 1);
        execl(exe_path, exe_path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_child = fdopen(in[1], "w");
    from_child = fdopen(out[0], "r");
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, from_child) < 0 || strncmp(line, "scn-exec ", 9)) {
        fprintf(stderr, "scn-exec-fuzz: %s did not start\n", exe_path);
        exit(2);
    }
    free(line);
}

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

static void set_n(struct scn_case *c, size_t i, long long v)
{
    switch (c->args[i].ntype) {
    case SCN_N_SCHAR: c->nslot[i].hh = (signed char)v; break;
    case SCN_N_SHORT: c->nslot[i].h = (short)v; break;
    case SCN_N_LONG: c->nslot[i].l = (long)v; break;
    case SCN_N_LLONG: c->nslot[i].ll = v; break;
    case SCN_N_INTMAX: c->nslot[i].j = v; break;
    case SCN_N_SIZE: c->nslot[i].z = (size_t)v; break;
    case SCN_N_PTRDIFF: c->nslot[i].t = (ptrdiff_t)v; break;
    default: c->nslot[i].i = (int)v; break;
    }
}

static char line_buf[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 8192];

/* the libc's vsnprintf, one round trip */
static int exec_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)ap;
    struct scn_case *c = case_of(fmt);
    size_t keep_n = c->nsizes, keep0 = c->sizes[0];
    c->nsizes = 1;
    c->sizes[0] = size;
    scn_case_format(c, line_buf, sizeof line_buf);
    c->nsizes = keep_n;
    c->sizes[0] = keep0;
    exec_died = 0;
    exec_overrun = 0;
    if (child < 0) start_child();
    fputc('#', to_child); /* raw answers: buf[0..min(ret, size-1)] exactly */
    fputs(line_buf, to_child);
    fputc('\n', to_child);
    fflush(to_child);
    char *ans = NULL;
    size_t cap = 0;
    int ret = -1, got = 0;
    for (;;) {
        ssize_t n = getline(&ans, &cap, from_child);
        if (n < 0) {
            if (!exec_died) {
                exec_died = 1;
                snprintf(death, sizeof death, "crash (no answer)");
            }
            break;
        }
        if (n && ans[n - 1] == '\n') ans[--n] = '\0';
        if (!strcmp(ans, ".")) break;
        if (ans[0] == '!') {
            exec_died = strstr(ans, "crash") || strstr(ans, "hang");
            snprintf(death, sizeof death, "%s", ans + 2);
            continue;
        }
        if (ans[0] != '=' || got) continue;
        got = 1;
        char *p = ans + 2;
        strtoull(p, &p, 10);
        ret = (int)strtol(p, &p, 10);
        if (*p == ' ') p++;
        char err[128];
        size_t len = 0;
        static char bytes[65536 + 8];
        long used = scn_quoted_parse(p, strlen(p), 0, bytes, sizeof bytes - 1, &len, err, sizeof err);
        if (used < 0) len = 0;
        if (size && used >= 0) memcpy(buf, bytes, len < size ? len : size);
        p += used < 0 ? 0 : used;
        char *nn = strstr(p, " n=");
        if (nn) {
            size_t idx[SCN_CASE_MAX_ARGS];
            size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
            char *q = nn + 3;
            for (size_t i = 0; i < k; i++) {
                set_n(c, idx[i], strtoll(q, &q, 10));
                if (*q == ',') q++;
            }
        }
        if (strstr(p, " overrun")) exec_overrun = overrun_case = 1;
    }
    free(ans);
    if (exec_died) {
        stop_child();
        restarts++;
        return -1;
    }
    return ret;
}

static const char *libc_version(void) { return "executor"; }
static struct scn_target libc_t = { "libc", libc_version, SCN_DIALECT_ISO, exec_vsnprintf, NULL, "executor" };

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define MAXSIG 200
static size_t nsigs;
static unsigned long n_bug, n_impl;

/* 1 the first time this process meets a (localised) finding */
static int first_meeting(const char *key)
{
    if (!scn_seen_first(key)) return 0;
    nsigs++;
    return 1;
}

/* What kills or overruns the executor: reduced while it still does. */
struct fault_still {
    struct scn_oracle_ctx *x;
    int overrun; /* 1: an overrun, 0: a death */
};

static int fault_still(struct scn_case *cand, void *vctx)
{
    const struct fault_still *k = vctx;
    struct scn_report r;
    overrun_case = 0;
    scn_check_case(k->x, &libc_t, cand, SCN_CHECK_NO_SCN | SCN_CHECK_NO_REPEAT, &r);
    return k->overrun ? overrun_case && !exec_died : exec_died;
}

static void emit(const struct scn_case *c, const char *oracle, const struct scn_rootcause *rc, const char *detail,
                 unsigned long execs)
{
    static struct scn_case shown;
    memcpy(&shown, &rc->reduced, sizeof shown);
    shown.nsizes = 0;
    const struct scn_target *t[2] = { &scn_target_ref, &libc_t };
    struct scn_out_view ov[2];
    scn_record_outputs(t, 2, &shown, ov);
    struct scn_record r = { "exec", "scn-exec-fuzz", oracle, rc, c, SCN_DIALECT_ISO, detail, NULL, NULL, 0,
                            (long long)execs, ov, 2, NULL };
    if (scn_record_write(1, &r)) exit(2);
}

/* Signs a finding reduced by pred (or as it is when pred is NULL). */
static void sign(const struct scn_case *c, const char *oracle, const char *klass, scn_still_fn pred, void *ctx,
                 struct scn_rootcause *rc)
{
    memcpy(&rc->reduced, c, sizeof *c);
    rc->steps = pred ? scn_reduce(&rc->reduced, SCN_DIALECT_ISO, pred, ctx, SCN_REDUCE_BUDGET) : 0;
    rc->rule = scn_rootcause_known(&rc->reduced, SCN_DIALECT_ISO, libc_t.name);
    rc->klass = rc->rule ? scn_rule_classification(rc->rule->kind) : klass;
    snprintf(rc->targets, sizeof rc->targets, "%s", libc_t.name);
    scn_rootcause_sign(rc, oracle, SCN_DIALECT_ISO);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    exe_path = argv[1];
    double seconds = atof(argv[2]);
    rng = strtoull(argv[3], NULL, 0) | 1;
    libc_t.name = argv[4];
    unsigned flags = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 0) : 0;
    static struct scn_oracle_ctx x;
    if (scn_oracle_init(&x)) return 2;
    start_child();
    static struct scn_case c;
    static unsigned char a[65536], b[65536];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long execs = 0;
    uint8_t in[160];
    for (;; execs++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
        if (el >= seconds || nsigs >= MAXSIG) break;
        size_t n = 1 + rnd() % sizeof in;
        for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        scn_case_from_bytes(in, n, &c, SCN_DIALECT_ISO, flags);
        /* the C99 family's oracles at the edge sizes, through the executor */
        struct scn_report r;
        overrun_case = 0;
        size_t nf = scn_check_case(&x, &libc_t, &c, SCN_CHECK_NO_SCN | SCN_CHECK_NO_REPEAT, &r);
        static struct scn_rootcause rc;
        if (overrun_case && !exec_died) {
            if (first_meeting("overrun")) {
                n_bug++;
                struct fault_still k = { &x, 1 };
                sign(&c, "overrun", "memory-safety", fault_still, &k, &rc);
                emit(&c, "overrun", &rc, "the executor's guard bytes around the buffer changed", execs);
            }
            continue;
        }
        if (exec_died) {
            const char *what = strncmp(death, "hang", 4) ? "crash" : "hang";
            char why[sizeof death];
            snprintf(why, sizeof why, "%s", death);
            if (first_meeting(what)) {
                n_bug++;
                struct fault_still k = { &x, 0 };
                sign(&c, what, what, fault_still, &k, &rc);
                emit(&c, what, &rc, why, execs);
            }
            continue;
        }
        if (nf && strcmp(r.first.oracle, "full-too-long")) {
            char key[200];
            snprintf(key, sizeof key, "%s:%s", r.first.oracle, libc_t.name);
            if (first_meeting(key)) {
                n_bug++;
                scn_rootcause_oracle(&c, SCN_DIALECT_ISO, &x, &libc_t, SCN_CHECK_NO_SCN | SCN_CHECK_NO_REPEAT,
                                     r.first.oracle, r.first.klass, &rc);
                emit(&c, r.first.oracle, &rc, r.first.detail, execs);
            }
            continue;
        }
        /* the differential against the reference */
        int ra = 0, rb, in_guard;
        char *buf;
        if (scn_oracle_call(&x, &scn_target_ref, SCN_FAM_C99, &c, sizeof a, 0, &ra, &buf, &in_guard)) continue;
        size_t la = ra < 0 ? 0 : (size_t)ra < sizeof a ? (size_t)ra : strnlen(buf, sizeof a);
        memcpy(a, buf, la);
        size_t idx[SCN_CASE_MAX_ARGS], nn = scn_case_n_args(&c, idx, SCN_CASE_MAX_ARGS);
        for (size_t i = 0; i < nn; i++) na[i] = scn_case_n_value(&c, idx[i]);
        if (scn_oracle_call(&x, &libc_t, SCN_FAM_C99, &c, sizeof b, 0, &rb, &buf, &in_guard) || exec_died) continue;
        size_t lb = rb < 0 ? 0 : (size_t)rb < sizeof b ? (size_t)rb : strnlen(buf, sizeof b);
        memcpy(b, buf, lb);
        for (size_t i = 0; i < nn; i++) nb[i] = scn_case_n_value(&c, idx[i]);
        struct scn_diff_out outs[2] = { { &scn_target_ref, ra, a, la, nn, na }, { &libc_t, rb, b, lb, nn, nb } };
        struct scn_diff_finding df;
        enum scn_diff_verdict v = scn_diff_compare(&c, outs, 2, SCN_DIALECT_ISO, &df);
        if (v == SCN_DIFF_AGREE) continue;
        char key[sizeof df.key + 32];
        snprintf(key, sizeof key, "%s:%s", df.key, df.klass);
        if (!first_meeting(key)) continue;
        if (v == SCN_DIFF_DIVERGENCE) n_bug++;
        else n_impl++;
        scn_rootcause_diff(&c, SCN_DIALECT_ISO, &scn_target_ref, &libc_t, &df, &rc);
        emit(&c, SCN_DIFF_ORACLE, &rc, df.detail, execs);
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
    printf("{\"stats\":{\"executions\":%lu,\"seconds\":%.3f,\"bugs\":%lu,\"implementation_defined\":%lu,"
           "\"restarts\":%lu,\"signatures\":%zu}}\n", execs, el, n_bug, n_impl, restarts, nsigs);
    stop_child();
    return 0;
}
