/* The musl target: musl's own vsnprintf, built from its source and living
 * in-process beside glibc. Expected outputs are the ones the C standard
 * (C17 7.21.6.1, 7.21.6.5) or POSIX fix; the rest checks that musl's error
 * paths (errno writes, %lc/%ls/%m) stay inside musl's fake thread struct and
 * leave glibc intact. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "musl_api.h"
#include "target.h"

extern const struct scn_target scn_target_musl;

static int failures;

static int m(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = scn_target_musl.vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return r;
}

#define FAIL(...) do { \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); failures++; \
    } while (0)

/* Expect output `want` and return value strlen(want), with a big buffer. */
#define EXPECT(want, ...) do { \
        char b_[512]; memset(b_, 'Z', sizeof b_); \
        int r_ = m(b_, sizeof b_, __VA_ARGS__); \
        if (r_ != (int)strlen(want) || strcmp(b_, want) != 0) \
            FAIL("%s: got %d \"%s\", want %d \"%s\"", #__VA_ARGS__, r_, \
                 r_ >= 0 ? b_ : "", (int)strlen(want), want); \
    } while (0)

#define CHECK(cond) do { if (!(cond)) FAIL("check failed: %s", #cond); } while (0)

static void test_descriptor(void)
{
    CHECK(strcmp(scn_target_musl.name, "musl") == 0);
    CHECK(scn_target_musl.dialect == SCN_DIALECT_ISO);
    CHECK(scn_target_musl.vsnprintf != NULL); /* musl_vsnprintf behind a stack scrub */
    CHECK(scn_target_musl.vscnprintf == NULL);
    CHECK(strcmp(scn_target_musl.where, "in-process") == 0);
    const char *v = scn_target_musl.version();
    CHECK(strncmp(v, "musl 1.", 7) == 0);
}

/* musl 1.2.3 reads its uninitialised nl_arg[] in the dry run of a "*n$"
 * width; the adapter zeroes the stack below itself first.  Leave INT_MIN
 * all over the stack musl is about to use, then format a "*1$" width: the
 * read must see 0 (under UBSan, INT_MIN would be `w = -w` overflowing, and
 * without the scrub the output would not be repeatable). */
static __attribute__((noinline)) void dirty_stack(void)
{
    volatile int junk[4096];
    for (int i = 0; i < 4096; i++)
        junk[i] = INT_MIN;
    __asm__ volatile("" : : "r"(junk) : "memory");
}

static void test_nl_arg_scrub(void)
{
    char b[64];
    for (int i = 0; i < 3; i++) {
        dirty_stack();
        int r = m(b, sizeof b, "%1$*1$d|%2$s", 3, "x");
        if (r != 5 || strcmp(b, "  3|x") != 0)
            FAIL("%%1$*1$d after a dirty stack: %d \"%s\"", r, b);
    }
}

static void test_ints(void)
{
    EXPECT("42", "%d", 42);
    EXPECT("-42", "%i", -42);
    EXPECT("   42|", "%5d|", 42);
    EXPECT("42   |", "%-5d|", 42);
    EXPECT("+42", "%+d", 42);
    EXPECT(" 42", "% d", 42);
    EXPECT("-0042", "%05d", -42);
    EXPECT("  007", "%5.3d", 7);
    EXPECT("", "%.0d", 0);
    EXPECT("ff", "%x", 255);
    EXPECT("0XFF", "%#X", 255);
    EXPECT("010", "%#o", 8);
    EXPECT("0", "%#o", 0);
    EXPECT("4294967295", "%u", UINT_MAX);
    EXPECT("-2147483648", "%d", INT_MIN);
    EXPECT("-9223372036854775808", "%lld", LLONG_MIN);
    EXPECT("18446744073709551615", "%zu", SIZE_MAX);
    EXPECT("-9223372036854775808", "%jd", INTMAX_MIN);
    EXPECT("44", "%hhu", 300);   /* converted to unsigned char */
    EXPECT("1", "%hu", 65537);
    EXPECT("    42", "%*d", 6, 42);
    EXPECT("42    |", "%*d|", -6, 42);
    EXPECT("0042", "%.*d", 4, 42);
}

