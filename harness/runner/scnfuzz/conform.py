"""`scnfuzz conform`: the conformance suite (corpus/*.tsv) through scn-conform.
Its result lines go to conform.jsonl (the matrix); the finding records it
writes go to findings.jsonl as they are."""
import json
import pathlib
import subprocess
import time

from . import build, targets as tg
from .errors import SetupError, UsageError
from .progress import Progress
from .runs import Run, utc_iso


def corpus_files(given=None):
    if given:
        files = []
        for g in given:
            p = pathlib.Path(g).resolve()
            if not p.is_file():
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
        with open(p, encoding="latin-1") as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
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
    counts = {"pass": 0, "fail": 0, "error": 0}
    known = 0  # failures a known-bug, known-gap or allowance rule explains
    summary = None
    err_tail = []
    with open(run.path / results_name, "w", encoding="utf-8") as out:
        p = subprocess.Popen(cmd, cwd=build.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            out.write(line + "\n")
            if '"status":"pass"' in line and '"summary"' not in line and '"finding"' not in line:
                counts["pass"] += 1
                n = sum(counts.values())
                prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error ({known} known)",
                            frac=n / total if total else None)
                continue
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "summary" in r:
                summary = r["summary"]
                continue
            rec = finding_record(r)
            if rec is not None:
                run.append_finding(rec)
            if "status" not in r:
                continue
            st = r["status"]
            counts[st] = counts.get(st, 0) + 1
            if st in ("fail", "error") and r.get("rule_kind"):
                known += 1
            n = sum(counts.values())
            prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error ({known} known)",
                        frac=n / total if total else None)
        err_tail = p.stderr.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        rc = p.wait()
    if rc == 2 or summary is None:
        prog.done("failed")
        run.update_part(pidx, status="error", exit=rc)
        msg = err_tail[-1] if err_tail else f"scn-conform exited {rc}"
        raise SetupError(f"conformance run failed: {msg}")
    prog.done(f"{sum(counts.values())} results: {counts['pass']} pass, {counts['fail']} fail, "
              f"{counts['error']} error ({known} explained by a rule) in {time.monotonic() - t0:.1f}s")
    run.update_part(pidx, status="done", exit=rc, cases_run=summary.get("cases", 0),
                    results_count=summary.get("results", 0), counts=counts,
                    skipped=summary.get("skipped", 0), duration_s=round(time.monotonic() - t0, 3),
                    finished=utc_iso())
    return run
