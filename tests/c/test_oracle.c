/* Tests of the per-size oracles (oracles/oracle.c): the guarded buffer, and
 * deliberately wrong implementations (plain C functions as fake targets)
 * through the real entry points (scn_check_case, scn_oracle_call), each
 * caught by the oracle oracle.h names for what it gets wrong, with its
 * class, family and size; correct implementations pass; the sizes tried and
 * the check flags as oracle.h documents them; the finding's JSON. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "case.h"
#include "oracle.h"
#include "target.h"

static struct scn_case C;
static char err[256];

/* ---------------------------------------------------------------- fake targets */

/* a correct scnprintf family over the host's vsnprintf */
static int good_scn(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (r < 0) { if (size) buf[0] = 0; return 0; }
    if ((size_t)r < size) return r;
    return size ? (int)size - 1 : 0;
}
/* scn family returning the would-be length (C99's rule) */
static int bug_wouldbe(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}
/* the same, but right at size 0: the wrong value shows at the truncating sizes */
static int bug_wouldbe_not0(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    return size ? r : 0;
}
/* size instead of size - 1 when truncated */
static int bug_size(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if ((size_t)r < size) return r;
    return (int)size;
}
/* writes a NUL at size 0 (also through a NULL buf: a fault, not UBSan's report) */
__attribute__((no_sanitize("undefined"))) static int bug_nul0(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (size == 0) { buf[0] = 0; return 0; }
    return good_scn(buf, size, fmt, ap);
}
/* one byte past the end */
static int bug_overrun(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size) buf[size] = 0;
    return r;
}
/* the scn family forgets the NUL at an exact fit */
static int bug_exactfit(char *buf, size_t size, const char *fmt, va_list ap)
{
    char tmp[4096];
    int full = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (size == 0) return 0;
    size_t n = (size_t)full < size - 1 ? (size_t)full : size - 1;
    memcpy(buf, tmp, n);
    if ((size_t)full != size - 1) buf[n] = 0;
    return (int)n;
}
/* the scn family returns the right count, but a NUL cuts the string short */
static int bug_early_nul(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (r > 2) buf[1] = 0;
    return r;
}
/* the scn family gets the bytes wrong (not a prefix of the full output) */
static int bug_scn_bytes(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (r > 0) buf[0] = buf[0] == 'Z' ? 'Y' : 'Z';
    return r;
}
/* the scn family stops one byte early when truncating (consistent, but not
 * what the c99 family's full length implies) */
static int bug_scn_short(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size >= 2 && r == (int)size - 1) buf[--r] = 0;
    return r;
}
/* a write before the buffer */
static int bug_underrun(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size > 3) buf[-1] = 'U';
    return r;
}
/* a fault anywhere else: a write to a page of its own */
static char *wild_page;
static int bug_wild(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size > 3) *(volatile char *)wild_page = 1;
    return r;
}
/* C99 family returning the truncated length */
static int bug_c99_trunc(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    return size && (size_t)r >= size ? (int)size - 1 : r;
}
/* C99 family writing garbage into the truncated output */
static int bug_c99_garbage_tail(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (size > 2 && (size_t)r >= size) buf[size / 2] = '#';
    return r;
}
/* C99 family not NUL-terminating a truncated output */
static int bug_c99_nonul(char *buf, size_t size, const char *fmt, va_list ap)
{
    char tmp[4096];
    int r = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (size == 0 || r < 0) return r;
    size_t n = (size_t)r < size ? (size_t)r + 1 : size; /* the NUL only when it all fits */
    memcpy(buf, tmp, n);
    return r;
}
/* C99 family failing (-1) at small sizes only */
static int bug_c99_fail_small(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (size < 10) return -1;
    return vsnprintf(buf, size, fmt, ap);
}
/* C99 family failing everywhere: a consistent error */
static int c99_fail(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
    if (size) buf[0] = 0;
    return -1;
}
/* C99 family that never fits: always one more than the buffer */
static int bug_c99_never_fits(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
    if (size) buf[0] = 0;
    return (int)size + 1;
}
/* C99 family claiming an enormous output */
static int c99_huge(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
    if (size) buf[0] = 0;
    return (int)SCN_ORACLE_MAX_OUTPUT;
}
/* C99 family whose %n counts only the bytes stored (format "abcdef%n") */
static int bug_c99_n(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int r = vsnprintf(buf, size, fmt, ap);
    int *p = va_arg(cp, int *);
    va_end(cp);
    size_t stored = size ? size - 1 : 0;
    if ((size_t)r > stored) *p = (int)stored;
    return r;
}
/* scn family returning another value the 6th time it is called */
static int flaky_n;
static int bug_flaky(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    return ++flaky_n == 6 ? r - 1 : r;
}
/* C99 family writing other bytes from its 7th call on */
static int flaky_c99_n;
static int bug_flaky_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (++flaky_c99_n >= 7 && r > 0 && size > 1) buf[0] = 'Q';
    return r;
}
/* scn family wrong at sizes 300..700 only */
static int bug_mid(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    return size >= 300 && size <= 700 ? (int)size : r;
}
/* scn family wrong at size 7 only */
static int bug_size7(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    return size == 7 ? 7 : r;
}

