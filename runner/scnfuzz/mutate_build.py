"""The mutation build of `scnfuzz mutate`: one build per subject (the target
whose printf source is mutated), build/mutate/<subject>/, configured like the
`fuzz` preset (clang-14, libFuzzer + ASan + UBSan) from a copy of the tree,
with only the subject's targets, and with the file under mutation replaced
by its mutant schema (every mutant in one object, chosen at run time by env
SCN_MUTANT: core/targets/mutant_switch.h) or by a patched copy.

  build/mutate/<subject>/src/        the tracked tree (git ls-files), copied
  build/mutate/<subject>/build/      the CMake build (its fetched sources too)
  build/mutate/<subject>/pristine/   the files as fetched, before any change
  build/mutate/<subject>/part<k>/    the same again for the k-th part of a schema split
                                     across builds (--jobs N, a large schema: part())

The file under mutation is in the build's fetched source tree (musl's
src/stdio/vfprintf.c, the kernel's lib/vsprintf.c, the embedded libcs') or,
for impl/, in the copied tree; only its content changes between runs, so a
rebuild is incremental (ninja sees the one changed file)."""
import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shlex
import subprocess

from . import build, children
from .errors import SetupError, UsageError
from .tree import ROOT

MUTATE_DIR = pathlib.Path(os.environ.get("SCN_MUTATE_DIR") or ROOT / "build" / "mutate")  # env: elsewhere
SCHEMA_MARK = b"/* scnfuzz mutant schema:"
PRESET = "fuzz"


@dataclasses.dataclass(frozen=True)
class Subject:
    """A target whose printf source can be mutated."""
    name: str
    conform: tuple          # scn-conform targets that run the source
    fuzzers: tuple          # (fuzzer, {env}) for the campaign stage
    default_file: str       # relative to the source root
    with_options: tuple     # SCN_WITH_<X> left ON (every other optional target OFF)
    root_kind: str          # how to find the source root (source_root)
    what: str
    # (regex on a case's text, why): the cases whose output the unmodified target does not
    # repeat from run to run, left out of the corpus stage and the campaigns' kills
    unrepeatable: tuple = None
    # corpus files (relative to the tree) run besides corpus/*.tsv: cases not every target can
    # run cheaply (corpus/overflow/: glibc writes 2^31 bytes before it fails), which this one does
    extra_corpus: tuple = ()

    def corpus_files(self):
        from . import conform
        return conform.corpus_files() + [ROOT / f for f in self.extra_corpus]


# picolibc's default build has no long double (io-long-double=false): a %L conversion reads a
# double with va_arg where the caller passed a long double on the stack, so on x86-64 it takes
# whatever the register save area holds, the XMM registers as the code before the call left
# them: a mutant anywhere on that path changes the "value" printed (fake kills), and so does
# the previous case in the same process
PICOLIBC_NO_LONG_DOUBLE = (r"\bldouble:", "picolibc's default build reads a double for %L: the value printed "
                           "is what the XMM registers held before the call (oracles/known_bugs.tsv embedded-no-L)")


OVERFLOW_CORPUS = "corpus/overflow/overflow.tsv"  # outputs over INT_MAX bytes (corpus/gen: fam_overflow)
SUBJECTS = {
    "musl": Subject("musl", ("musl",), (("fuzz_iso_diff", ()),), "src/stdio/vfprintf.c", ("MUSL",), "musl",
                    "musl's source package as the build fetched it (apt-get source musl)",
                    extra_corpus=(OVERFLOW_CORPUS,)),
    "kernel": Subject("kernel", ("kernel",), (("fuzz_kernel_diff", ()),), "lib/vsprintf.c", ("KERNEL",),
                      "kernel", "the files the build extracts from linux-source-6.1 (lib/vsprintf.c, ...)"),
    "impl": Subject("impl", ("ref", "ref-kernel"), (("fuzz_iso_diff", ()), ("fuzz_ref", ())), "impl/src/printf.c",
                    (), "tree", "the reference engine, impl/ of this tree", extra_corpus=(OVERFLOW_CORPUS,)),
    "newlib": Subject("newlib", ("newlib",), (("fuzz_matrix", (("SCN_MATRIX_TARGET", "newlib"),)),),
                      "newlib/libc/stdio/vfprintf.c", ("NEWLIB",), "newlib",
                      "newlib's source (newlib-source) as the build unpacks it"),
    "uclibc": Subject("uclibc", ("uclibc",), (("fuzz_matrix", (("SCN_MATRIX_TARGET", "uclibc"),)),),
                      "libc/stdio/_vfprintf.c", ("UCLIBC",), "uclibc",
                      "uClibc-ng's source (uclibc-source) as the build unpacks it"),
    "picolibc": Subject("picolibc", ("picolibc",), (("fuzz_matrix", (("SCN_MATRIX_TARGET", "picolibc"),)),),
                        "newlib/libc/tinystdio/vfprintf.c", ("PICOLIBC",), "picolibc",
                        "picolibc's source package as the build fetched it", PICOLIBC_NO_LONG_DOUBLE),
}
ALIASES = {"ref": "impl", "ref-kernel": "impl"}
OPTIONAL = ("kernel", "musl", "curl", "apr", "sqlite", "pgport", "trio", "stb", "linux-tools", "dietlibc",
            "klibc", "gnulib", "picolibc", "newlib", "uclibc")  # core/CMakeLists.txt SCN_OPTIONAL_TARGETS


