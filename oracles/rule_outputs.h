/* The predicates of the rules' terms that look at two outputs: what an
 * output may differ in and still be right (rule_outputs.c). */
#ifndef SCN_RULE_OUTPUTS_H
#define SCN_RULE_OUTPUTS_H

#include <stddef.h>

#include "case.h"

/* hexvalue: what a %a/%A conversion of v is left free to choose (C17
 * 7.21.6.1p8: the digit before the point, "nonzero if the argument is a
 * normalized floating-point number and is otherwise unspecified", and so the
 * exponent) and nothing else: out (len bytes, no NUL among them) is
 * [sign]0xh[.hhh]p±d in the conversion's case (0x, the digits a-f and p for
 * a; 0X, A-F and P for A), its sign '-' for a set sign bit, else '+' or ' '
 * by the flags; with a precision exactly prec digits after the point, v
 * correctly rounded to them at the output's own exponent (to nearest, a tie
 * to the even digit, p13); without one exactly v, no trailing zero in the
 * fraction ("sufficient for an exact representation"); the point only before
 * a digit or with #; the exponent's digits without a leading zero, zero for
 * a zero v; laid out in a field of width w as the flags say: spaces after
 * it with '-', zeros after 0x with '0', else spaces before it, and padding
 * only up to w. */
struct scn_hex_want {
    long double v;
    int normal; /* v is a normalized value of the argument's own type */
    char conv;  /* 'a' or 'A' */
    long prec;  /* -1: none */
    long w;
    unsigned flags;
    unsigned char round; /* enum scn_round: the case's rounding direction, which a precision's cut rounds in;
                            or SCN_HEX_TIES_AWAY */
};
/* want.round: to nearest, a tie away from zero (hextieaway: trio's %.0a of
 * 2.5, 0x2.8p+0, as "0x3p+0") */
#define SCN_HEX_TIES_AWAY SCN_ROUND__COUNT
int scn_out_hex_ok(const unsigned char *out, size_t len, const struct scn_hex_want *want);

/* nullform: what a NULL %s prints (undefined, C17 7.1.4p1) is its own
 * spelling only: "(null)", nothing, or other text, laid out in its field
 * (spaces up to the width, on the right with '-'), and with a precision p
 * no more than p bytes (p8 (s): "no more than that many bytes are written");
 * "(null)" itself cut at p exactly, not shorter, not whole past p. */
int scn_out_null_ok(const unsigned char *out, size_t len, long prec, long w, unsigned flags);

/* nanform: out is a NaN as C17 7.21.6.1p8 (f, F) spells it, with the sign:
 * [-]nan or [-]nan(n-char-sequence), NAN for the upper-case conversions, '-'
 * when the argument's sign bit is set (7.12.3.6: signbit "reports the sign
 * of all values, including ... NaNs"), '+' or ' ' by those flags otherwise
 * (C11 footnote 277: on NaN "the -, +, and space flag characters have their
 * usual meaning; the # and 0 flag characters have no effect"), padded with
 * spaces to the width. */
int scn_out_nan_ok(const unsigned char *out, size_t len, int neg, char conv, long w, unsigned flags);

/* pspelling: the pointer's spelling (C17 7.21.6.1p8 (p): "in an
 * implementation-defined manner") laid out in its field: padded with spaces
 * to the width, on the right with '-'. The manner is the implementation's,
 * the value is the argument's: a non-NULL pointer's spelling writes its
 * hexadecimal digits (either case; a mutant printing "0" for 0x1 is no
 * spelling). With the 0 or # flag or a precision the behaviour is undefined
 * (p4, p6): any layout. */
int scn_out_pointer_ok(const unsigned char *out, size_t len, long w, unsigned flags, int prec,
                      const struct scn_arg *val);

/* digitsonly: the two outputs of a floating conversion of a finite value
 * differ only in digits (same_but_digits, or other_length: how many digits
 * %g keeps or a carry writes), and each writes the value faithfully
 * (digits_faithful: so no digit, of the exponent either, can be wrong). */
int scn_out_digits_only(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, const struct scn_arg *val,
                       char conv, unsigned flags, long w);

/* twicerounded: the two outputs (oa, ob) differ as digitsonly's do (only in
 * digits, or in how many %g keeps), and out (one of them, the blamed one)
 * writes the value rounded to 17 significant digits first and that rounded
 * again at its own last digit, a tie either way: a tie the first rounding
 * made goes up (stb's "%.2f" of 1.11499999999999999 = 1.1150000000000000:
 * "1.12"). */
int scn_out_twice_rounded(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                          const unsigned char *out, size_t len, const struct scn_arg *val, char conv, unsigned flags,
                          long w);

/* digitsnear: the two outputs (oa, ob) are laid out alike (the same
 * characters but digits and the exponent's sign: a carry into the next
 * decade, "1e+00" for "9e-01"; or of the lengths %g's dropped zeros or a
 * carry give, as digitsonly), and out (the blamed one) writes a number
 * within half a unit of its last digit of the value give or take k ulps of
 * its type, k the steps of a digit-by-digit conversion (the decimal
 * exponent's and the digits written, and 2): digits made by rounded
 * multiplications and divisions by 10, as apr_cvt's, then rounded. */
int scn_out_digits_near(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                        const unsigned char *out, size_t len, const struct scn_arg *val, char conv, unsigned flags,
                        long w);

