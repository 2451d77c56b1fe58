/* scn-certify: the supervisor: starts a worker or a probe, watches it (time,
 * memory, phase limit) and says how it ended. It never calls the function.
 * The child process, its deadline and the kill are the one supervisor's
 * (core/supervise); what is certify's own is the watch (its limits in
 * shared memory) and what an end means for the certificate. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cert_state.h"

/* ------------------------------------------------------------ supervisor */

volatile sig_atomic_t cert_stop_requested;
void cert_on_term(int sig) { (void)sig; cert_stop_requested = 1; }
sigset_t cert_chld_mask, cert_orig_mask;

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
    if (!cert_opt_sanlog) return;
    char p[4200];
    snprintf(p, sizeof p, "%s.%d", cert_opt_sanlog, (int)pid);
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

struct child_job {
    void (*body)(void *);
    void *arg;
};

/* The child: a worker or a probe, the function's process. */
static long child_main(void *vjob)
{
    const struct child_job *j = vjob;
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &cert_orig_mask, NULL);
    cert_sh->worker = getpid();
    cert_sh->rss0 = rss_of(getpid());
    setvbuf(stdout, NULL, _IONBF, 0);
    j->body(j->arg);
    cert_sh->done = 1;
    return 0;
}

void cert_start_child(struct scn_sup_child *ch, void (*body)(void *), void *arg, int probe)
{
    cert_sh->in_call = 0;
    cert_sh->case_set = 0;
    cert_sh->tainted[0] = 0;
    cert_sh->done = cert_sh->restart = cert_sh->fork_seen = cert_sh->san_died = 0;
    cert_sh->probe = probe;
    cert_sh->writing = 0;
    cert_set_limits(0); /* until the first case sets its own */
    /* its own process group, so that what the function forks dies with it;
     * it dies with the supervisor */
    static const struct scn_sup_opts group = { 1, 0 };
    struct child_job job = { body, arg };
    if (scn_sup_spawn(ch, &group, child_main, &job)) {
        cert_send_error("fork failed");
        exit(EXIT_SETUP);
    }
}

/* The limits of cert_shared, checked each turn of the wait: the reason to
 * kill (an EV_) in ev. */
struct cert_watch {
    uint64_t deadline, last_mem;
    double limit_scale;
    pid_t pid;
    int ev;
    size_t size;
    long mb;
};

static int past_a_limit(void *ctx, uint64_t now)
{
    struct cert_watch *w = ctx;
    uint64_t limit = (uint64_t)((double)cert_sh->call_limit * w->limit_scale);
    int ev = -1;
    if (cert_stop_requested) ev = EV_STOPPED;
    else if (cert_sh->in_call && now > cert_sh->call_t0 && now - cert_sh->call_t0 > limit) ev = EV_TIMEOUT;
    else if (w->deadline && now > w->deadline && !cert_sh->writing) ev = EV_DEADLINE;
    else if (now - w->last_mem > 20000000u) {
        w->last_mem = now;
        uint64_t rss = rss_of(w->pid);
        if (rss > cert_sh->rss0 + cert_sh->mem_limit && !cert_sh->writing) ev = EV_MEMORY;
    }
    if (ev < 0) return 0;
    w->ev = ev;
    w->size = cert_sh->call_size;
    if (ev == EV_MEMORY) w->mb = (long)((rss_of(w->pid) - cert_sh->rss0) >> 20);
    return ev == EV_TIMEOUT ? SCN_SUP_KILL_HANG : 2; /* 2: killed for the reason in ev */
}

static void until_sigchld(void *ctx, unsigned ms)
{
    (void)ctx;
    struct timespec ts = { 0, (long)ms * 1000000 }; /* woken at once by SIGCHLD */
    sigtimedwait(&cert_chld_mask, NULL, &ts);
}

static void classify(const struct scn_sup_end *e, pid_t pid, int killed, long mb, double limit_scale,
                     struct cert_outcome *o);

