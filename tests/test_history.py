"""bench/history/: real upstream printf fixes, reversed (bench/history/README.md).

Every .diff names its fix (a 40-hex commit, its subject, author, date and
link), the behaviour it brings back, the standard's words that behaviour
breaks and a case showing it (a valid case text); it changes exactly the
file its header names, and it applies with `patch -p1` to the target's
source as this build fetched it (a dry run on a copy of the files it
touches: the fetched tree is never modified). A target whose source the
build did not fetch is skipped, saying so. bench/history.py's summary of a
bug's runs is checked on run records of each kind.

Run: SCN_BUILD_DIR=$PWD/build/asan /usr/bin/python3 -m pytest -q tests/test_history.py
"""
import importlib.util
import json
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import REPO, build_dir
from scnfuzz.casetext import Case  # noqa: E402  (conftest's plugin_findings puts runner on sys.path)

spec = importlib.util.spec_from_file_location("history", REPO / "bench" / "history.py")
history = importlib.util.module_from_spec(spec)
spec.loader.exec_module(history)

DIFFS = sorted((REPO / "bench" / "history").glob("*.diff"))
TARGETS = {"musl", "kernel", "newlib", "uclibc", "picolibc"}


def changed_files(diff):
    return [line[6:].split("\t")[0] for line in diff.read_text().splitlines() if line.startswith("+++ b/")]


def test_at_least_twelve_bugs_over_the_fetched_targets():
    assert len(DIFFS) >= 12
    targets = {history.header(d)["target"] for d in DIFFS}
    assert targets <= TARGETS
    assert {"musl", "kernel"} <= targets


@pytest.mark.parametrize("diff", DIFFS, ids=lambda p: p.stem)
def test_header_cites_the_fix_and_the_case(diff):
    h = history.header(diff)
    missing = [f for f in history.FIELDS if not h.get(f)]
    assert not missing, f"{diff.name}: header fields missing: {missing}"
    assert h["id"] == diff.stem
    assert h["target"] in TARGETS
    assert re.fullmatch(r"[0-9a-f]{40}", h["fix"]), h["fix"]
    assert h["fix"] in h["link"] and h["link"].startswith("https://")
    assert re.search(r"\b(19|20)\d\d\b", h["date"]), h["date"]
    assert re.search(r"C17|POSIX|printk-formats", h["standard"]), h["standard"]
    assert changed_files(diff) == [h["file"]], f"{diff.name} changes {changed_files(diff)}, its header says {h['file']}"
    # the case is one of the case text form (docs/CASE_FORMAT.md): it parses and prints back
    assert Case.parse(h["case"]).text().split(" @")[0]


@pytest.mark.parametrize("diff", DIFFS, ids=lambda p: p.stem)
def test_applies_to_the_fetched_source(diff, tmp_path):
    h = history.header(diff)
    root = history.source_root(build_dir(), h["target"])
    if root is None:
        pytest.skip(f"{build_dir()} has no fetched {h['target']} source (built with SCN_WITH_"
                    f"{h['target'].upper()}=OFF, or its package is missing)")
    for rel in changed_files(diff):
        src = root / rel
        assert src.is_file(), f"{diff.name}: {rel} is not in the fetched {h['target']} source {root}"
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, tmp_path / rel)
    r = subprocess.run(["patch", "-p1", "--dry-run", "--batch", "--forward", "-d", str(tmp_path), "-i", str(diff)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 0, f"{diff.name} does not apply to {root}:\n{r.stdout}"
    assert "offset" not in r.stdout and "fuzz" not in r.stdout, f"{diff.name} applies only loosely:\n{r.stdout}"


def test_source_root_of_a_build_without_sources(tmp_path):
    for t in TARGETS:
        assert history.source_root(tmp_path, t) is None


def test_header_continuation_lines(tmp_path):
    p = tmp_path / "x.diff"
    p.write_text("# id: x\n# bug: one\n#   two\n# case: \"%d\" int:1\n--- a/f\n+++ b/f\n# id: not a header\n")
    h = history.header(p)
    assert h == {"id": "x", "bug": "one two", "case": '"%d" int:1'}


def test_summary_of_runs():
    runs = [
        {"found": True, "stage": "fuzz", "seconds": 30.0, "executions": 3000, "signature": "differential:a",
         "where": "campaign", "case": '"%d" int:1'},
        {"found": True, "stage": "conform", "seconds": 1.0, "executions": 10, "signature": "differential:b"},
        {"found": True, "stage": "fuzz", "seconds": 10.0, "executions": 1000, "signature": "differential:a"},
        {"found": False, "stage": None, "seconds": 60.0, "executions": 9000, "signature": None},
        {"error": "does not apply", "detail": "hunk 1 FAILED"},
    ]
    s = history.summarise(runs)
    assert (s["runs"], s["found"], s["stage"]) == (5, 3, "fuzz")
    assert s["median_seconds"] == 10.0 and s["median_executions"] == 1000
    assert s["signatures"] == ["differential:a", "differential:b"]
    assert s["errors"] == ["does not apply"]
    assert s["found_by"] == ['campaign: "%d" int:1']
    none = history.summarise([{"found": False, "stage": None, "seconds": 5.0, "executions": 7, "signature": None}])
    assert (none["found"], none["stage"], none["median_seconds"]) == (0, None, None)
    row = history.table_rows([({"id": "x", "target": "musl", "fix": "0" * 40}, s)])[-1]
    assert row.startswith("| `x` | musl | 000000000000 | 3/5 (does not apply) | fuzz |")


def test_where_a_run_found_it(tmp_path):
    outcome = {"status": "killed", "where": "corpus/int.tsv:7", "case": '"%#o" int:0', "seconds": 0.1}
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "report.json").write_text(json.dumps({"outcome": outcome}))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "report.json").write_text(json.dumps({"outcome": repr(outcome)}))
    want = {"where": "corpus/int.tsv:7", "case": '"%#o" int:0'}
    assert history.finding_case(tmp_path / "a") == want
    assert history.finding_case(tmp_path / "b") == want
    assert history.finding_case(tmp_path / "none") == {}


