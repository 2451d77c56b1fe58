/* scn-certify: every call of the function under test (exact-size inputs, the
 * case's own typed arguments, the heartbeat) and what a sanitizer report
 * says about the call it stopped. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "cert_state.h"

/* ------------------------------------------------------------ the call */

/* the inputs of the call in progress, to name what a sanitizer report hit */
static struct {
    const char *p;
    size_t n;
    int arg; /* -1: the format */
    int mem; /* bytes of a mem argument (no NUL after them) */
} inputs[SCN_CASE_MAX_ARGS + 1];
static size_t ninputs;

static void *copy_exact(const void *p, size_t n, int arg, int mem)
{
    void *q = malloc(n);
    if (!q) abort();
    memcpy(q, p, n);
    inputs[ninputs].p = q;
    inputs[ninputs].n = n;
    inputs[ninputs].mem = mem;
    inputs[ninputs++].arg = arg;
    return q;
}

/* The case's argument as passed: the exact-size copy for a string or mem bytes. */
static uint64_t arg_word(struct scn_case *c, size_t i, void *const *ptr)
{
    const struct scn_arg *a = &c->args[i];
    switch (a->type) {
    case SCN_ARG_INT: return (uint64_t)(int64_t)(int)a->v.i;
    case SCN_ARG_UINT: case SCN_ARG_WINT: return (uint32_t)a->v.u;
    case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE: return a->v.u;
    case SCN_ARG_PTR: return a->is_null ? 0 : a->v.u;
    case SCN_ARG_STR: case SCN_ARG_WSTR: return (uint64_t)(uintptr_t)ptr[i];
    case SCN_ARG_MEM: return a->is_err ? (uint64_t)a->v.i : (uint64_t)(uintptr_t)ptr[i]; /* NULL: ptr[i] 0 */
    case SCN_ARG_N: return (uint64_t)(uintptr_t)scn_case_n_slot(c, i);
    default: return (uint64_t)a->v.i; /* the other signed integer types */
    }
}

/* v* kinds: an x86-64 SysV va_list built as scn_case_call builds it (every
 * argument in the overflow area), with the copies. */
struct sysv_va {
    unsigned gp_offset, fp_offset;
    void *overflow_arg_area, *reg_save_area;
};

static int call_v(struct scn_case *c, void *const *ptr, const char *fmt, char *buf, size_t size)
{
    _Alignas(16) uint64_t area[2 * SCN_CASE_MAX_ARGS + 10];
    _Alignas(16) uint64_t regs[40];
    size_t k = 0;
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type == SCN_ARG_DOUBLE) {
            memcpy(&area[k++], &a->v.d, 8);
        } else if (a->type == SCN_ARG_LDOUBLE) {
            k = (k + 1) & ~(size_t)1;
            area[k] = area[k + 1] = 0;
            memcpy(&area[k], &a->v.ld, 10);
            k += 2;
        } else {
            area[k++] = arg_word(c, i, ptr);
        }
    }
    for (size_t j = 0; j < 8; j++) area[k + j] = 0;
    struct sysv_va tag = { 48, 304, area, regs };
    va_list ap;
    memcpy((void *)ap, &tag, sizeof tag);
    return scn_cert_vfn(buf, size, fmt, ap);
}

/* Variadic kinds: a va_list cannot be forwarded to a variadic function, so
 * one direct call whose shape covers every x86-64 SysV argument sequence:
 * the first 3 integer-class arguments in the remaining general registers,
 * the first 8 doubles in xmm0-7, every other argument in order in 8-byte
 * stack slots (long double: 16-byte aligned 16-byte slot), which is exactly
 * where a callee's va_arg looks. */
#define NSTACK 100
#define S10(b) st[b], st[b + 1], st[b + 2], st[b + 3], st[b + 4], st[b + 5], st[b + 6], st[b + 7], st[b + 8], st[b + 9]

