"""`scnfuzz mutate`: mutation analysis of a target's printf source as the build
fetched it, and re-introduced bugs (--patch) through the same pipeline.

  ./scnfuzz mutate --target musl [--file src/stdio/vfprintf.c] [--function F]
                   [--jobs N] [--time S] [--json] [--out DIR]
  ./scnfuzz mutate --target musl --patch FILE.diff [--time S] [--json]

The mutants are runner/scnfuzz/mutator.py's (libclang), pruned by trivial
compiler equivalence (tce.py); the live ones are compiled once as a schema in
the mutation build (mutate_build.py) and each goes through the stages of
mutate_run.py, cheapest first. The report (mutate_report.py): report.json,
report.md and annotated.html in reports/<UTC stamp>-mutate/.
"""
import collections
import concurrent.futures
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from . import conform as conform_mod
from . import mutate_build as mb
from . import mutate_report, mutate_run
from .errors import SetupError, UsageError
from .progress import Progress
from .runs import Run

DEFAULT_TIME_S = 10.0
UNREACHABLE_TSV = mb.ROOT / "runner" / "scnfuzz" / "mutate_unreachable.tsv"
# the schema's guards: the mutator writes `scn_mutant == N` / `scn_mutant != N`,
# made SCN_MUTANT_IS(N), which also notes the point when SCN_MUTANT=-1
_GUARD = re.compile(rb"\bscn_mutant (==|!=) (\d+)\b")
SCHEMA_PROLOGUE = (
    mb.SCHEMA_MARK + b" every mutant of this file, chosen at run time by env SCN_MUTANT "
    b"(core/targets/mutant_switch.h; ./scnfuzz mutate) */\n"
    # const here (mutant_switch.c sets it before main and never again): the compiler then
    # loads it once per function instead of again after every call, which in the
    # conversions' loops made the original run many times slower than without the schema
    b"extern const int scn_mutant;\nextern int scn_mutant_reach(int);\nextern unsigned char scn_mutant_seen[];\n"
    b"#define SCN_MUTANT_IS(n) __builtin_expect(scn_mutant == (n) || "
    b"(scn_mutant < 0 && !scn_mutant_seen[n] && scn_mutant_reach(n)), 0)\n"
    # a mutant may warn where the original does not (a constant out of a type's range,
    # a comparison always false): the build's -Werror must not stop the schema
    b"#pragma GCC diagnostic ignored \"-Wall\"\n#pragma GCC diagnostic ignored \"-Wextra\"\n"
    b"#ifdef __clang__\n#pragma clang diagnostic ignored \"-Weverything\"\n#endif\n")
_DECLARATION = b"extern int scn_mutant;\n"  # mutator.schema's own, replaced by the const one above


def add_parser(sub, epilog):
    from .cli import jobs, seconds
    p = sub.add_parser(
        "mutate", help="mutation analysis of a target's printf source, or one re-introduced bug (--patch)",
        description="Mutation analysis of a target's printf source as the build fetched it: the mutants "
        "(libclang), pruned by trivial compiler equivalence, all compiled once as a schema in the mutation "
        "build build/mutate/<target>/, each through the conformance corpus (the cases that reach it) and, "
        "for a survivor, a differential campaign of --time seconds. Killed: an oracle fails on a case for the "
        "mutant and passes for the unmodified target (the same binaries, SCN_MUTANT=0). Report: "
        "report.json, report.md and annotated.html in the run directory. --patch FILE.diff: the same "
        "pipeline for one unified diff applied with patch -p1 at the source package's root. Ctrl-C/SIGTERM "
        "stops and still writes the report of what was done.", epilog=epilog)
    p.add_argument("--target", required=True, metavar="NAME",
                   help=f"the subject: {', '.join(mb.SUBJECTS)} (ref: impl)")
    p.add_argument("--file", metavar="PATH", help="the file to mutate, relative to the source package's root "
                   "(default: musl src/stdio/vfprintf.c, kernel lib/vsprintf.c, impl impl/src/printf.c, ...)")
    p.add_argument("--function", action="append", metavar="F", help="only the mutants of this function "
                   "(repeatable)")
    p.add_argument("--jobs", type=jobs, default=2, metavar="N", help="mutants checked at once (default 2)")
    p.add_argument("--time", type=seconds, default=DEFAULT_TIME_S, metavar="S",
                   help=f"seconds of campaign per surviving mutant (default {DEFAULT_TIME_S:g})")
    p.add_argument("--patch", metavar="FILE.diff", help="run one unified diff (patch -p1 at the source "
                   "package's root) through the pipeline instead of the mutants")
    p.add_argument("--json", action="store_true", help="the last line of stdout is one JSON object (the "
                   "result of --patch, or the mutation run's counts)")
    p.add_argument("--out", metavar="DIR", help="the run directory (default reports/<UTC stamp>-mutate/)")


