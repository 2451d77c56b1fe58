"""The certification driver of a --target, built once and reused while up
to date: <build>/certify/drivers/<target>/ (beside the recipe CMake wrote),
one directory per target, rebuilt in place when anything it was built from
changed. `./scnfuzz matrix` certifies each in-process implementation in each
run, and the tests certify the same targets again: the driver (its vendored
sources with the sanitizers, libFuzzer's edges and line counters, the link
with the checking library) is the same program each time until the tree or
the build changes.

Up to date means: the same build commands (compiler, flags, the recipe's
sources, definitions, include directories and libraries, the adapter's
text), and the same bytes of every file the build read: each compile's
dependencies as the compiler listed them (-MD: the sources and every header,
the system's included), the driver's archives, and the objects and libraries
of the link. A driver of --source files given by hand is not cached: those
paths are the user's, often a temporary directory's, and one entry each
would only grow."""
import contextlib
import fcntl
import hashlib
import json
import pathlib
import shlex

MANIFEST = "manifest.json"


def _sha(path):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def _deps(dfile):
    """The files a compile read, from its -MD dependency file."""
    try:
        text = pathlib.Path(dfile).read_text(errors="replace")
    except OSError:
        return []
    _, _, rest = text.replace("\\\n", " ").partition(":")
    return [p for p in shlex.split(rest.replace("\\ ", "\0")) if p]


class DriverCache:
    def __init__(self, build_dir, target, key):
        self.dir = pathlib.Path(build_dir) / "certify" / "drivers" / target
        self.exe = self.dir / "scn-certify"
        self.key = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()

    @contextlib.contextmanager
    def lock(self):
        """One certification of the target builds or checks it at a time."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / ".lock", "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield self
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def up_to_date(self):
        try:
            m = json.loads((self.dir / MANIFEST).read_text())
        except (OSError, ValueError):
            return False
        if m.get("key") != self.key or not self.exe.is_file():
            return False
        return all(_sha(p) == h for p, h in m.get("inputs", {}).items())

    def invalidate(self):
        (self.dir / MANIFEST).unlink(missing_ok=True)

    def store(self, dep_files, more_inputs):
        """After a build: what it read, hashed, so the next run can tell."""
        paths = set(more_inputs)
        for d in dep_files:
            paths.update(_deps(d))
        inputs = {}
        for p in sorted(paths):
            ap = str((self.dir / p).resolve()) if not p.startswith("/") else p
            h = _sha(ap)
            if h is not None:
                inputs[ap] = h
        (self.dir / MANIFEST).write_text(json.dumps({"key": self.key, "inputs": inputs}, indent=0) + "\n")
