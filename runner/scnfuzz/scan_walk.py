"""`scnfuzz scan`: the nodes of a function body in pre-order with their
parents' indices, for scan_misuse.Function.

Through the Python bindings each node is a ctypes callback and a call of
clang_visitChildren, which made the walk most of a file's time once the
headers came precompiled. scan_walk.c does the whole walk in one call: build()
compiles it (cc, once per source into build/tools/) before the parser
processes start, and they load it. When there is no C compiler, the same walk
runs through the bindings (walk_python): the same nodes, slower.

The C walk also picks the calls that may be of the printf family
(scan_calls: a family name, or a callee whose type could carry a format
attribute), so that Python makes cursors of those alone; Nodes.calls is their
indices, or None (the Python walk: every call is looked at). sites() gives,
in one C call per translation unit, all that the scan reads of those calls
and of the unit's diagnostics, and for a batch of files which members must
be parsed alone again; macro_names() the macros a file #defines or #undefs.
"""
import ctypes
import json
import os

from .mutator import _cindex

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scan_walk.c")
_path = None  # the built library, inherited by the forked parser processes
_lib = None


def build(where):
    """The path of scan_walk.c compiled as a shared library, or None (the
    Python walk then): once per source and compiler into build/tools/
    (cc_once), or into where when build/tools cannot be written."""
    global _path, _lib
    from . import cc_once
    _lib = None
    path, _ = cc_once.compiled("scan_walk", [SOURCE], ["-O2", "-shared", "-fPIC"], ".so", fallback=where)
    _path = str(path) if path else None
    return _path


def _library():
    global _lib
    if _lib is None and _path:
        ci = _cindex()
        lib = ctypes.CDLL(_path)
        lib.scan_walk.argtypes = [ci.Cursor, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                  ctypes.c_long]
        lib.scan_walk.restype = ctypes.c_long
        lib.scan_calls.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long,
                                   ctypes.c_void_p]
        lib.scan_calls.restype = ctypes.c_long
        lib.scan_last_child.argtypes = [ci.Cursor, ctypes.c_void_p, ctypes.POINTER(ci.Cursor)]
        lib.scan_last_child.restype = ctypes.c_int
        lib.scan_sites_init.argtypes = [ctypes.c_void_p]
        lib.scan_sites_init.restype = ctypes.c_int
        lib.scan_sites.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p,
                                   ctypes.c_long, ctypes.POINTER(ctypes.c_void_p)]
        lib.scan_sites.restype = ctypes.c_long
        lib.scan_sites_function.argtypes = [ctypes.c_long, ctypes.POINTER(ci.Cursor)]
        lib.scan_sites_function.restype = ctypes.c_int
        lib.scan_macro_names.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.scan_macro_names.restype = ctypes.c_long
        _sites_ready[0] = lib.scan_sites_init(ctypes.c_void_p(ci.conf.lib._handle)) == 0
        _lib = lib
        _api[:] = [_api_table(ci)]
    return _lib


_sites_ready = [False]


def sites(tu, paths, names):
    """What the scan reads of a translation unit whose scanned files are
    paths (one, or the members of a batch in the order its main file
    #includes them), in one C call (scan_walk.c's scan_sites): {"files": per
    path {"errors": its error diagnostics, "wformat": the lines of its
    -Wformat warnings, "tainted": whether a batch's member must be parsed
    alone again}, "functions": [{"file" (an index in paths), "fi", "name",
    "calls": [{"i" (the call's index in the function's walk), "callee", "h"
    (the hash of the function declaration it refers to, or None), "line",
    "col", "off", "args": [{"f", "l", "t", "c", "k", "z", "p"?, "a"?}]}]}]
    (the functions defined in the files that have calls scan_calls keeps),
    "decls": [[hash, attribute ranges or None]]}, or None without the C
    library."""
    lib = _library()
    if lib is None or not _sites_ready[0]:
        return None
    arr = _name_array(names)
    given = [p.encode() for p in paths]
    real = [os.path.realpath(p).encode() for p in paths]
    text = ctypes.c_void_p()
    n = lib.scan_sites(tu.obj, (ctypes.c_char_p * len(given))(*given), (ctypes.c_char_p * len(real))(*real),
                       len(paths), arr, len(arr), ctypes.byref(text))
    if n < 0:
        raise MemoryError("scan_sites")
    return json.loads(ctypes.string_at(text.value, n).decode("utf-8"))


