"""The matrix's promises: each case result scored on each promise separately.

A conformance result (one scn-conform line per case and implementation) says
which oracle failed first. The promises are independent:

  bytes       the output where the buffer is large enough (and the %n values)
  c99-return  the C99 return: the would-be length at every size (C17 7.21.6.12p3)
  scn-return  the scnprintf return at every size (bytes written, 0 at size 0),
              scored only for an implementation whose own entry has that
              family (for a C99 one it is scnfuzz's wrapper, nothing of its own)
  bounds      termination and bounds: the NUL, nothing written past the size
              or before the buffer, nothing written at size 0
  no-crash    no crash or hang

scn-conform checks every size's oracles first, then compares the full output
with the expectation (expect.*), and stops at the first failure, unless a
rule explains that failure and the output misses its expectation for a reason
no rule explains: the result is then the miss, with the first failure beside
it (after_oracle, after_signature), both promises broken. So a result that
fails on its bytes with no after_oracle kept every per-size promise; a result that fails a
per-size promise (stb's write before the buffer at size 0, the Linux tools'
-1 at size 0) says nothing of its bytes or of the other sizes: those
promises are "not reached" and count in no share. The bytes of such results
are then measured apart: a sample of at most BYTES_SAMPLE of their cases is
run again (`scn-conform --case`, the binary of the conformance run, one
process per case) and the implementation's full output compared with the
expectation (a death there breaks no-crash); the cell says how many of its
results were sampled. A known bug explains only the promise it breaks: it
is counted against that promise alone (and named as a root cause there).

Feature families (ints, strings, floats, %a, wide, positional, C23, kernel)
come from the case's features (scn-conform's "features": "%d", "length hh",
"positional"), a case counting in each family it uses (a C23 length or %b
only in C23); their cells are the bytes promise's share."""
import json
import os
import pathlib
import re
import subprocess

from . import build, jsonl, oracle_registry
from .tree import ROOT

PROMISES = ("bytes", "c99-return", "scn-return", "bounds", "no-crash")
TITLES = {"bytes": "bytes", "c99-return": "C99 return", "scn-return": "scnprintf return",
          "bounds": "termination and bounds", "no-crash": "no crash or hang"}
# compared after every size's oracles passed: a failure here kept the per-size promises
AFTER_SIZES = set(oracle_registry.named("expectation"))
BYTES_SAMPLE = 120
FAMILIES = ("ints", "strings", "floats", "%a", "wide", "positional", "C23", "kernel")


def promise_of(oracle):
    """The promise a failure of oracle breaks (oracles/oracles.def)."""
    return oracle_registry.promise(oracle)


def applicable(target):
    """The promises an implementation's own entry points make."""
    api = target.get("api") or "c99"
    native_scn = api != "c99" or target.get("scnprintf") == "native"
    out = ["bytes"]
    if api == "c99":
        out.append("c99-return")
    if native_scn:
        out.append("scn-return")
    return out + ["bounds", "no-crash"]


def families(result):
    feats = result.get("features") or []
    fam = set()
    for f in feats:
        if f == "positional":
            fam.add("positional")
        elif f in ("length wN", "length wfN", "%b", "%B"):
            fam.add("C23")
        elif f in ("%a", "%A"):
            fam.add("%a")
        elif f in ("%e", "%E", "%f", "%F", "%g", "%G"):
            fam.add("floats")
        elif f in ("%d", "%i", "%u", "%o", "%x", "%X"):
            fam.add("ints")
        elif f in ("%C", "%S"):
            fam.add("wide")
        elif f in ("%c", "%s"):
            fam.add("wide" if "length l" in feats else "strings")
    if str(result.get("category", "")).startswith("kernel"):
        fam.add("kernel")
    if "C23" in fam:  # %w32d is C23's, not an integer conversion an older printf gets wrong
        fam.discard("ints")
    return fam


def _expected_bytes(expected):
    """The quoted output of an expectation ("..." n=1,2), None for !err."""
    if not expected or not expected.startswith('"'):
        return None
    m = re.match(r'("(?:[^"\\]|\\.)*")', expected)
    return m.group(1) if m else None


def quoted_len(q):
    """The number of bytes a quoted string (docs/CASE_FORMAT.md) stands for."""
    body, n, i = q[1:-1], 0, 0
    while i < len(body):
        i += 4 if body.startswith("\\x", i) else 2 if body[i] == "\\" else 1
        n += 1
    return n


def masked(results):
    """The results whose bytes their first failure hides: a per-size promise
    failed (not a death: its sampled call would die the same way)."""
    return [r for r in results if r.get("status") == "fail" and r.get("oracle") not in AFTER_SIZES
            and promise_of(r.get("oracle")) != "bytes" and promise_of(r.get("oracle")) != "no-crash"]


def sample_cases(results, limit=BYTES_SAMPLE):
    """At most limit of the masked results' cases, evenly spread (the same
    ones for the same results)."""
    cases = sorted({r["case"] for r in masked(results) if r.get("case")})
    if len(cases) <= limit:
        return cases
    step = len(cases) / limit
    return [cases[int(i * step)] for i in range(limit)]


def _exec_args(target):
    """scn-conform's options for an executor libc ("executor (PATH)")."""
    m = re.match(r"executor \((.+)\)$", str(target.get("where") or ""))
    if not m:
        return None
    path = pathlib.Path(m.group(1))
    return ["--exec", str(path if path.is_absolute() else ROOT / path), "--exec-name", target["name"]]


