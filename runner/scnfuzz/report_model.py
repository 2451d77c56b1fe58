"""The report's model: the raw finding records of findings.jsonl (docs/FINDINGS.md)
grouped into root causes by their signature, the comparison with a baseline run
and the summary. The records are reduced and signed where they are made (C);
nothing here re-runs a case."""
import collections
import hashlib
import json
import pathlib
import shlex

from .errors import UsageError

# classifications that never fail a run: a rule (known_bugs.tsv, allowances.tsv) explains them
NOT_BUGS = {"known-bug", "known-gap", "implementation-defined"}
# worst first; the rule-explained ones last
ORDER = {"memory-safety": 0, "crash": 1, "hang": 2, "invariant": 3, "divergence": 4, "conformance": 5,
         "error": 6, "known-bug": 10, "known-gap": 11, "implementation-defined": 12}
PSEUDO_TARGETS = ("buffer", "expected")
KERNEL_TARGETS = {"ref-kernel", "kernel"}
# optional record fields a root cause carries over from its first line
CARRIED = ("category", "citation", "where", "kind", "size", "family", "artifact", "fuzzer", "program")


def finding_id(sig):
    return "F-" + hashlib.sha1(sig.encode()).hexdigest()[:10]


class Skipped:
    """Lines of a findings.jsonl that are not a finding record: torn (a killed
    writer), not JSON, or with a field of the wrong type. Counted and
    reported (summary.skipped_lines), never silently dropped."""

    def __init__(self):
        self.count, self.lines = 0, []

    def add(self, lineno):
        self.count += 1
        if len(self.lines) < 5:
            self.lines.append(lineno)

    def __bool__(self):
        return self.count > 0


# fields that, when present, must be a string (or null): the report renders them as text
_STR_FIELDS = ("oracle", "classification", "signature", "shape", "case", "original_case", "dialect", "detail",
               "source", "program", "target", "family", "category", "kind", "where", "citation", "artifact",
               "fuzzer")
_INT_FIELDS = ("worker", "size", "execs")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def record_problem(rec):
    """Why a JSON object is not a usable finding record (docs/FINDINGS.md),
    or None. Only the types the report relies on are checked: records of
    older versions, with fewer fields, are still read."""
    if not isinstance(rec, dict):
        return "not an object"
    if not isinstance(rec.get("oracle"), str) or not rec["oracle"]:
        return "no oracle"
    for k in _STR_FIELDS:
        if rec.get(k) is not None and not isinstance(rec[k], str):
            return f"{k} is not a string"
    for k in _INT_FIELDS:
        if rec.get(k) is not None and not _is_int(rec[k]):
            return f"{k} is not an integer"
    t = rec.get("targets")
    if t is not None and not isinstance(t, str) and not (isinstance(t, list) and all(isinstance(x, str) for x in t)):
        return "targets is not a list of names"
    r = rec.get("rule")
    if r is not None and not isinstance(r, dict):
        return "rule is not an object"
    o = rec.get("outputs")
    if o is not None:
        if not isinstance(o, dict):
            return "outputs is not an object"
        for v in o.values():
            if not isinstance(v, dict) or (v.get("ret") is not None and not _is_int(v["ret"])) or \
                    (v.get("bytes") is not None and not isinstance(v["bytes"], str)):
                return "an output is not {ret, bytes}"
    return None


