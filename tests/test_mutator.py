"""The mutant generator (runner/scnfuzz/mutator.py: libclang), its schemata, and trivial
compiler equivalence (runner/scnfuzz/tce.py), on the small C files of tests/mutator/ and
on the real printf sources the build fetched (musl's vfprintf.c, the kernel's
lib/vsprintf.c) and impl/."""
import dataclasses
import json
import os
import pathlib
import re
import shlex
import subprocess

import pytest

from conftest import REPO, build_dir
from scnfuzz import mutator, tce  # noqa: E402  (conftest's plugin_findings puts runner on sys.path)

HERE = REPO / "tests" / "mutator"
SMALL = HERE / "small.c"
FLAGS = ["-std=c11"]

# every mutant of small.c: (line, col, before, after, operator)
SMALL_MUTANTS = [
    (10, 23, "0", "(-1)", "CRCR"),
    (10, 23, "0", "1", "CRCR"),
    (12, 9, "a < b", "0", "ROR"),
    (12, 9, "a < b", "!(a < b)", "NEG"),
    (12, 11, "<", "!=", "ROR"),
    (12, 11, "<", "<=", "ROR"),
    (13, 9, "n = a + b;", ";", "SDL"),
    (13, 15, "+", "%", "AOR"),
    (13, 15, "+", "*", "AOR"),
    (13, 15, "+", "-", "AOR"),
    (13, 15, "+", "/", "AOR"),
    (14, 12, "n > 10", "0", "ROR"),
    (14, 12, "n > 10", "!(n > 10)", "NEG"),
    (14, 14, ">", "!=", "ROR"),
    (14, 14, ">", ">=", "ROR"),
    (14, 16, "10", "(-1)", "CRCR"),
    (14, 16, "10", "0", "CRCR"),
    (14, 16, "10", "1", "CRCR"),
    (14, 16, "10", "11", "CRCR"),
    (14, 16, "10", "9", "CRCR"),
    (15, 9, "n -= 7;", ";", "SDL"),
    (15, 11, "-=", "%=", "AOR"),
    (15, 11, "-=", "*=", "AOR"),
    (15, 11, "-=", "+=", "AOR"),
    (15, 11, "-=", "/=", "AOR"),
    (15, 14, "7", "(-1)", "CRCR"),
    (15, 14, "7", "0", "CRCR"),
    (15, 14, "7", "1", "CRCR"),
    (15, 14, "7", "6", "CRCR"),
    (15, 14, "7", "8", "CRCR"),
    (18, 9, "n = TWICE(n + 1);", ";", "SDL"),
    (19, 9, "break;", ";", "SDL"),
    (21, 5, "n++;", ";", "SDL"),
    (21, 6, "++", "--", "AOR"),
    (22, 12, "n + (int)sizeof buf", "0", "RVR"),
    (22, 12, "n + (int)sizeof buf", "1", "RVR"),
    (22, 14, "+", "%", "AOR"),
    (22, 14, "+", "*", "AOR"),
    (22, 14, "+", "-", "AOR"),
    (22, 14, "+", "/", "AOR"),
]
# small.c's pairs (a, b) for the driver: each branch, the loop, the case, a division by 0
INPUTS = ["1", "20", "5", "3", "2", "3", "-4", "0", "7", "7"]


@pytest.fixture(scope="module")
def small():
    return mutator.generate(str(SMALL), FLAGS)


def _span(source, text, nth=0):
    """[start, end) of the nth occurrence of text in source (bytes)."""
    starts = [m.start() for m in re.finditer(re.escape(text.encode()), source)]
    return starts[nth], starts[nth] + len(text)


def test_small_exact_mutants(small):
    got = [(m.line, m.col, m.before, m.after, m.operator) for m in small]
    assert got == SMALL_MUTANTS
    assert [m.id for m in small] == list(range(1, len(small) + 1))
    assert {m.function for m in small} == {"small"}
    assert {m.file for m in small} == {str(SMALL)}
    # the same source and flags give the same ids
    again = mutator.generate(str(SMALL), FLAGS)
    assert [(m.id, m.start, m.after) for m in again] == [(m.id, m.start, m.after) for m in small]