def sample_outputs(target, cases, conform=None):
    """{case: (full output quoted, or None; died)} of the implementation, from
    `scn-conform --case` (the binary the conformance run used), one process
    per case so that a death is that case's alone."""
    conform = str(conform or build.tool("scn-conform"))
    ex = _exec_args(target)
    who = ex if ex else ["--target", target["name"]]
    # only the output is read: LeakSanitizer's scan of the heap at each exit
    # (half of such a process's CPU) tells nothing here
    user = os.environ.get("ASAN_OPTIONS", "")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0" + (":" + user if user else ""))
    out = {}
    for case in cases:
        try:
            p = subprocess.run([conform, *who, "--case", case], capture_output=True, text=True,
                               errors="replace", timeout=60, env=env)
        except subprocess.TimeoutExpired:
            out[case] = (None, True)
            continue
        for r in jsonl.objects(p.stdout):
            if r.get("target") == target["name"]:
                died = (r.get("finding") or {}).get("oracle") in ("crash", "hang")
                out[case] = (r.get("actual"), died)
    return out


def score(results, target, sampled=None):
    """The promises of one implementation: per promise kept, broken, the
    results not reached, the sampled ones, and the distinct root causes
    (signatures) that break it; per family the bytes promise."""
    sampled = sampled or {}
    mine = applicable(target)
    P = {p: {"kept": 0, "broken": 0, "unreached": 0, "sampled": 0, "root_causes": set(), "applies": p in mine}
         for p in PROMISES}
    F = {f: {"kept": 0, "broken": 0} for f in FAMILIES}

    def sampled_outcome(r, broken):
        """What the sampled call of a masked result's case shows: its full
        output, and whether it died."""
        got = sampled.get(r.get("case"))
        want = _expected_bytes(r.get("expected"))
        if got is None or want is None:
            return {}
        actual, died = got
        if died:
            return {"no-crash": False}
        if actual is None:
            return {}
        return {"bytes": r.get("kind") == "impl" or actual == want, "no-crash": True}

    for r in results:
        st = r.get("status")
        if st not in ("pass", "fail"):
            continue
        outcome = {}
        if st == "pass":
            outcome = {p: True for p in mine}
        else:
            broken = promise_of(r.get("oracle"))
            if broken not in mine:  # a wrapper's family failing: its C99 return
                broken = "c99-return" if "c99-return" in mine else "bytes"
            outcome[broken] = False
            P[broken]["root_causes"].add(r.get("signature") or r.get("oracle"))
            if r.get("after_oracle"):
                # a per-size finding came first, explained by its rule (apr's size 0), and the
                # output misses for another reason: both promises broken, the others not reached
                first = promise_of(r["after_oracle"])
                if first not in mine:
                    first = "c99-return" if "c99-return" in mine else "bytes"
                outcome[first] = False
                P[first]["root_causes"].add(r.get("after_signature") or r["after_oracle"])
            elif r.get("oracle") in AFTER_SIZES:
                outcome.update({p: True for p in mine if p != broken})
            elif broken not in ("bytes", "no-crash"):
                for p, ok in sampled_outcome(r, broken).items():
                    outcome[p] = ok
                    P[p]["sampled"] += 1
                    if not ok:
                        P[p]["root_causes"].add(f"sampled: {TITLES[p]} differs")
        for p in mine:
            if p not in outcome:
                P[p]["unreached"] += 1
            else:
                P[p]["kept" if outcome[p] else "broken"] += 1
        if "bytes" in outcome:
            for f in families(r):
                F[f]["kept" if outcome["bytes"] else "broken"] += 1
    for p in P.values():
        p["root_causes"] = sorted(x for x in p["root_causes"] if x)
    return {"promises": P, "families": F}


def load_results(path, name):
    out = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if "status" in r and r.get("target") == name:
                    out.append(r)
    except OSError:
        pass
    return out


def measure(sub, target, results_path):
    """Scores one implementation's conformance results, with its masked
    bytes sampled, into sub/promises.json (the matrix's report reads it)."""
    name = target["name"]
    results = load_results(results_path, name)
    sample = sample_cases(results)
    sampled = sample_outputs(target, sample) if sample else {}
    (sub / "promises-sample.txt").write_text("".join(c + "\n" for c in sample), encoding="utf-8")
    scored = score(results, target, sampled)
    scored["masked"] = len(masked(results))
    scored["sample"] = len(sampled)
    (sub / "promises.json").write_text(json.dumps(scored, indent=1) + "\n", encoding="utf-8")
    return scored


def share(kept, broken):
    n = kept + broken
    return f"{100.0 * kept / n:.1f}%" if n else "-"


def promise_cell(p, anchor):
    if not p.get("applies", True):
        return "n/a"
    n = p["kept"] + p["broken"]
    if not n:
        return "-"
    rcs = len(p["root_causes"])
    rc = f" ([{rcs} rc](#{anchor}))" if rcs else ""
    note = f" ({p['sampled']} sampled)" if p.get("sampled") else ""
    return f"{share(p['kept'], p['broken'])} of {n:,}{note}{rc}"


def family_cell(f):
    n = f["kept"] + f["broken"]
    return f"{share(f['kept'], f['broken'])} of {n:,}" if n else "-"
