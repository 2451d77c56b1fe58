#!/bin/sh
# Combine musl's compiled objects into ONE relocatable object whose only
# global definitions are the exported musl_* API, so nothing clashes with
# glibc (musl defines vsnprintf, memcpy, __errno_location, strerror, ...).
#
#   musl-objlink.sh LD OBJCOPY NM OUT.o ALLOWED_UNDEF_REGEX EXPORTS -- OBJ...
#
# EXPORTS: comma-separated musl names to export as musl_<name> (a leading
# "__" is dropped: __errno_location -> musl_errno_location). Every other
# defined global symbol is localized. Undefined symbols that remain must
# match ALLOWED_UNDEF_REGEX (an ERE), otherwise the build fails.
set -eu
ld=$1 objcopy=$2 nm=$3 out=$4 allowed=$5 exports=$6
shift 6
[ "$1" = -- ] && shift

tmp=$out.tmp
rm -f "$tmp" "$out" "$out.redef" "$out.local"
"$ld" -r -o "$tmp" "$@"

: > "$out.redef"
: > "$out.local"
"$nm" -g --defined-only "$tmp" | awk '{ print $NF }' | sort -u > "$out.defined"
while read -r sym; do
    case ",$exports," in
        *",$sym,"*) echo "$sym musl_${sym#__}" >> "$out.redef" ;;
        *) echo "$sym" >> "$out.local" ;;
    esac
done < "$out.defined"
"$objcopy" --redefine-syms="$out.redef" --localize-symbols="$out.local" "$tmp" "$out"
rm -f "$tmp"

bad=$("$nm" -g --defined-only "$out" | awk '{ print $NF }' | grep -v '^musl_' || true)
if [ -n "$bad" ]; then
    echo "musl-objlink: global definitions left that are not musl_*: $bad" >&2
    rm -f "$out"; exit 1
fi
for e in $(echo "$exports" | tr , ' '); do
    if ! "$nm" -g --defined-only "$out" | awk '{ print $NF }' | grep -qx "musl_${e#__}"; then
        echo "musl-objlink: musl_${e#__} is not defined" >&2
        rm -f "$out"; exit 1
    fi
done
undef=$("$nm" -u "$out" | awk '{ print $NF }' | grep -Ev "$allowed" || true)
if [ -n "$undef" ]; then
    echo "musl-objlink: musl object needs symbols outside the allowed set: $undef" >&2
    rm -f "$out"; exit 1
fi
