/* Tests of the rules (oracles/rules.c): the allowance / known-bug tables
 * (loading from text, files and the environment, and every way a table is
 * refused with its line), the embedded tables being the shipped files, and
 * the one pattern language: each term of the header of allowances.tsv
 * matching what it documents and nothing else, '&', dialects, target lists,
 * and the order in which scn_rule_find tries the rules. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "check_case.h"
#include "case.h"
#include "rule_outputs.h"
#include "rules.h"
#include "spec.h"

#ifndef SCN_TEST_ORACLES_DIR
#error "SCN_TEST_ORACLES_DIR (the oracles/ directory of the source tree) must be defined"
#endif

static char err[400];

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 18];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

/* A temporary file (in the test's working directory) holding text. */
static void temp_file(char *path, size_t cap, const char *text)
{
    snprintf(path, cap, "test_rules_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        perror("temporary file");
        exit(2);
    }
    close(fd);
}

/* ---------------------------------------------------------------- the environment */

/* In a child (the tables are read at the first use, once per process):
 * env var name = file, then scn_rules_count(). Returns the exit status
 * (the count, or what the process exited with) and its stderr in out. */
static int child_count(const char *env, const char *path, char *out, size_t cap)
{
    int p[2];
    if (pipe(p)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        dup2(p[1], 2);
        unsetenv("SCN_ALLOWANCES");
        unsetenv("SCN_KNOWN_BUGS");
        setenv(env, path, 1);
        size_t n = scn_rules_count();
        _exit(n > 100 ? 100 : (int)n);
    }
    close(p[1]);
    size_t k = 0;
    ssize_t r;
    while (k + 1 < cap && (r = read(p[0], out + k, cap - 1 - k)) > 0) k += (size_t)r;
    out[k] = 0;
    close(p[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_environment(void)
{
    char good[64], bad[64], msg[1000];
    temp_file(good, sizeof good, "# mine\none\tiso\tconv=p\t*\tC\ntwo\t*\tconv=s&arg=null\t*\tC\n");
    temp_file(bad, sizeof bad, "one\tiso\tconv=p\t*\tC\ntwo\tiso\tconv=pp&nonsense\t*\tC\n");
    /* the embedded known bugs + the file's 2 allowances */
    size_t kb = 0;
    {
        size_t len;
        char *t = slurp(SCN_TEST_ORACLES_DIR "/known_bugs.tsv", &len);
        for (char *l = t; l && *l;) {
            char *e = strchr(l, '\n');
            if (*l != '#' && *l != '\n' && *l != '\r') kb++;
            l = e ? e + 1 : l + strlen(l);
        }
    }
    int st = child_count("SCN_ALLOWANCES", good, msg, sizeof msg);
    CHECK(st == (int)(kb + 2 > 100 ? 100 : kb + 2), "SCN_ALLOWANCES=good: status %d (%s)", st, msg);
    /* a broken table is a set-up error: exit 2, naming the file and the line */
    st = child_count("SCN_ALLOWANCES", bad, msg, sizeof msg);
    CHECK(st == 2 && strstr(msg, bad) && strstr(msg, "line 2") && strstr(msg, "nonsense"),
          "SCN_ALLOWANCES=bad: status %d, message '%s'", st, msg);
    st = child_count("SCN_KNOWN_BUGS", bad, msg, sizeof msg); /* 5 columns where 8 are expected */
    CHECK(st == 2 && strstr(msg, bad) && strstr(msg, "line 1"), "SCN_KNOWN_BUGS=bad: status %d, message '%s'", st, msg);
    st = child_count("SCN_KNOWN_BUGS", "/nonexistent/kb.tsv", msg, sizeof msg);
    CHECK(st == 2 && strstr(msg, "/nonexistent/kb.tsv"), "SCN_KNOWN_BUGS missing: status %d, message '%s'", st, msg);
    unlink(good);
    unlink(bad);
}

/* ---------------------------------------------------------------- the embedded tables */

/* The ids of a shipped table's entries, in order, one per line of ids. */
static size_t table_ids(const char *path, char ids[][48], size_t max)
{
    size_t len, n = 0;
    char *t = slurp(path, &len);
    CHECK(t != NULL, "cannot read %s", path);
    for (char *l = t; t && *l && n < max;) {
        char *e = strchr(l, '\n');
        size_t ll = e ? (size_t)(e - l) : strlen(l);
        if (ll && *l != '#' && *l != '\r') {
            size_t k = strcspn(l, "\t");
            snprintf(ids[n++], 48, "%.*s", (int)k, l);
        }
        l = e ? e + 1 : l + ll;
    }
    return n;
}

static void test_embedded(void)
{
    static char ids[800][48];
    size_t na = table_ids(SCN_TEST_ORACLES_DIR "/allowances.tsv", ids, 400);
    size_t nk = table_ids(SCN_TEST_ORACLES_DIR "/known_bugs.tsv", ids + na, 400);
    CHECK(na > 0 && nk > 0, "shipped tables: %zu allowances, %zu known bugs", na, nk);
    CHECK(scn_rules_count() == na + nk, "%zu rules embedded, the files have %zu + %zu", scn_rules_count(), na, nk);
    for (size_t i = 0; i < na + nk && i < scn_rules_count(); i++) {
        const struct scn_rule *r = scn_rule_at(i);
        CHECK(!strcmp(r->id, ids[i]), "rule %zu: embedded %s, file %s", i, r->id, ids[i]);
        CHECK((r->kind == SCN_RULE_ALLOWANCE) == (i < na), "rule %s: kind %d", r->id, r->kind);
        if (r->kind != SCN_RULE_ALLOWANCE) {
            CHECK(r->reproducer[0] && r->versions[0], "known bug %s without reproducer or versions", r->id);
            /* the signature's target is one of the entry's */
            const char *t = strrchr(r->signature, ':');
            char one[64];
            snprintf(one, sizeof one, ",%s,", t ? t + 1 : "");
            char list[sizeof r->targets + 2];
            snprintf(list, sizeof list, ",%s,", r->targets);
            CHECK(t && strstr(list, one), "known bug %s: signature '%s', targets %s", r->id, r->signature, r->targets);
        }
        CHECK(r->citation[0] && r->pattern[0] && r->targets[0], "rule %s: an empty field", r->id);
    }
    CHECK(scn_rule_at(na + nk) == NULL, "past the end");
}

/* ---------------------------------------------------------------- loading */

static void test_loading(void)
{
    /* comments, blank lines and CR LF line ends; the fields of an entry */
    const char *allow = "# comment\n"
                        "\n"
                        "a1\tiso\tconv=p\t*\tcite one\r\n"
                        "a2\tkernel\tconv=s&arg=null\tglibc,musl\tcite two\n"
                        "a3\t*\twhole&ret<0\t*\tcite three"; /* no newline at the end */
    unsigned g0 = scn_rules_generation();
    CHECK(scn_allowances_load(allow, strlen(allow), err, sizeof err) == 3, "allowances: %s", err);
    CHECK(scn_rules_generation() != g0, "the generation did not change");
    const char *kbt = "k1\tbug\tiso\tflag=+\tplus\tplus 1.0\t\"%+d\" int:0\tupstream #1\n"
                      "k2\tgap\t*\tlen=w\tglibc\tglibc 2.36\t\"%w8d\" int:1\tdifferential:%w8d:glibc\tC23\n";
    CHECK(scn_known_bugs_load(kbt, strlen(kbt), err, sizeof err) == 2, "known bugs: %s", err);
    CHECK(scn_rules_count() == 5, "%zu rules", scn_rules_count());
    CHECK(!scn_rule_at(3)->signature[0] && !strcmp(scn_rule_at(4)->signature, "differential:%w8d:glibc") &&
              !strcmp(scn_rule_at(4)->citation, "C23"),
          "signature column: '%s' '%s' '%s'", scn_rule_at(3)->signature, scn_rule_at(4)->signature,
          scn_rule_at(4)->citation);
    const struct scn_rule *r = scn_rule_at(0);
    CHECK(!strcmp(r->id, "a1") && r->kind == SCN_RULE_ALLOWANCE && r->dialect == SCN_DIALECT_ISO &&
              !strcmp(r->pattern, "conv=p") && !strcmp(r->targets, "*") && !strcmp(r->citation, "cite one"),
          "a1: %s %d %s %s '%s'", r->id, r->dialect, r->pattern, r->targets, r->citation);
    r = scn_rule_at(1);
    CHECK(r->dialect == SCN_DIALECT_KERNEL && !strcmp(r->targets, "glibc,musl"), "a2");
    r = scn_rule_at(2);
    CHECK(r->dialect == -1 && !strcmp(r->citation, "cite three"), "a3: '%s'", r->citation);
    r = scn_rule_at(3);
    CHECK(!strcmp(r->id, "k1") && r->kind == SCN_RULE_KNOWN_BUG && !strcmp(r->versions, "plus 1.0") &&
              !strcmp(r->reproducer, "\"%+d\" int:0") && !strcmp(r->citation, "upstream #1"),
          "k1: %d %s %s %s", r->kind, r->versions, r->reproducer, r->citation);
    r = scn_rule_at(4);
    CHECK(r->kind == SCN_RULE_KNOWN_GAP && r->dialect == -1, "k2");
    CHECK(scn_rule_at(5) == NULL, "past the end");
    CHECK(!strcmp(scn_rule_kind_name(SCN_RULE_ALLOWANCE), "allowance") &&
              !strcmp(scn_rule_kind_name(SCN_RULE_KNOWN_BUG), "known-bug") &&
              !strcmp(scn_rule_kind_name(SCN_RULE_KNOWN_GAP), "known-gap"),
          "kind names");
    CHECK(!strcmp(scn_rule_classification(SCN_RULE_ALLOWANCE), "implementation-defined") &&
              !strcmp(scn_rule_classification(SCN_RULE_KNOWN_BUG), "known-bug") &&
              !strcmp(scn_rule_classification(SCN_RULE_KNOWN_GAP), "known-gap"),
          "classifications");

    /* every valid term is accepted */
    static const char *const terms[] = {
        "conv=a|A|La", "arg=null", "arg=nan", "arg=nonascii", "arg=zero", "flag=-", "flag=+", "flag= ", "flag=#",
        "flag=0", "prec", "noprec", "spec=invalid", "whole", "ret<0", "hexvalue", "positional", "width<0",
        "sharedarg", "len=w|-|hh", "argpos>9", "argpos>12", "conv=d&flag=-&prec", "width>325", "prec>0",
        "conv=f&width>325", "oracle=scn.size0-ret0", "oracle=expect.n|n-consistent", "size=0", "size=17",
        "digitsonly", "nanform", "pspelling", "fraczeros", "signdropped", "prec<0",
    };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        char t[200];
        snprintf(t, sizeof t, "x\tiso\t%s\t*\tC\n", terms[i]);
        CHECK(scn_allowances_load(t, strlen(t), err, sizeof err) == 1, "term '%s' refused: %s", terms[i], err);
    }

    /* refused tables: -1 and "line N: ..." naming the problem; the table in
     * place stays as it was */
    CHECK(scn_allowances_load(allow, strlen(allow), err, sizeof err) == 3, "%s", err);
    unsigned g1 = scn_rules_generation();
    static const struct { int known; const char *text, *want1, *want2; } bad[] = {
        { 0, "ok\tiso\tconv=p\t*\tC\nshort\tiso\tconv=p\t*\n", "line 2", "fields" },
        { 0, "ok\tiso\tconv=p\t*\tC\n# c\n\nshort\tiso\tconv=p\n", "line 4", "fields" },
        { 0, "e\tiso\t\t*\tC\n", "line 1", "empty" },
        { 0, "d\tmars\tconv=p\t*\tC\n", "line 1", "dialect" },
        { 0, "u\tiso\tconv=p&bogus=1\t*\tC\n", "line 1", "bogus=1" },
        { 0, "u\tiso\tconv=\t*\tC\n", "line 1", "conv=" },
        { 0, "u\tiso\tflag=x\t*\tC\n", "line 1", "flag=x" },
        { 0, "u\tiso\tflag=--\t*\tC\n", "line 1", "flag=--" },
        { 0, "u\tiso\targpos>\t*\tC\n", "line 1", "argpos>" },
        { 0, "u\tiso\targpos>9x\t*\tC\n", "line 1", "argpos>9x" },
        { 0, "u\tiso\twidth>\t*\tC\n", "line 1", "width>" },
        { 0, "u\tiso\twidth>-1\t*\tC\n", "line 1", "width>-1" },
        { 0, "u\tiso\tprec>\t*\tC\n", "line 1", "prec>" },
        { 0, "u\tiso\tprec>3x\t*\tC\n", "line 1", "prec>3x" },
        { 0, "u\tiso\tPREC\t*\tC\n", "line 1", "PREC" },
        { 0, "same\tiso\tconv=p\t*\tC\nsame\tiso\tconv=s\t*\tC\n", "line 2", "same" },
        { 0, "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii\tiso\tconv=p\t*\tC\n", "line 1", "id" },
        { 1, "k\tmaybe\tiso\tflag=+\tplus\tv\tr\tc\n", "line 1", "kind" },
        { 1, "k\tbug\tiso\tflag=+\tplus\n", "line 1", "fields" },
        { 1, "k\tbug\tiso\tflag=+\tplus\tv\t\tc\n", "line 1", "empty" },
        { 1, "k\tbug\tiso\tflag=+\tplus\tv\tr\tdifferential:%d\tc\n", "line 1", "signature" },
        { 1, "k\tbug\tiso\tflag=+\tplus\tv\tr\t:%d:plus\tc\n", "line 1", "signature" },
        { 1, "k\tbug\tiso\tflag=+\tplus\tv\tr\tdifferential::plus\tc\n", "line 1", "signature" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        const char *t = bad[i].text;
        int n = bad[i].known ? scn_known_bugs_load(t, strlen(t), err, sizeof err)
                             : scn_allowances_load(t, strlen(t), err, sizeof err);
        CHECK(n == -1 && !strncmp(err, bad[i].want1, strlen(bad[i].want1)) && err[strlen(bad[i].want1)] == ':' &&
                  (!bad[i].want2 || strstr(err, bad[i].want2)),
              "table %zu accepted (%d) or message '%s' (want '%s', '%s')", i, n, err, bad[i].want1,
              bad[i].want2 ? bad[i].want2 : "");
    }
    CHECK(scn_rules_count() == 5 && !strcmp(scn_rule_at(0)->id, "a1") && !strcmp(scn_rule_at(3)->id, "k1"),
          "a refused table changed the rules: %zu, %s", scn_rules_count(), scn_rule_at(0)->id);
    CHECK(scn_rules_generation() == g1, "a refused table changed the generation");

    /* files: loaded like text; a missing or broken one names the path */
    char path[64];
    temp_file(path, sizeof path, "f1\tiso\tconv=p\t*\tC\nf2\tiso\tconv=s\t*\tC\n");
    CHECK(scn_allowances_load_file(path, err, sizeof err) == 2 && !strcmp(scn_rule_at(1)->id, "f2"), "file: %s", err);
    unlink(path);
    temp_file(path, sizeof path, "k\tbug\tiso\tflag=+\tplus\tv\tr\tc\nk2\tbug\tiso\tflag=?\tplus\tv\tr\tc\n");
    CHECK(scn_known_bugs_load_file(path, err, sizeof err) == -1 && strstr(err, path) && strstr(err, "line 2"),
          "broken file: %s", err);
    unlink(path);
    CHECK(scn_known_bugs_load_file("/nonexistent/x.tsv", err, sizeof err) == -1 && strstr(err, "/nonexistent/x.tsv"),
          "missing file: %s", err);
    /* an empty table is a table */
    CHECK(scn_known_bugs_load("", 0, err, sizeof err) == 0 && scn_rules_count() == 2, "empty: %zu", scn_rules_count());
}

/* ---------------------------------------------------------------- matching */

/* Whether pattern (an allowance for targets "*" of dialect rd, -1: "*")
 * matches specification `which` of the case (its text as written and its
 * value argument; -1: the whole case), with these outputs. */
static int matches_out(const char *pattern, int rd, enum scn_dialect d, const char *text, int which, int ret_a,
                       int ret_b, const char *oa, const char *ob)
{
    struct scn_rule r = { .id = "t", .kind = SCN_RULE_ALLOWANCE, .dialect = rd, .targets = "*" };
    snprintf(r.pattern, sizeof r.pattern, "%s", pattern);
    struct scn_case *c = parse(text);
    static struct scn_spec sp[SCN_MAX_SPECS];
    char spec[64] = "";
    const struct scn_arg *val = NULL;
    if (which >= 0) {
        size_t n = scn_scan_specs(c, d, sp, SCN_MAX_SPECS);
        if ((size_t)which >= n) {
            fprintf(stderr, "%s has no specification %d\n", text, which);
            exit(2);
        }
        snprintf(spec, sizeof spec, "%.*s", (int)(sp[which].end - sp[which].start), c->fmt + sp[which].start);
        if (sp[which].varg >= 0) val = &c->args[sp[which].varg];
    }
    return scn_rule_matches(&r, d, which >= 0 ? spec : NULL, val, c, "ta", "tb", ret_a, ret_b,
                            (const unsigned char *)oa, oa ? strlen(oa) : 0, (const unsigned char *)ob,
                            ob ? strlen(ob) : 0);
}

static int matches(const char *pattern, const char *text, int which)
{
    return matches_out(pattern, -1, SCN_DIALECT_ISO, text, which, 1, 1, "x", "x");
}

/* The same through the table and scn_rule_find, with the culprit as the
 * specification scanner gives it (so '*' widths keep their arguments). */
static int finds(const char *pattern, const char *text, int which)
{
    char t[300];
    snprintf(t, sizeof t, "t\t*\t%s\t*\tC\n", pattern);
    if (scn_allowances_load(t, strlen(t), err, sizeof err) != 1) {
        fprintf(stderr, "pattern %s: %s\n", pattern, err);
        exit(2);
    }
    struct scn_case *c = parse(text);
    static struct scn_spec sp[SCN_MAX_SPECS];
    scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    struct scn_culprit k = { .s = which >= 0 ? &sp[which] : NULL, .ret_a = 1, .ret_b = 1,
                             .oa = (const unsigned char *)"x", .ob = (const unsigned char *)"x", .la = 1, .lb = 1 };
    return scn_rule_find(SCN_DIALECT_ISO, c, &k, "ta", "tb") == 0;
}

/* One output-comparing term (hexvalue, nanform, ...) on each row: the
 * case's first specification with outputs oa and ob (their lengths the
 * returns); a row without text is of the case `text`. */
struct output_row { const char *text, *oa, *ob; int want; };

static void check_output_term(const char *pattern, const char *text, const struct output_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *t = rows[i].text ? rows[i].text : text;
        int got = matches_out(pattern, -1, SCN_DIALECT_ISO, t, 0, (int)strlen(rows[i].oa), (int)strlen(rows[i].ob),
                              rows[i].oa, rows[i].ob);
        CHECK(got == rows[i].want, "%s %s: '%s' '%s': %d, want %d", pattern, t, rows[i].oa, rows[i].ob, got,
              rows[i].want);
    }
}

static void test_spec_terms(void)
{
    static const struct { const char *pattern, *text; int which, want; } m[] = {
        /* conv=: a bare letter any length, with a length exactly that one */
        { "conv=a|A", "\"%a\" double:0x1p+0", 0, 1 },
        { "conv=a|A", "\"%LA\" ldouble:0x8p-3", 0, 1 },
        { "conv=a|A", "\"%e\" double:0x1p+0", 0, 0 },
        { "conv=La", "\"%La\" ldouble:0x8p-3", 0, 1 },
        { "conv=La", "\"%a\" double:0x1p+0", 0, 0 },
        { "conv=lc|ls", "\"%lc\" wint:65", 0, 1 },
        { "conv=lc|ls", "\"%c\" int:65", 0, 0 },
        { "conv=d", "\"%s%d\" str:\"x\" int:1", 1, 1 },
        { "conv=d", "\"%s%d\" str:\"x\" int:1", 0, 0 },
        { "conv=d", "\"%y\"", 0, 0 }, /* an invalid specification has no conversion */
        /* flag=C */
        { "flag=-", "\"%-5d\" int:1", 0, 1 },
        { "flag=-", "\"%5d\" int:1", 0, 0 },
        { "flag=+", "\"%+d\" int:1", 0, 1 },
        { "flag= ", "\"% d\" int:1", 0, 1 },
        { "flag= ", "\"%+d\" int:1", 0, 0 },
        { "flag=#", "\"%#x\" uint:1", 0, 1 },
        { "flag=0", "\"%05d\" int:1", 0, 1 },
        { "flag=0", "\"%50d\" int:1", 0, 0 }, /* a width is not the 0 flag */
        /* arg= */
        { "arg=null", "\"%s\" str:NULL", 0, 1 },
        { "arg=null", "\"%s\" str:\"\"", 0, 0 },
        { "arg=null", "\"%p\" ptr:NULL", 0, 1 },
        { "arg=null", "\"%p\" ptr:0x1", 0, 0 },
        { "arg=nan", "\"%f\" double:nan", 0, 1 },
        { "arg=nan", "\"%f\" double:-nan", 0, 1 },
        { "arg=nan", "\"%Lf\" ldouble:nan", 0, 1 },
        { "arg=nan", "\"%f\" double:inf", 0, 0 },
        { "arg=nonascii", "\"%lc\" wint:233", 0, 1 },
        { "arg=nonascii", "\"%lc\" wint:127", 0, 0 },
        { "arg=nonascii", "\"%ls\" wstr:\"caf\\u{e9}\"", 0, 1 },
        { "arg=nonascii", "\"%ls\" wstr:\"cafe\"", 0, 0 },
        { "arg=nonascii", "\"%s\" str:\"caf\\xe9\"", 0, 0 }, /* bytes are not code points */
        { "arg=nonascii", "\"%c\" int:200", 0, 1 },
        { "arg=nonascii", "\"%c\" int:321", 0, 1 }, /* the int, not only its byte ('A') */
        { "arg=nonascii", "\"%c\" int:-1", 0, 1 },
        { "arg=nonascii", "\"%c\" int:65", 0, 0 },
        { "arg=negative", "\"%f\" double:-0x1p+0", 0, 1 },
        { "arg=negative", "\"%f\" double:-0x0p+0", 0, 1 },
        { "arg=negative", "\"%Lf\" ldouble:-0x8p-3", 0, 1 },
        { "arg=negative", "\"%f\" double:0x1p+0", 0, 0 },
        { "arg=negative", "\"%d\" int:-1", 0, 1 },
        { "arg=negative", "\"%lld\" llong:-5", 0, 1 },
        { "arg=negative", "\"%u\" uint:4294967295", 0, 0 }, /* unsigned: no sign */
        { "narrows", "\"%hhd\" int:300", 0, 1 },
        { "narrows", "\"%hhd\" int:-128", 0, 0 },
        { "narrows", "\"%hhd\" int:128", 0, 1 },
        { "narrows", "\"%hhu\" uint:255", 0, 0 },
        { "narrows", "\"%hhu\" uint:256", 0, 1 },
        { "narrows", "\"%hhx\" int:-1", 0, 1 },  /* -1 is not an unsigned char */
        { "narrows", "\"%hd\" int:40000", 0, 1 },
        { "narrows", "\"%hd\" int:-32768", 0, 0 },
        { "narrows", "\"%hu\" uint:65535", 0, 0 },
        { "narrows", "\"%d\" int:300", 0, 0 },    /* no narrowing */
        { "narrows", "\"%hhn\" n:schar", 0, 1 },   /* the store's width */
        { "narrows", "\"%n\" n:int", 0, 0 },
        { "arg=min", "\"%d\" int:-2147483648", 0, 1 },
        { "arg=min", "\"%d\" int:-2147483647", 0, 0 },
        { "arg=min", "\"%ld\" long:-9223372036854775808", 0, 1 },
        { "arg=min", "\"%u\" uint:2147483648", 0, 0 }, /* unsigned: no minimum to negate */
        { "arg=zero", "\"%d\" int:0", 0, 1 },
        { "arg=zero", "\"%lu\" ulong:0", 0, 1 },
        { "arg=zero", "\"%lc\" wint:0", 0, 1 },
        { "arg=zero", "\"%d\" int:1", 0, 0 },
        { "arg=zero", "\"%f\" double:0x0p+0", 0, 0 }, /* an integer or wint_t 0 only */
        /* precision */
        { "prec", "\"%.3f\" double:0x1p+0", 0, 1 },
        { "prec", "\"%.f\" double:0x1p+0", 0, 1 },
        { "prec", "\"%f\" double:0x1p+0", 0, 0 },
        { "noprec", "\"%f\" double:0x1p+0", 0, 1 },
        { "noprec", "\"%.0f\" double:0x1p+0", 0, 0 },
        /* spec=invalid, whole */
        { "spec=invalid", "\"%d%y\" int:1", 1, 1 },
        { "spec=invalid", "\"%d%y\" int:1", 0, 0 },
        { "whole", "\"%d\" int:1", -1, 1 },
        { "whole", "\"%d\" int:1", 0, 0 },
        /* positional */
        { "positional", "\"%1$d\" int:1", 0, 1 },
        { "positional", "\"%d\" int:1", 0, 0 },
        /* len= */
        { "len=hh|h", "\"%hhd\" int:1", 0, 1 },
        { "len=hh|h", "\"%hd\" int:1", 0, 1 },
        { "len=hh|h", "\"%d\" int:1", 0, 0 },
        { "len=hh|h", "\"%ld\" long:1", 0, 0 },
        { "len=-", "\"%d\" int:1", 0, 1 },
        { "len=-", "\"%ld\" long:1", 0, 0 },
        { "len=w", "\"%w16d\" int:1", 0, 1 },
        { "len=w", "\"%wf32d\" int:1", 0, 1 },
        { "len=w", "\"%ld\" long:1", 0, 0 },
        { "len=l", "\"%lld\" llong:1", 0, 0 },
        /* whole-case terms */
        { "sharedarg", "\"%1$d %1$d\" int:3", -1, 1 },
        { "sharedarg", "\"%1$*1$d\" int:3", -1, 1 }, /* width and value of one */
        { "sharedarg", "\"%1$d %2$d\" int:1 int:2", -1, 0 },
        { "sharedarg", "\"%1$d %1$d\" int:3", 0, 0 }, /* a culprit: not the whole case */
        { "argpos>9", "\"%10$d\" int:1 int:2 int:3 int:4 int:5 int:6 int:7 int:8 int:9 int:10", -1, 1 },
        { "argpos>10", "\"%10$d\" int:1 int:2 int:3 int:4 int:5 int:6 int:7 int:8 int:9 int:10", -1, 0 },
        { "argpos>1", "\"%1$*2$d\" int:1 int:2", -1, 1 }, /* a width's position counts */
        { "argpos>0", "\"%d\" int:1", -1, 0 },
        /* width>N, prec>N: literal values (the '*' forms below) */
        { "width>325", "\"%326f\" double:0x0p+0", 0, 1 },
        { "width>325", "\"%325f\" double:0x0p+0", 0, 0 },
        { "width>325", "\"%f\" double:0x0p+0", 0, 0 },
        { "width>325", "\"%.400f\" double:0x0p+0", 0, 0 }, /* a precision is no width */
        { "prec>325", "\"%.326d\" int:1", 0, 1 },
        { "prec>325", "\"%.325d\" int:1", 0, 0 },
        { "prec>325", "\"%400d\" int:1", 0, 0 },
        { "prec>0", "\"%d\" int:1", 0, 0 }, /* no precision */
        { "conv=f&width>10", "\"%11f\" double:0x0p+0", 0, 1 },
        { "conv=f&width>10", "\"%11d\" int:1", 0, 0 },
        /* '&': every term */
        { "conv=d&flag=-", "\"%-d\" int:1", 0, 1 },
        { "conv=d&flag=-", "\"%-x\" uint:1", 0, 0 },
        { "conv=d&flag=-", "\"%d\" int:1", 0, 0 },
        { "conv=f&arg=nan&prec", "\"%.1f\" double:nan", 0, 1 },
        { "conv=f&arg=nan&prec", "\"%f\" double:nan", 0, 0 },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        int got = matches(m[i].pattern, m[i].text, m[i].which);
        CHECK(got == m[i].want, "%s on %s (spec %d): %d, want %d", m[i].pattern, m[i].text, m[i].which, got, m[i].want);
        got = finds(m[i].pattern, m[i].text, m[i].which);
        CHECK(got == m[i].want, "table: %s on %s (spec %d): %d, want %d", m[i].pattern, m[i].text, m[i].which, got,
              m[i].want);
    }
}

/* Terms on a '*' argument, on the returns, and the dialects. */
static void test_argument_terms(void)
{
    /* width<0 needs the '*' argument: the culprit as scanned */
    CHECK(finds("width<0", "\"%*d\" int:-5 int:1", 0), "width<0 of -5");
    CHECK(!finds("width<0", "\"%*d\" int:5 int:1", 0), "width<0 of 5");
    CHECK(!finds("width<0", "\"%-5d\" int:1", 0), "width<0 of a literal");
    CHECK(finds("width<0&positional", "\"%1$*2$d\" int:1 int:-3", 0), "width<0, positional");
    CHECK(finds("prec", "\"%.*f\" int:2 double:0x1p+0", 0), "prec from '*'");
    CHECK(finds("width>9", "\"%*d\" int:10 int:1", 0), "width>9 of * 10");
    CHECK(finds("width>9", "\"%*d\" int:-10 int:1", 0), "width>9 of * -10 (its absolute value)");
    CHECK(!finds("width>9", "\"%*d\" int:9 int:1", 0), "width>9 of * 9");
    CHECK(finds("width>9&positional", "\"%1$*2$d\" int:1 int:-12", 0), "width>9 of *2$ -12");
    CHECK(finds("prec>9", "\"%.*f\" int:10 double:0x1p+0", 0), "prec>9 of * 10");
    CHECK(!finds("prec>9", "\"%.*f\" int:9 double:0x1p+0", 0), "prec>9 of * 9");
    CHECK(!finds("prec>0", "\"%.*f\" int:-10 double:0x1p+0", 0), "prec>0 of * -10 (no precision)");
    CHECK(finds("prec<0", "\"%.*f\" int:-10 double:0x1p+0", 0), "prec<0 of * -10");
    CHECK(!finds("prec<0", "\"%.*f\" int:0 double:0x1p+0", 0), "prec<0 of * 0");
    CHECK(!finds("prec<0", "\"%.3f\" double:0x1p+0", 0), "prec<0 of a literal");
    CHECK(finds("prec<0&positional", "\"%1$.*2$d\" int:1 int:-3", 0), "prec<0, positional");

    /* ret<0: both calls failed */
    CHECK(matches_out("ret<0", -1, SCN_DIALECT_ISO, "\"%d\" int:1", -1, -1, -1, "", ""), "ret<0 both");
    CHECK(!matches_out("ret<0", -1, SCN_DIALECT_ISO, "\"%d\" int:1", -1, -1, 1, "", "1"), "ret<0 one");

    /* dialects: a rule of one dialect does not apply to the other; "*" to both */
    CHECK(matches_out("conv=d", SCN_DIALECT_ISO, SCN_DIALECT_ISO, "\"%d\" int:1", 0, 1, 1, "x", "x"), "iso on iso");
    CHECK(!matches_out("conv=d", SCN_DIALECT_ISO, SCN_DIALECT_KERNEL, "\"%d\" int:1", 0, 1, 1, "x", "x"),
          "iso on kernel");
    CHECK(!matches_out("conv=d", SCN_DIALECT_KERNEL, SCN_DIALECT_ISO, "\"%d\" int:1", 0, 1, 1, "x", "x"),
          "kernel on iso");
    CHECK(matches_out("conv=d", -1, SCN_DIALECT_KERNEL, "\"%d\" int:1", 0, 1, 1, "x", "x"), "* on kernel");
}

static void test_hexvalue_nanform_pspelling(void)
{
    /* hexvalue: both outputs are the argument's value as a hexadecimal
     * float, at any normalisation, exact without a precision, correctly
     * rounded with one, laid out in the field as the flags say */
    static const struct output_row h[] = {
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0xcp-3", 1 },
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0xc.0p-3", 0 },       /* a zero the value does not need */
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0x1.800000p+0", 0 },  /* stb's six digits */
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0x3p-1", 1 },
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0x1p+0", 0 },     /* another value */
        { "\"%a\" double:0x1.8p+0", "0x1.8p+0", "1.5", 0 },        /* not hexadecimal */
        { "\"%a\" double:-0x1.8p+0", "-0x1.8p+0", "0x1.8p+0", 0 }, /* the sign */
        { "\"%.1a\" double:0x1.8p+0", "0x1.8p+0", "0xc.0p-3", 1 },
        { "\"%.0a\" double:0x1.9p+0", "0x2p+0", "0x1p+0", 0 },     /* 1 is not 1.5625 to 0 digits */
        { "\"%.1La\" ldouble:0xcp-3", "0x1.8p+0", "0x1.0p+0", 0 },
        { "\"%10a\" double:0x1.8p+0", "  0x1.8p+0", "    0xcp-3", 1 },
        { "\"%10a\" double:0x1.8p+0", "  0x1.8p+0", "0x1.8p+0  ", 0 }, /* padded on the wrong side */
        { "\"%-10a\" double:0x1.8p+0", "0x1.8p+0  ", "0xcp-3    ", 1 },
        { "\"%010a\" double:0x1.8p+0", "0x001.8p+0", "0x0000cp-3", 1 },
        { "\"%a\" double:nan", "nan", "nan", 0 },                  /* not a number: no value to compare */
        /* what C17 7.21.6.1p8 fixes is not excused: the letters' case */
        { "\"%A\" double:0x1.ap+0", "0X1.AP+0", "0XDP-3", 1 },
        { "\"%A\" double:0x1.ap+0", "0X1.AP+0", "0x1.ap+0", 0 },
        { "\"%A\" double:0x1.ap+0", "0X1.AP+0", "0X1.ap+0", 0 },
        { "\"%a\" double:0x1.ap+0", "0x1.ap+0", "0x1.Ap+0", 0 },
        { "\"%a\" double:0x1.ap+0", "0x1.ap+0", "0x1.aP+0", 0 },
        /* a precision: exactly that many digits, correctly rounded (a tie to
         * the even digit) at the output's own normalisation */
        { "\"%.1a\" double:0x1.08p+0", "0x1.0p+0", "0x8.4p-3", 1 },   /* the other normalisation, exact */
        { "\"%.1a\" double:0x1.08p+0", "0x1.0p+0", "0x2.1p-1", 1 },
        { "\"%.1a\" double:0x1.08p+0", "0x1.0p+0", "0x1.08p+0", 0 },  /* not cut: unrounded */
        { "\"%.1a\" double:0x1.08p+0", "0x1.0p+0", "0x1.1p+0", 0 },   /* the tie to the odd digit */
        { "\"%.1a\" double:0x1.09p+0", "0x1.1p+0", "0x1.0p+0", 0 },   /* past the tie, cut down */
        { "\"%.1a\" double:0x1.f8p+0", "0x2.0p+0", "0x1.0p+1", 1 },   /* the carry, either way */
        { "\"%.2a\" double:0x1.8p+0", "0x1.80p+0", "0x1.8p+0", 0 },  /* a digit short */
        { "\"%.0a\" double:0x1.8p+0", "0x2p+0", "0x1.p+0", 0 },      /* a point with no digit and no # */
        { "\"%#.0a\" double:0x1.8p+0", "0x2.p+0", "0x2p+0", 0 },     /* # keeps the point */
        { "\"%a\" double:0x1p+0", "0x1p+0", "0x1.p+0", 0 },
        /* the sign and the exponent's form */
        { "\"%+a\" double:0x1p+0", "+0x1p+0", "+0x2p-1", 1 },
        { "\"%a\" double:0x1p+0", "0x1p+0", "+0x1p+0", 0 },
        { "\"% a\" double:0x1p+0", " 0x1p+0", " 0x8p-3", 1 },
        { "\"%a\" double:0x1p+0", "0x1p+0", "0x1p0", 0 },
        { "\"%a\" double:0x1p+0", "0x1p+0", "0x1p+00", 0 },
        /* the leading digit: nonzero for a normalized argument, free for a subnormal one; 0's exponent 0 */
        { "\"%a\" double:0x1p+0", "0x1p+0", "0x0.8p+1", 0 },
        { "\"%a\" double:0x0.0000000000001p-1022", "0x0.0000000000001p-1022", "0x1p-1074", 1 },
        { "\"%a\" double:0x0p+0", "0x0p+0", "0x0p+0", 1 },
        { "\"%a\" double:0x0p+0", "0x0p+0", "0x0p+1", 0 },
        /* the field: zeros only with the 0 flag, padding only up to the width */
        { "\"%10a\" double:0x1p+0", "    0x1p+0", "0x00001p+0", 0 },
        { "\"%010a\" double:0x0p+0", "0x00000p+0", "0x00000p+0", 1 },
        { "\"%8a\" double:0x1p+0", "  0x1p+0", "   0x1p+0", 0 },
        { "\"%-8a\" double:0x1p+0", "0x1p+0  ", "0x1p+0 ", 0 },
    };
    check_output_term("hexvalue", NULL, h, sizeof h / sizeof h[0]);
    /* nothing after a NUL: the output is its bytes, not a C string */
    struct scn_hex_want one = { .v = 1.0L, .normal = 1, .conv = 'a', .prec = -1, .w = 8, .flags = 0 };
    CHECK(!scn_out_hex_ok((const unsigned char *)"0x1p+0\0\0", 8, &one), "hexvalue: NUL padding");
    CHECK(scn_out_hex_ok((const unsigned char *)"  0x1p+0", 8, &one), "hexvalue: space padding");
    CHECK(!matches_out("hexvalue", -1, SCN_DIALECT_ISO, "\"%a\" double:0x1.8p+0", 0, -1, 8, "0x1.8p+0", "0x1.8p+0"),
          "hexvalue with a failed call");

    /* nanform: the NaN's spelling only, with its sign and in its field */
    static const struct output_row nf[] = {
        { "\"%f\" double:nan", "nan", "nan", 1 },
        { "\"%f\" double:nan", "nan", "nan(0x8000000000000)", 1 },
        { "\"%f\" double:nan", "nan", "-nan", 0 },              /* a positive NaN */
        { "\"%f\" double:-nan", "-nan", "-nan(_1a)", 1 },
        { "\"%f\" double:-nan", "-nan", "nan", 0 },             /* the sign dropped (musl before 2014) */
        { "\"%F\" double:nan", "NAN", "NAN(1)", 1 },
        { "\"%F\" double:nan", "NAN", "nan", 0 },
        { "\"%e\" double:nan", "nan", "nan(a-b)", 0 },          /* not an n-char-sequence */
        { "\"%8f\" double:nan", "     nan", "     nan", 1 },
        { "\"%8f\" double:nan", "     nan", "nan     ", 0 },    /* padded on the wrong side */
        { "\"%8f\" double:nan", "     nan", "nan", 0 },         /* the width ignored */
        { "\"%-8f\" double:nan", "nan     ", "nan(1)  ", 1 },
        { "\"%08f\" double:nan", "     nan", "00000nan", 0 },   /* 0 has no effect on a NaN */
        { "\"%+f\" double:nan", "+nan", "+nan(1)", 1 },
        { "\"%+f\" double:nan", "+nan", "nan", 0 },
        { "\"% G\" double:-nan", "-NAN", "-NAN", 1 },
        { "\"% G\" double:nan", " NAN", "NAN", 0 },
        { "\"% f\" double:nan", " nan", " nan(1)", 1 },           /* the space flag's sign */
        { "\"% 6f\" double:nan", "   nan", "  nan", 0 },
        { "\"% -6f\" double:nan", " nan  ", " nan  ", 1 },
        { "\"%2f\" double:nan", "nan", "nan(1)", 1 },           /* wider than the field */
    };
    check_output_term("nanform", NULL, nf, sizeof nf / sizeof nf[0]);
    /* pspelling: the pointer's spelling only, the width and '-' applied */
    static const struct output_row ps[] = {
        { "\"%p\" ptr:NULL", "(nil)", "0", 1 },
        { "\"%8p\" ptr:NULL", "   (nil)", "       0", 1 },
        { "\"%8p\" ptr:NULL", "   (nil)", "(nil)   ", 0 },      /* left-justified without '-' (curl) */
        { "\"%20p\" ptr:0x1234", "              0x1234", "0x1234", 0 }, /* the width ignored (pgport) */
        { "\"%-8p\" ptr:NULL", "(nil)   ", "0       ", 1 },
        { "\"%-8p\" ptr:NULL", "(nil)   ", "       0", 0 },
        { "\"%3p\" ptr:0x1234", "0x1234", "1234", 1 },          /* wider than the field */
        { "\"%08p\" ptr:0x1234", "0x00001234", "    1234", 1 }, /* 0 with p: undefined, any layout */
        { "\"%.3p\" ptr:0x1234", "0x1234", "x", 1 },            /* a precision with p: undefined */
    };
    check_output_term("pspelling", NULL, ps, sizeof ps / sizeof ps[0]);
}

static void test_digitsonly_fraczeros_signdropped(void)
{
    /* digitsonly: the same layout, only digits differ, each a faithful
     * writing of the value (correctly rounded, a tie either way; digits that
     * read back as the value; 15 or more correctly rounded digits) */
    static const struct output_row dg[] = {
        { "\"%.30f\" double:0x1.999999999999ap-4", "0.100000000000000005551115123126",
          "0.100000000000000000000000000000", 1 },                  /* a shortest form: reads back as 0.1 */
        { "\"%e\" double:0x0.0000000000001p-1022", "4.940656e-324", "5.000000e-324", 1 },
        { "\"%.0f\" double:0x1.4p+1", "2", "3", 1 },              /* 2.5: a tie, either way */
        { "\"%.1f\" double:0x1p-2", "0.2", "0.3", 1 },            /* 0.25 */
        { "\"%.3e\" double:0x1.81c8p+13", "1.234e+04", "1.235e+04", 1 }, /* 12345 */
        { "\"%.0f\" double:0x1.ccccccccccccdp-2", "0", "1", 0 },  /* 0.45 to 1: a double rounding (picolibc #766) */
        { "\"%.20f\" double:0x1.3333333333334p-2", "0.30000000000000004441", "0.30000000000000000000", 1 }, /* 16 digits */
        { "\"%.20f\" double:0x1.3333333333334p-2", "0.30000000000000004441", "0.30000000000001000000", 0 },
        { "\"%f\" double:0x1p+0", "1.000000", "2.000000", 0 },
        { "\"%.3e\" double:0x1.4p+3", "1.000e+01", "1.000e+00", 0 }, /* a wrong exponent */
        { "\"%.17e\" double:0x1.52d02c7e14af6p+76", "9.99999999999999916e+22", "1.00000000000000000e+23", 1 },
        { "\"%11g\" double:0x0.0000000000001p-1022", "4.94066e-324", "     5e-324", 1 },
        { "\"%11g\" double:0x0.0000000000001p-1022", "4.94066e-324", "5e-324     ", 0 }, /* padded right */
        { "\"%-11g\" double:0x0.0000000000001p-1022", "4.94066e-324", "5e-324     ", 1 },
        { "\"%011g\" double:0x0.0000000000001p-1022", "4.94066e-324", "000005e-324", 0 },
        { "\"% .17G\" double:0x1.999999999999ap-4", " 0.10000000000000001", " 0.1", 1 },
        { "\"% .17G\" double:0x1.999999999999ap-4", " 0.10000000000000001", "0.1", 0 },  /* the sign */
        { "\"%10.3f\" double:0x1.8p+0", "     1.500", "1.500     ", 0 }, /* the padding */
        { "\"%010.3f\" double:0x1.8p+0", "000001.500", "000001.500", 1 },
        { "\"%.3f\" double:-0x1.8p+0", "-1.500", "-1.499", 0 },
        { "\"%f\" double:inf", "inf", "inf", 0 },                 /* no digits */
        { "\"%.17g\" double:0x1.999999999999ap-4", "0.10000000000000001", "0.1", 1 }, /* %g drops zeros */
        { "\"%G\" double:0x0.0000000000001p-1022", "4.94066E-324", "5E-324", 1 },
        { "\"%.17g\" double:0x1.999999999999ap-4", "0.10000000000000001", "0.2", 0 },
        { "\"%G\" double:0x0.0000000000001p-1022", "4.94066E-324", "5E-323", 0 },     /* the exponent */
        { "\"%#.17g\" double:0x1.999999999999ap-4", "0.10000000000000001", "0.1", 0 }, /* # keeps zeros */
        { "\"%25.17g\" double:0x1.999999999999ap-4", "      0.10000000000000001", "0.1", 0 },
        { "\"%25.17g\" double:0x1.999999999999ap-4", "      0.10000000000000001", "                      0.1", 1 },
        { "\"%f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392.000000",
          "100000000000000000000000.000000", 1 },                   /* 1e23's shortest digits carry */
        { "\"%f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392.000000",
          "100000000000000000000000.00000", 0 },                    /* a digit after the point lost */
        { "\"%e\" double:0x1.8p+0", "1.500000e+00", "1.50000e+00", 0 },
        { "\"%.40Lf\" ldouble:0xc.ccccccccccccccdp-7", "0.1000000000000000000013552527156068805425",
          "0.1000000000000000000013552527156068805400", 1 },        /* reads back as the long double */
    };
    check_output_term("digitsonly", NULL, dg, sizeof dg / sizeof dg[0]);

    /* fraczeros: %#g's carry, the zeros after the point dropped in style e */
    static const struct output_row fz[] = {
        { NULL, "1.00e+03", "1.e+03", 1 },
        { NULL, "1.e+06", "1.00000e+06", 1 },
        { NULL, "  1.00E+04", "    1.E+04", 1 },
        { NULL, "-1.0e+02", "-1.e+02", 1 },
        { NULL, "1.00e+03", "1.0e+03", 0 }, /* only some of the zeros */
        { NULL, "100.", "1.e+02", 0 },
        { NULL, "0000.00000", "   0.00000", 0 }, /* the zero padding: another bug */
        { NULL, "1.50e+03", "1.5e+03", 0 },
        { NULL, "1.00e+03", "1.e+04", 0 },
        /* the 0 flag's padding, both filling the field (glibc's "%#07.2G" of 99.99) */
        { NULL, "1.0E+02", "01.E+02", 1 },
        { NULL, "+01.0E+02", "+001.E+02", 1 },
        { NULL, "001.0E+02", "1.E+02", 0 },   /* a padding bug besides the carry */
        { NULL, "  1.0E+02", "1.E+02", 0 },
        { NULL, "-1.0E+02", "01.E+02", 0 },   /* the sign lost */
        /* the space flag's sign is no padding (glibc's "% #.2g" of 99.99997) */
        { "\"% #.2g\" double:0x1.8ffffep+6", " 1.0e+02", " 1.e+02", 1 },
        { "\"% #.2g\" double:0x1.8ffffep+6", "  1.0e+02", " 1.e+02", 0 }, /* a padding bug besides */
        { "\"% #6.2g\" double:0x1.8ffffep+6", " 1.0e+02", " 1.e+02", 1 },
    };
    check_output_term("fraczeros", "\"%#.3g\" double:0x1.f3cp+9", fz, sizeof fz / sizeof fz[0]);

    /* signdropped: a negative value written without its '-' */
    static const struct output_row sd[] = {
        { NULL, "-0.000000", "0.000000", 1 },
        { NULL, "  -0.0", "   0.0", 1 },
        { NULL, "0", "-0", 1 },
        { NULL, "-0.0", "-0.0 ", 0 },
        { NULL, "-1.5", "1.6", 0 },
        { NULL, "+0.0", "0.0", 0 },
        { NULL, "-", "", 0 },
        { NULL, "-0.000000", "+0.000000", 1 },
        { NULL, "-0000.000000", "00000.000000", 1 },
        { NULL, "-0.0", " 0.0", 1 },
        { NULL, "-1.5", "+1.50", 0 },
    };
    check_output_term("signdropped", "\"%f\" double:-0x0p+0", sd, sizeof sd / sizeof sd[0]);
}

/* Target lists and the order of scn_rule_find: an allowance needs both
 * targets listed, a known bug or gap one; allowances are tried first, then
 * the known bugs, each table in order. */
static void test_targets_and_order(void)
{
    struct scn_case *c = parse("\"%p\" ptr:NULL");
    static struct scn_spec sp[4];
    scn_scan_specs(c, SCN_DIALECT_ISO, sp, 4);
    struct scn_culprit k = { .s = &sp[0], .ret_a = 5, .ret_b = 1, .oa = (const unsigned char *)"(nil)",
                             .ob = (const unsigned char *)"0", .la = 5, .lb = 1 };
    const char *al = "p-all\tiso\tconv=p\tglibc,musl\tC\n";
    CHECK(scn_allowances_load(al, strlen(al), err, sizeof err) == 1, "%s", err);
    CHECK(scn_known_bugs_load("", 0, err, sizeof err) == 0, "%s", err);
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "glibc", "musl") == 0, "both listed");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "musl", "glibc") == 0, "both listed, other order");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "glibc", "ref") == -1, "an allowance with one target listed");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "glib", "musl") == -1, "a prefix of a name is not the name");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "glibc", "musl2") == -1, "a longer name is not the name");
    CHECK(scn_rule_find(SCN_DIALECT_KERNEL, c, &k, "glibc", "musl") == -1, "another dialect");

    const char *kb = "kb-musl\tbug\tiso\tconv=p\tmusl\tv\tr\tc\n"
                     "kb-any\tgap\t*\tconv=p\t*\tv\tr\tc\n";
    CHECK(scn_allowances_load("", 0, err, sizeof err) == 0, "%s", err);
    CHECK(scn_known_bugs_load(kb, strlen(kb), err, sizeof err) == 2, "%s", err);
    /* without every target's output, tb is the target checked, ta its expectation */
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "ref", "musl") == 0, "a known bug of the target checked");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "musl", "ref") == 1, "not of its expectation: the next rule");
    CHECK(scn_rule_find(SCN_DIALECT_ISO, c, &k, "ref", "glibc") == 1, "the next rule when the first does not apply");
    CHECK(scn_rule_find(SCN_DIALECT_KERNEL, c, &k, "ref", "glibc") == 1, "'*' dialect");

    /* allowances first, whatever the known bugs say */
    const char *al2 = "never\tiso\tconv=d\t*\tC\np-star\tiso\tconv=p\t*\tC\n";
    CHECK(scn_allowances_load(al2, strlen(al2), err, sizeof err) == 2, "%s", err);
    int i = scn_rule_find(SCN_DIALECT_ISO, c, &k, "ref", "musl");
    CHECK(i == 1 && !strcmp(scn_rule_at((size_t)i)->id, "p-star"), "allowance first: %d", i);
    /* a rule index names the rule scn_rule_at gives: known bugs after the allowances */
    CHECK(!strcmp(scn_rule_at(2)->id, "kb-musl") && !strcmp(scn_rule_at(3)->id, "kb-any"), "order");
}

