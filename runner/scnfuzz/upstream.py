"""`scnfuzz upstream`: what a maintainer can act on, for the bug rows of
oracles/known_bugs.tsv.

  scnfuzz upstream ROW [--out DIR] [--target NAME]
      the report text of one row (Markdown on stdout, or DIR/report.md with
      DIR/reproducer.c beside it): implementation and version, the standard's
      words, the standalone reproducer (programs/scn_reproducer.c: standard C
      and POSIX headers only, the implementation's real entry point, exit 1
      while the bug is there, a crash or a hang of the call included) with its
      one-line build command (with -fsanitize for a crash row), expected vs actual (the
      reproducer compiled and run here when its build works on this machine,
      else scn-replay's outputs of the in-process target), and the cause and
      proposed fix of the row's draft (docs/upstream/ROW.md) where one is
      written.
  scnfuzz upstream --list [--markdown FILE]
      every bug row (gaps are features a target lacks, not bugs) with its
      state: reported (the link the row cites), fixed upstream (the row says
      in which version), draft ready (docs/upstream/ROW.md), or not reported.
      --markdown FILE writes docs/UPSTREAM.md.

The rows are parsed here only for their columns; the case text goes to the C
programs untouched (the runner parses no case text)."""
import dataclasses
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from . import build
from .errors import SetupError, UsageError
from .tree import ROOT

KNOWN_BUGS = ROOT / "oracles" / "known_bugs.tsv"
DRAFTS = ROOT / "docs" / "upstream"


@dataclasses.dataclass
class Row:
    id: str
    kind: str
    dialect: str
    pattern: str
    targets: list
    versions: str
    reproducer: str
    signature: str
    citation: str
    notes: str  # the comment block above the row: what the targets print


@dataclasses.dataclass
class Impl:
    """An implementation's real entry point and how a maintainer builds the
    reproducer against it. obj: the object scnfuzz's build makes from the
    fetched source (its exports renamed), relative to the build directory."""
    entry: str
    build: str
    tools: tuple = ("cc",)  # what the build command needs on this machine
    family: str = None
    int_size: bool = False
    report_to: str = ""
    obj: str = None
    here: str = None  # the build line on this machine, where the maintainer's needs their tree


RUN = " && ./reproducer"
ASAN_LINK = "cc -fsanitize=address,undefined -o reproducer reproducer.c"
LTOOLS_CC = "cc -include stdarg.h -o reproducer reproducer.c "
IMPLS = {
    "glibc": Impl("vsnprintf", "cc -o reproducer reproducer.c" + RUN,
                  report_to="https://sourceware.org/bugzilla/ (product glibc, component stdio)"),
    "musl": Impl("vsnprintf", "musl-gcc -static -o reproducer reproducer.c" + RUN, tools=("musl-gcc",),
                 report_to="musl@lists.openwall.com (https://www.musl-libc.org/support.html)",
                 obj="core/targets/musl/scn_musl.o"),
    # tools/lib/vsprintf.c calls va_start but includes no <stdarg.h>: it has it from
    # tools/include/linux/kernel.h only, and where -Itools/include finds no such file
    # (a tree of the file alone, as the build extracts it) the system's uapi
    # <linux/kernel.h> stands in, without it: va_start undeclared. -include stdarg.h
    # makes the line build in either tree.
    "linux-tools": Impl("vscnprintf", LTOOLS_CC + "tools/lib/vsprintf.c -Itools/include" + RUN
                        + "   # in the linux-source-6.1 tree",
                        report_to="linux-kernel@vger.kernel.org, Cc the tools/lib maintainers "
                        "(scripts/get_maintainer.pl tools/lib/vsprintf.c)",
                        # the build extracts only tools/lib/vsprintf.c: the header it compiles it with
                        here=LTOOLS_CC + "BUILD/core/targets/linux-tools/ltsrc/linux-source-6.1/tools/lib/vsprintf.c "
                        "-IROOT/core/targets/linux-tools/shim" + RUN),
    "dietlibc": Impl("vsnprintf", "diet gcc -o reproducer reproducer.c" + RUN, tools=("diet",),
                     report_to="dietlibc mailing list (https://www.fefe.de/dietlibc/)"),
    "klibc": Impl("vsnprintf", "klcc -o reproducer reproducer.c" + RUN, tools=("klcc",),
                  report_to="klibc@zytor.com"),
    "curl": Impl("curl_mvsnprintf", "cc -o reproducer reproducer.c -lcurl" + RUN,
                 report_to="https://github.com/curl/curl/issues"),
    "apr": Impl("apr_vsnprintf", "cc -o reproducer reproducer.c $(pkg-config --cflags --libs apr-1)" + RUN,
                report_to="https://bz.apache.org/bugzilla/ (product APR)"),
    "sqlite": Impl("sqlite3_vsnprintf", "cc -o reproducer reproducer.c -lsqlite3" + RUN, family="pointer",
                   report_to="https://sqlite.org/forum/"),
    "pgport": Impl("pg_vsnprintf", "cc -o reproducer reproducer.c /usr/lib/postgresql/15/lib/libpgport.a "
                   "/usr/lib/postgresql/15/lib/libpgcommon.a" + RUN,
                   report_to="pgsql-bugs@lists.postgresql.org"),
    "trio": Impl("trio_vsnprintf", "cc -o reproducer reproducer.c -ltrio -lm" + RUN,
                 report_to="https://sourceforge.net/projects/ctrio/ (trio)"),
    "stb": Impl("stbsp_vsnprintf", "printf '#define STB_SPRINTF_IMPLEMENTATION\\n#include <stb/stb_sprintf.h>\\n'"
                " > stb.c && cc -o reproducer reproducer.c stb.c" + RUN, int_size=True,
                report_to="https://github.com/nothings/stb/issues"),
    "picolibc": Impl("picolibc_vsnprintf", ASAN_LINK + " BUILD/core/targets/picolibc/scn_picolibc.o" + RUN,
                     report_to="https://github.com/picolibc/picolibc/issues",
                     obj="core/targets/picolibc/scn_picolibc.o"),
    "newlib": Impl("newlib_vsnprintf", ASAN_LINK + " BUILD/core/targets/newlib/scn_newlib.o" + RUN,
                   report_to="newlib@sourceware.org", obj="core/targets/newlib/scn_newlib.o"),
    "uclibc": Impl("uclibc_vsnprintf", ASAN_LINK + " BUILD/core/targets/uclibc/scn_uclibc.o" + RUN,
                   report_to="devel@uclibc-ng.org", obj="core/targets/uclibc/scn_uclibc.o"),
}
# the fetched source's object, for a libc a maintainer reaches through its compiler driver
FROM_SOURCE_NOTE = ("BUILD is scnfuzz's build directory (`cmake --preset asan -B BUILD`), whose object is "
                    "the implementation's printf compiled from the fetched source package, its exports "
                    "renamed (ENTRY); -fsanitize: the asan preset's object needs the sanitizer runtimes")


