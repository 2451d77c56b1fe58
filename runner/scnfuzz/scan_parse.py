"""`scnfuzz scan`, the C front end: one source file through libclang (a real
C parser, python3-clang-14) -> its printf-family call sites and the misuse
candidates of scan_misuse. Runs in the worker processes of scan.py: what it
returns is plain data (dicts), pickled back to the parent.

A printf-family call is a call of a function that the scanned code declares
with __attribute__((format(printf, M, N))) (the kernel's __printf(M, N)
included: the attribute's tokens are read from its source range), or, when
the declaration is not visible (a file parsed without its include closure),
a function of the families named in FAMILIES. Macros (pr_info, dev_err, ...)
are expanded by the preprocessor: the call found is the one after expansion
(_printk, _dev_err), and the name at the expansion site is kept as `name`.
"""
import ctypes
import functools
import os
import re

from . import scan_misuse, scan_walk
from .mutator import _cindex

KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: go on after a missing header

# fmt index (1-based) of the families, for calls whose declaration does not say it
C99 = {"printf": 1, "fprintf": 2, "sprintf": 2, "snprintf": 3, "vprintf": 1, "vfprintf": 2, "vsprintf": 2,
       "vsnprintf": 3, "dprintf": 2, "vdprintf": 2, "asprintf": 2, "vasprintf": 2}
SCN = {"scnprintf": 3, "vscnprintf": 3, "sysfs_emit": 2, "sysfs_emit_at": 3}
_LEVELS = ("emerg", "alert", "crit", "err", "warn", "warning", "notice", "info", "debug", "dbg", "devel",
           "cont", "vdbg")
_SUFFIXES = ("", "_once", "_ratelimited")
KERNEL = {"printk": 1, "_printk": 1, "printk_deferred": 1, "dev_printk": 3, "dev_err_probe": 3,
          "netdev_printk": 3}
for _lv in _LEVELS:
    for _sf in _SUFFIXES:
        KERNEL[f"pr_{_lv}{_sf}"] = 1
        KERNEL[f"dev_{_lv}{_sf}"] = 2
        KERNEL[f"_dev_{_lv}{_sf}"] = 2
        KERNEL[f"netdev_{_lv}{_sf}"] = 2
# curl's own printf (include/curl/mprintf.h, lib/sendf.h): declared without a format
# attribute before curl 8; curl_msnprintf returns the bytes it wrote, as scnprintf
CURL = {"curl_mprintf": 1, "curl_mfprintf": 2, "curl_msprintf": 2, "curl_msnprintf": 3, "curl_mvprintf": 1,
        "curl_mvfprintf": 2, "curl_mvsprintf": 2, "curl_mvsnprintf": 3, "curl_maprintf": 1, "curl_mvaprintf": 1,
        "Curl_infof": 2, "Curl_failf": 2}
FAMILIES = {**{k: ("c99", v) for k, v in C99.items()}, **{k: ("scnprintf", v) for k, v in SCN.items()},
            **{k: ("kernel", v) for k, v in KERNEL.items()}, **{k: ("curl", v) for k, v in CURL.items()}}
VA_LIST_FUNCS = {"vprintf", "vfprintf", "vsprintf", "vsnprintf", "vdprintf", "vasprintf", "vscnprintf",
                 "curl_mvprintf", "curl_mvfprintf", "curl_mvsprintf", "curl_mvsnprintf", "curl_mvaprintf"}


# ---- clang_Cursor_Evaluate (not in the Python bindings of clang 14)

