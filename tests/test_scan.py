"""./scnfuzz scan: the fixtures of tests/scan (the kernel's snprintf misuse
patterns, the sites that check, a format(printf) function) give exactly the
expected findings, call sites and profile; bad input is exit 2."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "scan"

pytest.importorskip("clang.cindex")

EXPECTED_FINDINGS = {
    ("tests/scan/lengths.c", 8, "snprintf-ret-length"),
    ("tests/scan/lengths.c", 15, "snprintf-ret-pointer"),
    ("tests/scan/sysfs.c", 15, "snprintf-ret-returned"),
    ("tests/scan/sysfs.c", 27, "sprintf-overflow"),
    ("tests/scan/sysfs.c", 35, "scnprintf-ret-compared"),
    ("tests/scan/sysfs.c", 42, "pa-double-0x"),
}
EXPECTED_PROFILE = {"%%": 1, "%c": 1, "%d": 6, "%p": 3, "%pM": 1, "%pad": 2, "%s": 12, "%u": 3, "%x": 1,
                    "(format not a literal)": 1, "flag #": 1, "flag +": 1, "flag -": 1, "flag 0": 1,
                    "length ll": 1, "width *": 1}


def scan(*args, cwd=ROOT):
    env = dict(os.environ)
    return subprocess.run([sys.executable, str(ROOT / "scnfuzz"), "scan", *map(str, args)], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("scan")
    p = scan("tests/scan", "--jobs", "2", "--out", out / "run", "--profile", out / "profile.json")
    return p, out


def test_findings_exact(fixture_run):
    p, out = fixture_run
    assert p.returncode == 1, p.stderr
    rep = json.loads((out / "run" / "report.json").read_text())
    got = {(d["file"], d["line"], d["kind"]) for d in rep["findings"]}
    assert got == EXPECTED_FINDINGS
    # each source line the fixtures mark FINDING is one
    marked = set()
    for f in FIXTURES.glob("*.c"):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if "FINDING " in line:
                marked.add((f"tests/scan/{f.name}", n, line.split("FINDING ")[1].split()[0]))
    assert marked == EXPECTED_FINDINGS
    for d in rep["findings"]:
        assert d["why"] and d["fix"] and d["code"]
    over = next(d for d in rep["findings"] if d["kind"] == "sprintf-overflow")
    assert "tag (char[16])" in over["why"] and "%s" in over["why"]


def test_report_formats(fixture_run):
    p, out = fixture_run
    sarif = json.loads((out / "run" / "report.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    res = sarif["runs"][0]["results"]
    locs = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]) for r in res}
    assert locs == EXPECTED_FINDINGS
    md = (out / "run" / "report.md").read_text()
    for f, line, kind in EXPECTED_FINDINGS:
        assert f"{f}:{line}** `{kind}`" in md
    assert "tests/scan/lengths.c:8: snprintf-ret-length" in p.stdout


def test_profile_exact(fixture_run):
    p, out = fixture_run
    prof = json.loads((out / "profile.json").read_text())
    assert {k: v["count"] for k, v in prof.items()} == EXPECTED_PROFILE
    assert prof["%pM"]["sites"] == ["tests/scan/sysfs.c:30"]
    assert prof["%pad"]["sites"] == ["tests/scan/sysfs.c:42", "tests/scan/sysfs.c:43"]
    assert prof["width *"]["sites"] == ["tests/scan/attr.c:8"]


def test_call_sites(fixture_run):
    _, out = fixture_run
    rep = json.loads((out / "run" / "report.json").read_text())
    sites = {(c["file"], c["line"]): c for c in rep["call_sites"]}
    assert rep["calls"] == len(rep["call_sites"]) == 21
    pr = sites[("tests/scan/sysfs.c", 30)]  # a macro: found after expansion, named at the expansion site
    assert (pr["name"], pr["callee"]) == ("pr_info", "_printk")
    assert pr["format"] == "label %s port %d mac %pM\n"  # KERN_INFO concatenated, then skipped
    dev = sites[("tests/scan/sysfs.c", 42)]
    assert (dev["name"], dev["callee"], dev["family"]) == ("dev_info", "_dev_info", "kernel")
    log = sites[("tests/scan/attr.c", 8)]  # declared format(printf, 2, 3)
    assert log["family"] == "attribute"
    assert [a["type"] for a in log["args"]] == ["unsigned long long", "const char *", "int", "int"]
    assert sites[("tests/scan/attr.c", 10)]["format"] is None
    cast = sites[("tests/scan/sysfs.c", 29)]  # an explicit cast is the type passed
    assert [a["type"] for a in cast["args"]] == ["const char *", "unsigned char"]


def test_clean_file_exit_0(tmp_path):
    p = scan("tests/scan/attr.c", "--jobs", "1", "--out", tmp_path / "run")
    assert p.returncode == 0, p.stderr
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert rep["findings"] == [] and rep["calls"] == 3


def test_compile_commands_flags(tmp_path):
    """The include directory comes from compile_commands.json: without it the
    dev_info macro is unknown and the 0x%pad call is not a printf call."""
    src = tmp_path / "pa.c"
    src.write_text("#include <kstub.h>\nvoid f(struct device *d, dma_addr_t *a)\n{\n"
                   "\tdev_info(d, \"at 0x%pad\\n\", a);\n}\n")
    cc = tmp_path / "compile_commands.json"
    cc.write_text(json.dumps([{"directory": str(ROOT), "file": str(src),
                               "arguments": ["cc", "-Itests/scan", "-c", str(src), "-o", "pa.o"]}]))
    p = scan("--compile-commands", cc, "--out", tmp_path / "run")
    assert p.returncode == 1, p.stdout + p.stderr
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [(d["line"], d["kind"]) for d in rep["findings"]] == [(4, "pa-double-0x")]
    p = scan(src, "--out", tmp_path / "run2")
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("args,msg", [
    (["tests/scan/nope.c"], "no such file or directory"),
    (["docs"], "no C files"),
    ([], "give C files"),
    (["--compile-commands", "pyproject.toml"], "not JSON"),
    (["--kernel", "tests", "tests/scan"], "not a Linux tree"),
    (["--jobs", "0", "tests/scan"], "--jobs must be at least 1"),
    (["--batch", "0", "tests/scan"], "--batch must be at least 1"),
])
def test_bad_input_exit_2(args, msg):
    p = scan(*args)
    assert p.returncode == 2
    assert msg in p.stderr and "Traceback" not in p.stderr


def test_c_walk_is_the_bindings_walk(tmp_path):
    """scan_walk.c (one C call per function body) gives the nodes, kinds and
    parents the Python bindings' walk gives, in the same order."""
    import shutil
    if not shutil.which(os.environ.get("CC", "cc")):
        pytest.skip("no C compiler: scan uses the bindings' walk")
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan_parse, scan_walk
    assert scan_walk.build(str(tmp_path))
    lib = scan_walk._library()
    fs = scan_parse.FileScan(str(FIXTURES / "sysfs.c"), ["-x", "c", "-I", str(FIXTURES)])
    functions = [c for c in fs.tu.cursor.get_children() if c.kind.name == "FUNCTION_DECL" and c.is_definition()]
    assert len(functions) >= 5
    for fn in functions:
        a, b = scan_walk.walk_c(lib, fn), scan_walk.walk_python(fn)
        assert (a.kinds, a.parents) == (b.kinds, b.parents) and len(a) > 10
        assert all(a.node(i) == b.node(i) and a.node(i).extent == b.node(i).extent for i in range(len(a)))


