"""Any libc: the generic executor (programs/exec/scn_exec.c) built with a libc's
own compiler driver (`musl-gcc`, `diet gcc`, `klcc`, ...), and the conformance
suite run through it (`scnfuzz conform --libc-cc "DRIVER" [--name N]`).

The executor is a target of scn-conform (`--exec PATH`, core/targets/executor.c):
the oracles, the expectations, the finding records and the features each case
uses are all computed in C; here the executor is built and the per-category
verdicts (libc.json, libc.md) are read off scn-conform's result lines.
"""
import collections
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import threading
import time

from . import build, children, conform, jsonl
from .errors import SetupError, UsageError
from .progress import Progress
from .runs import Run, utc_iso

ROOT = build.ROOT
EXEC_SRC = ROOT / "programs" / "exec" / "scn_exec.c"
COMPAT = ROOT / "programs" / "exec" / "compat"
# the case model without the decoder: core/case/sources.cmake's SCN_CASE_MODEL_NAMES
CASE_SRC = [ROOT / "core/case" / n for n in re.search(r"set\(SCN_CASE_MODEL_NAMES ([^)]*)\)",
                                                      (ROOT / "core/case/sources.cmake").read_text()).group(1).split()]
UNSUPPORTED_FRAC = 0.9
COMPILE_TIMEOUT = 600  # seconds per compiler run


def _run(cmd, timeout=COMPILE_TIMEOUT, **kw):
    """A compiler (or dpkg-query) run: dies with scnfuzz, bounded in time; no
    memory limit (compilers are not the code under test)."""
    try:
        return children.run(cmd, capture_output=True, text=True, timeout=timeout, mem=False, **kw)
    except children.Timeout:
        raise SetupError(f"`{' '.join(map(str, cmd))[:200]}` did not end within {timeout} s") from None


def build_executor(cc, name=None, outdir=None):
    """Builds scn-exec with the compiler driver `cc` (a command line).
    Returns (path, info dict). Raises SetupError with the compiler's message."""
    try:
        argv = shlex.split(cc)
    except ValueError as e:
        raise UsageError(f"--libc-cc {cc!r}: {e}") from None
    if not argv:
        raise UsageError("--libc-cc: empty compiler driver")
    if not shutil.which(argv[0]):
        raise SetupError(f"--libc-cc {cc!r}: no such compiler driver '{argv[0]}' (not found in PATH; "
                         f"e.g. \"musl-gcc\", \"diet gcc\", klcc)")
    drv = os.path.basename(argv[0])
    name = name or {"musl-gcc": "musl", "diet": "dietlibc", "klcc": "klibc", "gcc": "glibc", "cc": "glibc",
                    "clang": "glibc", "clang-14": "glibc"}.get(drv) or re.sub(r"[^A-Za-z0-9_.-]", "-", drv)
    srcs = [EXEC_SRC, *CASE_SRC, COMPAT / "scn_strtod.c"]
    h = hashlib.sha256(cc.encode())
    for p in srcs + [COMPAT / "scn_strtod.h", COMPAT / "wchar.h", *sorted((ROOT / "core/case").glob("*.h"))]:
        h.update(p.read_bytes())
    outdir = pathlib.Path(outdir or ROOT / "build" / "exec" / f"{name}-{h.hexdigest()[:12]}")
    outdir.mkdir(parents=True, exist_ok=True)
    exe = outdir / "scn-exec"
    infof = outdir / "info.json"
    if exe.is_file() and infof.is_file():
        return exe, json.loads(infof.read_text())
    # the libc's version, as far as the driver tells
    version = _libc_version(argv)
    base = ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror",
            f"-DSCN_EXEC_NAME=\"{name}\"", f"-DSCN_EXEC_VERSION=\"{version}\"",
            f"-I{ROOT / 'core/case'}", f"-I{ROOT / 'core/targets'}",
            # the case text form's hex floats: our own exact parser (dietlibc's strtod
            # has no hex floats, klibc has no strtod at all)
            "-include", str(COMPAT / "scn_strtod.h"), "-Dstrtod=scn_strtod", "-Dstrtold=scn_strtold"]
    probe = outdir / "probe.c"
    probe.write_text("#include <wchar.h>\nint main(void) { return 0; }\n")
    extra = []
    if _run(argv + ["-c", str(probe), "-o", str(outdir / "probe.o")], cwd=outdir).returncode != 0:
        extra.append(f"-I{COMPAT}")  # no <wchar.h> (klibc): the types only
    errors = []
    for static in (["-static"], []):
        for more in ([], ["-msse", "-msse2"]):  # klcc builds with -mno-sse by default
            cmd = argv + base + extra + more + static + [str(s) for s in srcs] + ["-o", str(exe)]
            p = _run(cmd, cwd=outdir)
            if p.returncode == 0:
                info = {"name": name, "cc": cc, "version": version, "flags": base[:5] + extra + more + static,
                        "static": bool(static), "path": str(exe), "command": cmd}
                infof.write_text(json.dumps(info, indent=1) + "\n")
                return exe, info
            errors.append((cmd, p.stderr.strip()))
    cmd, msg = errors[0]
    raise SetupError(f"cannot build the executor with '{cc}': {' '.join(shlex.quote(c) for c in cmd)}\n"
                     f"{msg[-2000:]}")


