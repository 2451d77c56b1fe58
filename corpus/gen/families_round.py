"""Corpus families for issue 23's survivors: directed rounding.

C17 F.5 ("the binary-to-decimal conversion ... honors the current rounding direction"; also
7.6.3 fesetround) and IEEE 754-2019 5.12.2 make printf's correctly rounded digits (C17
7.21.6.1p13) depend on the rounding direction in force when it is called: %.0f of 1.5 is 2
upward and 1 downward, of -1.5 it is -1 upward. glibc (printf_fp.c's round_away) and musl
(fmt_fp finds the direction by adding doubles and long doubles) honour it. Every case here
carries its direction (the case's round=, docs/CASE_FORMAT.md): the call is made under it and
its expectation comes from MPFR in that direction (floatdigits.py, mpfr_fmt.c), cross-checked
with Python's decimal; %a's from the model's own hexadecimal rounding (model_iso.hexfloat).

FAMILIES lists them; families.all_cases() runs them after the others.
"""
from collections import namedtuple

from families import Case, D, DB, LD, float_kind

# a case of families.Case with the direction it is called under
RCase = namedtuple("RCase", Case._fields + ("round",))

DIRECTED = ("upward", "downward", "towardzero")
CITE = ("C17 F.5 (binary-to-decimal conversion honours the current rounding direction), 7.21.6.1p13, "
        "IEEE 754-2019 5.12.2; 7.21.6.1p8 (%s)")
ACITE = ("C17 7.21.6.1p8 (a: the value rounded to the precision; REF-CHOICE leading 1), F.5 (honours the "
         "rounding direction), IEEE 754-2019 5.12.2")


def rcase(fmt, arg, direction, what):
    conv = fmt.rstrip()[-1]
    cite = (ACITE if conv in "aA" else CITE % conv) + "; " + what
    return RCase("float.round", fmt.encode("latin-1"), (arg,), float_kind(conv), cite, None, True, False,
                 direction)


def H(s):
    """A double from its hexadecimal form (exact)."""
    return D(float.fromhex(s))


