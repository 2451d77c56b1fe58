"""The corpus cases, by family. Deterministic: every random choice uses a
random.Random seeded with a fixed string.

Each case says whether it belongs to the ISO suite (iso=True: the model must
define it) and whether the kernel column is computed (kernel=True: the kernel
model fills it when the kernel defines the case, '-' otherwise).
"""
import random
from collections import namedtuple

from floatbits import dbits, ld_from_float, ld_from_exact, DNAN, DNEGNAN

Case = namedtuple("Case", "cat fmt args kind cite sizes iso kernel")

C17 = "C17 7.21.6.1"
KNUM = "vsprintf.c number()"
KSTOP = "stops (vsprintf.c format_decode())"

INT_MAX, INT_MIN, UINT_MAX = 2**31 - 1, -2**31, 2**32 - 1
LONG_MAX, LONG_MIN, ULONG_MAX = 2**63 - 1, -2**63, 2**64 - 1


def case(cat, fmt, args=(), kind="std", cite=C17, sizes=None, iso=True, kernel=True):
    if isinstance(fmt, str):
        fmt = fmt.encode("latin-1")
    return Case(cat, fmt, tuple(args), kind, cite, tuple(sizes) if sizes else None, iso, kernel)


def spec(flags="", width=None, prec=None, length="", conv="d"):
    s = "%" + flags
    if width is not None:
        s += str(width)
    if prec is not None:
        s += "." + (str(prec) if prec != "" else "")
    return s + length + conv


def I(v):
    return ("int", v)


def U(v):
    return ("uint", v)


def D(x):
    return ("double", dbits(x) if isinstance(x, float) else x)


def DB(bits):
    return ("double", bits)


def LD(v):
    return ("ldouble", v if isinstance(v, tuple) else ld_from_float(v))


# ---------------------------------------------------------------------------
# integers

INT_VALUES = [0, 1, -1, 7, -7, 42, -42, 100, 255, 256, -256, 1000, 65535, 99999,
              123456789, -123456789, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1]
UINT_VALUES = [0, 1, 7, 8, 15, 16, 42, 255, 256, 1000, 4095, 65535, 65536, 123456789,
               0x7fffffff, 0x80000000, 0xdeadbeef, UINT_MAX - 1, UINT_MAX]

CONV_CITE = {
    "d": "C17 7.21.6.1p8 (d)", "i": "C17 7.21.6.1p8 (i)",
    "u": "C17 7.21.6.1p8 (u)", "o": "C17 7.21.6.1p8 (o)",
    "x": "C17 7.21.6.1p8 (x)", "X": "C17 7.21.6.1p8 (X)",
    "b": "C23 7.23.6.1p8 (b)", "B": "C23 7.23.6.1p8 (B)",
}


def int_cat(conv):
    return {"d": "int.d", "i": "int.d", "u": "int.u", "o": "int.o", "x": "int.x",
            "X": "int.x", "b": "int.b", "B": "int.b"}[conv]


def int_cite(conv, flags, width, prec):
    parts = [CONV_CITE[conv]]
    if flags:
        parts.append("p6 (%s)" % flags)
    if width is not None or prec is not None:
        parts.append("p4")
    return ", ".join(parts) + "; kernel " + KNUM


def int_kind(conv):
    # C23 makes %B optional (7.23.6.1p8 B, 7.33.15): REF-CHOICE to support it like %b
    return "impl" if conv == "B" else "std"


def fam_int():
    r = random.Random("scnfuzz-int")
    out = []
    # systematic: each conversion x each value, plain
    for conv in "diuoxXbB":
        vals = INT_VALUES if conv in "di" else UINT_VALUES
        for v in vals:
            a = I(v) if conv in "di" else U(v)
            out.append(case(int_cat(conv), "%" + conv, [a], int_kind(conv), int_cite(conv, "", None, None)))
    # systematic: flags x width x precision on a few values
    for conv in "diuoxXbB":
        allowed = "-+ 0" if conv in "di" else "-0#"
        if conv == "u":
            allowed = "-0+ "
        vals = [0, -1, 42, INT_MIN] if conv in "di" else [0, 8, 0xbeef, UINT_MAX]
        for v in vals:
            a = I(v) if conv in "di" else U(v)
            for fl in [""] + list(allowed) + ["-0", "#0", "+0"]:
                if any(ch not in allowed for ch in fl):
                    continue
                for w, p in [(None, None), (8, None), (None, 0), (8, 3), (3, 8)]:
                    out.append(case(int_cat(conv), spec(fl, w, p, "", conv), [a], int_kind(conv),
                                    int_cite(conv, fl, w, p)))
    # seeded random combinations
    for conv in "diuoxXbB":
        allowed = "-+ 0" if conv in "di" else ("-0+ " if conv == "u" else "-0#")
        for _ in range(30):
            fl = "".join(ch for ch in allowed if r.random() < 0.3)
            w = r.choice([None, None, 1, 2, 5, 10, 20, 40])
            p = r.choice([None, None, None, 0, 1, 2, 4, 9, 15, 33, ""])
            if conv in "di":
                v = r.choice([r.randint(INT_MIN, INT_MAX), r.randint(-1000, 1000), r.choice(INT_VALUES)])
                a = I(v)
            else:
                v = r.choice([r.randint(0, UINT_MAX), r.randint(0, 5000), r.choice(UINT_VALUES)])
                a = U(v)
            out.append(case(int_cat(conv), spec(fl, w, p, "", conv), [a], int_kind(conv),
                            int_cite(conv, fl, w, None if p is None else 0)))
    for f, v in [("%#b", 5), ("%#b", 0), ("%#B", 5), ("%#B", 0), ("%#.8b", 5), ("%#010b", 5), ("%-#10B|", 5)]:
        cv = f.rstrip("|")[-1]
        out.append(case("int.b", f, [U(v)], int_kind(cv), CONV_CITE[cv] + "; C23 7.23.6.1p6 (# with b, B)"))
    # "%.d" / "%.0d" of zero: no digits (p8: precision 0 and value 0 -> no characters)
    for conv in "diuoxXbB":
        a = I(0) if conv in "di" else U(0)
        for f in ["%.0" + conv, "%." + conv, "%5.0" + conv, "%-5.0" + conv, "[%.0" + conv + "]"]:
            out.append(case(int_cat(conv), f, [a], int_kind(conv), CONV_CITE[conv] + "; p8 (zero with precision 0)"))
    return out


# length modifiers: (length, signed TYPE, unsigned TYPE, bits, category)
LENGTHS = [
    ("hh", "int", "int", 8, "length.hh"), ("h", "int", "int", 16, "length.h"),
    ("l", "long", "ulong", 64, "length.l"), ("ll", "llong", "ullong", 64, "length.ll"),
    ("j", "intmax", "uintmax", 64, "length.j"), ("z", "ssize", "size", 64, "length.z"),
    ("t", "ptrdiff", "ptrdiff", 64, "length.t"),
    ("w8", "int", "int", 8, "length.w"), ("w16", "int", "int", 16, "length.w"),
    ("w32", "int", "uint", 32, "length.w"), ("w64", "long", "ulong", 64, "length.w"),
    ("wf8", "int", "int", 8, "length.wf"), ("wf16", "long", "ulong", 64, "length.wf"),
    ("wf32", "long", "ulong", 64, "length.wf"), ("wf64", "long", "ulong", 64, "length.wf"),
]


def len_cite(L):
    if L.startswith("wf"):
        return "C23 7.23.6.1p7 (wfN; x86-64 int_fastN_t)"
    if L.startswith("w"):
        return "C23 7.23.6.1p7 (wN)"
    return "C17 7.21.6.1p7 (%s)" % L


