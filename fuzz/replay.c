/* scn-replay: replays cases (text form) or raw fuzzer inputs on the targets,
 * printing each target's return value and bytes side by side, the oracle
 * findings (JSON lines) and the differential verdict.
 *
 *   scn-replay [options] CASE-TEXT | FILE...
 *     CASE-TEXT          an argument starting with '"': one case
 *     FILE               case lines (text form; '#' comments and blank lines
 *                        skipped), finding lines (JSON, as written to
 *                        SCN_FINDINGS: their "case" is replayed), or raw
 *                        fuzzer bytes (anything whose first byte is not '"',
 *                        '#' or '{'), decoded as the fuzzers do
 *   --target T         only these targets (repeatable); default: every
 *                      target of the dialect built into this binary
 *                      ("planted" needs env SCN_PLANTED)
 *   --dialect iso|kernel   dialect of case lines (default iso) and of raw
 *                      inputs (default: the ctrl byte's bit 0)
 *   --fuzzer NAME      decode/check like that fuzzer (ref, iso_diff,
 *                      kernel_diff, planted): its targets and options
 *   --allowances FILE  use this allowances table instead of the embedded one
 *   -q                 no side-by-side outputs, only findings and verdicts
 *
 * Each case runs in a child process of its own, with a time limit (env
 * SCN_REPLAY_TIMEOUT, seconds per case, default 30) and dying with its
 * parent: a case that crashes a target (a signal, exit() or abort() inside
 * the call, a sanitizer report) or hangs it is one line saying which case,
 * how it died and the finding, then a finding record (oracle "crash" or
 * "hang", classified and worded by the one supervisor's end classification,
 * core/supervise/end.c: SIGSEGV and SIGBUS memory-safety; the target found
 * by re-running each target alone, the case reduced while it still dies the
 * same way), and the next case runs. The memory limit is the caller's (scnfuzz sets
 * RLIMIT_AS, or the sanitizer's allocator limits).
 *
 * Exit status: 0 no finding, 1 findings (invariant, memory-safety,
 * divergence, crash or hang; implementation-defined differences are
 * printed, not counted), 2 usage or input error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "finding.h"
#include "fuzz_core.h"
#include "rootcause.h"
#include "supervise.h"

static struct fz_config cfg;
static int quiet;
static size_t total_findings, total_cases, total_crashes;
static double case_timeout = 30; /* env SCN_REPLAY_TIMEOUT */

static void usage(void)
{
    fprintf(stderr,
            "usage: scn-replay [--target T]... [--dialect iso|kernel] [--fuzzer NAME]\n"
            "                  [--allowances FILE] [-q] CASE-TEXT | FILE...\n");
    exit(2);
}

static const char *verdict_name(int v)
{
    switch (v) {
    case SCN_DIFF_AGREE: return "agree";
    case SCN_DIFF_IMPL: return "implementation-defined";
    case SCN_DIFF_KNOWN: return "known bug or gap";
    case SCN_DIFF_DIVERGENCE: return "divergence";
    default: return "not run (fewer than 2 targets, or an oracle finding)";
    }
}

/* ------------------------------------------------------------ one case in a child */

/* The call watch of the case's child (case.h), in memory shared with this
 * process: whether the child died in a call of a target, and at which size. */
static struct call_watch {
    volatile uint64_t since;
    volatile size_t size;
} *watch;

/* Runs fn(ctx) in a child process that dies with this one, within the time
 * limit per case (core/supervise); quiet: its stdout and stderr go to
 * /dev/null. An ok end's value is fn's (the case's bug findings); *c says
 * which call the child was in when it ended. */
