"""`scnfuzz corpus merge|minimize`: keep the fuzzers' corpora small and
coverage-complete.

merge     folds corpora (by default the fuzzer's campaign corpus,
          build/fuzz/campaign-corpus/<fuzzer>) into a corpus (by default the
          committed seeds, corpus/fuzz/<fuzzer>/) with libFuzzer's -merge=1:
          only the units that add coverage are added; the target is not grown
          beyond --max-size MiB (default 4: the committed seeds stay small).
minimize  rewrites a corpus to a coverage-minimal subset (libFuzzer -merge=1
          into an empty directory, or afl-cmin with --engine afl); the units
          kept keep their names.

The fuzzers run in campaign mode (SCN_FUZZ_CONTINUE=1: a finding does not
stop them); their output goes to a log (build/scnfuzz-corpus.log)."""
import hashlib
import math
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile

from . import build, children, fuzzers
from .campaign import FUZZER_TARGETS, campaign_corpus, count_units, shown_path
from .errors import SetupError, UsageError

SEEDS = build.ROOT / "corpus" / "fuzz"
DEFAULT_MAX_MIB = 4.0
LOG = build.ROOT / "build" / "scnfuzz-corpus.log"


def _units(d):
    """{name: path} of the inputs of a corpus directory."""
    return {e.name: pathlib.Path(e.path) for e in os.scandir(d) if e.is_file() and not e.name.startswith(".")}


def _size(d):
    """(units, bytes of their contents)."""
    u = _units(d)
    return len(u), sum(p.stat().st_size for p in u.values())


def _human(n):
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 1024 / 1024:.2f} MiB"


def _existing_dir(p, what):
    p = pathlib.Path(p)
    if not p.exists():
        raise UsageError(f"{what} {p}: no such directory")
    if not p.is_dir():
        raise UsageError(f"{what} {p}: not a directory")
    return p.resolve()


def _choose_fuzzer(explicit, *dirs):
    """--fuzzer, else the name of a directory that is a fuzzer's (corpus/fuzz/<fuzzer>,
    campaign-corpus/<fuzzer>)."""
    if explicit:
        return fuzzers.resolve(explicit)
    for d in dirs:
        if d is not None and pathlib.Path(d).name in FUZZER_TARGETS:
            return pathlib.Path(d).name
    raise UsageError("cannot tell the fuzzer from the directory names: give --fuzzer "
                     f"({', '.join(FUZZER_TARGETS)})")


def _env(fuzzer):
    env = dict(os.environ, SCN_FUZZ_CONTINUE="1")
    env.pop("SCN_FINDINGS", None)
    env.setdefault("SCN_FUZZ_ORACLE_EVERY", "1")  # a unit's coverage must not depend on its position
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0:allocator_may_return_null=1")
    if fuzzer == "fuzz_planted":
        env.setdefault("SCN_PLANTED", "none")
    return env


def _run_logged(cmd, env, what):
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with open(LOG, "ab") as log:
        log.write(("$ " + " ".join(map(str, cmd)) + "\n").encode())
        log.flush()
        # dies with scnfuzz; libFuzzer's -rss_limit_mb and -timeout bound it (children.py)
        p = subprocess.run(children.launch_argv(cmd, sig=signal.SIGTERM), stdout=log, stderr=subprocess.STDOUT,
                           env=env, cwd=build.ROOT)
    if p.returncode != 0:
        raise SetupError(f"{what} failed (exit {p.returncode}; log: {shown_path(LOG)})")


def _libfuzzer_merge(fuzzer, into, sources, tmp):
    """libFuzzer -merge=1: the units of `sources` that add coverage to `into` are
    written into `into` (named by their SHA-1)."""
    exe = build.tool(fuzzer, preset="fuzz")
    cmd = [exe, "-merge=1", f"-merge_control_file={tmp / 'merge.ctl'}", "-timeout=10", "-rss_limit_mb=4096",
           into] + list(sources)
    _run_logged(cmd, _env(fuzzer), f"{fuzzer} -merge=1")


def _sha1(p):
    return hashlib.sha1(p.read_bytes()).hexdigest()


def cmd_merge(args):
    sources = [_existing_dir(s, "source") for s in args.sources] if args.sources else []
    into = pathlib.Path(args.into) if args.into else None
    fuzzer = _choose_fuzzer(args.fuzzer, into, *sources)
    if not sources:
        c = campaign_corpus(fuzzer)
        if not c.is_dir():
            raise UsageError(f"no campaign corpus of {fuzzer} at {shown_path(c)}: run `./scnfuzz fuzz` first "
                             f"or name the directories to merge")
        sources = [c.resolve()]
    into = _existing_dir(into or SEEDS / fuzzer, "--into")
    if any(s == into for s in sources):
        raise UsageError(f"{shown_path(into)}: merging a corpus into itself")
    if not math.isfinite(args.max_size) or args.max_size <= 0:
        raise UsageError("--max-size must be a finite positive number of MiB")
    n0, b0 = _size(into)
    cand = sum(count_units(s) for s in sources)
    if not cand:
        print(f"scnfuzz: corpus merge: nothing to merge ({', '.join(shown_path(s) for s in sources)}: no units); "
              f"{shown_path(into)}: {n0} units, {_human(b0)}")
        return 0
    committed = into.is_relative_to(SEEDS.resolve())
    with tempfile.TemporaryDirectory(prefix="scnfuzz-merge-") as t:
        tmp = pathlib.Path(t)
        work = tmp / "into"
        shutil.copytree(into, work)
        _libfuzzer_merge(fuzzer, work, sources, tmp)
        have = _units(into)
        old = {_sha1(p) for p in have.values()}
        added = {n: p for n, p in _units(work).items() if n not in have and _sha1(p) not in old}
        b1 = b0 + sum(p.stat().st_size for p in added.values())
        limit = int(args.max_size * 1024 * 1024)
        if b1 > limit and len(added):
            what = "the committed seed corpus " if committed else ""
            raise UsageError(f"refusing to grow {what}{shown_path(into)} to "
                             f"{_human(b1)} ({n0 + len(added)} units; limit {args.max_size:g} MiB): "
                             f"raise --max-size to allow it")
        for n, p in added.items():
            shutil.copyfile(p, into / n)
    print(f"scnfuzz: corpus merge: {shown_path(into)}: {n0} units, {_human(b0)} -> {n0 + len(added)} units, "
          f"{_human(b1)} ({len(added)} of {cand} candidate units add coverage)"
          + f"; limit {args.max_size:g} MiB")
    return 0


