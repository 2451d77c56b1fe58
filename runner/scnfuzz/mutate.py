"""`scnfuzz mutate`: mutation analysis of a target's printf source as the build
fetched it, and re-introduced bugs (--patch) through the same pipeline.

  ./scnfuzz mutate --target musl [--file src/stdio/vfprintf.c]... [--function F]
                   [--jobs N] [--time S] [--json] [--out DIR]
  ./scnfuzz mutate --target musl --patch FILE.diff [--time S] [--json]

The mutants are runner/scnfuzz/mutator.py's (libclang); they are compiled
once as a schema in the mutation build (mutate_build.py) and go through the
stages of mutate_run.py, cheapest first (mutate_pipeline.py: the corpus,
trivial compiler equivalence (tce.py) on its survivors, campaigns); --patch is
mutate_patch.py. The report (mutate_report.py): report.json, report.md,
annotated.html and kills.jsonl in reports/<UTC stamp>-mutate/.
"""
import argparse
import dataclasses
import fcntl
import json
import os
import random
import re
import shutil
import signal
import sys
import time

from . import mutate_build as mb
from . import mutate_report, mutate_run
from .errors import SetupError, UsageError
from .runs import Run

DEFAULT_TIME_S = 10.0
UNREACHABLE_TSV = mb.ROOT / "runner" / "scnfuzz" / "mutate_unreachable.tsv"
EQUIVALENT_TSV = mb.ROOT / "runner" / "scnfuzz" / "mutate_equivalent.tsv"
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
    b"#define SCN_MUTANT_HERE(lo, hi) (scn_mutant < 0 || (scn_mutant >= (lo) && scn_mutant <= (hi)))\n"
    b"#define SCN_MUTANT_IS(n) __builtin_expect(scn_mutant_here && (scn_mutant == (n) || "
    b"(scn_mutant < 0 && !scn_mutant_seen[n] && scn_mutant_reach(n))), 0)\n"
    # a mutant may warn where the original does not (a constant out of a type's range,
    # a comparison always false): the build's -Werror must not stop the schema
    b"#pragma GCC diagnostic ignored \"-Wall\"\n#pragma GCC diagnostic ignored \"-Wextra\"\n"
    b"#ifdef __clang__\n#pragma clang diagnostic ignored \"-Weverything\"\n#endif\n"
    b"static const int scn_mutant_here = 1; /* where schema_source gave a function no first statement */\n")
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
    p.add_argument("--file", action="append", metavar="PATH", help="the file to mutate, relative to the source "
                   "package's root (default: musl src/stdio/vfprintf.c, kernel lib/vsprintf.c, impl "
                   "impl/src/printf.c, ...), or a directory: every .c file in it that the build compiles. "
                   "Repeatable: the mutants of all the files in one schema build, numbered across the files in "
                   "order, the report per file and per function, --sample drawn over them all")
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
    p.add_argument("--mutant", action="append", type=_id_range, metavar="ID[-ID]",
                   help="only these mutants (their ids in the run's numbering, across its files in order, as "
                   "report.json gives them; repeatable)")
    p.add_argument("--sample", type=_positive, metavar="N", help="N of the mutants drawn uniformly at random "
                   "(after --function and --mutant; the same N for the same --seed and source): the report gives the "
                   "score with its 95%% confidence interval")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the draw of --sample (default 1)")


def _id_range(text):
    a, _, z = text.partition("-")
    try:
        lo, hi = int(a), int(z or a)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: not an id or a range of ids (12, 12-40)") from None
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError(f"{text!r}: ids start at 1, a range low to high")
    return lo, hi


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return v


