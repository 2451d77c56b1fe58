/* Tests of root causes (oracles/rootcause.c, reduce.c), the rules' known
 * bugs (oracles/rules.c) and the one finding record (oracles/finding.c):
 * one planted bug met in several shapes is one signature; a known-bug entry
 * turns it into a known bug, and removing the entry makes it new again;
 * records are never cut. Fake targets keep the outcomes independent of the
 * host's libc. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_case.h"
#include "case.h"
#include "differential.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "rules.h"
#include "supervise.h"
#include "target.h"


static int good_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}

/* "plus": the host's output with every '+' written as '#' (a planted bug) */
static int plus_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    for (size_t i = 0; size && i < size - 1 && buf[i]; i++)
        if (buf[i] == '+') buf[i] = '#';
    return r;
}

/* "lackL": a printf without long double (a planted gap): a conversion
 * after a %L one is printed with its last byte '?', as when the long double
 * was read as a double and what follows comes from the wrong place; the %L
 * conversion of 0 alone still prints right */
static int lackL_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    const char *L = strstr(fmt, "%L");
    if (L && strchr(L + 2, '%') && r > 0 && (size_t)r < size) buf[r - 1] = '?';
    return r;
}

/* "skip": a planted bug like picolibc's positional one: after a
 * specification with a flag (not 0) and a * width or precision, a later
 * conversion reads the wrong argument (its last byte printed '?') */
static int skip_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap), armed = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || p[1] == '%') {
            p += *p == '%';
            continue;
        }
        if (armed && r > 0 && (size_t)r < size) buf[r - 1] = '?';
        const char *q = p + 1 + strspn(p + 1, "0123456789$");
        size_t nf = strspn(q, "-+ #0");
        if (nf && strcspn(q, "-+ #") < nf && (q[nf] == '*' || (q[nf] == '.' && q[nf + 1] == '*'))) armed = 1;
    }
    return r;
}

/* "fragile": plus's bug, and a fault on any format without a '[' (as a
 * %n that reads an argument the target did not consume) */
static int fragile_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (!strchr(fmt, '[')) raise(SIGSEGV);
    return plus_vsnprintf(buf, size, fmt, ap);
}

static const struct scn_target good = { .name = "good", .dialect = SCN_DIALECT_ISO, .vsnprintf = good_vsnprintf, .vscnprintf = NULL, .where = "in-process" };
static const struct scn_target skip = { .name = "skip", .dialect = SCN_DIALECT_ISO, .vsnprintf = skip_vsnprintf, .vscnprintf = NULL, .where = "in-process" };
static const struct scn_target lackL = { .name = "lackL", .dialect = SCN_DIALECT_ISO, .vsnprintf = lackL_vsnprintf, .vscnprintf = NULL, .where = "in-process" };
static const struct scn_target plus = { .name = "plus", .dialect = SCN_DIALECT_ISO, .vsnprintf = plus_vsnprintf, .vscnprintf = NULL, .where = "in-process" };

static const struct scn_target fragile = { .name = "fragile", .dialect = SCN_DIALECT_ISO, .vsnprintf = fragile_vsnprintf, .vscnprintf = NULL, .where = "in-process" };

static const struct scn_target *bad = &plus; /* the target root_cause compares with good */

/* The root cause of text's case between good and bad (NULL: they agree). */
static const struct scn_rootcause *root_cause(const char *text)
{
    static struct scn_rootcause rc;
    static char b[2][8192];
    const struct scn_target *t[2] = { &good, bad };
    struct scn_case *c = parse(text);
    struct scn_diff_out outs[2];
    for (int i = 0; i < 2; i++) {
        int r = scn_case_call(t[i]->vsnprintf, c, b[i], sizeof b[i]);
        outs[i] = (struct scn_diff_out){ t[i], r, (const unsigned char *)b[i], r < 0 ? 0 : (size_t)r, 0, NULL };
    }
    struct scn_diff_finding df;
    if (scn_diff_compare(c, outs, 2, SCN_DIALECT_ISO, &df) == SCN_DIFF_AGREE) return NULL;
    scn_rootcause_diff(c, SCN_DIALECT_ISO, t, 2, &df, &rc);
    return &rc;
}

