"""`scnfuzz scan`: what a call's format uses and how long its output can be,
through the suite's own C code, never a second format parser:
- features: `scn-conform --features` (the specification scanner, oracles/spec.c),
  one process for all the formats of a scan. The kernel's %p extensions
  (%pM, %pI4, %pad, ...) are the alphanumerics after a %p conversion
  (lib/vsprintf.c pointer(): `while (isalnum(*fmt)) fmt++`); which 'p' ends a
  conversion is asked of the same scanner: the 'p' replaced by a letter no
  dialect accepts stops the scan there, so a sentinel specification placed
  after the format is no longer seen.
- bound: the output's length with the worst values of the argument types
  (each integer at its type's minimum, then at its maximum; a non-literal
  string of 4096 bytes), by glibc's vsnprintf called through the case model
  (casetext: scn_case_call builds the va_list); plus, for the kernel's %p
  extensions, the most each one prints (EXT_MAX).
"""
import ctypes
import json
import struct
import subprocess

from . import build, casetext

LONG_STRING = 4096  # a non-literal string's stand-in: an output this long is unbounded
INF = float("inf")
# the most a kernel %p extension prints (lib/vsprintf.c), by its first letters; not listed: unbounded
EXT_MAX = {"M": 17, "m": 12, "I4": 21, "i4": 15, "I6": 47, "i6": 32, "IS": 64, "iS": 64, "U": 36, "a": 18,
           "x": 18, "K": 18, "e": 32, "h": 192, "4cc": 32, "N": 18, "r": 64, "R": 64, "t": 32, "S": 512,
           "s": 512, "B": 512, "F": 512, "f": 512, "g": 32}
ALNUM = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def _case_line(fmt, nargs=32):
    return casetext.quote(fmt) + " int:0" * nargs


