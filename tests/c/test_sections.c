/* Tests of cases as sections (oracles/sections.c): a case split into
 * literal runs and specifications over its arguments, edited and rendered
 * back (sections.h): canonical cases render back to themselves; rendered
 * cases are canonical and mean the same call (checked by calling them, for
 * many decoded cases); arguments follow the specifications that read them
 * (sequential) or are numbered by first use (positional); an invalid tail
 * that may read arguments freezes them; a case that does not fit is
 * refused. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "check.h"
#include "check_case.h"
#include "sections.h"
#include "spec.h"
#include "target.h"

static char t[1 << 14], t2[1 << 14];
static struct scn_sections M, M2;
static struct scn_case BACK, BACK2;

/* sections_of + render: 0 and the text, or -1 */
static int rerender(const struct scn_case *c, enum scn_dialect d, char *out, size_t cap)
{
    if (scn_sections_of(c, d, &M) || scn_sections_render(&M, &BACK)) return -1;
    scn_case_format(&BACK, out, cap);
    return 0;
}

static void test_canonical(void)
{
    static const char *const canon[] = {
        "\"a%-5.2ld|%%|%s\" long:7 str:\"x\"",
        "\"%1$0*2$f\" double:0x1.8p+0 int:-9",
        "\"%1$hhu%1$X\" uint:300",
        "\"no specification\"",
        "\"\"",
        "\"%*.*d\" int:3 int:2 int:1",
        "\"%d\" int:1 @3,5",
        "\"%1$s%2$d%1$s\" str:\"a\" int:2",
        "\"%d%y%s\" int:1 str:\"z\"",
        "\"ab\\x00%d\" int:1",
        "\"%5\"",
    };
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        CHECK(rerender(parse(canon[i]), SCN_DIALECT_ISO, t, sizeof t) == 0, "%s", canon[i]);
        CHECK(!strcmp(t, canon[i]), "%s rendered as %s", canon[i], t);
    }
}

static void test_structure(void)
{
    /* items: literal runs and specifications; "%%" is a specification without argument */
    struct scn_case *c = parse("\"a%-5.2ld|%%|%s\" long:7 str:\"x\"");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(M.n == 6 && !M.it[0].is_spec && M.it[1].is_spec && !M.it[2].is_spec && M.it[3].is_spec &&
              !M.it[4].is_spec && M.it[5].is_spec,
          "items %zu", M.n);
    CHECK(M.it[0].len == 1 && M.lit[M.it[0].off] == 'a', "literal a");
    CHECK(M.it[1].flags == SCN_FL_MINUS && M.it[1].width == 5 && M.it[1].prec == 2 && !strcmp(M.it[1].lenmod, "l") &&
              M.it[1].conv == 'd' && M.it[1].va == 0 && M.it[1].wa == -1 && M.it[1].pa == -1,
          "spec %%-5.2ld");
    CHECK(M.it[3].conv == '%' && M.it[3].va == -1 && M.it[5].conv == 's' && M.it[5].va == 1, "%%%% and %%s");
    CHECK(scn_sections_count(&M) == 3 && !M.positional && M.tail_len == 0 && !scn_sections_frozen(&M) && M.nargs == 2,
          "count %zu", scn_sections_count(&M));
    /* an argument read twice: as width and value */
    c = parse("\"%1$*1$d\" int:3");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(M.positional && scn_sections_uses(&M, 0) == 2 && scn_sections_uses(&M, 1) == 0, "uses");
    c = parse("\"%1$hhu%1$X\" uint:300");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(scn_sections_count(&M) == 2 && scn_sections_uses(&M, 0) == 2 && !scn_sections_frozen(&M), "uses");

    /* the tail: from the first invalid specification on, verbatim; with a '%' it freezes */
    c = parse("\"%d%y%s\" int:1 str:\"z\"");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(scn_sections_count(&M) == 1 && M.tail_len == 4 && !memcmp(M.lit + M.tail_off, "%y%s", 4) &&
              scn_sections_frozen(&M),
          "invalid tail: %zu", M.tail_len);
    /* a NUL byte in the format: what follows is the tail (the call stops there) */
    c = parse("\"ab\\x00cd\"");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(M.n == 1 && M.it[0].len == 2 && M.tail_len == 3 && !memcmp(M.lit + M.tail_off, "\0cd", 3) &&
              !scn_sections_frozen(&M),
          "NUL tail %zu", M.tail_len);
    c = parse("\"ab\\x00%d\" int:1");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    CHECK(scn_sections_count(&M) == 0 && scn_sections_frozen(&M), "a '%%' after a NUL freezes");
    /* the kernel dialect: %f is invalid there */
    c = parse("\"a%fb\" double:0x1p+0");
    scn_sections_of(c, SCN_DIALECT_KERNEL, &M);
    CHECK(scn_sections_count(&M) == 0 && M.tail_len == 3 && scn_sections_frozen(&M), "kernel %%f");
}