static void case_text(const struct scn_case *c, char *out, size_t cap) { scn_case_format(c, out, cap); }

/* the signature of the planted bug of plus */
static const char *const want = "differential:%+d:good~plus:divergence";

/* one bug, many shapes: one signature, one smallest reproducer */
static void test_one_bug_many_shapes(void)
{
    char t[512];
    static const char *const shapes[] = {
        "\"%+d\" int:5",
        "\"xx %+8.3ld yy %s\" long:123 str:\"q\"",
        "\"%2$s|%1$+5i\" int:77777 str:\"abc\"",
        "\"[%-+*d]\" int:7 int:42",
        "\"%+hhd%%\" int:300",
        "\"%#+x and %+llu then %+.0i\" uint:1 ullong:2 int:99",
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const struct scn_rootcause *rc = root_cause(shapes[i]);
        CHECK(rc != NULL, "%s: no difference", shapes[i]);
        if (!rc) continue;
        CHECK(!strcmp(rc->signature, want), "%s: signature %s", shapes[i], rc->signature);
        case_text(&rc->reduced, t, sizeof t);
        CHECK(!strcmp(t, "\"%+d\" int:0"), "%s: reduced to %s", shapes[i], t);
        CHECK(rc->rule == NULL && !strcmp(rc->klass, "divergence"), "%s: %s", shapes[i], rc->klass);
    }
    /* a case without the bug has no root cause */
    CHECK(root_cause("\"%d %s\" int:5 str:\"x\"") == NULL, "agree");
}

/* A difference's reduction whose candidates crash the target: where faults
 * are caught (the fuzzers), a candidate that crashes is not the difference,
 * and the program that reduces lives on (fuzz_matrix died of apr's %jd%n
 * in a candidate, with no report, and its campaign ran 0 executions). */
static void test_a_candidate_that_crashes(void)
{
    char t[512];
    int was = scn_oracle_catch_faults();
    unsigned long caught = scn_oracle_faults_caught();
    scn_oracle_set_catch_faults(1);
    bad = &fragile;
    const struct scn_rootcause *rc = root_cause("\"xx [%+8.3ld yy %s\" long:123 str:\"q\"");
    bad = &plus;
    scn_oracle_set_catch_faults(was);
    CHECK(rc != NULL, "no difference");
    if (!rc) return;
    case_text(&rc->reduced, t, sizeof t);
    /* reduced as far as the candidates that keep the '[' go */
    CHECK(strstr(t, "[%+d\" int:0") && !strstr(t, "%s") && !strstr(t, "ld"), "reduced to %s", t);
    CHECK(!strcmp(rc->signature, "differential:%+d:fragile~good:divergence"), "%s", rc->signature);
    CHECK(scn_oracle_faults_caught() > caught, "no candidate crashed: %lu", scn_oracle_faults_caught() - caught);
}

/* known bugs are data: an entry turns the divergence into a known bug ... */
static void test_known_bug_entries(void)
{
    const char *kb = "# id\tkind\tdialect\tpattern\ttargets\tversions\treproducer\tcitation\n"
                     "plus-hash\tbug\tiso\tflag=+\tplus\tplus 1.0\t\"%+d\" int:0\ttest: '+' printed as '#'\n";
    char err[300];
    CHECK(scn_known_bugs_load(kb, strlen(kb), err, sizeof err) == 1, "%s", err);
    const struct scn_rootcause *rc = root_cause("\"a%+5d\" int:3");
    CHECK(rc && rc->rule && !strcmp(rc->rule->id, "plus-hash") && !strcmp(rc->klass, "known-bug"), "%s",
          rc ? rc->signature : "(agree)");
    CHECK(rc && !strcmp(rc->signature, "differential:plus-hash:good~plus:known-bug"), "%s", rc ? rc->signature : "");
    /* ... that applies only to the target it names */
    const char *kb2 = "plus-hash\tbug\tiso\tflag=+\tglibc\tglibc 2.36\t\"%+d\" int:0\tnot this target\n";
    CHECK(scn_known_bugs_load(kb2, strlen(kb2), err, sizeof err) == 1, "%s", err);
    rc = root_cause("\"a%+5d\" int:3");
    CHECK(rc && !rc->rule && !strcmp(rc->signature, want), "%s", rc ? rc->signature : "");
    /* ... and without the entry it is new again */
    CHECK(scn_known_bugs_load("", 0, err, sizeof err) == 0, "%s", err);
    rc = root_cause("\"a%+5d\" int:3");
    CHECK(rc && !strcmp(rc->signature, want), "%s", rc ? rc->signature : "");
    /* a broken table is refused with its line */
    CHECK(scn_known_bugs_load("x\tbug\tiso\tflag=+\tplus\n", 21, err, sizeof err) < 0 && strstr(err, "line 1"), "%s",
          err);
    CHECK(scn_known_bugs_load("x\tmaybe\tiso\tflag=+\tplus\tv\tr\tc\n", 29, err, sizeof err) < 0 &&
              strstr(err, "kind"), "%s", err);
}

