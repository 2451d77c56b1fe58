"""Independent model of C17 7.21.6.1 (fprintf) + C23 7.23.6.1 (%b %B, wN, wfN)
+ POSIX fprintf (%n$, *m$), applied to snprintf (C17 7.21.6.5).

Written from the text of the standards; it is the source of the `iso` column of
corpus/*.tsv. Target: x86-64 Linux (int 32 bits; long, long long, intmax_t,
size_t, ptrdiff_t 64 bits; int_fast8_t = signed char, int_fast16/32/64_t = long).

Floating-point decimal digits come from an exact oracle (floatdigits.Oracle:
MPFR, checked against Python's decimal); %a is computed here from the bits.
Implementation-defined choices (the reference's, docs/CHOICES.md) are marked
REF-CHOICE below.
"""
from floatdigits import FP

FLAGS = b"-+ #0"
INT_CONVS = "diouxXbB"
FLOAT_CONVS = "eEfFgGaA"
LENGTHS = ["hh", "h", "ll", "l", "j", "z", "t", "L"]

# unsigned width in bits of each length modifier (integer conversions)
LEN_BITS = {"": 32, "hh": 8, "h": 16, "l": 64, "ll": 64, "j": 64, "z": 64, "t": 64,
            "w8": 8, "w16": 16, "w32": 32, "w64": 64,
            "wf8": 8, "wf16": 64, "wf32": 64, "wf64": 64}


DECIMAL_DIG = 21          # x86-64: long double (64-bit significand), <float.h>
SIG_DIGITS = []           # significant digits of each e/f/g conversion of the last call


class EncodingError(Exception):
    pass


HUGE = 1 << 20            # a conversion with a wider field or precision is not built: huge_len counts it
INT_MAX = (1 << 31) - 1


class Overflow(Exception):
    """The output is longer than INT_MAX bytes: the return value cannot say
    how long (C17 7.21.6.5p3 returns an int); POSIX fprintf: [EOVERFLOW], a
    negative return."""


class Undefined(Exception):
    """The case is outside the standard's defined behaviour."""


class Spec:
    __slots__ = ("pos", "flags", "width", "prec", "length", "conv", "text")

    def __repr__(self):
        return "Spec(%r)" % self.text


def _num(fmt, i):
    j = i
    while j < len(fmt) and 0x30 <= fmt[j] <= 0x39:
        j += 1
    return (int(fmt[i:j]) if j > i else None), j


def _star(fmt, i):
    """The '*' before index i: ('*', m) for *m$, ('*', None) for the next
    argument; and the index after it."""
    n, j = _num(fmt, i)
    if n is not None and j < len(fmt) and fmt[j] == 0x24:
        return ("*", n), j + 1
    return ("*", None), i


def parse(fmt: bytes):
    """Split a format into literal bytes and Spec objects (C17 7.21.6.1p4).
    width/prec: None, int, ('*', None) for next arg, ('*', m) for *m$."""
    items = []
    i = 0
    lit = bytearray()
    while i < len(fmt):
        c = fmt[i]
        if c != 0x25:
            lit.append(c); i += 1; continue
        if lit:
            items.append(bytes(lit)); lit = bytearray()
        start = i
        i += 1
        sp = Spec()
        sp.pos = None
        # %n$ (POSIX)
        n, j = _num(fmt, i)
        if n is not None and j < len(fmt) and fmt[j] == 0x24:
            sp.pos = n
            i = j + 1
        flags = set()
        while i < len(fmt) and fmt[i] in FLAGS:
            flags.add(chr(fmt[i])); i += 1
        sp.flags = flags
        sp.width = None
        if i < len(fmt) and fmt[i] == 0x2A:
            sp.width, i = _star(fmt, i + 1)
        else:
            n, i = _num(fmt, i)
            sp.width = n
        sp.prec = None
        if i < len(fmt) and fmt[i] == 0x2E:
            i += 1
            if i < len(fmt) and fmt[i] == 0x2A:
                sp.prec, i = _star(fmt, i + 1)
            else:
                n, i = _num(fmt, i)
                sp.prec = n if n is not None else 0   # "only the period": zero
        length = ""
        rest = fmt[i:]
        if rest[:1] == b"w":
            k = 2 if rest[1:2] == b"f" else 1
            n, j = _num(rest, k)
            if n not in (8, 16, 32, 64):
                raise Undefined("w length")
            length = rest[:j].decode()
            i += j
        else:
            for L in LENGTHS:
                if rest.startswith(L.encode()):
                    length = L; i += len(L); break
        sp.length = length
        if i >= len(fmt):
            raise Undefined("incomplete conversion")
        sp.conv = chr(fmt[i])
        i += 1
        if sp.conv not in "diouxXbBfFeEgGaAcspn%":
            raise Undefined("unknown conversion " + sp.conv)
        sp.text = fmt[start:i]
        items.append(sp)
    if lit:
        items.append(bytes(lit))
    return items


