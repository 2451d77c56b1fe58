"""The stages a mutant (or a patched build) goes through, cheapest first:

1. conformance: the corpus cases that reach the mutant (what the baseline run
   with SCN_MUTANT=-1 noted), through scn-conform --until-new, which stops at
   the first failing result the unmodified target does not have; the cases
   that killed other mutants go first, then the fastest;
2. for a survivor, a differential campaign of --time seconds per fuzzer
   (libFuzzer, campaign mode), each bug finding replayed on the unmodified
   target (scn-replay with SCN_MUTANT=0) and counted only when it does not
   fail the same way there.

Killed means: some case on which an oracle fails for the mutant and passes for
the unmodified target, both run by the same binaries side by side (SCN_MUTANT=0
is the unmodified target). A mutant that crashes or hangs a target is killed
through scn-conform's isolation or libFuzzer's crash and timeout handling."""
import collections
import dataclasses
import json
import pathlib
import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time

from . import campaign, children, fuzzers, jsonl
from .tree import ROOT

KNOWN_CLASSES = ("implementation-defined", "known-bug", "known-gap")
SHARED_UNITS = 1000  # units kept for later campaigns per fuzzer: each campaign loads them first
HANG_S = 10          # libFuzzer's -timeout: an input that runs longer is a hang
REPLAY_S = 5         # scn-replay's limit per case when a death is replayed (SCN_REPLAY_TIMEOUT)
REPLAY_WALL_S = 300  # and for the whole replay (its reduction of a hang runs candidates that hang)


@dataclasses.dataclass
class Outcome:
    status: str                  # killed | survived | error | not-run (and, inside the campaigns, died)
    stage: str = None            # conform | fuzz (where it was killed, or the last stage it went through)
    oracle: str = None
    signature: str = None
    case: str = None
    where: str = None            # corpus FILE:LINE, or the fuzzer
    seconds: float = 0.0
    executions: int = 0          # corpus results checked + fuzzer executions
    detail: str = None
    reached_by: int = None       # corpus units that reach the mutant (None: a patch)
    record: dict = None          # the finding record of the kill

    def as_dict(self):
        d = {k: v for k, v in dataclasses.asdict(self).items() if v is not None and k != "record"}
        return d


class Stopper:
    """Ctrl-C/SIGTERM: the stages' processes are killed and no new one starts."""

    def __init__(self):
        self.event = threading.Event()
        self.lock = threading.Lock()
        self.procs = set()

    def popen(self, cmd, **kw):
        with self.lock:
            if self.event.is_set():
                raise Cancelled()
            p = children.popen(cmd, **kw)
            self.procs.add(p)
        return p

    def forget(self, p):
        with self.lock:
            self.procs.discard(p)

    def stop(self):
        self.event.set()
        with self.lock:
            for p in list(self.procs):
                children.kill_group(p)

    @property
    def stopped(self):
        return self.event.is_set()


class Cancelled(Exception):
    pass


def _communicate(stopper, cmd, env, timeout, cwd=None):
    """Runs cmd to its end (killed after timeout s): (returncode, stdout, stderr);
    Cancelled when the run is being stopped."""
    p = stopper.popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        children.kill_group(p)
        out, err = p.communicate()
        return None, out, err
    finally:
        stopper.forget(p)
    if stopper.stopped:
        raise Cancelled()
    return p.returncode, out, err


# ------------------------------------------------------------------ the corpus


class Corpus:
    """The conformance corpus, unit by unit (one line of a corpus file);
    unrepeatable: a Subject's (regex, why): the units whose case matches are
    left out (their count in self.left_out)."""

    def __init__(self, files, unrepeatable=None):
        self.files = [pathlib.Path(f) for f in files]
        self.lines = {}  # (shown file, line) -> text
        self.left_out = 0
        drop = re.compile(unrepeatable[0]) if unrepeatable else None
        for f in self.files:
            shown = _shown(f)
            for i, text in enumerate(f.read_text(encoding="utf-8", errors="surrogateescape").split("\n"), 1):
                if text.strip() and not text.startswith("#"):
                    if drop and drop.search(text.split("\t")[1] if "\t" in text else text):
                        self.left_out += 1
                        continue
                    self.lines[(shown, i)] = text

    def args(self):
        return [_shown(f) for f in self.files]