static int call_variadic(struct scn_case *c, void *const *ptr, const char *fmt, char *buf, size_t size)
{
    uint64_t g[3] = { 0, 0, 0 }, st[NSTACK];
    double d[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    size_t ng = 0, nd = 0, k = 0;
    memset(st, 0, sizeof st);
    for (size_t i = 0; i < c->nargs && k + 3 < NSTACK; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type == SCN_ARG_DOUBLE) {
            if (nd < 8) d[nd++] = a->v.d;
            else memcpy(&st[k++], &a->v.d, 8);
            continue;
        }
        if (a->type == SCN_ARG_LDOUBLE) {
            k = (k + 1) & ~(size_t)1;
            memcpy(&st[k], &a->v.ld, 10);
            k += 2;
            continue;
        }
        uint64_t v = arg_word(c, i, ptr);
        if (ng < 3) g[ng++] = v;
        else st[k++] = v;
    }
    return scn_cert_fn(buf, size, fmt, g[0], g[1], g[2], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7],
                       S10(0), S10(10), S10(20), S10(30), S10(40), S10(50), S10(60), S10(70), S10(80),
                       S10(90));
}

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

/* Every call of the function under test: exact-size copies of the inputs,
 * the heartbeat the supervisor times, and a stop for a child the function
 * forked that returns into the driver. */
int cert_under_test(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)ap;
    struct scn_case *c = case_of(fmt);
    void *ptr[SCN_CASE_MAX_ARGS] = { 0 };
    ninputs = 0;
    char *f = copy_exact(c->fmt, strlen(c->fmt) + 1, -1, 0);
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->is_null) continue;
        if (a->type == SCN_ARG_STR) ptr[i] = copy_exact(c->arena + a->off, (size_t)a->len + 1, (int)i, 0);
        else if (a->type == SCN_ARG_WSTR)
            ptr[i] = copy_exact(c->arena + a->off, ((size_t)a->len + 1) * sizeof(wchar_t), (int)i, 0);
        else if (a->type == SCN_ARG_MEM && a->is_vaf) /* a struct va_format of the format's copy */
            ptr[i] = scn_case_vaf_struct(i, copy_exact(c->arena + a->off, (size_t)a->len + 1, (int)i, 0));
        else if (a->type == SCN_ARG_MEM && !a->is_err)
            ptr[i] = copy_exact(c->arena + a->off, a->len ? a->len : 1, (int)i, 1); /* the bytes, nothing after */
    }
    cert_sh->call_size = size;
    cert_sh->call_t0 = cert_now_ns();
    __atomic_store_n(&cert_sh->in_call, 1, __ATOMIC_SEQ_CST);
    int r = scn_cert_vfn ? call_v(c, ptr, f, buf, size) : call_variadic(c, ptr, f, buf, size);
    __atomic_store_n(&cert_sh->in_call, 0, __ATOMIC_SEQ_CST);
    if (getpid() != cert_sh->worker) _exit(0); /* a forked copy of the caller: the supervisor names the fork */
    for (size_t i = 0; i < ninputs; i++) free((void *)inputs[i].p);
    ninputs = 0;
    return r;
}

/* A scnprintf-family function seen as a C99 one (its full output): called
 * with a buffer big enough that nothing is cut (a return of cap - 1 may be
 * a cut: retried 16 times bigger), the first min(ret, size - 1) bytes copied
 * into buf. Used for the full output the truncation oracles compare with,
 * the expectations and the differential; the scn family itself is always
 * called directly. */
int cert_scn_as_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    size_t cap = (size_t)1 << 16;
    for (;;) {
        char *tmp = malloc(cap);
        if (!tmp) return -1;
        int r = cert_under_test(tmp, cap, fmt, ap);
        if (r >= 0 && (size_t)r >= cap - 1 && cap < ((size_t)1 << 26)) {
            free(tmp);
            cap *= 16;
            continue;
        }
        if (size) {
            size_t k = r < 0 ? 0 : (size_t)r < size - 1 ? (size_t)r : size - 1;
            if (k > cap - 1) k = cap - 1;
            memcpy(buf, tmp, k);
            buf[k] = '\0';
        }
        free(tmp);
        return r;
    }
}

/* ------------------------------------------------------------ sanitizers */