def fam_length():
    out = []
    r = random.Random("scnfuzz-length")
    for L, st, ut, bits, cat in LENGTHS:
        light = L in ("wf16", "wf32", "w8", "w16")   # same C type as another modifier
        smin, smax, umax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1, (1 << bits) - 1
        svals = [0, 1, -1, smax, smin, smax - 1, smin + 1, 100, -100]
        uvals = [0, 1, umax, umax - 1, smax, smax + 1, 100, 0xab & umax]
        if light:
            svals, uvals = [-1, smax, smin], [1, umax, smax + 1]
        if L == "t":
            uvals = [v for v in uvals if v <= LONG_MAX]   # ptrdiff_t argument
        for conv in "di":
            for v in svals:
                for sp in ["%" + L + conv] + ([] if light else ["%+12" + L + conv, "%-24." + "3" + L + conv]):
                    out.append(case(cat, sp, [(st, v)], "std", len_cite(L) + "; " + CONV_CITE[conv]))
        for conv in "uoxXb":
            for v in uvals:
                for sp in ["%" + L + conv] + ([] if light else [("%-8" if conv == "u" else "%#") + L + conv, "%030" + L + conv]):
                    out.append(case(cat, sp, [(ut, v)], "std", len_cite(L) + "; " + CONV_CITE[conv]))
        for _ in range(12):
            v = r.randint(smin, smax)
            out.append(case(cat, "%" + L + "d|%" + L + "i", [(st, v), (st, v)], "std", len_cite(L)))
            u = r.randint(0, umax if L != "t" else LONG_MAX)
            out.append(case(cat, "%" + L + "u|%" + L + "x", [(ut, u), (ut, u)], "std", len_cite(L)))
    # hh/h with an int value outside the narrow type: the value is converted
    # (p7). To unsigned: modular (6.3.1.3p2, std); to signed: 6.3.1.3p3 impl-defined
    # (REF-CHOICE: modular).
    for L, bits in [("hh", 8), ("h", 16), ("w8", 8), ("w16", 16), ("wf8", 8)]:
        cat = "length.w" if L.startswith("w") and not L.startswith("wf") else (
            "length.wf" if L.startswith("wf") else "length." + L)
        for v in [1 << bits, (1 << bits) + 5, -1, -(1 << bits) - 3, INT_MAX, INT_MIN, 300, 40000]:
            out.append(case(cat, "%" + L + "u|%" + L + "x|%" + L + "o", [I(v)] * 3, "std",
                            len_cite(L) + "; C17 6.3.1.3p2 (conversion to unsigned)"))
            out.append(case(cat, "%" + L + "d", [I(v)], "impl",
                            len_cite(L) + "; C17 6.3.1.3p3 (signed narrowing impl-defined: modular)"))
    return out


# ---------------------------------------------------------------------------
# characters, strings, pointers, wide

def fam_char():
    out = []
    for v in range(256):
        out.append(case("char.c", "%c", [I(v)], "std", "C17 7.21.6.1p8 (c); kernel: lib/vsprintf.c vsnprintf() FORMAT_TYPE_CHAR"))
    for v in [65, 0, 0x7f, 0xff, 32]:
        for f in ["%5c", "%-5c", "%1c", "[%c]", "%c%c", "%*c", "%-*c"]:
            args = [I(v)] * f.count("c")
            if "*" in f:
                args = [I(3), I(v)]
            out.append(case("char.c", f, args, "std", "C17 7.21.6.1p8 (c); p4 width; p6 (-)"))
    for w in [-4, 0, 2, 9]:
        out.append(case("char.c", "%*c|", [I(w), I(0x78)], "std", "C17 7.21.6.1p5 (negative width is '-')"))
    # values of int beyond unsigned char: converted to unsigned char (p8 c, 6.3.1.3p2)
    for v in [256 + 65, -1, -190, INT_MAX, INT_MIN]:
        out.append(case("char.c", "%c", [I(v)], "std", "C17 7.21.6.1p8 (c: converted to unsigned char); C17 6.3.1.3p2"))
    return out


STRINGS = [b"", b"a", b"hello", b"hello, world", b"tab\there", b"nl\n", b"quote\"back\\slash",
           b"\x01\x02\x7f", b"\x80\xfe\xff", b"caf\xc3\xa9", b"%d%s%n not a format", b"0123456789" * 3]


def fam_str():
    out = []
    cite = "C17 7.21.6.1p8 (s); kernel vsprintf.c string()"
    for s in STRINGS:
        for f in ["%s", "[%s]", "%10s", "%-10s", "%.0s", "%.1s", "%.5s", "%.40s", "%12.3s",
                  "%-12.3s", "%.s", "%1s", "%*s", "%.*s", "%-*.*s"]:
            args = [("str", s)]
            if f == "%*s":
                args = [I(7), ("str", s)]
            elif f == "%.*s":
                args = [I(4), ("str", s)]
            elif f == "%-*.*s":
                args = [I(9), I(2), ("str", s)]
            out.append(case("str.s", f, args, "std", cite))
    for p in [-1, -7, 0, 2, 100]:
        out.append(case("str.s", "%.*s|", [I(p), ("str", b"abcdef")], "std",
                        "C17 7.21.6.1p5 (negative precision taken as omitted)"))
    out.append(case("str.s", "%s%s%s", [("str", b"a"), ("str", b""), ("str", b"c")], "std", cite))
    # NULL: undefined in C (7.1.4p1); REF-CHOICE "(null)" unless precision < 6, then ""
    for f in ["%s", "%.3s", "%.6s", "%.10s", "%10s", "%-10s|", "%.0s", "%8.5s", "[%s]"]:
        out.append(case("str.s", f, [("str", None)], "impl",
                        "C17 7.1.4p1 (NULL is undefined: reference choice); kernel: lib/vsprintf.c check_pointer(), error_string()"))
    return out


def fam_ptr():
    out = []
    cite = "C17 7.21.6.1p8 (p: impl-defined); kernel vsprintf.c pointer_string(), %p as no_hash_pointers"
    for v in [None, 1, 0x1000, 0xdeadbeef, 0x7ffc12345678, 0xffff888000001000, 0xffffffffffffffff]:
        for f in ["%p", "[%20p]", "[%-20p]", "%1p", "%*p", "%p%p"]:
            args = [("ptr", v)]
            if "*" in f:
                args = [I(24), ("ptr", v)]
            if f == "%p%p":
                args = [("ptr", v), ("ptr", 0x10)]
            out.append(case("ptr.p", f, args, "impl", cite))
    return out


def fam_wide():
    out = []
    ciz = "C17 7.21.6.1p8 (c with l: as %ls of {wc, 0}); C locale encoding (basic characters map to themselves, 5.2.1)"
    for v in [ord(ch) for ch in "AZaz09 !+%?"]:
        for f in ["%lc", "%5lc", "%-3lc|"]:
            out.append(case("wide.lc", f, [("wint", v)], "std", ciz, kernel=False))
    # a null wide character: C17 reads it as %ls of an empty wide string (nothing
    # is written), POSIX.1-2024 as wcrtomb (one NUL byte): two standards disagree
    out.append(case("wide.lc", "[%lc]", [("wint", 0)], "impl",
                    "C17 7.21.6.1p8 (c with l: as if %ls of {0, 0}: no characters); POSIX.1-2024 fprintf "
                    "(Austin Group 1647, glibc bug 30257): one NUL byte; REF-CHOICE C17", kernel=False))
    for v in [1, 0x7f, 0x40, 0x60, 0x24]:
        out.append(case("wide.lc", "%lc", [("wint", v)], "impl",
                        "C17 7.21.6.1p8 (lc); non-basic character in the C locale: REF-CHOICE one byte", kernel=False))
    cis = "C17 7.21.6.1p8 (s with l: wcrtomb; precision counts bytes); C locale encoding"
    for s in ["", "a", "hello", "Hello World", "0123456789"]:
        cps = [ord(ch) for ch in s]
        for f in ["%ls", "[%8ls]", "[%-8ls]", "%.3ls", "%.0ls", "%10.2ls", "%.*ls"]:
            args = [("wstr", cps)]
            if "*" in f:
                args = [I(4), ("wstr", cps)]
            out.append(case("wide.ls", f, args, "std", cis, kernel=False))
    return out


def fam_error():
    out = []
    cite = "C17 7.21.6.1p8 (l with c/s: wcrtomb EILSEQ) + 7.21.6.5p3 (negative return); C locale: code points > 0x7f are encoding errors (REF-CHOICE)"
    for v in [0x80, 0xe9, 0xff, 0x100, 0x20ac, 0x1f600, 0x10ffff]:
        out.append(case("error", "%lc", [("wint", v)], "impl", cite, kernel=False))
        out.append(case("error", "abc%lcdef", [("wint", v)], "impl", cite, kernel=False))
        out.append(case("error", "%ls", [("wstr", [0x61, v, 0x62])], "impl", cite, kernel=False))
        out.append(case("error", "%5ls|%d", [("wstr", [v]), I(1)], "impl", cite, kernel=False))
    # precision stops the conversion before the bad character: REF-CHOICE no error
    for p in [0, 1, 2]:
        out.append(case("wide.ls", "%.*ls", [I(p), ("wstr", [0x61, 0x62, 0xe9])], "impl",
                        "C17 7.21.6.1p8 (ls precision: only needed characters converted, REF-CHOICE)", kernel=False))
    return out


# ---------------------------------------------------------------------------
# flags, width, precision, percent

