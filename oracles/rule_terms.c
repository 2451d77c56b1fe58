/* The terms of the rules' pattern language: the table (name, value, what
 * it looks at, matcher, doc line) and the predicates behind them. See
 * rule_terms.h. */
#define _GNU_SOURCE
#include "rule_terms.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_form.h"
#include "rule_outputs.h"
#include "spec.h"
#include "scn/ref_printf.h"

/* ------------------------------------------------------------ the terms */

static int v_list(const char *v, size_t n, long *num);

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
/* The digits of the integer part of the culprit's finite floating value
 * (0 below 1), or -1 when there is none such. */
static long int_digits(const struct scn_term_ctx *x)
{
    const struct scn_arg *a = x->val;
    if (!SPEC || !a || (a->type != SCN_ARG_DOUBLE && a->type != SCN_ARG_LDOUBLE)) return -1;
    long double d = fabsl(a->type == SCN_ARG_LDOUBLE ? a->v.ld : (long double)a->v.d);
    if (isnan(d) || isinf(d)) return -1;
    /* exactly (the reference engine: a long double's run to 4,933) */
    static char buf[5200];
    return d < 1 ? 0 : ref_snprintf(buf, sizeof buf, "%.0Lf", floorl(d));
}
static int t_fdigits_gt(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    long prec, ints = int_digits(x);
    if (ints < 0 || (x->s->conv | 32) != 'f' || scn_form_arg_prec(x->c, x->s, &prec)) return 0;
    return ints + (prec < 0 ? 6 : prec) > num;
}
static int t_intdigits_gt(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)v, (void)n;
    return int_digits(x) > num;
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
    /* %c: an int that is no ASCII code (sqlite encodes the whole int, 321 too, whose byte is 'A') */
    if (SPEC && x->s->conv == 'c' && !x->s->len[0] && x->val && x->val->type == SCN_ARG_INT)
        return (int)x->val->v.i < 0 || (int)x->val->v.i > 0x7f;
    return x->val && scn_form_arg_is_nonascii(x->c, x->val, prec);
}
EXACT(t_arg_min)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    if (!a) return 0;
    if (a->type == SCN_ARG_INT) return (int)a->v.i == INT_MIN;
    return a->type >= SCN_ARG_LONG && a->type <= SCN_ARG_PTRDIFF && a->v.i == LLONG_MIN;
}
EXACT(t_arg_negative)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    if (!a) return 0;
    if (a->type == SCN_ARG_DOUBLE) return signbit(a->v.d) != 0;
    if (a->type == SCN_ARG_LDOUBLE) return signbit(a->v.ld) != 0;
    if (a->type == SCN_ARG_INT) return (int)a->v.i < 0;
    return a->type >= SCN_ARG_LONG && a->type <= SCN_ARG_PTRDIFF && a->v.i < 0;
}
EXACT(t_arg_fzero)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    return a && ((a->type == SCN_ARG_DOUBLE && a->v.d == 0) || (a->type == SCN_ARG_LDOUBLE && a->v.ld == 0));
}
EXACT(t_flag0before)
{
    UNUSED;
    if (!x->s || !x->c) return 0;
    const char *p = x->c->fmt + x->s->start + 1, *end = x->c->fmt + x->s->end;
    const char *q = p; /* an n$ position before the flags */
    while (q < end && *q >= '0' && *q <= '9') q++;
    if (q > p && q < end && *q == '$') p = q + 1;
    int zero = 0;
    for (; p < end && strchr(SCN_FLAG_CHARS, *p); p++) {
        if (*p == '0') zero = 1;
        else if (zero) return 1;
    }
    return 0;
}
EXACT(t_narrows)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    int hh = SPEC && !strcmp(x->s->len, "hh"), h = SPEC && !strcmp(x->s->len, "h");
    if (!hh && !h) return 0;
    if (x->s->conv == 'n') return 1; /* the store's width: a signed char / short */
    if (!a || (a->type != SCN_ARG_INT && a->type != SCN_ARG_UINT)) return 0;
    /* C17 7.21.6.1p7: converted to (un)signed char / short int before printing, as the conversion is signed */
    int sgn = x->s->conv == 'd' || x->s->conv == 'i';
    long long iv = a->type == SCN_ARG_INT ? (long long)(int)a->v.i : (long long)(unsigned)a->v.u;
    if (hh) return sgn ? iv != (signed char)iv : iv != (unsigned char)iv;
    return sgn ? iv != (short)iv : iv != (unsigned short)iv;
}
/* the culprit's hh or h converts its nonzero int argument to 0 (256, 65536 ...) */
EXACT(t_narrowedzero)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    int hh = SPEC && !strcmp(x->s->len, "hh"), h = SPEC && !strcmp(x->s->len, "h");
    if ((!hh && !h) || x->s->conv == 'n' || !a || (a->type != SCN_ARG_INT && a->type != SCN_ARG_UINT)) return 0;
    unsigned iv = a->type == SCN_ARG_INT ? (unsigned)(int)a->v.i : (unsigned)a->v.u;
    return iv != 0 && (hh ? (unsigned char)iv : (unsigned short)iv) == 0;
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
EXACT(t_failed) { UNUSED; return x->k->ret_a < 0 || x->k->ret_b < 0; }
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
EXACT(t_posnflagskip) { UNUSED; return scn_form_flagged_star_hidden(x->c, x->dialect); }
EXACT(t_posnstarorder) { UNUSED; return scn_form_star_out_of_order(x->c, x->dialect); }
EXACT(t_dies) { UNUSED; return x->k->death; }
EXACT(t_round_directed) { UNUSED; return x->c && x->c->round != SCN_ROUND_NEAREST; }
/* What a %a/%A culprit's output must be (rule_outputs.h, hexvalue): 0, or
 * -1 when the culprit is not one of a finite value. */
