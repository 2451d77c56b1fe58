"""Faults are named as faults, and scnfuzz owns what it starts (issue 16, points 5-8).

- No orphans, bounded children: kill -9 of scnfuzz (replay, conform, fuzz)
  leaves no process behind; replay of a case that would take gigabytes or
  forever ends, bounded, with one line.
- Faults named as faults: a worker killed with kill -9 is restarted and
  logged in run.json, not a finding; a broken allowances or known-bugs table
  is exit 2 naming file and line; a full disk (a small tmpfs, or /dev/full)
  is exit 2 saying so, with what was written intact; torn or malformed lines
  are counted and reported; replay of a crashing case is one line per crash
  and exit 1 with a finding, never a silent 245.
- Run directories are owned: a second run on one --out is refused; default
  names are unique at the same instant; workers of two runs get different
  seeds.
- Every input validated: hostile values are one line and exit 2; an internal
  error is one line and exit 3; junit.xml stays valid XML.

Campaigns here use a stand-in fuzzer (libFuzzer's interface, scripted
behaviour), so each test takes a few seconds.
Run: SCN_BUILD_DIR=$PWD/build/asan /usr/bin/python3 -m pytest -q tests/test_faults.py
"""
import contextlib
import io
import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid
import xml.dom.minidom

import jsonschema
import pytest

from plugin_findings import REPO, SCNFUZZ, load_report, raw_findings, run_scnfuzz, scnfuzz_env, track
from conftest import FAKE_FUZZER_PULSE

from scnfuzz import cli, report, runs  # noqa: E402  (plugin_findings puts runner on sys.path)
from scnfuzz.errors import SetupError  # noqa: E402

RECORD = jsonschema.Draft7Validator(json.loads((REPO / "oracles" / "finding.schema.json").read_text()))
CRASHING_CASES = ['"ab%n"', '"%s" int:1', '"%9999$d" int:1']
SLOW_CASE = '"%.9000000Lf" ldouble:0x8p-3'  # seconds under ASan: long enough to be killed midway


def one_line_error(p, code=2):
    """The one error line of a command that failed with exit code (progress lines, which
    name their step, and build, warning and note lines aside)."""
    lines = [l for l in p.stderr.splitlines() if l.startswith("scnfuzz") and not l.startswith((
             "scnfuzz: building", "scnfuzz: configuring", "scnfuzz: warning", "scnfuzz: note"))]
    assert p.returncode == code, (p.returncode, p.stdout[-800:], p.stderr[-800:])
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    return lines[0]


# ---------------------------------------------------------------- the stand-in fuzzer

FAKE_FUZZER = r'''#!/usr/bin/python3
import json, os, pathlib, sys, time
args = sys.argv[1:]
opt = dict(a[1:].split("=", 1) for a in args if a.startswith("-") and "=" in a)
mode = os.environ.get("FAKE_MODE", "steady")
(pathlib.Path(os.environ["FAKE_DIR"]) / f"pid-{os.getpid()}").write_text(opt.get("seed", ""))
sys.stderr.write("#2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n")
sys.stderr.flush()
if mode == "quiet":  # no output: only its parent-death signal can end it early
    time.sleep(int(opt["max_total_time"]))
    sys.exit(0)
if mode == "table-error":  # what fz_init does with a broken table, under libFuzzer
    time.sleep(1)
    sys.stderr.write("scnfuzz: /x/allowances.tsv: line 3: unknown pattern term 'q'\n"
                     "==1== ERROR: libFuzzer: fuzz target exited\n")
    pathlib.Path(opt["artifact_prefix"] + "crash-00ff").write_bytes(b"x")
    sys.exit(77)
if mode == "flood":  # findings until the disk is full; then as the C writer: one line, exit 2
    n = 0
    try:
        with open(os.environ["SCN_FINDINGS"], "a") as f:
            while True:
                n += 1
                f.write(json.dumps({"oracle": "differential", "classification": "divergence",
                                    "case": '"%d" int:1', "signature": f"differential:d{n}:glibc~ref:divergence",
                                    "detail": "x" * 1500, "outputs": {}}) + "\n")
                f.flush()
                time.sleep(0.002)
    except OSError as e:
        sys.stderr.write(f"scnfuzz: writing a finding to SCN_FINDINGS: {e.strerror}\n")
        sys.exit(2)
PULSE_S = 0.1
''' + FAKE_FUZZER_PULSE


