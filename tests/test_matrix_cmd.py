"""`scnfuzz matrix`: a small run (two implementations, 5-s campaigns, 2 s in CI's
short form) gives the implementations x promises table with exactly their rows
and each one's certification verdict, each implementation's own run and
certificate, and docs generation (--markdown, --from) that matches what the
command printed.
A few minutes on the 2-core machine (the certification driver is built with
ASan for each)."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from conftest import REPO, build_dir, campaign_seconds, find_binary

TABLE = REPO / "oracles" / "known_bugs.tsv"
CAMPAIGN_S = campaign_seconds(5, 2)  # each implementation's campaign, and the certification's alone


def _matrix_targets():
    conform = find_binary("scn-conform", "programs")
    out = subprocess.run([str(conform), "--list-targets"], capture_output=True, text=True, check=True).stdout
    rows = [l.split("\t") for l in out.splitlines()]
    return [r[0] for r in rows if len(r) >= 8 and r[6] == "matrix"]


def _env():
    env = dict(os.environ, SCN_BUILD_DIR=str(build_dir()))
    env.setdefault("SCN_FUZZ_BUILD_DIR", str(REPO / "build" / "fuzz"))
    return env


def _table(stdout):
    """The implementations x promises table the command printed: its
    markdown rows, first column (the name, linking to its section) -> the row."""
    rows = [l for l in stdout.splitlines() if l.startswith("| ") and not l.startswith("| implementation")]
    return {re.sub(r"^\[([^]]+)\]\(#[^)]+\)$", r"\1", r.split("|")[1].strip()): r for r in rows}


def _column(stdout, title):
    """The index, in a row's split("|"), of the column of that title in the
    first table's header."""
    head = next(l for l in stdout.splitlines() if l.startswith("| implementation"))
    return [c.strip() for c in head.split("|")].index(title)


@pytest.fixture(scope="module")
def small_matrix(tmp_path_factory):
    """One small matrix run for the tests below: (the implementations, its
    run directory, the doc it wrote, the finished process)."""
    names = _matrix_targets()
    if len(names) < 2:
        pytest.skip(f"fewer than two matrix implementations built ({names}); their packages: ci/setup.sh")
    # --fresh: from the seeds, not from what earlier campaigns kept (an input that crashes the
    # implementation there kills each worker as it loads its corpus).
    # a C99 one and a scnprintf-only one (both paths of fuzz_matrix) when built;
    # not curl: its hangs on +inf cost the call limit each, and its certification more
    only = [n for n in ("pgport", "apr") if n in names] or names[:2]
    only += [n for n in names if n not in only and n != "curl"][:2 - len(only)]
    tmp = tmp_path_factory.mktemp("matrix")
    out, doc = tmp / "run", tmp / "MATRIX.md"
    r = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--only", ",".join(only),
                        "--time", str(CAMPAIGN_S), "--jobs", "2", "--fresh", "--out", str(out), "--markdown", str(doc)],
                       capture_output=True, text=True, env=_env(), cwd=REPO, timeout=900)
    return only, out, doc, r