/* shapes: literal numbers as N, positions kept, literal text left out */
static void test_shapes(void)
{
    char t[512];
    scn_case_shape(parse("\"ab%-12.3d|%5s%%\" int:1 str:\"x\""), SCN_DIALECT_ISO, t, sizeof t);
    CHECK(!strcmp(t, "%-N.Nd%Ns%%"), "shape %s", t);
    scn_case_shape(parse("\"%1$0*2$f\" double:0x1p+0 int:-9"), SCN_DIALECT_ISO, t, sizeof t);
    CHECK(!strcmp(t, "%1$0*2$f"), "shape %s", t);
}

/* the pattern terms of known bugs */
static void test_pattern_terms(void)
{
    struct scn_rule r = { .id = "t", .kind = SCN_RULE_KNOWN_BUG, .dialect = -1, .targets = "x" };
    struct scn_case *c = parse("\"%1$0*2$f\" double:0x1p+0 int:-9");
    struct scn_spec sp[4];
    scn_scan_specs(c, SCN_DIALECT_ISO, sp, 4);
    struct scn_culprit k = { .s = &sp[0], .ret_a = 1, .ret_b = 1 };
    const char *yes[] = { "positional", "width<0", "flag=0&conv=f", "len=-", NULL };
    const char *no[] = { "len=w", "flag=-", "sharedarg", "argpos>2", NULL };
    char err2[200];
    for (size_t i = 0; yes[i]; i++) {
        char tsv[256];
        snprintf(tsv, sizeof tsv, "t\tbug\t*\t%s\tx\tv\tr\tc\n", yes[i]);
        CHECK(scn_known_bugs_load(tsv, strlen(tsv), err2, sizeof err2) == 1, "%s", err2);
        CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "y", "x") >= 0, "term %s should match", yes[i]);
    }
    for (size_t i = 0; no[i]; i++) {
        char tsv[256];
        snprintf(tsv, sizeof tsv, "t\tbug\t*\t%s\tx\tv\tr\tc\n", no[i]);
        CHECK(scn_known_bugs_load(tsv, strlen(tsv), err2, sizeof err2) == 1, "%s", err2);
        CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "y", "x") < 0, "term %s should not match", no[i]);
    }
    struct scn_case *w = parse("\"%1$hhu%1$X\" uint:300");
    struct scn_culprit whole = { .ret_a = 1, .ret_b = 1 };
    const char *sh = "t\tbug\t*\tsharedarg\tx\tv\tr\tc\n";
    CHECK(scn_known_bugs_load(sh, strlen(sh), err2, sizeof err2) == 1, "%s", err2);
    CHECK(scn_rule_find(SCN_DIALECT_ISO, w, &whole, "y", "x") >= 0, "sharedarg");
    (void)r;
}

/* a failure that needs a conversion the target is known to lack is that
 * known gap's, whatever else the case holds (scn_rootcause_lacking) */
