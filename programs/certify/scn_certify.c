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
 *                   restart (where it is, the fuzzing corpus, coverage,
 *                   finding keys) lives in shared memory.
 *
 * Protocol (one JSON object per line, on its own descriptor, never stdout):
 *   {"plan":{"phase":P,"cases":N}}                        first (fuzz: "seconds")
 *   {"phase":P,"index":I,"status":S,...,"finding":{..}}  one per case (conform/retval)
 *   {"phase":"fuzz","finding":{..}}                      one per new finding
 *   {"end":{"phase":P,"complete":B,"run":K,...}}         last
 * Findings are the one record of docs/FINDINGS.md (oracles/finding.h), with
 * reduced cases and root-cause signatures. What the function writes to
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
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "case.h"
#include "differential.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "step.h"
#include "rules.h"
#include "spec.h"
#include "target.h"

extern const int scn_cert_kind;
extern const int scn_cert_dialect;
extern const char scn_cert_name[];
extern int (*const scn_cert_vfn)(char *, size_t, const char *, va_list);
extern int (*const scn_cert_fn)(char *, size_t, const char *, ...);

extern const struct scn_target scn_target_ref;
extern const struct scn_target scn_target_ref_kernel;

enum { K_VSN = 0, K_SN = 1, K_VSCN = 2, K_SCN = 3 };

/* Worker exit statuses the supervisor reads together with a flag in shared
 * memory (the function may call exit() with any status: the flag decides). */
enum { EXIT_RESTART = 117, EXIT_FORK = 118, EXIT_SAN = 119, EXIT_SETUP = 2 };

#define BIG 65536
#define CASE_TEXT_MAX (1 << 17)
#define MAXIN 256
#define MAXCORP 2048
#define SEEN_SLOTS 16384
#define REDUCE_SECONDS 10.0  /* one fatal finding's reduction, at most */
#define MAX_DEATHS 200       /* fatal cases in one phase before it stops (each costs a new process) */

/* ------------------------------------------------------------ shared state */

struct shared {
    /* the call in progress: the supervisor's per-call time limit */
    volatile int in_call;
    volatile uint64_t call_t0;      /* CLOCK_MONOTONIC ns */
    volatile size_t call_size;
    volatile uint64_t call_limit;   /* ns, set per case */
    volatile uint64_t mem_limit;    /* bytes of resident memory above rss0, set per case */
    volatile uint64_t rss0;
    volatile int writing;           /* a protocol line is being written: do not kill now */
    volatile pid_t worker;          /* the process expected to run the driver */
    /* the case being run */
    volatile long index;
    volatile int case_set;          /* the worker published a case (case_text is its) */
    volatile uint64_t case_t0;      /* when it started */
    char category[64];
    char case_text[CASE_TEXT_MAX];
    /* how the worker ended */
    volatile int done, restart, fork_seen, san_died, probe;
    char tainted[300];              /* the case of an overrun this worker survived */
    char san_oracle[32];
    char san_kind[64];
    char san_what[600];
    volatile long next;             /* conform/retval: the next index to run */
    /* fuzz: the campaign, kept across worker restarts */
    uint64_t deadline;
    uint64_t rng;
    unsigned long execs, n_bug, n_impl, n_findings;
    size_t ncorp;
    size_t corp_len[MAXCORP];
    uint8_t corp[MAXCORP][MAXIN];
    size_t cov_hit;
    uint64_t seen[SEEN_SLOTS];
    unsigned char cov[];            /* one byte per edge of the vendored code */
};

static struct shared *sh;
static int proto_fd = -1;
static pid_t supervisor_pid;
static double opt_call_limit = 1.0, opt_fault_budget = 30.0, opt_phase_limit = 600.0;
static const char *opt_allow_as, *opt_categories, *opt_sanlog;
static const char *phase = "start";

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t rss_of(pid_t pid)
{
    char p[64], b[128];
    snprintf(p, sizeof p, "/proc/%d/statm", (int)pid);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, b, sizeof b - 1);
    close(fd);
    if (n <= 0) return 0;
    b[n] = 0;
    unsigned long size, res;
    if (sscanf(b, "%lu %lu", &size, &res) != 2) return 0;
    return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Limits of the calls of one case, proportional to its output length:
 * 1 s (--call-limit) + 1 s per MB per call; 512 MB + 64 bytes per output
 * byte of resident memory above what the worker had at its start. */
static void set_limits(size_t out_len)
{
    sh->call_limit = (uint64_t)(opt_call_limit * 1e9) + (uint64_t)out_len * 1000u;
    sh->mem_limit = ((uint64_t)512 << 20) + (uint64_t)out_len * 64u;
}

/* ------------------------------------------------------------ coverage */

static uint32_t cov_total;
static int cov_on; /* only the fuzz worker's executions feed the corpus */
static int cov_new;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start) return;
    for (uint32_t *x = start; x < stop; x++) *x = ++cov_total;
}
/* The guard holds the edge's index until its first hit in this process;
 * the shared map says whether any worker of the campaign reached it. */
void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    uint32_t i = *guard;
    if (!i) return;
    *guard = 0;
    if (!cov_on || !sh || sh->cov[i]) return;
    sh->cov[i] = 1;
    sh->cov_hit++;
    cov_new = 1;
}

/* ------------------------------------------------------------ the call */

/* the inputs of the call in progress, to name what a sanitizer report hit */
static struct {
    const char *p;
    size_t n;
    int arg; /* -1: the format */
} inputs[SCN_CASE_MAX_ARGS + 1];
static size_t ninputs;

static void *copy_exact(const void *p, size_t n, int arg)
{
    void *q = malloc(n);
    if (!q) abort();
    memcpy(q, p, n);
    inputs[ninputs].p = q;
    inputs[ninputs].n = n;
    inputs[ninputs++].arg = arg;
    return q;
}

/* The case's argument as passed: the exact-size copy for a string. */
static uint64_t arg_word(struct scn_case *c, size_t i, void *const *ptr)
{
    const struct scn_arg *a = &c->args[i];
    switch (a->type) {
    case SCN_ARG_INT: return (uint64_t)(int64_t)(int)a->v.i;
    case SCN_ARG_UINT: case SCN_ARG_WINT: return (uint32_t)a->v.u;
    case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE: return a->v.u;
    case SCN_ARG_PTR: return a->is_null ? 0 : a->v.u;
    case SCN_ARG_STR: case SCN_ARG_WSTR: return (uint64_t)(uintptr_t)ptr[i];
    case SCN_ARG_N:
        memset(&c->nslot[i], 0, sizeof c->nslot[i]);
        return (uint64_t)(uintptr_t)&c->nslot[i];
    default: return (uint64_t)a->v.i; /* the other signed integer types */
    }
}

/* v* kinds: an x86-64 SysV va_list built as scn_case_call builds it (every
 * argument in the overflow area), with the copies. */
struct sysv_va {
    unsigned gp_offset, fp_offset;
    void *overflow_arg_area, *reg_save_area;
};

static int call_v(struct scn_case *c, void *const *ptr, const char *fmt, char *buf, size_t size)
{
    _Alignas(16) uint64_t area[2 * SCN_CASE_MAX_ARGS + 10];
    _Alignas(16) uint64_t regs[40];
    size_t k = 0;
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type == SCN_ARG_DOUBLE) {
            memcpy(&area[k++], &a->v.d, 8);
        } else if (a->type == SCN_ARG_LDOUBLE) {
            k = (k + 1) & ~(size_t)1;
            area[k] = area[k + 1] = 0;
            memcpy(&area[k], &a->v.ld, 10);
            k += 2;
        } else {
            area[k++] = arg_word(c, i, ptr);
        }
    }
    for (size_t j = 0; j < 8; j++) area[k + j] = 0;
    struct sysv_va tag = { 48, 304, area, regs };
    va_list ap;
    memcpy((void *)ap, &tag, sizeof tag);
    return scn_cert_vfn(buf, size, fmt, ap);
}

/* Variadic kinds: a va_list cannot be forwarded to a variadic function, so
 * one direct call whose shape covers every x86-64 SysV argument sequence:
 * the first 3 integer-class arguments in the remaining general registers,
 * the first 8 doubles in xmm0-7, every other argument in order in 8-byte
 * stack slots (long double: 16-byte aligned 16-byte slot), which is exactly
 * where a callee's va_arg looks. */
