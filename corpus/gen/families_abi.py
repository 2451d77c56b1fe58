"""Corpus families for issue 23's survivors: numbered arguments of mixed classes.

POSIX fprintf's %n$ and *m$ (applied to snprintf, C17 7.21.6.5) let a conversion take
"the nth argument after the format"; C17 7.21.6.1p9 and 7.16.1.1 make the argument's type the
one the conversion says. An implementation reaches argument n by stepping over arguments 1 to
n-1 with va_arg of the types the format gives them (picolibc's skip_to_arg, glibc's and musl's
argument tables). On x86-64 (psABI 3.5.7) va_arg takes integers and pointers from the
general-purpose registers' save area, doubles from the vector registers' and long doubles from
the stack, each class with its own cursor: stepping over a double as an int moves the wrong
cursor, and every later argument is read from the wrong place. The case model builds its
va_list as a real call does (core/case/case_call.c), so these cases tell the classes apart:
each steps over arguments of one class to read one of the other, in every conversion letter,
length modifier and field form the walk must parse (flags, widths whose digits hold a 0,
precisions, *m$, %% before the first specification). The expectations are
model_iso's. A flag after n$ on a double stepped over is a picolibc bug ("%2$d|%1$-f" prints
the int as 0: skip_to_arg takes the flag for the conversion, and steps over an int), known bug
picolibc-posn-flag-star (term posnflagskip): _flagged_double_cases hold it.

fam_exponent_widths: a field width around floating outputs whose exponent has just one more or
one fewer digit (decimal 1e99 and 1e100; binary 2^-10, 2^99, 2^999, 2^-1000 for %a), where an
implementation that counts the exponent's digits apart from writing them (picolibc's
ndigs_exp) pads by the count.

FAMILIES lists them; families.all_cases() runs them after the others.
"""
from families import D, I, LD, U, case, float_kind

CITE = "POSIX fprintf (%n$, *m$); C17 7.21.6.1p9 (the argument's type is the conversion's), 7.16.1.1 (va_arg)"

# (specification after "%n$", its argument): one of each class and form a walk steps over
INTEGER_CLASS = [
    ("d", I(-5)), ("i", I(42)), ("u", U(7)), ("o", U(8)), ("x", U(255)), ("X", U(0xabc)),
    ("c", I(0x41)), ("hhd", I(-3)), ("hu", I(65535)), ("ld", ("long", -1234567890123)),
    ("lld", ("llong", 9000000000)), ("llx", ("ullong", 0xfedcba9876543210)), ("jd", ("intmax", -77)),
    ("zu", ("size", 123456)), ("td", ("ptrdiff", -99)), ("lu", ("ulong", 18446744073709551615)),
    ("s", ("str", b"str")), ("5s", ("str", b"ab")), (".2s", ("str", b"abc")), ("-3d", I(4)),
    ("+d", I(6)), ("08.3d", I(9)), ("#x", U(10)), (" d", I(11)), ("10d", I(12)), ("100d", I(13)),
]
DOUBLE_CLASS = [
    ("f", D(1.5)), ("F", D(-2.25)), ("e", D(1e300)), ("E", D(3.0)), ("g", D(0.1)), ("G", D(1e-300)),
    ("a", D(1.0)), ("A", D(-0.5)), (".1f", D(0.25)), ("10f", D(2.5)), ("20.10e", D(7.0)),
    ("08.3f", D(-1.0)), ("lf", D(4.5)), (".0e", D(5.0)),
]


def _kind(specs):
    return "impl" if any(s.rstrip()[-1] in "aA" for s in specs) else "std"


def _pair_cases():
    """Argument 1 of one class stepped over to read argument 2 of the other, and of its own."""
    out = []
    for spec, arg in INTEGER_CLASS:
        for other, oarg in (("f", D(0.75)), ("d", I(7))):
            f = "%%2$%s|%%1$%s|" % (other, spec)
            out.append(case("positional", f, [arg, oarg], _kind([other, spec]), CITE, kernel=False))
    for spec, arg in DOUBLE_CLASS:
        for other, oarg in (("d", I(7)), (".2f", D(0.75)), ("s", ("str", b"s"))):
            f = "%%2$%s|%%1$%s|" % (other, spec)
            out.append(case("positional", f, [arg, oarg], _kind([other, spec]), CITE, kernel=False))
    return out


