"""A run directory: reports/<UTC timestamp>-<kind>/ (or --out DIR), its metadata
(run.json), the raw findings (findings.jsonl, appended and flushed line by
line) and the reports/latest symlink.

A run owns its directory: it holds an exclusive lock (flock on DIR/.lock)
from creation to exit, so a second scnfuzz on the same --out is refused, not
interleaved with the first. Writes keep what was written intact: run.json
and the reports are replaced atomically (a temporary file renamed), and a
line appended to findings.jsonl is there whole or not at all (a failed
append is cut back), so a full disk never tears a line."""
import datetime
import errno
import fcntl
import json
import os
import pathlib
import re
import sys
import time

from .build import ROOT
from .errors import UsageError, write_error

REPORTS = ROOT / "reports"
RUN_SCHEMA = 1


def utc_stamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def utc_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Run:
    def __init__(self, path, meta):
        self.path = pathlib.Path(path)
        self.meta = meta

    # ---- creation / opening
    @classmethod
    def create(cls, kind, out=None):
        if out:
            path = pathlib.Path(out).resolve()
            m = re.match(r"^[0-9]{8}T[0-9]{6}Z-([A-Za-z0-9_.-]+)$", path.name)
            if m:
                kind = m.group(1)
            if path.exists() and not path.is_dir():
                raise UsageError(f"--out {out}: exists and is not a directory")
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise UsageError(f"cannot create the run directory {path}: {e.strerror}") from None
        else:
            path = cls._new_default_dir(kind)
        lock = lock_run_dir(path)
        if (path / "run.json").is_file():
            run = cls.open(path)
        else:
            run = cls(path, {"run_schema": RUN_SCHEMA, "kind": kind, "started": utc_iso(),
                             "command": ["./scnfuzz"] + sys.argv[1:], "parts": []})
        run.lock_fd = lock
        run.save()
        run.point_latest()
        return run

    @staticmethod
    def _new_default_dir(kind):
        """reports/<stamp>-<kind>, or -2, -3, ...: created with mkdir, which
        fails when the name exists, so two runs started in the same second
        never pick the same directory."""
        stamp = utc_stamp()
        try:
            REPORTS.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create {REPORTS}: {e.strerror}") from None
        for n in range(1, 10000):
            path = REPORTS / (f"{stamp}-{kind}" if n == 1 else f"{stamp}-{kind}-{n}")
            try:
                path.mkdir()
                return path
            except FileExistsError:
                continue
            except OSError as e:
                raise UsageError(f"cannot create the run directory {path}: {e.strerror}") from None
        raise UsageError(f"cannot create a run directory in {REPORTS}: too many named {stamp}-{kind}")

    @classmethod
    def open(cls, path):
        path = pathlib.Path(path)
        mp = path / "run.json"
        if not mp.is_file():
            if (path / "findings.jsonl").is_file():
                return cls(path, {"run_schema": RUN_SCHEMA, "kind": "unknown", "parts": []})
            raise UsageError(f"{path}: not a run directory (no run.json or findings.jsonl)")
        try:
            meta = json.loads(mp.read_text())
        except (OSError, ValueError) as e:
            raise UsageError(f"{mp}: unreadable run metadata ({e})") from None
        why = meta_problem(meta)
        if why:
            raise UsageError(f"{mp}: not run metadata scnfuzz wrote ({why})")
        return cls(path, meta)

    def save(self):
        write_atomic(self.path / "run.json", json.dumps(self.meta, indent=1) + "\n")

    def point_latest(self):
        """reports/latest -> this run, when the run lives in reports/."""
        try:
            rel = self.path.resolve().relative_to(REPORTS.resolve())
        except ValueError:
            return
        if len(rel.parts) != 1:
            return
        link = REPORTS / "latest"
        tmp = REPORTS / f".latest.{os.getpid()}"
        try:
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            os.symlink(rel.parts[0], tmp)
            os.replace(tmp, link)
        except OSError:
            pass

    def add_part(self, part):
        self.meta.setdefault("parts", []).append(part)
        self.save()
        return len(self.meta["parts"]) - 1

    def update_part(self, idx, **kw):
        self.meta["parts"][idx].update(kw)
        self.meta["finished"] = utc_iso()
        self.save()

    # ---- findings
    @property
    def findings_path(self):
        return self.path / "findings.jsonl"

    def append_finding(self, obj):
        append_whole(self.findings_path, json.dumps(obj, sort_keys=False) + "\n")

    def fold_worker_findings(self):
        """Appends to findings.jsonl the complete lines that the fuzzer processes
        of a campaign wrote to their own files (fuzz/<fuzzer>-<worker>.findings.jsonl)
        since the last fold, each with "worker": <worker>. Idempotent: the offsets
        folded so far are kept in fuzz/folded.json. Returns the lines folded."""
        d = self.path / "fuzz"
        files = sorted(d.glob("*.findings.jsonl")) if d.is_dir() else []
        if not files:
            return 0
        state_p = d / "folded.json"
        state = read_fold_state(self.path)
        old, out = json.loads(json.dumps(state)), []
        for fp in files:
            off = state.get(fp.name, 0)
            try:
                with open(fp, "rb") as f:
                    f.seek(off)
                    data = f.read()
            except OSError:
                continue
            end = data.rfind(b"\n")
            stem = fp.name[:-len(".findings.jsonl")].rsplit("-", 1)
            if end < 0 or len(stem) != 2 or not stem[1].isdigit():
                continue
            worker = int(stem[1])
            bad = 0
            for raw in data[:end].splitlines():
                try:
                    obj = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    obj = None
                if isinstance(obj, dict):
                    obj["worker"] = worker
                    out.append(json.dumps(obj, sort_keys=False) + "\n")
                elif raw.strip():
                    bad += 1
            if bad:  # counted, and reported by the report (summary.skipped_lines)
                skipped = state.setdefault("skipped", {})
                skipped[fp.name] = skipped.get(fp.name, 0) + bad
            state[fp.name] = off + end + 1
        if not out and state == old:
            return 0
        if out:  # whole lines or none; the offsets move only once they are in
            append_whole(self.findings_path, "".join(out))
        write_atomic(state_p, json.dumps(state) + "\n")
        return len(out)


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def meta_problem(meta):
    """Why a run.json cannot be reported on (its fields of the wrong type), or
    None: the report sums and prints them."""
    if not isinstance(meta, dict):
        return "not an object"
    for k in ("kind", "started", "finished", "planted"):
        if meta.get(k) is not None and not isinstance(meta[k], str):
            return f"{k} is not a string"
    if meta.get("command") is not None and not isinstance(meta["command"], list):
        return "command is not a list"
    parts = meta.get("parts", [])
    if not isinstance(parts, list):
        return "parts is not a list"
    for i, part in enumerate(parts):
        if not isinstance(part, dict):
            return f"parts[{i}] is not an object"
        for k in ("executions", "duration_s", "cases_run", "results_count", "time_s"):
            if part.get(k) is not None and not _num(part[k]):
                return f"parts[{i}].{k} is not a number"
        for k in ("kind", "status", "results", "engine", "fuzzer", "started", "finished"):
            if part.get(k) is not None and not isinstance(part[k], str):
                return f"parts[{i}].{k} is not a string"
        for k in ("targets", "workers"):
            v = part.get(k)
            if v is not None and not (isinstance(v, list) and all(isinstance(x, dict) for x in v)):
                return f"parts[{i}].{k} is not a list of objects"
    return None