#define NSTACK 100
#define S10(b) st[b], st[b + 1], st[b + 2], st[b + 3], st[b + 4], st[b + 5], st[b + 6], st[b + 7], st[b + 8], st[b + 9]

static int call_variadic(struct scn_case *c, void *const *ptr, const char *fmt, char *buf, size_t size)
{
    uint64_t g[3] = { 0, 0, 0 }, st[NSTACK];
    double d[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    size_t ng = 0, nd = 0, k = 0;
    memset(st, 0, sizeof st);
    for (size_t i = 0; i < c->nargs && k + 3 < NSTACK; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type == SCN_ARG_DOUBLE) {
            if (nd < 8) d[nd++] = a->v.d;
            else memcpy(&st[k++], &a->v.d, 8);
            continue;
        }
        if (a->type == SCN_ARG_LDOUBLE) {
            k = (k + 1) & ~(size_t)1;
            memcpy(&st[k], &a->v.ld, 10);
            k += 2;
            continue;
        }
        uint64_t v = arg_word(c, i, ptr);
        if (ng < 3) g[ng++] = v;
        else st[k++] = v;
    }
    return scn_cert_fn(buf, size, fmt, g[0], g[1], g[2], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7],
                       S10(0), S10(10), S10(20), S10(30), S10(40), S10(50), S10(60), S10(70), S10(80),
                       S10(90));
}

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

/* Every call of the function under test: exact-size copies of the inputs,
 * the heartbeat the supervisor times, and a stop for a child the function
 * forked that returns into the driver. */
static int under_test(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)ap;
    struct scn_case *c = case_of(fmt);
    void *ptr[SCN_CASE_MAX_ARGS] = { 0 };
    ninputs = 0;
    char *f = copy_exact(c->fmt, strlen(c->fmt) + 1, -1);
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->is_null) continue;
        if (a->type == SCN_ARG_STR) ptr[i] = copy_exact(c->arena + a->off, (size_t)a->len + 1, (int)i);
        else if (a->type == SCN_ARG_WSTR)
            ptr[i] = copy_exact(c->arena + a->off, ((size_t)a->len + 1) * sizeof(wchar_t), (int)i);
    }
    sh->call_size = size;
    sh->call_t0 = now_ns();
    __atomic_store_n(&sh->in_call, 1, __ATOMIC_SEQ_CST);
    int r = scn_cert_vfn ? call_v(c, ptr, f, buf, size) : call_variadic(c, ptr, f, buf, size);
    __atomic_store_n(&sh->in_call, 0, __ATOMIC_SEQ_CST);
    if (getpid() != sh->worker) _exit(0); /* a forked copy of the caller: the supervisor names the fork */
    for (size_t i = 0; i < ninputs; i++) free((void *)inputs[i].p);
    ninputs = 0;
    return r;
}

/* A scnprintf-family function seen as a C99 one (its full output): called
 * with a buffer big enough that nothing is cut (a return of cap - 1 may be
 * a cut: retried 16 times bigger), the first min(ret, size - 1) bytes copied
 * into buf. Used for the full output the truncation oracles compare with,
 * the expectations and the differential; the scn family itself is always
 * called directly. */
static int scn_as_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    size_t cap = (size_t)1 << 16;
    for (;;) {
        char *tmp = malloc(cap);
        if (!tmp) return -1;
        int r = under_test(tmp, cap, fmt, ap);
        if (r >= 0 && (size_t)r >= cap - 1 && cap < ((size_t)1 << 26)) {
            free(tmp);
            cap *= 16;
            continue;
        }
        if (size) {
            size_t k = r < 0 ? 0 : (size_t)r < size - 1 ? (size_t)r : size - 1;
            if (k > cap - 1) k = cap - 1;
            memcpy(buf, tmp, k);
            buf[k] = '\0';
        }
        free(tmp);
        return r;
    }
}

/* ------------------------------------------------------------ sanitizers */

/* Defaults the environment can override: no leak check (a printf may keep
 * a buffer), faults left to the oracles' handler (overrun into the guard
 * page), redzones of 128 bytes (a read up to 128 bytes past an input is in
 * one), a small quarantine (the resident-memory limit measures the
 * function, not ASan), a huge allocation fails instead of aborting. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0:abort_on_error=0:handle_segv=0:handle_sigbus=0:redzone=128:quarantine_size_mb=32:"
           "allocator_may_return_null=1:max_allocation_size_mb=4096";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:halt_on_error=1"; }

extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
extern int __asan_report_present(void) __attribute__((weak));
extern void *__asan_get_report_address(void) __attribute__((weak));
extern int __asan_get_report_access_type(void) __attribute__((weak));
extern size_t __asan_get_report_access_size(void) __attribute__((weak));
extern const char *__asan_get_report_description(void) __attribute__((weak));

/* What a sanitizer report is about, in shared memory for the supervisor:
 * an access near one of the call's inputs is named after it. */
static void note_report(void)
{
    if (!sh) return;
    sh->san_died = 1;
    snprintf(sh->san_oracle, sizeof sh->san_oracle, "sanitizer");
    if (!(__asan_report_present && __asan_report_present())) {
        snprintf(sh->san_kind, sizeof sh->san_kind, "undefined-behaviour");
        snprintf(sh->san_what, sizeof sh->san_what, "UndefinedBehaviorSanitizer: undefined behaviour");
        return;
    }
    const char *desc = __asan_get_report_description();
    const char *type = __asan_get_report_access_type() ? "WRITE" : "READ";
    size_t size = __asan_get_report_access_size();
    uintptr_t a = (uintptr_t)__asan_get_report_address();
    snprintf(sh->san_kind, sizeof sh->san_kind, "%s %s", desc, type);
    snprintf(sh->san_what, sizeof sh->san_what, "AddressSanitizer: %s: %s of %zu byte(s)", desc, type, size);
    for (size_t i = 0; i < ninputs; i++) {
        uintptr_t p = (uintptr_t)inputs[i].p, end = p + inputs[i].n; /* end - 1: the NUL */
        char what[48];
        if (inputs[i].arg < 0) snprintf(what, sizeof what, "the format");
        else snprintf(what, sizeof what, "string argument %d", inputs[i].arg + 1);
        if (a >= end && a < end + 4096) {
            snprintf(sh->san_oracle, sizeof sh->san_oracle, "read-past-input");
            snprintf(sh->san_kind, sizeof sh->san_kind, "%s past %s", type, what);
            snprintf(sh->san_what, sizeof sh->san_what,
                     "%s of %zu byte(s) %zu byte(s) past the terminating NUL of %s (AddressSanitizer: %s)", type,
                     size, (size_t)(a - end + 1), what, desc);
            return;
        }
        if (a < p && a + 4096 > p) {
            snprintf(sh->san_oracle, sizeof sh->san_oracle, "read-past-input");
            snprintf(sh->san_kind, sizeof sh->san_kind, "%s before %s", type, what);
            snprintf(sh->san_what, sizeof sh->san_what,
                     "%s of %zu byte(s) %zu byte(s) before the start of %s (AddressSanitizer: %s)", type, size,
                     (size_t)(p - a), what, desc);
            return;
        }
    }
}

static int seen_first(const char *key);

/* A probe (a reduction candidate), or a report of a kind the campaign has
 * already logged, needs only what the report is about: ending here skips
 * printing and symbolising (~0.4 s) hundreds of the same report. The
 * first of each kind is printed whole into the sanitizer log. */
void __asan_on_error(void);
void __asan_on_error(void)
{
    if (!sh) return;
    note_report();
    char key[160];
    snprintf(key, sizeof key, "asan-report:%s:%s", sh->san_oracle, sh->san_kind);
    if (sh->probe || !seen_first(key)) _exit(EXIT_SAN);
}

static void on_death(void) { note_report(); }

/* ------------------------------------------------------------ targets */

static const char *cert_version(void) { return "vendored"; }

static struct scn_target cert;   /* as the oracles see it */
static struct scn_target view;   /* C99 view with a big buffer, named --allow-as for the rules */
static struct scn_target named;  /* the same, under its own name (records) */
static const struct scn_target *ref;
static int is_scn;
static enum scn_dialect dialect;
static struct scn_oracle_ctx ctx, lctx;
static unsigned fam_flags;

