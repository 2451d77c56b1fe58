"""The scnfuzz command line. Exit status: 0 no bug root cause (or none new
relative to --baseline), 1 a (new) bug root cause, 2 usage or set-up error
(one line on stderr), 3 internal error (a bug of scnfuzz: one line, and
SCNFUZZ_DEBUG=1 shows the traceback), 130 interrupted. No traceback reaches
the user: main() turns every exception into one of these."""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import traceback

from . import build, casetext, children, fuzzers
from .errors import InternalError, ScnError, SetupError, UsageError

DESCRIPTION = """scnfuzz: conformance + differential fuzzing of snprintf/vsnprintf and
Linux-style scnprintf/vscnprintf. Builds what it needs through the CMake presets
(build/default, build/fuzz) on first use. Reports go to reports/<UTC stamp>-<kind>/
(reports/latest points at the last one); see reports/README.md."""

EPILOG = """exit status: 0 no bug root cause beyond the allowances and known bugs
(with --baseline: none new), 1 a (new) bug root cause, 2 usage or set-up error,
3 internal error (a bug of scnfuzz)."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def seconds(text):
    """--time: a finite number of seconds in (0, 2**31-1] (the fuzzers take a C
    int: a larger one would silently wrap)."""
    from .campaign import MAX_TIME_S
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid float value: {text!r}") from None
    if not math.isfinite(v) or v <= 0 or v > MAX_TIME_S:
        raise argparse.ArgumentTypeError(f"{text!r}: must be a finite number of seconds in (0, {MAX_TIME_S}]")
    return v


def jobs(text):
    from .campaign import MAX_JOBS
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= v <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"{text!r}: must be between 1 and {MAX_JOBS}")
    return v


def planted(text):
    if text not in fuzzers.PLANTED:
        raise argparse.ArgumentTypeError(f"{text!r}: no such planted bug (one of {', '.join(fuzzers.PLANTED)})")
    return text


def _add_out(p):
    p.add_argument("--out", metavar="DIR",
                   help="write the run into DIR (created; an existing run directory gets this run added "
                        "to it) instead of reports/<UTC stamp>-<kind>/")


def _add_baseline(p):
    p.add_argument("--baseline", metavar="OLD_DIR",
                   help="compare the root causes with those of an earlier run directory: new, still present, "
                        "fixed; only a new bug root cause makes the exit status 1")


# The commands whose parsers live in their own modules: each module is imported
# only when its command runs or the whole help is asked for (importing them
# all is most of a short command's start-up).
OWN_PARSERS = ("corpus", "mutate", "scan", "upstream")


def _own_parser(sub, name, chosen):
    if chosen is None or chosen == name:
        import importlib
        importlib.import_module(f".{name}", __package__).add_parser(sub, EPILOG)
    else:
        sub.add_parser(name)


def make_parser(chosen=None):
    """The whole command line; with `chosen`, the command this run parses
    (its parser whole; the other commands of OWN_PARSERS named only)."""
    top = Parser(prog="scnfuzz", description=DESCRIPTION, epilog=EPILOG,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)

    sub.add_parser("targets", help="list the targets: name, version, dialect, native or wrapped "
                   "scnprintf, in-process or executor",
                   description="List the targets compiled into the tools: name, version, dialect, "
                   "native or wrapped scnprintf family, in-process or executor.")

    p = sub.add_parser("oracles", help="list the oracles: name, class, stage, promise, what each checks",
                       description="List the oracle registry (oracles/oracles.def), the one list the C "
                       "tools and this command read: each oracle a finding record can name.")
    p.add_argument("--json", action="store_true", help="one JSON object per oracle")

    p = sub.add_parser("conform", help="run the conformance suite (corpus/*.tsv) and write the report",
                       description="Every case of corpus/*.tsv on the targets, every buffer size, both "
                       "families (scn-conform); writes report.json/.md/.html, report.sarif, report.tap and junit.xml.",
                       epilog=EPILOG)
    p.add_argument("--target", action="append", metavar="T", help="a target (repeatable; default: all built)")
    p.add_argument("--dialect", choices=["iso", "kernel"], help="only the targets of this dialect")
    p.add_argument("--corpus", action="append", metavar="FILE.tsv",
                   help="run these corpus files (repeatable; default: corpus/*.tsv)")
    p.add_argument("--libc-cc", metavar="DRIVER", help="build the executor with this libc's compiler "
                   "driver (e.g. \"musl-gcc\", \"diet gcc\", klcc) and run the suite against it")
    p.add_argument("--name", help="the --libc-cc target's name (default: from the driver)")
    _add_out(p)
    _add_baseline(p)

    p = sub.add_parser("fuzz", help="time-bounded differential fuzzing campaign",
                       description="A time-bounded differential campaign with the fuzzers of build/fuzz "
                       "(campaign mode: each finding signature recorded once, the run goes on). "
                       "Ctrl-C/SIGTERM stops the fuzzers and still writes the report.", epilog=EPILOG)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--targets", metavar="A,B,..",
                   help="targets to compare: ref,glibc,musl (ISO, default) or ref-kernel,kernel; "
                        "ref alone: the reference vs the oracles")
    g.add_argument("--planted", metavar="BUG", type=planted, help="fuzz a planted bug beside the reference "
                   f"({', '.join(fuzzers.PLANTED)}: fuzz/planted.c, fuzz/planted_kernel.c)")
    g.add_argument("--fuzzer", metavar="NAME", help="run this fuzzer of build/fuzz ("
                   f"{', '.join(fuzzers.NAMES)}: fuzz/fuzzers.tsv; the fuzz_ prefix is optional)")
    g.add_argument("--libc-cc", metavar="DRIVER", help="fuzz an executor built with this libc's "
                   "compiler driver against the reference")
    p.add_argument("--name", help="the --libc-cc target's name (default: from the driver)")
    p.add_argument("--dialect", choices=["iso", "kernel"], help="kernel: compare ref-kernel and kernel")
    p.add_argument("--time", type=seconds, default=60.0, metavar="S",
                   help="seconds, finite, at most 2147483647 (default 60)")
    p.add_argument("--jobs", type=jobs, default=1, metavar="N", help="parallel fuzzer processes, 1-256 (default 1)")
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer")
    p.add_argument("--corpus", metavar="DIR", help="the campaign corpus: where the workers share and keep "
                   "their units (default: build/fuzz/campaign-corpus/<fuzzer>, kept between campaigns, "
                   "so the next one resumes from it)")
    p.add_argument("--fresh", action="store_true", help="start from the seeds only: the campaign corpus's "
                   "previous units are moved to <corpus>.prev first")
    _add_out(p)
    _add_baseline(p)

    p = sub.add_parser("replay", help="one case (or a file of cases / a fuzzer input): every target's "
                       "bytes side by side",
                       description="Replays one case (docs/CASE_FORMAT.md text form), a file of case "
                       "lines or a raw fuzzer input through scn-replay: every target's return value "
                       "and bytes side by side, oracle findings and the differential verdict. Each case "
                       "runs in a child process with a time limit (env SCN_REPLAY_TIMEOUT, default 30 s) "
                       "and a memory limit (env SCN_CHILD_MEM_MB, default 1024 MiB): a case that crashes "
                       "or hangs a target is one line naming the case, the target and how it died, and "
                       "a finding (exit 1).",
                       epilog=EPILOG)
    p.add_argument("case", metavar="CASE-OR-FILE")
    p.add_argument("--target", action="append", metavar="T", help="only these targets (repeatable)")
    p.add_argument("--dialect", choices=["iso", "kernel"],
                   help="dialect of the case (default: kernel when every --target is a kernel one, else iso)")
    p.add_argument("--fuzzer", metavar="NAME", help="decode/check a raw input like this fuzzer "
                   f"({', '.join(fuzzers.CONFIGS)}, or a fuzzer's name: {', '.join(fuzzers.NAMES)})")

    p = sub.add_parser("report", help="(re)build a run's report from its raw findings",
                       description="Rebuilds report.json/.md/.html, report.sarif, report.tap and junit.xml of a run directory from "
                       "its findings.jsonl and run.json (also after a killed run).", epilog=EPILOG)
    p.add_argument("dir", metavar="DIR")
    _add_baseline(p)

    _own_parser(sub, "corpus", chosen)

    p = sub.add_parser("matrix", help="every printf and libc of the matrix: conformance, a campaign and a "
                       "certification each, one report (implementations x promises)",
                       description="For every implementation of the matrix that is built (`scnfuzz targets`: "
                       "glibc, musl, the kernel, the vendored printfs, and the dietlibc/klibc executors), the "
                       "conformance suite, a time-boxed differential campaign against the reference (fuzz_matrix; "
                       "executors: fuzz --libc-cc) and, for a vendored printf, `scnfuzz certify --target NAME`, "
                       "each a run of its own in RUN/impl/<name>/, then one report whose first table is "
                       "implementations x promises (docs/MATRIX.md). Ctrl-C/SIGTERM stops the running "
                       "implementations and still writes the report.", epilog=EPILOG)
    p.add_argument("--time", type=seconds, default=60.0, metavar="S",
                   help="seconds of campaign per implementation (default 60)")
    p.add_argument("--jobs", type=jobs, default=1, metavar="N", help="implementations run at once (default 1)")
    p.add_argument("--only", metavar="A,B,..", help="only these implementations")
    p.add_argument("--fresh", action="store_true", help="start each campaign from the seeds (its campaign "
                   "corpus, build/fuzz/campaign-corpus/fuzz_matrix-<name>, is kept between runs otherwise)")
    p.add_argument("--markdown", metavar="FILE", help="also write the matrix as FILE (docs/MATRIX.md), with "
                   "the command and date that made it")
    p.add_argument("--from", dest="from_run", metavar="RUN_DIR", help="run nothing: print (and with "
                   "--markdown write) the matrix of an earlier `scnfuzz matrix` run")
    _add_out(p)

    _own_parser(sub, "mutate", chosen)
    _own_parser(sub, "scan", chosen)
    _own_parser(sub, "upstream", chosen)

    sub.add_parser("certify", add_help=False,
                   help="certify a vendored printf (scnfuzz certify --help)")
    return top


def cmd_targets(args):
    from . import targets as tg
    ts = tg.list_targets() + tg.executors()
    w = max(len(t["name"]) for t in ts)
    wv = max(len(t["version"]) for t in ts)
    print(f"{'NAME':<{w}}  {'VERSION':<{wv}}  DIALECT  GROUP   API        SCNPRINTF  WHERE")
    for t in ts:
        print(f"{t['name']:<{w}}  {t['version']:<{wv}}  {t['dialect']:<7}  {t.get('group', 'core'):<6}  "
              f"{t.get('api', 'c99'):<9}  {t['scnprintf']:<9}  {t['where']}")
    return 0


def cmd_oracles(args):
    from . import oracle_registry
    os_ = list(oracle_registry.oracles().values())
    if args.json:
        for o in os_:
            print(json.dumps(dict(zip(("name", "class", "stage", "promise", "doc"), o))))
        return 0
    w = max(len(o.name) for o in os_)
    print(f"{'NAME':<{w}}  {'CLASS':<13}  {'STAGE':<12}  {'PROMISE':<10}  CHECKS")
    for o in os_:
        print(f"{o.name:<{w}}  {o.klass:<13}  {o.stage:<12}  {o.promise:<10}  {o.doc}")
    return 0


def cmd_conform(args):
    from . import conform, report
    report.check_baseline(args.baseline)
    if args.libc_cc:
        from . import anylibc
        run = anylibc.run_conform_libc(args)
    else:
        run = conform.run_conform(args)
    rep = report.build_report(run, baseline=args.baseline)
    report.print_summary(rep, run.path)
    return report.exit_code(rep)


def cmd_fuzz(args):
    from . import campaign, report
    report.check_baseline(args.baseline)
    if args.libc_cc:
        from . import anylibc
        run, _ = anylibc.run_fuzz_libc(args)
    else:
        run, _ = campaign.run_fuzz(args)
    rep = report.build_report(run, baseline=args.baseline)
    report.print_summary(rep, run.path)
    return report.exit_code(rep)


KERNEL = {"ref-kernel", "kernel"}


REPLAY_CASE_S = 30  # scn-replay's time limit per case (SCN_REPLAY_TIMEOUT), default


def _cases_in(path):
    """How many cases scn-replay will run from a file (case or finding lines,
    or one raw fuzzer input), for its time limit; as scn-replay, the first
    MiB only."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    if data[:1] not in (b'"', b"#", b"{"):
        return 1
    return sum(1 for l in data.split(b"\n") if l.strip() and not l.startswith(b"#"))


