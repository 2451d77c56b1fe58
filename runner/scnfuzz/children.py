"""Every child process of scnfuzz dies with it and runs under limits.

Each child is started through scn-launch (core/supervise/launch.c), the one
supervisor's program: it arms the parent-death signal (so that a child gets
a signal when scnfuzz dies, even by SIGKILL: no orphan at 100% CPU with
parent 1), turns core files off and sets the memory limit, then execs the
command. The runner arms nothing itself: the supervisor's C code is the one
place that does. scn-launch is compiled on first use into build/tools/ (a
file of its sources' hash), before any CMake build, which runs under it too.
- Memory: RLIMIT_AS of MEM_MB; a sanitizer build reserves terabytes of
  address space for its shadow and cannot run under RLIMIT_AS, so there the
  sanitizer allocator's own limits stand in (ASAN_OPTIONS
  max_allocation_size_mb / allocator_may_return_null: a too-big malloc fails
  like it does under RLIMIT_AS; hard_rss_limit_mb: a backstop on the
  resident size). No core files (a crashing printf under test is a finding,
  not a core dump).
- Time: the caller gives each run a timeout proportional to its work; on
  expiry the child's whole process group is killed (run()).

SCN_CHILD_MEM_MB overrides the memory limit (MiB; 0: none).
"""
import os
import pathlib
import shutil
import signal
import subprocess

from .errors import SetupError, UsageError
from .tree import ROOT

DEFAULT_MEM_MB = 1024


def mem_mb():
    v = os.environ.get("SCN_CHILD_MEM_MB", "")
    try:
        return max(0, int(v)) if v else DEFAULT_MEM_MB
    except ValueError:
        raise UsageError(f"SCN_CHILD_MEM_MB={v!r}: not a number of MiB") from None


_launcher = None


def launcher():
    """The path of scn-launch, compiled with the system's C compiler the first
    time (cc_once: once per source, into build/tools/)."""
    global _launcher
    if _launcher is not None:
        return _launcher
    from . import cc_once
    sup = ROOT / "core" / "supervise"
    exe, why = cc_once.compiled("scn-launch", [sup / "launch.c", sup / "supervise.c"], ["-O2", "-std=gnu11", f"-I{sup}"],
                                headers=[sup / "supervise.h"])
    if not exe:
        raise SetupError(f"building scn-launch failed:\n{why}")
    _launcher = exe
    return exe


def launch_argv(cmd, *, sig=signal.SIGKILL, mem=0):
    """cmd started through scn-launch: dies with this process (signal sig),
    no core files, RLIMIT_AS of mem MiB when mem."""
    return [str(launcher()), str(os.getpid()), str(int(sig)), str(int(mem or 0)), "--", *map(str, cmd)]


def _check_command(binary, cwd):
    """The errors Popen would raise for the command itself (scn-launch would
    only exit 127), said as a set-up error."""
    if "/" in binary:
        path = pathlib.Path(cwd or ".") / binary
        if not path.is_file():
            raise SetupError(f"{binary}: command not found")
        if not os.access(path, os.X_OK):
            raise SetupError(f"{binary}: not executable")
    elif shutil.which(binary) is None:
        raise SetupError(f"{binary}: command not found")


_sanitized = {}


def sanitized(path):
    """Whether a binary is built with ASan (it then reserves terabytes of
    address space: RLIMIT_AS would stop it at start-up)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _sanitized:
        try:
            with open(path, "rb") as f:
                _sanitized[key] = b"__asan_init" in f.read()
        except OSError:
            _sanitized[key] = False
    return _sanitized[key]


def limited_env(binary, env=None, mem=None):
    """The environment for a child running binary: for a sanitizer build, the
    allocator limits that stand in for RLIMIT_AS (the user's ASAN_OPTIONS
    keep precedence: later keys win)."""
    env = dict(os.environ if env is None else env)
    mem = mem_mb() if mem is None else mem
    if mem and sanitized(binary):
        ours = f"max_allocation_size_mb={mem}:allocator_may_return_null=1:hard_rss_limit_mb={4 * mem}"
        user = env.get("ASAN_OPTIONS", "")
        env["ASAN_OPTIONS"] = ours + (":" + user if user else "")
    return env


def popen(cmd, *, env=None, mem=True, sig=signal.SIGKILL, **kw):
    """subprocess.Popen with the limits above, in a session of its own (so
    that its whole group can be killed on a timeout). mem=False: no memory
    limit (compilers, libFuzzer, which has its own -rss_limit_mb)."""
    m = mem_mb() if mem else 0
    binary = str(cmd[0])
    use_rlimit = m and not sanitized(binary)
    env = limited_env(binary, env, m) if m else env
    kw.setdefault("start_new_session", True)
    _check_command(binary, kw.get("cwd"))
    return subprocess.Popen(launch_argv(cmd, sig=sig, mem=m if use_rlimit else 0), env=env, **kw)


def kill_group(p, sig=signal.SIGKILL):
    """sig (SIGKILL unless said) to a child's process group (its own children too)."""
    try:
        os.killpg(p.pid, sig)
    except OSError:
        try:
            p.send_signal(sig)
        except OSError:
            pass


class Timeout(Exception):
    def __init__(self, seconds, stdout, stderr):
        super().__init__(f"no result within {seconds:g} s")
        self.seconds, self.stdout, self.stderr = seconds, stdout, stderr


def run(cmd, *, timeout, input=None, env=None, mem=True, **kw):
    """Runs cmd to its end within timeout seconds (its process group killed
    and Timeout raised otherwise). Returns the CompletedProcess."""
    if kw.pop("capture_output", False):
        kw["stdout"] = kw["stderr"] = subprocess.PIPE
    p = popen(cmd, env=env, mem=mem, stdin=subprocess.PIPE if input is not None else kw.pop("stdin", None), **kw)
    try:
        out, err = p.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p)
        out, err = p.communicate()
        raise Timeout(timeout, out, err) from None
    except BaseException:  # Ctrl-C: the child must not outlive us either
        kill_group(p)
        p.wait()
        raise
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def describe_status(rc):
    """'exit 3' / 'killed by SIGSEGV' for a Popen returncode."""
    if rc is not None and rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit {rc}"
