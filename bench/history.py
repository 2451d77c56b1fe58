#!/usr/bin/python3
"""Re-introduced upstream bugs, Magma style: each bench/history/<id>.diff is
a real printf fix of musl, Linux lib/vsprintf.c, newlib, uClibc-ng or
picolibc, reversed for the version the build fetches (its header names the
fix commit; bench/history/README.md). Each one goes through

    ./scnfuzz mutate --target T --patch bench/history/<id>.diff --json --time S

R times (the conformance corpus at every size first, then, if the corpus
does not find it, a differential campaign of S seconds), and the table says
in how many runs it was found, by which stage, and the median seconds and
executions of the runs that found it. Writes bench/results/history.md (the
table, then each bug's runs and signatures) and bench/results/history.json
(every run's JSON line).

    /usr/bin/python3 bench/history.py [--runs 5] [--time 60] [--bugs a,b] [--results DIR]

A run that cannot start (the mutation build is busy, or does not build)
is tried again after a pause, not counted. A diff that does not apply is
one row saying so. A bug found in fewer than 4 of the
runs needs its reason: the .diff's `note:` header line, shown in the table.
"""
import argparse
import ast
import datetime
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
HISTORY = REPO / "bench" / "history"
RESULTS = REPO / "bench" / "results"
SCNFUZZ = REPO / "scnfuzz"
FIELDS = ("id", "target", "file", "version", "fix", "subject", "author", "date", "link", "bug",
          "standard", "case", "expected")
NOT_APPLIED = re.compile(r"--patch .* does not apply at ")
RETRY_WAIT_S = 60
RETRIES = 60


def header(path):
    """The .diff's header fields (the `# key: value` lines before the first
    `--- `, a value continued on `#   ` lines)."""
    fields, key = {}, None
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith("--- "):
            break
        m = re.match(r"# ([a-z-]+): (.*)$", line)
        if m:
            key = m.group(1)
            fields[key] = m.group(2).strip()
        elif key and line.startswith("#   "):
            fields[key] += " " + line[4:].strip()
        else:
            key = None
    return fields


def bugs(selected=None):
    out = []
    for p in sorted(HISTORY.glob("*.diff")):
        h = header(p)
        if selected and h.get("id") not in selected:
            continue
        out.append((p, h))
    if selected:
        missing = set(selected) - {h.get("id") for _, h in out}
        if missing:
            sys.exit(f"history.py: no such bug: {', '.join(sorted(missing))} (bench/history/*.diff)")
    return out


def source_root(build, target):
    """The root of the target's fetched source in a build directory (what
    the diffs' paths are relative to), or None when it was not fetched."""
    t = pathlib.Path(build) / "core" / "targets"
    if target == "musl":
        f = t / "musl" / "musl-source" / "musl-src.path"
        return pathlib.Path(f.read_text().strip()) if f.is_file() else None
    if target == "kernel":
        d = t / "kernel" / "ksrc" / "linux-source-6.1"
        return d if (d / "lib" / "vsprintf.c").is_file() else None
    if target == "newlib":
        f = t / "newlib" / "newlib-source" / "newlib.path"
        return pathlib.Path(f.read_text().strip()).parent if f.is_file() else None
    if target == "picolibc":
        f = t / "picolibc" / "picolibc-source" / "picolibc-src.path"
        return pathlib.Path(f.read_text().strip()) if f.is_file() else None
    if target == "uclibc":
        found = sorted((t / "uclibc" / "uclibc-source").glob("uClibc-ng-*/libc/stdio/_vfprintf.c"))
        return found[0].parent.parent.parent if found else None
    return None


def last_json(stdout):
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def finding_case(out_dir):
    """Where the run found it (a corpus line, or the campaign) and the case,
    from the run's report.json; nothing when it has none."""
    try:
        outcome = json.loads((pathlib.Path(out_dir) / "report.json").read_text()).get("outcome")
    except (OSError, ValueError):
        return {}
    if isinstance(outcome, str):  # a mutate report may keep the outcome as a Python literal
        try:
            outcome = ast.literal_eval(outcome)
        except (ValueError, SyntaxError):
            return {}
    if not isinstance(outcome, dict):
        return {}
    return {k: outcome[k] for k in ("where", "case") if isinstance(outcome.get(k), str)}


