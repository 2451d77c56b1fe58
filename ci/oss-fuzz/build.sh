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
# OSS-Fuzz / ClusterFuzzLite build script for scnfuzz (see ci/oss-fuzz/README.md).
#
# The OSS-Fuzz contract: compilers and flags come from the environment
# ($CC $CFLAGS, $LIB_FUZZING_ENGINE at link time only, $SANITIZER), the build
# happens in $WORK, and $OUT receives, per fuzzer NAME: the executable,
# NAME_seed_corpus.zip (corpus/fuzz/NAME/), NAME.dict, NAME.options.
#
# Optional environment (defaults are right inside the Docker images):
#   SCN_SRC               the checkout                    ($SRC/scnfuzz)
#   SCN_OSSFUZZ_FUZZERS   fuzzers to build, space-separated
#   SCN_KERNEL_TARBALL    linux-source-6.1 tarball        (/usr/src/linux-source-6.1.tar.xz)
#   SCN_MUSL_SOURCE_CACHE a fetch-musl-source.sh output dir (musl-src.path/.version),
#                         baked into the image            ($SRC/scnfuzz-deps/musl-source)
#   SCN_JOBS              parallel build jobs             ($(nproc))
#   SCN_OSSFUZZ_MUSL      ON/OFF: force the musl target (default: per $SANITIZER)

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${SRC:?}" "${OUT:?}" "${WORK:?}" "${CC:?}"
OUT=$(cd "$OUT" && pwd)
: "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${SANITIZER:=address}"
SCN_SRC=${SCN_SRC:-$SRC/scnfuzz}
# the shipped fuzzers of the one list (fuzz/fuzzers.tsv)
SCN_OSSFUZZ_FUZZERS=${SCN_OSSFUZZ_FUZZERS:-$(awk -F'\t' '/^fuzz_/ && $5 == "yes" {print $1}' "$SCN_SRC/fuzz/fuzzers.tsv" | xargs)}
SCN_KERNEL_TARBALL=${SCN_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SCN_MUSL_SOURCE_CACHE=${SCN_MUSL_SOURCE_CACHE:-$SRC/scnfuzz-deps/musl-source}
SCN_JOBS=${SCN_JOBS:-$(nproc)}
read -r -a fuzzers <<< "$SCN_OSSFUZZ_FUZZERS"

# fuzz_planted is never shipped: it exists to prove the fuzzers find planted bugs.
with_kernel=ON
with_musl=ON
case "$SANITIZER" in
  memory)
    # Every object must be MSan-instrumented; kernel and musl objects are (they
    # take $CFLAGS, and musl-objlink.sh accepts the __msan_* references). musl
    # is still left out: musl 1.2.3 reads uninitialised stack for "*n$" widths
    # (fuzz/README.md), which MSan reports on the first such input;
    # fuzz_iso_diff then compares ref against glibc only (glibc is reached
    # through MSan's vsnprintf interceptor, which marks what glibc wrote as
    # initialised). SCN_OSSFUZZ_MUSL=ON tries it.
    with_musl=OFF ;;
  introspector)
    # Fuzz Introspector builds with -flto: the objects are LLVM bitcode, which
    # the kernel/musl steps (ld -r, objcopy --redefine-sym) cannot rewrite.
    with_kernel=OFF
    with_musl=OFF ;;
esac
case "${FUZZING_ENGINE:-libfuzzer}" in
  libfuzzer|none|afl) ;; # afl: musl-objlink.sh accepts AFL++'s __afl_* references
  *) # honggfuzz and centipede are untested: musl left out there.
     with_musl=OFF ;;
esac
with_musl=${SCN_OSSFUZZ_MUSL:-$with_musl}  # ON/OFF: override (experiments)
if [ "$with_kernel" = ON ] && [ ! -f "$SCN_KERNEL_TARBALL" ]; then
  echo "build.sh: WARNING: $SCN_KERNEL_TARBALL missing: no kernel target" >&2
  with_kernel=OFF
fi

