"""`./scnfuzz corpus merge|minimize`, always on temporary copies: the committed
seeds (corpus/fuzz/) are never modified here (checked).

- merge: the units of a short campaign's corpus that add coverage are added to
  a copy of the seeds (and a second merge adds none); the sizes are printed;
  --max-size refuses to grow the target and leaves it as it was.
- minimize: a campaign corpus shrinks to a subset that keeps all its coverage
  (merging the original back in adds nothing), names kept; --out leaves DIR;
  --engine afl (afl-cmin) too.
- bad input: one line, exit 2.

Run: /usr/bin/python3 -m pytest -q tests/test_corpus_cmd.py
"""
import hashlib
import re
import shutil

import pytest

from conftest import campaign_seconds
from plugin_findings import REPO, run_scnfuzz

FUZZER = "fuzz_iso_diff"
SEEDS = REPO / "corpus" / "fuzz" / FUZZER


def _strays(n):
    """Units a repeated merge may add: none. An input's coverage is that of its primary calls
    only (fuzz_core.c's coverage fence keeps the sampled oracles and the localisation out), so a
    unit that added nothing the first time adds nothing the second."""
    return 0


def _snapshot(d):
    return {p.name: hashlib.sha1(p.read_bytes()).hexdigest() for p in d.iterdir() if p.is_file()}


@pytest.fixture(scope="module", name="campaign")
def fixture_campaign(tmp_path_factory):
    """A campaign corpus of a 4-s campaign, 2 s in CI's short form (and the committed
    seeds as they were)."""
    before = _snapshot(SEEDS)
    t = tmp_path_factory.mktemp("campaign")
    corpus = t / FUZZER
    p = run_scnfuzz("fuzz", "--time", str(campaign_seconds(4, 2)), "--corpus", corpus, "--out",
                    t / "20260101T000000Z-fuzz", timeout=1200)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    assert len(_snapshot(corpus)) > len(before)
    yield corpus
    assert _snapshot(SEEDS) == before, "the committed seed corpus was modified"


def _ok(p):
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def _merge(src, into, *extra):
    out = _ok(run_scnfuzz("corpus", "merge", src, "--into", into, "--fuzzer", FUZZER, *extra, timeout=600))
    m = re.search(r"(\d+) units, [\d.]+ [KM]?i?B -> (\d+) units, [\d.]+ [KM]?i?B \((\d+) of (\d+) candidate", out)
    assert m, out
    return tuple(int(x) for x in m.groups())


@pytest.mark.campaign
def test_merge_adds_only_units_with_new_coverage(campaign, tmp_path):
    into = tmp_path / "seeds"
    shutil.copytree(SEEDS, into)
    n0, n1, added, cand = _merge(campaign, into)
    assert n0 == len(_snapshot(SEEDS)) and cand == len(_snapshot(campaign))
    assert 0 < added < cand and n1 == n0 + added == len(_snapshot(into))
    snap = _snapshot(into)
    assert {k: v for k, v in snap.items() if k in _snapshot(SEEDS)} == _snapshot(SEEDS)  # seeds kept as they were
    assert set(snap.values()) - set(_snapshot(SEEDS).values()) <= set(_snapshot(campaign).values())
    # merged again: (next to) nothing left that adds coverage
    again = _merge(campaign, into)[2]
    assert again <= _strays(added) and len(_snapshot(into)) == len(snap) + again


@pytest.mark.campaign
def test_merge_refuses_to_grow_beyond_max_size(campaign, tmp_path):
    into = tmp_path / "seeds"
    shutil.copytree(SEEDS, into)
    p = run_scnfuzz("corpus", "merge", campaign, "--into", into, "--fuzzer", FUZZER, "--max-size", "0.001",
                    timeout=600)
    lines = [l for l in p.stderr.splitlines() if l.strip() and not l.startswith("scnfuzz: building")]
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert "refusing to grow" in lines[0] and "limit 0.001 MiB" in lines[0]
    assert _snapshot(into) == _snapshot(SEEDS)


@pytest.mark.campaign
def test_minimize_keeps_the_coverage_with_fewer_units(campaign, tmp_path):
    work = tmp_path / FUZZER
    shutil.copytree(campaign, work)
    orig = _snapshot(work)
    out = _ok(run_scnfuzz("corpus", "minimize", work, timeout=600))  # fuzzer from the directory's name
    assert f"{len(orig)} units" in out
    kept = _snapshot(work)
    assert 0 < len(kept) < len(orig) and f"-> {work}: {len(kept)} units" in out
    assert all(orig[n] == h for n, h in kept.items())  # a subset, names and contents kept
    # coverage-complete: the original units add (next to) nothing to the minimized set
    assert _merge(campaign, work)[2] <= _strays(len(kept))


@pytest.mark.campaign
def test_minimize_out_leaves_the_corpus(campaign, tmp_path):
    out = tmp_path / "min"
    _ok(run_scnfuzz("corpus", "minimize", campaign, "--out", out, timeout=600))
    got = _snapshot(out)
    assert 0 < len(got) < len(_snapshot(campaign))
    assert set(got.items()) <= set(_snapshot(campaign).items())


@pytest.mark.campaign
# build/afl: configured and built by the first of these (one xdist worker runs them all)
@pytest.mark.xdist_group("build-afl")
def test_minimize_with_afl_cmin(tmp_path):
    work = tmp_path / "c"
    shutil.copytree(SEEDS, work)
    out = _ok(run_scnfuzz("corpus", "minimize", work, "--fuzzer", FUZZER, "--engine", "afl", timeout=1500))
    kept = _snapshot(work)
    assert "(afl)" in out and 0 < len(kept) <= len(_snapshot(SEEDS))
    assert set(kept.items()) <= set(_snapshot(SEEDS).items())


@pytest.mark.parametrize("args,needle", [
    (["corpus"], "missing ACTION"),
    (["corpus", "merge", "/nonexistent/dir", "--fuzzer", FUZZER], "no such directory"),
    (["corpus", "merge", "README.md", "--fuzzer", FUZZER], "not a directory"),
    (["corpus", "merge", "corpus/fuzz/fuzz_ref", "--fuzzer", "fuzz_nothing"], "unknown fuzzer"),
    (["corpus", "merge", "docs"], "give --fuzzer"),
    (["corpus", "merge", "corpus/fuzz/fuzz_ref", "--into", "corpus/fuzz/fuzz_ref"], "into itself"),
    (["corpus", "merge", "docs", "--fuzzer", FUZZER, "--max-size", "0"], "--max-size"),
    (["corpus", "minimize", "/nonexistent/dir"], "no such directory"),
    (["corpus", "minimize", "corpus/fuzz/fuzz_ref", "--out", "docs"], "not an empty directory"),
    (["corpus", "minimize", "corpus/fuzz/fuzz_ref", "--engine", "honggfuzz"], "invalid choice"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    p = run_scnfuzz(*args, timeout=120)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert p.returncode == 2 and len(lines) == 1, (p.returncode, p.stderr)
    assert lines[0].startswith("scnfuzz") and needle in lines[0], lines[0]


def test_minimize_an_empty_corpus_is_an_error(tmp_path):
    (tmp_path / FUZZER).mkdir()
    p = run_scnfuzz("corpus", "minimize", tmp_path / FUZZER, timeout=120)
    assert p.returncode == 2 and "no units" in p.stderr


@pytest.mark.parametrize("sub", [[], ["merge"], ["minimize"]])
def test_help(sub):
    p = run_scnfuzz("corpus", *sub, "--help", timeout=60)
    assert p.returncode == 0 and f"usage: scnfuzz corpus {' '.join(sub)}".strip() in p.stdout
