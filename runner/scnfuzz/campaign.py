"""`scnfuzz fuzz`: a time-bounded differential campaign with the libFuzzer (or
AFL++) fuzzers of build/fuzz, in campaign mode (SCN_FUZZ_CONTINUE=1: each
signature recorded once, the run goes on), every finding appended to the run's
findings.jsonl by the fuzzers themselves (SCN_FINDINGS)."""
import hashlib
import math
import os
import pathlib
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time

from . import build, children, fuzzers
from .errors import SetupError, UsageError, write_error
from .progress import Progress
from .runs import FindingTally, Run, utc_iso

FUZZER_TARGETS = fuzzers.TARGETS
STATUS_RE = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)")
RATE_RE = re.compile(r"exec/s: (\d+)")
DONE_RE = re.compile(r"^Done (\d+) runs in (\d+) second")
CORP_RE = re.compile(r" corp: (\d+)/")


def choose_fuzzer(args):
    if args.fuzzer:
        return fuzzers.resolve(args.fuzzer)
    if args.planted:
        return fuzzers.PLANTED_FUZZER[args.planted]
    if args.targets:
        names = [t for t in args.targets.split(",") if t]
        for fz in ("fuzz_iso_diff", "fuzz_kernel_diff"):
            ft = FUZZER_TARGETS[fz][0]
            if set(names) <= set(ft) and len(names) >= 1:
                if set(names) != set(ft) and names != ["ref"] and names != ["ref-kernel"]:
                    sys.stderr.write(f"scnfuzz: note: {fz} compares {', '.join(ft)} (its fixed target set) "
                                     f"when built; --targets {args.targets} selects it\n")
                if names in (["ref"], ["ref-kernel"]):
                    return "fuzz_ref"
                if args.dialect and args.dialect != FUZZER_TARGETS[fz][1]:
                    raise UsageError(f"--targets {args.targets} is not of dialect {args.dialect}")
                return fz
        known = sorted({t for v in FUZZER_TARGETS.values() for t in v[0]} - {"planted"})
        bad = [n for n in names if n not in known]
        if bad:
            raise UsageError(f"unknown target '{bad[0]}' for fuzzing (known: {', '.join(known)})")
        raise UsageError(f"--targets {args.targets}: mixes dialects; fuzz ISO (ref,glibc,musl) or kernel "
                         f"(ref-kernel,kernel) targets")
    return "fuzz_kernel_diff" if args.dialect == "kernel" else "fuzz_iso_diff"


# The C side's set-up errors (a broken allowances or known-bugs table, a
# finding it cannot write, no memory for the guard pages) are one line
# "scnfuzz: ..." on stderr and exit 2, which libFuzzer turns into a crash.
SETUP_LINE_RE = re.compile(r"^scnfuzz: (.+)$", re.M)


def libfuzzer_options(fuzzer):
    """The [libfuzzer] section of fuzz/<fuzzer>.options as command-line
    flags (what OSS-Fuzz passes too): -max_len, -entropic, -dict (its path
    relative to fuzz), ..."""
    fdir = build.ROOT / "fuzz"
    out, section = [], None
    try:
        lines = (fdir / f"{fuzzer}.options").read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]").strip()
            continue
        key, eq, val = (x.strip() for x in line.partition("="))
        if section == "libfuzzer" and eq and key:
            if key == "dict":
                val = str(fdir / val)
            out.append(f"-{key}={val}")
    if not any(o.startswith("-dict=") for o in out) and (fdir / "printf.dict").is_file():
        out.append(f"-dict={fdir / 'printf.dict'}")
    return out


def count_units(d):
    """Inputs in a corpus directory (regular files, not hidden)."""
    try:
        return sum(1 for e in os.scandir(d) if e.is_file() and not e.name.startswith("."))
    except OSError:
        return 0


def parse_afl_stats(txt):
    """An AFL++ fuzzer_stats text -> {execs, rate, cov, ft (bitmap_cvg x 100),
    imported}, the fields that parse. The rate is execs_done / run_time (both
    cumulative, run_time in seconds), not AFL++'s execs_per_sec, which a
    campaign was seen to report as 1000 x execs_done (presumably a stats file
    written as an instance restarted, its run time near 0: not reproduced).
    Before a whole second has run there is no rate."""
    st = dict((k.strip(), v.strip()) for k, _, v in (l.partition(":") for l in txt.splitlines()))
    out = {}
    for key, field, conv in (("execs", "execs_done", int), ("cov", "corpus_count", int),
                             ("imported", "corpus_imported", int),
                             ("ft", "bitmap_cvg", lambda v: int(float(v.rstrip("%")) * 100)),
                             ("run_time", "run_time", int)):
        try:
            out[key] = conv(st[field])
        except (KeyError, ValueError, OverflowError):
            pass
    if out.get("run_time", 0) > 0 and "execs" in out:
        out["rate"] = out["execs"] // out["run_time"]
    out.pop("run_time", None)
    return out


