/* The oracles: see oracle.h for the list and their meaning. */
#define _GNU_SOURCE
#include "oracle.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "oracle_registry.h"

#if defined(__SANITIZE_ADDRESS__)
#define SCN_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCN_UNDER_ASAN 1
#endif
#endif
#ifndef SCN_UNDER_ASAN
#define SCN_UNDER_ASAN 0
#endif

const char *scn_family_name(enum scn_family f) { return f == SCN_FAM_SCN ? "scn" : "c99"; }

/* ------------------------------------------------------------ guard */

static size_t page_size(void)
{
    static size_t ps;
    if (!ps) ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

int scn_guard_init(struct scn_guard *g, size_t cap)
{
    size_t ps = page_size();
    size_t usable = (cap + SCN_GUARD_PRE + ps - 1) / ps * ps;
    size_t len = usable + ps;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -1;
    if (mprotect((char *)m + usable, ps, PROT_NONE)) {
        munmap(m, len);
        return -1;
    }
    g->map = m;
    g->map_len = len;
    g->guard = (unsigned char *)m + usable;
    g->cap = usable - SCN_GUARD_PRE;
    return 0;
}

int scn_guard_reserve(struct scn_guard *g, size_t cap)
{
    if (cap <= g->cap) return 0;
    struct scn_guard n;
    if (scn_guard_init(&n, cap + cap / 2)) return -1;
    scn_guard_fini(g);
    *g = n;
    return 0;
}

void scn_guard_fini(struct scn_guard *g)
{
    if (g->map) munmap(g->map, g->map_len);
    memset(g, 0, sizeof *g);
}

char *scn_guard_buffer(struct scn_guard *g, size_t size)
{
    unsigned char *b = g->guard - size;
    memset(b - SCN_GUARD_PRE, SCN_POISON, size + SCN_GUARD_PRE);
    return (char *)b;
}

long scn_guard_underrun(const struct scn_guard *g, const char *buf)
{
    (void)g;
    const unsigned char *b = (const unsigned char *)buf;
    for (long i = -SCN_GUARD_PRE; i < 0; i++)
        if (b[i] != SCN_POISON) return i;
    return 0;
}

/* ------------------------------------------------------------ faults */

static int catch_faults = !SCN_UNDER_ASAN;
static int handlers_installed;
static sigjmp_buf fault_jb;
static volatile sig_atomic_t fault_armed;
static void *volatile fault_addr;

static volatile unsigned long faults_caught;
int scn_oracle_catch_faults(void) { return catch_faults; }
unsigned long scn_oracle_faults_caught(void) { return faults_caught; }
void scn_oracle_set_catch_faults(int on) { catch_faults = on; }

static size_t all_sizes_max = SCN_ALL_SIZES_MAX;
void scn_oracle_set_all_sizes_max(size_t n) { all_sizes_max = n; }

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (!fault_armed) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    fault_armed = 0;
    faults_caught++;
    fault_addr = si->si_addr;
    siglongjmp(fault_jb, 1);
}

static void install_handlers(void)
{
    if (handlers_installed) return;
    static char altstack[1 << 16];
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    handlers_installed = 1;
}

/* ------------------------------------------------------------ calls */

struct call_ctx {
    const struct scn_target *t;
    enum scn_family fam;
};

static int tramp(void *ctx, char *buf, size_t size, const char *fmt, va_list ap)
{
    const struct call_ctx *cc = ctx;
    /* C99 family: a target without one (SCN_API_SCN, _POINTER) is called
     * here only for its full output (scn_check_case) */
    if (cc->fam == SCN_FAM_C99) return scn_target_full_call((void *)cc->t, buf, size, fmt, ap);
    if (cc->t->vscnprintf) return cc->t->vscnprintf(buf, size, fmt, ap);
    return scn_canonical_vscnprintf(cc->t->vsnprintf, buf, size, fmt, ap);
}

static __attribute__((noinline)) int guarded_call(struct call_ctx *cc, struct scn_case *c, char *pass,
                                                  size_t size, int *ret)
{
    if (sigsetjmp(fault_jb, 0)) return 1; /* SA_NODEFER: no mask to restore, no syscall */
    fault_armed = 1;
    *ret = scn_case_call_ctx(tramp, cc, c, pass, size);
    fault_armed = 0;
    return 0;
}

