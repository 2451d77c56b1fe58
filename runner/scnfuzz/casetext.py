"""The case text form (docs/CASE_FORMAT.md) for Python: a binding of the C case
model, the form's one implementation (core/case: the text form's files, corpus.c, through
case_api.c), loaded with ctypes from libscn_casetext.so. That library is built
without sanitizers in every preset (core/CMakeLists.txt) and found like the C
programs (build.tool: $SCN_BUILD_DIR, else build/default, built on first use);
$SCN_CASETEXT_LIB names another copy. Nothing here quotes, spells or parses.

A case is Case(fmt, args, sizes): fmt bytes (NULs allowed), args a list of
(TYPE, value) with exact values:
  integer types     int                       ("int", -5)
  double            its 64-bit IEEE-754 pattern ("double", 0x3ff0000000000000)
  ldouble           (sign, biased exponent, 64-bit significand) of the x87 format
  str               bytes, or None for NULL
  wstr              a list of code points, or None for NULL
  ptr               int (not 0), or None for NULL
  n                 the object's type name: "int", "schar", "short", ...
  mem               bytes (the call passes a pointer to a copy), None for NULL,
                    or ("err", e) for the error pointer ERR_PTR(e), -4095 <= e <= -1,
                    or ("vaf", fmt bytes) for a struct va_format (%pV) of that
                    format and a va_list of zeros (mem:VAF("..."))
sizes a list of buffer sizes; round the rounding direction the call is made
under: "nearest" (the default, not written), "upward", "downward" or
"towardzero" (names from C's scn_round_name). Case.parse(text) and Case.text() are
scn_case_parse and scn_case_format; quote/unquote are scn_quoted_format /
scn_quoted_parse; expected_text/parse_expected are scn_expect_format /
scn_expect_parse.
"""
import ctypes
import os
import threading


class CaseSyntaxError(ValueError):
    """Text the C parser refuses; the message is its "col N: expected ..."."""


class _Arg(ctypes.Structure):  # struct scn_api_arg (core/case/case_api.h)
    _fields_ = [("type", ctypes.c_int), ("ntype", ctypes.c_int), ("is_null", ctypes.c_int),
                ("neg", ctypes.c_int), ("bits", ctypes.c_uint64), ("sign_exp", ctypes.c_uint32),
                ("data", ctypes.c_void_p), ("len", ctypes.c_size_t), ("is_err", ctypes.c_int),
                ("is_vaf", ctypes.c_int)]


EXPECT_NONE, EXPECT_OUTPUT, EXPECT_ERR = 0, 1, 2  # SCN_EXPECT_* (case.h)
_MASK64 = (1 << 64) - 1
_lib = None
_load_lock = threading.Lock()
_local = threading.local()
_P, _SZ, _PSZ = ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)
_SIGNATURES = {  # name: (restype, argtypes)
    "scn_arg_type_name": (ctypes.c_char_p, [ctypes.c_int]),
    "scn_n_type_name": (ctypes.c_char_p, [ctypes.c_int]),
    "scn_round_name": (ctypes.c_char_p, [ctypes.c_int]),
    "scn_api_case_set_round": (ctypes.c_int, [_P, ctypes.c_int]),
    "scn_api_case_get_round": (ctypes.c_int, [_P]),
    "scn_api_case_new": (_P, []),
    "scn_api_case_init": (ctypes.c_int, [_P, ctypes.c_char_p, _SZ]),
    "scn_api_add_arg": (ctypes.c_int, [_P, ctypes.POINTER(_Arg)]),
    "scn_api_add_size": (ctypes.c_int, [_P, ctypes.c_uint64]),
    "scn_api_case_parts": (None, [_P, ctypes.POINTER(_P), _PSZ, _PSZ, ctypes.POINTER(_P), _PSZ]),
    "scn_api_get_arg": (ctypes.c_int, [_P, _SZ, ctypes.POINTER(_Arg)]),
    "scn_case_parse": (ctypes.c_int, [ctypes.c_char_p, _SZ, _P, ctypes.c_char_p, _SZ]),
    "scn_case_format": (_SZ, [_P, _P, _SZ]),
    "scn_quoted_parse": (ctypes.c_long, [ctypes.c_char_p, _SZ, _SZ, _P, _SZ, _PSZ, ctypes.c_char_p, _SZ]),
    "scn_quoted_format": (_SZ, [ctypes.c_char_p, _SZ, _P, _SZ]),
    "scn_api_expect_new": (_P, []),
    "scn_api_expect_set": (ctypes.c_int, [_P, ctypes.c_int, ctypes.c_char_p, _SZ,
                                          ctypes.POINTER(ctypes.c_longlong), _SZ]),
    "scn_api_expect_get": (None, [_P, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(_P), _PSZ,
                                  ctypes.POINTER(_P), _PSZ]),
    "scn_expect_parse": (ctypes.c_int, [ctypes.c_char_p, _SZ, _SZ, _P, ctypes.c_char_p, _SZ]),
    "scn_expect_format": (_SZ, [_P, _P, _SZ]),
}