# ---- the series of a campaign's workers over time (report.html draws them)

SERIES_METRICS = {  # engine -> (key, what it is) of each series, in the order drawn
    "libfuzzer": (("cov", "coverage (cov: edges)"), ("ft", "features (ft:)"),
                  ("rate", "exec/s (libFuzzer's: the average since the worker started)")),
    "afl": (("cov", "edges found"), ("ft", "corpus entries"), ("rate", "exec/s")),
}


SERIES_POINTS = 2000  # points kept per worker: a day's log has millions of status lines


class _Series:
    """Points in bounded memory: every `stride`-th one offered is kept; when
    `limit` are kept, every other one is dropped and the stride doubles, so
    the points stay evenly spread over the whole run (the last one offered
    is always kept as well, so the series ends where the run ended)."""

    def __init__(self, limit):
        self.points, self.limit, self.stride, self.seen, self.last = [], limit, 1, 0, None

    def add(self, p):
        if self.seen % self.stride == 0:
            self.points.append(p)
            if len(self.points) >= self.limit:
                del self.points[1::2]
                self.stride *= 2
            self.last = None
        else:
            self.last = p
        self.seen += 1

    def done(self):
        return self.points + ([self.last] if self.last is not None else [])


def libfuzzer_series(lines, limit=SERIES_POINTS):
    """The status lines of a libFuzzer log (`#N KIND cov: X ft: Y ... exec/s: Z`)
    as points {"t", "execs", "cov", "ft", "rate"}, in order. The lines carry no
    time: libFuzzer's exec/s is the executions over the whole seconds since the
    process started, so N / exec/s gives those seconds (0 within the first
    second, where exec/s is 0). A restarted worker starts again at #1: its
    points go on from the last time of the one before."""
    out, offset, last_t, last_n = _Series(limit), 0.0, 0.0, -1
    for line in lines:
        if isinstance(line, bytes):
            if not line.startswith(b"#"):
                continue
            line = line.decode("utf-8", "replace")
        m = STATUS_RE.match(line)
        if not m:
            continue
        n = int(m.group(1))
        r = RATE_RE.search(line)
        rate = int(r.group(1)) if r else 0
        if n < last_n:  # a new incarnation of the worker
            offset = last_t
        last_n = n
        last_t = offset + (n / rate if rate else 0.0)
        out.add({"t": round(last_t, 3), "execs": n, "cov": int(m.group(3)), "ft": int(m.group(4)),
                 "rate": rate})
    return out.done()


def afl_plot_series(text, limit=SERIES_POINTS):
    """AFL++'s plot_data (`# relative_time, ..., execs_per_sec, total_execs,
    edges_found` in 4.x; `unix_time`, `paths_total` in older ones) as points
    {"t", "execs", "cov" (edges found, else the map size in %), "ft" (corpus
    entries), "rate" (execs_per_sec)}. Columns are found by the header's names;
    rows that do not parse are left out."""
    cols, out, t0 = None, _Series(limit), None
    offset, last_t = 0.0, 0.0
    for line in text.splitlines():
        if line.startswith("#"):
            cols = [c.strip() for c in line[1:].split(",")]
            continue
        vals = [v.strip() for v in line.split(",")]
        if not cols or len(vals) < len(cols):
            continue
        row = dict(zip(cols, vals))
        try:
            if "relative_time" in row:
                t = float(row["relative_time"])
            else:
                t = float(row["unix_time"])
                t0 = t if t0 is None else t0
                t -= t0
            if t + offset < last_t:  # a restarted instance starts its time again
                offset = last_t
            last_t = t + offset
            cov = float(row["edges_found"]) if "edges_found" in row else float(row["map_size"].rstrip("%"))
            out.add({"t": round(last_t, 3), "execs": int(float(row.get("total_execs", 0))),
                     "cov": cov, "ft": int(float(row.get("corpus_count", row.get("paths_total", 0)))),
                     "rate": float(row["execs_per_sec"])})
        except (KeyError, ValueError):
            continue
    return out.done()


