"""`scnfuzz conform`: the conformance suite (corpus/*.tsv) through scn-conform."""
import json
import pathlib
import subprocess
import time

from . import build, casetext, targets as tg
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


def finding_from_result(r):
    """A failed scn-conform result line -> a raw finding (findings.jsonl shape)."""
    target = r["target"]
    oracle = r.get("oracle") or "expect.output"
    if r.get("class"):
        klass = r["class"]
    elif oracle.startswith("expect."):
        klass = "conformance"
    else:
        klass = "invariant"
    if r["status"] == "error":
        klass = "error"
    conv, fcls = casetext.classify(r["case"])
    outputs = {}
    actual = r.get("actual")
    if actual is not None:
        o = {"ret": r.get("ret"), "bytes": actual}
        if o["ret"] is None and actual.startswith('"'):
            try:
                o["ret"] = len(casetext.unquote(actual.split(" n=")[0]))
            except casetext.CaseSyntaxError:
                pass
        if actual == "!err":
            o = {"ret": -1, "bytes": '""'}
        outputs[target] = o
    if r.get("expected") is not None:
        outputs["expected"] = {"ret": None, "bytes": r["expected"]}
    f = {"oracle": oracle, "classification": klass, "case": r["case"],
         "signature": f"conform:{oracle}:{conv}:{fcls}:{target}", "detail": r.get("detail", ""),
         "target": target, "source": "conform", "category": r.get("category"),
         "kind": r.get("kind"), "citation": r.get("citation"),
         "where": f"{r.get('file')}:{r.get('line')}", "outputs": outputs}
    if r.get("size") is not None:
        f["size"] = r["size"]
        f["family"] = r.get("family")
    return f


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
    summary = None
    err_tail = []
    with open(run.path / results_name, "w", encoding="utf-8") as out:
        p = subprocess.Popen(cmd, cwd=build.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            out.write(line + "\n")
            if '"status":"pass"' in line and '"summary"' not in line:
                counts["pass"] += 1
                n = sum(counts.values())
                prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error",
                            frac=n / total if total else None)
                continue
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "summary" in r:
                summary = r["summary"]
                continue
            st = r.get("status")
            counts[st] = counts.get(st, 0) + 1
            if st in ("fail", "error"):
                run.append_finding(finding_from_result(r))
            n = sum(counts.values())
            prog.update(f"{n}/{total} results, {counts['fail']} fail, {counts['error']} error",
                        frac=n / total if total else None)
        err_tail = p.stderr.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        rc = p.wait()
    if rc == 2 or summary is None:
        prog.done("failed")
        run.update_part(pidx, status="error", exit=rc)
        msg = err_tail[-1] if err_tail else f"scn-conform exited {rc}"
        raise SetupError(f"conformance run failed: {msg}")
    prog.done(f"{sum(counts.values())} results: {counts['pass']} pass, {counts['fail']} fail, "
              f"{counts['error']} error in {time.monotonic() - t0:.1f}s")
    run.update_part(pidx, status="done", exit=rc, cases_run=summary.get("cases", 0),
                    results_count=summary.get("results", 0), counts=counts,
                    skipped=summary.get("skipped", 0), duration_s=round(time.monotonic() - t0, 3),
                    finished=utc_iso())
    return run
