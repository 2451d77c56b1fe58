/* Tests of the case model (core/case: case_format.c, case_parse*.c,
 * case_build.c, case_call.c): the text form's round trips
 * and parse errors, glibc as an independent reference for %a printing and
 * for the hand-built va_list, the fixed capacities of a case.
 * The decoder (case_decode*.c) is tested in test_case_decode.c, the corpus
 * lines (corpus.c) in test_corpus_reader.c. */
#define _GNU_SOURCE
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/wait.h>

#include "check.h"
#include "check_case.h"
#include "case.h"

static struct scn_case C, C2;
static char out[1 << 16], err[256];

/* ---------------------------------------------------------------- round trip */

static const char *const roundtrip[] = {
    "\"\"",
    "\"plain text\"",
    "\"%-5d|\" int:42",
    "\"%.3s\" str:\"hello\"",
    "\"%a\" double:0x1.8p+1",
    "\"%5.1Lf\" ldouble:0xap-3 @0,1,5",
    "\"%2$s %1$d\" int:7 str:\"x\"",
    "\"%ls\" wstr:\"caf\\u{e9}\"",
    "\"ab%ncd\" n:int",
    "\"\\\\ \\\" \\n \\t \\r \\x00 \\x01 \\x1f \\x7f \\x80 \\xff\"",
    "\"%s\" str:\"a\\tb\\x00c\\xe9\"",
    "\"%s\" str:\"\"",
    "\"%s\" str:NULL",
    "\"%ls\" wstr:NULL",
    "\"%ls\" wstr:\"\\u{20ac}\\u{1f600}\\u{d800}\\u{110000}\\u{7fffffff}\\x01\\\"\"",
    "\"%p %p\" ptr:0x1 ptr:NULL",
    "\"%p\" ptr:0xffffffffffffffff",
    "\"%d %d %d\" int:-2147483648 int:2147483647 int:0",
    "\"%ld %lld %jd %zd %td\" long:-9223372036854775808 llong:9223372036854775807 intmax:-1 ssize:5 ptrdiff:-7",
    "\"%u %lu %llu %ju %zu\" uint:4294967295 ulong:18446744073709551615 ullong:0 uintmax:1 size:18446744073709551615",
    "\"%lc\" wint:4294967295",
    "\"%lc\" wint:0",
    "\"%f %f %f %f %f %f\" double:inf double:-inf double:nan double:-nan double:0x0p+0 double:-0x0p+0",
    "\"%a %a %a\" double:0x1p-1022 double:0x0.8p-1022 double:0x0.0000000000001p-1022",
    "\"%a\" double:0x1.fffffffffffffp+1023",
    "\"%La %La %La\" ldouble:0x8p-16385 ldouble:0x0.000000000000001p-16385 ldouble:0xf.fffffffffffffffp+16380",
    "\"%Lf %Lf %Lf %Lf\" ldouble:inf ldouble:-nan ldouble:0x0p+0 ldouble:-0x0p+0",
    "\"%hhn%hn%n%ln%lln%jn%zn%tn\" n:schar n:short n:int n:long n:llong n:intmax n:size n:ptrdiff",
    "\"x\" @0",
    "\"x\" @0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,18446744073709551615",
    /* mem: bytes behind a pointer (a MAC, an IPv4 address, 16 bytes), NULL, error pointers */
    "\"MAC=%pM\" mem:\"\\x00\\x1b!:O^\"",
    "\"%pI4|%pI6c\" mem:\"\\xc0\\xa8\\x01\\n\" mem:\"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\"",
    "\"%pM %pM %pM %*ph\" mem:NULL mem:ERR(-14) mem:ERR(-4095) int:0 mem:\"\" @0,8",
    "\"%pa\" mem:ERR(-1)",
    /* mem:VAF: a struct va_format for %pV, its format with the string escapes */
    "\"<%pV>\" mem:VAF(\"a%d \\\"%s\\\"\\x00\\t%%\")",
    "\"%pV|%pV|%pV|%pV\" mem:VAF(\"\") mem:NULL mem:ERR(-22) mem:VAF(\"%pV\") @0,3",
};

static void test_roundtrip(void)
{
    for (size_t i = 0; i < sizeof roundtrip / sizeof roundtrip[0]; i++) {
        const char *t = roundtrip[i];
        int r = scn_case_parse(t, strlen(t), &C, err, sizeof err);
        CHECK(r == 0, "parse of %s failed: %s", t, err);
        if (r) continue;
        size_t n = scn_case_format(&C, out, sizeof out);
        CHECK(n == strlen(t) && !strcmp(out, t), "round trip:\n  in:  %s\n  out: %s", t, out);
    }
    /* model contents of one case */
    const char *t = "\"%s|%ls\" str:\"a\\x00b\" wstr:\"\\u{e9}z\" @3";
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
    CHECK(C.nargs == 2 && C.args[0].type == SCN_ARG_STR && C.args[0].len == 3 &&
          !memcmp(C.arena + C.args[0].off, "a\0b", 4), "str bytes");
    const wchar_t *w = (const wchar_t *)(const void *)(C.arena + C.args[1].off);
    CHECK(C.args[1].len == 2 && w[0] == 0xe9 && w[1] == 'z' && w[2] == 0, "wstr code points");
    CHECK(((uintptr_t)w & 3) == 0, "wstr aligned");
    CHECK(C.nsizes == 1 && C.sizes[0] == 3, "sizes");
    CHECK(C.fmt_len == 6 && !strcmp(C.fmt, "%s|%ls"), "format bytes");
}