def features_of(formats):
    """{fmt bytes: (features, syntax)} through one `scn-conform --features`."""
    fmts = [f for f in formats if len(f) <= 4000]
    if not fmts:
        return {}
    exe = build.tool("scn-conform")
    text = "".join(_case_line(f) + "\n" for f in fmts)
    p = subprocess.run([str(exe), "--features"], input=text.encode("ascii"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    # one JSON text of all the lines: a json.loads per line cost as much again as the scanner
    got = json.loads("[" + ",".join(lines) + "]")
    return {f: (d["features"], d["syntax"]) for f, d in zip(fmts, got)}


def _sentinel(syntax):
    if "%%" not in syntax:
        return b"%%", "%%"
    if "positional" in syntax:
        return b"%1$wf64d", "length wf64"
    return b"%wf64d", "length wf64"


def p_extensions(feats):
    """{fmt: [(index of the conversion's 'p', extension text)]} for the formats
    whose features have %p followed by letters or digits."""
    probes, keys = [], []
    for fmt, (features, syntax) in feats.items():
        if "%p" not in features:
            continue
        sent, name = _sentinel(syntax)
        for i in range(len(fmt) - 1):
            if fmt[i] == 0x70 and fmt[i + 1] in ALNUM:
                probes.append(fmt[:i] + b"k" + fmt[i + 1:] + sent)
                keys.append((fmt, i, name))
        probes.append(fmt + sent)
        keys.append((fmt, -1, name))
    got = features_of(probes)
    base = {fmt: name in got.get(fmt + _sentinel(feats[fmt][1])[0], ([], []))[1]
            for fmt in {k[0] for k in keys}}
    out = {}
    for probe, (fmt, i, name) in zip(probes, keys):
        if i < 0 or not base.get(fmt):
            continue
        if name not in got.get(probe, ([], [name]))[1]:
            j = i + 1
            while j < len(fmt) and fmt[j] in ALNUM:
                j += 1
            out.setdefault(fmt, []).append((i, fmt[i + 1:j].decode("ascii")))
    return out


def spec_start(fmt, i):
    """The '%' of the conversion whose letter is at i (flags, width, precision between)."""
    j = i - 1
    while j >= 0 and fmt[j] in b"0123456789.*$-+ #hlzjtLq":
        j -= 1
    return j if j >= 0 and fmt[j] == 0x25 else None


def ext_max(ext):
    for n in (3, 2, 1):
        if ext[:n] in EXT_MAX:
            return EXT_MAX[ext[:n]]
    return INF


# ---- the bound

_call = None


def _caller():
    global _call
    if _call is None:
        L = casetext.lib()
        L.scn_case_call.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        L.scn_case_call.restype = ctypes.c_int
        libc = ctypes.CDLL("libc.so.6")
        fn = ctypes.cast(libc.vsnprintf, ctypes.c_void_p).value
        _call = lambda: L.scn_case_call(fn, casetext._h().case, None, 0)  # noqa: E731
    return _call


CHARS = {"CHAR_S", "CHAR_U", "SCHAR", "UCHAR"}
SIGNED = {"CHAR_S", "SCHAR", "SHORT", "INT", "LONG", "LONGLONG", "ENUM", "INT128"}
UNSIGNED = {"BOOL", "UCHAR", "CHAR_U", "USHORT", "UINT", "ULONG", "ULONGLONG"}


def _arg(a, worst_max):
    k, size = a["kind"], a["size"] or 8
    if k in SIGNED or k in UNSIGNED:
        bits = 8 * min(size, 8)
        if k in SIGNED:
            v = (1 << (bits - 1)) - 1 if worst_max else -(1 << (bits - 1))
            return ("int", v) if bits <= 32 else ("llong", v)
        v = (1 << bits) - 1 if worst_max else 0
        return ("uint", v) if bits <= 32 else ("ullong", v)
    if k in ("DOUBLE", "FLOAT"):
        return ("double", struct.unpack("<Q", struct.pack("<d", -1.7976931348623157e308))[0])
    if k == "LONGDOUBLE":
        return ("ldouble", (1, 0x7FFE, (1 << 64) - 1))
    if (k == "POINTER" and a["pointee"] in CHARS) or (k in ("CONSTANTARRAY", "INCOMPLETEARRAY")
                                                      and "char" in a["canonical"]):
        lit = a.get("literal")
        if lit is not None:
            return ("str", lit.encode("latin-1"))
        if a.get("array") and 0 < a["array"] <= LONG_STRING:  # a char array holds at most size - 1
            return ("str", b"x" * (a["array"] - 1))
        return ("str", b"x" * LONG_STRING)
    if k in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY"):
        return ("ptr", 0x7FFFFFFFFFF0)
    return None


def _case_text(fmt, args):
    """The case of fmt with args, set as the current case, or None when the
    case model refuses it (an argument of the wrong class for its conversion)."""
    try:
        text = casetext.Case(fmt.encode("latin-1"), args, []).text()
        casetext.check(text)
        return text
    except (ValueError, casetext.CaseSyntaxError):
        return None


def bound(call, features, exts):
    """The most bytes the call's output can have (INF: unbounded), or None
    when it cannot be computed safely (no literal format, a va_list, arguments
    that -Wformat says do not fit, %n, a type the model does not pass)."""
    fmt = call["format"]
    if fmt is None or call["va_list"] or call["format_warning"] or "%n" in features:
        return None
    if len(call["args"]) > 32 or len(fmt) > 4000:
        return None
    has_s = "%s" in features
    if has_s and any(a["kind"] == "POINTER" and a["pointee"] not in CHARS for a in call["args"]):
        return None
    best = 0
    for worst_max in (False, True):
        args = [_arg(a, worst_max) for a in call["args"]]
        if any(a is None for a in args):
            return None
        ext_args = _ext_args(fmt.encode("latin-1"), exts, features)
        for k in ext_args:  # a kernel %pEXT prints "0x1EXT" through glibc: replaced below by its most
            args[k] = ("ptr", 1)
        text = _case_text(fmt, args)
        if text is None and "%p" in features:  # a char array passed to %p (the kernel's %pM of u8[6])
            args = [("ptr", 0x7FFFFFFFFFF0) if t == "str" and a["kind"] in ("CONSTANTARRAY", "INCOMPLETEARRAY")
                    else (t, v) for (t, v), a in zip(args, call["args"])]
            text = _case_text(fmt, args)
        if text is None:
            return None
        n = _caller()()
        if n < 0:
            return None
        best = max(best, n)
    if best >= LONG_STRING:
        return INF
    if ext_args:  # each "0x1EXT" glibc printed is the extension's own output
        best -= sum(3 + len(e) for _, e in exts)
    return best + sum(ext_max(e) for _, e in exts)


def spec_pieces(fmt):
    """A format cut at each '%' into (offset, piece) of one specification
    each (with the text after it up to the next '%'; "%%" a piece of its
    own): a '%' ends any specification."""
    out, i, n = [], fmt.find(b"%"), len(fmt)
    while 0 <= i < n:
        if fmt[i + 1:i + 2] == b"%":
            out.append((i, b"%%"))
            i = fmt.find(b"%", i + 2)
            continue
        j = fmt.find(b"%", i + 1)
        out.append((i, fmt[i:j if j >= 0 else n]))
        i = j
    return out


def _ext_args(fmt, exts, features):
    """The argument indices of the kernel's %pEXT conversions, when each
    conversion takes one argument in order (no '*', no n$); else none (the
    bound then adds each extension's most to glibc's %p: more, never less)."""
    if not exts or {"width *", "precision *", "positional"} & set(features):
        return []
    starts = [o for o, p in spec_pieces(fmt) if p != b"%%"]
    out = []
    for i, _ in exts:
        k = sum(1 for o in starts if o < i) - 1
        if k < 0:
            return []
        out.append(k)
    return out
