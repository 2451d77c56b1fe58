"""Any libc through the generic executor (programs/exec/scn_exec.c): built with
the libc's own compiler driver, the conformance suite run through it
(`scnfuzz conform --libc-cc DRIVER`), on musl, dietlibc, klibc and glibc;
the executor protocol (batches, crash and hang recovery).

Run: /usr/bin/python3 -m pytest -q tests/test_any_libc.py
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import anylibc  # noqa: E402

SCNFUZZ = REPO / "scnfuzz"
STANDIN = REPO / "programs" / "certify" / "run.py"


def cli_has(word):
    p = subprocess.run([str(SCNFUZZ), "conform", "--help"], capture_output=True, text=True)
    return word in p.stdout


def conform_libc(cc, out, *extra):
    """`./scnfuzz conform --libc-cc CC` (or the stand-in until the CLI has the option)."""
    if cli_has("--libc-cc"):
        cmd = [str(SCNFUZZ), "conform", "--libc-cc", cc, "--out", str(out), *extra]
    else:
        cmd = [sys.executable, str(STANDIN), "conform", "--libc-cc", cc, "--out", str(out), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)
    return p


def need(tool):
    if not shutil.which(tool):
        pytest.skip(f"{tool} not installed (bash ci/setup.sh)")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One conformance run per libc, shared by the tests below."""
    base = tmp_path_factory.mktemp("anylibc")
    res = {}
    for name, cc, tool in [("musl", "musl-gcc", "musl-gcc"), ("dietlibc", "diet gcc", "diet"),
                           ("klibc", "klcc", "klcc"), ("glibc", "gcc", "gcc")]:
        if not shutil.which(tool):
            continue
        out = base / name
        p = conform_libc(cc, out, "--name", name)
        res[name] = (p, out)
    return res


def libc_doc(runs, name):
    if name not in runs:
        pytest.skip(f"{name} driver not installed")
    p, out = runs[name]
    assert p.returncode in (0, 1), p.stderr[-2000:]
    assert (out / "report.json").is_file() and (out / "report.html").is_file() and (out / "junit.xml").is_file()
    rep = json.loads((out / "report.json").read_text())
    doc = json.loads((out / "libc.json").read_text())
    return rep, doc


def results(runs, name):
    _, out = runs[name]
    return [json.loads(l) for l in (out / "conform.jsonl").read_text().splitlines() if '"summary"' not in l]


def test_every_iso_case_every_libc(runs):
    n_iso = sum(1 for e in anylibc.read_corpus() if e["iso"] != "-")
    for name in runs:
        rep, doc = libc_doc(runs, name)
        rs = results(runs, name)
        assert len(rs) == n_iso, name
        assert rep["targets"][0]["name"] == name
        assert "executor" in rep["targets"][0]["where"]
        # the matrix of the runner's report has this target's counts
        tot = rep["matrix"]["totals"][name]
        assert tot["pass"] + tot["fail"] + tot["error"] == n_iso


def test_musl_real_divergences(runs):
    rep, doc = libc_doc(runs, "musl")
    cats = {k: v["verdict"] for k, v in doc["categories"].items()}
    # musl 1.2.3 is C99/C11 complete: integers, floats, strings conform
    for c in ("int.d", "int.x", "float.f", "float.e", "float.g", "float.a", "str.s", "n", "positional", "trunc"):
        assert cats[c] == "conforms", (c, doc["categories"][c])
    # ... and has none of C23's %b / wN / wfN (it fails them with an error)
    assert {"%b", "length wN", "length wfN"} <= set(doc["unsupported"])
    assert cats["length.w"] == "unsupported" and cats["int.b"] == "unsupported"
    assert doc["restarts"] == 0
    b = next(r for r in results(runs, "musl") if r["case"] == '"%b" uint:0')
    assert b["status"] == "fail" and b["actual"] == "!err"


def test_dietlibc_real_divergences(runs):
    rep, doc = libc_doc(runs, "dietlibc")
    rs = results(runs, "dietlibc")
    # %f of a large double overflows a buffer inside dietlibc: the executor dies, the suite goes on
    crash = [r for r in rs if r.get("oracle") == "crash"]
    assert crash and doc["restarts"] == len(crash)
    assert any(r["case"].startswith('"%f" double:0x1.7e43c8800759cp+996') for r in crash)
    # no %e, no positional arguments
    assert {"%e", "positional"} <= set(doc["unsupported"])
    assert doc["categories"]["positional"]["verdict"] == "unsupported"
    assert doc["categories"]["float.g"]["verdict"] == "deviates"
    assert rep["summary"]["verdict"] == "fail"


def test_klibc_has_no_floating_point(runs):
    rep, doc = libc_doc(runs, "klibc")
    # klibc's printf has no floating conversions: they are "unsupported", not a crash of the suite
    assert {"%f", "%e", "%g", "%a"} <= set(doc["unsupported"])
    for c in ("float.f", "float.e", "float.g", "float.a"):
        assert doc["categories"][c]["verdict"] == "unsupported", c
    f = next(r for r in results(runs, "klibc") if r["case"] == '"%f" double:0x0p+0')
    assert f["actual"] == '"f"'
    # its integers mostly work, with real flag deviations
    assert doc["categories"]["str.s"]["verdict"] == "conforms"
    assert doc["categories"]["flags.plus"]["verdict"] == "deviates"


def test_libcs_differ_visibly(runs):
    docs = {n: libc_doc(runs, n)[1] for n in ("musl", "dietlibc", "klibc") if n in runs}
    if len(docs) < 3:
        pytest.skip("needs musl, dietlibc and klibc")
    assert docs["musl"]["categories"]["float.f"]["verdict"] == "conforms"
    assert docs["dietlibc"]["categories"]["float.f"]["verdict"] == "deviates"
    assert docs["klibc"]["categories"]["float.f"]["verdict"] == "unsupported"