# ---- argument access ---------------------------------------------------------

ARG_OF = {  # (length, signed) -> accepted TYPEs of the promoted argument
    ("", True): ("int",), ("", False): ("uint",),
    ("hh", True): ("int",), ("hh", False): ("int",),
    ("h", True): ("int",), ("h", False): ("int",),
    ("l", True): ("long",), ("l", False): ("ulong",),
    ("ll", True): ("llong",), ("ll", False): ("ullong",),
    ("j", True): ("intmax",), ("j", False): ("uintmax",),
    ("z", True): ("ssize",), ("z", False): ("size",),
    ("t", True): ("ptrdiff",), ("t", False): ("ptrdiff",),
    ("w8", True): ("int",), ("w8", False): ("int",),
    ("w16", True): ("int",), ("w16", False): ("int",),
    ("w32", True): ("int",), ("w32", False): ("uint",),
    ("w64", True): ("long",), ("w64", False): ("ulong",),
    ("wf8", True): ("int",), ("wf8", False): ("int",),
    ("wf16", True): ("long",), ("wf16", False): ("ulong",),
    ("wf32", True): ("long",), ("wf32", False): ("ulong",),
    ("wf64", True): ("long",), ("wf64", False): ("ulong",),
}

N_OF = {"": "int", "hh": "schar", "h": "short", "l": "long", "ll": "llong",
        "j": "intmax", "z": "size", "t": "ptrdiff",
        # C23 wN: a pointer to intN_t (the exact-width types; wfN's fast types are the implementation's)
        "w8": "schar", "w16": "short", "w32": "int", "w64": "llong"}


class Args:
    def __init__(self, args, positional):
        self.args = args
        self.positional = positional
        self.next = 0
        self.used = set()

    def get(self, pos, types):
        if self.positional:
            if pos is None:
                raise Undefined("mixing numbered and unnumbered")
            idx = pos - 1
        else:
            idx = self.next
            self.next += 1
        if idx < 0 or idx >= len(self.args):
            raise Undefined("missing argument")
        t, v = self.args[idx]
        if t not in types:
            raise Undefined("argument type %s, conversion wants %s" % (t, types))
        self.used.add(idx)
        return v


# ---- integer conversions (C17 7.21.6.1p8 d,i,o,u,x,X; C23 b,B) -----------------

def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def digits(v, base, upper=False):
    if v == 0:
        return "0"
    s = ""
    while v:
        s = "0123456789abcdef"[v % base] + s
        v //= base
    return s.upper() if upper else s


def pad(body_prefix, body, width, flags, zero_ok):
    """Field width (p4) with '-' (left) and '0' (zeros after sign/prefix)."""
    n = len(body_prefix) + len(body)
    if width is None or width <= n:
        return body_prefix + body
    fill = width - n
    if "-" in flags:
        return body_prefix + body + b" " * fill
    if "0" in flags and zero_ok:
        return body_prefix + b"0" * fill + body
    return b" " * fill + body_prefix + body


def conv_int(sp, v, width, prec):
    c = sp.conv
    bits = LEN_BITS[sp.length]
    signed = c in "di"
    v = wrap(v, bits, signed)              # p7: converted to the length's type
    neg = v < 0
    mag = -v if neg else v
    base = {"d": 10, "i": 10, "u": 10, "o": 8, "x": 16, "X": 16, "b": 2, "B": 2}[c]
    p = 1 if prec is None else prec        # p4: default precision 1
    ds = "" if (mag == 0 and p == 0) else digits(mag, base, c == "X")
    if len(ds) < p:
        ds = "0" * (p - len(ds)) + ds
    prefix = ""
    if signed:
        prefix = "-" if neg else ("+" if "+" in sp.flags else (" " if " " in sp.flags else ""))
    if "#" in sp.flags:
        if c == "o" and not ds.startswith("0"):
            ds = "0" + ds                  # p6 '#': precision increased
        elif c in "xXbB" and mag != 0:
            prefix = "0" + c               # 0x 0X 0b 0B
    # p6 '0': ignored with '-' and when a precision is given
    return pad(prefix.encode(), ds.encode(), width, sp.flags, prec is None)


