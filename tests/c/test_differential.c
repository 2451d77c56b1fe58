/* Tests of the differential oracle (oracles/differential.c): the fast path,
 * the localisation to culprit specifications, the allowances table (its
 * loading, its patterns) and the signatures. Uses two small fake targets so
 * that the outcomes do not depend on the host's libc. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "case.h"
#include "differential.h"
#include "target.h"


/* "good": the host vsnprintf. "odd": the same, except that
 *   "(nil)" (glibc's %p of NULL) becomes "0" (an implementation-defined spelling),
 *   every digit 7 becomes 8 (a bug),
 *   %La prints the value normalised with leading digit 1 (allowed),
 *   %.1La of 1.5 prints 0x1.0p+0 (a wrong rounding: not allowed).      */
static int good_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}

static int odd_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int r;
    if (strcmp(fmt, "%La") && strcmp(fmt, "%.1La")) {
        /* the host's output, then "(nil)" -> "0" and every '7' -> '8' */
        char t[4096], o[4096];
        int n = vsnprintf(t, sizeof t, fmt, ap);
        if (n < 0 || (size_t)n >= sizeof t) {
            va_end(cp);
            return n;
        }
        size_t k = 0;
        for (int i = 0; i < n; i++) {
            if (!strncmp(t + i, "(nil)", 5)) {
                o[k++] = '0';
                i += 4;
            } else {
                o[k++] = t[i] == '7' ? '8' : t[i];
            }
        }
        o[k] = 0;
        r = (int)k;
        if (size) snprintf(buf, size, "%s", o);
    } else if (!strcmp(fmt, "%La")) {
        long double v = va_arg(cp, long double);
        int e;
        long double m = frexpl(v, &e); /* v = m * 2^e, 0.5 <= m < 1 */
        /* print as 0x1.<hex>p<e-1> from the 63 fraction bits */
        unsigned long long mant = (unsigned long long)ldexpl(m * 2 - 1, 64);
        char hex[20];
        snprintf(hex, sizeof hex, "%016llx", mant);
        size_t hl = strlen(hex);
        while (hl > 0 && hex[hl - 1] == '0') hex[--hl] = 0;
        r = hl ? snprintf(buf, size, "0x1.%sp%+d", hex, e - 1) : snprintf(buf, size, "0x1p%+d", e - 1);
    } else if (!strcmp(fmt, "%.1La")) {
        r = snprintf(buf, size, "0x1.0p+0");
    } else {
        r = vsnprintf(buf, size, fmt, ap);
    }
    va_end(cp);
    return r;
}

static const struct scn_target good = { .name = "good", .dialect = SCN_DIALECT_ISO, .vsnprintf = good_vsnprintf, .vscnprintf = NULL, .where = "in-process" };
static const struct scn_target odd = { .name = "odd", .dialect = SCN_DIALECT_ISO, .vsnprintf = odd_vsnprintf, .vscnprintf = NULL, .where = "in-process" };

/* "good2": the host vsnprintf again, counting its calls (a target shared
 * by two differing pairs is called once per sub-case, not once per pair). */
static int good2_calls;
static int good2_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    good2_calls++;
    return vsnprintf(buf, size, fmt, ap);
}

static const struct scn_target good2 = { .name = "good2", .dialect = SCN_DIALECT_ISO, .vsnprintf = good2_vsnprintf, .vscnprintf = NULL, .where = "in-process" };

/* "upward": "odd" always under rounding upward, whatever the case's
 * direction: its "%.0f" of 2.5 is 3, as the host's on a case rounded upward,
 * where the host's to nearest is 2 */
static int upward_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct scn_round_saved saved;
    scn_round_enter(SCN_ROUND_UPWARD, &saved);
    int r = odd_vsnprintf(buf, size, fmt, ap);
    scn_round_leave(&saved);
    return r;
}

static const struct scn_target upward = { .name = "upward", .dialect = SCN_DIALECT_ISO, .vsnprintf = upward_vsnprintf, .vscnprintf = NULL, .where = "in-process" };

