"""`scnfuzz certify`: certify a vendored snprintf/vsnprintf/scnprintf/vscnprintf.

Builds the named function with ASan+UBSan (and edge coverage) into the
driver programs/certify/scn_certify.c through a generated adapter, then runs,
in order: the conformance corpus at every buffer size, the return-value
suite of its kind, a coverage-guided differential campaign against the
reference of its dialect. Each phase runs in a supervised driver (per-call
time and memory limits, a fault budget) and must account for every case it
planned. With --target NAME --reuse RUN (`scnfuzz matrix` does so), the
conformance results and the campaign are read from RUN, the target's own
scn-conform and fuzz_matrix runs, and only the return-value suite runs here
(certify_reuse.py). Writes certificate.json/.md/.html (and the runner's
report.json/.md/.html/junit.xml) into --out.
Exit: 0 certified, 1 not certified (reasons listed), 2 usage/build/set-up error.
"""
import argparse
import collections
import hashlib
import json
import math
import os
import pathlib
import re
import selectors
import shlex
import signal
import subprocess
import sys
import time

from . import anylibc, build, certify_cache, certify_lines, certify_reuse, children, oracle_registry, scan_profile, targets
from .errors import ScnError, SetupError, UsageError
from .render_common import case_named
from .render_html import certificate_html
from .render_md import certificate_md
from .runs import Run, utc_iso

ROOT = build.ROOT
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
# the vendored code's instrumentation for libFuzzer: edge counters and comparisons
FUZZ_COV = ["-fsanitize=fuzzer-no-link"]
BASE = ["-O1", "-g", "-Wall", "-Wextra", "-Werror"]
KINDS = {"vsnprintf": 0, "snprintf": 1, "vscnprintf": 2, "scnprintf": 3}
# the oracles of the truncation semantics: the registry's per-size ones (oracles/oracles.def), and a
# call that dies or does not return at some buffer size
TRUNC_ORACLES = set(oracle_registry.named("per-size")) | {"crash", "hang"}
# decode flags of core/case/case.h (SCN_DECODE_*) by what --categories leaves out
DEC_NO_FLOAT, DEC_NO_POS, DEC_NO_WIDE, DEC_NO_N = 1 << 2, 1 << 3, 1 << 4, 1 << 5


class BuildError(ScnError):
    pass


# options whose values are compiler/linker flags: `--ldflags -ltrio` is given to
# argparse as `--ldflags=-ltrio` (it takes a separate value starting with '-' for an option)
FLAG_OPTIONS = ("--cflags", "--ldflags", "--profile-scan")


