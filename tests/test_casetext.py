"""The case text form from Python: runner/scnfuzz/casetext.py is a binding of
the C case model (core/case, libscn_casetext.so), so these are round trips of
awkward cases through C: built from exact values, printed by scn_case_format,
parsed back by scn_case_parse; expectations and quoted bytes likewise.

Run: SCN_BUILD_DIR=$PWD/build/asan /usr/bin/python3 -m pytest -q tests/test_casetext.py
"""
import concurrent.futures

import pytest

from scnfuzz import casetext  # noqa: E402  (conftest's plugin_findings puts runner on sys.path)
from scnfuzz.casetext import Case, CaseSyntaxError

ALL_BYTES = bytes(range(256))
NEG_ZERO = 0x8000000000000000


def both_ways(case, text):
    """case -> text (C builder + printer) and text -> the same case (C parser)."""
    assert case.text() == text
    assert Case.parse(text) == case
    assert Case.parse(text).text() == text


@pytest.mark.parametrize("case,text", [
    # NULs, quotes, backslashes, control and high bytes in the format and in strings
    (Case(b'a\x00"\\\n\t\r\x01\x7f\x80\xff%s', [("str", b'\x00"\\ q\xe9')]),
     '"a\\x00\\"\\\\\\n\\t\\r\\x01\\x7f\\x80\\xff%s" str:"\\x00\\"\\\\ q\\xe9"'),
    (Case(b"%s%s%ls%p", [("str", b""), ("str", None), ("wstr", None), ("ptr", None)]),
     '"%s%s%ls%p" str:"" str:NULL wstr:NULL ptr:NULL'),
    (Case(b"%.3s x", [("str", b"he llo")], [0, 1, 5]), '"%.3s x" str:"he llo" @0,1,5'),
    # wide strings: ASCII escapes, \u{} above 0x7f, a lone surrogate, the largest wchar_t
    (Case(b"%ls", [("wstr", [0, 0x22, 0x5C, 0x7F, 0xE9, 0x20AC, 0x1F600, 0xD800, 0x7FFFFFFF])]),
     '"%ls" wstr:"\\x00\\"\\\\\\x7f\\u{e9}\\u{20ac}\\u{1f600}\\u{d800}\\u{7fffffff}"'),
    (Case(b"%ls", [("wstr", [])]), '"%ls" wstr:""'),
    # integers at the ends of their types
    (Case(b"%d%d%ld%lu%llu%zu%zd%td%jd%ju%u%lc",
          [("int", -2**31), ("int", 2**31 - 1), ("long", -2**63), ("ulong", 2**64 - 1), ("ullong", 0),
           ("size", 2**64 - 1), ("ssize", -1), ("ptrdiff", 2**63 - 1), ("intmax", -2**63),
           ("uintmax", 1), ("uint", 2**32 - 1), ("wint", 2**32 - 1)]),
     '"%d%d%ld%lu%llu%zu%zd%td%jd%ju%u%lc" int:-2147483648 int:2147483647 long:-9223372036854775808 '
     'ulong:18446744073709551615 ullong:0 size:18446744073709551615 ssize:-1 ptrdiff:9223372036854775807 '
     'intmax:-9223372036854775808 uintmax:1 uint:4294967295 wint:4294967295'),
    # doubles by their bits: negative zero, 1.5, the smallest subnormal, the largest, inf, nan
    (Case(b"%a", [("double", NEG_ZERO), ("double", 0x3FF8000000000000), ("double", 1),
                  ("double", 0x7FEFFFFFFFFFFFFF), ("double", 0xFFF0000000000000),
                  ("double", 0x7FF8000000000000), ("double", 0xFFF8000000000000)]),
     '"%a" double:-0x0p+0 double:0x1.8p+0 double:0x0.0000000000001p-1022 double:0x1.fffffffffffffp+1023 '
     'double:-inf double:nan double:-nan'),
    # x87 long doubles by (sign, biased exponent, significand)
    (Case(b"%La", [("ldouble", (1, 0, 0)), ("ldouble", (0, 16383, 0xC000000000000000)),
                   ("ldouble", (0, 0, 1)), ("ldouble", (0, 0x7FFE, 2**64 - 1)),
                   ("ldouble", (1, 0x7FFF, 1 << 63)), ("ldouble", (0, 0x7FFF, 0xC000000000000000))]),
     '"%La" ldouble:-0x0p+0 ldouble:0xcp-3 ldouble:0x0.000000000000001p-16385 '
     'ldouble:0xf.fffffffffffffffp+16380 ldouble:-inf ldouble:nan'),
    (Case(b"%p %p", [("ptr", 1), ("ptr", 2**64 - 1)]), '"%p %p" ptr:0x1 ptr:0xffffffffffffffff'),
    (Case(b"%n%hhn%hn%ln%lln%jn%zn%tn", [("n", t) for t in
                                         ("int", "schar", "short", "long", "llong", "intmax", "size", "ptrdiff")]),
     '"%n%hhn%hn%ln%lln%jn%zn%tn" n:int n:schar n:short n:long n:llong n:intmax n:size n:ptrdiff'),
    (Case(b"", [], [0, 2**64 - 1]), '"" @0,18446744073709551615'),
    # mem: bytes behind a pointer (NULs and quotes), NULL, error pointers
    (Case(b"MAC=%pM", [("mem", b"\x00\x1b!:O^")]), '"MAC=%pM" mem:"\\x00\\x1b!:O^"'),
    (Case(b"%pI4 %pM %pM %pM %*ph", [("mem", b'\xc0\xa8\x01\n'), ("mem", None), ("mem", ("err", -14)),
                                     ("mem", ("err", -4095)), ("int", 0), ("mem", b"")]),
     '"%pI4 %pM %pM %pM %*ph" mem:"\\xc0\\xa8\\x01\\n" mem:NULL mem:ERR(-14) mem:ERR(-4095) int:0 mem:""'),
    (Case(b"%pa", [("mem", ("err", -1)), ("mem", b'"\\ \x00')], [8]), '"%pa" mem:ERR(-1) mem:"\\"\\\\ \\x00" @8'),
    # mem:VAF: a struct va_format for %pV, its format with the string escapes
    (Case(b"<%pV|%pV|%pV>", [("mem", ("vaf", b'a%d "%s"\x00\t%%')), ("mem", ("vaf", b"")), ("mem", None)]),
     '"<%pV|%pV|%pV>" mem:VAF("a%d \\"%s\\"\\x00\\t%%") mem:VAF("") mem:NULL'),
])
def test_round_trip_through_c(case, text):
    both_ways(case, text)


