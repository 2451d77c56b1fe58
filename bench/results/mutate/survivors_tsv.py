#!/usr/bin/python3
"""The survivors of a `./scnfuzz mutate` run (its report.json) as a triage table:

    /usr/bin/python3 bench/results/mutate/survivors_tsv.py REPORT.json... OUT.tsv

One line per mutant that survived (or was not run to its end): id, line, col,
function, operator, the edit, how many corpus units reach it, and the verdict
columns: killed-by-new-case / equivalent / unreachable / open, and why. A
verdict already in OUT.tsv is kept for the same edit (line, col, before,
after): the ids change when the mutator's order does, the edits do not. The
rows of OUT.tsv of functions that none of the reports ran (a run restricted
with --function) are kept as they are: one table holds the runs of several
functions."""
import json
import pathlib
import sys

COLUMNS = ("id", "line", "col", "function", "operator", "before", "after", "reached_by", "status", "verdict", "why")


def _cell(v):
    return str(v if v is not None else "").replace("\t", " ").replace("\n", " ")


def main(reports, out):
    ds = [json.loads(pathlib.Path(r).read_text()) for r in reports]
    ran = {m["function"] for d in ds for m in d["mutants"]}
    kept, others = {}, []
    out = pathlib.Path(out)
    if out.is_file():
        for line in out.read_text().splitlines()[1:]:
            f = line.split("\t")
            if len(f) == len(COLUMNS) and not line.startswith("#"):
                kept[(f[1], f[2], f[5], f[6])] = (f[9], f[10])
                if f[3] not in ran:
                    others.append(f)
    rows = []
    for m in (m for d in ds for m in d["mutants"]):
        if m["status"] not in ("survived", "not-run", "error"):
            continue
        key = (str(m["line"]), str(m["col"]), _cell(m["before"]), _cell(m["after"]))
        verdict, why = kept.get(key, ("open", m.get("detail") or ""))
        rows.append([m["id"], m["line"], m["col"], m["function"], m["operator"], m["before"], m["after"],
                     m.get("reached_by"), m["status"], verdict, why])
    rows = sorted(others + rows, key=lambda r: (int(r[1]), int(r[2]), int(r[0])))
    with open(out, "w") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(_cell(x) for x in r) + "\n")
    print(f"{out}: {len(rows)} mutants ({sum(r[9] == 'open' for r in rows)} open)")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:-1], sys.argv[-1])
