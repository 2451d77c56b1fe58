/* Helpers of the C tests of the shipped rows (beside check.h and
 * check_case.h): a row of the embedded known_bugs.tsv by its id, and
 * whether a rule claims what a target printed against the reference's
 * output for a case's first specification (or the whole case). */
#ifndef SCN_TEST_CHECK_RULE_H
#define SCN_TEST_CHECK_RULE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_case.h"
#include "rules.h"
#include "spec.h"

/* The shipped row id (embedded table). */
static inline const struct scn_rule *row(const char *id)
{
    for (size_t i = 0; i < scn_rules_count(); i++)
        if (!strcmp(scn_rule_at(i)->id, id)) return scn_rule_at(i);
    fprintf(stderr, "no row %s in the embedded known_bugs.tsv\n", id);
    exit(2);
}

/* Whether rule r explains the pair (reference, target) on the case's first
 * specification: the reference printed ref, the target out (their lengths
 * the returns). whole: the whole case, no culprit. */
static inline int claims(const struct scn_rule *r, const char *text, int whole, const char *target, const char *ref,
                         const char *out)
{
    struct scn_case *c = parse(text);
    static struct scn_spec sp[SCN_MAX_SPECS];
    char spec[64] = "";
    const struct scn_arg *val = NULL;
    if (!whole) {
        scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
        snprintf(spec, sizeof spec, "%.*s", (int)(sp[0].end - sp[0].start), c->fmt + sp[0].start);
        if (sp[0].varg >= 0) val = &c->args[sp[0].varg];
    }
    return scn_rule_matches(r, SCN_DIALECT_ISO, whole ? NULL : spec, val, c, "ref", target, (int)strlen(ref),
                            (int)strlen(out), (const unsigned char *)ref, strlen(ref), (const unsigned char *)out,
                            strlen(out));
}

#endif
