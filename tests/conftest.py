"""Shared pytest set-up: where the build is, and the binaries in it; how the
tests share out over pytest-xdist workers; short or long campaigns.

The build directory is $SCN_BUILD_DIR, by default <repo>/build/asan (the
`asan` CMake preset that `bash ci/test.sh` builds).
"""
import contextlib
import fcntl
import hashlib
import os
import pathlib
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent

# Shows the report.md of every scnfuzz run a failing test used.
pytest_plugins = ["plugin_findings"]


def build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SCN_BUILD_DIR", str(REPO / "build" / "asan")))


def find_binary(name: str, subdir: str = "") -> pathlib.Path:
    """Path of an executable of the build (e.g. 'scn-conform' in 'programs').

    Fails the test (not an error in collection) with the command to run when
    it is missing."""
    root = build_dir()
    cand = root / subdir / name if subdir else None
    if cand is None or not cand.is_file():
        found = sorted(root.rglob(name)) if root.is_dir() else []
        found = [p for p in found if p.is_file() and os.access(p, os.X_OK)]
        cand = found[0] if found else None
    if cand is None:
        pytest.fail(
            f"{name} not found in the build directory {root}: build it first with "
            f"`bash ci/test.sh` (or `cmake --preset asan && cmake --build build/asan`), "
            f"or point SCN_BUILD_DIR at a build directory", pytrace=False)
    return cand


@contextlib.contextmanager
def exclusive(shared: pathlib.Path):
    """Holds a lock on a directory that tests in several processes write (each
    xdist worker, another pytest run): a build directory, a download cache.
    Whoever comes second waits, then finds the work done."""
    digest = hashlib.sha1(str(pathlib.Path(shared).resolve()).encode()).hexdigest()[:16]
    with open(pathlib.Path(tempfile.gettempdir()) / f"scnfuzz-tests-{digest}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def short_form() -> bool:
    """Whether the campaigns and whole builds run in their short form: when
    $SCN_TEST_CAMPAIGNS is "short", which `bash ci/test.sh` sets for CI
    (`SCN_TEST_CAMPAIGNS=long bash ci/test.sh` is the nightly's long form)."""
    mode = os.environ.get("SCN_TEST_CAMPAIGNS", "long")
    if mode not in ("short", "long"):
        raise pytest.UsageError(f"SCN_TEST_CAMPAIGNS={mode!r}: expected short or long")
    return mode == "short"


def campaign_seconds(long_form: int, short_form_seconds: int) -> int:
    """The length of a fixed-time campaign, long or short (short_form()).
    Only the time changes, never what the test asserts."""
    return short_form_seconds if short_form() else long_form


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def scn_conform() -> pathlib.Path:
    return find_binary("scn-conform", "programs")


# ---------------------------------------------------------------------------
# Parallel runs: `pytest -n 2 --dist loadgroup` (what ci/test.sh runs).
#
# xdist sends each group of tests (its xdist_group mark) to one worker, and
# every test without a group to any worker. The groups are made here, so that
# every test file, new ones too, is shared out without a mark of its own:
#   - tests that use one module- or session-scoped fixture of a test module (a
#     build, a whole-suite run, a campaign) are one group: the fixture is
#     computed once, in one worker;
#   - tests linked through such fixtures, or through an xdist_group mark a
#     test file sets (tests that share a directory no fixture names: build/afl,
#     reports/latest), are one group, named after the mark when there is one;
#   - the fixtures of PER_WORKER are cheap to compute again in each worker (a
#     file name, a no-op build under a lock, objects cached on disk): they
#     group nothing.
# The groups, and the tests alone, then go out longest first (slow, then
# campaign, then the rest; the bigger group first), so that the last ones to
# finish are short.
PER_WORKER = {"fuzz_build", "project_objects", "conform", "listed", "smoke_tsv"}


def _shared_fixtures(item):
    """Names of the module/session-scoped fixtures of test modules an item uses."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    keys = []
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name)
        if not defs or name in PER_WORKER:
            continue
        fd = defs[-1]
        module = getattr(fd.func, "__module__", "") or ""
        if fd.scope == "function" or not module.startswith("test_"):
            continue  # per test, or conftest's, a plugin's, pytest's own
        where = module if fd.scope == "session" else item.module.__name__
        keys.append(f"fixture:{where}.{name}")
    return keys


def _weight(items):
    marks = {m.name for it in items for m in it.iter_markers()}
    return ("slow" in marks, "campaign" in marks, len(items))


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks
def pytest_collection_modifyitems(config, items):
    if not (hasattr(config, "workerinput") and config.getoption("loadgroup", False)):
        return  # not an xdist worker of --dist loadgroup: the collection order stays
    parent = {}

    def find(k):
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    keys = {}
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        own = [f"mark:{mark.args[0] if mark.args else mark.kwargs.get('name', 'default')}"] if mark else []
        keys[item.nodeid] = own + _shared_fixtures(item)
        for k in keys[item.nodeid][1:]:
            parent[find(k)] = find(keys[item.nodeid][0])
    # each group's name: its mark's, else its first fixture's (the same in every worker)
    names = {}
    for item in items:
        ks = keys[item.nodeid]
        if ks:
            root = find(ks[0])
            names.setdefault(root, []).extend(ks)
    units, order = {}, []
    for item in items:
        ks = keys[item.nodeid]
        if ks:
            every = sorted(set(names[find(ks[0])]))
            marked = [k for k in every if k.startswith("mark:")]
            unit = (marked or every)[0].split(":", 1)[1]
            item.add_marker(pytest.mark.xdist_group(unit), append=False)
        else:
            unit = item.nodeid
        if unit not in units:
            units[unit] = []
            order.append(unit)
        units[unit].append(item)
    order.sort(key=lambda u: _weight(units[u]), reverse=True)  # stable: ties keep their order
    items[:] = [it for u in order for it in units[u]]


# SCN_TEST_TIMES=FILE: one JSON line per test phase (setup, call, teardown) with its wall
# seconds, the CPU seconds of the worker and of the children it waited for, and its xdist
# group, appended to FILE: where CI's time goes, by group, on a loaded machine too (CPU).
_TIMES = os.environ.get("SCN_TEST_TIMES")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not _TIMES:
        yield
        return
    import json
    import resource
    import time
    group = item.get_closest_marker("xdist_group")

    def cpu():
        s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, s.ru_stime + c.ru_stime

    t0, (s0, c0, k0) = time.monotonic(), cpu()
    yield
    t1, (s1, c1, k1) = time.monotonic(), cpu()
    rec = {"test": item.nodeid, "group": group.args[0] if group and group.args else None,
           "wall": round(t1 - t0, 3), "cpu_self": round(s1 - s0, 3), "cpu_children": round(c1 - c0, 3),
           "cpu_system": round(k1 - k0, 3)}
    with open(_TIMES, "a") as f:
        f.write(json.dumps(rec) + "\n")


# The end of a stand-in libFuzzer script (tests/test_campaign_kill.py, tests/test_faults.py):
# libFuzzer's pulse lines every PULSE_S seconds (the script sets it) until -max_total_time,
# then its last line.
FAKE_FUZZER_PULSE = r'''
t_end = time.time() + int(opt["max_total_time"])
n = 0
while time.time() < t_end:
    n += 1000
    sys.stderr.write(f"#{n}\tpulse  cov: 12 ft: 13 corp: 1/1b exec/s: 1000 rss: 30Mb\n")
    sys.stderr.flush()
    time.sleep(PULSE_S)
sys.stderr.write(f"Done {n} runs in 1 second(s)\n")
'''
