"""`scnfuzz matrix`: every implementation of the matrix (the "matrix" group of
`scn-conform --list-targets`, and the matrix's executor libcs that are
built) through the conformance suite, a time-boxed differential campaign
against the reference and certification, into one report whose first table
is implementations x categories.

Each implementation is a run of its own, RUN/impl/<name>/, made by the
ordinary commands in a child process (`scnfuzz conform --target NAME`, then
`scnfuzz fuzz --fuzzer fuzz_matrix` with env SCN_MATRIX_TARGET=NAME, or the
--libc-cc forms for an executor, then `scnfuzz certify --target NAME --reuse
RUN/impl/<name>` into RUN/impl/<name>/certify/: certification reads that
conformance run and that campaign, and runs only what is its own, the
return-value suite and the certificate): its report is whole as soon as it ends, so
a killed matrix loses only the implementations still running. An executor
libc is not certified: certification links the function into its ASan
driver, and such a libc runs only in its own process. The matrix's
report is built from those runs once, at the end, also after Ctrl-C/SIGTERM
(report.build_report over their parts and findings, then the matrix section
in front: it reads every result of every implementation, the longest step
after a campaign, so not after each one); `scnfuzz matrix --from RUN` builds
it from what a killed matrix left."""
import collections
import datetime
import json
import os
import pathlib
import resource
import signal
import subprocess
import sys
import threading
import time

from . import build, campaign, children, matrix_deaths, matrix_promises, matrix_users, report, report_model
from . import targets as tg
from .errors import SetupError, UsageError
from .progress import Progress
from .render_html import e as html_escape
from .render_md import _cell as md_cell
from .runs import REPORTS, Run, utc_iso, write_atomic
from .tree import ROOT

NOT_CERTIFIABLE = ("not certifiable here: a libc reached only through its compiler driver runs in its own "
                   "process, and certification links the function into its ASan driver")
# the executor targets of the matrix and the compiler driver anylibc builds them with
EXEC_DRIVERS = {"dietlibc-exec": "diet gcc", "klibc-exec": "klcc"}
FUZZER = "fuzz_matrix"
CONFORM_STALL_S = 60
KNOWN = ("known-bug", "known-gap", "implementation-defined")
SCNFUZZ = [sys.executable, str(ROOT / "scnfuzz")]


# the core targets the matrix also compares (ref and ref-kernel are the reference), and the
# campaign of each: its fuzzer and the implementation env SCN_MATRIX_TARGET names for fuzz_matrix
CORE = {"glibc": FUZZER, "musl": FUZZER, "kernel": "fuzz_kernel_diff"}
NOT_CERTIFIED_CORE = ("a core target (the C library, or the kernel's lib/vsprintf.c): its campaign is the "
                      "project's own; certification is for a vendored printf")


def implementations(only=None):
    """The matrix's implementations that are built (the core targets glibc,
    musl and the kernel first), or the --only ones."""
    listed = tg.list_targets()
    found = [t for t in listed if t["name"] in CORE]
    found += [t for t in listed if t.get("group") == "matrix"]
    found += [t for t in tg.executors() if t.get("group") == "matrix" and t["name"] in EXEC_DRIVERS]
    if not only:
        if not found:
            raise SetupError("no implementation of the matrix is built (see `./scnfuzz targets`; "
                             "their packages: bash ci/setup.sh)")
        return found
    known = {t["name"]: t for t in found}
    bad = [n for n in only if n not in known]
    if bad:
        raise UsageError(f"--only: '{bad[0]}' is not an implementation of the matrix built here "
                         f"(built: {', '.join(known) or 'none'})")
    return [known[n] for n in dict.fromkeys(only)]