static int hex_want_of(const struct scn_term_ctx *x, struct scn_hex_want *want)
{
    long prec;
    if (!x->s || !x->val || scn_form_arg_prec(x->c, x->s, &prec)) return -1;
    long double d = x->val->type == SCN_ARG_LDOUBLE ? x->val->v.ld
                  : x->val->type == SCN_ARG_DOUBLE ? (long double)x->val->v.d : NAN;
    unsigned fl = 0;
    long w = scn_form_field_width(x->c, x->s, &fl);
    if (isnan(d) || isinf(d)) return -1;
    /* normalized as the argument's type is: a double's subnormal is one even as a long double */
    int normal = x->val->type == SCN_ARG_LDOUBLE ? isnormal(d) : isnormal((double)d);
    *want = (struct scn_hex_want){ .v = d, .normal = normal, .conv = x->s->conv, .prec = prec, .w = w, .flags = fl,
                                   .round = x->c->round };
    return 0;
}
EXACT(t_hexvalue)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    struct scn_hex_want want;
    if (k->ret_a < 0 || k->ret_b < 0 || hex_want_of(x, &want)) return 0;
    return scn_out_hex_ok(k->oa, k->la, &want) && scn_out_hex_ok(k->ob, k->lb, &want);
}
/* the output of the target the rule blames (the first one it blames): its
 * return value, its bytes and their length; 0 when neither is blamed */
static int blamed_output(const struct scn_term_ctx *x, int *ret, const unsigned char **out, size_t *len)
{
    const struct scn_culprit *k = x->k;
    if (!(x->wrong & 3)) return 0;
    int a = x->wrong & 1;
    *ret = a ? k->ret_a : k->ret_b, *out = a ? k->oa : k->ob, *len = a ? k->la : k->lb;
    return *out != NULL;
}
/* hextieaway, scaledbelowone: the blamed output is the argument written as
 * want, changed by the caller, says (hexvalue's check, scn_out_hex_ok) */
