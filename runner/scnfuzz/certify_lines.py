"""The vendored lines no case of a certification reached.

The vendored sources are compiled with clang's source-based coverage
(COMPILE_FLAGS) besides the sanitizers and libFuzzer's edges. The driver's
processes write their counters in continuous mode (`%c` in LLVM_PROFILE_FILE,
with -runtime-counter-relocation): the counters live in a file mapped shared
from the start, so a worker that dies (abort, a sanitizer report, a kill on a
time limit) or calls _exit() loses nothing, and the workers the supervisor
forks count into its file. After the phases, llvm-profdata merges the files
and llvm-cov lists, per line of code, how often it ran.
"""
import os
import pathlib
import re
import shutil
import subprocess

from .tree import ROOT

COMPILE_FLAGS = ["-fprofile-instr-generate", "-fcoverage-mapping", "-mllvm", "-runtime-counter-relocation"]
LINK_FLAGS = ["-fprofile-instr-generate"]
SHOWN = 200  # lines of source text the certificate quotes (all are listed by number)
# the project's own code a driver compiles with the vendored sources (a target's adapter and
# core/targets/matrix_adapter.h, under --target): not the vendored code whose lines are counted
PROJECT_DIRS = tuple(str(ROOT / d) + os.sep for d in ("core", "impl", "oracles", "programs", "fuzz"))


def profile_env(wd, phase):
    """The environment a driver's phase runs with: its counters' file."""
    return {"LLVM_PROFILE_FILE": str(wd / f"lines-{phase}-%c%p.profraw")}


def _tool(cc, name):
    """llvm-profdata / llvm-cov of the compiler's version (clang-14: llvm-cov-14)."""
    m = re.search(r"clang(-\d+)$", os.path.basename(cc))
    for cand in ([f"{name}{m.group(1)}"] if m else []) + [name]:
        path = shutil.which(cand)
        if path:
            return path
    return None


def not_measured(why):
    return {"measured": False, "why": why, "lines": 0, "reached": 0, "never_reached": 0, "files": []}


def measure(exe, wd, cc, sources):
    """{"measured", "lines", "reached", "never_reached", "files": [{"path",
    "lines", "never_reached": [line numbers], "text": {line: source}}]}: the
    lines of code of the vendored files (the sources and what they include,
    outside the system's headers and the project's own code) and those no
    process of the run executed."""
    if not sources:
        return not_measured("no vendored source: a library is linked as it is, without coverage")
    raws = sorted(pathlib.Path(wd).glob("lines-*.profraw"))
    if not raws:
        return not_measured("the driver wrote no coverage counters")
    profdata, cov = _tool(cc, "llvm-profdata"), _tool(cc, "llvm-cov")
    if not profdata or not cov:
        return not_measured(f"llvm-profdata or llvm-cov of {cc} not found")
    merged = pathlib.Path(wd) / "lines.profdata"
    p = subprocess.run([profdata, "merge", "-sparse", "-o", str(merged)] + [str(r) for r in raws],
                       capture_output=True, text=True)
    if p.returncode:
        return not_measured(f"llvm-profdata merge failed: {p.stderr.strip()[-300:]}")
    p = subprocess.run([cov, "export", "-format=lcov", f"-instr-profile={merged}", str(exe)],
                       capture_output=True, text=True)
    if p.returncode:
        return not_measured(f"llvm-cov export failed: {p.stderr.strip()[-300:]}")
    files = _parse_lcov(p.stdout)
    total = sum(f["lines"] for f in files)
    never = sum(len(f["never_reached"]) for f in files)
    _quote(files)
    return {"measured": True, "tool": f"clang source-based coverage, {os.path.basename(cov)}",
            "lines": total, "reached": total - never, "never_reached": never, "files": files}


def _parse_lcov(text):
    files, cur = [], None
    for line in text.splitlines():
        if line.startswith("SF:"):
            cur = {"path": line[3:], "lines": 0, "never_reached": []}
            if not cur["path"].startswith(("/usr/",) + PROJECT_DIRS):  # a system header's, an adapter's code
                files.append(cur)
        elif line.startswith("DA:") and cur is not None:
            num, _, count = line[3:].partition(",")
            cur["lines"] += 1
            if count.split(",")[0].strip() == "0":
                cur["never_reached"].append(int(num))
    for f in files:
        f["never_reached"].sort()
    return [f for f in files if f["lines"]]


def _quote(files):
    """The source text of the first SHOWN lines never reached."""
    left = SHOWN
    for f in files:
        f["text"] = {}
        if not left or not f["never_reached"]:
            continue
        try:
            src = pathlib.Path(f["path"]).read_text(errors="replace").splitlines()
        except OSError:
            continue
        for n in f["never_reached"][:left]:
            if 0 < n <= len(src):
                f["text"][str(n)] = src[n - 1].rstrip()[:160]
        left -= min(left, len(f["never_reached"]))


def headline(certified, lines):
    """The verdict's first line: never a plain CERTIFIED while a vendored
    line was never reached, or when the lines could not be counted."""
    if not certified:
        return "NOT CERTIFIED"
    if not lines["measured"]:
        return f"CERTIFIED, its lines not measured ({lines['why']})"
    n = lines["never_reached"]
    return "CERTIFIED" if not n else f"CERTIFIED, {n} line{'' if n == 1 else 's'} never reached"
