"""Finding (and, on first use, building) the C tools through the CMake presets.

Tools and where they come from:
  scn-conform, scn-replay   $SCN_BUILD_DIR when it holds them (the tests point it
                            at build/asan), else build/default (preset "default")
  fuzz_* (libFuzzer)        $SCN_FUZZ_BUILD_DIR, else build/fuzz (preset "fuzz")
  libscn_casetext.so        as scn-conform (never sanitized; casetext.py loads it)
A missing build directory is configured with `cmake --preset P`; a missing or
stale tool is built with `cmake --build build/P --target T` (progress on stderr).
"""
import os
import pathlib
import shutil
import signal
import subprocess
import sys

from . import children, fuzzers
from .errors import SetupError
from .tree import ROOT

TOOL_SUBDIR = {"scn-conform": "programs", "scn-replay": "fuzz", "libscn_casetext.so": "core",
               "libscn_certify.a": "programs/certify"}
# CMake target, where not the file's name
TOOL_TARGET = {"libscn_casetext.so": "scn_casetext", "libscn_certify.a": "scn_certify"}
FUZZERS = fuzzers.NAMES
_checked = set()


def _say(msg):
    sys.stderr.write(f"scnfuzz: {msg}\n")
    sys.stderr.flush()


def _locate(bdir, name):
    sub = TOOL_SUBDIR.get(name, "fuzz")
    usable = lambda q: q.is_file() and (name.endswith(".a") or os.access(q, os.X_OK))  # an archive: a file
    p = bdir / sub / name
    if usable(p):
        return p
    if bdir.is_dir():
        for q in sorted(bdir.rglob(name)):
            if usable(q) and "CMakeFiles" not in q.parts:
                return q
    return None