# ---- floating conversions ----------------------------------------------------------

def fmt_exp(e, upper, mindig):
    s = ("E" if upper else "e") if mindig == 2 else ("P" if upper else "p")
    return s + ("-" if e < 0 else "+") + ("%0*d" % (mindig, abs(e)))


def conv_float(sp, fp: FP, width, prec, oracle):
    c = sp.conv
    upper = c in "EFGA"
    fl = sp.flags
    sign = "-" if fp.sign else ("+" if "+" in fl else (" " if " " in fl else ""))
    if fp.kind != "fin":
        # p8: [-]inf / [-]nan; REF-CHOICE: "inf", "nan"; negative NaN "-nan".
        body = "inf" if fp.kind == "inf" else "nan"
        if upper:
            body = body.upper()
        # p6 '0': not for infinity or NaN
        return pad(sign.encode(), body.encode(), width, fl, False)
    alt = "#" in fl
    if c in "fF":
        p = 6 if prec is None else prec
        body = oracle.fixed(fp, p)
        if p == 0 and alt:
            body += "."
    elif c in "eE":
        p = 6 if prec is None else prec
        ds, x = oracle.sci(fp, p)
        body = ds[0] + ("." + ds[1:] if (p > 0 or alt) else "") + fmt_exp(x, upper, 2)
    elif c in "gG":
        P = 6 if prec is None else (1 if prec == 0 else prec)
        ds, X = oracle.sci(fp, P - 1)
        if P > X >= -4:
            body = oracle.fixed(fp, P - 1 - X)
            if alt and "." not in body:
                body += "."
            if not alt and "." in body:
                body = body.rstrip("0").rstrip(".")
        else:
            frac = ds[1:]
            if not alt:
                frac = frac.rstrip("0")
            body = ds[0] + ("." + frac if (frac or alt) else "") + fmt_exp(X, False, 2)
        if upper:
            body = body.upper()
    else:  # a A
        body = hexfloat(fp, prec, alt, getattr(oracle, "round", "nearest"))
        pre = "0x"
        if upper:
            body = body.upper()
            pre = "0X"
        return pad((sign + pre).encode(), body.encode(), width, fl, True)
    if upper:
        body = body.upper()
    # p13: beyond DECIMAL_DIG significant digits the digits are only bounded
    # (L <= D <= U); record the count so the generator can mark the case impl.
    mant = body.lower().split("e")[0].replace(".", "").lstrip("0")
    SIG_DIGITS.append(len(mant))
    return pad(sign.encode(), body.encode(), width, fl, True)


def hexfloat(fp: FP, prec, alt, direction="nearest"):
    """%a without sign and "0x". REF-CHOICE: leading digit 1 for every
    non-zero value (double and long double, subnormals too), zero is 0x0p+0,
    no precision: shortest exact (trailing zeros dropped), with a precision:
    rounded in the case's direction (C17 F.5, 7.21.6.1p8 'a'): to nearest,
    ties to even, or the absolute value away from zero (upward for a positive
    value, downward for a negative one) or toward zero."""
    m, e = fp.m, fp.e
    if m == 0:
        frac = "" if prec is None else "0" * prec
        return "0" + ("." + frac if (frac or alt) else "") + "p+0"
    L = m.bit_length()
    E = e + L - 1                      # value = 1.f * 2^E
    fbits = L - 1
    nd = (fbits + 3) // 4
    f = (m - (1 << fbits)) << (nd * 4 - fbits)    # nd hex digits of fraction
    lead = 1
    if prec is not None and prec < nd:
        # round the whole significand 1.f (leading digit included, so that
        # ties go to an even last kept digit even at precision 0)
        full = (1 << (nd * 4)) | f
        drop = (nd - prec) * 4
        q, r = full >> drop, full & ((1 << drop) - 1)
        half = 1 << (drop - 1)
        if direction == "nearest":
            q += r > half or (r == half and (q & 1))
        elif direction == ("downward" if fp.sign else "upward"):   # away from zero
            q += r != 0
        if q >> (prec * 4) >= 2:       # carry into the leading digit: 2.0 -> 1.0 * 2
            q = 1 << (prec * 4)
            E += 1
        f, nd = q & ((1 << (prec * 4)) - 1), prec
    fs = ("%0*x" % (nd, f)) if nd else ""
    if prec is None:
        fs = fs.rstrip("0")
    elif prec > nd:
        fs = fs + "0" * (prec - nd)
    return "%d%s%sp%+d" % (lead, "." if (fs or alt) else "", fs, E)


