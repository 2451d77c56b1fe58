"""`scnfuzz mutate`: mutation analysis and re-introduced bugs (--patch).

Quick (no build): the run-time switch (core/targets/mutant_switch.c) with a
schema of a small function as `scnfuzz mutate` makes it (SCN_MUTANT=0 is the
original, a mutant id runs that mutant, -1 the original noting what it
reaches, anything else exit 2); the unreachable table's form; a diff that does
not apply is named by file and hunk.

Slow (the mutation build of musl, build/mutate/musl or $SCN_MUTATE_DIR/musl,
shared by all of them): a run restricted to two functions whose counts add up
and whose known-killable mutant is killed by the corpus, the switch in that
build, the mutant server (a child per mutant) against runs of their own, and --patch on a planted bug (found by the corpus), a comment change
(not found, after a short campaign) and a diff that does not apply (exit 2)."""
import difflib
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from conftest import REPO, campaign_seconds

sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import mutate, mutate_build, mutate_patch, mutator  # noqa: E402
from scnfuzz.errors import SetupError, UsageError  # noqa: E402

SCNFUZZ = [sys.executable, str(REPO / "scnfuzz")]
SMALL = b"""int f(int a)
{
    int r = 0;
    if (a < 3)
        r = a + 1;
    else
        r = a * 2;
    return r;
}
"""
DRIVER = r"""#include <stdio.h>
#include <stdlib.h>
#include "mutant_switch.h"
int f(int a);
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int ids[64];
        printf("%d:", f(atoi(argv[i])));
        size_t n = scn_mutant_reached(ids, 64);
        for (size_t k = 0; k < n && k < 64; k++) printf(" %d", ids[k]);
        printf("\n");
    }
    return 0;
}
"""


def _cc():
    for cc in ("clang-14", "cc", "gcc"):
        if subprocess.run(["sh", "-c", f"command -v {cc}"], capture_output=True).returncode == 0:
            return cc
    pytest.skip("no C compiler")


@pytest.fixture(scope="module")
def small_switch(tmp_path_factory):
    """small.c's mutants, its schema as mutate.py writes it, compiled with the
    switch: (mutants, binary)."""
    d = tmp_path_factory.mktemp("switch")
    src = d / "small.c"
    src.write_bytes(SMALL)
    ms = mutator.generate(str(src), ["-std=gnu11"])
    assert ms, "the mutator found nothing in the small function"
    schema = d / "schema.c"
    schema.write_bytes(mutate.schema_source(mutator, SMALL, ms))
    (d / "driver.c").write_text(DRIVER)
    exe = d / "small"
    subprocess.run([_cc(), "-O1", "-Wall", "-Werror", "-I", str(REPO / "core" / "targets"), str(schema),
                    str(d / "driver.c"), str(REPO / "core" / "targets" / "mutant_switch.c"), "-o", str(exe)],
                   check=True)
    return ms, exe


def _run(exe, mutant, *args):
    env = dict(os.environ, SCN_MUTANT=str(mutant))
    return subprocess.run([str(exe)] + [str(a) for a in args], capture_output=True, text=True, env=env,
                          timeout=60)


def _values(out):
    return [int(l.split(":")[0]) for l in out.splitlines()]


def test_the_switch_runs_the_original_a_mutant_or_notes_reach(small_switch):
    ms, exe = small_switch
    inputs = [0, 2, 3, 7]
    original = [a + 1 if a < 3 else a * 2 for a in inputs]
    assert _values(_run(exe, 0, *inputs).stdout) == original
    # the `+` of `a + 1` made `-`: a mutant id runs that mutant, and it kills (a = 0 gives -1)
    minus = [m for m in ms if m.before == "+" and m.after == "-"]
    assert len(minus) == 1, ms
    got = _values(_run(exe, minus[0].id, *inputs).stdout)
    assert got == [a - 1 if a < 3 else a * 2 for a in inputs] and got != original
    # -1: the original's values, and each input reports the mutation points it reached
    r = _run(exe, -1, 0, 7)
    assert _values(r.stdout) == [1, 14]
    reached = [set(map(int, l.split(":")[1].split())) for l in r.stdout.splitlines()]
    then_side = {m.id for m in ms if m.line == 5}   # r = a + 1: only a < 3 gets there
    else_side = {m.id for m in ms if m.line == 7}   # r = a * 2
    cond = {m.id for m in ms if m.line == 4}        # a < 3: every call
    assert then_side and else_side and cond
    assert cond <= reached[0] and cond <= reached[1]
    assert then_side <= reached[0] and not (then_side & reached[1])
    assert else_side <= reached[1] and not (else_side & reached[0])
    # the schema guards every mutant: the set of ids reached is within the generated ones
    assert reached[0] | reached[1] <= {m.id for m in ms}


@pytest.mark.parametrize("value", ["x", "3x", "-2", "70000"])
def test_the_switch_refuses_what_is_not_a_mutant_id(small_switch, value):
    _, exe = small_switch
    r = _run(exe, value, 1)
    assert r.returncode == 2 and "SCN_MUTANT" in r.stderr and r.stdout == ""