/* mutated texts: the parser never crashes, and whatever it accepts is
 * canonical (prints back byte for byte) */
static void test_mutated_texts(void)
{
    static const char alphabet[] = "\"\\ :@,-0123456789abcdefxpnu{}NULintdoubleldstrwp\x00\x01\x7f\xe9";
    char t[512];
    int accepted = 0;
    for (int it = 0; it < 200000; it++) {
        const char *src = roundtrip[rnd() % (sizeof roundtrip / sizeof roundtrip[0])];
        size_t n = strlen(src);
        memcpy(t, src, n);
        int muts = 1 + (int)(rnd() % 3);
        for (int m = 0; m < muts; m++) {
            size_t at = n ? rnd() % n : 0;
            unsigned kind = (unsigned)(rnd() % 3);
            char ch = alphabet[rnd() % (sizeof alphabet - 1)];
            if (kind == 0 && n) t[at] = ch;                                              /* replace */
            else if (kind == 1 && n + 1 < sizeof t) { memmove(t + at + 1, t + at, n - at); t[at] = ch; n++; } /* insert */
            else if (n) { memmove(t + at, t + at + 1, n - at - 1); n--; }                 /* delete */
        }
        if (scn_case_parse(t, n, &C, err, sizeof err)) {
            CHECK(!strncmp(err, "col ", 4), "error without a column: %s", err);
            continue;
        }
        accepted++;
        size_t k = scn_case_format(&C, out, sizeof out);
        CHECK(k == n && !memcmp(out, t, n), "accepted a non-canonical text:\n  in:  %.*s\n  out: %s", (int)n, t, out);
        if (k != n || memcmp(out, t, n)) break;
    }
    CHECK(accepted > 1000, "only %d mutated texts accepted", accepted);
}

/* ---------------------------------------------------------------- parse errors */

