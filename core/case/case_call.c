/* The call: a case's arguments in a hand-built x86-64 SysV va_list (case.h,
 * scn_case_call), the call pool of mem arguments' copies, the struct
 * va_format of mem:VAF, the call watch, and the %n values a call stored. */
#define _GNU_SOURCE
#include "case.h"

#include <string.h>

/* The x86-64 System V va_list element (psABI 3.5.7). */
struct sysv_va_tag {
    unsigned int gp_offset;   /* the next GP slot of reg_save_area; 48: all 6 consumed */
    unsigned int fp_offset;   /* the next XMM slot (48 + 16 * n); 176: all 8 consumed */
    void *overflow_arg_area;  /* the next stack argument */
    void *reg_save_area;
};
_Static_assert(sizeof(va_list) == sizeof(struct sysv_va_tag), "x86-64 SysV va_list expected");
_Static_assert(sizeof(wchar_t) == 4, "wstr arguments are arrays of 32-bit wchar_t");

/* The call pool: where a call puts the copies of its mem arguments' bytes,
 * each 16-byte aligned after a gap of at least 16 bytes (a copy takes at most
 * its length + 31 bytes, the gaps included, and the lengths add up to at most
 * the arena). Under ASan the whole pool is poisoned for each call that has mem
 * arguments and only the copies are unpoisoned, so a read past the end of one
 * (or before its start) is an ASan report ("use-after-poison") in the callee.
 * The copies are not in the case's arena because whole cases are copied and
 * compared (memcpy of the arena) where no poison may be, and a call abandoned
 * by a fault (oracle.c's siglongjmp) would leave the poison behind; the pool
 * is touched by nothing but scn_case_call_ctx. It is one for the process (no
 * thread-local storage: this file is also built against libcs without TLS, see
 * runner/scnfuzz/anylibc.py), so calls with mem arguments are for one thread
 * at a time. */
#if defined(__SANITIZE_ADDRESS__)
#define SCN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCN_ASAN 1
#endif
#endif
#ifdef SCN_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#define POOL_GAP 16
static _Alignas(16) unsigned char call_pool[POOL_GAP + SCN_CASE_ARENA + SCN_CASE_MAX_ARGS * (2 * POOL_GAP)];

/* The copy of a mem argument's bytes (a VAF's with its NUL) in the pool;
 * *used: the pool bytes taken so far. */
static uint64_t mem_copy(const struct scn_case *c, const struct scn_arg *a, size_t *used)
{
    size_t n = (size_t)a->len + a->is_vaf;
    if (n > sizeof call_pool - POOL_GAP - *used) /* args sharing bytes (not built by case_build.c) */
        return (uint64_t)(uintptr_t)(c->arena + a->off);
    if (*used == 0) {
        POISON(call_pool, sizeof call_pool);
        *used = POOL_GAP;
    }
    unsigned char *p = call_pool + *used;
    UNPOISON(p, n);
    memcpy(p, c->arena + a->off, n);
    *used = ((*used + n + 15) & ~(size_t)15) + POOL_GAP;
    return (uint64_t)(uintptr_t)p;
}

/* mem:VAF: struct va_format as include/linux/printk.h declares it, one slot
 * per argument index, and the zero words its va_list reads: a format of n
 * bytes reads at most 2n/3 + 1 arguments ("%*d%*d..."), and n is at most the
 * arena. The slots are rebuilt by every call (the kernel va_copy()s *va, but
 * a callee that va_arg()s it in place must not change the next call); the
 * zeros are only read (va_arg moves the va_list's pointer, not the words). */
struct scn_va_format { const char *fmt; va_list *va; };
static struct scn_va_format vaf_slot[SCN_CASE_MAX_ARGS];
static va_list vaf_va[SCN_CASE_MAX_ARGS];
static uint64_t vaf_zeros[SCN_CASE_ARENA * 2 / 3 + 16];

/* The pointer a mem argument passes (argument i). */
static uint64_t mem_pointer(const struct scn_case *c, size_t i, size_t *used)
{
    const struct scn_arg *a = &c->args[i];
    if (a->is_null) return 0;
    if (a->is_err) return (uint64_t)a->v.i; /* ERR_PTR(e): (void *)(long)e */
    if (!a->is_vaf) return mem_copy(c, a, used);
    return (uint64_t)(uintptr_t)scn_case_vaf_struct(i, (const char *)(uintptr_t)mem_copy(c, a, used));
}