static int hex_blamed(const struct scn_term_ctx *x, struct scn_hex_want *want, const unsigned char **out,
                      size_t *len)
{
    int ret;
    return OUTS && !hex_want_of(x, want) && blamed_output(x, &ret, out, len) && ret >= 0 && (size_t)ret == *len;
}
EXACT(t_hextieaway)
{
    UNUSED;
    struct scn_hex_want want;
    const unsigned char *out;
    size_t len;
    if (!x->c || x->c->round != SCN_ROUND_NEAREST || !hex_blamed(x, &want, &out, &len)) return 0;
    struct scn_hex_want even = want;
    want.round = SCN_HEX_TIES_AWAY;
    /* a tie: away and to even differ, and the blamed output is away's */
    return scn_out_hex_ok(out, len, &want) && !scn_out_hex_ok(out, len, &even);
}
/* the culprit's field width, flags and precision (-1 none), and the blamed output */
struct blamed_form {
    int ret;
    const unsigned char *out;
    size_t len;
    unsigned fl;
    long w, prec;
};
static int blamed_form(const struct scn_term_ctx *x, struct blamed_form *b)
{
    b->fl = 0, b->prec = -1;
    b->w = SPEC ? scn_form_field_width(x->c, x->s, &b->fl) : 0;
    return SPEC && OUTS && !scn_form_arg_prec(x->c, x->s, &b->prec) && blamed_output(x, &b->ret, &b->out, &b->len);
}
/* the %g/%G culprit's blamed output is the reference's style e writing
 * (rule_outputs.h, scn_out_g_style_e; more: P digits after the point) */
static int g_style_e(const struct scn_term_ctx *x, int more)
{
    struct blamed_form b;
    return blamed_form(x, &b) && scn_out_g_style_e(x->val, x->s->conv, b.fl, b.w, b.prec, (enum scn_round)x->c->round,
                                                   more, b.ret, b.out, b.len);
}
EXACT(t_scaledbelowone)
{
    UNUSED;
    if (SPEC && (x->s->conv | 32) == 'g') return (x->s->flags & SCN_FL_HASH) && g_style_e(x, 1);
    struct scn_hex_want want;
    const unsigned char *out;
    size_t len;
    if (!hex_blamed(x, &want, &out, &len) || want.v == 0 || !want.normal) return 0;
    if (scn_out_hex_ok(out, len, &want)) return 0; /* a nonzero digit there: right */
    want.normal = 0; /* the digit before the point left free, as a subnormal's */
    return scn_out_hex_ok(out, len, &want);
}
EXACT(t_ofmagnitude)
{
    UNUSED;
    const struct scn_arg *a = x->val;
    return SPEC && a && ((a->type == SCN_ARG_DOUBLE && signbit(a->v.d)) || (a->type == SCN_ARG_LDOUBLE && signbit(a->v.ld)));
}
EXACT(t_gstyleswap) { UNUSED; return g_style_e(x, 0); }
EXACT(t_digitsonly)
{
    UNUSED;
    const struct scn_culprit *k = x->k;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    return SPEC && OUTS && scn_out_digits_only(k->oa, k->la, k->ob, k->lb, x->val, x->s->conv, fl, w);
}
EXACT(t_exponly) { UNUSED; return OUTS && scn_out_exponent_only(x->k->oa, x->k->la, x->k->ob, x->k->lb); }
EXACT(t_samenumber)
{
    UNUSED;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    return SPEC && OUTS && scn_out_same_number(x->k->oa, x->k->la, x->k->ob, x->k->lb, w, fl);
}
EXACT(t_respelled)
{
    UNUSED;
    int ret;
    const unsigned char *out, *other;
    size_t len, olen;
    unsigned fl = 0;
    long prec = -1, w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    if (!SPEC || !OUTS || scn_form_arg_prec(x->c, x->s, &prec) || !blamed_output(x, &ret, &out, &len)) return 0;
    other = out == x->k->oa ? x->k->ob : x->k->oa, olen = out == x->k->oa ? x->k->lb : x->k->la;
    return scn_out_respelled(out, len, other, olen, x->val, w, fl, prec);
}
/* digitsnear, twicerounded: fn of both outputs and the blamed one */
typedef int blamed_digits_fn(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                             const unsigned char *out, size_t len, const struct scn_arg *val, char conv,
                             unsigned flags, long w);
