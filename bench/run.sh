#!/usr/bin/env bash
# Reproduces the README's benchmark table: instructions per call (callgrind,
# stable on a noisy machine) and calls per second (wall clock, noisy: compare
# ratios within one run), for each implementation and workload.
#   bash bench/run.sh [ITERS_FOR_CALLGRIND]
set -euo pipefail
cd "$(dirname "$0")/.."
iters=${1:-2000}
cmake --preset default >/dev/null
cmake --build build/default --target bench_printf >/dev/null
bin=build/default/bench/bench_printf
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$bin" --iters 200000 > "$tmp/speed.txt"
impls=$(awk '{print $1}' "$tmp/speed.txt" | awk '!seen[$0]++')
workloads=$(awk '{print $2}' "$tmp/speed.txt" | awk '!seen[$0]++')

echo "| workload | $(echo $impls | sed 's/ / instr\/call | /g') instr/call | ref vs glibc (instr) | $(echo $impls | sed 's/ / calls\/s | /g') calls/s |"
echo "|---|$(for i in $impls; do printf -- '---|'; done)---|$(for i in $impls; do printf -- '---|'; done)"
for w in $workloads; do
  row="| \`$w\` |"
  declare -A ipc=()
  for i in $impls; do
    calls=$(awk -v i="$i" -v w="$w" '$1==i && $2==w {sub("calls=","",$3); print $3}' "$tmp/speed.txt")
    calls=$(( calls * iters / 200000 ))
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --toggle-collect='bench_run_*' \
      "$bin" --impl "$i" --workload "$w" --iters "$iters" >/dev/null 2>"$tmp/vg.err"
    ir=$(grep -E '^(summary|totals):' "$tmp/cg.out" | head -1 | awk '{print $2}')
    ipc[$i]=$(( ir / calls ))
    row="$row ${ipc[$i]} |"
  done
  ratio=$(awk -v a="${ipc[glibc]}" -v b="${ipc[ref]}" 'BEGIN{printf "%.2fx fewer", a/b}')
  row="$row $ratio |"
  for i in $impls; do
    cps=$(awk -v i="$i" -v w="$w" '$1==i && $2==w {sub("calls_per_s=","",$5); printf "%.2fM", $5/1e6}' "$tmp/speed.txt")
    row="$row $cps |"
  done
  echo "$row"
  unset ipc
done
