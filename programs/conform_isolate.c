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
#include <unistd.h>

#include "case.h"
#include "exec_check.h"
#include "oracle.h"
#include "supervise.h"

struct conform_shared *conform_sh;
static int in_worker;                /* this process is a supervised worker */
static int in_probe;                 /* this process checks a reduction's candidate */
static unsigned long caught_at_unit; /* faults caught before the unit in progress */

int conform_isolate_init(void)
{
    void *p = mmap(NULL, sizeof *conform_sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    conform_sh = p;
    conform_sh->unit = -1;
    return 0;
}

uint64_t conform_now_ns(void) { return scn_now_ns(); }

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

/* What the supervisor watches while a worker runs: its output, passed on
 * line by line, and the call watch (a call stalled past limit ns: a hang). */
struct worker_watch {
    struct relay *r;
    uint64_t limit;
};

/* A worker whose sanitizer is writing its report is dying, not stalled:
 * printing and symbolising can take longer than a call's limit on a loaded
 * machine, and it was signed a hang. It gets a minute for that. */
enum { REPORT_GRACE_NS = 60000000000ull };

static int call_stalled(void *ctx, uint64_t now)
{
    const struct worker_watch *w = ctx;
    uint64_t rep = conform_sh->reporting;
    if (rep) return now > rep && now - rep > REPORT_GRACE_NS ? SCN_SUP_KILL_HANG : 0;
    uint64_t since = conform_sh->call_since;
    return since && now > since && now - since > w->limit ? SCN_SUP_KILL_HANG : 0;
}

/* ASan calls this as it finds an error, before its report. A worker says so
 * to the supervisor (above); a reduction's candidate needs only that it dies,
 * not the report (its output goes nowhere): it ends at once. */
void __asan_on_error(void);
void __asan_on_error(void)
{
    if (in_probe) _exit(70);
    if (in_worker && conform_sh) conform_sh->reporting = scn_now_ns();
}

static void relay_pause(void *ctx, unsigned ms)
{
    const struct worker_watch *w = ctx;
    struct pollfd pf = { w->r->fd, POLLIN, 0 };
    if (poll(&pf, 1, (int)ms) > 0) relay_read(w->r, 0);
}

/* The worker: body() with its stdout on the relay pipe (out). */
struct worker_job {
    void (*body)(void);
    int out;
};

static long worker_main(void *arg)
{
    const struct worker_job *j = arg;
    dup2(j->out, 1);
    in_worker = 1;
    j->body();
    fflush(stdout);
    if (conform_sh->unit != -1) _exit(3); /* the body ended inside a unit */
    return 0;
}

/* How a worker that ended in a unit is reported (through on_death): its
 * end classified and worded by the one supervisor (scn_sup_end_finding). */
static void report_death(const struct scn_sup_end *e, double call_limit, conform_death_fn on_death)
{
    /* no death callback tells of a sanitizer's report in the worker */
    const struct scn_sup_call_end c = {
        .in_call = conform_sh->call_since != 0, .size = conform_sh->call_size, .limit_s = call_limit,
        .exit_may_be_report = SCN_SUP_SANITIZED,
    };
    struct scn_sup_finding f;
    scn_sup_end_finding(e, &c, &f);
    conform_sh->n = conform_sh->at_unit; /* what the dead worker counted of the unit */
    on_death(f.oracle, f.klass, f.detail);
    fflush(stdout);
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
        conform_sh->reporting = 0;
        int pfd[2];
        if (pipe2(pfd, O_CLOEXEC)) {
            perror("scn-conform: pipe");
            exit(3);
        }
        struct scn_sup_child worker;
        struct worker_job job = { body, pfd[1] };
        if (scn_sup_spawn(&worker, NULL, worker_main, &job)) {
            perror("scn-conform: fork");
            exit(3);
        }
        close(pfd[1]);
        r.fd = pfd[0];
        struct worker_watch ww = { &r, limit };
        struct scn_sup_watch watch = { 0, call_stalled, relay_pause, &ww, 10 };
        struct scn_sup_end e;
        scn_sup_wait(&worker, &watch, &e);
        relay_read(&r, 1);
        close(r.fd);
        /* it returned, or ended itself after a caught fault (conform_unit_end) */
        int finished = (e.kind == SCN_SUP_OK || (e.kind == SCN_SUP_EXIT && e.code == 0)) && conform_sh->unit == -1;
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
            fprintf(stderr, "scn-conform: the worker ended outside a case (status 0x%x)\n", (unsigned)e.status);
            exit(3);
        }
        report_death(&e, call_limit, on_death);
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
    struct scn_case *cand;
};

/* In the child: the candidate checked; a fault the oracles caught is a
 * death too (exit status 70). */
static long check_candidate(void *vk)
{
    const struct still_ctx *k = vk;
    in_probe = 1;
    scn_case_watch_calls(NULL, NULL, NULL);
    struct scn_report r;
    scn_exec_check_case(k->x, k->t, k->cand, k->flags, &r);
    if (r.nfindings && !strcmp(r.first.oracle, "crash")) _exit(70);
    return 0;
}

/* The reduced case checked once more, in a child whose sanitizer reports
 * (not _exit at its first error, as a probe): its crash state. */
static long report_candidate(void *vk)
{
    const struct still_ctx *k = vk;
    scn_case_watch_calls(NULL, NULL, NULL);
    struct scn_report r;
    scn_exec_check_case(k->x, k->t, k->cand, k->flags, &r);
    return 0;
}

/* The candidate, checked in a child: it still dies (a fatal signal, an exit
 * during the check, or a fault the oracles caught), or for a hang still
 * stalls for 1 s. What the target says as it dies ("smashed stack
 * detected") goes to /dev/null. */
static int still_dies(struct scn_case *cand, void *vk)
{
    struct still_ctx *k = vk;
    k->cand = cand;
    static const struct scn_sup_opts quiet = { 0, SCN_SUP_QUIET_OUT | SCN_SUP_QUIET_ERR };
    struct scn_sup_end want = { k->hang ? SCN_SUP_HANG : SCN_SUP_DIED, 0, 0, 0 };
    return scn_sup_still_dies(&quiet, check_candidate, k, 1000000000u, &want);
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
    struct still_ctx k = { x, t, flags, !strcmp(oracle, "hang"), NULL };
    /* a hang costs 1 s per candidate that still hangs: fewer tries */
    scn_rootcause_by(c, d, still_dies, &k, k.hang ? 60 : SCN_REDUCE_BUDGET, t->name, oracle, klass, rc);
    /* reduced first, signed after: by the reduced case's sanitizer report
     * when it names a place, one signature for one bug whichever case met it */
    k.cand = &rc->reduced;
    if (!k.hang && !rc->rule && scn_rootcause_crash_state(rc, report_candidate, &k, 60000000000ull))
        scn_rootcause_sign(rc, oracle, d);
    struct memo *m = &memo[nmemo < 32 ? nmemo++ : 31];
    snprintf(m->key, sizeof m->key, "%s", key);
    memcpy(&m->rc, rc, sizeof *rc);
}