/* Defaults the environment can override: no leak check (a printf may keep
 * a buffer), faults left to the oracles' handler (overrun into the guard
 * page), redzones of 128 bytes (a read up to 128 bytes past an input is in
 * one), a small quarantine (the resident-memory limit measures the
 * function, not ASan), a huge allocation fails instead of aborting. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0:abort_on_error=0:handle_segv=0:handle_sigbus=0:redzone=128:quarantine_size_mb=32:"
           "allocator_may_return_null=1:max_allocation_size_mb=4096";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:halt_on_error=1"; }

extern int __asan_report_present(void) __attribute__((weak));
extern void *__asan_get_report_address(void) __attribute__((weak));
extern int __asan_get_report_access_type(void) __attribute__((weak));
extern size_t __asan_get_report_access_size(void) __attribute__((weak));
extern const char *__asan_get_report_description(void) __attribute__((weak));

/* What a sanitizer report is about, in shared memory for the supervisor:
 * an access near one of the call's inputs is named after it. */
static void note_report(void)
{
    if (!cert_sh) return;
    cert_sh->san_died = 1;
    snprintf(cert_sh->san_oracle, sizeof cert_sh->san_oracle, "sanitizer");
    if (!(__asan_report_present && __asan_report_present())) {
        snprintf(cert_sh->san_kind, sizeof cert_sh->san_kind, "undefined-behaviour");
        snprintf(cert_sh->san_what, sizeof cert_sh->san_what, "UndefinedBehaviorSanitizer: undefined behaviour");
        return;
    }
    const char *desc = __asan_get_report_description();
    const char *type = __asan_get_report_access_type() ? "WRITE" : "READ";
    size_t size = __asan_get_report_access_size();
    uintptr_t a = (uintptr_t)__asan_get_report_address();
    snprintf(cert_sh->san_kind, sizeof cert_sh->san_kind, "%s %s", desc, type);
    snprintf(cert_sh->san_what, sizeof cert_sh->san_what, "AddressSanitizer: %s: %s of %zu byte(s)", desc, type, size);
    for (size_t i = 0; i < ninputs; i++) {
        uintptr_t p = (uintptr_t)inputs[i].p, end = p + inputs[i].n; /* end - 1: the NUL */
        char what[48];
        if (inputs[i].arg < 0) snprintf(what, sizeof what, "the format");
        else snprintf(what, sizeof what, "%s argument %d", inputs[i].mem ? "mem" : "string", inputs[i].arg + 1);
        if (a >= end && a < end + 4096) {
            snprintf(cert_sh->san_oracle, sizeof cert_sh->san_oracle, "read-past-input");
            snprintf(cert_sh->san_kind, sizeof cert_sh->san_kind, "%s past %s", type, what);
            snprintf(cert_sh->san_what, sizeof cert_sh->san_what,
                     "%s of %zu byte(s) %zu byte(s) past the %s of %s (AddressSanitizer: %s)", type, size,
                     (size_t)(a - end + 1), inputs[i].mem ? "last byte" : "terminating NUL", what, desc);
            return;
        }
        if (a < p && a + 4096 > p) {
            snprintf(cert_sh->san_oracle, sizeof cert_sh->san_oracle, "read-past-input");
            snprintf(cert_sh->san_kind, sizeof cert_sh->san_kind, "%s before %s", type, what);
            snprintf(cert_sh->san_what, sizeof cert_sh->san_what,
                     "%s of %zu byte(s) %zu byte(s) before the start of %s (AddressSanitizer: %s)", type, size,
                     (size_t)(p - a), what, desc);
            return;
        }
    }
}

/* A probe (a reduction candidate), or a report of a kind the campaign has
 * already logged, needs only what the report is about: ending here skips
 * printing and symbolising hundreds of the same report, the slow part. The
 * first of each kind is printed whole into the sanitizer log. */
void __asan_on_error(void);
void __asan_on_error(void)
{
    if (!cert_sh) return;
    note_report();
    char key[160];
    snprintf(key, sizeof key, "asan-report:%s:%s", cert_sh->san_oracle, cert_sh->san_kind);
    if (cert_sh->probe || !cert_seen_first(key)) _exit(EXIT_SAN);
}

void cert_on_death(void) { note_report(); }
