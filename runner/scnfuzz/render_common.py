"""What report.md and report.html share: the verdict sentence, the sections of
root causes, and the linear comparison and clipping of long outputs (the
outputs of a fuzzed case can be megabytes: nothing here may be quadratic);
and what a certificate's two forms share (a phase's line, a case with the
case it was reduced from, line numbers as ranges)."""

SHOWN_CHARS = 2048  # an output longer than this is shown clipped, with its length


def verdict_text(rep):
    s = rep["summary"]
    conf_bugs = sum(1 for f in rep["findings"] if f["bug"] and f.get("source") == "conform")
    parts = []
    if rep.get("baseline"):
        b = rep["baseline"]
        still = sum(1 for f in rep["findings"] if f["bug"] and f.get("baseline") == "still")
        parts.append(f"{s['new']} new bug root cause(s) relative to the baseline, {still} still present, "
                     f"{len(b['fixed'])} fixed")
    else:
        parts.append(f"{s['new']} bug root cause(s) ({conf_bugs} from conformance)")
    parts.append(f"{s['known_bugs']} known bug(s), {s['known_gaps']} known gap(s), "
                 f"{s['implementation_defined']} allowed difference(s)")
    if s["conformance_failures"] or s["conformance_known"]:
        parts.append(f"{s['conformance_failures']} conformance failure(s) not explained by a rule, "
                     f"{s['conformance_known']} explained")
    parts.append(f"{s['raw_findings']:,} raw finding line(s)")
    if s.get("skipped_lines"):  # torn or malformed lines: said, never silently dropped
        parts.append(f"{s['skipped_lines']:,} line(s) skipped (torn or not a finding record)")
    return "; ".join(parts)


def sections(rep):
    """(title, anchor, root causes, folded) in the order shown: the bug root
    causes (new ones first), the known bugs and gaps, the allowed differences."""
    fs = rep["findings"]
    bugs = [f for f in fs if f["bug"]]
    out = []
    if rep.get("baseline"):
        out.append(("New bug root causes", "new", [f for f in bugs if f.get("baseline") == "new"], False))
        out.append(("Bug root causes still present (also in the baseline)", "still",
                    [f for f in bugs if f.get("baseline") == "still"], False))
    else:
        out.append(("Bug root causes", "new", bugs, False))
    out.append(("Known bugs and gaps (not failing the run)", "known",
                [f for f in fs if f["classification"] in ("known-bug", "known-gap")], False))
    out.append(("Allowed differences (implementation-defined)", "allowed",
                [f for f in fs if f["classification"] == "implementation-defined"], True))
    return out


def hits_text(f):
    """A root cause's raw line count, in the unit of its source."""
    unit = "case" if f.get("source") == "conform" else "hit"
    return f"{f['count']:,} {unit}{'s' if f['count'] != 1 else ''}"


def rule_text(f):
    r = f.get("rule")
    if r:
        return f"{r['kind']} `{r['id']}`: {r['citation']}" if r["citation"] else f"{r['kind']} `{r['id']}`"
    return f"citation: {f['citation']}" if f.get("citation") else ""


def diff_span(a, b):
    """(p, s): a and b share their first p and their last s characters, with
    p + s <= min(len(a), len(b)). Linear, unlike an edit-distance diff."""
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s


def clip(text, focus=0, limit=SHOWN_CHARS):
    """(start, end) of the window of text shown: all of it when short, else
    `limit` characters from a little before `focus` (the first difference)."""
    if len(text) <= limit:
        return 0, len(text)
    start = max(0, min(focus - limit // 4, len(text) - limit))
    return start, start + limit


def reference_for(i, outs):
    """The bytes row i is compared with: the first other row that differs."""
    me = str(outs[i][1].get("bytes", ""))
    for j, (_, o) in enumerate(outs):
        if j != i and str(o.get("bytes", "")) != me:
            return str(o.get("bytes", ""))
    return None


def phase_line(name, p):
    """A certification phase in one line (markdown emphasis on what went wrong)."""
    if p.get("skipped"):
        return f"- {name}: **not run** ({p['skipped']})"
    done = "complete" if p.get("complete") else f"**incomplete** ({p.get('stopped') or 'no end record'})"
    extra = f", {p['deaths']} fatal case(s)" if p.get("deaths") else ""
    return f"- {name}: {done}, {p.get('run')} of {p.get('planned')} run{extra}, exit {p.get('exit')}, {p.get('wall_seconds')} s"


def case_named(r):
    """The reduced case of a line's finding, and the case it came from."""
    f = r.get("finding") if isinstance(r.get("finding"), dict) else {}
    case = f.get("case") or r.get("case")
    orig = r.get("case") or f.get("original_case")
    return f"{case}" + (f" (reduced from {orig})" if orig and orig != case else "")


def ranges(nums):
    """[3, 4, 5, 9] -> "3-5, 9" (sorted line numbers)."""
    out, start, prev = [], None, None
    for n in list(nums) + [None]:
        if start is not None and n is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(f"{start}-{prev}" if prev != start else f"{start}")
        start = prev = n
    return ", ".join(out)
