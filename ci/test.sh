#!/usr/bin/env bash
# Runs every test: set-up, the builds, the C tests (ctest), then pytest.
# This is the README's test command and what .ci/run calls: every test, no
# marker filter (a nightly job runs the same). Arguments go to pytest; the
# markers of pytest.ini (slow, campaign) select by length:
#   bash ci/test.sh -m "slow or campaign"          # the long tests only (builds, suites, campaigns)
#   bash ci/test.sh -m "not slow and not campaign" # the quick set, while editing
# Fixed-time campaigns run in their short form (SCN_TEST_CAMPAIGNS=short);
# the nightly runs the long form: SCN_TEST_CAMPAIGNS=long bash ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
cores=$(nproc)
# A failed step leaves nothing running. The trap must not fail itself: with
# nothing left to kill, a bare `kill` exits 2 and set -e made that the script's
# status after every test had passed.
stop_jobs() { local j; j=$(jobs -p); [ -z "$j" ] || kill $j 2>/dev/null || true; }
trap stop_jobs EXIT

# Every CMake build of the run (the three below, and those the tests make: OSS-Fuzz's,
# the mutation builds, a library install) compiles through ccache, whose cache
# (~/.cache/ccache) outlives the clone like the source cache: a second run on the
# machine, or a contributor's next run, compiles only what changed. ccache hashes
# the paths under CCACHE_BASEDIR relative to the compiler's directory: with the
# common parent of the clone and pytest's temporary directories there, the next
# run's builds hit the same entries when the clone is at the same path (the builds
# tests make reach the sources through a path that names the clone's directory;
# pytest's temporary directories stay outside the clone, where tests of a command
# run outside a checkout expect them). SCN_NO_CCACHE=1 turns it off (a cold measurement).
if [ -z "${SCN_NO_CCACHE:-}" ] && command -v ccache >/dev/null; then
  base=$(/usr/bin/python3 -c 'import os, sys; print(os.path.commonpath(sys.argv[1:]))' "$PWD" "${TMPDIR:-/tmp}")
  [ "$base" != / ] || base=$PWD  # ccache's manual: never / (system headers' paths would move)
  export CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$base" CCACHE_NOHASHDIR=1
fi

# The three build directories the tests use, configured side by side (configuring
# mostly waits: apt-get source, package queries): build/asan (ASan+UBSan at -O1,
# where the tests run), build/fuzz (libFuzzer) and build/afl (AFL++ on the ISO
# differential fuzzer, without the kernel and the matrix's implementations, as
# tests/test_fuzzers.py configures it).
cmake --preset asan >/dev/null &
asan=$!
cmake --preset fuzz >/dev/null &
fuzz=$!
cmake --preset afl -B build/afl -DSCN_WITH_KERNEL=OFF -DSCN_WITH_MATRIX=OFF >/dev/null &
afl=$!
wait "$asan"
wait "$fuzz"
wait "$afl"
cmake --build build/asan -j"$cores"

# The C tests beside the fuzzing builds. Those are built before pytest starts, so
# that no two tests build into one directory at once (tests run two at a time).
ctest_log=$(mktemp)
trap 'stop_jobs; rm -f "$ctest_log"' EXIT
ctest --test-dir build/asan --output-on-failure -j"$cores" >"$ctest_log" 2>&1 &
ctest_pid=$!
# the fuzzers of fuzz/fuzzers.tsv and scn-replay (what tests/test_fuzzers.py builds)
mapfile -t fuzzers < <(awk -F'\t' '/^fuzz_/ { print $1 }' fuzz/fuzzers.tsv)
cmake --build build/fuzz -j"$cores" --target "${fuzzers[@]}" scn-replay
cmake --build build/afl -j"$cores" --target fuzz_iso_diff
# (the library `scnfuzz certify` links every driver with, scn_certify, is part of build/asan's build)
ctest_rc=0
wait "$ctest_pid" || ctest_rc=$?
cat "$ctest_log"
[ "$ctest_rc" -eq 0 ] || exit "$ctest_rc"

# Two pytest-xdist workers; tests that share a build, a whole-suite run or a
# directory stay in one worker (tests/conftest.py makes the groups).
export SCN_BUILD_DIR="$PWD/build/asan" SCN_FUZZ_BUILD_DIR="$PWD/build/fuzz"
# The tests start ./scnfuzz over and over: with PYTHONDONTWRITEBYTECODE (set
# in some CI images) every start compiles the runner's modules again, much of
# its start-up; their bytecode goes to runner/scnfuzz/__pycache__ (ignored).
unset PYTHONDONTWRITEBYTECODE
export SCN_TEST_CAMPAIGNS="${SCN_TEST_CAMPAIGNS:-short}"
# --durations: the slowest tests in the log, where the time goes on the CI machine; after
# them the groups by CPU seconds (ci/test_times.py); every test's figures stay in
# build/test-times.jsonl (a CI artifact: which test to make cheaper)
times="$PWD/build/test-times.jsonl"
: >"$times"
trap 'stop_jobs; rm -f "$ctest_log"' EXIT
pytest_rc=0
SCN_TEST_TIMES="$times" /usr/bin/python3 -m pytest -q -n "$cores" --dist loadgroup --durations=30 tests "$@" ||
    pytest_rc=$?
/usr/bin/python3 ci/test_times.py "$times" 25 || true
exit "$pytest_rc"
