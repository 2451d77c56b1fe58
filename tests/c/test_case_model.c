/* Tests of the case model (core/case), its va_list builder, the fuzzer-byte
 * decoder and the oracles (oracles/): round trips, parse errors, glibc as an
 * independent reference for %a printing and for the va_list, and deliberately
 * buggy vscnprintf implementations that the oracles must catch. */
#define _GNU_SOURCE
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "case.h"
#include "oracle.h"
#include "target.h"

static struct scn_case C, C2;
static uint64_t rs = 0x12345678abcdefull;
static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static char out[1 << 16], out2[1 << 16], err[256];

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
    { "\"%a\" double:1.5", "col 13: expected a hex float" },
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
}

/* ---------------------------------------------------------------- decoder */

/* Independent check that every conversion of an ISO/kernel format has an
 * argument of exactly its type: returns 0 or a message. */
static const char *check_types(const struct scn_case *c, int kern, int nofloat)
{
    int want[SCN_CASE_MAX_ARGS], wn[SCN_CASE_MAX_ARGS];
    int n = 0, positional = -1;
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) want[i] = -1;
    const char *p = c->fmt;
    while (*p) {
        if (*p++ != '%') continue;
        if (*p == '%') { p++; continue; }
        int pos = 0;
        const char *q = p;
        while (*q >= '0' && *q <= '9') pos = pos * 10 + (*q++ - '0');
        int is_pos = q > p && *q == '$';
        if (positional < 0) positional = is_pos;
        if (positional != is_pos) return "mixed positional and sequential";
        if (is_pos) p = q + 1;
        while (*p && strchr("-+ #0", *p)) p++;
#define ARG(T, NT)                                                             \
        do {                                                                   \
            int k_ = is_pos ? ap - 1 : n++;                                    \
            if (k_ < 0 || k_ >= SCN_CASE_MAX_ARGS) return "argument index out of range"; \
            if (want[k_] >= 0 && (want[k_] != (T) || wn[k_] != (NT))) return "a position used with two types"; \
            want[k_] = (T); wn[k_] = (NT);                                     \
        } while (0)
        int ap = 0;
        if (*p == '*') {
            p++;
            if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
            ARG(SCN_ARG_INT, 0);
        } else {
            int w = 0;
            while (*p >= '0' && *p <= '9') w = w * 10 + (*p++ - '0');
            if (w > SCN_DECODE_MAX_WIDTH) return "width too large";
        }
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                ap = 0;
                if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
                ARG(SCN_ARG_INT, 0);
            } else {
                int w = 0;
                while (*p >= '0' && *p <= '9') w = w * 10 + (*p++ - '0');
                if (w > SCN_DECODE_MAX_WIDTH) return "precision too large";
            }
        }
        char len[4] = {0};
        int li = 0;
        while (*p && strchr("hljztLw0123456789", *p) && li < 3) len[li++] = *p++;
        char cv = *p ? *p++ : 0;
        ap = pos;
        int sg = cv == 'd' || cv == 'i';
        int T = -1, NT = 0;
        if (strchr("diouxXbB", cv) && cv) {
            if (!strcmp(len, "l") || !strcmp(len, "w64")) T = sg ? SCN_ARG_LONG : SCN_ARG_ULONG;
            else if (!strcmp(len, "ll")) T = sg ? SCN_ARG_LLONG : SCN_ARG_ULLONG;
            else if (!strcmp(len, "j")) T = sg ? SCN_ARG_INTMAX : SCN_ARG_UINTMAX;
            else if (!strcmp(len, "z")) T = sg ? SCN_ARG_SSIZE : SCN_ARG_SIZE;
            else if (!strcmp(len, "t")) T = SCN_ARG_PTRDIFF;
            else if (!*len || !strcmp(len, "h") || !strcmp(len, "hh") || !strcmp(len, "w8") || !strcmp(len, "w16") ||
                     !strcmp(len, "w32")) T = sg ? SCN_ARG_INT : SCN_ARG_UINT;
            else return "bad integer length";
        } else if (cv && strchr("aAeEfFgG", cv)) {
            if (kern || nofloat) return "float in kernel dialect or with NO_FLOAT";
            T = !strcmp(len, "L") ? SCN_ARG_LDOUBLE : SCN_ARG_DOUBLE;
        } else if (cv == 'c') {
            T = !strcmp(len, "l") ? SCN_ARG_WINT : SCN_ARG_INT;
        } else if (cv == 's') {
            T = !strcmp(len, "l") ? SCN_ARG_WSTR : SCN_ARG_STR;
        } else if (cv == 'p') {
            T = SCN_ARG_PTR;
            if (kern) {
                if (*p == 'x') p++;
                if ((*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')) return "kernel %p followed by alnum";
            }
        } else if (cv == 'n') {
            if (kern) return "%n in kernel dialect";
            static const char *const nl[] = { "", "hh", "h", "l", "ll", "j", "z", "t" };
            static const int nt[] = { SCN_N_INT, SCN_N_SCHAR, SCN_N_SHORT, SCN_N_LONG, SCN_N_LLONG, SCN_N_INTMAX, SCN_N_SIZE, SCN_N_PTRDIFF };
            for (int i = 0; i < 8; i++) if (!strcmp(len, nl[i])) { T = SCN_ARG_N; NT = nt[i]; }
            if (T < 0) return "bad %n length";
        } else {
            return "unknown conversion";
        }
        if (kern && (is_pos || !strcmp(len, "j") || (strchr("cs", cv) && *len))) return "not kernel";
        ARG(T, NT);
    }
    int max = 0;
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) if (want[i] >= 0) max = i + 1;
    if (positional <= 0) max = n;
    if ((size_t)max != c->nargs) return "argument count differs";
    for (int i = 0; i < max; i++) {
        if (want[i] < 0) return "gap in positions";
        if (c->args[i].type != want[i]) return "argument type differs";
        if (want[i] == SCN_ARG_N && c->args[i].ntype != wn[i]) return "%n type differs";
    }
    return NULL;
}

