"""Any libc through the generic executor (programs/exec/scn_exec.c): built with
the libc's own compiler driver, the conformance suite run through it
(`scnfuzz conform --libc-cc DRIVER`: scn-conform --exec, the executor a
target of the C library, core/targets/executor.c), on musl, dietlibc, klibc
and glibc; the executor protocol; crash, hang and overrun findings.

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
from scnfuzz import anylibc, build, conform  # noqa: E402

# The executors are built once into build/exec/<libc>-<hash>/ (klcc: its objects beside the
# sources, programs/exec/*.o): one xdist worker runs every test that builds one
pytestmark = pytest.mark.xdist_group("libc-executors")

SCNFUZZ = REPO / "scnfuzz"


def conform_libc(cc, out, *extra):
    """`./scnfuzz conform --libc-cc CC`."""
    cmd = [str(SCNFUZZ), "conform", "--libc-cc", cc, "--out", str(out), *extra]
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


@pytest.mark.slow
def test_every_iso_case_every_libc(runs):
    n_iso = conform._expected_results(conform.corpus_files(), [{"dialect": "iso"}])
    for name in runs:
        rep, doc = libc_doc(runs, name)
        rs = results(runs, name)
        assert len(rs) == n_iso, name
        # what the verdicts are computed from comes from C (spec.c), on every line
        assert all(isinstance(r["features"], list) for r in rs), name
        assert rep["targets"][0]["name"] == name
        assert "executor" in rep["targets"][0]["where"]
        # the matrix of the runner's report has this target's counts
        tot = rep["matrix"]["totals"][name]
        assert tot["pass"] + tot["fail"] + tot["error"] == n_iso


@pytest.mark.slow
def test_musl_real_divergences(runs):
    rep, doc = libc_doc(runs, "musl")
    cats = {k: v["verdict"] for k, v in doc["categories"].items()}
    # musl 1.2.3 is C99/C11 complete: integers, floats, strings conform
    for c in ("int.d", "int.x", "float.f", "float.e", "float.g", "str.s", "n", "positional", "trunc"):
        assert cats[c] == "conforms", (c, doc["categories"][c])
    # but %La at precision 15: all 16 digits, unrounded (known_bugs musl-La-prec15-unrounded)
    assert cats["float.a"] == "deviates" and doc["categories"]["float.a"]["fail"] == 1, doc["categories"]["float.a"]
    # ... and has none of C23's %b / wN / wfN (it fails them with an error)
    assert {"%b", "length wN", "length wfN"} <= set(doc["unsupported"])
    assert cats["length.w"] == "unsupported" and cats["int.b"] == "unsupported"
    assert doc["restarts"] == 0
    b = next(r for r in results(runs, "musl") if r["case"] == '"%b" uint:0')
    assert b["status"] == "fail" and b["actual"] == "!err"


@pytest.mark.slow
def test_dietlibc_real_divergences(runs):
    rep, doc = libc_doc(runs, "dietlibc")
    rs = results(runs, "dietlibc")
    # %f of a large double overflows a buffer inside dietlibc: the executor dies, the suite goes on
    crash = [r for r in rs if r.get("oracle") == "crash"]
    assert crash and doc["restarts"] >= len(crash)  # the reductions' restarts too
    # classified as every isolation classifies a death (core/supervise/end.c): a SIGSEGV is
    # memory-safety; an exit in a call (dietlibc's stack protector: _exit(127)) a crash
    def klass(r):
        return "memory-safety" if "died of SIGSEGV during a call" in r["detail"] else \
            "crash" if "exited with status 127 during a call" in r["detail"] else None
    assert all(r["class"] == klass(r) and r["finding"]["oracle"] == "crash" for r in crash), \
        [(r["case"], r["class"], r["detail"], r["finding"]["oracle"]) for r in crash
         if r["class"] != klass(r) or r["finding"]["oracle"] != "crash"]
    assert any(klass(r) == "memory-safety" for r in crash)
    big = next(r for r in crash if r["case"] == '"%f" double:0x1.7e43c8800759cp+996')
    # ... and that crash is a known bug of dietlibc: its death rule (the term
    # dies) signs the finding, not the rule of %f's wrong digits
    assert big["rule_kind"] == "known-bug"
    assert big["signature"] == "crash:dietlibc-f-large-dies:dietlibc:known-bug"
    assert big["finding"]["rule"]["id"] == "dietlibc-f-large-dies"
    fs = [json.loads(l) for l in (runs["dietlibc"][1] / "findings.jsonl").read_text().splitlines()]
    assert big["signature"] in {f["signature"] for f in fs}
    # a failing result is reduced and signed like an in-process target's
    g = next(r for r in rs if r["case"] == '"%-12.2g" double:-0x1.4p+1')
    assert g["status"] == "fail" and g["rule_kind"] == "known-bug"
    assert g["finding"]["signature"] == "expect.output:dietlibc-g-no-style-e:dietlibc:known-bug"
    # no %e, no positional arguments
    assert {"%e", "positional"} <= set(doc["unsupported"])
    assert doc["categories"]["positional"]["verdict"] == "unsupported"
    assert doc["categories"]["float.g"]["verdict"] == "deviates"
    # every divergence of dietlibc met here is a row of known_bugs.tsv (its %f, %g, width limit ...):
    # failing results, each explained, and so no new root cause to fail the run
    fails = [r for r in rs if r["status"] == "fail"]
    assert len(fails) > 10 and all(r.get("rule_kind") in ("known-bug", "known-gap") for r in fails), \
        [r["case"] for r in fails if not r.get("rule_kind")][:10]
    assert rep["summary"]["verdict"] == "pass"


@pytest.mark.slow
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


@pytest.mark.slow
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
    data = '"%d|%s" int:42 str:"hi" @0,3\n*"ab%s" str:"c"\n#"x%dy" int:5 @2\n"%q\nnot a case\n'
    p = subprocess.run([str(crashy)], input=data, capture_output=True, text=True, timeout=30)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("scn-exec 2 crashy ")
    assert lines[1:4] == ['= 0 5 ""', '= 3 5 "42"', "."]
    assert lines[4] == 'F 3 "abc"'
    # '*': every size, both families; the bytes buf[0..min(ret, size-1)], "ok" when they are
    # the full output's prefix and a NUL; at len + 1 twice (a repeatability check's calls)
    assert lines[5:13] == ['= 0 3 ""', '~ 0 0 ""', "= 1 3 ok", "~ 1 0 ok", "= 2 3 ok", "~ 2 1 ok",
                           "= 3 3 ok", "~ 3 2 ok"]
    assert lines[13:18] == ["= 4 3 ok", "~ 4 3 ok", "= 4 3 ok", "~ 4 3 ok", "."]
    # '#': the raw bytes, the NUL included
    assert lines[18:20] == ['= 2 3 "x\\x00"', "."]
    assert lines[-4].startswith("! col ") and lines[-2].startswith("! col ") and lines[-1] == "."
    assert p.returncode == 0


def exec_conform(exe, cases, tmp_path, timeout=1):
    """scn-conform --exec exe on a corpus of (case, expectation) lines:
    (result lines, summary)."""
    tsv = tmp_path / "cases.tsv"
    tsv.write_text("".join(f"x\t{c}\t{e}\t-\tstd\tt\n" for c, e in cases))
    p = subprocess.run([str(build.tool("scn-conform")), "--exec", str(exe), str(tsv)], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, SCN_EXEC_TIMEOUT=str(timeout)))
    assert p.returncode in (0, 1), p.stderr[-2000:]
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    return lines[:-1], lines[-1]["summary"]


def test_crash_and_hang_are_findings_and_the_run_goes_on(crashy, tmp_path):
    cases = [('"a%d" int:1', '"a1"'), ('"CRASH%d" int:2', '"CRASH2"'), ('"b%d" int:3', '"b3"'),
             ('"HANG"', '"HANG"'), ('"c"', '"c"')]
    rs, summary = exec_conform(crashy, cases, tmp_path)
    assert [r["status"] for r in rs] == ["pass", "fail", "pass", "fail", "pass"]
    crash, hang = rs[1], rs[3]
    assert (crash["oracle"], crash["class"]) == ("crash", "memory-safety")
    assert "the executor: the process died of SIGSEGV during a call at size" in crash["detail"]
    # the finding record: reduced through the executor while it still dies, and signed
    f = crash["finding"]
    assert f["oracle"] == "crash" and f["classification"] == "memory-safety" and f["reduced"]
    assert f["case"] == '"CRASH"' and f["signature"] == "crash:-:crashy:memory-safety"
    assert (hang["oracle"], hang["class"]) == ("hang", "hang")
    assert "gave no result within 1.00 s (SCN_EXEC_TIMEOUT, per request): killed during a call" in hang["detail"]
    assert hang["finding"]["signature"] == "hang:-:crashy:hang"
    assert summary["pass"] == 3 and summary["fail"] == 2 and summary["restarts"] >= 2


# A libc whose vsnprintf misbehaves when the output is cut, by the format's name.
BUGGY = r"""
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
static inline int buggy_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (r >= 0 && size && (size_t)r >= size) {
        if (strstr(fmt, "OVER")) buf[size] = 'X';
        if (strstr(fmt, "NONUL")) buf[size - 1] = '?';
        if (strstr(fmt, "CUTRET")) return (int)size - 1;
    }
    return r;
}
#define vsnprintf buggy_vsnprintf
"""


def test_oracles_through_the_executor(tmp_path):
    """The C oracles fire on a libc in its executor as on an in-process
    target; a write past the buffer is seen by the executor's guard bytes."""
    need("gcc")
    h = tmp_path / "buggy_libc.h"
    h.write_text(BUGGY)
    exe, _ = anylibc.build_executor(f"gcc -include {h}", "buggy", tmp_path / "exec")
    cases = [('"OVER%d" int:12345', '"OVER12345"'), ('"NONUL%d" int:7', '"NONUL7"'),
             ('"CUTRET%d" int:7', '"CUTRET7"'), ('"%d|%5s" int:42 str:"ab"', '"42|   ab"'),
             ('"%d" int:1', '"2"')]
    rs, summary = exec_conform(exe, cases, tmp_path)
    got = [(r["status"], r["oracle"], r.get("class"), r.get("size"), r.get("family")) for r in rs]
    assert got == [("fail", "overrun", "memory-safety", 1, "c99"),
                   ("fail", "nul-terminated", "invariant", 1, "c99"),
                   ("fail", "c99.ret-full-length", "invariant", 1, "c99"),
                   ("pass", None, None, None, None),
                   ("fail", "expect.output", None, None, None)]
    assert rs[4]["actual"] == '"1"' and rs[4]["finding"]["classification"] == "conformance"
    assert all(r["features"] == ["%d"] for r in rs[:3]) and rs[3]["features"] == ["%d", "%s"]
    assert summary["restarts"] == 0


