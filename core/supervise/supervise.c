/* See supervise.h. */
#define _GNU_SOURCE
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint64_t scn_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1;
}

int scn_die_with_parent(int sig, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, sig);
    return parent > 0 && getppid() != parent ? -1 : 0;
}

void scn_limit_memory(unsigned long mb)
{
    if (!mb) return;
    rlim_t want = (rlim_t)mb << 20;
    struct rlimit cur;
    /* under a lower hard limit already: keep that one (raising it fails) */
    if (!getrlimit(RLIMIT_AS, &cur) && cur.rlim_max != RLIM_INFINITY && cur.rlim_max < want) want = cur.rlim_max;
    struct rlimit rl = { want, want };
    setrlimit(RLIMIT_AS, &rl);
}

const char *scn_sup_signal_name(int sig)
{
    static char other[32];
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGALRM: return "SIGALRM";
    case SIGPIPE: return "SIGPIPE";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    default: snprintf(other, sizeof other, "signal %d", sig); return other;
    }
}

/* ------------------------------------------------------------ the child */

/* A descriptor moved up, away from the small numbers that a stray write of
 * the function under test may hit (the result channel must not be one). */
static int high_fd(int fd)
{
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    if (h < 0) return fd;
    close(fd);
    return h;
}

static void to_null(int fd)
{
    int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (nul < 0) return;
    dup2(nul, fd);
    close(nul);
}

__attribute__((noreturn)) static void child_main(const struct scn_sup_opts *o, pid_t parent, int chan,
                                                 scn_sup_fn fn, void *arg)
{
    if (o->own_group) setpgid(0, 0);
    if (scn_die_with_parent(SIGKILL, parent)) _exit(0); /* the parent ended before the signal was armed */
    if (o->quiet & SCN_SUP_QUIET_OUT) to_null(1);
    if (o->quiet & SCN_SUP_QUIET_ERR) to_null(2);
    long v = fn(arg);
    fflush(stdout);
    ssize_t w = write(chan, &v, sizeof v);
    _exit(w == (ssize_t)sizeof v ? 0 : 3);
}

int scn_sup_spawn(struct scn_sup_child *ch, const struct scn_sup_opts *o, scn_sup_fn fn, void *arg)
{
    static const struct scn_sup_opts defaults;
    if (!o) o = &defaults;
    ch->pid = -1;
    ch->chan = -1;
    ch->own_group = o->own_group;
    int p[2];
    if (pipe2(p, O_CLOEXEC)) return -1;
    p[0] = high_fd(p[0]);
    p[1] = high_fd(p[1]);
    pid_t parent = getpid();
    fflush(NULL); /* what this process buffered is written once, not by each child too */
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(p[0]);
        close(p[1]);
        errno = err;
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        child_main(o, parent, p[1], fn, arg);
    }
    close(p[1]);
    if (o->own_group) setpgid(pid, pid); /* set on both sides: no kill(-pid) finds no group */
    ch->pid = pid;
    ch->chan = p[0];
    return 0;
}

/* ------------------------------------------------------------ the end */

void scn_sup_classify(int status, int delivered, long value, struct scn_sup_end *e)
{
    memset(e, 0, sizeof *e);
    e->status = status;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && delivered) {
        e->kind = SCN_SUP_OK;
        e->value = value;
    } else if (WIFSIGNALED(status)) {
        e->kind = SCN_SUP_SIGNAL;
        e->code = WTERMSIG(status);
    } else {
        e->kind = SCN_SUP_EXIT;
        e->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
}

/* The child's result as far as it came (the bytes of its value). */
struct result {
    unsigned char bytes[sizeof(long)];
    size_t n;
    int closed; /* end of file or no channel: nothing more to wait for there */
};

/* Reads what the channel holds, waiting up to ms for it (0: not at all).
 * 1 when it read something. (A process the child forked may hold the
 * channel open after the child's end: no end of file is waited for.) */
static int read_result(struct scn_sup_child *ch, struct result *r, int ms)
{
    if (ch->chan < 0 || r->closed) {
        r->closed = 1;
        return 0;
    }
    struct pollfd pf = { ch->chan, POLLIN, 0 };
    if (poll(&pf, 1, ms) <= 0) return 0;
    ssize_t k = r->n < sizeof r->bytes ? read(ch->chan, r->bytes + r->n, sizeof r->bytes - r->n) : 0;
    if (k > 0) r->n += (size_t)k;
    else if (k == 0 || errno != EINTR) r->closed = 1;
    return k > 0;
}