def _int_part_digits(fp):
    v = fp.m >> -fp.e if fp.e < 0 else fp.m << fp.e
    return len(str(v))


def _dec_exponent(fp):
    """X with 10^X <= |value| < 10^(X+1) (value != 0), exactly."""
    from fractions import Fraction
    v = Fraction(fp.m) * (Fraction(2) ** fp.e)
    x = len(str(int(v))) - 1 if v >= 1 else -1
    while v < Fraction(10) ** x:
        x -= 1
    return x


def huge_len(sp, v, width, prec, oracle):
    """The length of one integer or floating conversion whose field width or
    precision is over HUGE, counted instead of built. At such a precision a
    floating value is not rounded: every binary value's decimal and
    hexadecimal expansions are shorter (16,500 digits at most)."""
    c, fl = sp.conv, sp.flags
    if c in INT_CONVS:
        signed = c in "di"
        v = wrap(v, LEN_BITS[sp.length], signed)
        mag = abs(v)
        prefix = (1 if signed and (v < 0 or "+" in fl or " " in fl) else 0) + \
            (2 if "#" in fl and c in "xXbB" and mag != 0 else 0)
        p = 1 if prec is None else prec
        body = prefix + max(p, len(digits(mag, {"o": 8, "x": 16, "X": 16, "b": 2, "B": 2}.get(c, 10))))
        if "#" in fl and c == "o" and p <= len(digits(mag, 8)):
            body += 0 if mag == 0 else 1
    else:
        fp = v
        sign = 1 if fp.sign or "+" in fl or " " in fl else 0
        if fp.kind != "fin" or prec is None or prec <= HUGE:
            return max(width or 0, len(conv_float(sp, fp, None, prec, oracle)))
        point = 1
        if c in "fF":
            body = _int_part_digits(fp) + point + prec
        elif c in "eE":
            body = 1 + point + prec + len(fmt_exp(_dec_exponent(fp) if fp.m else 0, False, 2))
        elif c in "aA":
            E = fp.e + fp.m.bit_length() - 1 if fp.m else 0
            body = 2 + 1 + point + prec + len("p%+d" % E)
        else:
            raise Undefined("a %g precision over HUGE: the model does not count it")
        body += sign
    return max(width or 0, body)


# ---- the whole call --------------------------------------------------------------

