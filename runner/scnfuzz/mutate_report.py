"""The report of `scnfuzz mutate`, in the run directory: report.json (the
model below), report.md, annotated.html (the source, each line with its
mutants, killed or surviving, like a coverage report) and kills.jsonl (the
finding record of each kill).

Statuses: killed, survived (reached by no case, or by cases and a campaign
that all pass as on the unmodified target), equivalent (TCE: the same object
code as the original), duplicate (the same code as an earlier mutant),
stillborn (does not compile), unreachable (runner/scnfuzz/mutate_unreachable.tsv:
no printf entry point reaches it), error (a stage failed), not-run
(interrupted). The score is killed / (killed + survived)."""
import html
import json

from .runs import utc_iso, write_atomic

STATUSES = ("killed", "survived", "equivalent", "duplicate", "stillborn", "unreachable", "error", "not-run")
MUTATE_SCHEMA = 1


def _score(c):
    n = c.get("killed", 0) + c.get("survived", 0)
    return round(c.get("killed", 0) / n, 4) if n else None


def wilson_interval(k, n, z=1.959964):
    """The 95% Wilson score interval of a proportion k/n: a sampled run's
    score estimates the whole file's (conservative: without the finite
    population correction, which would only narrow it)."""
    if not n:
        return None
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / d
    return [round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)]


def _counts(rows):
    c = {s: 0 for s in STATUSES}
    for r in rows:
        c[r["status"]] += 1
    return c


def _by_function(rows):
    """Per function (of each file, in the files' order, then by first line): counts and score."""
    funcs = {}
    for r in rows:
        funcs.setdefault((r["file"], r["function"]), []).append(r)
    order = {}
    for r in rows:
        order.setdefault(r["file"], len(order))
    out = []
    for (f, fn), rs in sorted(funcs.items(), key=lambda kv: (order[kv[0][0]], min(r["line"] for r in kv[1]))):
        c = _counts(rs)
        out.append({"file": f, "function": fn, "first_line": min(r["line"] for r in rs), "mutants": len(rs), **c,
                    "score": _score(c)})
    return out


def model(subject, units, root, mutants, status, outcomes, cs, phases, args, interrupted, seconds, tce_scope=None):
    """units: the files of the run (mutate.SourceUnit, in order); each mutant's .file is its unit's rel."""
    rows = []
    for m in mutants:
        st, detail = status[m.id]
        r = {"id": m.id, "file": m.file, "line": m.line, "col": m.col, "function": m.function,
             "operator": m.operator, "before": m.before, "after": m.after}
        if st == "live":
            o = outcomes.get(m)
            if o is None:
                r["status"] = "not-run"
            else:
                r.update(o.as_dict())
                if o.record:
                    r["record"] = o.record
        else:
            r["status"] = st
            if detail:
                r["detail"] = detail
        rows.append(r)
    totals = _counts(rows)
    totals["mutants"] = len(rows)
    totals["killed_by_conform"] = sum(1 for r in rows if r["status"] == "killed" and r.get("stage") == "conform")
    totals["killed_by_fuzz"] = sum(1 for r in rows if r["status"] == "killed" and r.get("stage") == "fuzz")
    totals["survived_unreached"] = sum(1 for r in rows if r["status"] == "survived" and r.get("reached_by") == 0)
    totals["declared_equivalent"] = sum(1 for r in rows if r["status"] == "equivalent"
                                        and (r.get("detail") or "").startswith("declared"))
    files = []
    for u in units:
        c = _counts(r for r in rows if r["file"] == u.rel)
        files.append({"file": u.rel, "mutants": sum(c.values()), **c, "score": _score(c)})
    specs = getattr(args, "file", None) or [u.rel for u in units]
    return {
        "kind": "mutate", "mutate_schema": MUTATE_SCHEMA, "subject": subject.name,
        "file": units[0].rel if len(units) == 1 else " ".join(specs),
        "source_root": str(root), "functions_selected": args.function, "time_s": args.time, "jobs": args.jobs,
        "finished": utc_iso(), "seconds": round(seconds, 1), "interrupted": interrupted,
        "phases_s": {k: round(v, 1) for k, v in phases.items()}, "tce_on": tce_scope,
        "baseline": ({"results": cs.baseline_results, "failing": len(cs.known),
                      "seconds": round(cs.baseline_seconds, 1)} if cs else None),
        "sampled": getattr(args, "sampled", None),
        "score_ci95": (wilson_interval(totals["killed"], totals["killed"] + totals["survived"])
                       if getattr(args, "sampled", None) else None),
        "totals": totals, "score": _score(totals),
        "files": files,
        "functions": _by_function(rows),
        "survivors": [{k: r.get(k) for k in ("id", "file", "line", "col", "function", "operator", "before", "after",
                                             "reached_by", "detail")} for r in rows if r["status"] == "survived"],
        "mutants": rows,
    }


