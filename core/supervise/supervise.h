/* The one supervisor: a function (or a program it execs) run in a child
 * process that cannot outlive this one, watched against a deadline on the
 * one monotonic clock, killed when it passes, and its end classified once:
 * it returned (ok), it exited, a fatal signal, a hang, or killed for a
 * reason of the caller's. Every process isolation of the suite is built on
 * it: the executor target (core/targets/executor.c), scn-replay's cases
 * (fuzz/replay.c), scn-conform's worker and reductions
 * (programs/conform_isolate.c) and scn-certify's workers and probes
 * (programs/certify/cert_supervisor.c), and scn-launch (launch.c), through
 * which the Python runner starts every child.
 *
 * Base layer: it knows no case and no target; a reducer's "still dies"
 * predicate passes its case through the function's argument.
 * Linux only (prctl's parent-death signal). Not thread-safe.
 */
#ifndef SCN_SUPERVISE_H
#define SCN_SUPERVISE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The clock of every deadline: CLOCK_MONOTONIC in ns. Never 0, so that 0
 * can mean "no time stamp" (the call watch of core/case). */
uint64_t scn_now_ns(void);

/* This process gets signal sig when its parent ends (prctl's parent-death
 * signal: the one place it is armed).
 * parent > 0: the pid the caller expects as its parent; -1 when another
 * one already is (that parent ended before the signal was armed). */
int scn_die_with_parent(int sig, pid_t parent);

/* Limits this process's address space to mb MiB (RLIMIT_AS; 0: no limit).
 * For a child about to exec: an ASan-built process cannot allocate under
 * the limit (its shadow is already larger), so call it last. */
void scn_limit_memory(unsigned long mb);

/* How a supervised child ended. */
enum scn_sup_kind {
    SCN_SUP_OK,     /* the function returned: value is what it returned */
    SCN_SUP_EXIT,   /* it exited (exit(), _exit(), a sanitizer's report) before that: code is the status */
    SCN_SUP_SIGNAL, /* a fatal signal: code is the signal */
    SCN_SUP_HANG,   /* the deadline passed (or the watch said hang): killed */
    SCN_SUP_KILLED, /* killed for the watch's own reason: code is that reason */
    SCN_SUP_DIED    /* only in a wanted end (scn_sup_same_end): a signal or an exit with a status other than 0 */
};

struct scn_sup_end {
    enum scn_sup_kind kind;
    int code;
    long value;
    int status; /* the wait status (0 when killed) */
};

struct scn_sup_opts {
    int own_group; /* the child leads a process group of its own: what it forks is killed with it */
    int quiet;     /* SCN_SUP_QUIET_OUT, SCN_SUP_QUIET_ERR: its stdout, stderr to /dev/null */
};
enum { SCN_SUP_QUIET_OUT = 1, SCN_SUP_QUIET_ERR = 2 };

/* A child being supervised. */
struct scn_sup_child {
    pid_t pid;     /* -1: none */
    int own_group;
    int chan;      /* read end of the child's result (its function's value), -1: none */
};

/* The child runs fn(arg); when fn returns, the child passes its value on
 * and ends (_exit: no atexit work, no leak check per child). fn may exec a
 * program instead, or end the child itself. */
typedef long (*scn_sup_fn)(void *arg);

/* Flushes this process's output streams, forks; the child dies with this
 * process (SIGKILL), leads its own group when asked, and runs fn(arg).
 * 0, or -1 (errno) when no child could be started. */
int scn_sup_spawn(struct scn_sup_child *ch, const struct scn_sup_opts *o, scn_sup_fn fn, void *arg);

/* What a wait watches besides the child's end. */
struct scn_sup_watch {
    uint64_t deadline;                       /* scn_now_ns() time; 0: none. Past it: HANG */
    int (*check)(void *ctx, uint64_t now);   /* NULL, or each turn: 0 go on, SCN_SUP_KILL_HANG, or a reason > 1 (KILLED) */
    void (*pause)(void *ctx, unsigned ms);   /* NULL, or waits up to ms between turns (reads a pipe, a signal) */
    void *ctx;
    unsigned turn_ms;                        /* 0: 1 ms, or less when the deadline is nearer */
};
enum { SCN_SUP_KILL_HANG = 1 };

/* Waits until the child ends or the watch says to kill it (SIGKILL, its
 * group too), then reaps it and says how it ended. A child of its own group
 * leaves nothing in it: the group is killed after its end as well. The
 * child is released (ch->pid -1). */
void scn_sup_wait(struct scn_sup_child *ch, const struct scn_sup_watch *w, struct scn_sup_end *e);

/* Kills the child now and reaps it (e, if not NULL: how it ended). */
void scn_sup_kill(struct scn_sup_child *ch, struct scn_sup_end *e);

/* The one classification: a wait status, and whether the child delivered
 * its function's value (value) before it ended. */
