"""The case text form (docs/CASE_FORMAT.md) in Python: just enough to read cases
and to classify them (conversion, flags class, shape) where a Python checker
(the executor of `--libc-cc`) makes a finding. The C parser (core/case) stays
the authority; cases found by the C programs come reduced and signed
(docs/FINDINGS.md).
"""
import re

_ESC = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


class CaseSyntaxError(ValueError):
    pass


def unquote(tok):
    """'"a\\x00b"' -> bytes. Raises CaseSyntaxError."""
    if len(tok) < 2 or tok[0] != '"' or tok[-1] != '"':
        raise CaseSyntaxError("expected a quoted string")
    out = bytearray()
    i, s = 1, tok[:-1]
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            nx = s[i + 1:i + 2]
            if nx in _ESC:
                out += _ESC[nx].encode()
                i += 2
            elif nx == "x" and re.fullmatch(r"[0-9a-f]{2}", s[i + 2:i + 4]):
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
            elif nx == "u" and s[i + 2:i + 3] == "{":
                j = s.index("}", i)
                out += chr(int(s[i + 3:j], 16)).encode("utf-8", "surrogatepass")
                i = j + 1
            else:
                raise CaseSyntaxError(f"bad escape at {i}")
        elif " " <= ch <= "~":
            out.append(ord(ch))
            i += 1
        else:  # as the C parser: a case is printable ASCII, any other byte is written \xNN
            raise CaseSyntaxError(_unescaped(ch))
    return bytes(out)


def _unescaped(ch):
    o = ord(ch)
    raw = bytes([o - 0xDC00]) if 0xDC80 <= o <= 0xDCFF else ch.encode("utf-8", "surrogatepass")
    esc = "".join("\\x%02x" % b for b in raw)
    what = f"byte 0x{raw[0]:02x}" if 0xDC80 <= o <= 0xDCFF else f"character U+{o:04X}"
    return f"the {what} must be escaped as \"{esc}\" (a case is printable ASCII; docs/CASE_FORMAT.md)"


def quote(b):
    """bytes -> canonical quoted form."""
    out = ['"']
    for c in b:
        if c == 0x5C:
            out.append("\\\\")
        elif c == 0x22:
            out.append('\\"')
        elif c == 10:
            out.append("\\n")
        elif c == 9:
            out.append("\\t")
        elif c == 13:
            out.append("\\r")
        elif 0x20 <= c <= 0x7E:
            out.append(chr(c))
        else:
            out.append("\\x%02x" % c)
    out.append('"')
    return "".join(out)


def tokenize(text):
    """Splits a case line into tokens (quoted strings may hold spaces)."""
    toks, i, n = [], 0, len(text)
    while i < n:
        if text[i] == " ":
            i += 1
            continue
        j = i
        while j < n and text[j] != " ":
            if text[j] == '"':
                j += 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                if j >= n:
                    raise CaseSyntaxError(f"col {i + 1}: unterminated string")
            j += 1
        toks.append(text[i:j])
        i = j
    return toks


class Case:
    """format (bytes), args (list of 'TYPE:VALUE' strings), sizes (list of int)."""

    def __init__(self, fmt, args=(), sizes=()):
        self.fmt, self.args, self.sizes = bytes(fmt), list(args), list(sizes)

    @classmethod
    def parse(cls, text):
        bad = re.search(r"[^ -~]", text.strip())
        if bad:
            raise CaseSyntaxError(f"col {bad.start() + 1}: {_unescaped(bad.group())}")
        toks = tokenize(text.strip())
        if not toks or not toks[0].startswith('"'):
            raise CaseSyntaxError("col 1: expected the quoted format")
        fmt = unquote(toks[0])
        args, sizes = [], []
        for t in toks[1:]:
            if t.startswith("@"):
                try:
                    sizes = [int(x) for x in t[1:].split(",")]
                except ValueError:
                    raise CaseSyntaxError(f"bad sizes {t!r}") from None
            elif ":" in t:
                args.append(t)
            else:
                raise CaseSyntaxError(f"expected TYPE:VALUE, got {t!r}")
        return cls(fmt, args, sizes)

    def text(self):
        parts = [quote(self.fmt)] + self.args
        if self.sizes:
            parts.append("@" + ",".join(str(s) for s in self.sizes))
        return " ".join(parts)

    def copy(self):
        return Case(self.fmt, self.args, self.sizes)


SPEC_RE = re.compile(
    rb"%(?P<pos>[0-9]+\$)?(?P<flags>[-+ #0'I]*)(?P<width>\*(?:[0-9]+\$)?|[0-9]+)?"
    rb"(?P<prec>\.(?:\*(?:[0-9]+\$)?|[0-9]*))?"
    rb"(?P<len>hh|h|ll|l|j|z|t|L|q|wf[0-9]+|w[0-9]+)?(?P<conv>[A-Za-z%])")


class Spec:
    __slots__ = ("start", "end", "m", "args")

    def __init__(self, m, args):
        self.m, self.start, self.end, self.args = m, m.start(), m.end(), args

    def group(self, name):
        g = self.m.group(name)
        return g.decode("latin-1") if g is not None else None

    @property
    def conv(self):
        return (self.group("len") or "") + self.group("conv")


def specs(fmt):
    """Conversion specifications of a format, each with the indices of the
    arguments it consumes (None for a positional format: not mapped)."""
    out, i, argi = [], 0, 0
    positional = b"$" in fmt
    while True:
        i = fmt.find(b"%", i)
        if i < 0:
            break
        m = SPEC_RE.match(fmt, i)
        if not m:  # invalid or cut-short specification: left to the literal bytes
            i += 1
            continue
        if m.group("conv") == b"%" and m.end() - m.start() == 2:
            out.append(Spec(m, []))
        elif positional:
            out.append(Spec(m, None))
        else:
            k = (1 if (m.group("width") or b"").startswith(b"*") else 0) + \
                (1 if (m.group("prec") or b"").startswith(b".*") else 0)
            k += 0 if m.group("conv") in (b"%", b"m") else 1
            out.append(Spec(m, list(range(argi, argi + k))))
            argi += k
        i = m.end()
    return out


def shape(case_text):
    """The shape of a case as docs/FINDINGS.md defines it: its specifications
    with literal widths and precisions written N, positions kept, literal text
    left out ("%-N.Nf", "%1$0*2$f"); "?" when the case does not parse."""
    try:
        c = Case.parse(case_text)
    except (CaseSyntaxError, ValueError):
        return "?"
    out = []
    for s in specs(c.fmt):
        m = s.m
        if m.group("conv") == b"%" and m.end() - m.start() == 2:
            continue
        w = s.group("width") or ""
        p = s.group("prec")
        out.append("%" + (s.group("pos") or "") + (s.group("flags") or "") +
                   ("N" if w.isdigit() else w) +
                   ("" if p is None else "." + ("N" if p[1:].isdigit() or p == "." else p[1:])) +
                   (s.group("len") or "") + s.group("conv"))
    return "".join(out)