static void test_strings(void)
{
    EXPECT("hello", "%s", "hello");
    EXPECT("hel", "%.3s", "hello");
    EXPECT("       hel|", "%10.3s|", "hello");
    EXPECT("ab    |", "%-6s|", "ab");
    EXPECT("A", "%c", 'A');
    EXPECT("   A", "%4c", 'A');
    EXPECT("100%", "%d%%", 100);
    EXPECT("", "%s", "");
    /* %.Ns need not be NUL-terminated within N bytes (7.21.6.1p8). */
    char unterminated[3] = { 'a', 'b', 'c' };
    EXPECT("abc", "%.3s", unterminated);
}

static void test_floats(void)
{
    EXPECT("1.500000", "%f", 1.5);
    EXPECT("0.25", "%.2f", 0.25);
    EXPECT("-0.000000", "%f", -0.0);
    EXPECT("3", "%.0f", 3.0);
    EXPECT("3.", "%#.0f", 3.0);
    EXPECT("1.500000e+00", "%e", 1.5);
    EXPECT("1.250E-02", "%.3E", 0.0125);
    EXPECT("  1.5e+01|", "%9.1e|", 15.0);
    EXPECT("100000", "%g", 100000.0);
    EXPECT("1e+06", "%g", 1000000.0);
    EXPECT("0.0001", "%g", 0.0001);
    EXPECT("1e-05", "%g", 0.00001);
    EXPECT("1.50000", "%#g", 1.5);
    EXPECT("+1.50", "%+.2f", 1.5);
    EXPECT("001.50", "%06.2f", 1.5);
    EXPECT("inf", "%f", INFINITY);
    EXPECT("-INF", "%F", -INFINITY);
    EXPECT("   inf", "%6e", INFINITY);
    EXPECT("1.500000", "%Lf", 1.5L);
    EXPECT("6.103515625e-05", "%.9e", 0x1p-14);
    EXPECT("18446744073709551616", "%.0f", 0x1p64);
    char b[64];
    int r = m(b, sizeof b, "%f", NAN);
    CHECK(r >= 3 && (strcmp(b, "nan") == 0 || strcmp(b, "-nan") == 0));
}

static void test_sizes_and_n(void)
{
    char b[16];
    memset(b, 'Z', sizeof b);
    CHECK(m(b, 4, "%s", "hello") == 5 && strcmp(b, "hel") == 0);
    memset(b, 'Z', sizeof b);
    CHECK(m(b, 1, "%d", 12345) == 5 && b[0] == '\0' && b[1] == 'Z');
    memset(b, 'Z', sizeof b);
    CHECK(m(b, 0, "%d", 12345) == 5 && b[0] == 'Z');
    CHECK(m(NULL, 0, "%s%d", "ab", 7) == 3);
    int n = -1;
    memset(b, 'Z', sizeof b);
    CHECK(m(b, sizeof b, "ab%ncd", &n) == 4 && n == 2 && strcmp(b, "abcd") == 0);
    long ln = -1;
    CHECK(m(b, 3, "hello%ln", &ln) == 5 && ln == 5);
}

/* Each musl error must land in musl's errno (the fake thread struct) and
 * leave glibc's errno alone. */
static void test_errors(void)
{
    char b[64];
    int *merr = musl_errno_location();
    CHECK(merr != &errno);

    /* POSIX: EOVERFLOW when n > INT_MAX (musl checks this). */
    errno = 4242; *merr = 0;
    CHECK(m(b, (size_t)INT_MAX + 1, "x") == -1);
    CHECK(*merr == EOVERFLOW);
    CHECK(errno == 4242);

    /* POSIX: EOVERFLOW when the count would exceed INT_MAX. */
    errno = 4242; *merr = 0;
    CHECK(m(b, sizeof b, "x%2147483647d", 1) == -1);
    CHECK(*merr == EOVERFLOW && errno == 4242);
    *merr = 0;
    CHECK(m(b, sizeof b, "%99999999999d", 1) == -1);
    CHECK(*merr == EOVERFLOW && errno == 4242);

    /* Invalid conversions (undefined in C): musl fails them with EINVAL,
     * the path whose errno write used to corrupt glibc. */
    errno = 4242; *merr = 0;
    CHECK(m(b, sizeof b, "%y", 1) == -1);
    CHECK(*merr == EINVAL && errno == 4242);
    *merr = 0;
    CHECK(m(b, sizeof b, "ab%", 1) == -1); /* a lone % at the end */
    CHECK(*merr == EINVAL && errno == 4242);
}