def fam_flags():
    out = []
    r = random.Random("scnfuzz-flags")
    fc = "C17 7.21.6.1p6"
    for fl, cat in [("-", "flags.minus"), ("+", "flags.plus"), (" ", "flags.space"),
                    ("#", "flags.hash"), ("0", "flags.zero")]:
        for conv in "diuoxXb":
            if fl == "#" and conv in "diu":
                continue
            for v in [0, 42, -42, INT_MAX]:
                a = I(v) if conv in "di" else U(v & UINT_MAX)
                for w, p in [(None, None), (6, None), (6, 2), (None, 4)]:
                    out.append(case(cat, spec(fl, w, p, "", conv), [a], "std",
                                    "%s (%s); %s" % (fc, fl, CONV_CITE[conv])))
        for conv in "eEfFgG":
            for x in [0.0, -0.0, -2.5, 1234.5678, 1e-5]:
                for w, p in [(None, None), (12, None), (12, 2), (None, 0)]:
                    out.append(case(cat, spec(fl, w, p, "", conv), [D(x)], "std",
                                    "%s (%s); C17 7.21.6.1p8 (%s)" % (fc, fl, conv)))
    # combined and repeated flags
    combos = ["-+", "- ", "+ ", " +", "-0", "0-", "+0", " 0", "#0", "-#", "--", "++", "  ", "00",
              "-+ 0", "+-0 ", "# -", "0#"]
    for fl in combos:
        for conv in "dxg":
            if "#" in fl and conv == "d":
                continue
            for v in [0, -5, 123456]:
                a = (I(v) if conv == "d" else U(v & UINT_MAX)) if conv in "dxo" else D(float(v) / 7.0)
                for w, p in [(None, None), (10, None), (10, 3)]:
                    out.append(case("flags.combo", spec(fl, w, p, "", conv), [a], "std",
                                    fc + " (flag combination)"))
    for _ in range(50):
        conv = r.choice("diouxXeEfFgG")
        allowed = "-+ 0" + ("#" if conv not in "diu" else "")
        fl = "".join(r.sample(allowed, r.randint(1, 3)))
        w = r.choice([None, 3, 8, 15])
        p = r.choice([None, 0, 1, 3, 7])
        if conv in "di":
            a = I(r.randint(-99999, 99999))
        elif conv in "ouxX":
            a = U(r.randint(0, 999999))
        else:
            a = D(r.uniform(-1e4, 1e4))
        out.append(case("flags.combo", spec(fl, w, p, "", conv), [a], "std", fc))
    return out


def fam_width_prec():
    out = []
    for w in [0, 1, 2, 3, 10, 25, 64, 100]:
        for f, a in [("%*d", I(-17)), ("%*u", U(17)), ("%*x", U(0xabc)), ("%*s", ("str", b"str")),
                     ("%*.2f", D(3.14159)), ("%*e", D(-1.0)), ("%*c", I(0x41))]:
            out.append(case("width", f + "|", [I(w), a], "std", "C17 7.21.6.1p4-p5 (width, *)"))
            out.append(case("width", f + "|", [I(-w), a], "std", "C17 7.21.6.1p5 (negative * width: '-' flag and positive width)"))
            lit = f.replace("*", str(w)) if w else f.replace("*", "")
            out.append(case("width", lit + "|", [a], "std", "C17 7.21.6.1p4 (field width)"))
    out.append(case("width", "%-*d|", [I(-6), I(1)], "std", "C17 7.21.6.1p5"))
    out.append(case("width", "%0*d|", [I(-6), I(1)], "std", "C17 7.21.6.1p5-p6 ('-' from negative width overrides '0')"))
    for p in [0, 1, 2, 5, 17, 30, 60]:
        for f, a in [("%.*d", I(-42)), ("%.*u", U(42)), ("%.*o", U(8)), ("%.*x", U(0)), ("%.*s", ("str", b"abcdefghij")),
                     ("%.*f", D(2.0 / 3.0)), ("%.*e", D(12345.678)), ("%.*g", D(0.000123456789)), ("%.*d", I(0))]:
            out.append(case("precision", f + "|", [I(p), a], "std", "C17 7.21.6.1p4-p5 (precision, *)"))
            out.append(case("precision", f.replace("*", str(p)) + "|", [a], "std", "C17 7.21.6.1p4 (precision)"))
        for f, a in [("%.*d", I(-42)), ("%.*s", ("str", b"abcdefghij")), ("%.*f", D(2.0 / 3.0)), ("%.*x", U(0))]:
            out.append(case("precision", f + "|", [I(-p - 1), a], "std", "C17 7.21.6.1p5 (negative precision: as if omitted)"))
    for f, a in [("%.d", I(0)), ("%.f", D(2.5)), ("%.e", D(2.5)), ("%.g", D(2.5)), ("%.s", ("str", b"x")),
                 ("%5.d|", I(0)), ("%.x", U(0)), ("%#.o", U(0)), ("%#.x", U(0)), ("%+.d", I(0)), ("% .d", I(0))]:
        out.append(case("precision", f, [a], "std", "C17 7.21.6.1p4 (a period alone is precision zero); p8 (d: no characters for zero)"))
    for w, p in [(1, 1), (5, 10), (10, 5), (0, 0), (20, 20)]:
        out.append(case("precision", "%*.*d|", [I(w), I(p), I(-123)], "std", "C17 7.21.6.1p5"))
        out.append(case("precision", "%*.*f|", [I(w), I(p), D(-1.25)], "std", "C17 7.21.6.1p5"))
    return out


def fam_percent():
    out = []
    cite = "C17 7.21.6.1p8 (%); kernel: FORMAT_TYPE_PERCENT_CHAR"
    for f, a in [("%%", []), ("%%%%", []), ("a%%b", []), ("100%%", []), ("%%d", []), ("%d%%", [I(5)]),
                 ("%%%d%%", [I(-5)]), ("%%s%s", [("str", b"x")]), ("%% %% %%", []), ("%%%%%%%%%%", [])]:
        out.append(case("percent", f, a, "std", cite))
    for s in [b"", b"plain text", b"\t\n\r", b"\x01\x1f\x7f", b"a\"b\\c", b"x" * 200]:
        out.append(case("percent", s, [], "std", "C17 7.21.6.1p3 (ordinary multibyte characters copied unchanged)"))
    for s in [b"\x80\xff", b"caf\xc3\xa9 %d"]:
        out.append(case("percent", s, [I(1)] if b"%d" in s else [], "impl",
                        "C17 7.21.6.1p3 (bytes >= 0x80 as format characters: C locale encoding, REF-CHOICE copied as bytes)"))
    return out


# ---------------------------------------------------------------------------
# positional, %n

def fam_positional():
    out = []
    cite = "POSIX fprintf (%n$, *m$)"
    P = [
        ("%1$d", [I(7)]), ("%2$d %1$d", [I(1), I(2)]), ("%1$d %1$d", [I(9)]), ("%2$s %1$s", [("str", b"a"), ("str", b"b")]),
        ("%3$s %1$s %2$s", [("str", b"one"), ("str", b"two"), ("str", b"three")]),
        ("%1$*2$d|", [I(42), I(8)]), ("%1$-*2$d|", [I(42), I(8)]), ("%1$*2$d|", [I(42), I(-8)]),
        ("%2$*1$d|", [I(6), I(-3)]), ("%1$.*2$f", [D(3.14159265), I(3)]), ("%2$.*1$s", [I(2), ("str", b"hello")]),
        ("%3$*1$.*2$d|", [I(9), I(5), I(77)]), ("%1$x %1$o %1$u %1$#X", [U(255)]),
        ("%2$c%1$c", [I(0x61), I(0x62)]), ("%1$s%2$n %3$d", [("str", b"abc"), ("n", "int"), I(5)]),
        ("%2$lld %1$hhd", [I(-3), ("llong", -9000000000)]), ("%1$g %1$e %1$f", [D(0.1)]),
        ("%1$Lf %2$f", [LD(2.5), D(0.25)]), ("%1$p", [("ptr", 0x1234)]),
        ("%1$.*1$d", [I(4)]), ("%1$*1$d|", [I(5)]),
    ]
    for f, a in P:
        kind = "impl" if "p" in f else "std"
        out.append(case("positional", f, a, kind, cite + ("; C17 7.21.6.1p8 (p)" if kind == "impl" else "")))
    r = random.Random("scnfuzz-positional")
    for _ in range(60):
        n = r.randint(2, 6)
        args = []
        for k in range(n):
            t = r.choice(["d", "s", "x", "f", "c"])
            if t == "d":
                args.append(("d", I(r.randint(-999, 999))))
            elif t == "s":
                args.append(("s", ("str", bytes(r.choice(b"abcxyz") for _ in range(r.randint(0, 5))))))
            elif t == "x":
                args.append(("x", U(r.randint(0, 0xffff))))
            elif t == "f":
                args.append((".2f", D(r.randint(-10000, 10000) / 64.0)))
            else:
                args.append(("c", I(r.randint(0x61, 0x7a))))
        order = list(range(n))
        r.shuffle(order)
        order += [r.randrange(n)]
        f = "|".join("%%%d$%s" % (k + 1, args[k][0]) for k in order)
        out.append(case("positional", f, [a for _, a in args], "std", cite))
    return out


