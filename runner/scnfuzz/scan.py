"""`./scnfuzz scan SRC...`: the printf-family call sites of C sources, their
format profile and the snprintf misuse (issue 25), through libclang
(scan_parse, scan_misuse), the suite's own format scanner (scan_format) and
a report like the other runs' (scan_report). Exit 1 when a misuse is found,
0 otherwise, 2 on bad input.

Speed: a file is parsed with only the include directories given, and
missing headers do not stop libclang (KeepGoing). When at least
PRELUDE_MIN_FILES files share their flags, the include-guarded headers that
two or more of them include (read from their #include lines: this only
chooses what to precompile) are parsed once into a precompiled header
(function bodies skipped), which every file of the group loads instead of
parsing them again; the translation unit's children are then the file's own
declarations (scan_parse). Each function body is walked in one C call
(scan_walk), and the files are parsed by --jobs processes.
"""
import collections
import concurrent.futures
import json
import multiprocessing
import os
import re
import shlex
import shutil
import sys
import tempfile
import time

from .errors import UsageError, read_json

PRELUDE_MIN_FILES = 16
SOURCE_EXT = (".c",)


def add_parser(sub, epilog):
    p = sub.add_parser("scan", help="printf-family call sites of C sources: their format profile and the "
                       "snprintf misuse (findings in report.md/.json/.sarif)",
                       description="Parses C sources with libclang: every call of a printf-family function "
                       "(C99, scnprintf/sysfs_emit, printk/pr_*/dev_*/netdev_* after macro expansion, any "
                       "function declared format(printf, m, n)), the format features in use (the names of "
                       "`scn-conform --features`), and the misuse of snprintf()'s return value, sprintf into "
                       "fixed arrays, scnprintf compared with the size and 0x%%pa. Exit 1 when a misuse is "
                       "found, 0 otherwise, 2 on bad input.", epilog=epilog)
    p.add_argument("src", nargs="*", metavar="SRC", help="C files or directories (their *.c files)")
    p.add_argument("--compile-commands", metavar="FILE", help="compile_commands.json: each file's flags "
                   "(without SRC: every file it lists)")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR", help="an include directory")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]", help="a macro")
    p.add_argument("--include", dest="preincludes", action="append", default=[], metavar="FILE",
                   help="a header included first (as cc -include)")
    p.add_argument("--kernel", metavar="TREE", help="the sources are Linux kernel code of TREE (its include "
                   "directories, x86; the generated headers a kernel build makes stand in as asm-generic's)")
    p.add_argument("--jobs", type=int, default=2, metavar="N", help="parser processes (default 2)")
    p.add_argument("--no-prelude", action="store_true", help="parse every header with each file (no "
                   "precompiled header of the common ones)")
    p.add_argument("--profile", metavar="FILE", help="also write the format profile as JSON to FILE")
    p.add_argument("--out", metavar="DIR", help="the run directory (default reports/<UTC stamp>-scan/)")


def _sources(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                out += [os.path.join(root, f) for f in sorted(files) if f.endswith(SOURCE_EXT)]
        elif os.path.isfile(p):
            out.append(p)
        else:
            raise UsageError(f"scan: {p}: no such file or directory")
    return out


def _compile_commands(path):
    from .mutator import parse_flags
    entries = read_json(path, f"scan: --compile-commands {path}")
    if not isinstance(entries, list):
        raise UsageError(f"scan: --compile-commands {path}: not a list of compile commands")
    out = {}
    for e in entries:
        if not isinstance(e, dict) or "file" not in e or "directory" not in e:
            raise UsageError(f"scan: --compile-commands {path}: an entry without file or directory")
        argv = e.get("arguments") or shlex.split(e.get("command", ""))
        d = e["directory"]
        flags = []
        for a in parse_flags(argv):  # include directories made absolute: the parser does not chdir
            if a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]):
                a = "-I" + os.path.join(d, a[2:])
            flags.append(a)
        out[os.path.realpath(os.path.join(d, e["file"]))] = flags
    return out


