/* The terms of the rules' pattern language: the table (name, value, what
 * it looks at, matcher, doc line) and the predicates behind them. See
 * rule_terms.h. */
#define _GNU_SOURCE
#include "rule_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_form.h"
#include "rule_outputs.h"

/* ------------------------------------------------------------ the terms */

/* What a term looks at: the specification's form or its argument (judged on
 * a specification alone), the finding (oracle, size, death), the outputs,
 * the whole case. */
enum term_scope { AT_FORM, AT_FINDING, AT_OUTPUTS, AT_CASE };
static const char *const scope_name[] = { "form", "finding", "outputs", "case" };

/* the culprit specification, valid */
#define SPEC (x->s && !x->s->invalid)
/* both outputs there and not failed */
#define OUTS (x->k->ret_a >= 0 && x->k->ret_b >= 0 && x->k->oa && x->k->ob)

static int t_conv(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)num;
    return SPEC && scn_form_conv_listed(v, n, x->s->len, x->s->conv);
}
static int t_len(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)num;
    return SPEC && scn_form_len_listed(v, n, x->s->len);
}
static int t_flag(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)n, (void)num;
    const char *fc = strchr(SCN_FLAG_CHARS, v[0]);
    return x->s && fc && (x->s->flags & (1u << (fc - SCN_FLAG_CHARS)));
}
static int t_oracle(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)num;
    return scn_form_name_listed(v, n, x->oracle);
}
static int t_size(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    return x->k->sized && x->k->size == (size_t)num;
}
static int t_argpos(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    return scn_form_max_position(x->c, x->dialect) > num;
}
static int t_width_gt(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    unsigned fl = 0;
    return SPEC && scn_form_field_width(x->c, x->s, &fl) > num;
}
static int t_prec_gt(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    long prec;
    return SPEC && !scn_form_arg_prec(x->c, x->s, &prec) && prec > num;
}