static int blamed_digits(const struct scn_term_ctx *x, blamed_digits_fn *fn)
{
    int ret;
    const unsigned char *out;
    size_t len;
    unsigned fl = 0;
    long w = SPEC ? scn_form_field_width(x->c, x->s, &fl) : 0;
    const struct scn_culprit *k = x->k;
    return SPEC && OUTS && blamed_output(x, &ret, &out, &len) &&
           fn(k->oa, k->la, k->ob, k->lb, out, len, x->val, x->s->conv, fl, w);
}
EXACT(t_precless)
{
    UNUSED;
    struct blamed_form b;
    return blamed_form(x, &b) && scn_out_less_prec(x->val, x->s->conv, b.fl, b.w, b.prec, (enum scn_round)x->c->round,
                                                   b.ret, b.out, b.len);
}
EXACT(t_leadingzero)
{
    UNUSED;
    struct blamed_form b;
    if (!blamed_form(x, &b) || b.ret < 0 || (size_t)b.ret != b.len) return 0;
    const unsigned char *other = b.out == x->k->oa ? x->k->ob : x->k->oa;
    size_t olen = b.out == x->k->oa ? x->k->lb : x->k->la;
    return scn_out_leading_zero(b.out, b.len, other, olen, x->val, x->s->conv, b.fl, b.w);
}
EXACT(t_digitsnear) { UNUSED; return blamed_digits(x, scn_out_digits_near); }
EXACT(t_twicerounded) { UNUSED; return blamed_digits(x, scn_out_twice_rounded); }
EXACT(t_signdropped) { UNUSED; return OUTS && scn_out_sign_dropped(x->k->oa, x->k->la, x->k->ob, x->k->lb); }
EXACT(t_fraczeros)
{
    UNUSED;
    int space_sign = SPEC && (x->s->flags & SCN_FL_SPACE) && !(x->s->flags & SCN_FL_PLUS);
    return OUTS && scn_out_frac_zeros_dropped(x->k->oa, x->k->la, x->k->ob, x->k->lb, space_sign);
}
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
/* cutat: the culprit is chosen by scn_terms_hold (cut_holds); alone it only
 * says there was none (the whole case) */
EXACT(t_cutat) { UNUSED; return x->s == NULL; }
/* storedwide: likewise (wide_holds) */
EXACT(t_storedwide) { UNUSED; return x->s == NULL; }
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

/* asround=nearest|opposite: the direction the output of the target the
 * rule blames was written in, when not the case's own (its round=): to
 * nearest (the direction ignored), or the opposite one (upward and downward
 * swapped; toward zero is its own opposite). */
static int round_named(const char *v, size_t n, enum scn_round own, enum scn_round *r)
{
    static const enum scn_round opposite[SCN_ROUND__COUNT] = {
        [SCN_ROUND_NEAREST] = SCN_ROUND_NEAREST, [SCN_ROUND_UPWARD] = SCN_ROUND_DOWNWARD,
        [SCN_ROUND_DOWNWARD] = SCN_ROUND_UPWARD, [SCN_ROUND_TOWARDZERO] = SCN_ROUND_TOWARDZERO,
    };
    if (n == 7 && !memcmp(v, "nearest", 7)) *r = SCN_ROUND_NEAREST;
    else if (n == 8 && !memcmp(v, "opposite", 8)) *r = (unsigned)own < SCN_ROUND__COUNT ? opposite[own] : own;
    else return -1;
    return 0;
}
static int v_rounds(const char *v, size_t n, long *num)
{
    enum scn_round r;
    if (v_list(v, n, num)) return -1;
    for (size_t i = 0, j; i < n; i = j + 1) {
        for (j = i; j < n && v[j] != '|'; j++) {}
        if (round_named(v + i, j - i, SCN_ROUND_UPWARD, &r)) return -1;
    }
    return 0;
}
/* One output (ret, len bytes) is the reference's of the culprit under r:
 * byte for byte, but for a %a/%A culprit only up to what hexvalue leaves
 * free (the digit before the point: "0x2p+0" and the reference's "0x1p+1"
 * are one value rounded one way). */
