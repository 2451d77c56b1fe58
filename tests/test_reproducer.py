"""Standalone reproducers (programs/scn_reproducer.c): the C program written for
a known-bug row compiles with the compiler alone (standard headers only, no
project header), calls the implementation's real entry point and exits 1
while the bug is there, 0 where the implementation behaves.

- glibc: the %#g carry (glibc-g-alt-carry) and the negative *m$ width with
  the 0 flag (glibc-posn-negwidth-zero), against this machine's glibc (`cc`)
- musl: an n$ argument read twice (musl-posn-shared-narrowing), against the
  installed musl (`musl-gcc -static`) and against musl's printf as the build
  compiled it from the fetched source (its object, vsnprintf renamed
  musl_vsnprintf)
- a matrix bug: the Linux tools' vscnprintf returning -1 at size 0
  (linux-tools-scn-size0), tools/lib/vsprintf.c as the build extracted it
  from linux-source-6.1, compiled beside the reproducer
- the control: the same programs for a case every implementation prints
  right exit 0, so an exit 1 is the bug's, not the program's
- a call that dies (a signal) is the bug seen at its size, not the end of
  the program: it says so, exits 1, and still checks the other sizes
"""
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import REPO, build_dir, find_binary

KNOWN_BUGS = REPO / "oracles" / "known_bugs.tsv"


def row(name):
    for line in KNOWN_BUGS.read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if f[0] == name:
            case = f[6]
            size = re.search(r"(?:^|&)size=(\d+)", f[3])
            return case + (f" @{size.group(1)}" if size and "@" not in case else "")
    pytest.fail(f"no row {name} in oracles/known_bugs.tsv")


