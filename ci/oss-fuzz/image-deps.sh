#!/bin/sh
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
# The image steps both Dockerfiles share (ci/oss-fuzz/Dockerfile for OSS-Fuzz,
# .clusterfuzzlite/Dockerfile for ClusterFuzzLite): a Dockerfile cannot include
# another, and the two differ only in how the checkout gets in (OSS-Fuzz: git
# clone; ClusterFuzzLite: COPY of the repository), so what they share is here.
#
# base-builder is Ubuntu, which has neither linux-source-6.1 nor the musl
# source scnfuzz builds its kernel and musl targets from (both are Debian
# bookworm's):
#
#   image-deps.sh debian-sources    in a debian:bookworm stage: Debian's
#       linux-source-6.1 .deb into /debs/, and musl's source package unpacked
#       into /src/scnfuzz-deps/musl-source laid out as the cache
#       core/targets/musl/fetch-musl-source.sh leaves (musl-src.path = the
#       unpacked tree, musl-src.version), where build.sh looks for it.
#   image-deps.sh builder DEBS      in the base-builder stage: the build tools
#       (CMake >= 3.20, the project's minimum, from PyPI: Ubuntu's is older;
#       ninja, binutils, xz-utils, zip), libmpfr-dev for run_tests.sh's
#       float_mpfr test, and the .deb files of DEBS (its dependencies,
#       binutils and xz-utils, come from Ubuntu).
set -eu

case "${1:-}" in
  debian-sources)
    sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
    apt-get update
    apt-get install -y --no-install-recommends dpkg-dev xz-utils ca-certificates
    mkdir -p /debs
    (cd /debs && apt-get download linux-source-6.1)
    c=/src/scnfuzz-deps/musl-source
    mkdir -p "$c/src"
    (cd "$c/src" && apt-get source musl)
    awk '/^Version:/ { print $2; exit }' "$c"/src/musl_*.dsc > "$c/musl-src.version"
    t=$(ls -d "$c"/src/musl-*/)
    t=${t%/}
    test -f "$t/src/stdio/vfprintf.c"
    echo "$t" > "$c/musl-src.path"
    rm -f "$c"/src/*.tar.* "$c"/src/*.dsc
    ;;
  builder)
    debs=${2:?usage: image-deps.sh builder DEBS_DIR}
    apt-get update
    apt-get install -y --no-install-recommends ninja-build binutils xz-utils zip libmpfr-dev
    python3 -m pip install --no-cache-dir 'cmake>=3.20'
    apt-get install -y --no-install-recommends "$debs"/linux-source-6.1_*.deb
    test -f /usr/src/linux-source-6.1.tar.xz
    rm -rf "$debs" /var/lib/apt/lists/*
    ;;
  *)
    echo "usage: image-deps.sh debian-sources | builder DEBS_DIR" >&2
    exit 2 ;;
esac