def attach_flag_values(argv):
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return out + argv[i:]
        if a in FLAG_OPTIONS and i + 1 < len(argv):
            out.append(f"{a}={argv[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def parse_args(argv):
    return make_parser().parse_args(attach_flag_values(list(argv)))


def make_parser():
    p = argparse.ArgumentParser(prog="scnfuzz certify", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", metavar="NAME",
                   help="an in-process target of the build (./scnfuzz targets): its adapter and vendored "
                        "sources, objects and libraries as CMake built it (<build>/certify/NAME.recipe); "
                        "replaces --source, --include, --cflags, --ldflags, --function and --kind")
    p.add_argument("--source", action="append", default=[], metavar="FILE.c")
    p.add_argument("--include", action="append", default=[], metavar="DIR")
    p.add_argument("--cflags", default="", metavar="FLAGS", help="compiler flags (shell words; may start with '-')")
    p.add_argument("--ldflags", default="", metavar="FLAGS", help="linker flags, e.g. --ldflags -ltrio")
    p.add_argument("--function", metavar="NAME")
    p.add_argument("--kind", choices=sorted(KINDS))
    p.add_argument("--dialect", choices=["iso", "kernel"],
                   help="default: kernel for scnprintf/vscnprintf, iso otherwise")
    p.add_argument("--categories", metavar="LIST",
                   help="comma list of corpus categories (or prefixes: int, float.f, ...) the claim covers")
    p.add_argument("--time", type=float, default=60.0, metavar="SECONDS", help="fuzzing time (default 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--allow-as", metavar="TARGET",
                   help="apply the rules of this target: the allowances (oracles/allowances.tsv) and its known "
                        "bugs and gaps (oracles/known_bugs.tsv), e.g. glibc for a wrapper over glibc's vsnprintf; "
                        "what it inherits is listed in the certificate")
    p.add_argument("--call-limit", type=float, default=1.0, metavar="SECONDS",
                   help="time limit of one call of the function (default 1, plus 1 s per MB of output)")
    p.add_argument("--fault-budget", type=float, default=30.0, metavar="SECONDS",
                   help="time fatal cases (timeouts, their reductions) may cost before the phases stop (default 30)")
    p.add_argument("--phase-limit", type=float, default=600.0, metavar="SECONDS",
                   help="wall-time limit of the conformance and return-value phases (default 600)")
    p.add_argument("--profile", metavar="FILE",
                   help="certify for these format features only: a `./scnfuzz scan` report.json or its --profile JSON "
                        "(conformance cases and campaign inputs that use only them; the certificate counts the "
                        "call sites and formats, or names the call sites a failure reaches)")
    p.add_argument("--profile-from", action="append", default=[], metavar="SRC",
                   help="the same, the profile of C sources scanned here (files or directories; repeatable)")
    p.add_argument("--profile-scan", default="", metavar="ARGS",
                   help="options of the scan of --profile-from (shell words: -I DIR, -D NAME, --kernel TREE)")
    p.add_argument("--profile-functions", metavar="LIST",
                   help="only the call sites of these functions (comma list, as written or after macro expansion: "
                        "scnprintf,vscnprintf), from --profile-from or a --profile report.json")
    p.add_argument("--reuse", metavar="RUN",
                   help="with --target: the conformance results and the campaign of a run of the same target (a "
                        "matrix implementation's RUN/impl/NAME: `scnfuzz conform --target NAME`, then `scnfuzz fuzz "
                        "--fuzzer fuzz_matrix`) are read, not run again; the driver runs the return-value suite "
                        "(runner/scnfuzz/certify_reuse.py says what differs)")
    p.add_argument("--out", metavar="DIR")
    return p


def _sha(p):
    return hashlib.sha256(pathlib.Path(p).read_bytes()).hexdigest()


def _compile(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        raise BuildError(f"build failed: {' '.join(shlex.quote(c) for c in cmd)}\n{p.stderr.strip()[-3000:]}")


def driver_library():
    """The project's side of the driver: the CMake library scn_certify
    (programs/certify/CMakeLists.txt) of an asan-like build, built like any
    tool (build.certify_library), and its link, <build>/certify/driver.link: the compiler
    it was built with (the vendored code must share its sanitizer runtime),
    the archives and libraries a driver links and the link's options."""
    lib = build.certify_library()
    link = lib.parents[2] / "certify" / "driver.link"
    if not link.is_file():
        raise SetupError(f"{link} is missing: reconfigure {lib.parents[2]} (cmake --preset asan)")
    out = {"compiler": None, "archive": [], "lib": [], "option": []}
    for line in link.read_text().splitlines():
        kind, _, value = line.partition("\t")
        if kind == "compiler":
            out["compiler"] = value
        elif kind in out:
            out[kind].append(value)
    if not out["compiler"] or not out["archive"]:
        raise SetupError(f"{link}: no compiler or archive line")
    return out


def target_recipe(args):
    """--target NAME: certify's options from the recipe CMake wrote for the
    target (core/targets/matrix/matrix_target.cmake, scn_certify_recipe):
    its C files with their definitions and include directories, its
    prebuilt objects and libraries; the function is the target's entry (its
    struct scn_target), of kind vscnprintf when its api has no C99 family."""
    given = [o for o in ("source", "include", "function", "kind") if getattr(args, o)] + \
        [o for o in ("cflags", "ldflags") if getattr(args, o)]
    if given:
        raise UsageError(f"--target {args.target}: --{given[0]} comes from the target's recipe; leave it out")
    conform = build.tool("scn-conform")
    t = {x["name"]: x for x in targets.list_targets(conform)}.get(args.target)
    recipe = pathlib.Path(conform).parent.parent / "certify" / f"{args.target}.recipe"
    if not t or not recipe.is_file():
        names = sorted(p.stem for p in recipe.parent.glob("*.recipe"))
        raise UsageError(f"--target {args.target}: no such in-process target with a recipe in this build "
                         f"(these have one: {', '.join(names) or 'none'})")
    defs, libs = [], []
    for line in recipe.read_text().splitlines():
        kind, _, value = line.partition("\t")
        if kind == "source":
            args.source.append(value)
        elif kind == "include":
            args.include.append(value)
        elif kind == "define":
            defs.append("-D" + value)
        elif kind in ("object", "lib"):
            libs.append(value)
    args.cflags = shlex.join(defs)
    args.ldflags = shlex.join(libs)
    args.kind = "vsnprintf" if t["api"] == "c99" else "vscnprintf"
    args.dialect = args.dialect or t["dialect"]
    # what the certificate names: the entry in the target's struct
    args.function = f"scn_target_{args.target.replace('-', '_')}.{'vsnprintf' if args.kind == 'vsnprintf' else 'vscnprintf'}"
    return t


def adapter_source(name, kind, dialect, target=None):
    if target:  # the target's entry, through its struct scn_target (core/targets/target.h)
        c = target.replace("-", "_")
        fn = "vsnprintf" if kind == "vsnprintf" else "vscnprintf"
        return f"""/* generated by scnfuzz certify: the adapter of target {target} ({kind}, {dialect}) */
#include <stdarg.h>
#include <stddef.h>
#include "target.h"
extern const struct scn_target scn_target_{c};
static int entry(char *buf, size_t size, const char *fmt, va_list ap)
{{
    return scn_target_{c}.{fn}(buf, size, fmt, ap);
}}
const int scn_cert_kind = {KINDS[kind]};
const int scn_cert_dialect = {1 if dialect == 'kernel' else 0};
const char scn_cert_name[] = "{target}";
int (*const scn_cert_vfn)(char *, size_t, const char *, va_list) = entry;
int (*const scn_cert_fn)(char *, size_t, const char *, ...) = NULL;
"""
    variadic = kind in ("snprintf", "scnprintf")
    proto = "..." if variadic else "va_list"
    return f"""/* generated by scnfuzz certify: the adapter of {name} ({kind}, {dialect}) */
#include <stdarg.h>
#include <stddef.h>
int {name}(char *buf, size_t size, const char *fmt, {proto});
const int scn_cert_kind = {KINDS[kind]};
const int scn_cert_dialect = {1 if dialect == 'kernel' else 0};
const char scn_cert_name[] = "{name}";
int (*const scn_cert_vfn)(char *, size_t, const char *, va_list) = {'NULL' if variadic else name};
int (*const scn_cert_fn)(char *, size_t, const char *, ...) = {name if variadic else 'NULL'};
"""


# The adapter's coverage of a campaign input's own bytes, for a library alone
# (compiled with FUZZ_COV): each byte's class an edge, so that libFuzzer keeps
# inputs of new shapes in its corpus where the code under test shows none.
INPUT_SHAPE = """
unsigned long scn_cert_input_classes[4];
void scn_cert_input_shape(const unsigned char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = data[i];
        if (b < 0x20) scn_cert_input_classes[0]++;
        else if (b < 0x40) scn_cert_input_classes[1]++;
        else if (b < 0x80) scn_cert_input_classes[2]++;
        else scn_cert_input_classes[3]++;
    }
}
"""


def build_driver(args, dialect, wd):
    """The driver program: for a --target, the one built before while it is
    up to date (certify_cache.py), else built here (in the cache for a
    --target, in the run's build directory for --source code)."""
    lib = driver_library()
    cc = lib["compiler"]
    for s in args.source:
        if not os.path.isfile(s):
            raise BuildError(f"--source {s}: no such file")
    if not args.target and not args.function.isidentifier():
        raise UsageError(f"--function {args.function!r} is not a C identifier")
    user = shlex.split(args.cflags) + [f"-I{os.path.abspath(i)}" for i in args.include]
    cov = FUZZ_COV + certify_lines.COMPILE_FLAGS
    binfo = {"compiler": _cc_version(cc), "cc": cc, "cflags": " ".join(["-g", "-O1"] + SAN + cov + user),
             "ldflags": args.ldflags, "driver_library": lib["archive"][0]}
    if not args.target:
        return _link_driver(args, dialect, lib, user, wd), binfo | {"cached": False}
    key = [binfo["compiler"], cc, user, args.source, args.ldflags, lib, args.function, args.kind, dialect,
           adapter_source(args.function, args.kind, dialect, args.target), INPUT_SHAPE, SAN, cov, BASE]
    cache = certify_cache.DriverCache(pathlib.Path(lib["archive"][0]).parents[2], args.target, key)
    with cache.lock():
        if cache.up_to_date():
            return cache.exe, binfo | {"cached": True, "driver": str(cache.exe)}
        cache.invalidate()
        exe = _link_driver(args, dialect, lib, user, cache.dir)
        cache.store(sorted(cache.dir.glob("*.d")), lib["archive"] + [w for w in shlex.split(args.ldflags)
                                                                    if w.startswith("/")])
    return exe, binfo | {"cached": False, "driver": str(exe)}


def _link_driver(args, dialect, lib, user, bd):
    """Compiles the vendored sources and the adapter in bd, links bd/scn-certify."""
    cc = lib["compiler"]
    (bd / "adapter.c").write_text(adapter_source(args.function, args.kind, dialect, args.target))
    cov = FUZZ_COV + certify_lines.COMPILE_FLAGS
    uobjs = []
    for i, s in enumerate(args.source):
        o = bd / f"src{i}.o"
        _compile([cc, "-g", "-O1"] + SAN + cov + user + ["-MD", "-MF", str(bd / f"src{i}.d"),
                                                          "-c", os.path.abspath(s), "-o", str(o)], bd)
        uobjs.append(o)
    if not uobjs:  # a library alone: no edge of it can be seen (cert_state.h, scn_cert_input_shape)
        with open(bd / "adapter.c", "a") as f:
            f.write(INPUT_SHAPE)
    _compile([cc, "-std=gnu11"] + BASE + ([] if uobjs else FUZZ_COV) +
             [f"-I{ROOT / 'core/targets'}", f"-I{ROOT / 'core/case'}", "-MD", "-MF", str(bd / "adapter.d"), "-c",
              str(bd / "adapter.c"), "-o", str(bd / "adapter.o")], bd)
    exe = bd / "scn-certify"
    # the archives as one group: each may refer to any other
    _compile([cc] + SAN + lib["option"] + [str(o) for o in uobjs] + [str(bd / "adapter.o")]
             + ["-Wl,--start-group"] + lib["archive"] + ["-Wl,--end-group"]
             + shlex.split(args.ldflags) + [_fuzzer_runtime(cc), "-lstdc++"] + lib["lib"]
             + (certify_lines.LINK_FLAGS if uobjs else []) + ["-o", str(exe)], bd)
    return exe


def _fuzzer_runtime(cc):
    """libFuzzer without its main(): the driver's fuzz worker runs it
    (LLVMFuzzerRunDriver, programs/certify/cert_fuzz.c)."""
    p = subprocess.run([cc, "--print-runtime-dir"], capture_output=True, text=True)
    lib = pathlib.Path(p.stdout.strip()) / "libclang_rt.fuzzer_no_main-x86_64.a"
    if p.returncode or not lib.is_file():
        raise SetupError(f"{cc} has no libFuzzer runtime ({lib}): certification's campaign needs it")
    return str(lib)


def fuzz_seeds(dialect, corpus_dir):
    """The campaign starts from the shipped differential fuzzer's seeds of the
    dialect (corpus/fuzz/fuzz_iso_diff or fuzz_kernel_diff), without their
    control byte (fuzz/fuzz_core.h): what is left is scn_case_from_bytes'
    input, the driver's."""
    src = ROOT / "corpus" / "fuzz" / ("fuzz_kernel_diff" if dialect == "kernel" else "fuzz_iso_diff")
    corpus_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    for f in sorted(src.glob("*")) if src.is_dir() else []:
        data = f.read_bytes()
        if f.is_file() and len(data) > 1:
            (corpus_dir / f"seed-{f.name}").write_bytes(data[1:])
            n += 1
    return n


_C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_C_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, '"': 34, "'": 39, "?": 63}
_CONVERSION = re.compile(r"%[-+ #0-9.*$hlLjztqwf]*[a-zA-Z%]")


def _c_unescape(body):
    out, i = bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode()
            i += 1
            continue
        e = body[i + 1]
        m = re.match(r"x([0-9a-fA-F]{1,2})|([0-7]{1,3})", body[i + 1:])
        if m:
            out.append(int(m.group(1), 16) if m.group(1) else int(m.group(2), 8) & 0xff)
            i += 1 + len(m.group(0))
        else:
            out.append(_C_ESCAPES.get(e, ord(e) & 0xff))
            i += 2
    return bytes(out)


def fuzz_dictionary(sources, path):
    """A libFuzzer dictionary of the vendored code's string constants, in
    the decoder's encoding (core/case/case_decode.c: a literal run is one op
    byte, (length - 1) below 16, then its bytes): the text between the
    conversions of each constant, so that a format the code compares with
    (strcmp) is one insertion away once its conversions are there. Returns
    the number of entries (0: no file written)."""
    tokens = set()
    for src in sources:
        try:
            text = pathlib.Path(src).read_text(errors="replace")
        except OSError:
            continue
        for m in _C_STRING.finditer(text):
            for part in _CONVERSION.split(_c_unescape(m.group(1)).decode("latin-1")):
                raw = part.encode("latin-1").replace(b"\0", b"")
                for i in range(0, len(raw), 16):
                    chunk = raw[i:i + 16]
                    if chunk:
                        tokens.add(bytes([len(chunk) - 1]) + chunk)
    if not tokens:
        return 0
    esc = lambda b: "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\x{c:02x}" for c in b)
    path.write_text("".join(f'"{esc(t)}"\n' for t in sorted(tokens)[:2000]))
    return min(len(tokens), 2000)