def write(run, model, originals):
    """originals: {file: its content as fetched} of the run's files."""
    rows = model["mutants"]
    kills = "".join(json.dumps({"mutant": r["id"], "file": r["file"], "line": r["line"], "stage": r.get("stage"),
                                "signature": r.get("signature"), "record": r["record"]}) + "\n"
                    for r in rows if r.get("record"))
    for r in rows:
        r.pop("record", None)
    write_atomic(run.path / "kills.jsonl", kills)
    write_atomic(run.path / "report.json", json.dumps(model, indent=1) + "\n")
    write_atomic(run.path / "report.md", markdown(model))
    write_atomic(run.path / "annotated.html", annotated_html(model, originals))
    run.add_part({"kind": "mutate", "status": "interrupted" if model["interrupted"] else "done",
                  "subject": model["subject"], "file": model["file"], "duration_s": model["seconds"],
                  "finished": model["finished"]})


def _pct(s):
    return "-" if s is None else f"{s * 100:.1f}%"


def _code(t):
    t = str(t).replace("\n", " ")
    return "`` " + t + " ``" if "`" in t else f"`{t}`"


def sampled_text(m):
    """'sampled N of M mutants (seed S), score X% (95% CI a-b%)' of a sampled
    run, else ''."""
    sm = m.get("sampled")
    if not sm:
        return ""
    ci = m.get("score_ci95")
    return (f"sampled {sm['n']:,} of {sm['of']:,} mutants (seed {sm['seed']}), score {_pct(m['score'])}"
            + (f" (95% CI {ci[0] * 100:.1f}-{ci[1] * 100:.1f}%)" if ci else ""))