def _fake_program(tmp_path, rel, text):
    """A stand-in for a built program: the script text, executable, at
    <fake build>/rel; returns the fake build directory."""
    d = tmp_path / "fakebuild"
    exe = d / rel
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text(text)
    exe.chmod(0o755)
    return d


@pytest.fixture(name="fake")
def fixture_fake(tmp_path):
    """(env, dir of pid files) for campaigns with the stand-in fuzzer."""
    d = _fake_program(tmp_path, "fuzz/fuzz_iso_diff", FAKE_FUZZER)
    pids = tmp_path / "pids"
    pids.mkdir()
    env = scnfuzz_env(SCN_FUZZ_BUILD_DIR=str(d), FAKE_DIR=str(pids), FAKE_MODE="steady")
    return env, pids


def _fuzz(out, env, *extra, time_s=4):
    return subprocess.Popen([str(SCNFUZZ), "fuzz", "--time", str(time_s), "--corpus", str(out.parent / "corpus"),
                             "--out", str(out), *extra], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(cond, timeout=120, proc=None, what="it"):
    t0 = time.monotonic()
    while not cond():
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"ended before {what} (exit {proc.returncode}): {proc.communicate()[1][-1500:]}")
        assert time.monotonic() - t0 < timeout, f"no {what} within {timeout} s"
        time.sleep(0.05)


def _pids(d):
    return sorted(int(p.name[4:]) for p in d.glob("pid-*"))


# ---------------------------------------------------------------- 5. no orphans, bounded children

def _marked(mark):
    """Processes whose environment holds mark (scnfuzz's children inherit it)."""
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != os.getpid():
            try:
                with open(f"/proc/{p}/environ", "rb") as f:
                    if mark.encode() in f.read():
                        with open(f"/proc/{p}/stat") as st:
                            if st.read().rsplit(")", 1)[1].split()[0] != "Z":
                                out.append(int(p))
            except OSError:
                continue
    return out


@pytest.mark.parametrize("command", ["replay", "conform", "fuzz"])
def test_kill9_of_scnfuzz_leaves_no_process(command, tmp_path, fake):
    env, pids = fake
    mark = f"SCN_TEST_MARK={uuid.uuid4().hex}"
    env = dict(env, SCN_TEST_MARK=mark.split("=", 1)[1], SCN_REPLAY_TIMEOUT="600")
    if command == "replay":
        cases = tmp_path / "slow.txt"
        cases.write_text((SLOW_CASE + "\n") * 50)
        args, child = ["replay", "--target", "glibc", str(cases)], str(cases)  # (child: in its command line)
    elif command == "conform":
        args, child = ["conform", "--out", str(tmp_path / "conform-run")], "corpus/int.tsv"  # not --list-targets
    else:
        args, child = ["fuzz", "--time", "300", "--out", str(track(tmp_path / "fuzz-run"))], None
        env["FAKE_MODE"] = "quiet"  # (a worker writing to its pipe would also die of SIGPIPE)
    proc = subprocess.Popen([str(SCNFUZZ), *args], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)

    def started():
        if child is None:
            return bool(_pids(pids))
        for pid in _marked(mark):
            if pid == proc.pid:
                continue  # scnfuzz's own command line names the cases file too
            try:
                if child.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                    return True
            except OSError:
                pass
        return False
    _wait_for(started, timeout=600, proc=proc, what=f"the {command} child")
    time.sleep(0.5)
    assert len(_marked(mark)) >= 2  # scnfuzz and its child(ren)
    proc.kill()
    proc.wait()
    _wait_for(lambda: not _marked(mark), timeout=10, what="the end of every child")