@pytest.mark.campaign
@pytest.mark.slow
def test_two_implementations_give_their_rows_and_the_doc(small_matrix, tmp_path):
    only, out, doc, r = small_matrix
    assert r.returncode in (0, 1), r.stderr[-3000:]
    table = _table(r.stdout)
    assert list(table) == only, r.stdout
    for name in only:
        assert "(error)" not in table[name] and "- (" not in table[name], table[name]
        # each implementation is a run of its own: its conformance part and its campaign
        sub = json.loads((out / "impl" / name / "run.json").read_text())
        kinds = [p["kind"] for p in sub["parts"]]
        assert kinds == ["conform", "fuzz"], kinds
        assert sub["parts"][1].get("executions", 0) > 0
        # the campaign names the implementation SCN_MATRIX_TARGET chose, not the "matrix" stand-in
        assert [t["name"] for t in sub["parts"][1]["targets"]] == ["ref", name]
    # where the time went: each step's wall and CPU seconds (a child's, from its rusage), the run's total
    top = json.loads((out / "run.json").read_text())
    for name in only:
        steps = {s["step"]: s for s in top["implementations"][name]["steps"]}
        assert list(steps) == ["conform", "promises", "fuzz", "deaths", "certify"], steps
        assert all(steps[s]["cpu_s"] > 0 and steps[s]["wall_s"] > 0 for s in ("conform", "fuzz", "certify")), steps
    assert top["timing"]["cpu_s"]["children"] + 1 >= sum(s["cpu_s"] for n in only
                                                     for s in top["implementations"][n]["steps"] if "cpu_s" in s)
    rep = json.loads((out / "report.json").read_text())
    model = rep["matrix_implementations"]
    assert [im["name"] for im in model["implementations"]] == only
    for im in model["implementations"]:
        assert im["total"]["pass"] > 0 and im["cells"] and im["version"]
        # certified, or refused with its reasons (each failing case reduced); the certificate is kept
        cert = im["certification"]
        assert cert["verdict"] in ("certified", "not certified"), cert
        assert (cert["verdict"] == "certified") == (not cert["reasons"]), cert
        assert (out / cert["certificate"]).is_file()
        c = json.loads((out / cert["certificate"]).with_suffix(".json").read_text())
        assert c["verdict"] == cert["verdict"] and c["function"].startswith(f"scn_target_{im['name']}.")
        verdict = "**CERTIFIED**" if cert["verdict"] == "certified" else "NOT CERTIFIED"
        assert table[im["name"]].split("|")[_column(r.stdout, "certification")].strip() == verdict
        # a campaign's finding replays its case; a conformance finding reruns its corpus line
        assert all(rc["reproduce"].startswith(("./scnfuzz replay ", "./scnfuzz conform --corpus "))
                   for rc in im["root_causes"])
        # each promise scored apart: the bytes of every implementation are measured
        pm = json.loads((out / "impl" / im["name"] / "promises.json").read_text())
        assert pm["promises"]["bytes"]["kept"] > 0, pm
        assert "%" in table[im["name"]].split("|")[_column(r.stdout, "bytes")], table[im["name"]]
    # beside the whole-corpus verdict, the saved verdict for its real users' formats (matrix_users)
    assert _column(r.stdout, "certified for its users' formats") == _column(r.stdout, "certification") + 1
    md = (out / "report.md").read_text()
    assert md.index("Implementations x promises") < md.index("| implementation |")
    assert md.index("Implementations x promises") < md.index("Implementations x feature families") \
        < md.index("Implementations x categories")
    assert md.count("- certification: ") == len(only)
    # the doc: the command and date at the top, then the very table the command printed
    text = doc.read_text()
    assert text.splitlines()[2].startswith("Made by `./scnfuzz matrix --only ")
    printed = [l for l in r.stdout.splitlines() if l.startswith("|")]
    assert "\n".join(printed) in text
    # regenerating from the run (its report rebuilt from the implementations' runs) gives the same document
    again = tmp_path / "again.md"
    r2 = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--from", str(out), "--markdown",
                         str(again)], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=60)
    assert r2.returncode in (0, 1), r2.stderr
    assert again.read_text() == text
    assert [l for l in r2.stdout.splitlines() if l.startswith("|")] == printed


@pytest.mark.campaign
@pytest.mark.slow
def test_certification_reads_the_matrix_runs_and_agrees_with_certify(small_matrix, tmp_path):
    """Inside the matrix, certification reads the implementation's own
    conformance results and campaign (certify --reuse): its certificate names
    them, its driver ran the return-value suite only (no conform or fuzz phase
    of its own), one campaign ran; and its verdict is the one `./scnfuzz certify
    --target` gives on its own for the same target."""
    only, out, _, r = small_matrix
    assert r.returncode in (0, 1), r.stderr[-3000:]
    for name in only:
        sub = out / "impl" / name
        c = json.loads((sub / "certify" / "certificate.json").read_text())
        assert pathlib.Path(c["reused"]["run"]).resolve() == sub.resolve(), c["reused"]
        assert c["phases"]["conform"]["reused_from"] == str(sub / "conform.jsonl")
        assert c["phases"]["conform"]["results"] == json.loads((sub / "run.json").read_text())["parts"][0][
            "results_count"]
        assert c["phases"]["fuzz"]["reused_from"].startswith(str(sub / "findings.jsonl"))
        assert c["reused"]["run_here"] == ["retval"] and c["phases"]["retval"]["cases"] > 0
        assert c["lines"]["measured"] is False and "without line counters" in c["lines"]["why"]
        # the driver ran no conformance and no campaign of its own: only the return-value suite's protocol
        protocols = sorted(p.name for p in (sub / "certify" / "build").glob("*.protocol"))
        assert protocols == ["retval.protocol"], protocols
        # the one campaign: the matrix's, whose executions the certificate counts
        campaign = json.loads((sub / "run.json").read_text())["parts"][1]
        assert c["phases"]["fuzz"]["executions"] == campaign["executions"] > 0
        assert "Read from the matrix's own runs" in (sub / "certify" / "certificate.md").read_text()
    name = "pgport" if "pgport" in only else only[0]
    alone = tmp_path / "alone"
    r2 = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "certify", "--target", name, "--time", str(CAMPAIGN_S),
                         "--out", str(alone)], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=600)
    assert r2.returncode in (0, 1), r2.stderr[-3000:]
    own = json.loads((alone / "certificate.json").read_text())
    assert "reused" not in own and (alone / "build" / "conform.protocol").is_file()
    via_matrix = json.loads((out / "impl" / name / "certify" / "certificate.json").read_text())
    assert via_matrix["verdict"] == own["verdict"]
    # the same corpus, oracles and rules: the same categories fail, for the same number of cases
    assert via_matrix["category_counts"] == own["category_counts"]


