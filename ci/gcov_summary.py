"""Summarises `gcov -n` output (stdin) as line coverage per file of impl/src and in total."""
import re
import sys

rows, total, covered, name = [], 0, 0, None
for line in sys.stdin:
    line = line.strip()
    m = re.match(r"File '(.*)'$", line)
    if m:
        name = m.group(1)
        continue
    m = re.match(r"Lines executed:([\d.]+)% of (\d+)", line)
    if m and name and "/impl/src/" in name:
        n = int(m.group(2))
        c = round(float(m.group(1)) * n / 100)
        rows.append((name.split("/impl/")[1], c, n))
        total += n
        covered += c
        name = None
for f, c, n in sorted(rows):
    print(f"{f:28s} {c:5d}/{n:<5d} {100 * c / n:6.2f}%")
print(f"{'TOTAL impl/src':28s} {covered:5d}/{total:<5d} {100 * covered / max(total, 1):6.2f}%")
