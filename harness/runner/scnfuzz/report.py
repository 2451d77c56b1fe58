"""Building a run's reports from its raw material (run.json, findings.jsonl,
conform*.jsonl): report.json (schema: report_schema.json, reports/README.md),
report.md, report.html (self-contained) and junit.xml."""
import collections
import difflib
import hashlib
import html
import json
import os
import shlex
import time
import xml.etree.ElementTree as ET

from . import build, reduce
from .errors import SetupError
from .runs import Run, read_jsonl, utc_iso

SCHEMA_VERSION = 1
# set (by a signal handler) to cut the minimization short: the report is written without it
STOP = {"now": False}
NOT_BUGS = {"implementation-defined"}
SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "report_schema.json")


def finding_id(sig):
    return "F-" + hashlib.sha1(sig.encode()).hexdigest()[:10]


def reproduce_cmd(case, targets, dialect, planted=None):
    cmd = "./scnfuzz replay " + shlex.quote(case)
    if planted and "planted" in targets:
        cmd = f"SCN_PLANTED={shlex.quote(planted)} " + cmd
    for t in targets:
        cmd += " --target " + shlex.quote(t)
    return cmd


def _matrix(run):
    """category x target counts; a target run by several conformance parts of
    the run counts from the last of them."""
    cells = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    tnames, last = [], {}
    parts = run.meta.get("parts", [])
    for i, part in enumerate(parts):
        if part.get("kind") == "conform":
            for t in part.get("targets", []):
                name = t["name"] if isinstance(t, dict) else t
                if name not in tnames:
                    tnames.append(name)
                last[name] = i
    for i, part in enumerate(parts):
        if part.get("kind") != "conform" or i not in last.values():
            continue
        for r in read_jsonl(run.path / part.get("results", "conform.jsonl")):
            if "summary" in r or "target" not in r or last.get(r["target"]) != i:
                continue
            c = cells[r.get("category", "?")][r["target"]]
            c[r.get("status", "error")] += 1
            if r.get("note") == "impl-differs":
                c["impl_differs"] += 1
    rows = []
    for cat in sorted(cells):
        row = {"category": cat, "cells": {}}
        for t in tnames:
            c = cells[cat].get(t)
            if c:
                row["cells"][t] = {"pass": c["pass"], "fail": c["fail"], "error": c["error"],
                                   "impl_differs": c["impl_differs"]}
        rows.append(row)
    totals = {}
    for t in tnames:
        tot = collections.Counter()
        for cat in cells:
            tot.update(cells[cat].get(t, {}))
        totals[t] = {"pass": tot["pass"], "fail": tot["fail"], "error": tot["error"],
                     "impl_differs": tot["impl_differs"]}
    return {"targets": tnames, "rows": rows, "totals": totals}


def _targets(run):
    seen = {}
    for part in run.meta.get("parts", []):
        for t in part.get("targets", []):
            if isinstance(t, dict) and t.get("name") not in seen:
                seen[t["name"]] = {k: t.get(k) for k in ("name", "version", "dialect", "scnprintf", "where")}
    return list(seen.values())


def _load_cache(run):
    try:
        return json.loads((run.path / "minimized.json").read_text())
    except (OSError, ValueError):
        return {}