def test_every_byte_in_a_format_and_a_string():
    c = Case(ALL_BYTES, [("str", ALL_BYTES[1:])])
    assert Case.parse(c.text()) == c
    assert casetext.unquote(casetext.quote(ALL_BYTES)) == ALL_BYTES


def test_nan_payloads_are_not_in_the_form():
    # the text form has nan and -nan only: a payload prints as nan and reads back as the default NaN
    t = Case(b"%f", [("double", 0x7FF0000000000001), ("ldouble", (1, 0x7FFF, 0x8000000000000001))]).text()
    assert t == '"%f" double:nan ldouble:-nan'
    assert Case.parse(t).args == [("double", 0x7FF8000000000000), ("ldouble", (1, 0x7FFF, 0xC000000000000000))]


@pytest.mark.parametrize("t,v", [
    ("int", 2**31), ("int", -2**31 - 1), ("uint", -1), ("uint", 2**32), ("wint", 2**32), ("long", 2**63),
    ("ulong", 2**64), ("size", -1), ("ptr", 0), ("wstr", [0x80000000]), ("n", "char"), ("float", 1),
    ("double", -1), ("double", 2**64), ("ldouble", (0, 0x8000, 0)), ("ldouble", (2, 0, 0)), ("ldouble", (0, 0, 2**64)),
    ("wstr", [2**32 + 65]), ("wstr", [-1]),
    ("mem", ("err", 0)), ("mem", ("err", -4096)), ("mem", ("err", 14)), ("mem", ("err", -2**64)),
    ("mem", ("eno", -14)), ("mem", ("err", -14, 0)), ("mem", ("vaf", "%d")), ("mem", ("vaf", b"%d", 0)),
    ("mem", ("vaf", b"x" * 8192)),
])
def test_values_beyond_their_type_are_refused(t, v):
    with pytest.raises(ValueError):
        Case(b"%d", [(t, v)]).text()


def test_mem_bytes_fill_the_arena_exactly():
    # a mem argument takes exactly its bytes (no NUL), the case's arena is C's
    big = bytes(range(256)) * 32
    c = Case(b"%p", [("mem", big)])
    assert Case.parse(c.text()) == c
    with pytest.raises(ValueError):
        Case(b"%p", [("mem", big + b"x")]).text()
    with pytest.raises(ValueError):
        Case(b"%p", [("mem", big), ("mem", b"x")]).text()
    Case(b"%p", [("mem", big), ("mem", b""), ("mem", None), ("mem", ("err", -5))]).text()
    # a VAF's format takes its bytes and a NUL
    Case(b"%pV", [("mem", ("vaf", big[:-1]))]).text()
    with pytest.raises(ValueError):
        Case(b"%pV", [("mem", ("vaf", big))]).text()


def test_the_model_limits_are_c_s():
    Case(b"x" * 4096).text()
    with pytest.raises(ValueError):
        Case(b"x" * 4097).text()
    Case(b"", [("int", i) for i in range(32)]).text()
    with pytest.raises(ValueError):
        Case(b"", [("int", i) for i in range(33)]).text()