/* ---------------------------------------------------------------- running */

static struct scn_oracle_ctx X;

static const char *run(scn_vprintf_fn c99, scn_vprintf_fn scn, const char *text, unsigned flags, struct scn_report *r)
{
    struct scn_target t = { .name = "test", .dialect = SCN_DIALECT_ISO, .vsnprintf = c99, .vscnprintf = scn };
    if (scn_case_parse(text, strlen(text), &C, err, sizeof err)) {
        fprintf(stderr, "bad case %s: %s\n", text, err);
        exit(2);
    }
    size_t n = scn_check_case(&X, &t, &C, flags, r);
    CHECK(n == r->nfindings, "returned %zu, report says %zu", n, r->nfindings);
    return n ? r->first.oracle : NULL;
}

static const char *HELLO = "\"hello, %s! %d\" str:\"world\" int:42"; /* "hello, world! 42": 16 bytes */
enum { HELLO_LEN = 16 };

static void test_correct(void)
{
    struct scn_report r;
    static const char *const cases[] = {
        "\"hello, %s! %d\" str:\"world\" int:42", "\"%5d|%-3s|%c\" int:7 str:\"ab\" int:65", "\"\"",
        "\"%.40f\" double:0x1p-3", "\"%1000d\" int:5", "\"ab%ncd\" n:int",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (unsigned f = 0; f < 4; f++) {
            unsigned fl = (f & 1 ? SCN_CHECK_ALL_SIZES : 0) | (f & 2 ? SCN_CHECK_NULL_AT_0 : 0);
            const char *o = run(vsnprintf, good_scn, cases[i], fl, &r);
            CHECK(o == NULL, "correct implementation flagged by %s (%s) on %s", o, r.first.detail, cases[i]);
            o = run(vsnprintf, NULL, cases[i], fl, &r);
            CHECK(o == NULL, "canonical wrapper flagged by %s (%s) on %s", o, r.first.detail, cases[i]);
        }
    /* the report: the full output and the %n values of the full call */
    run(vsnprintf, good_scn, HELLO, 0, &r);
    CHECK(r.full_ret == HELLO_LEN && r.full_len == HELLO_LEN && !memcmp(r.full, "hello, world! 42", HELLO_LEN + 1),
          "report: full %d %zu %.20s", r.full_ret, r.full_len, r.full);
    run(vsnprintf, good_scn, "\"abcdef%n\" n:int", SCN_CHECK_ALL_SIZES, &r);
    CHECK(r.nfindings == 0 && r.nn == 1 && r.n[0] == 6, "n values: %zu %lld", r.nn, r.n[0]);
    /* an error of the C99 call at every size is consistent: no finding,
     * full_ret < 0, and the canonical wrapper's "" and 0 are accepted
     * (glibc fails on %ls of a non-ASCII code point in the C locale) */
    const char *o = run(vsnprintf, NULL, "\"a%lsb\" wstr:\"\\u{e9}\"", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o == NULL && r.full_ret < 0 && r.full_len == 0, "error case: %s ret %d", o ? o : "none", r.full_ret);
    o = run(c99_fail, NULL, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o == NULL && r.full_ret < 0, "failing everywhere: %s", o ? o : "none");
}

/* The sizes tried (oracle.h): by default 0, 1, len-1, len, len+1, three
 * others and the case's @sizes; with SCN_CHECK_ALL_SIZES every size 0..len+1
 * up to SCN_ALL_SIZES_MAX, beyond it the first and last SCN_ALL_SIZES_EDGE
 * and 64 between. Each size is one call per family; one call makes the full
 * output (it fits the first buffer here), and the repeat is one more per family. */
static void test_sizes(void)
{
    struct scn_report r;
    run(vsnprintf, good_scn, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(r.calls == 1 + 2 * (HELLO_LEN + 2) + 2, "all sizes of a short output: %zu calls", r.calls);
    run(vsnprintf, good_scn, HELLO, 0, &r);
    CHECK(r.calls == 1 + 2 * 8 + 2, "default sizes: %zu calls", r.calls);
    run(vsnprintf, good_scn, "\"hello, %s! %d\" str:\"world\" int:42 @3,700", 0, &r);
    CHECK(r.calls == 1 + 2 * 10 + 2, "default sizes and two @sizes: %zu calls", r.calls);
    run(vsnprintf, good_scn, "\"%1000d\" int:5", SCN_CHECK_ALL_SIZES, &r);
    CHECK(r.calls == 1 + 2 * (2 * SCN_ALL_SIZES_EDGE + 64) + 2, "all sizes of a long output: %zu calls", r.calls);
    CHECK(r.full_len == 1000, "full length %zu", r.full_len);
    /* without the limit, every size */
    scn_oracle_set_all_sizes_max((size_t)-1);
    run(vsnprintf, good_scn, "\"%1000d\" int:5", SCN_CHECK_ALL_SIZES | SCN_CHECK_NO_REPEAT, &r);
    CHECK(r.calls == 1 + 2 * 1002, "every size of a long output: %zu calls", r.calls);
    scn_oracle_set_all_sizes_max(SCN_ALL_SIZES_MAX);

    /* a bug at one size is found at that size when the case asks for it */
    const char *o = run(vsnprintf, bug_size7, "\"hello, %s! %d\" str:\"world\" int:42 @7", 0, &r);
    CHECK(o && !strcmp(o, "scn.ret-le-size-1") && r.first.size == 7 && r.first.ret == 7 && r.first.expect_ret == 6,
          "@7: %s size %zu ret %ld", o ? o : "none", r.first.size, r.first.ret);
    o = run(vsnprintf, bug_size7, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && r.first.size == 7, "all sizes: %s size %zu", o ? o : "none", r.first.size);
    /* sizes in the middle of a long output: 64 evenly spaced between the
     * edges, so a bug over 400 of them is met */
    o = run(vsnprintf, bug_mid, "\"%1000d\" int:5", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "scn.ret-le-size-1") && r.first.size >= 300 && r.first.size <= 700,
          "a bug at sizes 300..700 of 1000 bytes: %s at %zu", o ? o : "none", r.first.size);
    /* a bug that only shows at an exact fit of a long output is among the last sizes */
    o = run(vsnprintf, bug_exactfit, "\"%1000d\" int:5", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "scn.ret-eq-strlen") && r.first.size == 1001, "exact fit of 1000 bytes: %s at %zu",
          o ? o : "none", r.first.size);
}

