/* scn-certify: the supervisor: starts a worker or a probe, watches it (time,
 * memory, phase limit) and says how it ended. It never calls the function. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

pid_t cert_start_child(void (*body)(void *), void *arg, int probe)
{
    cert_sh->in_call = 0;
    cert_sh->case_set = 0;
    cert_sh->tainted[0] = 0;
    cert_sh->done = cert_sh->restart = cert_sh->fork_seen = cert_sh->san_died = 0;
    cert_sh->probe = probe;
    cert_sh->writing = 0;
    cert_set_limits(0); /* until the first case sets its own */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        cert_send_error("fork failed");
        exit(EXIT_SETUP);
    }
    if (pid == 0) {
        /* its own process group, so that what the function forks dies with it */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != cert_supervisor_pid) _exit(0);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_SETMASK, &cert_orig_mask, NULL);
        cert_sh->worker = getpid();
        cert_sh->rss0 = rss_of(getpid());
        setvbuf(stdout, NULL, _IONBF, 0);
        body(arg);
        cert_sh->done = 1;
        _exit(0);
    }
    setpgid(pid, pid);
    return pid;
}

static void classify(pid_t pid, int st, int killed, long mb, double limit_scale, struct cert_outcome *o);

/* Watches a worker or probe until it ends; *o says how. */
void cert_supervise(pid_t pid, uint64_t deadline, double limit_scale, struct cert_outcome *o)
{
    int st = 0, killed = -1;
    long mb = 0;
    uint64_t last_mem = 0;
    memset(o, 0, sizeof *o);
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) break;
        uint64_t now = cert_now_ns();
        uint64_t limit = (uint64_t)((double)cert_sh->call_limit * limit_scale);
        if (cert_stop_requested) killed = EV_STOPPED;
        else if (cert_sh->in_call && now > cert_sh->call_t0 && now - cert_sh->call_t0 > limit) killed = EV_TIMEOUT;
        else if (deadline && now > deadline && !cert_sh->writing) killed = EV_DEADLINE;
        else if (now - last_mem > 20000000u) {
            last_mem = now;
            uint64_t rss = rss_of(pid);
            if (rss > cert_sh->rss0 + cert_sh->mem_limit && !cert_sh->writing) killed = EV_MEMORY;
        }
        if (killed >= 0) {
            o->size = cert_sh->call_size;
            if (killed == EV_MEMORY) mb = (long)((rss_of(pid) - cert_sh->rss0) >> 20);
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = { 0, 5000000 }; /* woken at once by SIGCHLD */
        sigtimedwait(&cert_chld_mask, NULL, &ts);
    }
    kill(-pid, SIGKILL); /* what the function left in the worker's group */
    kill_strays();
    classify(pid, st, killed, mb, limit_scale, o);
    size_t l = strlen(o->detail);
    if (o->oracle[0] && cert_sh->tainted[0] && o->ev != EV_FORK)
        snprintf(o->detail + l, sizeof o->detail - l,
                 "; this process had caught an overrun earlier (on %.200s): what that left may be the cause", cert_sh->tainted);
}

static void classify(pid_t pid, int st, int killed, long mb, double limit_scale, struct cert_outcome *o)
{
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
    if (WIFEXITED(st) && cert_sh->done && !cert_sh->in_call) {
        o->ev = EV_DONE;
        return;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_RESTART && cert_sh->restart && !cert_sh->in_call) {
        o->ev = EV_RESTART;
        return;
    }
    if (WIFEXITED(st)) {
        o->ev = EV_EXIT;
        o->code = WEXITSTATUS(st);
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
    o->code = WTERMSIG(st);
    if (o->code == SIGSEGV || o->code == SIGBUS) o->klass = "memory-safety"; /* a fault the oracles did not catch */
    snprintf(o->oracle, sizeof o->oracle, "crash");
    snprintf(o->kind, sizeof o->kind, "signal %d", o->code);
    snprintf(o->detail, sizeof o->detail, "the process died of %s %s", sig_name(o->code),
             cert_sh->in_call ? "during a call" : "between calls (after the function returned)");
    if (cert_sh->in_call) snprintf(o->detail + strlen(o->detail), sizeof o->detail - strlen(o->detail), " at size %zu", o->size);
}
