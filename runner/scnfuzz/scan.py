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
declarations (scan_parse). The prelude is kept across runs (PreludeCache,
checked against the bytes of every header it read). The files of a group are
parsed --batch at a time as one translation unit (scan_parse.scan_batch:
each file's macros saved and restored around it; a file that another one
of its batch could change comes back, and the files that came back are
batched together in a second round, where what cannot be kept is parsed
alone). What the scan reads of a translation unit comes back from one C
call (scan_walk.sites, scan_walk.c compiled once into build/tools/), and
the batches are parsed by --jobs processes.
"""
import collections
import concurrent.futures
import contextlib
import fcntl
import hashlib
import json
import multiprocessing
import os
import re
import shlex
import shutil
import signal
import sys
import tempfile
import time

from .errors import UsageError, read_json

PRELUDE_MIN_FILES = 16
BATCH = 8
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
    p.add_argument("--prelude-cache", metavar="DIR", help="where the precompiled headers are kept across runs, "
                   "each checked against the bytes of every header it read (default: scan-preludes in the "
                   "suite's build directory; 'none': built again by each run)")
    p.add_argument("--batch", type=int, default=BATCH, metavar="N", help="files parsed as one translation unit "
                   f"(default {BATCH}; 1: each file alone); a file that another one of its batch could change "
                   "is parsed alone again")
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
    _write_once(os.path.join(shim, "generated", "autoconf.h"), "")
    for generic, own in ((os.path.join(inc, "asm-generic"), os.path.join(arch, "asm")),
                         (os.path.join(inc, "uapi", "asm-generic"), os.path.join(arch, "uapi", "asm"))):
        for h in sorted(os.listdir(generic)) if os.path.isdir(generic) else []:
            dst = os.path.join(shim, "asm", h)
            if h.endswith(".h") and not os.path.exists(os.path.join(own, h)):
                _write_once(dst, f"#include <asm-generic/{h}>\n")
    return ["-nostdinc", "-D__KERNEL__", "-DCONFIG_X86_64=1", "-DCONFIG_64BIT=1", "-DCONFIG_PRINTK=1",
            "-I", arch, "-I", shim, "-I", inc, "-I", os.path.join(arch, "uapi"), "-I", os.path.join(inc, "uapi"),
            "-include", os.path.join(inc, "linux", "kconfig.h"),
            "-include", os.path.join(inc, "linux", "compiler_types.h")]


def _write_once(path, text):
    """path holds text: written (through a rename, so that another scan
    reading the same stand-in headers never sees half a file) unless it
    already does."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


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


_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_DIRECTIVE = re.compile(rb"^[^\S\n]*#[^\S\n]*(\w+)", re.M)


def _fully_guarded(path):
    """Whether a header's whole text lies inside its include guard: its first
    directive #ifndef (or #if !defined), the #endif that closes it the last,
    nothing but blanks after it (or #pragma once). Such a header, once read,
    reads nothing when it is included again. linux/tracepoint.h is not: its
    TRACE_EVENT part is outside the guard, read at each #include. Only a
    choice (scan_batch checks which headers each member really read)."""
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        return False
    if b"#pragma once" in text:
        return True
    text = _COMMENT.sub(b" ", text.replace(b"\\\n", b""))
    depth, directives = 0, list(_DIRECTIVE.finditer(text))
    if not directives or not _guarded(path):
        return False
    for i, m in enumerate(directives):
        d = m.group(1)
        if d in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif d == b"endif":
            depth -= 1
            if depth == 0:
                return i == len(directives) - 1 and not text[m.end():].partition(b"\n")[2].strip()
    return False


def _resolve(kind, name, src, dirs):
    """The header file an #include names, as the preprocessor finds it (a
    quoted name first beside the including file), or None."""
    for d in ([os.path.dirname(src)] if kind == '"' else []) + dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return os.path.realpath(p)
    return None


