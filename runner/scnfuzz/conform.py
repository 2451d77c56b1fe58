"""`scnfuzz conform`: the conformance suite (corpus/*.tsv) through scn-conform.
Its result lines go to conform.jsonl (the matrix); the finding records it
writes go to findings.jsonl as they are."""
import collections
import json
import os
import pathlib
import subprocess
import threading
import time

from . import build, children, targets as tg
from .errors import SetupError, UsageError, write_error
from .progress import Progress
from .runs import Run, utc_iso

# scn-conform prints a result line per (case, target) as it goes; one that
# prints nothing for this long is stuck on a case (killed, exit 2, the last
# result named), so the suite's time is bounded by its size
# (env SCN_CONFORM_STALL_S overrides)
STALL_S = 300


def stall_s():
    v = os.environ.get("SCN_CONFORM_STALL_S", "")
    try:
        t = float(v) if v else STALL_S
    except ValueError:
        t = -1
    if not 0 < t < float("inf"):
        raise UsageError(f"SCN_CONFORM_STALL_S={v!r}: not a positive number of seconds")
    return t


def corpus_files(given=None):
    """The corpus files to run; FILE.tsv:LINE (a conformance finding's "where")
    is that one line of FILE.tsv, which scn-conform takes as it is."""
    if given:
        files = []
        for g in given:
            p = pathlib.Path(g).resolve()
            path, _, line = str(g).rpartition(":")
            if not p.is_file() and path and line.isdigit() and pathlib.Path(path).resolve().is_file():
                p = pathlib.Path(f"{pathlib.Path(path).resolve()}:{line}")
            elif not p.is_file():
                raise UsageError(f"--corpus {g}: no such file")
            files.append(p)
        return files
    files = sorted((build.ROOT / "corpus").glob("*.tsv"))
    if not files:
        raise SetupError(f"no corpus/*.tsv in {build.ROOT}: the conformance corpus is missing")
    return files


def _rel(p):
    """A corpus path as scn-conform gets it (relative to the repo when inside)."""
    try:
        return str(pathlib.Path(p).relative_to(build.ROOT))
    except ValueError:
        return str(p)


def _expected_results(files, sel):
    """How many (case, target) results scn-conform will print (for progress)."""
    cols = {"iso": 2, "kernel": 3}
    n = 0
    for p in files:
        path, _, only = str(p).rpartition(":")
        only = int(only) if path and only.isdigit() and not pathlib.Path(p).is_file() else 0
        with open(path if only else p, encoding="latin-1") as f:
            for no, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#") or (only and no != only):
                    continue
                fl = line.rstrip("\n").split("\t")
                if len(fl) == 6:
                    n += sum(1 for t in sel if fl[cols[t["dialect"]]] != "-")
    return n


def finding_record(line):
    """The finding record (docs/FINDINGS.md) a line of scn-conform's output
    carries: a result line's "finding" object, or the line itself when it is a
    record and not a result. scn-conform reduces and signs its failures; they
    are copied into findings.jsonl unchanged."""
    f = line.get("finding")
    if isinstance(f, dict):
        return f
    if "status" not in line and "summary" not in line and "signature" in line and "oracle" in line:
        return line
    return None