def test_the_unreachable_table_has_its_form():
    """Each line: a subject the command knows, a file, a function, '-' or line
    ranges, and a reason."""
    rows = [l for l in mutate.UNREACHABLE_TSV.read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert rows, "the table is empty"
    for line in rows:
        f = line.split("\t")
        assert len(f) == 5, line
        assert f[0] in mutate_build.SUBJECTS and f[1] and f[2] and f[4].strip(), line
        assert f[3] == "-" or re.fullmatch(r"(\d+(-\d+)?|\d+:\d+(-\d+)?)(,(\d+(-\d+)?|\d+:\d+(-\d+)?))*", f[3]), line
    # loading it for a subject gives its rows
    subj, path = rows[0].split("\t")[:2]
    assert mutate.load_unreachable(subj, path)
    # a column range takes the edits of its line that start there, no other
    table = [("f", [(682, 682, 32, 40), (700, 702, 1, 1 << 30)], "why")]

    def at(line, col):
        return mutate._unreachable_reason(mutator.Mutant(id=1, file="x.c", line=line, col=col, start=0, end=0,
                                                         before="a", after="b", operator="X", function="f"), table)
    assert at(682, 32) == at(682, 40) == at(701, 5) == "why"
    assert at(682, 31) is None and at(682, 41) is None and at(683, 32) is None


def test_the_equivalent_table_has_its_form_and_matches_its_text():
    """Each line: a subject, a file, a function, line:col, the edit's text and
    its replacement, and a reason; a row whose text is not the source's stops
    the run instead of declaring another mutant equivalent."""
    rows = [l for l in mutate.EQUIVALENT_TSV.read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert rows, "the table is empty"
    for line in rows:
        f = line.split("\t")
        assert len(f) == 7, line
        assert f[0] in mutate_build.SUBJECTS and f[1] and f[2] and f[5] and f[6].strip(), line
        assert re.fullmatch(r"\d+:\d+", f[3]), line
    subj, path, fn, at, before, after, why = rows[0].split("\t")
    table = mutate.load_equivalent(subj, path)
    ln, col = (int(x) for x in at.split(":"))
    m = mutator.Mutant(id=1, file=path, line=ln, col=col, start=0, end=0, before=mutate._unescape(before),
                       after=mutate._unescape(after), operator="X", function=fn)
    assert mutate._equivalent_reason(m, table) == why
    assert mutate._equivalent_reason(mutator.Mutant(**{**m.__dict__, "col": col + 1000}), table) is None
    with pytest.raises(SetupError, match="the source has"):
        mutate._equivalent_reason(mutator.Mutant(**{**m.__dict__, "before": m.before + " "}), table)
    # the text of a multi-line statement survives the table's escapes
    text = "a\tb\\n\nc;"
    assert mutate._unescape(mutate.escape_edit(text)) == text and "\n" not in mutate.escape_edit(text)


def test_the_overflow_cases_regenerate_and_each_expects_a_failure(tmp_path):
    """corpus/overflow/overflow.tsv (run by `mutate` of musl and impl, not with
    corpus/*.tsv): the generator writes it byte for byte, each case an output
    over INT_MAX bytes that the model counts and expects to fail (!err)."""
    got = tmp_path / "overflow.tsv"
    r = subprocess.run([sys.executable, str(REPO / "corpus" / "gen" / "generate.py"), "--overflow-out", str(got)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert got.read_bytes() == (REPO / mutate_build.OVERFLOW_CORPUS).read_bytes()
    rows = [l.split("\t") for l in got.read_text().splitlines() if not l.startswith("#")]
    assert len(rows) >= 10 and all(f[2] == "!err" and f[3] == "-" for f in rows), rows
    assert mutate_build.OVERFLOW_CORPUS in {str(f.relative_to(REPO)) for f in mutate_build.subject("musl").corpus_files()}
    sys.path.insert(0, str(REPO / "corpus" / "gen"))
    import model_iso
    # one byte short of the limit is a length, not a failure: such a case is refused (no output is built)
    with pytest.raises(model_iso.Undefined, match="2147483647 bytes"):
        model_iso.format_iso(b"%.2147483645f", [("double", 0x3ff0000000000000)], None)
    with pytest.raises(model_iso.Overflow):
        model_iso.format_iso(b"%.2147483646f", [("double", 0x3ff0000000000000)], None)


def test_a_large_schema_is_split_in_contiguous_parts_one_per_job():
    from scnfuzz.mutate_pipeline import SPLIT_MIN, schema_parts

    def ms(n):
        return [mutator.Mutant(id=i, file="f.c", line=i, col=1, start=0, end=0, before="a", after="b",
                               operator="X", function="f") for i in range(n, 0, -1)]
    assert [len(p) for p in schema_parts(ms(2 * SPLIT_MIN - 1), 2)] == [2 * SPLIT_MIN - 1]
    assert [len(p) for p in schema_parts(ms(2 * SPLIT_MIN + 1), 1)] == [2 * SPLIT_MIN + 1]
    parts = schema_parts(ms(5 * SPLIT_MIN + 3), 2)
    assert [len(p) for p in parts] == [(5 * SPLIT_MIN + 3) // 2, (5 * SPLIT_MIN + 3) - (5 * SPLIT_MIN + 3) // 2]
    ids = [m.id for p in parts for m in p]
    assert ids == list(range(1, 5 * SPLIT_MIN + 4)) and max(m.id for m in parts[0]) < min(m.id for m in parts[1])


def test_a_sample_is_the_same_draw_for_the_same_seed_and_uniform():
    from scnfuzz.mutate_report import wilson_interval

    ms = [mutator.Mutant(id=i, file="f.c", line=i, col=1, start=0, end=0, before="a", after="b", operator="X",
                         function="f") for i in range(1, 1001)]
    a, pool = mutate.select(ms, sample=100, seed=7)
    b, _ = mutate.select(ms, sample=100, seed=7)
    c, _ = mutate.select(ms, sample=100, seed=8)
    assert pool == 1000 and len(a) == 100 and [m.id for m in a] == [m.id for m in b] != [m.id for m in c]
    assert [m.id for m in a] == sorted(m.id for m in a) and len({m.id for m in a}) == 100
    # uniform: over 400 draws of 100 of 1000, each tenth of the ids gets about a tenth of the picks
    tenths = [0] * 10
    for seed in range(400):
        for m in mutate.select(ms, sample=100, seed=seed)[0]:
            tenths[(m.id - 1) // 100] += 1
    assert all(3600 < n < 4400 for n in tenths), tenths  # 4000 each expected, sd about 60
    # --mutant ranges first, then the draw among them; a sample as large as the pool takes all
    r, pool = mutate.select(ms, ranges=[(5, 9), (20, 20)])
    assert [m.id for m in r] == [5, 6, 7, 8, 9, 20] and pool == 6
    assert [m.id for m in mutate.select(ms, ranges=[(5, 9)], sample=50)[0]] == [5, 6, 7, 8, 9]
    # the score's 95% interval: Wilson's (90 of 100: 82.6%-94.5%), inside [0, 1] at the ends
    assert wilson_interval(90, 100) == [0.8256, 0.9448]
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 0) is None


def test_a_schema_goes_in_with_every_other_file_back_as_fetched(tmp_path, monkeypatch):
    """impl/ has many files in one mutation build: a schema an earlier run left
    in another file would answer to the same SCN_MUTANT ids as this one's."""
    monkeypatch.setattr(mutate_build, "MUTATE_DIR", tmp_path)
    b = mutate_build.MutationBuild(mutate_build.subject("impl"))
    a, c = b.src / "impl" / "src" / "a.c", b.src / "impl" / "src" / "c.c"
    a.parent.mkdir(parents=True)
    a.write_bytes(b"int a;\n")
    c.write_bytes(b"int c;\n")
    b.substitute(a, mutate_build.SCHEMA_MARK + b" a's mutants */\n")  # an earlier run's schema
    b.substitute(c, mutate_build.SCHEMA_MARK + b" c's mutants */\n")
    assert b.restore_all(keep=c) == 1
    assert a.read_bytes() == b"int a;\n" and c.read_bytes().startswith(mutate_build.SCHEMA_MARK)
    assert b.restore_all() == 1 and c.read_bytes() == b"int c;\n"


SECOND = b"""int g(int a)
{
    return a > 5 ? a - 5 : 0;
}
"""
TWO_DRIVER = r"""#include <stdio.h>
#include <stdlib.h>
#include "mutant_switch.h"
int f(int a);
int g(int a);
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int ids[128];
        int a = atoi(argv[i]);
        printf("%d %d:", f(a), g(a));
        size_t n = scn_mutant_reached(ids, 128);
        for (size_t k = 0; k < n && k < 128; k++) printf(" %d", ids[k]);
        printf("\n");
    }
    return 0;
}
"""


def _impl_build_with(tmp_path, monkeypatch, files, compiled):
    """A mutation build of impl under tmp_path whose tree holds files
    ({name: content} in impl/src/) and whose compile_commands.json lists
    the `compiled` ones."""
    monkeypatch.setattr(mutate_build, "MUTATE_DIR", tmp_path)
    b = mutate_build.MutationBuild(mutate_build.subject("impl"))
    d = b.src / "impl" / "src"
    d.mkdir(parents=True)
    for name, data in files.items():
        (d / name).write_bytes(data)
    b.bdir.mkdir(parents=True)
    (b.bdir / "compile_commands.json").write_text(json.dumps([
        {"directory": str(b.bdir), "file": str(d / n), "arguments": ["cc", "-std=gnu11", "-c", str(d / n)]}
        for n in compiled]))
    return b, d


def test_file_a_directory_is_every_c_file_the_build_compiles_in_order_each_once(tmp_path, monkeypatch):
    b, d = _impl_build_with(tmp_path, monkeypatch, {"b.c": SECOND, "a.c": SMALL, "only_included.c": b"int x;\n",
                                                    "h.h": b"int h;\n"}, ["b.c", "a.c"])
    assert mutate.source_paths(b, ["impl/src"], "x") == [d / "a.c", d / "b.c"]
    assert mutate.source_paths(b, ["impl/src/b.c", "impl/src"], "x") == [d / "b.c", d / "a.c"]
    assert mutate.source_paths(b, None, "impl/src/b.c") == [d / "b.c"]
    (d / "empty").mkdir()
    with pytest.raises(UsageError, match="no .c file under it"):
        mutate.source_paths(b, ["impl/src/empty"], "x")


def test_several_files_are_one_schema_build_numbered_across_them(tmp_path, monkeypatch):
    """--file impl/src: the mutants of every file in one numbering, each file's
    schema holding its own, compiled together; SCN_MUTANT=N runs the one
    mutant N of one file; -1 notes the points reached in both; another
    file's schema left by an earlier run goes back as fetched; the report
    counts per file and per function."""
    import types
    from scnfuzz import mutate_report
    from scnfuzz.mutate_pipeline import Pipeline
    left = mutate_build.SCHEMA_MARK + b" an earlier run's */\nint c;\n"
    b, d = _impl_build_with(tmp_path, monkeypatch, {"a.c": SMALL, "b.c": SECOND, "c.c": b"int c;\n"},
                            ["a.c", "b.c", "c.c"])
    b.original(d / "c.c")
    b.substitute(d / "c.c", left)
    units = [mutate.SourceUnit(d / n, f"impl/src/{n}", (d / n).read_bytes(), {}) for n in ("a.c", "b.c")]
    per = [(u, mutator.generate(str(u.path), ["-std=gnu11"])) for u in units]
    ms = mutate.number_across(per)
    na, nb = len(per[0][1]), len(per[1][1])
    assert na > 3 and nb > 3 and [m.id for m in ms] == list(range(1, na + nb + 1))
    assert {m.file for m in ms[:na]} == {"impl/src/a.c"} and {m.file for m in ms[na:]} == {"impl/src/b.c"}
    built = []
    monkeypatch.setattr(b, "build", lambda: built.append(1))
    s = types.SimpleNamespace(args=types.SimpleNamespace(jobs=1), build=b, interrupted=False)
    pipe = Pipeline(s, units, ms)
    pipe._build_schema(ms)
    assert built == [1] and (d / "c.c").read_bytes() == b"int c;\n"
    for u in units:
        assert u.path.read_bytes().startswith(mutate_build.SCHEMA_MARK)
    (d / "driver.c").write_text(TWO_DRIVER)
    exe = tmp_path / "two"
    subprocess.run([_cc(), "-O1", "-I", str(REPO / "core" / "targets"), str(d / "a.c"), str(d / "b.c"),
                    str(d / "driver.c"), str(REPO / "core" / "targets" / "mutant_switch.c"), "-o", str(exe)],
                   check=True)

    def outs(mutant, *inputs):
        r = _run(exe, mutant, *inputs)
        assert r.returncode == 0, r.stderr
        return [(tuple(map(int, l.split(":")[0].split())), set(map(int, l.split(":")[1].split())))
                for l in r.stdout.splitlines()]
    inputs = [0, 2, 3, 7, 9]
    original = [(a + 1 if a < 3 else a * 2, a - 5 if a > 5 else 0) for a in inputs]
    assert [v for v, _ in outs(0, *inputs)] == original
    minus = [m for m in ms if m.file == "impl/src/b.c" and m.before == "-" and m.after == "+"]
    assert len(minus) == 1 and minus[0].id > na
    got = [v for v, _ in outs(minus[0].id, *inputs)]
    assert [x for x, _ in got] == [x for x, _ in original] and got != original  # g changed, f did not
    reached = set().union(*(r for _, r in outs(-1, *inputs)))
    assert reached & set(range(1, na + 1)) and reached & set(range(na + 1, na + nb + 1))
    assert reached <= {m.id for m in ms}
    pipe.status = {m.id: ("equivalent", "x") for m in ms}
    model = mutate_report.model(mutate_build.subject("impl"), units, b.src, ms, pipe.status, {}, None, {},
                                types.SimpleNamespace(file=["impl/src"], function=None, time=1, jobs=1), False, 1.0)
    assert model["file"] == "impl/src" and [f["file"] for f in model["files"]] == ["impl/src/a.c", "impl/src/b.c"]
    assert [f["mutants"] for f in model["files"]] == [na, nb]
    assert [(f["file"], f["function"]) for f in model["functions"]] == [("impl/src/a.c", "f"), ("impl/src/b.c", "g")]
    page = mutate_report.annotated_html(model, {u.rel: u.original for u in units})
    assert 'id="impl/src/b.c:L3"' in page and mutate_report.markdown(model).count("| `impl/src/") == 4


def test_a_file_compiled_through_a_wrapper_takes_its_command_and_macros(tmp_path, monkeypatch):
    """newlib compiles vfprintf.c only as svfprintf.c (`#define STRING_ONLY 1`,
    `#include` it) and svfiprintf.c (INTEGER_ONLY too): the wrapper with the
    fewest macros gives the command; a file with anything else is no wrapper."""
    monkeypatch.setattr(mutate_build, "MUTATE_DIR", tmp_path)
    b = mutate_build.MutationBuild(mutate_build.subject("newlib"))
    b.bdir.mkdir(parents=True)
    src = tmp_path / "vfprintf.c"
    src.write_text("int f;\n")
    w1, w2, other = tmp_path / "svfiprintf.c", tmp_path / "svfprintf.c", tmp_path / "other.c"
    w1.write_text(f'#define STRING_ONLY 1\n#define INTEGER_ONLY 1\n#include "{src}"\n')
    w2.write_text(f'/* gen */\n#define STRING_ONLY 1\n#include "{src}"\n')
    other.write_text(f'#include "{src}"\nint g;\n')
    (b.bdir / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": str(f), "arguments": ["cc", "-Iinc", "-c", str(f), "-o", f"{f}.o"]}
        for f in (other, w1, w2)]))
    argv, directory = b.compile_command(src)
    assert argv == ["cc", "-DSTRING_ONLY=1", "-Iinc", "-c", str(src), "-o", f"{w2}.o"] and directory == str(tmp_path)
    with pytest.raises(UsageError, match="not compiled by the mutation build"):
        b.compile_command(tmp_path / "nowhere.c")


def test_a_diff_that_does_not_apply_names_the_file_and_hunk(tmp_path):
    root = tmp_path / "pkg"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.c").write_text("int a(void)\n{\n    return 1;\n}\n")
    diff = tmp_path / "bad.diff"
    diff.write_text("--- a/src/a.c\n+++ b/src/a.c\n@@ -1,4 +1,4 @@\n int a(void)\n {\n-    return 2;\n+    return 3;\n }\n")
    with pytest.raises(UsageError) as e:
        mutate_patch.patch_files(root, diff)
    assert "src/a.c" in str(e.value) and "hunk #1 FAILED" in str(e.value)
    good = tmp_path / "good.diff"
    good.write_text("--- a/src/a.c\n+++ b/src/a.c\n@@ -1,4 +1,4 @@\n int a(void)\n {\n-    return 1;\n+    return 3;\n }\n")
    assert mutate_patch.patch_files(root, good) == ["src/a.c"]
    assert "return 1;" in (root / "src" / "a.c").read_text()  # a dry run


# ------------------------------------------------------------------ the stages' decisions, with fake programs

FAKE_REPLAY = r"""#!/bin/sh
# a stand-in scn-replay: what it prints is what env FAKE_SAYS (a file) holds for the
# SCN_MUTANT and SCN_MATRIX_TARGET it is run with ("" when the file has no such line)
while IFS='	' read -r mutant target record; do
    if [ "$mutant" = "${SCN_MUTANT:-}" ] && [ "$target" = "${SCN_MATRIX_TARGET:--}" ]; then
        [ "$record" = SLEEP ] && exec sleep 60
        printf '%s\n' "$record"
    fi
done < "$FAKE_SAYS"
exit 0
"""


def _fake_replay(tmp_path, rows, monkeypatch):
    """A stand-in scn-replay printing rows[(SCN_MUTANT, SCN_MATRIX_TARGET or '-')]."""
    exe = tmp_path / "fake-replay"
    exe.write_text(FAKE_REPLAY)
    exe.chmod(0o755)
    says = tmp_path / "says.tsv"
    says.write_text("".join(f"{m}\t{t}\t{r}\n" for (m, t), r in rows.items()))
    monkeypatch.setenv("FAKE_SAYS", str(says))
    return exe


def _rec(**kw):
    return json.dumps(dict({"signature": "differential:%d:uclibc~ref:divergence", "oracle": "differential",
                            "targets": ["uclibc", "ref"], "case": '"%d" int:1'}, **kw))


def test_the_unmodified_matrix_target_is_replayed_as_its_campaign_runs_it(tmp_path, monkeypatch):
    """A fuzz_matrix finding is replayed on the unmodified target with the
    campaign's SCN_MATRIX_TARGET: without it the replay checks the reference
    alone, and a finding the unmodified uClibc-ng has too looked new."""
    from scnfuzz import mutate_run
    replay = _fake_replay(tmp_path, {("0", "uclibc"): _rec()}, monkeypatch)
    orig = mutate_run.Original(replay, dict(os.environ, SCN_MUTANT="0"))
    stopper = mutate_run.Stopper()
    case = tmp_path / "one.jsonl"
    case.write_text(_rec() + "\n")
    assert orig.findings(stopper, case, "matrix", (("SCN_MATRIX_TARGET", "uclibc"),)) == \
        {"differential:%d:uclibc~ref:divergence"}
    assert orig.findings(stopper, case, "matrix") == set()
    # the stage passes the fuzzer's settings: the same finding of the mutant is no kill
    fz = mutate_run.FuzzStage([], replay, orig, tmp_path, stopper, targets=("uclibc",))
    d = tmp_path / "fz"
    d.mkdir()
    findings = d / "findings.jsonl"
    findings.write_text(_rec() + "\n")
    off, kill = fz._check_findings(findings, 0, set(), "matrix", d, (("SCN_MATRIX_TARGET", "uclibc"),))
    assert kill is None and off == findings.stat().st_size
    # and one the unmodified target does not have is
    findings.write_text(_rec(signature="differential:%x:uclibc~ref:divergence") + "\n")
    _, kill = fz._check_findings(findings, 0, set(), "matrix", d, (("SCN_MATRIX_TARGET", "uclibc"),))
    assert kill and kill.status == "killed" and kill.signature == "differential:%x:uclibc~ref:divergence"


def test_a_hang_of_the_case_model_alone_is_not_a_kill(tmp_path, monkeypatch):
    """scn-replay blames "case-model" when no target alone hangs: not the
    mutant's doing, whatever the unmodified target's replay says."""
    from scnfuzz import mutate_run
    hang = _rec(oracle="hang", signature="hang:%d:case-model:hang", targets=["case-model"])
    replay = _fake_replay(tmp_path, {("7", "-"): hang}, monkeypatch)
    stopper = mutate_run.Stopper()
    orig = mutate_run.Original(replay, dict(os.environ, SCN_MUTANT="0"))
    fz = mutate_run.FuzzStage([], replay, orig, tmp_path, stopper, targets=("musl",))
    art = tmp_path / "timeout-1"
    art.write_bytes(b"x")
    o = fz._artifact(art, "fuzz_iso_diff", "iso_diff", dict(os.environ, SCN_MUTANT="7"), "")
    assert o.status == "died" and "case model" in o.detail
    # the same hang blamed on musl is a kill (the unmodified musl does not hang)
    (tmp_path / "says.tsv").write_text(f"7\t-\t{_rec(oracle='hang', signature='hang:%d:musl:hang', targets=['musl'])}\n")
    o = fz._artifact(art, "fuzz_iso_diff", "iso_diff", dict(os.environ, SCN_MUTANT="7"), "")
    assert o.status == "killed" and o.signature == "hang:%d:musl:hang"


def test_a_corpus_hang_kills_only_when_the_mutant_fails_the_case_alone(tmp_path, monkeypatch):
    """scn-conform's 1-s call limit on a loaded machine: a hang is replayed
    beside the reference, the mutant and the unmodified target, and kills
    only with a death or finding the unmodified target does not have."""
    from scnfuzz import mutate_run
    hang = _rec(oracle="hang", signature="hang:%d:musl:hang", targets=["musl"])
    replay = _fake_replay(tmp_path, {("7", "-"): hang}, monkeypatch)
    stopper = mutate_run.Stopper()
    env7, env0 = dict(os.environ, SCN_MUTANT="7"), dict(os.environ, SCN_MUTANT="0")
    both = (str(replay),) * 2
    assert mutate_run.confirm_hang(stopper, both, "musl", '"%d" int:1', env7, env0) is None
    why = mutate_run.confirm_hang(stopper, both, "musl", '"%d" int:1', dict(env7, SCN_MUTANT="8"), env0)
    assert why and "passes the case" in why
    (tmp_path / "says.tsv").write_text(f"7\t-\t{hang}\n0\t-\t{hang}\n")
    why = mutate_run.confirm_hang(stopper, both, "musl", '"%d" int:1', env7, env0)
    assert why and "the same way" in why
    # a crash of the mutant (an ASan report, slow to write under load), or its slow call's wrong bytes
    for rec in (_rec(oracle="crash", signature="crash:%d:musl:crash", targets=["musl"]),
                _rec(signature="differential:%d:musl~ref:divergence", targets=["musl", "ref"])):
        (tmp_path / "says.tsv").write_text(f"7\t-\t{rec}\n")
        assert mutate_run.confirm_hang(stopper, both, "musl", '"%d" int:1', env7, env0) is None
    # a difference between other targets, or one a rule explains, is not the mutant's
    (tmp_path / "says.tsv").write_text(
        f"7\t-\t{_rec(signature='differential:s-null:musl~ref:implementation-defined', classification='implementation-defined', targets=['musl', 'ref'])}\n")
    assert mutate_run.confirm_hang(stopper, both, "musl", '"%d" int:1', env7, env0)


def test_prepare_puts_the_originals_back_when_a_left_schema_does_not_build():
    """A schema an earlier run left in place that does not link: prepare()
    restores the originals and builds once more; with nothing to restore the
    build's failure stands."""
    for restored, want in ((1, ["build", "restore", "build"]), (0, ["build", "restore"])):
        b = mutate_build.MutationBuild.__new__(mutate_build.MutationBuild)
        calls, fails = [], [True, False]
        b.sync_tree = b.configure = lambda: None

        def build():
            calls.append("build")
            if fails.pop(0):
                raise SetupError("the mutation build failed")
        b.build = build
        b.restore_all = lambda: calls.append("restore") or restored
        if restored:
            b.prepare()
        else:
            with pytest.raises(SetupError):
                b.prepare()
        assert calls == want


def test_picolibc_long_double_cases_are_left_out(tmp_path):
    """picolibc's default build prints garbage for %L (a double read where a
    long double was passed): those cases cannot tell a mutant apart."""
    from scnfuzz import mutate_run
    f = tmp_path / "c.tsv"
    f.write_text('# head\nfloat.f\t"%f" double:0x1p+0\t"1.000000"\t""\tstd\tc\n'
                 'float.long-double\t"%Lf" ldouble:0x8p-3\t"1.000000"\t""\tstd\tc\n')
    pico = mutate_build.subject("picolibc")
    assert pico.unrepeatable
    c = mutate_run.Corpus([f], pico.unrepeatable)
    assert [ln for _, ln in c.lines] == [2] and c.left_out == 1
    assert len(mutate_run.Corpus([f], mutate_build.subject("musl").unrepeatable).lines) == 2
    fz = mutate_run.FuzzStage([], "x", None, tmp_path, mutate_run.Stopper(), unrepeatable=pico.unrepeatable)
    assert fz._unrepeatable({"case": '"%d" int:1', "original_case": '"%Lg%d" ldouble:0x8p-3 int:1'})
    assert not fz._unrepeatable({"case": '"%d" int:1'})


def test_patch_checks_the_diff_after_the_build_unpacked_the_source(tmp_path, monkeypatch):
    """A fresh kernel mutation build extracts lib/vsprintf.c when it builds:
    the diff's dry run comes after the build, not before (it exited 2)."""
    root = tmp_path / "pkg"

    class Stop(Exception):
        pass

    class FakeBuild:
        built = False

        def sync_tree(self):
            pass

        def configure(self):
            pass

        def restore_all(self):
            pass

        def build(self):
            if not FakeBuild.built:
                (root / "lib").mkdir(parents=True)
                (root / "lib" / "vsprintf.c").write_text("int a;\n")
            FakeBuild.built = True

        def source_root(self):
            return root

    class FakeSession:
        def __init__(self, args):
            self.build, self.subject = FakeBuild(), mutate_build.subject("kernel")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def conform_stage(self, corpus):
            raise Stop()
    monkeypatch.setattr(mutate_patch, "Session", FakeSession)
    diff = tmp_path / "k.diff"
    diff.write_text("--- a/lib/vsprintf.c\n+++ b/lib/vsprintf.c\n@@ -1 +1 @@\n-int a;\n+int b;\n")

    class Args:
        patch = str(diff)
    with pytest.raises(Stop):
        mutate_patch.run_patch(Args())
    assert FakeBuild.built


# ------------------------------------------------------------------ the musl mutation build


def _scnfuzz(*args, timeout=3600):
    return subprocess.run(SCNFUZZ + list(args), capture_output=True, text=True, cwd=REPO, timeout=timeout)


def _json_last(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def musl_run(tmp_path_factory):
    """One mutation run on musl's vfprintf.c restricted to fmt_o and fmt_x
    (it builds the mutation build on first use): (process, report.json, run dir)."""
    out = tmp_path_factory.mktemp("mutate") / "run"
    r = _scnfuzz("mutate", "--target", "musl", "--function", "fmt_o", "--function", "fmt_x", "--time", "2",
                 "--json", "--out", str(out))
    if r.returncode == 2 and "musl" in r.stderr and ("NOT BUILT" in r.stderr or "fetch" in r.stderr):
        pytest.skip(f"no musl source for the mutation build: {r.stderr.strip()[-300:]}")
    assert r.returncode == 0, r.stderr[-3000:]
    return r, json.loads((out / "report.json").read_text()), out


def _mutation_build():
    return mutate_build.MutationBuild(mutate_build.subject("musl"))


@pytest.mark.slow
def test_a_run_counts_add_up_and_kills_a_known_killable_mutant(musl_run):
    r, rep, out = musl_run
    t = rep["totals"]
    assert t["mutants"] == len(rep["mutants"]) > 10
    assert sum(t[s] for s in ("killed", "survived", "equivalent", "duplicate", "stillborn", "unreachable",
                              "error", "not-run")) == t["mutants"]
    assert t["error"] == 0 and t["not-run"] == 0 and not rep["interrupted"]
    assert {m["function"] for m in rep["mutants"]} == {"fmt_o", "fmt_x"}
    assert sum(f["mutants"] for f in rep["functions"]) == t["mutants"]
    assert rep["score"] == round(t["killed"] / (t["killed"] + t["survived"]), 4)
    # fmt_o's digit '0' + (x&7) made '1' + (x&7): every octal digit is wrong, the corpus kills it
    m = [m for m in rep["mutants"] if m["function"] == "fmt_o" and m["before"] == "'0'" and m["after"] == "'1'"]
    assert len(m) == 1, [x for x in rep["mutants"] if x["function"] == "fmt_o"]
    m = m[0]
    assert m["status"] == "killed" and m["stage"] == "conform" and m["reached_by"] > 0
    assert m["signature"].startswith("expect.output:") and ":musl:" in m["signature"]
    assert re.match(r"corpus/\w+\.tsv:\d+$", m["where"]) and "%" in m["case"] and "o" in m["case"]
    # the survivors are listed with their edits; the json line says the same counts
    assert len(rep["survivors"]) == t["survived"]
    j = _json_last(r.stdout)
    assert (j["killed"], j["survived"], j["mutants"]) == (t["killed"], t["survived"], t["mutants"])
    # the annotated source shows the mutant on its line (a one-file page's anchors
    # are L<line>, a several-file page's <file>:L<line>); kills.jsonl holds its finding record
    page = (out / "annotated.html").read_text()
    assert f'id="L{m["line"]}"' in page and f"#{m['id']} CRCR" in page
    assert f'id="{m["file"]}:L' not in page
    kills = [json.loads(l) for l in (out / "kills.jsonl").read_text().splitlines()]
    assert any(k["mutant"] == m["id"] and k["record"]["signature"] == m["signature"] for k in kills)
    assert "| `fmt_o` |" in (out / "report.md").read_text()


@pytest.mark.slow
def test_the_switch_in_the_mutation_build(musl_run):
    """The build as the run left it (its schema): SCN_MUTANT=0 passes an octal
    case as the unmodified musl does, the killed mutant's id fails it, and -1
    notes that the case reaches that mutant."""
    _, rep, _ = musl_run
    m = next(m for m in rep["mutants"] if m["function"] == "fmt_o" and m["before"] == "'0'" and m["after"] == "'1'")
    conform = _mutation_build().tool("scn-conform")

    def run(mutant, *extra):
        env = dict(os.environ, SCN_MUTANT=str(mutant))
        return subprocess.run([str(conform), "--target", "musl", *extra, "--case", '"%o" uint:8'],
                              capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(run(0).stdout.splitlines()[0])["actual"] == '"10"'
    # (--case checks the oracles, which a wrong digit passes: the corpus's expectation is what kills it)
    assert json.loads(run(m["id"]).stdout.splitlines()[0])["actual"] == '"21"'
    assert json.loads(run(-1).stdout.splitlines()[0])["actual"] == '"10"'
    line = next(l for l in (REPO / "corpus" / "int.tsv").read_text().splitlines()
                if l.startswith("int.o\t") and "uint:0\t" not in l)  # (of 0, fmt_o's loop does not run)
    lineno = (REPO / "corpus" / "int.tsv").read_text().splitlines().index(line) + 1
    env = dict(os.environ, SCN_MUTANT="-1")
    r = subprocess.run([str(conform), "--target", "musl", "--fail-only", "--mutant-reach",
                        f"corpus/int.tsv:{lineno}"], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    reach = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{"reach"')]
    assert reach and m["id"] in reach[0]["reach"], r.stdout[:2000]


@pytest.mark.slow
def test_the_mutant_server_checks_each_mutant_as_a_run_of_its_own(musl_run, tmp_path):
    """scn-conform --mutant-server (one process, a child forked per mutant):
    the killed mutant fails an octal case, and the original after it in the
    same server passes it (nothing of the mutant's run is left), as separate
    --until-new runs say; a line that is not ID<TAB>BASELINE<TAB>FILE exits 2."""
    _, rep, _ = musl_run
    m = next(m for m in rep["mutants"] if m["function"] == "fmt_o" and m["before"] == "'0'" and m["after"] == "'1'")
    conform = str(_mutation_build().tool("scn-conform"))
    line = next(l for l in (REPO / "corpus" / "int.tsv").read_text().splitlines()
                if l.startswith("int.o\t") and "uint:0\t" not in l)
    sub, keys = tmp_path / "sub.tsv", tmp_path / "keys"
    sub.write_text(line + "\n")
    keys.write_text("")
    cmd = [conform, "--fail-only", "--target", "musl"]
    r = subprocess.run(cmd + ["--mutant-server"], input=f"{m['id']}\t{keys}\t{sub}\n0\t{keys}\t{sub}\n",
                       capture_output=True, text=True, cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = [json.loads(l) for l in r.stdout.splitlines()]
    ends = [i for i, o in enumerate(out) if "mutant_end" in o]
    assert [out[i] for i in ends] == [{"mutant_end": m["id"], "status": 1}, {"mutant_end": 0, "status": 0}]
    first, second = out[:ends[0]], out[ends[0] + 1:ends[1]]
    fails = [o for o in first if o.get("status") == "fail"]
    assert len(fails) == 1 and fails[0]["target"] == "musl" and fails[0]["oracle"] == "expect.output"
    assert [o for o in second if "status" in o] == [] and second[-1]["summary"]["fail"] == 0
    for mutant, rc in ((m["id"], 1), (0, 0)):
        alone = subprocess.run(cmd + ["--until-new", str(keys), str(sub)], capture_output=True, text=True,
                               cwd=REPO, env=dict(os.environ, SCN_MUTANT=str(mutant)), timeout=300)
        assert alone.returncode == rc
        got = [json.loads(l) for l in alone.stdout.splitlines() if '"status"' in l]
        assert [o["signature"] for o in got] == [o["signature"] for o in (fails if rc else [])]
    bad = subprocess.run(cmd + ["--mutant-server"], input=f"{m['id']} {keys} {sub}\n", capture_output=True,
                         text=True, cwd=REPO, timeout=120)
    assert bad.returncode == 2 and "ID<TAB>BASELINE<TAB>FILE.tsv" in bad.stderr


def _planted(tmp_path, old, new, name):
    """A unified diff of musl's src/stdio/vfprintf.c (as fetched) replacing old by new."""
    b = _mutation_build()
    path = b.source_file("src/stdio/vfprintf.c")
    text = b.original(path).decode()
    assert text.count(old) == 1, old
    a = text.splitlines(keepends=True)
    z = text.replace(old, new).splitlines(keepends=True)
    diff = tmp_path / name
    diff.write_text("".join(difflib.unified_diff(a, z, "a/src/stdio/vfprintf.c", "b/src/stdio/vfprintf.c")))
    return diff


@pytest.mark.slow
def test_patch_a_planted_bug_is_found_by_the_corpus(musl_run, tmp_path):
    # %#o's leading zero dropped when the digits already fill the precision: a real wrong output
    diff = _planted(tmp_path, "if ((fl&ALT_FORM) && p<z-a+1) p=z-a+1;", "if ((fl&ALT_FORM) && p<z-a) p=z-a;",
                    "planted.diff")
    r = _scnfuzz("mutate", "--target", "musl", "--patch", str(diff), "--json", "--out", str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr[-3000:]
    j = _json_last(r.stdout)
    assert set(j) == {"found", "stage", "seconds", "executions", "signature"}
    assert j["found"] is True and j["stage"] == "conform" and j["executions"] > 0 and j["seconds"] >= 0
    assert j["signature"].startswith("expect.output:") and ":musl:" in j["signature"]
    # the build is left unpatched
    b = _mutation_build()
    assert b.source_file("src/stdio/vfprintf.c").read_bytes() == b.original(b.source_file("src/stdio/vfprintf.c"))


@pytest.mark.slow
@pytest.mark.campaign
def test_patch_a_comment_change_is_not_found(musl_run, tmp_path):
    diff = _planted(tmp_path, "/* Do not override this check.", "/* Do NOT override this check.", "noop.diff")
    # the campaign after the corpus: 3 s, 1 in CI's short form (the corpus alone is over 9,000 executions)
    r = _scnfuzz("mutate", "--target", "musl", "--patch", str(diff), "--time", str(campaign_seconds(3, 1)), "--json",
                 "--out", str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr[-3000:]
    j = _json_last(r.stdout)
    assert j["found"] is False and j["stage"] is None and j["signature"] is None
    assert j["executions"] > 9000  # the whole corpus (every result), then the campaign's


@pytest.mark.slow
def test_patch_that_does_not_apply_exits_2(musl_run, tmp_path):
    diff = _planted(tmp_path, "if ((fl&ALT_FORM) && p<z-a+1) p=z-a+1;", "if ((fl&ALT_FORM) && p<z-a) p=z-a;",
                    "planted.diff")
    text = diff.read_text().replace("-\t\t\tif ((fl&ALT_FORM)", "-\t\t\tif ((fl & ALT_FORM)")
    bad = tmp_path / "bad.diff"
    bad.write_text(text)
    r = _scnfuzz("mutate", "--target", "musl", "--patch", str(bad), "--json", "--out", str(tmp_path / "run"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "src/stdio/vfprintf.c" in r.stderr and "hunk #1 FAILED" in r.stderr, r.stderr
    assert not r.stdout.strip()
