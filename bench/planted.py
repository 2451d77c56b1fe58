#!/usr/bin/python3
"""Detection power, measured: executions and seconds until the first finding
of each planted bug (fuzz/planted.c: the ISO ones, found by fuzz_planted
beside the reference; fuzz/planted_kernel.c: a bug in a kernel %p extension,
found by fuzz_planted_kernel, fuzz_kernel_diff's configuration beside Linux
lib/vsprintf.c), with libFuzzer and with AFL++,
median of R runs with different seeds, each run capped at T seconds on one
core (the kernel bugs with libFuzzer only: the AFL++ build has no kernel
target). Writes a Markdown table to stdout and to bench/results/planted.md
(raw runs: bench/results/planted.json).

    /usr/bin/python3 bench/planted.py [--runs 5] [--seconds 60] [--bugs a,b] [--engines libfuzzer,afl]

Both engines start from nothing: libFuzzer from an empty corpus directory
(its first input is the empty one), AFL++ from a one-file corpus holding the
single byte 0x00 (AFL++ needs a file; it decodes to the empty format). The
seed corpus corpus/fuzz/fuzz_planted is not used: six of the bugs fire on
one of its seeds at once, which says nothing about the search. Both use the
dictionary fuzz/printf.dict (as fuzz_planted.options says).

libFuzzer: build/bench-fuzz (clang-14, ASan+UBSan, -fsanitize=fuzzer, the
`fuzz` preset's options), -max_len=128 (fuzz_planted.options), -seed=k.
Executions: the "execs" field of the first finding line (SCN_FINDINGS);
seconds: from the start of the process to the finding line being written.
AFL++: build/bench-afl (the `afl` preset: afl-clang-fast,
persistent mode, no sanitizer, no kernel target), afl-fuzz -s k -V T with
AFL_BENCH_UNTIL_CRASH=1. Executions and seconds: the execs: and time: fields
of the first file in crashes/ (AFL++ counts from the start of fuzzing, after
its calibration), or, for a bug that fires already in AFL++'s dry run of the
one input (which AFL++ then refuses), the finding line's execs and the
seconds since afl-fuzz started. The root cause: the signature of the first
finding line of the run (docs/FINDINGS.md); one bug should give one
signature over all its runs and both engines.
The control `none` (the reference itself behind the planted wrapper) must
give no finding: a finding there fails the script (exit 1).
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
FUZZ_DIR = REPO / "build" / "bench-fuzz"
AFL_DIR = REPO / "build" / "bench-afl"
DICT = REPO / "fuzz" / "printf.dict"
RESULTS = REPO / "bench" / "results"
MAX_LEN = 128

# what each bug is, for the table (the authoritative list is planted.c)
WHAT = {
    "none": "control: the reference itself",
    "ret-would-be": "vscnprintf returns the would-be length",
    "ret-size": "vscnprintf returns size, not size-1, when truncating",
    "nul-at-0": "vscnprintf writes a NUL at size 0",
    "no-nul-exact": "vscnprintf drops the NUL at an exact fit",
    "overrun-1": "vscnprintf writes its NUL at buf[size]",
    "float-round": "%f rounded by (long long)(x*10^p+0.5)",
    "round-prec17": "precision > 17: last digit truncated, not rounded",
    "alt-octal-zero": "%#o of 0 prints \"00\"",
    "exp-carry": "%.0e carry (9.5 -> 1e+01) leaves the exponent",
    "hh-trunc": "%hhd/%hhu/%hhx print the full int",
    "miscount-4096": "return one too many past 4096 bytes of output",
    "ip6c-last-run": "%pI6c compresses the last of two longest zero runs",
}


def planted_fuzzers():
    """bug -> its fuzzer, from the C lists the fuzzers read SCN_PLANTED against"""
    out = {}
    for src, array, fuzzer in (("planted.c", "fz_planted_names", "fuzz_planted"),
                               ("planted_kernel.c", "fz_planted_kernel_names", "fuzz_planted_kernel")):
        m = re.search(array + r"\[\]\s*=\s*\{(.*?)NULL", (REPO / "fuzz" / src).read_text(), re.S)
        out.update({b: fuzzer for b in re.findall(r'"([^"]+)"', m.group(1))})
    return out


def sh(cmd, **kw):
    r = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"planted.py: {' '.join(map(str, cmd))} failed:\n{r.stdout[-3000:]}")
    return r.stdout


def build(engines):
    if "libfuzzer" in engines:
        if not (FUZZ_DIR / "CMakeCache.txt").is_file():
            sh(["cmake", "-S", ".", "-B", str(FUZZ_DIR), "-G", "Ninja", "-DCMAKE_C_COMPILER=clang-14",
                "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DSCN_SANITIZE=ON", "-DSCN_FUZZ=ON"])
        sh(["cmake", "--build", str(FUZZ_DIR), "-j2", "--target", "fuzz_planted", "fuzz_planted_kernel"])
    if "afl" in engines:
        if not shutil.which("afl-fuzz"):
            sys.exit("planted.py: afl-fuzz not found (Debian package afl++)")
        if not (AFL_DIR / "CMakeCache.txt").is_file():
            sh(["cmake", "--preset", "afl", "-B", str(AFL_DIR), "-DSCN_WITH_KERNEL=OFF"])
        sh(["cmake", "--build", str(AFL_DIR), "-j2", "--target", "fuzz_planted"])


def first_finding(path):
    """The first bug the run wrote: a difference a rule explains (an
    allowance, a known bug) does not stop the fuzzer and is not the bug."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        rec = json.loads(line)
        if not rec.get("rule"):
            return rec
    return None