static int written_under(const struct scn_term_ctx *x, const struct scn_case *of, enum scn_round r, int ret,
                         const unsigned char *out, size_t len)
{
    struct scn_hex_want want;
    if (x->s && (x->s->conv == 'a' || x->s->conv == 'A')) {
        if (ret < 0 || (size_t)ret != len || hex_want_of(x, &want)) return 0;
        want.round = (unsigned char)r;
        return scn_out_hex_ok(out, len, &want);
    }
    return scn_out_is_ref_under(of, x->dialect, r, ret, out, len);
}
static int t_asround(const struct scn_term_ctx *x, const char *v, size_t n, long num)
{
    (void)num;
    static struct scn_case sub;
    const struct scn_culprit *k = x->k;
    if (!x->c || (x->s && x->s->invalid) || !OUTS) return 0;
    /* the outputs are the culprit's alone (its sub-case), or the whole case's */
    if (x->s && scn_spec_subcase(x->c, x->s, &sub)) return 0;
    const struct scn_case *of = x->s ? &sub : x->c;
    for (size_t i = 0, j; i < n; i = j + 1) {
        enum scn_round r;
        for (j = i; j < n && v[j] != '|'; j++) {}
        if (round_named(v + i, j - i, (enum scn_round)of->round, &r) || r == of->round) continue;
        if (((x->wrong & 1) && written_under(x, of, r, k->ret_a, k->oa, k->la)) ||
            ((x->wrong & 2) && written_under(x, of, r, k->ret_b, k->ob, k->lb)))
            return 1;
    }
    return 0;
}

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
#define SCN_TERM(name, at, value, holds, doc) { name, at, value, holds, doc },
#include "rule_terms.def"
#undef SCN_TERM
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

/* ofmagnitude: x with the output the rule does not blame replaced by the
 * reference's for the culprit's magnitude (into *alt, *k); 0, or -1 when
 * there is none (no negative floating value; an allowance blames no one). */
static int of_magnitude(const struct scn_term_ctx *x, struct scn_term_ctx *alt, struct scn_culprit *k)
{
    static struct scn_case sub;
    int ret;
    const unsigned char *out;
    size_t len;
    if ((x->wrong & 3) == 3 || !(x->wrong & 3) || !SPEC || scn_spec_subcase(x->c, x->s, &sub) ||
        scn_out_ref_of_magnitude(&sub, x->dialect, &ret, &out, &len))
        return -1;
    *k = *x->k;
    if (x->wrong & 1) k->ret_b = ret, k->ob = out, k->lb = len;
    else k->ret_a = ret, k->oa = out, k->la = len;
    *alt = *x;
    alt->k = k;
    return 0;
}

/* Every term of r but skip holds, those that look at the outputs judging outs. */
static int all_hold(const struct scn_rule *r, const struct scn_term_ctx *x, const struct scn_term_ctx *outs,
                    term_holds_fn *skip)
{
    for (size_t i = 0; i < r->nterms; i++) {
        const struct scn_rule_term *t = &r->terms[i];
        const struct term_def *d = &terms[t->def];
        if (d->holds == skip) continue;
        if (!d->holds(d->at == AT_OUTPUTS && d->holds != t_ofmagnitude ? outs : x, r->pattern + t->off, t->len, t->num))
            return 0;
    }
    return 1;
}

/* cutat: a whole-case difference whose blamed output is what the reference
 * writes for the case's format cut just before one of its specifications:
 * the target stopped there (sqlite ends its output at a conversion it does
 * not know or whose temporary buffer it cannot get). That specification is
 * the culprit the rule's other terms judge; alone, the specification prints
 * the same in both (nothing, or in a larger buffer), so no culprit was found. */
