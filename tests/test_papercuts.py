"""Papercuts users reported: compiler/linker flag values starting with '-'
(certify), both spellings of a fuzzer's name (fuzz_iso_diff / iso_diff),
decimal float values in the case text, the AFL++ rate of the progress line,
a conformance finding's reproduce line that did not reproduce it.

Run: SCN_BUILD_DIR=$PWD/build/asan /usr/bin/python3 -m pytest -q tests/test_papercuts.py
"""
import argparse

import pytest

from plugin_findings import run_scnfuzz

from scnfuzz import campaign, certify, fuzzers  # noqa: E402  (plugin_findings puts runner on sys.path)
from scnfuzz.errors import UsageError

REQUIRED = ["--source", "x.c", "--function", "trio_snprintf", "--kind", "snprintf"]


# ---- 1. certify --ldflags/--cflags take values starting with '-'

@pytest.mark.parametrize("flags,ld,cf", [
    (["--ldflags", "-ltrio"], "-ltrio", ""),
    (["--ldflags=-ltrio"], "-ltrio", ""),
    (["--cflags", "-O2 -DTRIO_C99=1", "--ldflags", "-L/opt/trio -ltrio"], "-L/opt/trio -ltrio", "-O2 -DTRIO_C99=1"),
    (["--cflags=-DX"], "", "-DX"),
])
def test_certify_flag_values_may_start_with_dash(flags, ld, cf):
    args = certify.parse_args(REQUIRED + flags)
    assert (args.ldflags, args.cflags) == (ld, cf)
    assert args.function == "trio_snprintf"


def test_certify_command_line_takes_ldflags_dash_value():
    # the function from a library only (no --source): the parser takes "-ltrio" as the value
    # of --ldflags (not "expected one argument"), and the link looks for f in libtrio
    p = run_scnfuzz("certify", "--ldflags", "-ltrio", "--function", "f", "--kind", "snprintf", timeout=300)
    assert p.returncode == 2
    assert "expected one argument" not in p.stderr, p.stderr
    # the linker's own words: GNU ld's or lld's (the build links with lld where clang can)
    assert "-ltrio" in p.stderr and ("undefined reference to `f'" in p.stderr or "undefined symbol: f" in p.stderr), \
        p.stderr[-1500:]


# ---- 2. fuzzers named fuzz_X or X everywhere

def test_fuzzer_names_both_spellings():
    for f in fuzzers.ALL.values():
        assert fuzzers.resolve(f.name) == f.name
        assert fuzzers.resolve(f.name[len("fuzz_"):]) == f.name
        assert fuzzers.replay_config(f.name) == f.config
        assert fuzzers.replay_config(f.name[len("fuzz_"):]) in fuzzers.CONFIGS
    assert fuzzers.replay_config("iso_diff") == "iso_diff"
    assert fuzzers.replay_config("fuzz_iso_diff") == "iso_diff"
    assert fuzzers.replay_config("parse") == "ref"  # fuzz_parse borrows ref's configuration
    args = argparse.Namespace(fuzzer="iso_diff", planted=None, targets=None, dialect=None)
    assert campaign.choose_fuzzer(args) == "fuzz_iso_diff"


@pytest.mark.parametrize("func", [fuzzers.resolve, fuzzers.replay_config])
def test_unknown_fuzzer_lists_the_valid_names(func):
    with pytest.raises(UsageError) as e:
        func("nosuch")
    assert "unknown fuzzer 'nosuch'" in str(e.value)
    assert all(n in str(e.value) for n in fuzzers.NAMES)


@pytest.mark.parametrize("name", ["fuzz_iso_diff", "iso_diff"])
def test_replay_takes_either_fuzzer_spelling(name, tmp_path):
    unit = tmp_path / "unit"
    unit.write_bytes(b"\x00" * 16)
    p = run_scnfuzz("replay", "--fuzzer", name, str(unit), "--target", "ref", timeout=900)
    assert p.returncode in (0, 1), p.stderr[-1500:]
    assert "unknown" not in p.stderr and "usage" not in p.stderr.lower(), p.stderr[-1500:]


def test_replay_unknown_fuzzer_is_one_line_listing_names(tmp_path):
    unit = tmp_path / "unit"
    unit.write_bytes(b"\x00")
    p = run_scnfuzz("replay", "--fuzzer", "nosuch", str(unit), timeout=120)
    assert p.returncode == 2
    assert "unknown fuzzer 'nosuch'" in p.stderr and "fuzz_iso_diff" in p.stderr and "iso_diff," in p.stderr


