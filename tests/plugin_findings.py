"""pytest helpers (and plugin) for the scnfuzz command tests: running ./scnfuzz,
reading and validating its reports, showing the run's report.md when a test
fails.

Used by tests/test_cli.py, test_reports.py, test_campaign_kill.py
(`from plugin_findings import ...`). Loaded as a plugin (pytest_plugins =
["plugin_findings"] in conftest.py, or `-p plugin_findings`), it also appends
the summary of every run directory a failing test used to its report.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
SCNFUZZ = REPO / "scnfuzz"
sys.path.insert(0, str(REPO / "runner"))

from scnfuzz import schema  # noqa: E402

_RUN_DIRS = []


def scnfuzz_env(**extra):
    env = dict(os.environ)
    env.update(extra)
    return env


def run_scnfuzz(*args, timeout=900, env=None, cwd=None):
    """Runs ./scnfuzz ARGS; returns the CompletedProcess (text)."""
    return subprocess.run([str(SCNFUZZ), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env or scnfuzz_env(),
                          cwd=cwd or REPO)


def track(run_dir):
    """Remember a run directory (its report is shown if the test fails)."""
    _RUN_DIRS.append(pathlib.Path(run_dir))
    return pathlib.Path(run_dir)


def load_report(run_dir):
    """report.json of a run, validated against the documented schema."""
    rep = json.loads((pathlib.Path(run_dir) / "report.json").read_text())
    errs = schema.validate(rep)
    assert not errs, f"report.json does not validate: {errs[:5]}"
    return rep


def raw_findings(run_dir):
    out = []
    p = pathlib.Path(run_dir) / "findings.jsonl"
    for line in p.read_text().splitlines() if p.exists() else []:
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def corpus_categories(dialect="iso"):
    """Categories of corpus/*.tsv with at least one expectation in the dialect."""
    col = 2 if dialect == "iso" else 3
    cats = set()
    for p in sorted((REPO / "corpus").glob("*.tsv")):
        for line in p.read_text(encoding="latin-1").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            if len(f) == 6 and f[col] != "-":
                cats.add(f[0])
    return cats


@pytest.fixture
def run_dir(tmp_path):
    """A fresh directory for one run (--out)."""
    return track(tmp_path / "20260101T000000Z-test")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call" and rep.failed and _RUN_DIRS:
        for d in _RUN_DIRS:
            md = d / "report.md"
            if md.is_file():
                rep.sections.append((f"scnfuzz report {d}", "\n".join(md.read_text().splitlines()[:40])))
    if rep.when == "teardown":
        _RUN_DIRS.clear()
