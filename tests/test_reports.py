"""Reports of scnfuzz runs: `./scnfuzz conform --target ref` end to end (report.json
valid against the documented schema, the matrix has the corpus categories,
report.html rendered by headless Chromium shows the matrix table, junit.xml),
and `./scnfuzz report DIR` rebuilding from raw finding records: one entry per
signature (root cause) with the first line's reduced case, rule citations, exit
status; a conformance failure end to end (scn-conform's own finding record).
More on root causes, known bugs, baselines and report size:
tests/test_rootcause_report.py.

Run: /usr/bin/python3 -m pytest -q tests/test_reports.py
"""
import html.parser
import json
import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

from plugin_findings import REPO, corpus_categories, load_report, run_scnfuzz, track


@pytest.fixture(scope="module")
def conform_ref(tmp_path_factory):
    d = track(tmp_path_factory.mktemp("conform") / "20260101T000000Z-conform")
    p = run_scnfuzz("conform", "--target", "ref", "--out", d, timeout=1200)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    return d, p


def test_conform_ref_report_is_valid_and_complete(conform_ref):
    d, p = conform_ref
    rep = load_report(d)
    assert rep["schema_version"] == 2
    assert [t["name"] for t in rep["targets"]] == ["ref"]
    assert rep["targets"][0]["dialect"] == "iso" and rep["targets"][0]["version"]
    assert rep["cases_run"] > 1000 and rep["executions"] > 1000
    summary = json.loads((d / "conform.jsonl").read_text().splitlines()[-1])["summary"]
    assert rep["cases_run"] == summary["cases"]
    tot = rep["matrix"]["totals"]["ref"]
    assert tot["pass"] == summary["pass"] and tot["fail"] == summary["fail"]
    # exit status follows the verdict
    assert p.returncode == (1 if rep["summary"]["verdict"] == "fail" else 0)
    assert (rep["summary"]["conformance_failures"] == 0) == (p.returncode == 0)


def test_matrix_has_every_category(conform_ref):
    d, _ = conform_ref
    rep = load_report(d)
    cats = {r["category"] for r in rep["matrix"]["rows"]}
    assert cats == corpus_categories("iso")
    for row in rep["matrix"]["rows"]:
        c = row["cells"]["ref"]
        assert c["pass"] + c["fail"] + c["error"] > 0


def test_conform_failures_are_findings(conform_ref):
    d, _ = conform_ref
    rep = load_report(d)
    tot = rep["matrix"]["totals"]["ref"]
    conf = [f for f in rep["findings"] if f["source"] == "conform"]
    # scn-conform writes one record per failing result: a root cause counts the cases it explains
    assert sum(f["count"] for f in conf) == tot["fail"] + tot["error"]
    assert sum(f["count"] for f in conf if not f["bug"]) == tot["known"]
    assert rep["summary"]["conformance_failures"] == tot["fail"] + tot["error"] - tot["known"]
    for f in conf:
        assert f["targets"] == ["ref"] and f["reproduce"].startswith("./scnfuzz replay '")


