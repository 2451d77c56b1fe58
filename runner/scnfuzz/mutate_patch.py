"""`scnfuzz mutate --patch FILE.diff`: one re-introduced bug through the
pipeline of the mutants (mutate_run.py): the diff applied with patch -p1 at
the source package's root in the mutation build, the corpus until the first
failing result the unmodified target does not have, then a campaign of
--time seconds from the seeds whose findings count only when the unmodified
target's scn-replay (a copy made before the patch) does not fail the same
way. With --json the last line of stdout is
{"found", "stage", "seconds", "executions", "signature"}: seconds and
executions are the stages' (corpus results checked, then fuzzer executions),
the builds and the baseline left out. Exit 0 found or not; 2 when the diff
does not apply (the file and hunk named)."""
import json
import os
import re
import shutil
import subprocess
import time

from . import mutate_report, mutate_run
from .errors import SetupError, UsageError
from .mutate import Session, _say
from .runs import Run

_HUNK_FAILED = re.compile(r"Hunk #(\d+) FAILED at (\d+)")
_PATCHING = re.compile(r"^(?:patching|checking) file (.+)$", re.M)


def patch_files(root, diff):
    """The files a diff changes, by a dry run of patch -p1 at root; a diff
    that does not apply is a usage error naming the file and the hunk."""
    cmd = ["patch", "-p1", "--dry-run", "--batch", "--forward", "-r", "-", "-d", str(root), "-i", str(diff)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise SetupError("patch not found: run `bash ci/setup.sh` (apt-get install patch)") from None
    out = p.stdout + p.stderr
    files = [f.strip().strip("'\"") for f in _PATCHING.findall(out)]
    if p.returncode != 0 or not files:
        raise UsageError(f"--patch {diff} does not apply at {root} (patch -p1): {_patch_problem(out, files)}")
    return files


def _patch_problem(out, files):
    problems, current = [], None
    for line in out.splitlines():
        m = _PATCHING.match(line)
        if m:
            current = m.group(1).strip().strip("'\"")
            continue
        m = _HUNK_FAILED.search(line)
        if m:
            problems.append(f"{current}: hunk #{m.group(1)} FAILED at line {m.group(2)}")
        elif "can't find file to patch" in line or "No file to patch" in line:
            problems.append("a file it names is not in the source package (can't find file to patch)")
        elif "Reversed (or previously applied) patch detected" in line:
            problems.append(f"{current}: reversed or already applied")
        elif "Only garbage" in line or "malformed patch" in line:
            problems.append(f"not a unified diff ({line.strip()})")
    if not problems:
        problems.append(" ".join(out.split())[:300] or "patch found nothing to apply")
    return "; ".join(dict.fromkeys(problems))


def run_patch(args):
    diff = os.path.abspath(args.patch)
    if not os.path.isfile(diff):
        raise UsageError(f"--patch {args.patch}: no such file")
    with Session(args) as s:
        b = s.build
        b.sync_tree()
        b.configure()
        b.restore_all()  # the unmodified source: the baseline and the original replayer
        # built before the dry run: a fresh build fetches and unpacks the source (the kernel's
        # lib/vsprintf.c is extracted at build time) that the diff is checked against
        b.build()
        root = b.source_root()
        files = patch_files(root, diff)
        corpus = mutate_run.Corpus(s.subject.corpus_files(), s.subject.unrepeatable)
        cs = s.conform_stage(corpus)
        env0 = dict(os.environ, SCN_MUTANT="0")
        _say(f"baseline: the corpus on the unmodified {s.subject.name}")
        cs.baseline(env0, reach=False)
        original_replay = s.work / "original-scn-replay"
        shutil.copy2(b.tool("scn-replay"), original_replay)
        cs.original_replay = str(original_replay)  # (cs.replay is the build's: patched below)
        created = [root / f for f in files if not (root / f).exists()]
        for f in files:
            if (root / f).is_file():
                b.original(root / f)
        run = Run.create("mutate", args.out)
        try:
            subprocess.run(["patch", "-p1", "--batch", "--forward", "-r", "-", "--no-backup-if-mismatch",
                            "-d", str(root), "-i", diff], capture_output=True, check=True, timeout=120)
            _say(f"patched {', '.join(files)}; building")
            b.build()
            t0 = time.monotonic()
            o = cs.run("patch", env0)
            if o.status == "survived" and not s.interrupted:
                conform_execs = o.executions
                _say(f"not found by the corpus ({conform_execs:,} results); campaign of {args.time:g} s")
                fz = s.fuzz_stage(mutate_run.Original(original_replay, env0), shared=False)
                o = fz.run("patch", env0, args.time)
                o.executions += conform_execs
            seconds = time.monotonic() - t0
        except mutate_run.Cancelled:
            raise KeyboardInterrupt() from None
        finally:
            b.restore_all()
            for c in created:
                try:
                    c.unlink()
                except OSError:
                    pass
        if o.status == "error":
            raise SetupError(f"--patch: {o.stage} stage failed: {o.detail}")
        found = o.status == "killed"
        result = {"found": found, "stage": o.stage if found else None, "seconds": round(seconds, 3),
                  "executions": int(o.executions), "signature": o.signature if found else None}
        mutate_report.write_patch(run, s.subject, diff, files, o, result, cs)
        if found:
            print(f"found by {o.stage}: {o.signature} ({o.where}; {o.case}) in {seconds:.1f} s, "
                  f"{o.executions:,} executions")
        else:
            print(f"not found: the corpus and a {args.time:g}-s campaign pass as on the unmodified "
                  f"{s.subject.name} ({o.executions:,} executions, {seconds:.1f} s)")
        print(f"report: {run.path / 'report.md'}")
        if args.json:
            print(json.dumps(result))
        return 0
