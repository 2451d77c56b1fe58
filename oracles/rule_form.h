/* The predicates of the rules' terms that look at a specification, its
 * arguments or the whole case (rule_form.c). */
#ifndef SCN_RULE_FORM_H
#define SCN_RULE_FORM_H

#include <stddef.h>

#include "case.h"
#include "spec.h"

/* conversion list "a|A|La": a bare letter matches any length */
int scn_form_conv_listed(const char *list, size_t ln, const char *len, char conv);

/* "len=X|Y": "w" stands for every wN / wfN, "-" for no length modifier */
int scn_form_len_listed(const char *list, size_t ln, const char *len);

/* two specifications of c read the same n$ argument */
int scn_form_shared_arg(const struct scn_case *c, enum scn_dialect dialect);

/* posnflagskip: an n$ specification with a flag has an argument m the walk
 * to a higher one cannot step over rightly, and the case reads an argument
 * numbered above m: a *m$ width or precision that no other specification
 * reads (as its value, or as the * of a specification without a flag), or
 * a floating value m no specification without a flag reads. picolibc
 * 1.8.10's skip_to_arg (tinystdio/vfprintf.c) keeps FL_WIDTH from the n$
 * digits, so the flag after n$ is taken as the conversion: the *m$ in the
 * rest of that specification is never seen and its floating value is
 * stepped over as an int (another register class), so the walk to an
 * argument above m reads the wrong one. */
int scn_form_flagged_star_hidden(const struct scn_case *c, enum scn_dialect dialect);

/* An n$ specification of the case whose *m$ width or precision is not read
 * just before its value: a printf that reads each *m$ argument in sequence
 * right before the value it belongs to (curl's dprintf_Pass1) is right only
 * when the width is argument n-1 (with a *m$ precision too: width n-2,
 * precision n-1). */
int scn_form_star_out_of_order(const struct scn_case *c, enum scn_dialect dialect);

/* the largest n$ number the format of c uses (0: none) */
int scn_form_max_position(const struct scn_case *c, enum scn_dialect dialect);

/* A code point above 0x7f that the conversion converts: for %ls with a
 * precision p, only among the first p wide characters (each is at least one
 * byte, so the one at index p or later is past what p lets it write, and
 * C17 7.21.6.1p8 (s, l) lets it read no further than it needs: musl reading
 * the next one, an encoding error there, was a bug fixed upstream) */
int scn_form_arg_is_nonascii(const struct scn_case *c, const struct scn_arg *a, long prec);

/* the field width of s and its flags ('-' added for a negative * width) */
long scn_form_field_width(const struct scn_case *c, const struct scn_spec *s, unsigned *flags);

int scn_form_arg_prec(const struct scn_case *c, const struct scn_spec *s, long *prec);

/* "oracle=a|b": the list (l bytes) names the oracle */
int scn_form_name_listed(const char *list, size_t l, const char *name);

#endif /* SCN_RULE_FORM_H */