static void test_known_gap(void)
{
    char err[300];
    static const char *const with_L[] = { "\"%Lf%d\" ldouble:0x0p+0 int:5", "\"x%Le %+i|\" ldouble:0x0p+0 int:-7",
                                          "\"%Lg%s\" ldouble:0x0p+0 str:\"abc\"" };
    bad = &lackL;
    CHECK(scn_known_bugs_load("", 0, err, sizeof err) == 0, "%s", err);
    const struct scn_rootcause *l = root_cause(with_L[0]);
    CHECK(l && !l->rule && !strcmp(l->signature, "differential:%f%d:good~lackL:divergence"), "%s",
          l ? l->signature : "(agree)");
    const char *gap = "lack-L\tgap\tiso\tlen=L\tlackL\tlackL 1.0\t\"%Lf%d\" ldouble:0x0p+0 int:1\ttest: no long double\n";
    CHECK(scn_known_bugs_load(gap, strlen(gap), err, sizeof err) == 1, "%s", err);
    for (size_t i = 0; i < sizeof with_L / sizeof with_L[0]; i++) {
        l = root_cause(with_L[i]);
        CHECK(l && !strcmp(l->signature, "differential:lack-L:good~lackL:known-gap"), "%s: %s", with_L[i],
              l ? l->signature : "(agree)");
    }
    /* a %L conversion the failure does not need is dropped first: the gap does not take it */
    bad = &plus;
    const char *plus_too = "lack-L\tgap\tiso\tlen=L\tplus\tplus 1.0\t\"%Lf\" ldouble:0x0p+0\ttest\n";
    CHECK(scn_known_bugs_load(plus_too, strlen(plus_too), err, sizeof err) == 1, "%s", err);
    l = root_cause("\"%Lf %+d\" ldouble:0x0p+0 int:5");
    CHECK(l && !strcmp(l->signature, want), "%s", l ? l->signature : "(agree)");
    /* the same for a death (no outputs to compare): the crash of "%Lf%n" is the gap's */
    static struct scn_rootcause dead;
    CHECK(scn_known_bugs_load(gap, strlen(gap), err, sizeof err) == 1, "%s", err);
    scn_rootcause_by(parse("\"%Lf%n\" ldouble:0x0p+0 n:int"), SCN_DIALECT_ISO, NULL, NULL, 0, "lackL", "crash",
                     "memory-safety", &dead);
    CHECK(!strcmp(dead.signature, "crash:lack-L:lackL:known-gap"), "%s", dead.signature);
    const struct scn_rule *kr = scn_rootcause_known(parse("\"%Lf%n\" ldouble:0x0p+0 n:int"), SCN_DIALECT_ISO,
                                                    "lackL", "crash");
    CHECK(kr && !strcmp(kr->id, "lack-L"), "scn_rootcause_known of a crash: %s", kr ? kr->id : "none");
    /* ... and one conversion alone is not merged: its rule says which oracles it explains */
    scn_rootcause_by(parse("\"%Lf\" ldouble:0x0p+0"), SCN_DIALECT_ISO, NULL, NULL, 0, "lackL", "crash",
                     "memory-safety", &dead);
    CHECK(!strcmp(dead.signature, "crash:%f:lackL:memory-safety"), "%s", dead.signature);
    CHECK(scn_known_bugs_load("", 0, err, sizeof err) == 0, "%s", err);
}

/* a failure that needs a flag and a * argument, any of them, and a later
 * conversion, any of them: one shape (reduce.c: the first flag that still
 * fails, a * precision as a * width, other conversions as %d) */
static void test_skip_shape(void)
{
    static const char *const skips[] = { "\"%1$+*2$d%3$d\" int:7 int:2 int:9",
                                         "\"%1$ .*2$f|%3$s\" double:0x1p+0 int:2 str:\"ab\"",
                                         "\"%#.*x and %p\" int:3 uint:255 ptr:0x10",
                                         "\"%2$-*1$e%3$a\" int:4 double:0x1p+0 double:0x1p+1" };
    bad = &skip;
    for (size_t i = 0; i < sizeof skips / sizeof skips[0]; i++) {
        const struct scn_rootcause *sk = root_cause(skips[i]);
        CHECK(sk && !strcmp(sk->signature, "differential:%-*d%d:good~skip:divergence"), "%s: %s", skips[i],
              sk ? sk->signature : "(agree)");
    }
    bad = &plus;
}