static void in_child(scn_sup_fn fn, void *ctx, int quiet_io, struct scn_sup_end *e, struct scn_sup_call_end *c)
{
    struct scn_sup_opts o = { 0, quiet_io ? SCN_SUP_QUIET_OUT | SCN_SUP_QUIET_ERR : 0 };
    watch->since = 0;
    watch->size = 0;
    if (scn_sup_run(&o, fn, ctx, (uint64_t)(case_timeout * 1e9), e)) {
        perror("scn-replay: fork");
        exit(2);
    }
    /* a sanitizer's report in the child is an exit no death callback tells of */
    *c = (struct scn_sup_call_end){ .in_call = watch->since != 0, .size = watch->size, .limit_s = case_timeout,
                                    .run_limit = "SCN_REPLAY_TIMEOUT", .exit_may_be_report = SCN_SUP_SANITIZED };
}

static void watch_calls(void) { scn_case_watch_calls(&watch->since, &watch->size, scn_now_ns); }

struct case_job {
    struct scn_case *c;
    enum scn_dialect d;
};

/* The case as scn-replay always ran it: outputs side by side, oracles, differential. */
static long case_body(void *ctx)
{
    struct case_job *j = ctx;
    watch_calls();
    if (!quiet) fz_print_outputs(&cfg, j->c, j->d);
    fflush(stdout);
    size_t nf = fz_run_case(&cfg, j->c, j->d);
    fflush(stdout);
    printf("  oracles+differential: %zu finding(s); differential: %s\n", nf, verdict_name(fz_last_diff));
    return (long)nf;
}

/* One target alone on a case, as a run calls it: the plain call into a big
 * buffer (fz_print_outputs), then the per-size oracles. */
struct alone {
    const struct scn_target *t;
    struct scn_case c;
    int report; /* a fault in the plain call is left to the sanitizer: its report (the crash state) */
};

static long alone_body(void *ctx)
{
    struct alone *a = ctx;
    watch_calls();
    /* Default actions for a fault in the plain call: the child dies at once,
     * with no sanitizer report to symbolise (this is run many times while
     * reducing). The oracles' own fault catching is put back after. */
    struct sigaction dfl, old[2];
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    if (!a->report) {
        sigaction(SIGSEGV, &dfl, &old[0]);
        sigaction(SIGBUS, &dfl, &old[1]);
    }
    static char buf[1 << 17];
    scn_case_call_ctx(scn_target_full_call, (void *)a->t, &a->c, buf, sizeof buf);
    if (!a->report) {
        sigaction(SIGSEGV, &old[0], NULL);
        sigaction(SIGBUS, &old[1], NULL);
    }
    static struct scn_oracle_ctx x;
    static struct scn_report r;
    if (scn_oracle_init(&x)) return 0;
    unsigned flags = (a->t->vscnprintf && !cfg.no_scn ? 0 : SCN_CHECK_NO_SCN) | (cfg.no_repeat ? SCN_CHECK_NO_REPEAT : 0);
    scn_check_case(&x, a->t, &a->c, flags, &r);
    return 0;
}

#define REDUCE_BUDGET 150  /* candidates, each a child process */
#define REDUCE_SECONDS 20.0
#define STATE_SECONDS 60.0 /* the reduced case's report, symbolised: slow on a loaded machine */

struct crash_still {
    const struct scn_target *t;
    struct scn_sup_end want;
    uint64_t deadline;
};

/* The candidate, alone on the target in a child, still dies the same way
 * (the same signal, exit status, or a hang). */
static int crash_still_pred(struct scn_case *cand, void *vctx)
{
    struct crash_still *k = vctx;
    if (scn_now_ns() > k->deadline) return 0; /* out of time: keep what is reduced so far */
    static struct alone a;
    a.t = k->t;
    memcpy(&a.c, cand, sizeof a.c);
    struct scn_sup_opts quiet = { 0, SCN_SUP_QUIET_OUT | SCN_SUP_QUIET_ERR };
    return scn_sup_still_dies(&quiet, alone_body, &a, (uint64_t)(case_timeout * 1e9), &k->want);
}

/* The case died (o, in call oc): which target, reduced, signed, recorded;
 * one line. */