def iter_records(path, skipped=None):
    """The finding records of a findings.jsonl, in order; a torn line (a killed
    writer), a line that is not a JSON object or a record with a field of the
    wrong type is skipped, and counted in skipped (a Skipped) when given."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    with f:
        for lineno, raw in enumerate(f, 1):
            raw = raw.strip()
            if not raw:
                continue
            try:
                rec = json.loads(raw)
            except (ValueError, RecursionError):
                rec = None
            if record_problem(rec) is None:
                yield rec
            elif skipped is not None:
                skipped.add(lineno)


def signature_of(rec):
    return rec.get("signature") or f"{rec.get('oracle')}:{rec.get('case', '')}"


def group_records(records):
    """(groups, raw line count): signature -> {"first": the first record,
    "count": its lines, "workers": set}, in the order first met."""
    groups, nraw = collections.OrderedDict(), 0
    for rec in records:
        nraw += 1
        g = groups.get(signature_of(rec))
        if g is None:
            g = groups[signature_of(rec)] = {"first": rec, "count": 0, "workers": set()}
        g["count"] += 1
        if isinstance(rec.get("worker"), int):
            g["workers"].add(rec["worker"])
    return groups, nraw


def record_targets(rec):
    """The targets of a record: its "targets" (a list, or the signature's
    "a~b"), else the real targets of its outputs, plus its one "target"."""
    t = rec.get("targets")
    if isinstance(t, str):
        names = [x for x in t.split("~") if x]
    elif isinstance(t, list):
        names = [str(x) for x in t]
    else:
        names = [n for n in rec.get("outputs") or {} if n not in PSEUDO_TARGETS]
    if rec.get("target") and rec["target"] not in names:
        names.append(rec["target"])
    return names


def record_rule(rec):
    """{"id","kind","citation"} of the rule that explains a record, or None.
    Records written before docs/FINDINGS.md named an allowance as "allowance"."""
    r = rec.get("rule")
    if isinstance(r, dict) and r.get("id"):
        return {"id": str(r["id"]), "kind": str(r.get("kind") or "allowance"),
                "citation": str(r.get("citation") or "")}
    if rec.get("allowance"):
        return {"id": str(rec["allowance"]), "kind": "allowance", "citation": str(rec.get("citation") or "")}
    return None


def conform_reproduce_cmd(where, targets):
    """A conformance finding's command: its corpus line (FILE.tsv:LINE) on its
    target, checked against the line's expectation at every size as the suite
    does; the run reports the finding again."""
    cmd = "./scnfuzz conform --corpus " + shlex.quote(where)
    for t in targets:
        cmd += " --target " + shlex.quote(t)
    return cmd


def reproduce_cmd(case, targets, dialect, planted=None, expected=None):
    """The replay command of a case; the expected output (a conformance
    expectation) follows as a shell comment, so the line stays runnable."""
    cmd = "./scnfuzz replay " + shlex.quote(case)
    if planted and "planted" in targets:
        cmd = f"SCN_PLANTED={shlex.quote(planted)} " + cmd
    for t in targets:
        cmd += " --target " + shlex.quote(t)
    if dialect == "kernel" and not (targets and all(t in KERNEL_TARGETS for t in targets)):
        cmd += " --dialect kernel"
    if expected is not None:
        cmd += f"  # expected {expected.get('bytes')}"
        if expected.get("ret") is not None:
            cmd += f" (ret {expected['ret']})"
    return cmd


def root_cause(sig, g, planted=None):
    """The report item of one signature, represented by its first record."""
    rec = g["first"]
    klass = str(rec.get("classification") or "unknown")
    names = record_targets(rec)
    dialect = rec.get("dialect") or ("kernel" if names and all(t in KERNEL_TARGETS for t in names) else "iso")
    case = str(rec.get("case") or "")
    outputs = rec.get("outputs") if isinstance(rec.get("outputs"), dict) else {}
    item = {
        "id": finding_id(sig), "signature": sig, "oracle": str(rec.get("oracle")), "classification": klass,
        "bug": klass not in NOT_BUGS, "source": str(rec.get("source") or "fuzz"),
        "shape": str(rec.get("shape") or ""), "case": case,
        "original_case": str(rec.get("original_case") or case), "reduced": bool(rec.get("reduced")),
        "targets": names, "dialect": dialect, "outputs": outputs, "detail": str(rec.get("detail") or ""),
        "rule": record_rule(rec), "count": g["count"],
        "reproduce": (conform_reproduce_cmd(rec["where"], names) if rec.get("source") == "conform" and rec.get("where")
                      else reproduce_cmd(case, names, dialect, planted, outputs.get("expected"))),
    }
    for k in CARRIED:
        if rec.get(k) is not None:
            item[k] = rec[k]
    if g["workers"]:  # the campaign's fuzzer processes that found it
        item["workers"] = sorted(g["workers"])
    return item


def root_causes(groups, planted=None):
    items = [root_cause(sig, g, planted) for sig, g in groups.items()]
    items.sort(key=lambda f: (ORDER.get(f["classification"], 7), -f["count"], f["id"]))
    return items


# ------------------------------------------------------------------ baseline

def is_fixable(klass):
    """Root causes whose absence from a later run means "fixed"."""
    return klass not in NOT_BUGS or klass == "known-bug"


def load_baseline(path):
    """signature -> classification of an earlier run directory (its
    findings.jsonl, else its report.json)."""
    d = pathlib.Path(path)
    if (d / "findings.jsonl").is_file():
        out = {}
        for rec in iter_records(d / "findings.jsonl"):
            out.setdefault(signature_of(rec), str(rec.get("classification") or "unknown"))
        return out
    try:
        rep = json.loads((d / "report.json").read_text())
        return {f["signature"]: f.get("classification", "unknown") for f in rep.get("findings", [])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise UsageError(f"--baseline {path}: not a run directory (no findings.jsonl or report.json)") from None


def compare(items, old, path):
    """Marks each item "new" or "still" (item["baseline"]) and returns the
    report's "baseline" object; "fixed": the old bug and known-bug root causes
    this run did not meet."""
    cur = set()
    for f in items:
        f["baseline"] = "still" if f["signature"] in old else "new"
        cur.add(f["signature"])
    return {"dir": str(path),
            "new": [f["signature"] for f in items if f["baseline"] == "new"],
            "still": [f["signature"] for f in items if f["baseline"] == "still"],
            "fixed": sorted(s for s, k in old.items() if s not in cur and is_fixable(k))}


# ------------------------------------------------------------------ summary

def summarize(items, matrix, nraw, baseline=None, skipped=0):
    """The summary; the verdict fails on a bug root cause that is new (every
    one without a baseline) and, without a baseline, on conformance failures
    that no rule explains and no record names."""
    bugs = [f for f in items if f["bug"]]
    new = [f for f in bugs if f.get("baseline", "new") == "new"]
    totals = matrix["totals"].values()
    conf_known = sum(c["known"] for c in totals)
    conf_fail = sum(c["fail"] + c["error"] for c in totals) - conf_known
    count = collections.Counter(f["classification"] for f in items)
    fail = bool(new) or (baseline is None and conf_fail > 0)
    return {"root_causes": len(items), "bugs": len(bugs), "new": len(new),
            "known_bugs": count["known-bug"], "known_gaps": count["known-gap"],
            "implementation_defined": count["implementation-defined"], "raw_findings": nraw,
            "conformance_failures": conf_fail, "conformance_known": conf_known, "skipped_lines": skipped,
            "verdict": "fail" if fail else "pass"}
