/* Tests of the reducer (oracles/reduce.c, scn_reduce; docs/FINDINGS.md "A
 * finding is a root cause"), with predicates of the test's own, so that
 * each pass shows: the culprit specification alone, literal text and the
 * @sizes dropped, no specification at all, flags / width / precision /
 * length / positional form dropped, '*' written as the number it reads,
 * integer conversions to %d and floating ones to %f, values toward 0 and
 * short strings; frozen arguments kept; the budget; and over many decoded
 * cases: the result still fails, is a valid case, and is deterministic. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "check.h"
#include "rootcause.h"
#include "spec.h"
#include "target.h"

static struct scn_case C;
static char t[1 << 14];

static void parse(const char *text)
{
    char err[200];
    if (scn_case_parse(text, strlen(text), &C, err, sizeof err)) {
        fprintf(stderr, "bad case %s: %s\n", text, err);
        exit(2);
    }
}

static const char *text(const struct scn_case *c)
{
    scn_case_format(c, t, sizeof t);
    return t;
}

/* ---------------------------------------------------------------- predicates */

static unsigned calls;

/* the host's output of the case */
static char out[1 << 16];
static int output(struct scn_case *c)
{
    int r = scn_case_call(vsnprintf, c, out, sizeof out);
    if (r < 0) out[0] = 0;
    return r;
}

/* a valid integer specification with the '+' flag */
static int has_plus_int(struct scn_case *c, void *ctx)
{
    (void)ctx;
    calls++;
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    for (size_t i = 0; i < n; i++)
        if (!sp[i].invalid && (sp[i].flags & SCN_FL_PLUS) && strchr("diouxX", sp[i].conv)) return 1;
    return 0;
}
static int always(struct scn_case *c, void *ctx) { (void)c; (void)ctx; calls++; return 1; }
static int never(struct scn_case *c, void *ctx) { (void)c; (void)ctx; calls++; return 0; }
/* the output is exactly ctx */
static int output_is(struct scn_case *c, void *ctx)
{
    calls++;
    return output(c) >= 0 && !strcmp(out, (const char *)ctx);
}
/* the output contains ctx */
static int output_has(struct scn_case *c, void *ctx)
{
    calls++;
    return output(c) >= 0 && strstr(out, (const char *)ctx) != NULL;
}
/* the format still has ctx */
static int format_has(struct scn_case *c, void *ctx)
{
    calls++;
    return strstr(c->fmt, (const char *)ctx) != NULL;
}

struct red_case {
    const char *in;
    scn_still_fn still;
    const void *ctx;
    const char *want;
};

static void test_passes(void)
{
    static const struct red_case rc[] = {
        /* the culprit alone; width, precision, length dropped; the value toward 0 */
        { "\"xx %+8.3ld yy %s\" long:123 str:\"q\"", has_plus_int, NULL, "\"%+d\" int:0" },
        { "\"%2$s|%1$+5i\" int:77777 str:\"abc\"", has_plus_int, NULL, "\"%+d\" int:0" },
        /* what fails on any output: no specification at all ("a"), then no
         * literal text either; @sizes dropped */
        { "\"[%5s|%d]\" str:\"abc\" int:9 @3,4", always, NULL, "\"\"" },
        { "\"hello\" @7", always, NULL, "\"\"" },
        /* '*' written as the number it reads (a negative width is '-') */
        { "\"%*d\" int:-5 int:3", output_is, "3    ", "\"%-5d\" int:3" },
        { "\"%.*s\" int:2 str:\"xyz\"", output_is, "xy", "\"%s\" str:\"xy\"" }, /* then the string shorter */
        /* the positional form dropped, literal text dropped */
        { "\"%2$s %1$d\" int:7 str:\"x\"", output_has, "x", "\"%s\" str:\"x\"" },
        /* integer conversions to %d, flags dropped */
        { "\"[%#x]\" uint:1", output_has, "1", "\"%d\" int:1" },
        /* floating ones to %f; long double to double */
        { "\"%G\" double:0x1.8p+0", output_has, "1.5", "\"%f\" double:0x1.8p+0" },
        { "\"%LG\" ldouble:0xcp-3", output_has, "1.5", "\"%f\" double:0x1.8p+0" },
        /* strings shorter (a prefix) */
        { "\"%s\" str:\"abcdefgh\"", output_has, "ab", "\"%s\" str:\"ab\"" },
        /* shorter literal text */
        { "\"abcdefghij\"", output_has, "a", "\"a\"" },
        /* ... down to the character it needs, not only by halves ("%pI6c." keeps "I6c") */
        { "\"abcdefghij\"", format_has, "abc", "\"abc\"" },
    };
    for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
        parse(rc[i].in);
        CHECK(rc[i].still(&C, (void *)rc[i].ctx), "%s does not fail to begin with", rc[i].in);
        calls = 0;
        unsigned steps = scn_reduce(&C, SCN_DIALECT_ISO, rc[i].still, (void *)rc[i].ctx, SCN_REDUCE_BUDGET);
        CHECK(!strcmp(text(&C), rc[i].want) && steps > 0, "%s reduced to %s in %u steps, want %s", rc[i].in, t, steps,
              rc[i].want);
        CHECK(calls <= SCN_REDUCE_BUDGET && steps <= calls, "%s: %u calls, %u steps", rc[i].in, calls, steps);
    }
}

