/* The rounding direction a case's call is made under (case.h, enum scn_round):
 * entered before the call and left after it, in this one file.
 *
 * C17 F.5 and IEEE 754-2019 5.12.2 make binary-to-decimal conversion honour
 * the current rounding direction (7.21.6.1p13's digits are then rounded in
 * it). x86-64 has two rounding controls and a printf may use either: SSE's
 * MXCSR for double arithmetic (musl's fmt_fp finds the direction by adding
 * doubles) and the x87 control word for long double arithmetic (musl's
 * long double path, glibc's fegetround). Both are set, as fesetround sets
 * them, with inline instructions: this file is built against every libc an
 * executor uses (core/case/sources.cmake), some without libm. */
#include "case.h"

/* x87 RC (control word bits 10-11) and MXCSR RC (bits 13-14) share one
 * encoding: 00 to nearest, 01 downward, 10 upward, 11 toward zero
 * (Intel SDM vol. 1, 4.8.4 table 4-8). */
static const unsigned rc_bits[SCN_ROUND__COUNT] = {
    [SCN_ROUND_NEAREST] = 0, [SCN_ROUND_DOWNWARD] = 1, [SCN_ROUND_UPWARD] = 2, [SCN_ROUND_TOWARDZERO] = 3,
};
#define X87_RC_SHIFT 10
#define MXCSR_RC_SHIFT 13

static const char *const round_names[SCN_ROUND__COUNT] = {
    "nearest", "upward", "downward", "towardzero",
};

const char *scn_round_name(enum scn_round r)
{
    return (unsigned)r < SCN_ROUND__COUNT ? round_names[r] : NULL;
}

static unsigned short x87_cw_get(void)
{
    unsigned short cw = 0; /* MemorySanitizer does not see the asm's store */
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    return cw;
}

static void x87_cw_set(unsigned short cw)
{
    __asm__ __volatile__("fldcw %0" : : "m"(cw));
}

static unsigned mxcsr_get(void)
{
    unsigned m = 0; /* MemorySanitizer does not see the asm's store */
    __asm__ __volatile__("stmxcsr %0" : "=m"(m));
    return m;
}

static void mxcsr_set(unsigned m)
{
    __asm__ __volatile__("ldmxcsr %0" : : "m"(m));
}

void scn_round_enter(enum scn_round r, struct scn_round_saved *saved)
{
    saved->set = 0;
    if ((unsigned)r >= SCN_ROUND__COUNT || r == SCN_ROUND_NEAREST) return;
    saved->x87 = x87_cw_get();
    saved->mxcsr = mxcsr_get();
    saved->set = 1;
    unsigned rc = rc_bits[r];
    x87_cw_set((unsigned short)((saved->x87 & ~(3u << X87_RC_SHIFT)) | (rc << X87_RC_SHIFT)));
    mxcsr_set((saved->mxcsr & ~(3u << MXCSR_RC_SHIFT)) | (rc << MXCSR_RC_SHIFT));
}

void scn_round_leave(const struct scn_round_saved *saved)
{
    if (!saved->set) return;
    mxcsr_set(saved->mxcsr);
    x87_cw_set(saved->x87);
}

/* The environment of a directed call under way: a call abandoned by a fault
 * (oracle.c's siglongjmp out of the callee) never reaches its leave, so the
 * next call puts this back first. One for the process, like the call pool
 * (case_call.c: no thread-local storage in every libc this is built with). */
static struct scn_round_saved round_pending;

static int round_tramp(void *ctx, char *buf, size_t size, const char *fmt, va_list ap)
{
    const struct scn_round_call *rc = ctx;
    struct scn_round_saved saved;
    scn_round_enter((enum scn_round)rc->round, &saved);
    int outermost = !round_pending.set; /* a call from inside the callee nests */
    if (outermost) round_pending = saved;
    int r = rc->fn(rc->ctx, buf, size, fmt, ap);
    scn_round_leave(&saved);
    if (outermost) round_pending.set = 0;
    return r;
}

void scn_case_round_wrap(const struct scn_case *c, struct scn_round_call *rc, scn_vprintf_ctx_fn *fn,
                         void **ctx)
{
    if (round_pending.set) { /* the last directed call did not return */
        scn_round_leave(&round_pending);
        round_pending.set = 0;
    }
    if (c->round == SCN_ROUND_NEAREST || c->round >= SCN_ROUND__COUNT) return;
    rc->fn = *fn;
    rc->ctx = *ctx;
    rc->round = c->round;
    *fn = round_tramp;
    *ctx = rc;
}