def kernel_flags(tree, shim):
    """The flags of kernel code in TREE; shim (a directory) gets the headers a
    kernel build would generate, each the asm-generic one (or empty)."""
    inc = os.path.join(tree, "include")
    if not os.path.isfile(os.path.join(inc, "linux", "kernel.h")):
        raise UsageError(f"scan: --kernel {tree}: not a Linux tree (no include/linux/kernel.h)")
    arch = os.path.join(tree, "arch", "x86", "include")
    os.makedirs(os.path.join(shim, "asm"), exist_ok=True)
    os.makedirs(os.path.join(shim, "generated"), exist_ok=True)
    open(os.path.join(shim, "generated", "autoconf.h"), "w").close()
    for generic, own in ((os.path.join(inc, "asm-generic"), os.path.join(arch, "asm")),
                         (os.path.join(inc, "uapi", "asm-generic"), os.path.join(arch, "uapi", "asm"))):
        for h in sorted(os.listdir(generic)) if os.path.isdir(generic) else []:
            dst = os.path.join(shim, "asm", h)
            if h.endswith(".h") and not os.path.exists(os.path.join(own, h)) and not os.path.exists(dst):
                with open(dst, "w") as f:
                    f.write(f"#include <asm-generic/{h}>\n")
    return ["-nostdinc", "-D__KERNEL__", "-DCONFIG_X86_64=1", "-DCONFIG_64BIT=1", "-DCONFIG_PRINTK=1",
            "-I", arch, "-I", shim, "-I", inc, "-I", os.path.join(arch, "uapi"), "-I", os.path.join(inc, "uapi"),
            "-include", os.path.join(inc, "linux", "kconfig.h"),
            "-include", os.path.join(inc, "linux", "compiler_types.h")]


_INCLUDE = re.compile(rb'^[^\S\n]*#[^\S\n]*include[^\S\n]*(?:<([^>\n]*)>|"([^"\n]*)")', re.M)


def _includes(path):
    """The headers a file includes, as written: ("<", name) or ('"', name)
    (only to choose the prelude's headers: the parser reads the file itself)."""
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        return []
    return [("<", m.group(1).decode("utf-8", "replace")) if m.group(1) is not None
            else ('"', m.group(2).decode("utf-8", "replace")) for m in _INCLUDE.finditer(text)]


def _include_dirs(flags):
    out = []
    for i, a in enumerate(flags):
        if a in ("-I", "-iquote", "-isystem") and i + 1 < len(flags):
            out.append(flags[i + 1])
        elif a.startswith("-I") and len(a) > 2:
            out.append(a[2:])
    return out


def _guarded(path):
    """Whether a header is included once whatever includes it: its first
    directive an #ifndef (or #if !defined) guard, or #pragma once. A header
    without one (trace/define_trace.h, an x-macro table) is read again by each
    #include, so it stays out of the prelude."""
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 16)
    except OSError:
        return False
    if b"#pragma once" in text:
        return True
    for line in text.split(b"\n"):
        s = line.strip()
        if s.startswith(b"#"):
            d = s[1:].lstrip()
            return d.startswith(b"ifndef") or d.replace(b" ", b"").startswith(b"if!defined")
    return False


def _resolve(kind, name, src, dirs):
    """The header file an #include names, as the preprocessor finds it (a
    quoted name first beside the including file), or None."""
    for d in ([os.path.dirname(src)] if kind == '"' else []) + dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return os.path.realpath(p)
    return None


