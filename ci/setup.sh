#!/usr/bin/env bash
# Installs everything scnfuzz builds and tests with, from Debian's packages.
# Idempotent and quick when all is there: it asks dpkg first and only runs
# apt-get (update, then install) for what is missing. Needs root for installs.
set -euo pipefail

# One package list, grouped by what needs it.
PKGS=(
  # build: both compilers the project must build with, plus libFuzzer/sanitizer runtimes
  gcc clang-14 llvm-14 lld-14 libclang-rt-14-dev cmake ninja-build make ccache
  # tests and the runner (Debian's python, not a pyenv one)
  python3 python3-pytest python3-jsonschema
  # exact float oracle for the corpus generator and tests
  libmpfr-dev libgmp-dev
  # differential targets: musl (compiler driver + source build), kernel lib/vsprintf.c
  musl-tools musl-dev dpkg-dev linux-source-6.1 xz-utils
  # any-libc executors (scnfuzz conform --libc-cc): dietlibc and klibc compiler drivers
  dietlibc-dev libklibc-dev
  # the printf matrix's vendored printfs (core/targets/<name>/, group "matrix"):
  # curl, apr, sqlite, pgport (PostgreSQL's libpgport.a), trio, stb;
  # linux-tools reads linux-source-6.1 (above)
  libcurl4-openssl-dev libapr1-dev libsqlite3-dev postgresql-server-dev-15 libtrio-dev libstb-dev
  # gnulib's vasnprintf (core/targets/gnulib: its C files, compiled as they are)
  gnulib
  # the embedded libcs built from source (core/targets/{newlib,uclibc}; picolibc is fetched
  # with apt-get source): newlib's and uClibc-ng's source packages, uClibc's kconfig and headers
  newlib-source uclibc-source make linux-libc-dev
  # report formats: xmllint validates junit.xml against its XSD (tests/test_report_formats.py)
  libxml2-utils
  # the reference as a library: pkg-config finds scnref.pc (tests/test_library_install.py); the
  # GitHub Action and pre-commit hook files are read with PyYAML (tests/test_ci_integrations.py)
  pkg-config python3-yaml
  # fuzzing engines, instruction counts, report rendering check
  afl++ valgrind chromium
  # mutation analysis (./scnfuzz mutate): a real C parser (libclang) and patch for --patch;
  # the tests run in parallel (pytest-xdist)
  python3-clang-14 libclang1-14 patch python3-pytest-xdist
)

# One dpkg-query for the whole list (one read of dpkg's database, not one per package);
# a package it does not know is not printed, so missing is what is not "install ok installed".
declare -A installed=()
while read -r name status; do
  [ "$status" = "install ok installed" ] && installed[${name%%:*}]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PKGS[@]}" 2>/dev/null || true)
missing=()
for p in "${PKGS[@]}"; do
  [ -n "${installed[$p]:-}" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run as root (apt-get install) and retry" >&2
  exit 2
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