#define EXACT(fn) static int fn(const struct scn_term_ctx *x, const char *v, size_t n, long num)
#define UNUSED (void)v, (void)n, (void)num
EXACT(t_arg_null) { UNUSED; return x->val && x->val->is_null; }
EXACT(t_arg_nan)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    return a && ((a->type == SCN_ARG_DOUBLE && isnan(a->v.d)) || (a->type == SCN_ARG_LDOUBLE && isnan(a->v.ld)));
}
EXACT(t_arg_nonfinite)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    long double d = !a ? 0 : a->type == SCN_ARG_LDOUBLE ? a->v.ld : a->type == SCN_ARG_DOUBLE ? (long double)a->v.d : 0;
    return isinf(d) || isnan(d);
}
EXACT(t_arg_nonascii)
{
    UNUSED;
    long prec = -1; /* (a * precision without its argument: all of the string) */
    if (SPEC) (void)scn_form_arg_prec(x->c, x->s, &prec);
    return x->val && scn_form_arg_is_nonascii(x->c, x->val, prec);
}
EXACT(t_arg_zero)
{
    UNUSED;
    return x->val && (x->val->type <= SCN_ARG_SIZE || x->val->type == SCN_ARG_WINT) && x->val->v.u == 0;
}
EXACT(t_prec) { UNUSED; return x->s && x->s->prec != -1; }
EXACT(t_noprec) { UNUSED; return x->s && x->s->prec == -1; }
EXACT(t_invalid) { UNUSED; return x->s && x->s->invalid; }
EXACT(t_whole) { UNUSED; return x->s == NULL; }
EXACT(t_ret_neg) { UNUSED; return x->k->ret_a < 0 && x->k->ret_b < 0; }
EXACT(t_positional) { UNUSED; return x->s && x->s->pos > 0; }
EXACT(t_width_neg)
{
    UNUSED;
    return x->s && x->s->width == SCN_SPEC_STAR && x->s->warg >= 0 && (int)x->c->args[x->s->warg].v.i < 0;
}
EXACT(t_prec_neg)
{
    UNUSED;
    return x->s && x->s->prec == SCN_SPEC_STAR && x->s->parg >= 0 && (int)x->c->args[x->s->parg].v.i < 0;
}
EXACT(t_sharedarg) { UNUSED; return !x->s && scn_form_shared_arg(x->c, x->dialect); }
EXACT(t_posnflagstar) { UNUSED; return scn_form_flagged_star_hidden(x->c, x->dialect); }
EXACT(t_dies) { UNUSED; return x->k->death; }
EXACT(t_hexvalue)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    long prec;
    if (!x->s || !x->val || scn_form_arg_prec(x->c, x->s, &prec) || k->ret_a < 0 || k->ret_b < 0) return 0;
    long double d = x->val->type == SCN_ARG_LDOUBLE ? x->val->v.ld
                  : x->val->type == SCN_ARG_DOUBLE ? (long double)x->val->v.d : NAN;
    unsigned fl = 0;
    long w = scn_form_field_width(x->c, x->s, &fl);
    return !isnan(d) && !isinf(d) && scn_out_hex_ok(k->oa, k->la, d, prec, w, fl) && scn_out_hex_ok(k->ob, k->lb, d, prec, w, fl);
}
EXACT(t_digitsonly)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    return SPEC && OUTS && scn_out_digits_only(k->oa, k->la, k->ob, k->lb, x->val, x->s->conv, fl, w);
}
EXACT(t_signdropped) { UNUSED; return OUTS && scn_out_sign_dropped(x->k->oa, x->k->la, x->k->ob, x->k->lb); }
EXACT(t_fraczeros) { UNUSED; return OUTS && scn_out_frac_zeros_dropped(x->k->oa, x->k->la, x->k->ob, x->k->lb); }
EXACT(t_nullform)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    unsigned fl = 0;
    long prec = -1, w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    return SPEC && !scn_form_arg_prec(x->c, x->s, &prec) && OUTS && scn_out_null_ok(k->oa, k->la, prec, w, fl) &&
           scn_out_null_ok(k->ob, k->lb, prec, w, fl);
}
static int sign_bit(const struct scn_arg *a)
{
    return a && (a->type == SCN_ARG_LDOUBLE ? signbit(a->v.ld) : signbit(a->v.d));
}
EXACT(t_nanform)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    int neg = sign_bit(x->val);
    return SPEC && OUTS && scn_out_nan_ok(k->oa, k->la, neg, x->s->conv, w, fl) && scn_out_nan_ok(k->ob, k->lb, neg, x->s->conv, w, fl);
}
EXACT(t_pspelling)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    int p = SPEC && x->s->prec != -1;
    return SPEC && OUTS && scn_out_pointer_ok(k->oa, k->la, w, fl, p, x->val) && scn_out_pointer_ok(k->ob, k->lb, w, fl, p, x->val);
}
#undef EXACT
#undef UNUSED

/* the values of the value terms */
static int v_nonempty(const char *v, size_t n, long *num)
{
    (void)v, (void)num;
    return n ? 0 : -1;
}
static int v_list(const char *v, size_t n, long *num) /* "a|b": no empty name */
{
    (void)num;
    if (!n || v[0] == '|' || v[n - 1] == '|') return -1;
    for (size_t i = 0; i + 1 < n; i++)
        if (v[i] == '|' && v[i + 1] == '|') return -1;
    return 0;
}
static int v_number(const char *v, size_t n, long *num, size_t maxdigits)
{
    if (!n || n > maxdigits) return -1;
    for (size_t i = 0; i < n; i++)
        if (v[i] < '0' || v[i] > '9') return -1;
    *num = strtol(v, NULL, 10);
    return 0;
}
static int v_count(const char *v, size_t n, long *num) { return v_number(v, n, num, 9); }
static int v_position(const char *v, size_t n, long *num) { return v_number(v, n, num, 4); }
static int v_flag(const char *v, size_t n, long *num)
{
    (void)num;
    return n == 1 && strchr(SCN_FLAG_CHARS, v[0]) ? 0 : -1;
}