def run_once(diff, target, seconds, out_dir, check_build):
    """One `scnfuzz mutate --patch` run: its JSON result, or a record of why
    there is none. A busy mutation build, or one that does not build (the
    tree it copies is git's index, which other work may leave half-staged for
    a while), is waited for and tried again; a diff that does not apply is
    final."""
    cmd = [sys.executable, str(SCNFUZZ), "mutate", "--target", target, "--patch", str(diff), "--json",
           "--time", f"{seconds:g}", "--out", str(out_dir)]
    detail = ""
    for _ in range(RETRIES):
        t0 = time.monotonic()
        r = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=max(3600, 20 * seconds))
        detail = (r.stderr.strip().splitlines() or [""])[-1][:300]
        if r.returncode == 2 and NOT_APPLIED.search(r.stderr):
            return {"error": "does not apply", "detail": detail, "wall_s": round(time.monotonic() - t0, 1)}
        res = last_json(r.stdout) if r.returncode == 0 else None
        if res is None:
            print(f"  {diff.stem}: {detail or f'exit {r.returncode}'}; trying again in {RETRY_WAIT_S} s",
                  file=sys.stderr, flush=True)
            time.sleep(RETRY_WAIT_S)
            continue
        res["wall_s"] = round(time.monotonic() - t0, 1)
        res["out"] = str(out_dir)
        res.update(finding_case(out_dir))
        return confirmed(res, target, check_build)
    return {"error": "set-up error", "detail": detail, "wall_s": 0}


REPLAY_LINE = re.compile(r'^  (\S+)\s+ret=(-?\d+)\s+(".*")$', re.M)


def kill_record(out_dir):
    """The finding the run's fuzz stage counted (kills.jsonl), or None."""
    try:
        for line in (pathlib.Path(out_dir) / "kills.jsonl").read_text().splitlines():
            rec = json.loads(line).get("record") if line.strip() else None
            if isinstance(rec, dict):
                return rec
    except (OSError, ValueError):
        pass
    return None


def unmodified(case, targets, check_build):
    """The unmodified targets' replay of case in another build (the main
    one): {target: (ret, quoted bytes)} and whether a target crashed."""
    cmd = [sys.executable, str(SCNFUZZ), "replay"] + [a for t in targets for a in ("--target", t)] + [case]
    r = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
                       env=dict(os.environ, SCN_BUILD_DIR=str(check_build)))
    outs = {m.group(1): (int(m.group(2)), m.group(3)) for m in REPLAY_LINE.finditer(r.stdout)}
    return outs, re.search(r"^  crash: ", r.stdout, re.M) is not None


def verdict(rec, target, check_build):
    """(True, "") when the finding rec of a campaign is the patch's doing:
    the unmodified target (replayed in check_build) prints something else
    for its case, or does not die on it; (False, why) when it does the same;
    (None, why) when that cannot be told."""
    case = rec.get("case")
    if not case:
        return None, "the run recorded no case"
    if rec.get("oracle") == "hang":
        return None, "a hang (a time limit on a loaded machine says little)"
    if target == "picolibc" and "ldouble:" in case:
        # core/targets/picolibc/CMakeLists.txt: io-long-double is off, a %L conversion prints garbage
        return None, "picolibc prints a long double argument as garbage (io-long-double off): not reproducible"
    outs, crashed = unmodified(case, [target], check_build)
    if rec.get("oracle") == "crash":
        if target not in rec.get("targets", [target]):
            return False, f"the crash is not {target}'s ({', '.join(rec.get('targets', []))})"
        return (False, "the unmodified target dies on it too") if crashed else (True, "")
    got = (rec.get("outputs") or {}).get(target)
    if not got or target not in outs:
        return None, "no output of the target to compare"
    if (got.get("ret"), got.get("bytes")) == outs[target]:
        return False, f"the unmodified {target} prints the same (ret {outs[target][0]}, {outs[target][1][:60]})"
    return True, ""


def confirmed(res, target, check_build):
    """A campaign's find counts only when verdict() says it is the patch's
    doing (mutate's own check of a matrix target's finding does not replay
    that target: runner/scnfuzz/mutate_run.py Original); a conform-stage
    find is against the corpus baseline and counts as mutate says. What
    mutate said is kept under "mutate"."""
    said = res.setdefault("mutate", {k: res.get(k) for k in ("found", "stage", "signature")})
    if not said.get("found") or said.get("stage") != "fuzz" or not check_build:
        return res
    for k in ("false_find", "unchecked"):
        res.pop(k, None)
    rec = kill_record(res.get("out", ""))
    ok, why = verdict(rec or {}, target, check_build)
    res["confirmed"] = ok
    res["found"], res["stage"] = (True, "fuzz") if ok else (False, None)
    if ok is False:
        res["false_find"] = f"{rec['case']}: {why}"
    elif ok is None:
        res["unchecked"] = f"{(rec or {}).get('case', '?')}: {why}"
    return res