def _commands(t, args, sub):
    """The child commands of one implementation, (step, argv, env):
    conformance, campaign, certification (not for an executor)."""
    name = t["name"]
    if name in EXEC_DRIVERS:
        drv = ["--libc-cc", EXEC_DRIVERS[name], "--name", name]
        return (("conform", SCNFUZZ + ["conform"] + drv + ["--out", str(sub)], {}),
                ("fuzz", SCNFUZZ + ["fuzz"] + drv + ["--time", f"{args.time:g}", "--out", str(sub)], {}))
    if name in CORE:
        fuzzer = CORE[name]
        corpus = campaign.campaign_corpus(f"{fuzzer}-{name}" if fuzzer == FUZZER else fuzzer)
        return (("conform", SCNFUZZ + ["conform", "--target", name, "--out", str(sub)], {}),
                ("fuzz", SCNFUZZ + ["fuzz", "--fuzzer", fuzzer, "--time", f"{args.time:g}", "--corpus", str(corpus),
                                    "--out", str(sub)] + (["--fresh"] if args.fresh else []),
                 {"SCN_MATRIX_TARGET": name}))
    # a campaign corpus per implementation: what covers curl's code is not apr's
    corpus = campaign.campaign_corpus(f"{FUZZER}-{name}")
    return (("conform", SCNFUZZ + ["conform", "--target", name, "--out", str(sub)], {}),
            ("fuzz", SCNFUZZ + ["fuzz", "--fuzzer", FUZZER, "--time", f"{args.time:g}", "--corpus", str(corpus),
                                "--out", str(sub)] + (["--fresh"] if args.fresh else []),
             {"SCN_MATRIX_TARGET": name}),
            # certification reads this conformance run and this campaign (certify_reuse.py): one
            # campaign of --time per implementation; its driver runs the return-value suite
            ("certify", SCNFUZZ + ["certify", "--target", name, "--time", f"{args.time:g}", "--reuse", str(sub),
                                   "--out", str(sub / "certify")], {}))


def _no_execution_on_resumed_corpus(sub):
    """The campaign just run (the sub-run's last fuzz part) resumed a corpus
    and made no execution."""
    try:
        fuzz = [p for p in Run.open(sub).meta.get("parts", []) if p.get("kind") == "fuzz"]
    except UsageError:
        return False
    return bool(fuzz) and not fuzz[-1].get("fresh") and not fuzz[-1].get("executions") \
        and bool(fuzz[-1].get("resumed_units"))


def _build_dir_of(tool):
    """The build directory (the one holding CMakeCache.txt) a built tool lives in."""
    for d in pathlib.Path(tool).resolve().parents:
        if (d / "CMakeCache.txt").is_file():
            return d
    return pathlib.Path(tool).resolve().parent


def prebuild(impls):
    """The tools the children use, built (or found up to date) once, here,
    before any child starts; returns the env that points the children at
    them (SCN_BUILD_DIR, SCN_FUZZ_BUILD_DIR), so that no child runs its own
    `cmake --build`: two children at once would build in the same directory
    together, and each would rebuild whatever the tree changed under the run.
    Certification's ASan objects of the project are compiled here too, once,
    not by the first two certifications at the same time."""
    names = {t["name"] for t in impls}
    env = {}
    conform = build.tool("scn-conform")
    for tool in ["scn-replay", "libscn_casetext.so"] + (["scn-exec-fuzz"] if names & set(EXEC_DRIVERS) else []):
        build.tool(tool)
    env["SCN_BUILD_DIR"] = str(_build_dir_of(conform))
    fuzz_tools = sorted({CORE.get(n, FUZZER) for n in names if n not in EXEC_DRIVERS})
    for f in fuzz_tools:
        env["SCN_FUZZ_BUILD_DIR"] = str(_build_dir_of(build.tool(f, preset="fuzz")))
    if any(n not in EXEC_DRIVERS and n not in CORE for n in names):
        from . import certify
        certify.driver_library()
    return env


def longest_first(impls, reports=REPORTS):
    """The implementations, those that took longest in the newest earlier
    matrix run first (the rest after them, in their order): with a few
    running at once, a long one started last would run alone at the end."""
    took = {}
    for run in sorted(pathlib.Path(reports).glob("*-matrix*/run.json"), reverse=True):
        try:
            took = {n: st.get("duration_s") or 0 for n, st in
                    (json.loads(run.read_text()).get("implementations") or {}).items()
                    if st.get("status") == "done"}
        except (OSError, ValueError, AttributeError):
            continue
        if took:
            break
    return sorted(impls, key=lambda t: -took.get(t["name"], 0))


def certification(sub, name):
    """The verdict of an implementation's certification, from its
    certificate (RUN/impl/<name>/certify/certificate.json): verdict, reasons
    (each with its reduced reproducer), the certificate's path."""
    if name in EXEC_DRIVERS:
        return {"verdict": "not certifiable", "reasons": [NOT_CERTIFIABLE]}
    if name in CORE:
        return {"verdict": "not run", "reasons": [NOT_CERTIFIED_CORE]}
    path = pathlib.Path(sub) / "certify" / "certificate.json"
    try:
        c = json.loads(path.read_text())
    except (OSError, ValueError):
        return {"verdict": "not run", "reasons": []}
    return {"verdict": c.get("verdict", "?"), "reasons": list(c.get("reasons") or []),
            "certificate": f"impl/{name}/certify/certificate.md"}


