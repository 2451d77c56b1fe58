#!/bin/sh
# Unpack some files of a big tarball (linux-source-6.1.tar.xz: xz has to
# decompress the whole 1.4 GB to find them) through the machine's source cache
# (source-cache.sh): the first build unpacks them once, the others copy them.
#
#   extract-cached.sh TARBALL DEST MEMBER...
#
# Each MEMBER (a path inside the tarball) ends up as DEST/MEMBER, newer than
# the tarball (a build rule that depends on the tarball is then satisfied).
# With the cache off, this is `tar -xf TARBALL -C DEST MEMBER...`.
set -eu
[ $# -ge 3 ] || { echo "usage: extract-cached.sh TARBALL DEST MEMBER..." >&2; exit 2; }
tarball=$1 dest=$2
shift 2
mkdir -p "$dest"
# shellcheck source=core/targets/source-cache.sh
. "$(dirname "$0")/source-cache.sh"
if ! source_cache; then
    tar -xf "$tarball" -C "$dest" "$@"
    for m in "$@"; do touch "$dest/$m"; done
    exit 0
fi
# the entry: this tarball as it is now (another size or date: another entry)
key="tar-$(basename "$tarball")-$(stat -c '%s-%Y' "$tarball")"
source_cache_lock "$key"
tree="$cache/$key"
missing=""
for m in "$@"; do
    [ -f "$tree/$m" ] || missing="$missing $m"
done
if [ -n "$missing" ]; then
    tmp="$cache/$key.tmp.$$"
    trap 'rm -rf "$tmp"' EXIT  # a member not in the tarball: nothing half-made stays
    rm -rf "$tmp"; mkdir -p "$tmp"
    # shellcheck disable=SC2086  # member paths have no blanks
    tar -xf "$tarball" -C "$tmp" $missing
    for m in $missing; do
        mkdir -p "$(dirname "$tree/$m")"
        mv "$tmp/$m" "$tree/$m"
    done
    rm -rf "$tmp"
fi
for m in "$@"; do
    mkdir -p "$(dirname "$dest/$m")"
    cp "$tree/$m" "$dest/$m"  # a copy, never a link: a mutation build writes into it
done
