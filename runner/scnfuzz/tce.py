"""Trivial compiler equivalence (Papadakis, Jia, Harman, Le Traon, ICSE 2015).

Every one-edit mutant (and the original) is compiled to an object with the file's own
compile command, optimised (-O2 unless told otherwise), without sanitizers (their checks
would keep apart code that the optimiser proves the same) and without debug information;
the object's code is then compared:
  equivalent  the same code as the original: no test can tell them apart;
  duplicate   the same code as an earlier mutant (detail: its id): one of them is enough;
  stillborn   does not compile (detail: the compiler's first error line);
  live        anything else.
"The code" is every allocated section but the unwinding tables (.text*, .rodata*, .data*,
sizes of .bss*) with its relocations (type, symbol name, addend): not the whole object,
which holds the file's name and debug information. Mutants of one file are compiled in
parallel, each under the same path (its own directory, mapped back to the original's
with -fmacro-prefix-map, so that __FILE__ is the same string in all of them).
"""
import concurrent.futures
import hashlib
import os
import shutil
import struct
import tempfile

from . import children, mutator
from .errors import ScnError

COMPILE_TIMEOUT = 300  # seconds: a compile of a big file on a loaded machine
# flags that change the code without changing the C program (sanitizers, coverage), or
# that make a warning an error, or only concern debug information and file names
DROP_PREFIXES = ("-fsanitize", "-fno-sanitize", "-fprofile", "-fcoverage", "-Werror", "-g",
                 "-fdebug-prefix-map", "-ffile-prefix-map", "-fmacro-prefix-map")
STATUSES = ("live", "equivalent", "duplicate", "stillborn")


class TceError(ScnError):
    """The original does not compile with the command given: one line."""


def _compile_flags(compile_cmd, path, optimisation):
    """compiler, flags: the command without source, -c, -o and dependency options, and
    without sanitizers, coverage, debug information and -Werror (a warning does not
    make a mutant stillborn); with the optimisation asked for."""
    if not compile_cmd:
        raise TceError(f"{path}: no compile command")
    compiler = compile_cmd[0]
    flags = []
    for a in mutator.parse_flags(compile_cmd[1:]):
        if a.startswith(DROP_PREFIXES) or (optimisation is not None and a.startswith("-O")):
            continue
        flags.append(a)
    if optimisation is not None:
        flags.append(optimisation)
    return compiler, flags + ["-w", "-iquote", os.path.dirname(os.path.abspath(path))]


def _elf_code_digest(data):
    """SHA-256 of an ELF64 little-endian relocatable object's code: its allocated
    sections' names and bytes (.bss: size), but .eh_frame, and their relocations."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise TceError("not an ELF64 little-endian object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, stype, flags, _, off, size, link, info, _, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        secs.append((name, stype, flags, off, size, link, info, entsize))
    strtab = secs[shstrndx]

    def cstr(table_off, idx):
        end = data.index(b"\0", table_off + idx)
        return data[table_off + idx:end]

    names = [cstr(strtab[3], s[0]) for s in secs]
    SHF_ALLOC, SHT_NOBITS, SHT_RELA = 0x2, 8, 4
    h = hashlib.sha256()
    for i in sorted(range(shnum), key=lambda i: names[i]):
        name, (_, stype, flags, off, size, *_rest) = names[i], secs[i]
        if not flags & SHF_ALLOC or name == b".eh_frame":
            continue
        h.update(b"S" + name + struct.pack("<Q", size))
        if stype != SHT_NOBITS:
            h.update(data[off:off + size])
    for i in range(shnum):
        _, stype, _, off, size, link, info, entsize = secs[i]
        if stype != SHT_RELA or not secs[info][2] & SHF_ALLOC or names[info] == b".eh_frame":
            continue
        symtab = secs[link]
        symstr = secs[symtab[5]]
        h.update(b"R" + names[info])
        for r in range(size // entsize):
            r_off, r_info, addend = struct.unpack_from("<QQq", data, off + r * entsize)
            sym = r_info >> 32
            st_name, st_info, _, st_shndx = struct.unpack_from("<IBBH", data, symtab[3] + sym * symtab[7])
            sname = cstr(symstr[3], st_name) if st_name else b"section:" + names[st_shndx] \
                if st_shndx < shnum else b""
            h.update(struct.pack("<QIq", r_off, r_info & 0xFFFFFFFF, addend) + sname + b"\0")
    return h.hexdigest()


def _first_error(stderr):
    lines = stderr.decode("utf-8", "replace").splitlines()
    for line in lines:
        if "error" in line:
            return line.strip()
    return lines[0].strip() if lines else "the compiler failed without a message"


def classify(path, source, mutants, compile_cmd, jobs=2, progress=None, optimisation="-O2"):
    """id -> (status, detail) for every mutant of source (the bytes of path), compiled
    with compile_cmd (the build's command for path, compiler first); optimisation=None
    keeps the command's own -O. progress(done, total) is called after each compile."""
    compiler, flags = _compile_flags(compile_cmd, path, optimisation)
    base = os.path.basename(path)
    origin = os.path.dirname(os.path.abspath(path))
    tmp = tempfile.mkdtemp(prefix="scn-tce-")
    try:
        slots = [os.path.join(tmp, f"slot{i}") for i in range(max(1, jobs))]
        for s in slots:
            os.mkdir(s)
        free = list(slots)

        def compile_one(text):
            slot = free.pop()
            try:
                src = os.path.join(slot, base)
                obj = os.path.join(slot, "out.o")
                with open(src, "wb") as f:
                    f.write(text)
                cmd = [compiler, *flags, f"-fmacro-prefix-map={slot}={origin}", "-c", src, "-o", obj]
                try:
                    r = children.run(cmd, timeout=COMPILE_TIMEOUT, mem=False, capture_output=True, cwd=slot)
                except children.Timeout:
                    return None, f"the compiler gave no result within {COMPILE_TIMEOUT} s"
                if r.returncode != 0:
                    return None, _first_error(r.stderr)
                with open(obj, "rb") as f:
                    return _elf_code_digest(f.read()), ""
            finally:
                free.append(slot)

        original, err = compile_one(source)
        if original is None:
            raise TceError(f"{path}: the original does not compile with its command: {err}")
        total = len(mutants)
        out, first_of = {}, {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(compile_one, mutator.apply(source, m)): m for m in mutants}
            digests = {}
            for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                digests[futures[fut].id] = fut.result()
                if progress:
                    progress(done, total)
        for m in sorted(mutants, key=lambda m: m.id):
            digest, err = digests[m.id]
            if digest is None:
                out[m.id] = ("stillborn", err)
            elif digest == original:
                out[m.id] = ("equivalent", "same object code as the original")
            elif digest in first_of:
                out[m.id] = ("duplicate", str(first_of[digest]))
            else:
                first_of[digest] = m.id
                out[m.id] = ("live", "")
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