# The CMake hook (ossfuzz.cmake): beside this script, or in the checkout when
# this script was copied to $SRC/build.sh (OSS-Fuzz's projects/ layout).
hook=$here/ossfuzz.cmake
[ -f "$hook" ] || hook=$SCN_SRC/ci/oss-fuzz/ossfuzz.cmake

build=$WORK/scnfuzz-build
bindir=$build/ossfuzz-bin
mkdir -p "$build"

# musl's Debian source, fetched when the image was built (no network needed):
# seed the cache that core/targets/musl/fetch-musl-source.sh reuses.
if [ "$with_musl" = ON ] && [ -f "$SCN_MUSL_SOURCE_CACHE/musl-src.path" ]; then
  mkdir -p "$build/core/targets/musl/musl-source"
  cp "$SCN_MUSL_SOURCE_CACHE/musl-src.path" "$SCN_MUSL_SOURCE_CACHE/musl-src.version" \
     "$build/core/targets/musl/musl-source/"
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# CMAKE_BUILD_TYPE=None: no -O2/-DNDEBUG of our own, OSS-Fuzz's $CFLAGS rule
# (assertions stay on). SCN_FUZZ=ON adds -fsanitize=fuzzer-no-link, which
# OSS-Fuzz's libFuzzer $CFLAGS already have; SCN_SANITIZE stays OFF: the
# sanitizer is the one of $CFLAGS. SCN_WITH_MATRIX=OFF: the shipped fuzzers
# check the reference, glibc, musl and the kernel (fuzz/fuzzers.tsv), none of
# the matrix's implementations, which would only lengthen the build.
cmake -S "$SCN_SRC" -B "$build" "${generator[@]}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_BUILD_TYPE=None \
  -DSCN_FUZZ=ON -DSCN_SANITIZE=OFF -DSCN_COVERAGE=OFF \
  -DSCN_WITH_KERNEL=$with_kernel -DSCN_WITH_MUSL=$with_musl -DSCN_WITH_MATRIX=OFF \
  -DSCN_KERNEL_TARBALL="$SCN_KERNEL_TARBALL" \
  -DCMAKE_PROJECT_INCLUDE="$hook" \
  -DSCN_OSSFUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DSCN_OSSFUZZ_FUZZERS="${SCN_OSSFUZZ_FUZZERS// /;}" \
  -DSCN_OSSFUZZ_BINDIR="$bindir"

cmake --build "$build" -j"$SCN_JOBS" --target "${fuzzers[@]}"

# zip -j, or Python's zipfile where there is no zip
zip_flat() {  # zip_flat OUT.zip DIR
  rm -f "$1"
  if command -v zip >/dev/null; then
    (cd "$2" && find . -maxdepth 1 -type f -print0 | xargs -0 zip -q -j "$1")
  else
    python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
out, d = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if os.path.isfile(p):
            z.write(p, n)
EOF
  fi
}

fz=$SCN_SRC/fuzz
for f in "${fuzzers[@]}"; do
  cp "$bindir/$f" "$OUT/$f"
  seeds=$SCN_SRC/corpus/fuzz/$f
  if [ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ]; then
    zip_flat "$OUT/${f}_seed_corpus.zip" "$seeds"
  else
    echo "build.sh: WARNING: no seeds in corpus/fuzz/$f" >&2
  fi
  if [ -f "$fz/$f.dict" ]; then
    cp "$fz/$f.dict" "$OUT/$f.dict"
  elif [ -f "$fz/printf.dict" ]; then
    cp "$fz/printf.dict" "$OUT/$f.dict"
  fi
  if [ -f "$fz/$f.options" ]; then
    cp "$fz/$f.options" "$OUT/$f.options"
    # a "dict = FILE" in the options names a file in $OUT: ship it too
    d=$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$fz/$f.options" | head -n1)
    if [ -n "$d" ]; then
      [ -f "$fz/$d" ] || { echo "build.sh: $f.options names a missing dict: $d" >&2; exit 1; }
      cp "$fz/$d" "$OUT/$d"
    fi
  fi
done
echo "build.sh: $SANITIZER: ${fuzzers[*]} -> $OUT (kernel=$with_kernel musl=$with_musl)"
