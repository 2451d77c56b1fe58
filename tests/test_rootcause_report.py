"""One report entry per root cause: `./scnfuzz report DIR` on synthetic run
directories whose findings.jsonl holds records of docs/FINDINGS.md (no C
binary needed, except a stand-in scn-conform written here).

- lines of one signature are one root cause, its count their number, the first
  line its representative (reduced case, outputs, rule);
- known bugs and gaps and allowed differences never fail the run; known bugs
  are listed with their hit count and citation;
- --baseline: new / still / fixed, exit 1 only for a new bug root cause;
- a report of thousands of lines with long outputs is small and quick, and the
  highlighting of differing bytes is linear;
- junit.xml's test cases do not depend on the allowed differences;
- conformance: scn-conform's finding records are copied, cells count the
  failures a rule explains, which do not fail the run.

Run: /usr/bin/python3 -m pytest -q tests/test_rootcause_report.py
"""
import json
import subprocess
import os
import time
import xml.etree.ElementTree as ET

import pytest

from plugin_findings import REPO, load_report, run_scnfuzz, scnfuzz_env, track

from scnfuzz import conform, progress, render_common, render_html, report, runs  # noqa: E402

KB1 = "glibc bug 12345: %a rounding (https://sourceware.org/bugzilla/show_bug.cgi?id=12345)"
P_SPELLING = "C17 7.21.6.1p8 (p): \"in an implementation-defined manner\""


def record(what, klass, case, targets=("glibc", "musl"), rule=None, outputs=None, original=None, **kw):
    """A finding record as the C programs write it (docs/FINDINGS.md)."""
    tsig = "~".join(sorted(targets))
    oracle = kw.pop("oracle", "differential")
    r = {"oracle": oracle, "classification": klass, "signature": f"{oracle}:{what}:{tsig}:{klass}",
         "shape": kw.pop("shape", "%Nd"), "case": case, "original_case": original or case,
         "reduced": original is not None, "dialect": "iso", "targets": list(targets),
         "detail": "bytes differ", "source": kw.pop("source", "fuzz"), "program": "fuzz_iso_diff",
         "outputs": outputs or {t: {"ret": i + 1, "bytes": '"' + "x" * (i + 1) + '"'} for i, t in enumerate(targets)}}
    if rule:
        r["rule"] = {"id": rule[0], "kind": rule[1], "citation": rule[2]}
    r.update(kw)
    return r


def bug(what, case='"%5d" int:1', **kw):
    return record(what, "divergence", case, **kw)


def known_bug(what="glibc-a-round", **kw):
    return record(what, "known-bug", '"%.0a" double:0x1.8p+0', rule=(what, "known-bug", KB1), **kw)


def allowed(what="p-spelling", case='"%p" ptr:NULL', **kw):
    return record(what, "implementation-defined", case, rule=(what, "allowance", P_SPELLING), **kw)


def make_run(d, records, conform_lines=None, kind="fuzz"):
    """A run directory as runs.Run makes it: run.json, findings.jsonl (and conform.jsonl)."""
    d.mkdir(parents=True)
    with open(d / "findings.jsonl", "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    parts = [{"kind": "fuzz", "status": "done", "fuzzer": "fuzz_iso_diff", "executions": 1000, "duration_s": 2.5,
              "targets": [{"name": "glibc", "version": "2.36", "dialect": "iso"},
                          {"name": "musl", "version": "1.2", "dialect": "iso"}]}]
    if conform_lines is not None:
        (d / "conform.jsonl").write_text("".join(json.dumps(x) + "\n" for x in conform_lines))
        parts = [{"kind": "conform", "status": "done", "results": "conform.jsonl", "cases_run": len(conform_lines),
                  "results_count": len(conform_lines), "duration_s": 1.5,
                  "targets": [{"name": "ref", "version": "scnfuzz ref", "dialect": "iso"}]}]
    (d / "run.json").write_text(json.dumps({"run_schema": 1, "kind": kind, "started": "2026-01-01T00:00:00Z",
                                            "command": ["./scnfuzz", kind], "parts": parts}))
    return track(d)