static int cut_holds(const struct scn_rule *r, const struct scn_term_ctx *x)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    static struct scn_case cut;
    int ret;
    const unsigned char *out;
    size_t len;
    if (x->s || !x->c || !OUTS || !blamed_output(x, &ret, &out, &len) || (size_t)ret != len) return 0;
    /* the other output goes on from there (an allowance blames both: no cut) */
    const unsigned char *other = out == x->k->oa ? x->k->ob : x->k->oa;
    size_t olen = out == x->k->oa ? x->k->lb : x->k->la;
    if ((x->wrong & 3) == 3 || olen < len || memcmp(other, out, len)) return 0;
    size_t n = scn_scan_specs(x->c, x->dialect, sp, SCN_MAX_SPECS);
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].conv == '%') continue;
        memcpy(&cut, x->c, sizeof cut);
        cut.fmt[sp[i].start] = 0;
        cut.fmt_len = sp[i].start;
        if (!scn_out_is_ref_under(&cut, x->dialect, (enum scn_round)x->c->round, ret, out, len)) continue;
        struct scn_term_ctx at = *x;
        at.s = &sp[i];
        at.val = sp[i].varg >= 0 ? &x->c->args[sp[i].varg] : NULL;
        if (all_hold(r, &at, &at, t_cutat)) return 1;
    }
    return 0;
}

/* The rank among the case's %n arguments of argument i: the index of its
 * value in a target's stored values (argument order). */
static size_t n_rank(const struct scn_case *c, int i)
{
    size_t r = 0;
    for (int j = 0; j < i; j++) r += c->args[j].type == SCN_ARG_N;
    return r;
}

/* storedwide: a whole-case difference in the %n values alone (the same
 * return value and bytes: a %hhn or %hn alone stores nothing either target
 * shows apart from its bytes, so no culprit was found), each value of the
 * target the rule blames that differs from the other's being the store of a
 * %hhn or %hn written past its signed char or short (the full int stored:
 * SCN_N_WRITTEN_PAST, the object's neighbouring bytes changed) where the
 * other's fits the object. Each such specification is a culprit the rule's
 * other terms judge. */
static int wide_holds(const struct scn_rule *r, const struct scn_term_ctx *x)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    const struct scn_culprit *k = x->k;
    if (x->s || !x->c || !OUTS || (x->wrong & 3) == 3 || !(x->wrong & 3) || !k->na || !k->nb || k->nna != k->nnb)
        return 0;
    if (k->ret_a != k->ret_b || k->la != k->lb || memcmp(k->oa, k->ob, k->la)) return 0;
    const long long *bl = x->wrong & 1 ? k->na : k->nb, *ot = x->wrong & 1 ? k->nb : k->na;
    size_t n = scn_scan_specs(x->c, x->dialect, sp, SCN_MAX_SPECS), wide = 0;
    unsigned char covered[sizeof x->c->args / sizeof x->c->args[0]] = { 0 };
    if (k->nna > sizeof covered) return 0;
    for (size_t i = 0; i < n; i++) {
        const struct scn_spec *s = &sp[i];
        if (s->invalid || s->conv != 'n' || s->varg < 0 || (strcmp(s->len, "hh") && strcmp(s->len, "h"))) continue;
        size_t q = n_rank(x->c, s->varg);
        if (q >= k->nna || bl[q] != SCN_N_WRITTEN_PAST || ot[q] == SCN_N_WRITTEN_PAST) continue;
        struct scn_term_ctx at = *x;
        at.s = s;
        at.val = &x->c->args[s->varg];
        if (!all_hold(r, &at, &at, t_storedwide)) return 0;
        covered[q] = 1;
        wide++;
    }
    /* every value that differs is such a store */
    for (size_t i = 0; i < k->nna; i++)
        if (bl[i] != ot[i] && !covered[i]) return 0;
    return wide != 0;
}

int scn_terms_hold(const struct scn_rule *r, const struct scn_term_ctx *x)
{
    struct scn_term_ctx alt;
    struct scn_culprit k;
    const struct scn_term_ctx *outs = x; /* what the terms that look at the outputs see */
    for (size_t i = 0; i < r->nterms; i++) {
        if (terms[r->terms[i].def].holds == t_cutat) return cut_holds(r, x);
        if (terms[r->terms[i].def].holds == t_storedwide) return wide_holds(r, x);
        if (terms[r->terms[i].def].holds == t_ofmagnitude) {
            if (!t_ofmagnitude(x, NULL, 0, 0) || of_magnitude(x, &alt, &k)) return 0;
            outs = &alt;
        }
    }
    return all_hold(r, x, outs, NULL);
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