def test_small_spans_are_the_source(small):
    source = SMALL.read_bytes()
    lines = source.split(b"\n")
    for m in small:
        assert source[m.start:m.end].decode() == m.before
        line_start = sum(len(x) + 1 for x in lines[:m.line - 1])
        assert line_start + m.col - 1 == m.start
        assert m.host_start <= m.start <= m.end <= m.host_end


def test_small_no_mutant_in_macro_case_label_or_array_size(small):
    source = SMALL.read_bytes()
    macro = _span(source, "TWICE(n + 1)")
    forbidden = [_span(source, "((x) * 2)"), _span(source, "3:"), _span(source, "[8]"),
                 _span(source, "sizeof buf")]
    for m in small:
        inside_macro = macro[0] <= m.start < macro[1] or macro[0] < m.end <= macro[1]
        # the statement holding the macro may go whole; nothing in the invocation is edited
        assert not inside_macro or (m.operator == "SDL" and m.start < macro[0] and m.end > macro[1]), m
        for a, b in forbidden:
            assert not (a <= m.start < b), m


def test_constant_contexts_and_pointers():
    path = HERE / "contexts.c"
    ms = mutator.generate(str(path), FLAGS)
    text = path.read_text().split("\n")
    by_line = {}
    for m in ms:
        by_line.setdefault(m.line, []).append(m)
    for no, line in enumerate(text, 1):
        if "/* none" in line:
            assert no not in by_line, (line, by_line.get(no))
        elif "/* some" in line:
            assert no in by_line, line
    designated = [m for m in ms if "[2] = 4" in text[m.line - 1]]
    assert {(m.before, m.operator) for m in designated} == {("4", "CRCR")}
    sizeof_line = [m for m in ms if "sizeof(buf" in text[m.line - 1]]
    assert {m.operator for m in sizeof_line} == {"RVR"}
    null_test = [m for m in ms if "p == 0" in text[m.line - 1]]
    assert {(m.operator, m.after) for m in null_test} == {("ROR", "!="), ("ROR", "0"), ("NEG", "!(p == 0)")}
    pointer_line = [m for m in ms if "*(p + 1)" in text[m.line - 1]]
    assert ("1", "CRCR") in {(m.before, m.operator) for m in pointer_line}
    plus = text[pointer_line[0].line - 1].index("+ 1") + 1
    assert not [m for m in pointer_line if m.col == plus], "pointer arithmetic mutated"


def test_regrouping_operators_get_parentheses():
    ms = mutator.generate(str(HERE / "contexts.c"), FLAGS)
    edits = {(m.before, m.after) for m in ms}
    # the left operand of the last + is itself a sum: % must take all of it
    assert ("b.lo + calls + table[0] + arr[2]", "(b.lo + calls + table[0]) % arr[2]") in edits
    for m in ms:
        if m.after.startswith("("):
            assert m.after.count("(") == m.after.count(")"), m


def test_functions_filter_and_lines():
    assert mutator.generate(str(SMALL), FLAGS, functions=["other"]) == []
    assert len(mutator.generate(str(SMALL), FLAGS, functions=["small"])) == len(SMALL_MUTANTS)
    lines = mutator.functions_by_line(str(SMALL), FLAGS)
    assert lines[12] == "small" and 4 not in lines