def test_fuzz_unknown_fuzzer_lists_names():
    p = run_scnfuzz("fuzz", "--fuzzer", "nosuch", "--time", "1", timeout=120)
    assert p.returncode == 2 and "unknown fuzzer 'nosuch'" in p.stderr and "fuzz_iso_diff" in p.stderr


# ---- 3. decimal floats in the case text (more in tests/test_casetext.py)

def test_replay_decimal_double():
    p = run_scnfuzz("replay", '"%.1f" double:999999.5', "--target", "ref", "--target", "glibc", timeout=900)
    assert p.returncode == 0, p.stderr[-1500:]
    out = {l.split()[0]: l for l in p.stdout.splitlines() if " ret=" in l}
    assert '"999999.5"' in out["glibc"] and '"999999.5"' in out["ref"], p.stdout


def test_replay_decimal_long_double():
    p = run_scnfuzz("replay", '"%.3Le" ldouble:0.1', "--target", "glibc", timeout=900)
    assert p.returncode == 0, p.stderr[-1500:]
    assert '"1.000e-01"' in p.stdout, p.stdout


# ---- 4. the AFL++ rate: execs_done / run_time, not execs_per_sec

AFL_STATS = """start_time        : 1796407198
last_update       : 1796407206
run_time          : 8
fuzzer_pid        : 8488
cycles_done       : 0
execs_done        : 82919
execs_per_sec     : 10357.11
execs_ps_last_min : 0.00
corpus_count      : 1154
corpus_imported   : 3
bitmap_cvg        : 42.51%
afl_version       : ++4.04c
command_line      : afl-fuzz -i in -o out -V 8 -M j0 -- /x/fuzz_iso_diff
"""


def test_afl_stats_parsing():
    st = campaign.parse_afl_stats(AFL_STATS)
    assert st == {"execs": 82919, "rate": 82919 // 8, "cov": 1154, "ft": 4251, "imported": 3}


def test_afl_stats_rate_of_a_restarted_instance_is_not_1000x():
    # the reported shape: execs_done carried over, run_time 0, execs_per_sec 1000 x execs_done
    txt = (AFL_STATS.replace("82919", "27966").replace("10357.11", "27966000.00")
           .replace("run_time          : 8", "run_time          : 0"))
    st = campaign.parse_afl_stats(txt)
    assert st["execs"] == 27966 and "rate" not in st
    st = campaign.parse_afl_stats(txt.replace("run_time          : 0", "run_time          : 3"))
    assert st["rate"] == 27966 // 3
    assert campaign.parse_afl_stats("garbage\nexecs_done : x\n") == {}


# ---- 5. a conformance finding's reproduce line reproduces it

def test_conformance_reproduce_line_reruns_the_failing_corpus_line(tmp_path):
    """The reproduce line of a conformance finding runs its corpus line (FILE.tsv:LINE)
    against that line's expectation on its target: the same root cause again, exit 1."""
    import json
    import shlex
    corpus = tmp_path / "wrong.tsv"
    corpus.write_text('# a wrong expectation on line 3\n'
                      'int.d\t"%d" int:7\t"7"\t"7"\tstd\tC17 7.21.6.1p8\n'
                      'int.d\t"%d|" int:42\t"41|"\t"41|"\tstd\tC17 7.21.6.1p8\n')
    first = run_scnfuzz("conform", "--target", "ref", "--corpus", corpus, "--out", tmp_path / "run1")
    assert first.returncode == 1, first.stdout + first.stderr
    rep = json.loads((tmp_path / "run1" / "report.json").read_text())
    [f] = [f for f in rep["findings"] if f["bug"]]
    assert f["reproduce"] == f"./scnfuzz conform --corpus {corpus}:3 --target ref", f["reproduce"]
    again = run_scnfuzz(*shlex.split(f["reproduce"])[1:], "--out", tmp_path / "run2")
    assert again.returncode == 1, again.stdout + again.stderr
    rep2 = json.loads((tmp_path / "run2" / "report.json").read_text())
    assert [g["signature"] for g in rep2["findings"] if g["bug"]] == [f["signature"]]
    assert "conform (ref): 1 results:" in again.stdout + again.stderr, again.stdout + again.stderr  # that line only
