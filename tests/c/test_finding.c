/* Tests of the finding record and its writer (oracles/finding.c,
 * docs/FINDINGS.md): the members of a record, written to a file and checked
 * without a JSON parser (each member's text, and its string value decoded
 * back to the bytes it stands for); escaping of quotes, backslashes, control
 * bytes and bytes that are not UTF-8; one line per record, one write(2),
 * so that processes appending to one file never interleave; errors of the
 * write; the outputs of targets; the seen-first set (the process's and
 * one on the caller's slots). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "case.h"
#include "finding.h"
#include "oracle.h"
#include "rootcause.h"
#include "rules.h"

static struct scn_case *parse(const char *text, struct scn_case *c)
{
    char e[200];
    if (scn_case_parse(text, strlen(text), c, e, sizeof e)) {
        fprintf(stderr, "bad case %s: %s\n", text, e);
        exit(2);
    }
    return c;
}

/* The string value of member name in the JSON object j, decoded (\u00XX
 * standing for byte XX): its length, or -1 when the member is absent or its
 * value is not a valid JSON string of printable ASCII. */
static long member_string(const char *j, const char *name, unsigned char *out, size_t cap)
{
    char key[80];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *p = strstr(j, key);
    if (!p) return -1;
    p += strlen(key);
    size_t k = 0;
    for (; *p != '"'; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 0x20 || ch > 0x7e || k + 1 >= cap) return -1;
        if (ch != '\\') { out[k++] = ch; continue; }
        p++;
        switch (*p) {
        case '"': case '\\': case '/': out[k++] = (unsigned char)*p; break;
        case 'n': out[k++] = '\n'; break;
        case 't': out[k++] = '\t'; break;
        case 'r': out[k++] = '\r'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'u': {
            unsigned v = 0;
            for (int i = 1; i <= 4; i++) {
                char h = p[i];
                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) return -1;
                v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
            }
            if (v > 0xff) return -1;
            out[k++] = (unsigned char)v;
            p += 4;
            break;
        }
        default: return -1;
        }
    }
    out[k] = 0;
    return (long)k;
}

/* every byte of a line is printable ASCII (so no control byte, no raw
 * non-UTF-8 byte, no newline inside) */
static int printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e) return 0;
    return 1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) abort();
    b[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return b;
}