/* Who is wrong (struct scn_blame): a known bug of a listed target applies
 * only when that target differs from the reference and no target the rule
 * does not list agrees with it; the oracle and size terms. */
static void test_blame_and_oracles(void)
{
    struct scn_case *c = parse("\"%d\" int:7");
    static struct scn_spec sp[4];
    scn_scan_specs(c, SCN_DIALECT_ISO, sp, 4);
    const char *kb = "kb-glibc\tbug\tiso\tconv=d\tglibc\tv\tr\tc\n"
                     "kb-pair\tbug\tiso\tconv=d\tglibc,musl\tv\tr\tc\n";
    CHECK(scn_allowances_load("", 0, err, sizeof err) == 0, "%s", err);
    CHECK(scn_known_bugs_load(kb, strlen(kb), err, sizeof err) == 2, "%s", err);
    static const char *const names[] = { "ref", "glibc", "musl", "trio" };
    static const struct { const char *out[4]; const char *ta, *tb; int want; const char *why; } b[] = {
        { { "7", "8", "7", "7" }, "ref", "glibc", 0, "glibc wrong alone" },
        { { "7", "8", "7", "7" }, "glibc", "musl", 0, "glibc wrong, musl right" },
        { { "8", "7", "7", "8" }, "ref", "glibc", 1, "glibc and musl against the reference and trio: the row listing both" },
        { { "8", "7", "7", "7" }, "ref", "glibc", -1, "the reference alone is wrong" },
        { { "7", "7", "8", "7" }, "ref", "musl", 1, "musl wrong, listed by kb-pair only" },
        { { "7", "8", "8", "7" }, "ref", "glibc", 1, "glibc and musl agree: not glibc's alone, the row listing both" },
        { { "7", "8", "8", "8" }, "ref", "glibc", -1, "trio, unlisted, prints what glibc prints" },
        { { "7", "8", "9", "7" }, "glibc", "musl", 0, "both wrong, differently: glibc's bug" },
        { { "7", "7", "9", "7" }, "glibc", "musl", 1, "glibc right: musl's (kb-pair)" },
        { { "7", "8", "7", "9" }, "glibc", "trio", 0, "an unlisted target wrong in its own way does not clear glibc" },
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        int ret[4];
        size_t len[4];
        const unsigned char *out[4];
        for (int t = 0; t < 4; t++) {
            out[t] = (const unsigned char *)b[i].out[t];
            len[t] = strlen(b[i].out[t]);
            ret[t] = (int)len[t];
        }
        struct scn_blame all = { 4, 0, names, ret, out, len, 0, NULL, NULL };
        size_t ia = 0, ib = 0;
        while (strcmp(names[ia], b[i].ta)) ia++;
        while (strcmp(names[ib], b[i].tb)) ib++;
        struct scn_culprit k = { .s = &sp[0], .ret_a = ret[ia], .ret_b = ret[ib], .oa = out[ia], .ob = out[ib],
                                 .la = len[ia], .lb = len[ib], .all = &all };
        int got = scn_rule_find(SCN_DIALECT_ISO, c, &k, b[i].ta, b[i].tb);
        int want = b[i].want < 0 ? -1 : b[i].want;
        CHECK(got == want, "%s (%s~%s): rule %d, want %d", b[i].why, b[i].ta, b[i].tb, got, want);
    }

    /* oracle= and size=: a rule that names no oracle explains output
     * differences only; a death only with dies */
    const char *ko = "k-any\tbug\tiso\tconv=d\tx\tv\tr\tc\n"
                     "k-n\tbug\tiso\tconv=d&oracle=n-consistent|expect.n\tx\tv\tr\tc\n"
                     "k-0\tbug\tiso\twhole&oracle=scn.size0-ret0&size=0\tx\tv\tr\tc\n"
                     "k-die\tbug\tiso\tconv=d&dies\tx\tv\tr\tc\n";
    CHECK(scn_known_bugs_load(ko, strlen(ko), err, sizeof err) == 4, "%s", err);
    static const struct { const char *oracle; int whole, sized; size_t size; int death, want; } o[] = {
        { NULL, 0, 0, 0, 0, 0 },               /* the differential */
        { "expect.output", 0, 0, 0, 0, 0 },
        { "expect.err", 0, 0, 0, 0, 0 },
        { "expect.n", 0, 0, 0, 0, 0 },         /* k-any first */
        { "n-consistent", 0, 0, 0, 0, 1 },     /* only the rule that names it */
        { "families-agree", 0, 0, 0, 0, -1 },  /* named by none */
        { "scn.size0-ret0", 1, 1, 0, 0, 2 },
        { "scn.size0-ret0", 1, 1, 1, 0, -1 },  /* another size */
        { "scn.size0-ret0", 1, 0, 0, 0, -1 },  /* a size not known */
        { "underrun", 1, 1, 0, 0, -1 },        /* another oracle at size 0 */
        { "crash", 0, 0, 0, 1, 3 },            /* a death: only dies */
    };
    for (size_t i = 0; i < sizeof o / sizeof o[0]; i++) {
        struct scn_culprit k = { .s = o[i].whole ? NULL : &sp[0], .death = o[i].death, .oracle = o[i].oracle,
                                 .sized = o[i].sized, .size = o[i].size };
        int got = scn_rule_find(SCN_DIALECT_ISO, c, &k, "x", "x");
        CHECK(got == o[i].want, "oracle %s size %d/%zu: rule %d, want %d", o[i].oracle ? o[i].oracle : "(diff)",
              o[i].sized, o[i].size, got, o[i].want);
    }
    static const char *const bad[] = { "oracle=", "oracle=|a", "oracle=a|", "oracle=a||b", "size=", "size=x",
                                       "size=-1", NULL };
    for (size_t i = 0; bad[i]; i++) {
        char t[200];
        snprintf(t, sizeof t, "x\tiso\t%s\t*\tC\n", bad[i]);
        CHECK(scn_allowances_load(t, strlen(t), err, sizeof err) < 0 && strstr(err, bad[i]), "term '%s' accepted: %s",
              bad[i], err);
    }
}

int main(void)
{
    unsetenv("SCN_ALLOWANCES"); /* the embedded tables */
    unsetenv("SCN_KNOWN_BUGS");
    /* first, while this process has read no table: the environment (in children) */
    test_environment();
    test_embedded();
    test_loading();
    test_spec_terms();
    test_argument_terms();
    test_hexvalue_nanform_pspelling();
    test_digitsonly_fraczeros_signdropped();
    test_targets_and_order();
    test_blame_and_oracles();
    return check_summary("test_rules");
}