@functools.lru_cache(maxsize=None)
def _eval_api():
    ci = _cindex()
    L = ci.conf.lib
    L.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    L.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    L.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    L.clang_EvalResult_getKind.restype = ctypes.c_int
    L.clang_EvalResult_getAsStr.argtypes = [ctypes.c_void_p]
    L.clang_EvalResult_getAsStr.restype = ctypes.c_char_p
    L.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    L.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    L.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    L.clang_getExpansionLocation.argtypes = [ci.SourceLocation, ctypes.POINTER(ctypes.c_void_p),
                                             ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    L.clang_getExpansionLocation.restype = None
    L.clang_getCursorLocation.argtypes = [ci.Cursor]
    L.clang_getCursorLocation.restype = ci.SourceLocation
    return L


def expansion_file(cursor):
    """The CXFile (a handle) where the cursor's location is expanded: cheaper
    than cursor.location.file, which names it."""
    L = _eval_api()
    f = ctypes.c_void_p()
    L.clang_getExpansionLocation(L.clang_getCursorLocation(cursor), ctypes.byref(f), None, None, None)
    return f.value


def evaluate(cursor):
    """The value clang computes for an expression: an int, bytes (a string
    literal, concatenated, escapes decoded, cut at a NUL) or None."""
    L = _eval_api()
    r = L.clang_Cursor_Evaluate(cursor)
    if not r:
        return None
    try:
        kind = L.clang_EvalResult_getKind(r)
        if kind == 1:
            return L.clang_EvalResult_getAsLongLong(r)
        if kind == 4:
            return L.clang_EvalResult_getAsStr(r)
        return None
    finally:
        L.clang_EvalResult_dispose(r)


def strip(c, casts=True):
    """An expression without the implicit conversions, parentheses and (with
    casts) the casts over it."""
    from .scan_walk import last_child
    kinds = _strip_kinds(casts)
    while c._kind_id in kinds:
        last = last_child(c)
        if last is None:
            break
        c = last
    return c


@functools.lru_cache(maxsize=None)
def _strip_kinds(casts):
    K = _cindex().CursorKind
    kinds = (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR) if casts else (K.UNEXPOSED_EXPR, K.PAREN_EXPR)
    return frozenset(k.value for k in kinds)


class FileScan:
    """One translation unit's call sites and misuse candidates."""

    def __init__(self, path, args, pch=None, reuse=False, member=None):
        """reuse: parse through the translation unit kept for these flags in
        this process, if any (reparse_include). member: (tu, sites, k), the
        file is member k of a batch already parsed (scan_batch)."""
        ci = _cindex()
        self.ci, self.path = ci, path
        with open(path, "rb") as f:
            self.src = f.read()
        self.real = _realpath(path)
        self._lines = None  # split when a line's text is asked for (a misuse candidate's code)
        self._mine_cache = {}
        self._attr_cache = {}
        if member is not None:
            self.tu, self.sites, self.member = member
        else:
            flags = parse_flags(args, pch)
            self.tu = reparse_include(path, flags) if reuse else None
            if self.tu is None:
                # excludeDecls: the translation unit's children are its own declarations, not the prelude's
                self.tu = ci.Index.create(excludeDecls=True).parse(path, args=flags, options=KEEP_GOING)
            # the diagnostics and call sites in one C call (scan_walk.sites), else through the bindings
            self.sites, self.member = scan_walk.sites(self.tu, [path], _family_names()), 0
        if self.sites is not None:
            mine = self.sites["files"][self.member]
            self.errors = mine["errors"]
            self.format_warnings = set(mine["wformat"])
            return
        self.read_diagnostics()

    def read_diagnostics(self):
        """The error count and the lines of the main file where -Wformat says
        the arguments do not fit, through the bindings."""
        ci = self.ci
        self.errors = 0
        self.format_warnings = set()
        for d in self.tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                self.errors += 1
            elif (d.option or "").startswith("-Wformat") and d.location.file and self._mine(d.location.file):
                self.format_warnings.add(d.location.line)

    def _mine(self, f):
        name = f.name
        if name not in self._mine_cache:
            self._mine_cache[name] = name == self.path or _realpath(name) == self.real
        return self._mine_cache[name]

    def line_text(self, line):
        if self._lines is None:
            self._lines = self.src.split(b"\n")
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1].decode("utf-8", "replace").strip()
        return ""

    def tokens(self, c):
        return [t.spelling for t in c.get_tokens()]

    def format_attr(self, decl):
        """(M, N) of the declaration's format(printf, M, N), or None."""
        key = decl.hash
        if key in self._attr_cache:
            return self._attr_cache[key]
        t = decl.type
        # format(printf, M, N) needs the arguments to check: variadic, or (N = 0) a va_list;
        # most callees are neither, and their children are not visited
        if t.kind == self.ci.TypeKind.FUNCTIONPROTO and not t.is_function_variadic() and "va_list" not in t.spelling:
            return self.attr_from_ranges(key, None)
        ranges = []
        for ch in decl.get_children():
            if not ch.kind.is_attribute():
                continue
            ext = ch.extent  # expansion locations: the attribute's macro (__printf(2, 3)) as written
            s, e = ext.start, ext.end
            if not s.file or not e.file or s.file.name != e.file.name:
                continue
            ranges.append((s.file.name, s.offset, e.offset))
        return self.attr_from_ranges(key, ranges)

    def attr_from_ranges(self, key, ranges):
        """(M, N) of format(printf, M, N) in the text of the attributes'
        ranges [(file, start, end)] (None: the type cannot carry one), kept
        under key (the declaration's hash)."""
        if key in self._attr_cache:
            return self._attr_cache[key]
        out = None
        for name, start, end in ranges or ():
            out = _format_numbers(_lex(self._text(name)[start:end])) or out
        self._attr_cache[key] = out
        return out

    def _text(self, name):
        """A header's bytes (an attribute's tokens are read from them: asking
        libclang for a location in a precompiled header searches all of its
        files, once per attribute)."""
        t = _TEXTS.get(name)
        if t is None:
            try:
                with open(name, "rb") as f:
                    t = f.read()
            except OSError:
                t = b""
            _TEXTS[name] = t
        return t

    def expansion_name(self, c):
        """The identifier written at the call's location (the macro's name when
        the call comes from a macro expansion, else the callee's)."""
        return self.expansion_name_at(c.extent.start.offset, c.spelling)

    def expansion_name_at(self, off, callee):
        return _WORD.match(self.src, off).group().decode("ascii", "replace") or callee

    def scan(self):
        if self.sites is not None:
            return self._scan_sites()
        ci = self.ci
        calls, cands = [], []
        mine = {}
        for top in self.tu.cursor.get_children():
            h = expansion_file(top)
            if h not in mine:
                f = top.location.file
                mine[h] = bool(f) and self._mine(f)
            if not mine[h]:
                continue
            if top.kind == ci.CursorKind.FUNCTION_DECL and top.is_definition():
                fn = scan_misuse.Function(self, top)
                for call in fn.printf_calls():
                    calls.append(call)
                cands.extend(fn.candidates())
        return calls, cands

    def _scan_sites(self):
        """scan() from scan_walk.sites' plain data: a Function (cursors, the
        walk) only for a function with a call whose return value or
        destination the misuse checks read."""
        sites = self.sites
        for key, ranges in sites["decls"]:
            self.attr_from_ranges(key, ranges)
        calls, cands = [], []
        for fn in sites["functions"]:
            if fn["file"] != self.member:
                continue
            kept = []
            for c in fn["calls"]:
                attr = self._attr_cache[c["h"]] if c["h"] is not None else None
                rec = scan_misuse.call_record(self, fn["name"], c, attr)
                if rec is not None:
                    calls.append(rec)
                    kept.append((c["i"], rec))
            if any(rec["callee"] in scan_misuse.CHECKED for _, rec in kept):
                f = scan_misuse.Function(self, scan_walk.site_function(self.tu, fn["fi"]), walk_calls=False)
                f.calls = [(i, rec, list(f.node(i).get_arguments())) for i, rec in kept]
                cands.extend(f.candidates())
        return calls, cands