static void test_wide(void)
{
    char b[64];
    int *merr = musl_errno_location();
    EXPECT("A", "%lc", (wint_t)L'A');
    EXPECT("abc", "%ls", L"abc");
    EXPECT("ab", "%.2ls", L"abc");
    EXPECT("  abc", "%5ls", L"abc");
    /* Not encodable in the C locale (musl: one byte per char, ASCII only):
     * an encoding error, reported as -1 with EILSEQ (7.21.6.1p14, 7.29.6.3.3). */
    errno = 4242; *merr = 0;
    int r = m(b, sizeof b, "%lc", (wint_t)0xe9);
    CHECK(r == -1 && *merr == EILSEQ && errno == 4242);
    *merr = 0;
    r = m(b, sizeof b, "%ls", L"caf\u00e9");
    CHECK(r == -1 && *merr == EILSEQ && errno == 4242);
}

static void test_m(void)
{
    char b[256];
    int *merr = musl_errno_location();
    char want[256];

    errno = EPERM;
    *merr = ERANGE;
    snprintf(want, sizeof want, "<%s>", musl_strerror(ERANGE));
    int r = m(b, sizeof b, "<%m>");
    CHECK(r == (int)strlen(want) && strcmp(b, want) == 0);
    CHECK(strlen(want) > 3);
    CHECK(strcmp(musl_strerror(ERANGE), musl_strerror(EPERM)) != 0);
    CHECK(errno == EPERM && *merr == ERANGE);
}

/* glibc must still work after musl's error paths: longjmp demangles with
 * glibc's pointer guard, pthread_create uses glibc's TCB. */
static jmp_buf jb;

static void jump(void)
{
    longjmp(jb, 7);
}

static void *thread_main(void *arg)
{
    int *main_merr = arg;
    int *merr = musl_errno_location();
    char b[32];
    if (merr == main_merr)
        return (void *)"musl errno shared between threads";
    *merr = 0;
    if (m(b, sizeof b, "%y") != -1 || *merr != EINVAL)
        return (void *)"no EINVAL in thread";
    if (m(b, sizeof b, "%d-%s", 5, "t") != 3 || strcmp(b, "5-t") != 0)
        return (void *)"bad output in thread";
    return NULL;
}

static void test_glibc_intact(void)
{
    int *merr = musl_errno_location();
    *merr = EOVERFLOW;
    volatile int reached = 0;
    int v = setjmp(jb);
    if (v == 0) {
        reached = 1;
        jump();
        FAIL("longjmp returned");
    }
    CHECK(v == 7 && reached == 1);

    pthread_t th;
    void *res = (void *)"not run";
    CHECK(pthread_create(&th, NULL, thread_main, merr) == 0);
    CHECK(pthread_join(th, &res) == 0);
    if (res)
        FAIL("thread: %s", (const char *)res);
    CHECK(*merr == EOVERFLOW); /* the thread's EINVAL stayed in its own struct */

    char b[32];
    CHECK(snprintf(b, sizeof b, "%d", 99) == 2 && strcmp(b, "99") == 0);
}

/* ---- differential: this in-process build vs the installed musl ----------
 * argv[1], when given, is scn-musl-exec: the generic executor
 * (programs/exec/scn_exec.c, protocol 2) built with musl-gcc -static against
 * musl-dev's libc.a. Both must give the same return value, output and errno. */
struct diff_case {
    const char *line;   /* the case, docs/CASE_FORMAT.md text form */
    int ret;            /* this build's answer, filled in at run time */
    int err;
    char out[128];
};