static void test_edits(void)
{
    /* sequential: the arguments of a dropped specification go with it */
    struct scn_case *c = parse("\"%d|%s\" int:1 str:\"x\"");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    memmove(&M.it[0], &M.it[1], (M.n - 1) * sizeof M.it[0]);
    M.n--;
    CHECK(scn_sections_render(&M, &BACK) == 0, "render");
    scn_case_format(&BACK, t, sizeof t);
    CHECK(!strcmp(t, "\"|%s\" str:\"x\""), "dropped %%d: %s", t);
    /* '*' written as a number: the width argument is no longer read */
    c = parse("\"%*d\" int:5 int:1");
    scn_sections_of(c, SCN_DIALECT_ISO, &M);
    M.it[0].width = 9;
    M.it[0].wa = -1;
    scn_sections_render(&M, &BACK);
    scn_case_format(&BACK, t, sizeof t);
    CHECK(!strcmp(t, "\"%9d\" int:1"), "literal width: %s", t);
    /* positional: numbered by first use */
    c = parse("\"%2$s %1$d\" int:7 str:\"x\"");
    CHECK(rerender(c, SCN_DIALECT_ISO, t, sizeof t) == 0 && !strcmp(t, "\"%1$s %2$d\" str:\"x\" int:7"),
          "positional renumbered: %s", t);
    /* ... and to the sequential form: the order of reading */
    scn_sections_of(parse("\"%2$s %1$d\" int:7 str:\"x\""), SCN_DIALECT_ISO, &M);
    M.positional = 0;
    scn_sections_render(&M, &BACK);
    scn_case_format(&BACK, t, sizeof t);
    CHECK(!strcmp(t, "\"%s %d\" str:\"x\" int:7"), "sequential: %s", t);
    /* a conversion and a length changed with their argument */
    scn_sections_of(parse("\"[%lx]\" ulong:255"), SCN_DIALECT_ISO, &M);
    M.it[1].conv = 'd';
    M.it[1].lenmod[0] = 0;
    M.args[M.it[1].va].type = SCN_ARG_INT;
    scn_sections_render(&M, &BACK);
    scn_case_format(&BACK, t, sizeof t);
    CHECK(!strcmp(t, "\"[%d]\" int:255"), "conversion: %s", t);
    /* frozen: the arguments keep their places even when no specification reads them */
    scn_sections_of(parse("\"%d%y%s\" int:1 str:\"z\""), SCN_DIALECT_ISO, &M);
    M.n = 0; /* drop the %d */
    scn_sections_render(&M, &BACK);
    scn_case_format(&BACK, t, sizeof t);
    CHECK(!strcmp(t, "\"%y%s\" int:1 str:\"z\""), "frozen: %s", t);

    /* a case that does not fit is refused */
    static char f[SCN_CASE_MAX_FMT];
    memset(f, 'a', sizeof f);
    memcpy(f + SCN_CASE_MAX_FMT - 2, "%d", 2);
    static struct scn_case big;
    scn_case_init(&big, f, SCN_CASE_MAX_FMT);
    scn_case_add_int(&big, SCN_ARG_INT, 1);
    scn_sections_of(&big, SCN_DIALECT_ISO, &M);
    /* a format of SCN_CASE_MAX_FMT bytes fits a case (case.h) */
    CHECK(scn_sections_render(&M, &BACK) == 0 && BACK.fmt_len == SCN_CASE_MAX_FMT,
          "sections.c scn_sections_render: a format of SCN_CASE_MAX_FMT (%d) bytes is refused", SCN_CASE_MAX_FMT);
    M.it[M.n - 1].width = 1;
    M.it[0].len = SCN_CASE_MAX_FMT - 4; /* "a...a%1d" */
    CHECK(scn_sections_render(&M, &BACK) == 0 && BACK.fmt_len == SCN_CASE_MAX_FMT - 1, "a format of %d bytes",
          SCN_CASE_MAX_FMT - 1);
    M.it[M.n - 1].width = 12345;
    CHECK(scn_sections_render(&M, &BACK) == -1, "a format longer than SCN_CASE_MAX_FMT was rendered");
}

