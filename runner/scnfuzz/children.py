"""Every child process of scnfuzz dies with it and runs under limits.

- Parent death: PR_SET_PDEATHSIG, so that a child gets a signal when scnfuzz
  dies, even by SIGKILL (no orphan at 100% CPU with parent 1). The child
  checks right after setting it that its parent is still the one that
  started it (the parent may have died between fork and prctl).
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
import ctypes
import os
import resource
import signal
import subprocess

from .errors import SetupError, UsageError

PR_SET_PDEATHSIG = 1
DEFAULT_MEM_MB = 1024


def mem_mb():
    v = os.environ.get("SCN_CHILD_MEM_MB", "")
    try:
        return max(0, int(v)) if v else DEFAULT_MEM_MB
    except ValueError:
        raise UsageError(f"SCN_CHILD_MEM_MB={v!r}: not a number of MiB") from None


try:  # looked up here, not in the child: dlopen between fork and exec can deadlock
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    _prctl = None

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


def preexec(mem=None, sig=signal.SIGKILL):
    """A preexec_fn: dies with the calling process (signal sig), no core
    files, and RLIMIT_AS of mem MiB when mem."""
    parent = os.getpid()

    def fn():
        if _prctl is not None:
            _prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: nobody to signal us
            os.kill(os.getpid(), sig)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if mem:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            lim = mem << 20
            if hard != resource.RLIM_INFINITY:
                lim = min(lim, hard)
            resource.setrlimit(resource.RLIMIT_AS, (lim, hard))
    return fn


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
    try:
        return subprocess.Popen(cmd, env=env, preexec_fn=preexec(m if use_rlimit else 0, sig), **kw)
    except FileNotFoundError:
        raise SetupError(f"{binary}: command not found") from None
    except PermissionError:
        raise SetupError(f"{binary}: not executable") from None


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