/* Watches a worker or probe until it ends; *o says how. */
void cert_supervise(struct scn_sup_child *ch, uint64_t deadline, double limit_scale, struct cert_outcome *o)
{
    memset(o, 0, sizeof *o);
    struct cert_watch cw = { deadline, 0, limit_scale, ch->pid, -1, 0, 0 };
    struct scn_sup_watch w = { 0, past_a_limit, until_sigchld, &cw, 5 };
    struct scn_sup_end e;
    pid_t pid = ch->pid;
    scn_sup_wait(ch, &w, &e); /* and what the function left in the worker's group is killed */
    if (cw.ev >= 0) o->size = cw.size;
    kill_strays();
    classify(&e, pid, cw.ev, cw.mb, limit_scale, o);
    size_t l = strlen(o->detail);
    if (o->oracle[0] && cert_sh->tainted[0] && o->ev != EV_FORK)
        snprintf(o->detail + l, sizeof o->detail - l,
                 "; this process had caught an overrun earlier (on %.200s): what that left may be the cause", cert_sh->tainted);
}

/* What the end of a worker or probe (e; killed: the EV_ it was killed for,
 * or -1) means for the certificate, with what the worker said in cert_shared. */
static void classify(const struct scn_sup_end *e, pid_t pid, int killed, long mb, double limit_scale,
                     struct cert_outcome *o)
{
    int exited = e->kind == SCN_SUP_OK || e->kind == SCN_SUP_EXIT;
    o->klass = "crash";
    if (!o->size) o->size = cert_sh->call_size;
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
                 (double)cert_sh->call_limit * limit_scale / 1e9);
        return;
    case EV_MEMORY:
        o->ev = EV_MEMORY;
        snprintf(o->oracle, sizeof o->oracle, "memory-limit");
        snprintf(o->kind, sizeof o->kind, "memory");
        snprintf(o->detail, sizeof o->detail,
                 "resident memory grew by %ld MB, past the case's limit of %llu MB, during a call at size %zu (killed)",
                 mb, (unsigned long long)(cert_sh->mem_limit >> 20), o->size);
        return;
    }
    if (cert_sh->san_died) {
        o->ev = EV_SANITIZER;
        snprintf(o->oracle, sizeof o->oracle, "%s", cert_sh->san_oracle);
        o->klass = strstr(cert_sh->san_what, "AddressSanitizer") || !strcmp(cert_sh->san_oracle, "read-past-input")
                       ? "memory-safety" : "crash";
        snprintf(o->kind, sizeof o->kind, "%s", cert_sh->san_kind);
        sanlog_summary(pid, log, sizeof log);
        snprintf(o->detail, sizeof o->detail, "%s during a call at size %zu%s%s", cert_sh->san_what, o->size,
                 log[0] ? ": " : "", log);
        return;
    }
    if (cert_sh->fork_seen) {
        o->ev = EV_FORK;
        snprintf(o->oracle, sizeof o->oracle, "fork");
        snprintf(o->kind, sizeof o->kind, "fork");
        snprintf(o->detail, sizeof o->detail,
                 cert_sh->fork_seen == 1 ? "the function created a child process and left it running (killed)"
                                    : "the function created a child process and never waited for it");
        return;
    }
    if (exited && cert_sh->done && !cert_sh->in_call) {
        o->ev = EV_DONE;
        return;
    }
    if (exited && e->code == EXIT_RESTART && cert_sh->restart && !cert_sh->in_call) {
        o->ev = EV_RESTART;
        return;
    }
    if (exited) {
        o->ev = EV_EXIT;
        o->code = e->code;
        snprintf(o->oracle, sizeof o->oracle, "crash");
        snprintf(o->kind, sizeof o->kind, "exit %d", o->code);
        if (cert_sh->in_call)
            snprintf(o->detail, sizeof o->detail, "the function ended the process: exit(%d) during a call at size %zu",
                     o->code, o->size);
        else
            snprintf(o->detail, sizeof o->detail, "the process exited with status %d between calls (after the "
                     "function returned: its state or the heap was damaged)", o->code);
        return;
    }
    o->ev = EV_SIGNAL;
    o->code = e->code;
    if (o->code == SIGSEGV || o->code == SIGBUS) o->klass = "memory-safety"; /* a fault the oracles did not catch */
    snprintf(o->oracle, sizeof o->oracle, "crash");
    snprintf(o->kind, sizeof o->kind, "signal %d", o->code);
    snprintf(o->detail, sizeof o->detail, "the process died of %s %s", sig_name(o->code),
             cert_sh->in_call ? "during a call" : "between calls (after the function returned)");
    if (cert_sh->in_call) snprintf(o->detail + strlen(o->detail), sizeof o->detail - strlen(o->detail), " at size %zu", o->size);
}
