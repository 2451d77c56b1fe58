"""Greedy, time-bounded reduction of a finding's case text.

A candidate keeps the finding when scn-replay, run on it with the finding's
targets, reports a finding of the same signature (fuzzer findings) or the
same oracle on the same target (conformance oracle findings). Candidates of
one round are replayed in one scn-replay process (a file of case lines);
the smallest candidate that keeps the finding is taken; rounds go on until
none does or the time is up. Transformations: drop the @sizes, drop a whole
conversion with its arguments, drop literal bytes (runs, halves, single
bytes), drop a flag, the width or the precision, shorten string arguments,
zero numeric arguments.
"""
import json
import os
import subprocess
import tempfile
import time

from . import casetext

KERNEL_TARGETS = {"ref-kernel", "kernel"}


def replay_targets(finding):
    """Targets (and dialect) to replay a finding with."""
    names = [t for t in finding.get("outputs", {}) if t not in ("buffer", "expected")]
    if finding.get("target") and finding["target"] not in names:
        names.append(finding["target"])
    dialect = "kernel" if names and all(t in KERNEL_TARGETS for t in names) else "iso"
    return names, dialect


def replay_cmd(replay, names, dialect, extra_env=None):
    cmd = [str(replay), "--dialect", dialect]
    for t in names:
        cmd += ["--target", t]
    return cmd


def parse_replay_output(text):
    """scn-replay stdout -> list of {case, outputs, findings} per replayed case."""
    res, cur = [], None
    for line in text.splitlines():
        if line.startswith("case "):
            body = line[5:]
            k = body.rfind("  [")
            cur = {"case": body[:k] if k >= 0 else body, "outputs": {}, "findings": []}
            res.append(cur)
        elif cur is None:
            continue
        elif line.startswith("{"):
            try:
                cur["findings"].append(json.loads(line))
            except ValueError:
                pass
        elif line.startswith("  ") and " ret=" in line and not line.startswith("  oracles"):
            parts = line.strip().split(None, 2)
            if len(parts) >= 2 and parts[1].startswith("ret="):
                rest = line.strip()[len(parts[0]):].strip()
                ret_tok, _, bytes_part = rest.partition(" ")
                try:
                    ret = int(ret_tok[4:])
                except ValueError:
                    continue
                bytes_part = bytes_part.strip()
                o = {"ret": ret, "bytes": bytes_part}
                if ' n=' in bytes_part and not bytes_part.endswith('"'):
                    q, _, nv = bytes_part.rpartition(" n=")
                    o = {"ret": ret, "bytes": q, "n": nv}
                cur["outputs"][parts[0]] = o
    return res


