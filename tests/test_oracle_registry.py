"""The oracle registry (oracles/oracles.def): one list that the C tools and the
runner read, and that names every oracle a finding can carry."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "runner"))
from scnfuzz import oracle_registry  # noqa: E402
from scnfuzz.errors import SetupError  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD = pathlib.Path(os.environ.get("SCN_BUILD_DIR", ROOT / "build" / "asan"))
CLASSES = {"memory-safety", "crash", "hang", "invariant", "divergence", "conformance", "error"}
STAGES = {"per-size", "expectation", "differential", "process", "side-effect", "parser"}
PROMISES = {"bytes", "c99-return", "scn-return", "bounds", "no-crash", "-"}
# where the C code names the oracle of a finding it makes
EMITTED = re.compile(r'finding\(&?k, "([^"]+)"|\boracle = "([^"]+)"|o->oracle, "([^"%]+)"|san_oracle, "([^"]+)"|'
                     r'bad\(&c1, "([^"]+)"|return (?:failed \? NULL : )?"(expect\.[a-z]+)"|"(writes-std(?:out|err))"')


def table_md():
    rows = ["| oracle | class | stage | promise | checks |", "|---|---|---|---|---|"]
    for o in oracle_registry.oracles().values():
        rows.append(f"| `{o.name}` | {o.klass} | {o.stage} | {o.promise} | {o.doc} |")
    return "\n".join(rows)


def test_every_entry_is_well_formed():
    os_ = oracle_registry.oracles()
    assert len(os_) >= 25
    for o in os_.values():
        assert o.klass in CLASSES and o.stage in STAGES and o.promise in PROMISES, o
        assert o.doc and "\t" not in o.doc


def test_c_and_python_read_the_same_list():
    exe = BUILD / "programs" / "scn-conform"
    if not exe.exists():
        pytest.skip("scn-conform not built")
    out = subprocess.run([str(exe), "--list-oracles"], capture_output=True, text=True, timeout=60, check=True).stdout
    c_side = [tuple(line.split("\t")) for line in out.splitlines()]
    assert c_side == [tuple(o) for o in oracle_registry.oracles().values()]


def test_every_oracle_the_c_code_names_is_registered():
    found = set()
    for d in ("oracles", "programs", "fuzz", "core"):
        for f in (ROOT / d).rglob("*.c"):
            for m in EMITTED.finditer(f.read_text(errors="replace")):
                found.add(next(g for g in m.groups() if g))
    assert {"overrun", "expect.output", "hang", "parse.roundtrip", "writes-stdout"} <= found  # the pattern still sees them
    missing = sorted(n for n in found if oracle_registry.get(n) is None)
    assert not missing, f"oracles named in C but not in oracles/oracles.def: {missing}"


def test_the_findings_doc_table_is_generated_from_the_list():
    doc = (ROOT / "docs" / "FINDINGS.md").read_text()
    m = re.search(r"<!-- oracles: begin -->\n(.*?)\n<!-- oracles: end -->", doc, re.S)
    assert m, "docs/FINDINGS.md lost its oracle table markers"
    assert m.group(1) == table_md(), "regenerate: /usr/bin/python3 tests/test_oracle_registry.py --write"


def test_the_command_lists_them(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "scnfuzz"), "oracles"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.splitlines()[0].split()[:3] == ["NAME", "CLASS", "STAGE"]
    assert len(out.splitlines()) == 1 + len(oracle_registry.oracles())


def test_a_malformed_line_is_a_setup_error(tmp_path, monkeypatch):
    bad = tmp_path / "oracles.def"
    bad.write_text('SCN_ORACLE("x", "invariant", "per-size")\n')
    monkeypatch.setattr(oracle_registry, "DEF", bad)
    oracle_registry.oracles.cache_clear()
    try:
        with pytest.raises(SetupError, match=r"oracles.def:1"):
            oracle_registry.oracles()
    finally:
        oracle_registry.oracles.cache_clear()


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    p = ROOT / "docs" / "FINDINGS.md"
    s = p.read_text()
    s = re.sub(r"(<!-- oracles: begin -->\n).*?(<!-- oracles: end -->)",
               lambda m: m.group(1) + table_md() + "\n" + m.group(2), s, flags=re.S)
    p.write_text(s)