def test_the_json_line_is_the_last_one():
    out = 'found by conform: x\nreport: r/report.md\n{"found": true, "stage": "conform", "seconds": 0.5, ' \
          '"executions": 678, "signature": "s"}\n'
    assert history.last_json(out)["executions"] == 678
    assert history.last_json("not found\n") is None


def test_the_index_lists_every_bug():
    index = (REPO / "bench" / "history" / "README.md").read_text()
    for d in DIFFS:
        assert f"[`{d.stem}`]({d.name})" in index, f"bench/history/README.md does not list {d.name}"


def test_results_of_other_bugs_are_kept(tmp_path):
    rec = {"header": {"id": "a"}, "runs": [], "summary": history.summarise([])}
    (tmp_path / "history.json").write_text(json.dumps(
        {"started": "2026-01-01 00:00", "time": 60.0, "bugs": {"a": rec, "b": rec, "gone": rec}}))
    kept = history.previous_results(tmp_path / "history.json", {"a", "c"})
    assert list(kept) == ["a"] and kept["a"]["measured"] == "2026-01-01 00:00" and kept["a"]["time"] == 60.0
    assert history.previous_results(tmp_path / "missing.json", {"a"}) == {}


def test_markdown_gives_the_reason_of_a_miss():
    h = {"id": "x", "target": "musl", "file": "f.c", "fix": "1" * 40, "bug": "b", "subject": "s", "date": "2011",
         "case": '"%d" int:1', "note": "an allowance explains it"}
    miss = history.summarise([{"found": False, "stage": None, "seconds": 9.0, "executions": 5, "signature": None}])
    md = history.markdown([(h, miss, {"measured": "2026-01-01 00:00", "time": 10.0})], "bench/history.py --runs 1",
                          "2026-01-01 00:00", 60)
    assert "| `x` | musl | 111111111111 | 0/1 | - | - | - |" in md
    assert "not found in 4 of the runs: an allowance explains it" in md
    assert "0 of 1 bugs found in at least 4 of 1 runs" in md


def test_a_diff_that_does_not_apply_is_told_from_a_setup_error():
    assert history.NOT_APPLIED.search("scnfuzz: --patch /x/a.diff does not apply at /b/musl-1.2.3 (patch -p1): "
                                      "hunk 1 FAILED")
    assert not history.NOT_APPLIED.search("scnfuzz: the mutation build of musl failed (log: build.log)")


def test_render_rewrites_the_table_from_the_json(tmp_path):
    h = history.header(DIFFS[0])
    rec = {"runs": [], "summary": history.summarise(
        [{"found": True, "stage": "conform", "seconds": 2.0, "executions": 9, "signature": "s"}])}
    (tmp_path / "history.json").write_text(json.dumps(
        {"command": ["bench/history.py", "--runs", "1"], "started": "2026-01-01 00:00", "time": 60.0,
         "bugs": {h["id"]: rec, "no-such-bug": rec}}))
    rows = history.render(tmp_path, {h["id"]: h})
    assert [r[0]["id"] for r in rows] == [h["id"]]
    md = (tmp_path / "history.md").read_text()
    assert f"| `{h['id']}` | {h['target']} | {h['fix'][:12]} | 1/1 | conform | 2.0 | 9 |" in md
    assert "`/usr/bin/python3 bench/history.py --runs 1`" in md


def test_a_campaign_find_counts_only_when_the_unmodified_target_differs():
    said = {"found": True, "stage": "fuzz", "seconds": 3.0, "executions": 9, "signature": "s", "out": "/nonexistent"}
    r = history.confirmed(dict(said), "musl", build_dir())
    assert r["confirmed"] is None and r["found"] is False and "recorded no case" in r["unchecked"]
    assert r["mutate"] == {"found": True, "stage": "fuzz", "signature": "s"}
    conform = history.confirmed({"found": True, "stage": "conform", "signature": "c"}, "musl", build_dir())
    assert conform["found"] is True and "confirmed" not in conform
    assert history.verdict({"oracle": "hang", "case": '"%d" int:1'}, "musl", build_dir())[0] is None
    assert history.verdict({"oracle": "differential", "case": '"%Lf" ldouble:0x8p-3'}, "picolibc", build_dir())[0] \
        is None


def test_the_unmodified_target_is_replayed():
    if history.source_root(build_dir(), "musl") is None:
        pytest.skip(f"{build_dir()} has no musl target")
    same = {"oracle": "differential", "case": '"%#o" int:0', "targets": ["musl", "ref"],
            "outputs": {"musl": {"ret": 1, "bytes": '"0"'}}}
    assert history.verdict(same, "musl", build_dir()) == (False, 'the unmodified musl prints the same (ret 1, "0")')
    other = dict(same, outputs={"musl": {"ret": 2, "bytes": '"00"'}})
    assert history.verdict(other, "musl", build_dir()) == (True, "")
    crash = {"oracle": "crash", "case": '"%#o" int:0', "targets": ["musl"]}
    assert history.verdict(crash, "musl", build_dir()) == (True, "")