def build_prelude(files, flags, where, cache=None):
    """A precompiled header of the guarded headers that at least two of files
    include (each file then loads it instead of parsing them again), or None.
    Function bodies are skipped: the calls scanned are the main file's. With
    cache (a directory), the prelude is kept there across runs (PreludeCache)."""
    return prelude(files, flags, where, cache)[0]


def prelude(files, flags, where, cache=None):
    """(build_prelude's answer, {file: the headers outside the prelude its
    #include lines reach}, {file: those and the headers it includes directly
    by a quoted name}: the files whose macros a batch saves around it (a
    header of the prelude whose guard does not hold all of it, NCR5380.c, is
    read again by each file that includes it; the <...> headers of a system
    or the kernel are guarded, and saving their macros would cost a
    thousand pragmas a file))."""
    common, headers, quoted = _common_headers(files, flags)
    pch, read, kept, guarded = None, set(), None, {}
    if common and cache:
        kept = PreludeCache(cache, flags, common)
        pch = kept.get()
        read, guarded = set(kept.read), kept.guarded
    elif common:
        pch, tu = _precompile(common, flags, where)
        read = {os.path.realpath(i.include.name) for i in tu.get_includes() if i.include}
    common = set(common)

    # a guarded header the prelude read is already included in every member, alone or batched:
    # an #include of it reads nothing (so neither its macros nor a conflict between two members)
    def stop(h):
        if h not in read and h not in common:
            return False
        if h not in guarded:
            guarded[h] = _fully_guarded(h)
        return guarded[h]

    outside = _outside(headers, stop, _include_dirs(flags))
    if kept:
        kept.keep_guarded()
    saved = {f: sorted(set(outside[f]) | set(quoted[f])) for f in files}
    return pch, outside, saved


def _common_headers(files, flags):
    """(the guarded headers two or more of files include, {file: the headers
    it includes}, {file: those it includes by a quoted name})."""
    dirs = _include_dirs(flags)
    count, order, found, headers, quoted = collections.Counter(), {}, {}, {}, {}
    for f in files:
        headers[f], quoted[f] = [], []
        for kind, name in dict.fromkeys(_includes(f)):
            key = (kind, name) if kind == "<" else (kind, name, os.path.dirname(f))
            if key not in found:
                found[key] = _resolve(kind, name, f, dirs)
            h = found[key]
            if h:
                count[h] += 1
                order.setdefault(h, len(order))
                headers[f].append(h)
                if kind == '"':
                    quoted[f].append(h)
    return [h for h in sorted(count, key=lambda h: order[h]) if count[h] >= 2 and _guarded(h)], headers, quoted


def _outside(headers, stop, dirs):
    """{file: the headers outside the prelude (stop(header) false) that its
    #include lines reach, through the #include lines of those headers}: the
    files whose macros a batch saves around the file (scan_parse.batch_main).
    Read from #include lines, so only a choice: scan_batch checks it against
    clang's own record of the headers read."""
    below = {}

    found = {}

    def resolve(kind, name, src):
        key = (kind, name) if kind == "<" else (kind, name, os.path.dirname(src))
        if key not in found:
            found[key] = _resolve(kind, name, src, dirs)
        return found[key]

    def reach(h):
        if h not in below:
            below[h] = []
            below[h] = [r for kind, name in dict.fromkeys(_includes(h))
                        if (r := resolve(kind, name, h)) and not stop(r)]
        return below[h]

    out = {}
    for f, hs in headers.items():
        seen, todo = {}, [h for h in hs if not stop(h)]
        while todo:
            h = todo.pop()
            if h not in seen:
                seen[h] = True
                todo += reach(h)
        out[f] = sorted(seen)
    return out


