"""scn-conform's isolation (programs/conform_isolate.h): a real implementation
that dies on a case (stb on a negative * precision: SIGSEGV; curl on %.1f of
+inf: a loop that never ends) fails that case with a "crash" or "hang"
result, reduced and signed, and the cases after it are still checked; the
output has whole lines only. Only a rule with the term `dies` explains a
death: a rule about a target's wrong output never hides a crash."""
import json
import os
import pathlib
import subprocess

import pytest

from conftest import find_binary

HERE = pathlib.Path(__file__).resolve().parent
TABLE = HERE.parent / "oracles" / "known_bugs.tsv"


def _corpus(tmp_path, middle):
    rows = [
        ("iso.before", '"[%d]" int:1', '"[1]"'),
        ("iso.dies", middle, '"x"'),
        ("iso.after", '"[%s]" str:"ok"', '"[ok]"'),
        ("iso.after", '"[%5d]" int:42', '"[   42]"'),
    ]
    p = tmp_path / "c.tsv"
    p.write_text("".join(f"{c}\t{k}\t{x}\t-\tstd\tC17 7.21.6.1\n" for c, k, x in rows))
    return p


def _run(conform, target, corpus, *extra, env=None, timeout=300):
    p = subprocess.run([str(conform), "--target", target, *extra, str(corpus)], capture_output=True, text=True,
                       timeout=timeout, env=env)
    return p, p.stdout.splitlines()


def _targets(conform):
    out = subprocess.run([str(conform), "--list-targets"], capture_output=True, text=True, check=True).stdout
    return {l.split("\t")[0] for l in out.splitlines()}


@pytest.fixture(scope="module")
def conform():
    return find_binary("scn-conform", "programs")


def _need(conform, name):
    if name not in _targets(conform):
        pytest.fail(f"matrix target {name} is not built (its package: bash ci/setup.sh)", pytrace=False)


def test_a_crash_is_one_failing_result_and_the_run_goes_on(conform, tmp_path):
    _need(conform, "stb")
    corpus = _corpus(tmp_path, '"%.*f" int:-2 double:0x1p-1')
    p, lines = _run(conform, "stb", corpus)
    rs = [json.loads(l) for l in lines]  # whole lines only: each one parses
    summary = rs[-1]["summary"]
    assert summary["cases"] == 4 and summary["results"] == 4, summary
    dead = [r for r in rs[:-1] if r.get("oracle") == "crash"]
    assert len(dead) == 1 and dead[0]["line"] == 2 and dead[0]["status"] == "fail"
    assert "died of SIGSEGV during a call at size" in dead[0]["detail"]
    # signed by the rule that says stb dies on a negative * precision
    assert dead[0]["signature"] == "crash:stb-neg-prec-dies:stb:known-bug"
    assert "ref" in dead[0]["finding"]["outputs"]
    assert "stb" not in dead[0]["finding"]["outputs"]  # the dead target is not called again
    # each line has its one result: those after the death from a new worker
    assert sorted(r["line"] for r in rs[:-1]) == [1, 2, 3, 4]
    assert summary["pass"] + summary["fail"] + summary["error"] == 4


def test_without_isolation_the_same_crash_ends_the_run(conform, tmp_path):
    _need(conform, "stb")
    corpus = _corpus(tmp_path, '"%.*f" int:-2 double:0x1p-1')
    p, lines = _run(conform, "stb", corpus, "--no-isolate")
    assert p.returncode < 0 or p.returncode >= 128, p.returncode  # killed by the signal
    assert not any('"summary"' in l for l in lines)


def test_a_hang_is_one_failing_result_within_the_call_limit(conform, tmp_path):
    _need(conform, "curl")
    corpus = _corpus(tmp_path, '"%.1f" double:inf')
    p, lines = _run(conform, "curl", corpus, "--call-limit", "0.5", timeout=120)
    rs = [json.loads(l) for l in lines]
    summary = rs[-1]["summary"]
    assert summary["results"] == 4 and summary["error"] == 1, summary
    hung = [r for r in rs[:-1] if r.get("oracle") == "hang"]
    assert len(hung) == 1 and "did not return within 0.50 s (killed)" in hung[0]["detail"]
    assert hung[0]["signature"] == "hang:curl-inf-prec-hang:curl:known-bug"


def test_an_output_rule_never_explains_a_death(conform, tmp_path):
    """Without the dies rows, stb's crash on %f is NEW, though stb-float-digits
    (conv=f|F|e|E|g|G, stb's documented digits) matches the reduced case."""
    _need(conform, "stb")
    table = tmp_path / "kb.tsv"
    table.write_text("".join(l + "\n" for l in TABLE.read_text().splitlines() if "&dies" not in l))
    corpus = _corpus(tmp_path, '"%.*f" int:-2 double:0x1p-1')
    p, lines = _run(conform, "stb", corpus, env={**os.environ, "SCN_KNOWN_BUGS": str(table)})
    dead = [json.loads(l) for l in lines if '"oracle":"crash"' in l]
    assert len(dead) == 1
    assert "rule_kind" not in dead[0] and dead[0]["signature"].endswith(":stb:memory-safety"), dead[0]["signature"]


def test_case_mode_reports_a_death_as_a_result(conform):
    _need(conform, "stb")
    p = subprocess.run([str(conform), "--target", "ref", "--target", "stb", "--case", '"%.*f" int:-2 double:0x1p-1'],
                       capture_output=True, text=True, timeout=120)
    rs = {r["target"]: r for r in map(json.loads, p.stdout.splitlines())}
    assert rs["ref"]["status"] == "pass" and rs["ref"]["actual"] == '"0.500000"'
    assert rs["stb"]["status"] == "fail" and rs["stb"]["actual"] is None
    assert rs["stb"]["finding"]["oracle"] == "crash" and p.returncode == 1