def read_fold_state(run_path):
    """fuzz/folded.json: the offsets folded so far per worker file, and
    "skipped": {file: complete lines that were not a JSON object}."""
    try:
        state = json.loads((pathlib.Path(run_path) / "fuzz" / "folded.json").read_text())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def lock_run_dir(path, hint="wait for it to end or choose another --out"):
    """The exclusive lock of a run directory (flock on DIR/.lock, held until
    this process exits, released by the kernel even on SIGKILL; not inherited
    by the children, the file is close-on-exec). A second process is refused:
    two runs writing one directory would mix their findings and files."""
    lp = pathlib.Path(path) / ".lock"
    try:
        fd = os.open(lp, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise UsageError(f"cannot lock the run directory {path}: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
        except OSError:
            holder = "?"
        os.close(fd)
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise UsageError(f"{path}: another scnfuzz (pid {holder}) is writing this run directory; "
                             f"{hint}") from None
        raise UsageError(f"cannot lock the run directory {path}: {e.strerror}") from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass  # the pid is only for the message of a refused second run
    _HELD_LOCKS.append(fd)
    return fd


_HELD_LOCKS = []  # open for the life of the process: closing one would release its lock


def write_atomic(path, text):
    """path replaced by text whole (a temporary file renamed over it): on a
    write error the old content stays, and the error says so (exit 2)."""
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise write_error(path, e) from None


def append_whole(path, text):
    """Appends whole lines, or nothing: on a write error (disk full) the file
    is cut back to where it was, so no torn line is left, and the error says
    what was kept (exit 2). One writer per file: the lock of the run."""
    data = text.encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise write_error(path, e) from None
    try:
        start = os.lseek(fd, 0, os.SEEK_END)
        off = 0
        while off < len(data):
            off += os.write(fd, data[off:])
    except OSError as e:
        try:
            os.ftruncate(fd, start)
        except OSError:
            pass
        raise write_error(path, e, f" ({_count_lines(path)} line(s))") from None
    finally:
        os.close(fd)


def _count_lines(path):
    if not os.path.isfile(path):  # (a device, /dev/full in a test, reads forever)
        return 0
    try:
        with open(path, "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return 0


class FindingTally:
    """Lines and signatures that findings.jsonl gained since the tally was
    made (a campaign's own, not those of earlier parts of the run), read from
    where the last look stopped: the file only grows, and re-reading all of it
    for every progress line would grow with it."""

    def __init__(self, path):
        self.path, self.off = path, 0
        self.lines, self.sigs = 0, set()
        self.update()
        self.lines, self.sigs = 0, set()

    def update(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.off)
                data = f.read()
        except OSError:
            return
        end = data.rfind(b"\n")
        if end < 0:
            return
        for raw in data[:end].splitlines():
            try:
                rec = json.loads(raw)
            except ValueError:
                continue
            if isinstance(rec, dict):
                self.lines += 1
                self.sigs.add(rec.get("signature"))
        self.off += end + 1


def read_jsonl(path, skipped=None):
    """Objects of a JSON-lines file; a torn line (a killed writer) or one that
    is not an object is skipped, and counted in skipped[0] when given."""
    out = []
    try:
        with open(path, "rb") as f:
            for raw in f:
                raw = raw.strip()
                if not raw:
                    continue
                try:
                    obj = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    obj = None
                if isinstance(obj, dict):
                    out.append(obj)
                elif skipped is not None:
                    skipped[0] += 1
    except FileNotFoundError:
        pass
    return out


class Timer:
    def __init__(self):
        self.t0 = time.monotonic()

    def elapsed(self):
        return time.monotonic() - self.t0
