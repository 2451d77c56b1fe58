"""`scnfuzz scan`: the nodes of a function body in pre-order with their
parents' indices, for scan_misuse.Function.

Through the Python bindings each node is a ctypes callback and a call of
clang_visitChildren, which made the walk most of a file's time once the
headers came precompiled. scan_walk.c does the whole walk in one call: build()
compiles it (cc, into the run's temporary directory) before the parser
processes start, and they load it. When there is no C compiler, the same walk
runs through the bindings (walk_python): the same nodes, slower.
"""
import ctypes
import os
import subprocess

from .mutator import _cindex

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scan_walk.c")
_path = None  # the built library, inherited by the forked parser processes
_lib = None


def build(where):
    """Compile scan_walk.c into where; the path, or None (the Python walk then)."""
    global _path, _lib
    out = os.path.join(where, "scan_walk.so")
    try:
        p = subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", out, SOURCE],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    _path, _lib = (out if p.returncode == 0 else None), None
    return _path


def _library():
    global _lib
    if _lib is None and _path:
        ci = _cindex()
        lib = ctypes.CDLL(_path)
        lib.scan_walk.argtypes = [ci.Cursor, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                  ctypes.c_long]
        lib.scan_walk.restype = ctypes.c_long
        _lib = lib
    return _lib


class Nodes:
    """A subtree in pre-order: kinds[i] (CursorKind ids), parents[i] (-1 at
    the root) and the cursors, made on demand (node(i))."""

    def __init__(self, tu, kinds, parents, cursors):
        self.tu, self.kinds, self.parents, self._cursors = tu, kinds, parents, cursors
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


def walk(cursor):
    lib = _library()
    return walk_c(lib, cursor) if lib else walk_python(cursor)


_room = [0, None]  # the walk's arrays, reused from one function to the next


def walk_c(lib, cursor):
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
            return Nodes(cursor._tu, kinds[:n], parents[:n], own)
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
