/* The terms of the rules' pattern language (allowances.tsv, known_bugs.tsv),
 * in one table (rule_terms.def, read by rule_terms.c): each term's name, how its value is read, what
 * it matches, and its line of documentation (`scn-conform --list-terms`,
 * docs/FINDINGS.md). rules.c compiles a row's pattern once, when the table
 * is loaded, and matches the compiled terms. */
#ifndef SCN_RULE_TERMS_H
#define SCN_RULE_TERMS_H

#include <stddef.h>

#include "rules.h"

/* What a term is matched against. */
struct scn_term_ctx {
    const struct scn_case *c;
    enum scn_dialect dialect;
    const struct scn_culprit *k;
    const struct scn_spec *s;   /* the culprit specification (k->s), NULL for the whole case */
    const struct scn_arg *val;  /* its value argument, or NULL */
    const char *oracle;         /* the oracle that fired ("differential" when k names none) */
    unsigned wrong;             /* whose output the rule says is wrong: bit 0 ta's (k->oa), bit 1 tb's
                                   (k->ob); both for an allowance, which blames no one */
};

/* Compiles r->pattern (terms joined by '&') into r->terms: 0, or -1 with
 * the first term it does not know (or whose value is malformed) in bad. */
int scn_terms_compile(struct scn_rule *r, char *bad, size_t badcap);

/* Whether every term of r holds. */
int scn_terms_hold(const struct scn_rule *r, const struct scn_term_ctx *x);

/* Whether r has the term named name ("dies"; a value term by its prefix,
 * "oracle="). */
int scn_terms_have(const struct scn_rule *r, const char *name);

/* 1 when every term of r can be judged on one specification checked alone,
 * without outputs, the whole case or the finding (oracle= aside: the
 * specification alone is checked as a differential). */
int scn_terms_by_form_alone(const struct scn_rule *r);

/* The table as TSV: name, what it looks at, doc; a line a term. */
void scn_terms_print(void);

#endif /* SCN_RULE_TERMS_H */