@functools.lru_cache(maxsize=None)
def _family_names():
    return tuple(FAMILIES)


_TEXTS = {}  # header bytes, per parser process
_REAL = {}  # file name -> its realpath, per parser process (the same headers come back with each file)


def _realpath(name):
    r = _REAL.get(name)
    if r is None:
        r = _REAL[name] = os.path.realpath(name)
    return r

# the bytes expansion_name takes as a name's: '_' and those whose chr() is alphanumeric
# (some bytes over 127 among them, so that a name is cut where the scan always cut it)
_WORD = re.compile(b"[" + b"".join(re.escape(bytes([b])) for b in range(256) if chr(b).isalnum() or b == 0x5F)
                   + b"]*")
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*|0[xX][0-9a-fA-F]+|[0-9]+|\S")


def _lex(text):
    """C tokens of an attribute's text (identifiers, integers, punctuators one
    character each: all that format(printf, M, N) and __printf(M, N) hold)."""
    return [t.decode("latin-1") for t in _TOKEN.findall(text)]


def _format_numbers(toks):
    """(M, N) from the tokens of a format attribute: format(printf, M, N),
    __format__(__printf__, M, N), format(gnu_printf, ...) or the kernel's __printf(M, N)."""
    for i, t in enumerate(toks):
        nums = None
        if t in ("format", "__format__") and i + 7 < len(toks) + 1:
            seq = toks[i + 1:i + 8]
            if len(seq) == 7 and seq[1] in ("printf", "__printf__", "gnu_printf") and seq[2] == "," and seq[4] == ",":
                nums = (seq[3], seq[5])
        elif t == "__printf":
            seq = toks[i + 1:i + 6]
            if len(seq) == 5 and seq[0] == "(" and seq[2] == ",":
                nums = (seq[1], seq[3])
        if nums:
            try:
                return int(nums[0], 0), int(nums[1], 0)
            except ValueError:
                return None
    return None


