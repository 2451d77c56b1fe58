#!/bin/sh
# Fetch musl's Debian source package into a build directory (never into the repo).
#
#   fetch-musl-source.sh OUTDIR
#
# Uses a PRIVATE apt source list derived from the machine's own Debian mirror
# (/etc/apt/sources.list and /etc/apt/sources.list.d/*.sources|*.list), so
# nothing in /etc/apt is changed. The version fetched is the one matching the
# installed musl-dev when possible. On success prints, on the last line:
#   OK <srcdir> <version>
# and writes <OUTDIR>/musl-src.path and <OUTDIR>/musl-src.version.
set -eu
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ -f "$out/musl-src.path" ] && [ -f "$out/musl-src.version" ] &&
   [ -f "$(cat "$out/musl-src.path")/src/stdio/vfprintf.c" ]; then
    echo "OK $(cat "$out/musl-src.path") $(cat "$out/musl-src.version")"
    exit 0
fi

command -v apt-get >/dev/null || { echo "FAIL apt-get not found" >&2; exit 1; }
command -v dpkg-source >/dev/null || { echo "FAIL dpkg-source not found (install dpkg-dev)" >&2; exit 1; }

# shellcheck source=core/targets/debian-source.sh
. "$(dirname "$0")/../debian-source.sh"
# shellcheck source=core/targets/source-cache.sh
. "$(dirname "$0")/../source-cache.sh"

want=$(dpkg-query -W -f='${Version}' musl-dev 2>/dev/null || true)
spec=musl
[ -n "$want" ] && spec="musl=$want"
work="$out/src"
rm -rf "$work"; mkdir -p "$work"

# The machine's source cache (../source-cache.sh) has the source package of
# this version when another build fetched it: unpacked from there, no apt-get.
entry="deb-musl_${want:-suite}"
if source_cache; then
    source_cache_lock "$entry"
    if ls "$cache/$entry"/musl_*.dsc >/dev/null 2>&1; then
        cp -p "$cache/$entry"/* "$work"/
        (cd "$work" && dpkg-source -x musl_*.dsc) > "$out/apt-source.log" 2>&1 ||
            { echo "FAIL dpkg-source -x of the cached musl source failed (see $out/apt-source.log)" >&2; exit 1; }
    fi
fi

if ! ls "$work"/musl_*.dsc >/dev/null 2>&1; then
    debian_mirror
    echo "musl: apt-get update with private deb-src list ($uri $suite)" >&2
    private_apt "$out" "$suite" ||
        { echo "FAIL apt-get update failed (see $out/apt-update-$suite.log)" >&2; exit 1; }
    # shellcheck disable=SC2086
    if ! (cd "$work" && apt-get -q $aptopts source "$spec") > "$out/apt-source.log" 2>&1; then
        if [ "$spec" != musl ]; then
            echo "musl: source $spec not available, trying the suite's musl" >&2
            rm -rf "$work"; mkdir -p "$work"
            # shellcheck disable=SC2086
            (cd "$work" && apt-get -q $aptopts source musl) > "$out/apt-source.log" 2>&1 ||
                { echo "FAIL apt-get source musl failed (see $out/apt-source.log)" >&2; exit 1; }
        else
            echo "FAIL apt-get source musl failed (see $out/apt-source.log)" >&2; exit 1
        fi
    fi
    [ -z "$cache" ] || source_cache_store "$entry" "$work"/musl_*.dsc "$work"/musl_*.tar.*
fi
dsc=$(ls "$work"/musl_*.dsc | head -n1)
ver=$(awk '/^Version:/ { print $2; exit }' "$dsc")
src=$(ls -d "$work"/musl-*/ | head -n1)
source_found musl "${src%/}" "$ver" src/stdio/vfprintf.c