static void report_death(struct scn_case *c, enum scn_dialect d, const char *where, const struct scn_sup_end *o,
                         const struct scn_sup_call_end *oc)
{
    static struct alone a;
    static struct scn_rootcause rc;
    const struct scn_target *culprit = NULL;
    struct scn_sup_end how = *o, alone_o;
    struct scn_sup_call_end how_c = *oc, alone_c;
    int hung = o->kind == SCN_SUP_HANG;
    for (size_t i = 0; i < cfg.ntargets[d] && !culprit; i++) {
        a.t = cfg.targets[d][i];
        a.report = 0;
        memcpy(&a.c, c, sizeof a.c);
        in_child(alone_body, &a, 1, &alone_o, &alone_c);
        if (alone_o.kind != SCN_SUP_OK && (alone_o.kind == SCN_SUP_HANG) == hung) {
            culprit = a.t;
            how = alone_o; /* alone, with default signal actions: the real signal */
            how_c = alone_c;
        }
    }
    struct scn_sup_finding f;
    scn_sup_end_finding(&how, &how_c, &f);
    memcpy(&rc.reduced, c, sizeof *c);
    rc.steps = 0;
    rc.rule = NULL;
    rc.state[0] = 0;
    if (culprit && !hung) {
        struct crash_still k = { culprit, how, scn_now_ns() + (uint64_t)(REDUCE_SECONDS * 1e9) };
        rc.steps = scn_reduce(&rc.reduced, d, crash_still_pred, &k, REDUCE_BUDGET);
        rc.rule = scn_rootcause_known(&rc.reduced, d, culprit->name, "crash");
        /* reduced first, signed after: by the sanitizer's report of the
         * reduced case when it names a place (one bug, one signature,
         * whichever format met it), else by the reduced case's shape */
        a.t = culprit;
        a.report = 1;
        memcpy(&a.c, &rc.reduced, sizeof a.c);
        if (!rc.rule) scn_rootcause_crash_state(&rc, alone_body, &a, (uint64_t)(STATE_SECONDS * 1e9));
    }
    const char *oracle = f.oracle;
    rc.klass = rc.rule ? scn_rule_classification(rc.rule->kind) : f.klass;
    /* not localised to one target: the harness around them (as fz_report_simple names it) */
    snprintf(rc.targets, sizeof rc.targets, "%s", culprit ? culprit->name : "case-model");
    scn_rootcause_sign(&rc, oracle, d);
    char detail[sizeof f.detail + 100];
    snprintf(detail, sizeof detail, "%s: %s", culprit ? culprit->name : "the replay of the case", f.detail);
    static struct scn_jbuf extra;
    extra.n = 0;
    if (strcmp(where, "argument")) {
        scn_jbuf_str(&extra, ",\"where\":");
        scn_jbuf_json(&extra, where, strlen(where));
    }
    struct scn_record r = scn_record_new("replay", "scn-replay", oracle, &rc, c, d, detail);
    r.extra = extra.n ? extra.p : NULL;
    static char text[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096];
    scn_case_format(c, text, sizeof text);
    printf("  %s: %s: case %s: %s; finding %s\n", oracle, where, text, detail, rc.signature);
    size_t n;
    const char *line = scn_record_json(&r, &n);
    fwrite(line, 1, n, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    const char *fn = getenv("SCN_FINDINGS");
    if (fn && *fn) {
        int fd = open(fn, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 || scn_record_write(fd, &r)) {
            fprintf(stderr, "scn-replay: %s: cannot record the finding: %s\n", fn, strerror(errno));
            exit(2); /* a finding that cannot be recorded must not be lost silently */
        }
        close(fd);
    }
    total_findings++;
    total_crashes++;
}

static void run(struct scn_case *c, enum scn_dialect d, const char *where)
{
    static char text[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096];
    scn_case_format(c, text, sizeof text);
    total_cases++;
    printf("case %s  [%s]\n", text, d == SCN_DIALECT_KERNEL ? "kernel" : "iso");
    if (!cfg.ntargets[d]) {
        printf("  (no target of this dialect)\n");
        return;
    }
    struct case_job job = { c, d };
    struct scn_sup_end o;
    struct scn_sup_call_end oc;
    in_child(case_body, &job, 0, &o, &oc);
    if (o.kind == SCN_SUP_OK) total_findings += (size_t)o.value;
    else report_death(c, d, where, &o, &oc);
}

static int replay_text_line(const char *line, size_t len, enum scn_dialect d, const char *where)
{
    static struct scn_case c;
    char err[200];
    if (scn_case_parse(line, len, &c, err, sizeof err)) {
        fprintf(stderr, "scn-replay: %s: %s\n", where, err);
        return -1;
    }
    run(&c, d, where);
    return 0;
}

/* The "case" string of a finding line (JSON), unescaped into out. */
static int case_of_finding(const char *line, size_t len, char *out, size_t cap, size_t *outlen)
{
    static const char key[] = "\"case\":\"";
    const char *p = memmem(line, len, key, sizeof key - 1);
    if (!p) return -1;
    p += sizeof key - 1;
    const char *end = line + len;
    size_t k = 0;
    while (p < end && *p != '"') {
        char ch = *p++;
        if (ch == '\\' && p < end) {
            ch = *p++;
            if (ch == 'u' && end - p >= 4) {
                char hex[5] = { p[0], p[1], p[2], p[3], 0 };
                ch = (char)strtol(hex, NULL, 16);
                p += 4;
            } else if (ch == 'n') {
                ch = '\n';
            }
        }
        if (k + 1 >= cap) return -1;
        out[k++] = ch;
    }
    out[k] = 0;
    *outlen = k;
    return p < end ? 0 : -1;
}

static int replay_file(const char *path, int dialect_override)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "scn-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    if (n && (buf[0] == '"' || buf[0] == '#' || buf[0] == '{')) {
        enum scn_dialect d = dialect_override >= 0 ? (enum scn_dialect)dialect_override : SCN_DIALECT_ISO;
        size_t pos = 0, lineno = 0;
        int rc = 0;
        while (pos < n) {
            size_t e = pos;
            while (e < n && buf[e] != '\n') e++;
            lineno++;
            size_t l = e - pos;
            if (l && buf[pos + l - 1] == '\r') l--;
            char where[600];
            snprintf(where, sizeof where, "%s:%zu", path, lineno);
            if (l && buf[pos] == '{') {
                /* a finding line (SCN_FINDINGS): replay its case */
                static char text[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096];
                size_t tl;
                if (case_of_finding((const char *)buf + pos, l, text, sizeof text, &tl)) {
                    fprintf(stderr, "scn-replay: %s: no \"case\" in this JSON line\n", where);
                    rc = -1;
                } else if (replay_text_line(text, tl,
                                            dialect_override < 0 && memmem(buf + pos, l, "\"dialect\":\"kernel\"", sizeof "\"dialect\":\"kernel\"" - 1)
                                                ? SCN_DIALECT_KERNEL : d,
                                            where)) {
                    rc = -1;
                }
            } else if (l && buf[pos] != '#') {
                if (replay_text_line((const char *)buf + pos, l, d, where)) rc = -1;
            }
            pos = e + 1;
        }
        return rc;
    }
    static struct scn_case c;
    printf("# %s: %zu fuzzer bytes (fuzzer config %s)\n", path, n, cfg.name);
    enum scn_dialect d = fz_decode(&cfg, buf, n, &c, dialect_override);
    run(&c, d, path);
    return 0;
}

