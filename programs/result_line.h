/* The result line: one case checked on one target, as one JSON line. The
 * one writer of scn-conform's result lines and of scn-certify's conform and
 * retval lines (its fatal cases too): the same members with the same
 * meaning, the finding record of a failure nested under "finding"
 * (docs/FINDINGS.md says which lines carry what).
 *
 * Members, in this order, each only when set (a NULL string or a negative
 * number is left out, but "oracle", always there, may be null):
 *   phase, index         certification: its phase, the case's index in it
 *   target, category, case, kind, status ("pass", "fail", "error", "known"), oracle
 *   expected, actual     the expectation and the output in the corpus' text form
 *   from a per-size oracle's finding (f): ret, size, family, class, detail, buffer;
 *   else: ret (has_ret), size (a number when size >= 0, null when
 *   size_null), class, detail
 *   note, iso_matches, fatal, features, rule, rule_kind, signature, finding,
 *   file, line, citation
 */
#ifndef SCN_RESULT_LINE_H
#define SCN_RESULT_LINE_H

#include <stddef.h>

#include "finding.h"
#include "oracle.h"

struct scn_result {
    const char *phase;
    long index;                   /* -1: none */
    const char *target, *category;
    const char *case_text;        /* the case's text form (case_len bytes) */
    size_t case_len;
    const char *kind, *status, *oracle;
    const char *expected, *actual;
    const struct scn_finding *f;  /* a per-size oracle's: where it fired */
    int has_ret;
    long ret;                     /* without f: the return of the large-buffer call */
    long size;                    /* without f: the size of the call (-1: none) */
    int size_null;                /* without f: "size":null (the large-buffer call) */
    const char *klass, *detail;   /* without f */
    const char *note;
    /* the finding that came first when the result is an expectation the output
     * misses for another reason (scn-conform: the first explained by a rule;
     * certification: any first finding) */
    const char *after_oracle, *after_signature;
    int iso_matches, fatal;       /* certification: the ISO expectation matched; a fatal case */
    const char *features;         /* a JSON array, as it is */
    const char *rule, *rule_kind, *signature;
    const char *finding;          /* the record's JSON (finding.h), as it is */
    size_t finding_len;
    const char *file;
    long line;                    /* -1: none */
    const char *citation;
};

/* The members every line of these programs is made of (the writer's own,
 * for their other lines: a summary, certification's plan and end), appended
 * to b. The first member after a "{" gets no comma; a NULL string is left
 * out. dbl: 3 decimals. */
void scn_json_str(struct scn_jbuf *b, const char *k, const char *v);
void scn_json_num(struct scn_jbuf *b, const char *k, long long v);
void scn_json_dbl(struct scn_jbuf *b, const char *k, double v);
void scn_json_raw(struct scn_jbuf *b, const char *k, const char *v, size_t n);

/* A result with nothing set (index and line -1, size -1). */
struct scn_result scn_result_new(const char *case_text, size_t case_len, const char *status, const char *oracle);

/* The line, with its newline, in a buffer of this file's (valid until the
 * next call); *len its length. */
const char *scn_result_json(const struct scn_result *r, size_t *len);

/* ---- the features a case uses (member "features"; `scn-conform
 * --features`; certification's --profile) */

struct scn_spec;
enum { SCN_FEATURES_SYNTAX = 1, SCN_FEATURES_POINTER_EXT = 2 };

/* The features of specification s of c, each passed to each(name, ctx)
 * (0 from it stops: then 0): "%X" per conversion letter, "length M" (its
 * digits written N: "wN", "wfN"), "positional". SCN_FEATURES_SYNTAX:
 * everything the specification is written with: "%%" too, the length
 * modifier as written ("length w16"), "flag C" per flag character C of
 * "-+ #0", "width *", "precision *". SCN_FEATURES_POINTER_EXT: a %p
 * followed by letters or digits as "%pM" (the kernel's extensions). */
int scn_spec_features(const struct scn_case *c, const struct scn_spec *s, unsigned how,
                      int (*each)(const char *name, void *ctx), void *ctx);

/* The features of c (through the specification scanner of dialect d,
 * which stops after the first invalid specification), each once, as a
 * JSON array in a buffer of this file's. */
const char *scn_features_json(const struct scn_case *c, enum scn_dialect d, unsigned how);

#endif /* SCN_RESULT_LINE_H */