int scn_oracle_full_call(const struct scn_target *t, struct scn_case *c, char *buf, size_t cap, int *ret)
{
    struct call_ctx cc = { t, SCN_FAM_C99 };
    if (!catch_faults) {
        *ret = scn_case_call_ctx(tramp, &cc, c, buf, cap);
        return 0;
    }
    install_handlers();
    return guarded_call(&cc, c, buf, cap, ret);
}

int scn_oracle_call(struct scn_oracle_ctx *x, const struct scn_target *t, enum scn_family fam,
                    struct scn_case *c, size_t size, unsigned flags, int *ret, char **buf_out,
                    int *fault_in_guard)
{
    *fault_in_guard = 0;
    if (size > x->g.cap && scn_guard_reserve(&x->g, size)) {
        *ret = -1;
        *buf_out = NULL;
        return 1;
    }
    char *buf = scn_guard_buffer(&x->g, size);
    *buf_out = buf;
    char *pass = (size == 0 && (flags & SCN_CHECK_NULL_AT_0)) ? NULL : buf;
    struct call_ctx cc = { t, fam };
    if (!catch_faults) {
        *ret = scn_case_call_ctx(tramp, &cc, c, pass, size);
        return 0;
    }
    install_handlers();
    if (guarded_call(&cc, c, pass, size, ret)) {
        unsigned char *a = fault_addr;
        *fault_in_guard = a >= x->g.guard && a < x->g.guard + page_size();
        return 1;
    }
    return 0;
}

int scn_oracle_init(struct scn_oracle_ctx *x)
{
    memset(x, 0, sizeof *x);
    if (scn_guard_init(&x->g, 64 * 1024)) return -1;
    x->full_cap = 64 * 1024;
    x->full = malloc(x->full_cap);
    return x->full ? 0 : -1;
}

void scn_oracle_fini(struct scn_oracle_ctx *x)
{
    scn_guard_fini(&x->g);
    free(x->full);
    memset(x, 0, sizeof *x);
}

/* ------------------------------------------------------------ checking */

struct chk {
    struct scn_report *r;
    unsigned flags;
};

static int finding(struct chk *k, const char *oracle, enum scn_family fam, size_t size, long ret,
                   long expect, const char *buf, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Records a finding; returns 1 when the check should stop. */
static int finding(struct chk *k, const char *oracle, enum scn_family fam, size_t size, long ret,
                   long expect, const char *buf, const char *fmt, ...)
{
    struct scn_report *r = k->r;
    if (r->nfindings++ == 0) {
        struct scn_finding *f = &r->first;
        f->oracle = oracle;
        /* crash here is a fault caught in the guarded call: memory-safety */
        f->klass = !strcmp(oracle, "crash") ? "memory-safety" : scn_oracle_class(oracle);
        f->family = fam;
        f->size = size;
        f->ret = ret;
        f->expect_ret = expect;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->detail, sizeof f->detail, fmt, ap);
        va_end(ap);
        f->got_len = 0;
        if (buf) {
            f->got_len = size < SCN_FINDING_BYTES ? size : SCN_FINDING_BYTES;
            memcpy(f->got, buf, f->got_len);
        }
    }
    return !(k->flags & SCN_CHECK_ALL_FINDINGS);
}