def read_rows(path=KNOWN_BUGS):
    rows, notes = [], []
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            notes.append(line[1:].strip())
            continue
        if not line.strip():  # a row's notes are the comment lines just above it
            notes = []
            continue
        f = line.split("\t")
        if len(f) < 9:
            raise SetupError(f"{path}: a row of {len(f)} columns: {line[:60]}")
        rows.append(Row(f[0], f[1], f[2], f[3], f[4].split(","), f[5], f[6], f[7], f[8],
                        "\n".join(n for n in notes if not n.startswith("id\t"))))
        notes = []
    return rows


def bug_rows(path=KNOWN_BUGS):
    return [r for r in read_rows(path) if r.kind == "bug"]


def find_row(name, path=KNOWN_BUGS):
    rows = read_rows(path)
    for r in rows:
        if r.id == name:
            return r
    close = [r.id for r in rows if name in r.id][:5]
    hint = f" (close: {', '.join(close)})" if close else ""
    raise UsageError(f"upstream: no row '{name}' in oracles/known_bugs.tsv{hint}")


URL = re.compile(r"https?://[^\s;,)]+")


def state(row):
    """(state word, detail): reported / fixed upstream / draft ready / not reported."""
    fixed = re.search(r"[Ff]ixed upstream in ([^.;]+)", row.citation)
    if fixed:
        return "fixed upstream", fixed.group(1).strip()
    links = URL.findall(row.citation)
    if links:
        return "reported", " ".join(links)
    if (DRAFTS / f"{row.id}.md").is_file():
        return "draft ready", f"docs/upstream/{row.id}.md"
    return "not reported", f"./scnfuzz upstream {row.id}"


def row_case(row):
    """The row's reproducer, with the buffer size its pattern names (size=N)
    when the case has none: the size-0 bugs show only at size 0."""
    case = row.reproducer
    m = re.search(r"(?:^|&)size=(\d+)", row.pattern)
    if m and not re.search(r'\s@[\d,]+$', case):
        case += f" @{m.group(1)}"
    elif row.signature.startswith("n-consistent:") and not re.search(r'\s@[\d,]+$', case):
        case += " @1"  # %n against the output cut short: one buffer that holds it all shows no difference
    return case


def build_dir():
    d = os.environ.get("SCN_BUILD_DIR")
    return pathlib.Path(d) if d else ROOT / "build" / "default"


SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all"
SANITIZE_NOTE = ("-fsanitize: scnfuzz saw this bug as a crash or a sanitizer's report (undefined behaviour, "
                 "an access outside an object); built so, the reproducer names the fault and its line, and "
                 "each size's call runs in a child whose death counts as the bug (exit 1)")


