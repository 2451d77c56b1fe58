/* The one supervisor (core/supervise/supervise.c): a function in a child,
 * each way it can end classified, the deadline, the watch's own reasons,
 * the process group, the death with the parent, the reducers' predicate;
 * an end as a finding, classified and worded (end.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "supervise.h"

#define LONG_NS (60ull * 1000000000u) /* a limit no ending child comes near, even on a loaded machine */

static long returns_arg(void *arg) { return (long)(intptr_t)arg; }
static long exits_7(void *arg) { (void)arg; _exit(7); }
static long exits_0(void *arg) { (void)arg; exit(0); }
static long sleeps(void *arg)
{
    (void)arg;
    for (;;) pause();
    return 0; /* not reached: gcc's -Wreturn-type does not know that */
}
static long raises(void *arg)
{
    int sig = (int)(intptr_t)arg;
    signal(sig, SIG_DFL); /* past the sanitizer's handler: the signal itself */
    raise(sig);
    return -1;
}
static long execs_sh(void *arg)
{
    execl("/bin/sh", "sh", "-c", (const char *)arg, (char *)NULL);
    _exit(127);
}
static long closes_everything(void *arg)
{
    (void)arg;
    for (int fd = 0; fd < 1024; fd++) close(fd);
    return 5; /* its value cannot be passed on any more */
}

/* 1 when fd 1 is /dev/null */
static long stdout_is_null(void *arg)
{
    (void)arg;
    struct stat a, b;
    return fstat(1, &a) == 0 && stat("/dev/null", &b) == 0 && a.st_rdev == b.st_rdev && S_ISCHR(a.st_mode);
}

static long limits_memory(void *arg)
{
    (void)arg;
    scn_limit_memory(64);
    struct rlimit rl;
    return getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur == (rlim_t)64 << 20;
}

