/* See conform_isolate.h. */
#define _GNU_SOURCE
#include "conform_isolate.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "exec_check.h"
#include "oracle.h"

struct conform_shared *conform_sh;
static int in_worker;                /* this process is a supervised worker */
static unsigned long caught_at_unit; /* faults caught before the unit in progress */

int conform_isolate_init(void)
{
    void *p = mmap(NULL, sizeof *conform_sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    conform_sh = p;
    conform_sh->unit = -1;
    return 0;
}

uint64_t conform_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1;
}

/* Waits for pid; kills it when it runs longer than limit ns. Returns 1 when
 * it was killed so, else 0 with its status in *st. */
static int wait_child(pid_t pid, uint64_t limit, int *st)
{
    uint64_t t0 = conform_now_ns();
    for (;;) {
        if (waitpid(pid, st, WNOHANG) == pid) return 0;
        if (conform_now_ns() - t0 > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, st, 0);
            return 1;
        }
        usleep(1000);
    }
}

static pid_t start_child(void)
{
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("scn-conform: fork");
        exit(3);
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);
    }
    return pid;
}

/* The worker's stdout is a pipe: the supervisor passes on whole lines only,
 * so that a worker that dies in the middle of a line (a target that wrote
 * into the worker's stdio buffer, a death while the line was printed) leaves
 * no torn line in the output. */
struct relay {
    int fd;
    char *buf;
    size_t n, cap;
};

/* Reads what the worker wrote (all of it until EOF when drain); passes on
 * the whole lines. */
static void relay_read(struct relay *r, int drain)
{
    for (;;) {
        if (r->cap - r->n < 65536) {
            r->cap = r->cap * 2 + 65536;
            if (!(r->buf = realloc(r->buf, r->cap))) exit(3);
        }
        ssize_t k = read(r->fd, r->buf + r->n, r->cap - r->n);
        if (k <= 0) break;
        r->n += (size_t)k;
        if (!drain) break;
    }
    char *nl = memrchr(r->buf, '\n', r->n);
    if (!nl) return;
    size_t whole = (size_t)(nl - r->buf) + 1;
    fwrite(r->buf, 1, whole, stdout);
    memmove(r->buf, r->buf + whole, r->n - whole);
    r->n -= whole;
}

/* Watches the worker until it ends: 1 when a call of it stalled past limit
 * ns (it is killed), else 0 with its status in *st. */
static int watch_worker(pid_t pid, struct relay *r, uint64_t limit, int *st)
{
    for (;;) {
        struct pollfd pf = { r->fd, POLLIN, 0 };
        if (poll(&pf, 1, 10) > 0) relay_read(r, 0);
        if (waitpid(pid, st, WNOHANG) == pid) return 0;
        uint64_t since = conform_sh->call_since;
        if (since && conform_now_ns() - since > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, st, 0);
            return 1;
        }
    }
}

void conform_isolate_run(void (*body)(void), conform_death_fn on_death, double call_limit)
{
    uint64_t limit = (uint64_t)(call_limit * 1e9);
    struct relay r = { -1, NULL, 0, 0 };
    conform_sh->resume = 0;
    for (;; conform_sh->workers++) {
        conform_sh->unit = -1;
        conform_sh->fresh = 0;
        conform_sh->call_since = 0;
        int pfd[2];
        if (pipe2(pfd, O_CLOEXEC)) {
            perror("scn-conform: pipe");
            exit(3);
        }
        pid_t pid = start_child();
        if (pid == 0) {
            dup2(pfd[1], 1);
            in_worker = 1;
            body();
            fflush(stdout);
            _exit(conform_sh->unit == -1 ? 0 : 3);
        }
        close(pfd[1]);
        r.fd = pfd[0];
        int st = 0;
        int hung = watch_worker(pid, &r, limit, &st);
        relay_read(&r, 1);
        close(r.fd);
        int finished = !hung && WIFEXITED(st) && WEXITSTATUS(st) == 0 && conform_sh->unit == -1;
        if (r.n && !finished)
            fprintf(stderr, "scn-conform: the worker died in the middle of a line (corpus line %ld): %zu bytes "
                            "dropped\n", conform_sh->line, r.n);
        else if (r.n)
            fwrite(r.buf, 1, r.n, stdout);
        r.n = 0;
        if (finished) {
            if (!conform_sh->fresh) {
                free(r.buf);
                return;
            }
            conform_sh->resume = conform_sh->last_done + 1;
            continue;
        }
        if (conform_sh->unit < 0) {
            fprintf(stderr, "scn-conform: the worker ended outside a case (status 0x%x)\n", (unsigned)st);
            exit(3);
        }
        char detail[200];
        const char *oracle = "crash", *klass = "crash";
        size_t size = conform_sh->call_size;
        int in_call = conform_sh->call_since != 0;
        if (hung) {
            oracle = klass = "hang";
            snprintf(detail, sizeof detail, "a call at size %zu did not return within %g s (killed)", size,
                     call_limit);
        } else if (WIFSIGNALED(st)) {
            int sig = WTERMSIG(st);
            if (sig == SIGSEGV || sig == SIGBUS) klass = "memory-safety"; /* a fault the oracles did not catch */
            snprintf(detail, sizeof detail, "the process died of signal %d (%s) %s", sig, strsignal(sig),
                     in_call ? "during a call" : "between calls (after the function returned: its state or "
                                                 "the heap was damaged)");
        } else {
            snprintf(detail, sizeof detail, "the process exited with status %d %s", WEXITSTATUS(st),
                     in_call ? "during a call" : "between calls");
        }
        conform_sh->n = conform_sh->at_unit; /* what the dead worker counted of the unit */
        on_death(oracle, klass, detail);
        fflush(stdout);
        conform_sh->resume = conform_sh->unit + 1;
    }
}


