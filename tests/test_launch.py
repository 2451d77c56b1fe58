"""scn-launch (core/supervise/launch.c): how the runner starts every child.
The parent-death signal, the memory and core limits are the supervisor's,
armed in C; the runner arms nothing itself."""
import os
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "runner"))
from scnfuzz import children  # noqa: E402
from scnfuzz.errors import SetupError  # noqa: E402


def limits_of_child(**kw):
    p = children.run(["cat", "/proc/self/limits"], capture_output=True, text=True, timeout=60, **kw)
    assert p.returncode == 0, p.stderr
    rows = {}
    for line in p.stdout.splitlines()[1:]:
        name = line[:26].strip()
        rows[name] = line[26:].split()[:2]
    return rows


def test_a_child_runs_without_core_files_and_under_its_memory_limit():
    rows = limits_of_child(mem=True)
    assert rows["Max core file size"] == ["0", "0"]
    want = str(children.mem_mb() << 20)
    assert rows["Max address space"][0] == want


def test_a_build_runs_without_a_memory_limit():
    rows = limits_of_child(mem=False)
    assert rows["Max address space"][0] == "unlimited"


def test_a_child_whose_parent_already_ended_takes_the_signal_at_once():
    # pid 1 is never this test's process: the launcher's parent is not the one named
    argv = [str(children.launcher()), "1", str(int(signal.SIGTERM)), "0", "--", "sleep", "30"]
    p = subprocess.run(argv, timeout=60)
    assert p.returncode == -signal.SIGTERM


def test_the_child_dies_with_the_process_that_started_it(tmp_path):
    """A Python parent starts `sleep` through the launcher, prints its pid and
    is SIGKILLed: the sleep gets the parent-death signal."""
    code = ("import sys, signal; sys.path.insert(0, %r)\n"
            "from scnfuzz import children\n"
            "p = children.popen(['sleep', '60'], sig=signal.SIGKILL)\n"
            "print(p.pid, flush=True)\n"
            "import time; time.sleep(60)\n") % os.path.join(os.path.dirname(__file__), "..", "runner")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    for _ in range(600):  # the signal is sent when the parent's exit is reaped by init
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    break
        except (ProcessLookupError, FileNotFoundError):
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the child outlived its parent by 60 s")


def test_a_missing_command_is_a_setup_error(tmp_path):
    with pytest.raises(SetupError, match="command not found"):
        children.run(["no-such-command-here"], timeout=10)
    f = tmp_path / "plain"
    f.write_text("x")
    with pytest.raises(SetupError, match="not executable"):
        children.run([str(f)], timeout=10)


def test_the_launcher_refuses_bad_arguments():
    exe = str(children.launcher())
    for argv in ([exe], [exe, "x", "15", "0", "--", "true"], [exe, "1", "15", "0", "true", "x"]):
        p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and "scn-launch" in p.stderr
