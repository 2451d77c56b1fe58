"""The embedded libcs built from their Debian source in-process beside glibc
(core/targets/picolibc, newlib, uclibc; core/targets/picolibc/libc-from-source.cmake).

Each must be isolated (its object defines no global symbol but <name>_*),
every failure it has on the corpus must be a known one (oracles/known_bugs.tsv:
none is new), each known entry written for it must be met, and each entry's
reproducer must still show the difference against the reference.
"""
import json
import subprocess

import pytest

from conftest import REPO, build_dir

CORPUS = sorted((REPO / "corpus").glob("*.tsv"))
# target -> (what builds it, the start of its version text)
LIBCS = {
    "picolibc": ("`apt-get source picolibc` at configure time (core/targets/picolibc)", "picolibc 1."),
    "newlib": ("the Debian package newlib-source", "newlib 3."),
    "uclibc": ("the Debian package uclibc-source", "uClibc-ng 1."),
}
# The known_bugs.tsv entries each one meets on the corpus.
MET_ON_CORPUS = {
    "picolibc": {"embedded-c23-b", "embedded-c23-wN", "embedded-no-L", "embedded-no-ls",
                 "picolibc-no-n", "picolibc-float-shortest-digits", "picolibc-posn-negwidth",
                 "picolibc-alt-o-zero"},
    "newlib": {"embedded-c23-b", "embedded-c23-wN", "embedded-no-L", "embedded-no-ls",
               "newlib-no-positional"},
    "uclibc": {"embedded-c23-b", "embedded-c23-wN", "uclibc-float-round-away"},
}
KNOWN = {"known-bug", "known-gap", "implementation-defined"}


def _run(scn_conform, *args):
    return subprocess.run([str(scn_conform), *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def listed(scn_conform):
    out = _run(scn_conform, "--list-targets")
    assert out.returncode == 0, out.stderr
    return {line.split("\t")[0]: line.split("\t") for line in out.stdout.splitlines() if line}


@pytest.fixture(params=sorted(LIBCS))
def libc(request, listed):
    name = request.param
    if name not in listed:
        pytest.skip(f"the {name} target is not built (needs {LIBCS[name][0]}: bash ci/setup.sh)")
    return name


def _known_entries(name):
    """known_bugs.tsv entries whose targets column names `name`: (id, reproducer)."""
    rows = []
    for line in (REPO / "oracles" / "known_bugs.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if name in f[4].split(","):
            rows.append((f[0], f[6]))
    return rows


def test_listed_as_a_matrix_target_with_its_source_version(libc, listed):
    fields = listed[libc]
    assert fields[1] == "iso" and fields[4] == "in-process"
    assert fields[6] == "matrix", fields
    assert fields[2].startswith(LIBCS[libc][1]), fields[2]


def test_only_its_renamed_entry_is_global(libc):
    obj = build_dir() / "core" / "targets" / libc / f"scn_{libc}.o"
    assert obj.is_file(), obj
    nm = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True, text=True)
    assert nm.returncode == 0, nm.stderr
    names = {line.split()[-1] for line in nm.stdout.splitlines() if line.strip()}
    assert f"{libc}_vsnprintf" in names
    assert not {n for n in names if not n.startswith(f"{libc}_")}, names
    # its vsnprintf, memcpy, errno ... are local: none can clash with glibc's
    assert "vsnprintf" not in names


def test_every_corpus_failure_is_known_and_each_entry_is_met(libc, scn_conform):
    out = _run(scn_conform, "--target", libc, "--fail-only", *map(str, CORPUS))
    assert out.returncode in (0, 1), out.stderr[-2000:]
    assert "Sanitizer" not in out.stderr, out.stderr[-2000:]
    fails = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    fails = [r for r in fails if r.get("target") == libc and r.get("status") == "fail"]
    unknown = [(r["case"], r.get("actual"), r["signature"]) for r in fails if r.get("rule_kind") not in KNOWN]
    assert not unknown, f"{len(unknown)} new root causes, e.g. {unknown[:5]}"
    met = {r["signature"].split(":")[1] for r in fails}
    assert met >= MET_ON_CORPUS[libc], MET_ON_CORPUS[libc] - met


def test_each_known_entry_still_reproduces(libc, scn_conform):
    entries = _known_entries(libc)
    assert {e for e, _ in entries} >= MET_ON_CORPUS[libc]
    patterns = {}
    for line in (REPO / "oracles" / "known_bugs.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split("\t")
            patterns[f[0]] = f[3]
    for entry, case in entries:
        out = _run(scn_conform, "--target", libc, "--target", "ref", "--case", case)
        if "dies" in patterns[entry].split("&"):
            # the bug is a death: the case still kills the call (a fault the oracles
            # catch, or a sanitizer's report, which ends the process)
            recs = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
            crashed = [r for r in recs if r.get("target") == libc and r.get("status") == "fail"
                       and (r.get("finding") or {}).get("oracle") in ("crash", "hang")]
            assert out.returncode != 0 and (crashed or "Sanitizer" in out.stderr), (entry, out.stderr[-2000:])
            continue
        recs = list(map(json.loads, out.stdout.splitlines()))
        # a failure only through an oracle the row names (oracle=): the bug itself
        # (picolibc's %.255e digit read from the stack differs from call to call)
        failed = [r["finding"]["oracle"] for r in recs if r.get("status") == "fail" and "finding" in r]
        named = [t for t in patterns[entry].split("&") if t.startswith("oracle=")]
        own = named and failed and all(o in named[0][7:].split("|") for o in failed)
        assert out.returncode == 0 or (out.returncode == 1 and own), (entry, out.stderr, failed)
        got = {r["target"]: r["actual"] for r in recs}
        assert got[libc] != got["ref"], f"{entry}: {case} now prints as ref does: {got}"