CALLS_C = """typedef __SIZE_TYPE__ size_t;
typedef __builtin_va_list va_list;
int snprintf(char *, size_t, const char *, ...);
__attribute__((format(printf, 1, 0))) int vlog(const char *fmt, va_list ap);
__attribute__((format(printf, 1, 2))) int plog(const char *fmt, ...);
int plain(int);
int old();
int sum(int n, ...);
int (*hook)(const char *, ...);
void f(char *b, va_list ap)
{
	snprintf(b, 8, "%d", plain(1));
	vlog("%s", ap);
	plog("%u", 2u);
	old(3);
	sum(1, 2);
	hook("x");
}
"""


def test_c_walk_calls_are_the_ones_python_would_look_at(tmp_path):
    """scan_walk.c's scan_calls keeps, of a body's calls, those of a family
    name or of a function whose type could carry a format attribute
    (variadic, taking a va_list, or without a prototype), as the bindings
    tell them; printf_calls over them finds what it finds over every call."""
    import shutil
    if not shutil.which(os.environ.get("CC", "cc")):
        pytest.skip("no C compiler: scan uses the bindings' walk")
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan_misuse, scan_parse, scan_walk
    assert scan_walk.build(str(tmp_path))
    src = tmp_path / "calls.c"
    src.write_text(CALLS_C)
    fs = scan_parse.FileScan(str(src), ["-x", "c"])
    fn = next(c for c in fs.tu.cursor.get_children() if c.spelling == "f" and c.is_definition())
    tree = scan_walk.walk(fn, tuple(scan_parse.FAMILIES))
    ci = fs.ci

    def python_keeps(c):
        if c.spelling in scan_parse.FAMILIES:
            return True
        d = c.referenced
        if d is None or d.kind != ci.CursorKind.FUNCTION_DECL:
            return False
        t = d.type
        return t.kind != ci.TypeKind.FUNCTIONPROTO or t.is_function_variadic() or "va_list" in t.spelling

    every = [i for i in range(len(tree)) if tree.node(i).kind == ci.CursorKind.CALL_EXPR]
    assert [tree.node(i).spelling for i in every] == ["snprintf", "plain", "vlog", "plog", "old", "sum", "hook"]
    assert tree.calls == [i for i in every if python_keeps(tree.node(i))]
    assert [tree.node(i).spelling for i in tree.calls] == ["snprintf", "vlog", "plog", "old", "sum"]
    kept = scan_misuse.Function(fs, fn).printf_calls()
    everything = scan_misuse.Function(fs, fn)
    everything.tree.calls = None  # every call looked at, as with the bindings' walk
    assert kept == everything.printf_calls()
    assert [r["callee"] for r in kept] == ["snprintf", "vlog", "plog"]
    # scan_last_child (scan_parse.strip's step) is the bindings' last child, or None for a leaf
    leaves = 0
    for i in range(len(tree)):
        c = tree.node(i)
        kids = list(c.get_children())
        last = scan_walk.last_child(c)
        assert (last is None and not kids) or (kids and last == kids[-1] and last.extent == kids[-1].extent)
        leaves += not kids
    assert 0 < leaves < len(tree)