struct bug {
    const char *name;
    scn_vprintf_fn c99, scn;
    const char *oracle;
    enum scn_family fam;
    int memory; /* class memory-safety, else invariant */
};

static void test_bugs(void)
{
    struct scn_report r;
    const struct bug b[] = {
        { "would-be length at size 0", vsnprintf, bug_wouldbe, "scn.size0-ret0", SCN_FAM_SCN, 0 },
        { "would-be length when truncated", vsnprintf, bug_wouldbe_not0, "scn.ret-le-size-1", SCN_FAM_SCN, 0 },
        { "size instead of size-1", vsnprintf, bug_size, "scn.ret-le-size-1", SCN_FAM_SCN, 0 },
        { "NUL at size 0", vsnprintf, bug_nul0, "size0-untouched", SCN_FAM_SCN, 1 },
        { "one byte past size", vsnprintf, bug_overrun, "overrun", SCN_FAM_SCN, 1 },
        { "no NUL at an exact fit", vsnprintf, bug_exactfit, "scn.ret-eq-strlen", SCN_FAM_SCN, 0 },
        { "an early NUL", vsnprintf, bug_early_nul, "scn.ret-eq-strlen", SCN_FAM_SCN, 0 },
        { "wrong bytes", vsnprintf, bug_scn_bytes, "scn.prefix", SCN_FAM_SCN, 0 },
        { "one byte short", vsnprintf, bug_scn_short, "families-agree", SCN_FAM_SCN, 0 },
        { "a write before buf", vsnprintf, bug_underrun, "underrun", SCN_FAM_SCN, 1 },
        { "a wild write", vsnprintf, bug_wild, "crash", SCN_FAM_SCN, 1 },
        { "C99 truncated length", bug_c99_trunc, good_scn, "c99.ret-full-length", SCN_FAM_C99, 0 },
        { "C99 garbage", bug_c99_garbage_tail, good_scn, "c99.prefix", SCN_FAM_C99, 0 },
        { "C99 without NUL", bug_c99_nonul, good_scn, "nul-terminated", SCN_FAM_C99, 0 },
        { "C99 failing at small sizes", bug_c99_fail_small, good_scn, "c99.ret-full-length", SCN_FAM_C99, 0 },
        { "C99 never fitting", bug_c99_never_fits, good_scn, "c99.ret-full-length", SCN_FAM_C99, 0 },
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        for (unsigned f = 0; f < 2; f++) {
            const char *o = run(b[i].c99, b[i].scn, HELLO, f ? SCN_CHECK_ALL_SIZES : 0, &r);
            CHECK(o && !strcmp(o, b[i].oracle), "%s: oracle %s, want %s", b[i].name, o ? o : "none", b[i].oracle);
            if (!o) continue;
            CHECK(!strcmp(r.first.klass, b[i].memory ? "memory-safety" : "invariant"), "%s: class %s", b[i].name,
                  r.first.klass);
            CHECK(r.first.family == b[i].fam, "%s: family %s", b[i].name, scn_family_name(r.first.family));
            CHECK(r.first.detail[0] && !strchr(r.first.detail, '\n'), "%s: detail '%s'", b[i].name, r.first.detail);
        }
    }
    /* where and what: the size and return value of the first finding */
    const char *o = run(vsnprintf, bug_size, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && r.first.size == 1 && r.first.ret == 1 && r.first.expect_ret == 0, "size instead of size-1: size %zu ret %ld",
          r.first.size, r.first.ret);
    o = run(vsnprintf, bug_wouldbe, HELLO, 0, &r);
    CHECK(o && r.first.size == 0 && r.first.ret == HELLO_LEN && r.first.expect_ret == 0, "would-be at 0: ret %ld",
          r.first.ret);
    o = run(vsnprintf, bug_overrun, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && r.first.size == 1, "overrun at size %zu", r.first.size);
    /* the buffer at the failing size is shown: bug_scn_bytes wrote 'Z' first */
    o = run(vsnprintf, bug_scn_bytes, HELLO, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && r.first.size == 2 && r.first.got_len == 2 && r.first.got[0] == 'Z' && r.first.got[1] == 0,
          "scn.prefix at %zu: %zu bytes shown", r.first.size, r.first.got_len);
    /* the NULL pointer at size 0 (SCN_CHECK_NULL_AT_0): a write faults */
    o = run(vsnprintf, bug_nul0, HELLO, SCN_CHECK_NULL_AT_0, &r);
    CHECK(o && !strcmp(o, "size0-untouched") && r.first.size == 0, "NULL at 0: %s", o ? o : "none");

    /* the full output too long to check: the check stops, saying so */
    o = run(c99_huge, good_scn, HELLO, 0, &r);
    CHECK(o && !strcmp(o, "full-too-long") && r.nfindings == 1, "huge: %s", o ? o : "none");

    /* %n stored at a truncating size differs from the full call's */
    o = run(bug_c99_n, good_scn, "\"abcdef%n\" n:int", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "n-consistent") && r.first.family == SCN_FAM_C99 && r.first.size == 0,
          "n-consistent: %s at %zu", o ? o : "none", r.first.size);

    /* repeatable, scn family: sizes 0..4 of "abc" make 5 scn calls (the c99
     * ones go to vsnprintf), the 6th is the repeat */
    flaky_n = 0;
    o = run(vsnprintf, bug_flaky, "\"abc\"", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "repeatable") && r.first.family == SCN_FAM_SCN && r.first.size == 4,
          "flaky scn: %s", o ? o : "none");
    /* c99 family: the full call and sizes 0..4 make 6 calls, the 7th is the repeat */
    flaky_c99_n = 0;
    o = run(bug_flaky_c99, good_scn, "\"abc\"", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "repeatable") && r.first.family == SCN_FAM_C99, "flaky c99: %s", o ? o : "none");
}