void *scn_case_vaf_struct(size_t i, const char *fmt)
{
    struct sysv_va_tag tag = { 48, 304, vaf_zeros, vaf_zeros };
    memcpy((void *)vaf_va[i], &tag, sizeof tag);
    vaf_slot[i].fmt = fmt;
    vaf_slot[i].va = &vaf_va[i];
    return &vaf_slot[i];
}

/* The call watch (scn_case_watch_calls): a clock passed in, so that this file
 * needs nothing of the libc it is built against. */
static volatile uint64_t *watch_since;
static volatile size_t *watch_size;
static uint64_t (*watch_now)(void);

void scn_case_watch_calls(volatile uint64_t *since, volatile size_t *size, uint64_t (*now)(void))
{
    watch_now = now;
    watch_size = size;
    watch_since = now ? since : NULL;
}

struct direct_ctx { scn_vprintf_fn fn; };

static int direct_tramp(void *ctx, char *buf, size_t size, const char *fmt, va_list ap)
{
    return ((struct direct_ctx *)ctx)->fn(buf, size, fmt, ap);
}

/* The bytes of a %n slot past its object: N_POISON before the call; after
 * it, a store that changed them leaves them N_WRITTEN_PAST (what the store
 * wrote there is the count's high bytes, often the zeros a slot is cleared
 * with elsewhere: certification's calls, the executor's answers). */
enum { N_POISON = 0xa5, N_WRITTEN_PAST = 0x5a };

static size_t n_size(unsigned char ntype)
{
    switch (ntype) {
    case SCN_N_SCHAR: return sizeof(signed char);
    case SCN_N_SHORT: return sizeof(short);
    case SCN_N_INT: return sizeof(int);
    default: return sizeof(long long);
    }
}

static int n_past_is(const struct scn_case *c, size_t i, unsigned char v)
{
    const unsigned char *p = (const unsigned char *)&c->nslot[i];
    size_t a = n_size(c->args[i].ntype);
    if (a == sizeof c->nslot[i]) return 0;
    for (size_t b = a; b < sizeof c->nslot[i]; b++)
        if (p[b] != v) return 0;
    return 1;
}

void *scn_case_n_slot(struct scn_case *c, size_t i)
{
    /* the object zeroed, the rest of its slot poisoned: a store wider than
     * the object (a %n falling through to %ln's) writes past it */
    memset(&c->nslot[i], N_POISON, sizeof c->nslot[i]);
    memset(&c->nslot[i], 0, n_size(c->args[i].ntype));
    return &c->nslot[i];
}

static void mark_n_written_past(struct scn_case *c)
{
    for (size_t i = 0; i < c->nargs; i++) {
        if (c->args[i].type != SCN_ARG_N || n_past_is(c, i, N_POISON)) continue;
        size_t a = n_size(c->args[i].ntype);
        if (a < sizeof c->nslot[i]) memset((unsigned char *)&c->nslot[i] + a, N_WRITTEN_PAST, sizeof c->nslot[i] - a);
    }
}

int scn_case_call(scn_vprintf_fn fn, struct scn_case *c, char *buf, size_t size)
{
    struct direct_ctx d = { fn };
    return scn_case_call_ctx(direct_tramp, &d, c, buf, size);
}

/* The va_list a real call snprintf(buf, size, fmt, ...) would make
 * (psABI 3.5.7): buf, size and fmt take the first three of the six GP
 * registers (gp_offset 24) and no vector register (fp_offset 48); each
 * INTEGER argument (integers, pointers) goes to the register save area's next
 * GP slot while one is left, each SSE one (double) to its next 16-byte XMM
 * slot while one is left, the rest and every long double (class X87, passed
 * in memory) to the overflow area in order. So a callee that steps over an
 * argument of the wrong class (a double as an int) reads another slot than a
 * real call's, as it would. The unread slots and the overflow area's tail are
 * zero: a format that reads too far gets zeros. */
enum { VA_GP_NAMED = 3 * 8, VA_GP_END = 6 * 8, VA_FP_END = VA_GP_END + 8 * 16 };

struct va_build {
    _Alignas(16) uint64_t regs[VA_FP_END / 8];
    /* 2 slots per argument at most (long double) + alignment + zero tail */
    _Alignas(16) uint64_t area[2 * SCN_CASE_MAX_ARGS + 10];
    unsigned gp, fp;
    size_t k;
};

static void va_put_gp(struct va_build *b, uint64_t v)
{
    if (b->gp < VA_GP_END) {
        b->regs[b->gp / 8] = v;
        b->gp += 8;
    } else {
        b->area[b->k++] = v;
    }
}

