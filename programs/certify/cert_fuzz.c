/* scn-certify: phase fuzz: a libFuzzer campaign, differential against the
 * reference of the dialect. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert_state.h"
#include "differential.h"
#include "step.h"

/* ------------------------------------------------------------ fuzz */

static void fuzz_finding(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *c,
                         const char *detail, long size, int with_size)
{
    cert_sh->n_findings++;
    if (rc->rule || !strcmp(rc->klass, "implementation-defined")) cert_sh->n_impl++;
    else cert_sh->n_bug++;
    cert_send_record(oracle, rc, c, detail, size, with_size, (long long)cert_sh->execs);
}

/* The differential names the function by the target whose rules apply
 * ("between ref and glibc"): the detail says which function it is. */
static void own_detail(const char *d, char *out, size_t cap)
{
    const char *as = cert_view.name;
    size_t n = strlen(as);
    const char *p = d;
    while ((p = strstr(p, as)) && !((p == d || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0 || p[n] == ':')))
        p += n;
    if (!p || as == scn_cert_name) {
        snprintf(out, cap, "%s", d);
        return;
    }
    snprintf(out, cap, "%.*s%s (rules of %s)%s", (int)(p - d), d, scn_cert_name, as, p + n);
}

/* scn kinds, when the reference fails: the function must return 0 and "" */
static int err_pred(struct scn_case *cand, void *vctx)
{
    (void)vctx;
    static char *b;
    if (!b && !(b = malloc(BIG))) abort();
    if (scn_case_call(cert_ref->vsnprintf, cand, b, BIG) >= 0) return 0;
    int faulted, ret = 0, in_guard;
    char *buf;
    faulted = scn_oracle_call(&cert_lctx, &cert_target, SCN_FAM_SCN, cand, BIG, 0, &ret, &buf, &in_guard);
    cert_sh->in_call = 0;
    return !faulted && (ret != 0 || buf[0] != 0);
}

static void fuzz_checks(struct scn_case *c)
{
    static unsigned char a[BIG], b[BIG];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    size_t la = 0, lb = 0, nna, nnb = 0;
    /* the reference first: its output length sets the limits */
    int ra = 0, in_guard = 0;
    char *buf;
    if (scn_oracle_call(&cert_ctx, cert_ref, SCN_FAM_C99, c, BIG, 0, &ra, &buf, &in_guard)) return;
    if (ra >= 0) {
        la = (size_t)ra < BIG ? (size_t)ra : strnlen(buf, BIG);
        memcpy(a, buf, la);
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    nna = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nna; i++) na[i] = scn_case_n_value(c, idx[i]);
    cert_set_limits(la);
    unsigned flags = cert_fam_flags | SCN_CHECK_NO_REPEAT;
    struct scn_report r;
    size_t nf = cert_check(&cert_ctx, c, flags, &r);
    if (nf && strcmp(r.first.oracle, "full-too-long")) {
        static struct scn_finding f;
        f = r.first;
        char key[192];
        cert_oracle_key(c, &f, flags, key, sizeof key);
        if (cert_seen_first(key)) {
            const struct scn_rootcause *rc = cert_oracle_rootcause(c, &f, flags);
            fuzz_finding(f.oracle, rc, c, f.detail, (long)f.size, 1);
        }
        if (cert_fault_oracle(f.oracle)) cert_after_fault(f.oracle, -1);
        return;
    }
    int faulted = 0;
    int rb = cert_own_output(c, b, &lb, nb, &nnb, &faulted);
    if (faulted) cert_restart_worker();
    static struct scn_rootcause rc;
    if (cert_is_scn && ra < 0) {
        if ((rb != 0 || lb != 0) && cert_seen_first("differential:error-ret")) {
            char d[200];
            snprintf(d, sizeof d, "the reference fails (ret %d): a scnprintf must return 0 and \"\", got %d", ra, rb);
            cert_sign_reduced(c, SCN_DIFF_ORACLE, "divergence", err_pred, NULL, &rc);
            cert_own_names(&rc, SCN_DIFF_ORACLE, 1);
            fuzz_finding(SCN_DIFF_ORACLE, &rc, c, d, 0, 0);
        }
        return;
    }
    struct scn_diff_out outs[2] = {
        { cert_ref, ra, a, la, nna, na },
        { &cert_view, rb, b, lb, nnb, nb },
    };
    struct scn_diff_finding df;
    const struct scn_step step = { cert_dialect, &cert_lctx, cert_seen_first };
    int fresh;
    scn_step_diff(&step, c, outs, 2, &df, &rc, NULL, &fresh);
    if (!fresh) return;
    cert_own_names(&rc, SCN_DIFF_ORACLE, 1);
    char detail[sizeof df.detail + 160];
    own_detail(df.detail, detail, sizeof detail);
    fuzz_finding(SCN_DIFF_ORACLE, &rc, c, detail, 0, 0);
}

/* One input: its checks, then what they left behind (a child process,
 * output on stdout/stderr), which is a finding on this case. */
