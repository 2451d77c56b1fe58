#!/usr/bin/env bash
# Fuzzer throughput and reach: each libFuzzer harness runs T seconds (default
# 600) on one core from a copy of its seed corpus (corpus/fuzz/<fuzzer>/,
# campaign mode: findings are recorded and the run goes on), then
#   exec/s     libFuzzer's final stats (stat::average_exec_per_sec)
#   coverage   line coverage of impl/src (gcov, ci/gcov_summary.py) reached by
#              replaying the seeds alone and the final corpus through the same
#              harness built with gcc --coverage and a plain main()
#              (build/bench-cov/bench/cov_<fuzzer>, bench/fuzz_replay_main.c)
# Markdown table on stdout and in bench/results/fuzz_throughput.md (_nosan.md).
#
#   bash bench/fuzz_throughput.sh [T]        # env FUZZERS="fuzz_ref ..." to choose
#   SANITIZE=OFF bash bench/fuzz_throughput.sh [T]   # the same harnesses without ASan+UBSan
#
# Builds: build/bench-fuzz (the fuzz preset's options: clang-14, ASan+UBSan,
# libFuzzer; with SANITIZE=OFF build/bench-fuzz-nosan, libFuzzer only) and
# build/bench-cov (gcc, Debug, SCN_COVERAGE=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
T=${1:-600}
fuzzers=${FUZZERS:-$(awk -F'\t' '/^fuzz_/ && $5 == "yes" {print $1}' fuzz/fuzzers.tsv | xargs)}
sanitize=${SANITIZE:-ON}
case "$sanitize" in
  ON) fb=$root/build/bench-fuzz; flavour="ASan+UBSan libFuzzer" ;;
  OFF) fb=$root/build/bench-fuzz-nosan; flavour="libFuzzer, no sanitizers" ;;
  *) echo "fuzz_throughput.sh: SANITIZE must be ON or OFF" >&2; exit 2 ;;
esac
cov=$root/build/bench-cov

if [ ! -f "$fb/CMakeCache.txt" ]; then
  cmake -S . -B "$fb" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSCN_SANITIZE="$sanitize" -DSCN_FUZZ=ON >/dev/null
fi
cmake --build "$fb" -j2 --target $fuzzers >/dev/null
if [ ! -f "$cov/CMakeCache.txt" ]; then
  cmake -S . -B "$cov" -G Ninja -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug -DSCN_COVERAGE=ON >/dev/null
fi
cmake --build "$cov" -j2 --target $(printf 'cov_%s ' $fuzzers) >/dev/null
objdir=$(dirname "$(find "$cov/impl" -name 'printf.c.gcno' | head -1)")

work=$(mktemp -d /tmp/scn-fuzz-throughput.XXXXXX)
trap 'rm -rf "$work"' EXIT


# impl/src line coverage (the TOTAL line of gcov_summary.py) of replaying DIR
coverage() {
  local f=$1 dir=$2
  find "$objdir" -name '*.gcda' -delete
  find "$dir" -type f -print0 | SCN_FUZZ_CONTINUE=1 SCN_FINDINGS=/dev/null xargs -0 -r -n 256 "$cov/bench/cov_$f" >/dev/null 2>&1
  (cd "$objdir" && gcov -n -o . ./*.gcda 2>/dev/null | /usr/bin/python3 "$root/ci/gcov_summary.py") |
    awk '/^TOTAL/ {print $3 " " $4}'
}

rows=()
for f in $fuzzers; do
  cp -r "corpus/fuzz/$f" "$work/$f"
  nseeds=$(find "$work/$f" -type f | wc -l)
  # every [libfuzzer] option of NAME.options (max_len, entropic, ...), as ClusterFuzz passes them
  mapfile -t fopts < <(sed -n 's/^\([a-z_]*\) *= *\(.*\)$/-\1=\2/p' "fuzz/$f.options" | grep -v '^-dict=')
  (cd "$work" && SCN_FUZZ_CONTINUE=1 SCN_FINDINGS="$work/$f.findings" \
    /usr/bin/time -f '%U %S' -o "$work/$f.cpu" \
    "$fb/fuzz/$f" -max_total_time="$T" -seed=1 "${fopts[@]}" \
    -dict="$root/fuzz/printf.dict" -print_final_stats=1 -artifact_prefix="$work/" \
    "$work/$f" >"$work/$f.log" 2>&1) || { tail -30 "$work/$f.log" >&2; echo "fuzz_throughput.sh: $f failed" >&2; exit 1; }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$f.log")
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$f.log")
  # per CPU second: the machine is shared, wall-clock exec/s understates one core
  epc=$(awk -v n="$execs" '{ printf "%d", n / ($1 + $2) }' "$work/$f.cpu")
  nfinal=$(find "$work/$f" -type f | wc -l)
  nfind=$( [ -f "$work/$f.findings" ] && wc -l <"$work/$f.findings" || echo 0)
  read -r seedcov seedfrac < <(coverage "$f" "corpus/fuzz/$f")
  read -r fincov finfrac < <(coverage "$f" "$work/$f")
  echo "# $f: $execs execs, $eps exec/s, corpus $nseeds -> $nfinal, impl/ lines $seedcov -> $fincov" >&2
  rows+=("| \`$f\` | $T | $execs | $eps | $epc | $nseeds -> $nfinal | $nfind | $seedcov $seedfrac | $fincov $finfrac |")
  rm -rf "$work/$f"
done

{
  echo "| fuzzer | s | executions | exec/s (wall) | exec per CPU s | corpus (seeds -> final) | findings (signatures) | impl/src lines, seeds | impl/src lines, final corpus |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), clang-14 $flavour, one process per fuzzer;"
  echo "\`$( [ "$sanitize" = OFF ] && echo 'SANITIZE=OFF ')bash bench/fuzz_throughput.sh $T\`"
} >"$work/table.md"
cat "$work/table.md"
mkdir -p bench/results
cp "$work/table.md" "bench/results/fuzz_throughput$( [ "$sanitize" = OFF ] && echo _nosan).md"