def campaign_series(run_path, part):
    """[{"worker": i, "points": [...]}] of a campaign part of run.json, from the
    files the campaign keeps: each libFuzzer worker's log (its `log`, else
    fuzz/<fuzzer>-<i>.log) or each AFL++ instance's fuzz/afl/j<i>/plot_data.
    A worker whose file is gone has no points."""
    run_path = pathlib.Path(run_path)
    engine = part.get("engine", "libfuzzer")
    jobs = part.get("jobs") if isinstance(part.get("jobs"), int) else 0
    workers = part.get("workers") or [{"worker": i} for i in range(min(jobs, MAX_JOBS))]
    out = []
    for w in workers:
        i = w.get("worker") if isinstance(w.get("worker"), int) else len(out)
        log = w.get("log") if isinstance(w.get("log"), str) else f"fuzz/{part.get('fuzzer')}-{i}.log"
        try:
            if engine == "afl":
                plot_data = run_path / "fuzz" / "afl" / f"j{i}" / "plot_data"
                pts = afl_plot_series(plot_data.read_text(errors="replace"))
            else:
                with open(run_path / log, "rb") as f:
                    pts = libfuzzer_series(f)
        except OSError:
            pts = []
        out.append({"worker": i, "points": pts})
    return out


class Job:
    """One fuzzer process (worker `idx`) of a campaign, restarted after a crash.
    Its findings go to its own file fuzz/<fuzzer>-<idx>.findings.jsonl, folded
    into the run's findings.jsonl by Run.fold_worker_findings (one line never
    interleaves with another worker's)."""

    def __init__(self, idx, fuzzer, path, run, corpus, args, env, seed):
        self.idx, self.fuzzer, self.path, self.run = idx, fuzzer, path, run
        self.corpus, self.args, self.seed = corpus, args, seed
        self.env = dict(env, SCN_FINDINGS=str(run.path / "fuzz" / f"{fuzzer}-{idx}.findings.jsonl"))
        self.execs_done = 0      # executions of finished incarnations
        self.execs = 0           # of the current incarnation
        self.cov = self.ft = self.rate = 0
        self.reloads = 0         # libFuzzer RELOAD lines: other workers' units that added coverage here
        self.imported = 0        # AFL++ corpus_imported: the same, from the other instances' queues
        self.inited_units = None  # libFuzzer INITED line: corpus units kept at start-up
        self.restarts = 0
        self.faults = []         # incarnations killed from outside (kill -9, the OOM killer): not findings
        self.log_error = None    # an OSError writing the log (a full disk): the campaign stops, exit 2
        self.proc = None
        self.log = open(run.path / "fuzz" / f"{fuzzer}-{idx}.log", "ab")
        self.thread = None
        self.exit_codes = []

    def start(self, seconds, engine, afl_in=None):
        art = self.run.path / "artifacts"
        art.mkdir(exist_ok=True)
        if engine == "afl":
            self.afl_out = self.run.path / "fuzz" / "afl"
            cmd = ["afl-fuzz", "-i", str(afl_in), "-o", str(self.afl_out), "-V", str(max(1, int(seconds))),
                   "-M" if self.idx == 0 else "-S", f"j{self.idx}", "--", str(self.path)]
            env = dict(self.env, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1",
                       AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_SKIP_CRASHES="1",
                       AFL_AUTORESUME="1")  # a restarted instance goes on with its queue
        else:
            if self.restarts == 0:
                _seed_corpus(self.fuzzer, self.corpus)
            cmd = [str(self.path), str(self.corpus)] + [
                   f"-max_total_time={max(1, int(seconds))}",
                   "-timeout=10", "-rss_limit_mb=4096", "-print_final_stats=1", f"-seed={self.seed + self.restarts}",
                   f"-artifact_prefix={art}/{self.fuzzer}-", "-reload=1"] + libfuzzer_options(self.fuzzer)
            env = self.env
        self.started = time.monotonic()
        self.log.write((" ".join(cmd) + "\n").encode())
        self.log.flush()
        self.log_start = self.log.tell()  # this incarnation's output starts here
        # libFuzzer's own limits (-rss_limit_mb, -timeout) bound a worker's memory and
        # each input's time; the parent-death signal is SIGTERM, on which it ends cleanly
        self.proc = subprocess.Popen(children.launch_argv(cmd, sig=signal.SIGTERM),
                                     stdout=subprocess.DEVNULL if engine != "afl" else self.log,
                                     stderr=subprocess.PIPE, env=env, start_new_session=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _log(self, raw):
        if self.log_error is None:
            try:
                self.log.write(raw)
            except OSError as e:  # reported by the campaign loop (this thread must go on reading)
                self.log_error = e

    def _read(self):
        # the reader only counts and copies; a run that ends on an error (a full
        # disk) closes the pipe and the log under it while the interpreter
        # exits: whatever that raises here is not the run's error (the main
        # thread reports that one), so nothing escapes to print a traceback
        try:
            self._read_lines()
        except Exception:  # noqa: BLE001
            pass
        try:
            self.log.flush()
        except OSError as e:
            self.log_error = self.log_error or e
        except Exception:  # noqa: BLE001
            pass

    def _read_lines(self):
        for raw in self.proc.stderr:
            self._log(raw)
            line = raw.decode("utf-8", "replace")
            m = STATUS_RE.match(line)
            if m:
                self.execs = int(m.group(1))
                self.cov, self.ft = int(m.group(3)), int(m.group(4))
                r = RATE_RE.search(line)
                if r:
                    self.rate = int(r.group(1))
                if m.group(2) == "RELOAD":
                    self.reloads += 1
                elif m.group(2) == "INITED" and self.inited_units is None:
                    c = CORP_RE.search(line)
                    self.inited_units = int(c.group(1)) if c else None
                continue
            m = DONE_RE.match(line)
            if m:
                self.execs = max(self.execs, int(m.group(1)))
            elif line.startswith("stat::number_of_executed_units:"):
                try:
                    self.execs = max(self.execs, int(line.split(":")[-1]))
                except ValueError:
                    pass

    def finish(self, engine):
        rc = self.proc.wait()
        if self.thread:
            self.thread.join(timeout=5)
        if engine == "afl":  # its final fuzzer_stats (written as it exits)
            self.poll_afl_stats()
        self.execs_done += self.execs
        self.execs = 0
        self.exit_codes.append(rc)
        return rc

    def poll_afl_stats(self):
        """AFL++ progress from its fuzzer_stats file."""
        try:
            txt = (self.afl_out / f"j{self.idx}" / "fuzzer_stats").read_text()
        except (OSError, AttributeError):
            return
        st = parse_afl_stats(txt)
        self.execs = st.get("execs", self.execs)
        self.rate = st.get("rate", self.rate)
        self.cov = st.get("cov", self.cov)
        self.ft = st.get("ft", self.ft)
        self.imported = st.get("imported", self.imported)

    @property
    def total_execs(self):
        return self.execs_done + self.execs

    def setup_error(self):
        """The C side's set-up error line in this incarnation's output, or None."""
        try:
            with open(self.log.name, "rb") as f:
                f.seek(self.log_start)
                txt = f.read().decode("utf-8", "replace")
        except (OSError, AttributeError):
            return None
        m = SETUP_LINE_RE.findall(txt)
        return m[-1].strip() if m else None

    def summary(self, engine):
        out = {"worker": self.idx, "executions": self.total_execs, "restarts": self.restarts,
               "exit_codes": self.exit_codes, "log": f"fuzz/{self.fuzzer}-{self.idx}.log",
               "seed": self.seed, "faults": self.faults}
        if engine == "afl":
            out["imported"] = self.imported
        else:
            out["reloads"] = self.reloads
            out["inited_units"] = self.inited_units
        return out


def matrix_target(fuzzer):
    """fuzz_matrix's target "matrix" is the implementation env
    SCN_MATRIX_TARGET names (fuzz/fuzz_configs.c; `scnfuzz matrix` sets it),
    or None for another fuzzer."""
    if "matrix" not in FUZZER_TARGETS.get(fuzzer, ((), None))[0]:
        return None
    return os.environ.get("SCN_MATRIX_TARGET") or None


def _seed_corpus(fuzzer, corpus):
    """The fuzzer's seeds (corpus/fuzz/<fuzzer>/) copied into its campaign
    corpus under their SHA-1, as libFuzzer names units: the fuzzer reads one
    directory, from which a unit that kills it can be taken out
    (_crash_input), which a seed in the repository could not."""
    seeds = build.ROOT / "corpus" / "fuzz" / fuzzer
    if not seeds.is_dir():
        return
    corpus = pathlib.Path(corpus)
    corpus.mkdir(parents=True, exist_ok=True)
    for f in seeds.iterdir():
        if f.is_file():
            data = f.read_bytes()
            unit = corpus / hashlib.sha1(data).hexdigest()
            if not unit.exists():
                unit.write_bytes(data)


_WRITTEN = re.compile(rb"Test unit written to (\S+)")


def _crash_input(run, job, before):
    """The artifacts of a worker's death: the new ones, or the one its log
    names (libFuzzer names an artifact by the input's SHA-1, so the same
    crash met again writes no new file). Each one's input leaves the
    campaign corpus: a unit that kills the fuzzer would kill every restart
    as it loads the corpus (the artifact keeps it)."""
    art = run.path / "artifacts"
    found = sorted(set(art.glob(f"{job.fuzzer}-*")) - before)
    if not found:
        try:
            with open(job.log.name, "rb") as f:  # what this incarnation wrote
                f.seek(getattr(job, "log_start", 0))
                named = _WRITTEN.findall(f.read())
        except OSError:
            named = []
        if named and pathlib.Path(named[-1].decode(errors="replace")).is_file():
            found = [pathlib.Path(named[-1].decode(errors="replace"))]
    for a in found:
        unit = pathlib.Path(job.corpus) / a.name.rsplit("-", 1)[-1]
        if unit.is_file() and unit.read_bytes() == a.read_bytes():
            unit.unlink()
    return found


def _crash_state(summary, kind):
    """What names a crash in its signature: the function of the sanitizer's
    SUMMARY line ("... in fn"), else its source location (UBSan's lines
    name no function: "undefined-behavior stb_sprintf.h:615:10 in "), else
    the artifact's kind."""
    head, _, fn = summary.rpartition(" in ")
    if fn.strip():
        return fn.strip()
    where = [w for w in head.split() if re.match(r".+:\d+(:\d+)?$", w)]
    return pathlib.Path(where[-1]).name if where else kind


def _crash_finding(run, job, rc, before, replay_fuzzer):
    """A fuzzer that died (a sanitizer report, a hang): one finding per new artifact."""
    new = _crash_input(run, job, before)
    out = []
    # fuzz_matrix: a crash of one implementation is not another's (the signature names it)
    mt = matrix_target(job.fuzzer)
    who = {"targets": [mt]} if mt else {}
    tag = f"{job.fuzzer}~{mt}" if mt else job.fuzzer
    for a in new:
        kind = a.name[len(job.fuzzer) + 1:].split("-")[0]
        klass = {"timeout": "hang", "slow": "hang", "oom": "crash", "leak": "memory-safety"}.get(kind, "crash")
        case = _replay_case(a, replay_fuzzer)
        log_tail = ""
        try:
            txt = job.log.name and pathlib.Path(job.log.name).read_text(errors="replace")
            m = re.findall(r"(?:ERROR|SUMMARY): [^\n]*", txt)
            log_tail = m[-1] if m else ""
        except OSError:
            pass
        sig = f"{klass}:{tag}:{_crash_state(log_tail, kind)[:80]}"
        out.append({"oracle": klass, "classification": klass, "case": case or '""', "signature": sig,
                    "detail": log_tail or f"{job.fuzzer} exited {rc}", "artifact": str(a.relative_to(run.path)),
                    "fuzzer": job.fuzzer, "worker": job.idx, "source": "fuzz", "outputs": {}, **who})
    if not new:
        out.append({"oracle": "crash", "classification": "crash", "case": '""',
                    "signature": f"crash:{tag}:exit{rc}", "detail": f"{job.fuzzer} exited {rc} without an artifact",
                    "fuzzer": job.fuzzer, "worker": job.idx, "source": "fuzz", "outputs": {}, **who})
    return out


def _last_error(job):
    try:
        txt = pathlib.Path(job.log.name).read_text(errors="replace")
    except OSError:
        return "see the log"
    txt = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\)B", "", txt)
    lines = [l.strip() for l in txt.splitlines() if l.strip() and not l.startswith(("afl-fuzz ", "/"))]
    for l in reversed(lines):
        if "ABORT" in l or "ERROR" in l or "rror" in l:
            return l[:200]
    return lines[-1][:200] if lines else "no output"


