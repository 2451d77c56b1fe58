#!/usr/bin/python3
"""The survivors of a `./scnfuzz mutate` run (its report.json) as a triage table:

    /usr/bin/python3 bench/results/mutate/survivors_tsv.py REPORT.json... OUT.tsv

One line per mutant that survived (or was not run to its end): id, its file
(for a run over several files), line, col, function, operator, the edit, how
many corpus units reach it, and the verdict
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
# a run over several files (mutate --file DIR) names each mutant's file after its id
COLUMNS_WITH_FILE = COLUMNS[:1] + ("file",) + COLUMNS[1:]


def _cell(v):
    return str(v if v is not None else "").replace("\t", " ").replace("\n", " ")


def main(reports, out):
    ds = [json.loads(pathlib.Path(r).read_text()) for r in reports]
    several = any(len(d.get("files") or ()) > 1 for d in ds)
    cols = COLUMNS_WITH_FILE if several else COLUMNS
    at = {c: i for i, c in enumerate(cols)}

    def key(f):  # the edit: (file,) line, col, before, after
        return tuple(f[at[c]] for c in ("file", "line", "col", "before", "after") if c in at)
    ran = {(m.get("file", "") if several else "", m["function"]) for d in ds for m in d["mutants"]}
    kept, others = {}, []
    out = pathlib.Path(out)
    if out.is_file():
        for line in out.read_text().splitlines()[1:]:
            f = line.split("\t")
            if len(f) == len(cols) and not line.startswith("#"):
                kept[key(f)] = (f[at["verdict"]], f[at["why"]])
                if ((f[at["file"]] if several else ""), f[at["function"]]) not in ran:
                    others.append(f)
    rows = []
    for m in (m for d in ds for m in d["mutants"]):
        if m["status"] not in ("survived", "not-run", "error"):
            continue
        r = [m["id"]] + ([m.get("file")] if several else []) + [
            m["line"], m["col"], m["function"], m["operator"], m["before"], m["after"], m.get("reached_by"),
            m["status"]]
        verdict, why = kept.get(key([_cell(x) for x in r] + ["", ""]), ("open", m.get("detail") or ""))
        rows.append(r + [verdict, why])
    rows = sorted(others + rows, key=lambda r: (str(r[at["file"]]) if several else "", int(r[at["line"]]),
                                                int(r[at["col"]]), int(r[0])))
    with open(out, "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(_cell(x) for x in r) + "\n")
    print(f"{out}: {len(rows)} mutants ({sum(r[at['verdict']] == 'open' for r in rows)} open)")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:-1], sys.argv[-1])
