"""`scnfuzz matrix`: a small run (two implementations, 5-s campaigns) gives the
implementations x categories table with exactly their rows and each one's
certification verdict, each implementation's own run and certificate, and
docs generation (--markdown, --from) that matches what the command printed.
A few minutes on the 2-core machine (the certification driver is built with
ASan for each)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, build_dir, find_binary


def _matrix_targets():
    conform = find_binary("scn-conform", "programs")
    out = subprocess.run([str(conform), "--list-targets"], capture_output=True, text=True, check=True).stdout
    rows = [l.split("\t") for l in out.splitlines()]
    return [r[0] for r in rows if len(r) >= 8 and r[6] == "matrix"]


def _env():
    env = dict(os.environ, SCN_BUILD_DIR=str(build_dir()))
    env.setdefault("SCN_FUZZ_BUILD_DIR", str(REPO / "build" / "fuzz"))
    return env


def _table(stdout):
    """The implementations x categories table the command printed: its
    markdown rows, first column -> the row."""
    rows = [l for l in stdout.splitlines() if l.startswith("| ") and not l.startswith("| implementation")]
    return {r.split("|")[1].strip(): r for r in rows}


@pytest.mark.campaign
@pytest.mark.slow
def test_two_implementations_give_their_rows_and_the_doc(tmp_path):
    names = _matrix_targets()
    if len(names) < 2:
        pytest.skip(f"fewer than two matrix implementations built ({names}); their packages: ci/setup.sh")
    # --fresh: from the seeds, not from what earlier campaigns kept (an input that crashes the
    # implementation there kills each worker as it loads its corpus).
    # a C99 one and a scnprintf-only one (both paths of fuzz_matrix) when built;
    # not curl: its hangs on +inf cost the call limit each, and its certification more
    only = [n for n in ("pgport", "apr") if n in names] or names[:2]
    only += [n for n in names if n not in only and n != "curl"][:2 - len(only)]
    out, doc = tmp_path / "run", tmp_path / "MATRIX.md"
    r = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--only", ",".join(only), "--time", "5",
                        "--jobs", "2", "--fresh", "--out", str(out), "--markdown", str(doc)],
                       capture_output=True, text=True, env=_env(), cwd=REPO, timeout=900)
    assert r.returncode in (0, 1), r.stderr[-3000:]
    table = _table(r.stdout)
    assert list(table) == only, r.stdout
    for name in only:
        assert "(error)" not in table[name] and "- (" not in table[name], table[name]
        # each implementation is a run of its own: its conformance part and its campaign
        sub = json.loads((out / "impl" / name / "run.json").read_text())
        kinds = [p["kind"] for p in sub["parts"]]
        assert kinds == ["conform", "fuzz"], kinds
        assert sub["parts"][1].get("executions", 0) > 0
        # the campaign names the implementation SCN_MATRIX_TARGET chose, not the "matrix" stand-in
        assert [t["name"] for t in sub["parts"][1]["targets"]] == ["ref", name]
    rep = json.loads((out / "report.json").read_text())
    model = rep["matrix_implementations"]
    assert [im["name"] for im in model["implementations"]] == only
    for im in model["implementations"]:
        assert im["total"]["pass"] > 0 and im["cells"] and im["version"]
        # certified, or refused with its reasons (each failing case reduced); the certificate is kept
        cert = im["certification"]
        assert cert["verdict"] in ("certified", "not certified"), cert
        assert (cert["verdict"] == "certified") == (not cert["reasons"]), cert
        assert (out / cert["certificate"]).is_file()
        c = json.loads((out / cert["certificate"]).with_suffix(".json").read_text())
        assert c["verdict"] == cert["verdict"] and c["function"].startswith(f"scn_target_{im['name']}.")
        verdict = "**CERTIFIED**" if cert["verdict"] == "certified" else "NOT CERTIFIED"
        assert table[im["name"]].split("|")[2].strip() == verdict
        # a campaign's finding replays its case; a conformance finding reruns its corpus line
        assert all(rc["reproduce"].startswith(("./scnfuzz replay ", "./scnfuzz conform --corpus "))
                   for rc in im["root_causes"])
    md = (out / "report.md").read_text()
    assert md.index("Implementations x categories") < md.index("| implementation |")
    assert md.count("- certification: ") == len(only)
    # the doc: the command and date at the top, then the very table the command printed
    text = doc.read_text()
    assert text.splitlines()[2].startswith("Made by `./scnfuzz matrix --only ")
    printed = [l for l in r.stdout.splitlines() if l.startswith("|")]
    assert "\n".join(printed) in text
    # regenerating from the run (its report rebuilt from the implementations' runs) gives the same document
    again = tmp_path / "again.md"
    r2 = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--from", str(out), "--markdown",
                         str(again)], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=60)
    assert r2.returncode in (0, 1), r2.stderr
    assert again.read_text() == text
    assert [l for l in r2.stdout.splitlines() if l.startswith("|")] == printed


def test_unknown_implementation_is_a_usage_error(tmp_path):
    r = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--only", "glibc", "--out",
                        str(tmp_path / "r")], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=60)
    assert r.returncode == 2
    assert "'glibc' is not an implementation of the matrix" in r.stderr
    assert not (tmp_path / "r").exists()
