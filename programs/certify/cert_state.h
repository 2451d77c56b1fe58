/* scn-certify's private header: the state the supervisor and its workers
 * share (in shared memory, so that it survives a worker's death), and the
 * names the parts of the driver share (cert_*). The driver is described in
 * scn_certify.c and programs/certify/README.md. */
#ifndef SCN_CERT_STATE_H
#define SCN_CERT_STATE_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "case.h"
#include "oracle.h"
#include "result_line.h"
#include "rootcause.h"
#include "supervise.h"
#include "target.h"

extern const int scn_cert_kind;
extern const int scn_cert_dialect;
extern const char scn_cert_name[];
extern int (*const scn_cert_vfn)(char *, size_t, const char *, va_list);
extern int (*const scn_cert_fn)(char *, size_t, const char *, ...);
/* Defined by the adapter (instrumented for libFuzzer) only when the code is a
 * library alone, none of whose edges can be seen: each campaign input passes
 * through it, so that libFuzzer has coverage of the inputs' own shape to keep
 * a corpus by (with no instrumented edge at all it stops at its start). */
extern void scn_cert_input_shape(const unsigned char *data, size_t n) __attribute__((weak));

extern const struct scn_target scn_target_ref;
extern const struct scn_target scn_target_ref_kernel;

/* Worker exit statuses the supervisor reads together with a flag in shared
 * memory (the function may call exit() with any status: the flag decides). */
enum { EXIT_RESTART = 117, EXIT_FORK = 118, EXIT_SAN = 119, EXIT_SETUP = 2 };

#define BIG 65536
#define CASE_TEXT_MAX (1 << 17)
#define MAXIN 512     /* fuzz: libFuzzer's -max_len */
#define SEEN_SLOTS 16384
#define REDUCE_SECONDS 10.0  /* one fatal finding's reduction, at most */

struct cert_shared {
    /* the call in progress: the supervisor's per-call time limit */
    volatile int in_call;
    volatile uint64_t call_t0;      /* scn_now_ns() (cert_now_ns) */
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
    unsigned long execs, n_bug, n_impl, n_findings;
    unsigned long outside_profile; /* inputs drawn outside --profile, not run */
    size_t cov_hit;
    uint64_t seen[SEEN_SLOTS];
    unsigned char cov[];            /* one byte per edge of the vendored code */
};

/* ---- cert_state.c */
extern struct cert_shared *cert_sh;
extern int cert_proto_fd;
extern pid_t cert_supervisor_pid;
extern double cert_opt_call_limit, cert_opt_fault_budget;
extern const char *cert_opt_allow_as, *cert_opt_categories, *cert_opt_sanlog;
extern const char *cert_phase;
extern uint32_t cert_cov_total;
extern int cert_cov_on;
void cert_cov_collect(void);
uint64_t cert_now_ns(void); /* the one clock (scn_now_ns, core/supervise) */
void cert_set_limits(size_t out_len);

/* ---- cert_call.c */
int cert_under_test(char *buf, size_t size, const char *fmt, va_list ap);
int cert_scn_as_c99(char *buf, size_t size, const char *fmt, va_list ap);
void cert_on_death(void);

/* ---- cert_targets.c */
extern struct scn_target cert_target, cert_view, cert_named;
extern const struct scn_target *cert_ref;
extern int cert_is_scn;
extern enum scn_dialect cert_dialect;
extern struct scn_oracle_ctx cert_ctx, cert_lctx;
extern unsigned cert_fam_flags;
void cert_setup_targets(void);

/* ---- cert_protocol.c */
struct scn_jbuf *cert_line(void);
void cert_send(void);
void cert_send_error(const char *msg);
void cert_send_result(const struct scn_result *r);
const char *cert_case_text(const struct scn_case *c, size_t *n);
const char *cert_record(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                        const char *detail, long size, int with_size, int sides, size_t *n);
void cert_send_record(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                      const char *detail, long size, int with_size, long long execs);

/* ---- cert_rootcause.c */
int cert_memo_init(void);
const struct scn_rootcause *cert_memo_get(const char *key);
const struct scn_rootcause *cert_memo_put(const char *key, const struct scn_rootcause *rc);
int cert_seen_first(const char *key);
void cert_own_names(struct scn_rootcause *rc, const char *oracle, int pair);
void cert_sign_reduced(const struct scn_case *c, const char *oracle, const char *klass, scn_still_fn pred,
                       void *pctx, struct scn_rootcause *rc);
void cert_oracle_key(const struct scn_case *c, const struct scn_finding *f, unsigned flags, char *key, size_t cap);
const struct scn_rootcause *cert_oracle_rootcause(struct scn_case *c, const struct scn_finding *f, unsigned flags);

/* ---- cert_side.c */
struct cert_outs_mark {
    off_t o[3];
};
void cert_mark_outputs(struct cert_outs_mark *m);
int cert_written_since(const struct cert_outs_mark *m);
const struct scn_rootcause *cert_side_rootcause(struct scn_case *c, int fd);
void cert_side_detail(int fd, const struct cert_outs_mark *m, char *out, size_t cap);
void cert_check_children(void);

/* ---- cert_case.c */
void cert_publish_case(long index, const char *category, const struct scn_case *c);
int cert_own_output(struct scn_case *c, unsigned char *out, size_t *len, long long *n, size_t *nn, int *faulted);
size_t cert_ref_len(struct scn_case *c);
int cert_fault_oracle(const char *o);
size_t cert_check(struct scn_oracle_ctx *x, struct scn_case *c, unsigned flags, struct scn_report *r);
void cert_restart_worker(void);
void cert_after_fault(const char *oracle, long next);

/* ---- the phases (cert_conform.c, cert_retval.c, cert_fuzz.c): a worker's body */
struct cert_plan_line {
    const char *file;
    long line;
    char *text;
};
extern struct cert_plan_line *cert_plan;
extern long cert_nplan;
int cert_load_plan(int nfiles, char **files);
void cert_parse_plan(long i, struct scn_corpus_entry *e);
void cert_conform_body(void *arg);
long cert_retval_count(void);
void cert_retval_body(void *arg);
extern unsigned cert_fuzz_decode_flags;
extern unsigned long long cert_fuzz_seed;
extern const char *cert_fuzz_corpus, *cert_fuzz_log, *cert_fuzz_dict;
void cert_fuzz_body_arg(void *arg);

/* ---- cert_profile.c */
extern const char *cert_fuzz_profile;
int cert_profile_load(const char *path);
int cert_profile_admits(const struct scn_case *c);

/* ---- cert_supervisor.c */
enum cert_ev { EV_DONE, EV_RESTART, EV_DEADLINE, EV_STOPPED, EV_TIMEOUT, EV_MEMORY, EV_EXIT, EV_SIGNAL, EV_SANITIZER, EV_FORK };

struct cert_outcome {
    int ev, code;
    size_t size;
    char oracle[32];
    const char *klass;
    char kind[80];    /* what must stay the same while reducing */
    char detail[900];
};

extern volatile sig_atomic_t cert_stop_requested;
void cert_on_term(int sig);
extern sigset_t cert_chld_mask, cert_orig_mask;
void cert_start_child(struct scn_sup_child *ch, void (*body)(void *), void *arg, int probe);
void cert_supervise(struct scn_sup_child *ch, uint64_t deadline, double limit_scale, struct cert_outcome *o);

/* ---- cert_reduce.c, cert_phase.c */
void cert_death_record(const struct cert_outcome *o, long index, double budget_left);
int cert_run_phase(void (*body)(void *), long planned, uint64_t deadline, int fuzz);

#endif
