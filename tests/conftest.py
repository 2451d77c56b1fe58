"""Shared pytest set-up: where the build is, and the binaries in it.

The build directory is $SCN_BUILD_DIR, by default <repo>/build/asan (the
`asan` CMake preset that `bash ci/test.sh` builds).
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent

# Shows the report.md of every scnfuzz run a failing test used.
pytest_plugins = ["plugin_findings"]


def build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SCN_BUILD_DIR", str(REPO / "build" / "asan")))


def find_binary(name: str, subdir: str = "") -> pathlib.Path:
    """Path of an executable of the build (e.g. 'scn-conform' in 'programs').

    Fails the test (not an error in collection) with the command to run when
    it is missing."""
    root = build_dir()
    cand = root / subdir / name if subdir else None
    if cand is None or not cand.is_file():
        found = sorted(root.rglob(name)) if root.is_dir() else []
        found = [p for p in found if p.is_file() and os.access(p, os.X_OK)]
        cand = found[0] if found else None
    if cand is None:
        pytest.fail(
            f"{name} not found in the build directory {root}: build it first with "
            f"`bash ci/test.sh` (or `cmake --preset asan && cmake --build build/asan`), "
            f"or point SCN_BUILD_DIR at a build directory", pytrace=False)
    return cand


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def scn_conform() -> pathlib.Path:
    return find_binary("scn-conform", "programs")
