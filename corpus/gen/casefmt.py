"""Case text form of docs/CASE_FORMAT.md: quoting and value spelling.

Values are kept exact in the generator:
  double  -> its 64-bit IEEE-754 pattern (int)
  ldouble -> (sign, biased exponent, 64-bit significand) of the x87 80-bit format
"""
import math
import struct

INT_TYPES = {
    # TYPE: (bits, signed)
    "int": (32, True), "uint": (32, False),
    "long": (64, True), "ulong": (64, False),
    "llong": (64, True), "ullong": (64, False),
    "intmax": (64, True), "uintmax": (64, False),
    "ssize": (64, True), "size": (64, False),
    "ptrdiff": (64, True), "wint": (32, False),
}


def quote(data: bytes) -> str:
    out = ['"']
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif b == 0x22:
            out.append('\\"')
        elif b == 0x0A:
            out.append("\\n")
        elif b == 0x09:
            out.append("\\t")
        elif b == 0x0D:
            out.append("\\r")
        elif 0x20 <= b <= 0x7E:
            out.append(chr(b))
        else:
            out.append("\\x%02x" % b)
    out.append('"')
    return "".join(out)


def quote_wide(cps) -> str:
    out = ['"']
    for c in cps:
        if c == 0x5C:
            out.append("\\\\")
        elif c == 0x22:
            out.append('\\"')
        elif c == 0x0A:
            out.append("\\n")
        elif c == 0x09:
            out.append("\\t")
        elif c == 0x0D:
            out.append("\\r")
        elif 0x20 <= c <= 0x7E:
            out.append(chr(c))
        elif c < 0x80:
            out.append("\\x%02x" % c)
        else:
            out.append("\\u{%x}" % c)
    out.append('"')
    return "".join(out)


def unquote(s: str, wide=False):
    """Parse a canonical quoted string; returns (bytes, rest). Raises ValueError.
    wide=True also accepts \\u{HEX} (kept verbatim for _parse_wide)."""
    if not s.startswith('"'):
        raise ValueError("no opening quote")
    out = bytearray()
    i = 1
    while True:
        if i >= len(s):
            raise ValueError("unterminated string")
        c = s[i]
        if c == '"':
            return bytes(out), s[i + 1:]
        if c == "\\":
            e = s[i + 1:i + 2]
            if e in ("\\", '"'):
                out.append(ord(e)); i += 2
            elif e == "n":
                out.append(10); i += 2
            elif e == "t":
                out.append(9); i += 2
            elif e == "r":
                out.append(13); i += 2
            elif e == "x":
                h = s[i + 2:i + 4]
                if len(h) != 2 or any(ch not in "0123456789abcdef" for ch in h):
                    raise ValueError("bad \\x escape")
                v = int(h, 16)
                if 0x20 <= v <= 0x7E and v not in (0x22, 0x5C) or v in (9, 10, 13):
                    raise ValueError("non-canonical \\x escape")
                out.append(v); i += 4
            elif e == "u" and wide:
                j = s.index("}", i)
                out += s[i:j + 1].encode()  # kept verbatim (wide strings only)
                i = j + 1
            else:
                raise ValueError("bad escape")
        else:
            o = ord(c)
            if not 0x20 <= o <= 0x7E:
                raise ValueError("raw non-printable character")
            out.append(o); i += 1


# ---- doubles -------------------------------------------------------------

