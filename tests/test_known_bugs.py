"""The known-bug rules (oracles/known_bugs.tsv) and the root causes they sign.

Every entry names the root cause its reproducer is signed as (its
signature column, oracle:shape:target): replayed, the reproducer still gets
that signature and that entry, so a pattern that stops matching what it was
written for, or another entry that takes it, fails here.

A rule must never swallow a bug it was not written for, and one bug must be
one root cause where a real bug lands. Here too: a musl whose %n stores a
wrong count (the length of the last piece it wrote, not of the whole output)
is built from musl's own fetched source, patched, as an executor; scn-conform
on the corpus's %n cases signs all its expect.n failures as one root cause
(they were one per %n shape when expectation failures were signed unreduced).
"""
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess

import pytest

from conftest import REPO, build_dir, find_binary

EXECUTORS = {"dietlibc": "core/targets/dietlibc/scn-dietlibc-exec", "klibc": "core/targets/klibc/scn-klibc-exec"}


def _entries():
    rows = []
    for line in (REPO / "oracles/known_bugs.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split("\t")
            assert len(f) == 9, f"{f[0]}: {len(f)} columns, 9 expected (the signature column)"
            rows.append({"id": f[0], "dialect": f[2], "pattern": f[3].split("&"), "targets": f[4].split(","),
                         "reproducer": f[6], "signature": f[7]})
    return rows


# The replays' exit status is not read (their findings are), so LeakSanitizer's scan at
# each exit, much of a short sanitized process's CPU, has nothing to report here.
NO_LEAK_SCAN = dict(os.environ, ASAN_OPTIONS=":".join(filter(None, [os.environ.get("ASAN_OPTIONS"),
                                                                     "detect_leaks=0"])))


def _replayed(replay, ref, target, entries):
    """For each entry, (rule, oracle:shape:target) of the findings scn-replay signs
    its reproducer with: one scn-replay for all the entries of a pair of targets
    (each case still in a child of its own), its output cut at each "case" line."""
    r = subprocess.run([str(replay), "--target", ref, "--target", target, "-q", *(e["reproducer"] for e in entries)],
                       capture_output=True, text=True, timeout=600, env=NO_LEAK_SCAN)
    got = []
    for line in r.stdout.splitlines():
        if line.startswith("case "):
            got.append([])
        elif line.startswith("{") and got:
            d = json.loads(line)
            rule = (d.get("rule") or {}).get("id")
            got[-1].append((rule, f"{d['oracle']}:{d['shape']}:{target}"))
    assert len(got) == len(entries), f"scn-replay --target {target}: {len(got)} cases for {len(entries)} " \
                                     f"reproducers: {r.stderr[-2000:]}"
    return got


def _conformed(conform, ref, target, entry, tmp_path):
    """The same through scn-conform, the reference's output as the expectation:
    a death is isolated there, an executor's libc is reached there."""
    r = subprocess.run([str(conform), "--target", ref, "--case", entry["reproducer"]], capture_output=True, text=True,
                       timeout=600, env=NO_LEAK_SCAN)
    expected = json.loads(r.stdout.splitlines()[0])["actual"]
    corpus = tmp_path / f"{entry['id']}.tsv"
    cols = [expected, "-"] if entry["dialect"] != "kernel" else ["-", expected]
    corpus.write_text("\t".join(["kb", entry["reproducer"], *cols, "std", entry["id"]]) + "\n")
    exe = build_dir() / EXECUTORS[target] if target in EXECUTORS else None
    sel = ["--exec", str(exe)] if exe else ["--target", target]
    r = subprocess.run([str(conform), *sel, "--fail-only", str(corpus)], capture_output=True, text=True, timeout=600,
                       env=NO_LEAK_SCAN)
    got = []
    for line in r.stdout.splitlines():
        f = json.loads(line).get("finding")
        if f:
            got.append(((f.get("rule") or {}).get("id"), f"{f['oracle']}:{f['shape']}:{target}"))
    return got


@pytest.mark.slow
def test_every_reproducer_still_gets_its_signature(scn_conform, tmp_path):
    replay = find_binary("scn-replay", "fuzz")
    listed = subprocess.run([str(scn_conform), "--list-targets"], capture_output=True, text=True).stdout
    built = {line.split("\t")[0] for line in listed.splitlines()}
    built |= {t for t, path in EXECUTORS.items() if (build_dir() / path).is_file()}
    todo = []
    for e in _entries():
        target = e["signature"].rsplit(":", 1)[1]
        assert target in e["targets"], f"{e['id']}: the signature names {target}, not a target of the entry"
        if target in built:
            todo.append((e, target))

    def ref_of(e):
        return "ref-kernel" if e["dialect"] == "kernel" else "ref"

    # a death, or an executor's libc, through scn-conform one entry at a time; the others
    # through one scn-replay per pair of targets (a sanitized process's start-up, paid
    # once per pair rather than once per entry)
    alone = [(e, t) for e, t in todo if "dies" in e["pattern"] or t in EXECUTORS]
    pairs = collections.defaultdict(list)
    for e, t in todo:
        if (e, t) not in alone:
            pairs[(ref_of(e), t)].append(e)

    def signed(job):
        if job[0] == "conform":
            e, t = job[1]
            return [(e, _conformed(scn_conform, ref_of(e), t, e, tmp_path))]
        (ref, t), es = job[1]
        return list(zip(es, _replayed(replay, ref, t, es)))

    # two at a time: a death's report and its reduction's child wait on the
    # supervisor's clock more than they compute
    jobs = [("conform", item) for item in alone] + [("replay", kv) for kv in pairs.items()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = [r for rs in pool.map(signed, jobs) for r in rs]
    assert len(results) == len(todo)
    wrong = [f"{e['id']}: {e['reproducer']} is signed {got}, the entry says {e['signature']}"
             for e, got in results if (e["id"], e["signature"]) not in got]
    checked = len(todo)
    assert checked >= 60, f"only {checked} entries have their target built"
    assert not wrong, "\n".join(wrong)


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
    import sys
    sys.path.insert(0, str(REPO / "runner"))
    from scnfuzz import anylibc  # the case model's files every executor compiles (core/case/sources.cmake)
    # the executor as core/targets/musl/CMakeLists.txt builds scn-musl-exec, with this vfprintf
    subprocess.run(["musl-gcc", "-std=gnu11", "-O2", "-static", '-DSCN_EXEC_NAME="musl"',
                    '-DSCN_EXEC_VERSION="musl with a wrong %n"', f"-I{case}", f"-I{REPO}/core/targets",
                    "-include", str(exe / "compat/scn_strtod.h"), "-Dstrtod=scn_strtod", "-Dstrtold=scn_strtold",
                    str(exe / "scn_exec.c"), *map(str, anylibc.CASE_SRC), str(exe / "compat/scn_strtod.c"), "vfprintf.o",
                    "-o", "musl-wrong-n"], cwd=tmp_path, check=True)
    return tmp_path / "musl-wrong-n"


def test_a_wrong_n_count_is_one_root_cause(tmp_path, scn_conform):
    """A musl whose %n stores a wrong count, on the corpus's %n cases: one
    root cause, each failure reduced to a reproducer that still shows it."""
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


# ---- allowances that excuse only what they were written for

RULE_PROBE = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"
#include "case.h"
/* argv: rule id, spec, case text, ret a, output a, ret b, output b: prints 1 when the rule explains the pair */
int main(int argc, char **argv)
{
    static struct scn_case c;
    char err[200];
    if (argc != 8 || scn_case_parse(argv[3], strlen(argv[3]), &c, err, sizeof err)) return 2;
    for (size_t i = 0; i < scn_rules_count(); i++)
        if (!strcmp(scn_rule_at(i)->id, argv[1])) {
            /* spec "-": no culprit (the whole case differs) */
            printf("%d\n", scn_rule_matches(scn_rule_at(i), SCN_DIALECT_ISO, strcmp(argv[2], "-") ? argv[2] : NULL,
                                            &c.args[0], &c, "x", "ref",
                                            atoi(argv[4]), atoi(argv[6]), (const unsigned char *)argv[5],
                                            strlen(argv[5]), (const unsigned char *)argv[7], strlen(argv[7])));
            return 0;
        }
    return 3;
}
"""


@pytest.fixture(scope="module")
def rule_probe(tmp_path_factory):
    """scn_rule_matches of the build's oracles on outputs given by hand."""
    b = build_dir()
    cache = (b / "CMakeCache.txt").read_text() if (b / "CMakeCache.txt").is_file() else ""
    cc = next((ln.split("=", 1)[1] for ln in cache.splitlines() if ln.startswith("CMAKE_C_COMPILER:")), "cc")
    libs = [b / "oracles/libscn_oracles.a", b / "core/libscn_case.a", b / "impl/libscn_ref.a"]
    if not all(x.is_file() for x in libs):
        pytest.fail(f"the oracles' libraries are not built in {b}", pytrace=False)
    d = tmp_path_factory.mktemp("probe")
    (d / "probe.c").write_text(RULE_PROBE)
    san = ["-fsanitize=address,undefined"] if "SCN_SANITIZE:BOOL=ON" in cache else []
    subprocess.run([cc, *san, "-I", str(REPO / "oracles"), "-I", str(REPO / "core/case"), "-I",
                    str(REPO / "core/targets"), "-I", str(REPO / "impl/include"), str(d / "probe.c"),
                    *map(str, libs), "-lm", "-o", str(d / "probe")], check=True)

    def explains(rule, spec, case, a, b):
        r = subprocess.run([str(d / "probe"), rule, spec, case, str(a[0]), a[1], str(b[0]), b[1]],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, SCN_ALLOWANCES=str(REPO / "oracles/allowances.tsv"),
                                    ASAN_OPTIONS="detect_leaks=0"))
        assert r.returncode == 0, r.stderr
        return r.stdout.strip() == "1"
    return explains


@pytest.mark.parametrize("spec,case,a,b,want", [
    # the spelling: "(null)", nothing, other text; cut at the precision
    ("%s", '"%s" str:NULL', (6, "(null)"), (5, "(nil)"), True),
    ("%.3s", '"%.3s" str:NULL', (3, "(nu"), (0, ""), True),
    ("%8.3s", '"%8.3s" str:NULL', (8, "     (nu"), (8, "        "), True),
    # newlib-null-precision, uclibc-null-precision (bench/history): all of it past the precision
    ("%.3s", '"%.3s" str:NULL', (6, "(null)"), (0, ""), False),
    ("%.3s", '"%.3s" str:NULL', (6, "(null)"), (3, "(nu"), False),
    # "(null)" cut short of the precision, or not laid out in its field
    ("%.3s", '"%.3s" str:NULL', (2, "(n"), (0, ""), False),
    ("%8s", '"%8s" str:NULL', (6, "(null)"), (8, "  (null)"), False),
    ("%-8s", '"%-8s" str:NULL', (8, "  (null)"), (8, "(null)  "), False),
])
def test_s_null_excuses_the_spelling_only(rule_probe, spec, case, a, b, want):
    assert rule_probe("s-null", spec, case, a, b) is want


@pytest.mark.parametrize("spec,case,want", [
    ("%ls", r'"%ls" wstr:"a\u{100}"', True),
    ("%.2ls", r'"%.2ls" wstr:"a\u{100}"', True),
    # musl-ls-precision-overread (bench/history): the character after the precision is not converted
    ("%.1ls", r'"%.1ls" wstr:"a\u{100}"', False),
    ("%lc", '"%lc" wint:256', True),
])
def test_wide_encoding_error_only_for_a_character_converted(rule_probe, spec, case, want):
    assert rule_probe("wide-encoding-error", spec, case, (-1, ""), (1, "a")) is want


@pytest.mark.parametrize("a,want", [
    ((8, "0x1.0p+0"), True),     # the tie to the even digit
    ((8, "0x8.4p-3"), True),     # another normalisation, exact
    ((8, "0x1.1p+0"), False),    # the tie up: picolibc-a-round-half-up (bench/history), stb-a-round-half-up
])
def test_a_normalisation_takes_a_tie_to_even_only(rule_probe, a, want):
    assert rule_probe("a-normalisation", "%.1a", '"%.1a" double:0x1.08p+0', a, (8, "0x1.0p+0")) is want


@pytest.mark.parametrize("spec,case,a,b,want", [
    ("%p", '"%p" ptr:NULL', (1, "0"), (5, "(nil)"), True),          # musl's and glibc's NULL
    ("%p", '"%p" ptr:0xab', (4, "0xab"), (4, "0XAB"), True),        # the value's digits, either case
    ("%p", '"%p" ptr:0xab', (8, "0x0000ab"), (4, "0xab"), True),
    # musl's pop_arg with the %p store deleted (mutation run): "0" is not 0xab's spelling
    ("%p", '"%p" ptr:0xab', (1, "0"), (4, "0xab"), False),
    ("%8p", '"%8p" ptr:0xab', (8, "    0xab"), (8, "0xab    "), False),  # the layout is not the spelling
])
def test_p_spelling_excuses_the_spelling_of_the_value_only(rule_probe, spec, case, a, b, want):
    assert rule_probe("p-spelling", spec, case, a, b) is want


@pytest.mark.parametrize("a,want", [
    ((-1, ""), True),        # musl: NL_ARGMAX is 9, the call fails with EINVAL
    ((1, "8"), False),       # a printf that reads the wrong argument is not excused by the position
])
def test_nl_argmax_excuses_a_failed_call_only(rule_probe, a, want):
    """Allowance nl-argmax (a position above POSIX's minimum {NL_ARGMAX}, 9) explains a call that
    fails there, never a wrong output (it excused any whole-case difference: picolibc mutants that
    read the wrong argument at %10$ survived)."""
    case = '"%10$d" int:0 int:1 int:2 int:3 int:4 int:5 int:6 int:7 int:8 int:9'
    assert rule_probe("nl-argmax", "-", case, a, (1, "9")) is want


def _impl_result(scn_conform, tmp_path, target, case, env=None):
    """scn-conform's result for `target` on one kind-impl corpus line whose
    expectation is the reference's output."""
    ref = subprocess.run([str(scn_conform), "--target", "ref", "--case", case], capture_output=True, text=True,
                         timeout=60)
    expected = json.loads(ref.stdout.splitlines()[0])["actual"]
    corpus = tmp_path / "impl.tsv"
    corpus.write_text("\t".join(["impl-probe", case, expected, "-", "impl", "C17 7.21.6.1p8 (p)"]) + "\n")
    r = subprocess.run([str(scn_conform), "--target", target, str(corpus)], capture_output=True, text=True,
                       timeout=120, env={**os.environ, **(env or {})})
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return next(json.loads(line) for line in r.stdout.splitlines() if f'"target":"{target}"' in line)


def test_an_impl_case_passes_only_what_an_allowance_explains(scn_conform, tmp_path):
    """A kind-impl case passes a target printing otherwise than the reference
    only when an allowance explains the difference (p-spelling: musl's "0" for
    the reference's "(nil)"); with no allowance the same output fails, so a
    mutant or a bug that breaks an implementation-defined conversion no longer
    passes."""
    case = '"[%8p]" ptr:NULL'
    r = _impl_result(scn_conform, tmp_path, "musl", case)
    assert (r["status"], r.get("note"), r["actual"]) == ("pass", "impl-differs", '"[       0]"')
    no_allowances = tmp_path / "allowances.tsv"
    no_allowances.write_text("# id\tdialect\tpattern\ttargets\tcitation\n")
    r = _impl_result(scn_conform, tmp_path, "musl", case, {"SCN_ALLOWANCES": str(no_allowances)})
    assert (r["status"], r.get("note"), r.get("rule_kind")) == ("fail", None, None)


def test_an_impl_case_fails_a_known_bug_of_its_layout(scn_conform, tmp_path):
    """curl left-justifies a NULL %8p (curl-p-null-justified): the spelling is
    implementation-defined, the padding is not; it used to pass as impl-differs."""
    listed = subprocess.run([str(scn_conform), "--list-targets"], capture_output=True, text=True).stdout
    if "curl" not in {line.split("\t")[0] for line in listed.splitlines()}:
        pytest.skip("the curl target is not built (libcurl4-openssl-dev: bash ci/setup.sh)")
    r = _impl_result(scn_conform, tmp_path, "curl", '"[%8p]" ptr:NULL')
    assert (r["status"], r.get("rule_kind"), r["signature"]) == \
        ("fail", "known-bug", "expect.output:curl-p-null-justified:curl:known-bug")