static void kill_child(const struct scn_sup_child *ch)
{
    if (ch->own_group) kill(-ch->pid, SIGKILL);
    kill(ch->pid, SIGKILL);
}

/* After the child's end: its result, its group, the descriptor; classified. */
static void finish(struct scn_sup_child *ch, struct result *r, int status, struct scn_sup_end *e)
{
    while (r->n < sizeof r->bytes && read_result(ch, r, 0)) {}
    if (ch->own_group) kill(-ch->pid, SIGKILL); /* what it left in its group */
    if (ch->chan >= 0) close(ch->chan);
    long v = 0;
    if (r->n == sizeof v) memcpy(&v, r->bytes, sizeof v);
    scn_sup_classify(status, r->n == sizeof v, v, e);
    ch->pid = -1;
    ch->chan = -1;
}

void scn_sup_wait(struct scn_sup_child *ch, const struct scn_sup_watch *w, struct scn_sup_end *e)
{
    static const struct scn_sup_watch unwatched;
    if (!w) w = &unwatched;
    struct result r = { { 0 }, 0, 0 };
    int status = 0, why = 0;
    for (;;) {
        pid_t got = waitpid(ch->pid, &status, WNOHANG);
        if (got == ch->pid || (got < 0 && errno != EINTR)) break;
        uint64_t now = scn_now_ns();
        why = w->check ? w->check(w->ctx, now) : 0;
        if (!why && w->deadline && now >= w->deadline) why = SCN_SUP_KILL_HANG;
        if (why) {
            kill_child(ch);
            while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR) {}
            break;
        }
        /* without a pause of the caller's, the wait is on the result
         * channel, which the child's end wakes (end of file) */
        uint64_t ms = w->turn_ms ? w->turn_ms : w->pause ? 1 : 50;
        if (w->deadline && (w->deadline - now) / 1000000u + 1 < ms) ms = (w->deadline - now) / 1000000u + 1;
        if (w->pause) {
            w->pause(w->ctx, (unsigned)ms);
        } else if (!read_result(ch, &r, (int)ms) && r.closed) {
            struct timespec ts = { 0, 1000000 }; /* nothing more to read there: a short sleep */
            nanosleep(&ts, NULL);
        }
    }
    finish(ch, &r, status, e);
    if (why) {
        e->kind = why == SCN_SUP_KILL_HANG ? SCN_SUP_HANG : SCN_SUP_KILLED;
        e->code = why == SCN_SUP_KILL_HANG ? 0 : why;
        e->value = 0;
    }
}

void scn_sup_kill(struct scn_sup_child *ch, struct scn_sup_end *e)
{
    if (ch->pid <= 0) return;
    kill_child(ch);
    int status = 0;
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR) {}
    struct result r = { { 0 }, 0, 0 };
    struct scn_sup_end ignored;
    finish(ch, &r, status, e ? e : &ignored);
}

/* ------------------------------------------------------------ a function in a child */

int scn_sup_run(const struct scn_sup_opts *o, scn_sup_fn fn, void *arg, uint64_t limit_ns, struct scn_sup_end *e)
{
    struct scn_sup_child ch;
    if (scn_sup_spawn(&ch, o, fn, arg)) return -1;
    struct scn_sup_watch w = { limit_ns ? scn_now_ns() + limit_ns : 0, NULL, NULL, NULL, 0 };
    scn_sup_wait(&ch, &w, e);
    return 0;
}

int scn_sup_same_end(const struct scn_sup_end *got, const struct scn_sup_end *want)
{
    if (got->kind == SCN_SUP_OK || got->kind == SCN_SUP_DIED) return 0;
    if (want->kind == SCN_SUP_DIED) return got->kind == SCN_SUP_SIGNAL || (got->kind == SCN_SUP_EXIT && got->code);
    return got->kind == want->kind && (got->kind == SCN_SUP_HANG || got->code == want->code);
}

int scn_sup_still_dies(const struct scn_sup_opts *o, scn_sup_fn fn, void *arg, uint64_t limit_ns,
                       const struct scn_sup_end *want)
{
    struct scn_sup_end e;
    if (scn_sup_run(o, fn, arg, limit_ns, &e)) return 0;
    return scn_sup_same_end(&e, want);
}