def test_build_error_is_shown(tmp_path):
    p = conform_libc("gcc -DSCN_EXEC_NAME=", tmp_path / "x")
    assert p.returncode == 2
    assert "cannot build the executor" in p.stderr and "error" in p.stderr


def fuzz_libc(cc, out, seconds):
    cmd = [str(SCNFUZZ), "fuzz", "--libc-cc", cc, "--time", str(seconds), "--out", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=600)


@pytest.mark.campaign
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
    # a crash is memory-safety, or the known bug or gap of a conversion its reduced case needs
    # (dietlibc has no %ls: "%e%ls" double:1 wstr:"" dies, dietlibc-no-ls)
    assert crashes and all(f["classification"] in ("memory-safety", "known-bug", "known-gap") for f in crashes), \
        crashes[:1]
    assert all(f.get("rule") for f in crashes if f["classification"] != "memory-safety"), crashes[:1]
    assert all(f["reduced"] and len(f["case"]) < len(f["original_case"]) for f in crashes), crashes[:1]
    div = [f for f in fs if f["oracle"] == "differential" and f["classification"] == "divergence"]
    assert div and all(set(f["outputs"]) == {"ref", "dietlibc"} for f in div)
    assert all(f["reduced"] or f["case"] == f["original_case"] for f in div)
    rep = json.loads((tmp_path / "report.json").read_text())
    assert rep["summary"]["bugs"] >= 1
