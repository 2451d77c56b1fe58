"""Certification from a matrix implementation's own runs (certify --reuse,
runner/scnfuzz/certify_reuse.py) and the --target driver built once
(runner/scnfuzz/certify_cache.py): what is read from the runs, and when the
driver is built again. The whole path through the matrix is
test_matrix_cmd's (test_certification_reads_the_matrix_runs_and_agrees_with_certify)."""
import json
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import certify, certify_cache, certify_reuse  # noqa: E402
from scnfuzz.errors import UsageError  # noqa: E402
from scnfuzz.runs import Run  # noqa: E402

TARGET = {"name": "pgport", "dialect": "iso"}


def _run(tmp_path, conform_lines, findings, fuzz_status="done", targets=(TARGET,)):
    d = tmp_path / "impl"
    d.mkdir(parents=True)
    (d / "conform.jsonl").write_text("".join(json.dumps(r) + "\n" for r in conform_lines)
                                     + json.dumps({"summary": {"pass": 1}}) + "\n")
    (d / "findings.jsonl").write_text("".join(json.dumps(f) + "\n" for f in findings))
    meta = {"run_schema": 1, "kind": "conform", "parts": [
        {"kind": "conform", "targets": list(targets), "results": "conform.jsonl", "status": "done",
         "results_count": len(conform_lines), "duration_s": 3.0},
        {"kind": "fuzz", "fuzzer": "fuzz_matrix", "targets": [{"name": "ref"}] + list(targets), "time_s": 5.0,
         "status": fuzz_status, "executions": 1234, "duration_s": 5.2, "coverage": 99, "corpus_units": 7,
         "faults": 1, "restarts": 1, "corpus": "/c"}]}
    (d / "run.json").write_text(json.dumps(meta))
    return Run.open(d)


def test_conformance_results_are_read_as_the_driver_phase_with_deaths_fatal(tmp_path):
    lines = [{"target": "pgport", "category": "int.d", "case": '"%d" int:1', "status": "pass", "oracle": None},
             {"target": "pgport", "category": "int.d", "case": '"%zd" int:1', "status": "fail", "oracle": "crash",
              "class": "memory-safety", "detail": "the process died of SIGSEGV during a call at size 1024"},
             {"target": "pgport", "category": "float.f", "case": '"%La" ldouble:1', "status": "fail",
              "oracle": "hang", "class": "hang", "detail": "a call at size 1024 did not return within 1.00 s"},
             {"target": "pgport", "category": "int.x", "case": '"%x" uint:1', "status": "fail",
              "oracle": "expect.output", "detail": "the output differs"}]
    run = _run(tmp_path, lines, [])
    ph = certify_reuse.conform_phase(run, "pgport", certify.Phase)
    res = ph.results()
    assert [r["case"] for r in res] == [l["case"] for l in lines]  # the summary line is not a result
    assert [r["index"] for r in res] == [0, 1, 2, 3]
    assert [bool(r.get("fatal")) for r in res] == [False, True, True, False]
    assert ph.plan == {"phase": "conform", "cases": 4} and ph.end["complete"] and ph.end["deaths"] == 2
    assert ph.reused == str(run.path / "conform.jsonl")
    assert certify.account(ph) == []  # read whole: no reason of its own


def test_campaign_findings_count_a_death_whatever_rule_explains_it(tmp_path):
    known_crash = {"source": "fuzz", "oracle": "crash", "classification": "known-bug", "case": '"%1$d"',
                   "signature": "crash:%1$d:pgport:known-bug", "detail": "SIGSEGV/SIGBUS at 0x1",
                   "rule": {"id": "x-dies", "kind": "known-bug"}}
    known_diff = {"source": "fuzz", "oracle": "differential", "classification": "known-bug", "case": '"%a"',
                  "signature": "differential:%a:pgport:known-bug", "rule": {"id": "y", "kind": "known-bug"}}
    conform_finding = {"source": "conform", "oracle": "expect.output", "classification": "conformance"}
    run = _run(tmp_path, [], [known_crash, known_diff, conform_finding])
    ph = certify_reuse.fuzz_phase(run, "pgport", certify.Phase)
    assert [l["oracle"] for l in ph.lines] == ["crash", "differential"]  # the campaign's only
    crash, diff = ph.lines
    assert crash["fatal"] and crash["class"] == "memory-safety" and not diff.get("fatal")
    assert ph.end["executions"] == 1234 and ph.end["complete"]
    assert certify.account(ph, 5.0) == []
    ended = _run(tmp_path / "b", [], [], fuzz_status="interrupted")
    why = certify.account(certify_reuse.fuzz_phase(ended, "pgport", certify.Phase), 5.0)
    assert why and "did not run to its end" in why[0], why


def test_a_run_of_another_target_is_refused(tmp_path):
    run = _run(tmp_path, [], [], targets=({"name": "apr"},))
    with pytest.raises(UsageError, match="not of --target pgport"):
        certify_reuse.conform_phase(run, "pgport", certify.Phase)


def test_reuse_needs_a_target_and_no_profile(tmp_path):
    args = certify.parse_args(["--function", "f", "--kind", "vsnprintf", "--source", "x.c", "--reuse", str(tmp_path)])
    with pytest.raises(UsageError, match="--reuse needs --target"):
        certify_reuse.open_run(args.reuse, args)
    args = certify.parse_args(["--target", "apr", "--profile", "p.json", "--reuse", str(tmp_path)])
    with pytest.raises(UsageError, match="profile"):
        certify_reuse.open_run(args.reuse, args)


def test_the_driver_is_built_again_when_an_input_or_the_commands_change(tmp_path):
    src = tmp_path / "vendored.c"
    src.write_text("int f;\n")
    cache = certify_cache.DriverCache(tmp_path / "build", "pgport", ["clang-14", "-O1"])
    with cache.lock():
        assert not cache.up_to_date()  # never built
        cache.exe.write_bytes(b"driver")
        (cache.dir / "src0.d").write_text(f"src0.o: {src} \\\n  /usr/include/stdio.h\n")
        cache.store([cache.dir / "src0.d"], [])
        assert cache.up_to_date()
    manifest = json.loads((cache.dir / "manifest.json").read_text())
    assert str(src) in manifest["inputs"] and "/usr/include/stdio.h" in manifest["inputs"]
    assert certify_cache.DriverCache(tmp_path / "build", "pgport", ["clang-14", "-O1"]).up_to_date()
    assert not certify_cache.DriverCache(tmp_path / "build", "pgport", ["clang-14", "-O2"]).up_to_date()
    src.write_text("int f = 1;\n")  # a dependency's bytes changed
    assert not cache.up_to_date()
