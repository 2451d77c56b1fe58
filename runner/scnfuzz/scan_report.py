"""`scnfuzz scan`: from the workers' call sites and candidates to the
findings (the bound decides the candidates that need it), the profile and
the run directory's report.json, report.md and report.sarif."""
import json
import os
import pathlib

from . import __version__, runs, sarif, scan_format
from .scan_misuse import FIX

SCHEMA = "scnfuzz-scan/1"
KINDS = {
    "snprintf-ret-length": "snprintf()'s return value added to a running length",
    "snprintf-ret-pointer": "snprintf()'s return value added to a pointer into the buffer",
    "snprintf-ret-returned": "snprintf()'s return value returned as bytes written by a show()",
    "sprintf-overflow": "sprintf() into a fixed-size array can write past it",
    "scnprintf-ret-compared": "scnprintf()'s return value compared with the size",
    "pa-double-0x": "0x before %pa/%pad, which print their own 0x",
}


def display(path):
    p = os.path.abspath(path)
    cwd = os.getcwd() + os.sep
    return p[len(cwd):] if p.startswith(cwd) else p


def analyse(results, kernel_run):
    """results: the workers' dicts -> (calls, findings, profile, parse_failures)."""
    calls, cands, failed = [], [], []
    shown = {}  # display() of each file, asked at each of its call sites (20,000 in drivers/scsi)

    def shown_path(path):
        d = shown.get(path)
        if d is None:
            d = shown[path] = display(path)
        return d

    for r in results:
        if "error" in r:
            failed.append({"file": shown_path(r["file"]), "error": r["error"]})
            continue
        kern_file = kernel_run or any(c["family"] in ("kernel", "scnprintf") for c in r["calls"])
        for c in r["calls"]:
            c["dialect"] = "kernel" if kern_file else "iso"
        calls.extend(r["calls"])
        cands.extend(r["candidates"])
    fmts = {c["format"].encode("latin-1") for c in calls if c["format"] is not None}
    feats = scan_format.features_of(fmts)
    exts = scan_format.p_extensions(feats)
    profile = {}
    for c in calls:
        if c["format"] is None:
            c["features"] = []
            profile.setdefault("(format not a literal)", []).append(f"{shown_path(c['file'])}:{c['line']}")
            continue
        fb = c["format"].encode("latin-1")
        f = list(feats.get(fb, ([], []))[1])
        c["p_extensions"] = [(i, e) for i, e in exts.get(fb, [])] if c["dialect"] == "kernel" else []
        f += [f"%p{e}" for _, e in c["p_extensions"] if f"%p{e}" not in f]
        c["features"] = f
        for name in f:
            profile.setdefault(name, []).append(f"{shown_path(c['file'])}:{c['line']}")
    findings = _decide(cands, feats, exts)
    for c in calls:
        findings.extend(_double_0x(c))
    findings.sort(key=lambda d: (d["file"], d["line"], d["kind"]))
    for d in findings:
        d["file"] = shown_path(d["file"])
    for c in calls:
        c["file"] = shown_path(c["file"])
    return calls, findings, profile, failed


def _bound_of(call, feats, exts):
    fb = call["format"].encode("latin-1") if call["format"] is not None else None
    features = feats.get(fb, ([], []))[0] if fb is not None else []
    return scan_format.bound(call, features, exts.get(fb, []) if call.get("dialect") == "kernel" else [])


def _decide(cands, feats, exts):
    out, groups = [], {}
    for d in cands:
        if d.get("group"):
            groups.setdefault((d["file"], d["group"]), []).append(d)
    bounded_groups = set()
    for key, ds in groups.items():
        sizes = {d.get("size_const") for d in ds}
        if any(d.get("in_loop") for d in ds) or len(sizes) != 1 or None in sizes:
            continue
        bs = [_bound_of(d["call"], feats, exts) for d in ds]
        if all(b is not None for b in bs) and sum(bs) < sizes.pop():  # the whole output fits: never cut
            bounded_groups.add(key)
    for d in cands:
        kind = d["kind"]
        if d.get("group") and (d["file"], d["group"]) in bounded_groups:
            continue
        if kind == "snprintf-ret-returned":
            b = _bound_of(d["call"], feats, exts)
            if b is None or (d.get("size_const") and b < d["size_const"]):  # fits with its NUL: never cut
                continue
        if kind == "sprintf-overflow":
            b = _bound_of(d["call"], feats, exts)
            size = d["array_size"]
            if b is None or b < size:
                continue
            d["why"] = (f"sprintf() into {d['dest']} (char[{size}]) can write "
                        + ("any length: a %s of a non-literal string without a precision" if b == scan_format.INF
                           else f"{b} bytes and its NUL"))
        out.append(_finding(d))
    return out


def _finding(d):
    return {"file": d["file"], "line": d["line"], "col": d["col"], "kind": d["kind"], "function": d["function"],
            "call": d["call"]["name"], "code": d["code"], "why": d["why"], "fix": d["fix"]}