def _libc_version(argv):
    drv = os.path.basename(argv[0])
    pkg = {"musl-gcc": "musl-dev", "diet": "dietlibc-dev", "klcc": "libklibc-dev"}.get(drv)
    if not pkg and drv.startswith(("gcc", "clang", "cc")):
        pkg = "libc6-dev"
    if pkg and shutil.which("dpkg-query"):
        p = _run(["dpkg-query", "-W", "-f=${Version}", pkg], timeout=60)
        if p.returncode == 0 and p.stdout.strip():
            return f"{pkg} {p.stdout.strip()}"
    return "driver " + " ".join(argv)


# ---- the suite through scn-conform --exec ---------------------------------

def case_features(results):
    """The features of each result's case (its "features", as scn-conform
    writes them), for results that lack them (certify's) through
    `scn-conform --features`."""
    missing = sorted({r["case"] for r in results if "features" not in r and "case" in r})
    found = {}
    if missing:
        tool = build.tool("scn-conform")
        try:
            p = children.run([str(tool), "--features"], input="\n".join(missing) + "\n", capture_output=True,
                             text=True, timeout=300)
        except children.Timeout:
            raise SetupError(f"`{tool} --features` gave no answer in 300 s") from None
        for ln in p.stdout.splitlines():
            d = json.loads(ln)
            found[d["case"]] = d["features"]
    return [set(r["features"]) if "features" in r else set(found.get(r.get("case"), ())) for r in results]


def feature_support(results, min_cases=5):
    """Per feature: cases, failing; unsupported when >= 90% of the cases that
    use it fail (the libc lacks it, e.g. klibc's %f)."""
    use = collections.defaultdict(collections.Counter)
    for r, feats in zip(results, case_features(results)):
        for f in feats:
            use[f]["cases"] += 1
            if r["status"] != "pass" or r.get("note") == "impl-differs":
                use[f]["fail"] += 1
    out = {}
    for f, c in sorted(use.items()):
        sup = not (c["cases"] >= min_cases and c["fail"] >= UNSUPPORTED_FRAC * c["cases"])
        out[f] = {"cases": c["cases"], "fail": c["fail"], "supported": sup}
    return out


def category_verdicts(results, features=None):
    """Per category: conforms (no failure) / unsupported (every failure, and
    every implementation-defined difference, is a case using a feature the
    libc lacks, see feature_support, and no invariant or memory-safety
    oracle fired) / deviates (otherwise)."""
    features = features if features is not None else feature_support(results)
    lacking = {f for f, v in features.items() if not v["supported"]}
    by = collections.defaultdict(collections.Counter)
    for r, feats in zip(results, case_features(results)):
        c = by[r["category"]]
        c["cases"] += 1
        if r["status"] == "pass":
            c["pass"] += 1
            if r.get("note") == "impl-differs" and feats & lacking:
                c["impl_lacking"] += 1  # an implementation-defined output it does not produce at all
            continue
        c["fail"] += 1
        o = r.get("oracle") or ""
        if o in ("crash", "hang"):
            c[o] += 1
        elif o.startswith("expect."):
            c["expect"] += 1
        else:
            c["invariant"] += 1
        if not (feats & lacking) or not (o.startswith("expect.") or o in ("crash", "hang")):
            c["real"] += 1
    out = {}
    for cat, c in sorted(by.items()):
        v = "deviates" if c["real"] else "unsupported" if c["fail"] or c["impl_lacking"] else "conforms"
        out[cat] = {"verdict": v, **{k: c[k] for k in ("cases", "pass", "fail", "expect", "invariant",
                                                       "crash", "hang")},
                    "unexplained": c["real"]}
    return out