def _replay_case(artifact, replay_cfg):
    """The case (text form) a raw fuzzer input decodes to, through scn-replay; "" if unknown."""
    try:
        rp = build.tool("scn-replay")
        p = children.run([str(rp), "-q", "--fuzzer", replay_cfg, str(artifact)], capture_output=True,
                         timeout=60, env=dict(os.environ, SCN_REPLAY_TIMEOUT="10"))
    except (SetupError, children.Timeout, OSError):
        return ""
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("case "):
            k = line.rfind("  [")
            return line[5:k if k > 0 else None]
    return ""


def _afl_artifact_finding(run, a, kind, fuzzer, replay_cfg):
    case = _replay_case(a, replay_cfg)
    return {"oracle": kind, "classification": kind, "case": case or '""',
            "signature": f"{kind}:{fuzzer}:afl:{case or a.name}", "detail": f"AFL++ saved {a.parent.name}/{a.name}",
            "artifact": str(a.relative_to(run.path)), "fuzzer": fuzzer, "worker": int(a.parent.parent.name[1:]),
            "source": "fuzz", "outputs": {}}


_stop = {"sig": None}


def _on_signal(signum, frame):
    _stop["sig"] = signum


MAX_TIME_S = 2**31 - 1   # libFuzzer's -max_total_time and AFL++'s -V are C ints
MAX_JOBS = 256


