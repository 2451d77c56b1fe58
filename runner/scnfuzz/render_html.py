"""report.html, self-contained (inline CSS, no scripts, no external resources):
the verdict, the root causes with the targets' bytes side by side (the
differing bytes marked), the known bugs and gaps, the allowed differences
folded away, the baseline, the conformance matrix, then the campaigns (each
worker's coverage, features and exec/s over time, inline SVG) and the targets.
Its size is bounded: long outputs are clipped, past a budget root causes are
listed one line each, then only counted, and the charts are thinned.
certificate.html: a certification's certificate, in the same style."""
import html
import os

from .render_common import case_named, clip, diff_span, hits_text, phase_line, ranges, reference_for, sections, verdict_text
from .report_matrix import cell_failed
from .svgplot import MAX_POINTS, line_chart

FULL_BYTES = 600_000     # root causes shown in full up to about this size,
COMPACT_BYTES = 800_000  # then one line each, then only how many are left
e = html.escape

CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
td.ok{background:#c8efc8}td.bad{background:#f6b8b8}td.known{background:#f3e3a0}td.na{background:#eee;color:#888}
td.num{text-align:right}
.verdict-pass{color:#176317}.verdict-fail{color:#a01010}
.finding{border:1px solid #ccc;border-radius:4px;padding:.5em 1em;margin:1em 0}
.cls-implementation-defined{border-left:6px solid #999}
.cls-known-bug,.cls-known-gap{border-left:6px solid #c9a400}
.cls-divergence,.cls-conformance,.cls-invariant,.cls-error{border-left:6px solid #d07000}
.cls-memory-safety,.cls-crash,.cls-hang{border-left:6px solid #c00}
code,.bytes{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
mark{background:#ffd24d}mark.gap{background:#ff9b3d;padding:0 1px}
td.diff{background:#ffd24d}.cut{color:#888}
figure.chart{display:inline-block;margin:.5em 1em .5em 0}figure.chart figcaption{font-size:.9em}
.legend{font-size:.85em}
"""
CHARTED_WORKERS = 16  # a campaign of more workers shows the first ones (report.json counts them all)


def bytes_html(text, ref):
    """text with the part that differs from ref marked (a caret where ref has
    bytes that text lacks); clipped around the difference when long."""
    p = q = len(text)
    if ref is not None and ref != text:
        p, s = diff_span(ref, text)
        q = len(text) - s
    a, b = clip(text, p)
    out = ['<span class="cut">&#8230;</span>'] if a else []
    out.append(e(text[a:max(a, min(p, b))]))
    if p < q:
        out.append(f"<mark>{e(text[max(p, a):min(q, b)])}</mark>")
    elif ref is not None and ref != text and a <= p <= b:
        out.append('<mark class="gap" title="missing here">&#8248;</mark>')
    out.append(e(text[max(q, a):b]))
    if b < len(text):
        out.append('<span class="cut">&#8230;</span>')
    if (a, b) != (0, len(text)):
        out.append(f' <small class="cut">({len(text):,} chars; {a:,}-{b:,} shown)</small>')
    return "".join(out)


def clipped(text, limit=2048):
    a, b = clip(text, 0, limit)
    return e(text[a:b]) + (f'<span class="cut">&#8230; ({len(text):,} chars)</span>' if b < len(text) else "")


def _outputs(f):
    outs = list(f["outputs"].items())
    if not outs:
        return ""
    rets = [str(o.get("ret")) for _, o in outs]
    H = ['<table class="outputs"><tr><th>target</th><th>ret</th><th>bytes</th></tr>']
    for i, (t, o) in enumerate(outs):
        ret = str(o.get("ret"))
        rcls = "num diff" if rets.count(ret) < len(rets) else "num"
        H.append(f'<tr><td>{e(t)}</td><td class="{rcls}">{e(ret)}</td>'
                 f'<td class="bytes">{bytes_html(str(o.get("bytes", "")), reference_for(i, outs))}</td></tr>')
    H.append("</table>")
    return "".join(H)


def _rule(f):
    r = f.get("rule")
    if r:
        return f"<p>{e(r['kind'])} <b>{e(r['id'])}</b>: {e(r['citation'])}</p>"
    return f"<p>citation: {e(str(f['citation']))}</p>" if f.get("citation") else ""


def _full(f):
    H = [f'<section class="finding cls-{e(f["classification"])}" id="{f["id"]}">',
         f"<h3>{f['id']}: {e(f['oracle'])} <small>({e(f['classification'])}, {hits_text(f)})</small></h3>",
         f'<p>case: <code class="case">{clipped(f["case"])}</code>' +
         (f' <small>(reduced from <code>{clipped(f["original_case"])}</code>)</small>' if f["reduced"] else "") +
         "</p>",
         f"<p>signature <code>{e(f['signature'])}</code>" +
         (f", shape <code>{e(f['shape'])}</code>" if f.get("shape") else "") +
         (f"; {e(f['detail'])}" if f.get("detail") else "") + "</p>",
         _rule(f)]
    if f.get("where"):
        H.append(f"<p>corpus: {e(str(f['where']))}" + (f" ({e(str(f['category']))})" if f.get("category") else "")
                 + "</p>")
    H.append(_outputs(f))
    H.append(f'<p>reproduce: <code class="repro">{clipped(f["reproduce"], 4096)}</code></p></section>')
    return "\n".join(x for x in H if x)


def _compact(f):
    r = f.get("rule")
    rule = f'<span title="{e(r["citation"])}">{e(r["id"])}</span>' if r else ""
    return (f'<tr id="{f["id"]}"><td>{f["id"]}</td><td>{e(f["classification"])}</td><td>{rule}</td>'
            f'<td class="num">{f["count"]:,}</td><td><code>{clipped(f["case"], 200)}</code></td>'
            f'<td><code>{clipped(f["reproduce"], 300)}</code></td></tr>')


def _section(title, anchor, items, folded, size):
    hits = sum(f["count"] for f in items)
    H = [f'<h2 id="{anchor}">{e(title)}: {len(items)} root cause(s), {hits:,} raw line(s)</h2>']
    rows = []
    for i, f in enumerate(items):
        if not folded and size < FULL_BYTES:
            H.append(_full(f))
            size += len(H[-1])
        elif size < COMPACT_BYTES:
            rows.append(_compact(f))
            size += len(rows[-1])
        else:
            rows.append(f'<tr><td colspan="6">{len(items) - i:,} more: see report.json</td></tr>')
            break
    if rows:
        table = ("<table><tr><th>id</th><th>classification</th><th>rule</th><th>raw lines</th><th>case</th>"
                 "<th>reproduce</th></tr>" + "\n".join(rows) + "</table>")
        H.append(f"<details><summary>{len(items)} root cause(s), {hits:,} raw line(s)</summary>{table}</details>"
                 if folded else table)
    return H, size


def _cell(c):
    if not c:
        return '<td class="na">-</td>'
    bad = c["fail"] + c["error"]
    title = (f"{c['pass']} pass, {c['fail']} fail, {c['error']} error, {c.get('known', 0)} explained by a rule, "
             f"{c['impl_differs']} impl-differs")
    cls = "bad" if cell_failed(c) else "known" if bad else "ok"
    return f'<td class="{cls} num" title="{title}">{c["pass"]}/{c["pass"] + bad}</td>'


def _matrix(m):
    if not m["rows"]:
        return ['<h2>Conformance matrix</h2><table id="matrix" class="matrix"><tr><td class="na">'
                'no conformance run in this report</td></tr></table>']
    H = ['<h2>Conformance matrix</h2><table id="matrix" class="matrix"><thead><tr><th>category</th>' +
         "".join(f"<th>{e(t)}</th>" for t in m["targets"]) + "</tr></thead><tbody>"]
    for row in m["rows"]:
        H.append(f"<tr><th>{e(row['category'])}</th>" + "".join(_cell(row["cells"].get(t)) for t in m["targets"])
                 + "</tr>")
    H.append("<tr><th>total</th>" + "".join(_cell(m["totals"][t]) for t in m["targets"]) + "</tr>")
    H.append("</tbody></table><p>Cells: passed/run (case results, every buffer size and both families checked "
             "per result); red: failures no rule explains, yellow: every failure explained by a known bug, gap "
             "or allowance; hover for counts.</p>")
    return H


def _campaigns(campaigns):
    """One section per campaign part: a chart per metric, a line per worker."""
    H = []
    for c in campaigns:
        workers = c["workers"]
        shown = workers[:CHARTED_WORKERS]
        npts = sum(len(w["points"]) for w in workers)
        H.append(f'<h2 id="campaign-{c["index"]}">Campaign {e(c["title"])}</h2>')
        if not npts:
            H.append("<p>no status lines in the workers' logs (removed, or the campaign ended before its "
                     "first one)</p>")
            continue
        more = f" (the first {len(shown)} of {len(workers)} workers)" if len(workers) > len(shown) else ""
        H.append(f"<p>Per worker{more}, over the seconds since it started: {npts:,} status points "
                 f"(each line drawn with at most {MAX_POINTS}).</p>")
        for key, what in c["metrics"]:
            H.append(line_chart(what, [(f"worker {w['worker']}", [(p["t"], p[key]) for p in w["points"]])
                                       for w in shown]))
    return H


def render_html(rep, campaigns=()):
    """campaigns: [{"index", "title", "metrics": ((key, what), ...), "workers":
    [{"worker", "points": [{"t", key: value, ...}]}]}], drawn after the matrix."""
    s = rep["summary"]
    H = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         f"<title>scnfuzz report {e(rep['run']['kind'])}</title>", f"<style>{CSS}</style></head><body>",
         f"<h1>scnfuzz report: {e(rep['run']['kind'])}</h1>",
         f'<p class="verdict-{s["verdict"]}"><b>Verdict: {s["verdict"].upper()}</b>: {e(verdict_text(rep))}; '
         f'{rep["cases_run"]:,} cases, {rep["executions"]:,} executions, {rep["duration_s"]} s '
         f'(started {e(str(rep["run"].get("started")))}).</p>']
    size = 0
    for title, anchor, items, folded in sections(rep):
        if items:
            part, size = _section(title, anchor, items, folded, size)
            H += part
    b = rep.get("baseline")
    if b:
        H.append(f"<h2 id=\"baseline\">Baseline <code>{e(b['dir'])}</code></h2><p>{len(b['new'])} new, "
                 f"{len(b['still'])} still present, {len(b['fixed'])} fixed (bug and known-bug root causes of "
                 f"the baseline this run did not meet)</p>")
        if b["fixed"]:
            H.append("<ul>" + "".join(f"<li>fixed: <code>{e(x)}</code></li>" for x in b["fixed"][:500]) + "</ul>")
    H += _matrix(rep["matrix"])
    H += _campaigns(campaigns)
    H.append("<h2>Targets</h2><table><tr><th>name</th><th>version</th><th>dialect</th><th>scnprintf</th>"
             "<th>where</th></tr>")
    for t in rep["targets"]:
        H.append("<tr>" + "".join(f"<td>{e(str(t.get(k) or ''))}</td>"
                                  for k in ("name", "version", "dialect", "scnprintf", "where")) + "</tr>")
    H.append("</table></body></html>")
    return "\n".join(H) + "\n"


CERT_CSS = """body{max-width:1000px;margin:2em auto;line-height:1.45}
h1{font-size:1.5em}.v{display:inline-block;padding:.3em .8em;border-radius:4px;font-weight:700;color:#fff}
.ok{background:#2a7d3b}.bad{background:#b3261e}th{background:#f3f3f3}
code{background:#f4f4f4;padding:0 .25em;border-radius:3px;word-break:break-all}
pre{background:#f4f4f4;padding:.5em;white-space:pre-wrap;word-break:break-all}
.conforms,.inherits{color:#2a7d3b}.deviates,.violated{color:#b3261e;font-weight:600}.unsupported{color:#8a6d00}
ul.r li{margin:.3em 0}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}"""


def certificate_html(c, claimed):
    ok = c["verdict"] == "certified"
    t, m, fz = c["truncation_semantics"], c["memory_safety"], c["phases"]["fuzz"]
    h = [f"<!doctype html><html><head><meta charset='utf-8'><title>Certificate: {e(c['function'])}</title>"
         f"<style>{CSS}{CERT_CSS}</style></head><body>",
         f"<h1>Certificate: <code>{e(c['function'])}</code> ({e(c['kind'])}, {e(c['dialect'])} dialect)</h1>",
         f"<p><span class='v {'ok' if ok else 'bad'}'>{e(c['headline'])}</span></p>"]
    if c["reasons"]:
        h.append("<h2>Reasons</h2><ul class='r'>" + "".join(f"<li>{e(r)}</li>" for r in c["reasons"][:30]) + "</ul>")
    h.append("<h2>Summary</h2><dl>")
    for k, v in [("truncation semantics", f"<span class='{e(t['verdict'])}'>{e(t['verdict'])}</span> ({e(t['family'])} family)"
                  + (f": {e(', '.join(t['oracles']))}" if t["oracles"] else "")),
                 ("memory safety", f"<span class='{'violated' if m['oracles'] else 'conforms'}'>{e(m['verdict'])}</span>"
                  + (f": {e(', '.join(m['oracles']))}" if m["oracles"] else "")),
                 ("conformance", f"{c['phases']['conform']['claimed']} cases, every buffer size, "
                  f"{c['phases']['conform']['failing']} failing, {c['phases']['conform']['inherited']} inherited"),
                 ("return-value suite", f"{c['phases']['retval']['cases']} cases, {c['phases']['retval']['failing']} failing"),
                 ("differential fuzzing", f"vs {e(fz['reference'])}: {fz['executions']} executions in {fz['seconds']} s, "
                  f"coverage {fz['coverage_edges']}/{fz['coverage_total']} edges, {len(fz['findings'])} finding(s)"),
                 ("claim", e(c['claim']['categories'] if c['claim']['categories'] == 'all' else ', '.join(c['claim']['categories']))), ("compiler", e(c["build"]["compiler"])),
                 ("flags", f"<code>{e(c['build']['cflags'])}</code>")]:
        h.append(f"<dt>{e(k)}</dt><dd>{v}</dd>")
    for s in c["sources"]:
        h.append(f"<dt>source</dt><dd><code>{e(os.path.basename(s['path']))}</code> sha256 <code>{e(s['sha256'])}</code></dd>")
    h.append("</dl><h2>Phases</h2><ul>" + "".join(f"<li>{e(phase_line(k, v)[2:].replace('**', ''))}</li>"
                                                    for k, v in c["phases"].items()) + "</ul>")
    ln = c["lines"]
    h.append("<h2>Lines never reached</h2>")
    if not ln["measured"]:
        h.append(f"<p>Not measured: {e(ln['why'])}.</p>")
    else:
        h.append(f"<p>{ln['never_reached']} of the {ln['lines']} lines of code of the vendored sources were never "
                 f"reached ({e(ln['tool'])}).</p><ul>" + "".join(
                     f"<li><code>{e(f['path'])}</code>: {e(ranges(f['never_reached']))}</li>"
                     for f in ln["files"] if f["never_reached"]) + "</ul>")
    inh = c.get("inherits")
    if inh and inh["rules"]:
        h.append(f"<h2>Inherited from {e(inh['from'])}</h2><table><tr><th>rule</th><th>kind</th><th>cases</th>"
                 "<th>example</th><th>citation</th></tr>" + "".join(
                     f"<tr><td>{e(r['id'])}</td><td>{e(r['kind'])}</td><td>{r['cases']}</td><td><code>{e(str(r['example']))}"
                     f"</code></td><td>{e(r['citation'])}</td></tr>" for r in inh["rules"]) + "</table>")
    h.append("<h2>Categories</h2><table><tr><th>category</th><th>verdict</th><th>cases</th><th>pass</th><th>fail</th>"
             "<th>inherited</th></tr>")
    for k, v in c["category_counts"].items():
        h.append(f"<tr><td>{e(k)}</td><td class='{e(v['verdict'])}'>{e(v['verdict'])}</td><td>{v['cases']}</td>"
                 f"<td>{v['pass']}</td><td>{v['fail']}</td><td>{v.get('inherited', 0)}</td></tr>")
    h.append("</table>")
    if c["oracles_fired"]:
        h.append("<h2>Oracles that fired</h2><table><tr><th>oracle</th><th>count</th></tr>" +
                 "".join(f"<tr><td>{e(str(k))}</td><td>{v}</td></tr>" for k, v in sorted(c["oracles_fired"].items(), key=str))
                 + "</table>")
    ex = [r for r in claimed if r.get("status") == "fail"][:10] + c["phases"]["retval"]["findings"][:5] + fz["findings"][:5]
    if ex:
        h.append("<h2>Examples</h2><table><tr><th>phase</th><th>case</th><th>oracle</th><th>detail</th></tr>")
        for r in ex:
            det = r.get("detail") or (f"expected {r.get('expected')}, got {r.get('actual')}" if r.get("expected") else "")
            h.append(f"<tr><td>{e(r.get('phase', ''))}</td><td><code>{e(case_named(r))}</code></td><td>{e(str(r.get('oracle')))}</td>"
                     f"<td>{e(det)}</td></tr>")
        h.append("</table>")
    if c["captured_output"]:
        h.append("<h2>What the function printed</h2>")
        for ph, streams in c["captured_output"].items():
            for s, v in streams.items():
                h.append(f"<p>{e(ph)}, {e(s)}: {v['bytes']} bytes</p><pre>{clipped(v['head'], 1000)}</pre>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