def cmd_minimize(args):
    src = _existing_dir(args.dir, "corpus")
    fuzzer = _choose_fuzzer(args.fuzzer, src)
    out = pathlib.Path(args.out).resolve() if args.out else None
    if out is not None and out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"--out {out}: exists and is not an empty directory")
    units = _units(src)
    if not units:
        raise UsageError(f"corpus {shown_path(src)}: no units to minimize")
    n0, b0 = _size(src)
    with tempfile.TemporaryDirectory(prefix="scnfuzz-cmin-") as t:
        tmp = pathlib.Path(t)
        res = tmp / "min"
        if args.engine == "afl":
            exe = build.afl_tool(fuzzer)
            env = dict(_env(fuzzer), AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1", AFL_ALLOW_TMP="1")
            _run_logged(["afl-cmin", "-i", src, "-o", res, "--", exe], env, f"afl-cmin of {fuzzer}")
            kept = set(_units(res)) & set(units)
        else:
            res.mkdir()
            _libfuzzer_merge(fuzzer, res, [src], tmp)
            hashes = {_sha1(p) for p in _units(res).values()}
            kept = {n for n, p in units.items() if _sha1(p) in hashes}
            hashes -= {_sha1(units[n]) for n in kept}
            if hashes:  # not one of the units (cannot happen: libFuzzer names units by their SHA-1)
                raise SetupError(f"libFuzzer's merge result is not a subset of {shown_path(src)}")
        if not kept:
            raise SetupError(f"minimizing {shown_path(src)} kept no unit (log: {shown_path(LOG)})")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for n in kept:
                shutil.copyfile(units[n], out / n)
        else:
            for n, p in units.items():
                if n not in kept:
                    p.unlink()
    dst = out or src
    n1, b1 = _size(dst)
    print(f"scnfuzz: corpus minimize ({args.engine}): {shown_path(src)}: {n0} units, {_human(b0)} -> "
          f"{shown_path(dst)}: {n1} units, {_human(b1)}")
    return 0


def add_parser(sub, epilog):
    p = sub.add_parser("corpus", help="merge a campaign's corpus into the seeds; minimize a corpus",
                       description="Keep the fuzzers' corpora small and coverage-complete: `merge` folds "
                       "corpora (default: the fuzzer's campaign corpus) into the committed seeds "
                       "corpus/fuzz/<fuzzer>/ (only the units that add coverage, libFuzzer -merge=1); "
                       "`minimize` rewrites a corpus to a coverage-minimal subset.", epilog=epilog)
    cs = p.add_subparsers(dest="corpus_cmd", metavar="ACTION", parser_class=type(p))
    m = cs.add_parser("merge", help="add the units of SRC... that add coverage to a corpus (default: the seeds)",
                      description="Adds to --into (default: the committed seeds corpus/fuzz/<fuzzer>/) the "
                      "units of the SRC directories (default: build/fuzz/campaign-corpus/<fuzzer>, the "
                      "campaign corpus) that add coverage (libFuzzer -merge=1). Prints the sizes before "
                      "and after; refuses to grow --into beyond --max-size.", epilog=epilog)
    m.add_argument("sources", nargs="*", metavar="SRC", help="corpus directories to fold in")
    m.add_argument("--fuzzer", metavar="NAME", help=f"the fuzzer whose coverage counts ({', '.join(FUZZER_TARGETS)}; "
                   "default: from the directory names)")
    m.add_argument("--into", metavar="DIR", help="the corpus to add to (default: corpus/fuzz/<fuzzer>/)")
    m.add_argument("--max-size", type=float, default=DEFAULT_MAX_MIB, metavar="MIB",
                   help=f"refuse to grow --into beyond this many MiB of unit contents (default "
                        f"{DEFAULT_MAX_MIB:g}: the committed seeds stay small)")
    n = cs.add_parser("minimize", help="rewrite a corpus to a coverage-minimal subset",
                      description="Rewrites DIR (or writes into --out) to the subset of its units that "
                      "keeps all their coverage: libFuzzer -merge=1 into an empty directory, or afl-cmin "
                      "with --engine afl. Kept units keep their names.", epilog=epilog)
    n.add_argument("dir", metavar="DIR")
    n.add_argument("--fuzzer", metavar="NAME", help="the fuzzer whose coverage counts (default: DIR's name)")
    n.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer")
    n.add_argument("--out", metavar="OUT", help="write the minimal set into OUT (new or empty) and leave DIR")
    return p


def main(args):
    action = {"merge": cmd_merge, "minimize": cmd_minimize}.get(args.corpus_cmd)
    if action:
        try:
            return action(args)
        except UsageError as e:
            raise UsageError(f"scnfuzz corpus {args.corpus_cmd}: {e}") from None
    raise UsageError("scnfuzz corpus: missing ACTION: merge or minimize (see `scnfuzz corpus --help`)")