def check_time(t):
    """--time: finite, positive, and within what the fuzzers take (a C int of
    seconds: 4294967297 would silently become 1)."""
    if not isinstance(t, (int, float)) or not math.isfinite(t) or t <= 0 or t > MAX_TIME_S:
        raise UsageError(f"--time {t}: must be a finite number of seconds in (0, {MAX_TIME_S}]")
    return float(t)


def check_planted(name):
    if name not in fuzzers.PLANTED:
        raise UsageError(f"--planted {name}: no such planted bug (one of {', '.join(fuzzers.PLANTED)}; "
                         f"fuzz/planted.c, fuzz/planted_kernel.c)")
    return name


def check_tables():
    """A replaced allowances or known-bugs table (env SCN_ALLOWANCES /
    SCN_KNOWN_BUGS) is checked once before the fuzzers start (scn-replay
    loads it as they do): a broken one is a set-up error naming its file and
    line (exit 2), not every worker dying as a "crash"."""
    if not any(os.environ.get(v) for v in ("SCN_ALLOWANCES", "SCN_KNOWN_BUGS")):
        return
    rp = build.tool("scn-replay")
    try:
        p = children.run([str(rp), "-q", '""'], capture_output=True, timeout=120)
    except children.Timeout:
        raise SetupError("checking the allowances / known-bugs tables: scn-replay gave no answer in 120 s") from None
    if p.returncode == 2:
        err = [l for l in p.stderr.decode("utf-8", "replace").splitlines() if l.strip()]
        msg = err[-1] if err else "scn-replay exited 2"
        raise SetupError(msg if msg.startswith("scnfuzz: ") else f"checking the tables: {msg}")


