"""A run's reports from its raw material (run.json, findings.jsonl,
conform*.jsonl, the campaigns' logs): report.json (schema: report_schema.json,
reports/README.md), report.md, report.html (self-contained), junit.xml,
report.sarif (SARIF 2.1.0) and report.tap (KTAP). One entry per root cause
(signature); see report_model.py."""
import json
import os
import pathlib
import sys

from . import campaign, report_matrix, report_model
from .errors import UsageError
from .junit import junit_text
from .progress import slow_step
from .render_common import verdict_text
from .render_html import render_html
from .render_md import render_md
from .runs import Run, lock_run_dir, read_fold_state, utc_iso, write_atomic
from .sarif import certify_sources, sarif_text
from .tap import tap_text
from .tree import ROOT

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
    write_atomic(path, text)  # the old report stays whole if the disk is full


def category_files(run):
    """Corpus category -> the corpus file that holds it (its first column,
    docs/CASE_FORMAT.md), over the corpus files of the run's conformance
    parts; a file that cannot be read is left out."""
    out = {}
    files = [n for p in run.meta.get("parts", []) if p.get("kind") == "conform" for n in p.get("corpus") or []]
    for name in files:
        if isinstance(name, str):
            try:
                with open(pathlib.Path(name) if os.path.isabs(name) else ROOT / name, "rb") as f:
                    for raw in f:
                        cat = raw.split(b"\t", 1)[0].decode("utf-8", "replace").strip()
                        if cat and not cat.startswith("#") and b"\t" in raw:
                            out.setdefault(cat, name)
            except OSError:
                continue
    return out


def campaigns(run):
    """The campaign parts' series, as render_html draws them."""
    out = []
    for i, part in enumerate(run.meta.get("parts", [])):
        if part.get("kind") != "fuzz" or not (part.get("workers") or part.get("jobs")):
            continue  # (a certification's fuzzing phase has no workers of its own)
        engine = part.get("engine", "libfuzzer")
        workers = campaign.campaign_series(run.path, part)
        out.append({"index": i, "title": f"{part.get('fuzzer', '?')} ({engine}, {len(workers)} worker(s), "
                                         f"{part.get('status', '?')})",
                    "metrics": campaign.SERIES_METRICS.get(engine, campaign.SERIES_METRICS["libfuzzer"]),
                    "workers": workers})
    return out


def build_report(run, baseline=None):
    """Writes report.json/.md/.html/.sarif/.tap and junit.xml into the run
    directory and returns report.json's content. baseline: an earlier run
    directory."""
    parts = run.meta.get("parts", [])
    skipped = report_model.Skipped()
    with slow_step(f"reading {_count_lines(run.findings_path):,} finding lines"):
        groups, nraw = report_model.group_records(report_model.iter_records(run.findings_path, skipped))
    # complete lines of the workers' own files that were not JSON objects (never folded in)
    worker_skipped = read_fold_state(run.path).get("skipped")
    worker_skipped = sum(v for v in worker_skipped.values() if isinstance(v, int)) \
        if isinstance(worker_skipped, dict) else 0
    if skipped or worker_skipped:
        where = f" (line {', '.join(map(str, skipped.lines))}{', ...' if skipped.count > len(skipped.lines) else ''})" \
            if skipped else ""
        sys.stderr.write(f"scnfuzz: warning: {skipped.count + worker_skipped} finding line(s) skipped: torn by a "
                         f"killed writer, or not a finding record: {skipped.count} in "
                         f"{run.findings_path}{where}, {worker_skipped} in the workers' files (fuzz/)\n")
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
        "summary": report_model.summarize(items, matrix, nraw, base, skipped.count + worker_skipped),
        "findings": items,
    }
    if base is not None:
        rep["baseline"] = base
    with slow_step("writing report.json"):
        _write(run.path / "report.json", json.dumps(rep, indent=1) + "\n")
    with slow_step("writing report.md"):
        _write(run.path / "report.md", render_md(rep))
    with slow_step("reading the campaigns' logs"):
        series = campaigns(run)
    with slow_step("writing report.html"):
        _write(run.path / "report.html", render_html(rep, series))
    sources = certify_sources(run.meta, run.path)
    with slow_step("writing junit.xml"):
        _write(run.path / "junit.xml", junit_text(rep, category_files(run), sources))
    with slow_step("writing report.sarif"):
        _write(run.path / "report.sarif", sarif_text(rep, sources))
    with slow_step("writing report.tap"):
        _write(run.path / "report.tap", tap_text(rep))
    return rep


def report_command(args):
    check_baseline(args.baseline)
    run = Run.open(args.dir)
    # a live run writes its own report when it ends; two writers would mix the files
    lock_run_dir(run.path, "its report is written when it ends (stop it with Ctrl-C or SIGTERM for it now)")
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