def summarise(runs):
    """A bug's runs -> found k/n, the stage most runs found it by, and the
    medians of the runs that found it."""
    found = [r for r in runs if r.get("found")]
    errors = [r["error"] for r in runs if r.get("error")]
    stages = [r["stage"] for r in found]
    stage = max(sorted(set(stages)), key=stages.count) if stages else None
    return {
        "runs": len(runs), "found": len(found), "stage": stage,
        "median_seconds": statistics.median(r["seconds"] for r in found) if found else None,
        "median_executions": int(statistics.median(r["executions"] for r in found)) if found else None,
        "signatures": sorted({r["signature"] for r in found if r.get("signature")}),
        "found_by": sorted({f"{r.get('where', '?')}: {r['case']}" for r in found if r.get("case")}),
        "errors": sorted(set(errors)),
        "false_finds": sum(1 for r in runs if r.get("false_find")),
        "unchecked": sum(1 for r in runs if r.get("unchecked")),
    }


def fmt_num(x, digits=1):
    if x is None:
        return "-"
    return f"{x:,.{digits}f}" if isinstance(x, float) else f"{x:,}"


def table_rows(rows):
    out = ["| bug | target | fix | found | stage | median s | median executions |",
           "|---|---|---|---|---|---|---|"]
    for h, s in rows:
        found = f"{s['found']}/{s['runs']}"
        if s.get("false_finds"):
            found += f" (+{s['false_finds']} not the bug)"
        if s.get("unchecked"):
            found += f" (+{s['unchecked']} unchecked)"
        if s["errors"]:
            found += " (" + "; ".join(s["errors"]) + ")"
        out.append(f"| `{h['id']}` | {h['target']} | {h['fix'][:12]} | {found} | {s['stage'] or '-'} | "
                   f"{fmt_num(s['median_seconds'])} | {fmt_num(s['median_executions'])} |")
    return out


def markdown(rows, command, started, took=None):
    n = len(rows)
    ok = sum(1 for _, s, _ in rows if s["found"] >= 4)
    runs = max((s["runs"] for _, s, _ in rows), default=0)
    times = sorted({rec.get("time") or 0 for _, _, rec in rows})
    lines = [
        "# Re-introduced upstream bugs (bench/history.py)",
        "",
        f"`{command}`" + (f", started {started} UTC, {took / 60:.0f} min on this machine" if took else ""),
        "(a bug measured by an earlier invocation keeps that one's date: `measured` below). Each run: "
        "`./scnfuzz mutate --target T --patch bench/history/<id>.diff --json --time S` (the corpus at every "
        "size, then an S-s campaign if the corpus did not find it; S = "
        + ", ".join(f"{t:g}" for t in times) + ").",
        "",
        "A campaign's find counts only when the unmodified target of the main build prints something else "
        "for its case (or does not die on it): \"not the bug\" and \"unchecked\" are finds that do not count "
        "(each bug's list below says which).",
        "",
        f"{ok} of {n} bugs found in at least 4 of {runs} runs. \"found\": runs that found it; stage: "
        "conform (a corpus case) or fuzz (the campaign); medians over the runs that found it, seconds from "
        "the patched build's first check, executions as `scnfuzz mutate` counts them (corpus results, then "
        "fuzzer executions).",
        "",
    ] + table_rows([(h, s) for h, s, _ in rows]) + ["", "## Each bug", ""]
    for h, s, rec in rows:
        lines.append(f"- `{h['id']}` ({h['target']}, {h['file']}): {h.get('bug', '')}")
        lines.append(f"  fix {h['fix']} \"{h.get('subject', '')}\" ({h.get('date', '')}); case `{h.get('case', '')}`")
        lines.append(f"  measured {rec.get('measured')} UTC, {s['runs']} runs, campaigns of {rec.get('time') or 0:g} s")
        if s["signatures"]:
            lines.append("  signatures: " + ", ".join(f"`{x}`" for x in s["signatures"]))
        if s["found_by"]:
            lines.append("  found by: " + "; ".join(f"`{x}`" for x in s["found_by"][:3])
                         + (f" (and {len(s['found_by']) - 3} more)" if len(s["found_by"]) > 3 else ""))
        false = [r["false_find"] for r in rec.get("runs", []) if r.get("false_find")]
        if false:
            lines.append(f"  not counted ({len(false)}): a campaign's finding that is not the bug: `{false[0]}`")
        unchecked = [r["unchecked"] for r in rec.get("runs", []) if r.get("unchecked")]
        if unchecked:
            lines.append(f"  not counted ({len(unchecked)}): a campaign's finding that cannot be checked: "
                         f"`{unchecked[0]}`")
        if s["found"] < 4:
            lines.append("  not found in 4 of the runs: " + (h.get("note") or "no reason recorded in its header"))
    return "\n".join(lines) + "\n"


