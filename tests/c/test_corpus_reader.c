/* Tests of the conformance corpus line reader (core/case/corpus.c,
 * docs/CASE_FORMAT.md "Conformance corpus lines"): comments and blank
 * lines, the six fields, the expectations ("-", "!err", a quoted output
 * with n= values) and their canonical text, each malformed line refused
 * with the field and column, and every line of the shipped corpus read
 * and printed back to its own text. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "case.h"

#ifndef SCN_TEST_CORPUS_DIR
#error "SCN_TEST_CORPUS_DIR (the corpus/ directory of the source tree) must be defined"
#endif

static struct scn_corpus_entry E;
static char err[400];

static int line(const char *s)
{
    err[0] = 0;
    return scn_corpus_parse_line(s, strlen(s), &E, err, sizeof err);
}

static void test_lines(void)
{
    /* comments and blank lines */
    CHECK(line("") == 0 && line("# comment") == 0 && line("  \t # indented comment") == 0 && line(" \t ") == 0 &&
              line("\r") == 0,
          "a comment or blank line is not 0");

    /* a case line: every field */
    const char *l = "int.d\t\"%-5d|\" int:42\t\"42   |\"\t-\tstd\tC17 7.21.6.1p8 (d)";
    CHECK(line(l) == 1, "valid line: %s", err);
    CHECK(!strcmp(E.category, "int.d") && !strcmp(E.kind, "std") && !strcmp(E.citation, "C17 7.21.6.1p8 (d)"),
          "fields: %s %s %s", E.category, E.kind, E.citation);
    CHECK(E.case_text == l + 6 && E.case_len == strlen("\"%-5d|\" int:42"), "case text: %.*s", (int)E.case_len,
          E.case_text);
    CHECK(E.c.nargs == 1 && E.c.args[0].type == SCN_ARG_INT && E.c.args[0].v.i == 42 && !strcmp(E.c.fmt, "%-5d|"),
          "case model");
    CHECK(E.iso.kind == SCN_EXPECT_OUTPUT && E.iso.len == 6 && !memcmp(E.iso.bytes, "42   |", 7) && E.iso.nn == 0,
          "iso expectation");
    CHECK(E.kernel.kind == SCN_EXPECT_NONE, "kernel '-'");

    /* CR LF, impl, !err, bytes with escapes and NUL, n= values */
    l = "n\t\"ab%n\\x00%n\" n:int n:llong\t\"a\\tb\\x00c\" n=2,-3\t!err\timpl\tPOSIX fprintf\r";
    CHECK(line(l) == 1, "second line: %s", err);
    CHECK(!strcmp(E.kind, "impl") && !strcmp(E.citation, "POSIX fprintf"), "CR not stripped: '%s'", E.citation);
    CHECK(E.iso.kind == SCN_EXPECT_OUTPUT && E.iso.len == 5 && !memcmp(E.iso.bytes, "a\tb\0c", 5) && E.iso.nn == 2 &&
              E.iso.n[0] == 2 && E.iso.n[1] == -3,
          "iso: %zu bytes, %zu n", E.iso.len, E.iso.nn);
    CHECK(E.kernel.kind == SCN_EXPECT_ERR, "kernel !err");
    /* an empty citation is allowed (the field is there) */
    CHECK(line("c\t\"x\"\t\"x\"\t\"x\"\tstd\t") == 1 && E.citation[0] == 0, "empty citation: %s", err);
    /* a long citation is kept to the struct's size, NUL-terminated */
    {
        static char t[2000];
        int n = snprintf(t, sizeof t, "c\t\"x\"\t\"x\"\t-\tstd\t");
        memset(t + n, 'q', 600);
        t[n + 600] = 0;
        CHECK(line(t) == 1 && strlen(E.citation) == sizeof E.citation - 1 && E.citation[0] == 'q', "long citation");
    }
    /* 63 bytes of category fit, 64 do not */
    {
        char t[300];
        snprintf(t, sizeof t, "%s\t\"x\"\t\"x\"\t-\tstd\tC", "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc");
        CHECK(line(t) == 1 && strlen(E.category) == 63, "63-byte category: %s", err);
        snprintf(t, sizeof t, "%s\t\"x\"\t\"x\"\t-\tstd\tC", "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc");
        CHECK(line(t) == -1 && strstr(err, "field 1"), "64-byte category: %s", err);
    }
    /* the n= values: up to one per argument of a case */
    {
        char t[600];
        int n = snprintf(t, sizeof t, "c\t\"x\"\t\"\" n=");
        for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) n += snprintf(t + n, sizeof t - (size_t)n, "%s%d", i ? "," : "", i);
        snprintf(t + n, sizeof t - (size_t)n, "\t-\tstd\tC");
        CHECK(line(t) == 1 && E.iso.nn == SCN_CASE_MAX_ARGS && E.iso.n[31] == 31, "32 n= values: %s", err);
        n = snprintf(t, sizeof t, "c\t\"x\"\t\"\" n=");
        for (int i = 0; i <= SCN_CASE_MAX_ARGS; i++) n += snprintf(t + n, sizeof t - (size_t)n, "%s%d", i ? "," : "", i);
        snprintf(t + n, sizeof t - (size_t)n, "\t-\tstd\tC");
        CHECK(line(t) == -1 && strstr(err, "field 3") && strstr(err, "too many"), "33 n= values: %s", err);
        CHECK(line("c\t\"x\"\t\"\" n=9223372036854775807\t-\tstd\tC") == 1 && E.iso.n[0] == LLONG_MAX, "LLONG_MAX: %s",
              err);
    }
}