# (format, argument, what it shows): each is called under every directed mode.
DECIMAL = [
    # ties: an exact half at the precision's last place
    ("%.0f", D(0.5), "a tie at the units: 0 or 1"),
    ("%.0f", D(1.5), "a tie: 1 or 2"),
    ("%.0f", D(2.5), "a tie whose nearest-even is 2: 2 or 3"),
    ("%.0f", D(-0.5), "a negative tie: -0 or -1"),
    ("%.0f", D(-2.5), "a negative tie: -2 or -3"),
    ("%.2f", D(0.125), "a tie at the second place"),
    ("%.1e", D(-0.125), "a negative tie at the second digit"),
    ("%.0e", D(2.5), "a tie of %e at the units"),
    ("%.2f", D(1.005), "1.005 is 1.00499999999999989...: just below a tie"),
    ("%.2f", D(1.015), "1.015 is 1.01499999999999990...: just below a tie"),
    ("%.2f", D(1.125), "an exact tie at the second place"),
    # just above and just below the precision's last place
    ("%.1f", D(0.1), "0.1 is 0.1000000000000000055...: just above"),
    ("%.1f", D(0.3), "0.3 is 0.2999999999999999888...: just below"),
    ("%.1f", D(-0.1), "negative and just above in magnitude"),
    ("%.1f", D(-0.3), "negative and just below in magnitude"),
    ("%f", D(0.1), "%f's six places of 0.1"),
    ("%e", D(1.0 / 3.0), "%e's seven digits of 1/3"),
    ("%e", D(-2.0 / 3.0), "%e's seven digits of -2/3"),
    ("%.17g", D(0.1), "%.17g: the 17th digit of 0.1 in each direction"),
    ("%.20e", D(0.1), "20 digits, still inexact"),
    ("%g", D(100.0 / 3.0), "%g of 33.33..."),
    ("%G", D(-1e-5 / 3.0), "%G of a small negative value"),
    # carries into a new digit (and a new exponent, and %g's other style)
    ("%.1f", D(9.95), "9.95 is 9.949999999999999289...: 9.9 or 10.0"),
    ("%.0f", D(999999.5), "a tie that carries into a seventh digit"),
    ("%.3f", D(0.9999), "0.9999: 0.999 or 1.000"),
    ("%.0e", D(9.5), "9e+00 or 1e+01: a carry into the exponent"),
    ("%.2e", D(-9.995), "a negative carry into the exponent"),
    ("%g", D(999999.5), "%g: 999999 (f style) or 1e+06 (e style) by the rounded exponent"),
    ("%.3g", D(99.95), "%.3g: 99.9 or 100"),
    ("%.0f", H("0x1.fffffffffffffp+51"), "2^52 - 0.5: a tie that carries into 2^52"),
    ("%.15f", H("0x1.0000000000001p+0"), "1 + 2^-52 at 15 places: 0.5 ulp of the last place past it"),
    ("%.16e", H("0x1.fffffffffffffp+1023"), "DBL_MAX at 17 digits"),
    ("%.3e", H("0x1.fffffffffffffp+1023"), "DBL_MAX at 4 digits"),
    # subnormals
    ("%e", H("0x0.0000000000001p-1022"), "the least subnormal, 4.94e-324"),
    ("%.0e", H("-0x0.0000000000001p-1022"), "the least subnormal, negative, one digit"),
    ("%f", H("0x0.0000000000001p-1022"), "the least subnormal at six places: 0.000000 or 0.000001"),
    ("%f", H("-0x0.0000000000001p-1022"), "its negative: -0.000000 or -0.000001"),
    ("%.3e", H("0x0.fffffffffffffp-1022"), "the largest subnormal"),
    ("%a", H("0x0.fffffffffffffp-1022"), "the largest subnormal, exact in hexadecimal"),
    # a sign flag on a positive value: the value is positive, rounded as one (musl fmt_fp
    # decides the direction's sign from its prefix: '-', or '+' and ' ' for these flags)
    ("%+.1f", D(0.1), "the + flag on a positive value just above"),
    ("% .0f", D(2.5), "the space flag on a positive tie"),
    ("%+.1e", D(1.0 / 3.0), "the + flag on %e"),
    ("%+.1f", D(-0.1), "the + flag on a negative value"),
    # exact values: the same in every direction
    ("%f", D(0.25), "exact: no rounding"),
    ("%.1f", D(-0.0), "negative zero: -0.0 in every direction"),
    ("%e", D(1e22), "10^22 is exact in binary"),
    ("%f", D(float("-inf")), "infinity: no digits to round"),
    # long doubles (the x87 control word's direction)
    ("%.1Lf", LD((0, 0x3ffb, 0xcccccccccccccccd)), "0.1L is 0.1000000000000000000013...: just above"),
    ("%.1Lf", LD((1, 0x3ffb, 0xcccccccccccccccd)), "-0.1L"),
    ("%.0Lf", LD(2.5), "a long double tie"),
    ("%.0Le", LD(-9.5), "a negative long double carry into the exponent"),
    ("%.18Le", LD((0, 0x3ffd, 0xaaaaaaaaaaaaaaab)), "1/3 in a long double, 19 digits"),
    ("%Lg", LD((0, 0x3fff, 0x8000000000000001)), "1 + 2^-63 to six digits"),
    ("%Le", LD((0, 0, 1)), "the least long double subnormal, 3.6e-4951"),
]

# %a with a precision: the hexadecimal digits rounded in the direction
HEX = [
    ("%.0a", D(1.5), "1.8 to no digit: a tie"),
    ("%.0a", D(-1.5), "a negative tie"),
    ("%.1a", D(0.1), "0x1.999999999999ap-4 to one digit: 0x1.9 or 0x1.a"),
    ("%.1a", D(-0.1), "its negative"),
    ("%.2a", D(1.0 / 3.0), "0x1.5555555555555p-2 to two digits"),
    ("%.0a", H("0x1.fffffffffffffp+0"), "a carry into the leading digit: 0x1p+0 or 0x1p+1"),
    ("%.12a", H("0x1.0000000000001p+0"), "the last bit of 1 + 2^-52 dropped"),
    ("%+.1a", D(0.1), "the + flag on a positive value"),
    ("% .0a", D(1.5), "the space flag on a positive tie"),
    ("%.3La", LD((0, 0x3ffb, 0xcccccccccccccccd)), "0.1L to three digits"),
    ("%.0La", LD((1, 0x3fff, 0xc000000000000000)), "-1.5L to no digit"),
]


def fam_round_directed():
    """Each value of DECIMAL and HEX called under each directed rounding mode."""
    out = []
    for fmt, arg, what in DECIMAL + HEX:
        for direction in DIRECTED:
            out.append(rcase(fmt, arg, direction, what))
    return out


FAMILIES = (fam_round_directed,)
