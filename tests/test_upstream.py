"""`./scnfuzz upstream` and docs/UPSTREAM.md (runner/scnfuzz/upstream.py).

- docs/UPSTREAM.md is what `upstream --list` makes from oracles/known_bugs.tsv
  now: every bug row (and no gap) with its state
- the glibc, Linux tools and picolibc rows have a draft with the cause (a
  file and line of the fetched source) and a proposed fix (a diff)
- `upstream ROW --out DIR` writes report.md and reproducer.c: the standard's
  words, the build line, the run on this machine (exit 1: the bug is there),
  the draft's cause; the reproducer.c it writes fails again when compiled
  by hand
- a gap, an unknown row, a target the row does not list: usage errors (2)
"""
import re
import subprocess
import sys

import pytest

from conftest import REPO, build_dir

sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import upstream  # noqa: E402

SCNFUZZ = [sys.executable, str(REPO / "scnfuzz")]


def scnfuzz(*args):
    import os
    env = {**os.environ, "SCN_BUILD_DIR": str(build_dir())}
    return subprocess.run([*SCNFUZZ, *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)


def test_upstream_md_is_current_and_covers_every_bug_row():
    doc = (REPO / "docs" / "UPSTREAM.md").read_text(encoding="utf-8")
    assert doc == upstream.list_markdown(), "docs/UPSTREAM.md is stale: ./scnfuzz upstream --list --markdown docs/UPSTREAM.md"
    rows = upstream.read_rows()
    listed = set(re.findall(r"^\| `([^`]+)` \|", doc, re.M))
    bugs = {r.id for r in rows if r.kind == "bug"}
    gaps = {r.id for r in rows if r.kind == "gap"}
    assert bugs and listed == bugs
    assert not listed & gaps
    for r in rows:
        if r.kind == "bug":
            st, _ = upstream.state(r)
            assert re.search(rf"^\| `{re.escape(r.id)}` \|.*\| {st} \|", doc, re.M), r.id


@pytest.mark.parametrize("impl", ["glibc", "linux-tools", "picolibc"])
def test_drafts_name_the_cause_and_a_fix(impl):
    rows = [r for r in upstream.bug_rows() if impl in r.targets[:1]]
    assert rows
    for r in rows:
        draft = upstream.DRAFTS / f"{r.id}.md"
        assert draft.is_file(), f"no draft for {r.id}"
        text = draft.read_text(encoding="utf-8")
        cause = text.split("## Cause", 1)[1].split("## Proposed fix", 1)
        assert len(cause) == 2, f"{r.id}: a Cause and a Proposed fix section"
        assert re.search(r"`[\w/.-]+\.c`.*lines? \d+", cause[0], re.S), f"{r.id}: the file and line"
        assert re.search(r"^\+(?!\+\+)", cause[1], re.M) and "```diff" in cause[1], f"{r.id}: the fix as a diff"
        assert upstream.state(r)[0] in ("draft ready", "reported", "fixed upstream")


def test_row_case_takes_the_patterns_size():
    row = next(r for r in upstream.read_rows() if r.id == "linux-tools-scn-size0")
    assert upstream.row_case(row) == '"x" @0'
    row = next(r for r in upstream.read_rows() if r.id == "glibc-g-alt-carry")
    assert upstream.row_case(row) == row.reproducer


def test_upstream_report_and_its_reproducer(tmp_path):
    out = tmp_path / "report"
    p = scnfuzz("upstream", "glibc-posn-negwidth-zero", "--out", str(out))
    assert p.returncode == 0, p.stderr
    report = (out / "report.md").read_text()
    assert "glibc 2.36" in report and "A negative field width argument is taken as a - flag" in report
    assert "cc -o reproducer reproducer.c && ./reproducer" in report
    assert "exit status 1: the bug is present" in report
    assert 'actual   ret 12, buffer "1.5000000000"' in report
    assert "vfprintf-internal.c" in report and "## Proposed fix" in report
    src = out / "reproducer.c"
    c = subprocess.run(["cc", "-o", str(tmp_path / "r"), str(src)], capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    assert subprocess.run([str(tmp_path / "r")], capture_output=True).returncode == 1


def test_upstream_usage_errors():
    gap = next(r for r in upstream.read_rows() if r.kind == "gap")
    p = scnfuzz("upstream", gap.id)
    assert p.returncode == 2 and "is a gap" in p.stderr
    p = scnfuzz("upstream", "no-such-row")
    assert p.returncode == 2 and "no row" in p.stderr
    p = scnfuzz("upstream", "glibc-g-alt-carry", "--target", "musl")
    assert p.returncode == 2 and "not musl" in p.stderr
    p = scnfuzz("upstream")
    assert p.returncode == 2