static void setup_targets(void)
{
    is_scn = scn_cert_kind == K_VSCN || scn_cert_kind == K_SCN;
    dialect = (enum scn_dialect)scn_cert_dialect;
    ref = dialect == SCN_DIALECT_KERNEL ? &scn_target_ref_kernel : &scn_target_ref;
    cert.name = scn_cert_name;
    cert.version = cert_version;
    cert.dialect = dialect;
    cert.where = "in-process";
    /* The full output is the function's own with a big buffer (a scnprintf
     * returns the full length when nothing is cut), so every truncation
     * oracle judges it against itself; differences from the standard are
     * the expectations' and the differential's business. */
    cert.vsnprintf = is_scn ? scn_as_c99 : under_test;
    cert.vscnprintf = is_scn ? under_test : NULL;
    fam_flags = is_scn ? SCN_CHECK_NO_C99 : SCN_CHECK_NO_SCN;
    view = cert;
    view.vscnprintf = NULL;
    named = view;
    if (opt_allow_as && *opt_allow_as) view.name = opt_allow_as;
    scn_oracle_set_catch_faults(1);
    if (scn_oracle_init(&ctx) || scn_oracle_init(&lctx)) {
        fprintf(stderr, "scn-certify: cannot map the guarded buffer\n");
        exit(EXIT_SETUP);
    }
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_death);
    scn_rules_count(); /* the rules tables loaded now, before the first fork (see memo) */
}

/* ------------------------------------------------------------ protocol */

static struct scn_jbuf line;
static int jfirst; /* no comma before the next member */

static void begin(void)
{
    line.n = 0;
    scn_jbuf_str(&line, "{");
    jfirst = 1;
}
static void jkey(const char *k)
{
    scn_jbuf_str(&line, jfirst ? "\"" : ",\"");
    jfirst = 0;
    scn_jbuf_str(&line, k);
    scn_jbuf_str(&line, "\":");
}
static void jopen(const char *k)
{
    jkey(k);
    scn_jbuf_str(&line, "{");
    jfirst = 1;
}
static void jclose(void)
{
    scn_jbuf_str(&line, "}");
    jfirst = 0;
}
static void jstr(const char *k, const char *v)
{
    jkey(k);
    if (v) scn_jbuf_json(&line, v, strlen(v));
    else scn_jbuf_str(&line, "null");
}
static void jnum(const char *k, long long v)
{
    char t[32];
    jkey(k);
    snprintf(t, sizeof t, "%lld", v);
    scn_jbuf_str(&line, t);
}
static void jdbl(const char *k, double v)
{
    char t[40];
    jkey(k);
    snprintf(t, sizeof t, "%.3f", v);
    scn_jbuf_str(&line, t);
}
static void jraw(const char *k, const char *v)
{
    jkey(k);
    scn_jbuf_str(&line, v);
}
static void jcase(const char *k, const struct scn_case *c)
{
    static char *t;
    static size_t cap;
    size_t need = scn_case_format(c, NULL, 0) + 1;
    if (need > cap && !(t = realloc(t, cap = need))) abort();
    size_t l = scn_case_format(c, t, cap);
    jkey(k);
    scn_jbuf_json(&line, t, l);
}

/* Writes the line being built, whole, with its newline (no size limit). */
static void send(void)
{
    scn_jbuf_str(&line, "}\n");
    sh->writing = 1;
    for (size_t off = 0; off < line.n;) {
        ssize_t w = write(proto_fd, line.p + off, line.n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3); /* the runner is gone: nobody to tell */
        off += (size_t)w;
    }
    sh->writing = 0;
}

static void send_error(const char *msg)
{
    begin();
    jstr("error", msg);
    send();
}

/* The record of a finding (docs/FINDINGS.md) as member "finding". */
static void jrecord(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                    const char *detail, long size, int with_size, int sides)
{
    struct scn_out_view ov[2];
    size_t nov = 0;
    static struct scn_case shown;
    memcpy(&shown, &rc->reduced, sizeof shown);
    if (sides == 2) { /* the reference and the function (a call the worker may make) */
        const struct scn_target *t[2] = { ref, &named };
        scn_record_outputs(t, 2, &shown, ov);
        nov = 2;
    } else if (sides == 1) { /* the reference only: the supervisor never calls the function */
        const struct scn_target *t[1] = { ref };
        scn_record_outputs(t, 1, &shown, ov);
        nov = 1;
    }
    char extra[80];
    snprintf(extra, sizeof extra, ",\"phase\":\"%s\"", phase);
    struct scn_record r = { "certify", "scn-certify", oracle, rc, original, dialect, detail,
                            with_size ? scn_cert_name : NULL, is_scn ? "scn" : "c99", size, -1, ov, nov, extra };
    size_t n;
    const char *j = scn_record_json(&r, &n);
    jkey("finding");
    scn_jbuf_put(&line, j, n);
}

/* ------------------------------------------------------------ root causes */

static size_t check(struct scn_oracle_ctx *x, struct scn_case *c, unsigned flags, struct scn_report *r);

/* Known root causes of the phase, by pre-key (the localised finding), so
 * that one bug met by many cases is reduced once. In shared memory: a
 * worker restarted after a fault keeps them (the rules they point to were
 * loaded before the first fork, at the same address in every process). */
#define MEMO_SLOTS 512
struct memo {
    char key[240];
    struct scn_rootcause rc;
};
static struct memo *memo;
static volatile size_t *nmemo;

static const struct scn_rootcause *memo_get(const char *key)
{
    for (size_t i = 0; i < *nmemo; i++)
        if (!strcmp(memo[i].key, key)) return &memo[i].rc;
    return NULL;
}
static const struct scn_rootcause *memo_put(const char *key, const struct scn_rootcause *rc)
{
    if (*nmemo >= MEMO_SLOTS || strlen(key) >= sizeof memo[0].key) return rc; /* full: not remembered */
    struct memo *m = &memo[*nmemo];
    snprintf(m->key, sizeof m->key, "%s", key);
    memcpy(&m->rc, rc, sizeof *rc);
    ++*nmemo; /* published once whole */
    return &m->rc;
}

/* 1 the first time the campaign (every worker) meets key: the one seen set
 * (finding.h) on slots in the shared memory. */
static int seen_first(const char *key) { return scn_seen_first_in(sh->seen, SEEN_SLOTS, key); }

/* The pair as the records name it: the function under its own name (not
 * the --allow-as target whose rules apply), re-signed. */
static void own_names(struct scn_rootcause *rc, const char *oracle, int pair)
{
    if (pair) {
        int fn_first = strcmp(scn_cert_name, ref->name) < 0;
        snprintf(rc->targets, sizeof rc->targets, "%s~%s", fn_first ? scn_cert_name : ref->name,
                 fn_first ? ref->name : scn_cert_name);
    } else {
        snprintf(rc->targets, sizeof rc->targets, "%s", scn_cert_name);
    }
    scn_rootcause_sign(rc, oracle, dialect);
}

/* Signs c as reduced by pred (rootcause.h's scheme). */
static void sign_reduced(const struct scn_case *c, const char *oracle, const char *klass, scn_still_fn pred,
                         void *pctx, struct scn_rootcause *rc)
{
    memcpy(&rc->reduced, c, sizeof *c);
    rc->reduced.nsizes = 0;
    rc->steps = pred ? scn_reduce(&rc->reduced, dialect, pred, pctx, SCN_REDUCE_BUDGET) : 0;
    rc->rule = NULL;
    rc->klass = klass;
    own_names(rc, oracle, 0);
}

/* Per-size oracle findings: localised (the first specification that alone
 * fires the same oracle), reduced once per localised key. */
struct oracle_loc {
    unsigned flags;
    const char *oracle;
};
static int oracle_pred(struct scn_case *sub, void *vctx)
{
    const struct oracle_loc *l = vctx;
    static struct scn_report r;
    return check(&lctx, sub, l->flags, &r) && !strcmp(r.first.oracle, l->oracle);
}

static const struct scn_rootcause *oracle_rootcause(struct scn_case *c, const struct scn_finding *f, unsigned flags)
{
    char conv[8], fclass[16], key[160];
    struct oracle_loc l = { flags, f->oracle };
    scn_case_localise(c, dialect, oracle_pred, &l, conv, fclass);
    snprintf(key, sizeof key, "%s:%s:%s:%s", f->oracle, conv, fclass, scn_family_name(f->family));
    const struct scn_rootcause *known = memo_get(key);
    if (known) return known;
    static struct scn_rootcause rc;
    static struct scn_case work;
    memcpy(&work, c, sizeof work);
    work.nsizes = 1; /* the failing size, besides the edge sizes every check tries */
    work.sizes[0] = f->size;
    scn_rootcause_oracle(&work, dialect, &lctx, &cert, flags & ~(unsigned)SCN_CHECK_ALL_SIZES, f->oracle, f->klass,
                         &rc);
    sh->in_call = 0;
    return memo_put(key, &rc);
}