def _findings(run, minimize, budget_s, quiet):
    raw = read_jsonl(run.findings_path)
    groups = collections.OrderedDict()
    for f in raw:
        if "case" not in f or "oracle" not in f:
            continue
        sig = f.get("signature") or f"{f['oracle']}:{f['case']}"
        groups.setdefault(sig, []).append(f)
    cache = _load_cache(run)
    replay = None
    deadline = time.monotonic() + budget_s
    out = []
    env = dict(os.environ)
    planted = run.meta.get("planted")
    if planted:
        env["SCN_PLANTED"] = planted
    # the time budget goes to the bugs first
    ordered = sorted(groups.items(), key=lambda kv: kv[1][0].get("classification") in NOT_BUGS)
    for sig, fs in ordered:
        rep = min(fs, key=lambda f: len(f["case"]))
        names, dialect = reduce.replay_targets(rep)
        case, outputs, detail, minimized = rep["case"], rep.get("outputs", {}), rep.get("detail", ""), False
        ent = cache.get(sig)
        if ent and ent.get("from") == rep["case"]:
            case, minimized = ent["to"], ent["to"] != rep["case"]
            outputs = ent.get("outputs") or outputs
            detail = ent.get("detail", detail)
        elif minimize and not rep.get("oracle", "").startswith("expect.") and rep.get("case") \
                and time.monotonic() < deadline and names and not STOP["now"]:
            try:
                replay = replay or build.tool("scn-replay")
            except SetupError as e:
                if not quiet:
                    print(f"scnfuzz: not minimizing: {e}")
                minimize = False
            if replay:
                left = deadline - time.monotonic()
                per = min(left, max(2.0, budget_s / max(1, len(groups))))
                to, hit, _ = reduce.minimize(replay, rep, per, env=env, stop=lambda: STOP["now"])
                if hit is not None:
                    case, minimized = to, to != rep["case"]
                    outputs = hit.get("outputs") or outputs
                    detail = hit.get("detail", detail)
                    cache[sig] = {"from": rep["case"], "to": to, "outputs": outputs, "detail": detail}
        klass = rep.get("classification", "unknown")
        allowance = None
        if rep.get("allowance"):
            allowance = {"id": rep["allowance"], "citation": rep.get("citation", "")}
        item = {
            "id": finding_id(sig), "signature": sig, "oracle": rep["oracle"], "classification": klass,
            "bug": klass not in NOT_BUGS, "source": rep.get("source", "fuzz"),
            "case": case, "original_case": rep["case"], "minimized": minimized,
            "targets": names, "dialect": dialect, "outputs": outputs, "detail": detail,
            "allowance": allowance, "count": len(fs),
            "reproduce": reproduce_cmd(case, names, dialect, planted),
        }
        for k in ("category", "citation", "where", "size", "family", "artifact", "fuzzer"):
            if rep.get(k) is not None and k not in item:
                item[k] = rep[k]
        workers = sorted({f["worker"] for f in fs if isinstance(f.get("worker"), int)})
        if workers:  # the campaign's fuzzer processes that found it
            item["workers"] = workers
        out.append(item)
    if cache:
        (run.path / "minimized.json").write_text(json.dumps(cache, indent=1) + "\n")
    order = {"memory-safety": 0, "crash": 1, "hang": 2, "invariant": 3, "divergence": 4, "conformance": 5,
             "error": 6, "implementation-defined": 9}
    out.sort(key=lambda f: (order.get(f["classification"], 7), -f["count"], f["id"]))
    return out, len(raw)


def build_report(run, minimize=True, budget_s=60.0, quiet=False):
    """Writes report.json/.md/.html and junit.xml into the run directory."""
    parts = run.meta.get("parts", [])
    findings, nraw = _findings(run, minimize, budget_s, quiet)
    matrix = _matrix(run)
    cases_run = sum(p.get("cases_run", 0) or 0 for p in parts)
    execs = sum((p.get("executions", 0) or 0) if p.get("kind") == "fuzz" else (p.get("results_count", 0) or 0)
                for p in parts)
    duration = sum(p.get("duration_s", 0) or 0 for p in parts)
    bugs = sum(1 for f in findings if f["bug"])
    conform_fail = sum(t["fail"] + t["error"] for t in matrix["totals"].values())
    rep = {
        "schema_version": SCHEMA_VERSION,
        "generator": "scnfuzz",
        "generated": utc_iso(),
        "run": {"dir": str(run.path), "kind": run.meta.get("kind", "unknown"),
                "started": run.meta.get("started"), "finished": run.meta.get("finished"),
                "command": run.meta.get("command", [])},
        "targets": _targets(run),
        "cases_run": cases_run,
        "executions": execs,
        "duration_s": round(duration, 3),
        "parts": [{k: v for k, v in p.items() if k not in ("targets",)} | {"targets": [t["name"] if isinstance(t, dict) else t for t in p.get("targets", [])]} for p in parts],
        "matrix": matrix,
        "summary": {"findings": len(findings), "bugs": bugs,
                    "implementation_defined": len(findings) - bugs, "raw_findings": nraw,
                    "conformance_failures": conform_fail,
                    "verdict": "fail" if bugs or conform_fail else "pass"},
        "findings": findings,
    }
    tmp = run.path / ".report.json.tmp"
    tmp.write_text(json.dumps(rep, indent=1) + "\n")
    os.replace(tmp, run.path / "report.json")
    (run.path / "report.md").write_text(render_md(rep))
    (run.path / "report.html").write_text(render_html(rep))
    write_junit(rep, run.path / "junit.xml")
    return rep