def fam_n():
    out = []
    cite = "C17 7.21.6.1p8 (n); kernel: %n unsupported, " + KSTOP
    for L, nt in [("", "int"), ("hh", "schar"), ("h", "short"), ("l", "long"), ("ll", "llong"),
                  ("j", "intmax"), ("z", "size"), ("t", "ptrdiff")]:
        out.append(case("n", "%" + L + "n", [("n", nt)], "std", cite))
        out.append(case("n", "abc%" + L + "ndef", [("n", nt)], "std", cite))
        out.append(case("n", "%10d%" + L + "n|", [I(5), ("n", nt)], "std", cite))
        out.append(case("n", "%s%" + L + "n%s", [("str", b"x" * 100), ("n", nt), ("str", b"tail")], "std", cite))
    for f, a, sz in [
        ("%n%n", [("n", "int"), ("n", "int")], None),
        ("a%nb%lnc%hn", [("n", "int"), ("n", "long"), ("n", "short")], None),  # each object its length (p9)
        ("hello%n world", [("n", "int")], [0, 1, 3, 5, 6, 20]),
        ("%d%n%s%n", [I(-12345), ("n", "int"), ("str", b"abcdef"), ("n", "int")], [0, 4, 20]),
        ("%.3s%n", [("str", b"abcdef"), ("n", "int")], None),
        ("%5c%n", [I(0x41), ("n", "int")], None),
        ("%e%n", [D(1.0), ("n", "int")], None),
        ("%%%n", [("n", "int")], None),
        ("%300d%n", [I(1), ("n", "int")], [0, 10, 300, 301]),
        ("\t%hhn", [("n", "schar")], None),  # the object its length (p9)
        ("%200s%200s%hhn", [("str", b"a"), ("str", b"b"), ("n", "schar")], [0]),
    ]:
        kind = "std"
        c = cite
        if f == "%200s%200s%hhn":
            kind = "impl"
            c = "C17 7.21.6.1p8 (n: count 400 converted to signed char, 6.3.1.3p3 impl-defined: modular)"
        out.append(case("n", f, a, kind, c, sizes=sz))
    return out


# ---------------------------------------------------------------------------
# floating point

DBL_MAX = 1.7976931348623157e308
DBL_MIN = 2.2250738585072014e-308
DBL_TRUE_MIN = 5e-324
FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1.5, 2.5, 3.14159265358979, -2.718281828459045,
                10.0, 100.0, 1e6, 1e7, 1e-4, 1e-5, 123456.789, 0.000123456, 1e15, 1e16, 1e17, 1e22, 1e23,
                9.5, 99.5, 0.05, 0.95, 1e100, -1e-100, 1e300, 1e-300, DBL_MAX, DBL_MIN, DBL_TRUE_MIN,
                2.2250738585072009e-308, 4.9e-322, 0.1 + 0.2, 1 / 3, 2 / 3, 65536.0, 4294967296.0,
                9007199254740993.0, 9007199254740992.0, 0.999999, 0.9999995, 9.9999995, 999999.5]


def float_cite(conv):
    if conv in "aA":
        return "C17 7.21.6.1p8 (a: REF-CHOICE leading 1); kernel " + KSTOP
    return "C17 7.21.6.1p8 (%s), F.5; kernel %s" % (conv, KSTOP)


def float_kind(conv):
    return "impl" if conv in "aA" else "std"


def fam_float():
    out = []
    r = random.Random("scnfuzz-float")
    # random doubles: bit patterns, decimal-ish values, subnormals
    rand = []
    for _ in range(20):
        rand.append(DB(r.getrandbits(64) & ~(0x7ff << 52) | (r.randint(1, 0x7fe) << 52)))
    for _ in range(16):
        rand.append(D(r.randint(-10**9, 10**9) / 10 ** r.randint(0, 9)))
    for _ in range(6):
        rand.append(DB(r.getrandbits(52) | (r.getrandbits(1) << 63)))
    fixed = [D(x) for x in FLOAT_VALUES]
    cats = {"f": "float.f", "F": "float.f", "e": "float.e", "E": "float.e", "g": "float.g", "G": "float.g",
            "a": "float.a", "A": "float.a"}
    for conv in "fFeEgGaA":
        for a in fixed:
            bits = a[1]
            ex = (bits >> 52) & 0x7ff
            if conv in "fF" and ex > 1023 + 200:
                ps = [None, 0]
            elif conv in "fF" and ex < 1023 - 200 and bits & ((1 << 63) - 1):
                ps = [None, 0, 3]
            else:
                ps = [None, 0, 3, 17] if conv in "feg" else ([None, 0, 3] if conv == "a" else [None])
            for p in ps:
                out.append(case(cats[conv], spec("", None, p, "", conv), [a], float_kind(conv), float_cite(conv)))
        for a in rand if conv in "fega" else []:
            ex = (a[1] >> 52) & 0x7ff
            for p in [None, 12] if conv not in "aA" else [None]:
                if conv in "fF" and (ex > 1023 + 300 or ex < 1023 - 300):
                    continue
                out.append(case(cats[conv], spec("", None, p, "", conv), [a], float_kind(conv), float_cite(conv)))
    # flags x width on a few values
    for conv in "feEgGaA":
        for x in [0.0, -0.0, -1.5, 100.25, 1e-10, 123456789.0] if conv in "fega" else [-1.5, 1e-10]:
            for fl in ["#", "+", " ", "-", "0", "#0", "+0", "-#"]:
                for w, p in [(None, None), (16, None), (16, 0), (None, 0)]:
                    if fl in ("0", "-") and w is None:
                        continue
                    if conv == "f" and abs(x) > 1e8:
                        continue
                    out.append(case(cats[conv], spec(fl, w, p, "", conv), [D(x)], float_kind(conv),
                                    float_cite(conv) + "; p6 (" + fl + ")"))
    return out


def fam_float_g_edges():
    out = []
    cite = "C17 7.21.6.1p8 (g: P/X rule, # keeps zeros); kernel " + KSTOP
    vals = [1e-4, 9.9999e-5, 0.0001 - 1e-20, 0.00009999995, 0.000099999949, 123456.0, 999999.0, 999999.4,
            999999.5, 9999995.0, 1234567.0, 100000.0, 1e5, 1e6, 0.001, 1.0, 10.0, 9.5, 0.5, 95.0,
            99.95, 1e-5, 5e-5, 123.456, 0.1, 1e16, 12345678901234567890.0]
    for x in vals:
        for p in [None, 0, 1, 5, 17]:
            for fl in ["", "#"] if p in (None, 0, 5) else [""]:
                out.append(case("float.g", spec(fl, None, p, "", "g"), [D(x)], "std", cite))
    return out


def ldbl(sign, e, m):
    return ("ldouble", (sign, e, m))


LDBL_MAX = (0, 0x7ffe, (1 << 64) - 1)
LDBL_MIN = (0, 1, 1 << 63)
LDBL_TRUE_MIN = (0, 0, 1)
LDBL_SUB_MAX = (0, 0, (1 << 63) - 1)


def fam_long_double():
    out = []
    r = random.Random("scnfuzz-ldouble")
    cite = "C17 7.21.6.1p7 (L), p8 (%s), F.5; kernel " + KSTOP
    citea = "C17 7.21.6.1p7 (L), p8 (a: REF-CHOICE leading 1); kernel " + KSTOP
    vals = [LD(0.0), LD(-0.0), LD(1.0), LD(-1.0), LD(0.5), LD(2.5), LD(0.1), LD(1e300),
            ("ldouble", (0, 16383 - 4, 0xcccccccccccccccd)),           # 0.1L
            ("ldouble", (0, 16384, 0xc90fdaa22168c235)),               # pi L
            ("ldouble", (1, 16383 + 10, 0xfffffffffffffffe)),
            ("ldouble", LDBL_MIN), ("ldouble", LDBL_TRUE_MIN), ("ldouble", LDBL_SUB_MAX),
            ("ldouble", (0, 16383 + 63, (1 << 64) - 1)),                # 2^64 - 1
            ("ldouble", (0, 16383 + 52, 0x8000000000000800)),           # 2^53 + 1
            ("ldouble", (0, 16383 + 70, 0xa000000000000000))]
    for _ in range(10):
        vals.append(("ldouble", (r.getrandbits(1), r.randint(16383 - 80, 16383 + 80), (1 << 63) | r.getrandbits(63))))
    for _ in range(5):
        vals.append(("ldouble", (0, r.randint(1, 0x7ffe), (1 << 63) | r.getrandbits(63))))
    for _ in range(4):
        vals.append(("ldouble", (0, 0, r.getrandbits(62))))
    for a in vals:
        e = a[1][1]
        big = e > 16383 + 200 or (e < 16383 - 200)
        for conv in "feEgGaA" if e in (16383 - 4, 16384) else "fega":
            if conv == "f" and big:
                ps = [0]
            else:
                ps = [None, 0, 19] if conv not in "aA" else [None, 3]
            for p in ps:
                out.append(case("float.long-double", spec("", None, p, "L", conv), [a], float_kind(conv),
                                citea if conv in "aA" else cite % conv))
        for f in ["%+25.10Le", "%-25.3Lf|", "%025Lg", "%#.0Lf", "%#Lg", "% La", "%#.0La"]:
            if "f" in f and big:
                continue
            conv = f[-1]
            out.append(case("float.long-double", f, [a], float_kind(conv), citea if conv in "aA" else cite % conv))
    return out


