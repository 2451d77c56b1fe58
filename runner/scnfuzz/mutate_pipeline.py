"""The mutants of one file or several through the stages of mutate_run.py, cheapest
first, jobs at a time, with a progress line (done/total, killed, survived,
ETA) every second; `scnfuzz mutate` (mutate.py) runs it and reports on it."""
import collections
import concurrent.futures
import os
import resource
import threading
import time

from . import mutate_run
from .errors import SetupError
from .mutate import _equivalent_reason, _say, _unreachable_reason, load_equivalent, load_unreachable, schema_source
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


SPLIT_MIN = 400  # live mutants a part at least: a smaller schema compiles in one build


def schema_parts(cand, jobs):
    """cand split in contiguous runs of ids, as many as jobs but none under
    SPLIT_MIN mutants (one part when cand is smaller than 2 * SPLIT_MIN)."""
    cand = sorted(cand, key=lambda m: m.id)
    n = max(1, min(jobs, len(cand) // SPLIT_MIN))
    return [cand[len(cand) * k // n:len(cand) * (k + 1) // n] for k in range(n)]


def _each(calls):
    """Each call at once, in a thread of its own; the first exception raised again."""
    if len(calls) == 1:
        return [calls[0]()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futs = [pool.submit(c) for c in calls]
        return [f.result() for f in futs]


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
    """The mutants of one file or several (units: mutate.SourceUnit, each
    mutant's .file its unit's rel, ids unique across the files) through the
    stages, cheapest first:
      1. the unreachable table's mutants and the equivalents declared by
         hand (mutate_equivalent.tsv) set apart: neither compiled nor run;
      2. the others compiled at once as a schema (split across --jobs
         builds when large: _build_schema), the baseline run noting which
         corpus cases reach which mutant;
      3. each mutant through the cases that reach it (most are killed there);
      4. trivial compiler equivalence on the ones the corpus did not kill (a
         killed mutant is not equivalent; duplicates are looked for among the
         survivors only: TCE compiles the whole file per mutant, which on
         every mutant costs more than the corpus does);
      5. a campaign of --time seconds for each live survivor.
    A schema that does not compile (a mutant the compiler refuses) makes TCE
    run on every mutant first, and the stillborn ones are left out of it."""

    def __init__(self, s, units, mutants):
        self.s, self.units, self.mutants = s, units, mutants
        self.unit = {u.rel: u for u in units}
        self.status = {m.id: ("not-run", "") for m in mutants}  # the verdict of those without an outcome
        self.outcomes = {}
        self.cs = None      # the conformance stage of the first part (its baseline: the report's)
        self.css = []       # one a part of the schema (_build_schema)
        self.builds = []
        self.part_of = {}
        self.phases = {}
        self.tce_scope = None
        self.prog = Progress("scnfuzz mutate", every=2.0)

    def run(self):
        s = self.s
        rows = {u.rel: load_unreachable(s.subject.name, u.rel) for u in self.units}
        declared = {u.rel: load_equivalent(s.subject.name, u.rel) for u in self.units}
        cand = []
        for m in self.mutants:
            why = _unreachable_reason(m, rows[m.file])
            same = None if why else _equivalent_reason(m, declared[m.file])
            self.status[m.id] = (("unreachable", why) if why else
                                 ("equivalent", f"declared (mutate_equivalent.tsv): {same}") if same else ("live", ""))
            if not why and not same:
                cand.append(m)
        _say(f"{len(self.mutants)} mutants of {', '.join(u.rel for u in self.units)}: {sum(st == 'unreachable' for st, _ in self.status.values())} "
             f"unreachable (mutate_unreachable.tsv), {sum(st == 'equivalent' for st, _ in self.status.values())} "
             f"declared equivalent (mutate_equivalent.tsv), neither compiled nor run; the schema of the "
             f"{len(cand)} others")
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
        corpus = mutate_run.Corpus(s.subject.corpus_files(), s.subject.unrepeatable)
        if corpus.left_out:
            _say(f"{corpus.left_out} corpus units left out: {s.subject.unrepeatable[1]}")
        self.css = [s.conform_stage(corpus, build=b) for b in self.builds]
        self.cs = self.css[0]
        for cs in self.css[1:]:  # one order of the cases for all parts: those that killed first
            cs.kills, cs.cost, cs.lock = self.cs.kills, self.cs.cost, self.cs.lock
        t = time.monotonic()
        _say("baseline: the corpus on the unmodified target, noting which mutants each case reaches"
             + (f" (each of the {len(self.css)} parts' builds at once)" if len(self.css) > 1 else ""))
        _each([lambda cs=cs: cs.baseline(dict(os.environ, SCN_MUTANT="-1"), reach=True) for cs in self.css])
        self.phases["baseline_s"] = time.monotonic() - t
        if s.interrupted:
            return
        for cs in self.css:
            cs.serve(dict(os.environ))
        try:
            survivors = self._conform(cand)
        finally:
            for cs in self.css:
                cs.close()
        if survivors and not s.interrupted and self.tce_scope is None:
            self._tce(survivors, "the mutants the corpus did not kill")
            survivors = [m for m in survivors if self.status[m.id][0] == "live"]
            for m in list(self.outcomes):
                if self.status[m.id][0] != "live":
                    del self.outcomes[m]
        if survivors and not s.interrupted:
            self._fuzz(survivors)

    def _build_schema(self, cand):
        """The schema of cand compiled: in one build, or, for --jobs N > 1 and at
        least SPLIT_MIN mutants a part, split in contiguous runs of ids across N
        builds (MutationBuild.part) compiled at once, a job's share of the
        cores each: a mutant runs in its part's binaries only."""
        from . import mutator
        s = self.s
        parts = schema_parts(cand, s.args.jobs)
        n = len(parts)
        self.builds = [s.build.part(k) for k in range(n)]
        self.part_of = {m.id: k for k, ms in enumerate(parts) for m in ms}
        paths = [[u.path for u in self.units]]
        for b in self.builds[1:]:
            b.prepare()
            paths.append([])
            for u in self.units:
                p = b.source_file(u.rel)
                if b.original(p) != u.original:
                    raise SetupError(f"{b.base}: its {u.rel} as fetched differs from {s.build.base}'s: remove "
                                     f"{b.base} and run again")
                paths[-1].append(p)
        if n > 1:
            _say(f"the schema split in {n} parts ({', '.join(str(len(ms)) for ms in parts)} mutants), "
                 f"compiled at once in {', '.join(str(b.bdir) for b in self.builds)}")
        for b, ps, ms in zip(self.builds, paths, parts):
            # another file's schema that an earlier run left in this build (impl/ has many files)
            # would answer to the same SCN_MUTANT ids: every file but this run's back as fetched,
            # and a file of the run without a mutant in this part as fetched too
            b.restore_all(keep=ps)
            for u, p in zip(self.units, ps):
                mine = [m for m in ms if m.file == u.rel]
                b.substitute(p, schema_source(mutator, u.original, mine, u.bodies) if mine else None)
        for b in self.builds:
            b.jobs = max(1, s.args.jobs // n) if n > 1 else None
        _each([b.build for b in self.builds])

    def _tce(self, ms, scope):
        from . import tce
        s, b = self.s, self.s.build
        t = time.monotonic()
        self.tce_scope = scope
        done_before = [0]
        for u in self.units:  # each file against its own original, with its own command
            mine = [m for m in ms if m.file == u.rel]
            if not mine:
                continue
            argv, _ = b.compile_command(u.path)
            at = u.path.with_name(f".scnfuzz-tce-{u.path.name}")
            at.write_bytes(u.original)
            try:
                verdict = tce.classify(str(at), u.original, mine, argv, jobs=s.args.jobs,
                                       progress=lambda done, total: self.prog.update(
                                           f"trivial compiler equivalence {done_before[0] + done}/{len(ms)}",
                                           frac=(done_before[0] + done) / max(1, len(ms))))
            finally:
                at.unlink()
            done_before[0] += len(mine)
            for m in mine:
                self.status[m.id] = verdict.get(m.id, ("live", ""))
        counts = collections.Counter(self.status[m.id][0] for m in ms)
        _say(f"TCE on {len(ms)} ({scope}): " + ", ".join(f"{counts[k]} {k}" for k in
                                                          ("live", "equivalent", "duplicate", "stillborn")))
        self.phases["tce_s"] = self.phases.get("tce_s", 0) + time.monotonic() - t

    def _conform(self, cand):
        s = self.s
        t, cpu = time.monotonic(), cpu_seconds()

        def one(m):
            cs = self.css[self.part_of[m.id]]
            units = cs.reach.get(m.id, set())
            if not units:
                return mutate_run.Outcome("survived", "conform", reached_by=0, detail="no corpus case reaches it")
            o = cs.run(f"m{m.id}", dict(os.environ, SCN_MUTANT=str(m.id)), units)
            o.reached_by = len(units)
            return o
        self.outcomes = _parallel(cand, one, s.args.jobs, Tally(len(cand)), "conformance", self.prog, s.stopper)
        self.phases["conform_s"] = time.monotonic() - t
        for cs in self.css:
            cs.close()  # (its servers' CPU is counted once they have ended)
        self.phases["conform_cpu_s"] = cpu_seconds() - cpu
        return [m for m in cand if self.outcomes[m].status == "survived"]

    def _fuzz(self, survivors):
        s = self.s
        t = time.monotonic()
        fzs = [s.fuzz_stage(mutate_run.Original(b.tool("scn-replay"), dict(os.environ, SCN_MUTANT="0")), build=b)
               for b in self.builds]
        for fz in fzs[1:]:  # (one shared corpus)
            fz.lock = fzs[0].lock

        def one(m):
            before = self.outcomes[m]
            o = fzs[self.part_of[m.id]].run(f"m{m.id}", dict(os.environ, SCN_MUTANT=str(m.id)), s.args.time)
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