def parse_flags(args, pch):
    """The parser's flags: args, then the scan's own and the prelude's."""
    # no typo correction: it searches every identifier in scope after each error, and
    # kernel files parsed without a kernel build's generated headers have errors
    flags = list(args) + ["-ferror-limit=0", "-Wno-everything", "-Wformat", "-fno-spell-checking"]
    if pch:  # built by this run from the headers it reads: not checked against them again
        flags += ["-Xclang", "-fno-validate-pch", "-include-pch", pch]
    return flags


# ---- one translation unit per group of flags, reparsed for each file or batch

WRAPPER = ".scnfuzz-scan-main.c"  # the main file of a reparsed unit: virtual, in the working directory
MEMBER_END = "scnfuzz_batch_member_end_"  # + k: declared after a batch's member k
_KEPT = {}  # flags -> the translation unit kept for them, per parser process
_NAMES = {}  # file -> the macro names it #defines or #undefs, per parser process


def _includable(path):
    return not ('"' in path or "\n" in path or "\\" in path)


def reparse_include(path, flags):
    """A translation unit of path through the one kept for flags in this
    process, or None (then parse path alone).

    Each libclang parse pays a fixed cost before the file's own text: the
    driver's toolchain probing, the diagnostics' set-up, loading the prelude
    and a stat of each header it records. A reparse
    (clang_reparseTranslationUnit) keeps the compiler invocation, so the
    driver runs once per group. The main file of the kept unit is a virtual
    file that only #includes the scanned file by its path as given: the
    file's __FILE__, its line numbers and its quoted includes stay its own.
    (An #include names the file through the includer's directory, "./" for
    the working directory's wrapper: -fmacro-prefix-map takes it off again,
    so that __FILE__ is the path as given. The file's CXFile name may keep
    it: FileScan._mine compares real paths.)"""
    if not _includable(path):
        return None
    return _kept_unit(f'#include "{path}"\n'.encode(), flags)


def _kept_unit(text, flags):
    ci = _cindex()
    key = tuple(flags)
    tu = _KEPT.get(key)
    if tu is not None:
        files = (ci._CXUnsavedFile * 1)()
        files[0].name, files[0].contents, files[0].length = WRAPPER.encode(), text, len(text)
        if ci.conf.lib.clang_reparseTranslationUnit(tu, 1, files, 0) == 0:
            return tu
        del _KEPT[key]  # a failed reparse leaves the unit unusable: parse again
    tu = ci.Index.create(excludeDecls=True).parse(WRAPPER, args=list(flags) + ["-fmacro-prefix-map=./="],
                                                  unsaved_files=[(WRAPPER, text)], options=KEEP_GOING)
    _KEPT[key] = tu
    return tu


def batch_main(paths, headers):
    """The main file of a batch: each path #included in turn, the macros that
    it and its headers outside the prelude (headers[path]) #define or #undef
    (scan_walk.macro_names: the lexer's, never a pattern over text) saved
    before it and restored after it with #pragma push_macro/pop_macro, so
    that the next member sees the macros as they were; or None when a path
    cannot be #included or a file's names cannot be read. After each member
    the main file declares MEMBER_END + its index."""
    out = []
    for k, p in enumerate(paths):
        names = []
        for f in [p] + list(headers.get(p, ())):
            if f not in _NAMES:  # a header outside the prelude may come back with each member
                _NAMES[f] = scan_walk.macro_names(f)
            if _NAMES[f] is None:
                return None
            names += _NAMES[f]
        if not _includable(p):
            return None
        names = list(dict.fromkeys(names))
        out += [f'#pragma push_macro("{n}")\n' for n in names]
        out.append(f'#include "{p}"\n')
        out += [f'#pragma pop_macro("{n}")\n' for n in names]
        # a declaration at file scope only when the member's parse ended there: an error's
        # recovery that skips to a closing brace would go on into the next member
        # (scan_walk.c's note_member_end)
        out.append(f"typedef int {MEMBER_END}{k};\n")
    return "".join(out).encode("utf-8", "surrogateescape")


