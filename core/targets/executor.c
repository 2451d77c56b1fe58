/* The executor target: the client of the executor protocol
 * (programs/exec/README.md). See executor.h. */
#define _GNU_SOURCE
#include "executor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "supervise.h"

#define EXEC_MAX_ALLOC ((size_t)1 << 26) /* the largest buffer the executor allocates */
#define GRACE_S 5                         /* beyond the executor's own time limit per request */

static char exe_path[4096];
static char t_name[64], t_version[160];
static struct scn_sup_child child = { -1, 0, -1 };
static int to_fd = -1, from_fd = -1;
static unsigned timeout_s = 10;
static unsigned long deaths;
static struct scn_exec_status status;

/* ------------------------------------------------------------ the child */

static char *rb; /* what the child wrote, not yet read as lines */
static size_t rb_len, rb_pos, rb_cap;

static void grow(void *pp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    void *p = realloc(*(void **)pp, n * elem);
    if (!p) abort();
    *(void **)pp = p;
    *cap = n;
}

/* The next line of the child (NUL-terminated, without its newline), or NULL:
 * end of file (*hang 0) or nothing within the time limit (*hang 1). */
static char *read_line(size_t *len, int *hang)
{
    for (;;) {
        char *nl = rb_pos < rb_len ? memchr(rb + rb_pos, '\n', rb_len - rb_pos) : NULL;
        if (nl) {
            char *s = rb + rb_pos;
            *nl = 0;
            *len = (size_t)(nl - s);
            rb_pos = (size_t)(nl - rb) + 1;
            return s;
        }
        if (rb_pos) {
            memmove(rb, rb + rb_pos, rb_len - rb_pos);
            rb_len -= rb_pos;
            rb_pos = 0;
        }
        grow(&rb, &rb_cap, rb_len + 65536, 1);
        struct pollfd p = { from_fd, POLLIN, 0 };
        int pr = poll(&p, 1, (int)(timeout_s + GRACE_S) * 1000);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) {
            *hang = 1;
            return NULL;
        }
        ssize_t n = read(from_fd, rb + rb_len, rb_cap - rb_len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *hang = 0;
            return NULL;
        }
        rb_len += (size_t)n;
    }
}

/* How the child ended, after it closed its output: its end is waited for
 * 1 s, then it is killed (e: SCN_SUP_HANG, a child that closed its output
 * and lived on). */
static void reap(struct scn_sup_end *e)
{
    struct scn_sup_watch w = { scn_now_ns() + 1000000000u, NULL, NULL, NULL, 5 };
    scn_sup_wait(&child, &w, e);
}

static void stop_child(void)
{
    if (to_fd >= 0) close(to_fd);
    if (from_fd >= 0) close(from_fd);
    to_fd = from_fd = -1;
    scn_sup_kill(&child, NULL);
    rb_len = rb_pos = 0;
}

void scn_executor_stop(void) { stop_child(); }

/* The child: the executor on the pipes' ends (fd[0] its stdin, fd[1] its
 * stdout), under the memory limit the runner gives its children (this
 * process may be ASan-built and cannot carry RLIMIT_AS itself). */
static long exec_executor(void *arg)
{
    const int *fd = arg;
    dup2(fd[0], 0);
    dup2(fd[1], 1);
    char t[16];
    snprintf(t, sizeof t, "%u", timeout_s);
    setenv("SCN_EXEC_TIMEOUT", t, 1);
    signal(SIGPIPE, SIG_DFL);
    /* last: an ASan-built parent's allocator cannot map under it */
    const char *mem = getenv("SCN_CHILD_MEM_MB");
    scn_limit_memory(mem && *mem ? strtoul(mem, NULL, 10) : 1024);
    execl(exe_path, exe_path, (char *)NULL);
    _exit(127);
}