def report_of(d, *extra, code=None):
    p = run_scnfuzz("report", d, *extra, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    if code is not None:
        assert p.returncode == code, (p.stdout, p.stderr[-2000:])
    return load_report(d), p


def test_grouped_by_signature_first_line_represents(tmp_path):
    first = bug("%Nd", case='"%5d" int:1', original='"ab%5d|%s" int:1 str:"x" @3',
                outputs={"glibc": {"ret": 5, "bytes": '"    1"'}, "musl": {"ret": 5, "bytes": '"   1 "'}})
    later = bug("%Nd", case='"%7d" int:2', original='"%7d" int:2')
    lines = [first] + [later] * 4 + [allowed()] * 3 + [bug("%s", case='"%s" str:"a"')]
    d = make_run(tmp_path / "20260101T000000Z-fuzz", lines)
    with open(d / "findings.jsonl", "a") as f:
        f.write('{"oracle":"differential","torn')  # a killed writer's last line
    rep, p = report_of(d, code=1)
    assert rep["schema_version"] == 2
    s = rep["summary"]
    assert (s["raw_findings"], s["root_causes"], s["bugs"], s["new"], s["implementation_defined"]) == (9, 3, 2, 2, 1)
    by = {f["signature"]: f for f in rep["findings"]}
    f = by["differential:%Nd:glibc~musl:divergence"]
    assert f["count"] == 5 and f["bug"]
    assert f["case"] == '"%5d" int:1' and f["original_case"] == '"ab%5d|%s" int:1 str:"x" @3' and f["reduced"]
    assert f["outputs"]["musl"]["bytes"] == '"   1 "' and f["shape"] == "%Nd" and f["rule"] is None
    assert f["reproduce"] == "./scnfuzz replay '\"%5d\" int:1' --target glibc --target musl"
    a = by["differential:p-spelling:glibc~musl:implementation-defined"]
    assert a["count"] == 3 and not a["bug"]
    assert a["rule"] == {"id": "p-spelling", "kind": "allowance", "citation": P_SPELLING}
    assert [x["classification"] for x in rep["findings"]][-1] == "implementation-defined"  # rule-explained last
    assert sum(x["count"] for x in rep["findings"]) == 9
    page = (d / "report.html").read_text()
    assert page.count('class="finding ') == 2  # the two bug root causes in full, the allowance folded
    assert "<details>" in page and "p-spelling" in page and "<mark>" in page
    for name in ("report.html", "report.md", "report.json"):  # later raw hits are counted, not listed
        assert "%7d" not in (d / name).read_text(), name


def test_known_bugs_do_not_fail_and_are_listed_with_hits_and_citation(tmp_path):
    gap = record("no-wide", "known-gap", '"%ls" wstr:"a"', rule=("no-wide", "known-gap", "musl lacks it"))
    d = make_run(tmp_path / "20260101T000000Z-fuzz", [known_bug()] * 7 + [allowed()] * 2 + [gap])
    rep, p = report_of(d, code=0)
    s = rep["summary"]
    assert s["verdict"] == "pass" and (s["bugs"], s["new"], s["known_bugs"], s["known_gaps"]) == (0, 0, 1, 1)
    kb = next(f for f in rep["findings"] if f["classification"] == "known-bug")
    assert kb["count"] == 7 and not kb["bug"] and kb["rule"]["citation"] == KB1
    md = (d / "report.md").read_text()
    sect = md[md.index("## Known bugs and gaps"):]
    assert "7 hits" in sect and KB1 in sect and "./scnfuzz replay" in sect
    assert "## Bug root causes" not in md
    page = (d / "report.html").read_text()
    assert 'id="known"' in page and "7 hits" in page and "glibc bug 12345" in page
    junit = ET.parse(d / "junit.xml").getroot()
    assert not list(junit.iter("testcase"))  # known bugs and allowances are not test cases
    props = [x.get("name") for x in junit.iter("property")]
    assert any(n.startswith("known-bug:") for n in props) and any(n.startswith("implementation-defined:")
                                                                   for n in props)


def test_baseline_new_still_fixed_and_exit_status(tmp_path):
    old = make_run(tmp_path / "20260101T000000Z-old",
                   [bug("%Nd"), bug("%s", case='"%s" str:"a"'), known_bug(), allowed()])
    # %s fixed, the known bug fixed, %Nd still there, %c new
    cur = make_run(tmp_path / "20260102T000000Z-cur", [bug("%Nd")] * 3 + [bug("%c", case='"%c" int:65'), allowed()])
    rep, p = report_of(cur, "--baseline", old, code=1)
    b = rep["baseline"]
    assert b["dir"] == str(old.resolve())
    assert b["new"] == ["differential:%c:glibc~musl:divergence"]
    assert set(b["still"]) == {"differential:%Nd:glibc~musl:divergence",
                               "differential:p-spelling:glibc~musl:implementation-defined"}
    assert b["fixed"] == ["differential:%s:glibc~musl:divergence",
                          "differential:glibc-a-round:glibc~musl:known-bug"]  # the allowance is never "fixed"
    assert rep["summary"]["new"] == 1 and rep["summary"]["bugs"] == 2
    assert {f["signature"]: f["baseline"] for f in rep["findings"]}["differential:%Nd:glibc~musl:divergence"] == "still"
    assert "fixed" in (cur / "report.md").read_text()
    # only still-present bugs: exit 0 with the baseline, 1 without
    only_old = make_run(tmp_path / "20260103T000000Z-still", [bug("%Nd"), known_bug()])
    rep, _ = report_of(only_old, "--baseline", old, code=0)
    assert rep["summary"]["verdict"] == "pass" and rep["summary"]["bugs"] == 1 and rep["summary"]["new"] == 0
    junit = ET.parse(only_old / "junit.xml").getroot()
    assert [c.find("skipped") is not None for c in junit.iter("testcase")] == [True]
    report_of(only_old, code=1)
    # a new known bug is still no failure
    kb_new = make_run(tmp_path / "20260104T000000Z-kb", [known_bug("other-bug")])
    rep, _ = report_of(kb_new, "--baseline", old, code=0)
    assert rep["baseline"]["new"] == ["differential:other-bug:glibc~musl:known-bug"]


def test_baseline_must_be_a_run_directory(tmp_path):
    d = make_run(tmp_path / "20260101T000000Z-fuzz", [bug("%Nd")])
    p = run_scnfuzz("report", d, "--baseline", tmp_path / "nothing", timeout=120)
    assert p.returncode == 2 and "--baseline" in p.stderr
    p = run_scnfuzz("report", d, "--no-minimize", timeout=120)  # the reducer's flags are gone
    assert p.returncode == 2


def _long_bytes(seed, n=4096):
    """The hex digits from the (seed * 7 % 16)-th on, round and round, n of them, quoted."""
    digits = "0123456789abcdef"
    start = seed * 7 % 16
    body = ((digits[start:] + digits[:start]) * (n // 16 + 1))[:n]
    return '"' + body + '"'


@pytest.mark.parametrize("signatures", [50, 5000])
def test_thousands_of_long_lines_make_a_small_report_quickly(tmp_path, signatures):
    lines = []
    for i in range(5000):
        k = i % signatures
        b = _long_bytes(k)
        outs = {"glibc": {"ret": 4096, "bytes": b}, "musl": {"ret": 4096, "bytes": b[:2000] + "Z" + b[2001:]}}
        lines.append(bug(f"shape{k}", case=f'"%{k}d" int:{i}', outputs=outs) if k % 3 else
                     allowed(f"allow{k}", outputs=outs))
    d = make_run(tmp_path / "20260101T000000Z-fuzz", lines)
    t0 = time.monotonic()
    rep, p = report_of(d, code=1)
    took = time.monotonic() - t0
    assert rep["summary"]["raw_findings"] == 5000 and rep["summary"]["root_causes"] == signatures
    size = (d / "report.html").stat().st_size
    assert size < 1_000_000, size
    assert (d / "report.md").stat().st_size < 1_000_000
    # a quadratic report would take minutes; the slack is for a 2-core box running builds beside it
    assert took < 90, f"report of 5,000 lines took {took:.1f}s"
    page = (d / "report.html").read_text()
    assert "4,098 chars" in page  # long outputs are clipped, with their length
    if signatures == 5000:
        assert "more: see report.json" in page


def test_highlighting_is_linear_on_a_200kb_pair():
    a = "x" * 100_000 + "A" + "y" * 100_000
    b = "x" * 100_000 + "BB" + "y" * 100_000
    t0 = time.monotonic()
    assert render_common.diff_span(a, b) == (100_000, 100_000)
    out = render_html.bytes_html(b, a)
    assert time.monotonic() - t0 < 3  # an edit-distance diff takes minutes on this
    assert "<mark>BB</mark>" in out and "200,002 chars" in out and len(out) < 3000
    # a deletion is shown as a caret where the bytes are missing
    assert 'class="gap"' in render_html.bytes_html("ab", "aXb")


def test_junit_cases_do_not_depend_on_allowed_differences(tmp_path):
    base = [bug("%Nd"), bug("%s", case='"%s" str:"a"'), known_bug()]
    d1 = make_run(tmp_path / "20260101T000000Z-a", base + [allowed()])
    d2 = make_run(tmp_path / "20260101T000000Z-b", base * 3 + [allowed(f"a{i}") for i in range(9)])
    report_of(d1, code=1)
    report_of(d2, code=1)
    j1, j2 = (ET.parse(d / "junit.xml").getroot() for d in (d1, d2))
    names = [sorted(c.get("name") for c in j.iter("testcase")) for j in (j1, j2)]
    assert names[0] == names[1] and len(names[0]) == 2
    for j in (j1, j2):
        suite = j.find("testsuite[@name='root-causes']")
        assert suite.get("timestamp") == "2026-01-01T00:00:00" and float(suite.get("time")) == 2.5
        assert j.get("tests") == "2" and j.get("failures") == "2"
        assert all(c.get("time") is not None for c in j.iter("testcase"))


def _result(case, status, category="int.d", rule_kind=None, finding=None):
    r = {"target": "ref", "category": category, "case": case, "kind": "std", "status": status,
         "oracle": None if status == "pass" else "expect.bytes", "file": "corpus/int.tsv", "line": 3,
         "citation": "C17 7.21.6.1p8 (d)"}
    if rule_kind:
        r["rule_kind"] = rule_kind
    if finding:
        r["finding"] = finding
    return r


def _conf_record(what, klass, case, rule=None):
    return record(what, klass, case, targets=("ref",), rule=rule, oracle="expect.bytes", source="conform",
                  category="int.d", where="corpus/int.tsv:3", citation="C17 7.21.6.1p8 (d)",
                  outputs={"ref": {"ret": 3, "bytes": '"  5"'}, "expected": {"ret": 1, "bytes": '"5"'}})


def test_conformance_known_failures_do_not_fail_the_run(tmp_path):
    kb = _conf_record("ref-width", "known-bug", '"%3d" int:5', rule=("ref-width", "known-bug", "issue #7"))
    lines = [_result('"%d" int:5', "pass")] + [_result(f'"%3d" int:{i}', "fail", rule_kind="known-bug")
                                               for i in range(4)]
    d = make_run(tmp_path / "20260101T000000Z-conform", [kb] * 4, conform_lines=lines, kind="conform")
    rep, _ = report_of(d, code=0)
    cell = rep["matrix"]["rows"][0]["cells"]["ref"]
    assert cell == {"pass": 1, "fail": 4, "error": 0, "impl_differs": 0, "known": 4}
    s = rep["summary"]
    assert (s["conformance_failures"], s["conformance_known"], s["verdict"]) == (0, 4, "pass")
    [f] = rep["findings"]
    assert f["count"] == 4 and f["classification"] == "known-bug"
    assert "4 cases" in (d / "report.md").read_text()  # a conformance root cause counts the cases it explains
    assert f["reproduce"] == "./scnfuzz conform --corpus corpus/int.tsv:3 --target ref", f["reproduce"]
    assert 'class="known num"' in (d / "report.html").read_text()
    junit = ET.parse(d / "junit.xml").getroot()
    cases = list(junit.iter("testcase"))
    assert len(cases) == 1 and cases[0].find("failure") is None and cases[0].find("system-out") is not None


def test_conformance_failure_without_a_rule_fails(tmp_path):
    rec = _conf_record("%Nd", "conformance", '"%3d" int:5')
    lines = [_result('"%3d" int:5', "fail"), _result('"%3d" int:6', "fail")]
    d = make_run(tmp_path / "20260101T000000Z-conform", [rec, rec], conform_lines=lines, kind="conform")
    rep, _ = report_of(d, code=1)
    assert rep["summary"]["conformance_failures"] == 2 and rep["findings"][0]["count"] == 2
    junit = ET.parse(d / "junit.xml").getroot()
    failed = sorted(c.get("name") for c in junit.iter("testcase") if c.find("failure") is not None)
    assert failed == ["expect.bytes:%Nd:ref:conformance", "int.d"]


def test_finding_record_of_scn_conform_lines():
    rec = _conf_record("%Nd", "conformance", '"%3d" int:5')
    assert conform.finding_record(_result('"%3d" int:5', "fail", finding=rec)) is rec
    assert conform.finding_record(rec) is rec  # a record on its own line
    assert conform.finding_record(_result('"%d" int:5', "pass")) is None
    assert conform.finding_record(_result('"%3d" int:5', "fail")) is None  # no record: nothing made up here
    assert conform.finding_record({"summary": {"cases": 1}}) is None


FAKE_CONFORM = r'''#!/usr/bin/python3
import json, sys
if "--list-targets" in sys.argv:
    print("ref\tiso\tscnfuzz ref\tnative\tin-process")
    sys.exit(0)
rec = json.loads(%r)
res = lambda st, **kw: dict({"target": "ref", "category": "int.d", "case": '"%%3d" int:5', "kind": "std",
                             "status": st, "file": "corpus/int.tsv", "line": 3, "citation": "C17"}, **kw)
print(json.dumps(res("pass", oracle=None)))
print(json.dumps(res("fail", oracle="expect.bytes", finding=rec)))
print(json.dumps(res("fail", oracle="expect.bytes", rule_kind="known-bug")))
print(json.dumps(dict(rec, signature="expect.bytes:kb:ref:known-bug", classification="known-bug")))
print(json.dumps({"summary": {"cases": 3, "results": 3, "pass": 1, "fail": 2, "error": 0, "skipped": 0}}))
'''


def test_conform_copies_scn_conforms_records(tmp_path):
    rec = _conf_record("%Nd", "conformance", '"%3d" int:5')
    fake = tmp_path / "fakebuild" / "programs"
    fake.mkdir(parents=True)
    (fake / "scn-conform").write_text(FAKE_CONFORM % json.dumps(rec))
    (fake / "scn-conform").chmod(0o755)
    tsv = tmp_path / "one.tsv"
    tsv.write_text('int.d\t"%3d" int:5\t"5"\t"5"\tstd\tC17\n')
    d = track(tmp_path / "20260101T000000Z-conform")
    p = run_scnfuzz("conform", "--target", "ref", "--corpus", tsv, "--out", d,
                    env=scnfuzz_env(SCN_BUILD_DIR=str(tmp_path / "fakebuild")), timeout=120)
    assert p.returncode == 1, p.stderr
    raw = [json.loads(x) for x in (d / "findings.jsonl").read_text().splitlines()]
    assert raw == [rec, dict(rec, signature="expect.bytes:kb:ref:known-bug", classification="known-bug")]
    rep = load_report(d)
    assert rep["matrix"]["totals"]["ref"] == {"pass": 1, "fail": 2, "error": 0, "impl_differs": 0, "known": 1}
    assert rep["summary"]["conformance_failures"] == 1 and rep["summary"]["known_bugs"] == 1


def test_slow_steps_say_what_they_do(tmp_path, capsys, monkeypatch):
    d = make_run(tmp_path / "20260101T000000Z-fuzz", [bug("%Nd")] * 3)
    monkeypatch.setattr(progress, "SLOW_STEP_S", 0)
    report.build_report(runs.Run.open(d))
    err = capsys.readouterr().err
    assert "report: reading 3 finding lines" in err and "report: writing report.html" in err
    monkeypatch.setattr(progress, "SLOW_STEP_S", 1.0)
    report.build_report(runs.Run.open(d))
    assert capsys.readouterr().err == ""  # quick steps stay quiet
    assert os.path.getsize(d / "report.json") > 0


def test_campaign_tally_reads_only_what_was_added(tmp_path):
    f = tmp_path / "findings.jsonl"
    f.write_text(json.dumps(bug("%Nd")) + "\n")  # an earlier part's line: not counted
    tally = runs.FindingTally(f)
    with open(f, "a") as w:
        w.write(json.dumps(bug("%Nd")) + "\n" + json.dumps(allowed()) + "\n" + '{"oracle":"torn')
    tally.update()
    assert tally.lines == 2 and len(tally.sigs) == 2
    with open(f, "a") as w:  # the torn line completed
        w.write('"}\n')
    tally.update()
    assert tally.lines == 3


def test_conformance_of_glibc_and_musl_is_known_root_causes(tmp_path):
    """The real libcs' conformance failures are a handful of root causes, all
    known (oracles/known_bugs.tsv): the run passes, and each appears once with
    the number of cases it explains."""
    out = tmp_path / "run"
    p = subprocess.run([str(REPO / "scnfuzz"), "conform", "--target", "glibc", "--target", "musl", "--out", str(out)],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    rep = json.loads((out / "report.json").read_text())
    s = rep["summary"]
    assert s["new"] == 0 and s["conformance_failures"] == 0 and s["conformance_known"] > 1000, s
    conf = [f for f in rep["findings"] if f["signature"].startswith("expect.")]
    sigs = [f["signature"] for f in conf]
    assert len(sigs) == len(set(sigs)) and 1 <= len(sigs) <= 8, sigs
    assert sum(f["count"] for f in conf) == s["conformance_known"], (sum(f["count"] for f in conf), s)
    assert all(f["classification"] in ("known-bug", "known-gap") and f["rule"]["citation"] for f in conf), conf[:1]
