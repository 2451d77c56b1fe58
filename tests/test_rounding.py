"""Directed rounding as part of a case (issue 23; C17 F.5, IEEE 754-2019 5.12.2: binary-to-decimal
conversion honours the current rounding direction).

The case's round= through Python (casetext, the C model's text form); the generator's digits in
each direction (MPFR and Python's decimal, corpus/gen/floatdigits.py, which raises when they
disagree); and the corpus's float.round cases run by scn-conform on the reference (the call is
made under the case's direction: core/case/case_round.c; impl/ reads it from MXCSR) and on
glibc and musl, which honour it too.

Run: SCN_BUILD_DIR=$PWD/build/NAME /usr/bin/python3 -m pytest -q tests/test_rounding.py
"""
import json
import subprocess
import sys

import pytest

from conftest import REPO, find_binary

sys.path.insert(0, str(REPO / "runner"))
sys.path.insert(0, str(REPO / "corpus" / "gen"))
from scnfuzz import casetext  # noqa: E402


def test_round_token_round_trips():
    c = casetext.Case(b"%.0f", [("double", 0x3FF8000000000000)], [0, 2], round="upward")
    text = c.text()
    assert text == '"%.0f" double:0x1.8p+0 round=upward @0,2'
    back = casetext.Case.parse(text)
    assert back == c and back.round == "upward"
    for r in ("downward", "towardzero"):
        assert casetext.Case.parse(casetext.Case(b"%e", [("double", 0)], round=r).text()).round == r
    # to nearest is the default and is not written; it is not equal to a directed case
    assert casetext.Case(b"%f", [("double", 0)]).text() == '"%f" double:0x0p+0'
    assert casetext.Case.parse('"%f" double:0x0p+0').round == "nearest"
    assert casetext.Case(b"%f", round="upward") != casetext.Case(b"%f")
    with pytest.raises(ValueError):
        casetext.Case(b"%f", round="up").text()
    for bad in ('"%f" double:0x0p+0 round=nearest', '"%f" round=upward double:0x0p+0',
                '"%f" double:0x0p+0 @1 round=upward', '"%f" double:0x0p+0 round=upward round=downward'):
        with pytest.raises(casetext.CaseSyntaxError):
            casetext.Case.parse(bad)


@pytest.fixture(scope="module")
def oracle():
    from floatdigits import Oracle
    o = Oracle()
    yield o
    o.close()


@pytest.mark.parametrize("value,conv,prec,want", [
    # value, %f or %e, precision, {direction: digits of |rounded value|}
    (1.5, "f", 0, {"nearest": "2", "upward": "2", "downward": "1", "towardzero": "1"}),
    (-1.5, "f", 0, {"nearest": "2", "upward": "1", "downward": "2", "towardzero": "1"}),
    (2.5, "f", 0, {"nearest": "2", "upward": "3", "downward": "2", "towardzero": "2"}),
    (0.1, "f", 1, {"nearest": "0.1", "upward": "0.2", "downward": "0.1", "towardzero": "0.1"}),
    (-0.3, "f", 1, {"nearest": "0.3", "upward": "0.2", "downward": "0.3", "towardzero": "0.2"}),
    (9.5, "e", 0, {"nearest": ("1", 1), "upward": ("1", 1), "downward": ("9", 0), "towardzero": ("9", 0)}),
    (-9.995, "e", 2, {"nearest": ("999", 0), "upward": ("999", 0), "downward": ("100", 1),
                      "towardzero": ("999", 0)}),
    (5e-324, "f", 6, {"nearest": "0.000000", "upward": "0.000001", "downward": "0.000000",
                      "towardzero": "0.000000"}),
])
def test_digits_in_each_direction(oracle, value, conv, prec, want):
    from floatdigits import FP
    from floatbits import dbits
    fp = FP.of("double", dbits(value))
    for direction, digits in want.items():
        oracle.round = direction
        got = oracle.fixed(fp, prec) if conv == "f" else oracle.sci(fp, prec)
        assert got == digits, (value, conv, prec, direction, got)
    oracle.round = "nearest"


def _round_lines():
    lines = [ln for ln in (REPO / "corpus" / "float.tsv").read_text(encoding="latin-1").splitlines()
             if ln.startswith("float.round\t")]
    assert len(lines) >= 150, len(lines)
    return lines


def test_corpus_round_cases_differ_by_direction():
    """The family is there to tell directions apart: most of its values print differently
    under upward than under downward, and each case names its direction."""
    by_value = {}
    for ln in _round_lines():
        f = ln.split("\t")
        c = casetext.Case.parse(f[1])
        assert c.round in ("upward", "downward", "towardzero"), f[1]
        assert "F.5" in f[5] and "5.12.2" in f[5], f[5]
        by_value.setdefault((c.fmt, tuple(c.args)), {})[c.round] = f[2]
    # the values given in both directions (a few cases of families_impl's are in one only)
    both = {k: v for k, v in by_value.items() if "upward" in v and "downward" in v}
    differ = [k for k in both if both[k]["upward"] != both[k]["downward"]]
    assert len(both) >= 0.8 * len(by_value), (len(both), len(by_value))
    assert len(differ) >= 0.8 * len(both), (len(differ), len(both))


