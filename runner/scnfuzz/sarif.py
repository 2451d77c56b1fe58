"""report.sarif: the root causes as SARIF 2.1.0 (OASIS Static Analysis Results
Interchange Format), for code-scanning consumers. One result per root cause:
ruleId the rule that explains it (`<kind>/<rule id>`, e.g. allowance/p-spelling)
or, for a bug, its oracle and classification (`differential/divergence`); level
by classification (bug: error, known bug: warning, known gap: note, allowed
difference: none); the reduced case in the message and in the properties with
the replay command; the location where the format string comes from when it is
known (a corpus file and line; the vendored source of a certification run),
else a logical location naming the targets and the case."""
import json
import pathlib
import shlex

from . import __version__
from .render_common import hits_text
from .tree import ROOT

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"known-bug": "warning", "known-gap": "note", "implementation-defined": "none"}
SHOWN_OUTPUT = 120  # characters of each target's bytes in the message (report.json has them all)


def rule_id(f):
    r = f.get("rule")
    return f"{r['kind']}/{r['id']}" if r else f"{f['oracle']}/{f['classification']}"


def certify_sources(meta, run_dir):
    """The vendored source files of a certification run (`./scnfuzz certify
    --source FILE ...`): certificate.json's, else the command line's."""
    try:
        cert = json.loads((pathlib.Path(run_dir) / "certificate.json").read_text())
        return [s["path"] for s in cert["sources"] if isinstance(s, dict) and isinstance(s.get("path"), str)]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if not meta.get("certificate"):
        return []
    cmd, out = [str(x) for x in meta.get("command") or []], []
    for i, a in enumerate(cmd):
        if a == "--source" and i + 1 < len(cmd):
            out.append(cmd[i + 1])
        elif a.startswith("--source="):
            out.append(a[len("--source="):])
    return out


def artifact_location(path):
    """A file as SARIF names it: relative to SRCROOT (the repository) when in
    it, else an absolute file: URI."""
    p = pathlib.Path(path)
    if not p.is_absolute():
        if (ROOT / p).exists() or not p.exists():  # (a --source relative to where certify ran)
            return {"uri": p.as_posix(), "uriBaseId": "SRCROOT"}
        p = p.resolve()
    try:
        return {"uri": p.resolve().relative_to(ROOT).as_posix(), "uriBaseId": "SRCROOT"}
    except ValueError:
        return {"uri": p.as_uri()}


def _corpus_location(where):
    """`corpus/int.tsv:3` -> a physical location at that line."""
    path, _, line = str(where).rpartition(":")
    if not path or not line.isdigit():
        path, line = str(where), ""
    loc = {"artifactLocation": artifact_location(path)}
    if line and int(line) > 0:
        loc["region"] = {"startLine": int(line)}
    return loc


def _message(f):
    outs = "; ".join(f"{t}: ret {o.get('ret')} {_short(str(o.get('bytes', '')))}"
                     for t, o in f["outputs"].items())
    r = f.get("rule")
    why = f" Explained by {r['kind']} {r['id']}: {r['citation']}." if r and r.get("citation") else \
        f" Explained by {r['kind']} {r['id']}." if r else ""
    return (f"{f['classification']} ({f['oracle']}) on {', '.join(f['targets']) or 'no target'}: "
            f"{f['case']} ({hits_text(f)}).{why}" + (f" Outputs: {outs}." if outs else "") +
            f" Reproduce: {f['reproduce']}")


def _short(text):
    return text if len(text) <= SHOWN_OUTPUT else text[:SHOWN_OUTPUT] + f"... ({len(text):,} chars)"


def _result(f, rule_index, sources):
    targets = "~".join(f["targets"]) or "-"
    logical = {"name": f["case"], "fullyQualifiedName": f"{targets}/{f['case']}", "kind": "value"}
    loc = {"logicalLocations": [logical]}
    related = []
    if sources:  # a certification: the code under test is the vendored source
        loc["physicalLocation"] = {"artifactLocation": artifact_location(sources[0])}
        if f.get("where"):
            related.append({"id": 1, "physicalLocation": _corpus_location(f["where"]),
                            "message": {"text": "the corpus case"}})
    elif f.get("where"):
        loc["physicalLocation"] = _corpus_location(f["where"])
    res = {
        "ruleId": rule_id(f), "ruleIndex": rule_index,
        "kind": "informational" if f["classification"] == "implementation-defined" else "fail",
        "level": LEVEL.get(f["classification"], "error"),
        "message": {"text": _message(f)},
        "locations": [loc],
        "partialFingerprints": {"scnfuzzSignature/v1": f["signature"]},
        "occurrenceCount": f["count"],
        "properties": {
            "findingId": f["id"], "signature": f["signature"], "classification": f["classification"],
            "oracle": f["oracle"], "case": f["case"], "originalCase": f["original_case"],
            "reduced": f["reduced"], "targets": f["targets"], "dialect": f["dialect"], "hits": f["count"],
            "reproduce": f["reproduce"], "source": f["source"],
        },
    }
    if related:
        res["relatedLocations"] = related
    if f.get("baseline"):
        res["baselineState"] = "new" if f["baseline"] == "new" else "unchanged"
    for k in ("shape", "category", "workers"):
        if f.get(k):
            res["properties"][k] = f[k]
    return res


def _rule(f):
    r = f.get("rule")
    d = {"id": rule_id(f), "defaultConfiguration": {"level": LEVEL.get(f["classification"], "error")},
         "properties": {"oracle": f["oracle"], "classification": f["classification"]}}
    if r:
        d["shortDescription"] = {"text": f"{r['kind']} {r['id']} ({f['classification']})"}
        if r.get("citation"):
            d["fullDescription"] = {"text": r["citation"]}
        d["properties"]["table"] = ("oracles/allowances.tsv" if r["kind"] == "allowance"
                                    else "oracles/known_bugs.tsv")
    else:
        d["shortDescription"] = {"text": f"{f['classification']} found by the {f['oracle']} oracle "
                                         f"(docs/FINDINGS.md)"}
    return d


def sarif_log(rep, sources=()):
    """The SARIF log (a dict) of a report.json content. sources: the vendored
    source files of a certification run (certify_sources)."""
    rules, index = [], {}
    results = []
    for f in rep["findings"]:
        rid = rule_id(f)
        if rid not in index:
            index[rid] = len(rules)
            rules.append(_rule(f))
        results.append(_result(f, index[rid], list(sources)))
    run = rep["run"]
    invocation = {"executionSuccessful": True,
                  "commandLine": " ".join(shlex.quote(str(a)) for a in run.get("command") or []) or "./scnfuzz"}
    if run.get("started"):
        invocation["startTimeUtc"] = run["started"]
    if run.get("finished"):
        invocation["endTimeUtc"] = run["finished"]
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": "scnfuzz", "version": __version__, "rules": rules}},
            "automationDetails": {"id": f"{run.get('kind', 'unknown')}/{pathlib.Path(run['dir']).name}"},
            "originalUriBaseIds": {"SRCROOT": {"uri": ROOT.as_uri() + "/"}},
            "invocations": [invocation],
            "results": results,
            "properties": {"verdict": rep["summary"]["verdict"], "summary": rep["summary"]},
        }],
    }


def sarif_text(rep, sources=()):
    # compact: json's C encoder (an indent takes the pure-Python one, 10 x slower on 5,000 root causes)
    return json.dumps(sarif_log(rep, sources), separators=(",", ":")) + "\n"
