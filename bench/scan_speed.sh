#!/bin/sh
# The acceptance runs of `./scnfuzz scan` (issue 25): drivers/usb and
# drivers/scsi of linux-source-6.1 (with the tree's include/ and
# arch/x86/include) and curl's sources (apt-get source curl, through a private
# deb-src list as core/targets/debian-source.sh does), each with 2 parser
# processes, each twice (the precompiled prelude cold, then kept from the first
# run: warm); prints files, seconds and files/s of each (the run directories
# under $WORK keep the reports). Everything third-party goes to $WORK, never
# into the repository.
#   sh bench/scan_speed.sh [WORK [RUN...]]   (default /tmp/scnfuzz-scan-bench; RUN: usb, scsi,
#                                             curl, default all three)
# KEPT=N runs each tree N times with the prelude kept (default 1): the same
# configuration does not give the same figure twice on a shared machine.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-/tmp/scnfuzz-scan-bench}
[ $# -gt 0 ] && shift
RUNS=${*:-usb scsi curl}
mkdir -p "$WORK"
K="$WORK/linux-source-6.1"
if [ ! -d "$K/drivers/scsi" ]; then
    tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$WORK" --wildcards 'linux-source-6.1/drivers/usb/*' \
        'linux-source-6.1/drivers/scsi/*' 'linux-source-6.1/include/*' 'linux-source-6.1/arch/x86/include/*'
fi
C=$(ls -d "$WORK"/curl-*/ 2>/dev/null | head -n1 || true)
if [ -z "$C" ]; then
    # shellcheck source=../core/targets/debian-source.sh
    . "$here/core/targets/debian-source.sh"
    debian_mirror
    private_apt "$WORK/apt" "$suite" || { echo "FAIL apt-get update (log $WORK/apt-update-$suite.log)" >&2; exit 1; }
    # shellcheck disable=SC2086
    (cd "$WORK" && apt-get -q $aptopts source curl > "$WORK/curl-source.log" 2>&1)
    C=$(ls -d "$WORK"/curl-*/ | head -n1)
fi
C=${C%/}
# files/s on 2 cores is measured as files per CPU-second (user + system time of
# the scan and its parser processes, /usr/bin/time) times 2: the machine is
# shared, so the wall time says more about the other jobs than about the scan
# the scan runs the suite's scn-conform, which the runner first brings up to date: done once
# here, on one fixture, so that a rebuild after a source change is not counted as the scan's
"$here/scnfuzz" scan --jobs 1 --out "$WORK/run-warm-up" "$here/tests/scan/attr.c" > "$WORK/warm-up.out" 2>&1 || \
    [ $? -le 1 ] || { echo "FAIL the warm-up scan: $(tail -n1 "$WORK/warm-up.out")" >&2; exit 1; }
run() {
    name=$1; shift
    rc=0
    /usr/bin/time -f "%U %S %e" -o "$WORK/$name.time" \
        "$here/scnfuzz" scan --jobs 2 --out "$WORK/run-$name" "$@" > "$WORK/$name.out" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || { echo "FAIL scan $name (exit $rc): $(tail -n1 "$WORK/$name.out")" >&2; exit 1; }
    grep "^scan: [0-9]* files, " "$WORK/$name.out"
    files=$(sed -n 's/^scan: \([0-9]*\) files.*/\1/p' "$WORK/$name.out")
    # (the last line: time writes "Command exited with non-zero status 1" first when a misuse is found)
    tail -n1 "$WORK/$name.time" | awk -v n="$name" -v f="$files" '{ cpu = $1 + $2; printf "%s: %d files, %.1f CPU-s (%.1f user, %.1f system), %.1f s wall: %.1f files per CPU-second, %.1f files/s on 2 cores\n", n, f, cpu, $1, $2, $3, f / cpu, 2 * f / cpu }'
}
# each tree twice: with the precompiled prelude built by the run (a cache of its own, emptied
# first: cold), then with the prelude the first run kept (warm)
cold_warm() {
    tree=$1; shift  # (run() sets name: sh has no local variables)
    case " $RUNS " in *" $tree "*) ;; *) return 0 ;; esac
    rm -rf "$WORK/prelude-cache-$tree"
    run "$tree-cold" --prelude-cache "$WORK/prelude-cache-$tree" "$@"
    run "$tree-warm" --prelude-cache "$WORK/prelude-cache-$tree" "$@"
    k=2
    while [ "$k" -le "${KEPT:-1}" ]; do
        run "$tree-warm$k" --prelude-cache "$WORK/prelude-cache-$tree" "$@"
        k=$((k + 1))
    done
}
cold_warm usb --kernel "$K" "$K/drivers/usb"
cold_warm scsi --kernel "$K" "$K/drivers/scsi"
cold_warm curl -I "$C/include" -I "$C/lib" -DBUILDING_LIBCURL "$C/lib" "$C/src"
