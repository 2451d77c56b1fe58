#!/usr/bin/python3
"""CPU per file of `./scnfuzz scan`'s parse with a given libclang: one
process, every STEP-th C file of a directory (COUNT of them), the prelude of
the whole directory built as the scan builds it, then per file the parse
alone (scan_parse.FileScan's flags) and the whole of scan_parse.scan_file.

    bench/scan_libclang.py --libclang /usr/lib/llvm-16/lib/libclang-16.so.1 \\
        --kernel TREE TREE/drivers/scsi [--step 10] [--count 40] [--options N]

--options adds CXTranslationUnit_* bits to the measured parse (not to the
scan's). Prints ms of CPU (user + system) per file; CPU time, not wall time,
because the machine is shared."""
import argparse
import json
import os
import resource
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runner"))


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libclang", required=True)
    ap.add_argument("--kernel")
    ap.add_argument("--step", type=int, default=10)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--options", type=lambda s: int(s, 0), default=0)
    ap.add_argument("--no-prelude", action="store_true")
    ap.add_argument("--dump", metavar="FILE", help="write each file's call sites (scan_file's) as JSON lines")
    ap.add_argument("src")
    a = ap.parse_args(argv)
    import clang.cindex as ci
    ci.Config.set_library_file(a.libclang)
    ci.conf.lib  # loaded now: mutator._cindex() keeps it
    from scnfuzz import scan, scan_parse, scan_walk
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    tmp = tempfile.mkdtemp(prefix="scan-libclang-")
    scan_walk.build(tmp)
    flags = ["-x", "c", "-std=gnu11"] + (scan.kernel_flags(a.kernel, os.path.join(tmp, "shim")) if a.kernel else [])
    every = scan._sources([a.src])
    files = every[::a.step][:a.count]
    t = cpu()
    pch = None if a.no_prelude else scan.build_prelude(every, flags, tmp)
    prelude = cpu() - t
    extra = ["-ferror-limit=0", "-Wno-everything", "-Wformat", "-fno-spell-checking"]
    if pch:
        extra += ["-Xclang", "-fno-validate-pch", "-include-pch", pch]
    parse = whole = 0.0
    calls = 0
    dump = open(a.dump, "w") if a.dump else None
    for f in files:
        t = cpu()
        ci.Index.create(excludeDecls=True).parse(f, args=flags + extra, options=scan_parse.KEEP_GOING | a.options)
        parse += cpu() - t
        t = cpu()
        r = scan_parse.scan_file((f, flags, pch))
        whole += cpu() - t
        calls += len(r.get("calls", []))
        if dump:
            dump.write(json.dumps(r, sort_keys=True, default=str) + "\n")
    n = len(files)
    print(f"{a.libclang}: {n} files of {a.src}, prelude {prelude:.1f} CPU-s; parse {1000 * parse / n:.1f} ms/file"
          f"{' (options 0x%x)' % a.options if a.options else ''}, scan_file {1000 * whole / n:.1f} ms/file, "
          f"{calls} calls")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
