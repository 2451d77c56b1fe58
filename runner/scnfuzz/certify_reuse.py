"""`scnfuzz certify --target NAME --reuse RUN`: certification from the
conformance results and the campaign a matrix implementation's run already
made for the same target and build (RUN: `./scnfuzz matrix`'s RUN/impl/NAME,
the runs of `scnfuzz conform --target NAME` and of `scnfuzz fuzz --fuzzer
fuzz_matrix` with SCN_MATRIX_TARGET=NAME), instead of running both again in
certification's driver: the matrix ran each twice, the conformance suite once
in scn-conform and once in the driver, and a 60-s campaign in each.

The verdict reads them as it reads its own phases (certify.py): the same
corpus (every corpus/*.tsv), the same oracles and the same rules (the
target's known bugs and gaps, the allowances) at every buffer size; a
failing result counts whether a rule explains it or not, as in the driver.
What stays certification's own runs in its driver: the return-value suite of
its kind, with the hostile-code checks around each call, and the certificate.

What the reused runs do not see, and the certificate says so (REUSED_DIFFERS):
the driver's exact-size heap copies of the format and string arguments
(scn-conform poisons only the bytes of mem arguments around the copy), its
stdout/stderr and fork checks over the corpus and the campaign, the fault
budget over them (scn-conform limits each call, and its run as a whole), and
the vendored lines each case reached (scn-conform and fuzz_matrix are built
without line counters, so the lines are not measured and a certified verdict
says so in its first line)."""
import json
import pathlib

from . import certify_lines, oracle_registry
from .errors import UsageError
from .runs import Run

REUSED_DIFFERS = [
    "the conformance results are scn-conform's (its worker's call watch and run limit, no fault budget); the "
    "driver's exact-size heap copies of the format and string arguments, its stdout/stderr and fork checks "
    "applied only to the return-value suite",
    "the campaign is fuzz_matrix's (libFuzzer with ASan+UBSan, the target beside the reference, its corpus "
    "kept per implementation), not the driver's own: its findings are read, classified by the same rules",
    "the vendored lines are not measured: the runs reused were built without line counters",
]
DEATHS = set(oracle_registry.named("process"))
LINES_WHY = ("the conformance results and the campaign are the matrix's own runs (scn-conform, fuzz_matrix), "
             "built without line counters; only the return-value suite ran in the driver")


def _part(run, kind, target):
    parts = [p for p in run.meta.get("parts", []) if p.get("kind") == kind]
    if not parts:
        return None
    p = parts[-1]
    names = {t.get("name") for t in p.get("targets") or []}
    if target not in names:
        raise UsageError(f"--reuse {run.path}: its {kind} run is of {', '.join(sorted(n for n in names if n))}, "
                         f"not of --target {target}")
    return p


def _is_death(r):
    """A result whose worker died (scn-conform's supervisor wrote it): the
    driver marks such a case fatal."""
    return r.get("status") == "fail" and (r.get("oracle") in ("hang", "sanitizer")
                                          or str(r.get("detail") or "").startswith("the process "))


def _death_class(f):
    """A campaign death's class as the driver gives it, before any rule: the
    oracle's (oracles.def), memory-safety for a SIGSEGV/SIGBUS."""
    detail = str(f.get("detail") or "")
    if "SIGSEGV" in detail or "SIGBUS" in detail or "AddressSanitizer" in detail:
        return "memory-safety"
    o = oracle_registry.get(f.get("oracle"))
    return o.klass if o else "crash"