def test_unknown_implementation_is_a_usage_error(tmp_path):
    # the reference is what the others are compared with, not a row of its own
    r = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "matrix", "--only", "ref", "--out",
                        str(tmp_path / "r")], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=60)
    assert r.returncode == 2
    assert "'ref' is not an implementation of the matrix" in r.stderr
    assert not (tmp_path / "r").exists()


# ---- the promises, scored apart (runner/scnfuzz/matrix_promises.py): quick, no run

sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import matrix, matrix_promises as mp  # noqa: E402

C99 = {"name": "stb", "api": "c99", "scnprintf": "wrapped", "dialect": "iso", "where": "in-process"}
SCN = {"name": "linux-tools", "api": "scnprintf", "scnprintf": "native", "dialect": "iso", "where": "in-process"}


def _r(case, status, oracle=None, expected='"abc"', sig=None, feats=("%d",), kind="std", cat="int.d"):
    return {"case": case, "status": status, "oracle": oracle, "expected": expected, "signature": sig,
            "features": list(feats), "kind": kind, "category": cat, "target": "t"}


def test_a_size0_failure_breaks_one_promise_and_the_sample_measures_the_bytes():
    results = [_r('"a" @0', "fail", "underrun", sig="underrun:stb-size0-underrun:stb:known-bug"),
               _r('"b"', "fail", "underrun", sig="underrun:stb-size0-underrun:stb:known-bug"),
               _r('"c"', "fail", "underrun", expected='"xyz"', sig="underrun:stb-size0-underrun:stb:known-bug",
                  feats=("%f",)),
               _r('"d"', "pass")]
    assert mp.sample_cases(results) == ['"a" @0', '"b"', '"c"']
    sampled = {'"a" @0': ('"abc"', False), '"c"': ('"xyzz"', False)}  # "b": no answer
    P = mp.score(results, C99, sampled)["promises"]
    assert (P["bounds"]["kept"], P["bounds"]["broken"]) == (1, 3)
    assert P["bounds"]["root_causes"] == ["underrun:stb-size0-underrun:stb:known-bug"]
    # the known bug counts against bounds alone: the bytes are right for "a" and "d", wrong for "c"
    assert (P["bytes"]["kept"], P["bytes"]["broken"], P["bytes"]["unreached"], P["bytes"]["sampled"]) == (2, 1, 1, 2)
    assert (P["c99-return"]["kept"], P["c99-return"]["unreached"]) == (1, 3)
    assert P["no-crash"]["kept"] == 3 and P["no-crash"]["broken"] == 0
    # a sampled call that dies breaks no-crash, and says nothing of the bytes
    P = mp.score(results, C99, {'"b"': (None, True)})["promises"]
    assert P["no-crash"]["broken"] == 1 and P["bytes"]["sampled"] == 0
    assert not P["scn-return"]["applies"] and mp.promise_cell(P["scn-return"], "stb") == "n/a"
    F = mp.score(results, C99, sampled)["families"]
    assert F["ints"] == {"kept": 2, "broken": 0} and F["floats"] == {"kept": 0, "broken": 1}