@pytest.fixture(scope="module")
def crashy(tmp_path_factory):
    need("gcc")
    exe, info = anylibc.build_executor(f"gcc -include {REPO / 'tests/certify/crashy_libc.h'}", "crashy",
                                       tmp_path_factory.mktemp("crashy"))
    return exe


def test_protocol_banner_and_answers(crashy):
    data = '"%d|%s" int:42 str:"hi" @0,3\n*"ab%s" str:"c"\n"%q\nnot a case\n'
    p = subprocess.run([str(crashy)], input=data, capture_output=True, text=True, timeout=30)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("scn-exec 2 crashy ")
    assert lines[1:4] == ['= 0 5 ""', '= 3 5 "42"', "."]
    assert lines[4] == 'F 3 "abc"'
    assert lines[5:9] == ["= 0 3 ok", "~ 0 0 ok", "= 1 3 ok", "~ 1 0 ok"]
    assert lines[-4].startswith("! col ") and lines[-2].startswith("! col ") and lines[-1] == "."
    assert p.returncode == 0


def test_batches_many_cases(crashy):
    cases = [f'"%d" int:{i}' for i in range(3000)]
    ans = anylibc.run_cases(crashy, cases)
    assert len(ans) == 3000
    assert ans[1234][0] == 'F 4 "1234"'


def test_crash_and_hang_are_findings_and_the_run_goes_on(crashy):
    restarts = []
    cases = ['"a%d" int:1', '"CRASH%d" int:2', '"b%d" int:3', '"HANG" @1', '"c"']
    ans = anylibc.run_cases(crashy, cases, timeout=1, on_restart=lambda: restarts.append(1))
    assert len(ans) == 5
    assert ans[0][0] == 'F 2 "a1"' and ans[2][0] == 'F 2 "b3"' and ans[4][0] == 'F 1 "c"'
    assert ans[1] == ["! crash signal 11"]
    assert ans[3] == ["! hang"]
    assert len(restarts) == 2
    st, oracle, det = anylibc.check_answer(ans[1], '"CRASH2"', "std", None)
    assert (st, oracle, det["class"]) == ("fail", "crash", "memory-safety")
    st, oracle, _ = anylibc.check_answer(ans[3], '"HANG"', "std", None)
    assert (st, oracle) == ("fail", "hang")


def test_oracles_on_answers():
    """The per-size checks fire on a bad answer (a made-up libc's lines)."""
    good = ['F 3 "abc"', "= 0 3 ok", "~ 0 0 ok", "= 2 3 ok", "~ 2 1 ok", "= 4 3 ok", "~ 4 3 ok"]
    assert anylibc.check_answer(good, '"abc"', "std", None)[:2] == ("pass", None)
    assert anylibc.check_answer(good, '"abd"', "std", None)[1] == "expect.output"
    bad = list(good)
    bad[3] = "= 2 2 ok"
    assert anylibc.check_answer(bad, '"abc"', "std", None)[1] == "c99.ret-full-length"
    bad = list(good)
    bad[1] = "= 0 3 ok overrun"
    assert anylibc.check_answer(bad, '"abc"', "std", None)[1] == "size0-untouched"
    bad = list(good)
    bad[3] = '= 2 3 nonul "ab"'
    assert anylibc.check_answer(bad, '"abc"', "std", None)[1] == "nul-terminated"
    bad = list(good)
    bad[4] = "~ 2 2 ok"
    assert anylibc.check_answer(bad, '"abc"', "std", None)[1] == "scn.ret-le-size-1"


def test_build_error_is_shown(tmp_path):
    p = conform_libc("gcc -DSCN_EXEC_NAME=", tmp_path / "x")
    assert p.returncode == 2
    assert "cannot build the executor" in p.stderr and "error" in p.stderr


def fuzz_libc(cc, out, seconds):
    if cli_has("--libc-cc") and "--libc-cc" in subprocess.run([str(SCNFUZZ), "fuzz", "--help"],
                                                               capture_output=True, text=True).stdout:
        cmd = [str(SCNFUZZ), "fuzz", "--libc-cc", cc, "--time", str(seconds), "--out", str(out)]
    else:
        cmd = [sys.executable, str(STANDIN), "fuzz", "--libc-cc", cc, "--time", str(seconds), "--out", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=600)


def test_fuzz_through_the_executor(tmp_path):
    """A differential campaign through dietlibc's executor: its crashes (the
    executor restarted) and its
    divergences from the reference are findings, reduced through the
    executor; the report is written."""
    need("diet")
    p = fuzz_libc("diet gcc", tmp_path, 8)
    assert p.returncode == 1, p.stderr[-2000:]
    meta = json.loads((tmp_path / "run.json").read_text())
    part = meta["parts"][0]
    assert part["kind"] == "fuzz" and part["executions"] > 50 and part["restarts"] >= 1
    fs = [json.loads(l) for l in (tmp_path / "findings.jsonl").read_text().splitlines()]
    crashes = [f for f in fs if f["oracle"] == "crash"]
    assert crashes and all(f["classification"] in ("crash", "known-bug") for f in crashes), crashes[:1]
    assert all(f["reduced"] and len(f["case"]) < len(f["original_case"]) for f in crashes), crashes[:1]
    div = [f for f in fs if f["oracle"] == "differential" and f["classification"] == "divergence"]
    assert div and all(set(f["outputs"]) == {"ref", "dietlibc"} for f in div)
    assert all(f["reduced"] or f["case"] == f["original_case"] for f in div)
    rep = json.loads((tmp_path / "report.json").read_text())
    assert rep["summary"]["bugs"] >= 1