/* The check flags: only the families asked for, no repeat, all findings. */
static void test_flags(void)
{
    struct scn_report r;
    CHECK(run(vsnprintf, bug_size, HELLO, SCN_CHECK_ALL_SIZES | SCN_CHECK_NO_SCN, &r) == NULL, "NO_SCN checked scn");
    CHECK(run(bug_c99_trunc, good_scn, HELLO, SCN_CHECK_ALL_SIZES | SCN_CHECK_NO_C99, &r) == NULL, "NO_C99 checked c99");
    CHECK(run(bug_c99_trunc, good_scn, HELLO, SCN_CHECK_ALL_SIZES | SCN_CHECK_NO_SCN, &r) != NULL, "NO_SCN missed c99");
    flaky_n = 0;
    CHECK(run(vsnprintf, bug_flaky, "\"abc\"", SCN_CHECK_ALL_SIZES | SCN_CHECK_NO_REPEAT, &r) == NULL,
          "NO_REPEAT repeated");
    /* every size 1..16 of a 16-byte output truncates, and bug_size returns size there */
    CHECK(run(vsnprintf, bug_size, HELLO, SCN_CHECK_ALL_SIZES | SCN_CHECK_ALL_FINDINGS, &r) && r.nfindings == HELLO_LEN,
          "all findings: %zu", r.nfindings);
    CHECK(run(vsnprintf, bug_size, HELLO, SCN_CHECK_ALL_SIZES, &r) && r.nfindings == 1, "first finding only: %zu",
          r.nfindings);
}