/* a record is never cut: a 100 KB output is written whole */
static void test_record_never_cut(void)
{
    static struct scn_rootcause big;
    memcpy(&big.reduced, parse("\"%s\" str:\"x\""), sizeof big.reduced);
    big.klass = "divergence";
    snprintf(big.targets, sizeof big.targets, "good~plus");
    scn_rootcause_sign(&big, "differential", SCN_DIALECT_ISO);
    static unsigned char out[100000];
    memset(out, 'z', sizeof out);
    struct scn_out_view ov[1] = { { "good", (int)sizeof out, 1, out, sizeof out } };
    struct scn_record r = { "fuzz", "test", "differential", &big, NULL, SCN_DIALECT_ISO, "d", NULL, NULL, 0,
                            -1, ov, 1, NULL };
    size_t n;
    const char *j = scn_record_json(&r, &n);
    CHECK(n > sizeof out && !strcmp(j + n - 2, "}}"), "record of %zu bytes", n);
    CHECK(strstr(j, "\"signature\":\"differential:%s:good~plus:divergence\"") != NULL, "%.200s", j);
}

/* ------------------------------------------------ crash states */

/* A getint that wraps, as musl's did before 167dfe96: every digit of a
 * width multiplies by 10 at one line, whatever the format around it. */
static long wrap_getint(void *arg)
{
    const char *volatile fmt = arg;
    int w = 0;
    for (const char *p = fmt; *p; p++)
        if (*p >= '0' && *p <= '9') w = 10 * w + (*p - '0'); /* the one line that overflows */
    return w & 1;
}

/* Another bug: a precision added to a width, at another line. */
static long wrap_sum(void *arg)
{
    const char *volatile fmt = arg;
    int w = 2147483600, p = (int)strlen(fmt) * 10;
    int total = w + p; /* another line */
    return total & 1;
}

/* A fault with no report: a plain signal. */
static long plain_abort(void *arg)
{
    (void)arg;
    raise(SIGKILL);
    return 0;
}

static const char *crash_signature(long (*fn)(void *), const char *fmt, const char *text)
{
    static struct scn_rootcause rc;
    memcpy(&rc.reduced, parse(text), sizeof rc.reduced);
    rc.rule = NULL;
    rc.klass = "crash";
    snprintf(rc.targets, sizeof rc.targets, "musl");
    scn_rootcause_crash_state(&rc, fn, (void *)fmt, 60000000000ull);
    scn_rootcause_sign(&rc, "crash", SCN_DIALECT_ISO);
    return rc.signature;
}

/* Two crashing formats through the same UBSan line are one root cause;
 * two lines are two; a death that prints no report is signed by its
 * reduced case's shape. */
static void test_crash_state_signs_a_death(void)
{
    char a[320], b[320], c[320];
    snprintf(a, sizeof a, "%s", crash_signature(wrap_getint, "4294967297", "\"%+ 04294967297.*td\" int:1 ptrdiff:2"));
    snprintf(b, sizeof b, "%s", crash_signature(wrap_getint, "1$ #4294971391.39", "\"%1$ #4294971391.39f\" double:0x1p+0"));
    snprintf(c, sizeof c, "%s", crash_signature(wrap_sum, "%.99999d", "\"%.99999d\" int:1"));
#ifdef SCN_TEST_UBSAN_OVERFLOW_DIES
    CHECK(!strcmp(a, "crash:signed-integer-overflow in wrap_getint (test_rootcause.c):musl:crash"), "%s", a);
    CHECK(!strcmp(a, b), "one line, two formats: %s / %s", a, b);
    CHECK(!strcmp(c, "crash:signed-integer-overflow in wrap_sum (test_rootcause.c):musl:crash"), "%s", c);
#else
    /* A build without UBSan's signed-integer-overflow check, or one that
     * recovers from it (tests/c/CMakeLists.txt): the children live, leave
     * no crash state, and each is signed by its reduced case's shape. */
    printf("test_rootcause: no UBSan death on a signed overflow in this build: the live crash states are not checked\n");
    CHECK(!strcmp(a, "crash:%+ 0N.*td:musl:crash"), "no death, the shape: %s", a);
    CHECK(!strcmp(b, "crash:%1$ #N.Nf:musl:crash"), "no death, the shape: %s", b);
    CHECK(!strcmp(c, "crash:%.Nd:musl:crash"), "no death, the shape: %s", c);
#endif
    const char *d = crash_signature(plain_abort, "", "\"%1$ #7x\" int:1");
    CHECK(!strcmp(d, "crash:%1$ #Nd:musl:crash"), "no report, the shape: %s", d);
}