def test_replay_of_a_huge_precision_is_bounded():
    """"%.2147483647f" grew past 1.8 GB for minutes: now the memory limit refuses the
    allocation and the case ends in seconds (-1: the output is longer than INT_MAX)."""
    t0 = time.monotonic()
    p = run_scnfuzz("replay", '"%.2147483647f" double:0x1p+0', timeout=300)
    assert time.monotonic() - t0 < 60
    assert p.returncode == 0, p.stderr[-1500:]
    assert "# 1 case(s), 0 finding(s)" in p.stdout and "Traceback" not in p.stderr
    notes = [l for l in p.stderr.splitlines() if "AddressSanitizer failed to allocate" in l]
    assert not notes  # the sanitizer's warnings, one per call, become one note
    # the form the issue used is not a case (a double is a hex float): one line, exit 2
    assert "expected a hex float" in one_line_error(run_scnfuzz("replay", '"%.2147483647f" double:1'))


def test_replay_time_limit_per_case_is_a_hang_finding():
    p = run_scnfuzz("replay", SLOW_CASE, env=scnfuzz_env(SCN_REPLAY_TIMEOUT="0.2"), timeout=120)
    assert p.returncode == 1, p.stderr[-1500:]
    lines = [l for l in p.stdout.splitlines() if l.startswith("  hang: ")]
    assert len(lines) == 1 and "no result within 0.20 s (SCN_REPLAY_TIMEOUT)" in lines[0], p.stdout
    assert "finding hang:" in lines[0], p.stdout
    rec = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    assert [r["classification"] for r in rec] == ["hang"] and rec[0]["oracle"] == "hang"
    RECORD.validate(rec[0])


FAKE_CONFORM = r'''#!/usr/bin/python3
import sys, time
if "--list-targets" in sys.argv:
    print("ref\tiso\tscnfuzz ref\tnative\tin-process")
    sys.exit(0)
print('{"target":"ref","category":"int.d","case":"\\"%d\\" int:1","status":"pass","file":"corpus/int.tsv","line":3}',
      flush=True)
time.sleep(600)  # stuck on the next case
'''


def test_conform_that_stalls_is_stopped_and_named(tmp_path):
    d = _fake_program(tmp_path, "programs/scn-conform", FAKE_CONFORM)
    mark = uuid.uuid4().hex
    t0 = time.monotonic()
    p = run_scnfuzz("conform", "--corpus", "corpus/int.tsv", "--out", tmp_path / "run", timeout=120,
                    env=scnfuzz_env(SCN_BUILD_DIR=str(d), SCN_CONFORM_STALL_S="1", SCN_TEST_MARK=mark))
    line = one_line_error(p)
    assert time.monotonic() - t0 < 30
    assert "stalled" in line and '"%d" int:1 on ref, corpus/int.tsv:3' in line, line
    assert not _marked(mark)  # killed, not left sleeping


# ---------------------------------------------------------------- 6. faults named as faults

@pytest.mark.parametrize("case", CRASHING_CASES)
def test_replay_of_a_crashing_case_is_one_line_and_a_finding(case):
    p = run_scnfuzz("replay", case, timeout=300)
    assert p.returncode == 1, (p.returncode, p.stdout[-1000:], p.stderr[-1000:])
    crash = [l for l in p.stdout.splitlines() if l.startswith("  crash: ")]
    assert len(crash) == 1, p.stdout
    line = crash[0]
    assert f"case {case}" in line and "finding crash:" in line, line
    # how it died, in the one wording of core/supervise/end.c: a fault the
    # oracles did not catch (SIGSEGV, SIGBUS) is memory-safety, other deaths crash
    died = re.search(r"died of (SIG[A-Z]+)", line)
    assert died or "exited with status" in line or "ended the process: exit(" in line, line
    klass = "memory-safety" if died and died.group(1) in ("SIGSEGV", "SIGBUS") else "crash"
    recs = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    assert len(recs) == 1
    r = recs[0]
    RECORD.validate(r)  # the one finding record (oracles/finding.h), docs/FINDINGS.md
    assert r["classification"] == klass and r["oracle"] == "crash" and r["source"] == "replay"
    assert r["original_case"] == case and r["signature"].startswith("crash:") and r["signature"] in line
    assert len(r["targets"]) == 1 and r["targets"][0] in line
    assert "# 1 case(s), 1 finding(s)" in p.stdout