/* Fakes named as the core targets, for the blame of known bugs (the rules
 * name targets): "ref" is the host's printf with one planted bug of the very
 * form of glibc's %#g carry, %#.3g of 1000 printed "1.e+03" (the zeros of
 * "1.00e+03" dropped, where glibc is right); "musl" is the reference engine
 * (a target the glibc rows do not list). */
static int planted_ref_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (!strcmp(fmt, "%#.3g")) {
        va_list cp;
        va_copy(cp, ap);
        double v = va_arg(cp, double);
        va_end(cp);
        if (v == 1000.0) return snprintf(buf, size, "1.e+03");
    }
    return vsnprintf(buf, size, fmt, ap);
}

static int ref_engine_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return scn_target_find("ref")->vsnprintf(buf, size, fmt, ap);
}

static const struct scn_target planted_ref = { .name = "ref", .dialect = SCN_DIALECT_ISO, .vsnprintf = planted_ref_vsnprintf, .where = "in-process" };
static const struct scn_target host_glibc = { .name = "glibc", .dialect = SCN_DIALECT_ISO, .vsnprintf = good_vsnprintf, .where = "in-process" };
static const struct scn_target engine_musl = { .name = "musl", .dialect = SCN_DIALECT_ISO, .vsnprintf = ref_engine_vsnprintf, .where = "in-process" };

static char bufs[3][4096];

static long long n_values[3][SCN_CASE_MAX_ARGS];