/* The crash state read from report texts: UBSan's check and the function
 * of its place (the stack the death printed), its line when no frame names
 * it; ASan's kind and first frame outside the harness (root's own
 * directories and the sanitizer's runtime); nothing for no report. */
static void test_crash_state_of_reports(void)
{
    char out[160];
    const char *ub =
        "/b/musl/src/stdio/vfprintf.c:436:13: runtime error: signed integer overflow: 429496729 * 10 cannot be "
        "represented in type 'int'\n"
        "    #0 0x4f in __sanitizer_print_stack_trace /build/llvm/compiler-rt/lib/asan/asan_stack.cpp:87:3\n"
        "    #1 0x50 in stack_at_death /r/oracles/rootcause_state.c:200:5\n"
        "    #2 0x51 in __ubsan_handle_mul_overflow_abort /build/llvm/compiler-rt/lib/ubsan/ubsan_handlers.cpp:1\n"
        "    #3 0x52 in getint /b/musl/src/stdio/vfprintf.c:436:13\n"
        "    #4 0x53 in printf_core /b/musl/src/stdio/vfprintf.c:480:9\n"
        "    #5 0x54 in scn_case_call_ctx /r/core/case/case_call.c:99:1\n"
        "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /b/musl/src/stdio/vfprintf.c:436:13 in\n";
    scn_crash_state(ub, "/r", out, sizeof out);
    CHECK(!strcmp(out, "signed-integer-overflow in getint (vfprintf.c)"), "%s", out);
    scn_crash_state("/b/x/fmt.c:12:3: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n", "/r",
                    out, sizeof out);
    CHECK(!strcmp(out, "shift-exponent at fmt.c line 12"), "%s", out);
    const char *asan =
        "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60 at pc 0x1 bp 0x2 sp 0x3\n"
        "READ of size 1 at 0x60 thread T0\n"
        "    #0 0x1 in __interceptor_strlen /build/llvm/compiler-rt/lib/sanitizer_common/x.inc:3:1\n"
        "    #1 0x2 in string /b/linux/lib/vsprintf.c:700:10\n"
        "    #2 0x3 in vsnprintf /b/linux/lib/vsprintf.c:2800:1\n"
        "0x60 is located 0 bytes to the right of 16-byte region\n"
        "allocated by thread T0 here:\n"
        "    #0 0x9 in malloc /build/llvm/compiler-rt/lib/asan/asan_malloc_linux.cpp:69:3\n"
        "    #1 0xa in scn_case_arena /r/core/case/case.c:10:1\n"
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /b/linux/lib/vsprintf.c:700:10 in string\n";
    scn_crash_state(asan, "/r", out, sizeof out);
    CHECK(!strcmp(out, "heap-buffer-overflow in string (vsprintf.c)"), "%s", out);
    CHECK(scn_crash_state("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x0\n"
                          "    #0 0x1 in scn_case_call_ctx /r/core/case/case_call.c:9:1\n", "/r", out, sizeof out) == 0,
          "only harness frames: %s", out);
    CHECK(scn_crash_state("Segmentation fault\n", "/r", out, sizeof out) == 0 && !out[0], "%s", out);
}

int main(void)
{
    test_crash_state_of_reports();
    test_crash_state_signs_a_death();
    test_one_bug_many_shapes();
    test_a_candidate_that_crashes();
    test_known_bug_entries();
    test_shapes();
    test_pattern_terms();
    test_known_gap();
    test_skip_shape();
    test_record_never_cut();
    return check_summary("test_rootcause");
}