def _cc_version(cc):
    p = subprocess.run([cc, "--version"], capture_output=True, text=True)
    return p.stdout.splitlines()[0] if p.returncode == 0 and p.stdout else cc


# ---------------------------------------------------------------- one phase

GRACE = 30.0          # seconds the runner waits past the driver's own limits before stopping it
REDUCE_SECONDS = 10.0  # the driver's bound on one fatal finding's reduction (cert_state.h)


class Phase:
    """What one run of the driver said: its plan, result and finding lines,
    its end record, and how it ended."""

    def __init__(self, name):
        self.name = name
        self.plan = None
        self.end = None
        self.lines = []       # result / finding lines, in order
        self.errors = []      # {"error": ...} lines
        self.bad = []         # lines that are not JSON objects (excerpts)
        self.rc = None
        self.killed = False
        self.skipped = None   # why it was not run
        self.stdout = self.stderr = None
        self.seconds = 0.0
        self.reused = None    # where its lines were read from (--reuse), not run by the driver

    def results(self):
        """One line per planned case, by index (a fatal line wins: a fork
        seen after a case's line is written gives a second line)."""
        res = {}
        for r in self.lines:
            i = r.get("index")
            if isinstance(i, int) and (i not in res or r.get("fatal")):
                res[i] = r
        return [res[i] for i in sorted(res)]