def crash_row(row):
    return row.signature.split(":", 1)[0] == "crash"


def build_lines(row, target):
    """The build line a maintainer runs, and this machine's (None: the same).
    A crash row's compiler lines build with the sanitizers that saw the crash:
    without them undefined behaviour can pass unseen (stb's INT_MIN negation)."""
    impl = IMPLS.get(target)
    if not impl:
        return "cc -o reproducer reproducer.c <the implementation's library>" + RUN, None
    if not crash_row(row):
        return impl.build, impl.here

    def sanitized(line):
        return line if "-fsanitize" in line else re.sub(r"(?<![\w-])cc -o reproducer", f"cc {SANITIZE} -o reproducer",
                                                         line, count=1)
    return sanitized(impl.build), impl.here and sanitized(impl.here)


def reproducer_source(row, target):
    """The standalone C program (scn-reproducer's output), its build line
    and this machine's (None: the same)."""
    impl = IMPLS.get(target)
    cmd = [str(build.tool("scn-reproducer")), "--target", target,
           "--title", f"{row.id} ({target}), scnfuzz oracles/known_bugs.tsv", "--version", row.versions]
    line, here = build_lines(row, target)
    if impl:
        cmd += ["--entry", impl.entry]
        if impl.family:
            cmd += ["--family", impl.family]
        if impl.int_size:
            cmd.append("--int-size")
    cmd += ["--build", line, row_case(row)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise SetupError(f"scn-reproducer: {p.stderr.strip() or 'failed'}")
    return p.stdout, line, here


def run_reproducer(source, line, workdir, here=None):
    """Compiles and runs a reproducer by its build line in workdir. Returns
    (ran, exit status, output); ran is False when this machine lacks what
    the line needs (a tool, the source tree, the build's object)."""
    workdir = pathlib.Path(workdir)
    (workdir / "reproducer.c").write_text(source, encoding="utf-8")
    line = (here or line).split("   #", 1)[0].replace("BUILD/", str(build_dir()) + "/")
    line = line.replace("ROOT/", str(ROOT) + "/")
    tool = line.split()[0] if not line.startswith("printf") else "cc"
    if not shutil.which(tool):
        return False, None, f"{tool} is not installed here"
    absent = [w for w in line.split() if w.startswith(str(build_dir()) + "/") and not pathlib.Path(w).exists()]
    if absent:  # a target the build leaves out (its source fetched or unpacked at configure time)
        return False, None, f"the build has no {absent[0]}"
    compile_part, _, _ = line.rpartition(RUN)
    c = subprocess.run(["sh", "-c", compile_part], cwd=workdir, capture_output=True, text=True)
    if c.returncode:
        return False, None, (c.stderr or c.stdout).strip()[-400:]
    # each size's call is bounded in the reproducer itself (a child with an alarm of 5 s,
    # reported as the bug): this bounds the program, of up to 16 sizes
    r = subprocess.run(["./reproducer"], cwd=workdir, capture_output=True, text=True, timeout=300)
    # a sanitizer's report (the asan objects' builds) is on stderr: what the reproducer saw too
    return True, r.returncode, r.stdout + (r.stderr and "\n" + r.stderr)


def replay_outputs(row, target):
    exe = build.tool("scn-replay")
    p = subprocess.run([str(exe), "--target", "ref-kernel" if row.dialect == "kernel" else "ref",
                        "--target", target, row_case(row)], capture_output=True, text=True)
    return "\n".join(ln for ln in p.stdout.splitlines() if ln.startswith("  ") and "ret=" in ln)


def _draft_sections(row):
    p = DRAFTS / f"{row.id}.md"
    if not p.is_file():
        cause = row.citation.split("Cause:", 1)[1].strip() if "Cause:" in row.citation else None
        return (f"## Cause\n\n{cause}\n" if cause else
                "## Cause\n\nNot yet located in the source: no draft (docs/upstream/" + row.id + ".md) written.\n")
    text = p.read_text(encoding="utf-8")
    body = text.split("\n## ", 1)
    return "## " + body[1] if len(body) > 1 else text


def report_text(row, target, source, line, outcome):
    ran, status, out = outcome
    st, detail = state(row)
    impl = IMPLS.get(target)
    words = row.citation.split(" No upstream report found")[0].split(" Cause:")[0]
    lines = [f"# {target}: {row.id}", "",
             f"- Implementation: {target}, {row.versions}",
             f"- Known-bug row: `{row.id}` (scnfuzz oracles/known_bugs.tsv), state: {st} ({detail})",
             f"- Where to report: {impl.report_to if impl else 'the project named in the row'}", "",
             "## What the standard says", "", words, "",
             "## What happens", ""]
    if row.notes:
        lines += ["```", row.notes, "```", ""]
    lines += ["## Reproducer", "", "`reproducer.c` (standard C and POSIX headers only), built and run with:", "",
              "```sh", line, "```", ""]
    if "BUILD/" in line:
        lines += [FROM_SOURCE_NOTE.replace("ENTRY", impl.entry), ""]
    if crash_row(row) and SANITIZE in line:
        lines += [SANITIZE_NOTE, ""]
    lines += ["```c", source.rstrip(), "```", "", "## Expected vs actual", ""]
    if ran:
        lines += [f"Run on this machine (exit status {status}: "
                  f"{'the bug is present' if status == 1 else 'no difference'}):", "", "```", out.rstrip(), "```", ""]
    else:
        lines += [f"(not run here: {out})", "", "The in-process target's outputs (scn-replay):", "",
                  "```", replay_outputs(row, target) or "(no output)", "```", ""]
    lines.append(_draft_sections(row).rstrip())
    return "\n".join(lines) + "\n"


def one(args):
    row = find_row(args.row)
    if row.kind != "bug":
        raise UsageError(f"upstream: '{row.id}' is a gap (a feature the target lacks), not a bug")
    target = args.target or row.targets[0]
    if target not in row.targets:
        raise UsageError(f"upstream: '{row.id}' lists {', '.join(row.targets)}, not {target}")
    source, line, here = reproducer_source(row, target)
    with tempfile.TemporaryDirectory(prefix="scn-upstream-") as tmp:
        outcome = (run_reproducer(source, line, tmp, here) if target in IMPLS else
                   (False, None, f"scnfuzz has no build line for {target}'s library"))
    text = report_text(row, target, source, line, outcome)
    if args.out:
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "reproducer.c").write_text(source, encoding="utf-8")
        (out / "report.md").write_text(text, encoding="utf-8")
        sys.stderr.write(f"scnfuzz: wrote {out / 'report.md'} and {out / 'reproducer.c'}\n")
    else:
        sys.stdout.write(text)
    return 0


