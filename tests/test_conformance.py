"""The conformance suite: every corpus case (corpus/*.tsv, docs/CASE_FORMAT.md)
against the reference engine, in both dialects.

scn-conform runs once per session over all of corpus/*.tsv; there is one test
item per (target, category), e.g. `ref:int.d`, `ref-kernel:kernel.stop`, so
`pytest -k ref-kernel` or `pytest -k float` select what one expects. A target
must pass every case that has an expectation in its dialect: every buffer size
0..len+1 (up to 4 KiB of output; the first and last sizes and evenly between
above), both families (oracles/oracle.h), and the expected output, %n values
and errors.
"""
import collections
import json
import pathlib
import subprocess

import pytest

from conftest import REPO

CORPUS = sorted((REPO / "corpus").glob("*.tsv"))
# target -> field of its dialect's expectation; the kernel's own lib/vsprintf.c
# (Linux 6.1, built from linux-source-6.1) is checked against the kernel column
# too: the second opinion on the reference's kernel dialect
TARGETS = {"ref": 2, "ref-kernel": 3, "kernel": 3}
OPTIONAL = {"kernel": "the kernel target is not built (needs linux-source-6.1: bash ci/setup.sh)"}


def _corpus_index():
    """(target, category) -> number of cases with an expectation, read at collection."""
    counts = collections.Counter()
    for path in CORPUS:
        with open(path, encoding="latin-1") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                fields = line.split("\t")
                if len(fields) != 6:
                    continue  # scn-conform reports the malformed line
                for target, col in TARGETS.items():
                    if fields[col] != "-":
                        counts[(target, fields[0])] += 1
    return counts


INDEX = _corpus_index()
PARAMS = sorted(INDEX)


@pytest.fixture(scope="session")
def conformance_results(scn_conform, tmp_path_factory):
    """Runs scn-conform once per target, the targets in parallel."""
    if not CORPUS:
        pytest.fail("no corpus/*.tsv files", pytrace=False)
    out = tmp_path_factory.mktemp("conformance")
    procs = {}
    for t in TARGETS:
        so, se = open(out / f"{t}.jsonl", "wb"), open(out / f"{t}.err", "wb")
        # each case at every buffer size 0..len+1 up to 4 KiB of output (scn-conform
        # samples from 512 bytes by default); a longer one (the 32 KiB widths) at its
        # first and last 64 sizes and 64 between: every size would cost its length squared
        cmd = [str(scn_conform), "--every-size-up-to", "4096", "--target", t] + [str(p) for p in CORPUS]
        procs[t] = (subprocess.Popen(cmd, cwd=REPO, stdout=so, stderr=se), so, se)
    grouped = collections.defaultdict(list)
    for t, (proc, so, se) in procs.items():
        rc = proc.wait()
        so.close()
        se.close()
        err = (out / f"{t}.err").read_text(encoding="latin-1").strip()[-2000:]
        if rc == 2 and t in OPTIONAL and "unknown target" in err:
            grouped[("missing", t)] = OPTIONAL[t]
            continue
        if rc not in (0, 1):
            pytest.fail(f"scn-conform --target {t} exited {rc}: {err}", pytrace=False)
        summary = None
        with open(out / f"{t}.jsonl", "rb") as f:
            for raw in f:
                rec = json.loads(raw)
                if "summary" in rec:
                    summary = rec["summary"]
                    continue
                grouped[(rec["target"], rec["category"])].append(rec)
        if summary is None:
            pytest.fail(f"scn-conform --target {t} printed no summary line (crashed?): {err}",
                        pytrace=False)
    return grouped


def _describe(rec):
    lines = [f"  {rec['file']}:{rec['line']}: {rec['case']}",
             f"      oracle:   {rec.get('oracle')}"
             + (f" (family {rec['family']}, size {rec['size']}, ret {rec['ret']}: {rec['detail']})"
                if "family" in rec else ""),
             f"      expected: {rec.get('expected')}",
             f"      actual:   {rec.get('actual')}",
             f"      cite:     {rec.get('citation')}"]
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("target,category", PARAMS,
                         ids=[f"{t}:{c}" for t, c in PARAMS])
def test_conformance(conformance_results, target, category):
    if ("missing", target) in conformance_results:
        pytest.skip(conformance_results[("missing", target)])
    recs = conformance_results.get((target, category), [])
    bad = [r for r in recs if r["status"] != "pass"]
    if bad:
        shown = "\n".join(_describe(r) for r in bad[:40])
        more = f"\n  ... and {len(bad) - 40} more" if len(bad) > 40 else ""
        pytest.fail(f"{len(bad)} of {len(recs)} {category} cases fail on {target}:\n{shown}{more}",
                    pytrace=False)
    assert len(recs) == INDEX[(target, category)], (
        f"scn-conform reported {len(recs)} results for {target}/{category}, "
        f"the corpus has {INDEX[(target, category)]} cases expected in that dialect")


# ---- the runner itself, on small corpora written here ----

def _run(scn_conform, tmp_path, text, *args):
    f = tmp_path / "t.tsv"
    f.write_bytes(text.encode("latin-1"))
    p = subprocess.run([str(scn_conform), *args, str(f)], capture_output=True)
    recs = [json.loads(l) for l in p.stdout.splitlines()]
    return p.returncode, recs, p.stderr.decode("latin-1")


def test_runner_reports_mismatch(scn_conform, tmp_path):
    rc, recs, _ = _run(scn_conform, tmp_path,
                       "# comment\n\nx.ok\t\"%d|\" int:42\t\"42|\"\t\"42|\"\tstd\tC17\n"
                       "x.bad\t\"%d\" int:42\t\"43\"\t-\tstd\tC17\n"
                       "x.n\t\"ab%n\" n:int\t\"ab\" n=3\t-\tstd\tC17\n",
                       "--target", "ref", "--target", "ref-kernel")
    assert rc == 1
    res = {(r["target"], r["category"]): r for r in recs if "summary" not in r}
    assert res[("ref", "x.ok")]["status"] == "pass"
    assert res[("ref-kernel", "x.ok")]["status"] == "pass"
    bad = res[("ref", "x.bad")]
    assert (bad["status"], bad["oracle"], bad["expected"], bad["actual"]) == \
        ("fail", "expect.output", '"43"', '"42"')
    n = res[("ref", "x.n")]
    assert (n["status"], n["oracle"], n["actual"]) == ("fail", "expect.n", '"ab" n=2')
    assert ("ref-kernel", "x.bad") not in res  # '-': not in the kernel suite
    summary = recs[-1]["summary"]
    assert (summary["pass"], summary["fail"], summary["skipped"]) == (2, 2, 2)


def test_runner_parse_error_names_file_and_line(scn_conform, tmp_path):
    rc, _, err = _run(scn_conform, tmp_path,
                      "x\t\"%d\" int:1\t\"1\"\t\"1\"\tstd\tc\nx\t\"%d\" int:01\t\"1\"\t\"1\"\tstd\tc\n")
    assert rc == 2
    assert "t.tsv:2:" in err and "canonical decimal" in err and err.count("\n") == 1


@pytest.mark.parametrize("value", ["4k", ""])
def test_every_size_up_to_takes_a_number_of_bytes(scn_conform, tmp_path, value):
    rc, recs, err = _run(scn_conform, tmp_path, "x\t\"%d\" int:1\t\"1\"\t\"1\"\tstd\tc\n",
                         "--every-size-up-to", value)
    assert rc == 2 and not recs
    assert f"--every-size-up-to {value}: expected a number of bytes" in err and err.count("\n") == 1