static uint64_t rng_next(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ull;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* One checked call; returns 1 to stop. */
static int check_one(struct scn_oracle_ctx *x, struct chk *k, const struct scn_target *t,
                     struct scn_case *c, enum scn_family fam, size_t s, int *scn_ret_out)
{
    struct scn_report *r = k->r;
    int ret, in_guard;
    char *buf;
    r->calls++;
    if (scn_oracle_call(x, t, fam, c, s, k->flags, &ret, &buf, &in_guard)) {
        if (!buf) return finding(k, "crash", fam, s, -1, -1, NULL, "cannot map a %zu-byte buffer", s);
        if (s == 0 && (in_guard || (k->flags & SCN_CHECK_NULL_AT_0)))
            return finding(k, "size0-untouched", fam, s, -1, 0, NULL, "wrote to the buffer at size 0 (fault)");
        if (in_guard)
            return finding(k, "overrun", fam, s, -1, -1, buf, "write at or after buf+%zu (guard page fault)", s);
        return finding(k, "crash", fam, s, -1, -1, NULL, "SIGSEGV/SIGBUS at %p", fault_addr);
    }
    if (scn_ret_out) *scn_ret_out = ret;
    long u = scn_guard_underrun(&x->g, buf);
    if (u && finding(k, "underrun", fam, s, ret, -1, buf, "byte buf[%ld] changed", u)) return 1;
    long R = r->full_ret;
    size_t L = r->full_len;
    const unsigned char *full = r->full;
    if (fam == SCN_FAM_C99) {
        if (R >= 0 && ret != R) {
            if (finding(k, "c99.ret-full-length", fam, s, ret, R, buf,
                        "returned %d at size %zu, %ld with a large buffer", ret, s, R)) return 1;
        } else if (R < 0 && ret >= 0) {
            if (finding(k, "c99.ret-full-length", fam, s, ret, -1, buf,
                        "returned %d at size %zu but failed (%ld) with a large buffer", ret, s, R)) return 1;
        }
        if (s > 0 && R >= 0) {
            size_t m = L < s - 1 ? L : s - 1;
            if (memcmp(buf, full, m)) {
                size_t i = 0;
                while (buf[i] == (char)full[i]) i++;
                if (finding(k, "c99.prefix", fam, s, ret, R, buf,
                            "byte %zu differs from the full output (%zu of %zu bytes expected)", i, m, L)) return 1;
            } else if (buf[m] != 0) {
                if (finding(k, "nul-terminated", fam, s, ret, R, buf, "no NUL at buf[%zu]", m)) return 1;
            }
        }
        size_t idx[SCN_CASE_MAX_ARGS];
        size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
        for (size_t i = 0; i < nn && i < r->nn; i++) {
            long long v = scn_case_n_value(c, idx[i]);
            if (v != r->n[i] && finding(k, "n-consistent", fam, s, ret, R, buf,
                                        "%%n #%zu stored %lld at size %zu, %lld with a large buffer",
                                        i + 1, v, s, r->n[i])) return 1;
        }
        return 0;
    }
    /* scn family */
    if (s == 0) {
        if (ret != 0 && finding(k, "scn.size0-ret0", fam, s, ret, 0, NULL, "returned %d at size 0", ret))
            return 1;
        return 0;
    }
    if (ret < 0 || (size_t)ret > s - 1)
        return finding(k, "scn.ret-le-size-1", fam, s, ret, (long)(s - 1), buf,
                       "returned %d at size %zu (must be 0..%zu)", ret, s, s - 1);
    if (buf[ret] != 0)
        return finding(k, "scn.ret-eq-strlen", fam, s, ret, -1, buf, "buf[ret=%d] is not NUL", ret);
    if (R >= 0 && (size_t)ret <= L && !memchr(full, 0, (size_t)ret) && strnlen(buf, s) != (size_t)ret)
        return finding(k, "scn.ret-eq-strlen", fam, s, ret, (long)strnlen(buf, s), buf,
                       "returned %d but strlen(buf) is %zu", ret, strnlen(buf, s));
    if (R >= 0 && (size_t)ret <= L && memcmp(buf, full, (size_t)ret)) {
        size_t i = 0;
        while (buf[i] == (char)full[i]) i++;
        if (finding(k, "scn.prefix", fam, s, ret, -1, buf, "byte %zu differs from the full output", i))
            return 1;
    }
    /* When the C99 call failed (R < 0) its buffer contents are indeterminate
     * (C17 7.21.6.5p3), so it implies nothing about the scn family: a native
     * vscnprintf may keep what it wrote before the error (the reference does,
     * docs/CHOICES.md) and is bound only by the invariants checked above. */
    if (R < 0)
        return 0;
    long want = (long)((size_t)R < s - 1 ? (size_t)R : s - 1);
    if (ret != want && finding(k, "families-agree", fam, s, ret, want, buf,
                               "scn returned %d at size %zu, c99 full length %ld implies %ld", ret, s, R, want))
        return 1;
    return 0;
}

/* The full output, from the c99 entry with a buffer large enough (for a
 * target with only the scnprintf family, grown until it is not filled),
 * copied to x->full; 1 when a finding stops the check there. */
static int take_full_output(struct scn_oracle_ctx *x, struct chk *k, const struct scn_target *t,
                            struct scn_case *c, unsigned flags, int scn_only)
{
    struct scn_report *r = k->r;
    int ret = -1, in_guard;
    char *buf;
    size_t S = x->g.cap < SCN_FULL_FIRST_SIZE ? x->g.cap : SCN_FULL_FIRST_SIZE; /* small first: poisoning costs O(S) */
    for (int attempt = 0;; attempt++) {
        r->calls++;
        if (scn_oracle_call(x, t, SCN_FAM_C99, c, S, flags, &ret, &buf, &in_guard)) {
            if (!buf) finding(k, "crash", SCN_FAM_C99, S, -1, -1, NULL, "cannot map a buffer");
            else if (in_guard) finding(k, "overrun", SCN_FAM_C99, S, -1, -1, NULL, "write after buf+%zu", S);
            else finding(k, "crash", SCN_FAM_C99, S, -1, -1, NULL, "SIGSEGV/SIGBUS at %p", fault_addr);
            return 1;
        }
        if (ret >= 0 && (size_t)ret >= S) {
            if ((size_t)ret >= SCN_ORACLE_MAX_OUTPUT) {
                finding(k, "full-too-long", SCN_FAM_C99, S, ret, -1, NULL, "output of %d bytes", ret);
                return 1;
            }
            if (scn_only) { /* it filled the buffer: a bigger one says whether there is more */
                if (S * 16 <= SCN_ORACLE_MAX_OUTPUT && scn_guard_reserve(&x->g, S * 16) == 0) {
                    S *= 16;
                    continue;
                }
                finding(k, "full-too-long", SCN_FAM_SCN, S, ret, -1, NULL, "output of %zu bytes or more", S);
                return 1;
            }
            if (attempt == 0 && scn_guard_reserve(&x->g, (size_t)ret + 1) == 0) {
                S = (size_t)ret + 1;
                continue;
            }
            finding(k, "c99.ret-full-length", SCN_FAM_C99, S, ret, -1, NULL,
                    "returned %d with a %zu-byte buffer, twice", ret, S);
            return 1;
        }
        break;
    }
    long u = scn_guard_underrun(&x->g, buf);
    if (u && finding(k, "underrun", SCN_FAM_C99, S, ret, -1, NULL, "byte buf[%ld] changed", u))
        return 1;
    r->full_ret = ret;
    r->full_taken = 1;
    if (ret >= 0) {
        size_t L = (size_t)ret;
        if (L + 1 > x->full_cap) {
            unsigned char *n = realloc(x->full, L + 1);
            if (!n) {
                finding(k, "crash", SCN_FAM_C99, 0, ret, -1, NULL, "out of memory");
                return 1;
            }
            x->full = n;
            x->full_cap = L + 1;
        }
        memcpy(x->full, buf, L);
        x->full[L] = 0;
        r->full = x->full;
        r->full_len = L;
        if (buf[L] != 0 && finding(k, "nul-terminated", SCN_FAM_C99, S, ret, ret, NULL,
                                   "no NUL after the %zu-byte full output", L))
            return 1;
    }
    return 0;
}

size_t scn_check_case(struct scn_oracle_ctx *x, const struct scn_target *t, struct scn_case *c,
                      unsigned flags, struct scn_report *r)
{
    /* a target without a C99 family is checked on the scnprintf family only;
     * its full output is its own with a buffer big enough (below) */
    int scn_only = !t->vsnprintf;
    if (scn_only) flags |= SCN_CHECK_NO_C99;
    struct chk k = { r, flags };
    r->nfindings = 0;
    r->calls = 0;
    r->nn = 0;
    r->full = x->full;
    r->full_len = 0;
    r->full_ret = -1;
    r->full_taken = 0;
    if (take_full_output(x, &k, t, c, flags, scn_only)) return r->nfindings;
    size_t idx[SCN_CASE_MAX_ARGS];
    r->nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    if (r->nn > SCN_CASE_MAX_ARGS) r->nn = SCN_CASE_MAX_ARGS;
    for (size_t i = 0; i < r->nn; i++) r->n[i] = scn_case_n_value(c, idx[i]);

    /* the sizes */
    size_t L = r->full_len;
    size_t list[SCN_CASE_MAX_SIZES + 16];
    size_t ns = 0;
    if (!(flags & SCN_CHECK_ALL_SIZES)) {
        list[ns++] = 0;
        list[ns++] = 1;
        if (L > 2) list[ns++] = L - 1;
        if (L > 1) list[ns++] = L;
        list[ns++] = L + 1;
        uint64_t seed = 1469598103934665603ull;
        for (size_t i = 0; i < c->fmt_len; i++) seed = (seed ^ (unsigned char)c->fmt[i]) * 1099511628211ull;
        for (int i = 0; i < 3 && L > 3; i++) list[ns++] = 2 + rng_next(&seed) % (L - 3);
        for (size_t i = 0; i < c->nsizes; i++) list[ns++] = c->sizes[i];
    }
    int scn_ret_l1 = 0;
    /* every size 0..L+1; above all_sizes_max bytes of output: 0..H-1, the
     * last H sizes up to L+1, and 64 sizes evenly spaced between */
    size_t H = SCN_ALL_SIZES_EDGE, every = L + 2 <= all_sizes_max ? L + 2 : 0;
    size_t count = !(flags & SCN_CHECK_ALL_SIZES) ? ns : (every ? every : 2 * H + 64) + c->nsizes;
    for (size_t i = 0; i < count; i++) {
        size_t s;
        if (!(flags & SCN_CHECK_ALL_SIZES)) s = list[i];
        else if (every && i < every) s = i;
        else if (!every && i < H) s = i;
        else if (!every && i < H + 64) s = H + (i - H + 1) * (L + 2 - 2 * H) / 65;
        else if (!every && i < 2 * H + 64) s = L + 2 - H + (i - H - 64);
        else s = c->sizes[i - (every ? every : 2 * H + 64)];
        if (!(flags & SCN_CHECK_NO_C99) && check_one(x, &k, t, c, SCN_FAM_C99, s, NULL))
            return r->nfindings;
        int sr;
        if (!(flags & SCN_CHECK_NO_SCN)) {
            if (check_one(x, &k, t, c, SCN_FAM_SCN, s, &sr)) return r->nfindings;
            if (s == L + 1) scn_ret_l1 = sr;
        }
    }
    if (flags & SCN_CHECK_NO_REPEAT) return r->nfindings;
    int ret, in_guard;
    char *buf;
    /* repeatable: the same calls again */
    if (!(flags & SCN_CHECK_NO_C99)) {
        r->calls++;
        if (scn_oracle_call(x, t, SCN_FAM_C99, c, L + 1, flags, &ret, &buf, &in_guard) == 0) {
            if (ret != r->full_ret || (ret >= 0 && memcmp(buf, r->full, L + 1)))
                finding(&k, "repeatable", SCN_FAM_C99, L + 1, ret, r->full_ret, buf,
                        "a second call gave another result");
        }
    }
    if (!(flags & SCN_CHECK_NO_SCN) && !r->nfindings) {
        r->calls++;
        if (scn_oracle_call(x, t, SCN_FAM_SCN, c, L + 1, flags, &ret, &buf, &in_guard) == 0 &&
            ret != scn_ret_l1)
            finding(&k, "repeatable", SCN_FAM_SCN, L + 1, ret, scn_ret_l1, buf,
                    "a second call returned %d, the first %d", ret, scn_ret_l1);
    }
    return r->nfindings;
}

/* ------------------------------------------------------------ JSON */

size_t scn_json_bytes(const unsigned char *b, size_t n, char *out, size_t cap)
{
    size_t len = 0;
#define PUT(ch) do { if (len + 1 < cap) out[len] = (ch); len++; } while (0)
    PUT('"');
    for (size_t i = 0; i < n; i++) {
        unsigned ch = b[i];
        if (ch == '"' || ch == '\\') { PUT('\\'); PUT((char)ch); }
        else if (ch == '\n') { PUT('\\'); PUT('n'); }
        else if (ch >= 0x20 && ch < 0x7f) PUT((char)ch);
        else {
            char t[8];
            snprintf(t, sizeof t, "\\u%04x", ch);
            for (int j = 0; j < 6; j++) PUT(t[j]);
        }
    }
    PUT('"');
#undef PUT
    if (cap) out[len < cap ? len : cap - 1] = 0;
    return len;
}

size_t scn_finding_json(const struct scn_finding *f, char *out, size_t cap)
{
    char got[SCN_FINDING_BYTES * 6 + 4], det[sizeof f->detail * 6 + 4];
    scn_json_bytes(f->got, f->got_len, got, sizeof got);
    scn_json_bytes((const unsigned char *)f->detail, strlen(f->detail), det, sizeof det);
    int n = snprintf(out, cap,
                     "{\"oracle\":\"%s\",\"class\":\"%s\",\"family\":\"%s\",\"size\":%zu,\"ret\":%ld,"
                     "\"expect_ret\":%ld,\"detail\":%s,\"buffer\":%s}",
                     f->oracle, f->klass, scn_family_name(f->family), f->size, f->ret, f->expect_ret,
                     det, got);
    return n < 0 ? 0 : (size_t)n;
}