def test_parse_error_names_the_place(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int f(void)\n{\n    return undeclared_name;\n}\n")
    with pytest.raises(mutator.MutatorError, match=r"bad\.c:3: .*undeclared"):
        mutator.generate(str(bad), FLAGS)


def test_apply_rejects_a_mutant_of_another_source(small):
    with pytest.raises(mutator.MutatorError):
        mutator.apply(b"int x;\n" + SMALL.read_bytes(), small[0])


def _cc(args, cwd):
    r = subprocess.run(["cc", "-O0", "-fwrapv", "-w", *args], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


def _outputs(binary, last):
    """{id: its lines} for ids 0..last, from one run of the driver."""
    r = subprocess.run([str(binary), str(last), *INPUTS], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = {}
    for line in r.stdout.splitlines():
        mid, rest = line.split(" ", 1)
        out.setdefault(int(mid), []).append(rest)
    assert sorted(out) == list(range(last + 1))
    assert all(len(v) == len(INPUTS) // 2 for v in out.values())
    return out


def test_schema_runs_each_mutant_as_apply_does(small, tmp_path):
    """The schema and every apply() mutant, run side by side on the same inputs: the same
    output for every id, and id 0 is the original. The apply() mutants are built into one
    program (each as small_m<id>, chosen by the driver's scn_mutant too)."""
    source = SMALL.read_bytes()
    driver = str(HERE / "small_driver.c")
    (tmp_path / "schema.c").write_bytes(mutator.schema(source, small))
    _cc(["schema.c", driver, "-o", "schema"], tmp_path)
    names, parts = [], []
    for m in [None, *small]:
        names.append(f"small_m{m.id if m else 0}")
        parts.append(f"#define small {names[-1]}\n".encode() + (mutator.apply(source, m) if m else source) +
                     b"\n#undef small\n")
    parts.append("".join(f"static int (*const fn[])(int, int) = {{{', '.join(names)}}};\n"
                         "extern int scn_mutant;\n"
                         "int small(int a, int b) { return fn[scn_mutant](a, b); }\n").encode())
    (tmp_path / "applied.c").write_bytes(b"".join(parts))
    _cc(["applied.c", driver, "-o", "applied"], tmp_path)

    expected = _outputs(tmp_path / "applied", len(small))
    got = _outputs(tmp_path / "schema", len(small))
    for i in expected:
        assert got[i] == expected[i], (small[i - 1] if i else "the original", got[i], expected[i])
    # the mutants do differ: the comparison above can fail
    distinct = {tuple(v) for v in expected.values()}
    assert len(distinct) > len(small) // 3
    assert any("hang" in x for v in expected.values() for x in v)
    assert any("signal" in x for v in expected.values() for x in v)


def _lines_kept(source, schema):
    """Whether each line of the source is on the same line of the schema after its
    #line 1 (so that __LINE__ and diagnostics are the original's)."""
    body = schema.partition(b"#line 1\n")[2].split(b"\n")
    lines = source.split(b"\n")

    def indent(line):
        return line[:len(line) - len(line.lstrip())]
    return len(body) == len(lines) and all(indent(a) == indent(b) for a, b in zip(lines, body))


def test_schema_guards_and_nesting(small):
    assert _lines_kept(SMALL.read_bytes(), mutator.schema(SMALL.read_bytes(), small))
    out = mutator.schema(SMALL.read_bytes(), small).decode()
    assert out.startswith("extern int scn_mutant;\n")
    for m in small:
        assert re.search(rf"\bscn_mutant [!=]= {m.id}\b", out), m
    # the NEG of `a < b` holds the schema of its ROR mutants (nested, still selectable)
    neg = next(m for m in small if m.operator == "NEG" and m.line == 12)
    ror = next(m for m in small if m.operator == "ROR" and m.after == "<=" and m.line == 12)
    assert out.index(f"scn_mutant == {neg.id}") < out.index(f"scn_mutant == {ror.id}")
    with pytest.raises(mutator.MutatorError):
        mutator.schema(b"int x;\n" + SMALL.read_bytes(), small)


@pytest.mark.parametrize("per_function", [True, False])
def test_tce_equivalent_duplicate_stillborn(small, per_function):
    source = SMALL.read_bytes()

    def pick(line, after, op):
        return next(m for m in small if (m.line, m.after, m.operator) == (line, after, op))
    brk = pick(19, ";", "SDL")        # the last break of a switch: nothing follows it
    ge10 = pick(14, ">=", "ROR")      # n >= 10
    gt9 = pick(14, "9", "CRCR")       # n > 9: the same test on an unsigned char
    plus = pick(13, "-", "AOR")       # a - b: live
    broken = dataclasses.replace(small[-1], id=len(small) + 1, after="->")
    done = []
    verdict = tce.classify(str(SMALL), source, [brk, ge10, gt9, plus, broken],
                           ["cc", *FLAGS, "-O0", "-g", "-c", str(SMALL), "-o", "small.o"], jobs=2,
                           progress=lambda d, t: done.append((d, t)), per_function=per_function)
    assert verdict[brk.id][0] == "equivalent" and "same" in verdict[brk.id][1]
    assert verdict[ge10.id] == ("live", "")
    assert verdict[gt9.id] == ("duplicate", str(ge10.id))
    assert verdict[plus.id] == ("live", "")
    status, detail = verdict[broken.id]
    assert status == "stillborn" and "error" in detail
    assert done[-1] == (5, 5)


def test_tce_original_must_compile(small, tmp_path):
    with pytest.raises(tce.TceError, match="original does not compile"):
        tce.classify(str(SMALL), SMALL.read_bytes(), small[:3],
                     ["cc", "-include", str(tmp_path / "missing.h"), "-c", str(SMALL)])


# --- the real printf sources ----------------------------------------------------------

def _compile_entry(suffix):
    db = build_dir() / "compile_commands.json"
    if not db.is_file():
        return None
    for e in json.loads(db.read_text()):
        if e["file"].endswith(suffix):
            return e["file"], e.get("arguments") or shlex.split(e["command"])
    return None


def _generate_and_check(path, argv):
    """generate() on a real file with its build flags: every mutant's span is the
    original text, and the schema of all of them compiles with the same flags."""
    ms = mutator.generate(path, argv[1:])
    source = pathlib.Path(path).read_bytes()
    for m in ms:
        assert source[m.start:m.end].decode("utf-8", "surrogateescape") == m.before, m
    schema = mutator.schema(source, ms)
    assert _lines_kept(source, schema)
    flags = mutator.parse_flags(argv[1:])
    r = subprocess.run([argv[0], *flags, "-iquote", os.path.dirname(path), "-fsyntax-only", "-x", "c", "-"],
                       input=schema, capture_output=True)
    assert r.returncode == 0, r.stderr.decode()[:3000]
    return ms


def test_musl_vfprintf():
    src = build_dir() / "core/targets/musl/musl-source"
    found = sorted(src.glob("src/musl-*/src/stdio/vfprintf.c")) if src.is_dir() else []
    if not found:
        pytest.skip(f"no fetched musl source under {src} (a build with SCN_WITH_MUSL fetches it)")
    entry = _compile_entry("/src/stdio/vfprintf.c")
    assert entry, f"{build_dir()}/compile_commands.json has no entry for musl's vfprintf.c"
    ms = _generate_and_check(*entry)
    assert len(ms) > 300
    ops = {m.operator for m in ms}
    assert ops == set(mutator.OPERATORS)
    assert {"printf_core", "fmt_fp", "fmt_u"} <= {m.function for m in ms}


def test_kernel_vsprintf():
    entry = _compile_entry("/linux-source-6.1/lib/vsprintf.c")
    if not entry:
        pytest.skip(f"no kernel lib/vsprintf.c in {build_dir()}/compile_commands.json (SCN_WITH_KERNEL off)")
    ms = _generate_and_check(*entry)
    assert len(ms) > 1000
    assert {"vsnprintf", "vscnprintf", "number"} <= {m.function for m in ms}


def test_impl_printf():
    path = str(REPO / "impl" / "src" / "printf.c")
    entry = _compile_entry("/impl/src/printf.c")
    argv = entry[1] if entry else ["cc", "-I", str(REPO / "impl/include"), "-I", str(REPO / "impl/src"),
                                   "-ffreestanding", "-std=gnu11", "-c", path]
    ms = _generate_and_check(path, argv)
    assert len(ms) > 100
