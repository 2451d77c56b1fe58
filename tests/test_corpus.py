"""Checks of the conformance corpus (corpus/*.tsv) and its generator (corpus/gen/).

Run: /usr/bin/python3 -m pytest -q tests/test_corpus.py
"""
import filecmp
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus")
sys.path.insert(0, os.path.join(ROOT, "runner"))

from scnfuzz import casetext  # noqa: E402  (the case text form: the C case model's, core/case)

CATEGORY_PREFIXES = ("int.", "char.", "str.", "ptr.", "flags.", "width", "precision", "length.",
                     "positional", "n", "percent", "float.", "wide.", "trunc", "error", "kernel.")
KNOWN_CATEGORIES = {"int.d", "int.u", "int.o", "int.x", "int.b", "char.c", "str.s", "ptr.p", "width",
                    "precision", "positional", "n", "percent", "float.f", "float.e", "float.g", "float.a",
                    "float.inf-nan", "float.long-double", "float.hard", "float.round", "wide.lc", "wide.ls", "trunc", "error"}


def tsv_files():
    return sorted(glob.glob(os.path.join(CORPUS, "*.tsv")))


def load():
    rows = []
    for f in tsv_files():
        with open(f, encoding="ascii") as fh:
            for no, ln in enumerate(fh, 1):
                if ln.startswith("#") or not ln.strip():
                    continue
                assert ln.endswith("\n"), (f, no)
                rows.append((os.path.basename(f), no, ln[:-1]))
    return rows


ROWS = load()
BY_CASE = {}
for _f, _no, _ln in ROWS:
    _p = _ln.split("\t")
    BY_CASE.setdefault(_p[1], _p)


def test_enough_cases_and_size():
    assert len(ROWS) >= 3000
    total = sum(os.path.getsize(f) for f in tsv_files())
    # the long-output cases (trunc; widths and precisions of 4095 ... 32768)
    # hold their expected bytes in both columns: a sixth of it
    assert total < 5 * 1024 * 1024 // 2


def test_every_line_well_formed():
    seen = set()
    for f, no, ln in ROWS:
        p = ln.split("\t")
        assert len(p) == 6, (f, no)
        cat, text, iso, kern, kind, cite = p
        assert cat in KNOWN_CATEGORIES or any(cat.startswith(x) for x in ("flags.", "length.", "kernel.")), (f, no, cat)
        assert kind in ("std", "impl"), (f, no)
        assert cite.strip() == cite and cite, (f, no)
        c = casetext.Case.parse(text)                        # C: raises on any malformed/non-canonical token
        assert casetext.Case(c.fmt, c.args, c.sizes, c.round).text() == text
        for col in (iso, kern):
            casetext.parse_expected(col)                     # C, and the text is the canonical one
        assert not (iso == "-" and kern == "-"), (f, no)
        if not cat.startswith("kernel."):
            assert iso != "-", (f, no, "non-kernel case without an ISO expectation")
        assert text not in seen, (f, no, "duplicate case")
        seen.add(text)
        # integer arguments stay inside their C type: the C parser checks the range, and
        # the case rebuilt from its values above goes through the C builder, which refuses
        # a value beyond its type


def test_n_values_match_n_arguments():
    for f, no, ln in ROWS:
        cat, text, iso, kern, kind, cite = ln.split("\t")
        args = casetext.Case.parse(text).args
        out, nv = casetext.parse_expected(iso)
        if out not in ("-", None):
            assert len(nv) == sum(1 for t, _ in args if t == "n"), (f, no)


