#!/usr/bin/env bash
# The main job (README): set-up, build, the conformance suite on the default
# targets, then a short differential campaign (ISO: ref/glibc/musl, then kernel:
# ref-kernel/kernel), all into one report: reports/<UTC timestamp>-main/
# (reports/latest points at it).
#   SCN_MAIN_FUZZ_TIME  seconds per campaign (default 60)
# Exit: 0 nothing beyond the allowances, 1 findings or conformance failures,
# 2 set-up/usage error.
set -uo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh || exit 2
T="${SCN_MAIN_FUZZ_TIME:-60}"
OUT="reports/$(date -u +%Y%m%dT%H%M%SZ)-main"

echo "== build (build/default, build/fuzz)"
cmake --preset default >/dev/null || exit 2
cmake --build build/default -j"$(nproc)" || exit 2
cmake --preset fuzz >/dev/null || exit 2
cmake --build build/fuzz -j"$(nproc)" || exit 2

status=0
step() { # runs one scnfuzz step; keeps the worst exit status (2 > 1 > 0)
  "$@"
  local rc=$?
  if [ "$rc" -gt "$status" ]; then status=$rc; fi
  [ "$rc" -le 1 ]
}
echo "== conformance suite"
step ./scnfuzz conform --out "$OUT" || exit 2
echo "== differential campaign: ISO (ref, glibc, musl), ${T}s"
step ./scnfuzz fuzz --time "$T" --out "$OUT" || exit 2
echo "== differential campaign: kernel (ref-kernel, kernel), ${T}s"
step ./scnfuzz fuzz --dialect kernel --time "$T" --out "$OUT" || exit 2
echo "== report: $OUT (reports/latest)"
sed -n '1,4p' "$OUT/report.md"
exit "$status"
