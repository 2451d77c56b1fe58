/* scnfuzz fuzzing core: see fuzz_core.h. */
#define _GNU_SOURCE
#include "fuzz_core.h"

#include "finding.h"
#include "rootcause.h"
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The guard buffer of each oracle context is kept small (one page): the full
 * call poisons the whole capacity, so a 64 KiB default would dominate the cost
 * of an execution. It grows on demand (oracle.c) and is shrunk back here. */
#define FZ_GUARD_CAP (4096 - SCN_GUARD_PRE)
#define FZ_GUARD_SHRINK_ABOVE (16 * 1024)

/* ASan's printf interceptor parses the format before glibc does: it is slow,
 * and it CHECK-fails on the invalid specifications of robust decoding. The
 * guarded buffer (oracle.c) checks glibc's writes instead.
 * A quarantine of 8 MiB instead of 256: glibc's printf mallocs and frees
 * scratch buffers (positional arguments, long float expansions) several
 * times per execution, and with the default every one of them was fresh
 * memory (cache misses, page faults); bench/results/ has the measurement.
 * The malloc-ing code (glibc) is not instrumented, so the quarantine could
 * only catch a use after free in our own code, which hardly allocates.
 * (ASAN_OPTIONS in the environment still overrides both.) */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "check_printf=0:quarantine_size_mb=8";
}

static struct scn_oracle_ctx octx[2][SCN_DIFF_MAX_TARGETS];
static struct scn_report orep[SCN_DIFF_MAX_TARGETS];
static struct scn_oracle_ctx loc_octx; /* for localising findings */
static enum fz_mode run_mode;
static FILE *findings_fp;
static int campaign;
static int initialised;
static unsigned long long exec_count; /* inputs run so far (fz_one_input) */
static unsigned oracle_every;       /* env SCN_FUZZ_ORACLE_EVERY (0: the config's) */
static unsigned extra_decode_flags;
static enum scn_dialect cur_dialect; /* of the case being run (for the finding lines) */ /* env SCN_FUZZ_NO_FLOAT=1: SCN_DECODE_NO_FLOAT */
int fz_last_diff = -1;

void fz_add_target(struct fz_config *cfg, enum scn_dialect d, const struct scn_target *t)
{
    if (!t || cfg->ntargets[d] >= SCN_DIFF_MAX_TARGETS) return;
    cfg->targets[d][cfg->ntargets[d]++] = t;
}

static void small_guard(struct scn_oracle_ctx *x)
{
    scn_guard_fini(&x->g);
    if (scn_guard_init(&x->g, FZ_GUARD_CAP)) {
        perror("scnfuzz: mmap");
        abort();
    }
}

int fz_init(struct fz_config *cfg, enum fz_mode mode)
{
    (void)cfg;
    if (initialised) return 0;
    run_mode = mode;
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < SCN_DIFF_MAX_TARGETS; i++) {
            if (scn_oracle_init(&octx[d][i])) return -1;
            small_guard(&octx[d][i]);
        }
    if (scn_oracle_init(&loc_octx)) return -1;
    small_guard(&loc_octx);
    /* Catch faults in the guard page ourselves, also under ASan (ASan does not
     * see the guarded mmap buffer): overruns become named findings. */
    scn_oracle_set_catch_faults(1);
    const char *fn = getenv("SCN_FINDINGS");
    if (fn && *fn) {
        findings_fp = fopen(fn, "a");
        if (!findings_fp) {
            perror(fn);
            return -1;
        }
    }
    const char *cont = getenv("SCN_FUZZ_CONTINUE");
    campaign = cont && !strcmp(cont, "1");
    const char *oe = getenv("SCN_FUZZ_ORACLE_EVERY");
    if (oe && *oe) oracle_every = (unsigned)strtoul(oe, NULL, 10);
    const char *nf = getenv("SCN_FUZZ_NO_FLOAT");
    if (nf && !strcmp(nf, "1")) extra_decode_flags |= SCN_DECODE_NO_FLOAT;
    (void)scn_rules_count(); /* load (and validate) the tables now */
    initialised = 1;
    return 0;
}

enum scn_dialect fz_decode(const struct fz_config *cfg, const uint8_t *data, size_t size,
                           struct scn_case *c, int dialect_override)
{
    unsigned ctrl = size ? data[0] : 0;
    enum scn_dialect d;
    if (dialect_override >= 0) d = (enum scn_dialect)dialect_override;
    else if (cfg->mode == FZ_FROM_INPUT) d = (ctrl & FZ_CTRL_KERNEL) ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO;
    else d = cfg->mode == FZ_FIXED_KERNEL ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO;
    unsigned flags = extra_decode_flags | cfg->decode_flags;
    if ((ctrl & FZ_CTRL_ROBUST) && !cfg->no_robust) flags |= SCN_DECODE_ROBUST;
    if ((ctrl & FZ_CTRL_C23) && cfg->allow_c23) flags |= SCN_DECODE_C23;
    scn_case_from_bytes(size ? data + 1 : data, size ? size - 1 : 0, c, d, flags);
    c->nsizes = 1;
    c->sizes[0] = ctrl >> FZ_CTRL_SIZE_SHIFT;
    return d;
}

