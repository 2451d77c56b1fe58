"""Any libc: the generic executor (programs/exec/scn_exec.c) built with a libc's
own compiler driver (`musl-gcc`, `diet gcc`, `klcc`, ...), and the conformance
suite run through it (`scnfuzz conform --libc-cc "DRIVER" [--name N]`).

The executor speaks protocol 2 (programs/exec/README.md): a request `*<case>`
is answered with the full C99 output and, for every buffer size, both
families (the scn family through the canonical wrapper, inside the
executor). The oracles of oracles/oracle.h are applied here to those
answers, with the same names; the results are scn-conform JSON lines, so the
runner's report writer renders them like any other target.
"""
import collections
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import time

from . import build, casetext, children
from .errors import SetupError, UsageError
from .progress import Progress
from .runs import Run, utc_iso

ROOT = build.ROOT
EXEC_SRC = ROOT / "programs" / "exec" / "scn_exec.c"
COMPAT = ROOT / "programs" / "exec" / "compat"
CASE_SRC = ROOT / "core" / "case" / "case.c"
CHUNK = 400          # cases per executor batch
TIMEOUT_CASE = 10    # seconds per request inside the executor (SIGALRM)
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
    srcs = [EXEC_SRC, CASE_SRC, COMPAT / "scn_strtod.c"]
    h = hashlib.sha256(cc.encode())
    for p in srcs + [COMPAT / "scn_strtod.h", COMPAT / "wchar.h", ROOT / "core/case/case.h"]:
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


# ---- talking to the executor ----------------------------------------------

def _answers(text):
    """Executor output -> list of answers (each a list of lines, without '.')."""
    lines = text.split("\n")
    out, cur = [], []
    for ln in lines[1:]:  # the banner
        if ln == ".":
            out.append(cur)
            cur = []
        elif ln:
            cur.append(ln)
    return out, cur


def _exec_batch(exe, batch, env, timeout):
    data = "".join("*" + c + "\n" for c in batch)
    try:  # the executor dies with scnfuzz, under the memory limit (children.py)
        p = children.run([str(exe)], input=data.encode(), capture_output=True, env=env,
                         timeout=timeout * 3 + 30)
        out, rc, err = p.stdout, p.returncode, p.stderr
    except children.Timeout as e:
        out, rc, err = e.stdout or b"", -9, b""
    ans, _ = _answers(out.decode("utf-8", "replace"))
    tail = [ln for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()][-1:]
    return ans, rc, (tail[0][:160] if tail else "")


def _is_death(a):
    return bool(a) and (a[-1].startswith("! crash") or a[-1] == "! hang")


def run_cases(exe, case_texts, timeout=TIMEOUT_CASE, on_restart=None):
    """Every case through the executor in batches ('*' requests). Returns one
    answer (list of lines) per case; a crash or hang of the executor is the
    answer ['! crash signal N'] / ['! hang'] for the case it was on, and the
    executor is restarted for the rest. When the executor died without
    saying so (no handler could run), the unanswered cases of the batch are
    re-run one per process until the one that kills it is found."""
    res = []
    i = 0
    env = dict(os.environ, SCN_EXEC_TIMEOUT=str(timeout))
    while i < len(case_texts):
        batch = case_texts[i:i + CHUNK]
        ans, rc, _ = _exec_batch(exe, batch, env, timeout)
        if rc == 0 and len(ans) == len(batch):
            res.extend(ans)
            i += len(batch)
            continue
        done = [a for a in ans if not _is_death(a)]
        res.extend(done)
        i += len(done)
        if i >= len(case_texts):
            break
        if len(ans) > len(done):
            res.append([ans[len(done)][-1]])
            i += 1
        else:  # silent death: find the culprit alone
            while i < len(case_texts):
                one, rc1, why = _exec_batch(exe, [case_texts[i]], env, timeout)
                i += 1
                if rc1 == 0 and len(one) == 1:
                    res.append(one[0])
                    continue
                res.append([one[0][-1]] if one and _is_death(one[0]) else
                           ["! hang"] if rc1 == -9 else [f"! crash exit {rc1}" + (f": {why}" if why else "")])
                break
        if on_restart:
            on_restart()
    return res


# ---- the oracles on the executor's answers --------------------------------

_Q = re.compile(r'^("(?:[^"\\]|\\.)*")')


