"""The rules' pattern language has one table of terms (oracles/rule_terms.c):
the loader knows a term only from it, and the documentation is generated from
it."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD = pathlib.Path(os.environ.get("SCN_BUILD_DIR", ROOT / "build" / "asan"))
CONFORM = BUILD / "programs" / "scn-conform"
REPLAY = BUILD / "fuzz" / "scn-replay"


def terms():
    if not CONFORM.exists():
        pytest.skip("scn-conform not built")
    out = subprocess.run([str(CONFORM), "--list-terms"], capture_output=True, text=True, timeout=60, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def table_md(rows):
    md = ["| term | looks at | holds when |", "|---|---|---|"]
    md += [f"| `{name}` | {at} | {doc.replace('|', chr(92) + '|')} |" for name, at, doc in rows]
    return "\n".join(md)


def test_every_term_of_the_tables_is_in_the_one_table():
    known = {r[0].removesuffix("...") for r in terms()}
    used = set()
    for f in ("allowances.tsv", "known_bugs.tsv"):
        for line in (ROOT / "oracles" / f).read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            pattern = line.split("\t")[3 if f == "known_bugs.tsv" else 2]
            for t in pattern.split("&"):
                m = re.match(r"[a-z0-9<]+[=>]", t)
                used.add(m.group(0) if m and m.group(0) in known else t)
    assert used <= known, sorted(used - known)
    assert len(used) >= 20  # the tables use most of the language


@pytest.mark.parametrize("pattern, named", [("conv=d&no-such-term", "no-such-term"),  # unknown
                                            ("conv=d&size=abc", "size=abc")])  # a malformed value
def test_a_bad_term_is_refused_naming_it(tmp_path, pattern, named):
    if not REPLAY.exists():
        pytest.skip("scn-replay not built")
    t = tmp_path / "kb.tsv"
    t.write_text(f"x\tbug\tiso\t{pattern}\tglibc\tv\t\"%d\" int:1\tdifferential:%d:glibc\tc\n")
    p = subprocess.run([str(REPLAY), '"%d" int:1'], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, SCN_KNOWN_BUGS=str(t)))
    assert p.returncode == 2 and named in p.stderr and "line 1" in p.stderr, p.stderr


def test_the_findings_doc_table_is_generated_from_the_table():
    doc = (ROOT / "docs" / "FINDINGS.md").read_text()
    m = re.search(r"<!-- terms: begin -->\n(.*?)\n<!-- terms: end -->", doc, re.S)
    assert m, "docs/FINDINGS.md lost its term table markers"
    assert m.group(1) == table_md(terms()), "regenerate: /usr/bin/python3 tests/test_rule_terms.py --write"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    p = ROOT / "docs" / "FINDINGS.md"
    s = p.read_text()
    s = re.sub(r"(<!-- terms: begin -->\n).*?(<!-- terms: end -->)",
               lambda m: m.group(1) + table_md(terms()) + "\n" + m.group(2), s, flags=re.S)
    p.write_text(s)
