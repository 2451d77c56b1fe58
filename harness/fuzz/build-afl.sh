#!/bin/sh
# Builds the fuzz harnesses for AFL++ (afl-clang-fast, persistent mode through
# AFL++'s libAFLDriver.a) into a build directory, default <repo>/build/afl:
#
#   sh harness/fuzz/build-afl.sh [BUILD_DIR]
#
# Then, e.g. (AFL_NO_UI=1 for logs, -V seconds):
#   AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
#     SCN_FUZZ_CONTINUE=1 SCN_FINDINGS=/tmp/afl-findings.jsonl \
#     afl-fuzz -i corpus/fuzz/fuzz_iso_diff -o /tmp/afl-out -V 60 -- build/afl/harness/fuzz/afl_iso_diff
#
# Environment: SCN_WITH_KERNEL / SCN_WITH_MUSL (default ON, both) choose the
# optional targets (musl's object may reference AFL++'s __afl_* symbols:
# harness/targets/musl/CMakeLists.txt allows them); AFL_USE_ASAN=1 builds
# with ASan as well.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/afl}
command -v afl-clang-fast >/dev/null || { echo "build-afl.sh: afl-clang-fast not found (Debian package afl++)" >&2; exit 2; }
cmake -S "$repo" -B "$out" -G Ninja -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCN_AFL=ON -DSCN_WITH_KERNEL="${SCN_WITH_KERNEL:-ON}" -DSCN_WITH_MUSL="${SCN_WITH_MUSL:-ON}" >"$out.configure.log" 2>&1 \
  || { cat "$out.configure.log" >&2; exit 1; }
cmake --build "$out" --target afl_fuzzers -j"${SCN_JOBS:-2}"
