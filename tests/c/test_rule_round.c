/* Tests of the term asround= (oracles/rule_terms.c) and of the rows of the
 * shipped known_bugs.tsv that use it: a target that ignores the rounding
 * direction (or, pgport, mirrors it for a negative value) is claimed by its
 * row only when that is the whole difference. The same output with a
 * width, a sign or a padding bug besides is not the direction, and the row
 * must not claim it (before the term, round=directed&conv=... did: every
 * difference of a floating conversion under a direction). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_case.h"
#include "check_rule.h"
#include "case.h"
#include "rules.h"
#include "spec.h"

static char err[400];

/* The direction ignored: each gap row claims the reference's output to
 * nearest, and nothing else of the same case. */
static void test_ignored_rows(void)
{
    static const char *const targets[] = { "sqlite", "trio", "picolibc", "newlib", "uclibc", "dietlibc", "stb", "apr" };
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        char id[64];
        snprintf(id, sizeof id, "%s-round-direction-ignored", targets[t]);
        const struct scn_rule *r = row(id);
        const char *tg = targets[t];
        /* 0.1000000000000000055 upward: "0.2"; to nearest "0.1" */
        const char *up = "\"%.1f\" double:0x1.999999999999ap-4 round=upward";
        CHECK(claims(r, up, 0, tg, "0.2", "0.1"), "%s: the direction ignored", id);
        CHECK(!claims(r, up, 0, tg, "0.2", "0.3"), "%s: a digit of no direction", id);
        CHECK(!claims(r, up, 0, tg, "0.2", " 0.1"), "%s: padding besides", id);
        CHECK(!claims(r, up, 0, tg, "0.2", "0.10"), "%s: a digit too many besides", id);
        /* the width dropped besides: ref "     0.2" */
        const char *wide = "\"%8.1f\" double:0x1.999999999999ap-4 round=upward";
        CHECK(claims(r, wide, 0, tg, "     0.2", "     0.1"), "%s: %%8.1f, the direction ignored", id);
        CHECK(!claims(r, wide, 0, tg, "     0.2", "0.1"), "%s: %%8.1f, the width dropped besides", id);
        CHECK(!claims(r, wide, 0, tg, "     0.2", "0.1     "), "%s: %%8.1f, padded on the wrong side", id);
        /* the sign dropped besides: -0.1000000000000000055 downward is "-0.2" */
        const char *neg = "\"%.1f\" double:-0x1.999999999999ap-4 round=downward";
        CHECK(claims(r, neg, 0, tg, "-0.2", "-0.1"), "%s: negative, the direction ignored", id);
        CHECK(!claims(r, neg, 0, tg, "-0.2", "0.1"), "%s: negative, the sign dropped besides", id);
        /* to nearest there is no direction to ignore */
        CHECK(!claims(r, "\"%.1f\" double:0x1.999999999999ap-4", 0, tg, "0.2", "0.1"), "%s: to nearest", id);
        /* an infinity's spelling is no rounding */
        CHECK(!claims(r, "\"%f\" double:-inf round=upward", 0, tg, "-inf", "-Inf"), "%s: inf's spelling", id);
    }
    /* %a (trio, picolibc, newlib): the nearest value, at either normalisation
     * (ref to nearest "0x1p+1", picolibc "0x2p+0"), in its field */
    const struct scn_rule *r = row("picolibc-round-direction-ignored");
    const char *a = "\"%.0a\" double:0x1.8p+0 round=downward";
    CHECK(claims(r, a, 0, "picolibc", "0x1p+0", "0x2p+0"), "%%.0a, the direction ignored");
    CHECK(claims(r, a, 0, "picolibc", "0x1p+0", "0x1p+1"), "%%.0a, the direction ignored, ref's normalisation");
    CHECK(!claims(r, a, 0, "picolibc", "0x1p+0", "0x2.p+0"), "%%.0a, a point besides");
    CHECK(!claims(r, "\"%8.0a\" double:0x1.8p+0 round=downward", 0, "picolibc", "  0x1p+0", "0x2p+0"),
          "%%8.0a, the width dropped besides");
}