def run_conform(args):
    from .campaign import check_tables
    check_tables()  # a broken SCN_ALLOWANCES / SCN_KNOWN_BUGS: exit 2 naming file and line
    conform = build.tool("scn-conform")
    all_t = tg.list_targets(conform)
    sel = tg.select(all_t, args.target, args.dialect)
    files = corpus_files(args.corpus)
    run = Run.create("conform", args.out)
    idx = len(run.meta.get("parts", []))
    results_name = "conform.jsonl" if idx == 0 else f"conform-{idx}.jsonl"
    part = {"kind": "conform", "started": utc_iso(), "targets": sel, "dialect": args.dialect,
            "results": results_name, "corpus": [_rel(p) for p in files],
            "status": "running"}
    pidx = run.add_part(part)
    total = _expected_results(files, sel)
    cmd = [str(conform)]
    for t in sel:
        cmd += ["--target", t["name"]]
    cmd += [_rel(p) for p in files]
    prog = Progress(f"conform ({', '.join(t['name'] for t in sel)})")
    t0 = time.monotonic()
    st = {"counts": {"pass": 0, "fail": 0, "error": 0}, "known": 0, "summary": None, "last": None,
          "t": time.monotonic(), "stalled": False}
    results_path = run.path / results_name
    p = children.popen(cmd, cwd=build.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err_tail = collections.deque(maxlen=3)
    # stderr drained as it comes (a full pipe would block scn-conform)
    err_reader = threading.Thread(target=lambda: err_tail.extend(
        l for l in (r.decode("utf-8", "replace").strip() for r in p.stderr) if l), daemon=True)
    err_reader.start()
    done = threading.Event()

    stall = stall_s()

    def watchdog():
        while not done.wait(min(5, stall)):
            if time.monotonic() - st["t"] > stall:
                st["stalled"] = True
                children.kill_group(p)
                return
    threading.Thread(target=watchdog, daemon=True).start()
    try:
        with open(results_path, "w", encoding="utf-8") as out:
            _read_results(p, out, run, st, prog, total)
    except OSError as e:  # the results file (a full disk): findings.jsonl is kept whole
        children.kill_group(p)
        p.wait()
        run.update_part(pidx, status="error")
        raise write_error(results_path, e) from None
    except BaseException:
        children.kill_group(p)
        p.wait()
        raise
    finally:
        done.set()
    rc = p.wait()
    err_reader.join(timeout=5)
    counts, known, summary = st["counts"], st["known"], st["summary"]
    if st["stalled"]:
        prog.done("stalled")
        run.update_part(pidx, status="error", exit=rc)
        try:
            last = json.loads(st["last"] or "{}")
        except ValueError:
            last = {}
        raise SetupError(f"conformance run stalled: scn-conform printed nothing for {stall:g} s after "
                         f"{sum(counts.values())} of {total} results (the last: {last.get('case')} on "
                         f"{last.get('target')}, {last.get('file')}:{last.get('line')}); killed")
    if rc == 2 or summary is None:
        prog.done("failed")
        run.update_part(pidx, status="error", exit=rc)
        msg = err_tail[-1] if err_tail else f"scn-conform {children.describe_status(rc)}"
        raise SetupError(msg if msg.startswith("scnfuzz: ") else f"conformance run failed: {msg}")
    prog.done(f"{sum(counts.values())} results: {counts['pass']} pass, {counts['fail']} fail, "
              f"{counts['error']} error ({known} explained by a rule) in {time.monotonic() - t0:.1f}s")
    run.update_part(pidx, status="done", exit=rc, cases_run=summary.get("cases", 0),
                    results_count=summary.get("results", 0), counts=counts,
                    skipped=summary.get("skipped", 0), duration_s=round(time.monotonic() - t0, 3),
                    finished=utc_iso())
    return run


def _read_results(p, out, run, st, prog, total):
    """scn-conform's lines into the results file, its finding records into
    findings.jsonl, the counts and the last result into st."""
    counts = st["counts"]
    for raw in p.stdout:
        st["t"] = time.monotonic()
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        out.write(line + "\n")
        if '"status":"pass"' in line and '"summary"' not in line and '"finding"' not in line:
            counts["pass"] += 1
            n = sum(counts.values())
            prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error ({st['known']} known)",
                        frac=n / total if total else None)
            st["last"] = line  # parsed only if it is needed (a stall)
            continue
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if not isinstance(r, dict):
            continue
        if "summary" in r:
            st["summary"] = r["summary"] if isinstance(r["summary"], dict) else {}
            continue
        rec = finding_record(r)
        if rec is not None:
            run.append_finding(rec)
        if "status" not in r:
            continue
        st["last"] = line
        s = r["status"]
        counts[s] = counts.get(s, 0) + 1
        if s in ("fail", "error") and r.get("rule_kind"):
            st["known"] += 1
        n = sum(counts.values())
        prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error ({st['known']} known)",
                    frac=n / total if total else None)