def run_fuzz(args):
    check_time(args.time)
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be between 1 and {MAX_JOBS}")
    fuzzer = choose_fuzzer(args)
    planted = args.planted
    if planted is not None:
        check_planted(planted)
    if fuzzer in ("fuzz_planted", "fuzz_planted_kernel") and not planted:
        raise UsageError(f"{fuzzer} needs --planted NAME ({', '.join(fuzzers.PLANTED)})")
    check_tables()
    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _run(args, fuzzer, planted)
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def campaign_corpus(fuzzer, args=None):
    """The campaign corpus of a fuzzer: kept between campaigns (both engines), so
    the next campaign resumes from it; --corpus DIR chooses another."""
    if args is not None and getattr(args, "corpus", None):
        return pathlib.Path(args.corpus).resolve()
    fbd = pathlib.Path(build.build_dir_for("fuzz") or build.ROOT / "build" / "fuzz")
    return fbd / "campaign-corpus" / fuzzer


def _prepare_corpus(args, fuzzer):
    """The campaign corpus directory and how many units the campaign resumes
    from; --fresh moves the previous units aside (<dir>.prev) first."""
    corpus = campaign_corpus(fuzzer, args)
    if corpus.exists() and not corpus.is_dir():
        raise UsageError(f"--corpus {corpus}: exists and is not a directory")
    if getattr(args, "fresh", False) and count_units(corpus):
        prev = corpus.with_name(corpus.name + ".prev")
        if prev.exists():
            shutil.rmtree(prev)
        os.replace(corpus, prev)
        sys.stderr.write(f"scnfuzz: --fresh: the previous campaign corpus ({count_units(prev)} units) "
                         f"moved to {shown_path(prev)}\n")
    try:
        corpus.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create the campaign corpus {corpus}: {e.strerror}") from None
    return corpus, count_units(corpus)


def shown_path(p):
    """A path as shown to the user: relative to the repository when inside it."""
    try:
        return str(pathlib.Path(p).resolve().relative_to(build.ROOT))
    except ValueError:
        return str(p)


def _afl_input(run, fuzzer, corpus):
    """AFL++ takes one input directory: the seeds plus the campaign corpus
    (hard links), or one input of the empty format when both are empty."""
    d = run.path / "fuzz" / "afl-in"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for src in (build.ROOT / "corpus" / "fuzz" / fuzzer, corpus):
        for e in (os.scandir(src) if src.is_dir() else []):
            if e.is_file() and not e.name.startswith(".") and not (d / e.name).exists():
                try:
                    os.link(e.path, d / e.name)
                except OSError:
                    shutil.copyfile(e.path, d / e.name)
    if not count_units(d):
        (d / "seed-0").write_bytes(b"\x00%d")
    return d


def _harvest_afl_queue(afl_out, corpus):
    """Inputs the AFL++ instances found (not their inputs, not synced copies)
    into the campaign corpus, named by SHA-1 like libFuzzer's, so the next
    campaign (either engine) resumes from them. Returns how many were new."""
    new = 0
    for q in sorted(afl_out.glob("*/queue/id:*")):
        if ",orig:" in q.name or ",sync:" in q.name or not q.is_file():
            continue
        data = q.read_bytes()
        dst = corpus / hashlib.sha1(data).hexdigest()
        if not dst.exists():
            dst.write_bytes(data)
            new += 1
    return new