static const struct { const char *text, *want; } bad[] = {
    { "", "col 1: expected '\"'" },
    { "%d", "col 1: expected '\"'" },
    { "\"abc", "col 5: expected '\"' to close the string opened at col 1" },
    { "\"a\\qb\"", "col 3: unknown escape '\\q'" },
    { "\"\\x4\"", "col 4: expected two lower-case hex digits" },
    { "\"\\xAB\"", "col 4: expected two lower-case hex digits" },
    { "\"\\x41\"", "col 2: \\x41 is not canonical, expected A" },
    { "\"\\x0a\"", "col 2: \\x0a is not canonical, expected \\n" },
    { "\"a\tb\"", "col 3: byte 0x09 must be escaped, expected \\t" },
    { "\"\xc3\xa9\"", "col 2: byte 0xc3 must be escaped, expected \\xc3" },
    { "\"%d\"  int:1", "col 6: expected a token" },
    { "\"%5.1Lf\" ldouble:0xa.000000000000000p-3", "col 18: expected the exact canonical form 0xap-3" },
    { "\"%d\" int:1 ", "col 12: expected a token" },
    { "\"%d\"int:1", "col 5: expected a space" },
    { "\"%d\" integer:1", "col 6: unknown type 'integer'" },
    { "\"%d\" int", "col 6: expected TYPE:VALUE or @sizes" },
    { "\"%d\" int:", "col 10: expected a decimal digit" },
    { "\"%d\" int:2147483648", "col 10: value out of range (max 2147483647)" },
    { "\"%d\" int:-2147483649", "col 10: value out of range (min -2147483648)" },
    { "\"%d\" int:007", "col 10: expected a canonical decimal" },
    { "\"%d\" int:-0", "col 11: expected a canonical decimal" },
    { "\"%d\" int:+1", "col 10: expected a decimal digit" },
    { "\"%d\" int:12x", "col 12: expected a decimal digit" },
    { "\"%u\" uint:-1", "col 11: expected an unsigned decimal value" },
    { "\"%u\" uint:4294967296", "out of range (max 4294967295)" },
    { "\"%a\" double:1", "col 13: expected a hex float" }, /* an integer is not a floating constant */
    { "\"%a\" double:1e999", "col 13: 1e999 is beyond the range of double (write inf)" },
    { "\"%a\" double:0x3p+0", "col 13: expected the exact canonical form 0x1.8p+1" },
    { "\"%a\" double:0x1.8P+1", "col 13: expected the exact canonical form 0x1.8p+1" },
    { "\"%a\" double:0x1.00000000000001p+0", "expected the exact canonical form 0x1p+0" },
    { "\"%La\" ldouble:0x1.8p+1", "col 15: expected the exact canonical form 0xcp-2 (as %La prints it)" },
    { "\"%a\" double:Inf", "col 13: expected a hex float (0x...p+N), inf, nan" },
    { "\"%p\" ptr:0x0", "col 12: expected no leading zeros (and NULL, not 0x0)" },
    { "\"%p\" ptr:0xABC", "col 12: expected a lower-case hex digit" },
    { "\"%p\" ptr:123", "col 10: expected 0x<lower-case hex> or NULL" },
    { "\"%p\" ptr:0x10000000000000000", "pointer value out of range" },
    { "\"%n\" n:float", "col 8: expected n:int, n:schar" },
    { "\"%s\" str:hello", "col 10: expected a quoted string or NULL" },
    { "\"%s\" str:\"a\"b", "col 13: expected a space after the closing '\"'" },
    { "\"%s\" str:\"\\u{e9}\"", "col 11: \\u{...} is only allowed in wstr strings" },
    { "\"%ls\" wstr:\"\\u{41}\"", "col 13: \\u{41} is not canonical, expected A" },
    { "\"%ls\" wstr:\"\\u{0e9}\"", "col 16: expected no leading zeros in \\u{}" },
    { "\"%ls\" wstr:\"\\u{E9}\"", "col 16: expected lower-case hex digits in \\u{}" },
    { "\"%ls\" wstr:\"\\u{e9\"", "col 18: expected '}' closing \\u{" },
    { "\"%ls\" wstr:\"\\xe9\"", "col 13: expected \\u{e9} for a wide code point >= 0x80" },
    { "\"%ls\" wstr:\"\\u{80000000}\"", "col 16: expected a code point <= 0x7fffffff" },
    { "\"x\" @", "col 6: expected a decimal digit" },
    { "\"x\" @1,", "col 8: expected a decimal digit" },
    { "\"x\" @1 int:1", "col 7: expected the end of the case after @sizes" },
    { "\"x\" @01", "col 6: expected a canonical decimal" },
    { "\"%p\" mem:abc", "col 10: expected quoted bytes, NULL or ERR(-E)" },
    { "\"%p\" mem:", "col 10: expected quoted bytes, NULL or ERR(-E)" },
    { "\"%p\" mem:null", "col 10: expected quoted bytes, NULL or ERR(-E)" },
    { "\"%p\" mem:\"ab", "col 13: expected '\"' to close the string opened at col 10" },
    { "\"%p\" mem:\"a\"b", "col 13: expected a space after the closing '\"'" },
    { "\"%p\" mem:\"\\u{e9}\"", "col 11: \\u{...} is only allowed in wstr strings" },
    { "\"%p\" mem:ERR(14)", "col 14: expected a negative errno value, ERR(-1) to ERR(-4095)" },
    { "\"%p\" mem:ERR()", "col 14: expected a negative errno value" },
    { "\"%p\" mem:ERR(-4096)", "col 14: value out of range (min -4095)" },
    { "\"%p\" mem:ERR(-0)", "col 15: expected a canonical decimal" },
    { "\"%p\" mem:ERR(-014)", "col 15: expected a canonical decimal" },
    { "\"%p\" mem:ERR(-14", "col 17: expected ')' closing ERR(" },
    { "\"%p\" mem:ERR(-14)x", "col 17: expected a decimal digit" },
    { "\"%p\" mem:ERR(-1 int:1", "col 16: expected ')' closing ERR(" },
    { "\"%p\" mem:0x10", "col 10: expected quoted bytes, NULL or ERR(-E)" },
    { "\"%p\" mem:VAF(\"ab\"", "col 18: expected ')' closing VAF(" },
    { "\"%p\" mem:VAF(\"ab\")x", "col 19: expected a space after the closing ')'" },
    { "\"%p\" mem:VAF(ab)", "col 14: expected '\"' to open a quoted string" },
    { "\"%p\" mem:VAF(\"\\x41\")", "col 15: \\x41 is not canonical" },
    { "\"%p\" mem:VAF", "col 10: expected quoted bytes, NULL or ERR(-E), or VAF(\"fmt\")" },
    { "\"%s\" str:VAF(\"a\")", "col 10: expected a quoted string or NULL" },
};

static void test_parse_errors(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        int r = scn_case_parse(bad[i].text, strlen(bad[i].text), &C, err, sizeof err);
        CHECK(r == -1, "accepted malformed case <%s>", bad[i].text);
        CHECK(strstr(err, bad[i].want) != NULL, "case <%s>:\n  error: %s\n  want:  %s", bad[i].text, err,
              bad[i].want);
    }
    /* too many arguments */
    char t[2048] = "\"x\"";
    for (int i = 0; i < SCN_CASE_MAX_ARGS + 1; i++) strcat(t, " int:1");
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == -1 && strstr(err, "too many arguments"),
          "33 args: %s", err);
}

/* ---------------------------------------------------------------- float text vs glibc %a */


