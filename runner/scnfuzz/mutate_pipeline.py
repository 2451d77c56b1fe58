"""The mutants of one file through the stages of mutate_run.py, cheapest
first, jobs at a time, with a progress line (done/total, killed, survived,
ETA) every second; `scnfuzz mutate` (mutate.py) runs it and reports on it."""
import collections
import concurrent.futures
import os
import resource
import threading
import time

from . import conform as conform_mod
from . import mutate_run
from .errors import SetupError
from .mutate import _say, _unreachable_reason, load_unreachable, schema_source
from .progress import Progress


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


def cpu_seconds():
    """User + system CPU seconds of this process and of its children that
    have ended (the stages' processes): what a run costs whatever the load."""
    me, ch = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime


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

    def __init__(self, s, path, rel, original, mutants, bodies=None):
        self.s, self.path, self.rel, self.original, self.mutants = s, path, rel, original, mutants
        self.bodies = bodies
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
        corpus = mutate_run.Corpus(conform_mod.corpus_files(), s.subject.unrepeatable)
        if corpus.left_out:
            _say(f"{corpus.left_out} corpus units left out: {s.subject.unrepeatable[1]}")
        self.cs = s.conform_stage(corpus)
        t = time.monotonic()
        _say("baseline: the corpus on the unmodified target, noting which mutants each case reaches")
        self.cs.baseline(dict(os.environ, SCN_MUTANT="-1"), reach=True)
        self.phases["baseline_s"] = time.monotonic() - t
        if s.interrupted:
            return
        self.cs.serve(dict(os.environ))
        try:
            survivors = self._conform(cand)
        finally:
            self.cs.close()
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
        self.s.build.substitute(self.path, schema_source(mutator, self.original, cand, self.bodies))
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
        t, cpu = time.monotonic(), cpu_seconds()

        def one(m):
            units = cs.reach.get(m.id, set())
            if not units:
                return mutate_run.Outcome("survived", "conform", reached_by=0, detail="no corpus case reaches it")
            o = cs.run(f"m{m.id}", dict(os.environ, SCN_MUTANT=str(m.id)), units)
            o.reached_by = len(units)
            return o
        self.outcomes = _parallel(cand, one, s.args.jobs, Tally(len(cand)), "conformance", self.prog, s.stopper)
        self.phases["conform_s"] = time.monotonic() - t
        self.cs.close()  # (its servers' CPU is counted once they have ended)
        self.phases["conform_cpu_s"] = cpu_seconds() - cpu
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