def _run(args, fuzzer, planted):
    engine = args.engine
    if engine == "afl":
        path = build.afl_tool(fuzzer)
    else:
        path = build.tool(fuzzer, preset="fuzz")
    replay_cfg = fuzzers.REPLAY_CONFIG[fuzzer]
    run = Run.create("fuzz", args.out)  # first: a run refused (its --out is taken) touches nothing
    corpus, resumed = _prepare_corpus(args, fuzzer)
    (run.path / "fuzz").mkdir(exist_ok=True)
    if planted:
        run.meta["planted"] = planted
    tnames, dialect = FUZZER_TARGETS[fuzzer]
    mt = matrix_target(fuzzer)
    if mt:  # run.json names the implementation fuzz_matrix is fuzzing
        tnames = [mt if n == "matrix" else n for n in tnames]
    if engine == "afl":  # the AFL++ build has no in-process musl (see build.afl_tool)
        tnames = [t for t in tnames if t != "musl"]
    try:
        from . import targets as tg
        known = {t["name"]: t for t in tg.list_targets()}
    except Exception:
        known = {}
    targets = [known.get(n, {"name": n, "version": "planted bug " + (planted or "") if n == "planted" else None,
                             "dialect": "iso" if n != "ref-kernel" and n != "kernel" else "kernel",
                             "scnprintf": "native", "where": "in-process"}) for n in tnames]
    seeds = build.ROOT / "corpus" / "fuzz" / fuzzer
    part = {"kind": "fuzz", "engine": engine, "fuzzer": fuzzer, "targets": targets, "dialect": dialect,
            "jobs": args.jobs, "time_s": args.time, "started": utc_iso(), "status": "running",
            "executions": 0, "corpus": str(corpus), "resumed_units": resumed, "seed_units": count_units(seeds),
            "fresh": bool(getattr(args, "fresh", False))}
    if planted:
        part["planted"] = planted
    pidx = run.add_part(part)
    env = dict(os.environ, SCN_FUZZ_CONTINUE="1")
    if engine == "libfuzzer":
        env.setdefault("ASAN_OPTIONS", "detect_leaks=0:allocator_may_return_null=1")
    if planted:
        env["SCN_PLANTED"] = planted
    run.findings_path.touch()
    prog = Progress(f"fuzz {fuzzer}", every=10.0)
    if resumed:
        prog.update(f"resuming from {resumed} units of the previous campaign(s) in {shown_path(corpus)} "
                    f"(and the {part['seed_units']} seeds); --fresh starts from the seeds only", force=True)
    else:
        prog.update(f"starting from the {part['seed_units']} seeds of {shown_path(seeds)}; new units go to "
                    f"{shown_path(corpus)}", force=True)
    afl_in = _afl_input(run, fuzzer, corpus) if engine == "afl" else None
    t0 = time.monotonic()
    deadline = t0 + args.time
    # seeds from the system's randomness: two runs started in the same second (or
    # on one --out) never fuzz the same sequence; each worker's is in run.json
    base_seed = secrets.randbelow(2**31 - 8000 * (args.jobs + 21)) + 1
    jobs = [Job(i, fuzzer, path, run, corpus, args, env, seed=base_seed + 7919 * i) for i in range(args.jobs)]
    try:
        return _campaign(args, run, pidx, jobs, engine, fuzzer, corpus, resumed, replay_cfg, afl_in, prog, t0,
                         deadline)
    except BaseException:
        # a set-up error, a full disk, Ctrl-C twice: no worker outlives the campaign
        for j in jobs:
            if j.proc and j.proc.poll() is None:
                children.kill_group(j.proc)
        for j in jobs:
            if j.proc:
                j.proc.wait()
            j.log.close()
        try:
            run.update_part(pidx, status="error", finished=utc_iso())
        except Exception:
            pass  # (the disk may be full): run.json keeps its last whole version
        raise