static void test_float_text(void)
{
    char want[128];
    for (int i = 0; i < 20000; i++) {
        uint64_t b = rnd();
        if (i % 4 == 0) b &= 0x800fffffffffffffull; /* subnormals and zeros */
        if (i % 7 == 0) b &= 0xfff0000000000000ull;
        double d;
        memcpy(&d, &b, 8);
        scn_case_init(&C, "%a", 2);
        scn_case_add_double(&C, d);
        scn_case_format(&C, out, sizeof out);
        snprintf(want, sizeof want, "\"%%a\" double:%a", d);
        if (isnan(d)) snprintf(want, sizeof want, "\"%%a\" double:%s", signbit(d) ? "-nan" : "nan");
        CHECK(!strcmp(out, want), "double text %s, glibc %s", out, want);
        if (strcmp(out, want)) break;
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "%s: %s", out, err);
        if (!isnan(d)) CHECK(!memcmp(&C2.args[0].v.d, &d, 8), "double %s parses back to other bits", out);
    }
    for (int i = 0; i < 20000; i++) {
        unsigned char raw[16] = {0};
        uint64_t m = rnd();
        unsigned e = (unsigned)rnd() & 0xffff;
        if (i % 5 == 0) e &= 0x8000; /* subnormal */
        if ((e & 0x7fff) == 0) m &= ~(1ull << 63);
        else m |= 1ull << 63;
        if ((e & 0x7fff) == 0x7fff) continue;
        memcpy(raw, &m, 8);
        raw[8] = (unsigned char)e;
        raw[9] = (unsigned char)(e >> 8);
        long double v;
        memcpy(&v, raw, sizeof v);
        scn_case_init(&C, "%La", 3);
        scn_case_add_ldouble(&C, v);
        scn_case_format(&C, out, sizeof out);
        snprintf(want, sizeof want, "\"%%La\" ldouble:%La", v);
        CHECK(!strcmp(out, want), "long double text %s, glibc %s", out, want);
        if (strcmp(out, want)) break;
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "%s: %s", out, err);
        CHECK(!memcmp(&C2.args[0].v.ld, &v, 10), "long double %s parses back to other bits", out);
    }
}

/* ---------------------------------------------------------------- va_list builder */

/* "ab%ncd%hhn%n": the first two counts stored as a long long (8 bytes into an
 * int and a signed char), the last as an int, as a broken printf would */
static int store_wide(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    *va_arg(ap, long long *) = 2;
    *va_arg(ap, long long *) = 4;
    *va_arg(ap, int *) = 4;
    return snprintf(buf, size, "abcd");
}

static void test_call(void)
{
    /* 10 integers, 10 doubles, 3 long doubles, strings, pointers: beyond the
     * 6 GP and 8 FP registers of a compiler-built va_list */
    const char *fmt = "%d %ld %u %lld %d %zu %d %d|%.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f|"
                      "%Lf %d %Lf %.2Lf|%s %ls %p %c %lc %hhd %hu %jd %td %s";
    scn_case_init(&C, fmt, strlen(fmt));
    scn_case_add_int(&C, SCN_ARG_INT, -1);
    scn_case_add_int(&C, SCN_ARG_LONG, -1234567890123LL);
    scn_case_add_uint(&C, SCN_ARG_UINT, 4000000000u);
    scn_case_add_int(&C, SCN_ARG_LLONG, LLONG_MIN);
    scn_case_add_int(&C, SCN_ARG_INT, 5);
    scn_case_add_uint(&C, SCN_ARG_SIZE, 18446744073709551615ull);
    for (int i = 7; i <= 8; i++) scn_case_add_int(&C, SCN_ARG_INT, i);
    for (int i = 1; i <= 10; i++) scn_case_add_double(&C, i + 0.25);
    scn_case_add_ldouble(&C, 1.5L);
    scn_case_add_int(&C, SCN_ARG_INT, 77);
    scn_case_add_ldouble(&C, -2.75L);
    scn_case_add_ldouble(&C, 1e300L * 1e300L);
    scn_case_add_str(&C, "str", 3);
    static const wchar_t ws[] = L"wide";
    scn_case_add_wstr(&C, ws, 4);
    scn_case_add_ptr(&C, (void *)0xdeadbeef);
    scn_case_add_int(&C, SCN_ARG_INT, 'Q');
    scn_case_add_uint(&C, SCN_ARG_WINT, 'W');
    scn_case_add_int(&C, SCN_ARG_INT, 300);
    scn_case_add_uint(&C, SCN_ARG_UINT, 70000);
    scn_case_add_int(&C, SCN_ARG_INTMAX, -99);
    scn_case_add_int(&C, SCN_ARG_PTRDIFF, -98);
    scn_case_add_str(&C, "end", 3);
    char want[1024];
    int wr = snprintf(want, sizeof want, fmt, -1, -1234567890123L, 4000000000u, LLONG_MIN, 5, (size_t)-1, 7, 8,
                      1.25, 2.25, 3.25, 4.25, 5.25, 6.25, 7.25, 8.25, 9.25, 10.25, 1.5L, 77, -2.75L,
                      1e300L * 1e300L, "str", ws, (void *)0xdeadbeef, 'Q', (wint_t)'W', 300, 70000,
                      (intmax_t)-99, (ptrdiff_t)-98, "end");
    char got[1024];
    int gr = scn_case_call(vsnprintf, &C, got, sizeof got);
    CHECK(C.nargs == 32, "32 arguments: %zu", C.nargs);
    CHECK(gr == wr && !strcmp(got, want), "va_list builder:\n  got  %d %s\n  want %d %s", gr, got, wr, want);
    /* the same case through its text form */
    scn_case_format(&C, out, sizeof out);
    CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "%s", err);
    gr = scn_case_call(vsnprintf, &C2, got, sizeof got);
    CHECK(gr == wr && !strcmp(got, want), "after text round trip: %s", got);
    /* truncation and size 0 */
    gr = scn_case_call(vsnprintf, &C, got, 5);
    CHECK(gr == wr && !memcmp(got, want, 4) && got[4] == 0, "truncated call");

    /* %n targets: zeroed before each call, readable after */
    const char *t = "\"ab%ncd%hhn%s%lln\" n:int n:schar str:\"xyz\" n:llong";
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
    C.nslot[0].i = 99;
    gr = scn_case_call(vsnprintf, &C, got, 3);
    CHECK(gr == 7 && !strcmp(got, "ab"), "%%n call %d %s", gr, got);
    CHECK(scn_case_n_value(&C, 0) == 2 && scn_case_n_value(&C, 1) == 4 && scn_case_n_value(&C, 3) == 7,
          "%%n values %lld %lld %lld", scn_case_n_value(&C, 0), scn_case_n_value(&C, 1), scn_case_n_value(&C, 3));
    size_t idx[4];
    CHECK(scn_case_n_args(&C, idx, 4) == 3 && idx[2] == 3, "n args");

    /* a %n or %hhn stored as a wider type writes past its object: said so, not
     * read back as the right count (musl's switch of %n stores with a break
     * deleted falls through to the next, wider store) */
    t = "\"ab%ncd%hhn%n\" n:int n:schar n:int";
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
    gr = scn_case_call(store_wide, &C, got, sizeof got);
    CHECK(gr == 4 && scn_case_n_value(&C, 0) == SCN_N_WRITTEN_PAST && scn_case_n_value(&C, 1) == SCN_N_WRITTEN_PAST
          && scn_case_n_value(&C, 2) == 4, "%%n stored wide: %lld %lld %lld", scn_case_n_value(&C, 0),
          scn_case_n_value(&C, 1), scn_case_n_value(&C, 2));
    gr = scn_case_call(vsnprintf, &C, got, sizeof got); /* the next call: each object its own size again */
    CHECK(gr == 4 && scn_case_n_value(&C, 0) == 2 && scn_case_n_value(&C, 1) == 4 && scn_case_n_value(&C, 2) == 4,
          "%%n after a wide store: %lld %lld %lld", scn_case_n_value(&C, 0), scn_case_n_value(&C, 1),
          scn_case_n_value(&C, 2));
}