def list_markdown():
    rows = bug_rows()
    counts = {}
    for r in rows:
        counts[state(r)[0]] = counts.get(state(r)[0], 0) + 1
    lines = ["# Upstream: the state of every known bug", "",
             "Every row of `oracles/known_bugs.tsv` whose kind is `bug` (a gap is a feature an "
             "implementation lacks, not a bug), with its state. `./scnfuzz upstream ROW` writes the "
             "report for a row: the implementation and version, the standard's words, a standalone "
             "`reproducer.c` (standard C and POSIX headers only; it calls the implementation's real entry point "
             "and exits 1 while the bug is there) with its one-line build command, expected vs actual, "
             "and the cause and proposed fix of its draft in `docs/upstream/ROW.md` where one is "
             "written. This page is made by `./scnfuzz upstream --list --markdown docs/UPSTREAM.md`.", "",
             "States: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" ({len(rows)} bug rows).",
             "", "| row | implementations | versions | state | where |", "|---|---|---|---|---|"]
    for r in rows:
        st, detail = state(r)
        where = detail if st != "draft ready" else f"[{detail}](upstream/{r.id}.md)"
        if st == "reported":
            where = " ".join(f"<{u}>" for u in detail.split())
        if st == "not reported":
            where = f"`{detail}`"
        lines.append(f"| `{r.id}` | {', '.join(r.targets)} | {r.versions.replace('|', '/')} | {st} | {where} |")
    return "\n".join(lines) + "\n"


def add_parser(sub, epilog):
    p = sub.add_parser("upstream", help="the report text of a known-bug row, with a standalone reproducer.c "
                       "(or --list: every bug row and its state, docs/UPSTREAM.md)",
                       description="For a bug row of oracles/known_bugs.tsv: the implementation and version, "
                       "the standard's words, a standalone reproducer.c (standard C and POSIX headers only, the "
                       "implementation's real entry point, exit 1 while the bug is there) with its build "
                       "line, expected vs actual, and the cause and proposed fix of its draft "
                       "(docs/upstream/ROW.md). Exit 0, or 2 on a usage or set-up error.", epilog=epilog)
    p.add_argument("row", nargs="?", metavar="ROW", help="a row id of oracles/known_bugs.tsv")
    p.add_argument("--target", metavar="NAME", help="which of the row's implementations (default: its first)")
    p.add_argument("--out", metavar="DIR", help="write DIR/report.md and DIR/reproducer.c instead of stdout")
    p.add_argument("--list", action="store_true", help="every bug row and its state")
    p.add_argument("--markdown", metavar="FILE", help="with --list: write it as FILE (docs/UPSTREAM.md)")


def main(args):
    if args.list:
        text = list_markdown()
        if args.markdown:
            pathlib.Path(args.markdown).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    if not args.row:
        raise UsageError("upstream: give a ROW of oracles/known_bugs.tsv, or --list")
    return one(args)
