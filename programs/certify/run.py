#!/usr/bin/python3
"""Stand-in entry for the commands of this part until ./scnfuzz wires them:
    programs/certify/run.py conform --libc-cc "DRIVER" [--name N] [--categories A,B] [--out DIR]
    programs/certify/run.py certify --source F.c ... (see `certify --help`)
Same options, outputs and exit status as `./scnfuzz conform --libc-cc` / `./scnfuzz certify`."""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "runner"))

from scnfuzz.errors import ScnError  # noqa: E402


def main(argv):
    if argv and argv[0] == "certify":
        from scnfuzz import certify
        return certify.main(argv[1:])
    p = argparse.ArgumentParser(prog="scnfuzz conform|fuzz")
    p.add_argument("cmd", choices=["conform", "fuzz"])
    p.add_argument("--time", type=float, default=60.0)
    p.add_argument("--libc-cc", required=True)
    p.add_argument("--name")
    p.add_argument("--categories", type=lambda s: [c for c in s.split(",") if c])
    p.add_argument("--out")
    args = p.parse_args(argv)
    from scnfuzz import anylibc, report
    try:
        if args.cmd == "fuzz":
            run, _ = anylibc.run_fuzz_libc(args)
        else:
            run = anylibc.run_conform_libc(args)
        rep = report.build_report(run)
    except ScnError as e:
        sys.stderr.write(f"scnfuzz: {e}\n")
        return 2
    report.print_summary(rep, run.path)
    return report.exit_code(rep)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