def test_a_miss_after_an_explained_size_failure_breaks_both_promises():
    """scn-conform's result for apr's "%g" of 0.125: the output misses (".125"), and the
    size-0 finding its gap explains came first (after_oracle): bytes and the scnprintf
    return broken, each with its root cause; the C99 return and bounds not reached."""
    r = _r('"%g" double:0x1p-3', "fail", "expect.output", sig="expect.output:%f:apr:conformance")
    r.update(after_oracle="scn.size0-ret0", after_signature="scn.size0-ret0:apr-size0-would-be:apr:known-gap")
    P = mp.score([r], C99 | {"scnprintf": "native"})["promises"]
    assert P["bytes"]["broken"] == P["scn-return"]["broken"] == 1
    assert P["scn-return"]["root_causes"] == ["scn.size0-ret0:apr-size0-would-be:apr:known-gap"]
    assert P["c99-return"]["unreached"] == P["bounds"]["unreached"] == 1 and P["c99-return"]["kept"] == 0


def test_a_bytes_failure_kept_every_size_promise():
    results = [_r('"a"', "fail", "expect.output", sig="differential:%d:t"), _r('"b"', "pass", kind="impl")]
    P = mp.score(results, SCN)["promises"]
    assert (P["bytes"]["kept"], P["bytes"]["broken"]) == (1, 1)
    assert (P["scn-return"]["kept"], P["bounds"]["kept"], P["no-crash"]["kept"]) == (2, 2, 2)
    assert not P["c99-return"]["applies"]
    assert mp.promise_cell(P["bytes"], "linux-tools") == "50.0% of 2 ([1 rc](#linux-tools))"
    # a crash is that promise's; the wrapped scnprintf family of a C99 target failing is its C99 return
    P = mp.score([_r('"a"', "fail", "crash", sig="crash:%d:t:crash"),
                  _r('"b"', "fail", "scn.size0-ret0", sig="s")], C99)["promises"]
    assert P["no-crash"]["broken"] == 1 and P["c99-return"]["broken"] == 1 and P["scn-return"]["broken"] == 0


def test_the_sample_runs_the_conformance_binary(monkeypatch):
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    conform = find_binary("scn-conform", "programs")
    got = mp.sample_outputs({"name": "glibc", "where": "in-process"}, ['"[%5d]" int:42', '"%s" str:"x"'], conform)
    assert got == {'"[%5d]" int:42': ('"[   42]"', False), '"%s" str:"x"': ('"x"', False)}


def test_families_and_quoted_lengths():
    fam = mp.families({"features": ["%s", "%lc", "length l", "positional", "%La"], "category": "x"})
    assert fam == {"wide", "positional"}
    assert mp.families({"features": ["%a", "%x", "length wN"], "category": "kernel.ptr"}) == \
        {"%a", "C23", "kernel"}
    assert mp.families({"features": ["%x", "length hh"], "category": "length.hh"}) == {"ints"}
    assert mp.families({"features": ["%b"], "category": "int.b"}) == {"C23"}
    assert mp.quoted_len('"a\\x00b\\\\\\""') == 5 and mp.quoted_len('""') == 0


def test_first_table_has_at_most_ten_columns():
    ims = [{"name": n, "certification": {"verdict": "not run"}, "promises": None}
           for n in ("glibc", "musl", "kernel", "curl")]
    for lines in (matrix.promise_lines({"implementations": ims}), matrix.family_lines({"implementations": ims})):
        assert all(l.count("|") - 1 <= 10 for l in lines)
        assert [l.split("|")[1].strip() for l in lines[2:]][0] in ("[glibc](#glibc)", "glibc")


def test_glibc_musl_and_the_kernel_are_implementations(monkeypatch):
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    names = [t["name"] for t in matrix.implementations()]
    assert names[:1] == ["glibc"] and "ref" not in names and "ref-kernel" not in names
    built = _matrix_targets()
    conform = find_binary("scn-conform", "programs")
    listed = subprocess.run([str(conform), "--list-targets"], capture_output=True, text=True).stdout
    for core in ("musl", "kernel"):
        assert (core in names) == (f"\n{core}\t" in listed), core
    assert set(built) <= set(names)