void scn_sup_classify(int status, int delivered, long value, struct scn_sup_end *e);

/* Runs fn(arg) in a child (scn_sup_spawn) for at most limit_ns; e says how
 * it ended. -1 when no child could be started (e untouched). */
int scn_sup_run(const struct scn_sup_opts *o, scn_sup_fn fn, void *arg, uint64_t limit_ns, struct scn_sup_end *e);

/* Whether got is the same death as want: never for an ok end; a hang for a
 * hang; the same signal, the same exit status, the same kill reason; for a
 * wanted SCN_SUP_DIED, any signal or exit status but 0. */
int scn_sup_same_end(const struct scn_sup_end *got, const struct scn_sup_end *want);

/* The reducers' predicate: fn(arg) run in a child (scn_sup_run, limit_ns)
 * still ends as want says (scn_sup_same_end). */
int scn_sup_still_dies(const struct scn_sup_opts *o, scn_sup_fn fn, void *arg, uint64_t limit_ns,
                       const struct scn_sup_end *want);

/* "SIGSEGV", "SIGABRT", ..., or "signal N" (sigabbrev_np is glibc 2.32+). */
const char *scn_sup_signal_name(int sig);

/* ---- what an end means (end.c) */

/* A watch's reason to kill (scn_sup_watch.check): the memory limit. */
enum { SCN_SUP_KILL_MEMORY = 2 };

/* What the child said (in memory it shares with its supervisor) about how
 * it ended: the call it was in, and what it caught before its end. */
struct scn_sup_call_end {
    int in_call;                  /* the end came during a call of the function */
    size_t size;                  /* that call's buffer size */
    double limit_s;               /* the time limit passed (a hang's detail): a call's, or the run's */
    long mem_mb, mem_limit_mb;    /* a memory end: the growth and the limit */
    int fork;                     /* 1: a child process left running; 2: one exited, never waited for */
    const char *san_oracle;       /* a sanitizer's report ("sanitizer", "read-past-input"), or NULL */
    const char *san_kind, *san_what, *san_log; /* its key, its one line, the first line of its log */
    const char *run_limit;        /* the time limit is the child's whole run's, not a call's: the
                                   * setting it comes from ("SCN_REPLAY_TIMEOUT"), or NULL */
    int exit_may_be_report;       /* no death callback tells of a fault detector's report (a
                                   * sanitizer's, a libc's stack protector): an exit with a status but
                                   * 0 during a call may be one (not worded as exit(); class crash) */
};

/* 1 in a process built with AddressSanitizer: its report ends the process
 * with a status (1 unless ASAN_OPTIONS says otherwise), which its
 * supervisor tells from an exit() only with a death callback of its own
 * (scn_sup_call_end.exit_may_be_report). */
#if defined(__SANITIZE_ADDRESS__)
#define SCN_SUP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCN_SUP_SANITIZED 1
#endif
#endif
#ifndef SCN_SUP_SANITIZED
#define SCN_SUP_SANITIZED 0
#endif

/* A finding of the process stage (oracles/oracles.def: crash, hang,
 * memory-limit, sanitizer, read-past-input, fork). */
enum scn_sup_cause {
    SCN_SUP_CAUSE_HANG = 1, SCN_SUP_CAUSE_MEMORY, SCN_SUP_CAUSE_SANITIZER, SCN_SUP_CAUSE_FORK,
    SCN_SUP_CAUSE_EXIT, SCN_SUP_CAUSE_SIGNAL
};
struct scn_sup_finding {
    enum scn_sup_cause cause;
    int code;                     /* the exit status or the signal */
    const char *oracle, *klass;
    char kind[80];                /* what must stay the same while reducing ("timeout", "exit 0", "signal 6") */
    char detail[900];
};

/* The one classification of an end that is a finding (the caller decides
 * which ends are not: a worker that finished, a restart it asked for): a
 * hang, the memory limit, a sanitizer's report, a fork, else an exit or a
 * fatal signal (SIGSEGV, SIGBUS: memory-safety); and the one wording of
 * each (f->detail) for every isolation: scn-conform's worker, scn-replay's
 * cases, the executor target's child and certification's workers. */
void scn_sup_end_finding(const struct scn_sup_end *e, const struct scn_sup_call_end *c, struct scn_sup_finding *f);

/* The resident memory of pid in bytes (0: unknown). RLIMIT_AS cannot bound
 * an ASan-built process (its shadow reserves terabytes): its supervisor
 * watches this instead. */
uint64_t scn_sup_rss(pid_t pid);

/* Kills and reaps every child of this process: a child subreaper's
 * orphans (what the function under test forked and left). */
void scn_sup_reap_orphans(void);

/* The first line of a sanitizer's report in log.PID (UBSan's "runtime
 * error:", else ASan's "SUMMARY:"), or "" (out, cap). */
void scn_sup_sanitizer_line(const char *log, pid_t pid, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SCN_SUPERVISE_H */