def _conform(scn_conform, tmp_path, target):
    corpus = tmp_path / "round.tsv"
    corpus.write_text("\n".join(_round_lines()) + "\n", encoding="latin-1")
    r = subprocess.run([str(scn_conform), "--target", target, str(corpus)], cwd=REPO,
                       capture_output=True, timeout=600)
    assert r.returncode in (0, 1), r.stderr.decode(errors="replace")[-2000:]
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    return [x for x in recs if "summary" not in x]


@pytest.mark.parametrize("target", ["ref", "glibc", "musl"])
def test_targets_honour_the_direction(scn_conform, tmp_path, target):
    recs = _conform(scn_conform, tmp_path, target)
    if target == "musl" and not recs:
        pytest.skip("musl target not built")
    assert len(recs) == len(_round_lines())
    # every case passes, %a's too: glibc's %La digits (0xc.p-3) are excused by the a-normalisation
    # allowance only when they are the value rounded in the case's direction (hexvalue)
    bad = [(x["case"], x.get("expected"), x.get("actual")) for x in recs if x["status"] != "pass"]
    assert not bad, bad[:10]


# targets that round to nearest whatever the direction, each failure a row of known_bugs.tsv
# (round=directed), none left unexplained; pgport mirrors negative values
IGNORING = ["sqlite", "pgport", "trio", "picolibc", "newlib", "uclibc"]
# Real bugs the narrowed rows no longer hide and no row claims yet; any other unexplained
# failure fails the test. (trio's %g of 999999.94 under downward and toward zero, "9.99999e+05"
# where "999999" is due: its style chosen from the rounding to nearest, is trio-g-style-unrounded's
# since session 10.)
UNCLAIMED = {}


@pytest.mark.parametrize("target", IGNORING)
def test_ignoring_targets_are_known(scn_conform, tmp_path, target):
    listed = subprocess.run([str(scn_conform), "--list-targets"], capture_output=True, text=True).stdout
    if target not in {ln.split("\t")[0] for ln in listed.splitlines()}:
        pytest.skip(f"{target} not built")
    recs = _conform(scn_conform, tmp_path, target)
    fails = [x for x in recs if x["status"] != "pass"]
    unexplained = {x["case"] for x in fails if not x.get("rule_kind")}
    assert unexplained == UNCLAIMED.get(target, set()), sorted(unexplained)[:10]
    row = "pgport-round-negative-mirrored" if target == "pgport" else f"{target}-round-direction-ignored"
    claimed = [x for x in fails if x["signature"].split(":")[1] == row]
    assert len(claimed) >= 20, (row, len(claimed))
    # the row is narrow: the same call at nearest is not claimed by it (replayed against ref)
    twins = sorted({casetext.Case(*(lambda c: (c.fmt, c.args, c.sizes))(casetext.Case.parse(x["case"]))).text()
                    for x in claimed})[:6]
    r = subprocess.run([str(find_binary("scn-replay", "fuzz")), "--target", "ref", "--target", target, "-q", *twins],
                       capture_output=True, text=True, timeout=600)
    rules = [(json.loads(ln).get("rule") or {}).get("id") for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert row not in rules, (row, twins)


@pytest.mark.parametrize("case", [
    # glibc honours the direction: the reproducer, called under it, prints 1|-0.2 and exits 0
    '"%.0f|%.1f" double:0x1.8p+0 double:-0x1.999999999999ap-4 round=downward @0,9',
    # the same call to nearest prints 2|-0.1
    '"%.0f|%.1f" double:0x1.8p+0 double:-0x1.999999999999ap-4 @0,9',
])
def test_reproducer_calls_under_the_direction(tmp_path, case):
    """programs/scn_reproducer.c: a directed case's reproducer sets the direction around the
    call without libm (the one-line build), and its expectation is the reference's under it."""
    p = subprocess.run([str(find_binary("scn-reproducer", "programs")), "--target", "glibc", case],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    directed = "round=" in case
    assert ("set_rounding(1); /* fesetround(FE_DOWNWARD) */" in p.stdout) == directed
    assert ('"1|-0.2"' in p.stdout) == directed   # the expectation, the reference's under the direction
    (tmp_path / "reproducer.c").write_text(p.stdout)
    c = subprocess.run(["cc", "-Wall", "-Wextra", "-Werror", "-o", "reproducer", "reproducer.c"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    r = subprocess.run(["./reproducer"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
    want = "1|-0.2" if directed else "2|-0.1"
    assert f'actual   ret 6, buffer "{want}"' in r.stdout, r.stdout