def fam_inf_nan():
    out = []
    cite = "C17 7.21.6.1p8 (inf/nan style: REF-CHOICE inf, nan, -nan), p6 (0); kernel " + KSTOP
    vals = [D(float("inf")), D(float("-inf")), DB(DNAN), DB(DNEGNAN), DB(0x7ff0000000000001),
            ("ldouble", (1, 0x7fff, 1 << 63)), ("ldouble", (0, 0x7fff, 0xc000000000000000))]
    for a in vals:
        L = "L" if a[0] == "ldouble" else ""
        for conv in "fFeEgGaA" if a in (vals[0], vals[3]) else "fEga":
            for fl, w, p in [("", None, None), ("+", None, None), (" ", 8, None), ("-", 8, None),
                             ("0", 8, None), ("#+0", 10, 2)]:
                out.append(case("float.inf-nan", spec(fl, w, p, L, conv), [a], "impl", cite))
    return out


def fam_float_hard():
    out = []
    cite = "C17 7.21.6.1p8 (%s), F.5 (ties to even); kernel " + KSTOP
    for x in [0.5, 1.5, 2.5, 3.5, 4.5, -0.5, -1.5, 0.49999999999999994, 1e22 + 0.0, 5e-1]:
        out.append(case("float.hard", "%.0f", [D(x)], "std", cite % "f"))
        out.append(case("float.hard", "%.0e", [D(x)], "std", cite % "e"))
    for x in [0.125, 0.375, 0.625, 0.875, 2.675, 1.005, 1.115, 9.995, 0.045, 1.25, 1.35]:
        out.append(case("float.hard", "%.2f", [D(x)], "std", cite % "f (value as its exact binary value)"))
        out.append(case("float.hard", "%.1f", [D(x)], "std", cite % "f"))
        out.append(case("float.hard", "%.2e", [D(x)], "std", cite % "e"))
    for x in [9.5, 99.5, 999.5, 9.95, 9.995, 0.995, 0.0995, 9.9999999, 999999.9999999, 0.9999999999999999,
              99999999999999999999.0, 1e-7 * 9.99999999]:
        for f in ["%.0f", "%.1f", "%.2f", "%.0e", "%.1e", "%.2e", "%g", "%.3g", "%#.3g", "%.1g"]:
            out.append(case("float.hard", f, [D(x)], "std", cite % f[-1] + " (carry)"))
    # exact binary ties k/2^m: m decimals ending in 5, rounded at m-1 places (ties to even)
    for m in range(1, 9):
        for k in range(1, 2 ** m, 2) if m <= 4 else [1, 3, 2 ** m - 1, 2 ** (m - 1) + 1]:
            x = k / 2 ** m
            out.append(case("float.hard", "%%.%df" % (m - 1), [D(x)], "std", cite % "f (exact tie)"))
            out.append(case("float.hard", "%%.%df" % (m - 1), [D(x + 3)], "std", cite % "f (exact tie)"))
    # integers ending in 5 (exact ties for %e), and 2^53 neighbourhood
    for v in [15, 25, 35, 45, 125, 1125, 99995, 2 ** 53 + 2, 123456789012345, 10 ** 21 + 5 * 2 ** 20]:
        dg = len(str(v))
        out.append(case("float.hard", "%%.%de" % (dg - 2), [D(float(v))], "std", cite % "e (exact tie)"))
        out.append(case("float.hard", "%%.%dg" % (dg - 1), [D(float(v))], "std", cite % "g (exact tie)"))
    # decimal-looking values d/10^k ending in 5: the binary value decides the direction
    r = random.Random("scnfuzz-hard")
    for _ in range(60):
        k = r.randint(1, 12)
        d = r.randint(0, 10 ** 6) * 10 + 5
        x = d / 10 ** k
        out.append(case("float.hard", "%%.%df" % (k - 1), [D(x)], "std", cite % "f (near tie)"))
        out.append(case("float.hard", "%%.%de" % (len(str(d)) - 2), [D(x)], "std", cite % "e (near tie)"))
    out.append(case("float.hard", "%.60e", [D(DBL_MIN)], "std", cite % "e"))
    out.append(case("float.hard", "%.60e", [D(DBL_TRUE_MIN)], "std", cite % "e"))
    out.append(case("float.hard", "%.760e", [D(DBL_TRUE_MIN)], "std", cite % "e (all 751 significant digits)"))
    out.append(case("float.hard", "%.1100f", [D(DBL_TRUE_MIN)], "std", cite % "f"))
    out.append(case("float.hard", "%.1080f", [D(DBL_MIN)], "std", cite % "f"))
    out.append(case("float.hard", "%f", [D(DBL_MAX)], "std", cite % "f (309 integer digits)"))
    out.append(case("float.hard", "%.20e", [D(DBL_MAX)], "std", cite % "e"))
    out.append(case("float.hard", "%.400e", [D(DBL_MAX)], "std", cite % "e"))
    for x in [0.1, 0.2, 0.3, 1 / 3, 2 / 3, 3.141592653589793, 2.718281828459045, 1e23, 5e-324, DBL_MAX, DBL_MIN,
              2.2250738585072009e-308, 123456789012345678.0, 1.7976931348623157e307, 0.1 + 0.2, 100.0, 1e21,
              9007199254740993.0, 4.35, 0.000001, 1e-7, 8.41e21, 5e-310, 1.1, 2.2, 3.3, 9.109e-31, 6.022e23]:
        out.append(case("float.hard", "%.17g", [D(x)], "std", cite % "g"))
        out.append(case("float.hard", "%.16g", [D(x)], "std", cite % "g"))
        out.append(case("float.hard", "%.40g", [D(x)], "std", cite % "g"))
    # long double hard cases
    cl = "C17 7.21.6.1p8 (%s) + F.5 (x87 80-bit long double); kernel " + KSTOP
    out.append(case("float.hard", "%Lf", [("ldouble", LDBL_MAX)], "std", cl % "f (all 4933 integer digits)"))
    out.append(case("float.hard", "%.3Lf|", [("ldouble", (1, 0x7ffe, (1 << 64) - 1))], "std", cl % "f"))
    out.append(case("float.hard", "%.40Le", [("ldouble", LDBL_MAX)], "std", cl % "e"))
    for p in [0, 10, 30, 100, 1000, 11500]:
        out.append(case("float.hard", "%%.%dLe" % p, [("ldouble", LDBL_TRUE_MIN)], "std", cl % "e (LDBL_TRUE_MIN)"))
    for p in [20, 60]:
        out.append(case("float.hard", "%%.%dLe" % p, [("ldouble", LDBL_MIN)], "std", cl % "e (LDBL_MIN)"))
        out.append(case("float.hard", "%%.%dLe" % p, [("ldouble", LDBL_SUB_MAX)], "std", cl % "e (largest subnormal)"))
    out.append(case("float.hard", "%.21Lg", [("ldouble", (0, 16383 - 4, 0xcccccccccccccccd))], "std", cl % "g"))
    out.append(case("float.hard", "%.0Lf", [("ldouble", ld_from_exact(0, 5, -1))], "std", cl % "f (2.5 ties to even)"))
    out.append(case("float.hard", "%.0Lf", [("ldouble", ld_from_exact(0, 7, -1))], "std", cl % "f (3.5 ties to even)"))
    return out


# ---------------------------------------------------------------------------
# l before a floating conversion, the sign of a NaN, boundary widths and
# precisions: what mutation analysis of the printfs' float and field code
# asks for

CITE_L = "C17 7.21.6.1p7 (l: no effect on a following a, A, e, E, f, F, g, or G conversion specifier)"
NONFINITE = "p8 (inf/nan style: REF-CHOICE inf, nan, -nan)"