# ---- the run's schedule and its one build (runner/scnfuzz/matrix.py): quick, no run

def test_the_longest_implementations_of_the_last_run_start_first(tmp_path):
    def run(name, took):
        d = tmp_path / name
        d.mkdir()
        (d / "run.json").write_text(json.dumps({"implementations": {
            n: {"status": "done" if s is not None else "error", "duration_s": s} for n, s in took.items()}}))
    run("20261201T000000Z-matrix", {"glibc": 900, "curl": 10})
    run("20261202T000000Z-matrix", {"glibc": 50, "curl": 400, "sqlite": 800, "apr": None})
    run("20261203T000000Z-fuzz", {"apr": 9999})  # not a matrix run
    impls = [{"name": n} for n in ("glibc", "musl", "curl", "apr", "sqlite")]
    # the newest matrix run decides; what it did not finish keeps its place after the rest
    assert [t["name"] for t in matrix.longest_first(impls, tmp_path)] == ["sqlite", "curl", "glibc", "musl", "apr"]
    assert matrix.longest_first(impls, tmp_path / "none") == impls


def test_the_children_are_pointed_at_the_tools_built_once(monkeypatch):
    monkeypatch.setenv("SCN_BUILD_DIR", str(build_dir()))
    fuzz = os.environ.get("SCN_FUZZ_BUILD_DIR", str(REPO / "build" / "fuzz"))
    if not (pathlib.Path(fuzz) / "fuzz" / "fuzz_matrix").is_file():
        pytest.skip(f"fuzz_matrix is not built in {fuzz}")
    monkeypatch.setenv("SCN_FUZZ_BUILD_DIR", fuzz)
    env = matrix.prebuild([{"name": "glibc"}])
    assert pathlib.Path(env["SCN_BUILD_DIR"]).resolve() == build_dir().resolve()
    assert pathlib.Path(env["SCN_FUZZ_BUILD_DIR"]).resolve() == pathlib.Path(fuzz).resolve()
    assert (pathlib.Path(env["SCN_BUILD_DIR"]) / "CMakeCache.txt").is_file()


def test_a_difference_met_by_conformance_and_the_campaign_is_one_root_cause():
    def rc(sig, n, rep):
        return {"signature": sig, "count": n, "reproduce": rep, "classification": sig.rsplit(":", 1)[1]}
    rcs = [rc("differential:%.Nf:ref~sqlite:divergence", 2, "replay A"),
           rc("expect.output:%.Nf:sqlite:conformance", 57, "conform B"),
           rc("expect.output:%hhn:sqlite:conformance", 9, "conform C"),       # no campaign twin
           rc("expect.output:%f:sqlite:conformance", 1, "conform D"),
           rc("differential:%f:curl~ref:divergence", 4, "replay E"),          # another implementation's
           rc("differential:matrix-no-t:ref~sqlite:known-gap", 3, "replay F"),
           rc("expect.output:matrix-no-t:sqlite:known-gap", 5, "conform G")]  # known: listed as they are
    out = matrix.met_twice(rcs, "sqlite")
    assert [r["signature"] for r in out] == [
        "differential:%.Nf:ref~sqlite:divergence", "expect.output:%hhn:sqlite:conformance",
        "expect.output:%f:sqlite:conformance", "differential:%f:curl~ref:divergence",
        "differential:matrix-no-t:ref~sqlite:known-gap", "expect.output:matrix-no-t:sqlite:known-gap"]
    assert out[0]["count"] == 59 and out[0]["also_conformance"] == [
        {"signature": "expect.output:%.Nf:sqlite:conformance", "count": 57, "reproduce": "conform B"}]
    assert "also met by the conformance suite as `expect.output:%.Nf:sqlite:conformance`" in matrix._rc_line(
        dict(out[0], oracle="differential"))
    assert matrix._sig_parts("differential:%1$s:x:ref~t:divergence") == ("differential", "%1$s:x", "ref~t",
                                                                        "divergence")


