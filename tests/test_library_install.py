"""The reference engine as a library for other projects.

A tiny consumer (CONSUMER_C: ref_scnprintf into a short buffer, its result
and bytes checked) is compiled, linked and run three ways:
  - find_package(scnref) after `cmake --install` of a build of the checkout;
  - pkg-config (`pkg-config --cflags --libs scnref`, PKG_CONFIG_PATH);
  - add_subdirectory() of the checkout, which must configure the reference
    only: no kernel or musl target, none of the suite's parts.
Only impl/ is built (SCN_BUILD_TOOLS=OFF, or a subproject's defaults), with
the host's cc and no sanitizers, so this takes seconds, not the suite's build.
"""
import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent

# The output "answer=42" does not fit in 8 bytes: the kernel family returns
# what it wrote (7), the C99 family what it would have written (9); the bytes
# after the buffer (guard) stay untouched.
CONSUMER_C = r"""
#include <scn/ref_printf.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char area[12];
    memset(area, 'G', sizeof area);
    int n = ref_scnprintf(area, 8, "%s=%d", "answer", 42);
    int would = ref_snprintf(NULL, 0, "%s=%d", "answer", 42);
    int guard_ok = memcmp(area + 8, "GGGG", 4) == 0;
    printf("scnprintf=%d snprintf=%d bytes=[%s] guard=%s\n", n, would, area, guard_ok ? "ok" : "overwritten");
    return !(n == 7 && would == 9 && strcmp(area, "answer=") == 0 && guard_ok);
}
"""
EXPECTED_OUTPUT = "scnprintf=7 snprintf=9 bytes=[answer=] guard=ok\n"

# The suite's parts (and the targets built from Debian's sources) a consumer
# of the reference must not get.
SUITE_DIRS = ["core", "oracles", "programs", "fuzz", "bench", "tests"]
SUITE_TARGETS = ["scn_target_kernel", "scn_target_musl", "scn_targets", "scn-conform"]


def _generator():
    return ["-G", "Ninja"] if shutil.which("ninja") else []


def _run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p


def _configure_and_build(src, build, *defs):
    conf = _run(["cmake", "-S", src, "-B", build, *_generator(), "-DCMAKE_BUILD_TYPE=Release", *defs])
    _run(["cmake", "--build", build, "-j2"])
    return conf


def _check_consumer_runs(exe):
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout) == (0, EXPECTED_OUTPUT), p.stderr


def _write_consumer(d: pathlib.Path, cmake_head: str):
    d.mkdir(parents=True)
    (d / "consumer.c").write_text(CONSUMER_C)
    (d / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(consumer C)\n" + cmake_head +
        "add_executable(consumer consumer.c)\n"
        "target_link_libraries(consumer PRIVATE scnref::scnref)\n")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A reference-only build of the checkout installed under a fresh prefix."""
    base = tmp_path_factory.mktemp("scnref")
    build, prefix = base / "build", base / "prefix"
    _configure_and_build(REPO, build, "-DSCN_BUILD_TOOLS=OFF")
    _run(["cmake", "--install", build, "--prefix", prefix])
    return prefix


def test_install_tree_is_the_reference_only(installed):
    files = sorted(str(p.relative_to(installed)) for p in installed.rglob("*") if p.is_file())
    assert "lib/libscn_ref.a" in files
    assert "include/scn/ref_printf.h" in files
    assert "lib/pkgconfig/scnref.pc" in files
    for f in ["scnrefConfig.cmake", "scnrefConfigVersion.cmake", "scnrefTargets.cmake"]:
        assert f"lib/cmake/scnref/{f}" in files
    # nothing else: no program, no other library or header of the suite
    assert not [f for f in files if f.startswith("bin/")]
    assert [f for f in files if f.endswith((".a", ".so"))] == ["lib/libscn_ref.a"]
    assert [f for f in files if f.endswith(".h")] == ["include/scn/ref_printf.h"]


def test_find_package_after_install(installed, tmp_path):
    src, build = tmp_path / "src", tmp_path / "build"
    # the version file takes part: a later major version is refused
    _write_consumer(src, "find_package(scnref 1 REQUIRED)\n")
    _configure_and_build(src, build, f"-DCMAKE_PREFIX_PATH={installed}")
    _check_consumer_runs(build / "consumer")

    bad = tmp_path / "src2"
    _write_consumer(bad, "find_package(scnref 99 REQUIRED)\n")
    p = subprocess.run(["cmake", "-S", str(bad), "-B", str(tmp_path / "build2"),
                        f"-DCMAKE_PREFIX_PATH={installed}"], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0 and "scnref" in p.stderr


def test_pkg_config_after_install(installed, tmp_path):
    if not shutil.which("pkg-config"):
        pytest.skip("pkg-config not installed (bash ci/setup.sh)")
    env = dict(os.environ, PKG_CONFIG_PATH=str(installed / "lib" / "pkgconfig"))
    flags = _run(["pkg-config", "--cflags", "--libs", "scnref"], env=env).stdout.split()
    assert any(f.startswith("-I") for f in flags) and "-lscn_ref" in flags
    (tmp_path / "consumer.c").write_text(CONSUMER_C)
    exe = tmp_path / "consumer"
    _run(["cc", "-std=c11", "-Wall", "-Werror", "-o", exe, tmp_path / "consumer.c", *flags])
    _check_consumer_runs(exe)


def test_add_subdirectory_builds_the_reference_only(tmp_path):
    src, build = tmp_path / "src", tmp_path / "build"
    _write_consumer(src, f"add_subdirectory({REPO.as_posix()} scnfuzz)\n")
    conf = _configure_and_build(src, build)
    _check_consumer_runs(build / "consumer")

    # the kernel and musl targets print a status line when configured (built or not)
    out = conf.stdout + conf.stderr
    assert "kernel target" not in out and "musl target" not in out, out
    sub = build / "scnfuzz"
    assert (sub / "impl").is_dir()
    assert [d for d in SUITE_DIRS if (sub / d).exists()] == []
    targets = _run(["cmake", "--build", build, "--target", "help"]).stdout
    assert "scn_ref" in targets
    assert [t for t in SUITE_TARGETS if t in targets] == []
    # the suite's options are OFF by default in a subproject (a consumer may turn them on)
    cache = (build / "CMakeCache.txt").read_text()
    for opt in ["SCN_BUILD_TOOLS", "SCN_WITH_KERNEL", "SCN_WITH_MUSL", "SCN_WERROR", "SCN_INSTALL"]:
        assert f"{opt}:BOOL=OFF" in cache, opt