def write(tmp_path, args, name="reproducer.c"):
    p = subprocess.run([str(find_binary("scn-reproducer", "programs")), *args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    src = tmp_path / name
    src.write_text(p.stdout)
    return src, p.stdout


def run(tmp_path, compile_cmd):
    c = subprocess.run(compile_cmd, cwd=tmp_path, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    return subprocess.run(["./reproducer"], cwd=tmp_path, capture_output=True, text=True, timeout=60)


def standalone(source):
    """Only standard C and POSIX headers (fork and waitpid: each size's call in
    a child): nothing of the project."""
    includes = re.findall(r'^#include\s+[<"]([^>"]+)[>"]', source, re.M)
    assert includes and all(h in {"signal.h", "stdarg.h", "stddef.h", "stdint.h", "stdio.h", "string.h",
                                  "sys/types.h", "sys/wait.h", "unistd.h", "wchar.h"} for h in includes), includes
    assert '#include "' not in source


@pytest.mark.parametrize("name,expected,actual", [
    ("glibc-g-alt-carry", '"1.00e+03"', '"1.e+03"'),
    ("glibc-posn-negwidth-zero", '"1.500000    "', '"1.5000000000"'),
])
def test_glibc_reproducer_fails_on_this_glibc(tmp_path, name, expected, actual):
    src, text = write(tmp_path, ["--target", "glibc", "--title", name, row(name)])
    standalone(text)
    r = run(tmp_path, ["cc", "-Wall", "-Wextra", "-Werror", "-o", "reproducer", src.name])
    assert r.returncode == 1, r.stdout
    assert f"expected ret {len(expected) - 2}, buffer {expected}" in r.stdout
    assert f"buffer {actual}" in r.stdout and "BUG PRESENT" in r.stdout


def test_glibc_reproducer_passes_where_glibc_is_right(tmp_path):
    src, _ = write(tmp_path, ["--target", "glibc", '"%#.3g|%-12f|%n" double:0x1.f4p+6 double:0x1.f4p+6 n:int @0,5,40'])
    r = run(tmp_path, ["cc", "-Wall", "-Werror", "-o", "reproducer", src.name])
    assert r.returncode == 0, r.stdout
    assert r.stdout.count("as expected") == 3


def test_musl_reproducer_installed_and_from_source(tmp_path):
    case = row("musl-posn-shared-narrowing")
    if shutil.which("musl-gcc"):
        src, text = write(tmp_path, ["--target", "musl", case])
        standalone(text)
        r = run(tmp_path, ["musl-gcc", "-static", "-o", "reproducer", src.name])
        assert r.returncode == 1 and 'actual   ret 7, buffer "200 200"' in r.stdout, r.stdout
    obj = build_dir() / "core" / "targets" / "musl" / "scn_musl.o"
    if not obj.is_file():
        pytest.skip("the build has no musl target (its source is fetched at configure time)")
    src, _ = write(tmp_path, ["--target", "musl", "--entry", "musl_vsnprintf", case])
    r = run(tmp_path, ["cc", "-fsanitize=address,undefined", "-o", "reproducer", src.name, str(obj)])
    assert r.returncode == 1, r.stdout
    assert 'expected ret 7, buffer "-56 200"' in r.stdout and 'buffer "200 200"' in r.stdout


def test_linux_tools_reproducer_from_fetched_source(tmp_path):
    tree = build_dir() / "core" / "targets" / "linux-tools" / "ltsrc" / "linux-source-6.1"
    vsprintf = tree / "tools" / "lib" / "vsprintf.c"
    if not vsprintf.is_file():
        pytest.skip("the build has no linux-tools target (linux-source-6.1 not installed)")
    src, text = write(tmp_path, ["--target", "linux-tools", row("linux-tools-scn-size0")])
    standalone(text)
    assert "int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);" in text
    # tools/include is not extracted by the build (only the one file): the
    # header the build compiles it with stands in for tools/include/linux/kernel.h
    shim = REPO / "core" / "targets" / "linux-tools" / "shim"
    r = run(tmp_path, ["cc", "-o", "reproducer", src.name, str(vsprintf), f"-I{shim}"])
    assert r.returncode == 1, r.stdout
    assert "size 0: WRONG" in r.stdout and "expected ret 0" in r.stdout and "actual   ret -1" in r.stdout
    # the same program at a size where the tools' vscnprintf is right
    src, _ = write(tmp_path, ["--target", "linux-tools", '"abc" @2,4'])
    r = run(tmp_path, ["cc", "-o", "reproducer", src.name, str(vsprintf), f"-I{shim}"])
    assert r.returncode == 0, r.stdout


def test_every_argument_type_has_its_literal(tmp_path):
    """Each type of the case model as the C literal the call passes: glibc
    prints the same as the reference (exit 0), so every value arrived whole."""
    case = ('"%d %ld %lld %jd %zd %td %u %lu %llu %ju %zu|%.20e %.20Le %f|%lc %ls %s %p %s %hhn%n" '
            'int:-2147483648 long:-9223372036854775808 llong:7 intmax:-1 ssize:-2 ptrdiff:3 '
            'uint:4294967295 ulong:18446744073709551615 ullong:0 uintmax:5 size:6 '
            'double:-0x0.0000000000003p-1022 ldouble:0xc.90fdaa22168c235p-2 double:-inf '
            'wint:65 wstr:"caf" str:"a\\"b\\\\c\\x01?" ptr:0x1234 str:NULL n:schar n:int')
    src, text = write(tmp_path, ["--target", "glibc", case])
    assert "ldbl_bits(0x4000, 0xc90fdaa22168c235ULL)" in text and "dbl_bits(0xfff0000000000000ULL)" in text
    r = subprocess.run(["cc", "-Wall", "-Wno-format", "-o", "reproducer", src.name], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["./reproducer"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_refuses_what_has_no_standalone_form(tmp_path):
    exe = str(find_binary("scn-reproducer", "programs"))
    p = subprocess.run([exe, "--target", "glibc", '"%d" str:'], capture_output=True, text=True)
    assert p.returncode == 2 and "col" in p.stderr
    p = subprocess.run([exe, "--target", "no-such-target", '"x"'], capture_output=True, text=True)
    assert p.returncode == 2 and "no target no-such-target" in p.stderr
    if pathlib.Path(build_dir() / "core" / "targets" / "kernel").is_dir():
        p = subprocess.run([exe, "--target", "kernel", '"%pV" mem:VAF("x")'], capture_output=True, text=True)
        assert p.returncode == 2 and "VAF" in p.stderr and p.stdout == ""


def test_picolibc_reproducer_against_the_object_built_from_the_fetched_source(tmp_path):
    """picolibc 1.8.10's tinystdio as the build compiles it from Debian's
    source (its vsnprintf renamed picolibc_vsnprintf): %#.0o of 0 prints
    nothing (picolibc-alt-o-zero), %#o of 0 is right."""
    obj = build_dir() / "core" / "targets" / "picolibc" / "scn_picolibc.o"
    if not obj.is_file():
        pytest.skip("the build has no picolibc target (its source is fetched at configure time)")
    link = ["cc", "-fsanitize=address,undefined", "-o", "reproducer", "reproducer.c", str(obj)]
    write(tmp_path, ["--target", "picolibc", "--entry", "picolibc_vsnprintf", row("picolibc-alt-o-zero")])
    r = run(tmp_path, link)
    assert r.returncode == 1 and 'expected ret 1, buffer "0"' in r.stdout and 'actual   ret 0, buffer ""' in r.stdout
    write(tmp_path, ["--target", "picolibc", "--entry", "picolibc_vsnprintf", '"[%#o]" uint:0 @0,3,9'])
    assert run(tmp_path, link).returncode == 0


def test_a_call_that_dies_is_reported_and_the_other_sizes_still_run(tmp_path):
    """An entry point that crashes at size 0 only (as stb's writes outside its
    arrays do): the reproducer runs each size's call in a child, reports the
    death at that size, checks the others and exits 1."""
    write(tmp_path, ["--target", "glibc", "--entry", "dying_vsnprintf", '"abc" @0,8'])
    (tmp_path / "dying.c").write_text(
        "#include <signal.h>\n#include <stdarg.h>\n#include <stdio.h>\n"
        "int dying_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)\n"
        "{\n    if (size == 0) raise(SIGSEGV);\n    return vsnprintf(buf, size, fmt, ap);\n}\n")
    r = run(tmp_path, ["cc", "-Wall", "-Wextra", "-Werror", "-o", "reproducer", "reproducer.c", "dying.c"])
    assert r.returncode == 1, r.stdout
    assert r.stdout.splitlines()[0] == "size 0: WRONG: the call died of signal 11 (SIGSEGV, a bad memory access)"
    assert "size 8: as expected" in r.stdout and r.stdout.rstrip().endswith("BUG PRESENT")
