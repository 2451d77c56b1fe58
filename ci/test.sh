#!/usr/bin/env bash
# Runs every test: set-up, the ASan+UBSan build, the C tests (ctest), then pytest.
# This is the README's test command and what .ci/run calls: every test, no
# marker filter (a nightly job runs the same). Arguments go to pytest; the
# markers of pytest.ini (slow, campaign) select by length:
#   bash ci/test.sh -m "slow or campaign"          # the long tests only (builds, suites, campaigns)
#   bash ci/test.sh -m "not slow and not campaign" # the quick set, while editing
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
cmake --preset asan >/dev/null
cmake --build build/asan -j"$(nproc)"
ctest --test-dir build/asan --output-on-failure -j"$(nproc)"
SCN_BUILD_DIR="$PWD/build/asan" /usr/bin/python3 -m pytest -q tests "$@"