def _across_directories(files):
    """files with each directory's spread evenly over the whole list: the
    files of one directory share names (3w-9xxx.c's and 3w-sas.c's use_msi)
    and headers (lpfc's), which would make one of them be parsed again, or
    alone when it is left for the last batches."""
    by_dir = collections.defaultdict(list)
    for f in files:
        by_dir[os.path.dirname(f)].append(f)
    order = {d: n for n, d in enumerate(by_dir)}
    return sorted(files, key=lambda f: ((by_dir[os.path.dirname(f)].index(f) + 0.5) / len(by_dir[os.path.dirname(f)]),
                                        order[os.path.dirname(f)]))


def batches(files, size, outside=None):
    """The files in batches of up to size (scan_parse.scan_batch), files of
    different directories together, two files whose #include lines reach one
    header outside the prelude (outside[file]; a file reaches itself) never
    in one batch: the second would read it again (its declarations defined
    twice) or not at all (its guard defined), and be parsed alone again."""
    size, outside = max(size, 1), outside or {}
    out, open_ = [], []  # open_: (batch, the headers its files reach)
    for f in _across_directories(files):
        # a file reaches itself: never in the batch of a file that #includes it (BusLogic.c FlashPoint.c)
        mine = set(outside.get(f, ())) | {os.path.realpath(f)}
        home = next((b for b in open_ if not (b[1] & mine)), None)
        if home is None:
            home = ([], set())
            open_.append(home)
            out.append(home[0])
        home[0].append(f)
        home[1].update(mine)
        if len(home[0]) >= size:
            open_.remove(home)
    return out