class Matrix:
    """The run: the implementations' states (run.json "implementations"),
    their children, and the report rebuilt from their runs."""

    def __init__(self, run, impls, args):
        self.run, self.impls, self.args = run, impls, args
        self.lock = threading.RLock()  # (the signal handler takes it in the main thread)
        self.procs = {}          # name -> the running child
        self.env = {}            # what every child's env adds (prebuild)
        self.stopping = False
        self.state = {t["name"]: {"status": "waiting", "target": t} for t in impls}
        run.meta["implementations"] = self.state
        run.save()

    def sub(self, name):
        return self.run.path / "impl" / name

    def _child(self, name, cmd, extra_env, log):
        env = dict(os.environ, **self.env, **extra_env)
        # scn-conform fails a case whose call stalls and goes on (programs/conform_isolate.h);
        # a run that still prints nothing for a minute is stuck in itself: it is cut short
        # at CONFORM_STALL_S, not the longer default, so it does not hold up the matrix
        env.setdefault("SCN_CONFORM_STALL_S", str(CONFORM_STALL_S))
        with open(log, "ab") as lf:
            lf.write(("$ " + " ".join(cmd) + "\n").encode())
            lf.flush()
            # its own session: Ctrl-C is forwarded once, by us (the child then writes its report)
            p = subprocess.Popen(children.launch_argv(cmd, sig=signal.SIGTERM), stdout=lf, stderr=lf, env=env,
                                 cwd=ROOT, start_new_session=True)
            with self.lock:
                self.procs[name] = p
            rc, cpu = _wait_cpu(p)
            with self.lock:
                self.procs.pop(name, None)
        return rc, cpu

    def run_one(self, t):
        name = t["name"]
        sub = self.sub(name)
        sub.mkdir(parents=True, exist_ok=True)
        log = sub / "matrix.log"
        st = self.state[name]
        t0 = time.monotonic()
        st.update(status="running", started=utc_iso(), exit=[])
        steps = st["steps"] = []  # where the time went: each step's wall and (for a child) CPU seconds
        for step, cmd, env in _commands(t, self.args, sub):
            if self.stopping:
                break
            st["step"] = step
            w0 = time.monotonic()
            rc, cpu = self._child(name, cmd, env, log)
            steps.append({"step": step, "wall_s": round(time.monotonic() - w0, 1), "cpu_s": cpu})
            st["exit"].append(rc)
            if step == "fuzz" and name not in EXEC_DRIVERS and not self.stopping \
                    and _no_execution_on_resumed_corpus(sub):
                # every worker died on loading what earlier campaigns kept (stb: an input that
                # crashes it on one run of the corpus and not on the run that saved it): the
                # campaign again from the seeds (--fresh: that corpus moved aside), so that the
                # implementation has its campaign and certification reads one
                w0 = time.monotonic()
                rc, cpu = self._child(name, cmd + ["--fresh"], env, log)
                steps.append({"step": "fuzz-fresh", "wall_s": round(time.monotonic() - w0, 1), "cpu_s": cpu})
                st["exit"].append(rc)
            if step == "conform":
                w0 = time.monotonic()
                self.promises(t, sub, st)
                steps.append({"step": "promises", "wall_s": round(time.monotonic() - w0, 1)})
            if step == "fuzz" and CORE.get(name, FUZZER) == FUZZER and name not in EXEC_DRIVERS and not self.stopping:
                w0 = time.monotonic()
                self.resign_deaths(name, sub, st)
                steps.append({"step": "deaths", "wall_s": round(time.monotonic() - w0, 1)})
            if rc not in (0, 1, 130):  # 0/1: no / a new bug root cause (not certified); 130: stopped by us
                # (the campaign still runs after a conformance run that failed: it has
                # its own crash handling, and what it finds is the implementation's)
                st.setdefault("errors", []).append(f"`scnfuzz {step}` exit {rc}: {_last_line(log)}")
                st["error"] = "; ".join(st["errors"])
        st["certification"] = certification(sub, name)
        st.pop("step", None)
        st.update(status="error" if st.get("error") else "interrupted" if self.stopping else "done",
                  duration_s=round(time.monotonic() - t0, 1), finished=utc_iso())
        with self.lock:  # its state only: the report is made once, at the end (--from makes it of a killed run)
            self.run.save()

    def promises(self, t, sub, st):
        """Each promise scored apart (matrix_promises), from the conformance
        results just written, the bytes its first failures hide sampled."""
        try:
            results = sub / "conform.jsonl"
            for part in Run.open(sub).meta.get("parts", []):
                if part.get("kind") == "conform":
                    results = sub / part.get("results", "conform.jsonl")
            matrix_promises.measure(sub, t, results)
        except Exception as ex:  # (a missing sub-run): the table says "-" for it
            st.setdefault("errors", []).append(f"promises: {type(ex).__name__}: {ex}")

    def resign_deaths(self, name, sub, st):
        """The campaign's crashes and hangs signed by a frame, signed again
        by the case they reduce to (matrix_deaths)."""
        try:
            done, kept = matrix_deaths.resign(sub, name, FUZZER)
            st["deaths_resigned"] = {"by_case": done, "by_frame": kept}
        except Exception as ex:  # (no scn-conform, a torn file): the frames stay
            st.setdefault("errors", []).append(f"deaths: {type(ex).__name__}: {ex}")

    def stop(self):
        """Ctrl-C / SIGTERM: each running child stops as its own Ctrl-C makes it
        (the fuzzers end, its report is written); the waiting ones never start."""
        self.stopping = True
        with self.lock:
            for p in self.procs.values():
                if p.poll() is None:
                    children.kill_group(p, signal.SIGINT)

    def rebuild(self):
        """The matrix's run.json parts and findings.jsonl from the finished
        implementations' runs, then its report."""
        parts, lines = [], []
        for name, st in self.state.items():
            sub = self.sub(name)
            if st["status"] in ("waiting", "running") or not (sub / "run.json").is_file():
                continue
            try:
                subrun = Run.open(sub)
            except UsageError:
                continue
            parts += [_relocated(part, name) for part in subrun.meta.get("parts", [])]
            try:
                lines.append((sub / "findings.jsonl").read_bytes())
            except OSError:
                pass
        self.run.meta["parts"] = parts
        self.run.meta["finished"] = utc_iso()
        self.run.save()
        write_atomic(self.run.findings_path, b"".join(l if l.endswith(b"\n") or not l else l + b"\n"
                                                     for l in lines).decode("utf-8", "replace"))
        return write_report(self.run)


