"""`./scnfuzz certify --profile-from SRC` (issue 25 item 2): certification
restricted to the format features of a project's call sites.

tests/certify/hostile_abort_o.c is glibc's vsnprintf that abort()s on a
format with %o (tests/test_certify.py refuses it). Its users that print only
strings and decimal integers get it CERTIFIED "for the N formats of M call
sites"; once a call site prints "%o", it is refused, and the certificate
names that call site with the reduced case.

Run: /usr/bin/python3 -m pytest -q tests/test_certify_profile.py
"""
import json
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
ABORT_O = REPO / "tests" / "certify" / "hostile_abort_o.c"
sys.path.insert(0, str(REPO / "runner"))

pytest.importorskip("clang.cindex")
from scnfuzz import certify as certify_mod  # noqa: E402

USERS = """#include <stdio.h>

void report(char *buf, size_t size, const char *name, int count)
{
\tsnprintf(buf, size, "%s: %d items", name, count);
}

void column(char *buf, size_t size, int width, const char *cell)
{
\tsnprintf(buf, size, "[%-*s]", width, cell);
}
"""
OCTAL_USER = """#include <stdio.h>

void mode(char *buf, size_t size, unsigned int bits)
{
\tsnprintf(buf, size, "mode %04o", bits);
}
"""


@pytest.fixture(scope="module", autouse=True)
def project_objects():
    certify_mod.driver_library()  # built once, outside the runs below


def certify(tmp_path, users):
    src = tmp_path / "users"
    src.mkdir()
    for name, text in users.items():
        (src / name).write_text(text)
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "certify", "--source", str(ABORT_O),
                        "--function", "hostile_abort_o", "--kind", "vsnprintf",
                        "--dialect", "iso", "--allow-as", "glibc", "--time", "2", "--fault-budget", "10",
                        "--profile-from", str(src), "--out", str(out)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=600)
    cert = json.loads((out / "certificate.json").read_text()) if (out / "certificate.json").is_file() else None
    return p, cert, out


def test_bug_outside_the_profile_is_certified(tmp_path):
    p, cert, out = certify(tmp_path, {"app.c": USERS})
    assert p.returncode == 0, p.stdout + p.stderr[-3000:]
    pr = cert["profile"]
    assert pr["features"] == ["%d", "%s", "flag -", "width *"]
    assert (pr["call_sites"], pr["formats"]) == (2, 2)
    # the lines only a %o reaches (the abort) are never reached, and the headline says so
    n = cert["lines"]["never_reached"]
    assert cert["lines"]["measured"] and n > 0
    said = f", {n} line{'' if n == 1 else 's'} never reached"
    assert pr["headline"] == "CERTIFIED for the 2 formats of 2 call sites" + said
    assert cert["headline"] == "CERTIFIED" + said
    cc = pr["conformance_cases"]
    assert 0 < cert["phases"]["conform"]["claimed"] <= cc["kept"] < cc["total"]
    kept = (out / "build" / "profile-corpus" / "int.tsv").read_text()
    assert '\n# outside the profile: int.o\t"%o" uint:0\t' in kept and '\nint.d\t"%d" int:0\t' in kept
    fz = cert["phases"]["fuzz"]
    assert fz["executions"] > 0 and fz["outside_profile"] > 0  # inputs drawn outside it were not run
    assert "CERTIFIED for the 2 formats of 2 call sites" in (out / "certificate.md").read_text()


@pytest.mark.slow
def test_profile_that_reaches_the_bug_is_refused_naming_the_call_site(tmp_path):
    p, cert, out = certify(tmp_path, {"app.c": USERS, "mode.c": OCTAL_USER})
    assert p.returncode == 1, p.stdout + p.stderr[-3000:]
    pr = cert["profile"]
    assert pr["features"] == ["%d", "%o", "%s", "flag -", "flag 0", "width *"]
    assert pr["headline"].startswith("NOT CERTIFIED for the formats of 3 call sites: the failures reach 1 of them")
    site = "users/mode.c:5"
    assert site in pr["headline"]
    octal = [x for x in pr["failures"] if x["sites"] == [site]]
    assert octal and all("%o" in x["features"] for x in octal)
    assert any(x["reduced"].startswith('"%o" ') and x["oracle"] == "crash" for x in octal), pr["failures"]
    assert any(r.startswith(f"reaches call sites: {site}") for r in cert["reasons"]), cert["reasons"]


def test_a_failure_reaches_the_sites_that_use_its_form(tmp_path):
    """A failing "%ls" reaches a site that prints "%ls", not one printing
    "%s: %ld" (each specification is matched, not the format's features as a
    whole); a failure with no conversion (size 0) reaches every site."""
    from scnfuzz import scan_profile
    assert scan_profile.pieces(b"a%%b%-5d: %s %pM x") == [b"%%", b"%-5d: ", b"%s ", b"%pM x"]
    rep = {"call_sites": [
        {"file": "a.c", "line": 1, "name": "snprintf", "callee": "snprintf", "format": "%s: %ld",
         "features": ["%s", "%d", "length l"]},
        {"file": "b.c", "line": 2, "name": "snprintf", "callee": "snprintf", "format": "wide %ls",
         "features": ["%s", "length l"]},
        {"file": "c.c", "line": 3, "name": "vsnprintf", "callee": "vsnprintf", "format": None}]}
    (tmp_path / "report.json").write_text(json.dumps(rep))
    prof = scan_profile.load(str(tmp_path / "report.json"))
    assert prof.summary()["call_sites"] == 2 and prof.summary()["sites_not_literal"] == 1
    specs = scan_profile.spec_features({"%ls", "", "%s=%d"}, "iso")
    assert prof.reached({"%s", "length l"}, specs["%ls"]) == (["b.c:2"], True)
    assert prof.reached(set(), specs[""]) == (["a.c:1", "b.c:2"], True)
    assert prof.reached({"%s", "%d"}, specs["%s=%d"]) == (["a.c:1"], True)
    only_b = scan_profile.load(str(tmp_path / "report.json"), {"nothing"})
    assert only_b.summary()["call_sites"] == 0


@pytest.mark.parametrize("args,msg", [
    (["--profile", "pyproject.toml"], "not JSON"),
    (["--profile", "no-such.json"], "No such file"),
    (["--profile", "tests/scan/attr.c", "--profile-from", "tests/scan"], "give one of them"),
])
def test_bad_profile_exit_2(args, msg, tmp_path):
    p = subprocess.run([sys.executable, str(REPO / "scnfuzz"), "certify", "--source", str(ABORT_O),
                        "--function", "hostile_abort_o", "--kind", "vsnprintf", *args, "--out", str(tmp_path / "run")],
                       capture_output=True, text=True, cwd=REPO, timeout=120)
    assert p.returncode == 2 and msg in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert not (tmp_path / "run").exists()