def markdown(m):
    t = m["totals"]
    sm = sampled_text(m)
    out = [f"# Mutation analysis: {m['subject']} `{m['file']}`" + (f": {sm}" if sm else ""), "",
           f"Mutation score **{_pct(m['score'])}** ({t['killed']:,} killed of {t['killed'] + t['survived']:,} "
           f"killed or surviving mutants); {t['mutants']:,} mutants in all, {m['seconds']:.0f} s"
           + (" (**interrupted**: the counts are of what was done)" if m["interrupted"] else "") + ".", "",
           "| status | mutants |", "|---|---:|"]
    for s in ("killed", "survived", "equivalent", "duplicate", "stillborn", "unreachable", "error", "not-run"):
        extra = ""
        if s == "killed":
            extra = f" ({t['killed_by_conform']:,} by the corpus, {t['killed_by_fuzz']:,} by a campaign)"
        elif s == "survived":
            extra = f" ({t['survived_unreached']:,} reached by no corpus case)"
        out.append(f"| {s} | {t[s]:,}{extra} |")
    out += ["", "Killed: an oracle fails on a case for the mutant and passes for the unmodified target (the same "
            "binaries with SCN_MUTANT=0). Equivalent and duplicate: trivial compiler equivalence"
            + (f", run on {m['tce_on']}" if m.get("tce_on") else "") + f", or shown by hand "
            f"(`runner/scnfuzz/mutate_equivalent.tsv`: {t.get('declared_equivalent', 0):,} here). Unreachable: "
            "`runner/scnfuzz/mutate_unreachable.tsv`. The tables' mutants are neither compiled nor run. The score "
            "leaves those out.", ""]
    several = len(m["files"]) > 1
    if several:
        out += ["## By file", "", "| file | mutants | killed | survived | equivalent | duplicate | unreachable | score |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for f in m["files"]:
            out.append(f"| `{f['file']}` | {f['mutants']} | {f['killed']} | {f['survived']} | {f['equivalent']} | "
                       f"{f['duplicate']} | {f['unreachable']} | {_pct(f['score'])} |")
        out.append("")
    fcol = lambda r: f"`{r['file']}` | " if several else ""  # noqa: E731
    out += ["## By function", "", "| " + ("file | " if several else "") + "function | line | mutants | killed | "
            "survived | score |", "|" + ("---|" if several else "") + "---|---:|---:|---:|---:|---:|"]
    for f in m["functions"]:
        out.append(f"| {fcol(f)}`{f['function']}` | {f['first_line']} | {f['mutants']} | {f['killed']} | "
                   f"{f['survived']} | {_pct(f['score'])} |")
    out += ["", f"## Survivors ({len(m['survivors'])})", "",
            "| id | " + ("file | " if several else "") + "line | function | operator | edit | reached by | note |",
            "|---:|" + ("---|" if several else "") + "---:|---|---|---|---:|---|"]
    for r in m["survivors"]:
        out.append(f"| {r['id']} | {fcol(r)}{r['line']} | `{r['function']}` | {r['operator']} | {_code(r['before'])} -> "
                   f"{_code(r['after'])} | {r.get('reached_by') if r.get('reached_by') is not None else '-'} | "
                   f"{(r.get('detail') or '').replace('|', '/')} |")
    sigs = {}
    for r in m["mutants"]:
        if r["status"] == "killed" and r.get("signature"):
            sigs[r["signature"]] = sigs.get(r["signature"], 0) + 1
    out += ["", "## What killed them (root causes of the kills)", "", "| signature | mutants |", "|---|---:|"]
    for sig, n in sorted(sigs.items(), key=lambda kv: -kv[1])[:60]:
        out.append(f"| {_code(sig)} | {n} |")
    out += ["", "The source with each line's mutants: `annotated.html`; every mutant: `report.json`; the finding "
            "record of each kill: `kills.jsonl`.", ""]
    return "\n".join(out)


_CSS = """body{font-family:sans-serif;margin:1em}table.src{border-collapse:collapse;font-family:monospace;
font-size:13px}table.src td{padding:0 .5em;white-space:pre;vertical-align:top}td.n{color:#888;text-align:right}
tr.k td.c{background:#dfd}tr.s td.c{background:#fcc}tr.o td.c{background:#eee}tr.e td.c{background:#ffd}
td.m{color:#555}tr.d td{background:#fafafa;font-size:12px;color:#333;white-space:normal;padding-left:3em}
span.k{color:#080}span.s{color:#c00;font-weight:bold}span.o{color:#777}span.e{color:#a80}"""
_KIND = {"killed": "k", "survived": "s", "error": "e", "not-run": "e"}


def annotated_html(m, originals):
    """originals: {file: content}; each file of the run a table of its own, in the run's order."""
    t = m["totals"]
    head = (f"<h1>{html.escape(m['subject'])} <code>{html.escape(m['file'])}</code></h1><p>mutation score "
            f"<b>{_pct(m['score'])}</b>: {t['killed']} killed, {t['survived']} survived, {t['equivalent']} "
            f"equivalent, {t['duplicate']} duplicate, {t['stillborn']} stillborn, {t['unreachable']} unreachable"
            f"{', ' + str(t['error']) + ' errors' if t['error'] else ''}"
            f"{', ' + str(t['not-run']) + ' not run (interrupted)' if t['not-run'] else ''}. "
            f"Green: every mutant of the line killed; red: one survives; grey: none to run (equivalent, "
            f"duplicate, stillborn, unreachable).</p>"
            + (f"<p><b>{html.escape(sampled_text(m))}</b>: only the sampled mutants are marked; a line without "
               f"a mark may have mutants that were not drawn.</p>" if m.get("sampled") else ""))
    several = len(m["files"]) > 1
    if several:
        head += "<ul>" + "".join(f"<li><a href=\"#{html.escape(f['file'])}\"><code>{html.escape(f['file'])}</code>"
                                 f"</a>: {_pct(f['score'])} ({f['killed']} killed, {f['survived']} survived)</li>"
                                 for f in m["files"]) + "</ul>"
    tables = []
    for f in m["files"]:
        rel = f["file"]
        by_line = {}
        for r in m["mutants"]:
            if r["file"] == rel:
                by_line.setdefault(r["line"], []).append(r)
        rows = []
        lines = originals[rel].decode("utf-8", "replace").split("\n")
        anchor = f"{rel}:L" if several else "L"
        for i, text in enumerate(lines, 1):
            ms = by_line.get(i, [])
            kinds = {_KIND.get(r["status"], "o") for r in ms}
            cls = "s" if "s" in kinds else "e" if "e" in kinds else "k" if "k" in kinds else "o" if ms else ""
            marks = "".join(f"<span class={_KIND.get(r['status'], 'o')}>{'K' if r['status'] == 'killed' else 'S' if r['status'] == 'survived' else '.'}</span>"
                            for r in ms)
            rows.append(f"<tr class={cls or 'x'} id=\"{html.escape(anchor)}{i}\"><td class=n>{i}</td><td class=m>{marks}</td>"
                        f"<td class=c>{html.escape(text.expandtabs(8))}</td></tr>")
            if ms:
                items = "<br>".join(_mutant_html(r) for r in ms)
                rows.append(f"<tr class=d><td></td><td></td><td>{items}</td></tr>")
        title = f"<h2 id=\"{html.escape(rel)}\"><code>{html.escape(rel)}</code></h2>" if several else ""
        tables.append(f"{title}<table class=src>{''.join(rows)}</table>")
    return ("<!DOCTYPE html><html><head><meta charset=utf-8><title>mutants of "
            f"{html.escape(m['file'])}</title><style>{_CSS}</style></head><body>{head}"
            f"{''.join(tables)}</body></html>\n")


def _mutant_html(r):
    k = _KIND.get(r["status"], "o")
    what = (f"#{r['id']} {r['operator']} col {r['col']}: <code>{html.escape(r['before'])}</code> &rarr; "
            f"<code>{html.escape(r['after'])}</code> <span class={k}>{r['status']}</span>")
    if r["status"] == "killed":
        what += (f" by {html.escape(r.get('stage') or '')}: <code>{html.escape(r.get('signature') or '')}</code>"
                 f" {html.escape(r.get('where') or '')} <code>{html.escape(r.get('case') or '')}</code>")
    elif r.get("detail"):
        what += f" ({html.escape(str(r['detail']))})"
    if r.get("reached_by") is not None and r["status"] != "killed":
        what += f", reached by {r['reached_by']} case(s)"
    return what


def summary_text(m, path):
    t = m["totals"]
    lines = [f"mutation score of {m['subject']} {m['file']}: {_pct(m['score'])} ({t['killed']:,} killed of "
             f"{t['killed'] + t['survived']:,}, killed or surviving)"
             + (f"; {sampled_text(m)}" if m.get("sampled") else "")
             + (" -- interrupted, partial" if m["interrupted"] else ""),
             f"  {t['mutants']:,} mutants: {t['killed']:,} killed ({t['killed_by_conform']:,} by the corpus, "
             f"{t['killed_by_fuzz']:,} by a campaign), {t['survived']:,} survived ({t['survived_unreached']:,} "
             f"reached by no case), {t['equivalent']:,} equivalent, {t['duplicate']:,} duplicate, "
             f"{t['stillborn']:,} stillborn, {t['unreachable']:,} unreachable"
             + (f", {t['error']:,} errors" if t["error"] else "")
             + (f", {t['not-run']:,} not run" if t["not-run"] else ""),
             f"  {m['seconds']:.0f} s; report: {path / 'report.md'}, {path / 'annotated.html'}"]
    if len(m["files"]) > 1:
        lines[2:2] = [f"  {f['file']}: {_pct(f['score'])} ({f['killed']:,} killed, {f['survived']:,} survived)"
                      for f in m["files"]]
    return "\n".join(lines)


def json_line(m, path):
    t = m["totals"]
    return {"subject": m["subject"], "file": m["file"], "score": m["score"], "score_ci95": m.get("score_ci95"),
            "sampled": m.get("sampled"), "mutants": t["mutants"],
            **{k.replace("-", "_"): t[k] for k in STATUSES}, "seconds": m["seconds"],
            "interrupted": m["interrupted"], "report": str(path / "report.json")}


def write_patch(run, subject, diff, files, o, result, cs):
    rep = {"kind": "mutate-patch", "mutate_schema": MUTATE_SCHEMA, "subject": subject.name, "patch": str(diff),
           "files": files, "finished": utc_iso(), "result": result, "outcome": o.as_dict(),
           "baseline": {"results": cs.baseline_results, "failing": len(cs.known),
                        "seconds": round(cs.baseline_seconds, 1)}}
    if o.record:
        write_atomic(run.path / "kills.jsonl", json.dumps({"patch": str(diff), "record": o.record}) + "\n")
    write_atomic(run.path / "report.json", json.dumps(rep, indent=1) + "\n")
    found = result["found"]
    md = [f"# Re-introduced bug: {subject.name}, `{diff}`", "",
          f"Patched: {', '.join(f'`{f}`' for f in files)}.", "",
          (f"**Found** by the {o.stage} stage in {result['seconds']:.1f} s ({result['executions']:,} executions): "
           f"`{o.signature}`, {o.where or ''} `{o.case or ''}`" if found else
           f"**Not found**: the corpus and the campaign pass as on the unmodified target "
           f"({result['executions']:,} executions, {result['seconds']:.1f} s)."), ""]
    if found and o.detail:
        md += [f"Detail: {o.detail}", ""]
    write_atomic(run.path / "report.md", "\n".join(md))
    run.add_part({"kind": "mutate-patch", "status": "done", "subject": subject.name, "finished": utc_iso()})