def _syntax(scn_conform):
    """What the corpus's specifications are written with, from the one
    specification scanner (oracles/spec.c): `scn-conform --features`, the
    "syntax" of every case ("%d", "%%", "length w16", "flag #", "width *",
    "precision *", "positional")."""
    cases = "".join(ln.split("\t")[1] + "\n" for _f, _no, ln in ROWS)
    p = subprocess.run([str(scn_conform), "--features"], input=cases, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = [json.loads(ln) for ln in p.stdout.splitlines()]
    assert len(lines) == len(ROWS)
    return set().union(*(d["syntax"] for d in lines))


def test_every_conversion_flag_length_appears(scn_conform):
    syntax = _syntax(scn_conform)
    for c in "diouxXbBfFeEgGaAcspn%":
        assert "%" + c in syntax, c
    for fl in "-+ #0":
        assert "flag " + fl in syntax, fl
    for L in ["hh", "h", "l", "ll", "j", "z", "t", "L", "w8", "w16", "w32", "w64", "wf8", "wf16", "wf32", "wf64"]:
        assert "length " + L in syntax, L
    assert "positional" in syntax
    assert {"width *", "precision *"} <= syntax


def test_categories_present():
    cats = {ln.split("\t")[0] for _f, _no, ln in ROWS}
    for c in KNOWN_CATEGORIES:
        assert c in cats, c
    for c in ["kernel.stop", "kernel.number", "kernel.string", "kernel.ptr", "kernel.clamp", "kernel.qualifier",
              "kernel.pM", "kernel.pI", "kernel.ph", "kernel.pa", "kernel.pU", "kernel.pIS", "kernel.pE",
              "kernel.pe", "kernel.p4cc", "kernel.pb", "kernel.pr", "kernel.pt", "kernel.pN", "kernel.px",
              "kernel.pK", "kernel.pV"]:
        assert c in cats, c


# the kernel's %p extensions (printk-formats.rst): the specification scanner reports them
# all as "%p", so their letters are looked for in the formats of the kernel.p* cases
P_EXTENSIONS = ["M", "MR", "MF", "m", "mR", "mF", "I4", "i4", "I4h", "I4l", "I4n", "I4b", "i4h", "i4l",
                "i4n", "i4b", "I6", "i6", "I6c", "h", "hC", "hD", "hN", "a", "ap", "ad",
                "U", "Ub", "UB", "Ul", "UL", "IS", "iS", "ISpc", "E", "Ea", "Eh", "Eo", "4cc", "b", "bl",
                "r", "R", "tR", "tT", "NF"]
# the ones whose output names the pointer value itself: only NULL and ERR_PTR values
# have outputs that do not depend on where the bytes are
P_VALUE_ONLY = ["e", "x", "K"]


def test_every_p_extension_appears():
    import re
    found = {}
    for _f, _no, ln in ROWS:
        cat, text = ln.split("\t")[:2]
        if not cat.startswith("kernel.p"):
            continue
        c = casetext.Case.parse(text)
        args = [t for t, _ in c.args]
        for m in re.finditer(rb"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*)?)?p([A-Za-z0-9]*)", c.fmt):
            found.setdefault(m.group(1).decode(), set()).update(
                "null" if v is None else "vaf" if isinstance(v, tuple) and v[0] == "vaf"
                else "err" if isinstance(v, tuple) else "mem"
                for t, v in c.args if t == "mem")
        assert "mem" in args or cat == "kernel.ptr", (text, "no mem argument")
    for e in P_EXTENSIONS:
        assert "mem" in found.get(e, ()), e
    for e in ["M", "I4", "I6c", "h", "a", "ad", "U", "ISpc", "E", "4cc", "b", "r", "tR", "NF"] + P_VALUE_ONLY:
        assert {"null", "err"} <= found.get(e, set()), e
    # %pV reads a struct va_format (mem:VAF), not bytes
    assert {"vaf", "null", "err"} <= found.get("V", set())


# Hand-derived expectations (worked out from the cited clauses, not from any
# implementation): the corpus must contain these cases with these outputs.
SPOT = [
    ('"%.0f" double:0x1p-1', '"0"', '""'),                       # 0.5 ties to even
    ('"%.0f" double:0x1.8p+0', '"2"', '""'),                     # 1.5
    ('"%.0f" double:0x1.4p+1', '"2"', '""'),                     # 2.5
    ('"%.0f" double:0x1.cp+1', '"4"', '""'),                     # 3.5
    ('"%.0e" double:0x1.4p+1', '"2e+00"', '""'),
    ('"%.2f" double:0x1p-3', '"0.12"', '""'),                    # 0.125 exact tie
    ('"%.2f" double:0x1.5666666666666p+1', '"2.67"', '""'),      # 2.675 is below the tie
    ('"%.1f" double:0x1p-2', '"0.2"', '""'),                     # 0.25 tie -> even
    ('"%.1f" double:0x1.8p-1', '"0.8"', '""'),                   # 0.75 tie -> even
    ('"%.1e" double:0x1.f4p+6', '"1.2e+02"', '""'),              # 125 tie -> even
    ('"%.2g" double:0x1.f4p+6', '"1.2e+02"', '""'),
    ('"%e" double:0x0p+0', '"0.000000e+00"', '""'),
    ('"%f" double:-0x0p+0', '"-0.000000"', '""'),
    ('"%#g" double:0x1.e847fp+19', '"1.00000e+06"', '""'),        # 999999.5 -> X = 6
    ('"%g" double:0x1.86ap+16', '"100000"', '""'),
    ('"%g" double:0x1.e848p+19', '"1e+06"', '""'),
    ('"%#o" uint:8', '"010"', '"010"'),
    ('"%#x" uint:0', '"0"', '"0x0"'),
    ('"%.0d" int:0', '""', '"0"'),
    ('"%08.3d" int:-5', '"    -005"', '"-0000005"'),
    ('"%#.5o" uint:8', '"00010"', '"000010"'),
    ('"%+ d" int:5', '"+5"', '"+5"'),
    ('"%-05d|" int:5', '"5    |"', '"5    |"'),
    ('"%.*s" int:-1 str:"abc"', '"abc"', '""'),
    ('"%.s" str:"abc"', '""', '"abc"'),
    ('"%s" str:NULL', '"(null)"', '"(null)"'),
    ('"%.3s" str:NULL', '""', '"(nu"'),
    ('"%p" ptr:NULL', '"(nil)"', '"0000000000000000"'),
    ('"%p" ptr:0x1000', '"0x1000"', '"0000000000001000"'),
    ('"%px" ptr:0xffff888000001000', '-', '"ffff888000001000"'),
    ('"%5%"', '-', '"%"'),
    ('"%d %e %d" int:1 double:0x1p+1 int:3', '"1 2.000000e+00 3"', '"1 "'),
    ('"abc%ndef" n:int', '"abcdef" n=3', '"abc"'),
    ('"%2$s %1$s" str:"a" str:"b"', '"b a"', '""'),
    ('"%a" double:0x0.0000000000001p-1022', '"0x1p-1074"', '""'),
    ('"%.0a" double:0x1.8p+0', '"0x1p+1"', '""'),
    ('"%La" ldouble:0x8p-3', '"0x1p+0"', '""'),
    ('"%a" double:0x0p+0', '"0x0p+0"', '""'),
    ('"%08f" double:inf', '"     inf"', '""'),
    ('"%+f" double:-nan', '"-nan"', '""'),
    ('"%E" double:-inf', '"-INF"', '""'),
    ('"%F" double:inf', '"INF"', '""'),
    ('"%hhd" int:300', '"44"', '"44"'),
    ('"%hhu" int:-1', '"255"', '"255"'),
    ('"%w16d" int:-32768', '"-32768"', '""'),
    ('"%#b" uint:5', '"0b101"', '""'),
    ('"[%lc]" wint:0', '"[]"', '-'),
    ('"%lc" wint:233', '!err', '-'),
    ('"%c" int:0', '"\\x00"', '"\\x00"'),
    ('"%%%d%%" int:-5', '"%-5%"', '"%-5%"'),
    # kernel %p extensions (printk-formats.rst examples; docs/CASE_FORMAT.md)
    ('"MAC=%pM" mem:"\\x00\\x1b!:O^"', '-', '"MAC=00:1b:21:3a:4f:5e"'),
    ('"%pI4" mem:"\\xff\\xff\\xff\\xff" @16', '-', '"255.255.255.255"'),
    ('"%pI6c|" mem:"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01"', '-', '"fe80::1|"'),
    ('"%*ph" int:3 mem:"\\x00\\x01\\xab"', '-', '"00 01 ab"'),
    ('"%pMR|" mem:"\\x00\\x01\\x02\\x03\\x04\\x05"', '-', '"05:04:03:02:01:00|"'),
    ('"%pMF|" mem:"\\x00\\x01\\x02\\x03\\x04\\x05"', '-', '"00-01-02-03-04-05|"'),
    ('"%pi4|" mem:"\\x01\\x02\\x03\\x04"', '-', '"001.002.003.004|"'),
    ('"%pUl|" mem:"\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r\\x0e\\x0f"', '-',
     '"03020100-0504-0706-0809-0a0b0c0d0e0f|"'),
    ('"trb: V=%p, P=0x%pad" ptr:NULL mem:"4\\x12\\x00\\x00\\x00\\x00\\x00\\x00"', '-',
     '"trb: V=0000000000000000, P=0x0x0000000000001234"'),
    ('"%pM|" mem:NULL', '-', '"(null)|"'),
    ('"%pI4|" mem:ERR(-14)', '-', '"(efault)|"'),
    # %pV: the nested format in place, its arguments all 0 / NULL; the outer width unused
    ('"%s: %pV\\n" str:"eth0" mem:VAF("link %s, %d Mbps")', '-', '"eth0: link (null), 0 Mbps\\n"'),
    ('"<%24pV>" mem:VAF("abc%d")', '-', '"<abc0>"'),
    ('"<%pV>" mem:VAF("a%fb%d")', '-', '"<a>"'),
    ('"%10pV|" mem:NULL', '-', '"    (null)|"'),
]


@pytest.mark.parametrize("text,iso,kern", SPOT)
def test_spot_expectations(text, iso, kern):
    assert text in BY_CASE, "missing case " + text
    p = BY_CASE[text]
    assert p[2] == iso
    assert p[3] == kern


def test_long_outputs():
    p = BY_CASE['"%Lf" ldouble:0xf.fffffffffffffffp+16380']
    out, _ = casetext.parse_expected(p[2])
    assert len(out) == 4933 + 7 and out.startswith(b"118973149535723176502") and out.endswith(b".000000")
    p = BY_CASE['"%.*d" int:40000 int:1']
    out, _ = casetext.parse_expected(p[3])
    assert out == b"0" * 32766 + b"1"                            # set_precision() clamp to 32767
    assert casetext.parse_expected(p[2])[0] == b"0" * 39999 + b"1"
    big = [casetext.parse_expected(ln.split("\t")[2])[0] for _f, _no, ln in ROWS if ln.startswith("trunc\t")]
    assert any(len(b) > 4096 for b in big if b not in ("-", None))


def test_regenerates_byte_identical(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(CORPUS, "gen", "generate.py"), "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    names = sorted(os.path.basename(f) for f in tsv_files())
    assert names == sorted(os.listdir(tmp_path)) or set(names) <= set(os.listdir(tmp_path))
    for n in names:
        assert filecmp.cmp(os.path.join(CORPUS, n), os.path.join(tmp_path, n), shallow=False), n
    assert set(os.listdir(tmp_path)) == set(names)