def run_libfuzzer(bug, seed, seconds, work, fuzzer):
    corpus = work / "corpus"
    corpus.mkdir()
    fnd = work / "findings.jsonl"
    env = dict(os.environ, SCN_PLANTED=bug, SCN_FINDINGS=str(fnd))
    for k in ("SCN_FUZZ_CONTINUE", "SCN_FUZZ_ORACLE_EVERY", "SCN_FUZZ_NO_FLOAT"):
        env.pop(k, None)
    cmd = [str(FUZZ_DIR / "fuzz" / fuzzer), f"-max_total_time={seconds}", f"-seed={seed}",
           f"-max_len={MAX_LEN}", f"-dict={DICT}", f"-artifact_prefix={work}/", "-print_final_stats=1", str(corpus)]
    t0 = time.time()
    with open(work / "log", "w") as log:
        subprocess.run(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=seconds + 60)
    f = first_finding(fnd)
    if not f:
        return {"found": False}
    return {"found": True, "execs": int(f["execs"]), "seconds": round(fnd.stat().st_mtime - t0, 2),
            "oracle": f["oracle"], "signature": f["signature"], "case": f["case"]}


AFL_CRASH = re.compile(r"time:(\d+),execs:(\d+)")


def run_afl(bug, seed, seconds, work, fuzzer):
    inp = work / "in"
    inp.mkdir()
    (inp / "empty").write_bytes(b"\x00")
    out = work / "out"
    fnd = work / "findings.jsonl"
    env = dict(os.environ, SCN_PLANTED=bug, SCN_FINDINGS=str(fnd), AFL_SKIP_CPUFREQ="1", AFL_NO_UI="1",
               AFL_NO_AFFINITY="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_BENCH_UNTIL_CRASH="1")
    for k in ("SCN_FUZZ_CONTINUE", "SCN_FUZZ_ORACLE_EVERY", "SCN_FUZZ_NO_FLOAT"):
        env.pop(k, None)
    cmd = ["afl-fuzz", "-i", str(inp), "-o", str(out), "-s", str(seed), "-V", str(seconds), "-x", str(DICT), "--",
           str(AFL_DIR / "fuzz" / fuzzer)]
    t0 = time.time()
    with open(work / "log", "w") as log:
        r = subprocess.run(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=seconds + 120)
    f = first_finding(fnd)
    if r.returncode != 0:
        # a bug that fires on nearly any input fires during AFL++'s dry run
        # (calibration: the one input, several times in one persistent
        # process), which AFL++ refuses: the finding line counts the executions
        if f and "results in a crash" in (work / "log").read_text(errors="replace"):
            return {"found": True, "execs": int(f["execs"]), "seconds": round(fnd.stat().st_mtime - t0, 2),
                    "oracle": f["oracle"], "signature": f["signature"], "case": f["case"], "dry_run": True}
        sys.exit(f"planted.py: afl-fuzz failed ({bug}, seed {seed}):\n{(work / 'log').read_text()[-3000:]}")
    crashes = sorted(p.name for p in (out / "default" / "crashes").glob("id:*"))
    if not crashes:
        return {"found": False}
    m = AFL_CRASH.search(crashes[0])
    f = f or {}
    return {"found": True, "execs": int(m.group(2)), "seconds": round(int(m.group(1)) / 1000, 2),
            "oracle": f.get("oracle", "?"), "signature": f.get("signature", "?"), "case": f.get("case", "?")}


RUNNERS = {"libfuzzer": run_libfuzzer, "afl": run_afl}


def median_of(runs, key):
    """Median over all runs (the lower one for an even count), a run without
    a finding counting as beyond the cap."""
    return statistics.median_low(r[key] if r["found"] else float("inf") for r in runs)


def fmt_cell(runs, seconds):
    if not runs:
        return ["-", "-", "-"]
    k = sum(r["found"] for r in runs)
    execs = median_of(runs, "execs")
    secs = median_of(runs, "seconds")
    e = "-" if execs == float("inf") else f"{execs:,}"
    if any(r.get("dry_run") for r in runs):
        e += " (dry run)"
    s = f"> {seconds}" if secs == float("inf") else f"{secs:.1f}"
    return [e, s, f"{k}/{len(runs)}"]


def table(results, engines, seconds):
    head = ["bug", "what", "root causes (first finding of every run)"]
    names = {"libfuzzer": "libFuzzer", "afl": "AFL++"}
    for e in engines:
        head += [f"{names[e]} median execs", f"{names[e]} median s", f"{names[e]} found"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for bug, per in results.items():
        # the signature is the reduced root cause: every run of one bug must give the same one
        sigs = sorted({r["signature"] for e in engines for r in per.get(e, []) if r["found"]})
        cells = [f"`{bug}`", WHAT.get(bug, ""), "<br>".join(f"`{s}`" for s in sigs) or "none"]
        for e in engines:
            cells += fmt_cell(per.get(e, []), seconds)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per bug and engine (seeds 1..R)")
    ap.add_argument("--seconds", type=int, default=60, help="cap of one run")
    ap.add_argument("--bugs", help="comma-separated (default: every bug of planted.c, and the control none)")
    ap.add_argument("--engines", default="libfuzzer,afl")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--out", default=str(RESULTS / "planted.md"))
    args = ap.parse_args()
    engines = [e for e in args.engines.split(",") if e]
    for e in engines:
        if e not in RUNNERS:
            sys.exit(f"planted.py: unknown engine {e} (libfuzzer, afl)")
    fuzzer_of = planted_fuzzers()
    names = list(fuzzer_of)
    bugs = args.bugs.split(",") if args.bugs else names[1:] + ["none"]
    for b in bugs:
        if b not in names:
            sys.exit(f"planted.py: unknown bug {b} ({', '.join(names)})")
    if not args.no_build:
        build(engines)
    results = {}
    started = time.strftime("%Y-%m-%d %H:%M")
    rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout.strip() or "?"
    with tempfile.TemporaryDirectory(prefix="scn-bench-planted-") as tmp:
        for bug in bugs:
            results[bug] = {}
            for e in engines:
                if e == "afl" and fuzzer_of[bug] == "fuzz_planted_kernel":
                    continue  # no kernel target in the AFL++ build
                runs = []
                for seed in range(1, args.runs + 1):
                    work = pathlib.Path(tmp) / f"{bug}-{e}-{seed}"
                    work.mkdir()
                    r = RUNNERS[e](bug, seed, args.seconds, work, fuzzer_of[bug])
                    r["seed"] = seed
                    runs.append(r)
                    desc = (f"{r['execs']} execs, {r['seconds']} s, {r['signature']}" if r["found"]
                            else f"not found in {args.seconds} s")
                    print(f"# {bug} {e} seed {seed}: {desc}", file=sys.stderr, flush=True)
                    shutil.rmtree(work, ignore_errors=True)
                results[bug][e] = runs
    md = table(results, engines, args.seconds)
    load = os.getloadavg()
    note = (f"\n\n{started}, tree {rev}, {os.cpu_count()} cores (load {load[0]:.1f}), {args.runs} runs per cell, "
            f"cap {args.seconds} s; medians over all runs (a run without a finding counts as beyond the cap).\n"
            f"`/usr/bin/python3 bench/planted.py --runs {args.runs} --seconds {args.seconds}"
            + (f" --bugs {args.bugs}" if args.bugs else "") + (f" --engines {args.engines}" if args.bugs else "")
            + (f" --out {args.out}" if args.out != str(RESULTS / "planted.md") else "") + "`\n")
    print(md + note)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(md + note)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n")
    bad = [run for runs in results.get("none", {}).values() for run in runs if run["found"]]
    if bad:
        print(f"planted.py: the control `none` gave findings: {bad[:2]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
