"""The targets compiled into the tools, as `scn-conform --list-targets` says
(name, dialect, version, native or wrapped scnprintf family, where, api,
group, conventions), and the executor programs of the build.

Two groups (core/targets/target.h): "core" (ref, ref-kernel, glibc, musl,
kernel), what conform and fuzz check when no target is named, and "matrix"
(printfs that libraries vendor: curl, apr, sqlite, ...), checked by name.
api is the family of the target's own entry points: "c99" (the would-be
length), "scnprintf" (bytes written only) or "pointer" (adapted)."""
import pathlib

from . import build, children
from .errors import SetupError, UsageError

# The executors CMake builds: the generic executor (programs/exec/scn_exec.c)
# compiled with a libc's driver (scn-musl-exec: musl-gcc -static, core/targets/musl).
# The matrix's libcs reached only through their compiler drivers (dietlibc:
# `diet gcc`, core/targets/dietlibc; klibc: klcc, core/targets/klibc).
_EXECUTORS = {"scn-musl-exec": ("musl-exec", "iso", "the installed musl (musl-dev libc.a), own process", "core"),
              "scn-dietlibc-exec": ("dietlibc-exec", "iso", "dietlibc (dietlibc-dev), own process", "matrix"),
              "scn-klibc-exec": ("klibc-exec", "iso", "klibc (libklibc-dev), own process", "matrix")}


def list_targets(conform=None):
    conform = conform or build.tool("scn-conform")
    try:
        p = children.run([str(conform), "--list-targets"], capture_output=True, text=True, timeout=120)
    except children.Timeout:
        raise SetupError(f"`{conform} --list-targets` gave no answer in 120 s") from None
    if p.returncode != 0:
        raise SetupError(f"`{conform} --list-targets` failed: {p.stderr.strip()[:200]}")
    out = []
    for line in p.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 5:
            t = {"name": f[0], "dialect": f[1], "version": f[2], "scnprintf": f[3], "where": f[4],
                 "api": "c99", "group": "core", "conventions": ""}
            if len(f) >= 8:
                t.update(api=f[5], group=f[6], conventions=f[7])
            out.append(t)
    return out


def executors():
    """Executor programs found in the build (not selectable by scn-conform)."""
    res = []
    dirs = [pathlib.Path(d) for d in (build.build_dir_for("default"),) if d] + [build.ROOT / "build" / "default"]
    for prog, (name, dialect, desc, group) in _EXECUTORS.items():
        for bdir in dirs:
            found = build._locate(bdir, prog)
            if found:
                try:  # "scn-exec <protocol> <name> <version>" on start, exit at stdin EOF
                    banner = children.run([str(found)], input=b"", capture_output=True, timeout=10).stdout
                    f = banner.decode("utf-8", "replace").splitlines()[0].split(" ", 3)
                    if f[0] == "scn-exec" and len(f) == 4:
                        desc = f"{f[2]} {f[3]}" if not f[3].startswith(f[2]) else f[3]
                except (OSError, SetupError, children.Timeout, IndexError):
                    pass
                where = found.relative_to(build.ROOT) if build.ROOT in found.parents else found
                res.append({"name": name, "dialect": dialect, "version": desc, "scnprintf": "wrapped",
                            "where": f"executor ({where})", "api": "c99", "group": group,
                            "conventions": "the libc's own vsnprintf, in its own process (programs/exec)"})
                break
    return res


def select(all_targets, names, dialect):
    """Checks --target names / --dialect against what is built. Without
    names: the core group (a matrix target is checked when named)."""
    known = {t["name"]: t for t in all_targets}
    if names:
        bad = [n for n in names if n not in known]
        if bad:
            raise UsageError(f"unknown target '{bad[0]}' (built: {', '.join(known)}); see `./scnfuzz targets`")
        sel = [known[n] for n in dict.fromkeys(names)]
        if dialect:
            sel = [t for t in sel if t["dialect"] == dialect]
            if not sel:
                raise UsageError(f"none of the targets {', '.join(names)} is of dialect {dialect}")
        return sel
    sel = [t for t in all_targets if t.get("group", "core") == "core" and (not dialect or t["dialect"] == dialect)]
    if not sel:
        raise UsageError(f"no target of dialect {dialect} is built; see `./scnfuzz targets`")
    return sel