def test_report_json_one_call_site_a_line(fixture_run):
    """report.json: the JSON of the whole report, each call site and finding
    on one line of its own (written by the C encoder)."""
    _, out = fixture_run
    text = (out / "run" / "report.json").read_text()
    rep = json.loads(text)
    lines = text.splitlines()
    for c in rep["call_sites"] + rep["findings"]:
        assert sum(1 for line in lines
                   if line.startswith("  {") and json.loads(line.strip().rstrip(",")) == c) == 1


def test_scan_compare(fixture_run, tmp_path):
    """bench/scan_compare.py: a run is identical to itself; one format changed
    is one call site only before and one only after, and exit 1."""
    _, out = fixture_run
    rep = out / "run" / "report.json"
    cmp = [sys.executable, str(ROOT / "bench" / "scan_compare.py")]
    p = subprocess.run(cmp + [rep, rep], stdout=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 0 and "call sites: 21 / 21: identical" in p.stdout
    m = json.loads(rep.read_text())
    m["call_sites"][0]["format"] = "changed %d"
    other = tmp_path / "report.json"
    other.write_text(json.dumps(m))
    p = subprocess.run(cmp + [rep, other], stdout=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 1
    assert "call sites: 21 / 21: 1 only before, 1 only after" in p.stdout
    assert "findings: 6 / 6: identical" in p.stdout


def test_c_sites_are_the_bindings_sites(tmp_path):
    """scan_walk.c's scan_sites (the call sites' data in one C call) gives the
    call sites, candidates, error count and -Wformat lines that the bindings'
    path gives, on every fixture and on the calls of CALLS_C."""
    import shutil
    if not shutil.which(os.environ.get("CC", "cc")):
        pytest.skip("no C compiler: scan uses the bindings' walk")
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan_parse, scan_walk
    assert scan_walk.build(str(tmp_path))
    (tmp_path / "calls.c").write_text(CALLS_C + 'void g(char *b) { snprintf(b, 4, "%s%d", 1 ? "ab" : "abc", "x"); }\n')
    found = 0
    for src in sorted(FIXTURES.glob("*.c")) + [tmp_path / "calls.c"]:
        fs = scan_parse.FileScan(str(src), ["-x", "c", "-I", str(FIXTURES), "-Wformat"])
        assert fs.sites is not None
        by_c = (fs.scan(), fs.errors, fs.format_warnings)
        py = scan_parse.FileScan(str(src), ["-x", "c", "-I", str(FIXTURES), "-Wformat"])
        py.sites = None  # the bindings' path
        py.read_diagnostics()
        assert by_c == (py.scan(), py.errors, py.format_warnings)
        found += len(by_c[0][0])
        if src.name == "calls.c":
            assert by_c[2] and [r["callee"] for r in by_c[0][0]] == ["snprintf", "vlog", "plog", "snprintf"]
            assert by_c[0][0][-1]["args"][0]["literal"] == "abc"
    assert found >= 21


REPARSED_A = """typedef __SIZE_TYPE__ size_t;
int snprintf(char *, size_t, const char *, ...);
#define WHO "a"
#include "local.h"
int fa(char *b) { return snprintf(b, 64, "%s:%d %s", __FILE__, __LINE__, WHO LOCAL); }
"""
REPARSED_B = """typedef __SIZE_TYPE__ size_t;
int snprintf(char *, size_t, const char *, ...);
#ifdef WHO
#error the macros of the file before this one are seen
#endif
#include "local.h"
int fb(char *b) { return snprintf(b, 64, "%s %s %s", __FILE__, LOCAL, "b"); }
"""


def test_reparsed_unit_is_each_file_alone(tmp_path, monkeypatch):
    """A parser process parses the files of one group of flags through one
    translation unit, reparsed with each file #included by the virtual main
    file (scan_parse.reparse_include): each file's call sites, arguments'
    literals (its __FILE__ as given, relative or absolute, its __LINE__, its
    quoted includes), error count and -Wformat lines are those it has
    parsed alone, and nothing of the file before it is seen."""
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan_parse, scan_walk
    scan_walk.build(str(tmp_path))
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "a.c").write_text(REPARSED_A)
    (sub / "b.c").write_text(REPARSED_B)
    (sub / "local.h").write_text('#define LOCAL "here"\n')
    monkeypatch.chdir(tmp_path)
    flags = ["-x", "c", "-Wformat"]
    for paths in (["sub/a.c", "sub/b.c", "sub/a.c"], [str(sub / "b.c"), str(sub / "a.c")]):
        scan_parse._KEPT.clear()
        for p in paths:
            alone = scan_parse.FileScan(p, flags)
            want = (alone.scan(), alone.errors, alone.format_warnings)
            got = scan_parse.scan_file((p, flags, None))
            assert (got["calls"], got["candidates"], got["parse_errors"]) == (want[0][0], want[0][1], want[1])
            assert got["parse_errors"] == 0 and len(got["calls"]) == 1
            lits = [a["literal"] for a in got["calls"][0]["args"]]
            assert lits[0] == p and lits[-1] == ("ahere" if p.endswith("a.c") else "b")
        assert len(scan_parse._KEPT) == 1  # one unit, reparsed


def test_prelude_kept_across_runs(tmp_path):
    """build_prelude with a cache: the second run with the same flags and
    headers gets the same precompiled header without building it; a byte
    changed in a header that a chosen header includes builds it again; the
    files parse through it as through one built by the run."""
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan, scan_parse
    inc, cache = tmp_path / "inc", tmp_path / "cache"
    inc.mkdir()
    (inc / "deep.h").write_text("#define DEEP_WIDTH 4\n")
    (inc / "common.h").write_text('#ifndef COMMON_H\n#define COMMON_H\n#include "deep.h"\n'
                                  "typedef __SIZE_TYPE__ size_t;\n"
                                  "__attribute__((format(printf, 2, 3))) int logf_(int, const char *, ...);\n#endif\n")
    files = []
    for n in range(3):
        f = tmp_path / f"f{n}.c"
        f.write_text('#include "common.h"\nvoid g%d(void) { logf_(1, "%%*d", DEEP_WIDTH, %d); }\n' % (n, n))
        files.append(str(f))
    flags = ["-x", "c", "-I", str(inc)]
    pch = scan.build_prelude(files, flags, str(tmp_path), str(cache))
    manifest = pathlib.Path(pch).parent / "manifest.json"
    assert pch.startswith(str(cache)) and manifest.is_file()
    assert str(inc / "deep.h") in json.loads(manifest.read_text())["files"]
    built = os.stat(pch).st_mtime_ns
    assert scan.build_prelude(files, flags, str(tmp_path), str(cache)) == pch
    assert os.stat(pch).st_mtime_ns == built  # not built again
    # the same bytes written again: another change time, so its bytes are read, found the same
    # and its new stats recorded; the prelude is kept
    before = json.loads(manifest.read_text())["stats"][str(inc / "deep.h")]
    (inc / "deep.h").write_text("#define DEEP_WIDTH 4\n")
    assert scan.build_prelude(files, flags, str(tmp_path), str(cache)) == pch
    assert os.stat(pch).st_mtime_ns == built
    assert json.loads(manifest.read_text())["stats"][str(inc / "deep.h")] != before
    alone = scan.build_prelude(files, flags, str(tmp_path))  # the run's own, as without a cache
    for f in files:
        kept, own = scan_parse.FileScan(f, flags, pch), scan_parse.FileScan(f, flags, alone)
        assert kept.scan() == own.scan() and kept.errors == own.errors == 0
        assert [c["args"][0]["type"] for c in kept.scan()[0]] == ["int"]
    (inc / "deep.h").write_text("#define DEEP_WIDTH 5\n")
    assert scan.build_prelude(files, flags, str(tmp_path), str(cache)) == pch
    assert os.stat(pch).st_mtime_ns != built  # the header changed: built again


def test_headers_outside_the_prelude(tmp_path):
    """scan.prelude's headers outside the prelude (what batches keep apart
    and whose macros they save): not a header the prelude's parse read whose
    whole text is inside its guard (an #include of it reads nothing again),
    but one with text outside its guard (linux/tracepoint.h's TRACE_EVENT
    part), and the headers only one file includes."""
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "deep.h").write_text("#ifndef DEEP_H\n#define DEEP_H\n#define DEEP 1\n#endif /* DEEP_H */\n")
    (inc / "half.h").write_text("#ifndef HALF_H\n#define HALF_H\n#define HALF 1\n#endif\n"
                                "#ifdef HALF_AGAIN\n#undef HALF\n#endif\n")
    (inc / "own.h").write_text("#ifndef OWN_H\n#define OWN_H\n#endif\n")
    (inc / "common.h").write_text('#ifndef COMMON_H\n#define COMMON_H\n#include "deep.h"\n#include "half.h"\n#endif\n')
    # twice.h: in the prelude (two files include it), but its text outside the guard is read again
    (inc / "twice.h").write_text("#ifndef TWICE_H\n#define TWICE_H\n#endif\nstatic int twice;\n")
    files = []
    for n in range(5):
        f = tmp_path / f"f{n}.c"
        own = '#include "deep.h"\n#include "half.h"\n#include "own.h"\n' if n == 0 else ""
        f.write_text('#include "common.h"\n' + own + ('#include "twice.h"\n' if n >= 3 else "") + f"int g{n};\n")
        files.append(str(f))
    assert not scan._fully_guarded(str(inc / "half.h")) and scan._fully_guarded(str(inc / "deep.h"))
    for cache in (None, str(tmp_path / "cache"), str(tmp_path / "cache")):
        pch, outside, _ = scan.prelude(files, ["-x", "c", "-I", str(inc)], str(tmp_path), cache)
        assert pch and outside == {files[0]: sorted([str(inc / "half.h"), str(inc / "own.h")]),
                                   files[1]: [], files[2]: [], files[3]: [str(inc / "twice.h")],
                                   files[4]: [str(inc / "twice.h")]}
    # the answers kept with the prelude, and the files that reach one header in different batches
    kept = json.loads(next((tmp_path / "cache").glob("*/manifest.json")).read_text())["guarded"]
    assert kept[str(inc / "half.h")] is False and kept[str(inc / "twice.h")] is False and kept[str(inc / "deep.h")]
    assert sorted(map(len, scan.batches(files, 8, outside))) == [1, 4]


