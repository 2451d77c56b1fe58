"""The checking library's layers depend in one direction only (no include
cycle): base <- case model <- targets <- oracles <- programs. A file may
include the headers of its own layer and of the layers below it; the header
names are unique across the layers, so a name says which layer it is.
"""
import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parent.parent

LAYERS = [  # lowest first: (name, directories, or single files)
    ("base", ["core/case/scn_base.h"]),
    ("case", ["core/case"]),
    ("targets", ["core/targets", "core/targets/kernel/kernel.c", "core/targets/musl/musl.c"]),
    ("oracles", ["oracles"]),
    ("programs", ["fuzz", "programs", "programs/exec", "programs/certify"]),
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_files():
    seen, out = set(), []
    for rank, (name, places) in enumerate(LAYERS):
        for place in places:
            p = REPO / place
            files = [p] if p.is_file() else sorted(list(p.glob("*.c")) + list(p.glob("*.h")))
            for f in files:
                if f not in seen:
                    seen.add(f)
                    out.append((rank, name, f))
    return out


def test_includes_go_down_the_layers_only():
    files = layer_files()
    header_rank = {f.name: (rank, name) for rank, name, f in files if f.suffix == ".h"}
    assert header_rank["case.h"][1] == "case" and header_rank["rules.h"][1] == "oracles"
    bad = []
    for rank, name, f in files:
        for inc in INCLUDE.findall(f.read_text(errors="replace")):
            base = pathlib.PurePosixPath(inc).name
            if base in header_rank and header_rank[base][0] > rank:
                bad.append(f"{f.relative_to(REPO)} ({name}) includes {inc} ({header_rank[base][1]})")
    assert not bad, "\n".join(bad)


def test_the_check_sees_a_violation(tmp_path):
    """The check is not vacuous: a case-model file that included oracle.h would be caught."""
    files = layer_files()
    header_rank = {f.name: rank for rank, _, f in files if f.suffix == ".h"}
    case_rank = next(rank for rank, name, _ in files if name == "case")
    assert header_rank["oracle.h"] > case_rank and header_rank["target.h"] > case_rank
