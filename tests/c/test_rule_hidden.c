/* Tests of the rows for the output bugs scn-conform's hidden_miss showed
 * behind a size-0 rule (apr, stb, linux-tools), of trio's %g style and %a
 * digits, of sqlite's outputs that stop at a specification, of curl's
 * precision cut, picolibc's %g digits, trio's leading 0, apr's %.0hd of
 * 65536, the %hhn and %hn stores of curl, stb and trio, and of their terms
 * (oracles/rule_terms.c: arg=fzero, flag0before, exponly, samenumber,
 * gstyleswap, hextieaway, scaledbelowone, fdigits>, intdigits>, ofmagnitude,
 * respelled, digitsnear, twicerounded, cutat, precless, leadingzero,
 * narrowedzero, storedwide; the digits of digitsonly, which takes no leading
 * 0 for a carry and a 0 flag that pads nothing): each row claims
 * its bug, alone, and not a neighbouring wrong output of the same case shape
 * (a digit, a sign, a width or another flag besides). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_rule.h"
#include "rootcause.h"
#include "scn/ref_printf.h"
#include "target.h"

/* A row, a case (its first specification the culprit), what the reference
 * printed and what the row's target printed, and whether the row claims it. */
static const struct claim {
    const char *row, *text, *ref, *out;
    int claimed;
    const char *what;
} claim_table[] = {
    /* apr: -0's sign dropped, and nothing else */
    { "apr-negative-zero-unsigned", "\"%f\" double:-0x0p+0", "-0.000000", "0.000000", 1, "-0's sign dropped" },
    { "apr-negative-zero-unsigned", "\"%f\" double:-0x0p+0", "-0.000000", "0.00000", 0, "a digit dropped besides" },
    { "apr-negative-zero-unsigned", "\"%f\" double:-0x1.8p+0", "-1.500000", "1.500000", 0, "a nonzero value's sign" },
    { "apr-negative-zero-unsigned", "\"%f\" double:0x0p+0", "0.000000", "-0.000000", 0, "+0 given a sign" },
    { "apr-negative-zero-unsigned", "\"%g\" double:-0x0p+0", "-0", "0", 1, "%%g of -0" },
    /* apr: %e of 0 with the exponent -01 */
    { "apr-e-zero-exponent", "\"%e\" double:0x0p+0", "0.000000e+00", "0.000000e-01", 1, "the exponent of 0" },
    { "apr-e-zero-exponent", "\"%.2E\" double:0x0p+0", "0.00E+00", "0.00E-01", 1, "%%.2E of 0" },
    { "apr-e-zero-exponent", "\"%e\" double:0x0p+0", "0.000000e+00", "0.00000e-01", 0, "a digit fewer besides" },
    { "apr-e-zero-exponent", "\"%e\" double:0x0p+0", "0.000000e+00", "1.000000e+00", 0, "the mantissa" },
    { "apr-e-zero-exponent", "\"%e\" double:0x0p+0", "0.000000e+00", "0.000000e-1", 0, "one exponent digit" },
    { "apr-e-zero-exponent", "\"%e\" double:0x1p+0", "1.000000e+00", "1.000000e-01", 0, "not a zero" },
    { "apr-e-zero-exponent", "\"%14e\" double:0x0p+0", "  0.000000e+00", "  0.000000e-01", 1, "%%14e, the exponent alone" },
    { "apr-e-zero-exponent", "\"%14e\" double:0x0p+0", "  0.000000e+00", "0.000000e-01", 0, "%%14e, the width dropped besides" },
    { "apr-e-zero-exponent", "\"%-14e\" double:0x0p+0", "0.000000e+00  ", "0.000000e-01 ", 0, "%%-14e, the padding short besides" },
    /* apr: %g spelled by apr_gcvt: the same number, and only that */
    { "apr-g-gcvt-spelling", "\"%g\" double:0x1p-3", "0.125", ".125", 1, "no 0 before the point" },
    { "apr-g-gcvt-spelling", "\"%.1g\" double:0x1.139p+14", "2e+04", "20000", 1, "style f for e" },
    { "apr-g-gcvt-spelling", "\"%G\" double:0x1.b7cep-34", "1E-10", "1.E-10", 1, "a lone point" },
    { "apr-g-gcvt-spelling", "\"%g\" double:0x1p-17", "7.62939e-06", "7.62939e-6", 1, "one exponent digit" },
    { "apr-g-gcvt-spelling", "\"%#g\" double:0x1p+0", "1.00000", "1.", 1, "the zeros of # dropped" },
    { "apr-g-gcvt-spelling", "\"%8g\" double:-0x1p-1", "    -0.5", "     -.5", 1, "%%8g, in its field" },
    { "apr-g-gcvt-spelling", "\"%g\" double:0x1p-3", "0.125", ".126", 0, "a digit besides" },
    { "apr-g-gcvt-spelling", "\"%g\" double:0x1p-3", "0.125", "-.125", 0, "a sign besides" },
    { "apr-g-gcvt-spelling", "\"%8g\" double:0x1p-3", "   0.125", ".125", 0, "%%8g, the width dropped besides" },
    { "apr-g-gcvt-spelling", "\"%-8g\" double:0x1p-3", "0.125   ", "   .125", 0, "%%-8g, padded on the wrong side" },
    { "apr-g-gcvt-spelling", "\"%.1g\" double:0x1.139p+14", "2e+04", "30000", 0, "another number" },
    { "apr-g-gcvt-spelling", "\"%g\" double:inf", "inf", "Inf", 0, "no number" },
    { "apr-g-gcvt-spelling", "\"%e\" double:0x1p-3", "1.250000e-01", ".125", 0, "not %%g" },
    /* apr: the digits alone (digitsonly), not a spelling */
    { "apr-float-digits", "\"%.17f\" double:0x1.5555555555555p-1", "0.66666666666666663", "0.66666666666666661", 1, "digits past 16" },
    { "apr-float-digits", "\"%.0f\" double:0x1.4p+1", "2", "3", 1, "a tie rounded up" },
    { "apr-float-digits", "\"%.0f\" double:0x1.4p+1", "2", "4", 0, "not the value" },
    { "apr-float-digits", "\"%g\" double:0x1p-3", "0.125", ".125", 0, "no 0 before the point: a spelling" },
    { "apr-float-digits", "\"%G\" double:0x1.b7cep-34", "1E-10", "1.E-10", 0, "a lone point: a spelling" },
    { "apr-float-digits", "\"%g\" double:0x1p-17", "7.62939e-06", "7.62939e-6", 0, "one exponent digit" },
    { "apr-float-digits", "\"%#.0e\" double:0x1.4p+1", "2.e+00", "3.e+00", 1, "# keeps its point" },
    /* stb: a precision beside the 0 flag of %b */
    { "stb-zero-with-prec-b", "\"%02.1b\" uint:0", " 0", "00", 1, "%%02.1b" },
    { "stb-zero-with-prec-b", "\"%03.1B\" uint:0", "  0", "000", 1, "%%03.1B" },
    { "stb-zero-with-prec-b", "\"%02b\" uint:0", "00", " 0", 0, "no precision" },
    { "stb-zero-with-prec-b", "\"%02.1d\" int:0", " 0", "00", 0, "not %%b (matrix-zero-with-prec's)" },
    /* stb: precisions over 512 of the conversions whose zeros go to num[] */
    { "stb-radix-prec-overflow", "\"%.1100x\" uint:1", "0001", "00\x02", 1, "%%.1100x" },
    { "stb-radix-prec-overflow", "\"%.513o\" uint:1", "0001", "00\x02", 1, "%%.513o" },
    { "stb-radix-prec-overflow", "\"%.512x\" uint:1", "0001", "00\x02", 0, "a precision num[] holds" },
    { "stb-radix-prec-overflow", "\"%.1100d\" int:1", "0001", "00\x02", 0, "%%d: its zeros are not in num[]" },
    /* stb: the 0 flag ends the flags */
    { "stb-zero-flag-ends-flags", "\"%0-10d\" int:0", "0         ", "-10d", 1, "%%0-10d" },
    { "stb-zero-flag-ends-flags", "\"%+-0 x\" uint:0", "0", " x", 1, "%%+-0 x" },
    { "stb-zero-flag-ends-flags", "\"%0#x\" uint:0", "0", "#x", 1, "%%0#x" },
    { "stb-zero-flag-ends-flags", "\"%1$0-5d\" int:5", "5    ", "-5d", 1, "after an n$ position" },
    { "stb-zero-flag-ends-flags", "\"%-010d\" int:0", "0         ", "0000000000", 0, "the 0 after the -" },
    { "stb-zero-flag-ends-flags", "\"%05d\" int:5", "00005", "5", 0, "the 0 alone" },
    { "stb-zero-flag-ends-flags", "\"%#0x\" uint:1", "0x1", "1", 0, "the 0 last" },
    { "stb-zero-flag-ends-flags", "\"%0.0d\" int:0", "", "0", 0, "a precision after the 0 is no flag" },
    /* linux-tools: glibc's %#g carry, through vsnprintf */
    { "linux-tools-g-alt-carry", "\"%#g\" double:0x1.e847fp+19", "1.00000e+06", "1.e+06", 1, "the zeros dropped" },
    { "linux-tools-g-alt-carry", "\"%#g\" double:0x1.e847fp+19", "1.00000e+06", "1.0e+06", 0, "some zeros dropped" },
    { "linux-tools-g-alt-carry", "\"%#g\" double:0x1.e847fp+19", "1.00000e+06", "1.e+07", 0, "the exponent besides" },
    { "linux-tools-g-alt-carry", "\"%g\" double:0x1.e847fp+19", "1e+06", "1.e+06", 0, "without #" },
    /* trio: %g's style from the value before rounding, or from a rounding to nearest */
    { "trio-g-style-unrounded", "\"%.1g\" double:0x1.ap-14", "0.0001", "1e-04", 1, "0.0000992 in style e" },
    { "trio-g-style-unrounded", "\"%g\" double:0x1.e847fp+19 round=downward", "999999", "9.99999e+05", 1, "999999.94 downward in style e" },
    { "trio-g-style-unrounded", "\"%10.1g\" double:0x1.ap-14", "    0.0001", "     1e-04", 1, "in its field" },
    { "trio-g-style-unrounded", "\"%-10.1g\" double:0x1.ap-14", "0.0001    ", "1e-04     ", 1, "left in its field" },
    { "trio-g-style-unrounded", "\"%#.1g\" double:0x1.ap-14", "0.0001", "1.e-04", 1, "# keeps the point" },
    { "trio-g-style-unrounded", "\"%#.1g\" double:0x1.ap-14", "0.0001", "1e-04", 0, "# without its point" },
    { "trio-g-style-unrounded", "\"%.1g\" double:0x1.ap-14", "0.0001", "2e-04", 0, "a digit besides" },
    { "trio-g-style-unrounded", "\"%10.1g\" double:0x1.ap-14", "    0.0001", "1e-04", 0, "the width dropped besides" },
    { "trio-g-style-unrounded", "\"%g\" double:0x1.e847fp+19 round=downward", "999999", "9.999990e+05", 0, "a zero kept besides" },
    { "trio-g-style-unrounded", "\"%g\" double:0x1.e847fp+19 round=downward", "999999", "1e+06", 0, "the digits to nearest: not the direction's" },
    { "trio-g-style-unrounded", "\"%.1g\" double:0x1.139p+14", "2e+04", "20000", 0, "style f for e: the other way" },
    /* trio: %a's tie away from zero */
    { "trio-a-tie-away", "\"%.0a\" double:0x1.4p+1", "0x1p+1", "0x3p+0", 1, "2.5 = 0x2.8p+0 to 0x3p+0" },
    { "trio-a-tie-away", "\"%.1a\" double:0x1.08p+0", "0x1.0p+0", "0x1.1p+0", 1, "0x1.08 to 0x1.1" },
    { "trio-a-tie-away", "\"%.0a\" double:0x1.4p+1", "0x1p+1", "0x2p+0", 0, "the tie to even: right" },
    { "trio-a-tie-away", "\"%.0a\" double:0x1.6p+1", "0x1p+1", "0x3p+0", 0, "no tie (0x2.cp+0): right" },
    { "trio-a-tie-away", "\"%.0a\" double:0x1.4p+1", "0x1p+1", " 0x3p+0", 0, "a space besides" },
    { "trio-a-tie-away", "\"%.0a\" double:0x1.4p+1 round=upward", "0x2p+0", "0x3p+0", 0, "not to nearest" },
    { "trio-a-tie-away", "\"%.0a\" double:0x1.4p+1", "0x1p+1", "0x3p+1", 0, "the exponent besides" },
    /* trio: a mantissa scaled below 1 laid out as if in [1, base) */
    { "trio-scaled-below-one", "\"%a\" double:0x1.fffffffffffffp+1023", "0x1.fffffffffffffp+1023", "0x0.fffffffffffff8p+1024", 1, "DBL_MAX with 0 before the point" },
    { "trio-scaled-below-one", "\"%a\" double:0x1.fffffffffffffp+3", "0x1.fffffffffffffp+3", "0x0.fffffffffffff8p+4", 1, "below 16" },
    { "trio-scaled-below-one", "\"%a\" double:0x1.fffffffffffffp+3", "0x1.fffffffffffffp+3", "0x0.fffffffffffff0p+4", 0, "a digit besides" },
    { "trio-scaled-below-one", "\"%a\" double:0x1.8p+0", "0x1.8p+0", "0x3p-1", 0, "another nonzero digit: right" },
    { "trio-scaled-below-one", "\"%#g\" double:0x1.5af1d78b58c4p+66", "1.00000e+20", "1.000000e+20", 1, "%#g of 1e20, a digit more" },
    { "trio-scaled-below-one", "\"%#g\" double:0x1.a36e2eb1c432cp-14", "0.000100000", "1.000000e-04", 1, "%#g of 0.0001-, style e and a digit more" },
    { "trio-scaled-below-one", "\"%g\" double:0x1.5af1d78b58c4p+66", "1e+20", "1.000000e+20", 0, "without #" },
    { "trio-scaled-below-one", "\"%#g\" double:0x1.5af1d78b58c4p+66", "1.00000e+20", "1.0000000e+20", 0, "two digits more" },
    /* apr: the NDIG cap: %f's integer and precision digits together, %e's integer digits */
    { "apr-f-digits-cap", "\"%f\" double:0x1.249ad2594c37dp+332", "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.000000", "0", 1, "%f of 1e100" },
    { "apr-f-digits-cap", "\"%.10f\" double:0x1.7bf7b9b0a2bd1p+235", "x", "y", 1, "71 digits and 10" },
    { "apr-f-digits-cap", "\"%f\" double:0x1.21c81f7dd43a7p+239", "x", "y", 0, "73 digits and 6: under the cap" },
    { "apr-f-digits-cap", "\"%e\" double:0x1.249ad2594c37dp+332", "1.000000e+100", "0.000000e+79", 0, "not %f" },
    { "apr-e-digits-cap", "\"%e\" double:0x1.249ad2594c37dp+332", "1.000000e+100", "0.000000e+79", 1, "%e of 1e100" },
    { "apr-e-digits-cap", "\"%G\" double:0x1.249ad2594c37dp+332", "1E+100", "0E+79", 1, "%G of 1e100" },
    { "apr-e-digits-cap", "\"%e\" double:0x1.afcef51f0fb5ep+265", "9.999999e+79", "0.999999e+79", 0, "80 digits: under the cap" },
    { "apr-e-digits-cap", "\"%f\" double:0x1.249ad2594c37dp+332", "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.000000", "0", 0, "not %e" },
    /* apr: -0's sign dropped and another bug at once (ofmagnitude) */
    { "apr-e-negative-zero", "\"%e\" double:-0x0p+0", "-0.000000e+00", "0.000000e-01", 1, "-0 as +0, the exponent -01" },
    { "apr-e-negative-zero", "\"%e\" double:-0x0p+0", "-0.000000e+00", "-0.000000e-01", 0, "the sign kept" },
    { "apr-e-negative-zero", "\"%e\" double:-0x0p+0", "-0.000000e+00", "0.00000e-01", 0, "a digit fewer besides" },
    { "apr-e-negative-zero", "\"%e\" double:-0x0p+0", "-0.000000e+00", "0.000000e+00", 0, "the sign alone (apr-negative-zero-unsigned's)" },
    { "apr-e-negative-zero", "\"%e\" double:0x0p+0", "0.000000e+00", "0.000000e-01", 0, "+0 (apr-e-zero-exponent's)" },
    { "apr-g-negative-zero", "\"%#g\" double:-0x0p+0", "-0.00000", "0.", 1, "%#g of -0 as gcvt's +0" },
    { "apr-g-negative-zero", "\"%#g\" double:-0x0p+0", "-0.00000", "-0.", 0, "the sign kept" },
    { "apr-g-negative-zero", "\"%#g\" double:-0x0p+0", "-0.00000", "1.", 0, "another number" },
    { "apr-g-negative-zero", "\"%#g\" double:0x0p+0", "0.00000", "0.", 0, "+0" },
    /* apr: %g's spelling and its digits at once (respelled) */
    { "apr-g-gcvt-digits", "\"%.1g\" double:0x1p-2", "0.2", ".3", 1, "0.25: the tie up, no 0" },
    { "apr-g-gcvt-digits", "\"%.17g\" double:0x1.02e85be111841p-13", "0.000123456789", ".00012345678899999999", 1, "digits a few ulps off, no 0" },
    { "apr-g-gcvt-digits", "\"%.1g\" double:0x1.9p+4", "2e+01", "30", 1, "25: the tie up, style f" },
    { "apr-g-gcvt-digits", "\"%.1g\" double:0x1p-2", "0.2", ".4", 0, "not the value" },
    { "apr-g-gcvt-digits", "\"%.1g\" double:0x1p-2", "0.2", "-.3", 0, "a sign besides" },
    { "apr-g-gcvt-digits", "\"%.2g\" double:0x1p-2", "0.25", ".253", 0, "more digits than P" },
    { "apr-g-gcvt-digits", "\"%5.1g\" double:0x1p-2", "  0.2", ".3", 0, "the width dropped besides" },
    /* apr: digits made in double arithmetic (digitsnear) */
    { "apr-float-digits", "\"%.0e\" double:0x1.e666666666666p-1", "9e-01", "1e+00", 1, "0.95-: a carry into 10^0" },
    { "apr-float-digits", "\"%f\" double:-0x1.b41e791d0b59p+91", "-4217884499962893094101188608.000000", "-4217884499962892000000000000.000000", 1, "2 ulps off" },
    { "apr-float-digits", "\"%.17e\" double:-0x1.bff2ee48e053p-333", "-1.00000000000000002e-100", "-1.00000000000000067e-100", 1, "1e-100: 100 scalings" },
    { "apr-float-digits", "\"%.17e\" double:-0x1.bff2ee48e053p-333", "-1.00000000000000002e-100", "-1.00000000000100000e-100", 0, "far off (4,500 ulps)" },
    { "apr-float-digits", "\"%.0e\" double:0x1.e666666666666p-1", "9e-01", "2e+00", 0, "not the value" },
    { "apr-float-digits", "\"%.0e\" double:0x1.e666666666666p-1", "9e-01", "1e+01", 0, "the exponent's digits besides" },
    /* stb: the digits rounded twice */
    { "stb-float-double-rounding", "\"%.2f\" double:0x1.1d70a3d70a3d7p+0", "1.11", "1.12", 1, "1.11499999999999999: 1.1150000000000000, then up" },
    { "stb-float-double-rounding", "\"%.2f\" double:0x1.1d70a3d70a3d7p+0", "1.11", "1.13", 0, "no rounding of it" },
    { "stb-float-double-rounding", "\"%.3f\" double:0x1.1d70a3d70a3d7p+0", "1.115", "1.116", 0, "%.3f: no rounding of it" },
    { "stb-float-double-rounding", "\"%.2f\" double:0x1.1d70a3d70a3d7p+0", "1.11", " 1.12", 0, "a space besides" },
    /* picolibc: %g of the shortest digits that read back (digitsonly, a 0 flag that pads nothing too) */
    { "picolibc-float-shortest-digits", "\"%0.19G\" double:0x1p-64", "5.42101086242752217E-20", "5.421010862427522E-20", 1, "2^-64: 16 digits" },
    { "picolibc-float-shortest-digits", "\"%0g\" double:0x0.0000000000001p-1022", "4.94066e-324", "5e-324", 1, "the smallest subnormal: 1 digit" },
    { "picolibc-float-shortest-digits", "\"%.19g\" double:0x1.3333333333333p-2", "0.2999999999999999889", "0.3", 1, "0.3-: 1 digit" },
    { "picolibc-float-shortest-digits", "\"%25.19G\" double:0x1p-64", "  5.42101086242752217E-20", "    5.421010862427522E-20", 1, "in its field" },
    { "picolibc-float-shortest-digits", "\"%0.19G\" double:0x1p-64", "5.42101086242752217E-20", "5.421010862427523E-20", 0, "a wrong last digit" },
    { "picolibc-float-shortest-digits", "\"%25.19G\" double:0x1p-64", "  5.42101086242752217E-20", "5.421010862427522E-20", 0, "the width dropped besides" },
    { "picolibc-float-shortest-digits", "\"%0.19G\" double:-0x1p-64", "-5.42101086242752217E-20", "5.421010862427522E-20", 0, "the sign dropped besides" },
    { "picolibc-float-shortest-digits", "\"%.19e\" double:0x1p-64", "5.4210108624275221700e-20", "5.421010862427522e-20", 0, "not %%g" },
    /* trio: an integer digit too many, a leading 0 (leadingzero); digitsonly takes no leading 0 for a carry */
    { "trio-leading-zero", "\"%0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392.000000", "099999999999999991618642.000000", 1, "a leading 0, inexact digits" },
    { "trio-leading-zero", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "099999999999999991611392", 1, "a leading 0 alone" },
    { "trio-leading-zero", "\"%.40g\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "099999999999999991618642", 1, "%%.40g, style f" },
    { "trio-leading-zero", "\"%.2e\" double:0x1.52d02c7e14af6p+76", "1.00e+23", "01.00e+23", 0, "not f or g" },
    { "trio-leading-zero", "\"%40f\" double:0x1.52d02c7e14af6p+76", "          99999999999999991611392.000000", "         099999999999999991618642.000000", 1, "in its field: a space fewer" },
    { "trio-leading-zero", "\"%-40f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392.000000          ", "099999999999999991618642.000000         ", 1, "left-justified" },
    { "trio-leading-zero", "\"%.0f\" double:-0x1.52d02c7e14af6p+76", "-99999999999999991611392", "-099999999999999991611392", 1, "after the sign" },
    { "trio-leading-zero", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "099999999899999991611392", 0, "a digit not the value's besides" },
    { "trio-leading-zero", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "0099999999999999991611392", 0, "two zeros" },
    { "trio-leading-zero", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "199999999999999991611392", 0, "a 1, no 0" },
    { "trio-leading-zero", "\"%40f\" double:0x1.52d02c7e14af6p+76", "          99999999999999991611392.000000", "099999999999999991618642.000000", 0, "the width dropped besides" },
    { "trio-float-inexact", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "099999999999999991618642", 0, "digitsonly: a leading 0 is no carry" },
    { "trio-float-inexact", "\"%.0f\" double:0x1.52d02c7e14af6p+76", "99999999999999991611392", "99999999999999991618642", 1, "digitsonly: the digits alone" },
    { "trio-float-inexact", "\"%0.72g\" double:0x1.02a2p-70", "8.557441930802494117693120234680037583530065603554248809814453125e-22", "8.557441930802494117584700017431487140129320323467254638671875e-22", 1, "digitsonly: %%g's digits, a 0 flag padding nothing" },
    { "trio-float-inexact", "\"%0.72g\" double:0x1.02a2p-70", "8.557441930802494117693120234680037583530065603554248809814453125e-22", "8.557441930802494117584700017431487140129320323467254638671875e-21", 0, "digitsonly: the exponent besides" },
    { "trio-float-inexact", "\"%070.60g\" double:0x1.02a2p-70", "000008.55744193080249411769312023468003758353006560355424880981445e-22", "8.557441930802494117584700017431487140129320323467254638671875e-22", 0, "digitsonly: the 0 flag's padding dropped" },
    /* apr: precision 0 of the zero h makes of its argument (narrowedzero) */
    { "apr-prec0-zero-narrowed", "\"%.0hd\" int:327680", "", "0", 1, "327680 as a short is 0" },
    { "apr-prec0-zero-narrowed", "\"%.0hx\" uint:65536", "", "0", 1, "%%.0hx of 65536" },
    { "apr-prec0-zero-narrowed", "\"%.0hd\" int:65537", "1", "0", 0, "65537 as a short is 1" },
    { "apr-prec0-zero-narrowed", "\"%.0hd\" int:0", "", "0", 0, "a zero argument: matrix-prec0-zero's" },
    { "apr-prec0-zero-narrowed", "\"%.0d\" int:65536", "65536", "0", 0, "no h" },
    { "apr-prec0-zero-narrowed", "\"%hd\" int:327680", "0", "00", 0, "no precision" },
    /* curl: the precision lowered by the integer digits (precless) */
    { "curl-float-prec-cut-intdigits", "\"%.17e\" double:0x1.fffffffffffffp+1023", "1.79769313486231571e+308", "1.797693134862316e+308", 1, "DBL_MAX's %%.17e: 15 digits" },
    { "curl-float-prec-cut-intdigits", "\"%30.17e\" double:0x1.fffffffffffffp+1023", "      1.79769313486231571e+308", "        1.797693134862316e+308", 1, "in its field" },
    { "curl-float-prec-cut-intdigits", "\"%.17g\" double:0x1.fffffffffffffp+1023", "1.7976931348623157e+308", "1.79769313486232e+308", 1, "%%.17g: 15 digits" },
    { "curl-float-prec-cut-intdigits", "\"%.17e\" double:0x1.fffffffffffffp+1023", "1.79769313486231571e+308", "1.797693134862315e+308", 0, "the last digit wrong besides" },
    { "curl-float-prec-cut-intdigits", "\"%.17e\" double:0x1.fffffffffffffp+1023", "1.79769313486231571e+308", "1.797693134862316e+307", 0, "the exponent wrong besides" },
    { "curl-float-prec-cut-intdigits", "\"%30.17e\" double:0x1.fffffffffffffp+1023", "      1.79769313486231571e+308", "1.797693134862316e+308", 0, "the width dropped besides" },
    { "curl-float-prec-cut-intdigits", "\"%.17e\" double:0x1.fffffffffffffp+1023", "1.79769313486231571e+308", "1.797693134862315710e+308", 0, "a digit more" },
    { "curl-float-prec-cut-intdigits", "\"%.17e\" double:0x1.7d784p+26", "1.00000000000000000e+08", "1.000000000000000e+08", 0, "9 integer digits (below curl-float-prec-cap's 316, no cut)" },
};

/* Each claim of a table, its case's first specification the culprit or
 * (whole) none, the output target's (NULL: the row's targets) */
static void check_claims(const struct claim *table, size_t n, int whole, const char *target)
{
    for (size_t i = 0; i < n; i++) {
        const struct claim *t = &table[i];
        const struct scn_rule *r = row(t->row);
        CHECK(claims(r, t->text, whole, target ? target : r->targets, t->ref, t->out) == t->claimed,
              "%s, %s: %s (%s)", t->row, t->text, t->what, t->claimed ? "not claimed" : "claimed");
    }
}

static void test_rows(void)
{
    check_claims(claim_table, sizeof claim_table / sizeof claim_table[0], 0, NULL);
}

/* The rows whose term cutat takes, in a whole-case difference, the
 * specification the target stopped just before as the culprit: a case, what
 * the reference printed for the whole case and what sqlite printed. */
static const struct claim cut_table[] = {
    /* an unknown length modifier ends the output */
    { "sqlite-length-ends-output", "\"abc%hhndef\" n:schar", "abcdef", "abc", 1, "%%hhn: the output ends" },
    { "sqlite-length-ends-output", "\"[%hd]\" int:5", "[5]", "[", 1, "%%hd: the output ends" },
    { "sqlite-length-ends-output", "\"x%tn|%d\" n:ptrdiff int:5", "x|5", "x", 1, "%%tn, a conversion after it" },
    { "sqlite-length-ends-output", "\"abc%hhndef\" n:schar", "abcdef", "ab", 0, "cut before the text" },
    { "sqlite-length-ends-output", "\"abc%hhndef\" n:schar", "abcdef", "abcd", 0, "cut after the specification" },
    { "sqlite-length-ends-output", "\"abc%hhndef\" n:schar", "abcdef", "abx", 0, "a wrong byte" },
    { "sqlite-length-ends-output", "\"abc%hhndef\" n:schar", "abxdef", "abc", 0, "the reference's output does not go on from it" },
    { "sqlite-length-ends-output", "\"ab%lnc%hhn\" n:long n:schar", "abc", "ab", 0, "cut at %%ln (sqlite knows l)" },
    { "sqlite-length-ends-output", "\"%d|%hhn\" int:12 n:schar", "12|", "1", 0, "cut inside the %%d's digits" },
    /* no %b */
    { "sqlite-b-ends-output", "\"[%.0b]\" uint:0", "[]", "[", 1, "%%.0b of 0" },
    { "sqlite-b-ends-output", "\"[%.0d]\" int:0", "[]", "[", 0, "%%.0d: not %%b" },
    /* %lc of 0 writes a NUL */
    { "sqlite-lc-nul-ends-output", "\"[%lc]\" wint:0", "[]", "[", 1, "%%lc of 0" },
    { "sqlite-lc-nul-ends-output", "\"[%lc]\" wint:65", "[A]", "[", 0, "%%lc of 'A'" },
    /* the temporary buffer sqlite cannot get into the exact size */
    { "sqlite-tempbuf-cut-int", "\"ab%.40d\" int:1", "ab0000000000000000000000000000000000000001", "ab", 1, "%%.40d" },
    { "sqlite-tempbuf-cut-int", "\"ab%.30d\" int:1", "ab000000000000000000000000000001", "ab", 0, "a precision of 30" },
    { "sqlite-tempbuf-cut-int", "\"ab%.40d\" int:1", "ab0000000000000000000000000000000000000001", "", 0, "the text dropped too" },
    { "sqlite-tempbuf-cut-zeropad", "\"%040d|\" int:-7", "-000000000000000000000000000000000000007|", "", 1, "%%040d" },
    { "sqlite-tempbuf-cut-zeropad", "\"%40d|\" int:-7", "                                      -7|", "", 0, "no 0 flag" },
    { "sqlite-tempbuf-cut-float-width", "\"x%60.1f\" double:0x1p+0", "x                                                         1.0", "x", 1, "%%60.1f" },
    { "sqlite-tempbuf-cut-float-width", "\"x%50.1f\" double:0x1p+0", "x                                               1.0", "x", 0, "a width of 50" },
    { "sqlite-tempbuf-cut-float-prec", "\"x%.60f\" double:0x0p+0", "x0.000000000000000000000000000000000000000000000000000000000000", "x", 1, "%%.60f" },
    { "sqlite-tempbuf-cut-float-prec", "\"x%.60f\" double:0x0p+0", "x0.000000000000000000000000000000000000000000000000000000000000", "x0.0", 0, "some digits written" },
};

static void test_cut_rows(void)
{
    check_claims(cut_table, sizeof cut_table / sizeof cut_table[0], 1, "sqlite");
    /* cutat never holds with a culprit: the specification alone is judged by the specification's own rows */
    CHECK(!claims(row("sqlite-length-ends-output"), "\"[%hd]\" int:5", 0, "sqlite", "[5]", "["),
          "cutat with a culprit");
}

/* The %n stores no byte shows (storedwide), judged as the differential
 * judges a whole case: every target's return value, bytes and %n values
 * (struct scn_blame), the reference first, the target second, then the
 * witness when there is one (it prints and stores what the target does).
 * PAST: the full int stored past the object. */
#define PAST SCN_N_WRITTEN_PAST
static const struct store_claim {
    const char *row, *target, *witness, *text, *ref, *out;
    long long nref[2], nout[2];
    size_t nn;
    int claimed;
    const char *what;
} store_table[] = {
    { "matrix-n-wide-store", "stb", NULL, "\"%hn\" n:short", "", "", { 0 }, { PAST }, 1, 1, "%%hn: an int stored past the short" },
    { "matrix-n-wide-store", "stb", NULL, "\"ab%hhn\" n:schar", "ab", "ab", { 2 }, { PAST }, 1, 1, "%%hhn after text" },
    { "matrix-n-wide-store", "stb", NULL, "\"ab%hhn\" n:schar", "ab", "ab", { 2 }, { 3 }, 1, 0, "a wrong count, in the object" },
    { "matrix-n-wide-store", "stb", NULL, "\"ab%hhn\" n:schar", "ab", "ax", { 2 }, { PAST }, 1, 0, "a wrong byte besides" },
    { "matrix-n-wide-store", "stb", NULL, "\"ab%hhn\" n:schar", "ab", "abc", { 2 }, { PAST }, 1, 0, "a byte more besides" },
    { "matrix-n-wide-store", "stb", NULL, "\"%hn%hhn\" n:short n:schar", "", "", { 0, 0 }, { PAST, 0 }, 2, 1, "the first of two stores" },
    { "matrix-n-wide-store", "stb", NULL, "\"%hn%hhn\" n:short n:schar", "", "", { 0, 0 }, { PAST, 4 }, 2, 0, "the second store a wrong count" },
    { "matrix-n-wide-store", "stb", NULL, "\"%hn\" n:short", "", "", { 0 }, { 0 }, 1, 0, "the same store: no one is wrong" },
    { "matrix-n-wide-store", "stb", "glibc", "\"%hn\" n:short", "", "", { 0 }, { PAST }, 1, 0, "an unlisted target stores the same" },
    { "matrix-n-wide-store", "trio", "curl", "\"%hhn\" n:schar", "", "", { 0 }, { PAST }, 1, 1, "trio's %%hhn, curl's the same (listed)" },
    { "matrix-n-wide-store", "stb", NULL, "\"%ln\" n:long", "", "", { 0 }, { PAST }, 1, 0, "%%ln: no narrower object" },
    { "matrix-n-wide-store", "curl", NULL, "\"x%hhn\" n:schar", "x", "x", { 1 }, { PAST }, 1, 1, "%%hhn: a short stored" },
    { "matrix-n-wide-store", "curl", NULL, "\"x%hhn\" n:schar", "x", "x", { 1 }, { 0 }, 1, 0, "nothing stored" },
    { "matrix-n-wide-store", "apr", NULL, "\"%hhn\" n:schar", "", "", { 0 }, { PAST }, 1, 0, "a target the row does not list" },
    /* blamed() compares the stores too: sqlite's output ends at the h
     * (cutat), so it stores nothing where the reference stores 1 */
    { "sqlite-length-ends-output", "sqlite", NULL, "\"a%hn\" n:short", "a", "a", { 1 }, { 0 }, 1, 1, "\"a%%hn\": nothing stored" },
    { "sqlite-length-ends-output", "sqlite", NULL, "\"a%hn\" n:short", "a", "a", { 1 }, { 1 }, 1, 0, "the same store" },
};

static int claims_store(const struct store_claim *t)
{
    const struct scn_rule *r = row(t->row);
    struct scn_case *c = parse(t->text);
    const char *names[3] = { "ref", t->target, t->witness };
    const char *bytes[3] = { t->ref, t->out, t->out };
    const long long *nv[3] = { t->nref, t->nout, t->nout };
    int ret[3];
    const unsigned char *out[3];
    size_t len[3], nn[3] = { t->nn, t->nn, t->nn };
    for (int i = 0; i < 3; i++) {
        ret[i] = (int)strlen(bytes[i]);
        out[i] = (const unsigned char *)bytes[i];
        len[i] = strlen(bytes[i]);
    }
    struct scn_blame all = { .n = t->witness ? 3 : 2, .names = names, .ret = ret, .out = out, .len = len, .nn = nn, .nv = nv };
    struct scn_culprit k = { .ret_a = ret[0], .ret_b = ret[1], .oa = out[0], .ob = out[1], .la = len[0], .lb = len[1],
                             .all = &all, .na = t->nref, .nb = t->nout, .nna = t->nn, .nnb = t->nn };
    return scn_rule_explains(r, SCN_DIALECT_ISO, c, &k, "ref", t->target);
}

static void test_store_rows(void)
{
    for (size_t i = 0; i < sizeof store_table / sizeof store_table[0]; i++) {
        const struct store_claim *t = &store_table[i];
        CHECK(claims_store(t) == t->claimed, "%s, %s: %s (%s)", t->row, t->text, t->what,
              t->claimed ? "not claimed" : "claimed");
    }
    /* the stores unknown (a culprit run alone): no row of a store claims */
    struct store_claim t = store_table[0];
    const struct scn_rule *r = row(t.row);
    CHECK(!claims(r, t.text, 1, t.target, "", ""), "storedwide with no stores known");
}

/* stb: digitsonly reads a long output's number whole (%.1300e: 18 digits, then zeros) */
static void test_stb_long_digits(void)
{
    const struct scn_rule *r = row("stb-float-digits");
    static char ref[1400], out[1400];
    double v = 0x1.555556p-2;
    int n = ref_snprintf(ref, sizeof ref, "%.1300e", v);
    CHECK(n == 1306, "ref %%.1300e: %d bytes", n);
    /* stb: 3.33333343267440795 then zeros (its 17 significant digits and a rounding digit) */
    snprintf(out, sizeof out, "%s", ref);
    memset(out + 20, '0', 1300 - 18);
    memcpy(out, "3.333333432674407950", 20);
    CHECK(claims(r, "\"%.1300e\" double:0x1.555556p-2", 0, "stb", ref, out), "%%.1300e, faithful digits");
    out[5] = '4'; /* 3.333343...: not the value */
    CHECK(!claims(r, "\"%.1300e\" double:0x1.555556p-2", 0, "stb", ref, out), "%%.1300e, a wrong digit");
}

/* sqlite's temporary buffer in a conformance result: a stand-in for a
 * format of one conversion that, as sqlite's printfTempBuf, fails
 * (SQLITE_TOOBIG: the output ends before the conversion) when the
 * conversion needs more than the caller's buffer, even one the output fits
 * in, beside a reference (the C library's vsnprintf). The conformance takes
 * its full output at 1,024 bytes, then at the exact size, where the
 * stand-in stops; in 64 KiB it agrees with the reference, so the root cause
 * must be computed at the conformance's sizes for its row to claim it. */
static int libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}
static int tempbuf_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int need = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (need >= 0 && (size_t)need + 10 > size) { /* sqlite: "n = (u64)precision + 10" */
        /* the output ends before the conversion (the text before it written) */
        size_t n = strcspn(fmt, "%");
        if (n >= size) n = size ? size - 1 : 0;
        if (size) memcpy(buf, fmt, n), buf[n] = 0;
        return (int)n;
    }
    return vsnprintf(buf, size, fmt, ap);
}