def _double_0x(c):
    fmt = c["format"]
    out = []
    for i, ext in c.get("p_extensions", []):
        if ext[:1] != "a":
            continue
        start = scan_format.spec_start(fmt.encode("latin-1"), i)
        if start is not None and start >= 2 and fmt[start - 2:start].lower() == "0x":
            out.append({"file": c["file"], "line": c["line"], "col": c["col"], "kind": "pa-double-0x",
                        "function": c["function"], "call": c["name"], "code": c["code"],
                        "why": f"\"0x%p{ext}\" prints 0x twice: %p{ext} prints its own 0x",
                        "fix": FIX["pa-double-0x"]})
    return out


def model(argv, files, calls, findings, profile, failed, seconds, parse_errors, planned=None):
    """The report: files read of planned (fewer when the scan was interrupted)."""
    fmts = {}  # each feature's distinct formats (certify --profile counts them)
    for c in calls:
        for name in c.get("features") or []:
            fmts.setdefault(name, {})[c["format"]] = None
    fmts = {k: list(v) for k, v in fmts.items()}
    return {"schema": SCHEMA, "version": __version__, "command": ["./scnfuzz", "scan"] + list(argv),
            "finished": runs.utc_iso(), "files": files, "files_planned": files if planned is None else planned,
            "seconds": round(seconds, 3),
            "files_per_second": round(files / seconds, 1) if seconds > 0 else None,
            "files_with_parse_errors": parse_errors, "unreadable": failed,
            "calls": len(calls), "findings": findings,
            "profile": {k: {"count": len(v), "sites": v, "formats": fmts.get(k, [])} for k, v in sorted(profile.items())},
            "call_sites": [{k: c[k] for k in ("file", "line", "name", "callee", "family", "format", "args",
                                              "features")} for c in calls]}


def write(run_path, m):
    run_path = pathlib.Path(run_path)
    runs.write_atomic(run_path / "report.json", dumps_report(m))
    runs.write_atomic(run_path / "report.md", markdown(m))
    runs.write_atomic(run_path / "report.sarif", json.dumps(to_sarif(m), indent=1) + "\n")


def dumps_report(m):
    """report.json's text: the same JSON as json.dumps(m, indent=1), each call
    site and finding on one line (the indenting encoder is pure Python: on the
    20,000 call sites of drivers/scsi it took a second and a half)."""
    out = []
    for k, v in m.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            body = "[\n" + ",\n".join("  " + json.dumps(x) for x in v) + "\n ]"
        else:
            body = json.dumps(v)
        out.append(f" {json.dumps(k)}: {body}")
    return "{\n" + ",\n".join(out) + "\n}\n"


def profile_table(m, limit=None):
    rows = sorted(m["profile"].items(), key=lambda kv: (-kv[1]["count"], kv[0]))
    lines = ["| feature | calls | first site |", "|---|---:|---|"]
    for k, v in rows[:limit]:
        lines.append(f"| `{k}` | {v['count']} | {v['sites'][0]} |")
    return lines


def markdown(m):
    out = [f"# scnfuzz scan: {len(m['findings'])} misuse finding(s)", "",
           f"`{' '.join(m['command'])}`", ""]
    if m["files"] < m["files_planned"]:
        out += [f"**Interrupted: {m['files']} of {m['files_planned']} files read**; this report holds those.", ""]
    out += [f"{m['files']} files ({m['files_with_parse_errors']} with parse errors, recovered), {m['calls']} "
            f"printf-family calls, {m['seconds']} s ({m['files_per_second']} files/s).", ""]
    if m["unreadable"]:
        out += [f"Files libclang could not read: {len(m['unreadable'])}", ""]
    out += ["## Findings", ""]
    if not m["findings"]:
        out += ["None.", ""]
    for d in m["findings"]:
        out += [f"- **{d['file']}:{d['line']}** `{d['kind']}` in {d['function']}(): `{d['code']}`",
                f"  - why: {d['why']}", f"  - fix: {d['fix']}"]
    out += ["", "## Format profile", ""] + profile_table(m) + [""]
    return "\n".join(out)


def to_sarif(m):
    rules = [{"id": k, "shortDescription": {"text": v}, "help": {"text": FIX[k]}} for k, v in KINDS.items()]
    results = []
    for d in m["findings"]:
        results.append({"ruleId": d["kind"], "level": "error",
                        "message": {"text": f"{d['why']}. Fix: {d['fix']}. Code: {d['code']}"},
                        "locations": [{"physicalLocation": {
                            "artifactLocation": sarif.artifact_location(d["file"]),
                            "region": {"startLine": d["line"], "startColumn": d["col"]}}}]})
    return {"$schema": sarif.SARIF_SCHEMA_URI, "version": sarif.SARIF_VERSION,
            "runs": [{"tool": {"driver": {"name": "scnfuzz scan", "version": __version__, "rules": rules}},
                      "results": results}]}
