"""Trivial compiler equivalence (Papadakis, Jia, Harman, Le Traon, ICSE 2015).

Every one-edit mutant is compiled with the file's own compile command, optimised (-O2
unless told otherwise), without sanitizers (their checks would keep apart code that the
optimiser proves the same) and without debug information, and its code is compared:
  equivalent  the same code as the original: no test can tell them apart;
  duplicate   the same code as an earlier mutant (detail: its id): one of them is enough;
  stillborn   does not compile (detail: the compiler's first error line);
  live        anything else.
"The code" is machine code and data with their relocations (type, target, addend), a
relocation into merged constants or strings by the bytes it points at (their place in
the pool depends on the rest of the file): not the whole object, which holds the file's
name and debug information.

Per function (the default): the mutants of one function are compiled together, each as
a copy of the function with its one edit (`F__scn_m17_`, kept with `used`, on the
function's own lines through #line), beside a copy without edit; a mutant's code is its
copy's sections (-ffunction-sections -fdata-sections: code, jump tables, static locals)
with the copy's name made one. One compile then serves some dozens of mutants. It is
sound (the same code for the function is the same program) and finds a little less than
a compile of each mutant's whole file (`per_function=False`), which also sees how the
rest of the file calls the function; a batch that does not compile is done again that
way, one mutant at a time, to name the stillborn ones.
"""
import concurrent.futures
import hashlib
import os
import re
import shutil
import struct
import tempfile

from . import children, mutator
from .errors import ScnError

COMPILE_TIMEOUT = 600  # seconds: a batch of copies of a big function on a loaded machine
BATCH = 40             # mutants per compile in per-function mode
# flags that change the code without changing the C program (sanitizers, coverage), or
# that make a warning an error, or only concern debug information and file names
DROP_PREFIXES = ("-fsanitize", "-fno-sanitize", "-fprofile", "-fcoverage", "-Werror", "-g",
                 "-fdebug-prefix-map", "-ffile-prefix-map", "-fmacro-prefix-map")
STATUSES = ("live", "equivalent", "duplicate", "stillborn")
SHF_ALLOC, SHF_MERGE, SHF_STRINGS = 0x2, 0x10, 0x20
SHT_RELA, SHT_NOBITS = 4, 8


class TceError(ScnError):
    """The original does not compile with the command given: one line."""


def _compile_flags(compile_cmd, optimisation):
    """compiler, flags: the command without source, -c, -o and dependency options, and
    without sanitizers, coverage, debug information and -Werror (a warning does not
    make a mutant stillborn); with the optimisation asked for."""
    flags = []
    for a in mutator.parse_flags(compile_cmd[1:]):
        if a.startswith(DROP_PREFIXES) or (optimisation is not None and a.startswith("-O")):
            continue
        flags.append(a)
    if optimisation is not None:
        flags.append(optimisation)
    return compile_cmd[0], flags + ["-w"]