/* malformed lines: -1 and "field F ... col N: ..." */
static void test_errors(void)
{
    static const struct { const char *line, *want1, *want2; } bad[] = {
        { "c\t\"x\"\t\"x\"\t-\tstd", "expected 6 tab-separated fields", "got 5" },
        { "c\t\"x\"\t\"x\"\t-\tstd\tC\textra", "expected 6 tab-separated fields", "got 7" },
        { "\t\"x\"\t\"x\"\t-\tstd\tC", "field 1", NULL },
        { "c\t\"x\"\t\"x\"\t-\tStd\tC", "field 5 (kind) col 13", "std or impl" },
        { "c\t\"x\"\t\"x\"\t-\t\tC", "field 5 (kind) col 13", NULL },
        { "c\t\"%d\" int:x\t\"x\"\t-\tstd\tC", "field 2 (case, from line col 3) col 10", "decimal" },
        { "c\t%d\t\"x\"\t-\tstd\tC", "field 2 (case, from line col 3) col 1", NULL },
        { "c\t\"x\"\tx\t-\tstd\tC", "field 3 (iso) col 1", "expected a quoted output, !err or -" },
        { "c\t\"x\"\t\t-\tstd\tC", "field 3 (iso) col 1", NULL },
        { "c\t\"x\"\t\"x\"\t!error\tstd\tC", "field 4 (kernel) col 1", NULL },
        { "c\t\"x\"\t\"x\"\t--\tstd\tC", "field 4 (kernel)", NULL },
        { "c\t\"x\"\t\"x\\q\"\t-\tstd\tC", "field 3 (iso) col 3", "escape" },
        { "c\t\"x\"\t\"x\" n=\t-\tstd\tC", "field 3 (iso) col 7", "%n value" },
        { "c\t\"x\"\t\"x\" n=1,\t-\tstd\tC", "field 3 (iso) col 9", "%n value" },
        { "c\t\"x\"\t\"x\" n=1x\t-\tstd\tC", "field 3 (iso) col 8", "','" },
        { "c\t\"x\"\t\"x\"n=1\t-\tstd\tC", "field 3 (iso) col 4", "n=" },
        { "c\t\"x\"\t\"x\" m=1\t-\tstd\tC", "field 3 (iso) col 4", "n=" },
        { "c\t\"x\"\t\"x\" n=12345678901234567890\t-\tstd\tC", "field 3 (iso)", NULL }, /* 20 digits */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int r = line(bad[i].line);
        CHECK(r == -1 && strstr(err, bad[i].want1) && (!bad[i].want2 || strstr(err, bad[i].want2)),
              "line %zu <%s>: %d '%s' (want '%s', '%s')", i, bad[i].line, r, err, bad[i].want1,
              bad[i].want2 ? bad[i].want2 : "");
    }

    /* n= values: the range of long long (what a %n can store), LLONG_MIN read
     * exactly (not by negating 2^63 as a long long), one more either way
     * refused with its column */
    CHECK(line("c\t\"x\"\t\"\" n=-9223372036854775808,9223372036854775807\t-\tstd\tC") == 1 &&
              E.iso.nn == 2 && E.iso.n[0] == LLONG_MIN && E.iso.n[1] == LLONG_MAX,
          "LLONG_MIN, LLONG_MAX: %s", err);
    CHECK(line("c\t\"x\"\t\"\" n=-0,00000000000000000000042\t-\tstd\tC") == 1 && E.iso.n[0] == 0 &&
              E.iso.n[1] == 42,
          "-0 and leading zeros: %s", err);
    static const struct { const char *line, *want; } range[] = {
        { "c\t\"x\"\t\"\" n=9223372036854775808\t-\tstd\tC", "field 3 (iso) col 6: %n value out of range (max 9223372036854775807)" },
        { "c\t\"x\"\t\"\" n=-9223372036854775809\t-\tstd\tC", "field 3 (iso) col 6: %n value out of range (min -9223372036854775808)" },
        { "c\t\"x\"\t\"\" n=1,18446744073709551616\t-\tstd\tC", "field 3 (iso) col 8: %n value out of range" },
        { "c\t\"x\"\t\"x\"\t\"\" n=99999999999999999999999\tstd\tC", "field 4 (kernel) col 6: %n value out of range" },
    };
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
        int r = line(range[i].line);
        CHECK(r == -1 && strstr(err, range[i].want), "<%s>: %d '%s' (want '%s')", range[i].line, r, err,
              range[i].want);
    }
}

