/* The rules that explain a difference between two targets, as data:
 *   allowances   oracles/allowances.tsv: the standard leaves the behaviour
 *                open (classification "implementation-defined");
 *   known bugs   oracles/known_bugs.tsv: a target's bug (kind "bug") or a
 *   and gaps     feature it lacks (kind "gap"), recorded with the versions,
 *                a reproducer and the upstream report or clause
 *                (classifications "known-bug" / "known-gap").
 * One pattern language for both: terms joined by '&', all of which must
 * hold (the table of terms: oracles/rule_terms.c, `scn-conform --list-terms`). Both
 * files are compiled in (the build embeds them) and can be replaced at run
 * time (scn_*_load*, env SCN_ALLOWANCES / SCN_KNOWN_BUGS read at the first
 * use). A broken table is a set-up error: the message names file and line
 * and the process exits 2.
 */
#ifndef SCN_RULES_H
#define SCN_RULES_H

#include <stddef.h>

#include "case.h"
#include "spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* in increasing severity: a pair's verdict takes the worst rule of its culprits */
enum scn_rule_kind { SCN_RULE_ALLOWANCE = 0, SCN_RULE_KNOWN_GAP = 1, SCN_RULE_KNOWN_BUG = 2 };

/* One term of a rule's pattern, compiled when the table is loaded
 * (oracles/rule_terms.c): which term, and its value (pattern[off, off+len),
 * as a number when it is one). */
struct scn_rule_term {
    unsigned char def, off, len;
    long num;
};
#define SCN_RULE_MAX_TERMS 12

struct scn_rule {
    char id[48];
    int kind;              /* enum scn_rule_kind */
    int dialect;           /* SCN_DIALECT_ISO / _KERNEL, or -1 for both ("*") */
    char pattern[160];
    char targets[128];     /* "*" or "a,b,c" */
    char versions[160];    /* known bugs: the versions seen affected */
    char reproducer[400];  /* known bugs: a case in the text form */
    char signature[120];   /* known bugs: what the reproducer is signed as, "oracle:shape:target"
                              (tests/test_known_bugs.py replays it); "" when the table has none */
    char citation[480];
    struct scn_rule_term terms[SCN_RULE_MAX_TERMS]; /* the pattern, compiled */
    unsigned char nterms;
};

/* "allowance", "known-bug", "known-gap" */
const char *scn_rule_kind_name(int kind);
/* the classification of a difference a rule explains */
const char *scn_rule_classification(int kind);

/* Replaces one table with TSV text (allowances: 5 columns; known bugs: 9,
 * or 8 without the signature column).
 * Returns the number of entries, or -1 with "line N: ..." in err. */
int scn_allowances_load(const char *text, size_t len, char *err, size_t errlen);
int scn_known_bugs_load(const char *text, size_t len, char *err, size_t errlen);
int scn_allowances_load_file(const char *path, char *err, size_t errlen);
int scn_known_bugs_load_file(const char *path, char *err, size_t errlen);

/* All rules: the allowances, then the known bugs and gaps. */
size_t scn_rules_count(void);
const struct scn_rule *scn_rule_at(size_t i);
/* Bumped whenever a table changes (memoised verdicts name rules by index). */
unsigned scn_rules_generation(void);

/* Every target's output of one culprit, in a comparison of several targets
 * (the differential): who is wrong. ref is the index of the reference (the
 * dialect's baseline, the first target of the comparison). */
struct scn_blame {
    size_t n, ref;
    const char *const *names;
    const int *ret;                  /* negative: the call failed (its bytes are not compared) */
    const unsigned char *const *out;
    const size_t *len;
    /* targets (bit i: names[i]) that a known bug or gap of their own already
     * explains against the reference on this case: two bugs that happen to
     * print the same bytes are no witness for each other */
    unsigned known_wrong;
    /* the %n values each target stored (in argument order), compared like the
     * bytes: NULL when not known (a culprit's own outputs, run alone) */
    const size_t *nn;
    const long long *const *nv;
};

/* What differs: one culprit specification of case c (NULL: the whole
 * case), with the two targets' outputs of it. */
struct scn_culprit {
    const struct scn_spec *s;
    int ret_a, ret_b;
    const unsigned char *oa, *ob;
    size_t la, lb;
    int death; /* not a difference: the target died (crash) or stalled (hang) */
    /* Who is wrong, for a known bug or gap. With all, the outputs of every
     * target: a listed target of the pair is wrong when its output differs
     * from the reference's and no target the rule does not list agrees with
     * it (else the reference is the odd one out). Without, tb is the target
     * checked (ta is its expectation: the reference, or tb itself). */
    const struct scn_blame *all;
    const char *oracle; /* the oracle that fired (oracle.h, "expect.output", ...); NULL: "differential" */
    int sized;          /* 1: size is the buffer size at which it fired (the per-size oracles) */
    size_t size;
    /* the %n values the two stored (in argument order; the whole case's),
     * NULL when not known */
    const long long *na, *nb;
    size_t nna, nnb;
};

/* The index (scn_rule_at) of the first rule (allowances first) that
 * explains culprit k of c between targets ta and tb, or -1. An allowance
 * needs both targets listed; a known bug or gap one of them that is wrong
 * (see struct scn_culprit). A rule without the term oracle= explains only
 * differences of outputs (the oracles differential, expect.output,
 * expect.err, expect.n), a death only with the term dies. */
int scn_rule_find(enum scn_dialect dialect, const struct scn_case *c, const struct scn_culprit *k,
                  const char *ta, const char *tb);

/* Whether rule r explains culprit k of c between ta and tb (what
 * scn_rule_find asks of each rule). */
int scn_rule_explains(const struct scn_rule *r, enum scn_dialect dialect, const struct scn_case *c,
                      const struct scn_culprit *k, const char *ta, const char *tb);

/* Whether one rule matches: the specification spec (as written, e.g.
 * "%-5La"; NULL for the whole case), its value argument (NULL if none), the
 * two targets and their outputs. Exposed for tests. */
int scn_rule_matches(const struct scn_rule *r, enum scn_dialect dialect, const char *spec,
                     const struct scn_arg *value, const struct scn_case *c, const char *ta,
                     const char *tb, int ret_a, int ret_b, const unsigned char *out_a, size_t len_a,
                     const unsigned char *out_b, size_t len_b);

#ifdef __cplusplus
}
#endif

#endif /* SCN_RULES_H */