def _parse_res(rest):
    """rest of a '= S R ...' / '~ S R ...' / 'F R ...' line after the ret."""
    d = {"ok": False, "bytes": None, "nonul": False, "n": None, "errno": None, "overrun": False}
    s = rest
    if s.startswith("ok"):
        d["ok"] = True
        s = s[2:]
    else:
        if s.startswith("nonul "):
            d["nonul"] = True
            s = s[6:]
        m = _Q.match(s)
        if m:
            d["bytes"] = m.group(1)
            s = s[m.end():]
    for t in s.split():
        if t.startswith("n="):
            d["n"] = [int(x) for x in t[2:].split(",")]
        elif t.startswith("errno="):
            d["errno"] = int(t[6:])
        elif t == "overrun":
            d["overrun"] = True
        elif t == "nonul":
            d["nonul"] = True
    return d


def check_answer(ans, expect, kind, exp_n):
    """The oracles + the expectation on one answer. Returns (status, oracle,
    details dict) with status pass/fail/error."""
    if not ans:
        return "error", "protocol", {"detail": "no answer"}
    if ans[0].startswith("!"):
        msg = ans[0][2:]
        if msg.startswith("crash"):
            return "fail", "crash", {"class": "memory-safety", "detail": f"the executor died: {msg}"}
        if msg == "hang":
            return "fail", "hang", {"class": "hang", "detail": f"no answer within {TIMEOUT_CASE}s"}
        return "error", "protocol", {"detail": msg}
    f = ans[0]
    if not f.startswith("F "):
        return "error", "protocol", {"detail": f"unexpected answer {f[:80]}"}
    _, fr, frest = f.split(" ", 2)
    full_ret = int(fr)
    full = _parse_res(frest)
    full_len = len(casetext.unquote(full["bytes"])) if full["bytes"] else 0
    for ln in ans[1:]:
        fam_c, s, r, rest = ln.split(" ", 3)
        size, ret = int(s), int(r)
        d = _parse_res(rest)
        fam = "c99" if fam_c == "=" else "scn"

        def bad(oracle, detail, klass="invariant"):
            shown = d["bytes"] if d["bytes"] is not None else ("(prefix ok)" if d["ok"] else '""')
            return "fail", oracle, {"class": klass, "size": size, "family": fam, "ret": ret,
                                    "detail": detail, "buffer": shown}
        if d["overrun"]:
            if size == 0:
                return bad("size0-untouched", "size 0: the buffer was written", "memory-safety")
            return bad("overrun", f"a byte at or after buf+{size} (or before buf) was written", "memory-safety")
        if fam == "c99":
            if full_ret >= 0 and ret != full_ret:
                return bad("c99.ret-full-length", f"ret {ret} at size {size}, {full_ret} with a big buffer")
            if full_ret < 0 and ret >= 0:
                return bad("c99.ret-full-length", f"ret {ret} at size {size}, negative with a big buffer")
            if ret >= 0 and size > 0 and not d["ok"]:
                if d["nonul"]:
                    return bad("nul-terminated", f"no NUL in the {size}-byte buffer")
                return bad("c99.prefix", f"the buffer is not the first {min(full_len, size - 1)} bytes "
                                         f"of the full output")
            if d["n"] is not None and full["n"] is not None and d["n"] != full["n"]:
                return bad("n-consistent", f"%n values {d['n']} at size {size}, {full['n']} with a big buffer")
        else:
            if size == 0 and ret != 0:
                return bad("scn.size0-ret0", f"ret {ret} at size 0")
            if size > 0 and not (0 <= ret <= size - 1):
                return bad("scn.ret-le-size-1", f"ret {ret} at size {size}")
            if size > 0 and not d["ok"]:
                if d["nonul"]:
                    return bad("nul-terminated", f"no NUL in the {size}-byte buffer")
                return bad("scn.prefix", f"the buffer is not the first {min(full_len, size - 1)} bytes")
            want = 0 if (size == 0 or full_ret < 0) else min(full_len, size - 1)
            if ret != want:
                return bad("families-agree", f"scn ret {ret}, expected {want} from the C99 call")
    actual = "!err" if full_ret < 0 else (full["bytes"] or '""') + (
        " n=" + ",".join(map(str, full["n"])) if full["n"] else "")
    det = {"actual": actual, "ret": full_ret}
    if expect == "!err":
        return ("pass", None, det) if full_ret < 0 else ("fail", "expect.err", det)
    if full_ret < 0:
        return "fail", "expect.output", det
    exp_q = expect.split(" n=")[0]
    if full["bytes"] != exp_q or full_ret != full_len:
        return "fail", "expect.output", det
    got_n = full["n"] or []
    if (exp_n or []) != got_n and not (not exp_n and all(v == 0 for v in got_n)):
        return "fail", "expect.n", det
    return "pass", None, det


