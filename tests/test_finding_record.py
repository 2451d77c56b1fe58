"""One finding record for every program that finds something (docs/FINDINGS.md):
each emitter's lines validate against oracles/finding.schema.json, and one bug
met in different shapes is one root cause.

One test per program: scn-replay, scn-conform, a libFuzzer harness, the
executor campaign (scn-exec-fuzz). Certification's records are checked in
tests/test_certify.py.
"""
import json
import os
import pathlib
import subprocess

import jsonschema
import pytest

from conftest import REPO, campaign_seconds, find_binary
from test_fuzzers import binary, fuzz_build  # noqa: F401  (the session fixture)

SCHEMA = json.loads((REPO / "oracles" / "finding.schema.json").read_text())
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)


def check_record(rec, source):
    errors = sorted(VALIDATOR.iter_errors(rec), key=lambda e: list(e.path))
    assert not errors, f"{errors[0].message} at {list(errors[0].path)} in {json.dumps(rec)[:600]}"
    assert rec["source"] == source, rec["source"]
    return rec


def records_of(text, source):
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            out.append(check_record(json.loads(line), source))
    return out


def test_replay_writes_the_record_and_reduces():
    replay = find_binary("scn-replay", "fuzz")
    # glibc's zero padding on the right for a negative *n$ width, met in two shapes
    cases = ['"ab %2$0*1$.3G xx" int:-9 double:0x1.348p+10',
             '"%1$+0*2$le|%3$d" double:0x1.8p+0 int:-20 int:7']
    sigs = set()
    for case in cases:
        p = subprocess.run([str(replay), "-q", "--target", "ref", "--target", "glibc", case],
                           capture_output=True, text=True, timeout=60)
        recs = records_of(p.stdout, "replay")
        assert len(recs) == 1, p.stdout
        rec = recs[0]
        assert rec["classification"] == "known-bug" and rec["rule"]["id"] == "glibc-posn-negwidth-zero", rec
        assert rec["reduced"] and rec["case"] != rec["original_case"]
        assert rec["targets"] == ["glibc", "ref"]
        sigs.add(rec["signature"])
    assert sigs == {"differential:glibc-posn-negwidth-zero:glibc~ref:known-bug"}


def test_replay_without_the_known_bug_entry_is_a_new_divergence(tmp_path):
    replay = find_binary("scn-replay", "fuzz")
    empty = tmp_path / "known.tsv"
    empty.write_text("# no entries\n")
    env = dict(os.environ, SCN_KNOWN_BUGS=str(empty))
    p = subprocess.run([str(replay), "-q", "--target", "ref", "--target", "glibc",
                        '"ab %2$0*1$.3G xx" int:-9 double:0x1.348p+10'],
                       capture_output=True, text=True, timeout=60, env=env)
    rec = records_of(p.stdout, "replay")[0]
    assert rec["classification"] == "divergence" and "rule" not in rec
    # the reduced shape names what is left of the culprit: the position, the 0 flag, the * width
    assert rec["signature"] == "differential:%1$0*2$f:glibc~ref:divergence", rec["signature"]
    assert p.returncode == 1


