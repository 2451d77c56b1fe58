"""The checking library's layers depend in one direction only, and no
header includes itself through others (no include cycle):

    engine (impl/) ; base <- case model <- targets <- oracles <- programs

A file may include the headers of its own layer and of the layers below it.
Every C file under core/, oracles/, programs/ and fuzz/ belongs to a layer
(a new directory or file there is checked without being listed), except
the shims that the vendored kernel and musl sources are built against.
Header names are unique across the layers, so a name says which file it is
when the include is not found next to the including file.
"""
import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parent.parent

LAYERS = [  # lowest first: (name, places: directories, taken recursively, or single files)
    ("engine", ["impl"]),
    ("base", ["core/case/scn_base.h", "core/supervise"]),
    ("case", ["core/case"]),
    ("targets", ["core/targets"]),
    ("oracles", ["oracles"]),
    ("programs", ["programs", "fuzz"]),
]
# Every .c/.h under these must be in a layer.
ROOTS = ["impl", "core", "oracles", "programs", "fuzz"]
# Headers of the kernel's and musl's own worlds (linux/*.h, pthread_arch.h,
# ...): included by the vendored sources, not part of the library's layers.
EXCLUDED = ["core/targets/kernel/shim", "core/targets/musl/shim"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def _rel(root, f):
    return f.relative_to(root).as_posix()


def _under(rel, place):
    return rel == place or rel.startswith(place.rstrip("/") + "/")


def c_files(root):
    """Every .c/.h file under the roots, except the excluded shims."""
    out = []
    for r in ROOTS:
        base = root / r
        if not base.is_dir():
            continue
        for f in sorted(list(base.rglob("*.c")) + list(base.rglob("*.h"))):
            if f.is_file() and not any(_under(_rel(root, f), e) for e in EXCLUDED):
                out.append(f)
    return out


def classify(root):
    """(files: [(rank, layer, path)], unplaced: [path]): the most specific
    place (a file, else the deepest directory) decides a file's layer."""
    files, unplaced = [], []
    for f in c_files(root):
        rel = _rel(root, f)
        best = None
        for rank, (name, places) in enumerate(LAYERS):
            for place in places:
                if _under(rel, place) and (best is None or len(place) > len(best[2])):
                    best = (rank, name, place)
        if best is None:
            unplaced.append(f)
        else:
            files.append((best[0], best[1], f))
    return files, unplaced


def header_index(files):
    """basename -> [(rank, layer, path)] of the layer headers"""
    idx = {}
    for rank, name, f in files:
        if f.suffix == ".h":
            idx.setdefault(f.name, []).append((rank, name, f))
    return idx


def includes(root, files):
    """[(including file, its rank, its layer, included file, its rank, its layer)]
    for every quoted include that names a file of the layers: the file next
    to the includer (relative path) first, else the header of that name."""
    idx = header_index(files)
    by_path = {f.resolve(): (rank, name) for rank, name, f in files}
    out = []
    for rank, name, f in files:
        for inc in INCLUDE.findall(f.read_text(errors="replace")):
            near = (f.parent / inc).resolve()
            if near in by_path:
                tgt = (near,) + by_path[near]
            else:
                cands = idx.get(pathlib.PurePosixPath(inc).name, [])
                if len(cands) != 1:
                    continue  # a system header, a generated one, or an ambiguous name (test below)
                r2, n2, f2 = cands[0]
                tgt = (f2.resolve(), r2, n2)
            out.append((f.resolve(), rank, name, tgt[0], tgt[1], tgt[2]))
    return out


def layer_violations(root):
    files, _ = classify(root)
    return [f"{_rel(root, a)} ({an}) includes {_rel(root, b)} ({bn})"
            for a, ar, an, b, br, bn in includes(root, files) if br > ar]


def include_cycles(root):
    """The include cycles among the files (each as a list of paths, closed)."""
    files, _ = classify(root)
    graph = {}
    for a, _, _, b, _, _ in includes(root, files):
        graph.setdefault(a, set()).add(b)
    cycles, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                cycles.append([_rel(root, p) for p in stack[stack.index(m):]] + [_rel(root, m)])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return cycles


def duplicate_header_names(root):
    files, _ = classify(root)
    return {n: [_rel(root, f) for _, _, f in v] for n, v in header_index(files).items() if len(v) > 1}


# ---------------------------------------------------------------- the tree


def test_every_file_is_in_a_layer():
    files, unplaced = classify(REPO)
    assert not unplaced, "not in any layer (add the place to LAYERS): " + ", ".join(_rel(REPO, f) for f in unplaced)
    layer_of = {_rel(REPO, f): name for _, name, f in files}
    # the directories the library lives in are all covered
    for place, name in [("core/case/case.h", "case"), ("core/case/scn_base.h", "base"),
                        ("core/supervise/supervise.h", "base"),
                        ("core/targets/target.h", "targets"), ("core/targets/kernel/kern_printf.h", "targets"),
                        ("core/targets/musl/musl_api.h", "targets"), ("oracles/rules.h", "oracles"),
                        ("programs/scn_conform.c", "programs"), ("programs/exec/scn_exec.c", "programs"),
                        ("fuzz/fuzz_core.h", "programs")]:
        assert layer_of.get(place) == name, f"{place}: {layer_of.get(place)}, want {name}"
    for d in ["core/case", "core/targets", "oracles", "programs", "fuzz"]:
        assert any(_under(p, d) for p in layer_of), f"no file of {d} checked"


def test_header_names_are_unique():
    assert not duplicate_header_names(REPO)


def test_includes_go_down_the_layers_only():
    bad = layer_violations(REPO)
    assert not bad, "\n".join(bad)


def test_no_include_cycle():
    cycles = include_cycles(REPO)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


# ---------------------------------------------------------------- the checks themselves


def _write(root, rel, text):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def test_the_checks_see_violations(tmp_path):
    """The checks are not vacuous: on a small tree with an upward include,
    a cycle, a file outside the layers and a duplicate name, each is caught;
    on the same tree without them, nothing is."""
    good = {
        "core/case/scn_base.h": "",
        "core/case/case.h": '#include "scn_base.h"\n',
        "core/case/case.c": '#include "case.h"\n',
        "core/targets/target.h": '#include "scn_base.h"\n',
        "core/targets/kernel/kernel.c": '#include "../target.h"\n#include <stdio.h>\n#include "gen.h"\n',
        "core/targets/kernel/shim/linux/kernel.h": '#include "oracle.h"\n',  # excluded
        "oracles/oracle.h": '#include "case.h"\n#include "target.h"\n',
        "oracles/spec.h": '#include "case.h"\n',
        "oracles/rules.h": '#include "spec.h"\n',
        "programs/p.c": '#include "rules.h"\n',
        "fuzz/f.c": '#include "oracle.h"\n',
    }
    for rel, text in good.items():
        _write(tmp_path, rel, text)
    assert classify(tmp_path)[1] == []
    assert layer_violations(tmp_path) == [] and include_cycles(tmp_path) == [] and not duplicate_header_names(tmp_path)

    # an upward include: the case model including an oracle header, through a relative path too
    _write(tmp_path, "core/case/case.c", '#include "case.h"\n#include "../../oracles/oracle.h"\n')
    _write(tmp_path, "core/targets/target.h", '#include "scn_base.h"\n#include "rules.h"\n')
    bad = layer_violations(tmp_path)
    assert any("core/case/case.c (case) includes oracles/oracle.h (oracles)" in b for b in bad), bad
    assert any("core/targets/target.h (targets) includes oracles/rules.h (oracles)" in b for b in bad), bad
    _write(tmp_path, "core/case/case.c", '#include "case.h"\n')
    _write(tmp_path, "core/targets/target.h", '#include "scn_base.h"\n')

    # a cycle inside one layer (which the layer order cannot see)
    _write(tmp_path, "oracles/spec.h", '#include "case.h"\n#include "rules.h"\n')
    assert layer_violations(tmp_path) == []
    cycles = include_cycles(tmp_path)
    assert cycles and set(cycles[0]) == {"oracles/spec.h", "oracles/rules.h"}, cycles
    _write(tmp_path, "oracles/spec.h", '#include "case.h"\n')

    # a new directory under a layer is checked without being listed
    _write(tmp_path, "core/case/api/case_api.c", '#include "oracle.h"\n')
    assert any("core/case/api/case_api.c (case)" in b for b in layer_violations(tmp_path))
    (tmp_path / "core/case/api/case_api.c").unlink()
    # a file outside every layer is reported
    _write(tmp_path, "core/stray.c", "")
    assert [_rel(tmp_path, f) for f in classify(tmp_path)[1]] == ["core/stray.c"]
    (tmp_path / "core/stray.c").unlink()
    # a header name used twice
    _write(tmp_path, "programs/spec.h", "")
    assert set(duplicate_header_names(tmp_path)) == {"spec.h"}