class _Elf:
    """The sections, symbols and relocations of an ELF64 little-endian object."""

    def __init__(self, data):
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise TceError("the compiler wrote no ELF64 little-endian object")
        self.data = data
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        self.secs = []  # (name offset, type, flags, offset, size, link, info, entsize)
        for i in range(shnum):
            name, stype, flags, _, off, size, link, info, _, entsize = struct.unpack_from(
                "<IIQQQQIIQQ", data, shoff + i * shentsize)
            self.secs.append((name, stype, flags, off, size, link, info, entsize))
        names_at = self.secs[shstrndx][3]
        self.names = [self._cstr(names_at + s[0]) for s in self.secs]

    def _cstr(self, at):
        return self.data[at:self.data.index(b"\0", at)]

    def content(self, i):
        _, stype, _, off, size, *_ = self.secs[i]
        return b"" if stype == SHT_NOBITS else self.data[off:off + size]

    def relocations(self, i):
        """(offset, type, addend, target) of the relocations of section i; target is a
        symbol's name, a section's name, or the bytes a merged-data symbol points at."""
        out = []
        for rs, (_, stype, _, off, size, link, info, entsize) in enumerate(self.secs):
            if stype != SHT_RELA or info != i:
                continue
            symtab = self.secs[link]
            strtab_at = self.secs[symtab[5]][3]
            for r in range(size // entsize):
                r_off, r_info, addend = struct.unpack_from("<QQq", self.data, off + r * entsize)
                at = symtab[3] + (r_info >> 32) * symtab[7]
                st_name, _, _, shndx, value = struct.unpack_from("<IBBHQ", self.data, at)
                out.append((r_off, r_info & 0xFFFFFFFF, addend, self._target(st_name, shndx, value, strtab_at)))
        return out

    def _target(self, st_name, shndx, value, strtab_at):
        if 0 < shndx < len(self.secs):
            _, _, flags, off, size, _, _, entsize = self.secs[shndx]
            if flags & SHF_MERGE and st_name:
                if flags & SHF_STRINGS:
                    return b"str:" + self._cstr(off + value)
                return b"cst:" + self.data[off + value:off + value + max(1, entsize)]
            if not st_name:
                return b"section:" + self.names[shndx]
        return self._cstr(strtab_at + st_name) if st_name else b""

    def digest(self, wanted, rename=lambda b: b):
        """SHA-256 of the sections wanted(name) picks (by their renamed names), each with
        its bytes (size only for .bss) and relocations, targets renamed."""
        h = hashlib.sha256()
        picked = [i for i, n in enumerate(self.names) if self.secs[i][2] & SHF_ALLOC and wanted(n)]
        for i in sorted(picked, key=lambda i: (rename(self.names[i]), i)):
            h.update(b"S" + rename(self.names[i]) + struct.pack("<Q", self.secs[i][4]) + self.content(i))
            for r_off, rtype, addend, target in self.relocations(i):
                h.update(struct.pack("<QIq", r_off, rtype, addend) + rename(target) + b"\0")
        return h.hexdigest()


def _whole_code(name):
    return name != b".eh_frame"


def _first_error(stderr):
    lines = stderr.decode("utf-8", "replace").splitlines()
    for line in lines:
        if "error" in line:
            return line.strip()
    return lines[0].strip() if lines else "the compiler failed without a message"


class _Compiler:
    """Compiles texts as the file would be, each under the same path (one directory per
    worker, mapped back to the file's own with -fmacro-prefix-map: the same __FILE__)."""

    def __init__(self, path, compile_cmd, optimisation, jobs, tmp):
        self.compiler, self.flags = _compile_flags(compile_cmd, optimisation)
        self.origin = os.path.dirname(os.path.abspath(path))
        self.base = os.path.basename(path)
        self.free = []
        for i in range(max(1, jobs)):
            os.mkdir(os.path.join(tmp, f"slot{i}"))
            self.free.append(os.path.join(tmp, f"slot{i}"))

    def object(self, text, extra=()):
        """(the object's bytes, None) or (None, the first error line)."""
        slot = self.free.pop()  # as many slots as worker threads
        try:
            src, obj = os.path.join(slot, self.base), os.path.join(slot, "out.o")
            with open(src, "wb") as f:
                f.write(text)
            cmd = [self.compiler, *self.flags, *extra, "-iquote", self.origin,
                   f"-fmacro-prefix-map={slot}={self.origin}", "-c", src, "-o", obj]
            try:
                r = children.run(cmd, timeout=COMPILE_TIMEOUT, mem=False, capture_output=True, cwd=slot)
            except children.Timeout:
                return None, f"the compiler gave no result within {COMPILE_TIMEOUT} s"
            if r.returncode != 0:
                return None, _first_error(r.stderr)
            with open(obj, "rb") as f:
                return f.read(), None
        finally:
            self.free.append(slot)


def _copy_name(name, key):
    return f"{name}__scn_m{key}_"


def _batch_source(source, span, name, mutants):
    """The file with copies of function `name` after it: copy 0 as it is, then one per
    mutant with its edit, each on the function's own lines, kept though nothing calls it."""
    start, end, at, static = span
    first_line = source.count(b"\n", 0, start) + 1
    keep = b"__attribute__((used)) " + (b"" if static else b"static ")
    function = source[start:end]
    parts = [source[:end]]
    for key, m in [(0, None)] + [(m.id, m) for m in mutants]:
        text = function
        if m is not None:
            a, b = m.start - start, m.end - start
            text = text[:a] + mutator.apply(text[a:b], mutator.relocated(m, -m.start)) + text[b:]
        text = text[:at - start] + _copy_name(name, key).encode() + text[at - start + len(name):]
        parts.append(b"\n#line %d\n" % first_line + keep + text)
    parts.append(b"\n#line %d\n" % (source.count(b"\n", 0, end) + 1))
    parts.append(source[end:])
    return b"".join(parts)


def classify(path, source, mutants, compile_cmd, jobs=2, progress=None, optimisation="-O2",
             per_function=True):
    """id -> (status, detail) for every mutant of source (the bytes of path), compiled
    with compile_cmd (the build's command for path, compiler first); optimisation=None
    keeps the command's own -O. progress(done, total) is called as compiles end."""
    if not compile_cmd:
        raise TceError(f"{path}: no compile command")
    tmp = tempfile.mkdtemp(prefix="scn-tce-")
    try:
        cc = _Compiler(path, compile_cmd, optimisation, jobs, tmp)
        spans = {}
        if per_function:
            try:
                spans = mutator.function_spans(path, mutator.parse_flags(compile_cmd[1:]))
            except mutator.MutatorError:
                spans = {}  # each mutant in its whole file, which says what does not compile
        by_function, singles = {}, []
        for m in mutants:
            if m.function in spans:
                by_function.setdefault(m.function, []).append(m)
            else:
                singles.append(m)
        batches = [(name, ms[i:i + BATCH]) for name, ms in by_function.items()
                   for i in range(0, len(ms), BATCH)]
        keys = {}  # id -> (code key, None) or (None, error)
        reference = {}  # id -> the code key that means "equivalent" for it
        original = [None]  # two workers may both compute it: the same value

        def whole_file(m):
            if original[0] is None:
                data, err = cc.object(source)
                if data is None:
                    raise TceError(f"{path}: the original does not compile with its command: {err}")
                original[0] = ("file", _Elf(data).digest(_whole_code))
            data, err = cc.object(mutator.apply(source, m))
            return m.id, (("file", _Elf(data).digest(_whole_code)) if data else None, err), original[0]

        def batch(name, ms):
            data, err = cc.object(_batch_source(source, spans[name], name, ms),
                                  ("-ffunction-sections", "-fdata-sections"))
            if data is None:
                return [whole_file(m) for m in ms]  # one of them is stillborn: which
            elf = _Elf(data)
            one = re.compile(re.escape(name.encode()) + rb"__scn_m\d+_")
            made_one = lambda b: one.sub(name.encode() + b"__scn", b)

            def code(key):
                mark = _copy_name(name, key).encode()
                return ("function", name, elf.digest(lambda n: mark in n, made_one))
            base = code(0)
            return [(m.id, (code(m.id), None), base) for m in ms]

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
        try:
            futures = [pool.submit(batch, name, ms) for name, ms in batches]
            futures += [pool.submit(lambda m: [whole_file(m)], m) for m in singles]
            for fut in concurrent.futures.as_completed(futures):
                for mid, key, ref in fut.result():
                    keys[mid], reference[mid] = key, ref
                if progress:
                    progress(len(keys), len(mutants))
        finally:  # Ctrl-C or an error: no new compile starts
            pool.shutdown(wait=True, cancel_futures=True)
        out, first_of = {}, {}
        for m in sorted(mutants, key=lambda m: m.id):
            key, err = keys[m.id]
            if key is None:
                out[m.id] = ("stillborn", err)
            elif key == reference[m.id]:
                out[m.id] = ("equivalent", f"the same code as the original's {m.function}()"
                             if key[0] == "function" else "the same object code as the original")
            elif key in first_of:
                out[m.id] = ("duplicate", str(first_of[key]))
            else:
                first_of[key] = m.id
                out[m.id] = ("live", "")
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
