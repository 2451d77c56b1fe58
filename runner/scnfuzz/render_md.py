"""report.md: the verdict, the root causes (bug ones first, then the known bugs
and gaps, the allowed differences as one table), what the baseline says, the
conformance matrix and the targets. Raw hits are counted, never listed."""
from .render_common import clip, hits_text, rule_text, sections, verdict_text
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