int conform_unit_begin(long unit, int file, long line, int target, const char *text, size_t len, int watch,
                       int first_of_case)
{
    if (unit < conform_sh->resume) return 0;
    conform_sh->n.cases += first_of_case != 0;
    conform_sh->at_unit = conform_sh->n;
    caught_at_unit = scn_oracle_faults_caught();
    conform_sh->file = file;
    conform_sh->line = line;
    conform_sh->target = target;
    conform_sh->text_len = len < CONFORM_TEXT_MAX ? len : CONFORM_TEXT_MAX;
    memcpy(conform_sh->text, text, conform_sh->text_len);
    conform_sh->unit = unit;
    if (watch) scn_case_watch_calls(&conform_sh->call_since, &conform_sh->call_size, conform_now_ns);
    else scn_case_watch_calls(NULL, NULL, NULL);
    return 1;
}

void conform_unit_end(void)
{
    fflush(stdout);
    conform_sh->last_done = conform_sh->unit;
    conform_sh->unit = -1;
    if (in_worker && scn_oracle_faults_caught() != caught_at_unit) {
        conform_sh->fresh = 1;
        _exit(0);
    }
}

/* ------------------------------------------------------------ reduction */

struct still_ctx {
    struct scn_oracle_ctx *x;
    const struct scn_target *t;
    unsigned flags;
    int hang;
};

/* The candidate, checked in a child: it still dies (a fatal signal, an exit
 * during the check, or a fault the oracles caught), or for a hang still
 * stalls for 1 s. */
static int still_dies(struct scn_case *cand, void *vk)
{
    const struct still_ctx *k = vk;
    pid_t pid = start_child();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) dup2(fd, 2); /* what the target says as it dies ("smashed stack detected") */
        scn_case_watch_calls(NULL, NULL, NULL);
        struct scn_report r;
        scn_exec_check_case(k->x, k->t, cand, k->flags, &r);
        _exit(r.nfindings && !strcmp(r.first.oracle, "crash") ? 70 : 0);
    }
    int st = 0;
    if (wait_child(pid, 1000000000u, &st)) return k->hang;
    return !k->hang && (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0));
}

void conform_isolate_rootcause(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                               const struct scn_target *t, unsigned flags, const char *oracle,
                               const char *klass, struct scn_rootcause *rc)
{
    /* the deaths of one target on cases of one shape share one reduction: a
     * hang costs its time limit per unit, and each reduction more */
    static struct memo { char key[200]; struct scn_rootcause rc; } memo[32];
    static size_t nmemo;
    char key[200], shape[160];
    scn_case_shape(c, d, shape, sizeof shape);
    snprintf(key, sizeof key, "%s\t%s\t%s", t->name, oracle, shape);
    for (size_t i = 0; i < nmemo; i++)
        if (!strcmp(memo[i].key, key)) {
            memcpy(rc, &memo[i].rc, sizeof *rc);
            return;
        }
    struct still_ctx k = { x, t, flags, !strcmp(oracle, "hang") };
    /* a hang costs 1 s per candidate that still hangs: fewer tries */
    scn_rootcause_by(c, d, still_dies, &k, k.hang ? 60 : SCN_REDUCE_BUDGET, t->name, oracle, klass, rc);
    struct memo *m = &memo[nmemo < 32 ? nmemo++ : 31];
    snprintf(m->key, sizeof m->key, "%s", key);
    memcpy(&m->rc, rc, sizeof *rc);
}