/* ------------------------------------------------------------ reporting */

/* A new root cause ends a fuzzing run (outside a campaign) with abort(). The
 * frames of that abort are the same for every finding, and ClusterFuzz
 * (OSS-Fuzz, ClusterFuzzLite) groups crashes by a "crash state" made of the
 * top frames: every root cause would be one crash. Its stack analyzer also
 * reads glibc's assert() line, "FILE:LINE: FUNC: Assertion `EXPR' failed."
 * (ASSERT_REGEX_GLIBC, clusterfuzz/stacktraces/constants.py): EXPR becomes
 * the crash state's first line, the type is ASSERT and the sanitizer's ABRT
 * report that follows is not taken for another crash. So the signature is
 * printed in that form just before abort(): one ClusterFuzz crash per root
 * cause (docs/FINDINGS.md). Bytes outside printable ASCII are escaped (\xHH):
 * ClusterFuzz drops them, and a newline would break the line. */
static _Noreturn void abort_on_new_root_cause(const char *signature)
{
    fprintf(stderr, "%s:%d: %s: Assertion `", __FILE__, __LINE__, __func__);
    for (const unsigned char *p = (const unsigned char *)signature; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f) fputc(*p, stderr);
        else fprintf(stderr, "\\x%02x", *p);
    }
    fputs("' failed.\n", stderr);
    fflush(stderr);
    abort();
}

/* Writes one finding record (finding.h) to SCN_FINDINGS and stderr (fuzz
 * mode) or stdout (replay). Returns 1 when it is a bug, 0 when a rule
 * explains it; aborts on a bug in fuzz mode outside a campaign. */
static size_t write_record(const struct fz_config *cfg, const struct scn_case *original, const char *oracle,
                           const struct scn_rootcause *rc, const char *detail, const char *target,
                           const char *family, long size, const struct scn_out_view *ov, size_t nov)
{
    int fatal = !rc->rule;
    /* one record per root cause, as ClusterFuzz files one bug per crash
     * state: two pre-keys (a rule met on %a and on %La) can reduce to one
     * signature, recorded once */
    char sigkey[sizeof rc->signature + 8];
    snprintf(sigkey, sizeof sigkey, "signed:%s", rc->signature);
    if (run_mode == FZ_MODE_FUZZ && !scn_seen_first(sigkey)) return (size_t)fatal;
    int replaying = run_mode == FZ_MODE_REPLAY;
    struct scn_record r = scn_record_new(replaying ? "replay" : "fuzz", replaying ? "scn-replay" : cfg->name, oracle,
                                         rc, original, cur_dialect, detail);
    r.target = target;
    r.family = family;
    r.size = size;
    r.execs = replaying ? -1 : (long long)exec_count;
    r.outs = ov;
    r.nouts = nov;
    if (findings_fp && scn_record_write(fileno(findings_fp), &r)) {
        perror("scnfuzz: writing a finding to SCN_FINDINGS");
        exit(2); /* a finding that cannot be recorded must not be lost silently */
    }
    size_t n;
    const char *line = scn_record_json(&r, &n);
    FILE *out = run_mode == FZ_MODE_REPLAY ? stdout : stderr;
    fwrite(line, 1, n, out);
    fputc('\n', out);
    fflush(out);
    if (run_mode == FZ_MODE_FUZZ && fatal && !campaign) abort_on_new_root_cause(rc->signature);
    return (size_t)fatal;
}

/* A finding is reduced and signed once per (localised culprit, verdict) in
 * a fuzzing process: the pre-key says which finding the fuzzer met, the
 * reduction which root cause it is (rootcause.h). */
static int first_meeting(const char *prekey)
{
    return run_mode == FZ_MODE_REPLAY || scn_seen_first(prekey);
}

size_t fz_report_simple(const struct scn_case *c, const char *oracle, const char *klass, const char *what,
                        const char *detail)
{
    static struct scn_rootcause rc;
    static const struct fz_config cfg = { .name = "fuzz_parse" };
    char key[256];
    snprintf(key, sizeof key, "%s:%s", oracle, what);
    if (!first_meeting(key)) return 1;
    memcpy(&rc.reduced, c, sizeof *c);
    rc.steps = 0;
    rc.rule = NULL;
    rc.klass = klass;
    snprintf(rc.targets, sizeof rc.targets, "case-model");
    scn_case_shape(c, cur_dialect, rc.shape, sizeof rc.shape);
    snprintf(rc.signature, sizeof rc.signature, "%s:%s:%s:%s", oracle, what, rc.targets, klass);
    return write_record(&cfg, c, oracle, &rc, detail, NULL, NULL, 0, NULL, 0);
}

