"""report.md: the verdict, the root causes (bug ones first, then the known bugs
and gaps, the allowed differences as one table), what the baseline says, the
conformance matrix and the targets. Raw hits are counted, never listed.
certificate.md: a certification's verdict, reasons, phases, lines never
reached and categories (runner/scnfuzz/certify.py)."""
import os

from .render_common import clip, hits_text, phase_line, ranges, rule_text, sections, verdict_text
from .report_matrix import cell_failed

FULL_BYTES = 600_000     # root causes shown in full up to about this size,
COMPACT_BYTES = 800_000  # then one line each, then only how many are left


def code(text, limit=None):
    text = str(text)
    if limit and len(text) > limit:
        a, b = clip(text, 0, limit)
        text = text[a:b] + f"... ({len(text):,} chars)"
    text = text.replace("\n", " ")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _cell(c):
    if not c:
        return "-"
    s = f"{c['pass']}/{c['pass'] + c['fail'] + c['error']}"
    if cell_failed(c):
        s += f" ({cell_failed(c)} FAIL)"
    if c.get("known"):
        s += f" ({c['known']} known)"
    return s


def _full(f):
    L = [f"### {f['id']}: {f['oracle']} ({f['classification']}), {hits_text(f)}", ""]
    L.append(f"- case: {code(f['case'], 2048)}" + (" (reduced)" if f["reduced"] else ""))
    if f["reduced"]:
        L.append(f"- as found: {code(f['original_case'], 2048)}")
    L.append(f"- signature: {code(f['signature'])}" + (f", shape {code(f['shape'])}" if f.get("shape") else ""))
    if f.get("detail"):
        L.append(f"- detail: {f['detail']}")
    if rule_text(f):
        L.append(f"- {rule_text(f)}")
    if f.get("where"):
        L.append(f"- corpus: {f['where']}" + (f" ({f['category']})" if f.get("category") else ""))
    L.append(f"- reproduce: {code(f['reproduce'], 4096)}")
    if f["outputs"]:
        L += ["", "| target | ret | bytes |", "|---|---|---|"]
        for t, o in f["outputs"].items():
            b = str(o.get("bytes", ""))
            shown = code(b, 2048).replace("|", "\\|")
            L.append(f"| {t} | {o.get('ret')} | {shown} |")
    L.append("")
    return L


def _compact_row(f):
    r = f["rule"]["id"] if f.get("rule") else ""
    case = code(f["case"], 200).replace("|", "\\|")
    return f"| {f['id']} | {f['classification']} | {r} | {f['count']:,} | {case} |"


def render_md(rep):
    s = rep["summary"]
    L = [f"# scnfuzz report: {rep['run']['kind']} ({rep['run'].get('started') or ''})", "",
         f"Verdict: **{s['verdict'].upper()}**: {verdict_text(rep)}; {rep['cases_run']:,} cases, "
         f"{rep['executions']:,} executions, {rep['duration_s']} s.", ""]
    size = 0
    for title, _, items, folded in sections(rep):
        if not items:
            continue
        hits = sum(f["count"] for f in items)
        L += [f"## {title}: {len(items)} root cause(s), {hits:,} raw line(s)", ""]
        rows = []
        for f in items:
            if not folded and size < FULL_BYTES:
                block = _full(f)
                size += sum(len(x) + 1 for x in block)
                L += block
            elif size < COMPACT_BYTES:
                rows.append(_compact_row(f))
                size += len(rows[-1]) + 1
            else:
                rows.append(f"| ... | {len(items) - len(rows)} more: see report.json | | | |")
                break
        if rows:
            L += ["| id | classification | rule | raw lines | case |", "|---|---|---|---|---|"] + rows + [""]
    b = rep.get("baseline")
    if b:
        L += [f"## Baseline {b['dir']}", "",
              f"{len(b['new'])} new, {len(b['still'])} still present, {len(b['fixed'])} fixed "
              f"(bug and known-bug root causes of the baseline this run did not meet):", ""]
        L += [f"- fixed: {code(sig)}" for sig in b["fixed"][:500]] + [""]
    m = rep["matrix"]
    if m["rows"]:
        L += ["## Conformance matrix (passed/run per category and target)", "",
              "| category | " + " | ".join(m["targets"]) + " |", "|---" * (len(m["targets"]) + 1) + "|"]
        for row in m["rows"]:
            L.append(f"| {row['category']} | " + " | ".join(_cell(row["cells"].get(t)) for t in m["targets"]) + " |")
        L += ["| **total** | " + " | ".join(_cell(m["totals"][t]) for t in m["targets"]) + " |", ""]
    L.append("Targets: " + ", ".join(f"{t['name']} ({t.get('version')}, {t.get('dialect')})"
                                     for t in rep["targets"]))
    return "\n".join(L) + "\n"