def macro_names(path):
    """The names a C file #defines or #undefs, by scan_walk.c's lexer of its
    directives (those of #if 0 blocks too), or None without the C library or
    when the file cannot be read."""
    lib = _library()
    if lib is None:
        return None
    text = ctypes.c_void_p()
    n = lib.scan_macro_names(path.encode(), ctypes.byref(text))
    if n < 0:
        return None
    return list(dict.fromkeys(ctypes.string_at(text.value, n).decode("utf-8", "surrogateescape").split()))


def site_function(tu, fi):
    """The cursor of the function "fi" of the last sites() answer."""
    ci = _cindex()
    c = ci.Cursor()
    if not _library().scan_sites_function(fi, c):
        raise IndexError(fi)
    c._tu = tu
    return c


class Nodes:
    """A subtree in pre-order: kinds[i] (CursorKind ids), parents[i] (-1 at
    the root) and the cursors, made on demand (node(i))."""

    def __init__(self, tu, kinds, parents, cursors, calls=None):
        self.tu, self.kinds, self.parents, self._cursors = tu, kinds, parents, cursors
        self.calls = calls
        self._made = {}

    def __len__(self):
        return len(self.kinds)

    def node(self, i):
        c = self._made.get(i)
        if c is None:
            ci = _cindex()
            c = ci.Cursor.from_buffer_copy(self._cursors[i]) if not isinstance(self._cursors, list) \
                else self._cursors[i]
            c._tu = self.tu
            self._made[i] = c
        return c


def last_child(cursor):
    """The cursor's last child, or None (scan_parse.strip)."""
    lib = _library()
    if lib is None:
        kids = list(cursor.get_children())
        return kids[-1] if kids else None
    ci = _cindex()
    last = ci.Cursor()
    if not lib.scan_last_child(cursor, ctypes.cast(ci.conf.lib.clang_visitChildren, ctypes.c_void_p), last):
        return None
    last._tu = cursor._tu  # as the bindings' get_children gives it
    return last


def walk(cursor, names=None):
    """cursor's subtree; with names (the family names), the C walk also
    picks the calls to look at (Nodes.calls)."""
    lib = _library()
    return walk_c(lib, cursor, names) if lib else walk_python(cursor)


# scan_calls' struct api: the libclang functions it calls, in its order
_API = ("clang_getCursorReferenced", "clang_Cursor_isNull", "clang_getCursorSpelling", "clang_getCString",
        "clang_disposeString", "clang_getCursorType", "clang_isFunctionTypeVariadic", "clang_getTypeSpelling")
_api = [None]
_names = {}  # a tuple of names -> (its sorted C strings, the array of their pointers)


def _api_table(ci):
    return (ctypes.c_void_p * len(_API))(*[ctypes.cast(getattr(ci.conf.lib, f), ctypes.c_void_p).value
                                            for f in _API])


def _name_array(names):
    got = _names.get(names)
    if got is None:
        strings = [n.encode() for n in sorted(names)]
        got = _names[names] = (strings, (ctypes.c_char_p * len(strings))(*strings))
    return got[1]


_room = [0, None]  # the walk's arrays, reused from one function to the next


def walk_c(lib, cursor, names=None):
    ci = _cindex()
    visit = ctypes.cast(ci.conf.lib.clang_visitChildren, ctypes.c_void_p)
    while True:
        cap, bufs = _room
        if bufs is None:
            cap = max(cap, 4096)
            bufs = (ci.Cursor * cap)(), (ctypes.c_int * cap)(), (ctypes.c_int * cap)()
            _room[:] = [cap, bufs]
        cursors, parents, kinds = bufs
        n = lib.scan_walk(cursor, visit, cursors, parents, kinds, cap)
        if n <= cap:
            own = (ci.Cursor * n).from_buffer_copy(cursors, 0) if n else []
            up, calls = parents[:n], None
            if names is not None:  # the kept calls' indices written over the parents, read above
                arr = _name_array(names)
                calls = parents[:lib.scan_calls(cursors, n, _api[0], arr, len(arr), parents)]
            return Nodes(cursor._tu, kinds[:n], up, own, calls)
        _room[:] = [n * 2, None]


def walk_python(cursor):
    cursors, parents = [], []
    stack = [(cursor, -1)]
    while stack:
        c, p = stack.pop()
        i = len(cursors)
        cursors.append(c)
        parents.append(p)
        for k in reversed(list(c.get_children())):
            stack.append((k, i))
    return Nodes(cursor._tu, [c._kind_id for c in cursors], parents, cursors)