/* 1 while pid runs (not a zombie, not gone). */
static int alive(pid_t pid)
{
    char p[64], b[512];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *fp = fopen(p, "r");
    if (!fp) return 0;
    size_t n = fread(b, 1, sizeof b - 1, fp);
    fclose(fp);
    b[n] = 0;
    const char *rp = strrchr(b, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

/* Waits (generously: a loaded machine) until pid no longer runs. */
static int ends_soon(pid_t pid)
{
    for (int i = 0; i < 2000 && alive(pid); i++) {
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    return !alive(pid);
}

static volatile pid_t *shared_pid; /* a grandchild's pid, told to the test */
static volatile int *shared_armed;  /* the grandchild runs its function: it would die with its parent */

static long says_armed_and_sleeps(void *arg)
{
    (void)arg;
    *shared_armed = 1;
    for (;;) pause();
    return 0; /* not reached */
}

static long forks_a_sleeper(void *arg)
{
    (void)arg;
    pid_t g = fork();
    if (g == 0) {
        for (;;) pause();
    }
    *shared_pid = g;
    return 0; /* and leaves it running in its group */
}

static long spawns_then_exits(void *arg)
{
    (void)arg;
    struct scn_sup_child gc;
    *shared_armed = 0;
    if (scn_sup_spawn(&gc, NULL, says_armed_and_sleeps, NULL)) _exit(9);
    *shared_pid = gc.pid;
    /* (an end before that would not test the signal: a grandchild that finds
     * its parent gone before its function runs ends itself) */
    for (int i = 0; i < 20000 && !*shared_armed; i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    _exit(*shared_armed ? 0 : 8); /* without waiting: the grandchild must die with it */
}

static void test_ends(void)
{
    struct scn_sup_end e;
    CHECK(scn_sup_run(NULL, returns_arg, (void *)(intptr_t)42, LONG_NS, &e) == 0, "run");
    CHECK(e.kind == SCN_SUP_OK && e.value == 42, "returned 42: kind %d value %ld", e.kind, e.value);
    scn_sup_run(NULL, returns_arg, (void *)(intptr_t)-3, 0, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == -3, "returned -3 (no limit): kind %d value %ld", e.kind, e.value);
    scn_sup_run(NULL, exits_7, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 7, "_exit(7): kind %d code %d", e.kind, e.code);
    scn_sup_run(NULL, exits_0, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 0, "exit(0) inside the function is not its return: kind %d", e.kind);
    scn_sup_run(NULL, raises, (void *)(intptr_t)SIGSEGV, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_SIGNAL && e.code == SIGSEGV, "SIGSEGV: kind %d code %d", e.kind, e.code);
    scn_sup_run(NULL, raises, (void *)(intptr_t)SIGABRT, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_SIGNAL && e.code == SIGABRT, "SIGABRT: kind %d code %d", e.kind, e.code);
    scn_sup_run(NULL, sleeps, NULL, 200000000u, &e);
    CHECK(e.kind == SCN_SUP_HANG, "a function that never returns is a hang: kind %d", e.kind);
    scn_sup_run(NULL, execs_sh, (void *)"exit 5", LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 5, "a program it execs: kind %d code %d", e.kind, e.code);
    scn_sup_run(NULL, closes_everything, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 3, "a value that could not be passed on: kind %d code %d", e.kind, e.code);
}

static void test_options(void)
{
    struct scn_sup_end e;
    struct scn_sup_opts quiet = { 0, SCN_SUP_QUIET_OUT };
    scn_sup_run(&quiet, stdout_is_null, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == 1, "quiet: stdout is /dev/null in the child");
    scn_sup_run(NULL, stdout_is_null, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == 0, "not quiet: stdout is this process's");
    scn_sup_run(NULL, limits_memory, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == 1, "the memory limit is set");

    /* its own group: what it leaves there is killed with it */
    *shared_pid = 0;
    struct scn_sup_opts group = { 1, 0 };
    scn_sup_run(&group, forks_a_sleeper, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_OK && *shared_pid > 0, "the function forked and returned: kind %d", e.kind);
    if (*shared_pid > 0) {
        CHECK(ends_soon(*shared_pid), "what the child left in its group was killed");
        waitpid(*shared_pid, NULL, WNOHANG); /* (not ours: reaped by its new parent) */
    }

    /* a child dies with its parent, without being waited for */
    *shared_pid = 0;
    scn_sup_run(NULL, spawns_then_exits, NULL, LONG_NS, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 0 && *shared_pid > 0, "the middle child: kind %d", e.kind);
    if (*shared_pid > 0) CHECK(ends_soon(*shared_pid), "the grandchild died with its parent (the parent-death signal)");

    CHECK(scn_die_with_parent(0, getppid()) == 0, "the expected parent");
    CHECK(scn_die_with_parent(0, getppid() + 100000) == -1, "another parent than expected");
}

/* ------------------------------------------------------------ the watch */

struct turns {
    unsigned checks, pauses, kill_at;
    int reason;
};

static int count_check(void *ctx, uint64_t now)
{
    struct turns *t = ctx;
    (void)now;
    return ++t->checks >= t->kill_at ? t->reason : 0;
}

static void count_pause(void *ctx, unsigned ms)
{
    struct turns *t = ctx;
    t->pauses++;
    struct timespec ts = { 0, (long)ms * 1000000 };
    nanosleep(&ts, NULL);
}

static void test_watch(void)
{
    struct scn_sup_child ch;
    struct scn_sup_end e;
    struct turns t = { 0, 0, 3, 77 };
    CHECK(scn_sup_spawn(&ch, NULL, sleeps, NULL) == 0 && ch.pid > 0, "spawn");
    pid_t pid = ch.pid;
    struct scn_sup_watch w = { 0, count_check, count_pause, &t, 2 };
    scn_sup_wait(&ch, &w, &e);
    CHECK(e.kind == SCN_SUP_KILLED && e.code == 77, "killed for the watch's reason: kind %d code %d", e.kind, e.code);
    CHECK(t.checks == 3 && t.pauses == 2, "checked each turn, paused between: %u checks %u pauses", t.checks, t.pauses);
    CHECK(ch.pid == -1 && ch.chan == -1 && !alive(pid), "released and gone");

    struct turns h = { 0, 0, 2, SCN_SUP_KILL_HANG };
    scn_sup_spawn(&ch, NULL, sleeps, NULL);
    w = (struct scn_sup_watch){ 0, count_check, NULL, &h, 0 };
    scn_sup_wait(&ch, &w, &e);
    CHECK(e.kind == SCN_SUP_HANG, "the watch says hang: kind %d", e.kind);

    /* a child that ends before the check ever fires */
    struct turns never = { 0, 0, 1u << 30, 5 };
    scn_sup_spawn(&ch, NULL, returns_arg, (void *)(intptr_t)9);
    w = (struct scn_sup_watch){ scn_now_ns() + LONG_NS, count_check, NULL, &never, 0 };
    scn_sup_wait(&ch, &w, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == 9, "ended by itself under a watch: kind %d", e.kind);

    scn_sup_spawn(&ch, NULL, sleeps, NULL);
    pid = ch.pid;
    scn_sup_kill(&ch, &e);
    CHECK(e.kind == SCN_SUP_SIGNAL && e.code == SIGKILL && ch.pid == -1 && !alive(pid), "killed now: kind %d", e.kind);
    scn_sup_kill(&ch, NULL); /* nothing to kill: nothing happens */
}

/* ------------------------------------------------------------ classification, the predicate */

static void test_classify_and_same(void)
{
    struct scn_sup_end e, want;
    scn_sup_classify(0, 1, 12, &e);
    CHECK(e.kind == SCN_SUP_OK && e.value == 12, "exit 0 with the value: ok");
    scn_sup_classify(0, 0, 0, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 0, "exit 0 without the value: an exit");
    scn_sup_classify(3 << 8, 1, 0, &e);
    CHECK(e.kind == SCN_SUP_EXIT && e.code == 3, "exit 3");
    scn_sup_classify(SIGBUS, 0, 0, &e);
    CHECK(e.kind == SCN_SUP_SIGNAL && e.code == SIGBUS, "SIGBUS");
    scn_sup_classify(SIGSEGV | 0x80, 0, 0, &e);
    CHECK(e.kind == SCN_SUP_SIGNAL && e.code == SIGSEGV, "SIGSEGV with a core dump");

    struct scn_sup_end seg = { SCN_SUP_SIGNAL, SIGSEGV, 0, SIGSEGV }, seg_core = { SCN_SUP_SIGNAL, SIGSEGV, 0, SIGSEGV | 0x80 };
    struct scn_sup_end abrt = { SCN_SUP_SIGNAL, SIGABRT, 0, SIGABRT }, ok = { SCN_SUP_OK, 0, 0, 0 };
    struct scn_sup_end ex0 = { SCN_SUP_EXIT, 0, 0, 0 }, ex1 = { SCN_SUP_EXIT, 1, 0, 1 << 8 };
    struct scn_sup_end hang = { SCN_SUP_HANG, 0, 0, SIGKILL }, died = { SCN_SUP_DIED, 0, 0, 0 };
    struct scn_sup_end k2 = { SCN_SUP_KILLED, 2, 0, SIGKILL }, k3 = { SCN_SUP_KILLED, 3, 0, SIGKILL };
    CHECK(scn_sup_same_end(&seg_core, &seg) && !scn_sup_same_end(&abrt, &seg), "the same signal");
    CHECK(scn_sup_same_end(&ex0, &ex0) && !scn_sup_same_end(&ex1, &ex0), "the same exit status");
    CHECK(!scn_sup_same_end(&ok, &ok) && !scn_sup_same_end(&ok, &died), "an ok end is never a death");
    CHECK(scn_sup_same_end(&hang, &hang) && !scn_sup_same_end(&seg, &hang) && !scn_sup_same_end(&hang, &seg), "hangs");
    CHECK(scn_sup_same_end(&seg, &died) && scn_sup_same_end(&ex1, &died) && !scn_sup_same_end(&ex0, &died) &&
              !scn_sup_same_end(&hang, &died),
          "any death: a signal or a status but 0, not a hang");
    CHECK(scn_sup_same_end(&k2, &k2) && !scn_sup_same_end(&k3, &k2), "the same kill reason");

    want = seg;
    CHECK(scn_sup_still_dies(NULL, raises, (void *)(intptr_t)SIGSEGV, LONG_NS, &want), "still dies of SIGSEGV");
    CHECK(!scn_sup_still_dies(NULL, raises, (void *)(intptr_t)SIGABRT, LONG_NS, &want), "another signal: not the same");
    CHECK(!scn_sup_still_dies(NULL, returns_arg, NULL, LONG_NS, &want), "returns: not a death");
    CHECK(scn_sup_still_dies(NULL, sleeps, NULL, 100000000u, &hang), "still hangs");
    CHECK(scn_sup_still_dies(NULL, exits_7, NULL, LONG_NS, &died), "any death");
    CHECK(!strcmp(scn_sup_signal_name(SIGSEGV), "SIGSEGV") && !strcmp(scn_sup_signal_name(60), "signal 60"),
          "signal names");
}

/* An end as a finding (end.c): one classification and one wording for every
 * isolation (a call's limit, a whole run's limit, an exit that may be a
 * sanitizer's report). */
static void test_end_finding(void)
{
    struct scn_sup_finding f;
    struct scn_sup_end seg = { SCN_SUP_SIGNAL, SIGSEGV, 0, SIGSEGV }, abrt = { SCN_SUP_SIGNAL, SIGABRT, 0, SIGABRT };
    struct scn_sup_end hang = { SCN_SUP_HANG, 0, 0, SIGKILL }, ex1 = { SCN_SUP_EXIT, 1, 0, 1 << 8 };
    struct scn_sup_end mem = { SCN_SUP_KILLED, SCN_SUP_KILL_MEMORY, 0, SIGKILL };
    struct scn_sup_call_end in = { .in_call = 1, .size = 64, .limit_s = 0.5 }, out = { .limit_s = 30 };

    scn_sup_end_finding(&seg, &in, &f);
    CHECK(f.cause == SCN_SUP_CAUSE_SIGNAL && f.code == SIGSEGV && !strcmp(f.oracle, "crash") &&
              !strcmp(f.klass, "memory-safety") && !strcmp(f.detail, "the process died of SIGSEGV during a call at size 64"),
          "SIGSEGV in a call: memory-safety (%s: %s)", f.klass, f.detail);
    scn_sup_end_finding(&abrt, &out, &f);
    CHECK(!strcmp(f.klass, "crash") && strstr(f.detail, "died of SIGABRT (abort()) between calls"),
          "SIGABRT between calls: crash (%s)", f.detail);
    scn_sup_end_finding(&hang, &in, &f);
    CHECK(f.cause == SCN_SUP_CAUSE_HANG && !strcmp(f.oracle, "hang") && !strcmp(f.kind, "timeout") &&
              !strcmp(f.detail, "a call at size 64 did not return within 0.50 s (killed)"),
          "a call's limit (%s)", f.detail);
    struct scn_sup_call_end run = { .in_call = 1, .size = 9, .limit_s = 30, .run_limit = "SCN_REPLAY_TIMEOUT" };
    scn_sup_end_finding(&hang, &run, &f);
    CHECK(!strcmp(f.detail, "the process gave no result within 30.00 s (SCN_REPLAY_TIMEOUT): killed during a call at size 9"),
          "a run's limit, in a call (%s)", f.detail);
    run.in_call = 0;
    scn_sup_end_finding(&hang, &run, &f);
    CHECK(strstr(f.detail, "(SCN_REPLAY_TIMEOUT): killed outside a call") != NULL, "a run's limit, outside (%s)", f.detail);
    scn_sup_end_finding(&ex1, &in, &f);
    CHECK(f.cause == SCN_SUP_CAUSE_EXIT && f.code == 1 && !strcmp(f.detail, "the function ended the process: exit(1) "
                                                                          "during a call at size 64"),
          "exit(1) in a call (%s)", f.detail);
    in.exit_may_be_report = 1;
    scn_sup_end_finding(&ex1, &in, &f);
    CHECK(!strcmp(f.detail, "the process exited with status 1 during a call at size 64 (exit() called, or a "
                            "fault detector's report on stderr: a sanitizer's, a stack protector's)") &&
              !strcmp(f.klass, "crash"),
          "status 1 in a sanitized process (%s)", f.detail);
    struct scn_sup_end ex0 = { SCN_SUP_EXIT, 0, 0, 0 };
    scn_sup_end_finding(&ex0, &in, &f);
    CHECK(strstr(f.detail, "ended the process: exit(0)") != NULL, "exit(0) is no sanitizer's report (%s)", f.detail);
    in.mem_mb = 300;
    in.mem_limit_mb = 256;
    scn_sup_end_finding(&mem, &in, &f);
    CHECK(f.cause == SCN_SUP_CAUSE_MEMORY && !strcmp(f.oracle, "memory-limit") && strstr(f.detail, "300 MB"),
          "the memory limit (%s)", f.detail);
}

int main(void)
{
    void *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) return 2;
    shared_pid = sh;
    shared_armed = (volatile int *)((char *)sh + 64);
    uint64_t a = scn_now_ns(), b = scn_now_ns();
    CHECK(a && b >= a, "the clock is monotonic and never 0");
    test_ends();
    test_options();
    test_watch();
    test_classify_and_same();
    test_end_finding();
    return check_summary("supervise");
}
