"""A campaign stopped midway keeps what it found.

- SIGTERM a few seconds into an ISO campaign (ref, glibc, musl: glibc prints
  "(nil)" for %p of NULL, musl "0", an implementation-defined finding that is
  recorded without aborting): scnfuzz stops the fuzzers and still writes the
  report; every signature of findings.jsonl is in report.json.
- SIGTERM a campaign on a planted bug (vscnprintf returning the would-be
  length): exit 1, an invariant finding on the planted target.
- SIGKILL scnfuzz itself: the fuzzers die with it, their findings are in
  their own files (and most already in findings.jsonl), and `./scnfuzz report
  DIR` folds the rest in and rebuilds report.json.

Run: /usr/bin/python3 -m pytest -q tests/test_campaign_kill.py
(the first run builds build/fuzz through the `fuzz` preset).
"""
import json
import os
import signal
import subprocess
import time

import pytest

from plugin_findings import REPO, SCNFUZZ, load_report, raw_findings, run_scnfuzz, scnfuzz_env, track
from conftest import FAKE_FUZZER_PULSE

CAMPAIGN_S = 300  # far longer than the test lets it run


@pytest.fixture(name="run_dir")
def fixture_run_dir(tmp_path):
    """A fresh run directory (--out); its report is shown if the test fails."""
    return track(tmp_path / "20260101T000000Z-fuzz")


def _start(run_dir, *args):
    return subprocess.Popen([str(SCNFUZZ), "fuzz", "--time", str(CAMPAIGN_S),
                             "--out", str(run_dir), *args], cwd=REPO, env=scnfuzz_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_findings(proc, run_dir, want=1, build_timeout=900, find_timeout=90):
    """Waits until the fuzzers run (the build may come first), then for findings."""
    t0 = time.monotonic()
    while not list((run_dir / "fuzz").glob("*.log")) if (run_dir / "fuzz").is_dir() else True:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"scnfuzz fuzz ended before fuzzing (exit {proc.returncode}): {err[-1500:]}")
        if time.monotonic() - t0 > build_timeout:
            proc.kill()
            pytest.fail("the fuzzers did not start (build too slow?)")
        time.sleep(0.5)
    t1 = time.monotonic()
    while len(raw_findings(run_dir)) < want:
        if proc.poll() is not None:
            pytest.fail(f"scnfuzz fuzz ended early (exit {proc.returncode}): {proc.communicate()[1][-1500:]}")
        if time.monotonic() - t1 > find_timeout:
            break
        time.sleep(0.5)
    time.sleep(2)  # a few seconds midway
    return time.monotonic() - t1


def _fuzzer_pids(run_dir):
    """Processes running a fuzzer of this run (their command line names the run's artifacts)."""
    pids = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                cmd = open(f"/proc/{p}/cmdline", "rb").read().decode("utf-8", "replace")
            except OSError:
                continue
            if "-artifact_prefix=" + str(run_dir) in cmd:
                pids.append(int(p))
    return pids


@pytest.mark.campaign
def test_sigterm_midway_keeps_the_findings(run_dir):
    proc = _start(run_dir)
    _wait_for_findings(proc, run_dir, want=1)
    t_kill = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert time.monotonic() - t_kill < 60
    assert proc.returncode in (0, 1), err[-2000:]
    assert "SIGTERM" in err and "report" in out
    raw = raw_findings(run_dir)
    assert raw, "no finding within the time allowed"
    rep = load_report(run_dir)
    part = rep["parts"][-1]
    assert part["kind"] == "fuzz" and part["status"] == "interrupted"
    assert part["duration_s"] < CAMPAIGN_S / 2 and part["executions"] > 0
    assert rep["summary"]["raw_findings"] == len(raw)
    assert {f["signature"] for f in rep["findings"]} == {f["signature"] for f in raw}
    assert sum(f["count"] for f in rep["findings"]) == len(raw)
    assert proc.returncode == (1 if rep["summary"]["bugs"] else 0)
    p_null = [f for f in rep["findings"] if f["rule"] and f["rule"]["id"] == "p-spelling"]
    for f in p_null:  # glibc vs musl on %p: implementation-defined, cited, not a bug
        assert f["classification"] == "implementation-defined" and not f["bug"]
        assert f["rule"]["kind"] == "allowance" and "7.21.6.1p8" in f["rule"]["citation"]
    assert not _fuzzer_pids(run_dir)