BATCH_FILES = {
    "common.h": '#ifndef COMMON_H\n#define COMMON_H\ntypedef __SIZE_TYPE__ size_t;\n'
                'int snprintf(char *, size_t, const char *, ...);\n#endif\n',
    "own.h": '#ifndef OWN_H\n#define OWN_H\n#define OWN "own"\n#endif\n',
    # a's macro TAG is saved and restored around it: b defines its own
    "a.c": '#include "common.h"\n#define TAG "a"\nstatic int helper(void) { return 1; }\n'
           'int fa(char *b) { return snprintf(b, 8, "%s%d", TAG, helper()); }\n',
    "b.c": '#include "common.h"\n#ifndef TAG\n#define TAG "b"\n#endif\n'
           'int fb(char *b) { return snprintf(b, 8, "%s", TAG); }\n',
    # c calls a's static helper: alone, an implicit declaration
    "c.c": '#include "common.h"\nint fc(char *b) { return snprintf(b, 8, "%d", helper()); }\n',
    # d defines a helper too: alone, no redefinition
    "d.c": '#include "common.h"\nstatic long helper(void) { return 2; }\n'
           'int fd(char *b) { return snprintf(b, 8, "%ld", helper()); }\n',
    # f's header outside the prelude defines OWN, which g tests
    "f.c": '#include "common.h"\n#include "own.h"\nint ff(char *b) { return snprintf(b, 8, "%s", OWN); }\n',
    "g.c": '#include "common.h"\n#ifdef OWN\n#define G "seen"\n#else\n#define G "g"\n#endif\n'
           'int fg(char *b) { return snprintf(b, 8, "%s", G); }\n',
    # e #includes a (so a's text is e's as well)
    "e.c": '#include "a.c"\nint fe(char *b) { return snprintf(b, 8, "%u", 1u); }\n',
}