def _names(fn):
    out = []
    while True:
        n = fn(len(out))
        if n is None:
            return out
        out.append(n.decode())


def lib():
    """The loaded library (loaded, and built if need be, on first use)."""
    global _lib, TYPES, NTYPES, _TYPE, _NTYPE, ROUNDS, _ROUND
    if _lib is None:
        with _load_lock:
            if _lib is None:
                path = os.environ.get("SCN_CASETEXT_LIB")
                if not path:
                    from . import build
                    path = build.tool("libscn_casetext.so")
                so = ctypes.CDLL(str(path))
                for name, (res, args) in _SIGNATURES.items():
                    f = getattr(so, name)
                    f.restype, f.argtypes = res, args
                TYPES, NTYPES = _names(so.scn_arg_type_name), _names(so.scn_n_type_name)
                _TYPE = {t: i for i, t in enumerate(TYPES)}
                _NTYPE = {t: i for i, t in enumerate(NTYPES)}
                ROUNDS = _names(so.scn_round_name)
                _ROUND = {r: i for i, r in enumerate(ROUNDS)}
                _lib = so
    return _lib


TYPES = NTYPES = _TYPE = _NTYPE = None  # the text form's type names, from C on first use
ROUNDS = _ROUND = None  # its rounding directions' names, likewise


class _Handles:
    """Per thread: one case, one expectation, one output buffer, reused."""

    def __init__(self):
        L = lib()
        self.case, self.expect = L.scn_api_case_new(), L.scn_api_expect_new()
        if not self.case or not self.expect:
            raise MemoryError("scn_api_case_new")
        self.out = ctypes.create_string_buffer(1 << 16)
        self.err = ctypes.create_string_buffer(512)

    def refused(self):
        """The C parser's message of its last refusal, as an exception."""
        return CaseSyntaxError(self.err.value.decode("ascii", "replace"))


def _h():
    h = getattr(_local, "h", None)
    if h is None:
        h = _local.h = _Handles()
    return h


def _written(fn, *args):
    """The text a scn_*_format-like function writes (it returns the full length)."""
    h = _h()
    n = fn(*args, h.out, len(h.out))
    if n >= len(h.out):
        h.out = ctypes.create_string_buffer(n + 1)
        fn(*args, h.out, len(h.out))
    return h.out.raw[:n].decode("ascii")


def _encode(text):
    """A case's text as the bytes C parses. The form is ASCII: C sees a
    character beyond it as its UTF-8 bytes, so the character is named here."""
    if isinstance(text, bytes):
        return text
    bad = next((i for i, ch in enumerate(text) if ord(ch) > 0x7E), None)
    if bad is not None:
        o = ord(text[bad])
        raw = bytes([o - 0xDC00]) if 0xDC80 <= o <= 0xDCFF else text[bad].encode("utf-8", "surrogatepass")
        what = f"byte 0x{raw[0]:02x}" if 0xDC80 <= o <= 0xDCFF else f"character U+{o:04X}"
        esc = "".join("\\x%02x" % b for b in raw)
        raise CaseSyntaxError(f"col {len(text[:bad].encode('utf-8', 'surrogateescape')) + 1}: the {what} "
                              f"must be escaped as \"{esc}\" (a case is printable ASCII; docs/CASE_FORMAT.md)")
    return text.encode("ascii")


# ---------------------------------------------------------------- cases