/* ------------------------------------------------------------ running */



/* ------------------------------------------------------- coverage fence */

/* An input's coverage feedback must be that of its primary calls (one per
 * target), the same every time it runs: libFuzzer's -merge, corpus
 * minimisation and input reduction assume so, and AFL++'s stability too.
 * The side work does not qualify: the per-size oracles run on every N-th
 * execution only, and localising a divergence or a finding runs sub-cases
 * whose verdicts are memoised (differential.c). Their counter increments
 * would make the coverage of an input depend on the execution count and on
 * history (units kept for a count bucket nobody can reproduce; "merge"
 * adding stray units). So the side work runs inside a fence: the coverage
 * counters are saved before and restored after (libFuzzer: the inline
 * 8-bit counters, section __sancov_cntrs, weak: scn-replay has none), or,
 * in AFL++ builds, AFL++'s selective coverage turns the map off and on
 * (its pass declares __afl_area_ptr in each module it instruments, so the
 * map cannot be named here). */
extern unsigned char __start___sancov_cntrs[] __attribute__((weak));
extern unsigned char __stop___sancov_cntrs[] __attribute__((weak));
#ifdef __AFL_COVERAGE
__AFL_COVERAGE();
#else
static unsigned char *fence_save;
static size_t fence_cap;
#endif
static int fence_depth;

static void fence_enter(void)
{
    if (fence_depth++) return;
#ifdef __AFL_COVERAGE
    __AFL_COVERAGE_OFF();
#else
    uintptr_t b = (uintptr_t)__start___sancov_cntrs, e = (uintptr_t)__stop___sancov_cntrs;
    if (!b || e <= b) return;
    if (e - b > fence_cap) {
        free(fence_save);
        fence_save = malloc(e - b);
        if (!fence_save) abort();
        fence_cap = e - b;
    }
    memcpy(fence_save, __start___sancov_cntrs, e - b);
#endif
}

static void fence_leave(void)
{
    if (--fence_depth) return;
#ifdef __AFL_COVERAGE
    __AFL_COVERAGE_ON();
#else
    uintptr_t b = (uintptr_t)__start___sancov_cntrs, e = (uintptr_t)__stop___sancov_cntrs;
    if (b && e > b && e - b <= fence_cap) memcpy(__start___sancov_cntrs, fence_save, e - b);
#endif
}

#define FAST_CAP (1u << 16)
static unsigned char fast_buf[SCN_DIFF_MAX_TARGETS][FAST_CAP];
static long long fast_n[SCN_DIFF_MAX_TARGETS][SCN_CASE_MAX_ARGS];

/* The unsampled path: one full-output call per target into a big buffer
 * (its C99 entry, or its scnprintf-family one when it has only that), for
 * the differential only. An output that does not fit is compared by its
 * return value and the bytes that fit, as the localisation compares its
 * sub-cases: what is compared is capped, not what the case asks (a field
 * width of INT_MAX is 2 GiB of output). */
static void fast_outputs(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d,
                         struct scn_diff_out *outs)
{
    size_t nt = cfg->ntargets[d];
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nt; i++) {
        const struct scn_target *t = cfg->targets[d][i];
        int r = scn_case_call_ctx(scn_target_full_call, (void *)t, c, (char *)fast_buf[i], FAST_CAP);
        size_t len = r < 0 ? 0 : (size_t)r < FAST_CAP ? (size_t)r : FAST_CAP - 1;
        for (size_t j = 0; j < nn; j++) fast_n[i][j] = scn_case_n_value(c, idx[j]);
        outs[i] = (struct scn_diff_out){ t, r, fast_buf[i], len, nn, fast_n[i] };
    }
}


/* The per-size oracles on every target of dialect d but those in skip (bit
 * i: targets[d][i]); then, when differential (and skip is 0), the outputs
 * of their full calls in outs. Returns the number of bug findings. */