def _campaign(args, run, pidx, jobs, engine, fuzzer, corpus, resumed, replay_cfg, afl_in, prog, t0, deadline):
    before = set((run.path / "artifacts").glob("*")) if (run.path / "artifacts").exists() else set()
    for j in jobs:
        j.start(args.time, engine, afl_in)
    tally = FindingTally(run.findings_path)  # the lines of earlier parts of the run are not this campaign's
    interrupted = False
    forwarded = False
    kill_at = None
    while True:
        now = time.monotonic()
        if _stop["sig"] and not forwarded:
            interrupted = True
            forwarded = True
            sys.stderr.write(f"\nscnfuzz: {signal.Signals(_stop['sig']).name}: stopping the fuzzers, "
                             f"then the report\n")
            for j in jobs:
                if j.proc and j.proc.poll() is None:
                    children.kill_group(j.proc, signal.SIGINT)
            kill_at = now + 10
        if now > deadline + 15 and kill_at is None:
            kill_at = now
        if kill_at and now >= kill_at:
            for j in jobs:
                if j.proc and j.proc.poll() is None:
                    children.kill_group(j.proc)
        run.fold_worker_findings()
        for j in jobs:
            if j.log_error is not None:
                raise write_error(j.log.name, j.log_error)
        alive = 0
        for j in jobs:
            if j.proc.poll() is None:
                if engine == "afl":  # (a finished instance's count is in execs_done)
                    j.poll_afl_stats()
                alive += 1
                continue
            if j.proc.returncode is not None and not getattr(j, "_reaped", False):
                rc = j.finish(engine)
                j._reaped = True
                new_art = set((run.path / "artifacts").glob("*")) - before
                ours = interrupted or kill_at is not None  # we stopped it
                setup = j.setup_error() if rc != 0 and not ours else None
                if setup:  # the C side's set-up error: exit 2 with its line, not a "crash"
                    run.update_part(pidx, duration_s=round(now - t0, 3))
                    raise SetupError(f"{setup} (worker {j.idx} of {fuzzer}; log: {j.log.name})")
                if rc > 0 and not ours and not new_art and now - j.started < 5 and j.execs_done == 0:
                    # died at start-up: a set-up problem, not a finding
                    run.update_part(pidx, duration_s=round(now - t0, 3))
                    raise SetupError(f"{fuzzer} failed at start-up (exit {rc}): {_last_error(j)} "
                                     f"(log: {j.log.name})")
                killed = rc < 0 and not new_art and not ours
                if killed:
                    # killed from outside (kill -9, the OOM killer): a fault of the run, not a
                    # finding on the code under test; logged in run.json and restarted
                    j.faults.append({"at_s": round(now - t0, 1), "status": children.describe_status(rc),
                                     "executions": j.total_execs})
                    sys.stderr.write(f"\nscnfuzz: worker {j.idx} of {fuzzer} {children.describe_status(rc)}: "
                                     f"not a finding (logged in run.json); "
                                     f"{'restarting it' if deadline - now > 3 else 'too late to restart it'}\n")
                    run.update_part(pidx, workers=[k.summary(engine) for k in jobs])
                if rc != 0 and not ours and now < deadline - 1:
                    run.fold_worker_findings()
                    if not killed:
                        for fnd in _crash_finding(run, j, rc, before, replay_cfg):
                            run.append_finding(fnd)
                    before = set((run.path / "artifacts").glob("*"))
                    if j.restarts < 20 and deadline - now > 3:
                        j.restarts += 1
                        j._reaped = False
                        j.start(deadline - now, engine, afl_in)
                        alive += 1
        tally.update()
        execs = sum(j.total_execs for j in jobs)
        el = now - t0
        rate = sum(j.rate for j in jobs)
        cov = max(j.cov for j in jobs)
        covtxt = (f"corpus {cov} map {max(j.ft for j in jobs) / 100:.1f}%" if engine == "afl"
                  else f"cov {cov} ft {max(j.ft for j in jobs)}")
        prog.update(f"{el:5.0f}s elapsed, {max(0, args.time - el):4.0f}s left | {execs} execs ({rate}/s) | "
                    f"{covtxt} | findings {tally.lines} ({len(tally.sigs)} signatures)",
                    frac=min(1.0, el / args.time))
        if alive == 0:
            break
        time.sleep(0.25)
    for j in jobs:
        if not getattr(j, "_reaped", False):
            j.finish(engine)
        j.log.close()
    run.fold_worker_findings()
    if engine == "afl":  # inputs that crashed or hung the AFL++ target; the queue into the campaign corpus
        for kind, sub in (("crash", "crashes"), ("hang", "hangs")):
            for a in sorted((run.path / "fuzz" / "afl").glob(f"*/{sub}/id*")):
                run.append_finding(_afl_artifact_finding(run, a, kind, fuzzer, replay_cfg))
        _harvest_afl_queue(run.path / "fuzz" / "afl", corpus)
        shutil.rmtree(afl_in, ignore_errors=True)
    dur = time.monotonic() - t0
    execs = sum(j.total_execs for j in jobs)
    tally.update()
    units_end = count_units(corpus)
    prog.done(f"{'interrupted' if interrupted else 'done'} after {dur:.1f}s: {execs} executions "
              f"({len(jobs)} worker{'s' if len(jobs) > 1 else ''}), {tally.lines} raw finding(s); "
              f"campaign corpus {shown_path(corpus)}: {resumed} -> {units_end} units")
    run.update_part(pidx, status="interrupted" if interrupted else "done", executions=execs,
                    duration_s=round(dur, 3), coverage=max(j.cov for j in jobs),
                    restarts=sum(j.restarts for j in jobs), finished=utc_iso(),
                    faults=sum(len(j.faults) for j in jobs),
                    exit_codes=[j.exit_codes for j in jobs], corpus_units=units_end,
                    workers=[j.summary(engine) for j in jobs])
    return run, interrupted