/* ------------------------------------------------------------ side effects */

/* What the function wrote to stdout or stderr: both are regular files
 * (set up by the supervisor), so their size tells. */
static off_t out_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) ? 0 : st.st_size;
}

struct outs_mark {
    off_t o[3];
};
static void mark_outputs(struct outs_mark *m)
{
    fflush(stdout);
    fflush(stderr);
    m->o[1] = out_size(1);
    m->o[2] = out_size(2);
}
/* 1 or 2: the descriptor written since the mark, else 0 */
static int written_since(const struct outs_mark *m)
{
    fflush(stdout);
    fflush(stderr);
    if (out_size(1) > m->o[1]) return 1;
    if (out_size(2) > m->o[2]) return 2;
    return 0;
}

static int side_pred(struct scn_case *cand, void *vctx)
{
    int fd = *(const int *)vctx;
    struct outs_mark m;
    mark_outputs(&m);
    static struct scn_report r;
    check(&lctx, cand, fam_flags | SCN_CHECK_NO_REPEAT, &r);
    return written_since(&m) == fd;
}

static const struct scn_rootcause *side_rootcause(struct scn_case *c, int fd)
{
    const char *oracle = fd == 1 ? "writes-stdout" : "writes-stderr";
    char conv[8], fclass[16], key[96];
    scn_case_localise(c, dialect, side_pred, &fd, conv, fclass);
    snprintf(key, sizeof key, "%s:%s:%s", oracle, conv, fclass);
    const struct scn_rootcause *known = memo_get(key);
    if (known) return known;
    static struct scn_rootcause rc;
    sign_reduced(c, oracle, "invariant", side_pred, &fd, &rc);
    return memo_put(key, &rc);
}

static void side_detail(int fd, const struct outs_mark *m, char *out, size_t cap)
{
    char got[129], q[600];
    ssize_t n = pread(fd, got, sizeof got - 1, m->o[fd]);
    if (n < 0) n = 0;
    scn_quoted_format(got, (size_t)n, q, sizeof q);
    snprintf(out, cap, "the function wrote %lld byte(s) to %s during the case: %s%s",
             (long long)(out_size(fd) - m->o[fd]), fd == 1 ? "stdout" : "stderr", q, n == 128 ? "..." : "");
}

/* A child process the function created: a fork left running (or exited and
 * never waited for). The supervisor kills it and names the case. */
static void check_children(void)
{
    int st;
    pid_t p = waitpid(-1, &st, WNOHANG | __WALL);
    if (p >= 0) {
        sh->fork_seen = p == 0 ? 1 : 2;
        _exit(EXIT_FORK);
    }
}

/* ------------------------------------------------------------ the case */

static void publish_case(long index, const char *category, const struct scn_case *c)
{
    sh->case_set = 1;
    sh->case_t0 = now_ns();
    sh->index = index;
    snprintf(sh->category, sizeof sh->category, "%s", category ? category : "");
    scn_case_format(c, sh->case_text, sizeof sh->case_text);
}

/* The function's own output with a big buffer (the C99 view). */
static int own_output(struct scn_case *c, unsigned char *out, size_t *len, long long *n, size_t *nn, int *faulted)
{
    int ret = 0, in_guard = 0;
    char *b;
    *faulted = scn_oracle_call(&ctx, &view, SCN_FAM_C99, c, BIG, 0, &ret, &b, &in_guard);
    sh->in_call = 0;
    *len = 0;
    *nn = 0;
    if (*faulted) return -1;
    if (ret >= 0) {
        size_t l = (size_t)ret < BIG ? (size_t)ret : strnlen(b, BIG);
        memcpy(out, b, l);
        *len = l;
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < k; i++) n[i] = scn_case_n_value(c, idx[i]);
    *nn = k;
    return ret;
}

/* The reference's output length of c: the limits of its calls. */
static size_t ref_len(struct scn_case *c)
{
    static char *b;
    if (!b && !(b = malloc(BIG))) abort();
    int r = scn_case_call(ref->vsnprintf, c, b, BIG);
    return r < 0 ? 0 : (size_t)r;
}

static int fault_oracle(const char *o) { return !strcmp(o, "overrun") || !strcmp(o, "crash"); }

/* A fault the oracles catch (siglongjmp out of the function) skips the end
 * of under_test: the heartbeat must not go on timing a call that is over. */
static size_t check(struct scn_oracle_ctx *x, struct scn_case *c, unsigned flags, struct scn_report *r)
{
    size_t n = scn_check_case(x, &cert, c, flags, r);
    sh->in_call = 0;
    return n;
}

static void restart_worker(void)
{
    sh->in_call = 0;
    sh->restart = 1;
    _exit(EXIT_RESTART);
}

/* After a fault the oracles caught: a wild one ("crash") may have left the
 * function's state broken, so the next case gets a fresh worker. A write
 * into the guard page after the buffer ("overrun") never happened, so the
 * worker goes on (a restart costs a new process, and such a function
 * overruns on most cases); a later fatal case of this worker says so. */
static void after_fault(const char *oracle, long next)
{
    if (!strcmp(oracle, "overrun")) {
        if (!sh->tainted[0]) snprintf(sh->tainted, sizeof sh->tainted, "%s", sh->case_text);
        return;
    }
    if (next >= 0) sh->next = next;
    restart_worker();
}

/* ------------------------------------------------------------ conform */

struct plan_line {
    const char *file;
    long line;
    char *text;
};
static struct plan_line *plan;
static long nplan;

static int in_claim(const char *cat)
{
    if (!opt_categories || !*opt_categories) return 1;
    const char *p = opt_categories;
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
    return dialect == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
}

/* Reads the corpus: the cases with an expectation in the dialect's column,
 * in the claimed categories, in order. */
static int load_plan(int nfiles, char **files)
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
            if (!(plan = realloc(plan, (size_t)(nplan + 1) * sizeof *plan)) || !(plan[nplan].text = strdup(l)))
                abort();
            plan[nplan].file = files[i];
            plan[nplan++].line = ln;
        }
        free(l);
        fclose(fp);
    }
    return 0;
}

static void parse_plan(long i, struct scn_corpus_entry *e)
{
    char err[300];
    scn_corpus_parse_line(plan[i].text, strlen(plan[i].text), e, err, sizeof err);
}