def _run_progress(cmd, what, log):
    """Runs a build command, its output into log; once real work starts (a
    compile or link step), shows Ninja's [n/m] progress."""
    tty = sys.stderr.isatty()
    announced = False
    with open(log, "ab") as lf:
        lf.write(("$ " + " ".join(cmd) + "\n").encode())
        # the build dies with scnfuzz (no compiler left running after a Ctrl-C or a kill);
        # no memory or time limit: a build is not the code under test
        p = subprocess.Popen(children.launch_argv(cmd, sig=signal.SIGTERM), cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        last_shown = -1
        for raw in p.stdout:
            lf.write(raw)
            line = raw.decode("utf-8", "replace").rstrip()
            if not (line.startswith("[") and "]" in line):
                continue
            step, rest = line[1:].split("]", 1)
            try:
                n, m = (int(x) for x in step.split("/"))
            except ValueError:
                continue
            if not announced:
                if "Building" not in rest and "Linking" not in rest and "Performing" not in rest:
                    continue
                announced = True
                _say(f"{what} (log: {os.path.relpath(log, os.getcwd())}) ...")
            if tty:
                sys.stderr.write(f"\r\x1b[Kscnfuzz: {what} [{n}/{m}] {rest.strip()[:60]}")
            else:
                pct = n * 100 // max(1, m)
                if n == m or pct // 20 > last_shown:
                    last_shown = pct // 20
                    _say(f"{what} [{n}/{m}]")
        rc = p.wait()
    if tty and announced:
        sys.stderr.write("\r\x1b[K")
    return rc


def _ensure_configured(preset, bdir):
    if (bdir / "CMakeCache.txt").is_file() and (bdir / "build.ninja").is_file():
        return
    if not shutil.which("cmake"):
        raise SetupError("cmake not found: run `bash ci/setup.sh` (as root) first")
    _say(f"configuring build/{preset} (cmake --preset {preset}) ...")
    bdir.mkdir(parents=True, exist_ok=True)
    log = bdir.parent / f"scnfuzz-{preset}-build.log"
    if _run_progress(["cmake", "--preset", preset], "configure", log):
        raise SetupError(f"`cmake --preset {preset}` failed (log: {log}); run `bash ci/setup.sh` and retry")


def build_dir_for(preset):
    env = "SCN_FUZZ_BUILD_DIR" if preset == "fuzz" else "SCN_BUILD_DIR"
    return os.environ.get(env)


def tool(name, preset="default", build=True):
    """Path of a built tool; builds it through the preset when needed."""
    override = build_dir_for(preset)
    if override:
        p = _locate(pathlib.Path(override), name)
        if p:
            return p
    bdir = ROOT / "build" / preset
    p = _locate(bdir, name)
    key = (preset, name)
    if key in _checked and p:
        return p
    if not build:
        if p:
            return p
        raise SetupError(f"{name} is not built: run `cmake --preset {preset} && cmake --build build/{preset}`")
    _ensure_configured(preset, bdir)
    log = ROOT / "build" / f"scnfuzz-{preset}-build.log"
    rc = _run_progress(["cmake", "--build", str(bdir), "--target", TOOL_TARGET.get(name, name),
                        "-j", str(jobs_default())],
                       f"building {name} in build/{preset}", log)
    p = _locate(bdir, name)
    if rc and not p:
        raise SetupError(f"cannot build {name} in build/{preset} (log: {log}); "
                         f"run `bash ci/setup.sh`, then `cmake --build build/{preset} --target {name}`")
    if rc:
        _say(f"warning: rebuilding {name} failed (log: {log}); using the existing binary")
    _checked.add(key)
    return p


def jobs_default():
    return max(1, min(2, os.cpu_count() or 1))


def afl_tool(name):
    """A fuzzer built for AFL++: the `afl` preset (afl-clang-fast with
    SCN_FUZZ=ON: AFL++ turns -fsanitize=fuzzer into its libFuzzer-compatible
    driver; no in-process musl target). $SCN_AFL_BUILD_DIR overrides the
    directory."""
    if not shutil.which("afl-fuzz") or not shutil.which("afl-clang-fast"):
        raise SetupError("afl-fuzz/afl-clang-fast not found: run `bash ci/setup.sh` (installs afl++)")
    override = os.environ.get("SCN_AFL_BUILD_DIR")
    bdir = pathlib.Path(override) if override else ROOT / "build" / "afl"
    p = _locate(bdir, name)
    if override and p:
        return p
    log = ROOT / "build" / "scnfuzz-afl-build.log"
    if not (bdir / "build.ninja").is_file():
        _say(f"configuring {bdir} (preset afl) ...")
        bdir.mkdir(parents=True, exist_ok=True)
        if _run_progress(["cmake", "-S", str(ROOT), "--preset", "afl", "-B", str(bdir)], "configure", log):
            raise SetupError(f"configuring the AFL++ build failed (log: {log})")
    rc = _run_progress(["cmake", "--build", str(bdir), "--target", name, "-j", str(jobs_default())],
                       f"building {name} in {bdir.name} (AFL++)", log)
    p = _locate(bdir, name)
    if rc and not p:
        raise SetupError(f"cannot build {name} for AFL++ (log: {log})")
    return p


# Certification's library (programs/certify/CMakeLists.txt) is built where the
# sanitizers are (the asan preset): $SCN_BUILD_DIR's or build/asan's when
# configured, else build/certify-lib, the asan preset without what a driver does
# not link (no kernel, musl or matrix source fetched at configure time: a CI
# job or a pre-commit clone certifying one file builds the library alone).
CERTIFY_LEAN = ["-DSCN_WITH_KERNEL=OFF", "-DSCN_WITH_MUSL=OFF", "-DSCN_WITH_MATRIX=OFF", "-DSCN_BUILD_TESTS=OFF"]


def certify_library():
    name = "libscn_certify.a"
    override = build_dir_for("asan")
    p = _locate(pathlib.Path(override), name) if override else None
    if p:
        return p
    if (ROOT / "build" / "asan" / "build.ninja").is_file():
        return tool(name, preset="asan")
    bdir = ROOT / "build" / "certify-lib"
    log = ROOT / "build" / "scnfuzz-certify-lib-build.log"
    if not (bdir / "build.ninja").is_file():
        _say(f"configuring {bdir} (preset asan, the certification library only) ...")
        bdir.mkdir(parents=True, exist_ok=True)
        if _run_progress(["cmake", "-S", str(ROOT), "--preset", "asan", "-B", str(bdir)] + CERTIFY_LEAN,
                         "configure", log):
            raise SetupError(f"configuring {bdir} failed (log: {log}); run `bash ci/setup.sh` and retry")
    rc = _run_progress(["cmake", "--build", str(bdir), "--target", TOOL_TARGET[name], "-j", str(jobs_default())],
                       f"building {name} in {bdir.name}", log)
    p = _locate(bdir, name)
    if rc and not p:
        raise SetupError(f"cannot build {name} in {bdir} (log: {log})")
    return p