static int start_child(char *err, size_t errcap)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC)) {
        snprintf(err, errcap, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC)) {
        snprintf(err, errcap, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    int ends[2] = { in[0], out[1] };
    if (scn_sup_spawn(&child, NULL, exec_executor, ends)) { /* it dies with this process */
        snprintf(err, errcap, "fork: %s", strerror(errno));
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        return -1;
    }
    close(in[0]);
    close(out[1]);
    to_fd = in[1];
    from_fd = out[0];
    rb_len = rb_pos = 0;
    size_t n;
    int hang = 0;
    char *banner = read_line(&n, &hang);
    if (!banner || strncmp(banner, "scn-exec ", 9)) {
        snprintf(err, errcap, "%s did not start (%s)", exe_path,
                 hang ? "no banner in time" : banner ? "not an executor's banner" : "no banner");
        stop_child();
        return -1;
    }
    if (!t_version[0]) { /* "scn-exec 2 <name> <version>" */
        const char *p = strchr(banner + 9, ' ');
        const char *v = p ? strchr(p + 1, ' ') : NULL;
        if (p && !t_name[0]) snprintf(t_name, sizeof t_name, "%.*s", (int)(v ? v - p - 1 : (long)strlen(p + 1)), p + 1);
        snprintf(t_version, sizeof t_version, "%s", v ? v + 1 : "(unknown version)");
    }
    return 0;
}

/* Writes the n bytes of a request (one line). -1: the child is gone (EPIPE;
 * reading its answer says how it ended). */
static int send_all(const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(to_fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ------------------------------------------------------------ faults */

void scn_executor_clear(void) { memset(&status, 0, sizeof status); }
const struct scn_exec_status *scn_executor_status(void) { return &status; }
unsigned long scn_executor_restarts(void) { return deaths; }

static void note_fault(enum scn_exec_fault f, const char *why, const char *klass, int scn, size_t size)
{
    if (f <= status.fault) return;
    status.fault = f;
    status.klass = klass;
    status.scn_family = scn;
    status.size = size;
    snprintf(status.why, sizeof status.why, "%s", why);
}

/* The executor's end during a request for a call at size (e), classified
 * and worded by the one supervisor (core/supervise/end.c); limit_s: the
 * time limit it passed, for a hang. The fault is a crash or a hang. */
static enum scn_exec_fault word_end(const struct scn_sup_end *e, size_t size, double limit_s, char *why,
                                    size_t whycap, const char **klass)
{
    /* the executor's libc may end it with a status of its own on a fault
     * it detects (dietlibc's stack protector: _exit(127)) */
    const struct scn_sup_call_end c = { .in_call = 1, .size = size, .limit_s = limit_s,
                                        .run_limit = "SCN_EXEC_TIMEOUT, per request", .exit_may_be_report = 1 };
    struct scn_sup_finding f;
    scn_sup_end_finding(e, &c, &f);
    size_t n = strlen(f.detail);
    if (n >= whycap)
        n = whycap - 1; /* the reason is cut to the status's buffer */
    memcpy(why, f.detail, n);
    why[n] = 0;
    *klass = f.klass;
    return f.cause == SCN_SUP_CAUSE_HANG ? SCN_EXEC_HANG : SCN_EXEC_CRASH;
}

/* ------------------------------------------------------------ answers */

struct answer {
    size_t size;
    int ret, err;
    unsigned char scn, used, ok, has_err, overrun;
    size_t off, len;  /* bytes shown, in pool */
    size_t noff, nn;  /* %n values, in npool */
};

static char *pool; /* the bytes of the answers of the current case */
static size_t pool_len, pool_cap;
static long long *npool;
static size_t npool_len, npool_cap;
static struct answer *ans;
static size_t nans, ans_cap;
static struct answer full; /* the F line: the C99 call with a buffer big enough */

/* Parses "<ret> <bytes> [n=..] [errno=E] [nonul] [overrun]" (after the size). */
static int parse_answer(char *p, const char *end, struct answer *a)
{
    char *q;
    a->ret = (int)strtol(p, &q, 10);
    if (q == p || *q != ' ') return -1;
    p = q + 1;
    a->ok = 0;
    a->len = 0;
    a->off = pool_len;
    if (!strncmp(p, "ok", 2)) {
        a->ok = 1;
        p += 2;
    } else if (*p == '"') {
        char err[128];
        grow(&pool, &pool_cap, pool_len + (size_t)(end - p) + 1, 1);
        long used = scn_quoted_parse(p, (size_t)(end - p), 0, pool + pool_len, (size_t)(end - p) + 1, &a->len, err,
                                     sizeof err);
        if (used < 0) return -1;
        pool_len += a->len;
        p += used;
    } else {
        return -1;
    }
    a->nn = 0;
    a->noff = npool_len;
    a->has_err = a->overrun = 0;
    while (*p == ' ') {
        p++;
        if (!strncmp(p, "n=", 2)) {
            p += 2;
            for (;;) {
                grow(&npool, &npool_cap, npool_len + 1, sizeof *npool);
                npool[npool_len++] = strtoll(p, &p, 10);
                a->nn++;
                if (*p != ',') break;
                p++;
            }
        } else if (!strncmp(p, "errno=", 6)) {
            a->has_err = 1;
            a->err = (int)strtol(p + 6, &p, 10);
        } else if (!strncmp(p, "overrun", 7)) {
            a->overrun = 1;
        }
        while (*p && *p != ' ') p++;
    }
    return 0;
}

/* The child said how it ended ("! crash signal N", "! hang": its own
 * handler and alarm), or it ended without a word: e says how. */
static enum scn_exec_fault child_end(const char *said, size_t size, char *why, size_t whycap, const char **klass)
{
    struct scn_sup_end e = { SCN_SUP_HANG, 0, 0, 0 };
    double limit_s = timeout_s;
    if (!said) {
        reap(&e);
        if (e.kind == SCN_SUP_HANG) { /* it closed its output and lived on: no end to classify */
            snprintf(why, whycap, "the executor closed its output without an answer and did not end (killed)");
            *klass = "crash";
            return SCN_EXEC_CRASH;
        }
    } else if (!strncmp(said, "crash signal ", 13)) {
        e = (struct scn_sup_end){ SCN_SUP_SIGNAL, atoi(said + 13), 0, 0 };
    } else if (strncmp(said, "hang", 4)) {
        snprintf(why, whycap, "the executor said: %s", said);
        *klass = "crash";
        return SCN_EXEC_CRASH;
    }
    return word_end(&e, size, limit_s, why, whycap, klass);
}

/* Reads one answer (up to ".") to a request for a call at size. Lines
 * "= S ..." / "~ S ..." go to ans, "F ..." to full; a "! message" that is
 * not a fault (a size too large) is passed over (no call was made).
 * Returns 0, or the fault that ended the child (the child is then
 * stopped), worded in why. */
static enum scn_exec_fault read_answer(size_t size, char *why, size_t whycap, const char **klass)
{
    for (;;) {
        size_t n;
        int hang = 0;
        char *l = read_line(&n, &hang);
        if (!l) {
            enum scn_exec_fault f;
            if (hang) {
                struct scn_sup_end e = { SCN_SUP_HANG, 0, 0, 0 };
                f = word_end(&e, size, timeout_s + GRACE_S, why, whycap, klass);
            } else {
                f = child_end(NULL, size, why, whycap, klass);
            }
            stop_child();
            return f;
        }
        if (!strcmp(l, ".")) return SCN_EXEC_OK;
        if (l[0] == '!') {
            const char *m = l[1] == ' ' ? l + 2 : l + 1;
            if (!strncmp(m, "crash", 5) || !strncmp(m, "hang", 4)) {
                enum scn_exec_fault f = child_end(m, size, why, whycap, klass);
                stop_child(); /* it exits after it */
                return f;
            }
            continue;
        }
        struct answer a;
        memset(&a, 0, sizeof a);
        char *p = l + 2;
        if (l[0] == 'F' && l[1] == ' ') {
            if (parse_answer(p, l + n, &a) == 0) full = a;
            continue;
        }
        if ((l[0] != '=' && l[0] != '~') || l[1] != ' ') continue;
        a.size = strtoull(p, &p, 10);
        if (*p++ != ' ' || parse_answer(p, l + n, &a)) continue;
        a.scn = l[0] == '~';
        grow(&ans, &ans_cap, nans + 1, sizeof *ans);
        ans[nans++] = a;
    }
}

static void set_n(struct scn_case *c, size_t i, long long v)
{
    switch (c->args[i].ntype) {
    case SCN_N_SCHAR: c->nslot[i].hh = (signed char)v; break;
    case SCN_N_SHORT: c->nslot[i].h = (short)v; break;
    case SCN_N_LONG: c->nslot[i].l = (long)v; break;
    case SCN_N_LLONG: c->nslot[i].ll = v; break;
    case SCN_N_INTMAX: c->nslot[i].j = v; break;
    case SCN_N_SIZE: c->nslot[i].z = (size_t)v; break;
    case SCN_N_PTRDIFF: c->nslot[i].t = (ptrdiff_t)v; break;
    default: c->nslot[i].i = (int)v; break;
    }
}

/* Puts an answer back: the buffer as the libc left it up to min(ret, size-1)
 * and the NUL there, the %n values, errno; notes an overrun. */
static int apply(const struct answer *a, struct scn_case *c, char *buf, size_t size)
{
    if (size && a->ret >= 0) {
        size_t k = (size_t)a->ret < size - 1 ? (size_t)a->ret : size - 1;
        if (a->ok) { /* the first k bytes of the full output, then a NUL */
            memcpy(buf, pool + full.off, k < full.len ? k : full.len);
            buf[k] = 0;
        } else {
            memcpy(buf, pool + a->off, a->len < size ? a->len : size);
        }
    }
    if (a->nn) {
        size_t idx[SCN_CASE_MAX_ARGS];
        size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
        for (size_t i = 0; i < k && i < a->nn; i++) set_n(c, idx[i], npool[a->noff + i]);
    }
    if (a->overrun)
        note_fault(SCN_EXEC_OVERRUN, "a write outside the buffer (the executor's guard bytes)", "memory-safety", a->scn,
                   size);
    if (a->has_err) errno = a->err;
    return a->ret;
}

/* ------------------------------------------------------------ the case */

/* The case whose answers are held: a copy of what defines it. */
static struct scn_case held;
static int have_held;
static enum scn_exec_fault held_dead; /* it killed the executor: calls fail without asking again */
static char held_why[sizeof status.why];
static const char *held_klass;
static char *req;
static size_t req_cap;

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

static int same_case(const struct scn_case *c)
{
    const struct scn_case *h = &held;
    return have_held && c->fmt_len == h->fmt_len && c->nargs == h->nargs && c->nsizes == h->nsizes &&
           c->arena_used == h->arena_used && !memcmp(c->fmt, h->fmt, c->fmt_len) &&
           !memcmp(c->args, h->args, c->nargs * sizeof c->args[0]) &&
           !memcmp(c->sizes, h->sizes, c->nsizes * sizeof c->sizes[0]) &&
           !memcmp(c->arena, h->arena, c->arena_used);
}

static void hold(const struct scn_case *c)
{
    held.fmt_len = c->fmt_len;
    held.nargs = c->nargs;
    held.nsizes = c->nsizes;
    held.arena_used = c->arena_used;
    memcpy(held.fmt, c->fmt, c->fmt_len);
    memcpy(held.args, c->args, c->nargs * sizeof c->args[0]);
    memcpy(held.sizes, c->sizes, c->nsizes * sizeof c->sizes[0]);
    memcpy(held.arena, c->arena, c->arena_used);
    have_held = 1;
    held_dead = SCN_EXEC_OK;
    nans = pool_len = npool_len = 0;
    memset(&full, 0, sizeof full);
}

/* The request: tag, the case's text with the nextra sizes of extra added to
 * its own (as room allows), a newline; into req. Returns its length. */
static size_t request_text(char tag, struct scn_case *c, const size_t *extra, size_t nextra)
{
    size_t keep = c->nsizes;
    for (size_t i = 0; i < nextra && c->nsizes < SCN_CASE_MAX_SIZES; i++) c->sizes[c->nsizes++] = extra[i];
    size_t n = scn_case_format(c, NULL, 0);
    grow(&req, &req_cap, n + 3, 1);
    req[0] = tag;
    scn_case_format(c, req + 1, n + 1);
    req[n + 1] = '\n';
    c->nsizes = keep;
    return n + 2;
}

/* Sends one request for the held case and reads its answer; a death is
 * noted (the case is then dead) and the child restarted on the next call. */
static int ask(size_t n, int scn, size_t size)
{
    char why[sizeof held_why] = "";
    const char *klass = "crash";
    enum scn_exec_fault f = SCN_EXEC_OK;
    if (child.pid < 0 && start_child(why, sizeof why)) {
        f = SCN_EXEC_CRASH;
    } else {
        send_all(req, n);
        f = read_answer(size, why, sizeof why, &klass);
    }
    if (f != SCN_EXEC_OK) {
        deaths++;
        held_dead = f;
        held_klass = klass;
        snprintf(held_why, sizeof held_why, "%s", why);
        note_fault(f, why, klass, scn, size);
        return -1;
    }
    return 0;
}

/* A new case: its answers at every size the oracles try, in one request. */
static void prefetch(struct scn_case *c, size_t size, int scn)
{
    hold(c);
    size_t n = request_text('*', c, &size, size <= EXEC_MAX_ALLOC ? 1 : 0);
    ask(n, scn, size);
}

/* One call, one round trip ('#': the buffer's bytes exactly). Its answer
 * is used once and not kept. */
static int round_trip(struct scn_case *c, char *buf, size_t size, int scn)
{
    size_t keep_n = c->nsizes, keep0 = c->sizes[0];
    c->nsizes = 0;
    size_t n = request_text('#', c, &size, 1);
    c->nsizes = keep_n;
    c->sizes[0] = keep0;
    size_t first = nans, keep_pool = pool_len, keep_np = npool_len;
    if (ask(n, scn, size)) return -1;
    int ret = -1;
    if (nans > first) { /* else "! message": no call was made */
        ans[first].scn = (unsigned char)scn;
        ret = apply(&ans[first], c, buf, size);
    }
    nans = first;
    pool_len = keep_pool;
    npool_len = keep_np;
    return ret;
}

static struct answer *find_unused(size_t size, int scn)
{
    size_t lo = 0, hi = nans; /* the batch's answers are in increasing size */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ans[mid].size < size) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < nans && ans[i].size == size; i++)
        if (ans[i].scn == scn && !ans[i].used) return &ans[i];
    return NULL;
}

static int rt_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)ap;
    return round_trip(case_of(fmt), buf, size, 1);
}