/* ---------------------------------------------------------------- mem arguments */

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
int __asan_address_is_poisoned(void const volatile *addr);
void *__asan_region_is_poisoned(void *beg, size_t size);
#endif

static const void *seen_ptr[SCN_CASE_MAX_ARGS];
static size_t nseen, poison_bad;

/* A small vsnprintf-like callee: "%Nh" reads a const void * (va_arg) and
 * prints N bytes behind it as hex ("(null)" for NULL, "(err -E)" for an error
 * pointer, as the kernel's IS_ERR_VALUE), "%d" an int; other bytes are copied. */
static int hexdump_vsn(char *buf, size_t size, const char *fmt, va_list ap)
{
    static char tmp[1 << 15]; /* 32 mem arguments filling the arena, in hex */
    size_t k = 0;
    for (const char *f = fmt; *f && k + 64 < sizeof tmp; f++) {
        if (*f != '%') {
            tmp[k++] = *f;
            continue;
        }
        if (f[1] == 'd') {
            k += (size_t)sprintf(tmp + k, "%d", va_arg(ap, int));
            f++;
            continue;
        }
        char *e;
        unsigned long n = strtoul(f + 1, &e, 10);
        f = e; /* at 'h' */
        const void *p = va_arg(ap, const void *);
        if (nseen < SCN_CASE_MAX_ARGS) seen_ptr[nseen++] = p;
        if (!p) k += (size_t)sprintf(tmp + k, "(null)");
        else if ((uintptr_t)p >= (uintptr_t)-4095) k += (size_t)sprintf(tmp + k, "(err %ld)", (long)(intptr_t)p);
        else {
#ifdef TEST_ASAN
            /* the bytes are addressable, the byte after them and the one before are not */
            if (__asan_region_is_poisoned((void *)(uintptr_t)p, n) || !__asan_address_is_poisoned((const char *)p + n) ||
                !__asan_address_is_poisoned((const char *)p - 1))
                poison_bad++;
#endif
            for (unsigned long i = 0; i < n && k + 4 < sizeof tmp; i++)
                k += (size_t)sprintf(tmp + k, "%02x", ((const unsigned char *)p)[i]);
        }
    }
    tmp[k] = 0;
    if (size) snprintf(buf, size, "%s", tmp);
    return (int)k;
}

