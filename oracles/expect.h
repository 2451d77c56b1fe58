/* The expectation oracle: a call's outcome against the corpus expectation
 * of its dialect (the corpus files, struct scn_expect). One decision for every
 * program that checks the corpus: scn-conform and certification. */
#ifndef SCN_EXPECT_ORACLE_H
#define SCN_EXPECT_ORACLE_H

#include <stddef.h>

#include "case.h"

/* What a call gave: its return value, the bytes it printed with a buffer
 * big enough (len of them) and the values its %n conversions stored. */
struct scn_outcome {
    int ret;
    const void *bytes;
    size_t len;
    const long long *n;
    size_t nn;
};

/* The expectation x misses: "expect.err" (an error was expected: a negative
 * return, or for the scnprintf family, scn_family != 0, 0 and nothing
 * printed), "expect.output" (other bytes or a return other than their
 * length), "expect.n" (other %n values, or any stored where the expectation
 * has none); NULL when the outcome meets it. */
const char *scn_expect_miss(const struct scn_expect *x, const struct scn_outcome *o, int scn_family);

/* The miss (scn_expect_miss) of the full output a check took (r: the
 * large-buffer call, taken before any size's oracles), into *o; NULL when
 * it meets x or no full output was taken. The output bug a case may have
 * besides its first finding: scn-conform's and certification's hidden_miss. */
struct scn_report;
const char *scn_expect_report_miss(const struct scn_expect *x, const struct scn_report *r, int scn_family,
                                   struct scn_outcome *o);

/* What the call gave, as an expectation (as): "!err" for a negative return,
 * else its bytes (the first SCN_EXPECT_MAX) and %n values; and its text
 * form (scn_expect_format) in out: the "actual" of an expectation's
 * failure, in scn-conform's results and certification's. */
void scn_outcome_expect(const struct scn_outcome *o, struct scn_expect *as, char *out, size_t cap);

#endif