def test_campaign_deaths_signed_by_frame_are_signed_by_their_reduced_case(tmp_path, monkeypatch):
    """libFuzzer's process dies of stb's negative * precision (SIGSEGV) in two
    formats, and the campaign signs both by the frame; scn-conform reduces
    each to "%.*f" int:-2 and the row stb-neg-prec-dies signs both: one death,
    one root cause. Without the rows that explain deaths, both get the one
    signature scn-conform gives that death (a plain signal names no place:
    the reduced case's shape). A frame-signed death whose case no longer dies
    keeps its frame: stb's %F%n, which stored through the unconsumed double's
    bits while the case model put every argument in the overflow area, and
    which reads its pointer from the GP slots since the va_list follows the
    psABI (7c1b55b); and so do records that are not frame-signed deaths."""
    from scnfuzz import matrix_deaths
    if "stb" not in _matrix_targets():
        pytest.fail("matrix target stb is not built (libstb-dev: bash ci/setup.sh)", pytrace=False)
    conform = find_binary("scn-conform", "programs")
    frame = "crash:fuzz_matrix~stb:stbsp_vsprintfcb"
    dies = ['"[%.*f|%x]" int:-2 double:0x1p-1 uint:255', '"<%-3.*f%d" int:-2 double:0x1p-1 int:7']
    recs = [{"oracle": "crash", "classification": "crash", "signature": frame, "source": "fuzz", "case": c,
             "detail": "SEGV"} for c in dies]
    recs += [{"oracle": "crash", "classification": "crash", "signature": "crash:fuzz_matrix~stb:stb_sprintf.h:615:10",
              "source": "fuzz", "case": '"[%- #20.3F%n%g" double:-0x1.109400713852ap+67 n:int double:0x0p+0 @28',
              "detail": "UBSan"},
             {"oracle": "differential", "classification": "divergence", "signature": "differential:%f:ref~stb:divergence",
              "case": '"%F" double:0x0p+0'}]

    def resign(d):
        d.mkdir()
        (d / "findings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
        done_kept = matrix_deaths.resign(d, "stb", "fuzz_matrix", conform=conform)
        return done_kept, [json.loads(l) for l in (d / "findings.jsonl").read_text().splitlines()]

    (done, kept), got = resign(tmp_path / "rows")
    assert (done, kept) == (2, 1), got
    for g, r in zip(got[:2], recs):
        assert g["signature"] == "crash:stb-neg-prec-dies:stb:known-bug", g
        assert g["frame_signature"] == frame and g["original_case"] == r["case"]
        assert g["case"] == '"%.*f" int:-2 double:0x1p-1' and g["rule"]["id"] == "stb-neg-prec-dies"
    assert got[2:] == recs[2:]
    # without the rows that explain deaths: still one signature for the one death, not the frame's
    table = tmp_path / "kb.tsv"
    table.write_text("".join(l + "\n" for l in TABLE.read_text().splitlines() if "&dies" not in l))
    monkeypatch.setenv("SCN_KNOWN_BUGS", str(table))
    (done, kept), got = resign(tmp_path / "norows")
    assert (done, kept) == (2, 1), got
    assert got[0]["signature"] == got[1]["signature"] == "crash:%.*f:stb:memory-safety", got[:2]
    assert "rule" not in got[0] and got[0]["frame_signature"] == frame
    assert got[2:] == recs[2:]


def test_a_campaign_that_died_on_its_resumed_corpus_is_run_again_fresh(tmp_path):
    """stb's kept corpus held an input that killed every worker as it was
    loaded: 0 executions in 20 restarts, so no campaign and nothing for its
    certification to read; the matrix runs such a campaign again from the
    seeds (--fresh), and only such a one."""
    def sub(name, fuzz):
        d = tmp_path / name
        d.mkdir()
        (d / "run.json").write_text(json.dumps({"run_schema": 1, "kind": "fuzz", "parts": [
            {"kind": "conform", "status": "done"}, dict({"kind": "fuzz", "status": "done"}, **fuzz)]}))
        return d
    assert matrix._no_execution_on_resumed_corpus(sub("died", {"executions": 0, "resumed_units": 575,
                                                               "fresh": False, "restarts": 20}))
    assert not matrix._no_execution_on_resumed_corpus(sub("ran", {"executions": 12470, "resumed_units": 1128}))
    assert not matrix._no_execution_on_resumed_corpus(sub("fresh", {"executions": 0, "resumed_units": 0,
                                                                    "fresh": True}))
    assert not matrix._no_execution_on_resumed_corpus(sub("seeds", {"executions": 0, "resumed_units": 0}))
    assert not matrix._no_execution_on_resumed_corpus(tmp_path / "none")