/* fraczeros: one output is the other with the zeros after the point of a
 * style e result dropped ("1.e+03" for "1.00e+03": %#g's carry into style
 * e), with the same sign. Padding aside (spaces, or the 0 flag's zeros:
 * "01.E+02" for "1.0E+02" at width 7), but then both fill the same field:
 * a padding bug besides the carry is not this one. space_sign: the
 * specification has the space flag, so the space before a number without a
 * sign is its sign, not padding (glibc's "% #.2g" of 99.99997: " 1.e+02"). */
int scn_out_frac_zeros_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb,
                               int space_sign);

/* signdropped: one output writes the other's negative value without its
 * '-' (nothing, '+' or ' ' in its place, or a padding zero): the same
 * magnitude, the padding aside. */
int scn_out_sign_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb);

/* exponly: the two outputs are the same bytes up to and including the
 * exponent's letter (e or E: the last one), each followed by a sign and
 * digits only and then the same padding spaces ('-'): a wrong exponent
 * (apr's "%e" of 0: "0.000000e-01"), nothing else. */
int scn_out_exponent_only(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb);

/* samenumber: both outputs write the same decimal number with the same
 * significant digits (zeros after the last nonzero one aside), in any
 * spelling %f, %e and %g have: style f for e ("20000" and "2e+04"), ".125"
 * for "0.125", "1.E-10" for "1E-10", "7.62939e-6" for "7.62939e-06"; the
 * same sign character ('-', '+', the space flag's space, or none), each
 * laid out in its field of width w (unpad: spaces only up to w, on the
 * right with '-'; the 0 flag's zeros are digits of the number). A digit, a
 * sign or a width wrong besides is not this. */
int scn_out_same_number(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, long w,
                        unsigned flags);

/* gstyleswap: a %g/%G conversion of val (flags, width w, precision prec, -1
 * none) that C writes in style f (p8 (g): P > X >= -4, X the exponent of
 * the value rounded to P digits in the direction r), and out (ret, len
 * bytes) is its style e writing instead: the reference's %.{P-1}e in r, the
 * zeros after the point (and a point left alone) removed without #, in the
 * same field (spaces after it with '-', zeros after the sign with 0, else
 * spaces before it). Trio's style comes from the value before its rounding
 * ("1e-04" for "%.1g" of 0.0000992) or from a rounding to nearest ("9.99999e+05"
 * for "%g" of 999999.94 downward). more: P digits after the point instead
 * of P - 1, whatever style C writes (scaledbelowone: trio lays out a
 * mantissa it scaled to 0.99... as if it were in [1, 10): with # "%g" of
 * 1e20 is "1.000000e+20"). */
int scn_out_g_style_e(const struct scn_arg *val, char conv, unsigned flags, long w, long prec, enum scn_round r,
                      int more, int ret, const unsigned char *out, size_t len);

/* ofmagnitude: what the reference engine prints for c (a culprit's
 * sub-case) with the sign bits of its floating arguments cleared, in c's
 * direction: 0 with *ret, *out (valid until the next call) and *len, or -1
 * (no negative floating argument). */
int scn_out_ref_of_magnitude(const struct scn_case *c, enum scn_dialect d, int *ret, const unsigned char **out,
                             size_t *len);

/* respelled: out writes val as digitsnear's blamed output does (within half
 * a unit of its last digit of the value give or take the ulps of a
 * digit-by-digit conversion) with no more significant digits than the
 * precision P (6 without one, 1 for 0), zeros after the last nonzero one
 * aside, in any spelling samenumber allows; the same sign character as
 * other, each in its field. It holds where samenumber does: a row with it
 * is a %g spelled and rounded its own way at once (apr's
 * ".00012345678899999999" for "0.000123456789"), placed after the rows of
 * each alone. */
int scn_out_respelled(const unsigned char *out, size_t len, const unsigned char *other, size_t olen,
                      const struct scn_arg *val, long w, unsigned flags, long prec);

/* precless: out (ret, len bytes) is what the reference engine writes for
 * val with a smaller precision than prec (one of 0 .. prec - 1; none, -1, is 6), the same
 * conversion, flags and width w, in the direction r: curl's FORMAT_DOUBLE
 * lowers the precision by the value's integer digits even for %e and %g. */
int scn_out_less_prec(const struct scn_arg *val, char conv, unsigned flags, long w, long prec, enum scn_round r,
                      int ret, const unsigned char *out, size_t len);

/* leadingzero: out (len bytes) is other (olen) with a '0' before its first
 * digit (after the spaces and the sign), one byte longer or one padding
 * space fewer in a field of width w, and else the same
 * or digitsonly's difference (val, conv, flags, w): trio counts a digit too
 * many for a value just below a power of 10. */
int scn_out_leading_zero(const unsigned char *out, size_t len, const unsigned char *other, size_t olen,
                         const struct scn_arg *val, char conv, unsigned flags, long w);

/* asround: out (ret, len bytes) is what the reference engine prints for c
 * called under direction r instead of c's own (c: the culprit's sub-case,
 * or the whole case), byte for byte and the same return value; the
 * reference of dialect d. Recomputed from the case, never looked up. */
int scn_out_is_ref_under(const struct scn_case *c, enum scn_dialect d, enum scn_round r, int ret,
                         const unsigned char *out, size_t len);

#endif /* SCN_RULE_OUTPUTS_H */