def _stop(p):
    """SIGTERM to the driver (it kills its worker and writes its end), then SIGKILL."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def run_driver(exe, name, argv, wd, opts, timeout):
    """Runs one phase. The protocol is a pipe of its own (the driver's --fd),
    read whole line by line with no length limit (kept as NAME.protocol);
    what the function prints goes to NAME.stdout / NAME.stderr, sanitizer
    reports to sanitizer-NAME.<pid>."""
    ph = Phase(name)
    ph.stdout, ph.stderr = wd / f"{name}.stdout", wd / f"{name}.stderr"
    sanlog = wd / f"sanitizer-{name}"
    # quoted: the sanitizers' option parser ends a bare value at ',' ':' or a space
    quote = "'" if '"' in str(sanlog) else '"'
    if quote in str(sanlog):
        raise UsageError(f"{wd}: a directory whose path has both kinds of quote cannot take the sanitizers' "
                         "reports (their options quote a path with one of them): choose another --out")
    logopt = f"log_path={quote}{sanlog}{quote}"
    env = dict(os.environ, ASAN_OPTIONS=logopt,
               UBSAN_OPTIONS=f"{logopt}:print_stacktrace=1:halt_on_error=1",
               **certify_lines.profile_env(wd, name))
    r, w = os.pipe()
    cmd = [str(exe), "--fd", str(w), "--sanitizer-log", str(sanlog)] + opts + argv
    t0 = time.monotonic()
    try:
        # readable too: the driver quotes what the function wrote in its finding
        with open(ph.stdout, "w+b") as out, open(ph.stderr, "w+b") as err:
            # dies with us (SIGTERM: it kills its worker first); its memory
            # limits are its own, per case (a sanitizer build cannot take RLIMIT_AS)
            p = children.popen(cmd, cwd=wd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, pass_fds=(w,),
                               env=env, mem=False, sig=signal.SIGTERM)
    finally:
        os.close(w)
    buf = b""
    sel = selectors.DefaultSelector()
    sel.register(r, selectors.EVENT_READ)
    gone_at = None
    raw_log = open(wd / f"{name}.protocol", "wb")
    try:
        while True:
            now = time.monotonic()
            if gone_at is None and p.poll() is not None:
                gone_at = now
            if gone_at is not None and now - gone_at > 5:
                break  # the driver is gone; something it left holds the pipe
            if now - t0 > timeout and not ph.killed:
                ph.killed = True
                _stop(p)
            if not sel.select(0.5):
                continue
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            buf += chunk
            raw_log.write(chunk)
            if b"\n" in chunk:
                *whole, buf = buf.split(b"\n")
                for raw in whole:
                    _take(ph, raw)
    except BaseException:  # interrupted: the driver and its workers go too
        _stop(p)
        raise
    finally:
        raw_log.close()
        sel.close()
        os.close(r)
        try:  # the pipe closes as the driver exits: give it the rest of its time
            p.wait(max(5.0, t0 + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            ph.killed = True
            _stop(p)
        ph.rc = p.wait()
    if buf:
        ph.bad.append("(a line cut short) " + buf[:120].decode("utf-8", "replace"))
    ph.seconds = round(time.monotonic() - t0, 3)
    return ph


def _take(ph, raw):
    try:
        obj = json.loads(raw)
    except ValueError:
        obj = None
    if not isinstance(obj, dict):
        ph.bad.append(raw[:120].decode("utf-8", "replace"))
    elif "plan" in obj:
        ph.plan = obj["plan"]
    elif "end" in obj:
        ph.end = obj["end"]
    elif "error" in obj:
        ph.errors.append(str(obj["error"]))
    elif obj.get("source") == "certify" and "signature" in obj:  # a finding record, the line itself
        ph.lines.append({"phase": obj.get("phase"), "oracle": obj.get("oracle"), "class": obj.get("classification"),
                         "case": obj.get("original_case"), "signature": obj.get("signature"),
                         "detail": obj.get("detail"), "execs": obj.get("execs"), "finding": obj})
    else:
        ph.lines.append(obj)


def _tail(path, n=300):
    try:
        t = path.read_bytes().decode("utf-8", "replace").strip()
    except (OSError, AttributeError):
        return ""
    return t[-n:]


def account(ph, time_planned=None):
    """Why phase ph does not count, if it does not: every planned case read
    back (or the fuzz phase's whole time run), an end record, exit 0."""
    if ph.skipped:
        return [f"phase {ph.name} not run: {ph.skipped}"]
    out = []
    if ph.bad:
        out.append(f"phase {ph.name}: {len(ph.bad)} unreadable line(s) on the driver's protocol "
                   f"(first: {ph.bad[0]!r})")
    for e in ph.errors[:3]:
        out.append(f"phase {ph.name}: the driver reported: {e}")
    if ph.plan is None:
        return out + [f"phase {ph.name} did not start (driver exit {ph.rc}): {_tail(ph.stderr) or '(no message)'}"]
    res = ph.results() if ph.name != "fuzz" else []
    last = (res[-1].get("case") if res else None)
    if ph.end is None:
        how = "was stopped after its time limit" if ph.killed else f"exited with status {ph.rc}"
        done = f"{len(res)} of {ph.plan.get('cases')} results" if ph.name != "fuzz" else "its findings so far"
        return out + [f"phase {ph.name} ended early: the driver {how} without its end record, after {done}"
                      + (f"; the last case reported: {last}" if last else "")]
    e = ph.end
    if not e.get("complete"):
        what = (f"{e.get('run')} of {e.get('planned')} cases run" if ph.name != "fuzz"
                else f"{e.get('executions')} executions in {e.get('seconds')} s of {time_planned} s")
        out.append(f"phase {ph.name} did not run to its end: {e.get('reason')}: {what}"
                   + (f"; the case being run: {e['case']}" if e.get("case") else ""))
    elif ph.name != "fuzz" and len(res) != ph.plan.get("cases"):
        out.append(f"phase {ph.name} reported {len(res)} of {ph.plan.get('cases')} planned results"
                   + (f"; the last: {last}" if last else ""))
    elif ph.name == "fuzz" and time_planned and not e.get("executions"):
        out.append(f"phase fuzz ran 0 executions in {e.get('seconds')} s")
    if ph.rc != 0:
        out.append(f"phase {ph.name}: the driver exited with status {ph.rc}"
                   + (" (stopped after its time limit)" if ph.killed else ""))
    return out


# ---------------------------------------------------------------- verdict

def _in_claim(cat, claim):
    return not claim or any(cat == c or cat.startswith(c + ".") for c in claim)


def _group(lines):
    """Lines by root-cause signature, in order of first appearance."""
    g = collections.OrderedDict()
    for ph, r in lines:
        g.setdefault(r.get("signature") or r.get("oracle"), []).append((ph, r))
    return g


def _inherited(results, fz_find):
    """Known bugs and gaps of the --allow-as target that the function shows."""
    out = collections.OrderedDict()
    for r in list(results) + list(fz_find):
        f = r.get("finding") if isinstance(r.get("finding"), dict) else {}
        rule = f.get("rule") or {}
        if rule.get("kind") not in ("known-bug", "known-gap"):
            continue
        if r.get("status") not in (None, "known"):
            continue
        e = out.setdefault(rule["id"], {"id": rule["id"], "kind": rule["kind"], "citation": rule.get("citation", ""),
                                        "cases": 0, "example": f.get("case") or r.get("case")})
        e["cases"] += 1
    return list(out.values())


def _dialect_hint(args, dialect, cats, claimed):
    """When a userspace function is judged as kernel dialect (the default of
    the scnprintf kinds), most categories fail and what fails is what ISO C
    expects: say so, and name --dialect iso."""
    if dialect != "kernel" or not cats:
        return None
    bad = [c for c, v in cats.items() if v["verdict"] not in ("conforms", "inherits")]
    exp = [r for r in claimed if r["status"] == "fail" and str(r.get("oracle", "")).startswith("expect.")]
    iso = [r for r in exp if r.get("iso_matches")]
    if 2 * len(bad) < len(cats) or not exp or 2 * len(iso) < len(exp):
        return None
    why = "the default for scnprintf kinds" if not args.dialect else "as asked"
    return (f"the dialect does not fit: {len(bad)} of {len(cats)} categories fail in the kernel dialect ({why}), and "
            f"{len(iso)} of {len(exp)} failing cases print exactly what ISO C expects: if {args.function} is a "
            f"userspace function (e.g. a wrapper over the C library), certify it with --dialect iso")


def _captured(phases):
    """What the function printed, per phase (the certificate shows it)."""
    out = {}
    for ph in phases:
        for stream in ("stdout", "stderr"):
            path = getattr(ph, stream)
            if path is None or not path.is_file() or not path.stat().st_size:
                continue
            with open(path, "rb") as f:
                head = f.read(2000)
            out.setdefault(ph.name, {})[stream] = {
                "bytes": path.stat().st_size, "file": str(path),
                "head": head.decode("utf-8", "backslashreplace")}
    return out


def _check_numbers(args):
    for k in ("time", "call_limit", "fault_budget", "phase_limit"):
        v = getattr(args, k)
        if not math.isfinite(v) or v < 0 or v > 1e7 or (k in ("call_limit", "phase_limit") and v <= 0):
            raise UsageError(f"--{k.replace('_', '-')} must be a finite number of seconds"
                             f"{' > 0' if k in ('call_limit', 'phase_limit') else ' >= 0'} (got {v})")


def certify(args):
    _check_numbers(args)
    if args.target:
        target_recipe(args)
    elif not args.function or not args.kind or not (args.source or args.ldflags):
        raise UsageError("certify needs --function, --kind and the code: --source FILE.c and/or --ldflags "
                         "(a library), or --target NAME")
    dialect = args.dialect or ("kernel" if args.kind in ("scnprintf", "vscnprintf") else "iso")
    claim = [c for c in (args.categories or "").split(",") if c]
    if args.profile and args.profile_from:
        raise UsageError("--profile and --profile-from: give one of them")
    prof = None
    only = {f for f in (args.profile_functions or "").split(",") if f} or None
    if args.profile:  # read before the run exists: a bad file is a usage error, no run
        prof = scan_profile.load(args.profile, only)
    reused = certify_reuse.open_run(args.reuse, args) if args.reuse else None
    run = Run.create("certify", args.out)
    wd = run.path / "build"
    wd.mkdir(exist_ok=True)
    if args.profile_from:
        prof = scan_profile.from_sources(args.profile_from, str(run.path), shlex.split(args.profile_scan), only)
    if prof is not None and not prof.features:
        raise UsageError("the profile has no call site with a literal format: nothing to certify for")
    t0 = time.monotonic()
    exe, binfo = build_driver(args, dialect, wd)
    build_s = round(time.monotonic() - t0, 3)
    files = [str(p) for p in sorted((ROOT / "corpus").glob("*.tsv"))]
    in_profile = None
    if prof is not None:  # the corpus cases whose every feature the call sites use
        files, kept, total = scan_profile.restrict_corpus(files, prof, dialect, str(wd / "profile-corpus"))
        in_profile = {"kept": kept, "total": total}
    common = ["--call-limit", repr(args.call_limit), "--phase-limit", repr(args.phase_limit)]
    if args.allow_as:
        common += ["--allow-as", args.allow_as]
    slack = REDUCE_SECONDS + 2 * args.call_limit + GRACE
    budget = args.fault_budget

    def phase(name, argv, timeout):
        nonlocal budget
        if budget <= 0 and args.fault_budget > 0:
            ph = Phase(name)
            ph.skipped = f"the fault budget ({args.fault_budget:g} s) was spent by fatal cases of an earlier phase"
            return ph
        ph = run_driver(exe, name, argv, wd, common + ["--fault-budget", repr(max(budget, 0.0))], timeout)
        if ph.end:
            budget -= float(ph.end.get("fault_seconds") or 0)
        return ph

    # 1. conformance at every buffer size (or the reused run's), 2. the return-value suite of its kind
    if reused is not None:
        conf = certify_reuse.conform_phase(reused, args.target, Phase)
    else:
        conf = phase("conform", (["--categories", ",".join(claim)] if claim else []) + ["conform"] + files,
                     args.phase_limit + args.fault_budget + slack)
    if conf.plan is None and conf.rc == 2 and not conf.lines:
        raise SetupError(f"the certification driver could not start: {_tail(conf.stderr) or conf.errors}")
    retv = phase("retval", ["retval"], args.phase_limit + args.fault_budget + slack)
    # 3. differential campaign
    dec = 0
    if claim:
        if not any(_in_claim(c, claim) for c in ("float.a", "float.e", "float.f", "float.g")):
            dec |= DEC_NO_FLOAT
        if not _in_claim("positional", claim):
            dec |= DEC_NO_POS
        if not any(_in_claim(c, claim) for c in ("wide.lc", "wide.ls")):
            dec |= DEC_NO_WIDE
        if not _in_claim("n", claim):
            dec |= DEC_NO_N
    if reused is None:
        fuzz_seeds(dialect, wd / "fuzz-corpus")
    engine = ["--corpus", str(wd / "fuzz-corpus"), "--fuzzer-log", str(wd / "fuzz.libfuzzer.log")]
    if prof is not None:
        dec |= scan_profile.decode_flags(prof, DEC_NO_FLOAT, DEC_NO_POS, DEC_NO_WIDE, DEC_NO_N)
        engine += ["--profile", scan_profile.write_feature_list(prof, str(wd / "profile.features"))]
    if fuzz_dictionary(args.source, wd / "fuzz.dict"):
        engine += ["--dict", str(wd / "fuzz.dict")]
    if reused is not None:
        fuzz = certify_reuse.fuzz_phase(reused, args.target, Phase)
    else:
        fuzz = phase("fuzz", engine + ["fuzz", repr(args.time), str(args.seed), str(dec)], args.time + 30 + slack)
    phases = [conf, retv, fuzz]

    # what each phase found
    results = conf.results()
    claimed = [r for r in results if _in_claim(r.get("category", ""), claim)]
    rv = retv.results()
    rv_fail = [r for r in rv if r.get("status") == "fail"]
    if prof is not None:  # the suite's fixed formats: a failure counts where the call sites use its features
        rv_feats = scan_profile.case_features({r.get("case") for r in rv_fail if r.get("case")}, dialect)
        rv_fail = [r for r in rv_fail if rv_feats.get(r.get("case")) and prof.admits(rv_feats[r.get("case")])]
    fz_find = [r for r in fuzz.lines if isinstance(r.get("finding"), dict)]
    fails = [r for r in claimed if r.get("status") == "fail"]
    fz_bad = [r for r in fz_find if r.get("fatal") or r["finding"].get("classification") not in
              ("implementation-defined", "known-bug", "known-gap")]
    found = [("conform", r) for r in fails] + [("retval", r) for r in rv_fail] + [("fuzz", r) for r in fz_bad]

    # verdicts per category: inherited known bugs/gaps count as met here and are listed apart
    as_met = [dict(r, status="pass") if r.get("status") == "known" else r for r in claimed]
    feats = anylibc.feature_support(as_met)
    cats = anylibc.category_verdicts(as_met, feats)
    known_by_cat = collections.Counter(r.get("category") for r in claimed if r.get("status") == "known")
    for cat, v in cats.items():
        v["inherited"] = known_by_cat.get(cat, 0)
        if v["verdict"] == "conforms" and v["inherited"]:
            v["verdict"] = "inherits"
    inherited = _inherited(claimed, fz_find)

    by_oracle = collections.Counter(r.get("oracle") for _, r in found)
    mem = sorted({r.get("oracle") for _, r in found if r.get("class") == "memory-safety" or
                  (r.get("finding") or {}).get("classification") == "memory-safety"})
    trunc_fired = sorted(o for o in by_oracle if o in TRUNC_ORACLES)
    fam = "scn" if args.kind in ("scnprintf", "vscnprintf") else "c99"

    reasons = []
    hint = _dialect_hint(args, dialect, cats, claimed)
    if hint:
        reasons.append(hint)
    # fatal cases and side effects first: each root cause once, with its case
    for sig, grp in _group([(p, r) for p, r in found if r.get("fatal") or
                            str(r.get("oracle")).startswith("writes-")]).items():
        p, r = grp[0]
        more = f"; {len(grp)} cases" if len(grp) > 1 else ""
        reasons.append(f"{r.get('oracle')} ({r.get('class')}) in phase {p}: {r.get('detail', '')} "
                       f"on {case_named(r)}{more}")
    for ph in phases:
        reasons += account(ph, args.time if ph.name == "fuzz" else None)
    for cat, v in cats.items():
        if v["verdict"] in ("conforms", "inherits"):
            continue
        ex = next((r for r in fails if r.get("category") == cat), None) or \
            next((r for r in claimed if r.get("category") == cat and r.get("note") == "impl-differs"), {})
        reasons.append(f"category {cat} {v['verdict']}: {v['fail']} of {v['cases']} cases fail"
                       + ("" if v["fail"] else " but its implementation-defined outputs show a lacking feature")
                       + f" (first: {ex.get('case')} -> oracle {ex.get('oracle')}"
                       + (f"; reduced: {ex['finding']['case']}" if isinstance(ex.get("finding"), dict)
                          and ex["finding"].get("case") != ex.get("case") else "") + ")")
    # an output that misses its expectation behind an explained first finding (the results'
    # after_oracle: scn-conform's and the conformance phase's hidden_miss): the category's first
    # case names only that finding, so each such root cause once, with its case
    for sig, grp in _group([("conform", r) for r in fails if r.get("after_oracle")]).items():
        r = grp[0][1]
        more = f"; {len(grp)} cases" if len(grp) > 1 else ""
        f = r.get("finding") if isinstance(r.get("finding"), dict) else {}
        reduced = f"; reduced: {f['case']}" if f.get("case") and f["case"] != r.get("case") else ""
        reasons.append(f"besides {r['after_oracle']}, the output misses the expectation ({r.get('oracle')}): "
                       f"{r.get('case')} gives {r.get('actual')}, expected {r.get('expected')}{reduced}{more}")
    for o in trunc_fired:
        ex = next(r for _, r in found if r.get("oracle") == o)
        reasons.append(f"oracle {o} fired (e.g. {case_named(ex)}: {ex.get('detail', '')})")
    for o in mem:
        if o not in trunc_fired and not any(r.get("fatal") for _, r in found if r.get("oracle") == o):
            ex = next(r for _, r in found if r.get("oracle") == o)
            reasons.append(f"memory safety: oracle {o} fired (e.g. {case_named(ex)}: {ex.get('detail', '')})")
    for sig, grp in _group([("fuzz", r) for r in fz_bad if r.get("oracle") == "differential"]).items():
        r = grp[0][1]
        reasons.append(f"differential divergence from the reference: {case_named(r)} "
                       f"({r['finding'].get('detail', '')}) [{sig}]")
    if not claimed and conf.plan is not None and not conf.plan.get("cases"):
        reasons.append("the conformance phase has no case in the claimed categories"
                       + (f" ({args.categories})" if args.categories else ""))
    seen = set()
    reasons = [x for x in reasons if not (x in seen or seen.add(x))]
    certified = not reasons
    lines = (certify_lines.measure(exe, wd, binfo["cc"], args.source) if reused is None
             else certify_reuse.lines_not_measured())
    profile_info = _profile_verdict(prof, in_profile, found, dialect, reasons) if prof is not None else None
    head = certify_lines.headline(certified, lines)
    if profile_info is not None and certified and head != "CERTIFIED":  # its lines too, never a plain CERTIFIED
        profile_info["headline"] += head[len("CERTIFIED"):]
    fz_end = fuzz.end or {}

    def phase_info(ph):
        e = ph.end or {}
        return {"planned": (ph.plan or {}).get("cases", (ph.plan or {}).get("seconds")), "complete": bool(e.get("complete")),
                "run": e.get("run"), "deaths": e.get("deaths", 0), "restarts": e.get("restarts", 0),
                "fault_seconds": e.get("fault_seconds", 0), "exit": ph.rc, "wall_seconds": ph.seconds,
                "skipped": ph.skipped, "stopped": e.get("reason"), "stopped_at": e.get("case")} | \
            ({"reused_from": ph.reused} if ph.reused else {})

    cert = {
        "certificate_schema": 2,
        "generated": utc_iso(),
        "verdict": "certified" if certified else "not certified",
        "headline": head,
        "reasons": reasons,
        "function": args.function, "kind": args.kind, "family": fam, "dialect": dialect,
        "claim": {"categories": claim or "all"},
        "sources": [{"path": s, "sha256": _sha(s)} for s in args.source],
        "build": binfo | {"includes": args.include, "adapter": "generated (variadic call by argument class)"
                          if args.kind in ("snprintf", "scnprintf") else "generated (va_list entry)"},
        "categories": {k: v["verdict"] for k, v in cats.items()},
        "category_counts": cats,
        "features": feats,
        "inherits": {"from": args.allow_as, "rules": inherited} if args.allow_as else None,
        "oracles_fired": dict(by_oracle),
        "truncation_semantics": {"family": fam, "verdict": "correct" if not trunc_fired else "violated",
                                 "oracles": trunc_fired},
        "memory_safety": {"verdict": "no violation seen" if not mem else "violated", "oracles": mem,
                          "sanitizers": "AddressSanitizer (exact-size copies of the format and string arguments, "
                                        "redzones of 128 bytes) + UndefinedBehaviorSanitizer, guard page after "
                                        "the buffer"},
        "limits": {"call_limit_s": args.call_limit, "call_limit_per_mb_s": 1.0, "memory_limit_mb": 512,
                   "fault_budget_s": args.fault_budget, "phase_limit_s": args.phase_limit},
        "captured_output": _captured(phases),
        "sanitizer_logs": sorted(str(p) for p in wd.glob("sanitizer-*")),
        "phases": {
            "conform": phase_info(conf) | {"results": len(results), "claimed": len(claimed), "failing": len(fails),
                                           "inherited": sum(1 for r in claimed if r.get("status") == "known")},
            "retval": phase_info(retv) | {"cases": len(rv), "failing": len(rv_fail), "findings": rv_fail[:20]},
            "fuzz": phase_info(fuzz) | {
                "seconds": fz_end.get("seconds", 0), "executions": fz_end.get("executions", 0),
                "coverage_edges": fz_end.get("coverage_edges", 0), "coverage_total": fz_end.get("coverage_total", 0),
                "corpus": fz_end.get("corpus", 0), "findings": fz_find[:40], "decode_flags": dec, "seed": args.seed,
                "allowances_of": args.allow_as or "(none: only entries for every target)",
                "reference": "ref-kernel" if dialect == "kernel" else "ref"},
        },
        "lines": lines,
        "build_s": build_s,
        "duration_s": round(time.monotonic() - t0, 3),
    }
    if reused is not None:
        cert["reused"] = {"run": str(reused.path), "conform": conf.reused, "campaign": fuzz.reused,
                          "run_here": ["retval"], "differs": certify_reuse.REUSED_DIFFERS}
    if profile_info is not None:
        cert["profile"] = profile_info
        cert["phases"]["fuzz"]["outside_profile"] = fz_end.get("outside_profile", 0)
    cert["executions"] = len(results) + len(rv) + (fz_end.get("executions") or 0)
    _write_run(run, args, cert, results, rv_fail, fz_find)
    (run.path / "certificate.json").write_text(json.dumps(cert, indent=1) + "\n")
    (run.path / "certificate.md").write_text(certificate_md(cert) + certify_reuse.markdown(cert.get("reused")))
    (run.path / "certificate.html").write_text(certificate_html(cert, claimed))
    return cert, run


SITES_SHOWN = 12  # call sites listed per failure in the certificate (all are counted)


def _reduced_case(r):
    f = r.get("finding")
    return f["case"] if isinstance(f, dict) and f.get("case") else r.get("case")


def _profile_verdict(prof, in_profile, found, dialect, reasons):
    """The certificate's profile part: what was certified for, or the call
    sites each failure reaches (one entry per root cause, its reduced case)."""
    info = prof.summary() | {"conformance_cases": in_profile}
    seen, reach = set(), []
    for phase, r in found:
        case = _reduced_case(r)
        key = (r.get("oracle"), (r.get("finding") or {}).get("signature") if isinstance(r.get("finding"), dict)
               else r.get("signature"), case)
        if not case or key in seen:
            continue
        seen.add(key)
        reach.append({"phase": phase, "oracle": r.get("oracle"), "case": r.get("case"), "reduced": case})
    feats = scan_profile.case_features({x["reduced"] for x in reach}, dialect)
    fmts = {}
    for x in reach:
        try:
            fmts[x["reduced"]] = scan_profile.format_of_case(x["reduced"]).decode("latin-1")
        except Exception:  # not a case text: matched by its features as a whole
            pass
    specs = scan_profile.spec_features(set(fmts.values()), dialect)
    every = {}
    for x in reach:
        x["features"] = sorted(feats.get(x["reduced"]) or [])
        case_specs = specs.get(fmts.get(x["reduced"])) if x["reduced"] in fmts else None
        sites, x["all_features"] = prof.reached(x["features"], case_specs)
        if x["all_features"]:  # the closest sites of a form no site uses are named, not counted
            every.update(dict.fromkeys(sites))
        x["sites_reached"] = len(sites) if x["all_features"] else 0
        x["sites"] = [prof.shown(s) for s in sites[:SITES_SHOWN]]
    info["failures"] = reach
    info["sites_reached"] = len(every)
    n, m = info["formats"], info["call_sites"]
    if not reasons:
        info["headline"] = (f"CERTIFIED for the {n} formats of {m} call sites" if n is not None
                            else f"CERTIFIED for the formats of {m} call sites")
    else:
        sites = [prof.shown(s) for s in list(every)[:6]]
        info["headline"] = (f"NOT CERTIFIED for the formats of {m} call sites: the failures reach "
                            f"{len(every)} of them" + (f" ({', '.join(sites)}{', ...' if len(every) > 6 else ''})"
                                                       if sites else ""))
        for x in reach[:10]:
            if x["sites"] and x["all_features"]:
                more = f" and {x['sites_reached'] - 6} more" if x["sites_reached"] > 6 else ""
                reasons.append(f"reaches call sites: {', '.join(x['sites'][:6])}{more} (each uses the form of "
                               f"{x['reduced']}: {', '.join(x['features']) or 'no conversion'}; oracle {x['oracle']}, "
                               f"phase {x['phase']})")
            elif x["sites"]:
                reasons.append(f"no call site uses the form of {x['reduced']} ({', '.join(x['features'])}, each "
                               f"in the profile; oracle {x['oracle']}, phase {x['phase']}); the closest: "
                               f"{', '.join(x['sites'][:6])}")
    return info


def _write_run(run, args, cert, results, rv_fail, fz_find):
    """The runner's report (report.json/.md/.html, junit.xml) of the same run."""
    try:
        from . import report
    except ImportError:
        return
    target = {"name": args.function, "dialect": cert["dialect"], "version": "vendored",
              "scnprintf": "native" if cert["family"] == "scn" else "wrapped", "where": "in-process (certify)"}
    claim = [] if cert["claim"]["categories"] == "all" else cert["claim"]["categories"]
    results = [r for r in results if _in_claim(r.get("category", ""), claim)]  # the claim is what is reported
    with open(run.path / "conform.jsonl", "w") as f:
        for r in results:  # an inherited known bug is a failure a rule explains, as scn-conform writes it
            f.write(json.dumps(dict(r, status="fail") if r.get("status") == "known" else r) + "\n")
    run.add_part({"kind": "conform", "started": cert["generated"], "targets": [target], "dialect": cert["dialect"],
                  "results": "conform.jsonl", "status": "done", "cases_run": len(results),
                  "results_count": len(results), "duration_s": cert["duration_s"]})
    for r in results + rv_fail + fz_find:  # the driver's records (docs/FINDINGS.md)
        if r.get("status") in ("fail", "known") or "status" not in r:
            if isinstance(r.get("finding"), dict):
                run.append_finding(r["finding"])
    run.add_part({"kind": "fuzz", "started": cert["generated"], "targets": [target],
                  "executions": cert["phases"]["fuzz"]["executions"],
                  "duration_s": cert["phases"]["fuzz"]["seconds"], "status": "done"})
    run.meta["certificate"] = {"verdict": cert["verdict"], "function": args.function}
    run.save()
    try:
        report.build_report(run)
    except Exception as e:  # the report is a by-product; the certificate stands alone
        (run.path / "report-error.txt").write_text(f"{type(e).__name__}: {e}\n")


def main(argv):
    try:
        args = parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        cert, run = certify(args)
    except ScnError as e:
        sys.stderr.write(f"scnfuzz certify: {e}\n")
        return 2
    print(f"scnfuzz certify: {cert['function']}: {cert['headline']}")
    if cert.get("profile"):
        print(f"  {cert['profile']['headline']}")
    for r in cert["reasons"][:20]:
        print(f"  - {r}")
    inh = (cert.get("inherits") or {}).get("rules") or []
    if inh:
        print(f"  inherits from {cert['inherits']['from']}: " + ", ".join(f"{r['id']} ({r['cases']})" for r in inh))
    print(f"scnfuzz certify: certificate: {run.path / 'certificate.md'}")
    return 0 if cert["verdict"] == "certified" else 1