def _to_c(t, v):
    if t not in _TYPE:
        raise ValueError(f"unknown argument type {t!r} (one of {' '.join(TYPES)})")
    a = _Arg(type=_TYPE[t])
    keep = None
    if t == "n":
        if v not in _NTYPE:
            raise ValueError(f"unknown n: type {v!r} (one of {' '.join(NTYPES)})")
        a.ntype = _NTYPE[v]
    elif t == "ldouble":
        s, e, m = v
        if s not in (0, 1) or not 0 <= e <= 0x7FFF or not 0 <= m <= _MASK64:
            raise ValueError(f"ldouble {v!r} is not (sign, 15-bit exponent, 64-bit significand)")
        a.sign_exp, a.bits = (s << 15) | e, m
    elif v is None:
        a.is_null = 1
    elif t == "mem" and isinstance(v, tuple) and len(v) == 2 and v[0] == "vaf" and isinstance(v[1], bytes):
        keep = ctypes.create_string_buffer(v[1], len(v[1]) or 1)
        a.is_vaf, a.data, a.len = 1, ctypes.addressof(keep), len(v[1])
    elif t == "mem" and isinstance(v, tuple):
        if len(v) != 2 or v[0] != "err" or not isinstance(v[1], int) or not -(1 << 63) <= v[1] < 0:
            raise ValueError(f"mem {v!r} is not bytes, None, (\"err\", negative errno) or (\"vaf\", bytes)")
        a.is_err, a.neg, a.bits = 1, 1, v[1] & _MASK64
    elif t in ("str", "mem"):
        keep = ctypes.create_string_buffer(bytes(v), len(v) or 1)
        a.data, a.len = ctypes.addressof(keep), len(v)
    elif t == "wstr":
        if not all(0 <= cp <= 0xFFFFFFFF for cp in v):
            raise ValueError("wstr code points are 32-bit")
        keep = (ctypes.c_uint32 * max(1, len(v)))(*v)
        a.data, a.len = ctypes.addressof(keep), len(v)
    else:  # integers, a double's pattern, a pointer
        if not -(1 << 63) <= v <= _MASK64:
            raise ValueError(f"{t}:{v} does not fit the type")
        a.neg, a.bits = int(v < 0), v & _MASK64
    return a, keep


def _from_c(a):
    t = TYPES[a.type]
    if t == "n":
        return t, NTYPES[a.ntype]
    if t == "ldouble":
        return t, (a.sign_exp >> 15, a.sign_exp & 0x7FFF, a.bits)
    if a.is_null:
        return t, None
    if a.is_err:
        return t, ("err", a.bits - (1 << 64))
    if a.is_vaf:
        return t, ("vaf", ctypes.string_at(a.data, a.len))
    if t in ("str", "mem"):
        return t, ctypes.string_at(a.data, a.len)
    if t == "wstr":
        return t, list((ctypes.c_uint32 * a.len).from_address(a.data)) if a.len else []
    return t, a.bits - (1 << 64) if a.neg else a.bits


class Case:
    """fmt (bytes), args [(TYPE, value)] (exact values, see the module), sizes [int],
    round: the rounding direction's name ("nearest" unless the case says another)."""

    def __init__(self, fmt, args=(), sizes=(), round="nearest"):
        self.fmt, self.args, self.sizes = bytes(fmt), list(args), list(sizes or ())
        self.round = round

    def __repr__(self):
        r = "" if self.round == "nearest" else f", round={self.round!r}"
        return f"Case({self.fmt!r}, {self.args!r}, {self.sizes!r}{r})"

    def __eq__(self, other):
        return isinstance(other, Case) and (self.fmt, self.args, self.sizes, self.round) == \
            (other.fmt, other.args, other.sizes, other.round)

    @classmethod
    def parse(cls, text):
        """scn_case_parse: text (str or bytes, one line) -> Case; CaseSyntaxError
        with C's message when it is not a case in canonical form."""
        L, h = _parsed(text)
        fmt, flen, nargs, sizes, nsizes = _P(), _SZ(), _SZ(), _P(), _SZ()
        L.scn_api_case_parts(h.case, fmt, flen, nargs, sizes, nsizes)
        a = _Arg()
        args = []
        for i in range(nargs.value):
            L.scn_api_get_arg(h.case, i, a)
            args.append(_from_c(a))
        sz = list((ctypes.c_size_t * nsizes.value).from_address(sizes.value)) if nsizes.value else []
        return cls(ctypes.string_at(fmt.value, flen.value), args, sz, ROUNDS[L.scn_api_case_get_round(h.case)])

    def text(self):
        """scn_case_format of the case built from its values; ValueError when a
        value does not fit its type or the case does not fit the model."""
        L, h = lib(), _h()
        if L.scn_api_case_init(h.case, self.fmt, len(self.fmt)):
            raise ValueError("format too long for a case")
        for t, v in self.args:
            a, _keep = _to_c(t, v)
            if L.scn_api_add_arg(h.case, a):
                raise ValueError(f"argument {t}:{v!r} does not fit its type (or the case is full)")
        for s in self.sizes:
            if not 0 <= s <= _MASK64 or L.scn_api_add_size(h.case, s):
                raise ValueError(f"buffer size {s!r}: not a size_t, or too many sizes")
        if self.round not in _ROUND:
            raise ValueError(f"unknown rounding direction {self.round!r} (one of {' '.join(ROUNDS)})")
        L.scn_api_case_set_round(h.case, _ROUND[self.round])
        return _written(L.scn_case_format, h.case)

    def copy(self):
        return Case(self.fmt, self.args, self.sizes, self.round)