typedef int term_value_fn(const char *v, size_t n, long *num);
typedef int term_holds_fn(const struct scn_term_ctx *x, const char *v, size_t n, long num);

struct term_def {
    const char *name;     /* an exact term, or a prefix ending in '=' or '>' its value follows */
    enum term_scope at;
    term_value_fn *value; /* value terms: 0 when the value is well formed */
    term_holds_fn *holds;
    const char *doc;
};

static const struct term_def terms[] = {
    { "conv=", AT_FORM, v_nonempty, t_conv,
      "conv=X|Y: the culprit's conversion; \"La\" is exactly length L and a, a bare letter any length" },
    { "len=", AT_FORM, v_nonempty, t_len, "len=X|Y: the culprit's length modifier (\"w\": any wN/wfN, \"-\": none)" },
    { "flag=", AT_FORM, v_flag, t_flag, "flag=C: the specification has flag C (one of -+ #0)" },
    { "prec", AT_FORM, NULL, t_prec, "the specification has a precision" },
    { "noprec", AT_FORM, NULL, t_noprec, "the specification has no precision" },
    { "spec=invalid", AT_FORM, NULL, t_invalid,
      "the culprit is an invalid specification (robust decoding: an unknown conversion, '%' at the end)" },
    { "positional", AT_FORM, NULL, t_positional, "the culprit specification uses the n$ form" },
    { "width<0", AT_FORM, NULL, t_width_neg, "the culprit's width is a negative * argument" },
    { "prec<0", AT_FORM, NULL, t_prec_neg, "the culprit's precision is a negative * argument" },
    { "width>", AT_FORM, v_count, t_width_gt, "width>N: the culprit's field width (a * argument's too) is above N" },
    { "prec>", AT_FORM, v_count, t_prec_gt, "prec>N: the culprit's precision (a * argument's too) is above N" },
    { "arg=null", AT_FORM, NULL, t_arg_null, "the value argument is a NULL pointer" },
    { "arg=nan", AT_FORM, NULL, t_arg_nan, "the value argument is a NaN" },
    { "arg=nonfinite", AT_FORM, NULL, t_arg_nonfinite, "the value argument is an infinity or a NaN" },
    { "arg=zero", AT_FORM, NULL, t_arg_zero, "the value argument is an integer or wint_t 0" },
    { "arg=nonascii", AT_FORM, NULL, t_arg_nonascii,
      "a %lc/%ls argument with a code point above 0x7f (the C locale cannot encode it); for %ls with a "
      "precision p, among its first p wide characters" },
    { "oracle=", AT_FINDING, v_list, t_oracle,
      "oracle=A|B: the finding is one of these oracles' (./scnfuzz oracles); without this term a rule explains "
      "differences of outputs only (the differential and expect.*)" },
    { "size=", AT_FINDING, v_count, t_size,
      "size=N: the oracle fired at buffer size N (the per-size oracles; a difference of full outputs has no size)" },
    { "dies", AT_FINDING, NULL, t_dies, "the target died (crash) or stalled (hang): only a rule with this term claims a death" },
    { "whole", AT_CASE, NULL, t_whole, "no culprit: the whole case differs, no single specification does" },
    { "sharedarg", AT_CASE, NULL, t_sharedarg, "(the whole case) an n$ argument is read twice" },
    { "argpos>", AT_CASE, v_position, t_argpos, "argpos>N: the format uses an n$ position above N" },
    { "posnflagstar", AT_CASE, NULL, t_posnflagstar,
      "an n$ specification with a flag has a *m$ width or precision no other specification reads, and the case "
      "reads an argument numbered above m" },
    { "ret<0", AT_OUTPUTS, NULL, t_ret_neg, "both targets returned a negative value" },
    { "hexvalue", AT_OUTPUTS, NULL, t_hexvalue,
      "both outputs are hexadecimal floats that are the correctly rounded value of the argument at their own "
      "normalisation (exact when no precision)" },
    { "digitsonly", AT_OUTPUTS, NULL, t_digitsonly,
      "a floating conversion of a finite value: the same length, only digits before the exponent differ, and "
      "each output writes the value faithfully (correctly rounded at the precision written, digits that read "
      "back as the value, or the value correctly rounded to 15 or more significant digits)" },
    { "fraczeros", AT_OUTPUTS, NULL, t_fraczeros,
      "one output is the other with the zeros after the point of a style e result dropped (\"1.e+03\" for "
      "\"1.00e+03\"), the padding aside" },
    { "signdropped", AT_OUTPUTS, NULL, t_signdropped, "one output is the other without its leading '-' (the padding aside)" },
    { "nanform", AT_OUTPUTS, NULL, t_nanform,
      "both outputs spell a NaN \"[-]nan\" or \"[-]nan(n-char-sequence)\" (\"NAN\" for F, E, G, A) with the "
      "argument's sign, padded with spaces to the width" },
    { "pspelling", AT_OUTPUTS, NULL, t_pspelling,
      "both outputs spell a pointer, padded with spaces to the width, a non-NULL one with its hexadecimal digits "
      "in it; with 0, # or a precision any layout" },
    { "nullform", AT_OUTPUTS, NULL, t_nullform,
      "(a NULL %s) both outputs spell it in their field: padded to the width, no more bytes than the precision, "
      "\"(null)\" cut at the precision exactly" },
};
#define NTERMS (sizeof terms / sizeof terms[0])