def conform_phase(run, target, phase_cls):
    """The conform phase, from the run's scn-conform results: one line per
    result, indexed in their order, as the driver's phase would give."""
    ph = phase_cls("conform")
    part = _part(run, "conform", target)
    if part is None:
        ph.skipped = f"--reuse {run.path}: the run has no conformance results"
        return ph
    path = run.path / part.get("results", "conform.jsonl")
    deaths = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                ph.bad.append(line[:120])
                continue
            if not isinstance(r, dict) or "case" not in r:  # its summary line
                continue
            r = dict(r, phase="conform", index=len(ph.lines))
            if _is_death(r):
                r["fatal"] = True
                deaths += 1
            ph.lines.append(r)
    n = len(ph.lines)
    done = part.get("status") == "done"
    ph.plan = {"phase": "conform", "cases": n}
    ph.end = {"phase": "conform", "complete": done, "planned": n, "run": n, "deaths": deaths, "restarts": 0,
              "fault_seconds": 0, "reason": None if done else f"the reused conformance run ended {part.get('status')}"}
    ph.rc = 0
    ph.seconds = part.get("duration_s") or 0.0
    ph.reused = str(path)
    return ph


def fuzz_phase(run, target, phase_cls):
    """The fuzz phase, from the run's campaign: its findings (findings.jsonl,
    source fuzz: after the matrix signed its deaths again by their reduced
    case) and its end (executions, seconds, coverage)."""
    ph = phase_cls("fuzz")
    part = _part(run, "fuzz", target)
    if part is None:
        ph.skipped = f"--reuse {run.path}: the run has no campaign"
        return ph
    try:
        text = run.findings_path.read_text(encoding="utf-8")
    except OSError:
        text = ""
    for line in text.splitlines():
        try:
            f = json.loads(line)
        except ValueError:
            ph.bad.append(line[:120])
            continue
        if isinstance(f, dict) and f.get("source") == "fuzz":
            line = {"phase": "fuzz", "oracle": f.get("oracle"), "class": f.get("classification"),
                    "case": f.get("original_case") or f.get("case"), "signature": f.get("signature"),
                    "detail": f.get("detail"), "execs": f.get("execs"), "finding": f}
            if f.get("oracle") in DEATHS:  # counted whatever rule explains it: the driver's deaths are
                line.update(fatal=True, **{"class": _death_class(f)})  # signed without the rules
            ph.lines.append(line)
    done = part.get("status") == "done"
    ph.plan = {"phase": "fuzz", "seconds": part.get("time_s")}
    ph.end = {"phase": "fuzz", "complete": done, "executions": part.get("executions") or 0,
              "seconds": part.get("duration_s") or 0, "coverage_edges": part.get("coverage") or 0,
              "coverage_total": 0, "corpus": part.get("corpus_units") or 0, "deaths": part.get("faults") or 0,
              "restarts": part.get("restarts") or 0, "fault_seconds": 0,
              "reason": None if done else f"the reused campaign ended {part.get('status')}"}
    ph.rc = 0
    ph.seconds = part.get("duration_s") or 0.0
    ph.reused = f"{run.findings_path} ({part.get('fuzzer') or part.get('engine')}, corpus {part.get('corpus')})"
    return ph


def open_run(path, args):
    """The run --reuse names, checked against the other options."""
    if not args.target:
        raise UsageError("--reuse needs --target: the runs reused are of an in-process target")
    if args.profile or args.profile_from:
        raise UsageError("--reuse with a profile: the reused results are of the whole corpus and campaign; "
                         "certify for a profile without --reuse")
    if not pathlib.Path(path, "run.json").is_file():
        raise UsageError(f"--reuse {path}: not a run directory (no run.json)")
    return Run.open(path)


def lines_not_measured():
    return certify_lines.not_measured(LINES_WHY)


def markdown(reused):
    """The certificate's section on what was read, not run (certificate.md's end)."""
    if not reused:
        return ""
    L = ["", "## Read from the matrix's own runs, not run again", "",
         f"- run: `{reused['run']}`", f"- conformance results: `{reused['conform']}`",
         f"- campaign: `{reused['campaign']}`", f"- run here: {', '.join(reused['run_here'])}"]
    L += [f"- {d}" for d in reused["differs"]]
    return "\n".join(L) + "\n"