@pytest.mark.parametrize("text,message", [
    ('"%d', "col 4: expected '\"' to close the string"),
    ('"%d" int:2147483648', "col 10: value out of range"),
    ('"%5.1Lf" ldouble:0xa.000000000000000p-3', "expected the exact canonical form 0xap-3"),
    ('"\\x41"', "\\x41 is not canonical"),
    ('"%d" int:1 ', "expected a token"),
    ('"%s" str:"a"b', "expected a space after the closing"),
    ('"%p" ptr:0x0', "NULL, not 0x0"),
    ('"%d" float:1', "unknown type 'float'"),
    ('"\u20ac"', 'col 2: the character U+20AC must be escaped as "\\xe2\\x82\\xac"'),
    ('"%d" int:\u0661', "col 10: the character U+0661 must be escaped"),
    ('"caf\udce9"', "col 5: the byte 0xe9 must be escaped"),
    ('"a\x01"', "col 3: byte 0x01 must be escaped"),
    ('"%p" mem:0x10', "col 10: expected quoted bytes, NULL or ERR(-E)"),
    ('"%p" mem:ERR(-4096)', "col 14: value out of range (min -4095)"),
    ('"%p" mem:ERR(14)', "col 14: expected a negative errno value"),
    ('"%p" mem:ERR(-14', "col 17: expected ')' closing ERR("),
    ('"%p" mem:VAF("ab"', "col 18: expected ')' closing VAF("),
    ('"%p" mem:VAF("ab")x', "col 19: expected a space after the closing ')'"),
    ('"%p" mem:VAF(ab)', "col 14: expected '\"' to open a quoted string"),
    ('"%p" mem:VAF', "or VAF(\"fmt\")"),
    # decimal floats: a C decimal floating constant (an integer is not one), within range
    ('"%f" double:1', "col 13: expected a hex float"),
    ('"%f" double:+1.5', "col 13: expected a hex float"),
    ('"%f" double:1e', "or a decimal float"),
    ('"%f" double:1.5x', "col 16: expected a decimal float"),
    ('"%f" double:1e400', "beyond the range of double"),
    ('"%Lf" ldouble:1e5000', "beyond the range of ldouble"),
])
def test_syntax_errors_are_the_c_parser_s(text, message):
    with pytest.raises(CaseSyntaxError) as e:
        Case.parse(text)
    assert message in str(e.value)
    with pytest.raises(CaseSyntaxError):
        casetext.check(text)


@pytest.mark.parametrize("out,nvals,text", [
    (b'\x00\xff"\\ok', [-1, 0, 2**63 - 1], '"\\x00\\xff\\"\\\\ok" n=-1,0,9223372036854775807'),
    (b"", None, '""'),
    (None, None, "!err"),
    ("-", None, "-"),
])
def test_expectations_round_trip(out, nvals, text):
    assert casetext.expected_text(out, nvals) == text
    got = casetext.parse_expected(text)
    assert got == (("-", None) if out == "-" else (None, []) if out is None else (out, nvals or []))


def test_long_expectation_and_refusals():
    big = bytes(range(256)) * 200
    assert casetext.parse_expected(casetext.expected_text(big))[0] == big
    for bad in ['"a" n=01', '"a" n=', '"\\x41"', "err", '"a"  n=1']:
        with pytest.raises(CaseSyntaxError):
            casetext.parse_expected(bad)
    with pytest.raises(CaseSyntaxError):
        casetext.unquote('"a" ')


def test_threads_each_use_their_own_handles():
    texts = [Case(b"%d|%s", [("int", i), ("str", b"t%d" % i)]).text() for i in range(200)]

    def wrong(_):
        return [t for _ in range(20) for t in texts if Case.parse(t).text() != t]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert not [t for ts in pool.map(wrong, range(4)) for t in ts]


# ---- decimal float values: accepted on input, correctly rounded, printed as the exact hex form

@pytest.mark.parametrize("text,canonical", [
    ('"%f" double:999999.5', '"%f" double:0x1.e847fp+19'),
    ('"%f" double:-0.1', '"%f" double:-0x1.999999999999ap-4'),
    ('"%f" double:1e300', '"%f" double:0x1.7e43c8800759cp+996'),
    ('"%f" double:.5', '"%f" double:0x1p-1'),
    ('"%f" double:-0.0', '"%f" double:-0x0p+0'),
    ('"%f" double:4.9e-324', '"%f" double:0x0.0000000000001p-1022'),
    ('"%f" double:2.2250738585072011e-308', '"%f" double:0x0.fffffffffffffp-1022'),
    # halfway between two doubles: to even
    ('"%f" double:9007199254740993.0', '"%f" double:0x1p+53'),
    ('"%Lf" ldouble:0.1', '"%Lf" ldouble:0xc.ccccccccccccccdp-7'),
    ('"%Lf" ldouble:1e4000', '"%Lf" ldouble:0xd.1ba8323fe558c61p+13284'),
])
def test_decimal_float_values(text, canonical):
    c = Case.parse(text)
    assert c.text() == canonical
    assert Case.parse(canonical) == c


def test_decimal_float_exact_as_python_rounds():
    import struct
    for s in ["0.1", "999999.5", "-123.456e-7", "1.7976931348623157e308", "5e-324", "0.30000000000000004"]:
        bits = struct.unpack("<Q", struct.pack("<d", float(s)))[0]
        assert Case.parse(f'"%a" double:{s}') == Case(b"%a", [("double", bits)]), s
