"""matrix_users: the matrix's "certified for its users' formats". Each saved
certificate is the one made for its saved call sites (the same sites and
formats, re-read by certify's own profile loader), and a matrix run shows it
beside the implementation with its date, and as stale when the run's own
certificate is of another build of the implementation."""
import json
import pathlib
import shutil
import sys
import types

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import matrix_users, scan_profile  # noqa: E402

SAVED = REPO / matrix_users.PROFILES


@pytest.mark.parametrize("name", sorted(matrix_users.USERS))
def test_saved_certificate_is_of_its_call_sites(name):
    u = matrix_users.USERS[name]
    cert = json.loads((SAVED / u["certificate"]).read_text())
    prof = scan_profile.load(str(SAVED / u["call_sites"]), u["functions"])
    p = cert["profile"]
    assert p["call_sites"] == len(prof.site_features) > 0
    assert p["formats"] == len(prof.formats())
    assert sorted(p["features"]) == sorted(prof.features)
    assert (p["functions"] or None) == (sorted(u["functions"]) if u["functions"] else None)
    assert cert["verdict"] in ("certified", "not certified")
    assert (SAVED / u["certificate"]).with_suffix(".md").is_file()


def _run(tmp_path, certs, matrix=True):
    """A matrix run directory whose impl/NAME/certify/certificate.json are certs[NAME]."""
    for name, cert in certs.items():
        d = tmp_path / "impl" / name / "certify"
        d.mkdir(parents=True)
        (d / "certificate.json").write_text(json.dumps(cert))
    meta = {"implementations": {n: {} for n in certs}} if matrix else {"kind": "conform"}
    return types.SimpleNamespace(path=tmp_path, meta=meta)


def test_a_matrix_run_shows_each_users_verdict_with_its_date(tmp_path):
    curl = json.loads((SAVED / "curl.certificate.json").read_text())
    apr = json.loads((SAVED / "apr-httpd.certificate.json").read_text())
    apr["sources"] = [dict(s, sha256="0" * 64) for s in apr["sources"]]  # apr's adapter changed since
    run = _run(tmp_path, {"curl": curl, "apr": apr})
    v = matrix_users.verdicts(run, ["glibc", "curl", "apr", "linux-tools"])
    assert sorted(v) == ["apr", "curl", "linux-tools"]  # glibc has no user here
    assert v["curl"]["same_implementation"] is True
    assert v["apr"]["same_implementation"] is False
    assert v["linux-tools"]["same_implementation"] is None  # the run has no certificate of it
    c = matrix_users.cell(v["curl"])
    assert c.startswith("NOT CERTIFIED: failures reach ")
    assert f"of {curl['profile']['call_sites']:,} curl call sites (made {curl['generated'][:10]})" in c
    assert "stale" not in c
    assert matrix_users.cell(v["apr"]).endswith("; stale: made for another build of it")
    lines = matrix_users.detail_lines(v["apr"])
    assert "ANOTHER build of it" in lines[1] and apr["generated"] in lines[1]


def test_a_certified_users_verdict_and_a_missing_certificate(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(SAVED, root / matrix_users.PROFILES)
    cert = json.loads((SAVED / "curl.certificate.json").read_text())
    cert["verdict"] = "certified"
    (root / matrix_users.PROFILES / "curl.certificate.json").write_text(json.dumps(cert))
    (root / matrix_users.PROFILES / "apr-httpd.certificate.json").unlink()
    run = _run(tmp_path / "run", {})
    v = matrix_users.verdicts(run, ["curl", "apr"], root=root)
    p = cert["profile"]
    assert matrix_users.cell(v["curl"]) == (f"**CERTIFIED** for the {p['formats']:,} formats of "
                                            f"{p['call_sites']:,} curl call sites (made {cert['generated'][:10]})")
    assert matrix_users.cell(v["apr"]).startswith("no certificate (")
    assert matrix_users.detail_lines(v["apr"]) == []


def test_only_a_matrix_run_has_users(tmp_path):
    assert matrix_users.verdicts(_run(tmp_path, {}, matrix=False), ["curl"]) == {}
    assert matrix_users.cell(None) == "-"
