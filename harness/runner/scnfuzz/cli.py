"""The scnfuzz command line. Exit status: 0 no bug root cause (or none new
relative to --baseline), 1 a (new) bug root cause, 2 usage or set-up error
(one line on stderr)."""
import argparse
import os
import subprocess
import sys

from . import build, casetext, fuzzers
from .errors import ScnError, UsageError

DESCRIPTION = """scnfuzz: conformance + differential fuzzing of snprintf/vsnprintf and
Linux-style scnprintf/vscnprintf. Builds what it needs through the CMake presets
(build/default, build/fuzz) on first use. Reports go to reports/<UTC stamp>-<kind>/
(reports/latest points at the last one); see reports/README.md."""

EPILOG = """exit status: 0 no bug root cause beyond the allowances and known bugs
(with --baseline: none new), 1 a (new) bug root cause, 2 usage or set-up error."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def _add_out(p):
    p.add_argument("--out", metavar="DIR",
                   help="write the run into DIR (created; an existing run directory gets this run added "
                        "to it) instead of reports/<UTC stamp>-<kind>/")


def _add_baseline(p):
    p.add_argument("--baseline", metavar="OLD_DIR",
                   help="compare the root causes with those of an earlier run directory: new, still present, "
                        "fixed; only a new bug root cause makes the exit status 1")


def make_parser():
    top = Parser(prog="scnfuzz", description=DESCRIPTION, epilog=EPILOG,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)

    sub.add_parser("targets", help="list the targets: name, version, dialect, native or wrapped "
                   "scnprintf, in-process or executor",
                   description="List the targets compiled into the tools: name, version, dialect, "
                   "native or wrapped scnprintf family, in-process or executor.")

    p = sub.add_parser("conform", help="run the conformance suite (corpus/*.tsv) and write the report",
                       description="Every case of corpus/*.tsv on the targets, every buffer size, both "
                       "families (scn-conform); writes report.json/.md/.html and junit.xml.",
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
    g.add_argument("--planted", metavar="BUG", help="fuzz a planted bug beside the reference "
                   "(ret-would-be, ret-size, nul-at-0, no-nul-exact, overrun-1, float-round, "
                        "round-prec17, alt-octal-zero, exp-carry, hh-trunc, miscount-4096, none)")
    g.add_argument("--fuzzer", metavar="NAME", help="run this fuzzer of build/fuzz ("
                   f"{', '.join(fuzzers.NAMES)}: harness/fuzz/fuzzers.tsv)")
    g.add_argument("--libc-cc", metavar="DRIVER", help="fuzz an executor built with this libc's "
                   "compiler driver against the reference")
    p.add_argument("--name", help="the --libc-cc target's name (default: from the driver)")
    p.add_argument("--dialect", choices=["iso", "kernel"], help="kernel: compare ref-kernel and kernel")
    p.add_argument("--time", type=float, default=60.0, metavar="S", help="seconds (default 60)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="parallel fuzzer processes (default 1)")
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
                       "and bytes side by side, oracle findings and the differential verdict.",
                       epilog=EPILOG)
    p.add_argument("case", metavar="CASE-OR-FILE")
    p.add_argument("--target", action="append", metavar="T", help="only these targets (repeatable)")
    p.add_argument("--dialect", choices=["iso", "kernel"],
                   help="dialect of the case (default: kernel when every --target is a kernel one, else iso)")
    p.add_argument("--fuzzer", metavar="NAME", help="decode/check a raw input like this fuzzer "
                   "(ref, iso_diff, kernel_diff, planted)")

    p = sub.add_parser("report", help="(re)build a run's report from its raw findings",
                       description="Rebuilds report.json/.md/.html and junit.xml of a run directory from "
                       "its findings.jsonl and run.json (also after a killed run).", epilog=EPILOG)
    p.add_argument("dir", metavar="DIR")
    _add_baseline(p)

    from . import corpus
    corpus.add_parser(sub, EPILOG)

    sub.add_parser("certify", add_help=False,
                   help="certify a vendored printf (scnfuzz certify --help)")
    return top


def cmd_targets(args):
    from . import targets as tg
    ts = tg.list_targets() + tg.executors()
    w = max(len(t["name"]) for t in ts)
    wv = max(len(t["version"]) for t in ts)
    print(f"{'NAME':<{w}}  {'VERSION':<{wv}}  DIALECT  SCNPRINTF  WHERE")
    for t in ts:
        print(f"{t['name']:<{w}}  {t['version']:<{wv}}  {t['dialect']:<7}  {t['scnprintf']:<9}  {t['where']}")
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


def cmd_replay(args):
    text = args.case
    if text.startswith('"'):
        try:
            casetext.Case.parse(text)
        except casetext.CaseSyntaxError as e:
            raise UsageError(f"malformed case: {e}; the form is '\"FORMAT\" TYPE:VALUE ... [@SIZES]' "
                             f"(docs/CASE_FORMAT.md)") from None
    elif not os.path.isfile(text):
        raise UsageError(f"{text!r} is neither a case (it must start with '\"', see docs/CASE_FORMAT.md) "
                         f"nor a file")
    replay = build.tool("scn-replay")
    cmd = [str(replay)]
    dialect = args.dialect
    if not dialect and args.target and all(t in KERNEL for t in args.target):
        dialect = "kernel"
    if dialect:
        cmd += ["--dialect", dialect]
    for t in args.target or []:
        cmd += ["--target", t]
    if args.fuzzer:
        cmd += ["--fuzzer", args.fuzzer]
    cmd.append(text)
    sys.stdout.flush()
    p = subprocess.run(cmd, stdout=sys.stdout, stderr=subprocess.PIPE)
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode == 2:
        last = err.splitlines()[-1] if err else "scn-replay: usage error"
        raise UsageError(last.replace("usage: scn-replay", "usage: scnfuzz replay"))
    if err:
        sys.stderr.write(err + "\n")
    return p.returncode


def cmd_report(args):
    from . import report
    return report.report_command(args)


def cmd_corpus(args):
    from . import corpus
    return corpus.main(args)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["certify"]:  # its own parser (many options of its own)
        from . import certify
        return certify.main(argv[1:])
    parser = make_parser()
    try:
        args = parser.parse_args(argv)
        if not args.cmd:
            parser.print_help(sys.stderr)
            return 2
        return {"targets": cmd_targets, "conform": cmd_conform, "fuzz": cmd_fuzz,
                "replay": cmd_replay, "report": cmd_report, "corpus": cmd_corpus}[args.cmd](args)
    except ScnError as e:
        msg = str(e).replace("\n", " ")
        if not msg.startswith("scnfuzz"):
            msg = "scnfuzz: " + msg
        sys.stderr.write(msg + "\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("scnfuzz: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
