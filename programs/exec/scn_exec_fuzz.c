/* scn-exec-fuzz: a differential campaign against a libc in its executor.
 *
 *   scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]
 *
 * The executor (programs/exec/scn_exec.c, any libc) is a target of the
 * checking library (core/targets/executor.h), so the project's oracles (edge
 * sizes, C99 family) and the differential oracle against the reference (with
 * localisation of the culprit specification and the allowances table) run
 * on it unchanged, on random fuzzer bytes (scn_case_from_bytes, ISO).
 *
 * Output: one finding record (docs/FINDINGS.md) per new localised finding,
 * reduced to its root cause through the executor, then {"stats":{...}}.
 * An executor crash or hang, or a write outside the buffer, is a finding
 * (exec_check.h); the executor is restarted and the campaign goes on.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "differential.h"
#include "exec_check.h"
#include "executor.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "step.h"
#include "supervise.h"
#include "target.h"

extern const struct scn_target scn_target_ref;

static const struct scn_target *libc_t;

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

static void emit(const struct scn_case *c, const char *oracle, const struct scn_rootcause *rc, const char *detail,
                 unsigned long execs)
{
    static struct scn_case shown;
    memcpy(&shown, &rc->reduced, sizeof shown);
    shown.nsizes = 0;
    const struct scn_target *t[2] = { &scn_target_ref, libc_t };
    struct scn_out_view ov[2];
    scn_record_outputs(t, 2, &shown, ov);
    struct scn_record r = scn_record_new("exec", "scn-exec-fuzz", oracle, rc, c, SCN_DIALECT_ISO, detail);
    r.execs = (long long)execs;
    r.outs = ov;
    r.nouts = 2;
    if (scn_record_write(1, &r)) exit(2);
}

#define FLAGS (SCN_CHECK_NO_SCN | SCN_CHECK_NO_REPEAT)

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]\n");
        return 2;
    }
    if (!getenv("SCN_EXEC_TIMEOUT")) setenv("SCN_EXEC_TIMEOUT", "5", 1);
    char err[300];
    libc_t = scn_executor_target(argv[1], argv[4], err, sizeof err);
    if (!libc_t) {
        fprintf(stderr, "scn-exec-fuzz: %s\n", err);
        return 2;
    }
    double seconds = atof(argv[2]);
    rng = strtoull(argv[3], NULL, 0) | 1;
    unsigned flags = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 0) : 0;
    static struct scn_oracle_ctx x;
    if (scn_oracle_init(&x)) return 2;
    static struct scn_case c;
    static unsigned char a[65536], b[65536];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    uint64_t t0 = scn_now_ns(); /* the campaign's time on the one clock */
    unsigned long execs = 0;
    uint8_t in[160];
    for (;; execs++) {
        double el = (double)(scn_now_ns() - t0) / 1e9;
        if (el >= seconds || nsigs >= MAXSIG) break;
        size_t n = 1 + rnd() % sizeof in;
        for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        scn_case_from_bytes(in, n, &c, SCN_DIALECT_ISO, flags);
        /* the C99 family's oracles at the edge sizes, and the executor's faults */
        struct scn_report r;
        size_t nf = scn_exec_check_case(&x, libc_t, &c, FLAGS, &r);
        static struct scn_rootcause rc;
        if (nf && strcmp(r.first.oracle, "full-too-long")) {
            /* a fault is one root cause per kind; an oracle one per oracle */
            const char *o = r.first.oracle;
            int fault = !strcmp(o, "crash") || !strcmp(o, "hang") || !strcmp(o, "overrun") ||
                        !strcmp(o, "size0-untouched");
            char key[200];
            snprintf(key, sizeof key, "%s:%s", o, fault ? "executor" : libc_t->name);
            if (first_meeting(key)) {
                n_bug++;
                scn_exec_rootcause_oracle(&c, SCN_DIALECT_ISO, &x, libc_t, FLAGS, o, r.first.klass, &rc);
                emit(&c, o, &rc, r.first.detail, execs);
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
        scn_executor_clear();
        if (scn_oracle_call(&x, libc_t, SCN_FAM_C99, &c, sizeof b, 0, &rb, &buf, &in_guard) ||
            scn_executor_status()->fault)
            continue;
        size_t lb = rb < 0 ? 0 : (size_t)rb < sizeof b ? (size_t)rb : strnlen(buf, sizeof b);
        memcpy(b, buf, lb);
        for (size_t i = 0; i < nn; i++) nb[i] = scn_case_n_value(&c, idx[i]);
        struct scn_diff_out outs[2] = { { &scn_target_ref, ra, a, la, nn, na }, { libc_t, rb, b, lb, nn, nb } };
        struct scn_diff_finding df;
        const struct scn_step step = { SCN_DIALECT_ISO, &x, first_meeting };
        int fresh;
        enum scn_diff_verdict v = scn_step_diff(&step, &c, outs, 2, &df, &rc, NULL, &fresh);
        if (!fresh) continue;
        if (v == SCN_DIFF_DIVERGENCE) n_bug++;
        else n_impl++;
        emit(&c, SCN_DIFF_ORACLE, &rc, df.detail, execs);
    }
    double el = (double)(scn_now_ns() - t0) / 1e9;
    printf("{\"stats\":{\"executions\":%lu,\"seconds\":%.3f,\"bugs\":%lu,\"implementation_defined\":%lu,"
           "\"restarts\":%lu,\"signatures\":%zu}}\n", execs, el, n_bug, n_impl, scn_executor_restarts(), nsigs);
    scn_executor_stop();
    return 0;
}