class _Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_matrix = 0
        self.rows, self.cur, self.cell_classes, self.external = [], None, [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "matrix":
            self.in_matrix = 1
        if self.in_matrix and tag == "tr":
            self.cur = []
        if self.in_matrix and tag in ("td", "th") and self.cur is not None:
            self.cur.append("")
            if tag == "td":
                self.cell_classes.append(a.get("class", ""))
        for k in ("src", "href"):
            if a.get(k) and not a[k].startswith("#"):
                self.external.append(a[k])

    def handle_endtag(self, tag):
        if tag == "table" and self.in_matrix:
            self.in_matrix = 0
        if self.in_matrix and tag == "tr" and self.cur is not None:
            self.rows.append(self.cur)
            self.cur = None

    def handle_data(self, data):
        if self.in_matrix and self.cur:
            self.cur[-1] += data


def _chromium_dom(path):
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(exe):
        pytest.fail("chromium not installed: run `bash ci/setup.sh`", pytrace=False)
    prof = tempfile.mkdtemp(prefix="scn-chromium-")
    try:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={prof}", "--dump-dom", f"file://{path}"],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(prof, ignore_errors=True)
    assert p.returncode == 0, p.stderr[-1000:]
    return p.stdout


def test_html_report_in_chromium_shows_the_matrix(conform_ref):
    d, _ = conform_ref
    rep = load_report(d)
    dom = _chromium_dom(d / "report.html")
    t = _Tables()
    t.feed(dom)
    assert t.rows, "no table#matrix in the rendered DOM"
    assert t.rows[0][0] == "category" and t.rows[0][1:] == ["ref"]
    cats = [r[0] for r in t.rows[1:-1]]
    assert cats == [r["category"] for r in rep["matrix"]["rows"]]
    assert t.rows[-1][0] == "total"
    tot = rep["matrix"]["totals"]["ref"]
    assert t.rows[-1][1] == f"{tot['pass']}/{tot['pass'] + tot['fail'] + tot['error']}"
    assert set(t.cell_classes) <= {"ok num", "bad num", "known num", "na"} and "ok num" in t.cell_classes
    assert ("bad num" in t.cell_classes) == bool(tot["fail"] + tot["error"] - tot["known"])
    assert not t.external, t.external  # self-contained
    # the root causes come before the matrix
    for anchor in ('id="new"', 'id="known"', 'id="allowed"'):
        assert dom.find(anchor) < dom.index('id="matrix"')


def test_markdown_and_junit(conform_ref):
    d, _ = conform_ref
    rep = load_report(d)
    md = (d / "report.md").read_text()
    assert "| category | ref |" in md
    assert md.find("## Bug root causes") < md.index("## Conformance matrix")
    root = ET.parse(d / "junit.xml").getroot()
    suite = root.find("testsuite[@name='conformance']")
    assert suite.get("timestamp") and float(suite.get("time")) > 0
    cases = suite.findall("testcase")
    assert len(cases) == len(rep["matrix"]["rows"])
    failed = [c for c in cases if c.find("failure") is not None]
    cells = [r["cells"]["ref"] for r in rep["matrix"]["rows"]]
    assert len(failed) == sum(1 for c in cells if c["fail"] + c["error"] - c["known"])
    bugs = root.find("testsuite[@name='root-causes']").findall("testcase")
    assert len(bugs) == rep["summary"]["bugs"]


# reports/latest: moved by a run without --out; no other such test at the same time
@pytest.mark.xdist_group("reports-latest")
def test_latest_symlink_points_at_default_runs(tmp_path):
    # a run under reports/ moves reports/latest; --out elsewhere leaves it alone
    latest = REPO / "reports" / "latest"
    before = os.readlink(latest) if latest.is_symlink() else None
    d = track(tmp_path / "elsewhere")
    d.mkdir()
    (d / "findings.jsonl").write_text("")
    p = run_scnfuzz("report", d, timeout=120)
    assert p.returncode == 0, p.stderr
    assert (os.readlink(latest) if latest.is_symlink() else None) == before


# ---- rebuilding from raw finding records (docs/FINDINGS.md)

P_SPELLING = ("C17 7.21.6.1p8 (p): the pointer value \"is converted to a sequence of printing characters, "
              "in an implementation-defined manner\"")


def _fake_run(d, lines):
    d.mkdir(parents=True)
    (d / "findings.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines) + '{"oracle":"torn li')
    (d / "run.json").write_text(json.dumps({"run_schema": 1, "kind": "fuzz", "started": "2026-01-01T00:00:00Z",
                                            "command": ["./scnfuzz", "fuzz"], "parts": [
                                                {"kind": "fuzz", "status": "interrupted", "fuzzer": "fuzz_iso_diff",
                                                 "targets": [{"name": "glibc", "version": "glibc", "dialect": "iso"},
                                                             {"name": "musl", "version": "musl", "dialect": "iso"}],
                                                 "executions": 1234, "duration_s": 3.5}]}))


def _impl(original, musl='"0"'):
    """An allowed %p difference as fuzz_iso_diff records it: reduced to "%p" ptr:NULL."""
    return {"oracle": "differential", "classification": "implementation-defined",
            "signature": "differential:p-spelling:glibc~musl:implementation-defined", "shape": "%p",
            "case": '"%p" ptr:NULL', "original_case": original, "reduced": original != '"%p" ptr:NULL',
            "dialect": "iso", "targets": ["glibc", "musl"], "detail": "bytes differ in %p: allowed by p-spelling",
            "rule": {"id": "p-spelling", "kind": "allowance", "citation": P_SPELLING}, "source": "fuzz",
            "program": "fuzz_iso_diff",
            "outputs": {"glibc": {"ret": 5, "bytes": '"(nil)"'}, "musl": {"ret": len(musl) - 2, "bytes": musl}}}


def test_report_groups_by_signature_and_cites_the_rule(tmp_path):
    d = track(tmp_path / "20260101T000000Z-fuzz")
    _fake_run(d, [_impl('"ab%pcd" ptr:NULL @3'), _impl('"%-3p|" ptr:NULL', '"0  "'), _impl('"x%p" ptr:NULL @1')])
    p = run_scnfuzz("report", d, timeout=120)
    assert p.returncode == 0, p.stderr  # implementation-defined only: no bug
    rep = load_report(d)
    assert rep["summary"]["raw_findings"] == 3 and rep["summary"]["root_causes"] == 1
    f = rep["findings"][0]
    assert f["count"] == 3 and not f["bug"]
    # the first line represents the root cause: its reduced case, what it was found as, its outputs
    assert f["case"] == '"%p" ptr:NULL' and f["original_case"] == '"ab%pcd" ptr:NULL @3' and f["reduced"]
    assert f["outputs"]["musl"]["bytes"] == '"0"'
    assert f["rule"] == {"id": "p-spelling", "kind": "allowance", "citation": P_SPELLING}
    assert f["reproduce"] == "./scnfuzz replay '\"%p\" ptr:NULL' --target glibc --target musl"
    assert rep["executions"] == 1234
    page = (d / "report.html").read_text()
    assert "p-spelling" in page and "./scnfuzz replay" in page


def test_report_fails_on_a_divergence_worst_first(tmp_path):
    d = track(tmp_path / "20260101T000000Z-fuzz")
    div = {"oracle": "differential", "classification": "divergence", "case": '"%+5d" int:1',
           "original_case": '"q%+5d" int:1', "reduced": True, "shape": "%+Nd",
           "signature": "differential:%+Nd:glibc~musl:divergence", "targets": ["glibc", "musl"],
           "outputs": {"glibc": {"ret": 5, "bytes": '"   +1"'}, "musl": {"ret": 5, "bytes": '"  +1 "'}}}
    _fake_run(d, [_impl('"abc%-3p|%d xyz" ptr:NULL int:77 @2'), div, div])
    p = run_scnfuzz("report", d, timeout=120)
    assert p.returncode == 1, p.stderr  # a divergence is a bug root cause
    rep = load_report(d)
    assert [f["classification"] for f in rep["findings"]] == ["divergence", "implementation-defined"]
    f = rep["findings"][0]
    assert f["bug"] and f["count"] == 2 and f["case"] == '"%+5d" int:1' and f["shape"] == "%+Nd"
    assert rep["summary"]["new"] == rep["summary"]["bugs"] == 1 and rep["summary"]["verdict"] == "fail"
    page = (d / "report.html").read_text()
    assert "<mark>" in page  # the differing bytes are highlighted
    assert not (d / "minimized.json").exists()  # no reducer in Python any more


# ---- a conformance failure end to end (a corpus file with a wrong expectation)

BAD_TSV = ('int.d\t"%d" int:5\t"5"\t"5"\tstd\tC17 7.21.6.1p8 (d)\n'
           'int.d\t"%3d" int:5\t"5"\t"  5"\tstd\tdeliberately wrong ISO expectation\n'
           'str.s\t"%s" str:"a"\t"a"\t"a"\tstd\tC17 7.21.6.1p8 (s)\n')


def test_conformance_failure_is_reported(tmp_path):
    tsv = tmp_path / "bad.tsv"
    tsv.write_text(BAD_TSV)
    d = track(tmp_path / "20260101T000000Z-conform")
    p = run_scnfuzz("conform", "--target", "ref", "--corpus", tsv, "--out", d, timeout=900)
    assert p.returncode == 1, p.stderr
    rep = load_report(d)
    rows = {r["category"]: r["cells"]["ref"] for r in rep["matrix"]["rows"]}
    assert rows == {"int.d": {"pass": 1, "fail": 1, "error": 0, "impl_differs": 0, "known": 0},
                    "str.s": {"pass": 1, "fail": 0, "error": 0, "impl_differs": 0, "known": 0}}
    # scn-conform's own finding record (reduced and signed in C), copied as is
    [raw] = [json.loads(l) for l in (d / "findings.jsonl").read_text().splitlines()]
    [f] = rep["findings"]
    assert f["signature"] == raw["signature"] and f["signature"].endswith(":ref:conformance")
    assert f["source"] == "conform" and f["classification"] == "conformance" and f["bug"] and f["count"] == 1
    assert f["oracle"].startswith("expect.") and f["original_case"] == '"%3d" int:5' and f["category"] == "int.d"
    assert f["outputs"]["expected"]["bytes"] == '"5"' and "ref" in f["outputs"]
    assert f["citation"] == "deliberately wrong ISO expectation"
    # its reproduce line reruns its corpus line against the line's expectation
    assert f["reproduce"] == f"./scnfuzz conform --corpus {tsv}:2 --target ref", f["reproduce"]
    assert rep["summary"]["verdict"] == "fail" and rep["summary"]["conformance_failures"] == 1
    page = (d / "report.html").read_text()
    assert 'class="bad num"' in page and 'class="ok num"' in page
    junit = ET.parse(d / "junit.xml").getroot()
    failed = [c.get("name") for c in junit.iter("testcase") if c.find("failure") is not None]
    assert failed == ["int.d", f["signature"]]
    assert f["case"] in junit.find(".//failure").text


def test_malformed_corpus_is_a_one_line_error(tmp_path):
    tsv = tmp_path / "malformed.tsv"
    tsv.write_text('int.d\t"%d int:5\t"5"\n')
    p = run_scnfuzz("conform", "--target", "ref", "--corpus", tsv, "--out", tmp_path / "r", timeout=900)
    assert p.returncode == 2
    lines = [l for l in p.stderr.splitlines() if l.strip() and "building" not in l]
    assert len(lines) == 1 and f"{tsv}:1" in lines[0], p.stderr