/* pgport: a negative value rounded in the opposite direction, nothing else */
static void test_pgport_row(void)
{
    const struct scn_rule *r = row("pgport-round-negative-mirrored");
    const char *up = "\"%.0f\" double:-0x1p-1 round=upward"; /* -0.5: upward "-0", downward "-1" */
    CHECK(claims(r, up, 0, "pgport", "-0", "-1"), "pgport: mirrored");
    CHECK(!claims(r, up, 0, "pgport", "-0", "-0."), "pgport: another output");
    CHECK(!claims(r, "\"%3.0f\" double:-0x1p-1 round=upward", 0, "pgport", " -0", "-1"),
          "pgport: mirrored, the width dropped besides");
    CHECK(!claims(r, "\"%.0f\" double:-0x1p-1 round=downward", 0, "pgport", "-1", "-2"), "pgport: not the opposite");
    CHECK(claims(r, "\"%.0f\" double:-0x1p-1 round=downward", 0, "pgport", "-1", "-0"), "pgport: downward mirrored");
    /* toward zero is its own opposite: nothing to mirror */
    CHECK(!claims(r, "\"%.0f\" double:-0x1.8p+0 round=towardzero", 0, "pgport", "-1", "-2"), "pgport: toward zero");
    /* a positive value rounded the opposite way is not this bug (pgport rounds those right) */
    CHECK(!claims(r, "\"%.0f\" double:0x1p-1 round=upward", 0, "pgport", "1", "0"), "pgport: a positive value");
    /* nor is the direction ignored: under upward or downward a negative value's
     * nearest output, when not the reference's, is the opposite direction's
     * (one rounding); toward zero tells them apart (-0.16: "-0.1", to nearest "-0.2") */
    CHECK(!claims(r, "\"%.1f\" double:-0x1.47ae147ae147bp-3 round=towardzero", 0, "pgport", "-0.1", "-0.2"),
          "pgport: the direction ignored");
}

/* The term on its own: the whole case, its values, and which output it
 * reads (the target the rule blames, not the other one of the pair). */
static void test_term(void)
{
    struct scn_rule r = { .id = "t", .kind = SCN_RULE_KNOWN_GAP, .dialect = -1, .targets = "x" };
    snprintf(r.pattern, sizeof r.pattern, "round=directed&whole&asround=nearest");
    const char *whole = "\"<%.1f|%d>\" double:0x1.999999999999ap-4 int:7 round=upward";
    CHECK(claims(&r, whole, 1, "x", "<0.2|7>", "<0.1|7>"), "whole case, the direction ignored");
    CHECK(!claims(&r, whole, 1, "x", "<0.2|7>", "<0.1|8>"), "whole case, another difference besides");

    /* the values: nearest, opposite, or both, nothing else */
    static const char *const bad[] = { "asround=", "asround=up", "asround=nearest|", "asround=|opposite",
                                       "asround=nearest||opposite", "asround=upward", NULL };
    for (size_t i = 0; bad[i]; i++) {
        char t[200];
        snprintf(t, sizeof t, "x\tbug\tiso\tconv=f&%s\tx\tv\tr\tc\n", bad[i]);
        CHECK(scn_known_bugs_load(t, strlen(t), err, sizeof err) < 0 && strstr(err, bad[i]), "term '%s' accepted: %s",
              bad[i], err);
    }
    snprintf(r.pattern, sizeof r.pattern, "asround=opposite|nearest");
    const char *up = "\"%.1f\" double:0x1.999999999999ap-4 round=upward";
    CHECK(claims(&r, up, 0, "x", "0.2", "0.1"), "either direction: nearest");
    CHECK(claims(&r, "\"%.0f\" double:-0x1p-1 round=upward", 0, "x", "-0", "-1"), "either direction: opposite");

    /* which output: the pair (y, x), x listed and wrong (" 0.1": the padding
     * besides), y printing the reference's output to nearest. The term reads
     * x's, so the rule claims nothing; y is the other target, not blamed. */
    snprintf(r.pattern, sizeof r.pattern, "round=directed&asround=nearest");
    struct scn_case *c = parse(up);
    static struct scn_spec sp[SCN_MAX_SPECS];
    scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    const char *names[3] = { "ref", "y", "x" };
    const unsigned char *out[3] = { (const unsigned char *)"0.2", (const unsigned char *)"0.1",
                                    (const unsigned char *)" 0.1" };
    int ret[3] = { 3, 3, 4 };
    size_t len[3] = { 3, 3, 4 };
    struct scn_blame all = { 3, 0, names, ret, out, len, 0, NULL, NULL };
    struct scn_culprit k = { .s = &sp[0], .ret_a = 3, .ret_b = 4, .oa = out[1], .ob = out[2], .la = 3, .lb = 4,
                             .all = &all };
    CHECK(!scn_rule_explains(&r, SCN_DIALECT_ISO, c, &k, "y", "x"), "the other target's output read");
    out[2] = (const unsigned char *)"0.1", ret[2] = 3, len[2] = 3; /* x: the direction ignored, alone */
    out[1] = (const unsigned char *)"0.2"; /* (y right) */
    struct scn_culprit kr = { .s = &sp[0], .ret_a = 3, .ret_b = 3, .oa = out[0], .ob = out[2], .la = 3, .lb = 3,
                              .all = &all };
    CHECK(scn_rule_explains(&r, SCN_DIALECT_ISO, c, &kr, "ref", "x"), "the target's own output read");
}

int main(void)
{
    unsetenv("SCN_KNOWN_BUGS"); /* the shipped table */
    unsetenv("SCN_ALLOWANCES");
    test_ignored_rows();
    test_pgport_row();
    test_term();
    return check_summary("test_rule_round");
}