static void conform_case(long i)
{
    static struct scn_corpus_entry e;
    static struct scn_expect a;
    static char expected[SCN_EXPECT_MAX * 4 + 64], actual[SCN_EXPECT_MAX * 4 + 64];
    static unsigned char out[BIG];
    parse_plan(i, &e);
    const struct scn_expect *x = expectation(&e);
    publish_case(i, e.category, &e.c);
    set_limits(x->kind == SCN_EXPECT_OUTPUT ? x->len : 0);
    struct outs_mark m;
    mark_outputs(&m);
    unsigned flags = SCN_CHECK_ALL_SIZES | fam_flags;
    struct scn_report r;
    size_t nf = check(&ctx, &e.c, flags, &r);
    static struct scn_finding f;
    int have_f = nf && strcmp(r.first.oracle, "full-too-long");
    if (have_f) f = r.first;
    long long n[SCN_CASE_MAX_ARGS];
    size_t len = 0, nn = 0;
    int faulted = 0, ret = 0;
    const char *oracle = have_f ? f.oracle : NULL, *klass = have_f ? f.klass : "conformance";
    if (!have_f) ret = own_output(&e.c, out, &len, n, &nn, &faulted);
    check_children();
    int fd = written_since(&m);
    char side[400] = "";
    if (fd) side_detail(fd, &m, side, sizeof side);
    scn_expect_format(x, expected, sizeof expected);
    actual[0] = 0;
    if (!have_f) {
        if (faulted) {
            oracle = "crash";
            klass = "memory-safety";
        } else if (x->kind == SCN_EXPECT_ERR) {
            /* C99 kinds: a negative return; scn kinds: 0 and "" (the error is not passed through) */
            if (is_scn ? (ret != 0 || len != 0) : ret >= 0) oracle = "expect.err";
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
    int sides = (have_f && fault_oracle(f.oracle)) || faulted ? 1 : 2;
    if (fd) {
        status = "fail";
        oracle = fd == 1 ? "writes-stdout" : "writes-stderr";
        klass = "invariant";
        rc = side_rootcause(&e.c, fd);
    } else if (have_f || (oracle && strncmp(oracle, "expect.", 7))) { /* an oracle, or a fault */
        status = "fail";
        if (have_f) rc = oracle_rootcause(&e.c, &f, flags);
        else {
            static struct scn_rootcause crc;
            sign_reduced(&e.c, oracle, klass, NULL, NULL, &crc);
            rc = &crc;
        }
    } else if (oracle) {
        /* an expectation missed: reduced against the reference; a known
         * bug or gap of the --allow-as target explains it (inherited) */
        scn_rootcause_expect(&e.c, dialect, &view, ref, oracle, &erc);
        klass = erc.klass;
        own_names(&erc, oracle, 0);
        rc = &erc;
        if (erc.rule && erc.rule->kind != SCN_RULE_ALLOWANCE && opt_allow_as) {
            status = "known";
        } else {
            /* the corpus says whether the standard leaves this open (kind
             * impl); an allowance does not excuse a std expectation */
            if (!strcmp(e.kind, "impl")) note = "impl-differs";
            else status = "fail";
            erc.rule = NULL;
            erc.klass = klass = "conformance";
            own_names(&erc, oracle, 0);
        }
    }
    begin();
    jstr("phase", "conform");
    jnum("index", i);
    jstr("target", scn_cert_name);
    jstr("category", e.category);
    jcase("case", &e.c);
    jstr("kind", e.kind);
    jstr("status", status);
    jstr("oracle", oracle);
    if (oracle) {
        jstr("class", klass);
        jstr("expected", expected);
        if (have_f && !fd) {
            jnum("ret", f.ret);
            jnum("size", (long long)f.size);
            jstr("family", scn_family_name(f.family));
            jstr("detail", f.detail);
        } else {
            jstr("actual", actual);
            jnum("ret", ret);
            jraw("size", "null");
            if (fd) jstr("detail", side);
        }
        if (note) jstr("note", note);
        if (dialect == SCN_DIALECT_KERNEL && e.iso.kind == SCN_EXPECT_OUTPUT && a.kind == SCN_EXPECT_OUTPUT &&
            a.len == e.iso.len && !memcmp(a.bytes, e.iso.bytes, a.len) && !have_f)
            jraw("iso_matches", "true"); /* the dialect, not the function, may be what is wrong */
        if (rc && rc->rule) {
            jstr("rule", rc->rule->id);
            jstr("rule_kind", scn_rule_kind_name(rc->rule->kind));
        }
        if (rc) {
            jstr("signature", rc->signature);
            jrecord(oracle, rc, &e.c, fd ? side : have_f ? f.detail : "the output differs from the corpus expectation",
                    have_f ? (long)f.size : 0, have_f, sides);
        }
    }
    char where[600];
    snprintf(where, sizeof where, "%s", plan[i].file);
    jstr("file", where);
    jnum("line", plan[i].line);
    jstr("citation", e.citation);
    send();
    check_children(); /* a fork during the reductions: a second, fatal line for this case */
    /* a fault the oracles caught may leave the function's state broken
     * (a lock held, a heap half-updated): the next case gets a fresh worker */
    if (faulted) after_fault("crash", i + 1);
    if (have_f && fault_oracle(f.oracle)) after_fault(f.oracle, i + 1);
}

/* ------------------------------------------------------------ retval */

static const char *const rv_fmts[] = { "%s", "%s|", "%-*s|", "%*s", "%d", "%x%s", "%.3s%s" };
#define RV_LENS 27 /* 0..19, then 20..62 by 7 */

static long retval_count(void) { return (long)(sizeof rv_fmts / sizeof rv_fmts[0]) * RV_LENS; }

static void retval_build(long i, struct scn_case *c)
{
    const char *f = rv_fmts[i / RV_LENS];
    int j = (int)(i % RV_LENS), L = j < 20 ? j : 20 + 7 * (j - 20);
    char s[80];
    for (int k = 0; k < L; k++) s[k] = (char)('a' + k % 26);
    s[L] = 0;
    scn_case_init(c, f, strlen(f));
    if (!strcmp(f, "%-*s|") || !strcmp(f, "%*s")) {
        scn_case_add_int(c, SCN_ARG_INT, L);
        scn_case_add_str(c, "ab", 2);
    } else if (!strcmp(f, "%d")) {
        scn_case_add_int(c, SCN_ARG_INT, -(long long)L * 1234567);
    } else if (!strcmp(f, "%x%s")) {
        scn_case_add_uint(c, SCN_ARG_UINT, (unsigned long long)L * 0x1111u);
        scn_case_add_str(c, s, (size_t)L);
    } else {
        scn_case_add_str(c, s, (size_t)L);
        if (!strcmp(f, "%.3s%s")) scn_case_add_str(c, s, (size_t)L);
    }
}

static void retval_case(long i)
{
    static struct scn_case c;
    retval_build(i, &c);
    publish_case(i, "retval", &c);
    set_limits(ref_len(&c));
    struct outs_mark m;
    mark_outputs(&m);
    unsigned flags = SCN_CHECK_ALL_SIZES | fam_flags;
    struct scn_report r;
    size_t nf = check(&ctx, &c, flags, &r);
    static struct scn_finding f;
    int have_f = nf && strcmp(r.first.oracle, "full-too-long");
    if (have_f) f = r.first;
    check_children();
    int fd = written_since(&m);
    char side[400] = "";
    begin();
    jstr("phase", "retval");
    jnum("index", i);
    jcase("case", &c);
    if (fd) {
        side_detail(fd, &m, side, sizeof side);
        const char *o = fd == 1 ? "writes-stdout" : "writes-stderr";
        const struct scn_rootcause *rc = side_rootcause(&c, fd);
        jstr("status", "fail");
        jstr("oracle", o);
        jstr("class", "invariant");
        jstr("detail", side);
        jstr("signature", rc->signature);
        jrecord(o, rc, &c, side, 0, 0, 2);
    } else if (have_f) {
        const struct scn_rootcause *rc = oracle_rootcause(&c, &f, flags);
        jstr("status", "fail");
        jstr("oracle", f.oracle);
        jstr("class", f.klass);
        jstr("detail", f.detail);
        jnum("size", (long long)f.size);
        jstr("signature", rc->signature);
        jrecord(f.oracle, rc, &c, f.detail, (long)f.size, 1, 2);
    } else {
        jstr("status", "pass");
    }
    send();
    check_children();
    if (have_f && fault_oracle(f.oracle)) after_fault(f.oracle, i + 1);
}

/* ------------------------------------------------------------ fuzz */

static uint64_t rnd(void)
{
    sh->rng ^= sh->rng << 13;
    sh->rng ^= sh->rng >> 7;
    sh->rng ^= sh->rng << 17;
    return sh->rng;
}

static void fuzz_finding(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *c,
                         const char *detail, long size, int with_size)
{
    sh->n_findings++;
    if (rc->rule || !strcmp(rc->klass, "implementation-defined")) sh->n_impl++;
    else sh->n_bug++;
    begin();
    jstr("phase", "fuzz");
    jstr("oracle", oracle);
    jstr("class", rc->klass);
    jcase("case", c);
    jstr("signature", rc->signature);
    jnum("execs", (long long)sh->execs);
    jrecord(oracle, rc, c, detail, size, with_size, 2);
    send();
}

/* The differential names the function by the target whose rules apply
 * ("between ref and glibc"): the detail says which function it is. */
static void own_detail(const char *d, char *out, size_t cap)
{
    const char *as = view.name;
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
    if (scn_case_call(ref->vsnprintf, cand, b, BIG) >= 0) return 0;
    int faulted, ret = 0, in_guard;
    char *buf;
    faulted = scn_oracle_call(&lctx, &cert, SCN_FAM_SCN, cand, BIG, 0, &ret, &buf, &in_guard);
    sh->in_call = 0;
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
    if (scn_oracle_call(&ctx, ref, SCN_FAM_C99, c, BIG, 0, &ra, &buf, &in_guard)) return;
    if (ra >= 0) {
        la = (size_t)ra < BIG ? (size_t)ra : strnlen(buf, BIG);
        memcpy(a, buf, la);
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    nna = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nna; i++) na[i] = scn_case_n_value(c, idx[i]);
    set_limits(la);
    unsigned flags = fam_flags | SCN_CHECK_NO_REPEAT;
    struct scn_report r;
    size_t nf = check(&ctx, c, flags, &r);
    if (nf && strcmp(r.first.oracle, "full-too-long")) {
        static struct scn_finding f;
        f = r.first;
        char conv[8], fclass[16], key[160];
        struct oracle_loc l = { flags, f.oracle };
        scn_case_localise(c, dialect, oracle_pred, &l, conv, fclass);
        snprintf(key, sizeof key, "%s:%s:%s:%s", f.oracle, conv, fclass, scn_family_name(f.family));
        if (seen_first(key)) {
            const struct scn_rootcause *rc = oracle_rootcause(c, &f, flags);
            fuzz_finding(f.oracle, rc, c, f.detail, (long)f.size, 1);
        }
        if (fault_oracle(f.oracle)) after_fault(f.oracle, -1);
        return;
    }
    int faulted = 0;
    int rb = own_output(c, b, &lb, nb, &nnb, &faulted);
    if (faulted) restart_worker();
    static struct scn_rootcause rc;
    if (is_scn && ra < 0) {
        if ((rb != 0 || lb != 0) && seen_first("differential:error-ret")) {
            char d[200];
            snprintf(d, sizeof d, "the reference fails (ret %d): a scnprintf must return 0 and \"\", got %d", ra, rb);
            sign_reduced(c, SCN_DIFF_ORACLE, "divergence", err_pred, NULL, &rc);
            own_names(&rc, SCN_DIFF_ORACLE, 1);
            fuzz_finding(SCN_DIFF_ORACLE, &rc, c, d, 0, 0);
        }
        return;
    }
    struct scn_diff_out outs[2] = {
        { ref, ra, a, la, nna, na },
        { &view, rb, b, lb, nnb, nb },
    };
    struct scn_diff_finding df;
    const struct scn_step step = { dialect, &lctx, seen_first };
    int fresh;
    scn_step_diff(&step, c, outs, 2, &df, &rc, NULL, &fresh);
    if (!fresh) return;
    own_names(&rc, SCN_DIFF_ORACLE, 1);
    char detail[sizeof df.detail + 160];
    own_detail(df.detail, detail, sizeof detail);
    fuzz_finding(SCN_DIFF_ORACLE, &rc, c, detail, 0, 0);
}

/* One input: its checks, then what they left behind (a child process,
 * output on stdout/stderr), which is a finding on this case. */
static void fuzz_one(struct scn_case *c)
{
    publish_case(-1, NULL, c);
    struct outs_mark m;
    mark_outputs(&m);
    fuzz_checks(c);
    check_children();
    int fd = written_since(&m);
    if (fd) {
        const char *o = fd == 1 ? "writes-stdout" : "writes-stderr";
        char side[400];
        side_detail(fd, &m, side, sizeof side);
        const struct scn_rootcause *rc = side_rootcause(c, fd);
        if (seen_first(rc->signature)) fuzz_finding(o, rc, c, side, 0, 0);
    }
}

static void mutate(uint8_t *d, size_t *n)
{
    int k = 1 + (int)(rnd() % 4);
    while (k--) {
        switch (rnd() % 5) {
        case 0: if (*n) d[rnd() % *n] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: if (*n) d[rnd() % *n] = (uint8_t)rnd(); break;
        case 2: if (*n < MAXIN) { size_t p = rnd() % (*n + 1); memmove(d + p + 1, d + p, *n - p); d[p] = (uint8_t)rnd(); (*n)++; } break;
        case 3: if (*n > 1) { size_t p = rnd() % *n; memmove(d + p, d + p + 1, *n - p - 1); (*n)--; } break;
        case 4: if (sh->ncorp) { size_t o = rnd() % sh->ncorp, p = rnd() % (*n + 1), q = rnd() % (sh->corp_len[o] + 1);
                    size_t m = sh->corp_len[o] - q; if (p + m > MAXIN) m = MAXIN - p; memcpy(d + p, sh->corp[o] + q, m);
                    if (p + m > *n) *n = p + m; } break;
        }
    }
}

static unsigned fuzz_decode_flags;

static void fuzz_body(void)
{
    static struct scn_case c;
    uint8_t in[MAXIN];
    cov_on = 1;
    while (now_ns() < sh->deadline) {
        size_t n;
        if (sh->ncorp && rnd() % 8) {
            size_t o = rnd() % sh->ncorp;
            n = sh->corp_len[o];
            memcpy(in, sh->corp[o], n);
            mutate(in, &n);
        } else {
            n = 1 + rnd() % 96;
            for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        }
        scn_case_from_bytes(in, n, &c, dialect, fuzz_decode_flags);
        cov_new = 0;
        sh->execs++; /* counted before it runs: a case that kills the worker was executed */
        fuzz_one(&c);
        if (cov_new && sh->ncorp < MAXCORP) {
            memcpy(sh->corp[sh->ncorp], in, n);
            sh->corp_len[sh->ncorp++] = n;
        }
    }
}

/* ------------------------------------------------------------ supervisor */

enum ev { EV_DONE, EV_RESTART, EV_DEADLINE, EV_STOPPED, EV_TIMEOUT, EV_MEMORY, EV_EXIT, EV_SIGNAL, EV_SANITIZER, EV_FORK };

struct outcome {
    int ev, code;
    size_t size;
    char oracle[32];
    const char *klass;
    char kind[80];    /* what must stay the same while reducing */
    char detail[900];
};

static volatile sig_atomic_t stop_requested;
static void on_term(int sig) { (void)sig; stop_requested = 1; }
static sigset_t chld_mask, orig_mask;

static void kill_strays(void)
{
    /* orphans of the function come to us (a child subreaper): kill and reap */
    for (int round = 0; round < 100; round++) {
        int any = 0;
        DIR *d = opendir("/proc/self/task");
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (de->d_name[0] == '.') continue;
            char p[300];
            snprintf(p, sizeof p, "/proc/self/task/%s/children", de->d_name);
            FILE *fp = fopen(p, "r");
            if (!fp) continue;
            int pid;
            while (fscanf(fp, "%d", &pid) == 1) {
                kill(pid, SIGKILL);
                any = 1;
            }
            fclose(fp);
        }
        if (d) closedir(d);
        while (waitpid(-1, NULL, WNOHANG | __WALL) > 0) any = 1;
        if (!any) return;
        usleep(2000);
    }
}

static void sanlog_summary(pid_t pid, char *out, size_t cap)
{
    out[0] = 0;
    if (!opt_sanlog) return;
    char p[4200];
    snprintf(p, sizeof p, "%s.%d", opt_sanlog, (int)pid);
    FILE *fp = fopen(p, "r");
    if (!fp) return;
    char l[1024];
    while (fgets(l, sizeof l, fp)) {
        l[strcspn(l, "\n")] = 0;
        if (strstr(l, "runtime error:") || !strncmp(l, "SUMMARY:", 8)) snprintf(out, cap, "%s", l);
        if (strstr(l, "runtime error:")) break;
    }
    fclose(fp);
}

static const char *sig_name(int s)
{
    switch (s) {
    case SIGABRT: return "SIGABRT (abort())";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    default: return strsignal(s);
    }
}

static pid_t start_child(void (*body)(void *), void *arg, int probe)
{
    sh->in_call = 0;
    sh->case_set = 0;
    sh->tainted[0] = 0;
    sh->done = sh->restart = sh->fork_seen = sh->san_died = 0;
    sh->probe = probe;
    sh->writing = 0;
    set_limits(0); /* until the first case sets its own */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        send_error("fork failed");
        exit(EXIT_SETUP);
    }
    if (pid == 0) {
        /* its own process group, so that what the function forks dies with it */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != supervisor_pid) _exit(0);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_SETMASK, &orig_mask, NULL);
        sh->worker = getpid();
        sh->rss0 = rss_of(getpid());
        setvbuf(stdout, NULL, _IONBF, 0);
        body(arg);
        sh->done = 1;
        _exit(0);
    }
    setpgid(pid, pid);
    return pid;
}