/* a '.' not followed by a digit or '*' (the precision "." alone) */
static int bare_dot(const char *f)
{
    for (; *f; f++)
        if (f[0] == '.' && !(f[1] >= '0' && f[1] <= '9') && f[1] != '*') return 1;
    return 0;
}

/* Decoded cases (sequential, positional, robust ones with invalid
 * specifications, kernel ones): the rendered case is canonical (renders to
 * itself), the same text when sequential, and the same call: the same
 * return value and bytes on the dialect's reference target. */
static void test_decoded(void)
{
    const struct scn_target *ref[2] = { scn_target_find("ref"), scn_target_find("ref-kernel") };
    CHECK(ref[0] && ref[1], "reference targets");
    if (!ref[0] || !ref[1]) return;
    static struct scn_case c;
    static char o1[8192], o2[8192];
    unsigned char data[400];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int positional = 0, frozen = 0, compared = 0;
    for (int it = 0; it < 1500; it++) {
        size_t n = 0;
        for (; n < (size_t)(it % 97) * 4 + 4 && n < sizeof data; n++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            data[n] = (unsigned char)s;
        }
        enum scn_dialect d = it % 4 == 3 ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO;
        unsigned fl = (it % 3 == 0 ? SCN_DECODE_ROBUST : 0) | SCN_DECODE_SHORT_LD;
        scn_case_from_bytes(data, n, &c, d, fl);
        scn_case_format(&c, t, sizeof t);
        if (scn_sections_of(&c, d, &M) || scn_sections_render(&M, &BACK)) {
            CHECK(0, "not rendered: %.300s", t);
            continue;
        }
        positional += M.positional;
        frozen += scn_sections_frozen(&M);
        scn_case_format(&BACK, t2, sizeof t2);
        /* (a precision "." alone is rendered ".0": the same in ISO C, C17 7.21.6.1p5) */
        if (!M.positional && !bare_dot(c.fmt))
            CHECK(!strcmp(t, t2), "sequential case rendered as another:\n  %.300s\n  %.300s", t, t2);
        /* canonical: it renders to itself */
        scn_sections_of(&BACK, d, &M2);
        CHECK(scn_sections_render(&M2, &BACK2) == 0, "a rendered case does not render");
        scn_case_format(&BACK2, o1, sizeof o1);
        CHECK(!strcmp(o1, t2), "not canonical:\n  %.300s\n  %.300s", t2, o1);
        /* the same call (but for the kernel's "." alone, below) */
        if (d == SCN_DIALECT_KERNEL && bare_dot(c.fmt)) continue;
        int r1 = scn_case_call(ref[d]->vsnprintf, &c, o1, sizeof o1);
        int r2 = scn_case_call(ref[d]->vsnprintf, &BACK, o2, sizeof o2);
        int same = r1 == r2 && (r1 < 0 || (size_t)r1 >= sizeof o1 || !memcmp(o1, o2, (size_t)r1));
        CHECK(same, "another call: %d vs %d\n  %.300s\n  %.300s", r1, r2, t, t2);
        compared++;
        if (!same) break;
    }
    CHECK(positional > 100 && frozen > 20 && compared > 1000, "variety: %d positional, %d frozen, %d compared",
          positional, frozen, compared);

    /* In the kernel dialect a precision "." alone is no precision (Linux
     * lib/vsprintf.c format_decode: precision stays -1 unless digits
     * follow), so "%.s" prints the whole string where "%.0s" prints
     * nothing; the sections render it as "%.0s", another call. */
    static struct scn_case k;
    const char *kt = "\"[%.s]\" str:\"abc\"";
    char err[100];
    scn_case_parse(kt, strlen(kt), &k, err, sizeof err);
    scn_sections_of(&k, SCN_DIALECT_KERNEL, &M);
    scn_sections_render(&M, &BACK);
    int r1 = scn_case_call(ref[1]->vsnprintf, &k, o1, sizeof o1);
    int r2 = scn_case_call(ref[1]->vsnprintf, &BACK, o2, sizeof o2);
    scn_case_format(&BACK, t2, sizeof t2);
    CHECK(r1 == 5 && !strcmp(o1, "[abc]"), "ref-kernel \"[%%.s]\": %d %s", r1, o1);
    CHECK(r1 == r2 && !strcmp(o1, o2),
          "spec.c: the kernel's precision \".\" alone must stay no precision: %s rendered as %s "
          "(ref-kernel \"%s\" vs \"%s\")",
          kt, t2, o1, o2);
}

int main(void)
{
    test_canonical();
    test_structure();
    test_edits();
    test_decoded();
    return check_summary("test_sections");
}
