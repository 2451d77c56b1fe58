"""`scnfuzz certify`: certify a vendored snprintf/vsnprintf/scnprintf/vscnprintf.

Builds the named function with ASan+UBSan (and edge coverage) into the
driver harness/certify/scn_certify.c through a generated adapter, then runs,
in order: the conformance corpus at every buffer size, the return-value
suite of its kind, a coverage-guided differential campaign against the
reference of its dialect. Writes certificate.json/.md/.html (and the
runner's report.json/.md/.html/junit.xml) into --out.
Exit: 0 certified, 1 not certified (reasons listed), 2 usage/build error.
"""
import argparse
import collections
import hashlib
import html
import json
import os
import pathlib
import shlex
import subprocess
import sys
import time

from . import anylibc, build
from .errors import ScnError, SetupError, UsageError
from .runs import Run, utc_iso

ROOT = build.ROOT
CC = os.environ.get("SCN_CERTIFY_CC", "clang-14")
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
BASE = ["-O1", "-g", "-Wall", "-Wextra", "-Werror"]
KINDS = {"vsnprintf": 0, "snprintf": 1, "vscnprintf": 2, "scnprintf": 3}
TRUNC_ORACLES = {"c99.ret-full-length", "c99.prefix", "nul-terminated", "size0-untouched", "overrun",
                 "underrun", "scn.ret-le-size-1", "scn.size0-ret0", "scn.ret-eq-strlen", "scn.prefix",
                 "families-agree", "n-consistent", "crash"}
MEMORY = {"size0-untouched", "overrun", "underrun", "crash", "sanitizer"}
# decode flags of harness/case/case.h (SCN_DECODE_*) by what --categories leaves out
DEC_NO_FLOAT, DEC_NO_POS, DEC_NO_WIDE, DEC_NO_N = 1 << 2, 1 << 3, 1 << 4, 1 << 5


class BuildError(ScnError):
    pass


