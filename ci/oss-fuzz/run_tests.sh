#!/bin/bash -eu
# Copyright 2026 the scnfuzz authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
################################################################################
# The project's unit tests, for OSS-Fuzz: run in the builder container after
# build.sh (as $SRC/run_tests.sh; OSS-Fuzz's infra/experimental/chronos runs
# it to check that a change still passes them), on the tree build.sh
# configured in $WORK/scnfuzz-build with OSS-Fuzz's $CC and $CFLAGS. It builds
# the C tests (tests/c, everything ctest lists) there and runs ctest. It writes
# nothing into the checkout (OSS-Fuzz checks that too): builds and test
# output stay in $WORK.
#
# Optional environment:
#   SCN_JOBS                parallel build and test jobs ($(nproc))
#   SCN_RUN_TESTS_EXCLUDE   a ctest -E regex of tests to leave out
#
# float_mpfr compares the reference's floats with MPFR: it needs libmpfr-dev
# (image-deps.sh installs it; left out where it is missing) and is left out
# under SANITIZER=memory (MPFR is not instrumented: MSan would report its
# writes).

set -euo pipefail
: "${WORK:?}"
build=$WORK/scnfuzz-build
SCN_JOBS=${SCN_JOBS:-$(nproc)}
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "run_tests.sh: $build is not configured: run build.sh (compile) first" >&2
  exit 1
fi

exclude=${SCN_RUN_TESTS_EXCLUDE:-}
add_exclude() { exclude=${exclude:+$exclude|}$1; }
if [ "${SANITIZER:-address}" = memory ] || [ ! -f /usr/include/mpfr.h ]; then
  add_exclude '^float_mpfr$'
fi

# The executables of the tests ctest lists, but those left out: the test NAME
# runs the target test_NAME (tests/c/CMakeLists.txt). ctest names a test's
# command only once it is built, so the names are what is read here.
targets=$(ctest --test-dir "$build" --show-only=json-v1 | python3 -c '
import json, re, sys
exclude = sys.argv[1]
print(" ".join("test_" + t["name"] for t in json.load(sys.stdin)["tests"]
               if not (exclude and re.search(exclude, t["name"]))))' "$exclude")
if [ -z "$targets" ]; then
  echo "run_tests.sh: ctest lists no tests in $build" >&2
  exit 1
fi
# shellcheck disable=SC2086  # a list of target names
cmake --build "$build" -j"$SCN_JOBS" --target $targets
ctest --test-dir "$build" --output-on-failure -j"$SCN_JOBS" ${exclude:+-E "$exclude"}