def _parsed(text):
    """The thread's case handle holding text (scn_case_parse), or CaseSyntaxError."""
    b = _encode(text)
    L, h = lib(), _h()
    if L.scn_case_parse(b, len(b), h.case, h.err, len(h.err)):
        raise h.refused()
    return L, h


def check(text):
    """Raises CaseSyntaxError when text is not a case."""
    _parsed(text)


# ---------------------------------------------------------------- quoted bytes, expectations

def quote(data):
    """bytes -> the canonical quoted form (scn_quoted_format)."""
    data = bytes(data)
    return _written(lib().scn_quoted_format, data, len(data))


def unquote(tok):
    """One quoted token ('"a\\x00b"') -> bytes (scn_quoted_parse); CaseSyntaxError."""
    b = _encode(tok)
    h = _h()
    out = ctypes.create_string_buffer(len(b) + 1)
    n = _SZ()
    r = lib().scn_quoted_parse(b, len(b), 0, out, len(out), n, h.err, len(h.err))
    if r < 0:
        raise h.refused()
    if r != len(b):
        raise CaseSyntaxError(f"col {r + 1}: expected the end after the closing '\"'")
    return out.raw[:n.value]


def expected_text(out, nvals=None):
    """An expectation's canonical text (scn_expect_format): out bytes (with the
    %n values nvals), None for "!err", "-" for "-"."""
    L, h = lib(), _h()
    if out == "-":
        kind, out, nvals = EXPECT_NONE, b"", ()
    elif out is None:
        kind, out, nvals = EXPECT_ERR, b"", ()
    else:
        kind, out, nvals = EXPECT_OUTPUT, bytes(out), list(nvals or ())
    nv = (ctypes.c_longlong * max(1, len(nvals)))(*nvals)
    if L.scn_api_expect_set(h.expect, kind, out, len(out), nv, len(nvals)):
        raise ValueError("expectation too long (or too many n= values)")
    return _written(L.scn_expect_format, h.expect)


def parse_expected(s):
    """scn_expect_parse: '-' -> ('-', None); '!err' -> (None, []);
    '"..." [n=V,...]' -> (bytes, [ints]). CaseSyntaxError, also when the
    text is not the canonical one."""
    b = _encode(s)
    L, h = lib(), _h()
    if L.scn_expect_parse(b, len(b), 0, h.expect, h.err, len(h.err)):
        raise h.refused()
    if _written(L.scn_expect_format, h.expect).encode() != b:
        raise CaseSyntaxError(f"not the canonical form of the expectation: {s!r}")
    kind, data, n, nptr, nn = ctypes.c_int(), _P(), _SZ(), _P(), _SZ()
    L.scn_api_expect_get(h.expect, kind, data, n, nptr, nn)
    if kind.value == EXPECT_NONE:
        return "-", None
    if kind.value == EXPECT_ERR:
        return None, []
    vals = list((ctypes.c_longlong * nn.value).from_address(nptr.value)) if nn.value else []
    return ctypes.string_at(data.value, n.value), vals
