/* scn-certify: the supervisor: starts a worker or a probe, watches it (time,
 * memory, phase limit) and says how it ended. It never calls the function.
 * The child process, its deadline, the kill, the orphans, the resident
 * memory and how an end reads as a finding (crash, hang, memory limit,
 * sanitizer report, fork) are the one supervisor's (core/supervise); what
 * is certify's own is the watch (the limits its workers publish in shared
 * memory) and which ends are no finding (a worker done, a restart it asked
 * for, the phase's deadline, a stop). */
#define _GNU_SOURCE
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
    cert_sh->rss0 = scn_sup_rss(getpid());
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
        uint64_t rss = scn_sup_rss(w->pid);
        if (rss > cert_sh->rss0 + cert_sh->mem_limit && !cert_sh->writing) ev = EV_MEMORY;
    }
    if (ev < 0) return 0;
    w->ev = ev;
    w->size = cert_sh->call_size;
    if (ev == EV_MEMORY) w->mb = (long)((scn_sup_rss(w->pid) - cert_sh->rss0) >> 20);
    return ev == EV_TIMEOUT ? SCN_SUP_KILL_HANG : ev == EV_MEMORY ? SCN_SUP_KILL_MEMORY : 3; /* 3: the phase's own (ev) */
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
    scn_sup_reap_orphans(); /* the orphans of the function (this process is their subreaper) */
    classify(&e, pid, cw.ev, cw.mb, limit_scale, o);
    size_t l = strlen(o->detail);
    if (o->oracle[0] && cert_sh->tainted[0] && o->ev != EV_FORK)
        snprintf(o->detail + l, sizeof o->detail - l,
                 "; this process had caught an overrun earlier (on %.200s): what that left may be the cause", cert_sh->tainted);
}

/* What the end of a worker or probe (e; killed: the EV_ it was killed for,
 * or -1) means for the certificate, with what the worker said in
 * cert_shared: the phase's own ends (stopped, its deadline, a worker done or
 * asking for a restart), else a finding as the one supervisor classifies it
 * (core/supervise: scn_sup_end_finding). */
static void classify(const struct scn_sup_end *e, pid_t pid, int killed, long mb, double limit_scale,
                     struct cert_outcome *o)
{
    int exited = e->kind == SCN_SUP_OK || e->kind == SCN_SUP_EXIT;
    if (!o->size) o->size = cert_sh->call_size;
    if (killed == EV_STOPPED || killed == EV_DEADLINE) {
        o->ev = killed;
        return;
    }
    int said = cert_sh->san_died || cert_sh->fork_seen; /* a finding the worker caught before its end */
    if (!said && killed < 0 && exited && !cert_sh->in_call && cert_sh->done) {
        o->ev = EV_DONE;
        return;
    }
    if (!said && killed < 0 && exited && !cert_sh->in_call && e->code == EXIT_RESTART && cert_sh->restart) {
        o->ev = EV_RESTART;
        return;
    }
    char log[600];
    scn_sup_sanitizer_line(cert_sh->san_died ? cert_opt_sanlog : NULL, pid, log, sizeof log);
    const struct scn_sup_call_end c = {
        cert_sh->in_call, o->size, (double)cert_sh->call_limit * limit_scale / 1e9, mb,
        (long)(cert_sh->mem_limit >> 20), cert_sh->fork_seen, cert_sh->san_died ? cert_sh->san_oracle : NULL,
        cert_sh->san_kind, cert_sh->san_what, log,
        NULL, 0, /* a limit per call; a sanitizer's report tells the death callback (cert_on_death) */
    };
    struct scn_sup_finding f;
    scn_sup_end_finding(e, &c, &f);
    static const int ev_of[] = { [SCN_SUP_CAUSE_HANG] = EV_TIMEOUT, [SCN_SUP_CAUSE_MEMORY] = EV_MEMORY,
                                 [SCN_SUP_CAUSE_SANITIZER] = EV_SANITIZER, [SCN_SUP_CAUSE_FORK] = EV_FORK,
                                 [SCN_SUP_CAUSE_EXIT] = EV_EXIT, [SCN_SUP_CAUSE_SIGNAL] = EV_SIGNAL };
    o->ev = ev_of[f.cause];
    o->code = f.code;
    o->klass = f.klass;
    snprintf(o->oracle, sizeof o->oracle, "%s", f.oracle);
    snprintf(o->kind, sizeof o->kind, "%s", f.kind);
    snprintf(o->detail, sizeof o->detail, "%s", f.detail);
}
