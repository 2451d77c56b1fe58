"""The matrix's "certified for its users' formats" (issue 25 item 3): beside
an implementation's whole-corpus verdict, its certification restricted to
the formats a real user of it passes (`./scnfuzz certify --target NAME
--profile CALL_SITES`, the call sites found by `./scnfuzz scan` in that
user's sources).

Those certificates are saved in bench/results/scan_profiles/ with the call
sites they were made for, and the matrix reuses them rather than certifying
again (a scan of the user's sources and a campaign restricted to its
profile per implementation: minutes the matrix does not have). So each
verdict carries the date it was made, and whether the implementation the
matrix has just certified on the whole corpus is still the one it was made
for (the same adapter and vendored sources, byte for byte, and the same
packaged version): when not, the cell says the verdict is stale.
"""
import json
import pathlib
import re

from .tree import ROOT

PROFILES = pathlib.Path("bench") / "results" / "scan_profiles"

# implementation -> its user: the call sites (a scan's, paths relative to the user's tree),
# the functions of those calls that reach the implementation (None: every printf-family
# call), and the certificate made for them
USERS = {
    "curl": {"user": "curl", "sources": "curl 7.88.1's lib/ and src/ (Debian source package curl)",
             "call_sites": "curl-7.88.1.call_sites.json", "functions": None,
             "certificate": "curl.certificate.json"},
    "linux-tools": {"user": "perf", "sources": "perf, tools/perf of linux-source-6.1",
                    "call_sites": "perf-6.1-scnprintf.call_sites.json",
                    "functions": ["scnprintf", "scnprintf_pad", "vscnprintf"],
                    "certificate": "linux-tools-perf.certificate.json"},
    "apr": {"user": "httpd", "sources": "Apache httpd 2.4.68's server/ and modules/ (Debian source package apache2)",
            "call_sites": "httpd-2.4.68.call_sites.json",
            # the calls that format through APR's apr_vformatter (httpd's log functions format with
            # apr_vsnprintf, ap_rprintf and ap_fprintf with apr_vformatter)
            "functions": ["ap_fprintf", "ap_log_cerror_", "ap_log_error_", "ap_log_perror_", "ap_log_rerror_",
                          "ap_rprintf", "ap_vrprintf", "apr_brigade_printf", "apr_brigade_vprintf",
                          "apr_file_printf", "apr_psprintf", "apr_pvsprintf", "apr_snprintf", "apr_vsnprintf"],
            "certificate": "apr-httpd.certificate.json"},
}

_VERSION = re.compile(r'SCN_MATRIX_VERSION=\\?"([^"\\]*)')


def identity(cert):
    """What a certificate certified: its function, the sha256 of each
    source (adapter, vendored files) and the packaged version it was built
    from; paths are left out (a clean clone has others)."""
    m = _VERSION.search((cert.get("build") or {}).get("cflags") or "")
    return (cert.get("function"), sorted(s.get("sha256") for s in cert.get("sources") or []),
            m.group(1) if m else None)


def _load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def saved(name, root=ROOT):
    """The saved users' verdict of implementation name, or None (no user)."""
    u = USERS.get(name)
    if u is None:
        return None
    where = PROFILES / u["certificate"]
    cert = _load(pathlib.Path(root) / where)
    if cert is None:
        return {"user": u["user"], "sources": u["sources"], "verdict": "missing", "certificate": str(where)}
    p = cert.get("profile") or {}
    return {"user": u["user"], "sources": u["sources"], "verdict": cert.get("verdict", "?"),
            "headline": p.get("headline"), "call_sites": p.get("call_sites"), "formats": p.get("formats"),
            "sites_reached": p.get("sites_reached", 0), "made": cert.get("generated"),
            "certificate": str(where.with_suffix(".md")), "profile": str(PROFILES / u["call_sites"]),
            "functions": u["functions"], "identity": identity(cert)}


def verdicts(run, targets, root=ROOT):
    """{implementation: its users' verdict} of a `scnfuzz matrix` run, for
    the targets that have a user; each says whether the run's own
    certificate (impl/NAME/certify/certificate.json) is of the same
    implementation (same_implementation: True, False, or None when the run
    has none). Other runs: {}."""
    if "implementations" not in run.meta:
        return {}
    out = {}
    for name in targets:
        v = saved(name, root)
        if v is None:
            continue
        mine = _load(pathlib.Path(run.path) / "impl" / name / "certify" / "certificate.json")
        ident = v.pop("identity", None)
        v["same_implementation"] = None if mine is None or ident is None else identity(mine) == ident
        out[name] = v
    return out


def cell(v):
    """The matrix's cell: the verdict, for how many call sites of whom, and
    when it was made."""
    if not v:
        return "-"
    if v["verdict"] == "missing":
        return f"no certificate ({v['certificate']})"
    when = (v.get("made") or "?")[:10]
    if v["verdict"] == "certified":
        text = f"**CERTIFIED** for the {v['formats']:,} formats of {v['call_sites']:,} {v['user']} call sites"
    else:
        text = f"NOT CERTIFIED: failures reach {v['sites_reached']:,} of {v['call_sites']:,} {v['user']} call sites"
    text += f" (made {when})"
    if v.get("same_implementation") is False:
        text += "; stale: made for another build of it"
    return text


def detail_lines(v):
    """The implementation's section: the users' verdict in full, where it
    comes from and when it was made."""
    if not v or v["verdict"] == "missing":
        return []
    fn = f", calls of {', '.join(v['functions'])}" if v.get("functions") else ""
    same = {True: "the implementation certified above, unchanged",
            False: "ANOTHER build of it: stale, certify again",
            None: "not compared (no certificate in this run)"}[v.get("same_implementation")]
    return [f"- certified for its users' formats: {v.get('headline') or v['verdict']}",
            f"  - users: {v['sources']}{fn} (`{v['profile']}`); certificate `{v['certificate']}`, made "
            f"{v.get('made')} (saved, not run by the matrix); of {same}"]
