/* scnfuzz differential oracle: several targets of one dialect, one case.
 *
 * The full outputs (C99 return value, bytes, %n values) of every target are
 * compared byte-exact. A mismatch between two targets is then localised: each
 * conversion specification of the case is re-run alone (a "sub-case": the
 * specification made non-positional, with its own arguments) on both targets;
 * the specifications whose outputs differ are the culprits. The mismatch is
 * classified
 *   "implementation-defined"  when EVERY culprit (or, with no culprit, the
 *                             whole case) matches an entry of the allowances
 *                             table (oracles/allowances.tsv) for both targets;
 *   "divergence"              otherwise (a real bug of one of the two, or a
 *                             difference nobody has justified yet).
 *
 * The allowances table is data: oracles/allowances.tsv is compiled in (the
 * build embeds it), and can be replaced at run time (scn_allowances_load*,
 * or env SCN_ALLOWANCES=<file> read at the first use).
 *
 * The fast path (all outputs equal) costs one memcmp per target; the
 * localisation only runs on a mismatch and uses a private heap buffer.
 */
#ifndef SCN_DIFFERENTIAL_H
#define SCN_DIFFERENTIAL_H

#include <stddef.h>

#include "case.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCN_DIFF_MAX_TARGETS 8
#define SCN_DIFF_ORACLE "differential"

/* One target's full-output call of the C99 family (big buffer). */
struct scn_diff_out {
    const struct scn_target *target;
    int ret;                    /* C99 return value (negative: error) */
    const unsigned char *bytes; /* the bytes stored before the NUL */
    size_t len;                 /* their count (0 when ret < 0 and nothing is compared) */
    size_t nn;                  /* %n values of the call, in argument order */
    const long long *n;
};

enum scn_diff_verdict { SCN_DIFF_AGREE = 0, SCN_DIFF_IMPL = 1, SCN_DIFF_DIVERGENCE = 2 };

/* One entry of the allowances table. */
struct scn_allowance {
    char id[48];
    int dialect;           /* SCN_DIALECT_ISO / _KERNEL, or -1 for both ("*") */
    char pattern[160];     /* see allowances.tsv */
    char targets[128];     /* "*" or "a,b,c" */
    char citation[480];
};

struct scn_diff_finding {
    enum scn_diff_verdict verdict;
    const char *klass;          /* "divergence" / "implementation-defined" / "" */
    size_t a, b;                /* indices (into the outs array) of the pair reported */
    char what[8];               /* what differs first: "ret", "bytes", "n" */
    char conv[8];               /* culprit conversion with its length ("La", "lc", "p"); "-" none */
    char fclass[16];            /* flags class of the culprit: flags in "-+ #0" order, "w", ".p" */
    char spec[48];              /* the culprit specification as written in the format */
    const struct scn_allowance *allowance; /* the entry applied (verdict IMPL) */
    char signature[192];        /* differential:<conv>:<fclass>:<ta>~<tb> */
    char detail[200];
};

/* Compares outs[0..n) (n <= SCN_DIFF_MAX_TARGETS, all of one dialect) on
 * case c. Returns the worst verdict over all pairs and describes the worst
 * (first) pair in *f. c is used (called) for the localisation, its %n slots
 * are clobbered. */
enum scn_diff_verdict scn_diff_compare(struct scn_case *c, const struct scn_diff_out *outs,
                                       size_t n, enum scn_dialect dialect,
                                       struct scn_diff_finding *f);

/* The verdicts of localised sub-cases are memoised across calls (exact
 * keys; only "same" and "allowed"; see differential.c). Off: env
 * SCN_DIFF_NO_MEMO=1 or scn_diff_set_memo(0) (which also empties it). */
void scn_diff_set_memo(int on);
void scn_diff_memo_stats(unsigned long long *hits, unsigned long long *misses);

/* 1 when all n outputs are equal (return value, bytes, %n values): the fast
 * path of scn_diff_compare, which calls nothing. */
int scn_diff_agree(const struct scn_diff_out *outs, size_t n);

/* Localises a property to one conversion specification of c: for each valid
 * specification in order, its sub-case (the specification alone, with its
 * own arguments) is passed to pred; the first for which pred returns nonzero
 * is described in conv/fclass (as in the signatures above) and its index
 * returned. When none does and the format has an invalid specification,
 * that one is returned (conv "!I"). -1 (conv "-") otherwise. */
int scn_case_localise(const struct scn_case *c, enum scn_dialect dialect,
                      int (*pred)(struct scn_case *sub, void *ctx), void *ctx,
                      char conv[8], char fclass[16]);

/* ---- the allowances table ---- */
/* Replaces the table with the TSV text (see allowances.tsv for the columns).
 * Returns the number of entries, or -1 with "line N: ..." in err. */
int scn_allowances_load(const char *text, size_t len, char *err, size_t errlen);
int scn_allowances_load_file(const char *path, char *err, size_t errlen);
size_t scn_allowances_count(void);
const struct scn_allowance *scn_allowance_at(size_t i);

/* Whether one allowance entry matches: the specification spec (as written,
 * e.g. "%-5La"; NULL for the whole case), its value argument (NULL if none),
 * the two targets and their outputs. Exposed for tests. */
int scn_allowance_matches(const struct scn_allowance *al, enum scn_dialect dialect,
                          const char *spec, const struct scn_arg *value, const struct scn_case *c,
                          const char *ta, const char *tb, int ret_a, int ret_b,
                          const unsigned char *out_a, size_t len_a,
                          const unsigned char *out_b, size_t len_b);

#ifdef __cplusplus
}
#endif

#endif /* SCN_DIFFERENTIAL_H */