def build_prelude(files, flags, where):
    """A precompiled header of the guarded headers that at least two of files
    include (each file then loads it instead of parsing them again), or None.
    Function bodies are skipped: the calls scanned are the main file's."""
    from .mutator import _cindex
    from .scan_parse import KEEP_GOING
    dirs = _include_dirs(flags)
    count, order, found = collections.Counter(), {}, {}
    for f in files:
        for kind, name in dict.fromkeys(_includes(f)):
            key = (kind, name) if kind == "<" else (kind, name, os.path.dirname(f))
            if key not in found:
                found[key] = _resolve(kind, name, f, dirs)
            h = found[key]
            if h:
                count[h] += 1
                order.setdefault(h, len(order))
    common = [h for h in sorted(count, key=lambda h: order[h]) if count[h] >= 2 and _guarded(h)]
    if not common:
        return None
    ci = _cindex()
    header = os.path.join(where, "prelude.h")
    with open(header, "w") as out:
        out.write("".join(f'#include "{h}"\n' for h in common))
    tu = ci.Index.create().parse(header, args=list(flags) + ["-x", "c-header", "-Wno-everything"],
                                 options=ci.TranslationUnit.PARSE_INCOMPLETE | KEEP_GOING |
                                 ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    pch = os.path.join(where, "prelude.pch")
    tu.save(pch)
    return pch


def main(args):
    from . import runs, scan_parse, scan_report, scan_walk
    if args.jobs < 1:
        raise UsageError("scan: --jobs must be at least 1")
    if not args.src and not args.compile_commands:
        raise UsageError("scan: give C files or directories (SRC), or --compile-commands")
    cc = _compile_commands(args.compile_commands) if args.compile_commands else {}
    files = _sources(args.src) if args.src else sorted(cc)
    if not files:
        raise UsageError(f"scan: no C files ({', '.join(SOURCE_EXT)}) in {' '.join(args.src)}")
    tmp = tempfile.mkdtemp(prefix="scnfuzz-scan-")
    base = ["-x", "c", "-std=gnu11"]
    if args.kernel:
        base += kernel_flags(args.kernel, os.path.join(tmp, "shim"))
    for d in args.includes:
        base += ["-I", os.path.abspath(d)]
    base += [f"-D{d}" for d in args.defines]
    for h in args.preincludes:
        base += ["-include", os.path.abspath(h)]
    t0 = time.monotonic()
    # libclang parses on a new thread of 8 MB stack per file unless told not to; the
    # parser processes inherit this
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    scan_walk.build(tmp)
    groups = collections.defaultdict(list)
    for f in files:
        groups[tuple(base + cc.get(os.path.realpath(f), []))].append(f)
    jobs = []
    for n, (flags, fs) in enumerate(groups.items()):
        pch = None
        if not args.no_prelude and len(fs) >= PRELUDE_MIN_FILES:
            where = os.path.join(tmp, f"g{n}")
            os.makedirs(where)
            pch = build_prelude(fs, flags, where)
        jobs += [(f, list(flags), pch) for f in fs]
    results = []
    if args.jobs == 1:
        results = [scan_parse.scan_file(j) for j in jobs]
    else:
        ctx = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(args.jobs, mp_context=ctx) as ex:
            results = list(ex.map(scan_parse.scan_file, jobs, chunksize=4))
    seconds = time.monotonic() - t0
    shutil.rmtree(tmp, ignore_errors=True)  # the prelude and the kernel's stand-in headers
    calls, findings, profile, failed = scan_report.analyse(results, bool(args.kernel))
    parse_errors = sum(1 for r in results if r.get("parse_errors"))
    run = runs.Run.create("scan", args.out)
    m = scan_report.model(sys.argv[2:] if sys.argv[1:2] == ["scan"] else [], len(files), calls, findings,
                          profile, failed, seconds, parse_errors)
    scan_report.write(run.path, m)
    if args.profile:
        runs.write_atomic(args.profile, json.dumps(m["profile"], indent=1) + "\n")
    _summary(m, run.path, scan_report)
    return 1 if findings else 0


def _summary(m, path, scan_report):
    print(f"scan: {m['files']} files, {m['calls']} printf-family calls, {len(m['findings'])} misuse finding(s) "
          f"in {m['seconds']} s ({m['files_per_second']} files/s)")
    for line in scan_report.profile_table(m, 12):
        print("  " + line)
    for d in m["findings"]:
        print(f"{d['file']}:{d['line']}: {d['kind']}: {d['why']}")
    print(f"report: {path}/report.md (report.json, report.sarif)")