def test_batch_members_are_each_file_alone(tmp_path):
    """scan_batch: files parsed as one translation unit give each file's own
    call sites, candidates and error count; a file's macros (and those of
    its headers outside the prelude) are restored after it; a member that
    refers to another's declaration, shares a name with it, or that another
    member #includes is parsed alone again, and so is every member after a
    header whose macros were not saved."""
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan, scan_parse, scan_walk
    assert scan_walk.build(str(tmp_path))
    src = tmp_path / "src"
    src.mkdir()
    for name, text in BATCH_FILES.items():
        (src / name).write_text(text)
    flags = ["-x", "c", "-I", str(src)]
    order = ["a.c", "b.c", "c.c", "d.c", "f.c", "g.c", "e.c"]
    paths = [str(src / n) for n in order]
    pch, outside, saved = scan.prelude(paths, flags, str(tmp_path))  # common.h, which most include
    own = str(src / "own.h")
    assert pch and outside[str(src / "f.c")] == [own] and outside[str(src / "e.c")] == [str(src / "a.c")]
    # a file never in the batch of a file that #includes it
    assert not any({str(src / "a.c"), str(src / "e.c")} <= set(b) for b in scan.batches(paths, 8, outside))
    alone = {}
    for p in paths:
        fs = scan_parse.FileScan(p, flags, pch)
        calls, cands = fs.scan()
        alone[p] = (calls, cands, fs.errors)
    assert saved[str(src / "f.c")] == sorted([str(src / "common.h"), own])
    # without own.h's macros saved, g and e (after f) are parsed again as a batch of their own,
    # where e #includes no member
    for keep, again, second in ((True, {"a.c", "c.c", "d.c", "e.c"}, set()),
                                (False, {"a.c", "c.c", "d.c"}, {"g.c", "e.c"})):
        scan_parse._KEPT.clear()
        headers = dict(saved)
        headers[str(src / "f.c")] = [h for h in saved[str(src / "f.c")] if keep or h != own]
        got = scan_parse.scan_batch((paths, flags, pch, headers))
        for p, r in zip(paths, got):
            assert (r["calls"], r["candidates"], r["parse_errors"]) == alone[p], p
        assert {n for n, r in zip(order, got) if r.get("again")} == again
        assert {n for n, r in zip(order, got) if r.get("batched")} == set(order) - again
        assert {n for n, r in zip(order, got) if r.get("rebatched")} == second
        whys = {n: r["why"].split()[0] for n, r in zip(order, got) if r.get("again")}
        assert whys == {"a.c": "includes", "c.c": "refers", "d.c": "refers", **({"e.c": "includes"} if keep else {})}
    literals = {n: alone[str(src / n)][0][0]["args"][0]["literal"] for n in ("b.c", "g.c")}
    assert literals == {"b.c": "b", "g.c": "g"}


