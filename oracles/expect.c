/* The expectation oracle: see expect.h. */
#include "expect.h"
#include "oracle.h"

#include <string.h>

const char *scn_expect_miss(const struct scn_expect *x, const struct scn_outcome *o, int scn_family)
{
    if (x->kind == SCN_EXPECT_ERR) {
        /* the scnprintf family does not pass an error through: 0 and "" */
        int failed = scn_family ? o->ret == 0 && o->len == 0 : o->ret < 0;
        return failed ? NULL : "expect.err";
    }
    if (o->ret < 0 || (size_t)o->ret != o->len || o->len != x->len || memcmp(o->bytes, x->bytes, x->len))
        return "expect.output";
    if (x->nn == 0) { /* no n= in the expectation: no %n object may have been stored to */
        for (size_t i = 0; i < o->nn; i++)
            if (o->n[i] != 0) return "expect.n";
        return NULL;
    }
    if (o->nn != x->nn || memcmp(o->n, x->n, sizeof(long long) * o->nn)) return "expect.n";
    return NULL;
}

const char *scn_expect_report_miss(const struct scn_expect *x, const struct scn_report *r, int scn_family,
                                   struct scn_outcome *o)
{
    *o = (struct scn_outcome){ r->full_ret, r->full, r->full_len, r->n, r->nn };
    return r->full_taken ? scn_expect_miss(x, o, scn_family) : NULL;
}

void scn_outcome_expect(const struct scn_outcome *o, struct scn_expect *as, char *out, size_t cap)
{
    if (o->ret < 0) {
        as->kind = SCN_EXPECT_ERR;
        as->len = as->nn = 0;
    } else {
        as->kind = SCN_EXPECT_OUTPUT;
        as->len = o->len < SCN_EXPECT_MAX ? o->len : SCN_EXPECT_MAX;
        memcpy(as->bytes, o->bytes, as->len);
        as->nn = o->nn < SCN_CASE_MAX_ARGS ? o->nn : SCN_CASE_MAX_ARGS;
        memcpy(as->n, o->n, sizeof(long long) * as->nn);
    }
    scn_expect_format(as, out, cap);
}
