/* See supervise.h: what a child's end means as a finding (the one
 * classification of crash, hang, memory limit, fork, exit, sanitizer
 * report), and what a supervisor watches besides the wait: a process's
 * resident memory, the orphans it adopts, a sanitizer's log. */
#define _GNU_SOURCE
#include "supervise.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t scn_sup_rss(pid_t pid)
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

void scn_sup_reap_orphans(void)
{
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

void scn_sup_sanitizer_line(const char *log, pid_t pid, char *out, size_t cap)
{
    out[0] = 0;
    if (!log) return;
    char p[4200];
    snprintf(p, sizeof p, "%s.%d", log, (int)pid);
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

/* "SIGABRT (abort())", "SIGSEGV", ... */
static const char *fatal_signal(int sig)
{
    return sig == SIGABRT ? "SIGABRT (abort())" : scn_sup_signal_name(sig);
}

/* " at size N" of a call, or nothing between calls. */
static void at_size(const struct scn_sup_call_end *c, char *out, size_t cap)
{
    if (c->in_call) snprintf(out, cap, " at size %zu", c->size);
    else out[0] = 0;
}

/* The ends that kill the worker for a reason of the watch or that the
 * worker said (a sanitizer's report, a fork): 1 when e is one of them. */
static int watched_end(const struct scn_sup_end *e, const struct scn_sup_call_end *c, struct scn_sup_finding *f)
{
    char at[48];
    at_size(c, at, sizeof at);
    if (e->kind == SCN_SUP_HANG) {
        f->cause = SCN_SUP_CAUSE_HANG;
        f->oracle = "hang";
        f->klass = "hang";
        snprintf(f->kind, sizeof f->kind, "timeout");
        if (c->run_limit)
            snprintf(f->detail, sizeof f->detail, "the process gave no result within %.2f s (%s): killed %s%s",
                     c->limit_s, c->run_limit, c->in_call ? "during a call" : "outside a call", at);
        else
            snprintf(f->detail, sizeof f->detail, "a call at size %zu did not return within %.2f s (killed)",
                     c->size, c->limit_s);
    } else if (e->kind == SCN_SUP_KILLED && e->code == SCN_SUP_KILL_MEMORY) {
        f->cause = SCN_SUP_CAUSE_MEMORY;
        f->oracle = "memory-limit";
        snprintf(f->kind, sizeof f->kind, "memory");
        snprintf(f->detail, sizeof f->detail,
                 "resident memory grew by %ld MB, past the case's limit of %ld MB, during a call at size %zu (killed)",
                 c->mem_mb, c->mem_limit_mb, c->size);
    } else if (c->san_oracle) {
        f->cause = SCN_SUP_CAUSE_SANITIZER;
        f->oracle = c->san_oracle;
        f->klass = strstr(c->san_what, "AddressSanitizer") || !strcmp(c->san_oracle, "read-past-input")
                       ? "memory-safety" : "crash";
        snprintf(f->kind, sizeof f->kind, "%s", c->san_kind);
        snprintf(f->detail, sizeof f->detail, "%s during a call at size %zu%s%s", c->san_what, c->size,
                 c->san_log && c->san_log[0] ? ": " : "", c->san_log ? c->san_log : "");
    } else if (c->fork) {
        f->cause = SCN_SUP_CAUSE_FORK;
        f->oracle = "fork";
        snprintf(f->kind, sizeof f->kind, "fork");
        snprintf(f->detail, sizeof f->detail, "%s",
                 c->fork == 1 ? "the function created a child process and left it running (killed)"
                              : "the function created a child process and never waited for it");
    } else {
        return 0;
    }
    return 1;
}

void scn_sup_end_finding(const struct scn_sup_end *e, const struct scn_sup_call_end *c, struct scn_sup_finding *f)
{
    memset(f, 0, sizeof *f);
    f->klass = "crash";
    if (watched_end(e, c, f)) return;
    char at[48];
    at_size(c, at, sizeof at);
    f->oracle = "crash";
    if (e->kind == SCN_SUP_SIGNAL) {
        f->cause = SCN_SUP_CAUSE_SIGNAL;
        f->code = e->code;
        if (e->code == SIGSEGV || e->code == SIGBUS) f->klass = "memory-safety"; /* a fault the oracles did not catch */
        snprintf(f->kind, sizeof f->kind, "signal %d", e->code);
        snprintf(f->detail, sizeof f->detail, "the process died of %s %s%s", fatal_signal(e->code),
                 c->in_call ? "during a call" : "between calls (after the function returned)", at);
        return;
    }
    f->cause = SCN_SUP_CAUSE_EXIT;
    f->code = e->kind == SCN_SUP_OK ? 0 : e->code;
    snprintf(f->kind, sizeof f->kind, "exit %d", f->code);
    if (c->in_call && f->code && c->exit_may_be_report)
        snprintf(f->detail, sizeof f->detail, "the process exited with status %d during a call%s (exit() called, "
                 "or a fault detector's report on stderr: a sanitizer's, a stack protector's)", f->code, at);
    else if (c->in_call)
        snprintf(f->detail, sizeof f->detail, "the function ended the process: exit(%d) during a call%s", f->code, at);
    else
        snprintf(f->detail, sizeof f->detail, "the process exited with status %d between calls (after the "
                 "function returned: its state or the heap was damaged)", f->code);
}
