"""A run's reports from its raw material (run.json, findings.jsonl,
conform*.jsonl): report.json (schema: report_schema.json, reports/README.md),
report.md, report.html (self-contained) and junit.xml. One entry per root
cause (signature); see report_model.py."""
import json
import os
import pathlib

from . import report_matrix, report_model
from .errors import UsageError
from .junit import write_junit
from .progress import slow_step
from .render_common import verdict_text
from .render_html import render_html
from .render_md import render_md
from .runs import Run, utc_iso

SCHEMA_VERSION = 2
SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "report_schema.json")


def _count_lines(path):
    n = 0
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                n += chunk.count(b"\n")
    except FileNotFoundError:
        pass
    return n


def check_baseline(path):
    """The --baseline directory, checked before a run starts (exit 2 early)."""
    if path and not pathlib.Path(path).is_dir():
        raise UsageError(f"--baseline {path}: no such run directory")
    return path


def _write(path, text):
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def build_report(run, baseline=None):
    """Writes report.json/.md/.html and junit.xml into the run directory and
    returns report.json's content. baseline: an earlier run directory."""
    parts = run.meta.get("parts", [])
    with slow_step(f"reading {_count_lines(run.findings_path):,} finding lines"):
        groups, nraw = report_model.group_records(report_model.iter_records(run.findings_path))
    items = report_model.root_causes(groups, run.meta.get("planted"))
    with slow_step("reading the conformance results"):
        matrix = report_matrix.matrix(run)
    base = None
    if baseline:
        with slow_step(f"reading the baseline {baseline}"):
            base = report_model.compare(items, report_model.load_baseline(check_baseline(baseline)),
                                        pathlib.Path(baseline).resolve())
    rep = {
        "schema_version": SCHEMA_VERSION,
        "generator": "scnfuzz",
        "generated": utc_iso(),
        "run": {"dir": str(run.path), "kind": run.meta.get("kind", "unknown"),
                "started": run.meta.get("started"), "finished": run.meta.get("finished"),
                "command": run.meta.get("command", [])},
        "targets": report_matrix.targets(run),
        "cases_run": sum(p.get("cases_run", 0) or 0 for p in parts),
        "executions": sum((p.get("executions", 0) or 0) if p.get("kind") == "fuzz" else (p.get("results_count", 0) or 0)
                          for p in parts),
        "duration_s": round(sum(p.get("duration_s", 0) or 0 for p in parts), 3),
        "parts": report_matrix.parts(run),
        "matrix": matrix,
        "summary": report_model.summarize(items, matrix, nraw, base),
        "findings": items,
    }
    if base is not None:
        rep["baseline"] = base
    with slow_step("writing report.json"):
        _write(run.path / "report.json", json.dumps(rep, indent=1) + "\n")
    with slow_step("writing report.md"):
        _write(run.path / "report.md", render_md(rep))
    with slow_step("writing report.html"):
        _write(run.path / "report.html", render_html(rep))
    with slow_step("writing junit.xml"):
        write_junit(rep, run.path / ".junit.xml.tmp")
        os.replace(run.path / ".junit.xml.tmp", run.path / "junit.xml")
    return rep


def report_command(args):
    check_baseline(args.baseline)
    run = Run.open(args.dir)
    run.fold_worker_findings()  # what a killed campaign's fuzzers wrote after its last fold
    rep = build_report(run, baseline=args.baseline)
    print_summary(rep, run.path)
    return exit_code(rep)


def exit_code(rep):
    """1 when a bug root cause is new (relative to the baseline, if any)."""
    return 1 if rep["summary"]["verdict"] == "fail" else 0


def print_summary(rep, path):
    s = rep["summary"]
    print(f"scnfuzz: {s['verdict'].upper()}: {verdict_text(rep)}")
    print(f"scnfuzz: report: {os.path.relpath(path / 'report.html', os.getcwd())}")
