/* The one scanner of conversion specifications: a case's format -> its
 * specifications (flags, width, precision, length, conversion, the case
 * arguments each one reads), as the dialect defines them. The differential
 * (localisation), the rules (allowances, known bugs) and the reducer
 * (rootcause.c) all read formats through it.
 */
#ifndef SCN_SPEC_H
#define SCN_SPEC_H

#include <stddef.h>

#include "case.h"

#ifdef __cplusplus
extern "C" {
#endif

/* flag bits, in "-+ #0" order */
#define SCN_FL_MINUS 1u
#define SCN_FL_PLUS 2u
#define SCN_FL_SPACE 4u
#define SCN_FL_HASH 8u
#define SCN_FL_ZERO 16u
#define SCN_FLAG_CHARS "-+ #0"

#define SCN_SPEC_NONE (-1) /* width / precision absent */
#define SCN_SPEC_STAR (-2) /* width / precision from an argument ('*') */

struct scn_spec {
    size_t start, end;    /* [start, end) in the format */
    unsigned flags;       /* SCN_FL_* */
    int width;            /* SCN_SPEC_NONE, SCN_SPEC_STAR, else the value */
    int prec;             /* SCN_SPEC_NONE, SCN_SPEC_STAR, else the value */
    int pos, wpos, ppos;  /* the n$ numbers of value, width, precision (0: none) */
    char len[5];          /* length modifier as written ("", "hh", "L", "w16") */
    char conv;            /* conversion letter (or the byte found there) */
    int invalid;          /* not a valid specification of the dialect (the scan stops) */
    int warg, parg, varg; /* case argument indices, -1 none */
};

#define SCN_MAX_SPECS 320

/* Scans the format of c into sp (up to and including the first invalid
 * specification; "%%" is a specification without argument). Returns the
 * count. */
size_t scn_scan_specs(const struct scn_case *c, enum scn_dialect dialect, struct scn_spec *sp, size_t max);

/* The same scan of a bare format whose call passes nargs arguments
 * (SIZE_MAX: as many as it reads): for a printf that is handed a format and
 * a va_list, not a case (the planted bugs' driver). */
size_t scn_scan_format(const char *fmt, size_t nargs, enum scn_dialect dialect, struct scn_spec *sp, size_t max);

/* Flags class: the flags in "-+ #0" order, "w" if a width, ".p" if a precision. */
void scn_spec_flags_class(const struct scn_spec *s, char *out, size_t cap);

/* The specification alone, with its own arguments: its text as written (so
 * "%.d" stays "%.d"), its n$ positions renumbered for the sub-case's
 * arguments (width, precision, value), so that a positional-only behaviour
 * stays positional; an unnumbered one keeps the case's arguments after its
 * own (in the registers a read of the wrong class takes). 0, or -1 when it
 * does not fit. */
int scn_spec_subcase(const struct scn_case *c, const struct scn_spec *s, struct scn_case *d);

/* Appends a copy of argument a (strings from arena) to d: 0, or -1 when full. */
int scn_case_add_arg(struct scn_case *d, const struct scn_arg *a, const char *arena);

/* Localises a property to one conversion specification of c: for each valid
 * specification in order, its sub-case is passed to pred; the first for
 * which pred returns nonzero is described in conv ("La", "d") and fclass
 * (scn_spec_flags_class) and its index returned. When none does and the
 * format has an invalid specification, that one is returned (conv "!I").
 * -1 (conv "-") otherwise. */
int scn_case_localise(const struct scn_case *c, enum scn_dialect dialect,
                      int (*pred)(struct scn_case *sub, void *ctx), void *ctx,
                      char conv[8], char fclass[16]);

#ifdef __cplusplus
}
#endif

#endif /* SCN_SPEC_H */