def test_batch_member_whose_parse_does_not_end_is_parsed_again(tmp_path):
    """A member whose parse does not end at file scope (a body left open:
    the error's recovery skips on to a closing brace) would swallow the
    members after it: it is parsed alone again and they as a batch of their
    own, with the call sites they have alone."""
    sys.path.insert(0, str(ROOT / "runner"))
    from scnfuzz import scan, scan_parse, scan_walk
    assert scan_walk.build(str(tmp_path))
    src = tmp_path / "src"
    src.mkdir()
    (src / "common.h").write_text(BATCH_FILES["common.h"])
    (src / "a.c").write_text('#include "common.h"\nint fa(char *b) { return snprintf(b, 8, "%d", 1); }\n')
    (src / "open.c").write_text('#include "common.h"\nint fo(char *b) { if (b) { return snprintf(b, 8, "%d", 2);\n')
    (src / "y.c").write_text('#include "common.h"\nint fy(char *b) { return snprintf(b, 8, "%x", 3); }\n')
    (src / "z.c").write_text('#include "common.h"\nint fz(char *b) { return snprintf(b, 8, "%s", "z"); }\n')
    paths = [str(src / n) for n in ("a.c", "open.c", "y.c", "z.c")]
    pch, _, saved = scan.prelude(paths, ["-x", "c", "-I", str(src)], str(tmp_path))
    flags = ["-x", "c", "-I", str(src)]
    got = scan_parse.scan_batch((paths, flags, pch, saved))
    for p, r in zip(paths, got):
        fs = scan_parse.FileScan(p, flags, pch)
        assert (r["calls"], r["candidates"], r["parse_errors"]) == (*fs.scan(), fs.errors), p
    assert [bool(r.get("again")) for r in got] == [False, True, False, False]
    assert [bool(r.get("rebatched")) for r in got] == [False, False, True, True]
    assert [[c["function"] for c in r["calls"]] for r in got[2:]] == [["fy"], ["fz"]]