static void test_mem(void)
{
    char got[4096];
    const char *t = "\"%6h|%4h|%0h|%3h|%d|%5h|%2h\" mem:\"\\x00\\x1b!:O^\" mem:\"\\xc0\\xa8\\x01\\n\" mem:\"\" "
                    "mem:\"\\x00\\x00\\xff\" int:-3 mem:NULL mem:ERR(-14)";
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
    CHECK(C.args[0].type == SCN_ARG_MEM && C.args[0].len == 6 && !memcmp(C.arena + C.args[0].off, "\0\x1b!:O^", 6),
          "mem bytes in the arena");
    CHECK(C.args[5].is_null && C.args[6].is_err && C.args[6].v.i == -14, "mem:NULL, mem:ERR(-14)");
    CHECK(C.arena_used == 6 + 4 + 0 + 3, "mem bytes take their length, no NUL: %zu", C.arena_used);
    nseen = poison_bad = 0;
    int r = scn_case_call(hexdump_vsn, &C, got, sizeof got);
    const char *want = "001b213a4f5e|c0a8010a||0000ff|-3|(null)|(err -14)";
    CHECK(r == (int)strlen(want) && !strcmp(got, want), "mem call: %d %s", r, got);
    CHECK(poison_bad == 0, "under ASan: %zu copies not fenced by poison", poison_bad);
    CHECK(nseen == 6, "pointers seen %zu", nseen);
    const void *first = seen_ptr[0];
    for (size_t i = 0; i < 4 && i < nseen; i++) {
        const char *p = seen_ptr[i];
        CHECK(((uintptr_t)p & 15) == 0, "mem %zu: a 16-byte aligned copy", i);
        CHECK(p < C.arena || p >= C.arena + sizeof C.arena, "mem %zu: a copy, not the arena", i);
    }
    /* the copies are at the same places in every call of the same case */
    nseen = 0;
    scn_case_call(hexdump_vsn, &C, got, sizeof got);
    CHECK(seen_ptr[0] == first, "mem copies move between calls");
    /* the text form round trip and the builder give the same case */
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, t), "mem text %s", out);
    scn_case_init(&C2, "%6h|%4h|%0h|%3h|%d|%5h|%2h", 26);
    CHECK(!scn_case_add_mem(&C2, "\0\x1b!:O^", 6) && !scn_case_add_mem(&C2, "\xc0\xa8\x01\n", 4) &&
          !scn_case_add_mem(&C2, "", 0) && !scn_case_add_mem(&C2, "\0\0\xff", 3) &&
          !scn_case_add_int(&C2, SCN_ARG_INT, -3) && !scn_case_add_mem(&C2, NULL, 0) &&
          !scn_case_add_mem_err(&C2, -14), "mem builders");
    scn_case_format(&C2, out, sizeof out);
    CHECK(!strcmp(out, t), "built mem text %s", out);
    CHECK(scn_case_add_mem_err(&C2, 0) == -1 && scn_case_add_mem_err(&C2, -4096) == -1 &&
          scn_case_add_mem_err(&C2, 1) == -1 && C2.nargs == 7, "error pointers beyond -4095..-1 refused");
    CHECK(scn_case_add_mem_err(&C2, -4095) == 0 && scn_case_add_mem_err(&C2, -1) == 0, "ERR(-4095), ERR(-1)");

    /* 32 mem arguments filling the arena: every copy fits the call pool */
    static char big[SCN_CASE_ARENA];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (char)(i * 7 + 1);
    char fmt[SCN_CASE_MAX_ARGS * 6 + 1];
    size_t fl = 0, per = SCN_CASE_ARENA / SCN_CASE_MAX_ARGS;
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) fl += (size_t)sprintf(fmt + fl, "%%%zuh", per);
    scn_case_init(&C, fmt, fl);
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++)
        CHECK(scn_case_add_mem(&C, big + (size_t)i * per, per) == 0, "mem %d of %zu bytes", i, per);
    CHECK(C.arena_used == SCN_CASE_ARENA, "a full arena %zu", C.arena_used);
    nseen = poison_bad = 0;
    static char full[2 * SCN_CASE_ARENA + 1];
    r = scn_case_call(hexdump_vsn, &C, got, sizeof got);
    size_t k = 0;
    for (size_t i = 0; i < sizeof big && k < 4000; i++) k += (size_t)sprintf(full + k, "%02x", (unsigned char)big[i]);
    CHECK(r > 4000 && !memcmp(got, full, 4000), "32 mem arguments: %d", r);
    CHECK(poison_bad == 0 && nseen == SCN_CASE_MAX_ARGS, "32 copies fenced: %zu of %zu bad", poison_bad, nseen);

    /* capacity: a mem needs exactly its bytes; refused without a change when full */
    scn_case_init(&C, "%p", 2);
    CHECK(scn_case_add_mem(&C, big, sizeof big) == 0 && C.arena_used == SCN_CASE_ARENA, "an arena-sized mem");
    CHECK(scn_case_add_mem(&C, "x", 1) == -1 && C.nargs == 1, "a full arena took a byte");
    CHECK(scn_case_add_mem(&C, "", 0) == 0 && scn_case_add_mem(&C, NULL, 0) == 0 && scn_case_add_mem_err(&C, -5) == 0,
          "no bytes need no arena");
    /* parsing: the bytes of str and mem arguments together beyond the arena, with the column */
    static char text[4 * SCN_CASE_ARENA];
    size_t n = (size_t)sprintf(text, "\"%%s%%p\" str:\"");
    memset(text + n, 's', SCN_CASE_ARENA - 3);
    n += SCN_CASE_ARENA - 3;
    n += (size_t)sprintf(text + n, "\" mem:\"abc\"");
    err[0] = 0;
    CHECK(scn_case_parse(text, n, &C, err, sizeof err) == -1 && !strncmp(err, "col ", 4) && strstr(err, "too long"),
          "mem beyond the arena: %s", err);
    char want_col[32];
    snprintf(want_col, sizeof want_col, "col %zu:", n - 1); /* the 'c' that does not fit */
    CHECK(!strncmp(err, want_col, strlen(want_col)), "column of the byte that does not fit: %s", err);
    text[n - 2] = '"';
    CHECK(scn_case_parse(text, n - 1, &C, err, sizeof err) == 0 && C.arena_used == SCN_CASE_ARENA,
          "str and mem filling the arena exactly: %s", err);