def write_libc_summary(run, tname, info, verdicts, results, restarts, features):
    fails = [r for r in results if r["status"] != "pass"]
    by_oracle = collections.Counter(r.get("oracle") for r in fails)
    examples = {}
    for r in fails:
        key = (r["category"], r.get("oracle"))
        if key not in examples:
            examples[key] = r
    doc = {"target": tname, "executor": info, "restarts": restarts, "categories": verdicts,
           "features": features, "unsupported": [f for f, v in features.items() if not v["supported"]],
           "failures_by_oracle": dict(by_oracle),
           "examples": [{"category": k[0], "oracle": k[1], "case": v["case"], "expected": v.get("expected"),
                         "actual": v.get("actual"), "detail": v.get("detail"), "size": v.get("size"),
                         "family": v.get("family")} for k, v in sorted(examples.items(), key=str)]}
    (run.path / "libc.json").write_text(json.dumps(doc, indent=1) + "\n")
    md = [f"# {tname}: conformance of a libc through the generic executor", "",
          f"- driver: `{info['cc']}` ({'static' if info.get('static') else 'dynamic'}), {info['version']}",
          f"- executor restarts (crashes/hangs, the reductions' included): {restarts}",
          f"- results: {len(results)}, failing: {len(fails)}",
          f"- features it lacks (>= 90% of the cases using them fail): "
          f"{', '.join(doc['unsupported']) or 'none'}", "",
          "A category is *unsupported* when every failure in it is a case using a lacking feature, "
          "*deviates* when some failure is not explained that way.", "",
          "| category | verdict | cases | pass | fail | expectation | invariant | crash | hang |",
          "|---|---|---|---|---|---|---|---|---|"]
    for cat, v in verdicts.items():
        md.append(f"| {cat} | {v['verdict']} | {v['cases']} | {v['pass']} | {v['fail']} | {v['expect']} | "
                  f"{v['invariant']} | {v['crash']} | {v['hang']} |")
    md += ["", "## One example per category and oracle", ""]
    for e in doc["examples"]:
        md.append(f"- `{e['category']}` **{e['oracle']}**: `{e['case']}` expected `{e['expected']}`, "
                  f"got `{e.get('actual') or e.get('detail')}`" + (f" (size {e['size']}, {e['family']})"
                                                                    if e.get("size") is not None else ""))
    (run.path / "libc.md").write_text("\n".join(md) + "\n")
    return doc


def run_suite(exe, tname, files, categories, results_path, run, prog):
    """scn-conform --exec on the corpus: its lines into results_path, the
    finding records it writes into findings.jsonl. Returns the result lines
    and the summary."""
    tool = build.tool("scn-conform")
    cmd = [str(tool), "--exec", str(exe), "--exec-name", tname]
    for c in categories or ():
        cmd += ["--category", c]
    cmd += [conform._rel(p) for p in files]
    total = conform._expected_results(files, [{"dialect": "iso"}])
    results, summary = [], None
    p = children.popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err_tail = collections.deque(maxlen=3)  # drained as it comes (a dying libc may write there)
    err_reader = threading.Thread(target=lambda: err_tail.extend(
        ln for ln in (r.decode("utf-8", "replace").strip() for r in p.stderr) if ln), daemon=True)
    err_reader.start()
    try:
        with open(results_path, "w", encoding="utf-8") as out:
            for raw in p.stdout:
                line = raw.decode("utf-8", "replace").strip()
                if not line:
                    continue
                out.write(line + "\n")
                r = json.loads(line)
                if "summary" in r:
                    summary = r["summary"]
                    continue
                results.append(r)
                rec = conform.finding_record(r)
                if rec is not None:
                    run.append_finding(rec)
                if len(results) % 500 == 0:
                    prog.update(f"{len(results)}/{total} cases", frac=len(results) / total if total else None)
    except BaseException:
        children.kill_group(p)
        p.wait()
        raise
    rc = p.wait()
    err_reader.join(timeout=5)
    if rc == 2 or summary is None:
        raise SetupError(f"scn-conform --exec {exe}: {err_tail[-1] if err_tail else children.describe_status(rc)}")
    return results, summary