/* ---------------------------------------------------------------- the guarded buffer */

static int write_at(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    long at = va_arg(ap, long);
    buf[at] = 'w';
    (void)size;
    return 0;
}

static void test_guard(void)
{
    struct scn_guard g;
    CHECK(scn_guard_init(&g, 100) == 0 && g.cap >= 100, "guard init: cap %zu", g.cap);
    char *b = scn_guard_buffer(&g, 10);
    CHECK((unsigned char *)b + 10 == g.guard, "the buffer does not end at the guard page");
    int poisoned = 1;
    for (long i = -SCN_GUARD_PRE; i < 10; i++) poisoned &= (unsigned char)b[i] == SCN_POISON;
    CHECK(poisoned, "buffer and the bytes before it poisoned");
    CHECK(scn_guard_underrun(&g, b) == 0, "untouched: %ld", scn_guard_underrun(&g, b));
    b[-1] = 0;
    CHECK(scn_guard_underrun(&g, b) == -1, "buf[-1]: %ld", scn_guard_underrun(&g, b));
    b[-SCN_GUARD_PRE] = 0;
    CHECK(scn_guard_underrun(&g, b) == -SCN_GUARD_PRE, "buf[-64]: %ld", scn_guard_underrun(&g, b));
    b = scn_guard_buffer(&g, 0);
    CHECK((unsigned char *)b == g.guard && scn_guard_underrun(&g, b) == 0, "size 0: the guard page itself, repoisoned");
    size_t cap0 = g.cap;
    CHECK(scn_guard_reserve(&g, cap0) == 0 && g.cap == cap0, "reserve within the capacity");
    CHECK(scn_guard_reserve(&g, 3 * cap0 + 1) == 0 && g.cap >= 3 * cap0 + 1, "reserve: cap %zu", g.cap);
    b = scn_guard_buffer(&g, 3 * cap0 + 1);
    CHECK((unsigned char *)b + 3 * cap0 + 1 == g.guard, "a grown buffer ends at the guard");
    scn_guard_fini(&g);
    CHECK(g.map == NULL, "fini");

    /* scn_oracle_call: a write at buf[size] faults in the guard page, one
     * elsewhere faults outside it, one inside the buffer does not fault */
    struct scn_target t = { .name = "w", .dialect = SCN_DIALECT_ISO, .vsnprintf = write_at };
    int ret, in_guard;
    char *buf;
    for (size_t size = 1; size < 5000; size = size * 3 + 1) {
        scn_case_init(&C, "x", 1);
        scn_case_add_int(&C, SCN_ARG_LONG, (long)size);
        CHECK(scn_oracle_call(&X, &t, SCN_FAM_C99, &C, size, 0, &ret, &buf, &in_guard) == 1 && in_guard,
              "buf[size] at size %zu: not a guard fault", size);
        scn_case_init(&C, "x", 1);
        scn_case_add_int(&C, SCN_ARG_LONG, (long)size - 1);
        CHECK(scn_oracle_call(&X, &t, SCN_FAM_C99, &C, size, 0, &ret, &buf, &in_guard) == 0 && ret == 0 &&
                  buf[size - 1] == 'w',
              "buf[size-1] at size %zu", size);
    }
    scn_case_init(&C, "x", 1);
    scn_case_add_int(&C, SCN_ARG_LONG, 0);
    CHECK(scn_oracle_call(&X, &t, SCN_FAM_C99, &C, 0, 0, &ret, &buf, &in_guard) == 1 && in_guard,
          "buf[0] at size 0: not a guard fault");
    struct scn_target w = { .name = "wild", .dialect = SCN_DIALECT_ISO, .vsnprintf = vsnprintf, .vscnprintf = bug_wild };
    scn_case_init(&C, "hello", 5);
    CHECK(scn_oracle_call(&X, &w, SCN_FAM_SCN, &C, 8, 0, &ret, &buf, &in_guard) == 1 && !in_guard,
          "a wild write: fault in guard %d", in_guard);
    CHECK(scn_oracle_call(&X, &w, SCN_FAM_C99, &C, 8, 0, &ret, &buf, &in_guard) == 0 && ret == 5 &&
              !strcmp(buf, "hello"),
          "the c99 family of the same target");
}