_ALLOC_FAILED = re.compile(r"^==\d+==WARNING: AddressSanitizer failed to allocate 0x([0-9a-f]+) bytes$", re.M)


def _note_memory_limit(err):
    """A sanitizer build's refused allocations (the memory limit, children.py)
    as one note instead of a warning per call: a target's -1 on such a case
    may be that refusal (printf reports a failed allocation as an error)."""
    sizes = [int(x, 16) for x in _ALLOC_FAILED.findall(err)]
    if not sizes:
        return err
    rest = "\n".join(l for l in err.splitlines() if not _ALLOC_FAILED.match(l)).strip()
    note = (f"scnfuzz: note: the memory limit ({children.mem_mb()} MiB, SCN_CHILD_MEM_MB) refused "
            f"{len(sizes)} allocation(s) of up to {max(sizes) >> 20} MiB: a -1 return on this case may be that")
    return (rest + "\n" + note).strip()


def cmd_replay(args):
    text = args.case
    fuzzer = fuzzers.replay_config(args.fuzzer) if args.fuzzer else None
    if text.startswith('"'):
        try:
            casetext.check(text)  # the C parser's verdict (scn_case_parse)
        except casetext.CaseSyntaxError as e:
            raise UsageError(f"malformed case: {e}; the form is '\"FORMAT\" TYPE:VALUE ... [@SIZES]' "
                             f"(docs/CASE_FORMAT.md)") from None
        ncases = 1
    elif not os.path.isfile(text):
        raise UsageError(f"{text!r} is neither a case (it must start with '\"', see docs/CASE_FORMAT.md) "
                         f"nor a file")
    else:
        ncases = _cases_in(text)
    replay = build.tool("scn-replay")
    cmd = [str(replay)]
    dialect = args.dialect
    if not dialect and args.target and all(t in KERNEL for t in args.target):
        dialect = "kernel"
    if dialect:
        cmd += ["--dialect", dialect]
    for t in args.target or []:
        cmd += ["--target", t]
    if fuzzer:
        cmd += ["--fuzzer", fuzzer]
    cmd.append(text)
    env = dict(os.environ)
    env.setdefault("SCN_REPLAY_TIMEOUT", str(REPLAY_CASE_S))
    try:
        per_case = float(env["SCN_REPLAY_TIMEOUT"])
    except ValueError:
        per_case = REPLAY_CASE_S  # (scn-replay refuses it with a one-line error)
    # a backstop only: scn-replay bounds each case itself; a dying case costs a run
    # of each target alone and a reduction of at most 20 s
    timeout = 60 + ncases * (8 * per_case + 30)
    sys.stdout.flush()
    p = children.popen(cmd, env=env, stdout=sys.stdout, stderr=subprocess.PIPE)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        children.kill_group(p)
        p.communicate()
        raise SetupError(f"replay: scn-replay did not end within {timeout:g} s for {ncases} case(s) "
                         f"(SCN_REPLAY_TIMEOUT={per_case:g} s per case); killed") from None
    except BaseException:
        children.kill_group(p)
        p.wait()
        raise
    err = err.decode("utf-8", "replace").strip()
    if p.returncode == 2:
        last = err.splitlines()[-1] if err else "scn-replay: usage error"
        raise UsageError(last.replace("usage: scn-replay", "usage: scnfuzz replay"))
    err = _note_memory_limit(err)
    if err:
        sys.stderr.write(err + "\n")
    if p.returncode not in (0, 1):
        # each case runs in a child of scn-replay: scn-replay itself dying is not a finding
        raise InternalError(f"scn-replay {children.describe_status(p.returncode)} outside a case "
                            f"(the cases that crash are findings; this is not)")
    return p.returncode


