"""Campaigns at scale: `./scnfuzz fuzz --jobs N` and campaign resume.

- libFuzzer, --jobs 2: two processes on one campaign corpus (-reload=1); each
  picks up units the other found (its RELOAD status lines); both workers'
  findings in one report.json; the executions summed; SIGINT stops both and
  the report is still written.
- AFL++, --jobs 2: one main (-M j0) and one secondary (-S j1) instance in one
  sync directory; the main instance imports the secondary's queue entries;
  stopped by time; executions = the instances' execs_done summed.
- Resume: the campaign corpus is kept; the next campaign starts from its
  units (counted in report.json, said on stderr, loaded by libFuzzer);
  --fresh starts from the seeds only.
- The fold of the workers' own findings files into findings.jsonl.

Each campaign fuzzes at most ~15 s. Run: /usr/bin/python3 -m pytest -q tests/test_campaign_jobs.py
"""
import hashlib
import json
import re
import signal
import subprocess
import time

import pytest

from conftest import campaign_seconds
from plugin_findings import REPO, SCNFUZZ, load_report, raw_findings, run_scnfuzz, scnfuzz_env, track

from scnfuzz.runs import Run  # noqa: E402  (plugin_findings puts runner on sys.path)

SEEDS = REPO / "corpus" / "fuzz" / "fuzz_iso_diff"


def _units(d):
    return sorted(p.name for p in d.iterdir() if p.is_file() and not p.name.startswith("."))


def _logs(run_dir):
    return {i: (run_dir / "fuzz" / f"fuzz_iso_diff-{i}.log") for i in (0, 1)}


def _text(p):
    return p.read_text(errors="replace") if p.is_file() else ""


def _workers_of_findings(rep):
    return set().union(*(set(f.get("workers", [])) for f in rep["findings"]))


@pytest.mark.campaign
def test_libfuzzer_two_workers_one_corpus_one_report_sigint(tmp_path):
    run_dir = track(tmp_path / "20260101T000000Z-fuzz")
    corpus = tmp_path / "campaign-corpus"
    proc = subprocess.Popen([str(SCNFUZZ), "fuzz", "--jobs", "2", "--time", "300",
                             "--corpus", str(corpus), "--out", str(run_dir)], cwd=REPO, env=scnfuzz_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    logs = _logs(run_dir)
    t0 = None
    deadline = time.monotonic() + 900  # the first run may build build/fuzz
    while True:  # until each worker has taken in units of the other (RELOAD), 20 s at most
        if proc.poll() is not None:
            pytest.fail(f"scnfuzz fuzz ended early (exit {proc.returncode}): {proc.communicate()[1][-1500:]}")
        if t0 is None and all(p.is_file() for p in logs.values()):
            t0 = time.monotonic()
        if t0 and (all("RELOAD" in _text(p) for p in logs.values()) or time.monotonic() - t0 > 20):
            break
        assert time.monotonic() < deadline, "the fuzzers did not start"
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 1), err[-2000:]
    assert "SIGINT" in err and "report" in out
    rep = load_report(run_dir)
    part = rep["parts"][-1]
    assert part["status"] == "interrupted" and part["jobs"] == 2
    assert part["corpus"] == str(corpus) and part["resumed_units"] == 0
    # one corpus: both processes were given it as their only corpus directory, the seeds
    # being units of it (named by SHA-1, so that a seed that kills the fuzzer can leave it)
    for i, p in logs.items():
        cmd = _text(p).splitlines()[0].split()
        assert cmd[1] == str(corpus) and not cmd[2].startswith("/") and "-reload=1" in cmd, cmd
    seeds = {hashlib.sha1(f.read_bytes()).hexdigest() for f in SEEDS.iterdir() if f.is_file()}
    assert seeds <= {f.name for f in corpus.iterdir()}
    # ... and really shared: each took in units the other had found (libFuzzer's RELOAD lines)
    ws = {w["worker"]: w for w in part["workers"]}
    assert set(ws) == {0, 1}
    for i, w in ws.items():
        assert w["reloads"] >= 1 and w["reloads"] == _text(logs[i]).count("\tRELOAD "), (i, w)
        assert w["executions"] > 0 and w["inited_units"] >= 1
    assert part["executions"] == ws[0]["executions"] + ws[1]["executions"] == rep["executions"]
    assert part["corpus_units"] == len(_units(corpus)) > len(_units(SEEDS))
    # one report with both workers' findings, every raw line of both in it
    raw = raw_findings(run_dir)
    assert {f.get("worker") for f in raw} == {0, 1}
    for i in (0, 1):
        own = (run_dir / "fuzz" / f"fuzz_iso_diff-{i}.findings.jsonl").read_text().splitlines()
        assert len(own) == sum(1 for f in raw if f.get("worker") == i) > 0
    assert rep["summary"]["raw_findings"] == len(raw)
    assert {f["signature"] for f in rep["findings"]} == {f["signature"] for f in raw}
    assert _workers_of_findings(rep) == {0, 1}