TAINT_UNENDED = 5  # scan_walk.c's reason: the member's parse, or an earlier member's, did not end at file scope
# why a member was parsed alone (scan_walk.c's reasons), for scan's summary
WHY = {2: "refers to an earlier member's declaration", 3: "defines a name another member defines",
       4: "includes another member or is included by one", 5: "its parse did not end at file scope"}


def scan_batch(job):
    """Worker entry: job = (paths, args, pch, headers) -> scan_file's result
    of each path, in order. Several paths are parsed as one translation unit
    (batch_main), which pays the parse's fixed cost once. A member is parsed
    alone again, after the batch's members are read, when scan_walk.sites
    says it is tainted (it refers to what a member before it or that
    member's headers declare, a diagnostic in it has a note in another
    member: a name both define, or it #includes another member or is
    #included by one). The members after one whose parse did not end at
    file scope, or after one that read a header outside the prelude whose
    macros batch_main did not save (not in headers[member]), were read in a
    state their own text did not make: they are parsed again as a batch of
    their own (that member alone), checked as this one. With defer (job's
    fifth item), a member of several to be parsed alone (but the one whose
    parse did not end) is not: its result is {"file", "redo": True, "why"},
    and the caller batches it with others (scan.main's second round)."""
    paths, args, pch, headers = job[:4]
    defer = len(job) > 4 and job[4] and len(paths) > 1
    got, again, why = {}, [], {}
    culprit = None  # the first member whose parse did not end at file scope: it would not in any batch
    text = batch_main(paths, headers) if len(paths) > 1 else None
    if text is not None:
        try:
            tu = _kept_unit(text, parse_flags(args, pch))
            sites = scan_walk.sites(tu, paths, _family_names())
            after = len(paths)  # the members from here on saw macros that were not saved
            for k, p in enumerate(paths):
                saved = {_realpath(h) for h in headers.get(p, ())}
                if after > k and any(_realpath(h) not in saved for h in sites["files"][k]["headers"]):
                    after = k + 1
            for k, p in enumerate(paths):
                taint = sites["files"][k]["tainted"]
                why[k] = WHY.get(taint)
                if taint == TAINT_UNENDED and culprit is None:
                    culprit = k
                elif k >= after or taint == TAINT_UNENDED:
                    again.append(k)
                    why[k] = ("after a member whose parse did not end at file scope" if taint == TAINT_UNENDED
                              else "after a member that read a header whose macros were not saved")
                elif not taint:
                    fs = FileScan(p, args, member=(tu, sites, k))
                    calls, cands = fs.scan()
                    got[k] = {"file": p, "calls": calls, "candidates": cands, "parse_errors": fs.errors,
                              "batched": len(paths)}
        except Exception:  # noqa: BLE001 -- each member is then parsed alone, as without batches
            got, again, why = {}, [], dict.fromkeys(range(len(paths)), "the batch's parse failed")
    if len(again) > 1:
        for k, r in zip(again, scan_batch(([paths[k] for k in again], args, pch, headers, defer))):
            r["rebatched"] = True
            got[k] = r
    out = []
    for k, p in enumerate(paths):
        if k not in got and defer and k != culprit:
            got[k] = {"file": p, "redo": True, "why": why.get(k)}
        elif k not in got:
            got[k] = scan_file((p, args, pch))
            got[k]["again"] = len(paths) > 1  # parsed alone after its batch
            got[k]["why"] = why.get(k) if len(paths) > 1 else None
        out.append(got[k])
    return out


def scan_file(job):
    """Worker entry: job = (path, args, pch) -> dict (calls, candidates, errors) or {"error"}."""
    path, args, pch = job
    try:
        fs = FileScan(path, args, pch, reuse=True)
        calls, cands = fs.scan()
    except Exception as e:  # a file libclang cannot read at all: reported, the scan goes on
        return {"file": path, "error": f"{type(e).__name__}: {e}"}
    return {"file": path, "calls": calls, "candidates": cands, "parse_errors": fs.errors}