@pytest.mark.campaign
def test_sigterm_planted_bug_is_a_finding(run_dir):
    proc = _start(run_dir, "--planted", "ret-would-be")
    _wait_for_findings(proc, run_dir, want=1)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err[-2000:]
    rep = load_report(run_dir)
    bugs = [f for f in rep["findings"] if f["bug"]]
    assert bugs and any(f["oracle"].startswith("scn.") and "planted" in f["targets"] for f in bugs), \
        [(f["oracle"], f["targets"]) for f in rep["findings"]]
    # the reproduce command of a (reduced) finding really shows it
    f = next(f for f in bugs if "planted" in f["targets"])
    p = run_scnfuzz("replay", f["case"], "--target", "ref", "--target", "planted",
                    env=scnfuzz_env(SCN_PLANTED="ret-would-be"), timeout=300)
    assert p.returncode == 1 and f["oracle"] in p.stdout, p.stdout[-1500:]


@pytest.mark.campaign
def test_sigkill_loses_nothing_and_report_rebuilds(run_dir):
    proc = _start(run_dir)
    _wait_for_findings(proc, run_dir, want=1)
    pids = _fuzzer_pids(run_dir)
    assert pids
    proc.kill()
    proc.communicate(timeout=60)
    for _ in range(40):  # the fuzzers die with scnfuzz (parent-death signal)
        if not _fuzzer_pids(run_dir):
            break
        time.sleep(0.25)
    assert not _fuzzer_pids(run_dir)
    raw = raw_findings(run_dir)
    assert raw
    # each fuzzer's own file (fuzz/<fuzzer>-<worker>.findings.jsonl) holds every line it wrote,
    # also those scnfuzz had not folded into findings.jsonl yet when it was killed
    own = [json.loads(l) for fp in (run_dir / "fuzz").glob("*.findings.jsonl")
           for l in fp.read_text().splitlines() if l.startswith("{")]
    p = run_scnfuzz("report", run_dir, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    rep = load_report(run_dir)
    sigs = {f["signature"] for f in rep["findings"]}
    assert {f["signature"] for f in raw} <= sigs == {f["signature"] for f in own}
    assert sigs == {f["signature"] for f in raw_findings(run_dir)}
    assert rep["parts"][-1]["status"] == "running"  # what run.json said when it was killed


# ---- the campaign runner against a stand-in fuzzer (libFuzzer's interface, scripted behaviour)

FAKE_FUZZER = r'''#!/usr/bin/python3
import json, os, pathlib, sys, time
args = sys.argv[1:]
corpus = pathlib.Path(args[0])
opt = dict(a[1:].split("=", 1) for a in args if a.startswith("-") and "=" in a)
mode = os.environ["FAKE_MODE"]
if mode == "setup-error":
    sys.stderr.write("ERROR: cannot load the allowances table\n")
    sys.exit(1)
marker = corpus / "crashed-once"
sys.stderr.write("#2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n")
if not marker.exists():
    marker.write_text("x")
    with open(os.environ["SCN_FINDINGS"], "a") as f:
        f.write(json.dumps({"oracle": "differential", "classification": "divergence", "case": '"%d|" int:1',
                            "signature": "differential:d::ref~musl", "outputs": {}}) + "\n")
    pathlib.Path(opt["artifact_prefix"] + "crash-0123abcd").write_bytes(b"\x00%d")
    sys.stderr.write("==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n"
                     "SUMMARY: AddressSanitizer: heap-buffer-overflow vfprintf.c:1 in musl_fmt_fp\n")
    sys.exit(1)
PULSE_S = 0.2
''' + FAKE_FUZZER_PULSE


def _fake_build(tmp_path, mode):
    d = tmp_path / "fakebuild"
    (d / "fuzz").mkdir(parents=True)
    exe = d / "fuzz" / "fuzz_iso_diff"
    exe.write_text(FAKE_FUZZER)
    exe.chmod(0o755)
    return scnfuzz_env(SCN_FUZZ_BUILD_DIR=str(d), FAKE_MODE=mode)


def test_a_crashing_fuzzer_is_a_finding_and_restarts(tmp_path, run_dir):
    env = _fake_build(tmp_path, "crash-once")
    p = run_scnfuzz("fuzz", "--time", "4", "--out", run_dir, env=env, timeout=600)
    assert p.returncode == 1, p.stderr[-2000:]
    rep = load_report(run_dir)
    by = {f["classification"]: f for f in rep["findings"]}
    crash = by["crash"]
    assert crash["artifact"].startswith("artifacts/fuzz_iso_diff-crash-")
    assert "heap-buffer-overflow" in crash["detail"] and "musl_fmt_fp" in crash["signature"]
    assert by["divergence"]["case"] == '"%d|" int:1'  # what the fuzzer wrote before dying
    part = rep["parts"][-1]
    assert part["status"] == "done" and part["restarts"] == 1 and part["exit_codes"] == [[1, 0]]
    assert part["executions"] >= 1000  # the restarted incarnation's status lines were parsed
    assert rep["findings"][0]["classification"] == "crash"  # worst first


def test_a_fuzzer_failing_at_start_up_is_a_setup_error(tmp_path, run_dir):
    env = _fake_build(tmp_path, "setup-error")
    p = run_scnfuzz("fuzz", "--time", "30", "--out", run_dir, env=env, timeout=600)
    assert p.returncode == 2
    lines = [l for l in p.stderr.splitlines() if l.startswith("scnfuzz: ") and "building" not in l]
    assert len(lines) == 1 and "failed at start-up" in lines[0] and "allowances" in lines[0], p.stderr


# reports/latest: moved by a run without --out; no other such test at the same time
@pytest.mark.xdist_group("reports-latest")
def test_default_run_directory_and_latest_symlink(tmp_path):
    env = _fake_build(tmp_path, "crash-once")
    reports = REPO / "reports"
    latest = reports / "latest"
    before = os.readlink(latest) if latest.is_symlink() else None
    existing = set(os.listdir(reports))
    p = run_scnfuzz("fuzz", "--time", "2", env=env, timeout=600)
    new = sorted(set(os.listdir(reports)) - existing - {"latest"})
    try:
        assert p.returncode == 1, p.stderr[-1500:]
        assert len(new) == 1 and new[0].endswith("-fuzz"), new
        import re
        assert re.fullmatch(r"[0-9]{8}T[0-9]{6}Z-fuzz", new[0])
        assert os.readlink(latest) == new[0]
        rep = load_report(reports / new[0])
        assert rep["run"]["kind"] == "fuzz" and rep["findings"]
        assert f"reports/{new[0]}/report.html" in p.stdout
    finally:
        import shutil
        for n in new:
            shutil.rmtree(reports / n, ignore_errors=True)
        if before is not None:
            tmp = reports / ".latest.test"
            os.symlink(before, tmp)
            os.replace(tmp, latest)
        elif latest.is_symlink():
            latest.unlink()


@pytest.mark.campaign
# build/afl: configured and built by the first of these (one xdist worker runs them all)
@pytest.mark.xdist_group("build-afl")
def test_afl_engine_campaign(run_dir):
    """--engine afl: AFL++ (build/afl, configured on first use) runs the same
    fuzzer in campaign mode; its stats give the executions; SIGTERM stops it."""
    proc = subprocess.Popen([str(SCNFUZZ), "fuzz", "--engine", "afl", "--time", str(CAMPAIGN_S),
                             "--out", str(run_dir)], cwd=REPO, env=scnfuzz_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_findings(proc, run_dir, want=1, build_timeout=900, find_timeout=60)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 1), err[-2000:]
    rep = load_report(run_dir)
    part = rep["parts"][-1]
    assert part["engine"] == "afl" and part["status"] == "interrupted"
    assert part["executions"] > 100, part
    assert [t["name"] for t in rep["targets"]] == ["ref", "glibc"]
    raw = raw_findings(run_dir)
    assert raw and {f["signature"] for f in rep["findings"]} == {f["signature"] for f in raw}
    assert (run_dir / "fuzz" / "afl" / "j0" / "fuzzer_stats").is_file()