static void fuzz_one(struct scn_case *c)
{
    cert_publish_case(-1, NULL, c);
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    fuzz_checks(c);
    cert_check_children();
    int fd = cert_written_since(&m);
    if (fd) {
        const char *o = fd == 1 ? "writes-stdout" : "writes-stderr";
        char side[400];
        cert_side_detail(fd, &m, side, sizeof side);
        const struct scn_rootcause *rc = cert_side_rootcause(c, fd);
        if (cert_seen_first(rc->signature)) fuzz_finding(o, rc, c, side, 0, 0);
    }
}

/* ------------------------------------------------------------ the engine
 *
 * libFuzzer (LLVMFuzzerRunDriver) runs the campaign inside the worker: its
 * inputs are scn_case_from_bytes' bytes (the shared decoder; the shipped
 * fuzzers' seeds without their control byte), its feedback the inline
 * 8-bit counters of the vendored code and its comparisons (-use_cmp, value
 * profile: strcmp's operands through the sanitizer's interceptor), which
 * solve a compare a blind generator does not pass. The supervisor's limits
 * stay the only ones: libFuzzer's timeout, memory limits, signal handlers
 * and leak check are off. Its corpus directory survives a worker restart. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t));
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

unsigned cert_fuzz_decode_flags;
unsigned long long cert_fuzz_seed = 1;
const char *cert_fuzz_corpus, *cert_fuzz_log, *cert_fuzz_dict;

static int engine_fd = -1, capture_fd = -1; /* libFuzzer's own output; the function's stderr */

/* exit() from the function: libFuzzer's exit hook would turn its status
 * into its own error code (and print on stderr); this one, registered
 * after it, runs first and keeps the function's status. */
static void keep_exit_status(int status, void *arg)
{
    (void)arg;
    if (cert_sh->in_call) _exit(status);
}

static void take_over_from_engine(void)
{
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(cert_on_death);
    on_exit(keep_exit_status, NULL);
}

static int one_input(const uint8_t *data, size_t n)
{
    static struct scn_case c;
    static int first = 1;
    if (first) {
        first = 0;
        take_over_from_engine();
    }
    /* at least one input: libFuzzer's start (its seeds read, its
     * dictionary parsed) may take a short campaign's whole time on a
     * loaded machine */
    if ((cert_sh->execs || cert_sh->outside_profile) && cert_now_ns() >= cert_sh->deadline) {
        cert_sh->done = 1;
        _exit(0);
    }
    dup2(capture_fd, 2); /* what the function prints goes where it is watched */
    if (scn_cert_input_shape) scn_cert_input_shape(data, n);
    scn_case_from_bytes(data, n, &c, cert_dialect, cert_fuzz_decode_flags);
    if (!cert_profile_admits(&c)) { /* a feature outside --profile: not run */
        cert_sh->outside_profile++;
        dup2(engine_fd, 2);
        return 0;
    }
    cert_sh->execs++; /* counted before it runs: a case that kills the worker was executed */
    fuzz_one(&c);
    cert_cov_collect();
    dup2(engine_fd, 2);
    return 0;
}

static void fuzz_body(void)
{
    char a[8][64];
    uint64_t now = cert_now_ns();
    double left = now < cert_sh->deadline ? (double)(cert_sh->deadline - now) / 1e9 : 0;
    /* libFuzzer's own time limit is a backstop: the worker ends at the
     * campaign's deadline (one_input), so that it says it is done */
    snprintf(a[0], sizeof a[0], "-max_total_time=%lld", (long long)left + 30);
    snprintf(a[1], sizeof a[1], "-seed=%llu", cert_fuzz_seed + cert_sh->execs);
    snprintf(a[2], sizeof a[2], "-max_len=%d", MAXIN);
    char *argv[40] = { "scn-certify", a[0], a[1], a[2], "-use_value_profile=1", "-use_cmp=1", "-timeout=0",
                       "-rss_limit_mb=0", "-malloc_limit_mb=0", "-detect_leaks=0", "-handle_segv=0",
                       "-handle_bus=0", "-handle_abrt=0", "-handle_ill=0", "-handle_fpe=0", "-handle_int=0",
                       "-handle_term=0", "-handle_xfsz=0", "-handle_usr1=0", "-handle_usr2=0",
                       "-print_final_stats=0", "-reload=0" };
    int argc = 22;
    static char artifacts[4200], dict[4200];
    if (cert_fuzz_dict) {
        snprintf(dict, sizeof dict, "-dict=%s", cert_fuzz_dict);
        argv[argc++] = dict;
    }
    if (cert_fuzz_corpus) {
        snprintf(artifacts, sizeof artifacts, "-artifact_prefix=%s/../", cert_fuzz_corpus);
        argv[argc++] = artifacts;
        argv[argc++] = (char *)cert_fuzz_corpus;
    }
    argv[argc] = NULL;
    char **av = argv;
    capture_fd = fcntl(2, F_DUPFD_CLOEXEC, 100);
    engine_fd = open(cert_fuzz_log ? cert_fuzz_log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (capture_fd < 0 || engine_fd < 0) {
        cert_send_error("fuzz: cannot set up libFuzzer's output");
        _exit(EXIT_SETUP);
    }
    dup2(engine_fd, 2);
    cert_cov_on = 1;
    LLVMFuzzerRunDriver(&argc, &av, one_input);
    /* libFuzzer ended on its own (it exits itself after its time) */
    dup2(capture_fd, 2);
}

void cert_fuzz_body_arg(void *arg)
{
    (void)arg;
    fuzz_body();
}