static void classify(pid_t pid, int st, int killed, long mb, double limit_scale, struct outcome *o);

/* Watches a worker or probe until it ends; *o says how. */
static void supervise(pid_t pid, uint64_t deadline, double limit_scale, struct outcome *o)
{
    int st = 0, killed = -1;
    long mb = 0;
    uint64_t last_mem = 0;
    memset(o, 0, sizeof *o);
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) break;
        uint64_t now = now_ns();
        uint64_t limit = (uint64_t)((double)sh->call_limit * limit_scale);
        if (stop_requested) killed = EV_STOPPED;
        else if (sh->in_call && now > sh->call_t0 && now - sh->call_t0 > limit) killed = EV_TIMEOUT;
        else if (deadline && now > deadline && !sh->writing) killed = EV_DEADLINE;
        else if (now - last_mem > 20000000u) {
            last_mem = now;
            uint64_t rss = rss_of(pid);
            if (rss > sh->rss0 + sh->mem_limit && !sh->writing) killed = EV_MEMORY;
        }
        if (killed >= 0) {
            o->size = sh->call_size;
            if (killed == EV_MEMORY) mb = (long)((rss_of(pid) - sh->rss0) >> 20);
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = { 0, 5000000 }; /* woken at once by SIGCHLD */
        sigtimedwait(&chld_mask, NULL, &ts);
    }
    kill(-pid, SIGKILL); /* what the function left in the worker's group */
    kill_strays();
    classify(pid, st, killed, mb, limit_scale, o);
    size_t l = strlen(o->detail);
    if (o->oracle[0] && sh->tainted[0] && o->ev != EV_FORK)
        snprintf(o->detail + l, sizeof o->detail - l,
                 "; this process had caught an overrun earlier (on %.200s): what that left may be the cause", sh->tainted);
}