static void test_decoder(void)
{
    unsigned char data[512];
    static const unsigned flagsets[] = { 0, SCN_DECODE_C23, SCN_DECODE_NO_FLOAT | SCN_DECODE_NO_N, SCN_DECODE_NO_POSITIONAL };
    int nonempty = 0, positional = 0, withargs = 0;
    for (int it = 0; it < 6000; it++) {
        size_t n = rnd() % sizeof data;
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        int kern = it % 3 == 0;
        unsigned fl = flagsets[it % 4];
        scn_case_from_bytes(data, n, &C, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, fl);
        CHECK(strlen(C.fmt) == C.fmt_len, "decoded format has a NUL byte");
        const char *why = check_types(&C, kern, (fl & SCN_DECODE_NO_FLOAT) != 0);
        scn_case_format(&C, out, sizeof out);
        CHECK(why == NULL, "decoded case not well-typed (%s): %s", why, out);
        if (why) break;
        nonempty += C.fmt_len > 0;
        withargs += C.nargs > 3;
        positional += strchr(C.fmt, '$') != NULL;
        /* text round trip: decode -> text -> model -> text */
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "decoded case does not parse: %s: %s", err, out);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "decoded round trip:\n  %s\n  %s", out, out2);
        /* glibc (2.36: no wN) can run every ISO case (and ASan/UBSan watch the va_list) */
        if (!kern && !(fl & SCN_DECODE_C23)) {
            if (getenv("SCN_TEST_VERBOSE")) fprintf(stderr, "%s\n", out);
            char buf[256];
            int r = scn_case_call(vsnprintf, &C, buf, sizeof buf);
            CHECK(r >= -1, "glibc ret %d", r);
        }
        /* deterministic */
        scn_case_from_bytes(data, n, &C2, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, fl);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "decoding is not deterministic");
    }
    CHECK(nonempty > 5000 && withargs > 1000 && positional > 300, "decoder variety: %d nonempty, %d with >3 args, %d positional",
          nonempty, withargs, positional);
    /* robust mode: garbage allowed but the arguments still match the conversions glibc sees */
    int garbage = 0;
    for (int it = 0; it < 3000; it++) {
        size_t n = rnd() % 256;
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        scn_case_from_bytes(data, n, &C, it & 1 ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, SCN_DECODE_ROBUST);
        garbage += check_types(&C, it & 1, 0) != NULL;
        scn_case_format(&C, out, sizeof out);
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "robust case does not parse: %s", err);
    }
    CHECK(garbage > 300, "robust mode produced garbage only %d times", garbage);
    /* a one-byte change to a literal-run byte changes only that literal */
    unsigned char a[] = { 0x00, 0x03, 'a', 'b', 'c', 'd', 0x4b, 0x00, 0x00, 0x05 }; /* 0x4b % 25 = 0: 'd' */
    scn_case_from_bytes(a, sizeof a, &C, SCN_DIALECT_ISO, 0);
    CHECK(!strcmp(C.fmt, "abcd%d") && C.nargs == 1 && C.args[0].v.i == 5, "grammar example: %s", C.fmt);
    /* conversion 'd', fb 0x21 = '-' + literal width, pb 0x01 = literal precision,
     * width 10 (2 bytes, little-endian), precision 3, value byte 0xfe = -2 */
    unsigned char a2[] = { 0x00, 0x4b, 0x21, 0x01, 0x0a, 0x00, 0x03, 0x00, 0xfe };
    scn_case_from_bytes(a2, sizeof a2, &C, SCN_DIALECT_ISO, 0);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, "\"%-10.3d\" int:-2"), "grammar example 2: %s", out);
    unsigned char a3[] = { 0x00, 0x4b, 0x20, 0x00, 0x05, 0x01, 0x07 }; /* width 0x105 = 261 */
    scn_case_from_bytes(a3, sizeof a3, &C, SCN_DIALECT_ISO, 0);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, "\"%261d\" int:7"), "grammar example 3: %s", out);
}