def _cpu_used():
    """CPU seconds of this process and of every child it waited for, so far."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"self": round(me.ru_utime + me.ru_stime, 1), "children": round(kids.ru_utime + kids.ru_stime, 1)}


def _wait_cpu(p):
    """A child's exit status and the CPU seconds (user + system) it and the
    processes it waited for used: the machine is shared, so a step's wall
    time says little of what it costs. None when another thread reaped it
    first (stop() polls the children)."""
    while True:
        try:
            _, status, ru = os.wait4(p.pid, 0)
        except InterruptedError:
            continue
        except ChildProcessError:
            return p.wait(), None
        p.returncode = os.waitstatus_to_exitcode(status)
        return p.returncode, round(ru.ru_utime + ru.ru_stime, 1)


def _relocated(part, name):
    """A part of an implementation's run as a part of the matrix run: the
    files it names (conformance results, the workers' logs) relative to the
    matrix's directory."""
    rel = f"impl/{name}/"
    part = dict(part, implementation=name)
    if part.get("kind") == "conform":
        part["results"] = rel + part.get("results", "conform.jsonl")
    if part.get("kind") == "fuzz" and part.get("workers"):
        part["workers"] = [dict(w, log=rel + (w.get("log") or f"fuzz/{part.get('fuzzer')}-{i}.log"))
                           for i, w in enumerate(part["workers"])]
    return part


def _last_line(log):
    try:
        lines = [l for l in pathlib.Path(log).read_text(errors="replace").splitlines() if l.strip()]
    except OSError:
        return "?"
    return lines[-1][:300] if lines else "no output"


# ---- the report: implementations x categories, then each implementation

def impl_root_causes(run_path, name):
    """The root causes of one implementation's own run (its findings.jsonl,
    grouped as report_model groups a run's): what its conformance run and its
    campaign met, the campaign's crashes included, with its own counts; one
    difference met by both, once (met_twice)."""
    groups, _ = report_model.group_records(
        report_model.iter_records(pathlib.Path(run_path) / "impl" / name / "findings.jsonl"))
    return met_twice(report_model.root_causes(groups), name)


def _sig_parts(sig):
    """oracle, what (a rule id or a shape), targets, classification of a
    signature (the shape may hold ':')."""
    head, _, rest = str(sig).partition(":")
    what, _, tail = rest.rpartition(":")
    what, _, targets = what.rpartition(":")
    return head, what, targets, tail


def met_twice(rcs, name):
    """A conformance failure no rule explains (expect.output) and a
    campaign's difference from the reference no rule explains
    (differential), reduced to the same shape: one root cause. Both are
    reduced the same way, against the reference while the implementation
    still differs from it with the same verdict (rootcause.h,
    scn_rootcause_expect), so the shape is the same bug met through two
    oracles; the campaign's entry stays, with the conformance one's lines
    counted in and its reproducer kept (also_conformance)."""
    diffs = {}
    for rc in rcs:
        oracle, what, targets, klass = _sig_parts(rc["signature"])
        if oracle == "differential" and klass == "divergence" and targets in (f"{name}~ref", f"ref~{name}"):
            diffs.setdefault(what, rc)
    out = []
    for rc in rcs:
        oracle, what, targets, klass = _sig_parts(rc["signature"])
        twin = diffs.get(what) if (oracle, targets, klass) == ("expect.output", name, "conformance") else None
        if twin is None:
            out.append(rc)
            continue
        twin["count"] += rc["count"]
        twin.setdefault("also_conformance", []).append({"signature": rc["signature"], "count": rc["count"],
                                                        "reproduce": rc["reproduce"]})
    return out


def matrix_model(rep, run):
    """report.json's "matrix_implementations": per implementation its target
    line, its row of the conformance matrix (category -> cell), its root
    causes, and how its run went."""
    m = rep["matrix"]
    cats = [r["category"] for r in m["rows"]]
    out = []
    for name, st in (run.meta.get("implementations") or {}).items():
        t = st.get("target") or {"name": name}
        mine = impl_root_causes(run.path, name)
        try:
            promises = json.loads((run.path / "impl" / name / "promises.json").read_text())
        except (OSError, ValueError):
            promises = None
        out.append({
            "promises": promises,
            "name": name, "version": t.get("version"), "api": t.get("api"), "where": t.get("where"),
            "conventions": t.get("conventions") or "", "status": st.get("status"), "error": st.get("error"),
            "duration_s": st.get("duration_s"),
            "certification": st.get("certification") or {"verdict": "not run", "reasons": []},
            "users": (m.get("users") or {}).get(name),
            "cells": {r["category"]: r["cells"][name] for r in m["rows"] if name in r["cells"]},
            "total": m["totals"].get(name),
            "root_causes": [{"id": f["id"], "classification": f["classification"], "oracle": f["oracle"],
                             "signature": f["signature"], "rule": (f.get("rule") or {}).get("id"),
                             "count": f["count"], "reproduce": f["reproduce"],
                             "also_conformance": f.get("also_conformance", [])} for f in mine],
        })
    return {"categories": cats, "implementations": out}


def _md_code(text):
    text = str(text).replace("\n", " ")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def promise_lines(model):
    """The first table: implementations x promises, each cell the share of
    the results that keep it (of those that reached it) and the number of
    distinct root causes that break it, linking to the implementation."""
    L = ["| implementation | certification | certified for its users' formats | "
         + " | ".join(matrix_promises.TITLES[p] for p in matrix_promises.PROMISES) + " |",
         "|---" * (len(matrix_promises.PROMISES) + 3) + "|"]
    for im in model["implementations"]:
        pr = (im.get("promises") or {}).get("promises")
        cells = [matrix_promises.promise_cell(pr[p], im["name"]) if pr else "-" for p in matrix_promises.PROMISES]
        L.append(f"| [{im['name']}](#{im['name']}) | {_verdict(im)} | {matrix_users.cell(im.get('users'))} | "
                 + " | ".join(cells) + " |")
    return L


def family_lines(model):
    """implementations x feature families: the bytes promise's share."""
    L = ["| implementation | " + " | ".join(matrix_promises.FAMILIES) + " |",
         "|---" * (len(matrix_promises.FAMILIES) + 1) + "|"]
    for im in model["implementations"]:
        fam = (im.get("promises") or {}).get("families")
        cells = [matrix_promises.family_cell(fam[f]) if fam else "-" for f in matrix_promises.FAMILIES]
        L.append(f"| {im['name']} | " + " | ".join(cells) + " |")
    return L


def _promise_detail(im):
    pm = im.get("promises")
    if not pm:
        return ["- promises: not scored (no conformance results)"]
    L = [f"- promises ({pm.get('masked', 0):,} result(s) whose first failure hides their bytes, "
         f"{pm.get('sample', 0):,} of them sampled):"]
    for p in matrix_promises.PROMISES:
        v = pm["promises"][p]
        if not v.get("applies", True):
            continue
        rcs = v["root_causes"]
        shown = ", ".join(_md_code(r) for r in rcs[:8]) + (f", ... {len(rcs) - 8} more" if len(rcs) > 8 else "")
        L.append(f"  - {matrix_promises.TITLES[p]}: {v['kept']:,} kept, {v['broken']:,} broken, "
                 f"{v['unreached']:,} not reached" + (f"; broken by {shown}" if rcs else ""))
    return L


def table_lines(model):
    """The first table, markdown: one row per implementation, one column per
    category (passed/run; FAIL: failures no rule explains; known: failures a
    known bug, gap or allowance explains), then the total."""
    cats = model["categories"]
    L = ["| implementation | certification | total | " + " | ".join(cats) + " |", "|---" * (len(cats) + 3) + "|"]
    for im in model["implementations"]:
        cells = [md_cell(im["cells"].get(c)) for c in cats]
        total = md_cell(im["total"]) if im["total"] else f"- ({im['status']})"
        L.append(f"| {im['name']} | {_verdict(im)} | {total} | " + " | ".join(cells) + " |")
    return L


def _verdict(im):
    v = (im.get("certification") or {}).get("verdict", "not run")
    return {"certified": "**CERTIFIED**", "not certified": "NOT CERTIFIED"}.get(v, v)


def _rc_line(rc):
    new = rc["classification"] not in KNOWN
    rule = f" ({rc['rule']})" if rc.get("rule") else ""
    also = "".join(f"; also met by the conformance suite as {_md_code(a['signature'])} ({a['count']:,} line(s)): "
                   f"{_md_code(a['reproduce'])}" for a in rc.get("also_conformance") or [])
    return (f"- {'**NEW** ' if new else ''}{rc['classification']}{rule}: {rc['oracle']}, {rc['count']:,} raw "
            f"line(s), {_md_code(rc['signature'])}; reproduce: {_md_code(rc['reproduce'])}{also}")


def matrix_markdown(model, level=2, run_dir=None):
    """The matrix as markdown; run_dir: where the certificates are, for a
    document outside the run (docs/MATRIX.md names them, the run's own
    report.md links them)."""
    h = "#" * level
    L = [f"{h} Implementations x promises", "", *promise_lines(model), "",
         "Each promise is scored apart on every conformance result: *bytes* (the output where the buffer is "
         "large enough, and the %n values), *C99 return* (the would-be length at every size), *scnprintf "
         "return* (bytes written, 0 at size 0, at every size; only where the implementation's own entry has "
         "that family, n/a where it is scnfuzz's wrapper), *termination and bounds* (the NUL, no byte written "
         "past the size or before the buffer), *no crash or hang*. A cell is the share of the results that "
         "keep the promise, of those that reached it, and the distinct root causes that break it (`N rc`; known bugs "
         "included: a known bug counts against the one promise it breaks). scn-conform stops at a result's "
         "first failure (unless a rule explains it and the output misses its expectation for a reason no rule "
         "explains: the result is then that miss, both promises broken): a result failing a per-size promise "
         "does not reach its bytes, which are then "
         "measured on a sample of such results (`scn-conform --case`: the full output against the expectation; "
         "`sampled` in the cell, runner/scnfuzz/matrix_promises.py).", "",
         "*certification*: `./scnfuzz certify --target NAME --reuse` on the implementation's own conformance "
         "results and campaign (those scored here, not run a second time), with the return-value suite of its "
         "kind run in certification's driver (runner/scnfuzz/certify_reuse.py); each implementation's section "
         "names its certificate and reasons.", "",
         f"{h} Implementations x feature families (bytes right)", "", *family_lines(model), "",
         "A case counts in every family it uses (its conversions, length modifiers, n$ form; kernel: the "
         "kernel dialect's categories); a cell is the bytes promise's share there.", "",
         f"{h} Implementations x categories (passed/run)", "", *table_lines(model), "",
         "Cells: passed/run over every case result of the category (every buffer size, both families); "
         "`FAIL`: failures no rule explains; `known`: failures a known bug or gap (oracles/known_bugs.tsv) "
         "or an allowance (oracles/allowances.tsv) explains.", ""]
    for im in model["implementations"]:
        L += [f"{h}# {im['name']}", "", f"- version: {im['version']}", f"- api: {im['api']}, {im['where']}",
              f"- conventions: {im['conventions'] or '-'}",
              f"- run: {im['status']}" + (f", {im['duration_s']} s" if im.get("duration_s") is not None else "")
              + (f"; error: {im['error']}" if im.get("error") else "")]
        cert = im.get("certification") or {}
        where = (f" (certificate: `{run_dir}/{cert['certificate']}`)" if run_dir else
                 f" ([certificate]({cert['certificate']}))") if cert.get("certificate") else ""
        L.append(f"- certification: {_verdict(im)}{where}"
                 + (":" if cert.get("reasons") else ""))
        L += [f"  - {_md_code(r)}" for r in cert.get("reasons", [])[:12]]
        if len(cert.get("reasons", [])) > 12:
            L.append(f"  - ... {len(cert['reasons']) - 12} more in the certificate")
        L += matrix_users.detail_lines(im.get("users"))
        L += _promise_detail(im)
        rcs = im["root_causes"]
        L += [f"- root causes: {len(rcs)} ({sum(r['classification'] not in KNOWN for r in rcs)} new)", ""]
        L += [_rc_line(rc) for rc in rcs] + ([""] if rcs else [])
    return L


def _html_section(model):
    from .render_html import _cell as html_cell
    cats = model["categories"]
    H = ['<h2 id="promises">Implementations x promises</h2><table class="matrix"><thead><tr>'
         "<th>implementation</th>" + "".join(f"<th>{html_escape(matrix_promises.TITLES[p])}</th>"
                                             for p in matrix_promises.PROMISES) + "</tr></thead><tbody>"]
    for im in model["implementations"]:
        pr = (im.get("promises") or {}).get("promises")
        cells = [matrix_promises.promise_cell(pr[p], im["name"]).split(" ([")[0] if pr else "-"
                 for p in matrix_promises.PROMISES]
        H.append(f"<tr><th>{html_escape(im['name'])}</th>" + "".join(f"<td>{html_escape(c)}</td>" for c in cells)
                 + "</tr>")
    H.append("</tbody></table>")
    H += ['<h2 id="implementations">Implementations x categories</h2><table class="matrix"><thead><tr>'
         "<th>implementation</th><th>certification</th><th>total</th>"
         + "".join(f"<th>{html_escape(c)}</th>" for c in cats) + "</tr></thead><tbody>"]
    for im in model["implementations"]:
        H.append(f"<tr><th>{html_escape(im['name'])}</th><td>"
                 f"{html_escape((im.get('certification') or {}).get('verdict', 'not run'))}</td>"
                 + html_cell(im["total"])
                 + "".join(html_cell(im["cells"].get(c)) for c in cats) + "</tr>")
    H.append("</tbody></table>")
    for im in model["implementations"]:
        H.append(f"<h3>{html_escape(im['name'])}</h3><p>{html_escape(str(im['version']))}; api "
                 f"{html_escape(str(im['api']))}; {html_escape(im['conventions'] or '-')}; run "
                 f"{html_escape(str(im['status']))}{'; error: ' + html_escape(im['error']) if im.get('error') else ''}"
                 f"</p><ul>")
        for rc in im["root_causes"]:
            new = rc["classification"] not in KNOWN
            H.append(f"<li>{'<b>NEW</b> ' if new else ''}{html_escape(rc['classification'])} "
                     f"{html_escape(rc.get('rule') or '')}: <code>{html_escape(rc['signature'])}</code>; "
                     f"<code>{html_escape(rc['reproduce'])}</code></li>")
        H.append("</ul>")
    return H


def write_report(run):
    """report.json/.md/.html (and the rest build_report writes) of the matrix
    run: the ordinary report of all the implementations' parts, with the
    matrix in front."""
    rep = report.build_report(run)
    model = matrix_model(rep, run)
    rep["matrix_implementations"] = model
    write_atomic(run.path / "report.json", json.dumps(rep, indent=1) + "\n")
    md = (run.path / "report.md").read_text()
    head, _, rest = md.partition("\n\n")
    write_atomic(run.path / "report.md", "\n".join([head, "", *matrix_markdown(model), rest]))
    html = (run.path / "report.html").read_text()
    at = html.find("<h2")
    if at > 0:
        html = html[:at] + "\n".join(_html_section(model)) + "\n" + html[at:]
        write_atomic(run.path / "report.html", html)
    return rep


def doc_markdown(rep, command, date, run_dir):
    """docs/MATRIX.md: the command and date that made it, then the matrix."""
    model = rep["matrix_implementations"]
    return "\n".join(["# The printf matrix", "",
                      f"Made by `{command}` on {date} ({rep['run'].get('started')} .. {rep['run'].get('finished')}); "
                      f"regenerate it with the same command.",
                      "", *matrix_markdown(model, run_dir=run_dir)]) + "\n"


# ---- the command

def _progress(mx, prog, t0):
    with mx.lock:
        by = collections.Counter(st["status"] for st in mx.state.values())
        running = [f"{n} ({st.get('step')})" for n, st in mx.state.items() if st["status"] == "running"]
    done = len(mx.state) - by["waiting"] - by["running"]
    prog.update(f"{time.monotonic() - t0:5.0f}s | {done}/{len(mx.state)} done | running: "
                f"{', '.join(running) or '-'}", frac=done / max(1, len(mx.state)))


def run_matrix(args):
    if args.from_run:
        # the report rebuilt from the implementations' runs (also what a killed matrix left)
        run = Run.open(args.from_run)
        if "implementations" not in run.meta:
            raise UsageError(f"--from {args.from_run}: not a `scnfuzz matrix` run (its run.json lists no "
                             f"implementations)")
        return run, write_report(run), False
    campaign.check_time(args.time)
    only = [n for n in (args.only or "").split(",") if n]
    impls = implementations(only)
    run = Run.create("matrix", args.out)
    mx = Matrix(run, impls, args)
    sys.stderr.write(f"scnfuzz matrix: {len(impls)} implementation(s), {args.jobs} at a time, conformance + "
                     f"{args.time:g}-s campaign + certification each; run {run.path}\n")
    w0 = time.monotonic()
    mx.env = prebuild(impls)
    timing = run.meta["timing"] = {"prebuild_wall_s": round(time.monotonic() - w0, 1)}
    queue = longest_first(impls)
    qlock = threading.Lock()

    def worker():
        while not mx.stopping:
            with qlock:
                if not queue:
                    return
                t = queue.pop(0)
            try:
                mx.run_one(t)
            except Exception as ex:  # (a full disk, a broken sub-run): this implementation's error
                st = mx.state[t["name"]]
                st.update(status="error", error=f"scnfuzz matrix: {type(ex).__name__}: {ex}")

    def on_signal(sig, _frame):
        if not mx.stopping:
            sys.stderr.write(f"\nscnfuzz matrix: {signal.Signals(sig).name}: stopping the running "
                             f"implementations, then the report\n")
        mx.stop()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    prog = Progress("scnfuzz matrix", every=10.0)
    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(args.jobs, len(impls)))]
    try:
        for th in threads:
            th.start()
        while any(th.is_alive() for th in threads):
            _progress(mx, prog, t0)
            time.sleep(0.5)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    for name, st in mx.state.items():
        if st["status"] == "waiting":
            st["status"] = "not run (interrupted)"
    w0 = time.monotonic()
    timing["implementations_wall_s"] = round(w0 - t0, 1)
    with mx.lock:
        rep = mx.rebuild()
        timing["report_wall_s"] = round(time.monotonic() - w0, 1)
        timing["cpu_s"] = _cpu_used()
        run.save()
    prog.done(f"{'interrupted' if mx.stopping else 'done'} after {time.monotonic() - t0:.1f}s")
    return run, rep, mx.stopping


def _shown(path):
    """A run's directory as the doc names it: relative to the repository when inside it."""
    path = pathlib.Path(path).resolve()
    try:
        return str(path.relative_to(ROOT.resolve()))
    except ValueError:
        return str(path)


def main(args):
    run, rep, interrupted = run_matrix(args)
    model = rep["matrix_implementations"]
    print("\n".join(promise_lines(model)))
    if args.markdown:
        cmd = " ".join(run.meta.get("command") or ["./scnfuzz", "matrix"])
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        write_atomic(pathlib.Path(args.markdown), doc_markdown(rep, cmd, date, _shown(run.path)))
        print(f"scnfuzz: wrote {args.markdown}")
    report.print_summary(rep, run.path)
    if interrupted:
        return 130
    return report.exit_code(rep)
