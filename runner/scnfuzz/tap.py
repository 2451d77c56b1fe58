"""report.tap: the report as KTAP version 1 (the kernel's Test Anything
Protocol, Documentation/dev-tools/ktap.rst; valid TAP for TAP::Parser/prove).
One flat plan: a line per (target, category) of the conformance matrix, then a
line per root cause, with the status that the run's verdict gives it:

  conformance cell   ok; not ok when a failure no rule explains (with
                     --baseline: not ok # TODO, as the verdict then
                     counts only the root causes new to the baseline)
  bug root cause     not ok (with --baseline, one also in the baseline:
                     not ok # TODO, as it fails no run)
  known bug or gap   not ok # TODO <rule>: the KTAP/TAP directive for a test
                     "known to be broken"; counted as expected, not failed
  allowed difference ok # <rule>: the targets may differ there

The header is "KTAP version 1", not "TAP version 14": Debian's TAP::Parser
(3.44) rejects a version above 13, and KTAP's version line is an unknown line
to it. A description cannot hold "#" (the directive separator): it is written
"\\#", TAP's escape."""
import re

from .render_common import hits_text
from .report_matrix import cell_failed

_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


def _text(s):
    """One line of TAP: no control character, "#" escaped."""
    return _UNSAFE.sub(lambda m: "\\x%02x" % ord(m.group()), str(s)).replace("\\#", "#").replace("#", "\\#")


def _diag(s):
    """Diagnostic data after the " # ": one line."""
    return _UNSAFE.sub(" ", str(s))


def _rule(f):
    r = f.get("rule")
    if not r:
        return ""
    return f"{r['kind']} {r['id']}" + (f": {r['citation']}" if r.get("citation") else "")


def tap_lines(rep):
    """(ok, description, directive-or-diagnostic) per test, in order."""
    out = []
    m = rep["matrix"]
    for row in m["rows"]:
        for t in m["targets"]:
            c = row["cells"].get(t)
            if not c:
                continue
            run = c["pass"] + c["fail"] + c["error"]
            bad = cell_failed(c)
            name = f"conformance {t} {row['category']}"
            if bad and rep.get("baseline"):  # as the verdict: only their root causes new to the baseline fail
                out.append((False, name, f"TODO {bad} of {run} cases failed; their root causes are compared "
                                         f"with the baseline"))
            elif bad:
                out.append((False, name, f"{bad} of {run} cases failed"))
            elif c.get("known"):
                out.append((True, name, f"{run} cases, {c['known']} failing as a known bug, gap or allowance says"))
            else:
                out.append((True, name, f"{run} cases"))
    for f in rep["findings"]:
        name = f"{f['id']} {f['signature']}"
        if f["bug"]:
            if f.get("baseline") == "still":
                out.append((False, name, f"TODO also in the baseline; {hits_text(f)}; {f['case']}"))
            else:
                out.append((False, name, f"{hits_text(f)}; {f['case']}"))
        elif f["classification"] == "implementation-defined":
            out.append((True, name, f"allowed difference ({_rule(f)}); {hits_text(f)}"))
        else:
            out.append((False, name, f"TODO {_rule(f)}; {hits_text(f)}"))
    return out


def tap_text(rep):
    tests = tap_lines(rep)
    L = ["KTAP version 1", f"# scnfuzz {rep['run'].get('kind', 'unknown')} run {rep['run'].get('dir', '')}: "
                           f"verdict {rep['summary']['verdict']}", f"1..{len(tests)}"]
    for n, (ok, name, note) in enumerate(tests, 1):
        L.append(f"{'ok' if ok else 'not ok'} {n} {_text(name)}" + (f" # {_diag(note)}" if note else ""))
    for f in rep["findings"]:  # the replay command of each bug root cause, as a diagnostic line
        if f["bug"]:
            L.append(f"# {f['id']}: {_diag(f['reproduce'])}")
    return "\n".join(L) + "\n"
