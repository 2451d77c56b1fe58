"""core/targets/extract-cached.sh and the machine's source cache
(core/targets/source-cache.sh): what a build unpacks from a big tarball is
unpacked once per machine, every build gets its own copy, and a failed unpack
leaves no entry behind."""
import os
import pathlib
import subprocess
import tarfile

REPO = pathlib.Path(__file__).resolve().parent.parent
EXTRACT = REPO / "core" / "targets" / "extract-cached.sh"


def _tarball(tmp_path):
    top = tmp_path / "pkg" / "lib"
    top.mkdir(parents=True)
    (top / "a.c").write_text("int a;\n")
    (top / "b.c").write_text("int b;\n")
    tb = tmp_path / "pkg.tar.xz"
    with tarfile.open(tb, "w:xz") as t:
        t.add(tmp_path / "pkg", arcname="pkg")
    return tb


def _extract(tb, dest, *members, cache):
    env = dict(os.environ, SCN_SOURCE_CACHE=str(cache))
    return subprocess.run(["sh", str(EXTRACT), str(tb), str(dest), *members],
                          env=env, capture_output=True, text=True, timeout=60)


def test_unpacked_once_then_copied(tmp_path):
    tb, cache = _tarball(tmp_path), tmp_path / "cache"
    r = _extract(tb, tmp_path / "d1", "pkg/lib/a.c", cache=cache)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d1/pkg/lib/a.c").read_text() == "int a;\n"
    # the second build copies the cache's file: marked there, it shows in the copy
    [entry] = [p for p in cache.iterdir() if p.is_dir()]
    (entry / "pkg/lib/a.c").write_text("from the cache\n")
    r = _extract(tb, tmp_path / "d2", "pkg/lib/a.c", "pkg/lib/b.c", cache=cache)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d2/pkg/lib/a.c").read_text() == "from the cache\n"
    assert (tmp_path / "d2/pkg/lib/b.c").read_text() == "int b;\n"  # missing: unpacked then
    # a copy, not a link: a build writing into its sources leaves the cache alone
    (tmp_path / "d2/pkg/lib/b.c").write_text("mutant\n")
    assert (entry / "pkg/lib/b.c").read_text() == "int b;\n"
    # newer than the tarball, so a build rule depending on it is satisfied
    assert (tmp_path / "d2/pkg/lib/b.c").stat().st_mtime >= tb.stat().st_mtime
    # with the cache off the tarball itself is read
    r = _extract(tb, tmp_path / "d3", "pkg/lib/a.c", cache="off")
    assert r.returncode == 0 and (tmp_path / "d3/pkg/lib/a.c").read_text() == "int a;\n"


def test_missing_member_fails_and_leaves_no_entry(tmp_path):
    tb, cache = _tarball(tmp_path), tmp_path / "cache"
    r = _extract(tb, tmp_path / "d1", "pkg/lib/a.c", "pkg/lib/nope.c", cache=cache)
    assert r.returncode != 0 and "nope.c" in r.stderr
    assert not [p for p in cache.iterdir() if p.is_dir()]  # neither an entry nor a temporary
    r = _extract(tb, tmp_path / "d2", "pkg/lib/a.c", cache=cache)
    assert r.returncode == 0 and (tmp_path / "d2/pkg/lib/a.c").read_text() == "int a;\n"