def test_replay_case_file_names_the_crashing_line_and_goes_on(tmp_path):
    f = tmp_path / "cases.txt"
    f.write_text('"%d" int:1\n# a comment\n"%s" int:1\n"x%%"\n')
    p = run_scnfuzz("replay", f, timeout=300)
    assert p.returncode == 1, p.stderr[-1000:]
    crash = [l for l in p.stdout.splitlines() if l.startswith("  crash: ")]
    assert len(crash) == 1 and f"{f}:3: case \"%s\" int:1" in crash[0], p.stdout
    assert p.stdout.count("differential: agree") == 2  # the cases before and after it ran
    assert "# 3 case(s), 1 finding(s)" in p.stdout
    # the finding record names the line too
    rec = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    assert rec["where"] == f"{f}:3"


def test_replay_crash_finding_goes_to_scn_findings(tmp_path):
    out = tmp_path / "f.jsonl"
    p = run_scnfuzz("replay", '"%s" int:1', env=scnfuzz_env(SCN_FINDINGS=str(out)), timeout=300)
    assert p.returncode == 1
    recs = [json.loads(l) for l in out.read_text().splitlines()]
    assert [(r["oracle"], r["classification"]) for r in recs] == [("crash", "memory-safety")]  # SIGSEGV


def test_killed_worker_is_restarted_and_logged_not_a_finding(tmp_path, fake):
    env, pids = fake
    out = track(tmp_path / "20260101T000000Z-fuzz")
    proc = _fuzz(out, env, time_s=6)
    _wait_for(lambda: _pids(pids), proc=proc, what="the worker")
    first = _pids(pids)[0]
    time.sleep(0.3)
    os.kill(first, signal.SIGKILL)
    o, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-2000:]
    assert "killed by SIGKILL: not a finding" in err
    assert len(_pids(pids)) == 2  # restarted
    rep = load_report(out)
    assert not rep["findings"], rep["findings"]  # no crash:fuzz_iso_diff:exit-9
    part = rep["parts"][-1]
    assert part["faults"] == 1 and part["restarts"] == 1 and part["exit_codes"] == [[-9, 0]]
    w = json.loads((out / "run.json").read_text())["parts"][-1]["workers"][0]
    assert [f["status"] for f in w["faults"]] == ["killed by SIGKILL"]


@pytest.mark.parametrize("var", ["SCN_ALLOWANCES", "SCN_KNOWN_BUGS"])
@pytest.mark.parametrize("command", [["fuzz", "--time", "5"], ["replay", '"%d" int:1'],
                                     ["conform", "--target", "glibc", "--corpus", "corpus/trunc.tsv"]])
def test_broken_rules_table_is_a_setup_error(tmp_path, var, command):
    bad = tmp_path / "table.tsv"
    bad.write_text("# header\nonly\ttwo\n")
    args = command + (["--out", str(tmp_path / "run")] if command[0] != "replay" else [])
    line = one_line_error(run_scnfuzz(*args, env=scnfuzz_env(**{var: str(bad)}), timeout=600))
    assert f"{bad}: line 2:" in line, line
    assert not (tmp_path / "run" / "findings.jsonl").exists() or \
        not (tmp_path / "run" / "findings.jsonl").read_text()


def test_a_worker_reporting_a_broken_table_is_a_setup_error(tmp_path, fake):
    """The C side's set-up line in a worker's output (here after start-up, with the
    crash artifact libFuzzer makes of an exit) stops the campaign with exit 2."""
    env, _ = fake
    out = track(tmp_path / "20260101T000000Z-fuzz")
    p = run_scnfuzz("fuzz", "--time", "20", "--out", out, env=dict(env, FAKE_MODE="table-error"), timeout=120)
    line = one_line_error(p)
    assert "allowances.tsv: line 3: unknown pattern term" in line and "worker 0" in line, line
    assert not raw_findings(out)  # not two "crash" findings