static void classify(pid_t pid, int st, int killed, long mb, double limit_scale, struct outcome *o)
{
    o->klass = "crash";
    if (!o->size) o->size = sh->call_size;
    char log[600];
    switch (killed) {
    case EV_STOPPED: o->ev = EV_STOPPED; return;
    case EV_DEADLINE: o->ev = EV_DEADLINE; return;
    case EV_TIMEOUT:
        o->ev = EV_TIMEOUT;
        snprintf(o->oracle, sizeof o->oracle, "hang");
        o->klass = "hang";
        snprintf(o->kind, sizeof o->kind, "timeout");
        snprintf(o->detail, sizeof o->detail, "a call at size %zu did not return within %.2f s (killed)", o->size,
                 (double)sh->call_limit * limit_scale / 1e9);
        return;
    case EV_MEMORY:
        o->ev = EV_MEMORY;
        snprintf(o->oracle, sizeof o->oracle, "memory-limit");
        snprintf(o->kind, sizeof o->kind, "memory");
        snprintf(o->detail, sizeof o->detail,
                 "resident memory grew by %ld MB, past the case's limit of %llu MB, during a call at size %zu (killed)",
                 mb, (unsigned long long)(sh->mem_limit >> 20), o->size);
        return;
    }
    if (sh->san_died) {
        o->ev = EV_SANITIZER;
        snprintf(o->oracle, sizeof o->oracle, "%s", sh->san_oracle);
        o->klass = strstr(sh->san_what, "AddressSanitizer") || !strcmp(sh->san_oracle, "read-past-input")
                       ? "memory-safety" : "crash";
        snprintf(o->kind, sizeof o->kind, "%s", sh->san_kind);
        sanlog_summary(pid, log, sizeof log);
        snprintf(o->detail, sizeof o->detail, "%s during a call at size %zu%s%s", sh->san_what, o->size,
                 log[0] ? ": " : "", log);
        return;
    }
    if (sh->fork_seen) {
        o->ev = EV_FORK;
        snprintf(o->oracle, sizeof o->oracle, "fork");
        snprintf(o->kind, sizeof o->kind, "fork");
        snprintf(o->detail, sizeof o->detail,
                 sh->fork_seen == 1 ? "the function created a child process and left it running (killed)"
                                    : "the function created a child process and never waited for it");
        return;
    }
    if (WIFEXITED(st) && sh->done && !sh->in_call) {
        o->ev = EV_DONE;
        return;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_RESTART && sh->restart && !sh->in_call) {
        o->ev = EV_RESTART;
        return;
    }
    if (WIFEXITED(st)) {
        o->ev = EV_EXIT;
        o->code = WEXITSTATUS(st);
        snprintf(o->oracle, sizeof o->oracle, "crash");
        snprintf(o->kind, sizeof o->kind, "exit %d", o->code);
        if (sh->in_call)
            snprintf(o->detail, sizeof o->detail, "the function ended the process: exit(%d) during a call at size %zu",
                     o->code, o->size);
        else
            snprintf(o->detail, sizeof o->detail, "the process exited with status %d between calls (after the "
                     "function returned: its state or the heap was damaged)", o->code);
        return;
    }
    o->ev = EV_SIGNAL;
    o->code = WTERMSIG(st);
    if (o->code == SIGSEGV || o->code == SIGBUS) o->klass = "memory-safety"; /* a fault the oracles did not catch */
    snprintf(o->oracle, sizeof o->oracle, "crash");
    snprintf(o->kind, sizeof o->kind, "signal %d", o->code);
    snprintf(o->detail, sizeof o->detail, "the process died of %s %s", sig_name(o->code),
             sh->in_call ? "during a call" : "between calls (after the function returned)");
    if (sh->in_call) snprintf(o->detail + strlen(o->detail), sizeof o->detail - strlen(o->detail), " at size %zu", o->size);
}

/* ---- reducing a fatal case: each candidate in a fresh probe */

struct death_still {
    const struct outcome *want;
    uint64_t until;
    unsigned probes;
};

static void probe_body(void *arg)
{
    struct scn_case *c = arg;
    publish_case(-1, NULL, c);
    set_limits(ref_len(c));
    struct scn_report r;
    check(&ctx, c, SCN_CHECK_ALL_SIZES | fam_flags | SCN_CHECK_NO_REPEAT, &r);
    static unsigned char out[BIG];
    long long n[SCN_CASE_MAX_ARGS];
    size_t len, nn;
    int faulted;
    own_output(c, out, &len, n, &nn, &faulted);
    check_children();
}

static int death_still(struct scn_case *cand, void *vctx)
{
    struct death_still *k = vctx;
    if (now_ns() >= k->until || stop_requested) return 0; /* out of time: keep what is reduced so far */
    k->probes++;
    pid_t pid = start_child(probe_body, cand, 1);
    struct outcome o;
    /* a candidate that still hangs is told in 0.15 of the call limit: the
     * others end in milliseconds */
    supervise(pid, k->until, k->want->ev == EV_TIMEOUT ? 0.15 : 1.0, &o);
    return o.ev == k->want->ev && o.code == k->want->code && !strcmp(o.kind, k->want->kind);
}

static double fault_seconds; /* spent on fatal cases: their timeouts and reductions */

/* The pre-key of a fatal case: how it died and the conversions of its
 * format ("exit 0|o"). The first case of a pre-key is reduced (in probes);
 * later ones are hits of the same root cause, as the fuzzers count them. */
static void death_key(const struct outcome *o, const struct scn_case *c, char *key, size_t cap)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS), k = 0;
    char convs[64] = "";
    for (size_t i = 0; i < n && k + 2 < sizeof convs; i++)
        if (!strchr(convs, sp[i].conv ? sp[i].conv : '!')) convs[k++] = sp[i].conv ? sp[i].conv : '!';
    convs[k] = 0;
    snprintf(key, cap, "%s|%s|%s", o->oracle, o->kind, convs);
}

static void death_record(const struct outcome *o, long index, double budget_left)
{
    static struct scn_case c;
    static struct scn_rootcause rc;
    char err[200], key[200];
    if (scn_case_parse(sh->case_text, strlen(sh->case_text), &c, err, sizeof err)) {
        send_error("the case being run could not be read back");
        return;
    }
    death_key(o, &c, key, sizeof key);
    const struct scn_rootcause *known = memo_get(key);
    if (known) {
        memcpy(&rc, known, sizeof rc);
    } else {
        uint64_t t0 = now_ns();
        double secs = budget_left < REDUCE_SECONDS ? budget_left : REDUCE_SECONDS;
        struct death_still k = { o, t0 + (uint64_t)(secs > 0 ? secs * 1e9 : 0), 0 };
        sign_reduced(&c, o->oracle, o->klass, secs > 0.5 ? death_still : NULL, &k, &rc);
        memo_put(key, &rc);
    }
    char detail[1200];
    snprintf(detail, sizeof detail, "%s (phase %s)", o->detail, phase);
    begin();
    jstr("phase", phase);
    if (index >= 0) jnum("index", index);
    if (index >= 0 && plan && !strcmp(phase, "conform")) {
        static struct scn_corpus_entry e;
        parse_plan(index, &e);
        jstr("target", scn_cert_name);
        jstr("category", e.category);
        jstr("kind", e.kind);
        jstr("file", plan[index].file);
        jnum("line", plan[index].line);
        jstr("citation", e.citation);
    }
    jcase("case", &c);
    jstr("status", "fail");
    jstr("oracle", o->oracle);
    jstr("class", o->klass);
    jstr("detail", detail);
    jnum("size", (long long)o->size);
    jraw("fatal", "true");
    jstr("signature", rc.signature);
    jrecord(o->oracle, &rc, &c, detail, (long)o->size, 1, 1);
    send();
}

