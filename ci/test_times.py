#!/usr/bin/python3
"""Where the test time went: reads the SCN_TEST_TIMES file of a pytest run
(tests/conftest.py: one JSON line per test phase) and prints the xdist groups
and the lone tests by CPU seconds (the worker's and its children's: a figure
that holds on a loaded machine), with their wall seconds: the groups that
bound the run's length and the work to cut. Usage: test_times.py FILE [N]"""
import collections
import json
import sys


def main(path, top=20):
    wall, cpu, tests, system = (collections.Counter() for _ in range(4))
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            key = r.get("group") or r["test"]
            wall[key] += r["wall"]
            cpu[key] += r["cpu_self"] + r["cpu_children"]
            tests[key] += 1
            system[key] += r.get("cpu_system", 0)
    total_wall, total_cpu = sum(wall.values()), sum(cpu.values())
    print(f"tests: {total_wall:.0f} s of wall over the workers, {total_cpu:.0f} CPU-s "
          f"({sum(system.values()):.0f} of them in the kernel); the {top} costliest "
          f"groups and lone tests (CPU-s, of them kernel, wall s, tests):")
    for key, c in cpu.most_common(top):
        print(f"  {c:7.1f}  {system[key]:7.1f}  {wall[key]:7.1f}  {tests[key]:4d}  {key}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20)