def certificate_md(c):
    L = [f"# Certificate: `{c['function']}` ({c['kind']}, {c['dialect']} dialect)", "",
         f"**Verdict: {c['headline']}**", ""]
    pr = c.get("profile")
    if pr:
        cc = pr.get("conformance_cases") or {}
        L += [f"**{pr['headline']}**", "",
              f"Profile `{pr['source']}`: {len(pr['features'])} features ({', '.join(pr['features'])}); "
              f"{cc.get('kept')} of {cc.get('total')} conformance cases use only them; "
              f"{pr['sites_not_literal']} call sites with a format that is not a literal are not covered.", ""]
    if c["reasons"]:
        L += ["## Reasons", ""] + [f"- {r}" for r in c["reasons"]] + [""]
    L += ["## Claim and build", "",
          f"- categories claimed: {c['claim']['categories'] if c['claim']['categories'] == 'all' else ', '.join(c['claim']['categories'])}",
          f"- compiler: {c['build']['compiler']}", f"- flags: `{c['build']['cflags']}`",
          f"- adapter: {c['build']['adapter']}"]
    L += [f"- source `{s['path']}` sha256 `{s['sha256']}`" for s in c["sources"]]
    t, m, fz = c["truncation_semantics"], c["memory_safety"], c["phases"]["fuzz"]
    lim = c["limits"]
    L += ["", "## Results", "",
          f"- truncation semantics ({t['family']} family): **{t['verdict']}**" +
          (f" ({', '.join(t['oracles'])})" if t["oracles"] else ""),
          f"- memory safety: **{m['verdict']}**" + (f" ({', '.join(m['oracles'])})" if m["oracles"] else "")
          + f"; {m['sanitizers']}",
          f"- conformance: {c['phases']['conform']['claimed']} cases at every buffer size, "
          f"{c['phases']['conform']['failing']} failing, {c['phases']['conform']['inherited']} inherited",
          f"- return-value suite: {c['phases']['retval']['cases']} cases, {c['phases']['retval']['failing']} failing",
          f"- differential fuzzing vs {fz['reference']}: {fz['executions']} executions in {fz['seconds']} s, "
          f"coverage {fz['coverage_edges']} of {fz['coverage_total']} edges of the vendored code, "
          f"{len(fz['findings'])} finding(s)",
          f"- executions in all: {c['executions']}",
          f"- limits: {lim['call_limit_s']} s per call (+{lim['call_limit_per_mb_s']} s per MB of output), "
          f"{lim['memory_limit_mb']} MB of memory per case (+64 bytes per output byte), fault budget "
          f"{lim['fault_budget_s']} s, phase limit {lim['phase_limit_s']} s", "",
          "## Phases", ""] + [phase_line(k, v) for k, v in c["phases"].items()]
    L += _lines_md(c["lines"])
    inh = c.get("inherits")
    if inh:
        L += ["", f"## Inherited from {inh['from']}", ""]
        if inh["rules"]:
            L += ["| rule | kind | cases | example | citation |", "|---|---|---|---|---|"]
            L += [f"| {r['id']} | {r['kind']} | {r['cases']} | {code(r['example'], 200)} | {r['citation']} |"
                  for r in inh["rules"]]
        else:
            L.append("No known bug or gap of it was met.")
    L += ["", "## Categories", "", "| category | verdict | cases | pass | fail | inherited |", "|---|---|---|---|---|---|"]
    for k, v in c["category_counts"].items():
        L.append(f"| {k} | {v['verdict']} | {v['cases']} | {v['pass']} | {v['fail']} | {v.get('inherited', 0)} |")
    if c["oracles_fired"]:
        L += ["", "## Oracles that fired", "", "| oracle | count |", "|---|---|"]
        L += [f"| {k} | {v} |" for k, v in sorted(c["oracles_fired"].items())]
    if c["captured_output"]:
        L += ["", "## What the function printed", ""]
        for ph, streams in c["captured_output"].items():
            for s, v in streams.items():
                L += [f"{ph}, {s}: {v['bytes']} bytes (`{v['file']}`), first lines:", "", "```",
                      v["head"][:1000].replace("```", "'''"), "```", ""]
    return "\n".join(L) + "\n"


def _lines_md(ln):
    """The vendored lines no case reached: each file's numbers, then the text of the first ones."""
    if not ln["measured"]:
        return ["", "## Lines never reached", "", f"Not measured: {ln['why']}."]
    L = ["", "## Lines never reached", "",
         f"{ln['never_reached']} of the {ln['lines']} lines of code of the vendored sources were never reached "
         f"by any case of the phases ({ln['tool']})."]
    for f in ln["files"]:
        if f["never_reached"]:
            L += ["", f"- `{f['path']}`: {len(f['never_reached'])} of {f['lines']} lines: "
                      f"{ranges(f['never_reached'])}"]
    shown = [(f["path"], n, t) for f in ln["files"] for n, t in f.get("text", {}).items()]
    if shown:
        L += ["", "| file | line | source |", "|---|---|---|"]
        cell = lambda t: t.strip().replace("|", "\\|").replace("`", "'")
        L += [f"| {os.path.basename(p)} | {n} | `{cell(t)}` |" for p, n, t in shown]
    return L
