"""A campaign's crashes and hangs, signed by a case, not by a frame.

libFuzzer's own process dies of what the implementation does (a sanitizer
report, a timeout), and the campaign signs that death by its top frame
(`crash:fuzz_matrix~stb:stb_sprintf.h:615:10`): one root cause per frame,
not per bug, and no rule can explain it. After an implementation's
campaign, each such death with the case that caused it is checked again by
scn-conform, which runs the call in its supervised worker, reduces a death
to the smallest case that still dies the same way and signs it as every
other finding (a known row with the term dies, a gap the reduced case still
needs, else the reduced case's crash state: its sanitizer report's kind and
place, oracles/rootcause_state.c; else, for a plain signal, the reduced
case's shape): one death, one root cause, whichever format met it. The
record then carries that signature, its reduced case and rule; the frame's
signature stays in it as frame_signature. A death that scn-conform does not
reproduce (its first failure is another finding, or none), or that it meets
as the other kind of death (a crash becoming a hang under load) and no row
explains, keeps its frame: such a case may have died only under the case
model of its day (stb's %F%n stored through an unconsumed double's bits
while every argument sat in the overflow area, 7c1b55b).
"""
import json
import pathlib
import subprocess
import tempfile

from . import build, jsonl
from .runs import write_atomic

DEATHS = ("crash", "hang")
RESIGN_LIMIT_S = 900


def _frame_signed(rec, fuzzer):
    """A campaign death signed by its frame: oracle crash or hang, and the
    fuzzer's name where a shape or a rule would be."""
    parts = str(rec.get("signature", "")).split(":", 2)
    return rec.get("oracle") in DEATHS and bool(rec.get("case")) and len(parts) > 1 and \
        parts[1].startswith(f"{fuzzer}~")


def _expected(conform, case):
    """The reference's output of a case as scn-conform's --case prints it
    (the corpus's expectation column), or None."""
    p = subprocess.run([str(conform), "--target", "ref", "--case", case], capture_output=True, text=True,
                       timeout=120)
    try:
        return json.loads(p.stdout.splitlines()[0])["actual"]
    except (IndexError, ValueError, KeyError):
        return None


def _resigned(rec, f):
    """The campaign's record with the signature, reduced case and rule
    scn-conform gave its death."""
    out = dict(rec)
    for k in ("signature", "classification", "shape", "case", "reduced", "rule"):
        if k in f:
            out[k] = f[k]
    out["original_case"] = rec.get("original_case") or rec["case"]
    out["frame_signature"] = rec["signature"]
    out["detail"] = f"{rec.get('detail', '')} (reduced by scn-conform: {f.get('detail', '')})".strip()
    return out


def resign(sub, name, fuzzer, conform=None):
    """Re-signs the frame-signed deaths of sub/findings.jsonl; returns
    (re-signed, kept) counts. The file is rewritten only when one changed."""
    path = pathlib.Path(sub) / "findings.jsonl"
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return 0, 0
    recs = []
    for line in lines:
        try:
            recs.append(json.loads(line) if line.strip() else None)
        except ValueError:
            recs.append(None)
    todo = [i for i, r in enumerate(recs) if isinstance(r, dict) and _frame_signed(r, fuzzer)]
    if not todo:
        return 0, 0
    conform = conform or build.tool("scn-conform")
    rows, where = [], {}
    for i in todo:
        case = recs[i]["case"]
        exp = _expected(conform, case)
        if exp is None or "\t" in case or "\n" in case:
            continue
        rows.append("\t".join(["campaign", case, exp, "-", "std", "campaign death"]))
        where[len(rows)] = i
    if not rows:
        return 0, len(todo)
    with tempfile.TemporaryDirectory(prefix="scn-deaths-") as tmp:
        tsv = pathlib.Path(tmp) / "deaths.tsv"
        tsv.write_text("\n".join(rows) + "\n")
        try:
            p = subprocess.run([str(conform), "--target", name, "--fail-only", str(tsv)], capture_output=True,
                               text=True, timeout=RESIGN_LIMIT_S)
            out = p.stdout
        except subprocess.TimeoutExpired as ex:
            out = ex.stdout.decode(errors="replace") if isinstance(ex.stdout, bytes) else (ex.stdout or "")
    done = 0
    for r in jsonl.objects(out):
        f, i = r.get("finding"), where.get(r.get("line"))
        if not f or i is None or f.get("oracle") not in DEATHS:
            continue
        same_kind = f["oracle"] == recs[i]["oracle"]
        if not same_kind and not f.get("rule"):
            continue
        recs[i] = _resigned(recs[i], f)
        done += 1
    if done:
        write_atomic(path, "".join(json.dumps(r) + "\n" if isinstance(r, dict) else l + "\n"
                                   for r, l in zip(recs, lines)))
    return done, len(todo) - done