def run_replay_batch(replay, names, dialect, cases, env=None, timeout=60):
    with tempfile.NamedTemporaryFile("w", suffix=".cases", delete=False) as f:
        f.write("\n".join(cases) + "\n")
        path = f.name
    try:
        p = subprocess.run(replay_cmd(replay, names, dialect) + [path], capture_output=True,
                           timeout=timeout, env=env)
        return parse_replay_output(p.stdout.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired:
        return []
    finally:
        os.unlink(path)


def matcher(finding):
    sig = finding.get("signature", "")
    if finding.get("source") == "conform":
        oracle, target = finding.get("oracle"), finding.get("target")
        return lambda f: f.get("oracle") == oracle and f.get("target") == target
    return lambda f: f.get("signature") == sig


def candidates(c):
    """One-step reductions of a Case, each strictly shorter in text."""
    out = []
    if c.sizes:
        out.append(casetext.Case(c.fmt, c.args, []))
    fmt = c.fmt
    sps = casetext.specs(fmt)
    # drop a whole conversion with its arguments
    for s in sps:
        if s.args is None:
            continue
        args = [a for i, a in enumerate(c.args) if i not in s.args]
        out.append(casetext.Case(fmt[:s.start] + fmt[s.end:], args, c.sizes))
    # literal runs
    bounds, pos = [], 0
    for s in sps:
        if s.start > pos:
            bounds.append((pos, s.start))
        pos = s.end
    if pos < len(fmt):
        bounds.append((pos, len(fmt)))
    for a, b in bounds:
        lit = fmt[a:b]
        if b - a > 1:
            out.append(casetext.Case(fmt[:a] + fmt[b:], c.args, c.sizes))
        if b - a > 8:
            h = (a + b) // 2
            out.append(casetext.Case(fmt[:a] + fmt[h:], c.args, c.sizes))
            out.append(casetext.Case(fmt[:h] + fmt[b:], c.args, c.sizes))
        else:
            for i in range(a, b):
                if lit and fmt[i:i + 1] != b"%":
                    out.append(casetext.Case(fmt[:i] + fmt[i + 1:], c.args, c.sizes))
    # inside a specification: flags, width, precision
    for s in sps:
        m = s.m
        for g in ("flags",):
            st, en = m.span(g)
            for i in range(st, en):
                out.append(casetext.Case(fmt[:i] + fmt[i + 1:], c.args, c.sizes))
        for g in ("width", "prec"):
            st, en = m.span(g)
            if st < 0 or st == en:
                continue
            tok = fmt[st:en]
            if b"*" in tok:
                if s.args is None:
                    continue
                star_arg = s.args[0] if g == "width" else s.args[1 if m.group("width") and b"*" in m.group("width") else 0]
                args = [a for i, a in enumerate(c.args) if i != star_arg]
                out.append(casetext.Case(fmt[:st] + fmt[en:], args, c.sizes))
            else:
                out.append(casetext.Case(fmt[:st] + fmt[en:], c.args, c.sizes))
                digits = tok.lstrip(b".")
                if len(digits) > 1:
                    out.append(casetext.Case(fmt[:st] + tok[:len(tok) - len(digits)] + digits[:1] + fmt[en:],
                                             c.args, c.sizes))
    # arguments: shorter strings, zero numbers
    for i, a in enumerate(c.args):
        typ, _, val = a.partition(":")
        new = []
        if typ in ("str", "wstr") and val.startswith('"') and len(val) > 2:
            try:
                toks = _split_quoted(val[1:-1])
            except ValueError:
                toks = []
            if len(toks) > 1:
                new.append(f'{typ}:"{"".join(toks[:len(toks) // 2])}"')
                new.append(f'{typ}:"{"".join(toks[1:])}"')
            new.append(f'{typ}:""')
        elif typ in ("int", "long", "llong", "intmax", "ssize", "ptrdiff", "uint", "ulong", "ullong",
                     "uintmax", "size", "wint") and val not in ("0", "1"):
            if len(val.lstrip("-")) > 1:
                new.append(f"{typ}:{val[:-1] if not val.startswith('-') or len(val) > 2 else '0'}")
            new.append(f"{typ}:0")
        for na in new:
            args = list(c.args)
            args[i] = na
            out.append(casetext.Case(c.fmt, args, c.sizes))
    cur = len(c.text())
    seen, res = set(), []
    for x in out:
        try:
            t = x.text()
        except Exception:
            continue
        if len(t) < cur and t not in seen:
            seen.add(t)
            res.append(t)
    return res


def _split_quoted(body):
    """Escaped units of a quoted string's body (each escape is one unit)."""
    units, i = [], 0
    while i < len(body):
        if body[i] == "\\":
            nx = body[i + 1:i + 2]
            if nx == "x":
                units.append(body[i:i + 4])
                i += 4
            elif nx == "u":
                j = body.index("}", i)
                units.append(body[i:j + 1])
                i = j + 1
            else:
                units.append(body[i:i + 2])
                i += 2
        else:
            units.append(body[i])
            i += 1
    return units


def minimize(replay, finding, budget_s=10.0, env=None, stop=lambda: False):
    """Returns (case_text, replayed finding or None, rounds). The original case
    when it does not reproduce or nothing smaller keeps the finding."""
    case = finding.get("case", "")
    try:
        cur = casetext.Case.parse(case)
    except casetext.CaseSyntaxError:
        return case, None, 0
    names, dialect = replay_targets(finding)
    if not names:
        return case, None, 0
    keep = matcher(finding)
    deadline = time.monotonic() + budget_s
    base = run_replay_batch(replay, names, dialect, [cur.text()], env=env)
    hit = next((f for f in (base[0]["findings"] if base else []) if keep(f)), None)
    if hit is None:
        return case, None, 0
    best, best_hit, rounds = cur.text(), hit, 0
    while time.monotonic() < deadline and not stop():
        cands = candidates(casetext.Case.parse(best))
        if not cands:
            break
        rounds += 1
        res = run_replay_batch(replay, names, dialect, cands, env=env,
                               timeout=max(1.0, deadline - time.monotonic()))
        good = []
        for r in res:
            h = next((f for f in r["findings"] if keep(f)), None)
            if h is not None:
                good.append((len(r["case"]), r["case"], h))
        if not good:
            break
        good.sort(key=lambda g: g[0])
        best, best_hit = good[0][1], good[0][2]
    return best, best_hit, rounds