def test_files_parsed_again_are_batched_together(tmp_path):
    """scan's second round: the members a batch cannot keep (here b_use.c and
    c_use.c, which call the static helper a_def.c defines before them: alone,
    an implicit declaration) come back and are parsed as a batch of their
    own, where each sees what it sees alone; the whole scan's call sites are
    those of every file parsed alone (--batch 1)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "common.h").write_text(BATCH_FILES["common.h"])
    (src / "a_def.c").write_text('#include "common.h"\nstatic int helper(void) { return 1; }\n'
                                 'int fa(char *b) { return snprintf(b, 8, "%d", helper()); }\n')
    for name, conv in (("b_use.c", "%u"), ("c_use.c", "%x")):
        (src / name).write_text('#include "common.h"\nint f%s(char *b) { return snprintf(b, 8, "%s", helper()); }\n'
                                % (name[0], conv))
    for n in range(14):  # a prelude (common.h) needs 16 files of one group: 17
        (src / f"z{n:02}.c").write_text('#include "common.h"\nint z%d(char *b) { return snprintf(b, 4, "%%d", %d); }\n'
                                        % (n, n))
    runs = {}
    for batch in ("8", "1"):
        p = scan(src, "--jobs", "1", "--batch", batch, "--prelude-cache", "none", "--out", tmp_path / f"run{batch}")
        assert p.returncode == 0, p.stdout + p.stderr
        runs[batch] = json.loads((tmp_path / f"run{batch}" / "report.json").read_text())["call_sites"]
        if batch == "8":
            assert "parsed: 17 files in batches of up to 8 (2 of them in a second batch), 0 parsed alone again " \
                   "after their batch, 0 alone" in p.stdout, p.stdout
    assert runs["8"] == runs["1"] and len(runs["8"]) == 17
    assert {c["file"].rsplit("/", 1)[1]: c["args"][0]["type"] for c in runs["8"]}["b_use.c"] == "int"


def test_progress_on_a_terminal(tmp_path):
    """On a terminal the scan redraws one line as the files are read: how many
    of how many, the call sites so far (a tree of thousands of files takes
    minutes); the summary then starts on a clean line."""
    import pty
    n = len(list(FIXTURES.glob("*.c")))
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdin, stdout and stderr on the terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, str(ROOT / "scnfuzz"), "scan", "tests/scan", "--jobs", "1",
                                  "--batch", "1", "--no-prelude", "--out", str(tmp_path / "run")])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    text = out.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 1, text[-2000:]  # the fixtures' misuse findings
    lines = [x for x in text.replace("\r\x1b[K", "\n").splitlines() if x.startswith("scan: ")]
    counts = [re.match(rf"scan: +[0-9.]+% ([0-9]+) of {n} files, ([0-9]+) printf-family calls, [0-9]+ files/s$", x)
              for x in lines]
    counts = [(int(m.group(1)), int(m.group(2))) for m in counts if m]
    assert counts and all(1 <= k <= n for k, _ in counts), lines
    assert [k for k, _ in counts] == sorted(k for k, _ in counts), lines  # it only goes forward
    assert f"scan: {n} of {n} files read" in lines, lines
    assert any(x.startswith(f"scan: {n} files, ") for x in lines), lines  # the summary after it


def test_parse_errors_are_counted_in_the_summary(tmp_path):
    """A file libclang reads only in part (a header the flags do not reach)
    still gives its call sites, and the summary says how many files had
    parse errors, so that a user looks at -I, -D or --kernel."""
    (tmp_path / "a.c").write_text('#include "missing.h"\n#include <stdio.h>\n'
                                  'int f(char *b, int n) { return snprintf(b, n, "%d", n); }\n')
    (tmp_path / "b.c").write_text('#include <stdio.h>\nint g(char *b) { return sprintf(b, "%s", "x"); }\n')
    p = scan(tmp_path / "a.c", tmp_path / "b.c", "--out", tmp_path / "run")
    assert p.returncode == 0, p.stdout + p.stderr
    summary = next(x for x in p.stdout.splitlines() if x.startswith("scan: 2 files, "))
    assert summary.startswith("scan: 2 files, 2 printf-family calls, ") and \
        summary.endswith("; 1 with parse errors, read past them"), summary
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert rep["files_with_parse_errors"] == 1


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_interrupted_scan_writes_the_report_of_the_files_read(tmp_path, sig):
    """^C or SIGTERM during a long scan loses nothing read: the report of the
    files read so far (each one whole), marked interrupted, and exit 130."""
    import signal
    # files that take a while each (their headers parsed with each, no prelude): the scan is far
    # from done when the signal comes, on any machine
    n = 1500
    for i in range(n):
        (tmp_path / f"f{i:04d}.c").write_text(f'#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
                                              f'#include <wchar.h>\nint f{i}(char *b, int s) '
                                              f'{{ return snprintf(b, s, "%d", {i}); }}\n')
    p = subprocess.Popen([sys.executable, str(ROOT / "scnfuzz"), "scan", str(tmp_path), "--jobs", "2",
                          "--batch", "1", "--no-prelude", "--out", str(tmp_path / "run")], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()  # the progress line's first report: a file has been read
    assert first.startswith(f"scan: 1 of {n:,} files"), first
    p.send_signal(getattr(signal, sig))
    out, err = p.communicate(timeout=300)
    assert p.returncode == 130, (out, err)
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert rep["files_planned"] == n and 1 <= rep["files"] < n, (rep["files"], err)
    # each file read is there whole: its one call site
    assert rep["calls"] == rep["files"] and len({c["file"] for c in rep["call_sites"]}) == rep["files"]
    assert f"scan: interrupted: {rep['files']} of {n} files read, their report written" in err, err
    assert f"Interrupted: {rep['files']} of {n} files read" in (tmp_path / "run" / "report.md").read_text()