# ------------------------------------------------------------------ shared set-up


class Session:
    """The mutation build (locked: one mutate run per subject at a time), the
    corpus and the stop switch of one command."""

    def __init__(self, args):
        self.args = args
        self.subject = mb.subject(args.target)
        self.build = mb.MutationBuild(self.subject)
        self.build.base.mkdir(parents=True, exist_ok=True)
        _lock_build(self.build.base)
        self.stopper = mutate_run.Stopper()
        self.interrupted = False
        self.work = self.build.base / "work" / str(os.getpid())
        self.t0 = time.monotonic()

    def __enter__(self):
        def on_signal(sig, _frame):
            if not self.interrupted:
                sys.stderr.write(f"\nscnfuzz mutate: {signal.Signals(sig).name}: stopping, then the report\n")
            self.interrupted = True
            self.stopper.stop()
        self.old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        return self

    def __exit__(self, *exc):
        for s, h in self.old.items():
            signal.signal(s, h)
        self.stopper.stop()
        shutil.rmtree(self.work, ignore_errors=True)
        return False

    def check_stop(self):
        if self.interrupted:
            raise KeyboardInterrupt()

    def conform_stage(self, corpus):
        return mutate_run.ConformStage(self.build.tool("scn-conform"), self.subject.conform, corpus, self.work,
                                       self.stopper)

    def fuzz_stage(self, original, shared=True):
        """shared: the campaigns keep their units for the later ones (build/mutate/<target>/corpus);
        --patch starts from the seeds, so that its time to a finding does not depend on earlier runs."""
        paths = [(f, self.build.tool(f), env) for f, env in self.subject.fuzzers]
        return mutate_run.FuzzStage(paths, self.build.tool("scn-replay"), original, self.work, self.stopper,
                                    shared=self.build.base / "corpus" if shared else None)


_HELD = []