def test_conform_failures_carry_the_record(tmp_path, scn_conform):
    corpus = tmp_path / "gap.tsv"
    # C23 wN on a libc that predates it (a known gap), and a %#g carry (a known bug)
    corpus.write_text('length.w\t"[%w32d]" int:5\t"[5]"\t-\tstd\tC23 7.23.6.1p7\n'
                      'length.w\t"[%w16x]" uint:255\t"[ff]"\t-\tstd\tC23 7.23.6.1p7\n'
                      'float.g\t"%#.3g" double:0x1.f3cp+9\t"1.00e+03"\t-\tstd\tC17 7.21.6.1p8 (g, #)\n')
    p = subprocess.run([str(scn_conform), "--target", "glibc", str(corpus)], capture_output=True, text=True,
                       timeout=120)
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{") and '"summary"' not in l]
    fails = [r for r in rows if r["status"] == "fail"]
    assert len(fails) == 3, p.stdout
    recs = [check_record(r["finding"], "conform") for r in fails]
    sigs = [r["signature"] for r in recs]
    assert sigs == ["expect.output:glibc-c23-wN:glibc:known-gap"] * 2 + \
        ["expect.output:glibc-g-alt-carry:glibc:known-bug"], sigs
    assert [r["rule_kind"] for r in fails] == ["known-gap", "known-gap", "known-bug"]
    assert all(r["category"] and r["where"].endswith((":1", ":2", ":3")) for r in recs)


@pytest.mark.campaign
def test_fuzzer_campaign_lines_are_records(tmp_path, fuzz_build):  # noqa: F811
    fz = binary(fuzz_build, "fuzz_iso_diff")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for s in (REPO / "corpus" / "fuzz" / "fuzz_iso_diff").iterdir():
        (corpus / s.name).write_bytes(s.read_bytes())
    out = tmp_path / "findings.jsonl"
    env = dict(os.environ, SCN_FINDINGS=str(out), SCN_FUZZ_CONTINUE="1")
    subprocess.run([str(fz), "-runs=60000", "-seed=1", "-max_len=128",
                    f"-dict={REPO / 'fuzz' / 'printf.dict'}", str(corpus)],
                   env=env, capture_output=True, timeout=600)
    recs = records_of(out.read_text(), "fuzz")
    assert recs, "no finding in 60,000 executions (glibc and musl differ from the reference often)"
    assert all(r["program"] == "iso_diff" and isinstance(r["execs"], int) for r in recs)
    # glibc 2.36 and musl 1.2.3 have no bug that no rule explains: nothing new
    new = sorted({r["signature"] for r in recs if "rule" not in r})
    assert not new, new


@pytest.mark.campaign
# build/exec/musl-*: the executor test_any_libc.py builds too; one xdist worker builds it
@pytest.mark.xdist_group("libc-executors")
def test_executor_campaign_lines_are_records(tmp_path):
    out = tmp_path / "run"
    p = subprocess.run([str(REPO / "scnfuzz"), "fuzz", "--libc-cc", "musl-gcc", "--time", str(campaign_seconds(4, 2)),
                        "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert p.returncode in (0, 1), p.stdout + p.stderr
    lines = (out / "findings.jsonl").read_text().splitlines()
    recs = [json.loads(l) for l in lines]
    exec_recs = [check_record({k: v for k, v in r.items() if k != "worker"}, "exec") for r in recs
                 if r.get("source") == "exec"]
    assert exec_recs, "musl differs from the reference within seconds (allowed %p spellings at least)"
    assert all(r["program"] == "scn-exec-fuzz" for r in exec_recs)


@pytest.mark.parametrize("case,target", [
    # musl's leading digit 2 at a carry next to LDBL_MAX: 0x2.0p+16383 is no long double
    ('"%.1LA" ldouble:-0xf.ffdff2cffffffffp+16380', "musl"),
    # glibc's 0x2p-5 for 0x1p-4, in a field wider than 2 KB
    ('"%2048.0a" double:0x1.8p-5', "glibc"),
    # a field of 64 KiB and more, alone and beside other conversions: the
    # matcher reads the whole field, not its first 64 KiB
    ('"%+ #065536.19a" double:0x0.0000000000001p-1022', "glibc"),
    # a precision whose half unit in the last place is below the smallest long double
    ('"%.8192La" ldouble:0x8p-3', "glibc"),
    ('"%4$lln;\\x07%1$+ #065536.19a%2$*3$d" double:0x0.0000000000001p-1022 int:0 int:58 n:llong @8', "glibc"),
])
def test_hex_float_normalisation_is_allowed_everywhere(case, target):
    replay = find_binary("scn-replay", "fuzz")
    p = subprocess.run([str(replay), "-q", "--target", "ref", "--target", target, case],
                       capture_output=True, text=True, timeout=60)
    rec = records_of(p.stdout, "replay")[0]
    assert rec["classification"] == "implementation-defined" and rec["rule"]["id"] == "a-normalisation", rec