static void test_limits(void)
{
    /* nothing kept: the case unchanged, 0 steps */
    const char *in = "\"xx %+8.3ld yy %s\" long:123 str:\"q\" @4";
    parse(in);
    calls = 0;
    CHECK(scn_reduce(&C, SCN_DIALECT_ISO, never, NULL, SCN_REDUCE_BUDGET) == 0 && !strcmp(text(&C), in) && calls > 0,
          "never: %s after %u calls", t, calls);
    /* the budget: at most that many candidates */
    for (unsigned b = 0; b < 6; b++) {
        parse(in);
        calls = 0;
        unsigned steps = scn_reduce(&C, SCN_DIALECT_ISO, always, NULL, b);
        CHECK(calls <= b && steps == calls, "budget %u: %u calls, %u steps", b, calls, steps);
    }
    /* an already minimal case: nothing to do */
    parse("\"%+d\" int:0");
    CHECK(scn_reduce(&C, SCN_DIALECT_ISO, has_plus_int, NULL, SCN_REDUCE_BUDGET) == 0 && !strcmp(text(&C), "\"%+d\" int:0"),
          "minimal: %s", t);
    /* frozen: an invalid tail that may read the arguments keeps them, in
     * their places and types */
    parse("\"%5d%y%s\" int:1 str:\"z\"");
    scn_reduce(&C, SCN_DIALECT_ISO, format_has, "%y", SCN_REDUCE_BUDGET);
    CHECK(C.nargs == 2 && C.args[0].type == SCN_ARG_INT && C.args[1].type == SCN_ARG_STR && strstr(C.fmt, "%y%s"),
          "frozen: %s", text(&C));
}

/* Many decoded cases, predicates on their output: the reduced case still
 * fails, is a case (its text parses back to it), reducing it is
 * deterministic, and reducing the result again keeps it. */
static int long_output(struct scn_case *c, void *ctx)
{
    (void)ctx;
    calls++;
    return output(c) >= 20;
}
static int has_digit_9(struct scn_case *c, void *ctx)
{
    (void)ctx;
    calls++;
    return output(c) >= 0 && strchr(out, '9') != NULL;
}

static void test_decoded(void)
{
    static struct scn_case orig, again, back;
    static char t1[1 << 14], t2[1 << 14];
    unsigned char data[200];
    uint64_t s = 0x853c49e6748fea9bull;
    int reduced = 0, tried = 0;
    scn_still_fn preds[2] = { long_output, has_digit_9 };
    for (int it = 0; it < 160; it++) {
        for (size_t i = 0; i < sizeof data; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            data[i] = (unsigned char)s;
        }
        /* ISO, no %ls / %lc (the C locale fails them), long doubles kept short */
        scn_case_from_bytes(data, 20 + (size_t)it % 150, &orig, SCN_DIALECT_ISO,
                            SCN_DECODE_NO_WIDE | SCN_DECODE_SHORT_LD | (it & 1 ? SCN_DECODE_ROBUST : 0));
        scn_still_fn p = preds[it % 2];
        memcpy(&C, &orig, sizeof C);
        if (!p(&C, NULL)) continue;
        tried++;
        unsigned steps = scn_reduce(&C, SCN_DIALECT_ISO, p, NULL, 300);
        reduced += steps > 0;
        scn_case_format(&C, t1, sizeof t1);
        char err[200];
        CHECK(p(&C, NULL), "the reduced case no longer fails: %.300s", t1);
        CHECK(scn_case_parse(t1, strlen(t1), &back, err, sizeof err) == 0, "reduced %s: %s", t1, err);
        memcpy(&again, &orig, sizeof again);
        scn_reduce(&again, SCN_DIALECT_ISO, p, NULL, 300);
        scn_case_format(&again, t2, sizeof t2);
        CHECK(!strcmp(t1, t2), "not deterministic:\n  %.300s\n  %.300s", t1, t2);
        CHECK(strlen(t1) <= 40 || steps == 0 || strlen(t1) < strlen(text(&orig)),
              "reduced to something longer: %.300s", t1);
    }
    CHECK(tried > 80 && reduced > tried * 3 / 4, "%d reduced of %d", reduced, tried);
}

int main(void)
{
    test_passes();
    test_limits();
    test_decoded();
    return check_summary("test_reduce");
}
