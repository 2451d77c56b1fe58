"""A small C program or library the runner needs (scn-launch, the scan's
walk), compiled with the system's C compiler once per source text, compiler
and flags, into build/tools/<stem>-<hash><suffix>, or into a fallback
directory when build/tools cannot be written. An atomic rename: concurrent
runners each get a whole file."""
import contextlib
import hashlib
import os
import pathlib
import shutil
import subprocess

from .tree import ROOT


def c_compiler():
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def compiled(stem, sources, flags, suffix="", fallback=None, headers=()):
    """(path, None), or (None, why): the compiler's error, or that there is none.
    headers: files the sources include, in the hash too."""
    cc = c_compiler()
    if not cc:
        return None, "no C compiler (cc): apt-get install gcc"
    h = hashlib.sha256(repr((cc, tuple(flags))).encode())
    for s in [*sources, *headers]:
        h.update(pathlib.Path(s).read_bytes())
    name = f"{stem}-{h.hexdigest()[:16]}{suffix}"
    kept = ROOT / "build" / "tools" / name
    if kept.is_file():
        return kept, None
    why = "build/tools cannot be written"
    for out in [kept] + ([pathlib.Path(fallback) / name] if fallback else []):
        tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            p = subprocess.run([cc, *flags, *map(str, sources), "-o", str(tmp)], capture_output=True, text=True,
                               timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            why = str(e)
            continue
        if p.returncode:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return None, p.stderr.strip()  # no use trying the same compile elsewhere
        os.replace(tmp, out)
        return out, None
    return None, why