/* ---------------------------------------------------------------- oracles */

static int good_scn(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (r < 0) { if (size) buf[0] = 0; return 0; }
    if ((size_t)r < size) return r;
    return size ? (int)size - 1 : 0;
}
static int bug_wouldbe(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap); /* returns the would-be length */
}
static int bug_size(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if ((size_t)r < size) return r;
    return (int)size; /* size instead of size - 1 */
}
static int bug_nul0(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (size == 0) { buf[0] = 0; return 0; } /* writes a NUL at size 0 */
    return good_scn(buf, size, fmt, ap);
}
static int bug_overrun(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size) buf[size] = 0; /* one past the end */
    return r;
}
static int bug_exactfit(char *buf, size_t size, const char *fmt, va_list ap)
{
    char tmp[4096];
    int full = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (size == 0) return 0;
    size_t n = (size_t)full < size - 1 ? (size_t)full : size - 1;
    memcpy(buf, tmp, n);
    if ((size_t)full != size - 1) buf[n] = 0; /* forgets the NUL at an exact fit */
    return (int)n;
}
static int bug_underrun(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    if (size > 3) buf[-1] = 'U';
    return r;
}
static int bug_c99_trunc(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    return size && (size_t)r >= size ? (int)size - 1 : r; /* C99 family returning the truncated length */
}
static int bug_c99_garbage_tail(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (size > 2 && (size_t)r >= size) buf[size / 2] = '#';
    return r;
}
static int flaky_n;
static int bug_flaky(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = good_scn(buf, size, fmt, ap);
    return ++flaky_n == 6 ? r - 1 : r; /* the 6th call (the repeat) returns another value */
}

static const char *run_oracles(scn_vprintf_fn c99, scn_vprintf_fn scn, const char *text, unsigned flags,
                               struct scn_report *r)
{
    static struct scn_oracle_ctx x;
    static int inited;
    if (!inited) {
        CHECK(scn_oracle_init(&x) == 0, "oracle init");
        inited = 1;
    }
    struct scn_target t = { .name = "test", .dialect = SCN_DIALECT_ISO, .vsnprintf = c99, .vscnprintf = scn };
    CHECK(scn_case_parse(text, strlen(text), &C, err, sizeof err) == 0, "%s", err);
    size_t n = scn_check_case(&x, &t, &C, flags, r);
    return n ? r->first.oracle : NULL;
}

