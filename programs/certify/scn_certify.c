/* scn-certify: the driver of `scnfuzz certify` (programs/certify/README.md).
 * One vendored printf-family function (the generated adapter) checked by the
 * project's oracles under ASan+UBSan, one phase per invocation:
 *
 *   scn-certify [OPTIONS] conform FILE.tsv...   the corpus at every buffer size
 *   scn-certify [OPTIONS] retval                the return-value suite of its kind
 *   scn-certify [OPTIONS] fuzz SECONDS SEED [DECODE_FLAGS]
 *                                               differential campaign vs the reference
 * OPTIONS:
 *   --fd N              the protocol descriptor (default: a copy of stdout)
 *   --categories LIST   conform: the claimed categories (comma list, prefixes)
 *   --allow-as TARGET   the rules (allowances, known bugs and gaps) of TARGET apply
 *   --call-limit S      time limit of one call, before the output-length part (1 s)
 *   --fault-budget S    time fatal cases may cost (timeouts, their reductions) (30 s)
 *   --phase-limit S     wall-time limit of conform/retval (600 s)
 *   --sanitizer-log P   where ASAN_OPTIONS/UBSAN_OPTIONS log_path writes (P.<pid>)
 *   --corpus DIR        fuzz: libFuzzer's corpus directory (seeds in, new inputs out)
 *   --fuzzer-log PATH   fuzz: where libFuzzer's own messages go (default /dev/null)
 *   --dict PATH         fuzz: a libFuzzer dictionary (the runner's: the vendored code's strings)
 *   --profile FILE      fuzz: the format features a case may use, one name a line (cert_profile.c)
 *
 * Two processes, so that nothing the function does can stop the phase or
 * lie about it:
 *   the supervisor  never calls the function. It plans the phase, forks a
 *                   worker, watches it (per-call time limit, resident-memory
 *                   limit, phase limit), and when the worker dies (exit(),
 *                   abort(), a signal, a sanitizer report, a fork left
 *                   behind, a timeout) writes that as a finding on the case
 *                   being run, reduced by running candidates in fresh forked
 *                   probes, then starts a new worker at the next case.
 *   the worker      runs the cases and writes one result line per case (or
 *                   per finding, fuzz). Its state that must survive a
 *                   restart (where it is, coverage, finding keys) lives in
 *                   shared memory; the fuzzing corpus in libFuzzer's
 *                   directory (--corpus).
 *
 * Protocol (one JSON object per line, on its own descriptor, never stdout):
 *   {"plan":{"phase":P,"cases":N}}                        first (fuzz: "seconds")
 *   {"phase":P,"index":I,"status":S,...,"finding":{..}}  one per case (conform/retval)
 *   {"oracle":O,"classification":C,...,"phase":"fuzz"}   one per new finding (fuzz)
 *   {"end":{"phase":P,"complete":B,"run":K,...}}         last
 * Findings are the one record of docs/FINDINGS.md (oracles/finding.h), with
 * reduced cases and root-cause signatures: a case's result line (as
 * scn-conform's) carries it as "finding"; a campaign's finding is the record
 * itself, the line findings.jsonl holds (with "phase" and "execs"). What the function writes to
 * stdout or stderr is a finding on the case that wrote it ("writes-stdout").
 *
 * Inputs: every call gets exact-size heap copies of its format (up to the
 * first NUL) and of its string arguments, so that ASan reports a read past
 * their end (or before their start) within its redzone (128 bytes, set
 * below); the buffer ends at a PROT_NONE page (oracles/oracle.h).
 *
 * The adapter defines:
 *   const int scn_cert_kind;            0 vsnprintf, 1 snprintf, 2 vscnprintf, 3 scnprintf
 *   const int scn_cert_dialect;         SCN_DIALECT_ISO / _KERNEL
 *   const char scn_cert_name[];
 *   int (*const scn_cert_vfn)(char *, size_t, const char *, va_list);   v* kinds, else NULL
 *   int (*const scn_cert_fn)(char *, size_t, const char *, ...);        variadic kinds, else NULL
 *
 * Every call passes the case's own typed arguments (the incoming va_list
 * is not used): the case is found from the format pointer (scn_case_call
 * always passes c->fmt, so the differential's sub-cases work too).
 *
 * This file is main(); the parts are cert_*.c, each one job, sharing
 * cert_state.h (README.md lists them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert_state.h"

static double opt_phase_limit = 600.0;

/* ------------------------------------------------------------ main */

static void usage(void)
{
    fprintf(stderr, "usage: scn-certify [--fd N] [--categories LIST] [--allow-as TARGET] [--call-limit S]\n"
                    "       [--fault-budget S] [--phase-limit S] [--sanitizer-log PREFIX] [--corpus DIR] [--fuzzer-log PATH]\n"
                    "       [--dict PATH] [--profile FILE]\n"
                    "       conform FILE.tsv... | retval | fuzz SECONDS SEED [DECODE_FLAGS]\n");
}

