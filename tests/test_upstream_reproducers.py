"""The reproducers of `./scnfuzz upstream` (runner/scnfuzz/upstream.py), built
by the line a report prints and run on this machine.

- every bug row of oracles/known_bugs.tsv, for each implementation it lists
  that has a build line: the report's reproducer compiles by that line (this
  machine's form where the maintainer's needs their tree) and exits 1, the
  bug seen; a crash or a hang of the call too (stb's precision over 512,
  writing below its num[], dies of SIGSEGV in the call: the reproducer says
  so). An implementation not installed here, or a target the build leaves
  out: skipped, with why
- the Linux tools: the report's line itself, run as printed in a
  linux-source-6.1 tree (tools/lib/vsprintf.c and the tools/include headers
  it includes, from /usr/src/linux-source-6.1.tar.xz through the source
  cache), and in a tree of vsprintf.c alone (the build's, where no
  tools/include gives va_start: the line's -include stdarg.h does)
- a crash row's line builds with the sanitizers: stb's INT_MIN negation,
  undefined behaviour that prints the right digits, is seen only so
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, build_dir

sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import upstream  # noqa: E402

TARBALL = pathlib.Path("/usr/src/linux-source-6.1.tar.xz")
# what `cc -M tools/lib/vsprintf.c -Itools/include` names in the 6.1 tree (gcc and clang alike)
LTOOLS_FILES = ["tools/lib/vsprintf.c"] + [f"tools/include/{h}" for h in (
    "asm-generic/bitsperlong.h", "linux/build_bug.h", "linux/compiler-gcc.h", "linux/compiler.h",
    "linux/compiler_types.h", "linux/kernel.h", "linux/math.h", "linux/panic.h", "linux/types.h",
    "uapi/asm-generic/bitsperlong.h")]


def pairs(impl):
    return [r for r in upstream.bug_rows() if impl in r.targets]


@pytest.mark.slow
@pytest.mark.parametrize("impl", sorted({t for r in upstream.bug_rows() for t in r.targets} & set(upstream.IMPLS)))
def test_every_rows_reproducer_exits_1_by_its_build_line(impl, tmp_path, monkeypatch):
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    failed, not_run = [], []
    for row in pairs(impl):
        source, line, here = upstream.reproducer_source(row, impl)
        work = tmp_path / row.id
        work.mkdir()
        ran, status, out = upstream.run_reproducer(source, line, work, here)
        if not ran and re.search(r"is not installed here$|^the build has no ", out):
            not_run.append(f"{row.id}: {out}")
        elif not ran:
            failed.append(f"{row.id}: does not build by `{here or line}`: {out}")
        elif status != 1:
            failed.append(f"{row.id}: exit {status}, not 1:\n{out}")
        elif not re.search(r"^size \d+: WRONG", out, re.M) or "BUG PRESENT" not in out:
            failed.append(f"{row.id}: exit 1 without saying what it saw:\n{out}")
    assert not failed, "\n".join(failed)
    if not_run:
        pytest.skip("; ".join(not_run[:3]))


def test_stb_radix_overflow_is_reported_not_a_crash(tmp_path, monkeypatch):
    """stb writes a precision over 512 below its 512-byte num[]: the call dies
    (or prints what it copied back): either way the reproducer exits 1 and says so."""
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    row = upstream.find_row("stb-radix-prec-overflow")
    source, line, here = upstream.reproducer_source(row, "stb")
    assert not upstream.crash_row(row) and "-fsanitize" not in line  # the plain line a maintainer runs
    ran, status, out = upstream.run_reproducer(source, line, tmp_path, here)
    if not ran:
        pytest.skip(out)
    assert status == 1, out
    assert re.search(r"^size 1117: WRONG(: the call died of signal 11 \(SIGSEGV|$)", out, re.M), out


def test_crash_rows_build_with_the_sanitizers(tmp_path, monkeypatch):
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    row = upstream.find_row("stb-int-min-negate-dies")
    line, here = upstream.build_lines(row, "stb")
    assert upstream.SANITIZE in line and here is None
    plain = upstream.find_row("stb-u-sign-plus")
    assert upstream.build_lines(plain, "stb") == (upstream.IMPLS["stb"].build, None)
    # a compiler driver of another name is left as it is; cc is given the flags once
    for impl in ("dietlibc", "klibc", "musl", "picolibc"):
        assert upstream.build_lines(row, impl)[0] == upstream.IMPLS[impl].build
    source, line, here = upstream.reproducer_source(row, "stb")
    ran, status, out = upstream.run_reproducer(source, line, tmp_path, here)
    assert ran and status == 1, out
    assert "a sanitizer reported the call" in out and "negation of -2147483648" in out


def scnfuzz_upstream(row, out):
    env = {**os.environ, "SCN_BUILD_DIR": str(build_dir())}
    p = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "upstream", row, "--out", str(out)],
                       capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert p.returncode == 0, p.stderr
    report = (out / "report.md").read_text(encoding="utf-8")
    return report, report.split("built and run with:\n\n```sh\n", 1)[1].split("\n```", 1)[0]


@pytest.mark.slow
def test_linux_tools_report_line_as_printed_in_the_source_tree(tmp_path):
    if not TARBALL.is_file():
        pytest.skip(f"{TARBALL} is not installed (Debian's linux-source-6.1)")
    if not shutil.which("cc"):
        pytest.skip("no cc")
    full = tmp_path / "src"
    subprocess.run(["sh", str(REPO / "core" / "targets" / "extract-cached.sh"), str(TARBALL), str(full),
                    *(f"linux-source-6.1/{f}" for f in LTOOLS_FILES)], check=True, timeout=600)
    tree = full / "linux-source-6.1"
    alone = tmp_path / "alone" / "linux-source-6.1"  # vsprintf.c alone, as the build extracts it
    (alone / "tools" / "lib").mkdir(parents=True)
    shutil.copy(tree / "tools" / "lib" / "vsprintf.c", alone / "tools" / "lib")
    for where in (tree, alone):
        report, line = scnfuzz_upstream("linux-tools-scn-size0", where)
        assert line.endswith("   # in the linux-source-6.1 tree") and "-Itools/include" in line, line
        r = subprocess.run(["sh", "-c", line], cwd=where, capture_output=True, text=True, timeout=300)
        assert r.returncode == 1, f"`{line}` in {where}:\n{r.stderr[-2000:]}{r.stdout}"
        assert "size 0: WRONG" in r.stdout and "actual   ret -1" in r.stdout, r.stdout
        assert "exit status 1: the bug is present" in report