/* Runs one phase to its end: workers restarted after each fatal case. */
static int run_phase(void (*body)(void *), long planned, uint64_t deadline, int fuzz)
{
    uint64_t t0 = now_ns();
    long deaths = 0, restarts = 0;
    const char *stop = NULL;
    char stopped_case[CASE_TEXT_MAX > 2000 ? 2000 : CASE_TEXT_MAX] = "";
    sh->next = 0;
    for (;;) {
        pid_t pid = start_child(body, NULL, 0);
        struct outcome o;
        supervise(pid, fuzz ? deadline + (uint64_t)30e9 : deadline, 1.0, &o);
        if (o.ev == EV_DONE) break;
        if (o.ev == EV_RESTART) {
            restarts++;
            continue;
        }
        if (o.ev == EV_DEADLINE || o.ev == EV_STOPPED) {
            stop = o.ev == EV_STOPPED ? "stopped by a signal (SIGTERM)"
                   : fuzz ? "the worker did not end within 30 s of the phase's time (a reduction too long?)"
                          : "the phase limit (--phase-limit) was reached";
            snprintf(stopped_case, sizeof stopped_case, "%s", sh->case_text);
            break;
        }
        /* a fatal case: a finding on it, then the next case */
        if (!sh->case_set) {
            stop = "the worker died before it ran a case (a set-up failure)";
            snprintf(stopped_case, sizeof stopped_case, "%s", o.detail);
            break;
        }
        deaths++;
        long index = fuzz ? -1 : sh->index;
        uint64_t case_t0 = sh->case_t0; /* the probes of the reduction publish their own cases */
        snprintf(stopped_case, sizeof stopped_case, "%s", sh->case_text);
        death_record(&o, index, fuzz ? ((double)deadline - (double)now_ns()) / 1e9 + REDUCE_SECONDS
                                     : opt_fault_budget - fault_seconds);
        /* what the fatal case cost, from its start to its record: the wait
         * for a timeout, the sanitizer's report, the reduction */
        fault_seconds += (double)(now_ns() - case_t0) / 1e9;
        if (!fuzz) sh->next = index + 1;
        if (!fuzz && (fault_seconds > opt_fault_budget || deaths >= MAX_DEATHS)) {
            stop = deaths >= MAX_DEATHS ? "too many fatal cases (200)"
                                        : "the fault budget (--fault-budget) is spent: fatal cases cost too much time";
            break;
        }
    }
    long run = fuzz ? (long)sh->execs : (stop ? sh->next : planned);
    begin();
    jopen("end");
    jstr("phase", phase);
    jraw("complete", stop ? "false" : "true");
    if (stop) {
        jstr("reason", stop);
        jstr("case", stopped_case);
    }
    jnum("planned", planned);
    jnum("run", run);
    jnum("deaths", deaths);
    jnum("restarts", restarts);
    jdbl("fault_seconds", fault_seconds);
    jdbl("seconds", (double)(now_ns() - t0) / 1e9);
    if (fuzz) {
        jnum("executions", (long long)sh->execs);
        jnum("coverage_edges", (long long)sh->cov_hit);
        jnum("coverage_total", (long long)cov_total);
        jnum("corpus", (long long)sh->ncorp);
        jnum("findings", (long long)sh->n_findings);
        jnum("bugs", (long long)sh->n_bug);
        jnum("implementation_defined", (long long)sh->n_impl);
    }
    jclose();
    send();
    return 0;
}

static void conform_body(void *arg)
{
    (void)arg;
    for (long i = sh->next; i < nplan; i++) {
        conform_case(i);
        sh->next = i + 1;
        sh->case_set = 0; /* a death from here on is not this case's */
    }
}

static void retval_body(void *arg)
{
    (void)arg;
    long n = retval_count();
    for (long i = sh->next; i < n; i++) {
        retval_case(i);
        sh->next = i + 1;
        sh->case_set = 0; /* a death from here on is not this case's */
    }
}

static void fuzz_body_arg(void *arg)
{
    (void)arg;
    fuzz_body();
}

/* ------------------------------------------------------------ main */

static void usage(void)
{
    fprintf(stderr, "usage: scn-certify [--fd N] [--categories LIST] [--allow-as TARGET] [--call-limit S]\n"
                    "       [--fault-budget S] [--phase-limit S] [--sanitizer-log PREFIX]\n"
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

int main(int argc, char **argv)
{
    int fd = -1, i = 1;
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--fd")) fd = atoi(v);
        else if (!strcmp(o, "--categories")) opt_categories = v;
        else if (!strcmp(o, "--allow-as")) opt_allow_as = v;
        else if (!strcmp(o, "--call-limit")) opt_call_limit = atof(v);
        else if (!strcmp(o, "--fault-budget")) opt_fault_budget = atof(v);
        else if (!strcmp(o, "--phase-limit")) opt_phase_limit = atof(v);
        else if (!strcmp(o, "--sanitizer-log")) opt_sanlog = v;
        else {
            usage();
            return EXIT_SETUP;
        }
    }
    if (i >= argc || !(opt_call_limit > 0) || !(opt_fault_budget >= 0) || !(opt_phase_limit > 0)) {
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
    proto_fd = pfd;
    capture_fd(1, "scn-certify-stdout");
    capture_fd(2, "scn-certify-stderr");
    signal(SIGPIPE, SIG_IGN);
    supervisor_pid = getpid();
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* the runner gone: clean up and end */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigemptyset(&chld_mask);
    sigaddset(&chld_mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld_mask, &orig_mask);
    size_t shsize = sizeof(struct shared) + cov_total + 1;
    sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        fprintf(stderr, "scn-certify: cannot map the shared state\n");
        return EXIT_SETUP;
    }
    sh->worker = getpid();
    memo = mmap(NULL, MEMO_SLOTS * sizeof *memo + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memo == MAP_FAILED) {
        fprintf(stderr, "scn-certify: cannot map the shared state\n");
        return EXIT_SETUP;
    }
    nmemo = (volatile size_t *)(void *)(memo + MEMO_SLOTS);
    setup_targets();
    phase = cmd;
    uint64_t t0 = now_ns();
    if (!strcmp(cmd, "conform")) {
        if (load_plan(rest, args)) return EXIT_SETUP;
        begin();
        jopen("plan");
        jstr("phase", "conform");
        jnum("cases", nplan);
        jclose();
        send();
        return run_phase(conform_body, nplan, t0 + (uint64_t)(opt_phase_limit * 1e9), 0);
    }
    if (!strcmp(cmd, "retval")) {
        begin();
        jopen("plan");
        jstr("phase", "retval");
        jnum("cases", retval_count());
        jclose();
        send();
        return run_phase(retval_body, retval_count(), t0 + (uint64_t)(opt_phase_limit * 1e9), 0);
    }
    if (!strcmp(cmd, "fuzz") && rest >= 2) {
        double secs = atof(args[0]);
        unsigned long long seed = strtoull(args[1], NULL, 0);
        fuzz_decode_flags = rest > 2 ? (unsigned)strtoul(args[2], NULL, 0) : 0;
        if (!(secs >= 0) || secs > 1e7) {
            usage();
            return EXIT_SETUP;
        }
        sh->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
        sh->deadline = t0 + (uint64_t)(secs * 1e9);
        begin();
        jopen("plan");
        jstr("phase", "fuzz");
        jdbl("seconds", secs);
        jclose();
        send();
        return run_phase(fuzz_body_arg, 0, sh->deadline, 1);
    }
    usage();
    return EXIT_SETUP;
}
