"""The known-bug rules (oracles/known_bugs.tsv) and the root causes they sign.

A rule must never swallow a bug it was not written for, and one bug must be
one root cause where a real bug lands. Here: a musl whose %n stores a wrong
count (the length of the last piece it wrote, not of the whole output) is
built from musl's own fetched source, patched, as an executor; scn-conform
on the corpus's %n cases signs all its expect.n failures as one root cause
(they were one per %n shape when expectation failures were signed unreduced).
"""
import collections
import json
import os
import shutil
import subprocess

import pytest

from conftest import REPO, build_dir


def _musl_tree():
    src = build_dir() / "core/targets/musl/musl-source"
    found = sorted(src.glob("src/musl-*/src/stdio/vfprintf.c")) if src.is_dir() else []
    gen = build_dir() / "core/targets/musl/musl-gen"
    if not found or not gen.is_dir():
        pytest.skip(f"no fetched musl source under {src} (a build with SCN_WITH_MUSL fetches it)")
    if not shutil.which("musl-gcc"):
        pytest.skip("no musl-gcc (Debian musl-tools)")
    return found[0].parents[2], gen


# %n stores the length of the last piece out() wrote: right when one piece
# precedes it ("abc%n", "%s%n"), wrong after padding or several pieces.
LAST_PIECE = [
    ("static void out(FILE *f, const char *s, size_t l)\n{\n",
     "static int last_piece;\nstatic void out(FILE *f, const char *s, size_t l)\n{\n\tif (l) last_piece = l;\n"),
    ("int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)\n{\n",
     "int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)\n{\n\tlast_piece = 0;\n"),
]


def _build_wrong_n_executor(tmp_path):
    musl, gen = _musl_tree()
    text = (musl / "src/stdio/vfprintf.c").read_text()
    for old, new in LAST_PIECE:
        assert text.count(old) == 1, f"musl's vfprintf.c changed: {old!r}"
        text = text.replace(old, new)
    stores = 0
    for store in ["*(int *)arg.p = cnt", "*(long *)arg.p = cnt", "*(long long *)arg.p = cnt",
                  "*(unsigned short *)arg.p = cnt", "*(unsigned char *)arg.p = cnt", "*(size_t *)arg.p = cnt",
                  "*(uintmax_t *)arg.p = cnt"]:
        stores += text.count(store)
        text = text.replace(store, store[:-3] + "last_piece")
    assert stores == 7, "musl's %n stores changed"
    (tmp_path / "vfprintf.c").write_text(text)
    inc = [f"-I{musl}/arch/x86_64", f"-I{musl}/arch/generic", f"-I{gen}/src/internal", f"-I{musl}/src/include",
           f"-I{musl}/src/internal", f"-I{gen}/include", f"-I{musl}/include"]
    subprocess.run(["musl-gcc", "-std=c99", "-O1", "-w", "-c", "-nostdinc", "-D_XOPEN_SOURCE=700", *inc,
                    "vfprintf.c", "-o", "vfprintf.o"], cwd=tmp_path, check=True)
    exe, case = REPO / "programs/exec", REPO / "core/case"
    # the executor as core/targets/musl/CMakeLists.txt builds scn-musl-exec, with this vfprintf
    subprocess.run(["musl-gcc", "-std=gnu11", "-O2", "-static", '-DSCN_EXEC_NAME="musl"',
                    '-DSCN_EXEC_VERSION="musl with a wrong %n"', f"-I{case}", f"-I{REPO}/core/targets",
                    "-include", str(exe / "compat/scn_strtod.h"), "-Dstrtod=scn_strtod", "-Dstrtold=scn_strtold",
                    str(exe / "scn_exec.c"), str(case / "case.c"), str(exe / "compat/scn_strtod.c"), "vfprintf.o",
                    "-o", "musl-wrong-n"], cwd=tmp_path, check=True)
    return tmp_path / "musl-wrong-n"


def test_a_wrong_n_count_is_one_root_cause(tmp_path, scn_conform):
    exe = _build_wrong_n_executor(tmp_path)
    r = subprocess.run([str(scn_conform), "--exec", str(exe), "--fail-only", "--category", "n",
                        str(REPO / "corpus/posn.tsv")], capture_output=True, text=True, timeout=600)
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    summary = lines[-1]["summary"]
    fails = [x for x in lines[:-1] if x.get("status") == "fail"]
    assert summary["fail"] == len(fails) >= 10, r.stdout[-2000:]
    assert {x["oracle"] for x in fails} == {"expect.n"}, [x["oracle"] for x in fails]
    sigs = collections.Counter(x["signature"] for x in fails)
    # one bug, one root cause: the %n that stores the count, whatever case met it
    assert list(sigs) == ["expect.n:%n:musl:conformance"], sigs
    for x in fails:
        f = x["finding"]
        assert f["reduced"] and f["case"] != f["original_case"], f
        # the reproducer still shows it: the bytes agree with the reference, the count does not
        assert "%n" in f["case"] and f["outputs"]["musl"] == f["outputs"]["ref"], f
    # the unpatched executor of the build passes the same cases
    stock = build_dir() / "core/targets/musl/scn-musl-exec"
    if stock.is_file():
        r = subprocess.run([str(scn_conform), "--exec", str(stock), "--fail-only", "--category", "n",
                            str(REPO / "corpus/posn.tsv")], capture_output=True, text=True, timeout=600)
        assert json.loads(r.stdout.splitlines()[-1])["summary"]["fail"] == 0, r.stdout[-2000:]