/* text's case, called on each of the n targets t[] (outs[i] its output). */
static struct scn_case *call_each(const char *text, const struct scn_target *const *t, size_t n,
                                  struct scn_diff_out *outs)
{
    static struct scn_case c;
    char err[200];
    if (scn_case_parse(text, strlen(text), &c, err, sizeof err)) {
        fprintf(stderr, "bad case %s: %s\n", text, err);
        exit(2);
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    for (size_t i = 0; i < n; i++) {
        int r = scn_case_call(t[i]->vsnprintf, &c, bufs[i], sizeof bufs[i]);
        size_t nn = scn_case_n_args(&c, idx, SCN_CASE_MAX_ARGS);
        for (size_t j = 0; j < nn; j++) n_values[i][j] = scn_case_n_value(&c, idx[j]);
        outs[i] = (struct scn_diff_out){ t[i], r, (const unsigned char *)bufs[i], r < 0 ? 0 : (size_t)r, nn,
                                         n_values[i] };
    }
    return &c;
}

/* The differential of text's case over the n targets t[]. */
static enum scn_diff_verdict run_on(const char *text, const struct scn_target *const *t, size_t n,
                                    struct scn_diff_finding *f)
{
    struct scn_diff_out outs[3];
    struct scn_case *c = call_each(text, t, n, outs);
    memset(f, 0, sizeof *f);
    return scn_diff_compare(c, outs, n, SCN_DIALECT_ISO, f);
}

/* The verdict of the pair (a, b) alone, the other targets its witnesses. */
static enum scn_diff_verdict run_pair_on(const char *text, const struct scn_target *const *t, size_t n, size_t a,
                                         size_t b, struct scn_diff_finding *f)
{
    struct scn_diff_out outs[3];
    struct scn_case *c = call_each(text, t, n, outs);
    memset(f, 0, sizeof *f);
    return scn_diff_compare_pair(c, outs, n, SCN_DIALECT_ISO, NULL, a, b, f);
}

static enum scn_diff_verdict run(const char *text, struct scn_diff_finding *f)
{
    static const struct scn_target *const two[] = { &good, &odd };
    return run_on(text, two, 2, f);
}

/* The embedded table, agreement, localisation to one specification, %La. */
static void test_localised_verdicts(void)
{
    struct scn_diff_finding f;

    /* the embedded table loads and has the documented entries */
    CHECK(scn_rules_count() >= 5, "%zu entries", scn_rules_count());
    int have_p = 0;
    for (size_t i = 0; i < scn_rules_count(); i++)
        if (!strcmp(scn_rule_at(i)->id, "p-spelling")) have_p = 1;
    CHECK(have_p, "no p-spelling entry");

    /* agreement: the fast path */
    CHECK(run("\"%d|%s\" int:5 str:\"x\"", &f) == SCN_DIFF_AGREE, "verdict %d", f.verdict);

    /* %p of NULL: implementation-defined, localised to the %p even next to other conversions */
    CHECK(run("\"%d [%p] %s\" int:5 ptr:NULL str:\"ab\"", &f) == SCN_DIFF_IMPL, "verdict %d", f.verdict);
    CHECK(!strcmp(f.klass, "implementation-defined"), "%s", f.klass);
    CHECK(f.rule && !strcmp(f.rule->id, "p-spelling"), "rule %s",
          f.rule ? f.rule->id : "(none)");
    CHECK(!strcmp(f.conv, "p"), "conv %s", f.conv);
    CHECK(!strcmp(f.key, "differential:p::good~odd:p-spelling"), "key %s", f.key);

    /* a real difference in %d stays a divergence, even beside an allowed %p */
    CHECK(run("\"%p %d\" ptr:NULL int:7", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    CHECK(!strcmp(f.klass, "divergence"), "%s", f.klass);
    CHECK(!strcmp(f.conv, "d"), "conv %s", f.conv);
    CHECK(f.rule == NULL, "rule set");
    CHECK(!strcmp(f.key, "differential:d::good~odd:"), "key %s", f.key);
    CHECK(!strcmp(f.what, "ret"), "what %s", f.what); /* "(nil) 7" vs "0 8": the lengths differ first */
    CHECK(run("\"[%d]\" int:17", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    CHECK(!strcmp(f.what, "bytes"), "what %s", f.what);

    /* flags class in the signature; positional specifications are localised too */
    CHECK(run("\"%2$-5d|%1$s\" str:\"q\" int:7", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    CHECK(!strcmp(f.key, "differential:d:-w:good~odd:"), "key %s", f.key);

    /* %La: another normalisation of the same value is allowed ... */
    CHECK(run("\"%La\" ldouble:0xc.90fdaa22168c235p-2", &f) == SCN_DIFF_IMPL, "verdict %d (%s)", f.verdict,
          f.detail);
    CHECK(f.rule && !strcmp(f.rule->id, "a-normalisation"), "rule %s",
          f.rule ? f.rule->id : "(none)");
    /* ... a wrongly rounded value is not (1.5 to 1 hex digit: 0x1.8p+0 or 0xc.0p-3, never 0x1.0p+0) */
    CHECK(run("\"%.1La\" ldouble:0xcp-3", &f) == SCN_DIFF_DIVERGENCE, "verdict %d (%s)",
          f.verdict, f.detail);
}

/* the memo of localised verdicts: the same verdicts with and without it,
 * hits on repeats, keys exact to the argument bytes, and an unexplained
 * difference never memoised (each report carries its real outputs) */
static void test_memo(void)
{
    struct scn_diff_finding f;
    static const char *cases[] = {
        "\"%d [%p] %s\" int:5 ptr:NULL str:\"ab\"", "\"%p %d\" ptr:NULL int:7",
        "\"%1$p %2$d\" ptr:NULL int:7",             "\"%La|%p\" ldouble:0xcp-3 ptr:NULL",
        "\"%.1La\" ldouble:0xcp-3",                 "\"[%5d] %s\" int:17 str:\"x7\"",
    };
    enum { NC = sizeof cases / sizeof cases[0] };
    struct scn_diff_finding off[NC], on[NC];
    unsigned long long h0, m0, h1, m1;
    scn_diff_set_memo(0);
    for (int i = 0; i < NC; i++) run(cases[i], &off[i]);
    scn_diff_memo_stats(&h0, &m0);
    scn_diff_set_memo(1);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < NC; i++) {
            run(cases[i], &on[i]);
            CHECK(on[i].verdict == off[i].verdict && !strcmp(on[i].key, off[i].key) &&
                      !strcmp(on[i].detail, off[i].detail),
                  "round %d %s: %s / %s vs %s / %s", round, cases[i], on[i].key, on[i].detail,
                  off[i].key, off[i].detail);
        }
    scn_diff_memo_stats(&h1, &m1);
    CHECK(h1 > h0 && m1 > m0, "memo hits %llu -> %llu, misses %llu -> %llu", h0, h1, m0, m1);
    CHECK(run("\"%p %d\" ptr:NULL int:7", &f) == SCN_DIFF_DIVERGENCE && strstr(f.detail, "ret 1 vs 1"),
          "%s", f.detail);
    /* "%s" of "x6" is the same on both (memoised), of "x7" it is not */
    CHECK(run("\"%s %d\" str:\"x6\" int:7", &f) == SCN_DIFF_DIVERGENCE && !strcmp(f.conv, "d"), "%s",
          f.key);
    CHECK(run("\"%s %d\" str:\"x7\" int:7", &f) == SCN_DIFF_DIVERGENCE && !strcmp(f.conv, "s"), "%s",
          f.key);
    /* the same for a long double's value bytes */
    CHECK(run("\"%Lf %d\" ldouble:0xcp-1 int:7", &f) == SCN_DIFF_DIVERGENCE && !strcmp(f.conv, "d"), "%s",
          f.key);
    CHECK(run("\"%Lf %d\" ldouble:0xep-1 int:7", &f) == SCN_DIFF_DIVERGENCE && !strcmp(f.conv, "Lf"), "%s",
          f.key);
}

/* the memo keys on the sub-case's rounding direction: a sub-case the same
 * on two targets when rounded upward may differ to nearest. A fuzzing
 * process meets the upward case first; its memoised "same" made the same
 * case to nearest find no culprit specification, a whole-case divergence
 * (campaign of fuzz_iso_diff: glibc's and the reference's %.La of
 * 0xf.46365707865dbdbp+998 are both 0x1p+1002 upward, 0xfp+998 and
 * 0x1p+1002 to nearest), where scn-replay, in a fresh process, localised it */
static void test_memo_rounding(void)
{
    static const struct scn_target *const gu[] = { &good, &upward };
    static const char *const up = "\"%.0f|%d\" double:0x1.4p+1 int:7 round=upward";
    static const char *const near = "\"%.0f|%d\" double:0x1.4p+1 int:7";
    struct scn_diff_finding fresh, f;
    scn_diff_set_memo(0);
    CHECK(run_on(near, gu, 2, &fresh) == SCN_DIFF_DIVERGENCE && !strcmp(fresh.conv, "f"), "nearest: %s %s",
          fresh.key, fresh.detail);
    for (int memo = 0; memo < 2; memo++) {
        scn_diff_set_memo(memo); /* a memo of its own generation: nothing from before */
        /* upward, "%.0f" is the same on both (memoised when on), the 7 of %d is not */
        CHECK(run_on(up, gu, 2, &f) == SCN_DIFF_DIVERGENCE && !strcmp(f.conv, "d"), "memo %d: upward: %s %s", memo,
              f.key, f.detail);
        CHECK(run_on(near, gu, 2, &f) == fresh.verdict && !strcmp(f.key, fresh.key) &&
                  !strcmp(f.detail, fresh.detail),
              "memo %d: nearest after upward: %s / %s, alone %s / %s", memo, f.key, f.detail, fresh.key,
              fresh.detail);
    }
}

/* three targets: every differing pair is localised, the worst verdict
 * of the first pair (in order) that has it is reported, and each
 * target runs once per sub-case however many pairs it is in */
static void test_three_targets(void)
{
    struct scn_diff_finding f;
    static const struct scn_target *const gog[] = { &good, &odd, &good2 };
    static const struct scn_target *const ggo[] = { &good, &good2, &odd };
    scn_diff_set_memo(0);
    good2_calls = 0;
    CHECK(run_on("\"%d [%p] %s\" int:5 ptr:NULL str:\"ab\"", gog, 3, &f) == SCN_DIFF_IMPL, "verdict %d", f.verdict);
    CHECK(f.a == 0 && f.b == 1 && f.rule && !strcmp(f.rule->id, "p-spelling"), "pair %zu,%zu %s", f.a,
          f.b, f.detail);
    /* one full call, then one call per sub-case (3 specifications) */
    CHECK(good2_calls == 1 + 3, "good2 called %d times", good2_calls);
    CHECK(run_on("\"%p %d\" ptr:NULL int:7", ggo, 3, &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    CHECK(f.a == 0 && f.b == 2 && !strcmp(f.key, "differential:d::good~odd:"), "pair %zu,%zu %s", f.a, f.b,
          f.key);
    /* the same verdicts through the memo, hit on a repeat */
    scn_diff_set_memo(1);
    for (int round = 0; round < 2; round++) {
        unsigned long long h0, m0, h1, m1;
        scn_diff_memo_stats(&h0, &m0);
        good2_calls = 0;
        CHECK(run_on("\"%d [%p] %s\" int:5 ptr:NULL str:\"ab\"", gog, 3, &f) == SCN_DIFF_IMPL &&
                  f.a == 0 && f.b == 1 && f.rule && !strcmp(f.rule->id, "p-spelling"),
              "round %d: %s", round, f.detail);
        scn_diff_memo_stats(&h1, &m1);
        CHECK(round ? (h1 - h0 == 3 && good2_calls == 1) : (m1 - m0 == 3 && good2_calls == 4),
              "round %d: hits %llu misses %llu calls %d", round, h1 - h0, m1 - m0, good2_calls);
        CHECK(run_on("\"%p %d\" ptr:NULL int:7", ggo, 3, &f) == SCN_DIFF_DIVERGENCE && f.a == 0 && f.b == 2 &&
                  !strcmp(f.conv, "d") && strstr(f.detail, "ret 1 vs 1"),
              "round %d: %s", round, f.detail);
    }
}

/* A known bug explains a difference only when the target it lists is
 * the one that is wrong (embedded table: glibc-g-alt-carry lists glibc,
 * curl, gnulib). A bug planted in the reference, of the form of glibc's
 * carry, is a divergence: glibc differs from the reference there, but
 * musl, which the row does not list, prints what glibc prints. */
static void test_known_bug_blame(void)
{
    struct scn_diff_finding f;
    static const struct scn_target *const planted[] = { &planted_ref, &host_glibc, &engine_musl };
    for (int memo = 0; memo < 2; memo++) {
        scn_diff_set_memo(memo);
        for (int round = 0; round < 2; round++) {
            CHECK(run_on("\"%#.3g\" double:0x1.f4p+9", planted, 3, &f) == SCN_DIFF_DIVERGENCE && f.rule == NULL,
                  "memo %d round %d: a planted reference bug: %s (%s)", memo, round, f.klass, f.detail);
            CHECK(!strcmp(f.pair, "glibc~ref") && !strcmp(f.conv, "g"), "memo %d: pair %s conv %s", memo, f.pair,
                  f.conv);
            /* the pair glibc~ref alone: its difference is not glibc's bug */
            CHECK(run_pair_on("\"%#.3g\" double:0x1.f4p+9", planted, 3, 0, 1, &f) == SCN_DIFF_DIVERGENCE && !f.rule,
                  "memo %d round %d: glibc~ref: %s", memo, round, f.detail);
            /* with no target to say otherwise, the listed one is taken as wrong */
            CHECK(run_pair_on("\"%#.3g\" double:0x1.f4p+9", planted, 2, 0, 1, &f) == SCN_DIFF_KNOWN && f.rule &&
                      !strcmp(f.rule->id, "glibc-g-alt-carry"),
                  "memo %d round %d: two targets: %s", memo, round, f.detail);
        }
        /* the real glibc carry (1.e+03 for 1.00e+03) is still its known bug */
        scn_diff_set_memo(memo);
        const struct scn_target *const real[] = { scn_target_find("ref"), scn_target_find("glibc"), &engine_musl };
        CHECK(real[0] && real[1], "ref and glibc are built in");
        if (real[0] && real[1]) {
            for (int round = 0; round < 2; round++) {
                CHECK(run_on("\"%#.3g\" double:0x1.f3cp+9", real, 3, &f) == SCN_DIFF_KNOWN && f.rule &&
                          !strcmp(f.rule->id, "glibc-g-alt-carry"),
                      "memo %d round %d: glibc's carry: %s %s", memo, round, f.klass, f.detail);
            }
        }
        /* a reference that shares glibc's bug (the planted one prints
         * the host's %#.3g) makes musl the odd one out: glibc is not
         * wrong against it, and nothing explains musl. (The memo names
         * targets: another "ref" needs a fresh one.) */
        scn_diff_set_memo(memo);
        const struct scn_target *const shared[] = { &planted_ref, &host_glibc, &engine_musl };
        for (int round = 0; round < 2; round++) {
            CHECK(run_on("\"%#.3g\" double:0x1.f3cp+9", shared, 3, &f) == SCN_DIFF_DIVERGENCE && !f.rule &&
                      !strcmp(f.pair, "musl~ref"),
                  "memo %d round %d: %s %s", memo, round, f.klass, f.detail);
        }
        /* two known bugs that print the same bytes: glibc drops a
         * negative *2$ width with 0 (glibc-posn-negwidth-zero), musl
         * narrows the shared argument 2 by %2$hhd (-269 -> -13: width
         * 13); neither is the other's witness that ref is wrong */
        scn_diff_set_memo(memo);
        const struct scn_target *const both[] = { scn_target_find("ref"), scn_target_find("glibc"),
                                                  scn_target_find("musl") };
        if (both[0] && both[1] && both[2]) {
            struct scn_diff_finding g, m;
            const char *two = "\"%1$0*2$a%2$hhd\" double:-0x1.484p-951 int:-269";
            CHECK(run_pair_on(two, both, 3, 0, 1, &g) == SCN_DIFF_KNOWN && g.rule &&
                      !strcmp(g.rule->id, "glibc-posn-negwidth-zero"),
                  "memo %d: glibc~ref: %s %s", memo, g.klass, g.detail);
            CHECK(run_pair_on(two, both, 3, 0, 2, &m) == SCN_DIFF_KNOWN && m.rule &&
                      !strcmp(m.rule->id, "musl-posn-shared-narrowing"),
                  "memo %d: musl~ref: %s %s", memo, m.klass, m.detail);
        }
    }
}

/* the table is data: without the p entry, %p NULL becomes a divergence */
static void test_table_is_data(void)
{
    struct scn_diff_finding f;
    const char *tsv = "# test table\n"
                      "x-nan\tiso\tconv=f|e&arg=nan\t*\tC17 7.21.6.1p8\n";
    char err[200];
    CHECK(scn_allowances_load(tsv, strlen(tsv), err, sizeof err) == 1, "%s", err);
    CHECK(run("\"%p\" ptr:NULL", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    /* an entry restricted to other targets does not apply */
    const char *tsv2 = "p\tiso\tconv=p\tglibc,musl\tC17 7.21.6.1p8 (p)\n";
    CHECK(scn_allowances_load(tsv2, strlen(tsv2), err, sizeof err) == 1, "%s", err);
    CHECK(run("\"%p\" ptr:NULL", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    const char *tsv3 = "p\tiso\tconv=p\tgood,odd\tC17 7.21.6.1p8 (p)\n";
    CHECK(scn_allowances_load(tsv3, strlen(tsv3), err, sizeof err) == 1, "%s", err);
    CHECK(run("\"%p\" ptr:NULL", &f) == SCN_DIFF_IMPL, "verdict %d", f.verdict);
    /* a kernel-only entry does not apply to the ISO dialect */
    const char *tsv4 = "p\tkernel\tconv=p\t*\tprintk-formats.rst\n";
    CHECK(scn_allowances_load(tsv4, strlen(tsv4), err, sizeof err) == 1, "%s", err);
    CHECK(run("\"%p\" ptr:NULL", &f) == SCN_DIFF_DIVERGENCE, "verdict %d", f.verdict);
    /* malformed tables are refused with a line number */
    CHECK(scn_allowances_load("a\tiso\tconv=p\n", 13, err, sizeof err) < 0 && strstr(err, "line 1"), "%s",
          err);
    CHECK(scn_allowances_load("a\tiso\tbogus=1\t*\tC\n", 18, err, sizeof err) < 0 && strstr(err, "bogus"),
          "%s", err);
    CHECK(scn_allowances_load("a\tmars\tconv=p\t*\tC\n", 18, err, sizeof err) < 0, "dialect accepted");
}

int main(void)
{
    test_localised_verdicts();
    test_memo();
    test_memo_rounding();
    test_three_targets();
    test_known_bug_blame();
    test_table_is_data(); /* last: it replaces the embedded allowances */
    return check_summary("test_differential");
}
