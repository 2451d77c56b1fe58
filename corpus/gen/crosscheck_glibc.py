#!/usr/bin/python3
"""Development sanity check ONLY: run the corpus through the host glibc's
snprintf (ctypes) and list disagreements with the `iso` column. glibc is never
a source of expected values; every disagreement must be explained from the
standard (see the report printed at the end). Not used by generate.py/tests.

    /usr/bin/python3 corpus/gen/crosscheck_glibc.py [corpus/*.tsv] > /tmp/diff.txt
"""
import ctypes
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "runner"))
from floatbits import dfloat  # noqa: E402
from scnfuzz import casetext  # noqa: E402

libc = ctypes.CDLL("libc.so.6")
libc.setlocale(6, b"C")   # LC_ALL: the C locale, as the corpus assumes

CT = {"int": ctypes.c_int, "uint": ctypes.c_uint, "long": ctypes.c_long, "ulong": ctypes.c_ulong,
      "llong": ctypes.c_longlong, "ullong": ctypes.c_ulonglong, "intmax": ctypes.c_long,
      "uintmax": ctypes.c_ulong, "ssize": ctypes.c_long, "size": ctypes.c_ulong,
      "ptrdiff": ctypes.c_long, "wint": ctypes.c_uint}
NT = {"int": ctypes.c_int, "schar": ctypes.c_byte, "short": ctypes.c_short, "long": ctypes.c_long,
      "llong": ctypes.c_longlong, "intmax": ctypes.c_long, "size": ctypes.c_ulong, "ptrdiff": ctypes.c_long}


def call(fmt, args):
    cargs, nobjs, keep = [], [], []
    for t, v in args:
        if t in CT:
            cargs.append(CT[t](v))
        elif t == "double":
            cargs.append(ctypes.c_double(dfloat(v)))
        elif t == "ldouble":
            s, e, m = v
            b = m.to_bytes(8, "little") + ((s << 15) | e).to_bytes(2, "little") + b"\0" * 6
            cargs.append(ctypes.c_longdouble.from_buffer_copy(b))
        elif t == "str":
            cargs.append(ctypes.c_char_p(v))
        elif t == "wstr":
            w = None if v is None else ctypes.create_unicode_buffer("".join(map(chr, v)))
            keep.append(w)
            cargs.append(w)
        elif t == "ptr":
            cargs.append(ctypes.c_void_p(v))
        elif t == "n":
            o = NT[v](0)
            nobjs.append(o)
            cargs.append(ctypes.byref(o))
    n = libc.snprintf(None, 0, fmt, *cargs)
    if n < 0:
        return None, []
    for o in nobjs:
        o.value = 0
    buf = ctypes.create_string_buffer(n + 1)
    libc.snprintf(buf, n + 1, fmt, *cargs)
    return buf.raw[:n], [o.value for o in nobjs]


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "..", "*.tsv")))
    total = bad = 0
    for f in files:
        for ln in open(f):
            if ln.startswith("#") or not ln.strip():
                continue
            cat, text, iso, kern, kind, cite = ln.rstrip("\n").split("\t")
            if iso == "-":
                continue
            c = casetext.Case.parse(text)
            got = call(c.fmt, c.args)
            exp = casetext.parse_expected(iso)
            total += 1
            if got[0] != exp[0] or list(got[1]) != list(exp[1]):
                bad += 1
                print("%s\t%s\t%s\tglibc=%s" % (kind, cat, text[:150], casetext.expected_text(*got)[:150]))
    print("checked %d, differ %d" % (total, bad), file=sys.stderr)


if __name__ == "__main__":
    main()
