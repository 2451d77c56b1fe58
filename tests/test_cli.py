"""The scnfuzz command line: usage errors (exit 2, one line saying what to do),
--help everywhere, `targets`, `replay`, and the pieces of the runner that need
no binaries but the case model's library (the case text form).

Run: /usr/bin/python3 -m pytest -q tests/test_cli.py
"""
import os

import pytest

from plugin_findings import SCNFUZZ, run_scnfuzz

from scnfuzz import casetext  # noqa: E402  (plugin_findings puts runner on sys.path)


def one_line_error(p):
    lines = [l for l in p.stderr.splitlines() if l.strip() and not l.startswith("scnfuzz: building")
             and not l.startswith("scnfuzz: configuring") and not l.startswith("scnfuzz: warning")]
    assert p.returncode == 2, (p.returncode, p.stdout[-500:], p.stderr[-500:])
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("scnfuzz"), lines[0]
    return lines[0]


def test_executable_with_debian_python():
    assert os.access(SCNFUZZ, os.X_OK)
    assert SCNFUZZ.read_text().splitlines()[0] == "#!/usr/bin/python3"


@pytest.mark.parametrize("args,needle", [
    ([], None),
    (["frobnicate"], "invalid choice"),
    (["conform", "--dialect", "c89"], "invalid choice"),
    (["fuzz", "--time", "0"], "--time"),
    (["fuzz", "--jobs", "0"], "--jobs"),
    (["fuzz", "--time", "soon"], "invalid float"),
    (["fuzz", "--targets", "ref,kernel"], "mixes dialects"),
    (["fuzz", "--targets", "ref,bogus"], "unknown target 'bogus'"),
    (["fuzz", "--fuzzer", "fuzz_nothing"], "unknown fuzzer"),
    (["fuzz", "--targets", "ref,glibc", "--planted", "ret-size"], "not allowed with"),
    (["replay", '"%d'], "malformed case"),
    (["replay", "/nonexistent/case.txt"], "neither a case"),
    (["report", "/nonexistent/run"], "not a run directory"),
])
def test_usage_errors_exit_2_with_one_line(args, needle):
    p = run_scnfuzz(*args, timeout=120)
    if not args:  # no command: the help, exit 2
        assert p.returncode == 2 and "usage: scnfuzz" in p.stderr
        return
    line = one_line_error(p)
    assert needle in line, line


def test_unknown_target_names_the_built_ones():
    line = one_line_error(run_scnfuzz("conform", "--target", "nosuchlibc", timeout=900))
    assert "unknown target 'nosuchlibc'" in line and "ref" in line and "scnfuzz targets" in line


@pytest.mark.parametrize("sub", ["targets", "conform", "fuzz", "replay", "report", "corpus"])
def test_help_everywhere(sub):
    p = run_scnfuzz(sub, "--help", timeout=60)
    assert p.returncode == 0, p.stderr
    assert f"usage: scnfuzz {sub}" in p.stdout
    top = run_scnfuzz("--help", timeout=60)
    assert top.returncode == 0 and sub in top.stdout and "exit status" in top.stdout


def test_targets_lists_name_version_dialect_family_where():
    p = run_scnfuzz("targets", timeout=900)
    assert p.returncode == 0, p.stderr
    rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()[1:] if l.strip()}
    assert {"ref", "ref-kernel", "glibc"} <= set(rows)
    # NAME VERSION DIALECT GROUP API SCNPRINTF WHERE
    assert rows["ref"][-5:] == ["iso", "core", "c99", "native", "in-process"]
    assert rows["glibc"][-5:] == ["iso", "core", "c99", "wrapped", "in-process"]
    assert rows["ref-kernel"][-5:] == ["kernel", "core", "c99", "native", "in-process"]
    assert "glibc" in " ".join(rows["glibc"][1:-5])  # version, e.g. "glibc 2.36"
    for name in ("curl", "apr", "linux-tools"):  # scnprintf-family only, checked when named
        if name in rows:
            assert rows[name][-5] == "iso" and rows[name][-4:-2] == ["matrix", "scnprintf"], rows[name]


def test_replay_shows_every_target_side_by_side():
    p = run_scnfuzz("replay", '"%p|%d" ptr:NULL int:5', "--target", "ref", "--target", "glibc", timeout=900)
    assert p.returncode == 0, p.stderr
    out = {l.split()[0]: l for l in p.stdout.splitlines() if " ret=" in l}
    assert '"(nil)|5"' in out["glibc"] and "ret=7" in out["glibc"]
    assert "ref" in out


def test_replay_kernel_dialect_chosen_from_targets():
    p = run_scnfuzz("replay", '"%d|%px" int:-3 ptr:0x10', "--target", "ref-kernel", timeout=900)
    assert p.returncode == 0, p.stderr
    assert "[kernel]" in p.stdout and '"-3|0000000000000010"' in p.stdout


def test_replay_unknown_target_is_a_usage_error():
    line = one_line_error(run_scnfuzz("replay", '"%d" int:1', "--target", "nosuch", timeout=900))
    assert "nosuch" in line


# ---- the case text form through the C case model (more in tests/test_casetext.py)

@pytest.mark.parametrize("text", [
    '"%-5d|" int:42', '"%.3s x" str:"he llo" @0,1,5', '"%*.*Lf%%" int:3 int:2 ldouble:0xap-3',
    '"%ls" wstr:"caf\\u{e9}"', '"%2$s %1$d" int:7 str:"x"', '"a\\x00b\\\\\\""', '"ab%ncd" n:int'])
def test_case_text_round_trip(text):
    c = casetext.Case.parse(text)
    assert c.text() == text
    assert casetext.Case(c.fmt, c.args, c.sizes).text() == text