def select(mutants, ranges=None, sample=None, seed=1):
    """The mutants a run takes: those of the --mutant ranges, then a uniform
    draw of `sample` of them without replacement (random.Random(seed): the
    same draw for the same seed and mutants, which the source fixes). Returns
    (the chosen, in id order; how many there were to draw from)."""
    if ranges:
        mutants = [m for m in mutants if any(lo <= m.id <= hi for lo, hi in ranges)]
    pool = len(mutants)
    if sample is not None and sample < pool:
        chosen = set(random.Random(seed).sample(range(pool), sample))
        mutants = [m for i, m in enumerate(mutants) if i in chosen]
    return mutants, pool


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

    def conform_stage(self, corpus, build=None):
        """build: the part of a split schema whose binaries run (default: the mutation build)."""
        b = build or self.build
        return mutate_run.ConformStage(b.tool("scn-conform"), self.subject.conform, corpus,
                                       self.work / b.base.relative_to(self.build.base), self.stopper,
                                       replay=b.tool("scn-replay"))

    def fuzz_stage(self, original, shared=True, build=None):
        """shared: the campaigns keep their units for the later ones (build/mutate/<target>/corpus);
        --patch starts from the seeds, so that its time to a finding does not depend on earlier runs."""
        b = build or self.build
        paths = [(f, b.tool(f), env) for f, env in self.subject.fuzzers]
        return mutate_run.FuzzStage(paths, b.tool("scn-replay"), original,
                                    self.work / b.base.relative_to(self.build.base), self.stopper,
                                    shared=self.build.base / "corpus" if shared else None,
                                    targets=self.subject.conform, unrepeatable=self.subject.unrepeatable)


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
        from . import mutate_patch
        return mutate_patch.run_patch(args)
    return run_mutants(args)


# ------------------------------------------------------------------ mutants


def _table_rows(table, nfields, subject, rel):
    """The rows of a per-target table (TAB-separated, '#' comments) for this
    target and file, without those two fields; no table, no rows."""
    try:
        text = table.read_text()
    except OSError:
        return
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != nfields:
            raise SetupError(f"{table}: a line of {len(f)} fields (want {nfields}): {line[:80]!r}")
        if f[0] == subject and f[1] == rel:
            yield f[2:]


def load_unreachable(subject, rel):
    """The per-target table of functions and lines no printf entry point
    reaches: [(function, line ranges or None, reason)]."""
    rows = []
    for fn, lines, reason in _table_rows(UNREACHABLE_TSV, 5, subject, rel):
        ranges = None
        if lines != "-":
            ranges = []
            for r in lines.split(","):
                if ":" in r:  # L:C1-C2, the mutants of line L whose edit starts at column C1..C2
                    ln, _, cols = r.partition(":")
                    a, _, z = cols.partition("-")
                    ranges.append((int(ln), int(ln), int(a), int(z or a)))
                    continue
                a, _, z = r.partition("-")
                ranges.append((int(a), int(z or a), 1, 1 << 30))
        rows.append((fn, ranges, reason))
    return rows


def load_equivalent(subject, rel):
    """The per-target table of mutants shown equivalent by hand
    (mutate_equivalent.tsv): {(line, col, after): (before, reason)}."""
    rows = {}
    for _fn, at, before, after, reason in _table_rows(EQUIVALENT_TSV, 7, subject, rel):
        ln, _, col = at.partition(":")
        rows[(int(ln), int(col), _unescape(after))] = (_unescape(before), reason)
    return rows


def _unescape(t):
    """A table's text of an edit: \\t, \\n and \\\\ for a tab, a newline and a backslash."""
    return t.replace("\\\\", "\0").replace("\\t", "\t").replace("\\n", "\n").replace("\0", "\\")


def escape_edit(t):
    return t.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _equivalent_reason(m, rows):
    """The declared reason of an equivalent mutant (None: not declared). A row
    whose edit no longer matches the source's text is an error: the file
    changed under the table."""
    row = rows.get((m.line, m.col, m.after))
    if row is None:
        return None
    if row[0] != m.before:
        raise SetupError(f"{EQUIVALENT_TSV}: the row of {m.function} {m.line}:{m.col} -> {m.after!r} says the "
                         f"text was {row[0]!r}; the source has {m.before!r}")
    return row[1]