def make_parser():
    p = argparse.ArgumentParser(prog="scnfuzz certify", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", action="append", required=True, metavar="FILE.c")
    p.add_argument("--include", action="append", default=[], metavar="DIR")
    p.add_argument("--cflags", default="")
    p.add_argument("--ldflags", default="")
    p.add_argument("--function", required=True, metavar="NAME")
    p.add_argument("--kind", required=True, choices=sorted(KINDS))
    p.add_argument("--dialect", choices=["iso", "kernel"],
                   help="default: kernel for scnprintf/vscnprintf, iso otherwise")
    p.add_argument("--categories", metavar="LIST",
                   help="comma list of corpus categories (or prefixes: int, float.f, ...) the claim covers")
    p.add_argument("--time", type=float, default=60.0, metavar="SECONDS", help="fuzzing time (default 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--allow-as", metavar="TARGET",
                   help="apply the differential allowances (oracles/allowances.tsv) of this target, e.g. "
                        "glibc for a wrapper over glibc's vsnprintf (stated in the certificate)")
    p.add_argument("--out", metavar="DIR")
    return p


def _sha(p):
    return hashlib.sha256(pathlib.Path(p).read_bytes()).hexdigest()


def _compile(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        raise BuildError(f"build failed: {' '.join(shlex.quote(c) for c in cmd)}\n{p.stderr.strip()[-3000:]}")


def project_objects():
    """The project's libraries (reference, case model, oracles, differential)
    compiled once with ASan+UBSan into build/certify/lib-<hash>/."""
    srcs = sorted((ROOT / "impl/src").glob("*.c")) + [
        ROOT / "harness/case/case.c", ROOT / "harness/case/case_decode.c", ROOT / "harness/case/corpus.c",
        ROOT / "oracles/oracle.c", ROOT / "oracles/differential.c", ROOT / "harness/targets/ref.c",
        ROOT / "harness/certify/scn_certify.c"]
    hdrs = list((ROOT / "impl").rglob("*.h")) + list((ROOT / "harness/case").glob("*.h")) + \
        list((ROOT / "oracles").glob("*.h")) + [ROOT / "harness/targets/target.h", ROOT / "oracles/allowances.tsv"]
    h = hashlib.sha256(CC.encode())
    for p in srcs + sorted(hdrs):
        h.update(str(p).encode())
        h.update(p.read_bytes())
    d = ROOT / "build" / "certify" / f"lib-{h.hexdigest()[:12]}"
    done = d / "objects.txt"
    if done.is_file():
        return [pathlib.Path(x) for x in done.read_text().split()]
    d.mkdir(parents=True, exist_ok=True)
    data = (ROOT / "oracles/allowances.tsv").read_bytes()
    arr = ",".join(str(b) for b in data)
    (d / "scn_allowances_data.h").write_text(
        "/* generated from oracles/allowances.tsv by scnfuzz certify */\n"
        f"static const unsigned char scn_allowances_tsv[] = {{{arr},0}};\n")
    inc = [f"-I{ROOT / 'impl/include'}", f"-I{ROOT / 'harness/case'}", f"-I{ROOT / 'harness/targets'}",
           f"-I{ROOT / 'oracles'}", f"-I{d}"]
    objs, procs = [], []
    for s in srcs:
        o = d / (s.parent.name + "_" + s.stem + ".o")
        extra = ["-ffreestanding", f"-I{ROOT / 'impl/src'}"] if s.parent == ROOT / "impl/src" else []
        cmd = [CC, "-std=gnu11"] + BASE + SAN + extra + inc + ["-c", str(s), "-o", str(o)]
        procs.append((cmd, subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
        objs.append(o)
        if len(procs) >= 2:
            _wait(procs.pop(0))
    for pr in procs:
        _wait(pr)
    done.write_text("\n".join(str(o) for o in objs) + "\n")
    return objs


def _wait(pr):
    cmd, p = pr
    _, err = p.communicate()
    if p.returncode:
        raise SetupError(f"building the certification driver failed: {' '.join(cmd)}\n{err[-2000:]}")


def adapter_source(name, kind, dialect):
    variadic = kind in ("snprintf", "scnprintf")
    proto = "..." if variadic else "va_list"
    return f"""/* generated by scnfuzz certify: the adapter of {name} ({kind}, {dialect}) */
#include <stdarg.h>
#include <stddef.h>
int {name}(char *buf, size_t size, const char *fmt, {proto});
const int scn_cert_kind = {KINDS[kind]};
const int scn_cert_dialect = {1 if dialect == 'kernel' else 0};
const char scn_cert_name[] = "{name}";
int (*const scn_cert_vfn)(char *, size_t, const char *, va_list) = {'NULL' if variadic else name};
int (*const scn_cert_fn)(char *, size_t, const char *, ...) = {name if variadic else 'NULL'};
"""


def build_driver(args, dialect, wd):
    objs = project_objects()
    for s in args.source:
        if not os.path.isfile(s):
            raise BuildError(f"--source {s}: no such file")
    if not args.function.isidentifier():
        raise UsageError(f"--function {args.function!r} is not a C identifier")
    (wd / "adapter.c").write_text(adapter_source(args.function, args.kind, dialect))
    user = shlex.split(args.cflags) + [f"-I{os.path.abspath(i)}" for i in args.include]
    cov = ["-fsanitize-coverage=trace-pc-guard"]
    uobjs = []
    for i, s in enumerate(args.source):
        o = wd / f"src{i}.o"
        _compile([CC, "-g", "-O1"] + SAN + cov + user + ["-c", os.path.abspath(s), "-o", str(o)], wd)
        uobjs.append(o)
    _compile([CC, "-std=gnu11"] + BASE + ["-c", str(wd / "adapter.c"), "-o", str(wd / "adapter.o")], wd)
    exe = wd / "scn-certify"
    _compile([CC] + SAN + [str(o) for o in uobjs] + [str(wd / "adapter.o")] + [str(o) for o in objs]
             + shlex.split(args.ldflags) + ["-lm", "-o", str(exe)], wd)
    return exe, {"compiler": _cc_version(), "cflags": " ".join(["-g", "-O1"] + SAN + cov + user),
                 "ldflags": args.ldflags}


def _cc_version():
    p = subprocess.run([CC, "--version"], capture_output=True, text=True)
    return p.stdout.splitlines()[0] if p.returncode == 0 and p.stdout else CC


def run_phase(exe, argv, wd, timeout, allow_as=None):
    env = dict(os.environ, SCN_CERTIFY_ALLOW_AS=allow_as or "", ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:handle_segv=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    try:
        p = subprocess.run([str(exe)] + argv, cwd=wd, capture_output=True, timeout=timeout, env=env)
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, err, rc = e.stdout or b"", e.stderr or b"", "timeout"
    lines = []
    for ln in out.decode("utf-8", "replace").splitlines():
        try:
            lines.append(json.loads(ln))
        except ValueError:
            pass
    return lines, err.decode("utf-8", "replace"), rc


def _in_claim(cat, claim):
    return not claim or any(cat == c or cat.startswith(c + ".") for c in claim)


def _sanitizer_summary(err):
    for ln in err.splitlines():
        if ln.startswith("SUMMARY:") or "runtime error:" in ln:
            return ln.strip()[:300]
    return (err.strip().splitlines() or ["(no message)"])[-1][:300]


def certify(args):
    if args.time < 0:
        raise UsageError("--time must be >= 0")
    dialect = args.dialect or ("kernel" if args.kind in ("scnprintf", "vscnprintf") else "iso")
    claim = [c for c in (args.categories or "").split(",") if c]
    run = Run.create("certify", args.out)
    wd = run.path / "build"
    wd.mkdir(exist_ok=True)
    t0 = time.monotonic()
    exe, binfo = build_driver(args, dialect, wd)
    files = [str(p) for p in sorted((ROOT / "corpus").glob("*.tsv"))]
    reasons, deaths = [], []

    # 1. conformance at every buffer size
    conf, err, rc = run_phase(exe, ["conform"] + files, wd, 900)
    results = [r for r in conf if r.get("phase") == "conform" and "status" in r]
    for r in conf:
        if "death" in r:
            deaths.append({"phase": "conform", "case": r["case"], "detail": _sanitizer_summary(err)})
    if rc != 0 and not deaths:
        deaths.append({"phase": "conform", "case": None, "detail": f"exit {rc}: {_sanitizer_summary(err)}"})
    # 2. the return-value suite of its kind
    rv, err2, rc2 = run_phase(exe, ["retval"], wd, 300)
    rv_fail = [r for r in rv if r.get("status") == "fail"]
    for r in rv:
        if "death" in r:
            deaths.append({"phase": "retval", "case": r["case"], "detail": _sanitizer_summary(err2)})
    # 3. differential campaign
    dec = 0
    if claim:
        if not any(_in_claim(c, claim) for c in ("float.a", "float.e", "float.f", "float.g")):
            dec |= DEC_NO_FLOAT
        if not _in_claim("positional", claim):
            dec |= DEC_NO_POS
        if not any(_in_claim(c, claim) for c in ("wide.lc", "wide.ls")):
            dec |= DEC_NO_WIDE
        if not _in_claim("n", claim):
            dec |= DEC_NO_N
    fz, err3, rc3 = run_phase(exe, ["fuzz", str(args.time), str(args.seed), str(dec)], wd, args.time + 120, args.allow_as)
    fz_find = [r for r in fz if r.get("status") == "fail"]
    stats = next((r["stats"] for r in fz if "stats" in r), {})
    for r in fz:
        if "death" in r:
            deaths.append({"phase": "fuzz", "case": r["case"], "detail": _sanitizer_summary(err3)})

    # verdicts
    claimed = [r for r in results if _in_claim(r["category"], claim)]
    feats = anylibc.feature_support(claimed)
    cats = anylibc.category_verdicts(claimed, feats)
    fails = [r for r in claimed if r["status"] != "pass"]
    by_oracle = collections.Counter(r.get("oracle") for r in fails)
    for r in rv_fail:
        by_oracle[r["oracle"]] += 1
    for r in fz_find:
        if r.get("class") != "implementation-defined":
            by_oracle[r["oracle"]] += 1
    for d in deaths:
        by_oracle["sanitizer"] += 1
    fam = "scn" if args.kind in ("scnprintf", "vscnprintf") else "c99"
    trunc_fired = sorted(o for o in by_oracle if o in TRUNC_ORACLES)
    mem_fired = sorted(o for o in by_oracle if o in MEMORY)
    for cat, v in cats.items():
        if v["verdict"] != "conforms":
            ex = next((r for r in fails if r["category"] == cat), None) or \
                next(r for r in claimed if r["category"] == cat and r.get("note") == "impl-differs")
            reasons.append(f"category {cat} {v['verdict']}: {v['fail']} of {v['cases']} cases fail"
                           + ("" if v["fail"] else " but its implementation-defined outputs show a lacking feature")
                           + f" (first: {ex['case']} -> oracle {ex.get('oracle')})")
    for o in trunc_fired:
        ex = next((r for r in fails + rv_fail + fz_find if r.get("oracle") == o), None)
        reasons.append(f"oracle {o} fired" + (f" (e.g. {ex['case']}: {ex.get('detail', '')})" if ex else ""))
    for d in deaths:
        reasons.append(f"sanitizer death in {d['phase']}: {d['detail']}" + (f" on {d['case']}" if d["case"] else ""))
    bug_fz = [r for r in fz_find if r.get("class") != "implementation-defined"]
    for r in bug_fz:
        if r["oracle"] == "differential":
            reasons.append(f"differential divergence from the reference: {r['case']} ({r.get('detail', '')})")
    if not results:
        reasons.append(f"the conformance phase produced no results (exit {rc}): {_sanitizer_summary(err)}")
    seen = set()
    reasons = [x for x in reasons if not (x in seen or seen.add(x))]
    certified = not reasons
    cert = {
        "certificate_schema": 1,
        "generated": utc_iso(),
        "verdict": "certified" if certified else "not certified",
        "reasons": reasons,
        "function": args.function, "kind": args.kind, "family": fam, "dialect": dialect,
        "claim": {"categories": claim or "all"},
        "sources": [{"path": s, "sha256": _sha(s)} for s in args.source],
        "build": binfo | {"includes": args.include, "adapter": "generated (variadic call by argument class)"
                          if args.kind in ("snprintf", "scnprintf") else "generated (va_list entry)"},
        "categories": {k: v["verdict"] for k, v in cats.items()},
        "category_counts": cats,
        "features": feats,
        "oracles_fired": dict(by_oracle),
        "truncation_semantics": {"family": fam, "verdict": "correct" if not trunc_fired else "violated",
                                 "oracles": trunc_fired},
        "memory_safety": {"verdict": "no violation seen" if not mem_fired else "violated",
                          "oracles": mem_fired, "sanitizer_deaths": deaths,
                          "sanitizers": "AddressSanitizer + UndefinedBehaviorSanitizer, guard page after the buffer"},
        "phases": {
            "conform": {"results": len(results), "claimed": len(claimed), "failing": len(fails),
                        "exit": rc},
            "retval": {"cases": next((r["summary"]["cases"] for r in rv if "summary" in r), 0),
                       "failing": len(rv_fail), "findings": rv_fail[:20]},
            "fuzz": {"seconds": stats.get("seconds", 0), "executions": stats.get("executions", 0),
                     "coverage_edges": stats.get("coverage_edges", 0),
                     "coverage_total": stats.get("coverage_total", 0), "corpus": stats.get("corpus", 0),
                     "stopped_early": bool(stats.get("stopped_early")),
                     "findings": fz_find[:40], "decode_flags": dec, "seed": args.seed,
                     "allowances_of": args.allow_as or "(none: only entries for every target)",
                     "reference": "ref-kernel" if dialect == "kernel" else "ref"},
        },
        "duration_s": round(time.monotonic() - t0, 3),
    }
    cert["executions"] = len(results) + cert["phases"]["retval"]["cases"] + cert["phases"]["fuzz"]["executions"]
    _write_run(run, args, cert, results, rv_fail, fz_find)
    (run.path / "certificate.json").write_text(json.dumps(cert, indent=1) + "\n")
    (run.path / "certificate.md").write_text(render_md(cert, claimed))
    (run.path / "certificate.html").write_text(render_html(cert, claimed))
    return cert, run


def _write_run(run, args, cert, results, rv_fail, fz_find):
    """The runner's report (report.json/.md/.html, junit.xml) of the same run."""
    from .conform import finding_from_result
    try:
        from . import report
    except ImportError:
        return
    target = {"name": args.function, "dialect": cert["dialect"], "version": "vendored",
              "scnprintf": "native" if cert["family"] == "scn" else "wrapped", "where": "in-process (certify)"}
    claim = [] if cert["claim"]["categories"] == "all" else cert["claim"]["categories"]
    results = [r for r in results if _in_claim(r["category"], claim)]  # the claim is what is reported
    with open(run.path / "conform.jsonl", "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    run.add_part({"kind": "conform", "started": cert["generated"], "targets": [target], "dialect": cert["dialect"],
                  "results": "conform.jsonl", "status": "done", "cases_run": len(results),
                  "results_count": len(results), "duration_s": cert["duration_s"]})
    for r in results:
        if r["status"] != "pass":
            try:
                run.append_finding(finding_from_result(r))
            except (KeyError, ValueError):
                pass
    for r in rv_fail + fz_find:
        run.append_finding({"oracle": r["oracle"], "classification": r.get("class", "invariant"),
                            "case": r["case"], "signature": f"certify:{r['oracle']}:{r.get('signature', r['case'])}",
                            "detail": r.get("detail", ""), "target": args.function, "source": r["phase"],
                            "outputs": r.get("outputs", {})})
    run.add_part({"kind": "fuzz", "started": cert["generated"], "targets": [target],
                  "executions": cert["phases"]["fuzz"]["executions"],
                  "duration_s": cert["phases"]["fuzz"]["seconds"], "status": "done"})
    run.meta["certificate"] = {"verdict": cert["verdict"], "function": args.function}
    run.save()
    try:
        report.build_report(run, minimize=False, quiet=True)
    except Exception as e:  # the report is a by-product; the certificate stands alone
        (run.path / "report-error.txt").write_text(f"{type(e).__name__}: {e}\n")


def render_md(c, claimed):
    L = [f"# Certificate: `{c['function']}` ({c['kind']}, {c['dialect']} dialect)", "",
         f"**Verdict: {c['verdict'].upper()}**", ""]
    if c["reasons"]:
        L += ["## Reasons", ""] + [f"- {r}" for r in c["reasons"]] + [""]
    L += ["## Claim and build", "",
          f"- categories claimed: {c['claim']['categories'] if c['claim']['categories'] == 'all' else ', '.join(c['claim']['categories'])}",
          f"- compiler: {c['build']['compiler']}", f"- flags: `{c['build']['cflags']}`",
          f"- adapter: {c['build']['adapter']}"]
    L += [f"- source `{s['path']}` sha256 `{s['sha256']}`" for s in c["sources"]]
    t, m, fz = c["truncation_semantics"], c["memory_safety"], c["phases"]["fuzz"]
    L += ["", "## Results", "",
          f"- truncation semantics ({t['family']} family): **{t['verdict']}**" +
          (f" ({', '.join(t['oracles'])})" if t["oracles"] else ""),
          f"- memory safety: **{m['verdict']}**" + (f" ({', '.join(m['oracles'])})" if m["oracles"] else "")
          + f"; {m['sanitizers']}",
          f"- conformance: {c['phases']['conform']['claimed']} cases at every buffer size, "
          f"{c['phases']['conform']['failing']} failing",
          f"- return-value suite: {c['phases']['retval']['cases']} cases, {c['phases']['retval']['failing']} failing",
          f"- differential fuzzing vs {fz['reference']}: {fz['executions']} executions in {fz['seconds']} s, "
          f"coverage {fz['coverage_edges']} of {fz['coverage_total']} edges of the vendored code, "
          f"{len(fz['findings'])} finding(s)" + (" (stopped early: 64 distinct findings)" if fz.get("stopped_early") else ""),
          f"- executions in all: {c['executions']}", "",
          "## Categories", "", "| category | verdict | cases | pass | fail |", "|---|---|---|---|---|"]
    for k, v in c["category_counts"].items():
        L.append(f"| {k} | {v['verdict']} | {v['cases']} | {v['pass']} | {v['fail']} |")
    if c["oracles_fired"]:
        L += ["", "## Oracles that fired", "", "| oracle | count |", "|---|---|"]
        L += [f"| {k} | {v} |" for k, v in sorted(c["oracles_fired"].items())]
    return "\n".join(L) + "\n"


CSS = """body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#222;padding:0 1em}
h1{font-size:1.5em}.v{display:inline-block;padding:.3em .8em;border-radius:4px;font-weight:700;color:#fff}
.ok{background:#2a7d3b}.bad{background:#b3261e}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}th{background:#f3f3f3}
code{background:#f4f4f4;padding:0 .25em;border-radius:3px;word-break:break-all}
.conforms{color:#2a7d3b}.deviates,.violated{color:#b3261e;font-weight:600}.unsupported{color:#8a6d00}
ul.r li{margin:.3em 0}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}"""


def render_html(c, claimed):
    e = html.escape
    ok = c["verdict"] == "certified"
    t, m, fz = c["truncation_semantics"], c["memory_safety"], c["phases"]["fuzz"]
    h = [f"<!doctype html><html><head><meta charset='utf-8'><title>Certificate: {e(c['function'])}</title>"
         f"<style>{CSS}</style></head><body>",
         f"<h1>Certificate: <code>{e(c['function'])}</code> ({e(c['kind'])}, {e(c['dialect'])} dialect)</h1>",
         f"<p><span class='v {'ok' if ok else 'bad'}'>{e(c['verdict'].upper())}</span></p>"]
    if c["reasons"]:
        h.append("<h2>Reasons</h2><ul class='r'>" + "".join(f"<li>{e(r)}</li>" for r in c["reasons"][:30]) + "</ul>")
    h.append("<h2>Summary</h2><dl>")
    for k, v in [("truncation semantics", f"<span class='{e(t['verdict'])}'>{e(t['verdict'])}</span> ({e(t['family'])} family)"
                  + (f": {e(', '.join(t['oracles']))}" if t["oracles"] else "")),
                 ("memory safety", f"<span class='{'violated' if m['oracles'] else 'conforms'}'>{e(m['verdict'])}</span>"
                  + (f": {e(', '.join(m['oracles']))}" if m["oracles"] else "")),
                 ("conformance", f"{c['phases']['conform']['claimed']} cases, every buffer size, "
                  f"{c['phases']['conform']['failing']} failing"),
                 ("return-value suite", f"{c['phases']['retval']['cases']} cases, {c['phases']['retval']['failing']} failing"),
                 ("differential fuzzing", f"vs {e(fz['reference'])}: {fz['executions']} executions in {fz['seconds']} s, "
                  f"coverage {fz['coverage_edges']}/{fz['coverage_total']} edges, {len(fz['findings'])} finding(s)"),
                 ("claim", e(c['claim']['categories'] if c['claim']['categories'] == 'all' else ', '.join(c['claim']['categories']))), ("compiler", e(c["build"]["compiler"])),
                 ("flags", f"<code>{e(c['build']['cflags'])}</code>")]:
        h.append(f"<dt>{e(k)}</dt><dd>{v}</dd>")
    for s in c["sources"]:
        h.append(f"<dt>source</dt><dd><code>{e(os.path.basename(s['path']))}</code> sha256 <code>{e(s['sha256'])}</code></dd>")
    h.append("</dl><h2>Categories</h2><table><tr><th>category</th><th>verdict</th><th>cases</th><th>pass</th><th>fail</th></tr>")
    for k, v in c["category_counts"].items():
        h.append(f"<tr><td>{e(k)}</td><td class='{e(v['verdict'])}'>{e(v['verdict'])}</td><td>{v['cases']}</td>"
                 f"<td>{v['pass']}</td><td>{v['fail']}</td></tr>")
    h.append("</table>")
    if c["oracles_fired"]:
        h.append("<h2>Oracles that fired</h2><table><tr><th>oracle</th><th>count</th></tr>" +
                 "".join(f"<tr><td>{e(k)}</td><td>{v}</td></tr>" for k, v in sorted(c["oracles_fired"].items())) + "</table>")
    ex = [r for r in claimed if r["status"] != "pass"][:10] + c["phases"]["retval"]["findings"][:5] + fz["findings"][:5]
    if ex:
        h.append("<h2>Examples</h2><table><tr><th>phase</th><th>case</th><th>oracle</th><th>detail</th></tr>")
        for r in ex:
            det = r.get("detail") or (f"expected {r.get('expected')}, got {r.get('actual')}" if r.get("expected") else "")
            h.append(f"<tr><td>{e(r.get('phase', ''))}</td><td><code>{e(r['case'])}</code></td><td>{e(str(r.get('oracle')))}</td>"
                     f"<td>{e(det)}</td></tr>")
        h.append("</table>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"


def main(argv):
    try:
        args = make_parser().parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        cert, run = certify(args)
    except ScnError as e:
        sys.stderr.write(f"scnfuzz certify: {e}\n")
        return 2
    print(f"scnfuzz certify: {cert['function']}: {cert['verdict'].upper()}")
    for r in cert["reasons"][:20]:
        print(f"  - {r}")
    print(f"scnfuzz certify: certificate: {run.path / 'certificate.md'}")
    return 0 if cert["verdict"] == "certified" else 1