def read_corpus(files=None):
    files = files or sorted((ROOT / "corpus").glob("*.tsv"))
    out = []
    for p in files:
        with open(p, encoding="latin-1") as f:
            for ln, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                fl = line.rstrip("\n").split("\t")
                if len(fl) != 6:
                    continue
                cat, case, iso, kern, kind, cit = fl
                out.append({"category": cat, "case": case, "iso": iso, "kernel": kern, "kind": kind,
                            "citation": cit, "file": str(p.relative_to(ROOT)), "line": ln})
    return out


def conform_executor(exe, tname, categories=None, progress=None):
    """Runs the ISO column of the corpus through the executor. Yields
    scn-conform-shaped result dicts (and counts the restarts)."""
    entries = [e for e in read_corpus() if e["iso"] != "-"
               and (not categories or any(e["category"] == c or e["category"].startswith(c + ".")
                                          for c in categories))]
    restarts = [0]

    def restarted():
        restarts[0] += 1
    results = []
    t0 = time.monotonic()
    for k in range(0, len(entries), CHUNK * 5):
        part = entries[k:k + CHUNK * 5]
        answers = run_cases(exe, [e["case"] for e in part], on_restart=restarted)
        for e, a in zip(part, answers):
            exp_n = None
            if " n=" in e["iso"]:
                exp_n = [int(x) for x in e["iso"].split(" n=")[1].split(",")]
            st, oracle, det = check_answer(a, e["iso"], e["kind"], exp_n)
            r = {"target": tname, "category": e["category"], "case": e["case"], "kind": e["kind"],
                 "status": st, "oracle": oracle}
            if st != "pass" or oracle:
                r["expected"] = e["iso"]
                r.update({k2: v for k2, v in det.items() if k2 in ("actual", "ret", "size", "family",
                                                                   "class", "detail", "buffer")})
            if st == "fail" and oracle and oracle.startswith("expect.") and e["kind"] == "impl":
                st = r["status"] = "pass"
                r["note"] = "impl-differs"
            r.update({"file": e["file"], "line": e["line"], "citation": e["citation"]})
            results.append(r)
        if progress:
            progress(len(results), len(entries))
    return results, restarts[0], time.monotonic() - t0


def case_features(case_text):
    """The features a case uses: '%X' per conversion letter, 'length M' per
    length modifier (w8/w16.. as wN, wf.. as wfN), 'positional'."""
    try:
        c = casetext.Case.parse(case_text)
    except (casetext.CaseSyntaxError, ValueError):
        return set()
    feats = set()
    for sp in casetext.specs(c.fmt):
        conv = sp.group("conv")
        if conv == "%":
            continue
        feats.add("%" + conv)
        ln = sp.group("len")
        if ln:
            feats.add("length " + re.sub(r"[0-9]+$", "N", ln))
        if sp.group("pos"):
            feats.add("positional")
    return feats


def feature_support(results, min_cases=5):
    """Per feature: cases, failing; unsupported when >= 90% of the cases that
    use it fail (the libc lacks it, e.g. klibc's %f)."""
    use = collections.defaultdict(collections.Counter)
    for r in results:
        for f in case_features(r["case"]):
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
    for r in results:
        c = by[r["category"]]
        c["cases"] += 1
        if r["status"] == "pass":
            c["pass"] += 1
            if r.get("note") == "impl-differs" and case_features(r["case"]) & lacking:
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
        if not (case_features(r["case"]) & lacking) or not (o.startswith("expect.") or o in ("crash", "hang")):
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
          f"- executor restarts (crashes/hangs): {restarts}",
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


def result_record(r):
    """The finding record (docs/FINDINGS.md) of a failed result that a Python
    checker (check_answer) made, or the record a C checker put on the line.
    Python-checked cases are not reduced: the case is its own reproducer."""
    if isinstance(r.get("finding"), dict):
        return r["finding"]
    target, oracle = r["target"], r.get("oracle") or "expect.output"
    klass = "error" if r["status"] == "error" else r.get("class") or (
        "conformance" if oracle.startswith("expect.") else "invariant")
    shape = casetext.shape(r["case"])
    outputs = {}
    if r.get("actual") is not None:
        outputs[target] = ({"ret": -1, "bytes": '""'} if r["actual"] == "!err" else
                           {"ret": r.get("ret"), "bytes": r["actual"]})
    if r.get("buffer") is not None:
        outputs["buffer"] = {"ret": r.get("ret"), "bytes": r["buffer"]}
    if r.get("expected") is not None:
        outputs["expected"] = {"ret": None, "bytes": r["expected"]}
    rec = {"oracle": oracle, "classification": klass, "signature": f"{oracle}:{shape}:{target}:{klass}",
           "shape": shape, "case": r["case"], "original_case": r["case"], "reduced": False, "dialect": r.get("dialect") or "iso",
           "targets": [target], "detail": r.get("detail", ""), "source": "conform", "program": "scnfuzz",
           "target": target, "outputs": outputs, "category": r.get("category"), "kind": r.get("kind"),
           "where": f"{r.get('file')}:{r.get('line')}", "citation": r.get("citation")}
    if r.get("size") is not None:
        rec.update(size=r["size"], family=r.get("family"))
    return rec