/* scn_expect_format: the canonical text of an expectation */
static void test_expect_format(void)
{
    static const char *const canon[] = { "-", "!err", "\"\"", "\"a\\tb\\x00\\\\\\\"\\xff\"", "\"abc\" n=3",
                                         "\"\" n=0,-1,9223372036854775807" };
    char t[300], out[300];
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        snprintf(t, sizeof t, "c\t\"x\"\t%s\t-\tstd\tC", canon[i]);
        CHECK(line(t) == 1, "%s: %s", canon[i], err);
        size_t n = scn_expect_format(&E.iso, out, sizeof out);
        CHECK(n == strlen(canon[i]) && !strcmp(out, canon[i]), "printed %s as %s", canon[i], out);
        /* the full length whatever fits */
        char small[3] = "XX";
        CHECK(scn_expect_format(&E.iso, small, sizeof small) == n && small[sizeof small - 1] == 0 &&
                  !strncmp(small, canon[i], strlen(small)),
              "truncated %s: %s", canon[i], small);
    }
}

/* every line of the shipped corpus: read, and printed back to itself */
static void test_shipped_corpus(void)
{
    DIR *d = opendir(SCN_TEST_CORPUS_DIR);
    CHECK(d != NULL, "cannot open %s", SCN_TEST_CORPUS_DIR);
    if (!d) return;
    static char buf[1 << 20], t[SCN_EXPECT_MAX * 4 + 16];
    size_t files = 0, cases = 0, bad = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t nl = strlen(de->d_name);
        if (nl < 5 || strcmp(de->d_name + nl - 4, ".tsv")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", SCN_TEST_CORPUS_DIR, de->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL, "cannot open %s", path);
        if (!f) continue;
        files++;
        size_t lineno = 0;
        while (fgets(buf, sizeof buf, f)) {
            lineno++;
            size_t n = strlen(buf);
            if (n && buf[n - 1] == '\n') buf[--n] = 0;
            int r = scn_corpus_parse_line(buf, n, &E, err, sizeof err);
            if (r < 0) {
                if (bad++ < 5) CHECK(0, "%s:%zu: %s", path, lineno, err);
                continue;
            }
            if (r == 0) continue;
            cases++;
            /* the case field is the case's canonical text */
            size_t k = scn_case_format(&E.c, t, sizeof t);
            int same = k == E.case_len && !memcmp(t, E.case_text, k);
            /* the expectation fields are their canonical text */
            const char *f3 = E.case_text + E.case_len + 1, *f4 = strchr(f3, '\t') + 1;
            size_t l3 = (size_t)(f4 - 1 - f3), l4 = strcspn(f4, "\t");
            k = scn_expect_format(&E.iso, t, sizeof t);
            same &= k == l3 && !memcmp(t, f3, k);
            k = scn_expect_format(&E.kernel, t, sizeof t);
            same &= k == l4 && !memcmp(t, f4, k);
            if (!same && bad++ < 5) CHECK(0, "%s:%zu: not printed back to itself: %.200s", path, lineno, buf);
        }
        fclose(f);
    }
    closedir(d);
    CHECK(bad == 0, "%zu lines of the corpus bad", bad);
    CHECK(files >= 5 && cases > 5000, "the corpus: %zu files, %zu cases", files, cases);
}

int main(void)
{
    test_lines();
    test_errors();
    test_expect_format();
    test_shipped_corpus();
    return check_summary("test_corpus_reader");
}