def run_conform_libc(args):
    """`scnfuzz conform --libc-cc DRIVER [--name N] [--out DIR]` -> Run."""
    from .campaign import check_tables
    check_tables()  # scn-conform reads the tables: a broken one is exit 2 here
    exe, info = build_executor(args.libc_cc, getattr(args, "name", None))
    tname = info["name"]
    files = conform.corpus_files(getattr(args, "corpus", None))
    run = Run.create("conform", getattr(args, "out", None))
    idx = len(run.meta.get("parts", []))
    results_name = "conform.jsonl" if idx == 0 else f"conform-{idx}.jsonl"
    target = {"name": tname, "dialect": "iso", "version": info["version"], "scnprintf": "wrapped",
              "where": f"executor ({exe})"}
    pidx = run.add_part({"kind": "conform", "started": utc_iso(), "targets": [target], "dialect": "iso",
                         "results": results_name, "libc_cc": args.libc_cc, "status": "running"})
    prog = Progress(f"conform ({tname}, executor)")
    t0 = time.monotonic()
    results, summary = run_suite(exe, tname, files, getattr(args, "categories", None), run.path / results_name,
                                 run, prog)
    secs = time.monotonic() - t0
    restarts = summary.get("restarts", 0)
    counts = collections.Counter(r["status"] for r in results)
    prog.done(f"{len(results)} results: {counts['pass']} pass, {counts['fail']} fail, {counts['error']} error, "
              f"{restarts} executor restarts in {secs:.1f}s")
    features = feature_support(results)
    verdicts = category_verdicts(results, features)
    write_libc_summary(run, tname, info, verdicts, results, restarts, features)
    run.meta["libc"] = {"name": tname, "cc": args.libc_cc, "restarts": restarts,
                        "categories": {k: v["verdict"] for k, v in verdicts.items()}}
    run.update_part(pidx, status="done", exit=1 if counts["fail"] or counts["error"] else 0,
                    cases_run=summary.get("cases", 0), results_count=len(results), counts=dict(counts),
                    skipped=summary.get("skipped", 0), duration_s=round(secs, 3), finished=utc_iso(),
                    restarts=restarts)
    return run


# ---- fuzz --libc-cc: a differential campaign through the executor ---------

def run_fuzz_libc(args):
    """`scnfuzz fuzz --libc-cc DRIVER [--name N] [--time S] [--out DIR]` -> (Run, interrupted)."""
    from .campaign import check_tables
    check_tables()  # scn-exec-fuzz reads the tables: a broken one is exit 2 here, not a crash
    exe, info = build_executor(args.libc_cc, getattr(args, "name", None))
    tool = build.tool("scn-exec-fuzz")
    tname = info["name"]
    run = Run.create("fuzz", getattr(args, "out", None))
    target = {"name": tname, "dialect": "iso", "version": info["version"], "scnprintf": "wrapped",
              "where": f"executor ({exe})"}
    ref = {"name": "ref", "dialect": "iso", "version": "scnfuzz ref", "scnprintf": "native", "where": "in-process"}
    pidx = run.add_part({"kind": "fuzz", "started": utc_iso(), "targets": [ref, target], "libc_cc": args.libc_cc,
                         "engine": "scn-exec-fuzz (random bytes, round trips)", "status": "running"})
    t = float(getattr(args, "time", 60.0))
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:handle_segv=0")
    interrupted = False
    try:
        p = children.run([str(tool), str(exe), str(t), str(getattr(args, "seed", 1) or 1), tname],
                         capture_output=True, text=True, timeout=t + 120, env=env)
        out = p.stdout
    except children.Timeout as e:
        out = (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        interrupted = True
    stats = {}
    for r in jsonl.objects(out):
        if "stats" in r:
            stats = r["stats"]
        elif "oracle" in r:
            run.append_finding(r)
    run.update_part(pidx, status="done", executions=stats.get("executions", 0),
                    duration_s=stats.get("seconds", 0), restarts=stats.get("restarts", 0),
                    finished=utc_iso(), cases_run=stats.get("executions", 0))
    return run, interrupted