#ifdef TEST_ASAN
    /* a read one byte past a copy is an ASan report (the child dies) */
    const char *t1 = "\"%7h\" mem:\"abcdef\"";
    CHECK(scn_case_parse(t1, strlen(t1), &C, err, sizeof err) == 0, "%s", err);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        scn_case_call(hexdump_vsn, &C, got, sizeof got);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(!(WIFEXITED(st) && WEXITSTATUS(st) == 0), "reading past a mem copy was not caught by ASan");
#endif
}

/* ---------------------------------------------------------------- mem:VAF */

/* struct va_format as include/linux/printk.h declares it */
struct va_format_like { const char *fmt; va_list *va; };
static size_t nvaf; /* formats seen by vaf_vsn */
#ifdef TEST_ASAN
static size_t vaf_span[4]; /* the addressable bytes at each format */
#endif

/* "%V" reads a struct va_format pointer and prints "[fmt:" its format, then
 * the sum of 40 longs and 10 doubles its va_list gives "]" (both read twice,
 * through two va_copy()s: the slot is not changed by reading). */
static int vaf_vsn(char *buf, size_t size, const char *fmt, va_list ap)
{
    char tmp[512];
    size_t k = 0;
    for (const char *f = fmt; *f && k + 200 < sizeof tmp; f++) {
        if (f[0] != '%' || f[1] != 'V') {
            tmp[k++] = *f;
            continue;
        }
        f++;
        const struct va_format_like *v = va_arg(ap, const struct va_format_like *);
        if (!v || (uintptr_t)v >= (uintptr_t)-4095) {
            k += (size_t)sprintf(tmp + k, v ? "(efault)" : "(null)");
            continue;
        }
        size_t n = strlen(v->fmt);
#ifdef TEST_ASAN
        /* the format and its NUL are addressable, the bytes around them are not */
        size_t span = 0;
        while (span < 64 && !__asan_address_is_poisoned(v->fmt + span)) span++;
        if (nvaf < 4) vaf_span[nvaf] = __asan_address_is_poisoned(v->fmt - 1) ? span : 999;
#endif
        nvaf++;
        long sum = 0;
        double dsum = 0;
        for (int pass = 0; pass < 2; pass++) {
            va_list va;
            va_copy(va, *v->va);
            for (int i = 0; i < 40; i++) sum += va_arg(va, long) != 0;
            for (int i = 0; i < 10; i++) dsum += va_arg(va, double);
            va_end(va);
        }
        k += (size_t)snprintf(tmp + k, 100, "[%.*s:%ld,%g]", (int)(n < 60 ? n : 60), v->fmt, sum, dsum);
    }
    tmp[k] = 0;
    if (size) snprintf(buf, size, "%s", tmp);
    return (int)k;
}

static void test_vaf(void)
{
    char got[600];
    const char *t = "\"%V|%V|%V|%V\" mem:VAF(\"a%d\\x00b\") mem:NULL mem:ERR(-5) mem:VAF(\"\")";
    CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
    CHECK(C.args[0].type == SCN_ARG_MEM && C.args[0].is_vaf && C.args[0].len == 5 &&
          !memcmp(C.arena + C.args[0].off, "a%d\0b", 6) && C.args[3].is_vaf && C.args[3].len == 0,
          "VAF bytes and a NUL in the arena");
    CHECK(!C.args[1].is_vaf && C.args[1].is_null && C.args[2].is_err, "NULL and ERR beside VAF");
    CHECK(C.arena_used == 5 + 1 + 0 + 1, "a VAF takes its bytes and a NUL: %zu", C.arena_used);
    nvaf = 0;
    int r = scn_case_call(vaf_vsn, &C, got, sizeof got);
    const char *want = "[a%d:0,0]|(null)|(efault)|[:0,0]"; /* the format stops at its first NUL */
    CHECK(r == (int)strlen(want) && !strcmp(got, want), "VAF call: %d %s", r, got);
#ifdef TEST_ASAN
    CHECK(nvaf == 2 && vaf_span[0] == 6 && vaf_span[1] == 1, "under ASan: VAF formats of %zu and %zu bytes with "
          "their NUL between poisoned bytes, expected 6 and 1 (%zu)", vaf_span[0], vaf_span[1], nvaf);
#endif
    r = scn_case_call(vaf_vsn, &C, got, sizeof got);
    CHECK(r == (int)strlen(want) && !strcmp(got, want), "VAF call again: %d %s", r, got);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, t), "VAF text %s", out);
    /* the builder gives the same case */
    scn_case_init(&C2, "%V|%V|%V|%V", 11);
    CHECK(!scn_case_add_mem_vaf(&C2, "a%d\0b", 5) && !scn_case_add_mem(&C2, NULL, 0) && !scn_case_add_mem_err(&C2, -5) &&
          !scn_case_add_mem_vaf(&C2, "", 0), "VAF builders");
    scn_case_format(&C2, out, sizeof out);
    CHECK(!strcmp(out, t), "built VAF text %s", out);
    /* a VAF's format and its NUL must fit the arena */
    static char big[SCN_CASE_ARENA];
    memset(big, 'v', sizeof big);
    scn_case_init(&C2, "%V", 2);
    CHECK(scn_case_add_mem_vaf(&C2, big, sizeof big) == -1 && C2.nargs == 0, "an arena-sized VAF format was taken");
    CHECK(scn_case_add_mem_vaf(&C2, big, sizeof big - 1) == 0 && C2.arena_used == SCN_CASE_ARENA,
          "a VAF format of SCN_CASE_ARENA - 1 bytes was refused");
}