/* ---------------------------------------------------------------- JSON */

/* Decodes a JSON string (with its quotes) whose \u escapes stand for bytes:
 * returns the byte count, or -1 when it is not a valid JSON string of
 * printable ASCII. */
static long json_decode(const char *s, size_t n, unsigned char *out)
{
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') return -1;
    long k = 0;
    for (size_t i = 1; i < n - 1; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch > 0x7e) return -1;
        if (ch == '"') return -1;
        if (ch != '\\') { out[k++] = ch; continue; }
        if (++i >= n - 1) return -1;
        switch (s[i]) {
        case '"': out[k++] = '"'; break;
        case '\\': out[k++] = '\\'; break;
        case '/': out[k++] = '/'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case 'u': {
            if (i + 4 >= n - 1) return -1;
            unsigned v = 0;
            for (int j = 1; j <= 4; j++) {
                char h = s[i + j];
                v = v * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99);
            }
            if (v > 0xff) return -1;
            out[k++] = (unsigned char)v;
            i += 4;
            break;
        }
        default: return -1;
        }
    }
    return k;
}

static void test_json(void)
{
    char j[4096];
    unsigned char back[1024];
    /* every byte value, in random strings: valid JSON that decodes back */
    uint64_t s = 88172645463325252ull;
    for (int it = 0; it < 2000; it++) {
        unsigned char in[64];
        size_t n = it % 64;
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            in[i] = it < 256 && i == 0 ? (unsigned char)it : (unsigned char)s;
        }
        size_t len = scn_json_bytes(in, n, j, sizeof j);
        CHECK(len == strlen(j), "length %zu vs %zu", len, strlen(j));
        long k = json_decode(j, len, back);
        CHECK(k == (long)n && !memcmp(back, in, n), "not valid JSON or not the bytes: %s", j);
        if (k != (long)n) break;
    }
    /* quotes, backslashes, control and non-ASCII bytes are escaped */
    const unsigned char q[] = "a\"b\\c\nd\x01\x7f\xff";
    size_t len = scn_json_bytes(q, sizeof q - 1, j, sizeof j);
    CHECK(strstr(j, "a\\\"b\\\\c") && !memchr(j, '\n', len) && !strchr(j, '\x01') && !strchr(j, '\x7f') &&
              !strchr(j, '\xff'),
          "escaping: %s", j);
    /* the full length whatever fits, always NUL-terminated */
    char small[5];
    memset(small, 'X', sizeof small);
    CHECK(scn_json_bytes(q, sizeof q - 1, small, sizeof small) == len && small[4] == 0 && !memcmp(small, j, 4),
          "truncated: %s", small);
    CHECK(scn_json_bytes(q, sizeof q - 1, NULL, 0) == len, "length only");

    /* the finding as one JSON object */
    struct scn_report r;
    run(vsnprintf, bug_size, HELLO, SCN_CHECK_ALL_SIZES, &r);
    size_t n = scn_finding_json(&r.first, j, sizeof j);
    CHECK(n == strlen(j) && j[0] == '{' && j[n - 1] == '}' && !strchr(j, '\n'), "object: %s", j);
    CHECK(strstr(j, "\"oracle\":\"scn.ret-le-size-1\"") && strstr(j, "\"class\":\"invariant\"") &&
              strstr(j, "\"family\":\"scn\"") && strstr(j, "\"size\":1,") && strstr(j, "\"ret\":1,") &&
              strstr(j, "\"expect_ret\":0,") && strstr(j, "\"buffer\":\"\\u0000\"}"), /* size 1: only the NUL */
          "members: %s", j);
    char det[600], member[620];
    scn_json_bytes((const unsigned char *)r.first.detail, strlen(r.first.detail), det, sizeof det);
    snprintf(member, sizeof member, "\"detail\":%s,", det);
    CHECK(r.first.detail[0] && strstr(j, member) != NULL, "detail %s in %s", det, j);
    CHECK(!strcmp(scn_family_name(SCN_FAM_C99), "c99") && !strcmp(scn_family_name(SCN_FAM_SCN), "scn"), "family names");
}

int main(void)
{
    scn_oracle_set_catch_faults(1); /* catch the guard-page faults even under ASan */
    if (scn_oracle_init(&X)) {
        perror("scn_oracle_init");
        return 2;
    }
    wild_page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (wild_page == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    test_guard();
    test_correct();
    test_sizes();
    test_bugs();
    test_flags();
    test_json();
    scn_oracle_fini(&X);
    return check_summary("test_oracle");
}
