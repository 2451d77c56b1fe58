"""The runner as a Python package (pyproject.toml): `python3 -m scnfuzz`, and
an installed `scnfuzz` command that works on the checkout it is run in and
says so in one line when it is run outside one."""
import os
import shutil
import subprocess
import sys

from conftest import REPO, build_dir

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def _env(**kw):
    env = {k: v for k, v in os.environ.items() if k not in ("SCN_ROOT", "PYTHONPATH")}
    env["SCN_BUILD_DIR"] = str(build_dir())
    env.update(kw)
    return env


def test_python_m_scnfuzz_is_the_command():
    r = subprocess.run([PY, "-m", "scnfuzz", "targets"], cwd=REPO, capture_output=True, text=True,
                       env=_env(PYTHONPATH=str(REPO / "runner")), timeout=300)
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in r.stdout.splitlines()[1:]]
    assert {"ref", "ref-kernel", "glibc"} <= set(names)
    # the same list as ./scnfuzz gives
    r2 = subprocess.run([str(REPO / "scnfuzz"), "targets"], cwd=REPO, capture_output=True, text=True,
                        env=_env(), timeout=300)
    assert r2.stdout == r.stdout


def test_installed_command_finds_the_checkout(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "runner", src / "runner", ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    r = subprocess.run([PY, "-m", "venv", "--system-site-packages", str(venv)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-build-isolation", "--no-deps",
                        "--no-index", str(src)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    exe = venv / "bin" / "scnfuzz"
    assert exe.is_file()
    # inside the checkout (here: a subdirectory of it) it runs on that tree
    r = subprocess.run([str(exe), "targets"], cwd=REPO / "docs", capture_output=True, text=True,
                       env=_env(), timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].split()[0] == "ref"
    # elsewhere: one line, exit 2; with SCN_ROOT: that tree
    r = subprocess.run([str(exe), "targets"], cwd=tmp_path, capture_output=True, text=True, env=_env(),
                       timeout=300)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "SCN_ROOT" in r.stderr
    r = subprocess.run([str(exe), "targets"], cwd=tmp_path, capture_output=True, text=True,
                       env=_env(SCN_ROOT=str(REPO)), timeout=300)
    assert r.returncode == 0, r.stderr