def fam_float_l():
    """%lf %lF %le %lE %lg %lG %la %lA: as without l (p7). Each value plain
    and with one of the flag/width/precision variants, and rounding ties."""
    out = []
    vals = [D(1.0), D(-0.0), D(0.1), D(2.5), D(0.125), D(-1234.5678), D(1e-5), D(1e21), D(DBL_MAX),
            DB(1), DB((1 << 52) - 1),                       # DBL_TRUE_MIN, the largest subnormal
            D(float("inf")), D(float("-inf")), DB(DNAN), DB(DNEGNAN)]
    variants = [("+", None, 0), (" ", 12, 3), ("-", 14, 2), ("#", None, 0), ("0", 16, 4), ("-+", 22, None),
                ("#0", 12, 1), (" ", None, 17)]
    cats = {"f": "float.f", "e": "float.e", "g": "float.g", "a": "float.a"}
    for k, conv in enumerate("fFeEgGaA"):
        for i, a in enumerate(vals):
            finite = a[1] & (0x7ff << 52) != 0x7ff << 52
            big = (a[1] >> 52) & 0x7ff > 1023 + 200
            fl, w, p = variants[(i + k) % len(variants)]
            if conv in "fF" and big and p is None:
                p = 0
            for sp in ["%l" + conv, spec(fl, w, p, "l", conv)]:
                if finite:
                    out.append(case(cats[conv.lower()], sp, [a], float_kind(conv), CITE_L + "; " + float_cite(conv)))
                else:
                    out.append(case("float.inf-nan", sp, [a], "impl", CITE_L + "; " + NONFINITE + "; kernel " + KSTOP))
    ties = [("%.0lf", 2.5), ("%.0lF", 3.5), ("%.0lf", -0.5), ("%.2lf", 0.125), ("%.2lf", 0.375), ("%.0le", 25.0),
            ("%.1lE", 0.125), ("%.0lg", 2.5), ("%.1lg", 0.25), ("%#.2lG", 0.125), ("%.1la", 1.03125),
            ("%.0lA", 1.5), ("%.0la", 2.5)]
    for f, x in ties:
        conv = f[-1]
        out.append(case(cats[conv.lower()], f, [D(x)], float_kind(conv),
                        CITE_L + "; " + float_cite(conv) + " (tie: to even)"))
    return out


def fam_nan_sign():
    """The sign of a NaN: the standard's style is [-]nan, and a NaN may carry
    a sign (5.2.4.2.2, DR 218), but nothing requires printing it: impl, the
    reference prints -nan for a NaN whose sign bit is set (as glibc and
    musl do). The flags as for a number: + and space give a positive NaN a
    sign, 0 pads with spaces, # has no effect."""
    out = []
    cite = ("C17 7.21.6.1p8 ([-]nan, [-]NAN: which style is implementation-defined), p6 (+, space; 0 not for "
            "infinity or NaN); 5.2.4.2.2 (a NaN may carry a sign; DR 218); REF-CHOICE -nan for a set sign bit; "
            "kernel " + KSTOP)
    specs = [("", None, None), ("+", None, None), (" ", None, None), ("", None, 3), ("+", 12, 5), (" ", 10, 0),
             ("-+", 9, None), ("#0", 8, 1)]
    for a in [DB(DNAN), DB(DNEGNAN)]:
        for conv in "fFeEgGaA":
            for fl, w, p in specs:
                out.append(case("float.inf-nan", spec(fl, w, p, "", conv), [a], "impl", cite))
    for a in [("ldouble", (0, 0x7fff, 0xc000000000000000)), ("ldouble", (1, 0x7fff, 0xc000000000000000))]:
        for conv in "fEga":
            for fl, w, p in specs[1:5]:
                out.append(case("float.inf-nan", spec(fl, w, p, "L", conv), [a], "impl", cite))
    return out


def fam_big_fields():
    """Widths and precisions of 4095, 4096, 32767, 32768 and 40960 (issue 23: where
    an implementation keeps a count in 12, 15 or 16 bits): d, x, s, f. The
    32K outputs are few (a check at every buffer size costs the square of
    the output, and each is 64 KiB of corpus); a %s precision only limits."""
    out = []
    cw = "C17 7.21.6.1p4 (field width: padded with spaces on the left)"
    cwl = "C17 7.21.6.1p4 (field width), p6 (-: on the right)"
    cp = "C17 7.21.6.1p4 (precision: %s)"
    for cat, f, a, sz, cite in [
        ("width", "%04095d|", [I(-7)], [0, 1, 4095, 4096, 4097], cw + ", p6 (0: zeros after the sign)"),
        ("width", "%-4096x|", [U(0xbeef)], [0, 4096, 4097, 4098], cwl),
        ("width", "%4096s|", [("str", b"abc")], [0, 4095, 4096, 4097, 4098], cw),
        ("width", "%-4095.2f|", [D(-1.25)], [0, 4095, 4096, 4097], cwl),
        ("width", "%*d|", [I(-4096), I(42)], [0, 4096, 4097, 4098], cwl + ", p5 (negative * width: - flag)"),
        ("width", "%32768d", [I(-1)], [0, 1, 32767, 32768, 32769], cw),
        # every digit of the width counts: 40960's first four (4096) pass 4095, where
        # uClibc-ng before 266aaaf stopped accumulating (bench/history/uclibc-width-40960)
        ("width", "%40960d", [I(1)], [0, 1, 40959, 40960, 40961], cw),
        ("precision", "%.4095d", [I(1)], [0, 4095, 4096], cp % "the minimum number of digits"),
        ("precision", "%#.4096x", [U(0xff)], [0, 4096, 4097, 4098, 4099], cp % "the minimum number of digits; p6 # adds 0x"),
        ("precision", "%.4096f", [D(0.1)], [0, 4097, 4098, 4099], cp % "digits after the decimal-point character"),
        ("precision", "%.4095e", [D(1.0 / 3.0)], [0, 4100, 4101, 4102], cp % "digits after the decimal-point character"),
        ("precision", "%.4095s|", [("str", b"0123456789" * 410)], [0, 4095, 4096, 4097], cp % "the maximum number of bytes"),
        ("precision", "%.32767s|", [("str", b"ab")], [0, 3, 4], cp % "the maximum number of bytes"),
        ("precision", "%.32768s|", [("str", b"0123456789" * 4)], [0, 40, 41, 42], cp % "the maximum number of bytes"),
        ("precision", "%.*s|", [I(32768), ("str", b"abc")], [0, 4, 5], cp % "*, the maximum number of bytes"),
        ("precision", "%.32768x", [U(1)], [0, 1, 32768, 32769], cp % "the minimum number of digits"),
        ("precision", "%.32767f", [D(-0.5)], [0, 32769, 32770, 32771], cp % "digits after the decimal-point character"),
    ]:
        conv = [ch for ch in f if ch.isalpha()][-1]
        if conv in "fe":
            cite += "; F.5; kernel " + KSTOP
        out.append(case(cat, f, a, "std", cite, sizes=sz))
    return out


def fam_trunc():
    out = []
    cite = "C17 7.21.6.5p2-p3 (output beyond n-1 discarded, would-be length returned)"
    for f, a, sz in [
        ("%5000d", [I(1)], [0, 1, 4095, 4096, 4097, 5000, 5001]),
        ("%-5000d|", [I(-1)], [0, 2, 5002]),
        ("%.4200d", [I(7)], [0, 100, 4201]),
        ("%s", [("str", b"0123456789abcdef" * 300)], [0, 1, 16, 4096, 4800, 4801]),
        ("%s%s", [("str", b"A" * 3000), ("str", b"B" * 3000)], [0, 3000, 3001, 6000, 6001]),
        ("%4097c", [I(0x41)], [4097, 4098]),
        ("%-4097c|", [I(0x41)], [1, 4099]),
        ("%8192s|", [("str", b"x")], [0, 8192, 8194]),
        ("%5000.3f", [D(-3.25)], [0, 4990, 5001]),
        ("%-6000e|", [D(1e-300)], [6002]),
        ("%.4500f", [D(1.0 / 3.0)], [0, 4502, 4503]),
        ("%04500x", [U(0xabc)], [1, 4501]),
        ("%*d", [I(4500), I(-2)], [4501]),
        ("%.*s", [I(4500), ("str", b"q" * 5000)], [4499, 4500, 4501]),
    ]:
        conv = [ch for ch in f if ch.isalpha()][-1]
        c = cite + ("; F.5" if conv in "fe" else "")
        if conv in "fe":
            c += "; kernel " + KSTOP
        out.append(case("trunc", f, a, "std", c, sizes=sz))
    # shorter ones with every buffer size (no @sizes)
    for f, a in [("hello", []), ("%d", [I(-123456)]), ("%10s|", [("str", b"abc")]), ("%.3e", [D(1234.5)]),
                 ("%x%o", [U(0xdead), U(8)])]:
        out.append(case("trunc", f, a, "std", cite))
    return out