def dbits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def dfloat(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


DNAN = 0x7FF8000000000000
DNEGNAN = 0xFFF8000000000000


def spell_double(bits: int) -> str:
    sign = "-" if bits >> 63 else ""
    e = (bits >> 52) & 0x7FF
    f = bits & ((1 << 52) - 1)
    if e == 0x7FF:
        return sign + ("inf" if f == 0 else "nan")
    if e == 0 and f == 0:
        return sign + "0x0p+0"
    h = float.hex(abs(dfloat(bits)))          # 0x1.8000000000000p+1
    mant, exp = h.split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return sign + mant + "p" + exp


# ---- x87 long doubles ------------------------------------------------------

def ld(sign: int, exp: int, mant: int):
    assert 0 <= exp <= 0x7FFF and 0 <= mant < (1 << 64)
    return (sign, exp, mant)


def ld_from_float(x: float):
    """Exact long double holding the double x."""
    b = dbits(x)
    s, e, f = b >> 63, (b >> 52) & 0x7FF, b & ((1 << 52) - 1)
    if e == 0x7FF:
        return (s, 0x7FFF, (1 << 63) | (f << 11) if f else 1 << 63)
    if e == 0 and f == 0:
        return (s, 0, 0)
    m, ex = (f, -1074) if e == 0 else ((1 << 52) | f, e - 1075)
    return ld_from_exact(s, m, ex)


def ld_from_exact(sign, m, ex):
    """long double equal to (-1)^sign * m * 2^ex (must be exact)."""
    if m == 0:
        return (sign, 0, 0)
    L = m.bit_length()
    # normalise to 64-bit significand: value = M * 2^(E-16383-63)
    shift = 64 - L
    M = m << shift if shift >= 0 else m >> -shift
    assert shift >= 0 or m & ((1 << -shift) - 1) == 0, "inexact"
    E = ex - shift + 16383 + 63
    if E <= 0:  # subnormal: biased exponent 0 means 2^(1-16383-63)
        s2 = 1 - E
        assert M & ((1 << s2) - 1) == 0, "inexact subnormal"
        M >>= s2
        E = 0
    assert E < 0x7FFF
    return (sign, E, M)


def spell_ldouble(v) -> str:
    s, e, m = v
    sign = "-" if s else ""
    if e == 0x7FFF:
        return sign + ("inf" if (m & ((1 << 63) - 1)) == 0 else "nan")
    if m == 0:
        return sign + "0x0p+0"
    lead = m >> 60
    frac = "%015x" % (m & ((1 << 60) - 1))
    frac = frac.rstrip("0")
    ex = (e - 16383 - 3) if e else (1 - 16383 - 3)
    return "%s0x%x%s%sp%+d" % (sign, lead, "." if frac else "", frac, ex)


# ---- arguments and cases ---------------------------------------------------

def spell_arg(a) -> str:
    t, v = a
    if t in INT_TYPES:
        bits, signed = INT_TYPES[t]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        assert lo <= v <= hi, (t, v)
        return "%s:%d" % (t, v)
    if t == "double":
        return "double:" + spell_double(v)
    if t == "ldouble":
        return "ldouble:" + spell_ldouble(v)
    if t == "str":
        return "str:" + ("NULL" if v is None else quote(v))
    if t == "wstr":
        return "wstr:" + ("NULL" if v is None else quote_wide(v))
    if t == "ptr":
        assert v != 0
        return "ptr:" + ("NULL" if v is None else "0x%x" % v)
    if t == "n":
        assert v in ("int", "schar", "short", "long", "llong", "intmax", "size", "ptrdiff")
        return "n:" + v
    raise ValueError(t)


def case_text(fmt: bytes, args, sizes=None) -> str:
    parts = [quote(fmt)] + [spell_arg(a) for a in args]
    if sizes:
        parts.append("@" + ",".join(str(s) for s in sizes))
    return " ".join(parts)


def expected_text(out, nvals=None) -> str:
    """out: bytes, or None for '!err'."""
    if out is None:
        return "!err"
    s = quote(out)
    if nvals:
        s += " n=" + ",".join(str(v) for v in nvals)
    return s


# ---- parsing (for the tests and the cross-check tool) -------------------------

def _parse_wide(s):
    """Quoted wide string -> (list of code points, rest)."""
    raw, rest = unquote(s, wide=True)
    cps = []
    i = 0
    while i < len(raw):
        if raw[i:i + 3] == b"\\u{":
            j = raw.index(b"}", i)
            h = raw[i + 3:j].decode()
            if not h or h != h.lower() or h.startswith("0") or any(c not in "0123456789abcdef" for c in h):
                raise ValueError("bad \\u{} escape")
            cps.append(int(h, 16))
            i = j + 1
        else:
            cps.append(raw[i])
            i += 1
    return cps, rest


def parse_double(v):
    if v in ("inf", "-inf"):
        return dbits(float(v))
    if v == "nan":
        return DNAN
    if v == "-nan":
        return DNEGNAN
    b = dbits(float.fromhex(v))
    if spell_double(b) != v:
        raise ValueError("non-canonical double " + v)
    return b


def parse_ldouble(v):
    sign = 1 if v.startswith("-") else 0
    body = v[sign:]
    if body == "inf":
        return (sign, 0x7FFF, 1 << 63)
    if body == "nan":
        return (sign, 0x7FFF, 0xC000000000000000)
    if not body.startswith("0x") or "p" not in body:
        raise ValueError("bad ldouble " + v)
    mant, ex = body[2:].split("p")
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    m = int(ip + fp, 16) if (ip + fp) else 0
    e = int(ex) - 4 * len(fp)
    if m == 0:
        r = (sign, 0, 0)
    else:
        r = ld_from_exact(sign, m, e)
    if spell_ldouble(r) != v:
        raise ValueError("non-canonical ldouble " + v)
    return r


def parse_case(text):
    """Case text -> (fmt bytes, [(TYPE, value)], sizes or None). Raises ValueError."""
    fmt, rest = unquote(text)
    args = []
    sizes = None
    while rest:
        if not rest.startswith(" "):
            raise ValueError("expected a space")
        rest = rest[1:]
        if rest.startswith("@"):
            sizes = [int(x) for x in rest[1:].split(",")]
            if ",".join(str(x) for x in sizes) != rest[1:]:
                raise ValueError("bad sizes")
            rest = ""
            break
        t, _, after = rest.partition(":")
        if t in ("str", "wstr") and not after.startswith("NULL"):
            if t == "str":
                v, rest = unquote(after)
            else:
                v, rest = _parse_wide(after)
        else:
            tok, sp, rest2 = after.partition(" ")
            rest = sp + rest2
            if t in INT_TYPES:
                v = int(tok)
                if str(v) != tok:
                    raise ValueError("bad integer " + tok)
            elif t == "double":
                v = parse_double(tok)
            elif t == "ldouble":
                v = parse_ldouble(tok)
            elif t in ("str", "wstr", "ptr") and tok == "NULL":
                v = None
            elif t == "ptr":
                v = int(tok, 16)
                if "0x%x" % v != tok or v == 0:
                    raise ValueError("bad pointer")
            elif t == "n":
                v = tok
            else:
                raise ValueError("unknown arg type " + t)
        args.append((t, v))
    if case_text(fmt, args, sizes) != text:
        raise ValueError("not canonical")
    return fmt, args, sizes


def parse_expected(s):
    """'!err' -> (None, []); '"..." [n=V,...]' -> (bytes, [ints]); '-' -> ('-', None)."""
    if s == "-":
        return "-", None
    if s == "!err":
        return None, []
    out, rest = unquote(s)
    nv = []
    if rest:
        if not rest.startswith(" n="):
            raise ValueError("bad expected tail")
        nv = [int(x) for x in rest[3:].split(",")]
    if expected_text(out, nv) != s:
        raise ValueError("non-canonical expected")
    return out, nv
