"""Where the scnfuzz source tree is: the runner builds the C programs from it
through the CMake presets and reads its data (fuzz/fuzzers.tsv, corpus/).

Run from a checkout (`./scnfuzz`, `python3 -m scnfuzz` with runner/ on the
path, or an editable install) the tree is the one holding this file. An
installed copy (`pip install .`) finds it from $SCN_ROOT, or from the current
directory or one of its parents."""
import os
import pathlib


def is_tree(d):
    return (d / "fuzz" / "fuzzers.tsv").is_file() and (d / "CMakePresets.json").is_file()


def find_root():
    env = os.environ.get("SCN_ROOT")
    if env:
        return pathlib.Path(env).resolve()
    here = pathlib.Path(__file__).resolve().parents[2]
    if is_tree(here):
        return here
    cwd = pathlib.Path.cwd().resolve()
    for d in (cwd, *cwd.parents):
        if is_tree(d):
            return d
    return here  # not a tree: cli.main says so before anything runs


ROOT = find_root()