def _shown(p):
    try:
        return str(pathlib.Path(p).resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


# ------------------------------------------------------------------ conformance


class ConformStage:
    """The corpus through scn-conform: the baseline once, then each mutant."""

    def __init__(self, conform, targets, corpus, work, stopper, replay=None):
        self.conform, self.targets, self.corpus = str(conform), list(targets), corpus
        # scn-replay: a hang's second look (confirm_hang), the mutant's and the unmodified target's
        # (the same binary with SCN_MUTANT=0, or, for a --patch, a copy made before the patch)
        self.replay = str(replay) if replay else None
        self.original_replay = self.replay
        self.work = pathlib.Path(work)
        self.stopper = stopper
        self.known = set()                        # (file, line, target, oracle) failing at baseline
        self.reach = collections.defaultdict(set)  # mutant id -> {(file, line)}
        self.cost = collections.Counter()          # (file, line) -> microseconds (all targets)
        self.kills = collections.Counter()          # (file, line) -> mutants it killed
        self.lock = threading.Lock()
        self.baseline_seconds = 0.0
        self.baseline_results = 0
        self.server_env = None                    # serve(): the mutants' scn-conform processes
        self.local = threading.local()
        self.servers = []

    def serve(self, env):
        """From now on, a run whose env is env but for SCN_MUTANT goes to a
        scn-conform --mutant-server of its thread (started once, env), which
        checks each mutant in a child forked from it: no mutant pays the
        start of a process. close() ends them."""
        self.server_env = {k: v for k, v in env.items() if k != "SCN_MUTANT"}

    def _server(self, env):
        if self.server_env is None or {k: v for k, v in env.items() if k != "SCN_MUTANT"} != self.server_env:
            return None
        if not re.fullmatch(r"[0-9]+", env.get("SCN_MUTANT", "")):
            return None
        srv = getattr(self.local, "server", None)
        if srv is None or srv.dead:
            with self.lock:
                n = len(self.servers)
            srv = MutantServer(self._cmd(), dict(self.server_env, SCN_MUTANT="0"), self.stopper,
                               self.work / "conform" / f"server-{n}.stderr")
            self.local.server = srv
            with self.lock:
                self.servers.append(srv)
        return srv

    def close(self):
        with self.lock:
            servers, self.servers = self.servers, []
        for srv in servers:
            srv.close()

    def _cmd(self, *extra):
        cmd = [self.conform, "--fail-only"]
        for t in self.targets:
            cmd += ["--target", t]
        return cmd + list(extra)

    def baseline(self, env, reach=True):
        """The unmodified target's failing results (env: SCN_MUTANT=-1 with
        reach, noting the mutation points each unit reaches, else 0)."""
        t0 = time.monotonic()
        cmd = self._cmd(*(["--mutant-reach"] if reach else [])) + self.corpus.args()
        rc, out, err = _communicate(self.stopper, cmd, env, timeout=3600, cwd=ROOT)
        if rc not in (0, 1):
            raise BaselineError(f"the baseline conformance run ({' '.join(cmd[:6])} ...) "
                                f"{'timed out' if rc is None else children.describe_status(rc)}: "
                                f"{err.decode('utf-8', 'replace').strip()[-300:]}")
        for o in jsonl.objects(out):
            if "reach" in o:
                u = (o["file"], o["line"])
                if u not in self.corpus.lines:
                    continue  # a unit left out (Subject.unrepeatable): the baseline runs whole files
                self.cost[u] += int(o.get("us", 0))
                for m in o["reach"]:
                    self.reach[m].add(u)
            elif "summary" in o:
                self.baseline_results = o["summary"].get("results", 0)
            elif o.get("status") in ("fail", "error"):
                self.known.add((o["file"], o["line"], o["target"], o.get("oracle") or ""))
        self.baseline_seconds = time.monotonic() - t0

    def order(self, units):
        """Cases that killed other mutants first, then the fastest."""
        with self.lock:
            return sorted(units, key=lambda u: (-self.kills[u], self.cost[u], u))

    def run(self, key, env, units=None, original_env=None):
        """One mutant (or a patched build): the units given (default: all, in
        order) until the first failing result not in the baseline. A hang
        kills only when confirm_hang says the mutant's target hangs alone
        where the unmodified one (original_env) does not; otherwise the run
        goes on after that unit."""
        t0 = time.monotonic()
        units = self.order(units if units is not None else list(self.corpus.lines))
        results, notes = 0, []
        for _ in range(HANG_RETRIES + 1):
            o = self._run_units(key, env, units)
            results += o.executions
            o.executions, o.seconds = results, time.monotonic() - t0
            if o.status != "killed" or o.oracle != "hang" or not self.replay:
                break
            why = confirm_hang(self.stopper, (self.replay, self.original_replay),
                               o.record.get("target") or self.targets[0], o.case, env,
                               original_env or dict(env, SCN_MUTANT="0"))
            if why is None:
                break
            notes.append(f"{o.where}: {why}")
            with self.lock:
                self.kills[units[o.record["index"]]] -= 1
            units = units[o.record["index"] + 1:]
            o = Outcome("survived", "conform", seconds=time.monotonic() - t0, executions=results)
            if not units:
                break
        else:
            notes.append(f"{len(units)} units after the last of them not checked")
        if o.record:
            o.record.pop("index", None)
        if notes:
            o.detail = "; ".join(filter(None, [o.detail, "hangs not counted: " + "; ".join(notes)]))[:500]
        return o

    def _run_units(self, key, env, units):
        t0 = time.monotonic()
        d = self.work / "conform"
        d.mkdir(parents=True, exist_ok=True)
        sub, keys = d / f"{key}.tsv", d / f"{key}.known"
        sub.write_text("".join(self.corpus.lines[u] + "\n" for u in units), encoding="utf-8",
                       errors="surrogateescape")
        known_at = collections.defaultdict(list)
        for f, ln, t, o in self.known:
            known_at[(f, ln)].append((t, o))
        with open(keys, "w") as kf:
            for i, u in enumerate(units, 1):
                for t, o in known_at.get(u, ()):
                    kf.write(f"{sub}:{i}\t{t}\t{o}\n")
        cmd = self._cmd("--until-new", str(keys), str(sub))
        try:
            srv = self._server(env)
            if srv:
                rc, out, err = srv.check(env["SCN_MUTANT"], keys, sub, timeout=1800)
            else:
                rc, out, err = _communicate(self.stopper, cmd, env, timeout=1800, cwd=ROOT)
        finally:
            for p in (sub, keys):
                try:
                    p.unlink()
                except OSError:
                    pass
        secs = time.monotonic() - t0
        results, first = 0, None
        for o in jsonl.objects(out):
            if "summary" in o:
                results = o["summary"].get("results", 0)
            elif o.get("status") in ("fail", "error") and first is None:
                first = o
        if rc is None or rc not in (0, 1) or (rc == 1 and first is None):
            why = "timed out" if rc is None else children.describe_status(rc)
            return Outcome("error", "conform", seconds=secs, executions=results,
                           detail=f"scn-conform {why}: {err.decode('utf-8', 'replace').strip()[-300:]}")
        if first is None:
            return Outcome("survived", "conform", seconds=secs, executions=results)
        u = units[first["line"] - 1]
        with self.lock:
            self.kills[u] += 1
        rec = first.get("finding") or {}
        if isinstance(rec, dict):
            rec["where"] = f"{u[0]}:{u[1]}"
            rec["index"] = first["line"] - 1
            rec.setdefault("target", first.get("target"))
        return Outcome("killed", "conform", oracle=first.get("oracle"), signature=first.get("signature"),
                       case=first.get("case"), where=f"{u[0]}:{u[1]}", seconds=secs, executions=results,
                       detail=f"{first.get('target')}: expected {first.get('expected')}, got {first.get('actual')}"
                       if first.get("oracle", "").startswith("expect.") else
                       f"{first.get('target')}: {first.get('detail', '')}", record=rec)


class BaselineError(Exception):
    pass


class MutantServer:
    """One scn-conform --mutant-server: a line "ID<TAB>BASELINE<TAB>FILE.tsv"
    per mutant in, the child's lines and {"mutant_end":ID,"status":S} out."""

    def __init__(self, cmd, env, stopper, errpath):
        errpath.parent.mkdir(parents=True, exist_ok=True)
        self.err = open(errpath, "w+b")
        self.stopper = stopper
        self.p = stopper.popen(cmd + ["--mutant-server"], env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=self.err, cwd=ROOT)
        self.buf = b""
        self.dead = False

    def check(self, mutant, keys, sub, timeout):
        """(status, stdout, stderr) as _communicate gives them: status None
        when the mutant's run did not end within timeout s or the server died
        (it is then killed, and the next check starts another)."""
        err_at = self.err.seek(0, os.SEEK_END)
        lines = []
        try:
            self.p.stdin.write(f"{mutant}\t{keys}\t{sub}\n".encode())
            self.p.stdin.flush()
        except OSError:
            return self._lost(lines, err_at)
        deadline = time.monotonic() + timeout
        fd = self.p.stdout.fileno()
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.startswith(b'{"mutant_end":'):
                    return json.loads(line)["status"], b"\n".join(lines), self._err(err_at)
                lines.append(line)
            left = deadline - time.monotonic()
            if left <= 0:
                return self._lost(lines, err_at)
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if self.stopper.stopped:
                raise Cancelled()
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return self._lost(lines, err_at)
                self.buf += chunk

    def _err(self, at):
        self.err.seek(at)
        return self.err.read()

    def _lost(self, lines, err_at):
        self.kill()
        if self.stopper.stopped:
            raise Cancelled()
        return None, b"\n".join(lines), self._err(err_at)

    def kill(self):
        self.dead = True
        children.kill_group(self.p)
        self.p.wait()
        self.stopper.forget(self.p)

    def close(self):
        if self.dead:
            return
        try:
            self.p.stdin.close()
            self.p.wait(timeout=30)
            self.dead = True
            self.stopper.forget(self.p)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()
        self.err.close()


HANG_RETRIES = 3   # hangs of one mutant not confirmed before its corpus run counts as done
HANG_CHECK_S = 10  # a confirmed hang: the mutant's call still running after this, alone


def confirm_hang(stopper, replays, target, case, env, original_env):
    """None when the case, replayed on target beside the reference, gives the
    mutant (env, replays[0]) a death or a finding that the unmodified target
    (original_env, replays[1]) does not have; else why it is not the
    mutant's doing. scn-conform's limit is 1 s per call on a shared machine:
    a mutant whose call takes seconds (pad() writing 4 GB of padding) is a
    "hang" there, and its replay shows what it does wrong (the bytes); an ASan
    report, slow to write under load, is a "hang" there and a crash here; a
    case the case model itself is slow on hangs every target alike."""
    dialect = "kernel" if target in ("kernel", "ref-kernel") else "iso"
    ref = "ref-kernel" if dialect == "kernel" else "ref"
    targets = [ref, target] if target != ref else [target]

    def findings(replay, e):
        cmd = [replay, "-q", "--dialect", dialect] + [x for t in targets for x in ("--target", t)] + [case]
        rc, out, _ = _communicate(stopper, cmd, dict(e, SCN_REPLAY_TIMEOUT=str(HANG_CHECK_S)),
                                  timeout=REPLAY_WALL_S)
        if rc is None:
            return {"(the replay did not end)"}
        sigs = set()
        for raw in out.splitlines():
            if raw.startswith(b"{"):
                try:
                    r = json.loads(raw)
                except ValueError:
                    continue
                if target in (r.get("targets") or ()) and r.get("classification") not in KNOWN_CLASSES:
                    sigs.add(r.get("signature"))
        return sigs
    if not case:
        return "no case to replay"
    mutant = findings(replays[0], env)
    if not mutant:
        return f"the mutant's {target} returns within {HANG_CHECK_S} s and passes the case beside {ref}"
    if not mutant - findings(replays[1], original_env):
        return f"the unmodified {target} fails the case the same way"
    return None


# ------------------------------------------------------------------ campaigns


class Original:
    """The unmodified target's scn-replay: the mutation build's own with
    SCN_MUTANT=0, or (a --patch) a copy of it made before the patch."""

    def __init__(self, replay, env):
        self.replay, self.env = str(replay), env

    def findings(self, stopper, path, cfg, fuzzer_env=()):
        """The signatures the unmodified target's replay of path gives (None: it
        died). fuzzer_env: the campaign's own settings (fuzz_matrix's
        SCN_MATRIX_TARGET): without them the "matrix" configuration replays
        the reference alone and every finding of the target looked new."""
        env = dict(self.env, **dict(fuzzer_env), SCN_REPLAY_TIMEOUT=str(REPLAY_S))
        rc, out, _ = _communicate(stopper, [self.replay, "-q", "--fuzzer", cfg, str(path)], env,
                                  timeout=REPLAY_WALL_S)
        if rc is None:
            return None
        sigs = set()
        for raw in out.splitlines():
            if raw.startswith(b"{"):
                try:
                    sigs.add(json.loads(raw).get("signature"))
                except ValueError:
                    pass
        return sigs


class FuzzStage:
    """A differential campaign per fuzzer of the subject, --time seconds in all."""

    def __init__(self, fuzzer_paths, replay, original, work, stopper, shared=None, targets=(), unrepeatable=None):
        self.fuzzer_paths = fuzzer_paths  # [(name, path, env)]
        self.unrepeatable = re.compile(unrepeatable[0]) if unrepeatable else None  # (a Subject's)
        self.targets = set(targets)  # the targets a finding must involve (those the mutant changes)
        self.replay = str(replay)
        self.original = original
        self.work = pathlib.Path(work)
        self.stopper = stopper
        # the units the campaigns found, kept for the next campaigns (of this run and the
        # next ones): a later mutant starts where earlier campaigns got, not from the seeds
        self.shared = pathlib.Path(shared) if shared else None
        self.lock = threading.Lock()

    def run(self, key, env, seconds):
        t0 = time.monotonic()
        execs = 0
        per = seconds / max(1, len(self.fuzzer_paths))
        last = None
        for name, path, fenv in self.fuzzer_paths:
            o = self._one(key, name, path, dict(env, **dict(fenv)), per, fenv)
            execs += o.executions
            o.executions = execs
            o.seconds = time.monotonic() - t0
            if o.status in ("killed", "error"):
                return o
            last = o
        return last or Outcome("survived", "fuzz", seconds=time.monotonic() - t0)

    def _one(self, key, name, path, env, seconds, fenv=()):
        """One fuzzer for `seconds`: restarted after a death that is not a
        kill (an input the unmodified target dies on too, a death the replay
        does not reproduce), so that the campaign gets its time."""
        d = self.work / "fuzz" / f"{key}-{name}"
        shutil.rmtree(d, ignore_errors=True)
        (d / "corpus").mkdir(parents=True)
        (d / "artifacts").mkdir()
        findings = d / "findings.jsonl"
        findings.touch()
        env = dict(env, SCN_FUZZ_CONTINUE="1", SCN_FINDINGS=str(findings))
        env.setdefault("ASAN_OPTIONS", "detect_leaks=0:allocator_may_return_null=1")
        deadline = time.monotonic() + seconds
        execs, notes, state = 0, [], {"off": 0, "seen": set()}
        while True:
            left = deadline - time.monotonic()
            o = self._incarnation(d, name, path, env, max(1.0, left), state, fenv)
            execs += o.executions
            o.executions = execs
            if o.status in ("killed", "error"):
                return o
            if o.detail:
                notes.append(o.detail)
            if o.status != "died" or deadline - time.monotonic() < 1 or len(notes) > 20:
                return Outcome("survived", "fuzz", where=name, executions=execs,
                               detail="; ".join(notes)[:500] or None)

    def _incarnation(self, d, name, path, env, seconds, state, fenv=()):
        """One libFuzzer process: killed (a finding or a death the unmodified
        target does not have), survived (it ran its time), died (a death that
        is not a kill: detail says why) or error."""
        cfg = fuzzers.REPLAY_CONFIG[name]
        seeds = ROOT / "corpus" / "fuzz" / name
        shared = self.shared / name if self.shared else None
        dirs = [d / "corpus"] + [x for x in (shared, seeds) if x and x.is_dir()]
        for a in (d / "artifacts").iterdir():
            a.unlink()
        cmd = [str(path)] + [str(x) for x in dirs] + [
            f"-max_total_time={max(1, int(round(seconds)))}", f"-timeout={HANG_S}", "-rss_limit_mb=2048",
            "-print_final_stats=1", f"-artifact_prefix={d / 'artifacts'}/"] + campaign.libfuzzer_options(name)
        p = self.stopper.popen(cmd, env=env, mem=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=d)
        log = collections.deque(maxlen=200)
        execs = [0]

        def read():
            for raw in p.stderr:
                line = raw.decode("utf-8", "replace")
                log.append(line)
                m = campaign.STATUS_RE.match(line)
                if m:
                    execs[0] = max(execs[0], int(m.group(1)))
                elif line.startswith("stat::number_of_executed_units:"):
                    try:
                        execs[0] = max(execs[0], int(line.split(":")[-1]))
                    except ValueError:
                        pass
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        t0 = time.monotonic()
        kill = None
        try:
            while True:
                done = p.poll() is not None
                state["off"], kill = self._check_findings(d / "findings.jsonl", state["off"], state["seen"], cfg, d,
                                                          fenv)
                if kill or done:
                    break
                if time.monotonic() - t0 > seconds + HANG_S + 60:  # libFuzzer's own limits did not end it
                    break
                self.stopper.event.wait(0.25)
                if self.stopper.stopped:
                    raise Cancelled()
        finally:
            if p.poll() is None:
                children.kill_group(p)
            p.wait()
            reader.join(timeout=5)
            self.stopper.forget(p)
        self._keep_units(d / "corpus", shared)
        if kill:
            kill.executions = execs[0]
            return kill
        arts = sorted(x for x in (d / "artifacts").iterdir() if x.is_file())
        if arts:
            o = self._artifact(arts[0], name, cfg, env, "".join(log), fenv)
            o.executions = execs[0]
            return o
        rc = p.returncode
        if rc not in (0, None) and rc != -signal.SIGKILL:
            return Outcome("error", "fuzz", where=name, executions=execs[0],
                           detail=f"{name} {children.describe_status(rc)}: {''.join(log).strip()[-300:]}")
        return Outcome("survived", "fuzz", where=name, executions=execs[0])

    def _keep_units(self, new, shared):
        """The campaign's new units into the shared corpus, up to SHARED_UNITS."""
        if not shared:
            return
        with self.lock:
            shared.mkdir(parents=True, exist_ok=True)
            room = SHARED_UNITS - campaign.count_units(shared)
            for u in sorted(new.iterdir())[:max(0, room)]:
                if u.is_file() and not (shared / u.name).exists():
                    shutil.copyfile(u, shared / u.name)

    def _check_findings(self, findings, off, seen, cfg, d, fenv=()):
        """New bug findings of the mutant since off: the first that the
        unmodified target does not have is the kill."""
        try:
            with open(findings, "rb") as f:
                f.seek(off)
                data = f.read()
        except OSError:
            return off, None
        end = data.rfind(b"\n")
        if end < 0:
            return off, None
        for raw in data[:end].splitlines():
            try:
                rec = json.loads(raw)
            except ValueError:
                continue
            sig = rec.get("signature")
            if rec.get("classification") in KNOWN_CLASSES or sig in seen:
                continue
            if self.targets and not set(rec.get("targets") or ()) & self.targets:
                continue  # (between targets the mutant does not change: glibc~ref when musl is mutated)
            if self._unrepeatable(rec):
                continue
            seen.add(sig)
            one = d / "candidate.jsonl"
            one.write_bytes(raw + b"\n")
            orig = self.original.findings(self.stopper, one, cfg, fenv)
            if orig is not None and sig not in orig:
                return off + end + 1, Outcome("killed", "fuzz", oracle=rec.get("oracle"), signature=sig,
                                              case=rec.get("case"), where=rec.get("program") or cfg,
                                              detail=rec.get("detail"), record=rec)
        return off + end + 1, None

    def _unrepeatable(self, rec):
        return bool(self.unrepeatable) and any(self.unrepeatable.search(rec.get(k) or "")
                                               for k in ("case", "original_case"))

    def _artifact(self, art, name, cfg, env, log, fenv=()):
        """The fuzzer died on an input (a crash, a timeout, memory): a kill when
        the mutant's replay of it dies (crash or hang) and the unmodified
        target's does not die the same way; else "died" (the campaign goes on)."""
        kind = art.name.split("-")[0]
        rc, out, _ = _communicate(self.stopper, [self.replay, "-q", "--fuzzer", cfg, str(art)],
                                  dict(env, SCN_REPLAY_TIMEOUT=str(REPLAY_S)), timeout=REPLAY_WALL_S)
        rec = None
        for raw in (out or b"").splitlines():
            if raw.startswith(b"{"):
                try:
                    r = json.loads(raw)
                except ValueError:
                    continue
                if r.get("oracle") in ("crash", "hang"):
                    rec = r
                    break
        summary = re.findall(r"(?:SUMMARY|ERROR): [^\n]*", log)
        what = summary[-1] if summary else f"{name} left {art.name}"
        if rec is None:
            return Outcome("died", "fuzz", detail=f"{art.name} ({what[:120]}): the mutant's replay of it does "
                           f"not die")
        sig = rec.get("signature")
        if self._unrepeatable(rec):
            return Outcome("died", "fuzz", detail=f"{art.name}: a case the unmodified target does not repeat "
                           f"({rec.get('case')})")
        if self.targets and not set(rec.get("targets") or ()) & self.targets:
            # no target alone dies on it (scn-replay then blames "case-model"): the case's
            # own cost on a loaded machine, not the mutant
            return Outcome("died", "fuzz", detail=f"{art.name}: {rec.get('oracle')} of the case model alone "
                           f"({sig}), no mutated target dies on it alone")
        orig = self.original.findings(self.stopper, art, cfg, fenv)
        if orig is None or sig in orig:
            return Outcome("died", "fuzz", detail=f"{art.name}: the unmodified target dies on it too ({sig})")
        return Outcome("killed", "fuzz", oracle=rec.get("oracle") or kind, signature=sig, case=rec.get("case"),
                       where=name, detail=what, record=rec)
