#!/usr/bin/env bash
# Line coverage of impl/ (the reference engine) by the tests: the C tests and
# the conformance corpus run on the ref and ref-kernel targets.
#   bash ci/coverage.sh          -> per-file and total line coverage of impl/src
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash ci/setup.sh >/dev/null
cmake --preset coverage >/dev/null
cmake --build build/coverage -j"$(nproc)" >/dev/null
find build/coverage -name '*.gcda' -delete
ctest --test-dir build/coverage -R 'ref_engine|float_mpfr' >/dev/null
build/coverage/programs/scn-conform --target ref --target ref-kernel corpus/*.tsv >/dev/null || true
objdir=$(dirname "$(find build/coverage/impl -name 'printf.c.gcda' | head -1)")
cd "$objdir"
gcov -n -o . ./*.gcda 2>/dev/null | /usr/bin/python3 "$root/ci/gcov_summary.py"