static size_t run_oracles(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d,
                          unsigned skip, struct scn_diff_out *outs)
{
    size_t nt = cfg->ntargets[d], nf = 0;
    for (size_t i = 0; i < nt; i++) {
        if (skip & (1u << i)) continue;
        const struct scn_target *t = cfg->targets[d][i];
        struct scn_oracle_ctx *x = &octx[d][i];
        /* the scnprintf family of a target without a native one is the
         * canonical wrapper over the C99 call: checking it again is redundant */
        unsigned flags = (t->vscnprintf && !cfg->no_scn ? 0 : SCN_CHECK_NO_SCN) |
                         (cfg->no_repeat ? SCN_CHECK_NO_REPEAT : 0);
        struct scn_report *r = &orep[i];
        size_t k = scn_check_case(x, t, c, flags, r);
        if (x->g.cap > FZ_GUARD_SHRINK_ABOVE) small_guard(x);
        if (k) {
            const struct scn_finding *f = &r->first;
            if (!strcmp(f->oracle, "full-too-long")) continue; /* not a bug by itself */
            static struct scn_rootcause rc;
            static struct scn_finding first;
            first = *f; /* the reduction re-checks: keep what was found on the case as met */
            const char *fam = scn_family_name(first.family);
            const struct scn_step step = { d, &loc_octx, first_meeting };
            fence_enter();
            int fresh = scn_step_oracle(&step, c, t, flags, &first, &rc);
            if (loc_octx.g.cap > FZ_GUARD_SHRINK_ABOVE) small_guard(&loc_octx);
            if (!fresh) {
                fence_leave();
                nf++;
                continue;
            }
            static struct scn_report rr;
            scn_check_case(&loc_octx, t, &rc.reduced, flags, &rr); /* the reduced case's own outputs */
            fence_leave();
            const struct scn_finding *g = rr.nfindings ? &rr.first : &first;
            struct scn_out_view ov[2] = {
                { t->name, rr.full_ret, 1, rr.full, rr.full_len },
                { "buffer", (int)g->ret, 1, g->got, g->got_len },
            };
            nf += write_record(cfg, c, first.oracle, &rc, g->detail, t->name, fam, (long)g->size, ov, 2);
        }
    }
    if (outs)
        for (size_t i = 0; i < nt; i++)
            outs[i] = (struct scn_diff_out){ cfg->targets[d][i], orep[i].full_ret, orep[i].full,
                                             orep[i].full_len, orep[i].nn, orep[i].n };
    return nf;
}

size_t fz_run_case(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d)
{
    size_t nt = cfg->ntargets[d], nf;
    struct scn_diff_out outs[SCN_DIFF_MAX_TARGETS];
    cur_dialect = d;
    fz_last_diff = -1;
    unsigned every = oracle_every ? oracle_every : cfg->oracle_every;
    int diff = cfg->differential && nt >= 2;
    if (every > 1 && diff) {
        /* sampled: the primary calls are the plain C99 calls; the per-size
         * oracles on every every-th input are side work */
        fast_outputs(cfg, c, d, outs);
        if (exec_count % every == 0) {
            fence_enter();
            nf = run_oracles(cfg, c, d, cfg->sampled_skip[d], NULL);
            fence_leave();
            if (nf) return nf;
        }
    } else {
        nf = run_oracles(cfg, c, d, 0, diff ? outs : NULL);
        if (nf || !diff) return nf;
    }
    if (scn_diff_agree(outs, nt)) {
        fz_last_diff = SCN_DIFF_AGREE;
        return 0;
    }
    struct scn_diff_finding df;
    static struct scn_rootcause rc;
    struct scn_out_view ov[SCN_DIFF_MAX_TARGETS];
    const struct scn_step step = { d, &loc_octx, first_meeting };
    int fresh;
    fence_enter(); /* the localisation's and the reduction's sub-case calls */
    fz_last_diff = (int)scn_step_diff(&step, c, outs, nt, &df, &rc, ov, &fresh);
    fence_leave();
    if (!fresh) return fz_last_diff == SCN_DIFF_DIVERGENCE;
    return write_record(cfg, c, SCN_DIFF_ORACLE, &rc, df.detail, NULL, NULL, 0, ov, nt);
}

int fz_one_input(const struct fz_config *cfg, const uint8_t *data, size_t size)
{
    static struct scn_case c;
    exec_count++;
    enum scn_dialect d = fz_decode(cfg, data, size, &c, -1);
    fz_run_case(cfg, &c, d);
    return 0;
}

void fz_print_outputs(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d)
{
    static char buf[1 << 17];
    static char q[(1 << 17) * 4 + 4];
    for (size_t i = 0; i < cfg->ntargets[d]; i++) {
        const struct scn_target *t = cfg->targets[d][i];
        buf[0] = 0;
        int r = scn_case_call_ctx(scn_target_full_call, (void *)t, c, buf, sizeof buf);
        size_t len = r < 0 ? strnlen(buf, sizeof buf) : (size_t)r < sizeof buf ? (size_t)r : sizeof buf - 1;
        scn_quoted_format(buf, len, q, sizeof q);
        printf("  %-11s ret=%-5d %s", t->name, r, q);
        size_t idx[SCN_CASE_MAX_ARGS];
        size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
        for (size_t j = 0; j < nn && j < SCN_CASE_MAX_ARGS; j++)
            printf("%s%lld", j ? "," : " n=", scn_case_n_value(c, idx[j]));
        printf("\n");
    }
}