static void test_tempbuf_conformance(void)
{
    static const struct scn_target ref = { .name = "ref", .dialect = SCN_DIALECT_ISO, .vsnprintf = libc_vsnprintf,
                                           .where = "in-process" };
    static const struct scn_target sqlite = { .name = "sqlite", .dialect = SCN_DIALECT_ISO,
                                              .vsnprintf = tempbuf_vsnprintf, .where = "in-process" };
    static struct scn_rootcause rc;
    static const struct { const char *text, *row; } cases[] = {
        { "\"%.2000d\" int:1", "sqlite-tempbuf-cut-int" },
        { "\"ab%.1500x|\" uint:255", "sqlite-tempbuf-cut-int" },
        { "\"%03000d|\" int:-7", "sqlite-tempbuf-cut-zeropad" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scn_rootcause_expect(parse(cases[i].text), SCN_DIALECT_ISO, &sqlite, &ref, "expect.output", &rc);
        CHECK(rc.rule && !strcmp(rc.rule->id, cases[i].row), "%s: %s (got %s)", cases[i].text, cases[i].row,
              rc.rule ? rc.rule->id : "no rule");
    }
    /* an output the stand-in writes whole in 1,024 bytes: no difference, no rule */
    scn_rootcause_expect(parse("\"%.100d\" int:1"), SCN_DIALECT_ISO, &sqlite, &ref, "expect.output", &rc);
    CHECK(!rc.rule, "%%.100d: the same output, claimed by %s", rc.rule ? rc.rule->id : "");
}

int main(void)
{
    unsetenv("SCN_KNOWN_BUGS"); /* the shipped table */
    unsetenv("SCN_ALLOWANCES");
    test_rows();
    test_stb_long_digits();
    test_cut_rows();
    test_store_rows();
    test_tempbuf_conformance();
    return check_summary("test_rule_hidden");
}