static char tmpdir[64];
static const char *temp_path(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

/* ---------------------------------------------------------------- one record */

static struct scn_rootcause RC;
static struct scn_case ORIG;
static const unsigned char OUT_A[] = "a\0b\n\"\\\xff\xc3(\x7f"; /* NUL, newline, quote, backslash, non-UTF-8 */
static const unsigned char OUT_E[] = "expected";
static const char DETAIL[] = "quote \" backslash \\ newline \n tab \t bell \a del \x7f high \xe9\xff end";

static void make_record(struct scn_record *r, struct scn_out_view *ov, const struct scn_rule *rule, int steps)
{
    parse("\"%-5d\\\\\\\"\" int:0", &RC.reduced); /* the text form has \\ and \" */
    parse("\"xx %-8d yy\\t\" int:123", &ORIG);
    RC.steps = (unsigned)steps;
    RC.klass = rule ? scn_rule_classification(rule->kind) : "divergence";
    RC.rule = rule;
    snprintf(RC.targets, sizeof RC.targets, "glibc~ref");
    scn_rootcause_sign(&RC, "differential", SCN_DIALECT_KERNEL);
    ov[0] = (struct scn_out_view){ "glibc", 9, 1, OUT_A, sizeof OUT_A - 1 };
    ov[1] = (struct scn_out_view){ "expected", 0, 0, OUT_E, sizeof OUT_E - 1 };
    *r = (struct scn_record){ "fuzz", "prog\"name", "differential", &RC, &ORIG, SCN_DIALECT_KERNEL, DETAIL, NULL, NULL,
                              0, -1, ov, 2, NULL };
}

static void test_record(void)
{
    struct scn_record r;
    struct scn_out_view ov[2];
    struct scn_rule rule = { .id = "kb-\"x\"", .kind = SCN_RULE_KNOWN_BUG, .dialect = -1, .pattern = "flag=-",
                             .targets = "glibc", .versions = "glibc 2.36", .reproducer = "\"%-d\" int:0",
                             .citation = "bug 1\\2" };
    make_record(&r, ov, &rule, 3);
    r.target = "glibc";
    r.family = NULL;
    r.size = 7;
    r.execs = 12345;
    r.extra = ",\"category\":\"int.d\"";

    const char *path = temp_path("one.jsonl");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    CHECK(fd >= 0 && scn_record_write(fd, &r) == 0, "write: %s", strerror(errno));
    close(fd);
    size_t n;
    char *line = read_all(path, &n);
    CHECK(line && n > 2 && line[n - 1] == '\n' && memchr(line, '\n', n) == line + n - 1, "one line, ending in a newline");
    if (!line) return;
    line[n - 1] = 0;
    CHECK(printable(line, n - 1), "a byte that is not printable ASCII in %s", line);
    size_t jl;
    const char *j = scn_record_json(&r, &jl);
    CHECK(jl == n - 1 && !memcmp(j, line, jl), "the line is not the record's JSON");
    CHECK(!strncmp(line, "{\"oracle\":\"differential\",", 25) && !strcmp(line + n - 3, "}}"), "object: %.40s", line);

    unsigned char v[4096];
    char t[4096];
    long k;
    /* the root cause's members */
    CHECK(member_string(line, "classification", v, sizeof v) >= 0 && !strcmp((char *)v, "known-bug"), "classification %s", v);
    k = member_string(line, "signature", v, sizeof v);
    CHECK(k >= 0 && !strcmp((char *)v, RC.signature) && !strcmp((char *)v, "differential:kb-\"x\":glibc~ref:known-bug"),
          "signature %s", v);
    CHECK(member_string(line, "shape", v, sizeof v) >= 0 && !strcmp((char *)v, RC.shape) && !strcmp(RC.shape, "%-Nd"),
          "shape %s", v);
    /* the cases: their text forms (which have quotes and backslashes), decoded back */
    k = member_string(line, "case", v, sizeof v);
    scn_case_format(&RC.reduced, t, sizeof t);
    CHECK(k >= 0 && !strcmp((char *)v, t), "case %s, want %s", v, t);
    k = member_string(line, "original_case", v, sizeof v);
    scn_case_format(&ORIG, t, sizeof t);
    CHECK(k >= 0 && !strcmp((char *)v, t), "original_case %s, want %s", v, t);
    CHECK(strstr(line, ",\"reduced\":true,") != NULL, "reduced");
    CHECK(member_string(line, "dialect", v, sizeof v) >= 0 && !strcmp((char *)v, "kernel"), "dialect %s", v);
    CHECK(strstr(line, ",\"targets\":[\"glibc\",\"ref\"]") != NULL, "targets");
    /* the rule, escaped */
    CHECK(strstr(line, ",\"rule\":{\"id\":\"kb-\\\"x\\\"\",") != NULL, "rule id");
    CHECK(member_string(line, "kind", v, sizeof v) >= 0 && !strcmp((char *)v, "known-bug"), "rule kind %s", v);
    CHECK(member_string(line, "citation", v, sizeof v) >= 0 && !strcmp((char *)v, "bug 1\\2"), "rule citation %s", v);
    CHECK(member_string(line, "reproducer", v, sizeof v) >= 0 && !strcmp((char *)v, "\"%-d\" int:0"), "reproducer %s", v);
    CHECK(member_string(line, "versions", v, sizeof v) >= 0 && !strcmp((char *)v, "glibc 2.36"), "versions %s", v);
    /* the detail: every byte back, whatever it was */
    k = member_string(line, "detail", v, sizeof v);
    CHECK(k == (long)strlen(DETAIL) && !memcmp(v, DETAIL, strlen(DETAIL)), "detail decodes to other bytes (%ld)", k);
    CHECK(strstr(line, "quote \\\" backslash \\\\ newline \\n tab ") != NULL, "detail escapes");
    CHECK(member_string(line, "source", v, sizeof v) >= 0 && !strcmp((char *)v, "fuzz"), "source %s", v);
    CHECK(member_string(line, "program", v, sizeof v) >= 0 && !strcmp((char *)v, "prog\"name"), "program %s", v);
    /* a per-size finding's members; family defaults to c99 */
    CHECK(member_string(line, "target", v, sizeof v) >= 0 && !strcmp((char *)v, "glibc"), "target %s", v);
    CHECK(member_string(line, "family", v, sizeof v) >= 0 && !strcmp((char *)v, "c99"), "family %s", v);
    CHECK(strstr(line, ",\"size\":7") && strstr(line, ",\"execs\":12345") && strstr(line, ",\"category\":\"int.d\""),
          "size, execs, extra");
    /* the outputs: the text form's quoted string of the bytes, in JSON; a
     * pseudo-target without a return value has "ret": null */
    CHECK(strstr(line, ",\"outputs\":{\"glibc\":{\"ret\":9,\"bytes\":\"") != NULL, "outputs: %s", strstr(line, "outputs"));
    k = member_string(strstr(line, "\"outputs\""), "bytes", v, sizeof v);
    char bytes[64];
    size_t blen = 0;
    char qerr[100];
    CHECK(k > 0 && scn_quoted_parse((char *)v, (size_t)k, 0, bytes, sizeof bytes, &blen, qerr, sizeof qerr) == k &&
              blen == sizeof OUT_A - 1 && !memcmp(bytes, OUT_A, blen),
          "output bytes: %s", v);
    CHECK(strstr(line, "\"expected\":{\"ret\":null,\"bytes\":\"\\\"expected\\\"\"}}}") != NULL, "expected: %s",
          strstr(line, "\"expected\""));
    free(line);

    /* without rule, target, execs, extra: those members are absent; not reduced */
    make_record(&r, ov, NULL, 0);
    j = scn_record_json(&r, &jl);
    CHECK(!strstr(j, "\"rule\"") && !strstr(j, "\"target\"") && !strstr(j, "\"family\"") && !strstr(j, "\"size\"") &&
              !strstr(j, "\"execs\"") && !strstr(j, "\"category\"") && strstr(j, ",\"reduced\":false,"),
          "optional members: %s", j);
    CHECK(member_string(j, "signature", v, sizeof v) >= 0 && !strcmp((char *)v, "differential:%-Nd:glibc~ref:divergence"),
          "signature without a rule %s", v);
    /* without an original case, the reduced one is the original */
    r.original = NULL;
    j = scn_record_json(&r, &jl);
    unsigned char w[4096];
    CHECK(member_string(j, "case", v, sizeof v) > 0 && member_string(j, "original_case", w, sizeof w) > 0 &&
              !strcmp((char *)v, (char *)w),
          "original_case without an original");
    /* one target (an oracle finding): a one-element list */
    snprintf(RC.targets, sizeof RC.targets, "musl");
    j = scn_record_json(&r, &jl);
    CHECK(strstr(j, ",\"targets\":[\"musl\"]") != NULL, "one target");

    /* a record is never cut: a 200 KB output is written whole */
    static unsigned char big[200000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i % 7 == 0 ? 0xfe : 'a' + i % 26);
    ov[0] = (struct scn_out_view){ "big", (int)sizeof big, 1, big, sizeof big };
    r.nouts = 1;
    j = scn_record_json(&r, &jl);
    /* (the bytes' quoted text form: \xfe for each 0xfe, JSON-escaped) */
    CHECK(jl > sizeof big + sizeof big / 7 * 4 && jl == strlen(j) && !strcmp(j + jl - 4, "\"}}}") && printable(j, jl),
          "big record %zu", jl);
}

/* ---------------------------------------------------------------- the write */

static void test_write_errors(void)
{
    struct scn_record r;
    struct scn_out_view ov[2];
    make_record(&r, ov, NULL, 1);
    errno = 0;
    CHECK(scn_record_write(-1, &r) == -1 && errno == EBADF, "a bad descriptor: errno %d", errno);
    int fd = open("/dev/full", O_WRONLY);
    if (fd >= 0) {
        errno = 0;
        CHECK(scn_record_write(fd, &r) == -1 && errno == ENOSPC, "a full disk: errno %d", errno);
        close(fd);
    }
    /* the record is intact after a failed write */
    size_t jl;
    const char *j = scn_record_json(&r, &jl);
    CHECK(jl == strlen(j) && j[jl - 1] == '}', "record after a failed write");
}

/* processes appending to one O_APPEND file: every line whole */
static void test_appenders(void)
{
    enum { PROCS = 3, EACH = 150 };
    const char *path = temp_path("many.jsonl");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    CHECK(fd >= 0, "open %s", path);
    static unsigned char big[20000];
    memset(big, 'q', sizeof big);
    fflush(NULL);
    pid_t pid[PROCS];
    for (int p = 0; p < PROCS; p++) {
        if ((pid[p] = fork()) == 0) {
            struct scn_record r;
            struct scn_out_view ov[2];
            make_record(&r, ov, NULL, 1);
            char prog[16];
            snprintf(prog, sizeof prog, "writer%d", p);
            r.program = prog;
            for (int i = 0; i < EACH; i++) {
                /* sizes from a few hundred bytes to tens of KB */
                ov[0] = (struct scn_out_view){ "big", 0, 1, big, (size_t)((i * 7919 + p * 104729) % (int)sizeof big) };
                r.nouts = 1;
                if (scn_record_write(fd, &r)) _exit(1);
            }
            _exit(0);
        }
    }
    int ok = 1;
    for (int p = 0; p < PROCS; p++) {
        int st;
        waitpid(pid[p], &st, 0);
        ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    close(fd);
    CHECK(ok, "a writer failed");
    size_t n;
    char *all = read_all(path, &n);
    int lines = 0, whole = 0, per[PROCS] = { 0 };
    for (char *l = all; l && l < all + n;) {
        char *e = memchr(l, '\n', (size_t)(all + n - l));
        CHECK(e != NULL, "the file does not end with a newline");
        if (!e) break;
        *e = 0;
        lines++;
        if (!strncmp(l, "{\"oracle\":\"differential\",", 25) && !strcmp(e - 4, "\"}}}") && printable(l, (size_t)(e - l))) {
            whole++;
            for (int p = 0; p < PROCS; p++) {
                char key[40];
                snprintf(key, sizeof key, "\"program\":\"writer%d\"", p);
                per[p] += strstr(l, key) != NULL;
            }
        }
        l = e + 1;
    }
    CHECK(lines == PROCS * EACH && whole == lines, "%d lines, %d whole, want %d", lines, whole, PROCS * EACH);
    for (int p = 0; p < PROCS; p++) CHECK(per[p] == EACH, "writer %d: %d lines", p, per[p]);
    free(all);
}

/* ---------------------------------------------------------------- outputs, buffers, seen set */

static int fake_good(char *buf, size_t size, const char *fmt, va_list ap) { return vsnprintf(buf, size, fmt, ap); }
static int fake_fail(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
    if (size > 3) memcpy(buf, "par", 4);
    return -1;
}

static void test_outputs(void)
{
    const struct scn_target a = { .name = "a", .dialect = SCN_DIALECT_ISO, .vsnprintf = fake_good, .vscnprintf = NULL, .where = "in-process" };
    const struct scn_target b = { .name = "b", .dialect = SCN_DIALECT_ISO, .vsnprintf = fake_fail, .vscnprintf = NULL, .where = "in-process" };
    const struct scn_target *t[2] = { &a, &b };
    struct scn_case c;
    parse("\"%s=%d%n\" str:\"x\\x00y\" int:42 n:int", &c);
    struct scn_out_view ov[2];
    scn_record_outputs(t, 1, &c, ov);
    CHECK(scn_case_n_value(&c, 2) == 4, "the call stored %%n");
    scn_record_outputs(t, 2, &c, ov);
    CHECK(!strcmp(ov[0].name, "a") && ov[0].ret == 4 && ov[0].ret_known && ov[0].len == 4 &&
              !memcmp(ov[0].bytes, "x=42", 4),
          "a: %d %zu", ov[0].ret, ov[0].len);
    CHECK(!strcmp(ov[1].name, "b") && ov[1].ret == -1 && ov[1].ret_known, "b: %d", ov[1].ret);
    /* a long output: the whole of it */
    parse("\"%5000d\" int:1", &c);
    scn_record_outputs(t, 1, &c, ov);
    CHECK(ov[0].ret == 5000 && ov[0].len == 5000 && ov[0].bytes[4999] == '1', "long output: %zu", ov[0].len);

    /* the growing JSON buffer */
    struct scn_jbuf jb = { 0 };
    for (int i = 0; i < 3000; i++) scn_jbuf_str(&jb, "ab");
    CHECK(jb.n == 6000 && strlen(jb.p) == 6000 && jb.cap > jb.n, "jbuf str: %zu", jb.n);
    jb.n = 0;
    scn_jbuf_put(&jb, "x\0y", 3);
    scn_jbuf_json(&jb, "q\"\n\xff", 4);
    unsigned char v[64];
    CHECK(jb.n == 3 + strlen(jb.p + 3) && !memcmp(jb.p, "x\0y", 3), "jbuf put: %zu", jb.n);
    /* a member to decode: wrap as "k":<json> */
    char obj[128];
    snprintf(obj, sizeof obj, "{\"k\":%s}", jb.p + 3);
    CHECK(member_string(obj, "k", v, sizeof v) == 4 && !memcmp(v, "q\"\n\xff", 4), "jbuf json: %s", jb.p + 3);
    free(jb.p);
}

static void test_seen(void)
{
    CHECK(scn_seen_first("differential:%d:a~b:divergence") == 1, "first");
    CHECK(scn_seen_first("differential:%d:a~b:divergence") == 0, "second");
    CHECK(scn_seen_first("differential:%d:a~b:divergence ") == 1, "another key: a trailing space");
    CHECK(scn_seen_first("Differential:%d:a~b:divergence") == 1, "another key: case");
    CHECK(scn_seen_first("") == 1 && scn_seen_first("") == 0, "the empty key");
    char key[64];
    int first = 0, again = 0;
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "oracle:%%%dd:t:c", i);
        first += scn_seen_first(key);
    }
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "oracle:%%%dd:t:c", i);
        again += scn_seen_first(key);
    }
    CHECK(first == 1000 && again == 0, "1000 keys: %d first, %d again", first, again);

    /* the caller's slots: independent of the process's set, and full after nslots keys */
    uint64_t slots[4] = { 0 }, other[4] = { 0 };
    CHECK(scn_seen_first_in(slots, 4, "differential:%d:a~b:divergence") == 1, "own slots: first");
    CHECK(scn_seen_first_in(slots, 4, "differential:%d:a~b:divergence") == 0, "own slots: second");
    CHECK(scn_seen_first_in(other, 4, "differential:%d:a~b:divergence") == 1, "other slots: first");
    CHECK(scn_seen_first_in(slots, 4, "k2") == 1 && scn_seen_first_in(slots, 4, "k3") == 1 &&
              scn_seen_first_in(slots, 4, "k4") == 1,
          "four keys in four slots");
    CHECK(scn_seen_first_in(slots, 4, "k5") == 0 && scn_seen_first_in(slots, 4, "k5") == 0, "a full set: 0");
    CHECK(scn_seen_first_in(slots, 4, "k3") == 0, "a full set still knows its keys");
    int used = 0;
    for (int i = 0; i < 4; i++) used += slots[i] != 0;
    CHECK(used == 4 && scn_seen_first_in(other, 4, "k2") == 1, "slots used: %d", used);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "test_finding_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_record();
    test_write_errors();
    test_appenders();
    test_outputs();
    test_seen();
    unlink(temp_path("one.jsonl"));
    unlink(temp_path("many.jsonl"));
    rmdir(tmpdir);
    return check_summary("test_finding");
}