def _lock_build(base):
    """One mutate run per mutation build at a time (flock on DIR/.lock, held
    until exit): a second one waits for the first, saying so."""
    fd = os.open(base / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        _say(f"waiting for another `scnfuzz mutate` using {base} to end")
        fcntl.flock(fd, fcntl.LOCK_EX)
    _HELD.append(fd)


def _say(msg):
    sys.stderr.write(f"scnfuzz mutate: {msg}\n")
    sys.stderr.flush()


def main(args):
    if args.patch:
        return run_patch(args)
    return run_mutants(args)


# ------------------------------------------------------------------ --patch


_HUNK_FAILED = re.compile(r"Hunk #(\d+) FAILED at (\d+)")
_PATCHING = re.compile(r"^(?:patching|checking) file (.+)$", re.M)


def patch_files(root, diff):
    """The files a diff changes, by a dry run of patch -p1 at root; a diff
    that does not apply is a usage error naming the file and the hunk."""
    cmd = ["patch", "-p1", "--dry-run", "--batch", "--forward", "-r", "-", "-d", str(root), "-i", str(diff)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise SetupError("patch not found: run `bash ci/setup.sh` (apt-get install patch)") from None
    out = p.stdout + p.stderr
    files = [f.strip().strip("'\"") for f in _PATCHING.findall(out)]
    if p.returncode != 0 or not files:
        raise UsageError(f"--patch {diff} does not apply at {root} (patch -p1): {_patch_problem(out, files)}")
    return files


def _patch_problem(out, files):
    problems, current = [], None
    for line in out.splitlines():
        m = _PATCHING.match(line)
        if m:
            current = m.group(1).strip().strip("'\"")
            continue
        m = _HUNK_FAILED.search(line)
        if m:
            problems.append(f"{current}: hunk #{m.group(1)} FAILED at line {m.group(2)}")
        elif "can't find file to patch" in line or "No file to patch" in line:
            problems.append("a file it names is not in the source package (can't find file to patch)")
        elif "Reversed (or previously applied) patch detected" in line:
            problems.append(f"{current}: reversed or already applied")
        elif "Only garbage" in line or "malformed patch" in line:
            problems.append(f"not a unified diff ({line.strip()})")
    if not problems:
        problems.append(" ".join(out.split())[:300] or "patch found nothing to apply")
    return "; ".join(dict.fromkeys(problems))


def run_patch(args):
    diff = os.path.abspath(args.patch)
    if not os.path.isfile(diff):
        raise UsageError(f"--patch {args.patch}: no such file")
    with Session(args) as s:
        b = s.build
        b.sync_tree()
        b.configure()
        b.restore_all()  # the unmodified source: the baseline and the original replayer
        root = b.source_root()
        files = patch_files(root, diff)
        b.build()
        corpus = mutate_run.Corpus(conform_mod.corpus_files())
        cs = s.conform_stage(corpus)
        env0 = dict(os.environ, SCN_MUTANT="0")
        _say(f"baseline: the corpus on the unmodified {s.subject.name}")
        cs.baseline(env0, reach=False)
        original_replay = s.work / "original-scn-replay"
        shutil.copy2(b.tool("scn-replay"), original_replay)
        created = [root / f for f in files if not (root / f).exists()]
        for f in files:
            if (root / f).is_file():
                b.original(root / f)
        run = Run.create("mutate", args.out)
        try:
            subprocess.run(["patch", "-p1", "--batch", "--forward", "-r", "-", "--no-backup-if-mismatch",
                            "-d", str(root), "-i", diff], capture_output=True, check=True, timeout=120)
            _say(f"patched {', '.join(files)}; building")
            b.build()
            t0 = time.monotonic()
            o = cs.run("patch", env0)
            if o.status == "survived" and not s.interrupted:
                conform_execs = o.executions
                _say(f"not found by the corpus ({conform_execs:,} results); campaign of {args.time:g} s")
                fz = s.fuzz_stage(mutate_run.Original(original_replay, env0), shared=False)
                o = fz.run("patch", env0, args.time)
                o.executions += conform_execs
            seconds = time.monotonic() - t0
        except mutate_run.Cancelled:
            raise KeyboardInterrupt() from None
        finally:
            b.restore_all()
            for c in created:
                try:
                    c.unlink()
                except OSError:
                    pass
        if o.status == "error":
            raise SetupError(f"--patch: {o.stage} stage failed: {o.detail}")
        found = o.status == "killed"
        result = {"found": found, "stage": o.stage if found else None, "seconds": round(seconds, 3),
                  "executions": int(o.executions), "signature": o.signature if found else None}
        mutate_report.write_patch(run, s.subject, diff, files, o, result, cs)
        if found:
            print(f"found by {o.stage}: {o.signature} ({o.where}; {o.case}) in {seconds:.1f} s, "
                  f"{o.executions:,} executions")
        else:
            print(f"not found: the corpus and a {args.time:g}-s campaign pass as on the unmodified "
                  f"{s.subject.name} ({o.executions:,} executions, {seconds:.1f} s)")
        print(f"report: {run.path / 'report.md'}")
        if args.json:
            print(json.dumps(result))
        return 0


# ------------------------------------------------------------------ mutants


def load_unreachable(subject, rel):
    """The per-target table of functions and lines no printf entry point
    reaches: [(function, line ranges or None, reason)]."""
    rows = []
    try:
        text = UNREACHABLE_TSV.read_text()
    except OSError:
        return rows
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 5:
            raise SetupError(f"{UNREACHABLE_TSV}: a line of {len(f)} fields (want 5): {line[:80]!r}")
        subj, path, fn, lines, reason = f
        if subj != subject or path != rel:
            continue
        ranges = None
        if lines != "-":
            ranges = []
            for r in lines.split(","):
                a, _, z = r.partition("-")
                ranges.append((int(a), int(z or a)))
        rows.append((fn, ranges, reason))
    return rows


def _unreachable_reason(m, rows):
    for fn, ranges, reason in rows:
        if fn not in ("-", m.function):
            continue
        if ranges is None or any(a <= m.line <= z for a, z in ranges):
            return reason
    return None


def schema_source(mutator, original, live):
    """The schema of the live mutants, its guards able to note what they reach."""
    body = mutator.schema(original, live)
    if not body.startswith(_DECLARATION):
        raise SetupError("the mutant schema does not start with mutator.schema's declaration of scn_mutant "
                         "(its form changed?)")
    body = body[len(_DECLARATION):]
    n = {}

    def guard(mo):
        n[int(mo.group(2))] = True
        return (b"SCN_MUTANT_IS(" if mo.group(1) == b"==" else b"!SCN_MUTANT_IS(") + mo.group(2) + b")"
    out = _GUARD.sub(guard, body)
    missing = [m.id for m in live if m.id not in n]
    if missing:
        raise SetupError(f"the mutant schema has no guard for mutant(s) {missing[:5]} (mutator.schema's form "
                         f"changed?)")
    return SCHEMA_PROLOGUE + out


class Tally:
    def __init__(self, total):
        self.total = total
        self.done = 0
        self.counts = {}
        self.lock = threading.Lock()
        self.t0 = time.monotonic()

    def add(self, status):
        with self.lock:
            self.done += 1
            self.counts[status] = self.counts.get(status, 0) + 1

    def line(self, what):
        with self.lock:
            el = time.monotonic() - self.t0
            eta = el / self.done * (self.total - self.done) if self.done else None
            c = self.counts
            return (f"{what} {self.done}/{self.total}, killed {c.get('killed', 0)}, survived "
                    f"{c.get('survived', 0)}" + (f", errors {c['error']}" if c.get("error") else "")
                    + (f", ETA {_dur(eta)}" if eta is not None else ""))


def _dur(s):
    s = int(s + 0.5)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def _parallel(items, fn, jobs, tally, what, prog, stopper):
    """fn(item) for every item, jobs at a time; a progress line every second."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {}
        for it in items:
            futs[pool.submit(_guarded, fn, it, stopper)] = it
        pending = set(futs)
        while pending:
            done, pending = concurrent.futures.wait(pending, timeout=1.0)
            for f in done:
                o = f.result()
                results[futs[f]] = o
                if o.status != "not-run":
                    tally.add(o.status)
            prog.update(tally.line(what), frac=tally.done / max(1, tally.total), force=True)
    return results


def _guarded(fn, it, stopper):
    if stopper.stopped:
        return mutate_run.Outcome("not-run")
    try:
        return fn(it)
    except mutate_run.Cancelled:
        return mutate_run.Outcome("not-run")


def run_mutants(args):
    with Session(args) as s:
        b = s.build
        t = time.monotonic()
        b.prepare()
        path = b.source_file(args.file or s.subject.default_file)
        root = b.source_root().resolve()
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        original = b.original(path)
        build_s = time.monotonic() - t
        mutants = _generate(b, path, rel, original, args.function)
        s.check_stop()  # (no run directory yet: nothing to report)
        run = Run.create("mutate", args.out)
        pipe = Pipeline(s, path, rel, original, mutants)
        pipe.phases["build_s"] = build_s
        try:
            pipe.run()
        except (SetupError, mutate_run.Cancelled, mutate_run.BaselineError):
            if not s.interrupted:  # (a stage's process killed by the Ctrl-C: the report of what was done)
                raise
        pipe.prog.done(f"{'interrupted' if s.interrupted else 'done'} after {_dur(time.monotonic() - s.t0)}")
        model = mutate_report.model(s.subject, rel, root, mutants, pipe.status, pipe.outcomes, original, pipe.cs,
                                    pipe.phases, args, s.interrupted, time.monotonic() - s.t0, pipe.tce_scope)
        mutate_report.write(run, model, original)
        print(mutate_report.summary_text(model, run.path))
        if args.json:
            print(json.dumps(mutate_report.json_line(model, run.path)))
        return 130 if s.interrupted else 0


def _generate(b, path, rel, original, functions):
    """The mutants, parsed from the original beside the file (its relative includes)."""
    from . import mutator
    flags = b.compile_args(path)
    parse_at = path
    if path.read_bytes() != original:
        parse_at = path.with_name(f".scnfuzz-original-{path.name}")
        parse_at.write_bytes(original)
    try:
        mutants = mutator.generate(str(parse_at), flags, functions)
    finally:
        if parse_at != path:
            parse_at.unlink()
    if functions and not mutants:
        raise UsageError(f"--function {', '.join(functions)}: no mutant in {rel} (no such function, or nothing "
                         f"to mutate in it)")
    if not mutants:
        raise UsageError(f"{rel}: the mutator found nothing to mutate")
    if len(mutants) >= 65535:
        raise SetupError(f"{rel}: {len(mutants)} mutants, more than the switch takes (65535)")
    return mutants


class Pipeline:
    """The mutants of one file through the stages, cheapest first:
      1. the unreachable table's mutants set apart;
      2. the others compiled at once as a schema, the baseline run noting
         which corpus cases reach which mutant;
      3. each mutant through the cases that reach it (most are killed there);
      4. trivial compiler equivalence on the ones the corpus did not kill (a
         killed mutant is not equivalent; duplicates are looked for among the
         survivors only: TCE compiles the whole file per mutant, which on
         every mutant costs more than the corpus does);
      5. a campaign of --time seconds for each live survivor.
    A schema that does not compile (a mutant the compiler refuses) makes TCE
    run on every mutant first, and the stillborn ones are left out of it."""

    def __init__(self, s, path, rel, original, mutants):
        self.s, self.path, self.rel, self.original, self.mutants = s, path, rel, original, mutants
        self.status = {m.id: ("not-run", "") for m in mutants}  # the verdict of those without an outcome
        self.outcomes = {}
        self.cs = None
        self.phases = {}
        self.tce_scope = None
        self.prog = Progress("scnfuzz mutate", every=2.0)

    def run(self):
        s = self.s
        rows = load_unreachable(s.subject.name, self.rel)
        cand = []
        for m in self.mutants:
            why = _unreachable_reason(m, rows)
            self.status[m.id] = ("unreachable", why) if why else ("live", "")
            if not why:
                cand.append(m)
        _say(f"{len(self.mutants)} mutants of {self.rel}, {len(self.mutants) - len(cand)} of them unreachable "
             f"(mutate_unreachable.tsv); the schema of the {len(cand)} others")
        if not cand:
            return
        t = time.monotonic()
        try:
            self._build_schema(cand)
        except SetupError:
            if s.interrupted:
                raise
            _say("the schema does not compile: trivial compiler equivalence on every mutant first")
            self._tce(cand, "every mutant (the schema of all of them did not compile)")
            cand = [m for m in cand if self.status[m.id][0] == "live"]
            self._build_schema(cand)
        self.phases["schema_build_s"] = time.monotonic() - t
        if s.interrupted or not cand:
            return
        self.cs = s.conform_stage(mutate_run.Corpus(conform_mod.corpus_files()))
        t = time.monotonic()
        _say("baseline: the corpus on the unmodified target, noting which mutants each case reaches")
        self.cs.baseline(dict(os.environ, SCN_MUTANT="-1"), reach=True)
        self.phases["baseline_s"] = time.monotonic() - t
        if s.interrupted:
            return
        survivors = self._conform(cand)
        if survivors and not s.interrupted and self.tce_scope is None:
            self._tce(survivors, "the mutants the corpus did not kill")
            survivors = [m for m in survivors if self.status[m.id][0] == "live"]
            for m in list(self.outcomes):
                if self.status[m.id][0] != "live":
                    del self.outcomes[m]
        if survivors and not s.interrupted:
            self._fuzz(survivors)

    def _build_schema(self, cand):
        from . import mutator
        self.s.build.substitute(self.path, schema_source(mutator, self.original, cand))
        self.s.build.build()

    def _tce(self, ms, scope):
        from . import tce
        s, b = self.s, self.s.build
        t = time.monotonic()
        self.tce_scope = scope
        argv, _ = b.compile_command(self.path)
        at = self.path.with_name(f".scnfuzz-tce-{self.path.name}")
        at.write_bytes(self.original)
        try:
            verdict = tce.classify(str(at), self.original, ms, argv, jobs=s.args.jobs,
                                   progress=lambda done, total: self.prog.update(
                                       f"trivial compiler equivalence {done}/{total}", frac=done / max(1, total)))
        finally:
            at.unlink()
        for m in ms:
            self.status[m.id] = verdict.get(m.id, ("live", ""))
        counts = collections.Counter(self.status[m.id][0] for m in ms)
        _say(f"TCE on {len(ms)} ({scope}): " + ", ".join(f"{counts[k]} {k}" for k in
                                                          ("live", "equivalent", "duplicate", "stillborn")))
        self.phases["tce_s"] = self.phases.get("tce_s", 0) + time.monotonic() - t

    def _conform(self, cand):
        s, cs = self.s, self.cs
        t = time.monotonic()

        def one(m):
            units = cs.reach.get(m.id, set())
            if not units:
                return mutate_run.Outcome("survived", "conform", reached_by=0, detail="no corpus case reaches it")
            o = cs.run(f"m{m.id}", dict(os.environ, SCN_MUTANT=str(m.id)), units)
            o.reached_by = len(units)
            return o
        self.outcomes = _parallel(cand, one, s.args.jobs, Tally(len(cand)), "conformance", self.prog, s.stopper)
        self.phases["conform_s"] = time.monotonic() - t
        return [m for m in cand if self.outcomes[m].status == "survived"]

    def _fuzz(self, survivors):
        s = self.s
        t = time.monotonic()
        fz = s.fuzz_stage(mutate_run.Original(s.build.tool("scn-replay"), dict(os.environ, SCN_MUTANT="0")))

        def one(m):
            before = self.outcomes[m]
            o = fz.run(f"m{m.id}", dict(os.environ, SCN_MUTANT=str(m.id)), s.args.time)
            o.reached_by = before.reached_by
            o.executions += before.executions
            o.seconds += before.seconds
            if o.status == "survived" and not o.detail:
                o.detail = before.detail
            return o
        res = _parallel(survivors, one, s.args.jobs, Tally(len(survivors)),
                        f"campaigns ({s.args.time:g} s each)", self.prog, s.stopper)
        for m, o in res.items():
            if o.status == "not-run":  # interrupted before its campaign: not a survivor yet
                o.reached_by = self.outcomes[m].reached_by
                o.detail = "the corpus did not kill it; its campaign was not run (interrupted)"
            self.outcomes[m] = o
        self.phases["fuzz_s"] = time.monotonic() - t