int main(int argc, char **argv)
{
    const char *targets[SCN_DIFF_MAX_TARGETS];
    size_t ntargets = 0;
    int dialect = -1;
    const char *fuzzer = NULL, *allow = NULL;
    int first_input = argc;
    /* line by line: what a case printed before it crashed its child is not lost
     * in the child's buffer (set before any output, so it takes effect) */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            if (ntargets >= SCN_DIFF_MAX_TARGETS) usage();
            targets[ntargets++] = argv[++i];
        } else if (!strcmp(argv[i], "--dialect") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "iso")) dialect = SCN_DIALECT_ISO;
            else if (!strcmp(argv[i], "kernel")) dialect = SCN_DIALECT_KERNEL;
            else usage();
        } else if (!strcmp(argv[i], "--fuzzer") && i + 1 < argc) {
            fuzzer = argv[++i];
        } else if (!strcmp(argv[i], "--allowances") && i + 1 < argc) {
            allow = argv[++i];
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage();
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            usage();
        } else {
            if (first_input == argc) first_input = i;
        }
    }
    if (first_input == argc) usage();
    const char *tmo = getenv("SCN_REPLAY_TIMEOUT");
    if (tmo && *tmo) {
        char *end;
        case_timeout = strtod(tmo, &end);
        if (*end || !(case_timeout > 0 && case_timeout <= 86400)) {
            fprintf(stderr, "scn-replay: SCN_REPLAY_TIMEOUT=%s: not a number of seconds in (0, 86400]\n", tmo);
            return 2;
        }
    }
    if (allow) {
        char err[300];
        if (scn_allowances_load_file(allow, err, sizeof err) < 0) {
            fprintf(stderr, "scn-replay: %s\n", err);
            return 2;
        }
    }
    if (fuzzer) {
        if (fz_config_by_name(fuzzer, &cfg)) {
            fprintf(stderr, "scn-replay: unknown fuzzer '%s' (ref, iso_diff, kernel_diff, planted)\n", fuzzer);
            return 2;
        }
    } else {
        cfg.name = "replay";
        cfg.mode = FZ_FROM_INPUT;
        cfg.allow_c23 = 1;
        cfg.differential = 1;
        for (const struct scn_target *const *t = scn_targets(); *t; t++) fz_add_target(&cfg, (*t)->dialect, *t);
    }
    if (ntargets) {
        cfg.ntargets[0] = cfg.ntargets[1] = 0;
        for (size_t i = 0; i < ntargets; i++) {
            const struct scn_target *t = !strcmp(targets[i], "planted") ? fz_planted_target()
                                                                       : scn_target_find(targets[i]);
            if (!t) {
                fprintf(stderr, "scn-replay: no target '%s' in this build%s\n", targets[i],
                        !strcmp(targets[i], "planted") ? " (set SCN_PLANTED)" : "");
                return 2;
            }
            fz_add_target(&cfg, t->dialect, t);
        }
    }
    if (fz_init(&cfg, FZ_MODE_REPLAY)) {
        fprintf(stderr, "scn-replay: cannot set up the oracles\n");
        return 2;
    }
    watch = mmap(NULL, sizeof *watch, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (watch == MAP_FAILED) {
        perror("scn-replay: mmap");
        return 2;
    }
    int bad_input = 0;
    for (int i = first_input; i < argc; i++) {
        if (!strcmp(argv[i], "--target") || !strcmp(argv[i], "--dialect") || !strcmp(argv[i], "--fuzzer") ||
            !strcmp(argv[i], "--allowances")) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "-q")) continue;
        if (argv[i][0] == '"') {
            enum scn_dialect d = dialect >= 0 ? (enum scn_dialect)dialect : SCN_DIALECT_ISO;
            if (replay_text_line(argv[i], strlen(argv[i]), d, "argument")) bad_input = 1;
        } else if (replay_file(argv[i], dialect)) {
            bad_input = 1;
        }
    }
    printf("# %zu case(s), %zu finding(s)", total_cases, total_findings);
    if (total_crashes) printf(" (%zu crash(es) or hang(s))", total_crashes);
    printf("\n");
    if (bad_input) return 2;
    return total_findings ? 1 : 0;
}