static int value_term(const struct term_def *d)
{
    size_t l = strlen(d->name);
    return d->name[l - 1] == '=' || d->name[l - 1] == '>';
}

/* the definition of the term t (n bytes), its value at *v */
static const struct term_def *lookup(const char *t, size_t n, const char **v)
{
    for (size_t i = 0; i < NTERMS; i++) {
        size_t l = strlen(terms[i].name);
        if (value_term(&terms[i]) ? n >= l && !memcmp(t, terms[i].name, l) : n == l && !memcmp(t, terms[i].name, l)) {
            *v = t + l;
            return &terms[i];
        }
    }
    return NULL;
}

int scn_terms_compile(struct scn_rule *r, char *bad, size_t badcap)
{
    r->nterms = 0;
    for (const char *p = r->pattern; *p;) {
        const char *e = strchr(p, '&');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        const char *v = NULL;
        const struct term_def *d = lookup(p, l, &v);
        long num = 0;
        size_t vn = l - (size_t)(v ? v - p : 0);
        if (!d || (d->value && d->value(v, vn, &num)) || r->nterms >= SCN_RULE_MAX_TERMS) {
            snprintf(bad, badcap, "%.*s", (int)l, p);
            return -1;
        }
        struct scn_rule_term *t = &r->terms[r->nterms++];
        t->def = (unsigned char)(d - terms);
        t->off = (unsigned char)(v - r->pattern);
        t->len = (unsigned char)vn;
        t->num = num;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

int scn_terms_hold(const struct scn_rule *r, const struct scn_term_ctx *x)
{
    for (size_t i = 0; i < r->nterms; i++) {
        const struct scn_rule_term *t = &r->terms[i];
        if (!terms[t->def].holds(x, r->pattern + t->off, t->len, t->num)) return 0;
    }
    return 1;
}

int scn_terms_have(const struct scn_rule *r, const char *name)
{
    for (size_t i = 0; i < r->nterms; i++)
        if (!strcmp(terms[r->terms[i].def].name, name)) return 1;
    return 0;
}

int scn_terms_by_form_alone(const struct scn_rule *r)
{
    for (size_t i = 0; i < r->nterms; i++) {
        const struct term_def *d = &terms[r->terms[i].def];
        if (d->at != AT_FORM && d->holds != t_oracle) return 0;
    }
    return 1;
}

void scn_terms_print(void)
{
    for (size_t i = 0; i < NTERMS; i++)
        printf("%s%s\t%s\t%s\n", terms[i].name, value_term(&terms[i]) ? "..." : "", scope_name[terms[i].at],
               terms[i].doc);
}