def _interleaved_cases():
    """More numbered arguments than registers of either class, read last first and shuffled
    (the walk reaches the stack for both), within NL_ARGMAX's minimum 9: nine doubles (8 vector
    registers), five doubles and four integers (3 general-purpose registers after the named
    ones), and a long double stepped over on the stack among integers of the stack. No position
    above 9: {NL_ARGMAX} may be 9 (musl, uClibc-ng, whose array of argument types overflows
    there: known bug uclibc-argpos-overflow-dies, an ASan report in the conformance run)."""
    out = []

    def orders(n):
        return [list(range(n, 0, -1)), [(7 * k) % n + 1 for k in range(n)], list(range(1, n + 1))]

    for specs, args in (([".1f"] * 9, [D(k + 0.5) for k in range(9)]),
                        ([".1f" if k % 2 == 0 else "d" for k in range(9)],
                         [D(k + 0.5) if k % 2 == 0 else I(10 * k) for k in range(9)])):
        for order in orders(len(args)):
            f = "|".join("%%%d$%s" % (p, specs[p - 1]) for p in order)
            out.append(case("positional", f, args, "std", CITE, kernel=False))
    args = [I(k) for k in range(1, 6)] + [LD(2.5), I(7), D(0.5), I(9)]
    for f in ("%9$d|%8$.1f|%7$d|%6$.1Lf|%5$d|%1$d%2$d%3$d%4$d", "%8$.1f|%9$d|%1$d%2$d%3$d%4$d%5$d|%7$d|%6$.1Lf"):
        out.append(case("positional", f, args, "std", CITE, kernel=False))
    return out


def _walk_form_cases():
    """The parts of a specification the walk must parse to find a position: %% before the
    first one, *m$ widths and precisions of the other class's
    neighbours, a precision whose digits hold a 0."""
    cases = [
        ("%%%2$d|%1$d|", [I(1), I(2)]),
        ("%%|%%%3$d|%2$.1f|%1$d|", [I(1), D(2.5), I(3)]),
        ("%%%2$.1f|%1$.1f|", [D(1.5), D(2.5)]),
        ("%1$*2$.*3$f|%4$d|", [D(1.5), I(8), I(2), I(4)]),
        ("%3$d|%1$.*2$e|", [D(1.5), I(3), I(7)]),
        ("%4$.1f|%3$*1$.*2$d|", [I(6), I(3), I(5), D(0.5)]),
        ("%2$s|%1$.10f|", [D(0.125), ("str", b"x")]),
        ("%3$d|%2$.1f|%1$10.0f|", [D(3.0), D(2.0), I(1)]),
    ]
    return [case("positional", f, a, "std", CITE, kernel=False) for f, a in cases]


def _flagged_double_cases():
    """A double with a flag after its n$, stepped over to read a later argument of either
    class (each flag, and the 0 flag with a width)."""
    out = []
    for flag in ("-", "+", " ", "#", "010"):
        for other, oarg in (("d", I(7)), (".2f", D(0.75))):
            f = "%%2$%s|%%1$%sf|" % (other, flag)
            out.append(case("positional", f, [D(1.5), oarg], "std", CITE, kernel=False))
    return out


def fam_abi_positional():
    return _pair_cases() + _interleaved_cases() + _walk_form_cases() + _flagged_double_cases()


def fam_exponent_widths():
    cite = "C17 7.21.6.1p4 (field width: padded with spaces on the left), p8 (e: at least two exponent digits; a: " \
           "as many as needed)"
    out = []
    for conv, vals in (("e", [1e9, 1e10, 1e-10, 1e99, 1e100, 1e-99, 1e-100, 1e300]),
                       ("a", [2.0 ** -10, 2.0 ** 10, 2.0 ** -9, 2.0 ** 99, 2.0 ** 100, 2.0 ** -99, 2.0 ** -100,
                              2.0 ** 999, 2.0 ** 1000, 2.0 ** -999, 2.0 ** -1000, 2.0 ** -1022])):
        for v in vals:
            for w in (12, 16):
                out.append(case("width", "%%%d%s|" % (w, conv), [D(v)], float_kind(conv), cite, kernel=False))
            out.append(case("width", "%%-%d.1%s|" % (14, conv), [D(-v)], float_kind(conv), cite, kernel=False))
    return out


FAMILIES = (fam_abi_positional, fam_exponent_widths)