def _unreachable_reason(m, rows):
    for fn, ranges, reason in rows:
        if fn not in ("-", m.function):
            continue
        if ranges is None or any(a <= m.line <= z and c <= m.col <= d for a, z, c, d in ranges):
            return reason
    return None


def schema_source(mutator, original, live, bodies=None):
    """The schema of the live mutants, its guards able to note what they
    reach. bodies ({function: offset just inside its body's `{`}, see
    function_bodies) gives each function with mutants a first statement that
    says whether one of its own mutants (or reach noting) is on: its guards
    test that one local first, so that the original's code, and every
    function but the mutant's own, pays one predictable test per guarded
    expression instead of a comparison per mutant."""
    ranges = {}
    for m in live:
        lo, hi = ranges.get(m.function, (m.id, m.id))
        ranges[m.function] = (min(lo, m.id), max(hi, m.id))
    inserts = sorted((bodies[fn], f" const int scn_mutant_here = SCN_MUTANT_HERE({lo}, {hi});".encode())
                     for fn, (lo, hi) in ranges.items() if bodies and fn in bodies)
    source, shifted = original, live
    if inserts:
        parts, pos = [], 0
        for at, text in inserts:
            parts += [original[pos:at], text]
            pos = at
        source = b"".join(parts) + original[pos:]

        def shift(off):
            return off + sum(len(text) for at, text in inserts if at <= off)
        shifted = [dataclasses.replace(m, start=shift(m.start), end=shift(m.end), host_start=shift(m.host_start),
                                       host_end=shift(m.host_end)) for m in live]
    body = mutator.schema(source, shifted)
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


def function_bodies(path, flags):
    """{function: the offset just after its body's `{`} of the file's function
    definitions, by libclang (as the mutator parses it)."""
    from . import mutator
    try:
        import clang.cindex as ci
    except ImportError as e:
        raise SetupError(f"libclang's Python bindings are missing ({e}): apt-get install python3-clang-14") from None
    if not ci.Config.loaded and os.path.exists(mutator.LIBCLANG):
        ci.Config.set_library_file(mutator.LIBCLANG)
    tu = ci.Index.create().parse(str(path), args=list(flags))
    out = {}
    real = os.path.realpath(path)
    for c in tu.cursor.get_children():
        if c.kind != ci.CursorKind.FUNCTION_DECL or not c.is_definition() or not c.location.file:
            continue
        if os.path.realpath(c.location.file.name) != real:
            continue
        for k in c.get_children():
            if k.kind == ci.CursorKind.COMPOUND_STMT:
                out[c.spelling] = k.extent.start.offset + 1
    return out


@dataclasses.dataclass
class SourceUnit:
    """One file under mutation: its path in the mutation build, its path
    relative to the source root (the tables' and the report's), its content as
    fetched, and its functions' body offsets (function_bodies)."""
    path: object
    rel: str
    original: bytes
    bodies: dict


def source_paths(b, specs, default):
    """The files --file names, in order, each once: a file as it is; a
    directory, every .c file under it that the mutation build compiles (a .c
    file only #included by another is not mutated on its own), sorted."""
    root = b.source_root().resolve()
    out = []
    for spec in specs or [default]:
        d = (root / spec).resolve()
        if d.is_dir():
            found = []
            for p in sorted(d.rglob("*.c")):
                if p.name.startswith(".scnfuzz-"):
                    continue
                try:
                    b.compile_command(p)
                except UsageError:
                    continue
                found.append(p.resolve())
            if not found:
                raise UsageError(f"--file {spec}: no .c file under it is compiled by the mutation build of "
                                 f"{b.subject.name}")
        else:
            found = [b.source_file(spec)]
        out += [p for p in found if p not in out]
    return out


def _relative(path, root):
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def number_across(per_file):
    """[(unit, its mutants numbered 1..n)] -> one list, numbered 1..N across
    the files in order, each mutant's file its unit's rel: one schema build
    holds them all, and SCN_MUTANT must name one mutant of one file."""
    out = []
    for u, ms in per_file:
        out += [dataclasses.replace(m, id=len(out) + i, file=u.rel) for i, m in enumerate(ms, 1)]
    return out