@pytest.fixture(name="small_fs")
def fixture_small_fs(tmp_path):
    """A 512 KiB tmpfs (root only)."""
    d = tmp_path / "small"
    d.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(d)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (test_full_disk_dev_full covers a failing write)")
    yield d
    subprocess.run(["umount", "-l", str(d)], check=False)


def _intact(d):
    """Every line of findings.jsonl whole, run.json whole, no temporary file left."""
    data = (d / "findings.jsonl").read_bytes() if (d / "findings.jsonl").exists() else b""
    assert not data or data.endswith(b"\n")
    for l in data.splitlines():
        json.loads(l)
    json.loads((d / "run.json").read_text())
    assert not [p for p in d.rglob("*.tmp")], list(d.rglob("*.tmp"))
    return len(data.splitlines())


def test_full_disk_campaign_exits_2_and_keeps_what_was_written(small_fs, fake):
    env, _ = fake
    out = small_fs / "20260101T000000Z-fuzz"
    p = run_scnfuzz("fuzz", "--time", "30", "--corpus", small_fs.parent / "corpus", "--out", out,
                    env=dict(env, FAKE_MODE="flood"), timeout=120)
    line = one_line_error(p)
    assert "No space left on device" in line, line
    n = _intact(out)
    # what was folded is what the worker wrote, line for line
    own = [l for l in (out / "fuzz" / "fuzz_iso_diff-0.findings.jsonl").read_bytes().split(b"\n")[:n]]
    assert [json.loads(l)["signature"] for l in own] == [f["signature"] for f in raw_findings(out)]


def test_full_disk_report_keeps_the_old_report(small_fs, tmp_path):
    d = small_fs / "run"
    d.mkdir()
    (d / "findings.jsonl").write_text(json.dumps({"oracle": "crash", "classification": "crash",
                                                  "signature": "crash:%s:ref:crash", "case": '"%s" int:1',
                                                  "detail": "x" * 20000}) + "\n")
    (d / "run.json").write_text(json.dumps({"kind": "fuzz", "parts": []}))
    (d / "report.json").write_text("old")
    fd = os.open(small_fs / "filler", os.O_WRONLY | os.O_CREAT)  # fill the disk but 8 KiB
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    os.ftruncate(fd, os.fstat(fd).st_size - 8192)
    os.close(fd)
    line = one_line_error(run_scnfuzz("report", d, timeout=120))
    assert "No space left on device" in line and "intact" in line, line
    assert (d / "report.json").read_text() == "old"
    assert _intact(d) == 1


def test_full_disk_dev_full(tmp_path):
    """A write that fails (findings.jsonl is /dev/full): exit 2, one line, no torn line."""
    d = tmp_path / "run"
    d.mkdir()
    os.symlink("/dev/full", d / "findings.jsonl")
    corpus = tmp_path / "c.tsv"
    corpus.write_text('t.d\t"%d" int:1\t"2"\t"1"\tstd\tcite\n')  # a failing expectation: one finding
    line = one_line_error(run_scnfuzz("conform", "--target", "ref", "--corpus", corpus, "--out", d, timeout=600))
    assert "findings.jsonl: No space left on device" in line and "intact" in line, line



