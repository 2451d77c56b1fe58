#!/usr/bin/python3
"""Whether two `./scnfuzz scan` runs found the same things: their report.json's
call sites (file, line, name, callee, family, format, argument types,
features), findings (file, line, column, kind, function, call, code, why, fix)
and profile (each feature's sites and formats), compared as multisets. The
run's own figures (seconds, files/s, the command, the time it finished) are
not compared, nor the count of files with parse errors.

    bench/scan_compare.py BEFORE/report.json AFTER/report.json

Prints one line per part and the first differences; exit 0 when all are the
same, 1 otherwise."""
import collections
import json
import sys


def _multiset(items):
    return collections.Counter(json.dumps(x, sort_keys=True) for x in items)


def _profile(m):
    return [{"feature": k, "sites": sorted(v["sites"]), "formats": sorted(f for f in v["formats"] if f is not None)}
            for k, v in m["profile"].items()]


def compare(before, after):
    """(name, count before, count after, only before, only after) per part."""
    out = []
    for name, get in (("call sites", lambda m: m["call_sites"]), ("findings", lambda m: m["findings"]),
                      ("profile features", _profile)):
        a, b = _multiset(get(before)), _multiset(get(after))
        out.append((name, sum(a.values()), sum(b.values()), list((a - b).elements()), list((b - a).elements())))
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        before = json.load(f)
    with open(argv[1]) as f:
        after = json.load(f)
    same = before["files"] == after["files"]
    print(f"files: {before['files']} / {after['files']}")
    for name, n_before, n_after, gone, new in compare(before, after):
        ok = not gone and not new
        same = same and ok
        print(f"{name}: {n_before} / {n_after}: " + ("identical" if ok else f"{len(gone)} only before, "
                                                      f"{len(new)} only after"))
        for x in gone[:3]:
            print(f"  - {x[:300]}")
        for x in new[:3]:
            print(f"  + {x[:300]}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