def _precompile(common, flags, where, pch_name="prelude.pch"):
    """where/prelude.h (#include of each of common) precompiled into
    where/pch_name: (that path, the translation unit)."""
    from .mutator import _cindex
    from .scan_parse import KEEP_GOING
    ci = _cindex()
    header = os.path.join(where, "prelude.h")
    with open(header, "w") as out:
        out.write("".join(f'#include "{h}"\n' for h in common))
    tu = ci.Index.create().parse(header, args=list(flags) + ["-x", "c-header", "-Wno-everything"],
                                 options=ci.TranslationUnit.PARSE_INCOMPLETE | KEEP_GOING |
                                 ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    pch = os.path.join(where, pch_name)
    tu.save(pch)
    return pch, tu


def _sha256(path):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            h.update(f.read())
    except OSError:
        return None
    return h.hexdigest()


def _stat_key(path):
    """[size, modification time, change time (ns), inode] of a file, or None."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _clang_version(ci):
    """libclang's version text ("Debian clang version 14.0.6"), and the
    path of the library: a precompiled header is read only by its own."""
    L = ci.conf.lib
    L.clang_getClangVersion.restype = ci._CXString
    L.clang_getClangVersion.errcheck = ci._CXString.from_result
    return [L.clang_getClangVersion(), os.path.realpath(L._name) if os.sep in L._name else L._name]


class PreludeCache:
    """A prelude kept across runs: <cache>/<key>/prelude.pch, key the hash of
    the libclang, the flags and the headers chosen; valid while every file its
    parse read (manifest.json: each path with the sha256 of its bytes, the
    headers that the chosen ones include among them) has the same bytes, else
    built again in place. A file whose size, modification and change times and
    inode are those the manifest recorded with its hash ("stats") is not read
    again: a write changes its change time. A lock file keeps two scans from
    building one entry at once; the least recently used entries beyond KEEP
    are removed. read: the files the prelude's parse read (after get());
    guarded: whether each of them lies whole inside its include guard
    (_fully_guarded), as far as a scan asked, kept in the manifest too."""
    KEEP = 8

    def __init__(self, cache, flags, common):
        from .mutator import _cindex
        ci = _cindex()
        ident = json.dumps([_clang_version(ci), list(flags), common])
        self.root = cache
        self.dir = os.path.join(cache, hashlib.sha256(ident.encode()).hexdigest()[:32])
        self.flags, self.common = flags, common
        self.pch = os.path.join(self.dir, "prelude.pch")
        self.manifest = os.path.join(self.dir, "manifest.json")
        self.read = ()
        self.guarded = {}  # _fully_guarded of the files read, as far as asked

    def valid(self):
        """Whether the entry holds a prelude of the files' current bytes;
        sets read. Files whose bytes are the same but not their stats are
        recorded again (stale)."""
        try:
            with open(self.manifest) as f:
                m = json.load(f)
            files, stats = m["files"], m.get("stats", {})
        except (OSError, ValueError, KeyError, AttributeError):
            return False
        if not os.path.isfile(self.pch):
            return False
        self.guarded = dict(m.get("guarded", {}))
        self.stale = {}
        for p, h in files.items():
            st = _stat_key(p)
            if st is not None and stats.get(p) == st:
                continue
            if _sha256(p) != h:
                return False
            self.stale[p] = st
        self.read = [p for p in files if p != os.path.realpath(os.path.join(self.dir, "prelude.h"))]
        self._files, self._stats, self._guarded_kept = files, stats, len(self.guarded)
        if self.stale:
            stats.update(self.stale)
            self._write(files, stats)
        return True

    def _write(self, files, stats):
        from . import runs
        self._files, self._stats, self._guarded_kept = files, stats, len(self.guarded)
        runs.write_atomic(self.manifest, json.dumps({"files": files, "stats": stats, "guarded": self.guarded},
                                                    indent=0) + "\n")

    def keep_guarded(self):
        """Records in the manifest the answers of _fully_guarded added to
        guarded since it was read: the files are those whose bytes it
        holds."""
        if len(self.guarded) == self._guarded_kept:
            return
        with open(os.path.join(self.dir, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:  # unless another scan built the entry again since
                with open(self.manifest) as f:
                    m = json.load(f)
            except (OSError, ValueError):
                return
            if m.get("files") == self._files:
                self.guarded = {**m.get("guarded", {}), **self.guarded}
                self._write(self._files, {**self._stats, **m.get("stats", {})})

    def get(self):
        os.makedirs(self.dir, exist_ok=True)
        with open(os.path.join(self.dir, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self.valid():
                os.utime(self.manifest)  # its use, for the pruning
                return self.pch
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.manifest)
            tmp, tu = _precompile(self.common, self.flags, self.dir, f"prelude.pch.{os.getpid()}.tmp")
            read = {os.path.join(self.dir, "prelude.h")}
            read.update(i.include.name for i in tu.get_includes() if i.include)
            read = sorted({os.path.realpath(p) for p in read})
            stats = {p: _stat_key(p) for p in read}  # before the bytes: a write in between is seen next time
            files = {p: _sha256(p) for p in read}
            os.replace(tmp, self.pch)
            self.guarded = {}
            self._write(files, stats)
            self.read = [p for p in read if p != os.path.realpath(os.path.join(self.dir, "prelude.h"))]
        self._prune()
        return self.pch

    def _prune(self):
        entries = []
        for d in os.listdir(self.root):
            m = os.path.join(self.root, d, "manifest.json")
            with contextlib.suppress(OSError):
                entries.append((os.stat(m).st_mtime, os.path.join(self.root, d)))
        for _, d in sorted(entries, reverse=True)[self.KEEP:]:
            shutil.rmtree(d, ignore_errors=True)


def _prelude_cache(arg):
    """The directory of the kept preludes, or None (--prelude-cache none)."""
    if arg == "none":
        return None
    if arg:
        return os.path.abspath(arg)
    from . import build
    return os.path.join(build.tool("scn-conform").parents[1], "scan-preludes")


def main(args):
    from . import runs, scan_report, scan_walk
    from .progress import Progress, slow_step
    if args.jobs < 1:
        raise UsageError("scan: --jobs must be at least 1")
    if args.batch < 1:
        raise UsageError("scan: --batch must be at least 1")
    if not args.src and not args.compile_commands:
        raise UsageError("scan: give C files or directories (SRC), or --compile-commands")
    cc = _compile_commands(args.compile_commands) if args.compile_commands else {}
    files = _sources(args.src) if args.src else sorted(cc)
    if not files:
        raise UsageError(f"scan: no C files ({', '.join(SOURCE_EXT)}) in {' '.join(args.src)}")
    tmp = tempfile.mkdtemp(prefix="scnfuzz-scan-")
    cache = None if args.no_prelude else _prelude_cache(args.prelude_cache)
    base = ["-x", "c", "-std=gnu11"]
    if args.kernel:
        # the stand-in headers are read by the kept prelude: beside it, one directory per tree
        tree = hashlib.sha256(os.path.realpath(args.kernel).encode()).hexdigest()[:16]
        base += kernel_flags(args.kernel, os.path.join(cache, "kernel-shim", tree) if cache
                             else os.path.join(tmp, "shim"))
    for d in args.includes:
        base += ["-I", os.path.abspath(d)]
    base += [f"-D{d}" for d in args.defines]
    for h in args.preincludes:
        base += ["-include", os.path.abspath(h)]
    t0 = time.monotonic()
    # libclang parses on a new thread of 8 MB stack per file unless told not to; the
    # parser processes inherit this
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    if os.environ.get("SCN_SCAN_MALLOPT", "1") == "1":
        _keep_freed_memory()
    scan_walk.build(tmp)
    groups = collections.defaultdict(list)
    for f in files:
        groups[tuple(base + cc.get(os.path.realpath(f), []))].append(f)
    first, group_of, later, info = [], [], collections.defaultdict(list), []
    for n, (flags, fs) in enumerate(groups.items()):
        pch, outside, saved = None, {}, {}
        if not args.no_prelude and len(fs) >= PRELUDE_MIN_FILES:
            where = os.path.join(tmp, f"g{n}")
            os.makedirs(where)
            with slow_step(f"the precompiled prelude of {len(fs)} files' shared headers", prefix="scan"):
                pch, outside, saved = prelude(fs, flags, where, cache)
        info.append((list(flags), pch, saved, outside))
        # batches only over a prelude: without one, every member's headers are its own
        for b in batches(fs, args.batch if pch else 1, outside):
            if len(b) == 1 and pch and args.batch > 1:  # its headers conflicted with every batch's
                later[n].append(b[0])
            else:  # (a member to be parsed again comes back: later)
                first.append((b, list(flags), pch, {f: saved[f] for f in b} if len(b) > 1 else None, True))
                group_of.append(n)
    by_file, again = {}, set()
    interrupted = None  # the signal that stopped the parse
    prog = Progress("scan")
    read = collections.Counter()  # files with their final result, and their call sites

    def count(r):
        read["files"] += 1
        read["calls"] += len(r.get("calls") or ())
        prog.update(f"{read['files']:,} of {len(files):,} files, {read['calls']:,} printf-family calls, "
                    f"{read['files'] / max(time.monotonic() - t0, 1e-3):.0f} files/s", read["files"] / len(files))
    ex = None if args.jobs == 1 else concurrent.futures.ProcessPoolExecutor(
        args.jobs, mp_context=multiprocessing.get_context("fork"), initializer=_parser_signals)
    old = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for n, (paths, *_), rs in zip(group_of, first, _run_batches(first, ex)):
            for p, r in zip(paths, rs):
                if r.get("redo"):
                    later[n].append(p)
                    again.add(p)
                else:
                    count(r)
                by_file[p] = r
        # the files to be parsed again, and those alone, batched together (those that again
        # cannot be read with the others of their batch are then parsed alone)
        second = []
        for n, fs in later.items():
            flags, pch, saved, outside = info[n]
            second += [(b, flags, pch, {f: saved[f] for f in b} if len(b) > 1 else None, False)
                       for b in batches(fs, args.batch, outside)]
        for (paths, *_), rs in zip(second, _run_batches(second, ex)):
            for p, r in zip(paths, rs):
                if p in again:
                    r["again"], r["second"] = not r.get("batched"), bool(r.get("batched"))
                    r["why"] = r.get("why") or by_file[p].get("why")  # alone now: why its first batch did not keep it
                by_file[p] = r
                count(r)
    except _Stopped as e:
        # what was read is kept: the report of those files, written below, and exit 130
        interrupted = e.args[0]
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
        if ex:
            ex.shutdown(cancel_futures=True)
        prog.done(f"{read['files']:,} of {len(files):,} files read"
                  + (f", interrupted ({signal.Signals(interrupted).name})" if interrupted else ""))
    results = [by_file[f] for f in files if f in by_file and not by_file[f].get("redo")]
    seconds = time.monotonic() - t0
    shutil.rmtree(tmp, ignore_errors=True)  # the prelude and the kernel's stand-in headers
    calls, findings, profile, failed = scan_report.analyse(results, bool(args.kernel))
    parse_errors = sum(1 for r in results if r.get("parse_errors"))
    run = runs.Run.create("scan", args.out)
    m = scan_report.model(sys.argv[2:] if sys.argv[1:2] == ["scan"] else [], len(results), calls, findings,
                          profile, failed, seconds, parse_errors, planned=len(files))
    scan_report.write(run.path, m)
    if args.profile:
        runs.write_atomic(args.profile, json.dumps(m["profile"], indent=1) + "\n")
    _summary(m, run.path, scan_report)
    batched, again = sum(1 for r in results if r.get("batched")), sum(1 for r in results if r.get("again"))
    second = sum(1 for r in results if (r.get("rebatched") or r.get("second")) and r.get("batched"))
    if batched or again:
        whys = collections.Counter(r.get("why") or "?" for r in results if r.get("again"))
        print(f"parsed: {batched} files in batches of up to {args.batch} ({second} of them in a second batch), "
              f"{again} parsed alone again after their batch, {len(results) - batched - again} alone"
              + "".join(f"\n  {n} parsed again: {w}" for w, n in whys.most_common()))
    if interrupted:
        print(f"scan: interrupted: {len(results)} of {len(files)} files read, their report written", file=sys.stderr)
        return 130
    return 1 if findings else 0


class _Stopped(Exception):
    """SIGINT or SIGTERM during the parse (args[0]: the signal)."""


def _stop(signum, frame):
    raise _Stopped(signum)


def _parser_signals():
    """A parser process leaves SIGINT to the scan (a terminal's ^C reaches the
    whole process group): the scan stops taking results and writes the report
    of the files read; SIGTERM ends it as by default."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _keep_freed_memory():
    """glibc's malloc, in this process and the parser processes forked from
    it, keeps what libclang frees: a translation unit's memory (its AST's
    slabs, the prelude's buffers), given back to the kernel at each reparse,
    was faulted in again by the next. SCN_SCAN_MALLOPT=0 leaves malloc as
    it is (to measure the difference)."""
    import ctypes
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 30)
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


def _run_batches(jobs, ex):
    """scan_parse.scan_batch of each job, in order, as each comes (the progress
    line counts them): in the process pool ex, or here."""
    from . import scan_parse
    if ex is None:
        return map(scan_parse.scan_batch, jobs)
    return ex.map(scan_parse.scan_batch, jobs, chunksize=1)


def _summary(m, path, scan_report):
    print(f"scan: {m['files']} files, {m['calls']} printf-family calls, {len(m['findings'])} misuse finding(s) "
          f"in {m['seconds']} s ({m['files_per_second']} files/s)"
          # a file libclang read only in part: its includes or defines may be missing (-I, -D, --kernel)
          + (f"; {m['files_with_parse_errors']} with parse errors, read past them" if m["files_with_parse_errors"]
             else ""))
    for line in scan_report.profile_table(m, 12):
        print("  " + line)
    for d in m["findings"]:
        print(f"{d['file']}:{d['line']}: {d['kind']}: {d['why']}")
    print(f"report: {path}/report.md (report.json, report.sarif)")