static int exec_call(char *buf, size_t size, const char *fmt, va_list ap, int scn)
{
    struct scn_case *c = case_of(fmt);
    if (!same_case(c)) prefetch(c, size, scn);
    if (held_dead) {
        note_fault(held_dead, held_why, held_klass, scn, size);
        return -1;
    }
    struct answer *a = find_unused(size, scn);
    if (a) {
        a->used = 1;
        return apply(a, c, buf, size);
    }
    if (!scn) return round_trip(c, buf, size, 0);
    return scn_canonical_vscnprintf(rt_c99, buf, size, fmt, ap);
}

static int exec_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return exec_call(buf, size, fmt, ap, 0);
}

static int exec_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return exec_call(buf, size, fmt, ap, 1);
}

static const char *exec_version(void) { return t_version; }

/* Its scnprintf family is the canonical wrapper over the libc's vsnprintf,
 * called inside the executor (or here, over a round trip). */
static struct scn_target exec_target = { .name = t_name, .version = exec_version, .dialect = SCN_DIALECT_ISO,
                                         .vsnprintf = exec_vsnprintf, .vscnprintf = exec_vscnprintf,
                                         .where = "executor" };

int scn_is_executor(const struct scn_target *t) { return t == &exec_target; }

const struct scn_target *scn_executor_target(const char *exe, const char *name, char *err, size_t errcap)
{
    stop_child();
    have_held = 0;
    deaths = 0;
    scn_executor_clear();
    snprintf(exe_path, sizeof exe_path, "%s", exe);
    snprintf(t_name, sizeof t_name, "%s", name ? name : "");
    t_version[0] = 0;
    const char *t = getenv("SCN_EXEC_TIMEOUT");
    timeout_s = t && *t && atoi(t) > 0 ? (unsigned)atoi(t) : 10;
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
    if (start_child(err, errcap)) return NULL;
    if (!t_name[0]) snprintf(t_name, sizeof t_name, "libc");
    return &exec_target;
}
