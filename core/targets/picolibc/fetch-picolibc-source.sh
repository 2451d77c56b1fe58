#!/bin/sh
# Fetch picolibc's Debian source package into a build directory (never into
# the repo) and unpack its upstream tarball.
#
#   fetch-picolibc-source.sh OUTDIR
#
# A PRIVATE apt source list made from the machine's own Debian mirror
# (../debian-source.sh, shared with musl; nothing in /etc/apt is changed).
# picolibc has no x86-64 binary package (only picolibc-<cross triplet>), so
# no installed version picks the source: the suites are tried in order, the
# machine's own first, then trixie (bookworm's picolibc_1.8.orig.tar.gz is not
# served by every mirror: 404 on this project's). Only the .orig tarball is
# needed and it is unpacked with tar (the Debian patches touch the test
# scripts only), so a missing .dsc does not matter.
# On success prints, on the last line:   OK <srcdir> <debian version>
# and writes <OUTDIR>/picolibc-src.path and <OUTDIR>/picolibc-src.version.
set -eu
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
probe=newlib/libc/tinystdio/vfprintf.c

if [ -f "$out/picolibc-src.path" ] && [ -f "$out/picolibc-src.version" ] &&
   [ -f "$(cat "$out/picolibc-src.path")/$probe" ]; then
    echo "OK $(cat "$out/picolibc-src.path") $(cat "$out/picolibc-src.version")"
    exit 0
fi
command -v apt-get >/dev/null || { echo "FAIL apt-get not found" >&2; exit 1; }

# shellcheck source=core/targets/debian-source.sh
. "$(dirname "$0")/../debian-source.sh"
# shellcheck source=core/targets/source-cache.sh
. "$(dirname "$0")/../source-cache.sh"

# unpack ORIG VERSION: the upstream tarball into OUTDIR, and the two files
unpack() {
    work=$(dirname "$1")
    tar -xf "$1" -C "$work"
    src=$(ls -d "$work"/picolibc-*/ | head -n1)
    source_found picolibc "${src%/}" "$2" "$probe"
}

# The machine's source cache (../source-cache.sh): the tarball another build
# fetched, with its Debian version, unpacked from there without apt-get.
entry=deb-picolibc
if source_cache; then
    source_cache_lock "$entry"
    orig=$(ls "$cache/$entry"/picolibc_*.orig.tar.* 2>/dev/null | head -n1)
    if [ -n "$orig" ] && [ -f "$cache/$entry/version" ]; then
        work="$out/src-cache"
        rm -rf "$work"; mkdir -p "$work"
        cp -p "$orig" "$work"/
        unpack "$work/$(basename "$orig")" "$(cat "$cache/$entry/version")"
        exit 0
    fi
fi

debian_mirror

for s in $suite trixie; do
    work="$out/src-$s"
    rm -rf "$out/apt-lists-$s" "$work"
    mkdir -p "$work"
    echo "picolibc: apt-get source from $uri $s (private deb-src list)" >&2
    private_apt "$out" "$s" || continue
    # shellcheck disable=SC2086
    (cd "$work" && apt-get -q $aptopts source --download-only picolibc) \
        > "$out/apt-source-$s.log" 2>&1 || true
    orig=$(ls "$work"/picolibc_*.orig.tar.* 2>/dev/null | head -n1)
    [ -n "$orig" ] || continue
    # The Debian version: from the package index (the .dsc may be missing).
    # shellcheck disable=SC2086
    ver=$(apt-cache $aptopts showsrc picolibc 2>/dev/null | awk '/^Version:/ { print $2; exit }')
    ver=${ver:-$(basename "$orig")}
    if [ -n "$cache" ]; then
        echo "$ver" > "$work/version"
        source_cache_store "$entry" "$orig" "$work/version"
    fi
    unpack "$orig" "$ver"
    exit 0
done
echo "FAIL apt-get source picolibc failed in suites: $suite trixie (see $out/apt-source-*.log)" >&2
exit 1