def run_mutants(args):
    with Session(args) as s:
        b = s.build
        t = time.monotonic()
        b.prepare()
        root = b.source_root().resolve()
        paths = source_paths(b, args.file, s.subject.default_file)
        units = [SourceUnit(p, _relative(p, root), b.original(p), {}) for p in paths]
        build_s = time.monotonic() - t
        per_file = []
        for u in units:
            ms, u.bodies = _generate(b, u.path, u.rel, u.original, args.function, quiet=len(units) > 1)
            per_file.append((u, ms))
        mutants = number_across(per_file)
        if not mutants:
            raise UsageError(f"--function {', '.join(args.function or ())}: no mutant in "
                             f"{', '.join(u.rel for u in units)} (no such function, or nothing to mutate in it)")
        if len(mutants) >= 65535:
            raise SetupError(f"{len(mutants)} mutants, more than the switch takes (65535): fewer files")
        if len(units) > 1:
            _say(f"{len(mutants):,} mutants in {len(units)} files, numbered across them in order: "
                 + ", ".join(f"{u.rel} {sum(m.file == u.rel for m in mutants)}" for u in units))
        mutants, pool = select(mutants, args.mutant, args.sample, args.seed)
        if not mutants:
            raise UsageError("--mutant: no mutant of the run has those ids")
        args.sampled = ({"n": len(mutants), "of": pool, "seed": args.seed}
                        if args.sample is not None and args.sample < pool else None)
        if args.sampled:
            _say(f"sampled {len(mutants)} of {pool} mutants (seed {args.seed})")
        s.check_stop()  # (no run directory yet: nothing to report)
        run = Run.create("mutate", args.out)
        from .mutate_pipeline import Pipeline, _dur
        pipe = Pipeline(s, units, mutants)
        pipe.phases["build_s"] = build_s
        try:
            pipe.run()
        except (SetupError, mutate_run.Cancelled, mutate_run.BaselineError):
            if not s.interrupted:  # (a stage's process killed by the Ctrl-C: the report of what was done)
                raise
        from .mutate_pipeline import cpu_seconds
        pipe.phases["cpu_s"] = cpu_seconds()  # the whole run's, user + system, its processes' included
        pipe.prog.done(f"{'interrupted' if s.interrupted else 'done'} after {_dur(time.monotonic() - s.t0)}")
        model = mutate_report.model(s.subject, units, root, mutants, pipe.status, pipe.outcomes, pipe.cs,
                                    pipe.phases, args, s.interrupted, time.monotonic() - s.t0, pipe.tce_scope)
        mutate_report.write(run, model, {u.rel: u.original for u in units})
        print(mutate_report.summary_text(model, run.path))
        if args.json:
            print(json.dumps(mutate_report.json_line(model, run.path)))
        return 130 if s.interrupted else 0


def _generate(b, path, rel, original, functions, quiet=False):
    """The mutants, parsed from the original beside the file (its relative
    includes), and its function bodies. quiet: a file with nothing to mutate
    (or no such function) gives no mutant instead of an error (one of several
    files)."""
    from . import mutator
    flags = b.compile_args(path)
    parse_at = path
    if path.read_bytes() != original:
        parse_at = path.with_name(f".scnfuzz-original-{path.name}")
        parse_at.write_bytes(original)
    try:
        mutants = mutator.generate(str(parse_at), flags, functions)
        bodies = function_bodies(parse_at, flags)
    finally:
        if parse_at != path:
            parse_at.unlink()
    if quiet:
        return mutants, bodies
    if functions and not mutants:
        raise UsageError(f"--function {', '.join(functions)}: no mutant in {rel} (no such function, or nothing "
                         f"to mutate in it)")
    if not mutants:
        raise UsageError(f"{rel}: the mutator found nothing to mutate")
    return mutants, bodies