#define DIFF(line_, ...) do { \
        *musl_errno_location() = 0; \
        cases[n].line = line_; \
        cases[n].ret = m(cases[n].out, 64, __VA_ARGS__); \
        cases[n].err = *musl_errno_location(); \
        if (cases[n].ret < 0) cases[n].out[0] = '\0'; \
        n++; \
    } while (0)

static void test_against_executor(const char *exe)
{
    struct diff_case cases[16];
    int n = 0;
    DIFF("\"%-5d|%+.3x\" int:42 uint:255 @64", "%-5d|%+.3x", 42, 255u);
    DIFF("\"%.17g\" double:0x1.999999999999ap-4 @64", "%.17g", 0.1);
    DIFF("\"%e\" double:0x1.7e43c8800759cp+996 @64", "%e", 0x1.7e43c8800759cp+996);
    DIFF("\"%.30f\" double:0x1.b7cdfd9d7bdbbp-34 @64", "%.30f", 0x1.b7cdfd9d7bdbbp-34);
    DIFF("\"%a\" double:0x1.8p+1 @64", "%a", 3.0);
    DIFF("\"%La\" ldouble:0xc.90fdaa22168c235p-2 @64", "%La", 0xc.90fdaa22168c235p-2L);
    DIFF("\"%.20Lg\" ldouble:0xc.90fdaa22168c235p-2 @64", "%.20Lg", 0xc.90fdaa22168c235p-2L);
    DIFF("\"%#.0e|%#g\" double:0x1p+0 double:0x0p+0 @64", "%#.0e|%#g", 1.0, 0.0);
    DIFF("\"%5s|%p\" str:NULL ptr:NULL @64", "%5s|%p", (char *)NULL, (void *)NULL);
    DIFF("\"%lc\" wint:233 @64", "%lc", (wint_t)233);
    DIFF("\"%y\" @64", "%y");
    DIFF("\"x%2147483647d\" int:1 @64", "x%2147483647d", 1);

    char tmpl[] = "/tmp/test_musl_target.XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) { FAIL("mkstemp failed"); return; }
    FILE *in = fdopen(fd, "w");
    for (int i = 0; i < n; i++) fprintf(in, "%s\n", cases[i].line);
    fclose(in);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' < '%s'", exe, tmpl);
    FILE *p = popen(cmd, "r");
    if (!p) { FAIL("popen %s failed", cmd); unlink(tmpl); return; }
    char line[512];
    if (!fgets(line, sizeof line, p) || strncmp(line, "scn-exec 2 musl musl ", 21) != 0)
        FAIL("executor greeting: %s", line);
    for (int i = 0; i < n; i++) {
        char want[256];
        if (cases[i].ret < 0)
            snprintf(want, sizeof want, "= 64 %d \"\" errno=%d\n", cases[i].ret, cases[i].err);
        else
            snprintf(want, sizeof want, "= 64 %d \"%s\"\n", cases[i].ret, cases[i].out);
        if (!fgets(line, sizeof line, p)) { FAIL("executor: no answer to %s", cases[i].line); break; }
        if (strcmp(line, want) != 0)
            FAIL("%s: installed musl says %s  this build says %s", cases[i].line, line, want);
        if (!fgets(line, sizeof line, p) || strcmp(line, ".\n") != 0)
            FAIL("executor: no '.' after %s", cases[i].line);
    }
    CHECK(fgets(line, sizeof line, p) == NULL);
    CHECK(pclose(p) == 0);
    unlink(tmpl);
}

int main(int argc, char **argv)
{
    test_descriptor();
    test_nl_arg_scrub();
    test_ints();
    test_strings();
    test_floats();
    test_sizes_and_n();
    test_errors();
    test_wide();
    test_m();
    test_glibc_intact();
    test_errors(); /* again, after threads */
    if (argc > 1)
        test_against_executor(argv[1]);
    if (failures) {
        fprintf(stderr, "test_musl_target: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_musl_target: ok (%s)\n", scn_target_musl.version());
    return 0;
}