# ---------------------------------------------------------------------------
# kernel-only behaviour (ISO undefined or different): iso column '-' unless defined

def fam_kernel():
    out = []
    K = "lib/vsprintf.c "
    def k(cat, f, a, cite, kind="std", iso=True):
        # iso=True: the ISO column is filled when the standard defines the case
        out.append(case(cat, f, a, kind, K + cite, iso=iso))
    # stop at invalid/unsupported conversions
    for f, a in [("ab%jdcd", [("intmax", 5)]), ("x%fy", [D(1.0)]), ("x%Lfy", [LD(1.0)]), ("%d %e %d", [I(1), D(2.0), I(3)]),
                 ("pre%npost", [("n", "int")]), ("%bz", [U(5)]), ("%B", [U(5)]), ("%w32d", [I(1)]), ("%1$d", [I(1)]),
                 ("%2$s %1$s", [("str", b"a"), ("str", b"b")]), ("ab%", []), ("ab%5", []), ("%y", []), ("a%kb", []),
                 ("%Zd", [("ssize", 3)]), ("%qd", [("llong", 3)]), ("%5.2a", [D(1.0)]), ("%C", [I(65)]), ("%S", [("str", b"x")]),
                 ("%lc", [I(65)]), ("%hhc", [I(65)]), ("%*f|%d", [I(4), D(1.0), I(2)]), ("%.*g", [I(3), D(1.0)]),
                 ("%v", []), ("%-08.3", [])]:
        if f in ("%lc", "%hhc"):
            k("kernel.qualifier", f, a, "format_decode(): qualifier accepted and ignored for %c")
            continue
        k("kernel.stop", f, a, "format_decode(): unknown conversion -> FORMAT_TYPE_INVALID; vsnprintf() stops output there (goto out)")
    # integers: qualifiers
    for f, a in [("%Ld", [("llong", -5)]), ("%Lu", [("ullong", ULONG_MAX)]), ("%Lx", [("llong", -1)]),
                 ("%lld", [("llong", LONG_MIN)]), ("%llu", [("ullong", ULONG_MAX)]), ("%zd", [("ssize", -7)]),
                 ("%zu", [("size", ULONG_MAX)]), ("%zx", [("size", 0xabc)]), ("%td", [("ptrdiff", -9)]), ("%tx", [("ptrdiff", -1)]),
                 ("%hd", [I(70000)]), ("%hd", [I(-32769)]), ("%hu", [I(-1)]), ("%hhd", [I(300)]), ("%hhd", [I(128)]),
                 ("%hhd", [I(-129)]), ("%hhu", [I(-1)]), ("%hhx", [I(0x1ff)]), ("%hi", [I(40000)]), ("%lx", [("long", -1)]),
                 ("%ld", [("long", LONG_MIN)]), ("%li", [("long", 12)]), ("%lo", [("ulong", 8)]), ("%d", [U(UINT_MAX)]),
                 ("%u", [I(-1)]), ("%x", [I(-2)]), ("%i", [I(INT_MIN)])]:
        # ISO: narrowing a signed value is impl-defined (covered in length.*): kernel column only
        k("kernel.qualifier", f, a, "format_decode() qualifiers, vsnprintf() va_arg casts; number()",
          iso=not (f[-1] in "di" and "h" in f))
    # number() differences from ISO
    for f, a in [("%.0d", [I(0)]), ("%.d", [I(0)]), ("%.0x", [U(0)]), ("%#x", [U(0)]), ("%#X", [U(0)]), ("%#o", [U(0)]),
                 ("%#.0o", [U(0)]), ("%#.5o", [U(8)]), ("%#8o", [U(8)]), ("%#08o", [U(8)]), ("%#08x", [U(1)]),
                 ("%#8x", [U(0)]), ("%#-8x|", [U(0)]), ("%08.3d", [I(5)]), ("%08.3d", [I(-5)]), ("%+08.3d", [I(5)]),
                 ("%010.5x", [U(0xab)]), ("%#010.5x", [U(0xab)]), ("%+u", [U(5)]), ("% u", [U(5)]), ("%+x", [U(5)]),
                 ("%#d", [I(5)]), ("%#u", [U(5)]), ("%#5d", [I(5)]), ("%-05d|", [I(5)]), ("%0-5d|", [I(5)]),
                 ("%.*d", [I(-3), I(7)]), ("%.*d", [I(-1), I(0)]), ("%.*x", [I(-5), U(0)]), ("%+ d", [I(5)]),
                 ("% +d", [I(5)]), ("%.3d", [I(-5)]), ("%5.0d|", [I(0)]), ("%#.3x", [U(1)]), ("%#X", [U(0xabc)]),
                 ("%.40d", [I(1)]), ("%-+8d|", [I(0)]), ("%#.0x", [U(0)])]:
        k("kernel.number", f, a, "number(): SIGN/PLUS/SPACE/SPECIAL/ZEROPAD/SMALL rules, at least one digit, precision from format_decode()")
    # strings and chars
    for f, a in [("%s", [("str", None)]), ("%.3s", [("str", None)]), ("%.0s", [("str", None)]), ("%10s|", [("str", None)]),
                 ("%-10.2s|", [("str", None)]), ("%.20s", [("str", None)]), ("%.s", [("str", b"abc")]), ("%.*s", [I(-1), ("str", b"abc")]),
                 ("%.*s", [I(-100), ("str", b"abc")]), ("%05s", [("str", b"ab")]), ("%-05s|", [("str", b"ab")]), ("%#s", [("str", b"ab")]),
                 ("%+s", [("str", b"ab")]), ("%05c", [I(65)]), ("%-05c|", [I(65)]), ("%.3c", [I(65)]), ("%+c", [I(65)]),
                 ("%c", [I(0x141)]), ("%5%", []), ("%-5%|", []), ("%05%", []), ("%.3%", []), ("%l%", []), ("%*%", [I(5)])]:
        k("kernel.string", f, a, "string(), check_pointer(), error_string(), widen_string(); vsnprintf() FORMAT_TYPE_CHAR/PERCENT_CHAR",
          iso=("str", None) not in a)
    # pointers: %p (as no_hash_pointers) and %px, NULL
    for v in [None, 1, 0x1000, 0xffff888000001000, ULONG_MAX]:
        for f in ["%p", "%px", "[%20px]", "[%-20p]", "%#px", "%#p", "%.20px", "%020px", "%5px", "%pxyz", "%p-%px"]:
            a = [("ptr", v)] * (2 if f == "%p-%px" else 1)
            kind = "impl" if "px" not in f.replace("%p-%px", "%p") or f == "%p-%px" else "std"
            if f in ("%p", "[%-20p]", "%#p"):
                kind = "impl"
            k("kernel.ptr", f, a, "pointer(), pointer_string(), default_pointer(); printk-formats.rst (%px; plain %p as no_hash_pointers)",
              kind=kind, iso=kind == "impl")
    # clamps
    k("kernel.clamp", "%.*d", [I(40000), I(1)], "set_precision(): clamp to PRECISION_MAX 32767")
    k("kernel.clamp", "%.*s|", [I(-40000), ("str", b"abc")], "set_precision(): clamp(prec, 0, PRECISION_MAX)")
    k("kernel.clamp", "%.*d|", [I(INT_MIN), I(5)], "set_precision(): clamp(prec, 0, PRECISION_MAX)")
    k("kernel.clamp", "%.*s|", [I(INT_MAX), ("str", b"abc")], "set_precision(): clamp to PRECISION_MAX")
    k("kernel.clamp", "%*d|", [I(-5000), I(7)], "format_decode(): negative * width -> LEFT")
    # wide literal format bytes, empty format
    k("kernel.string", "", [], "vsnprintf(): empty format", iso=True)
    return out


