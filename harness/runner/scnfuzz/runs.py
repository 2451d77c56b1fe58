"""A run directory: reports/<UTC timestamp>-<kind>/ (or --out DIR), its metadata
(run.json), the raw findings (findings.jsonl, appended and flushed line by
line) and the reports/latest symlink."""
import datetime
import json
import os
import pathlib
import re
import sys
import time

from .build import ROOT
from .errors import UsageError

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
        else:
            stamp = utc_stamp()
            path = REPORTS / f"{stamp}-{kind}"
            n = 1
            while path.exists():
                n += 1
                path = REPORTS / f"{stamp}-{kind}-{n}"
        if path.exists() and not path.is_dir():
            raise UsageError(f"--out {out}: exists and is not a directory")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create the run directory {path}: {e.strerror}") from None
        if (path / "run.json").is_file():
            run = cls.open(path)
        else:
            run = cls(path, {"run_schema": RUN_SCHEMA, "kind": kind, "started": utc_iso(),
                             "command": ["./scnfuzz"] + sys.argv[1:], "parts": []})
        run.save()
        run.point_latest()
        return run

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
        return cls(path, meta)

    def save(self):
        tmp = self.path / ".run.json.tmp"
        tmp.write_text(json.dumps(self.meta, indent=1) + "\n")
        os.replace(tmp, self.path / "run.json")

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
        with open(self.findings_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj, sort_keys=False) + "\n")
            f.flush()

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
        try:
            state = json.loads(state_p.read_text())
        except (OSError, ValueError):
            state = {}
        old, out = dict(state), []
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
            for raw in data[:end].splitlines():
                try:
                    obj = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(obj, dict):
                    obj["worker"] = worker
                    out.append(json.dumps(obj, sort_keys=False) + "\n")
            state[fp.name] = off + end + 1
        if not out and all(state.get(fp.name, 0) == old.get(fp.name, 0) for fp in files):
            return 0
        if out:
            with open(self.findings_path, "a", encoding="utf-8") as f:
                f.write("".join(out))
                f.flush()
        tmp = d / ".folded.json.tmp"
        tmp.write_text(json.dumps(state) + "\n")
        os.replace(tmp, state_p)
        return len(out)


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


def read_jsonl(path):
    """Objects of a JSON-lines file; a torn last line (killed writer) is skipped."""
    out = []
    try:
        with open(path, "rb") as f:
            for raw in f:
                raw = raw.strip()
                if not raw.startswith(b"{"):
                    continue
                try:
                    out.append(json.loads(raw.decode("utf-8", "replace")))
                except ValueError:
                    continue
    except FileNotFoundError:
        pass
    return out


class Timer:
    def __init__(self):
        self.t0 = time.monotonic()

    def elapsed(self):
        return time.monotonic() - self.t0