def previous_results(path, keep):
    """The earlier records of the bugs this run does not measure (--bugs
    measures some again and keeps the others' results)."""
    try:
        top = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    for i, rec in top.get("bugs", {}).items():
        if i in keep and isinstance(rec, dict) and "summary" in rec:
            rec.setdefault("measured", top.get("started"))
            rec.setdefault("time", top.get("time"))
            out[i] = rec
    return out


def recheck(results, work, check_build):
    """Checks the campaign finds of history.json's runs that were not
    checked (older runs: their report directories under work)."""
    top = json.loads((results / "history.json").read_text())
    for bug, rec in top.get("bugs", {}).items():
        target = rec.get("header", {}).get("target")
        for k, r in enumerate(rec.get("runs", [])):
            said = r.get("mutate") or r
            if not said.get("found") or said.get("stage") != "fuzz":
                continue
            if not r.get("out"):
                dirs = sorted(pathlib.Path(work).glob(f"{bug}-{k}-*"), key=lambda p: int(p.name.rsplit("-", 1)[1]))
                r["out"] = str(dirs[-1]) if dirs else ""
            confirmed(r, target, check_build)
            print(f"{bug} run {k + 1}: "
                  f"{'confirmed' if r.get('confirmed') else r.get('false_find') or r.get('unchecked')}", flush=True)
        rec["summary"] = summarise(rec.get("runs", []))
    (results / "history.json").write_text(json.dumps(top, indent=1) + "\n")


def command_line():
    return "/usr/bin/python3 bench/history.py " + " ".join(sys.argv[1:])


def render(results, headers):
    """history.md again from history.json, with the headers as the diffs now
    have them (a note changed), without running anything."""
    top = json.loads((results / "history.json").read_text())
    raw = previous_results(results / "history.json", set(headers))
    rows = [(headers[i], raw[i]["summary"], raw[i]) for i in sorted(raw)]
    (results / "history.md").write_text(markdown(rows, "/usr/bin/python3 bench/history.py " + " ".join(
        top.get("command", [])[1:]), top.get("started")))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--time", type=float, default=60.0, help="each run's campaign, seconds (default 60)")
    ap.add_argument("--bugs", help="comma-separated ids (default: every bench/history/*.diff); the other "
                    "bugs' results in history.json are kept")
    ap.add_argument("--results", default=str(RESULTS), help="where history.md and history.json go")
    ap.add_argument("--work", default=str(REPO / "build" / "h" / "history-runs"),
                    help="the runs' own report directories")
    ap.add_argument("--check-build", default=os.environ.get("SCN_BUILD_DIR", str(REPO / "build" / "asan")),
                    help="the unmodified build a campaign's finding is replayed in (default $SCN_BUILD_DIR, "
                         "else build/asan)")
    ap.add_argument("--recheck", action="store_true",
                    help="replay the campaigns' findings of history.json's runs in --check-build again "
                         "(those not checked yet), then write history.md")
    ap.add_argument("--render", action="store_true",
                    help="only write history.md again from history.json (the diffs' headers as they are now)")
    args = ap.parse_args()
    if args.recheck:
        recheck(pathlib.Path(args.results), args.work, args.check_build)
        args.render = True
    if args.render:
        rows = render(pathlib.Path(args.results), {h["id"]: h for _, h in bugs()})
        print("\n".join(table_rows([(h, s) for h, s, _ in rows])))
        return 0
    selected = set(args.bugs.split(",")) if args.bugs else None
    todo = bugs(selected)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    t0 = time.monotonic()
    results = pathlib.Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(args.work)
    headers = {h["id"]: h for _, h in bugs()}
    raw = previous_results(results / "history.json", set(headers) - {h["id"] for _, h in todo})
    for diff, h in todo:
        runs = []
        for k in range(args.runs):
            out_dir = work / f"{h['id']}-{k}-{int(time.time())}"
            r = run_once(diff, h["target"], args.time, out_dir, args.check_build)
            runs.append(r)
            state = r.get("error") or ("found by " + r["stage"] if r.get("found") else "not found")
            print(f"{h['id']} run {k + 1}/{args.runs}: {state} ({r.get('wall_s', 0):.0f} s wall)", flush=True)
        raw[h["id"]] = {"header": h, "measured": started, "time": args.time, "runs": runs,
                        "summary": summarise(runs)}
        rows = [(headers[i], raw[i]["summary"], raw[i]) for i in sorted(raw)]
        # written after every bug: a long benchmark that is stopped keeps what it measured
        (results / "history.json").write_text(json.dumps(
            {"command": sys.argv, "started": started, "runs": args.runs, "time": args.time, "bugs": raw},
            indent=1) + "\n")
        (results / "history.md").write_text(markdown(rows, command_line(), started, time.monotonic() - t0))
    print("\n".join(table_rows([(headers[i], raw[i]["summary"]) for i in sorted(raw)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