def run_conform_libc(args):
    """`scnfuzz conform --libc-cc DRIVER [--name N] [--out DIR]` -> Run."""
    exe, info = build_executor(args.libc_cc, getattr(args, "name", None))
    tname = info["name"]
    run = Run.create("conform", getattr(args, "out", None))
    idx = len(run.meta.get("parts", []))
    results_name = "conform.jsonl" if idx == 0 else f"conform-{idx}.jsonl"
    target = {"name": tname, "dialect": "iso", "version": info["version"], "scnprintf": "wrapped",
              "where": f"executor ({exe})"}
    pidx = run.add_part({"kind": "conform", "started": utc_iso(), "targets": [target], "dialect": "iso",
                         "results": results_name, "libc_cc": args.libc_cc, "status": "running"})
    prog = Progress(f"conform ({tname}, executor)")
    results, restarts, secs = conform_executor(
        exe, tname, getattr(args, "categories", None),
        progress=lambda n, tot: prog.update(f"{n}/{tot} cases", frac=n / tot if tot else None))
    counts = collections.Counter(r["status"] for r in results)
    with open(run.path / results_name, "w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
            if r["status"] != "pass":
                run.append_finding(result_record(r))
        f.write(json.dumps({"summary": {"cases": len(results), "results": len(results),
                                        "pass": counts["pass"], "fail": counts["fail"],
                                        "error": counts["error"], "skipped": 0, "seconds": round(secs, 3),
                                        "targets": [target]}}) + "\n")
    prog.done(f"{len(results)} results: {counts['pass']} pass, {counts['fail']} fail, {counts['error']} error, "
              f"{restarts} executor restarts in {secs:.1f}s")
    features = feature_support(results)
    verdicts = category_verdicts(results, features)
    write_libc_summary(run, tname, info, verdicts, results, restarts, features)
    run.meta["libc"] = {"name": tname, "cc": args.libc_cc, "restarts": restarts,
                        "categories": {k: v["verdict"] for k, v in verdicts.items()}}
    run.update_part(pidx, status="done", exit=1 if counts["fail"] or counts["error"] else 0,
                    cases_run=len(results), results_count=len(results), counts=dict(counts), skipped=0,
                    duration_s=round(secs, 3), finished=utc_iso(), restarts=restarts)
    return run


# ---- fuzz --libc-cc: a differential campaign through the executor ---------

def build_fuzz_tool():
    """programs/exec/scn_exec_fuzz.c linked with the project's objects (the
    certify build of them: clang-14, ASan+UBSan)."""
    from . import certify
    objs = [o for o in certify.project_objects() if o.name != "certify_scn_certify.o"]
    d = objs[0].parent
    src = ROOT / "programs" / "exec" / "scn_exec_fuzz.c"
    h = hashlib.sha256(src.read_bytes()).hexdigest()[:12]
    exe = d / f"scn-exec-fuzz-{h}"
    if exe.is_file():
        return exe
    inc = [f"-I{ROOT / p}" for p in ("core/case", "core/targets", "oracles", "impl/include")]
    cmd = [certify.CC, "-std=gnu11"] + certify.BASE + certify.SAN + inc + [str(src)] + [str(o) for o in objs] + \
        ["-lm", "-o", str(exe)]
    p = _run(cmd)
    if p.returncode:
        raise SetupError(f"building scn-exec-fuzz failed: {p.stderr.strip()[-2000:]}")
    return exe


def run_fuzz_libc(args):
    """`scnfuzz fuzz --libc-cc DRIVER [--name N] [--time S] [--out DIR]` -> (Run, interrupted)."""
    from .campaign import check_tables
    check_tables()  # scn-exec-fuzz reads the tables: a broken one is exit 2 here, not a crash
    exe, info = build_executor(args.libc_cc, getattr(args, "name", None))
    tool = build_fuzz_tool()
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
    for ln in out.splitlines():
        try:
            r = json.loads(ln)
        except ValueError:
            continue
        if "stats" in r:
            stats = r["stats"]
        elif "oracle" in r:
            run.append_finding(r)
    run.update_part(pidx, status="done", executions=stats.get("executions", 0),
                    duration_s=stats.get("seconds", 0), restarts=stats.get("restarts", 0),
                    finished=utc_iso(), cases_run=stats.get("executions", 0))
    return run, interrupted