def fam_kernel_decode_pairs():
    """format_decode()'s doubled letters, which mutation analysis of the kernel
    (bench/results/mutate/kernel-survivors.tsv) showed no case told apart: only
    "ll" and "hh" pair up; "zz", "tt" and "LL" leave the second letter as the
    conversion, unknown, and the output stops there; a repeated '#' is SPECIAL
    still (the flags are or-ed in, not toggled). Kernel column only (ISO: an
    invalid conversion is undefined; repeated flags are left to kernel.*).
    Last in the corpus, so that no cited line moves."""
    out = []
    K = "lib/vsprintf.c format_decode(): "
    for f, a in [("a%zzdb", [("ssize", -3)]), ("a%ttdb", [("ptrdiff", -3)]), ("a%LLdb", [("llong", 300)])]:
        out.append(case("kernel.stop", f, a, "std", K + "a qualifier pairs up only as ll or hh; the second z, t or L "
                        "is the conversion, unknown -> FORMAT_TYPE_INVALID; vsnprintf() stops output there (goto out)",
                        iso=False))
    for f, a in [("[%##x]", [U(255)]), ("[%##o]", [U(8)])]:
        out.append(case("kernel.number", f, a, "std", K + "flags are or-ed into spec->flags (a repeated # is SPECIAL "
                        "still); number(): SPECIAL prefix", iso=False))
    # %pE's letters are or-ed in too: a repeated one keeps its class (toggled off, no flag
    # would be left and the default ESCAPE_ANY_NP would print the printable bytes as they are)
    import families_pext
    buf = families_pext.ESC_MIX
    for e in ["aa", "cc", "hh", "nn", "pp", "ss"]:
        out.append(case("kernel.pE", "%*pE" + e + "|", [I(len(buf)), ("mem", buf)], "std",
                        "lib/vsprintf.c escaped_string(): each flag letter is or-ed into flags (a repeated one "
                        "keeps its class); string_escape_mem() (lib/string_helpers.c)", iso=False))
    return out


def fam_float_carries():
    """Where a conversion's digits carry from one group of nine decimal digits
    into the next (0.9999999987 to nine places stays 0.999999999, one a little
    larger becomes 1.000000000, 999999999.5 to none becomes 1000000000): an
    engine that keeps the digits in base 10^9 limbs (musl) propagates the
    carry there; a power of two whose exponent ends a 29-bit shift exactly
    (2^29, 2^58); %a precisions past the significand's hexadecimal digits
    (16 for a double, 16 and 20 for a long double), which no rounding shortens."""
    out = []
    fcite = "C17 7.21.6.1p8 (f: the precision's digits, the value rounded), F.5 (correctly rounded); kernel " + KSTOP
    for f, x in [("%.9f", 0.9999999987), ("%.9f", 0.9999999996), ("%.0f", 999999999.5), ("%.3f", 999999999.9996),
                 ("%.9f", 1.9999999995000001), ("%f", float.fromhex("0x1.8p+29")), ("%f", float.fromhex("0x1p+58")),
                 ("%.0f", float.fromhex("0x1.0000000000001p+58")), ("%e", float.fromhex("0x1.8p+29")),
                 ("%g", float.fromhex("0x1.8p+29"))]:
        out.append(case("float." + f[-1], f, [D(x)], "std", fcite.replace("(f:", "(%s:" % f[-1])))
    for f, a in [("%.16a", D(1.5)), ("%.20A", D(0.1)), ("%.16La", LD(1.5)), ("%.20La", LD(0.1)),
                 ("%.15La", LD(0.1)),
                 ("%.15La", LD((0, 0x3fff, 0xc000000000000001))), ("%.14La", LD((0, 0x3fff, 0xffffffffffffffff)))]:
        out.append(case("float.a", f, [a], "impl", float_cite(f[-1]) + " (a precision past the significand's "
                        "digits: zeros)"))
    return out


def fam_overflow():
    """Outputs longer than INT_MAX bytes (model_iso.huge_len counts them): the
    call fails (POSIX [EOVERFLOW]: a negative return; C17 7.21.6.5p3's int
    cannot say the length). Not in corpus/*.tsv: an implementation may write
    the 2^31 bytes before it fails (glibc does, over a second a call), so
    these are run only where named (corpus/overflow/, `scnfuzz mutate` of
    musl and impl). Each is one byte or one digit past a limit: a precision
    or width of INT_MAX with a byte before it, of INT_MAX+1 and of 10^10 (its
    digits overflow an int), a %a/%e/%f whose digits reach INT_MAX+1."""
    out = []
    cite = "C17 7.21.6.5p3 (the return value is an int), 7.21.6.1p15; POSIX fprintf [EOVERFLOW]: a negative return"
    for f, a in [("%2147483648d", [I(1)]), ("%.2147483648d", [I(1)]), ("%10000000000d", [I(1)]),
                 ("%.10000000000d", [I(1)]), ("x%2147483647d", [I(1)]), ("x%.2147483647d", [I(1)]),
                 ("%.2147483647a", [D(1.0)]), ("%.2147483641a", [D(1.0)]), ("%.2147483647f", [D(1.0)]),
                 ("%.2147483646f", [D(1.0)]), ("%.2147483645f", [D(10.0)]), ("%.2147483645e", [D(10.0)]),
                 ("%.2147483648f", [D(1.0)]), ("%2147483648.1f", [D(1.5)]), ("x%.2147483647f", [D(1.0)]),
                 ("x%.2147483647a", [D(1.0)]), ("%+.2147483647d", [I(1)]), ("%+.2147483645f", [D(1.0)]),
                 # a * width of INT_MIN: the '-' flag and a width of 2^31 (C17 7.21.6.1p5), past INT_MAX
                 ("%*d", [I(-2147483648), I(1)])]:
        out.append(case("overflow", f, a, "std", cite, kernel=False))
    return out


def fam_spec_edges():
    """Specifications whose parts sit where a parser can confuse them: a
    literal '$' or '*' right after a conversion ("%*d$", "%.*d$", "%d*"), a
    negative * width on an empty string (it still pads: '-' with width 1), a
    * precision with the 0 flag (0 is ignored for any precision, 0 included),
    a precision after an earlier specification without one, a numbered width
    after a number, all nine numbered arguments of NL_ARGMAX."""
    out = []
    cw = "C17 7.21.6.1p5 (* width: a negative one is - with its absolute value), p4"
    c0 = "C17 7.21.6.1p6 (0: ignored when a precision is given for d, i, o, u, x, X)"
    cposn = "POSIX fprintf (%n$, *m$: all the leading arguments numbered; NL_ARGMAX >= 9)"
    for cat, f, a, cite in [
            ("width", "%*d$|", [I(3), I(5)], cw + "; '$' after the conversion is literal text"),
            ("precision", "%.*d$|", [I(2), I(5)], "C17 7.21.6.1p5 (* precision); '$' after the conversion is text"),
            ("width", "%d*|", [I(5)], "C17 7.21.6.1p3 ('*' after the conversion is literal text)"),
            ("width", "%*s|", [I(-1), ("str", b"")], cw),
            ("width", "%*c|", [I(-2), I(0x41)], cw),
            ("flags.zero", "%08.*d|", [I(3), I(5)], c0),
            ("flags.zero", "%05.*d|", [I(0), I(7)], c0),
            ("flags.zero", "%05.*x|", [I(0), U(0x1a)], c0),
            ("flags.zero", "%d%05.3d|", [I(1), I(1)], c0 + "; the precision is this specification's own"),
            ("positional", "%1$5.*2$d|", [I(7), I(3)], cposn),
            ("positional", "%1$d%2$d%3$d%4$d%5$d%6$d%7$d%8$d%9$d|", [I(i) for i in range(1, 10)], cposn),
            ("positional", "%9$d%8$d%7$d%6$d%5$d%4$d%3$d%2$d%1$d|", [I(i) for i in range(1, 10)], cposn)]:
        out.append(case(cat, f, a, "std", cite))
    # %n through a wN length: a pointer to intN_t (C23 7.23.6.1p7), each object its own width (a
    # store of another width writes past it or leaves part of it)
    cw_n = "C23 7.23.6.1p7 (wN: intN_t), C17 7.21.6.1p8 (n); kernel " + KSTOP
    for f, nt in [("ab%w8n", "schar"), ("ab%w16n", "short"), ("ab%w32n", "int"), ("ab%w64n", "llong")]:
        out.append(case("length.w", f, [("n", nt)], "std", cw_n, kernel=False))
    # a numbered conversion that fails: the whole call fails, as unnumbered (fam_error)
    out.append(case("error", "%1$lc|", [("wint", 0x100)], "impl",
                    "C17 7.21.6.1p8 (l with c: wcrtomb EILSEQ) + 7.21.6.5p3; POSIX fprintf (%n$); C locale: code "
                    "points > 0x7f are encoding errors (REF-CHOICE)", kernel=False))
    return out


def all_cases():
    import families_pext  # the kernel's %p extensions; it imports case() and I() from here
    import families_abi, families_impl, families_round  # issue 23's survivors: each its own module
    for fam in (fam_int, fam_length, fam_char, fam_str, fam_ptr, fam_wide, fam_error, fam_flags,
                fam_width_prec, fam_percent, fam_positional, fam_n, fam_float, fam_float_g_edges,
                fam_long_double, fam_inf_nan, fam_float_hard, fam_trunc, fam_kernel, fam_float_l, fam_nan_sign,
                fam_big_fields) + families_pext.FAMILIES + (fam_kernel_decode_pairs, fam_float_carries, fam_spec_edges) + \
            families_abi.FAMILIES + families_impl.FAMILIES + families_round.FAMILIES:
        for c in fam():
            yield c