def subject(name):
    name = ALIASES.get(name, name)
    if name not in SUBJECTS:
        raise UsageError(f"--target {name}: no mutation subject of that name (one of {', '.join(SUBJECTS)}; "
                         f"ref is impl)")
    return SUBJECTS[name]


class MutationBuild:
    def __init__(self, subj, base=None, jobs=None):
        self.subject = subj
        self.base = pathlib.Path(base) if base else MUTATE_DIR / subj.name
        self.jobs = jobs  # the compiler processes of build() (None: build.jobs_default())
        self.src = self.base / "src"
        self.bdir = self.base / "build"
        self.pristine = self.base / "pristine"
        self.log = self.base / "build.log"

    # ---- the tree
    def sync_tree(self):
        """The tree as the last commit has it (git ls-tree HEAD: neither the
        index nor the work tree, which in a checkout shared by several people
        hold their work in progress, half of a split file staged), copied into src/;
        a file is written only when its blob changed (its mtime otherwise
        kept, so that ninja rebuilds only what changed). A file under mutation
        in the copy (impl/) has its pristine copy updated instead."""
        try:
            out = subprocess.run(["git", "ls-tree", "-r", "-z", "HEAD"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise SetupError(f"git ls-tree failed in {ROOT}: {e}") from None
        want = {}
        for ent in out.decode("utf-8", "surrogateescape").split("\0"):
            if not ent:
                continue
            meta, _, name = ent.partition("\t")
            mode, _type, blob = meta.split()
            if mode in ("100644", "100755"):
                want[name] = (blob, mode)
        self.src.mkdir(parents=True, exist_ok=True)
        listed = self.base / "src.files"
        have = {}
        if listed.is_file():
            for line in listed.read_text().splitlines():
                blob, _, name = line.partition(" ")
                have[name] = blob
        todo = [n for n, (blob, _) in want.items() if have.get(n) != blob or not (self.src / n).is_file()]
        if todo:
            blobs = _cat_blobs([want[n][0] for n in todo])
            for n in todo:
                data = blobs[want[n][0]]
                p = self.pristine / "tree" / n
                d = p if p.is_file() else self.src / n
                d.parent.mkdir(parents=True, exist_ok=True)
                d.write_bytes(data)
                if d == self.src / n:
                    os.chmod(d, 0o755 if want[n][1] == "100755" else 0o644)
        for n in set(have) - set(want):
            try:
                (self.src / n).unlink()
            except OSError:
                pass
        listed.write_text("".join(f"{blob} {n}\n" for n, (blob, _) in sorted(want.items())))

    # ---- configure and build
    def cache_args(self):
        presets = json.loads((ROOT / "CMakePresets.json").read_text())["configurePresets"]
        by = {p["name"]: p for p in presets}
        chain, p = [], by[PRESET]
        while p:
            chain.append(p)
            p = by.get(p.get("inherits")) if p.get("inherits") else None
        cache = {}
        for p in reversed(chain):
            cache.update(p.get("cacheVariables", {}))
        cache.update({"CMAKE_EXPORT_COMPILE_COMMANDS": "ON", "SCN_BUILD_TESTS": "OFF", "SCN_INSTALL": "OFF"})
        for t in OPTIONAL:
            opt = t.upper().replace("-", "_")
            cache[f"SCN_WITH_{opt}"] = "ON" if opt in self.subject.with_options else "OFF"
        gen = next((p["generator"] for p in chain if p.get("generator")), "Ninja")
        return gen, [f"-D{k}={v}" for k, v in sorted(cache.items())]

    def _run(self, cmd, what):
        from .build import _run_progress
        self.base.mkdir(parents=True, exist_ok=True)
        return _run_progress(cmd, what, self.log)

    def configure(self):
        gen, args = self.cache_args()
        stamp = self.base / "configure.args"
        want = "\n".join([gen] + args)
        if (self.bdir / "build.ninja").is_file() and stamp.is_file() and stamp.read_text() == want:
            return
        self.bdir.mkdir(parents=True, exist_ok=True)
        if self._run(["cmake", "-S", str(self.src), "-B", str(self.bdir), "-G", gen] + args,
                     f"configuring the mutation build of {self.subject.name}"):
            raise SetupError(f"configuring the mutation build {self.bdir} failed (log: {self.log})")
        stamp.write_text(want)

    def programs(self):
        """The programs a mutation run needs: scn-conform, scn-replay, the fuzzers."""
        return ["scn-conform", "scn-replay"] + list(dict.fromkeys(f for f, _ in self.subject.fuzzers))

    def build(self):
        rc = self._run(["cmake", "--build", str(self.bdir), "-j", str(self.jobs or build.jobs_default()), "--target"]
                       + self.programs(), f"building the mutation build of {self.subject.name}"
                       + (f" ({self.base.name})" if self.base != MUTATE_DIR / self.subject.name else ""))
        if rc:
            raise SetupError(f"the mutation build of {self.subject.name} failed (log: {self.log}; its last "
                             f"lines say why)")

    def prepare(self):
        """The tree copied, configured and built (the file under mutation as it is now).
        A schema an earlier run left in place may not link (a mutant of
        `!IS_ENABLED(CONFIG_RUST)` makes a call the kernel never defines
        live): then the originals go back and the build is tried once more."""
        self.sync_tree()
        self.configure()
        try:
            self.build()
        except SetupError:
            if not self.restore_all():
                raise
            self.build()

    def part(self, k, jobs=None):
        """The build of the k-th part of a schema split across builds (k >= 1;
        0 is this one): base/part<k>/, a build of its own (its own fetched
        sources too), so that the parts compile at once, each with its share
        of the mutants, and each job's binaries hold only their part."""
        return self if k == 0 else MutationBuild(self.subject, self.base / f"part{k}", jobs=jobs)

    def tool(self, name):
        p = build._locate(self.bdir, name)
        if not p:
            raise SetupError(f"{name} is not in the mutation build {self.bdir}")
        return p

    # ---- the source under mutation
    def source_root(self):
        """The root of the subject's source package in the build (what a
        --patch's paths are relative to: `patch -p1` runs there)."""
        k = self.subject.root_kind
        if k == "tree":
            return self.src
        if k == "musl":
            f = self.bdir / "core" / "targets" / "musl" / "musl-source" / "musl-src.path"
            if not f.is_file():
                raise SetupError(f"the mutation build has no fetched musl source ({f} is missing: see {self.log})")
            return pathlib.Path(f.read_text().strip())
        if k == "kernel":
            return self.bdir / "core" / "targets" / "kernel" / "ksrc" / "linux-source-6.1"
        d = self.bdir / "core" / "targets" / k
        cands = sorted(p.parent.parent.parent for p in d.rglob(self.subject.default_file.rsplit("/", 1)[-1])
                       if p.as_posix().endswith(self.subject.default_file))
        if not cands:
            raise SetupError(f"no fetched {k} source with {self.subject.default_file} under {d}")
        top = cands[0]
        while top != d and not (top / self.subject.default_file).is_file():
            top = top.parent
        return top

    def source_file(self, rel):
        root = self.source_root()
        p = (root / rel).resolve()
        if not p.is_file():
            raise UsageError(f"--file {rel}: no such file in the {self.subject.name} source ({root})")
        return p

    def pristine_path(self, path):
        path = pathlib.Path(path)
        try:
            return self.pristine / "tree" / path.relative_to(self.src)
        except ValueError:
            return self.pristine / "fetched" / path.relative_to(self.bdir)

    def original(self, path):
        """The file's content as fetched (its pristine copy, made on first use)."""
        p = self.pristine_path(path)
        if p.is_file():
            return p.read_bytes()
        data = pathlib.Path(path).read_bytes()
        if data.startswith(SCHEMA_MARK):
            raise SetupError(f"{path} holds a mutant schema and its pristine copy is gone: "
                             f"remove {self.base} and run again")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        return data

    def substitute(self, path, data):
        """The file's content replaced (written only when it differs: ninja
        rebuilds what depends on it). data None: the original back."""
        orig = self.original(path)
        data = orig if data is None else data
        path = pathlib.Path(path)
        if path.read_bytes() != data:
            path.write_bytes(data)

    def restore_all(self, keep=None):
        """Every substituted file back to its original (before a --patch), but
        keep (a path, or a list of paths, left as they are); how many were not."""
        n = 0
        keep = [keep] if isinstance(keep, (str, os.PathLike)) else keep or []
        keep = {pathlib.Path(k).resolve() for k in keep}
        for base, top in ((self.pristine / "tree", self.src), (self.pristine / "fetched", self.bdir)):
            if base.is_dir():
                for p in base.rglob("*"):
                    if p.is_file():
                        dst = top / p.relative_to(base)
                        if keep and dst.resolve() in keep:
                            continue
                        if dst.is_file() and dst.read_bytes() != p.read_bytes():
                            dst.write_bytes(p.read_bytes())
                            n += 1
        return n

    # ---- compile flags (for the mutator's parser and TCE)
    def compile_command(self, path):
        """The build's own command for path (compile_commands.json): (argv, directory)."""
        cc = self.bdir / "compile_commands.json"
        try:
            entries = json.loads(cc.read_text())
        except (OSError, ValueError) as e:
            raise SetupError(f"{cc}: {e}") from None
        path = pathlib.Path(path).resolve()
        wrappers = []
        for e in entries:
            f = pathlib.Path(e["directory"], e["file"]).resolve()
            argv = e.get("arguments") or shlex.split(e["command"])
            if f == path:
                return argv, e["directory"]
            defines = _wrapper_defines(f, path)
            if defines is not None:
                wrappers.append((len(defines), [argv[0]] + defines + [str(path) if a == e["file"] or
                                 pathlib.Path(e["directory"], a).resolve() == f else a for a in argv[1:]],
                                 e["directory"]))
        if wrappers:
            # newlib compiles vfprintf.c through two such files (STRING_ONLY, and with INTEGER_ONLY
            # too: the shared helpers): the one with the fewest macros compiles the most of it
            _, argv, directory = min(wrappers, key=lambda w: w[0])
            return argv, directory
        raise UsageError(f"{path} is not compiled by the mutation build of {self.subject.name} "
                         f"(not in {cc}): it cannot be mutated")

    def compile_args(self, path):
        """The flags that parse the file as the build compiles it (no -c, -o, file)."""
        argv, directory = self.compile_command(path)
        out, skip = [], False
        path = str(pathlib.Path(path).resolve())
        for a in argv[1:]:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD") or a.startswith(("-fsanitize", "-fno-sanitize")):
                continue
            if not a.startswith("-") and str(pathlib.Path(directory, a).resolve()) == path:
                continue
            out.append(_absolute_include(a, directory))
        return out


_WRAPPER_LINE = re.compile(r'\s*#\s*(define\s+(\w+)(?:\s+(.*?))?|include\s+"([^"]+)")\s*$')


def _wrapper_defines(wrapper, path):
    """A file the build compiles that is only macros and an #include of path
    (newlib's svfprintf.c: `#define STRING_ONLY 1` then vfprintf.c; uClibc-ng's
    _vfprintf_internal.c): its macros as -D flags, so that path parses and
    compiles as the build compiles it; None for any other file."""
    try:
        if wrapper.stat().st_size > 4096:
            return None
        text = wrapper.read_text(errors="replace")
    except OSError:
        return None
    defines, included = [], False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("/*", "*", "//")):
            continue
        m = _WRAPPER_LINE.match(line)
        if not m or included:
            return None
        if m.group(4):
            inc = pathlib.Path(m.group(4))
            included = (inc if inc.is_absolute() else wrapper.parent / inc).resolve() == path
            if not included:
                return None
        else:
            defines.append(f"-D{m.group(2)}" + (f"={m.group(3)}" if m.group(3) else ""))
    return defines if included else None


_INCLUDE_FLAG = re.compile(r"^(-I|-isystem|-iquote|-include)(.*)$")


def _absolute_include(a, directory):
    m = _INCLUDE_FLAG.match(a)
    if m and m.group(2) and not os.path.isabs(m.group(2)):
        return m.group(1) + os.path.normpath(os.path.join(directory, m.group(2)))
    return a


def _cat_blobs(ids):
    """blob id -> content, through one `git cat-file --batch`."""
    p = subprocess.run(["git", "cat-file", "--batch"], cwd=ROOT, input="".join(i + "\n" for i in ids).encode(),
                       capture_output=True)
    if p.returncode:
        raise SetupError(f"git cat-file failed in {ROOT}: {p.stderr.decode(errors='replace').strip()[:200]}")
    out, data, pos = {}, p.stdout, 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        oid, kind, size = data[pos:nl].decode().split()
        size = int(size)
        out[oid] = data[nl + 1:nl + 1 + size]
        pos = nl + 1 + size + 1
    return out


def digest(*parts):
    h = hashlib.sha1()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def run_quiet(cmd, timeout, **kw):
    return children.run(cmd, timeout=timeout, capture_output=True, **kw)