static void test_oracles(void)
{
    scn_oracle_set_catch_faults(1); /* catch the guard-page faults even under ASan */
    struct scn_report r;
    static const char *const cases[] = { "\"hello, %s! %d\" str:\"world\" int:42", "\"%5d|%-3s|%c\" int:7 str:\"ab\" int:65",
                                         "\"\"", "\"%.40f\" double:0x1p-3" };
    for (size_t i = 0; i < 4; i++) {
        for (unsigned f = 0; f < 2; f++) {
            const char *o = run_oracles(vsnprintf, good_scn, cases[i], f ? SCN_CHECK_ALL_SIZES : 0, &r);
            CHECK(o == NULL, "correct implementation flagged by %s (%s) on %s", o, r.first.detail, cases[i]);
            o = run_oracles(vsnprintf, NULL, cases[i], f ? SCN_CHECK_ALL_SIZES : 0, &r);
            CHECK(o == NULL, "canonical wrapper flagged by %s on %s", o, cases[i]);
        }
    }
    CHECK(r.full_ret == 42 && r.full_len == 42 && r.calls > 40, "report: full %d, %zu calls", r.full_ret, r.calls);
    const char *t = "\"hello, %s! %d\" str:\"world\" int:42";
    struct { scn_vprintf_fn c99, scn; const char *want, *want2; } b[] = {
        { vsnprintf, bug_wouldbe, "scn.size0-ret0", NULL },
        { vsnprintf, bug_size, "scn.ret-le-size-1", NULL },
        { vsnprintf, bug_nul0, "size0-untouched", NULL },
        { vsnprintf, bug_overrun, "overrun", NULL },
        { vsnprintf, bug_exactfit, "scn.ret-eq-strlen", NULL },
        { vsnprintf, bug_underrun, "underrun", NULL },
        { bug_c99_trunc, good_scn, "c99.ret-full-length", NULL },
        { bug_c99_garbage_tail, good_scn, "c99.prefix", NULL },
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        for (unsigned f = 0; f < 2; f++) {
            const char *o = run_oracles(b[i].c99, b[i].scn, t, f ? SCN_CHECK_ALL_SIZES : 0, &r);
            CHECK(o && !strcmp(o, b[i].want), "bug %zu (%s): oracle %s", i, b[i].want, o ? o : "none");
            if (o) {
                CHECK(!strcmp(r.first.klass, !strcmp(o, "overrun") || !strcmp(o, "underrun") || !strcmp(o, "size0-untouched")
                                                 ? "memory-safety" : "invariant"), "class %s of %s", r.first.klass, o);
                char j[2048];
                scn_finding_json(&r.first, j, sizeof j);
                CHECK(strstr(j, "\"oracle\":\"") && strstr(j, o), "json %s", j);
            }
        }
    }
    /* bug_size is only visible when the output is truncated */
    const char *o = run_oracles(vsnprintf, bug_size, t, SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && r.first.size > 0 && r.first.size <= 43 && r.first.ret == (long)r.first.size, "bug_size finding at size %zu ret %ld",
          r.first.size, r.first.ret);
    /* repeatable: sizes 0..4 make 5 scn calls, the 6th repeats size 4 */
    flaky_n = 0;
    o = run_oracles(vsnprintf, bug_flaky, "\"abc\"", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o && !strcmp(o, "repeatable"), "flaky: %s", o ? o : "none");
    /* errors: glibc fails on %ls with a non-ASCII code point in the C locale */
    o = run_oracles(vsnprintf, NULL, "\"a%lsb\" wstr:\"\\u{e9}\"", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o == NULL && r.full_ret < 0, "error case: %s ret %d", o ? o : "none", r.full_ret);
    /* %n consistency: a vsnprintf whose %n counts only the stored bytes */
    o = run_oracles(vsnprintf, NULL, "\"abcdef%n\" n:int", SCN_CHECK_ALL_SIZES, &r);
    CHECK(o == NULL && r.nn == 1 && r.n[0] == 6, "n values: %s %lld", o ? o : "", r.n[0]);
}

/* ---------------------------------------------------------------- registry */

static int call_scn(const struct scn_target *t, char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = scn_target_vscnprintf(t, buf, size, fmt, ap);
    va_end(ap);
    return r;
}

static void test_registry(void)
{
    const char *names[] = { "ref", "ref-kernel", "glibc" };
    size_t n = 0;
    for (const struct scn_target *const *t = scn_targets(); *t; t++) n++;
    CHECK(n >= 3, "%zu targets", n);
    for (int i = 0; i < 3; i++) {
        const struct scn_target *t = scn_target_find(names[i]);
        CHECK(t && !strcmp(t->name, names[i]) && t->vsnprintf && t->version && t->version()[0], "target %s", names[i]);
    }
    CHECK(scn_target_find("nope") == NULL, "unknown target found");
    CHECK(scn_target_find("ref-kernel")->dialect == SCN_DIALECT_KERNEL && scn_target_find("glibc")->dialect == SCN_DIALECT_ISO,
          "dialects");
    const struct scn_target *g = scn_target_find("glibc");
    CHECK(g->vscnprintf == NULL && !strncmp(g->version(), "glibc 2.", 8), "glibc target: %s", g->version());
    char buf[8] = "XXXXXXX";
    CHECK(call_scn(g, buf, 3, "%s", "hello") == 2 && !strcmp(buf, "he"), "canonical wrapper truncation: %s", buf);
    CHECK(call_scn(g, buf, 8, "%s", "hello") == 5 && !strcmp(buf, "hello"), "canonical wrapper fit");
    memcpy(buf, "XXXXXXX", 8);
    CHECK(call_scn(g, buf, 0, "%s", "hello") == 0 && buf[0] == 'X', "canonical wrapper size 0");
    CHECK(call_scn(g, buf, 8, "a%lsb", L"\xe9") == 0 && buf[0] == 0, "canonical wrapper on error: ret 0 and \"\"");
    /* ref-kernel through the registry: the kernel dialect stops at %f */
    CHECK(call_scn(scn_target_find("ref-kernel"), buf, 8, "ab%fcd", 1.0) == 2 && !strcmp(buf, "ab"), "ref-kernel: %s", buf);
}

int main(void)
{
    test_roundtrip();
    test_parse_errors();
    test_mutated_texts();
    test_float_text();
    test_call();
    test_decoder();
    test_oracles();
    test_registry();
    return check_summary("test_case_model");
}
