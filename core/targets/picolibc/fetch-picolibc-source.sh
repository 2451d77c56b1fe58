#!/bin/sh
# Fetch picolibc's Debian source package into a build directory (never into
# the repo) and unpack its upstream tarball.
#
#   fetch-picolibc-source.sh OUTDIR
#
# Like core/targets/musl/fetch-musl-source.sh: a PRIVATE apt source list made
# from the machine's own Debian mirror (nothing in /etc/apt is changed).
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

# The Debian main mirror and suite: the first deb entry whose suite has no '-'.
uri= suite=
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    res=$(awk '
        /^[ \t]*$/ { if (t && u && s) { print u, s; exit } t=0; u=""; s=""; next }
        tolower($1)=="types:"  { for (i=2;i<=NF;i++) if ($i=="deb") t=1 }
        tolower($1)=="uris:"   { u=$2 }
        tolower($1)=="suites:" { for (i=2;i<=NF;i++) if ($i !~ /-/) { s=$i; break } }
        END { if (t && u && s) print u, s }' "$f" | head -n1)
    case "$res" in ""|*debian-security*) continue ;; esac
    uri=${res% *}; suite=${res#* }; break
done
if [ -z "$uri" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        res=$(awk '$1=="deb" {
                i=2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                if ($(i+1) !~ /-/ && $i !~ /security/) { print $i, $(i+1); exit } }' "$f")
        if [ -n "$res" ]; then uri=${res% *}; suite=${res#* }; break; fi
    done
fi
[ -n "$uri" ] || { echo "FAIL no Debian mirror found in /etc/apt/sources.list(.d)" >&2; exit 1; }

for s in $suite trixie; do
    lists="$out/apt-lists-$s" work="$out/src-$s"
    rm -rf "$lists" "$work"
    mkdir -p "$lists/partial" "$out/apt-cache/archives/partial" "$work"
    printf 'deb-src %s %s main\n' "$uri" "$s" > "$out/sources-$s.list"
    aptopts="-o Dir::Etc::SourceList=$out/sources-$s.list -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$lists -o Dir::Cache=$out/apt-cache -o Debug::NoLocking=1"
    echo "picolibc: apt-get source from $uri $s (private deb-src list)" >&2
    # shellcheck disable=SC2086
    apt-get -q $aptopts update > "$out/apt-update-$s.log" 2>&1 || continue
    # shellcheck disable=SC2086
    (cd "$work" && apt-get -q $aptopts source --download-only picolibc) \
        > "$out/apt-source-$s.log" 2>&1 || true
    orig=$(ls "$work"/picolibc_*.orig.tar.* 2>/dev/null | head -n1)
    [ -n "$orig" ] || continue
    # The Debian version: from the package index (the .dsc may be missing).
    # shellcheck disable=SC2086
    ver=$(apt-cache $aptopts showsrc picolibc 2>/dev/null | awk '/^Version:/ { print $2; exit }')
    tar -xf "$orig" -C "$work"
    src=$(ls -d "$work"/picolibc-*/ | head -n1)
    src=${src%/}
    [ -f "$src/$probe" ] || { echo "FAIL $orig has no $probe" >&2; exit 1; }
    echo "$src" > "$out/picolibc-src.path"
    echo "${ver:-$(basename "$orig")}" > "$out/picolibc-src.version"
    echo "OK $src $(cat "$out/picolibc-src.version")"
    exit 0
done
echo "FAIL apt-get source picolibc failed in suites: $suite trixie (see $out/apt-source-*.log)" >&2
exit 1