static void va_put_fp(struct va_build *b, double d)
{
    if (b->fp < VA_FP_END) {
        memcpy(&b->regs[b->fp / 8], &d, 8); /* the slot's upper half stays 0 */
        b->fp += 16;
    } else {
        memcpy(&b->area[b->k++], &d, 8);
    }
}

static void va_put_ldouble(struct va_build *b, long double ld)
{
    if (b->k & 1) b->area[b->k++] = 0; /* 16-byte aligned slot */
    b->area[b->k] = b->area[b->k + 1] = 0;
    memcpy(&b->area[b->k], &ld, 10);
    b->k += 2;
}

static void va_put_arg(struct va_build *b, struct scn_case *c, size_t i, size_t *pool_used)
{
    const struct scn_arg *a = &c->args[i];
    switch (a->type) {
    case SCN_ARG_INT:
        va_put_gp(b, (uint64_t)(int64_t)(int)a->v.i);
        break;
    case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE:
    case SCN_ARG_PTRDIFF:
        va_put_gp(b, (uint64_t)a->v.i);
        break;
    case SCN_ARG_UINT: case SCN_ARG_WINT:
        va_put_gp(b, (uint32_t)a->v.u);
        break;
    case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
        va_put_gp(b, a->v.u);
        break;
    case SCN_ARG_PTR:
        va_put_gp(b, a->is_null ? 0 : a->v.u);
        break;
    case SCN_ARG_DOUBLE:
        va_put_fp(b, a->v.d);
        break;
    case SCN_ARG_LDOUBLE:
        va_put_ldouble(b, a->v.ld);
        break;
    case SCN_ARG_STR: case SCN_ARG_WSTR:
        va_put_gp(b, a->is_null ? 0 : (uint64_t)(uintptr_t)(c->arena + a->off));
        break;
    case SCN_ARG_N:
        va_put_gp(b, (uint64_t)(uintptr_t)scn_case_n_slot(c, i));
        break;
    case SCN_ARG_MEM:
        va_put_gp(b, mem_pointer(c, i, pool_used));
        break;
    }
}

int scn_case_call_ctx(scn_vprintf_ctx_fn fn, void *ctx, struct scn_case *c, char *buf, size_t size)
{
    struct va_build b;
    memset(b.regs, 0, sizeof b.regs);
    b.gp = VA_GP_NAMED;
    b.fp = VA_GP_END;
    b.k = 0;
    size_t pool_used = 0;
    for (size_t i = 0; i < c->nargs; i++) va_put_arg(&b, c, i, &pool_used);
    for (size_t j = 0; j < 8; j++) b.area[b.k + j] = 0; /* a format reading too far gets zeros */
    struct sysv_va_tag tag = { VA_GP_NAMED, VA_GP_END, b.area, b.regs };
    va_list ap;
    memcpy((void *)ap, &tag, sizeof tag);
    struct scn_round_call round_call; /* the case's rounding direction around fn (case_round.c) */
    scn_case_round_wrap(c, &round_call, &fn, &ctx);
    int r;
    if (!watch_since) {
        r = fn(ctx, buf, size, c->fmt, ap);
    } else {
        if (watch_size) *watch_size = size;
        *watch_since = watch_now();
        r = fn(ctx, buf, size, c->fmt, ap);
        *watch_since = 0;
    }
    mark_n_written_past(c);
    return r;
}

long long scn_case_n_value(const struct scn_case *c, size_t i)
{
    if (i >= c->nargs || c->args[i].type != SCN_ARG_N) return 0;
    if (n_past_is(c, i, N_WRITTEN_PAST)) return SCN_N_WRITTEN_PAST;
    switch (c->args[i].ntype) {
    case SCN_N_INT: return c->nslot[i].i;
    case SCN_N_SCHAR: return c->nslot[i].hh;
    case SCN_N_SHORT: return c->nslot[i].h;
    case SCN_N_LONG: return c->nslot[i].l;
    case SCN_N_LLONG: return c->nslot[i].ll;
    case SCN_N_INTMAX: return (long long)c->nslot[i].j;
    case SCN_N_SIZE: return (long long)c->nslot[i].z;
    case SCN_N_PTRDIFF: return (long long)c->nslot[i].t;
    }
    return 0;
}

size_t scn_case_n_args(const struct scn_case *c, size_t *idx, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_N) {
            if (n < max) idx[n] = i;
            n++;
        }
    return n;
}