# ------------------------------------------------------------------ markdown

def verdict_text(rep):
    s = rep["summary"]
    conf_bugs = sum(1 for f in rep["findings"] if f["bug"] and f.get("source") == "conform")
    return (f"{s['bugs'] - conf_bugs} fuzzing/oracle finding(s) beyond the allowances, "
            f"{s['implementation_defined']} implementation-defined (allowed), "
            f"{s['conformance_failures']} conformance failure(s) ({conf_bugs} distinct)")


def _md_code(text):
    text = str(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _cell_text(c):
    if not c:
        return "-"
    s = f"{c['pass']}/{c['pass'] + c['fail'] + c['error']}"
    if c["fail"] or c["error"]:
        s += f" ({c['fail'] + c['error']} FAIL)"
    return s


def render_md(rep):
    L = [f"# scnfuzz report: {rep['run']['kind']} ({rep['run'].get('started') or ''})", ""]
    s = rep["summary"]
    L.append(f"Verdict: **{s['verdict'].upper()}**: {verdict_text(rep)}; "
             f"{rep['cases_run']} cases, {rep['executions']} executions, {rep['duration_s']} s.")
    L.append("")
    L.append("Targets: " + ", ".join(f"{t['name']} ({t.get('version')}, {t.get('dialect')})"
                                     for t in rep["targets"]))
    L.append("")
    m = rep["matrix"]
    if m["rows"]:
        L.append("## Conformance matrix (passed/run per category and target)")
        L.append("")
        L.append("| category | " + " | ".join(m["targets"]) + " |")
        L.append("|---" * (len(m["targets"]) + 1) + "|")
        for row in m["rows"]:
            L.append(f"| {row['category']} | " + " | ".join(_cell_text(row['cells'].get(t)) for t in m["targets"]) + " |")
        L.append("| **total** | " + " | ".join(_cell_text(m["totals"][t]) for t in m["targets"]) + " |")
        L.append("")
    L.append(f"## Findings ({len(rep['findings'])})")
    L.append("")
    for f in rep["findings"]:
        L.append(f"### {f['id']}: {f['oracle']} ({f['classification']}), x{f['count']}")
        L.append("")
        L.append(f"- case: {_md_code(f['case'])}" + (" (minimized)" if f["minimized"] else ""))
        if f["minimized"]:
            L.append(f"- original: {_md_code(f['original_case'])}")
        L.append(f"- signature: {_md_code(f['signature'])}")
        if f.get("detail"):
            L.append(f"- detail: {f['detail']}")
        if f.get("allowance"):
            L.append(f"- allowance `{f['allowance']['id']}`: {f['allowance']['citation']}")
        elif f.get("citation"):
            L.append(f"- citation: {f['citation']}")
        L.append(f"- reproduce: {_md_code(f['reproduce'])}")
        L.append("")
        L.append("| target | ret | bytes |")
        L.append("|---|---|---|")
        for t, o in f["outputs"].items():
            b = str(o.get("bytes", "")).replace("|", "\\|")
            L.append(f"| {t} | {o.get('ret')} | {_md_code(b)} |")
        L.append("")
    return "\n".join(L) + "\n"


# ------------------------------------------------------------------ html

CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
td.ok{background:#c8efc8}td.bad{background:#f6b8b8}td.na{background:#eee;color:#888}
td.num{text-align:right}
.verdict-pass{color:#176317}.verdict-fail{color:#a01010}
.finding{border:1px solid #ccc;border-radius:4px;padding:.5em 1em;margin:1em 0}
.cls-implementation-defined{border-left:6px solid #999}
.cls-divergence,.cls-conformance,.cls-invariant{border-left:6px solid #d07000}
.cls-memory-safety,.cls-crash,.cls-hang{border-left:6px solid #c00}
code,.bytes{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
mark{background:#ffd24d}mark.gap{background:#ff9b3d;padding:0 1px}
td.diff{background:#ffd24d}
"""


def _hl(text, other):
    """HTML of text with the parts that differ from other highlighted (a
    caret marks where other has bytes that text lacks)."""
    if other is None or other == text:
        return html.escape(text)
    sm = difflib.SequenceMatcher(None, other, text, autojunk=False)
    out = []
    for op, a1, a2, b1, b2 in sm.get_opcodes():
        seg = html.escape(text[b1:b2])
        if op == "equal":
            out.append(seg)
        elif b2 > b1:
            out.append(f"<mark>{seg}</mark>")
        else:
            out.append('<mark class="gap" title="missing here">&#8248;</mark>')
    return "".join(out)


def _reference_for(i, outs):
    """The output row i is compared with: the first other row that differs."""
    me = str(outs[i][1].get("bytes", ""))
    for j, (_, o) in enumerate(outs):
        if j != i and str(o.get("bytes", "")) != me:
            return str(o.get("bytes", ""))
    return None


def _cell_html(c):
    if not c:
        return '<td class="na">-</td>'
    bad = c["fail"] + c["error"]
    title = f"{c['pass']} pass, {c['fail']} fail, {c['error']} error, {c['impl_differs']} impl-differs"
    cls = "bad" if bad else "ok"
    txt = f"{c['pass']}/{c['pass'] + bad}"
    return f'<td class="{cls} num" title="{title}">{txt}</td>'


def render_html(rep):
    e = html.escape
    s = rep["summary"]
    H = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         f"<title>scnfuzz report {e(rep['run']['kind'])}</title>", f"<style>{CSS}</style></head><body>",
         f"<h1>scnfuzz report: {e(rep['run']['kind'])}</h1>",
         f'<p class="verdict-{s["verdict"]}"><b>Verdict: {s["verdict"].upper()}</b>: {e(verdict_text(rep))}; '
         f'{rep["cases_run"]} cases, {rep["executions"]} executions, {rep["duration_s"]} s '
         f'(started {e(str(rep["run"].get("started")))}).</p>']
    m = rep["matrix"]
    H.append("<h2>Conformance matrix</h2>")
    if m["rows"]:
        H.append('<table id="matrix" class="matrix"><thead><tr><th>category</th>' +
                 "".join(f"<th>{e(t)}</th>" for t in m["targets"]) + "</tr></thead><tbody>")
        for row in m["rows"]:
            H.append(f"<tr><th>{e(row['category'])}</th>" +
                     "".join(_cell_html(row["cells"].get(t)) for t in m["targets"]) + "</tr>")
        H.append("<tr><th>total</th>" + "".join(_cell_html(m["totals"][t]) for t in m["targets"]) + "</tr>")
        H.append("</tbody></table><p>Cells: passed/run (case results, every buffer size and both families "
                 "checked per result); hover for counts.</p>")
    else:
        H.append('<table id="matrix" class="matrix"><tr><td class="na">no conformance run in this report'
                 '</td></tr></table>')
    H.append("<h2>Targets</h2><table><tr><th>name</th><th>version</th><th>dialect</th><th>scnprintf</th>"
             "<th>where</th></tr>")
    for t in rep["targets"]:
        H.append("<tr>" + "".join(f"<td>{e(str(t.get(k) or ''))}</td>"
                                  for k in ("name", "version", "dialect", "scnprintf", "where")) + "</tr>")
    H.append("</table>")
    H.append(f"<h2>Findings ({len(rep['findings'])})</h2>")
    for f in rep["findings"]:
        H.append(f'<section class="finding cls-{e(f["classification"])}" id="{f["id"]}">')
        H.append(f"<h3>{f['id']}: {e(f['oracle'])} <small>({e(f['classification'])}, "
                 f"{f['count']} raw)</small></h3>")
        H.append(f'<p>case: <code class="case">{e(f["case"])}</code>' +
                 (f' <small>(minimized from <code>{e(f["original_case"])}</code>)</small>' if f["minimized"] else "") +
                 "</p>")
        H.append(f"<p>signature <code>{e(f['signature'])}</code>" +
                 (f"; {e(f['detail'])}" if f.get("detail") else "") + "</p>")
        if f.get("allowance"):
            H.append(f"<p>allowance <b>{e(f['allowance']['id'])}</b>: {e(f['allowance']['citation'])}</p>")
        elif f.get("citation"):
            H.append(f"<p>citation: {e(f['citation'])}</p>")
        outs = list(f["outputs"].items())
        rets = [o.get("ret") for _, o in outs]
        H.append('<table class="outputs"><tr><th>target</th><th>ret</th><th>bytes</th></tr>')
        for i, (t, o) in enumerate(outs):
            b = str(o.get("bytes", ""))
            ret = o.get("ret")
            rcls = "num diff" if len(set(map(str, rets))) > 1 and rets.count(ret) < len(rets) else "num"
            H.append(f'<tr><td>{e(t)}</td><td class="{rcls}">{e(str(ret))}</td>'
                     f'<td class="bytes">{_hl(b, _reference_for(i, outs))}</td></tr>')
        H.append("</table>")
        H.append(f'<p>reproduce: <code class="repro">{e(f["reproduce"])}</code></p></section>')
    H.append("</body></html>")
    return "\n".join(H) + "\n"


# ------------------------------------------------------------------ junit

def write_junit(rep, path):
    suites = ET.Element("testsuites", name="scnfuzz")
    m = rep["matrix"]
    if m["rows"]:
        ts = ET.SubElement(suites, "testsuite", name="conformance")
        n = fails = 0
        for row in m["rows"]:
            for t in m["targets"]:
                c = row["cells"].get(t)
                if not c:
                    continue
                n += 1
                tc = ET.SubElement(ts, "testcase", classname=f"conformance.{t}", name=row["category"])
                bad = c["fail"] + c["error"]
                if bad:
                    fails += 1
                    rel = [f for f in rep["findings"] if f.get("source") == "conform" and t in f["targets"]
                           and f.get("category") == row["category"]]
                    fe = ET.SubElement(tc, "failure", message=f"{bad} of {bad + c['pass']} cases failed")
                    fe.text = "\n".join(f"{f['id']} {f['oracle']}: {f['case']}\n  {f['reproduce']}" for f in rel)
        ts.set("tests", str(n))
        ts.set("failures", str(fails))
    fz = [f for f in rep["findings"] if f.get("source") != "conform"]
    ts = ET.SubElement(suites, "testsuite", name="differential", tests=str(len(fz)),
                       failures=str(sum(1 for f in fz if f["bug"])))
    for f in fz:
        tc = ET.SubElement(ts, "testcase", classname=f"findings.{f['classification']}", name=f["id"])
        body = f"{f['case']}\n{f['signature']}\n{f['reproduce']}"
        if f["bug"]:
            fe = ET.SubElement(tc, "failure", message=f"{f['oracle']} ({f['classification']}) x{f['count']}")
            fe.text = body
        else:
            so = ET.SubElement(tc, "system-out")
            so.text = body + (f"\nallowance {f['allowance']['id']}" if f.get("allowance") else "")
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def report_command(args):
    run = Run.open(args.dir)
    run.fold_worker_findings()  # what a killed campaign's fuzzers wrote after its last fold
    rep = build_report(run, minimize=not args.no_minimize, budget_s=args.minimize_time)
    print_summary(rep, run.path)
    return exit_code(rep)


def exit_code(rep):
    return 1 if rep["summary"]["verdict"] == "fail" else 0


def print_summary(rep, path):
    s = rep["summary"]
    print(f"scnfuzz: {s['verdict'].upper()}: {verdict_text(rep)} [{s['raw_findings']} raw findings]")
    print(f"scnfuzz: report: {os.path.relpath(path / 'report.html', os.getcwd())}")