@pytest.mark.campaign
# build/afl: configured and built by the first of these (one xdist worker runs them all)
@pytest.mark.xdist_group("build-afl")
def test_afl_main_and_secondary_one_sync_dir(tmp_path):
    run_dir = track(tmp_path / "20260101T000000Z-fuzz")
    corpus = tmp_path / "campaign-corpus"
    # AFL++'s main instance first syncs once it has fuzzed its first queue entry (a few
    # seconds in: bench/results/ci_time.md): 30 s, 15 in CI's short form, leave room for a
    # loaded machine (the other xdist worker) running fewer executions a second
    p = run_scnfuzz("fuzz", "--engine", "afl", "--jobs", "2", "--time", str(campaign_seconds(30, 15)),
                    "--corpus", corpus, "--out", run_dir, timeout=1500)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    rep = load_report(run_dir)
    part = rep["parts"][-1]
    assert part["engine"] == "afl" and part["status"] == "done" and part["jobs"] == 2
    sync = run_dir / "fuzz" / "afl"
    assert sorted(d.name for d in sync.iterdir() if d.is_dir()) == ["j0", "j1"]
    for i, role in ((0, "-M j0"), (1, "-S j1")):  # one main, one secondary, one sync dir (-o)
        cmd = _logs(run_dir)[i].read_text(errors="replace").splitlines()[0]
        assert f" -o {sync} " in cmd and f" {role} " in cmd, cmd
    stats = {}
    for j in ("j0", "j1"):
        st = dict(l.split(":", 1) for l in (sync / j / "fuzzer_stats").read_text().splitlines() if ":" in l)
        stats[j] = {k.strip(): v.strip() for k, v in st.items()}
    ws = {w["worker"]: w for w in part["workers"]}
    for i, j in enumerate(("j0", "j1")):
        assert ws[i]["executions"] == int(stats[j]["execs_done"]) > 0
        assert ws[i]["imported"] == int(stats[j]["corpus_imported"])
    assert part["executions"] == sum(w["executions"] for w in ws.values())  # not counted twice
    # the main instance synced the secondary's finds into its queue
    assert ws[0]["imported"] >= 1 and any(",sync:j1," in q.name for q in (sync / "j0" / "queue").iterdir())
    raw = raw_findings(run_dir)
    assert {f.get("worker") for f in raw} == {0, 1}
    assert {f["signature"] for f in rep["findings"]} == {f["signature"] for f in raw}
    assert _workers_of_findings(rep) == {0, 1}
    # what the instances found is kept in the campaign corpus for the next campaign
    assert part["corpus_units"] == len(_units(corpus)) > 0
    assert not (run_dir / "fuzz" / "afl-in").exists()


def _campaign(run_dir, corpus, *extra):
    # (a campaign's first seconds already keep units beyond the seeds: what resuming loads)
    p = run_scnfuzz("fuzz", "--time", str(campaign_seconds(4, 2)), "--corpus", corpus, "--out", run_dir, *extra,
                    timeout=1200)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    return load_report(run_dir)["parts"][-1], p.stderr


@pytest.mark.campaign
def test_resume_from_the_previous_campaign_and_fresh(tmp_path):
    corpus = tmp_path / "campaign-corpus"
    first, err1 = _campaign(track(tmp_path / "20260101T000001Z-fuzz"), corpus)
    assert first["resumed_units"] == 0 and f"starting from the {len(_units(SEEDS))} seeds" in err1
    n1 = first["corpus_units"]
    assert n1 == len(_units(corpus)) > 0
    run2 = track(tmp_path / "20260101T000002Z-fuzz")
    second, err2 = _campaign(run2, corpus)
    assert second["resumed_units"] == n1
    assert f"resuming from {n1} units of the previous campaign" in err2
    log = (run2 / "fuzz" / "fuzz_iso_diff-0.log").read_text(errors="replace")
    assert re.search(rf"INFO: +{n1} files found in {re.escape(str(corpus))}\n", log), log[:2000]
    # libFuzzer kept more units at start-up than the seeds alone give
    inited = second["workers"][0]["inited_units"]
    assert inited > len(_units(SEEDS)) and inited == int(re.search(r"INITED .* corp: (\d+)/", log).group(1))
    assert second["corpus_units"] >= n1
    # --fresh: from the seeds only, the previous units moved aside
    n2 = second["corpus_units"]
    third, err3 = _campaign(track(tmp_path / "20260101T000003Z-fuzz"), corpus, "--fresh")
    assert third["resumed_units"] == 0 and third["fresh"] is True
    assert "--fresh" in err3 and "resuming" not in err3
    assert len(_units(tmp_path / "campaign-corpus.prev")) == n2


def test_fold_worker_findings_whole_lines_once(tmp_path):
    run = Run.create("fuzz", tmp_path / "20260101T000000Z-fuzz")
    (run.path / "fuzz").mkdir()
    w0, w1 = (run.path / "fuzz" / f"fuzz_iso_diff-{i}.findings.jsonl" for i in (0, 1))
    a, b, c = ({"oracle": "o", "case": f'"%d" int:{i}', "signature": f"s{i}"} for i in range(3))
    w0.write_text(json.dumps(a) + "\n" + json.dumps(b)[:20])  # the second line still being written
    w1.write_text(json.dumps(c) + "\n")
    assert run.fold_worker_findings() == 2
    assert run.fold_worker_findings() == 0
    with open(w0, "a") as f:
        f.write(json.dumps(b)[20:] + "\n")
    assert run.fold_worker_findings() == 1
    got = raw_findings(run.path)
    assert sorted((f["signature"], f["worker"]) for f in got) == [("s0", 0), ("s1", 0), ("s2", 1)]
