"""The conformance matrix of a run (category x target counts from the result
lines of conform*.jsonl), its targets and its parts, as report.json has them."""
import collections

from . import matrix_users
from .runs import read_jsonl

CELL_KEYS = ("pass", "fail", "error", "impl_differs", "known")


def _cell(counter):
    return {k: counter[k] for k in CELL_KEYS}


def count_result(counter, r):
    """Adds one scn-conform result line to a cell's counts. `known`: failures
    a rule explains (known_bugs.tsv, allowances.tsv): the line names its kind."""
    st = r.get("status", "error")
    counter[st] += 1
    if r.get("note") == "impl-differs":
        counter["impl_differs"] += 1
    if st in ("fail", "error") and r.get("rule_kind"):
        counter["known"] += 1


def matrix(run):
    """category x target counts; a target run by several conformance parts of
    the run counts from the last of them."""
    cells = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    tnames, last = [], {}
    parts = run.meta.get("parts", [])
    for i, part in enumerate(parts):
        if part.get("kind") == "conform":
            for t in part.get("targets", []):
                name = t["name"] if isinstance(t, dict) else t
                if name not in tnames:
                    tnames.append(name)
                last[name] = i
    for i, part in enumerate(parts):
        if part.get("kind") != "conform" or i not in last.values():
            continue
        for r in read_jsonl(run.path / part.get("results", "conform.jsonl")):
            # result lines only: not the summary, not finding records copied beside them
            if "status" not in r or "target" not in r or last.get(r["target"]) != i:
                continue
            count_result(cells[r.get("category", "?")][r["target"]], r)
    rows = []
    for cat in sorted(cells):
        rows.append({"category": cat, "cells": {t: _cell(cells[cat][t]) for t in tnames if cells[cat].get(t)}})
    totals = {}
    for t in tnames:
        tot = collections.Counter()
        for cat in cells:
            tot.update(cells[cat].get(t, {}))
        totals[t] = _cell(tot)
    # users: a matrix run's implementations certified for a real user's formats (saved certificates)
    return {"targets": tnames, "rows": rows, "totals": totals,
            "users": matrix_users.verdicts(run, tnames)}


def cell_failed(c):
    """Failures of a cell that no rule explains (they fail the verdict)."""
    return c["fail"] + c["error"] - c.get("known", 0)


def targets(run):
    seen = {}
    for part in run.meta.get("parts", []):
        for t in part.get("targets", []):
            if isinstance(t, dict) and t.get("name") not in seen:
                seen[t["name"]] = {k: t.get(k) for k in ("name", "version", "dialect", "scnprintf", "where")}
    return list(seen.values())


def parts(run):
    return [{k: v for k, v in p.items() if k != "targets"} |
            {"targets": [t["name"] if isinstance(t, dict) else t for t in p.get("targets", [])]}
            for p in run.meta.get("parts", [])]