def test_a_failed_append_leaves_no_torn_line(tmp_path, monkeypatch):
    """A write that stops halfway (the disk filled up during it) is cut back."""
    run = runs.Run.create("fuzz", tmp_path / "run")
    run.append_finding({"oracle": "a"})
    keep = run.findings_path.read_bytes()
    real = os.write

    def half(fd, data):
        real(fd, data[:len(data) // 2])
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "write", half)
    with pytest.raises(SetupError, match="No space left on device; what was written before is intact"):
        run.append_finding({"oracle": "b", "detail": "x" * 100})
    monkeypatch.undo()
    assert run.findings_path.read_bytes() == keep


def test_torn_and_malformed_lines_are_counted_and_reported(tmp_path):
    d = track(tmp_path / "run")
    d.mkdir()
    good = {"oracle": "differential", "classification": "divergence",
            "signature": "differential:%d:glibc~ref:divergence", "case": '"%d" int:1', "targets": ["glibc", "ref"], "outputs": {"ref": {"ret": 1, "bytes": '"1"'}}}
    wrong = [dict(good, signature=5), dict(good, outputs={"ref": 5}), dict(good, targets=[1]),
             dict(good, case=["x"]), dict(good, worker="0"), dict(good, rule="r"), dict(good, size=1.5)]
    lines = [json.dumps(good)] + [json.dumps(w) for w in wrong] + ['[1]', '{"no": "oracle"}', '{"oracle": "torn", "sig']
    (d / "findings.jsonl").write_text("\n".join(lines))  # the last line torn: no newline
    p = run_scnfuzz("report", d, timeout=120)
    assert p.returncode == 1, p.stderr  # the one good record is a bug
    assert "Traceback" not in p.stderr
    warn = [l for l in p.stderr.splitlines() if "skipped" in l]
    assert len(warn) == 1 and "10 finding line(s) skipped" in warn[0], p.stderr
    rep = load_report(d)
    assert rep["summary"]["skipped_lines"] == 10 and rep["summary"]["raw_findings"] == 1
    assert "10 line(s) skipped" in p.stdout
    # the workers' files: complete lines that are not records are counted when folded
    run = runs.Run.open(d)
    (d / "fuzz").mkdir()
    (d / "fuzz" / "fuzz_ref-0.findings.jsonl").write_text(json.dumps(good) + "\nnot json\n")
    assert run.fold_worker_findings() == 1
    with contextlib.redirect_stderr(io.StringIO()):
        assert report.build_report(run)["summary"]["skipped_lines"] == 11


def test_run_json_with_wrong_types_is_exit_2(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    (d / "findings.jsonl").write_text("")
    for meta, why in (([1], "not an object"), ({"parts": [{"executions": "many"}]}, "parts[0].executions")):
        (d / "run.json").write_text(json.dumps(meta))
        line = one_line_error(run_scnfuzz("report", d, timeout=120))
        assert "not run metadata scnfuzz wrote" in line and why in line, line


# ---------------------------------------------------------------- 7. run directories are owned

def test_two_runs_on_one_out(tmp_path, fake):
    env, pids = fake
    out = track(tmp_path / "20260101T000000Z-fuzz")
    first = _fuzz(out, env, time_s=30)
    _wait_for(lambda: _pids(pids), proc=first, what="the first run's worker")
    line = one_line_error(run_scnfuzz("fuzz", "--time", "5", "--out", out, env=env, timeout=120))
    assert f"another scnfuzz (pid {first.pid}) is writing this run directory" in line, line
    line = one_line_error(run_scnfuzz("report", out, timeout=120))
    assert "another scnfuzz" in line and "when it ends" in line, line
    assert len(_pids(pids)) == 1  # the second run started no worker
    first.send_signal(signal.SIGTERM)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err[-1500:]
    assert len(json.loads((out / "run.json").read_text())["parts"]) == 1
    # the lock went with its process: the directory takes a next run (added to it)
    p = run_scnfuzz("fuzz", "--time", "1", "--out", out, env=env, timeout=120)
    assert p.returncode == 0, p.stderr[-1500:]
    assert len(json.loads((out / "run.json").read_text())["parts"]) == 2


def test_default_names_unique_at_the_same_instant(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "REPORTS", tmp_path / "reports")
    monkeypatch.setattr(runs, "utc_stamp", lambda: "20260101T000000Z")
    made, errors = [], []

    def create():
        try:
            made.append(runs.Run.create("fuzz").path.name)
        except Exception as e:  # noqa: BLE001 (any error fails the test below)
            errors.append(e)
    threads = [threading.Thread(target=create) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(made)) == 8, (made, errors)
    assert "20260101T000000Z-fuzz" in made and "20260101T000000Z-fuzz-8" in made


def test_workers_of_two_runs_get_different_seeds(tmp_path, fake):
    env, pids = fake
    procs = [_fuzz(track(tmp_path / f"2026010{i}T000000Z-fuzz"), env, "--jobs", "2", time_s=1) for i in (1, 2)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-1500:]
    seeds = [(pids / f"pid-{pid}").read_text() for pid in _pids(pids)]
    assert len(seeds) == 4 and len(set(seeds)) == 4, seeds
    logged = [w["seed"] for i in (1, 2) for w in
              json.loads((tmp_path / f"2026010{i}T000000Z-fuzz" / "run.json").read_text())["parts"][-1]["workers"]]
    assert sorted(map(str, logged)) == sorted(seeds)


# ---------------------------------------------------------------- 8. every input validated

@pytest.mark.parametrize("args,needle", [
    (["fuzz", "--time", "nan"], "finite number of seconds"),
    (["fuzz", "--time", "inf"], "finite number of seconds"),
    (["fuzz", "--time", "-3"], "finite number of seconds"),
    (["fuzz", "--time", "4294967297"], "(0, 2147483647]"),
    (["fuzz", "--time", "1e400"], "finite number of seconds"),
    (["fuzz", "--jobs", "100000"], "between 1 and"),
    (["fuzz", "--planted", "overrun1"], "one of none, ret-would-be"),
    (["conform", "--libc-cc", "no-such-gcc"], "no such compiler driver 'no-such-gcc'"),
    (["fuzz", "--libc-cc", "no-such-gcc", "--time", "5"], "no such compiler driver"),
    (["replay", '"\u20ac"'], "U+20AC must be escaped"),
    (["replay", '"%s" str:"caf\u00e9"'], "U+00E9 must be escaped"),
    (["replay", '"%d" int:\u0661'], "must be escaped"),
])
def test_hostile_values_are_one_line_exit_2(args, needle):
    line = one_line_error(run_scnfuzz(*args, timeout=600))
    assert needle in line, line


def test_raw_byte_in_a_case_file_names_the_line(tmp_path):
    f = tmp_path / "cases.txt"
    f.write_bytes(b'"%d" int:1\n"caf\xe9"\n')
    line = one_line_error(run_scnfuzz("replay", f, timeout=300))
    assert f"{f}:2:" in line and "must be escaped" in line, line


def test_planted_names_come_from_the_c_list():
    from scnfuzz import fuzzers
    src = (REPO / "fuzz" / "planted.c").read_text() + (REPO / "fuzz" / "planted_kernel.c").read_text()
    assert fuzzers.PLANTED and all(f'"{n}"' in src for n in fuzzers.PLANTED)
    assert fuzzers.PLANTED_FUZZER["ip6c-last-run"] == "fuzz_planted_kernel"
    assert fuzzers.PLANTED_FUZZER["overrun-1"] == "fuzz_planted"
    assert "overrun-1" in fuzzers.PLANTED and "overrun1" not in fuzzers.PLANTED


def test_junit_is_valid_xml_with_control_bytes_in_a_category(tmp_path):
    corpus = tmp_path / "c.tsv"
    corpus.write_bytes(b'my\x01cat\x1bgory<&>\t"%d" int:1\t"2"\t"1"\tstd\tcite\x02\n')
    d = track(tmp_path / "run")
    p = run_scnfuzz("conform", "--target", "ref", "--corpus", corpus, "--out", d, timeout=600)
    assert p.returncode == 1, p.stderr[-1500:]
    doc = xml.dom.minidom.parse(str(d / "junit.xml"))
    names = [tc.getAttribute("name") for tc in doc.getElementsByTagName("testcase")]
    assert "my\\x01cat\\x1bgory<&>" in names, names


def test_internal_error_is_one_line_exit_3(monkeypatch, capsys, tmp_path):
    def boom(args):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(cli, "cmd_report", boom)
    monkeypatch.delenv("SCNFUZZ_DEBUG", raising=False)
    assert cli.main(["report", str(tmp_path)]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("scnfuzz: internal error: ZeroDivisionError: a bug"), err
    assert "SCNFUZZ_DEBUG=1" in err[0] and "Traceback" not in err[0]


def test_system_errors_are_setup_errors(monkeypatch, capsys, tmp_path):
    def nospace(args):
        raise OSError(28, "No space left on device", str(tmp_path / "x"))
    monkeypatch.setattr(cli, "cmd_report", nospace)
    assert cli.main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0], err