/* ---------------------------------------------------------------- capacities */

/* case.h: "Each returns 0, or -1 when the case is full (args or arena)",
 * and a full case is left as it was. */
static void test_capacity(void)
{
    scn_case_init(&C, "%d", 2);
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++)
        CHECK(scn_case_add_int(&C, SCN_ARG_INT, i) == 0, "argument %d refused", i);
    CHECK(scn_case_add_int(&C, SCN_ARG_INT, 99) == -1 && C.nargs == SCN_CASE_MAX_ARGS, "33rd argument: nargs %zu",
          C.nargs);
    CHECK(scn_case_add_double(&C, 1.0) == -1 && scn_case_add_str(&C, "x", 1) == -1 && scn_case_add_n(&C, SCN_N_INT) == -1,
          "a full case took another argument");

    static char big[SCN_CASE_ARENA];
    memset(big, 'b', sizeof big);
    scn_case_init(&C, "%s", 2);
    /* the string and its NUL must fit the arena: SCN_CASE_ARENA bytes do not */
    CHECK(scn_case_add_str(&C, big, sizeof big) == -1 && C.nargs == 0, "an arena-sized string was taken");
    CHECK(scn_case_add_str(&C, big, sizeof big - 1) == 0 && C.nargs == 1 && C.args[0].len == sizeof big - 1,
          "a string of SCN_CASE_ARENA - 1 bytes was refused");
    CHECK(scn_case_add_str(&C, "", 0) == -1 && C.nargs == 1, "the arena is full, yet an empty string was taken");
    CHECK(scn_case_add_str(&C, NULL, 0) == 0 && C.args[1].is_null, "the NULL string needs no arena");

    /* a format of SCN_CASE_MAX_FMT bytes parses, one more does not */
    static char t[SCN_CASE_MAX_FMT + 8];
    t[0] = '"';
    memset(t + 1, 'f', SCN_CASE_MAX_FMT);
    t[SCN_CASE_MAX_FMT + 1] = '"';
    CHECK(scn_case_parse(t, SCN_CASE_MAX_FMT + 2, &C, err, sizeof err) == 0 && C.fmt_len == SCN_CASE_MAX_FMT,
          "a format of the maximum length: %s", err);
    t[SCN_CASE_MAX_FMT + 1] = 'f';
    t[SCN_CASE_MAX_FMT + 2] = '"';
    err[0] = 0;
    CHECK(scn_case_parse(t, SCN_CASE_MAX_FMT + 3, &C, err, sizeof err) == -1 && !strncmp(err, "col ", 4),
          "a format one byte too long: %s", err);

    /* scn_case_format returns the full length like snprintf, whatever fits */
    const char *s = "\"%-5d|\" int:42";
    CHECK(scn_case_parse(s, strlen(s), &C, err, sizeof err) == 0, "%s", err);
    CHECK(scn_case_format(&C, NULL, 0) == strlen(s), "length without a buffer");
    char small[6];
    CHECK(scn_case_format(&C, small, sizeof small) == strlen(s) && !memcmp(small, s, 5) && small[5] == 0,
          "truncated text %s", small);
}

int main(void)
{
    check_rs = 0x12345678abcdefull;
    test_roundtrip();
    test_parse_errors();
    test_mutated_texts();
    test_float_text();
    test_call();
    test_mem();
    test_vaf();
    test_capacity();
    /* decimal floating values: read correctly rounded, printed as their exact hex */
    {
        static const char *const dec[][2] = {
            { "\"%f\" double:999999.5", "\"%f\" double:0x1.e847fp+19" },
            { "\"%f\" double:-0.1", "\"%f\" double:-0x1.999999999999ap-4" },
            { "\"%Lf\" ldouble:0.1", "\"%Lf\" ldouble:0xc.ccccccccccccccdp-7" },
        };
        for (size_t i = 0; i < sizeof dec / sizeof dec[0]; i++) {
            char t[200];
            int r = scn_case_parse(dec[i][0], strlen(dec[i][0]), &C, err, sizeof err);
            size_t l = r ? 0 : scn_case_format(&C, t, sizeof t);
            CHECK(r == 0 && l == strlen(dec[i][1]) && !memcmp(t, dec[i][1], l), "%s -> %s (%s)", dec[i][0],
                  r ? err : t, dec[i][1]);
        }
    }
    return check_summary("test_case_model");
}