/* stdout and stderr must be files whose size tells what the function wrote */
static void capture_fd(int fd, const char *name)
{
    struct stat st;
    if (!fstat(fd, &st) && S_ISREG(st.st_mode)) return;
    int m = memfd_create(name, 0);
    if (m >= 0) {
        dup2(m, fd);
        close(m);
    }
}

/* The phase's first line: {"plan":{"phase":..,"cases"|"seconds":..}}. */
static void send_plan(const char *phase, const char *what, double n)
{
    struct scn_jbuf *b = cert_line();
    scn_jbuf_str(b, "\"plan\":{");
    scn_json_str(b, "phase", phase);
    if (!strcmp(what, "cases")) scn_json_num(b, what, (long long)n);
    else scn_json_dbl(b, what, n);
    scn_jbuf_str(b, "}");
    cert_send();
}

int main(int argc, char **argv)
{
    int fd = -1, i = 1;
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--fd")) fd = atoi(v);
        else if (!strcmp(o, "--categories")) cert_opt_categories = v;
        else if (!strcmp(o, "--allow-as")) cert_opt_allow_as = v;
        else if (!strcmp(o, "--call-limit")) cert_opt_call_limit = atof(v);
        else if (!strcmp(o, "--fault-budget")) cert_opt_fault_budget = atof(v);
        else if (!strcmp(o, "--phase-limit")) opt_phase_limit = atof(v);
        else if (!strcmp(o, "--sanitizer-log")) cert_opt_sanlog = v;
        else if (!strcmp(o, "--corpus")) cert_fuzz_corpus = v;
        else if (!strcmp(o, "--fuzzer-log")) cert_fuzz_log = v;
        else if (!strcmp(o, "--dict")) cert_fuzz_dict = v;
        else if (!strcmp(o, "--profile")) cert_fuzz_profile = v;
        else {
            usage();
            return EXIT_SETUP;
        }
    }
    if (i >= argc || !(cert_opt_call_limit > 0) || !(cert_opt_fault_budget >= 0) || !(opt_phase_limit > 0)) {
        usage();
        return EXIT_SETUP;
    }
    const char *cmd = argv[i++];
    int rest = argc - i;
    char **args = argv + i;
    /* the protocol's own descriptor, moved high so that a stray write to a
     * small descriptor number cannot land in it */
    int pfd = fcntl(fd >= 0 ? fd : 1, F_DUPFD_CLOEXEC, 200);
    if (pfd < 0) {
        fprintf(stderr, "scn-certify: no protocol descriptor %d\n", fd);
        return EXIT_SETUP;
    }
    if (fd > 2) close(fd);
    cert_proto_fd = pfd;
    capture_fd(1, "scn-certify-stdout");
    capture_fd(2, "scn-certify-stderr");
    signal(SIGPIPE, SIG_IGN);
    cert_supervisor_pid = getpid();
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    scn_die_with_parent(SIGTERM, 0); /* the runner gone: clean up and end */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cert_on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigemptyset(&cert_chld_mask);
    sigaddset(&cert_chld_mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &cert_chld_mask, &cert_orig_mask);
    size_t shsize = sizeof(struct cert_shared) + cert_cov_total + 1;
    cert_sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (cert_sh == MAP_FAILED) {
        fprintf(stderr, "scn-certify: cannot map the shared state\n");
        return EXIT_SETUP;
    }
    cert_sh->worker = getpid();
    if (cert_memo_init()) {
        fprintf(stderr, "scn-certify: cannot map the shared state\n");
        return EXIT_SETUP;
    }
    cert_setup_targets();
    if (cert_fuzz_profile && cert_profile_load(cert_fuzz_profile)) {
        fprintf(stderr, "scn-certify: --profile %s: cannot read it (one feature name a line)\n", cert_fuzz_profile);
        return EXIT_SETUP;
    }
    cert_phase = cmd;
    uint64_t t0 = cert_now_ns();
    if (!strcmp(cmd, "conform")) {
        if (cert_load_plan(rest, args)) return EXIT_SETUP;
        send_plan("conform", "cases", cert_nplan);
        return cert_run_phase(cert_conform_body, cert_nplan, t0 + (uint64_t)(opt_phase_limit * 1e9), 0);
    }
    if (!strcmp(cmd, "retval")) {
        send_plan("retval", "cases", cert_retval_count());
        return cert_run_phase(cert_retval_body, cert_retval_count(), t0 + (uint64_t)(opt_phase_limit * 1e9), 0);
    }
    if (!strcmp(cmd, "fuzz") && rest >= 2) {
        double secs = atof(args[0]);
        unsigned long long seed = strtoull(args[1], NULL, 0);
        cert_fuzz_decode_flags = rest > 2 ? (unsigned)strtoul(args[2], NULL, 0) : 0;
        if (!(secs >= 0) || secs > 1e7) {
            usage();
            return EXIT_SETUP;
        }
        cert_fuzz_seed = seed ? seed : 1;
        cert_sh->deadline = t0 + (uint64_t)(secs * 1e9);
        send_plan("fuzz", "seconds", secs);
        return cert_run_phase(cert_fuzz_body_arg, 0, cert_sh->deadline, 1);
    }
    usage();
    return EXIT_SETUP;
}