def format_iso(fmt: bytes, args, oracle, encoding="C"):
    """Returns (output bytes or None for an encoding error, [n values]).
    Raises Undefined for behaviour the standard leaves undefined."""
    del SIG_DIGITS[:]
    items = parse(fmt)
    specs = [it for it in items if isinstance(it, Spec)]
    numbered = [sp.pos is not None for sp in specs if sp.conv != "%"]
    positional = any(numbered)
    if positional and not all(numbered):
        raise Undefined("mixing numbered and unnumbered")
    A = Args(args, positional)
    out = bytearray()
    nvals = []
    huge = 0      # the bytes of conversions counted, not built (huge_len)
    for it in items:
        if isinstance(it, bytes):
            out += it
            continue
        sp = it
        if sp.conv == "%":
            if sp.text != b"%%":
                raise Undefined("%% with flags")
            out += b"%"
            continue
        width = sp.width
        prec = sp.prec
        if isinstance(width, tuple):
            w = A.get(width[1], ("int",))
            width = -w if w < 0 else w
            if w < 0:
                sp.flags = sp.flags | {"-"}   # p5: negative width: '-' flag
        if isinstance(prec, tuple):
            pv = A.get(prec[1], ("int",))
            prec = None if pv < 0 else pv     # p5: negative precision: omitted
        c = sp.conv
        fl = sp.flags
        L = sp.length
        if (width or 0) > HUGE and c not in INT_CONVS and c not in FLOAT_CONVS:
            raise Undefined("a field width over HUGE with %" + c)
        if ((width or 0) > HUGE or (prec or 0) > HUGE) and (c in INT_CONVS or c in FLOAT_CONVS):
            if c in INT_CONVS:
                v = A.get(sp.pos, ARG_OF[(L, c in "di")])
            else:
                t = "ldouble" if L == "L" else "double"
                v = FP.of(t, A.get(sp.pos, (t,)))
            huge += huge_len(sp, v, width, prec, oracle)
            continue
        if c in INT_CONVS:
            if L == "L" or ("#" in fl and c in "diu"):
                raise Undefined("flag/length with integer")
            v = A.get(sp.pos, ARG_OF[(L, c in "di")])
            if L == "t" and c not in "di" and v < 0:
                raise Undefined("negative ptrdiff_t for an unsigned conversion (7.16.1.1p2)")
            out += conv_int(sp, v, width, prec)
        elif c in FLOAT_CONVS:
            if L not in ("", "l", "L"):
                raise Undefined("length with float")
            t = "ldouble" if L == "L" else "double"
            v = A.get(sp.pos, (t,))
            out += conv_float(sp, FP.of(t, v), width, prec, oracle)
        elif c == "c":
            if fl - {"-"} or prec is not None:
                raise Undefined("flags/precision with c")
            if L == "":
                v = A.get(sp.pos, ("int",))
                body = bytes([v & 0xFF])          # p8 c: converted to unsigned char
            elif L == "l":
                v = A.get(sp.pos, ("wint",))
                # p8 c with l: as if %ls of {wc, 0}: a null wide character writes nothing
                body = mb_string([v, 0], None, encoding)
            else:
                raise Undefined("length with c")
            out += pad(b"", body, width, fl, False)
        elif c == "s":
            if fl - {"-"}:
                raise Undefined("flags with s")
            if L == "":
                v = A.get(sp.pos, ("str",))
                if v is None:
                    # REF-CHOICE: "(null)" unless a precision below 6 is given, then ""
                    v = b"(null)" if (prec is None or prec >= 6) else b""
                body = v.split(b"\0")[0]
                if prec is not None:
                    body = body[:prec]
            elif L == "l":
                v = A.get(sp.pos, ("wstr",))
                if v is None:
                    raise Undefined("NULL wide string")
                body = mb_string(list(v) + [0], prec, encoding)
            else:
                raise Undefined("length with s")
            out += pad(b"", body, width, fl, False)
        elif c == "p":
            if fl - {"-"} or prec is not None or L:
                raise Undefined("flags/precision with p")
            v = A.get(sp.pos, ("ptr",))
            # REF-CHOICE: 0x + lower-case hex; NULL: (nil)
            body = b"(nil)" if v is None else ("0x%x" % v).encode()
            out += pad(b"", body, width, fl, False)
        elif c == "n":
            if fl or width is not None or prec is not None or L not in N_OF:
                raise Undefined("flags with n")
            A.get(sp.pos, ("n",))
            if huge:
                raise Undefined("%n after a conversion counted, not built")
            # the count converted to the pointed-to type (hh, h: 6.3.1.3p3, modular)
            nbits = {"hh": 8, "h": 16, "": 32, "w8": 8, "w16": 16, "w32": 32}.get(L, 64)
            nvals.append(wrap(len(out), nbits, L != "z"))
        else:
            raise Undefined(c)
    if positional and len(A.used) != len(args):
        raise Undefined("unused numbered argument")
    if not positional and A.next != len(args):
        raise Undefined("excess arguments (allowed, but the corpus avoids them)")
    if huge:
        if len(out) + huge > INT_MAX:
            raise Overflow(len(out) + huge)
        raise Undefined("an output of %d bytes: no case holds one" % (len(out) + huge))
    return bytes(out), nvals


def mb_string(wcs, prec, encoding):
    """C17 7.21.6.1p8 s with l: wide characters converted as by wcrtomb up to the
    null wide character; a precision limits the bytes written (no partial
    character). C locale (REF-CHOICE): code points 0..0x7f are one byte each,
    anything else is an encoding error (EILSEQ, snprintf fails)."""
    out = bytearray()
    for c in wcs:
        if c == 0 or (prec is not None and len(out) >= prec):
            break     # REF-CHOICE: characters beyond the precision are not converted
        if encoding == "C":
            if c > 0x7F:
                raise EncodingError(c)
            b = bytes([c])
        else:
            if 0xD800 <= c <= 0xDFFF or c > 0x10FFFF:
                raise EncodingError(c)
            b = chr(c).encode("utf-8")
        if prec is not None and len(out) + len(b) > prec:
            break
        out += b
    return bytes(out)


def iso_expected(fmt, args, oracle):
    """(output or None for !err, nvals) -- EncodingError -> None."""
    try:
        return format_iso(fmt, args, oracle)
    except (EncodingError, Overflow):
        return None, []