def cmd_report(args):
    from . import report
    return report.report_command(args)


def cmd_corpus(args):
    from . import corpus
    return corpus.main(args)


def cmd_matrix(args):
    from . import matrix
    return matrix.main(args)


def cmd_mutate(args):
    from . import mutate
    return mutate.main(args)


def cmd_scan(args):
    from . import scan
    return scan.main(args)


def cmd_upstream(args):
    from . import upstream
    return upstream.main(args)


def _main(argv):
    if argv[:1] == ["certify"]:  # its own parser (many options of its own)
        from . import certify
        return certify.main(argv[1:])
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = make_parser(first if first and first != "help" else None)
    args = parser.parse_args(argv)
    if not args.cmd:
        parser.print_help(sys.stderr)
        return 2
    return {"targets": cmd_targets, "oracles": cmd_oracles, "conform": cmd_conform, "fuzz": cmd_fuzz,
            "replay": cmd_replay, "report": cmd_report, "corpus": cmd_corpus,
            "matrix": cmd_matrix, "mutate": cmd_mutate, "scan": cmd_scan,
            "upstream": cmd_upstream}[args.cmd](args)


def _say(msg):
    msg = " ".join(str(msg).split("\n"))
    if not msg.startswith("scnfuzz"):
        msg = "scnfuzz: " + msg
    try:
        sys.stderr.write(msg + "\n")
        sys.stderr.flush()
    except OSError:
        pass


def main(argv=None):
    """Every way a command ends is an exit status and at most one line:
    usage and set-up errors (ScnError, and the OSErrors of the system: a full
    disk, a missing file, no permission) 2, internal errors 3."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        return _main(argv)
    except ScnError as e:
        _say(e)
        return 2
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except BrokenPipeError:
        # the reader of our output went away (| head): quietly, as a shell pipeline would
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 141
    except MemoryError:
        _say("out of memory (raise the limit, or give a smaller --time / corpus)")
        return 2
    except OSError as e:
        name = f"{e.filename}: " if e.filename else ""
        _say(f"{name}{e.strerror or e} (a set-up problem: disk space, permissions, a missing file)")
        return 2
    except InternalError as e:
        _say(f"internal error: {e}; please report it with the command line")
        return 3
    except Exception as e:  # a bug of scnfuzz: one line, the traceback on request
        if os.environ.get("SCNFUZZ_DEBUG"):
            traceback.print_exc()
        where = traceback.extract_tb(e.__traceback__)[-1]
        _say(f"internal error: {type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno}); "
             f"this is a bug of scnfuzz: rerun with SCNFUZZ_DEBUG=1 for the traceback and report it")
        return 3
