#!/bin/sh
# Combine a libc's compiled objects into ONE relocatable object whose only
# global definitions are the exported <prefix>* API, so nothing clashes with
# glibc (musl defines vsnprintf, memcpy, __errno_location, strerror, ...).
# Used by every libc built from source in-process: musl (prefix musl_, the
# default), picolibc, newlib, uclibc (--prefix).
#
#   musl-objlink.sh [--prefix P] LD OBJCOPY NM OUT.o ALLOWED_UNDEF_REGEX EXPORTS -- OBJ...
#
# EXPORTS: comma-separated names to export as <P><name> (a leading "__" is
# dropped: __errno_location -> musl_errno_location). Every other defined
# global symbol is localized. Undefined symbols that remain must match
# ALLOWED_UNDEF_REGEX (an ERE), otherwise the build fails; scn_mutant, the
# mutant switch a mutation build's schema refers to (core/targets/mutant_switch.h,
# ./scnfuzz mutate), and its scn_mutant_reach and scn_mutant_seen are always allowed, and stay
# global undefined references (never renamed or localized).
set -eu
prefix=musl_
if [ "$1" = --prefix ]; then prefix=$2; shift 2; fi
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
        *",$sym,"*) echo "$sym ${prefix}${sym#__}" >> "$out.redef" ;;
        *) echo "$sym" >> "$out.local" ;;
    esac
done < "$out.defined"
"$objcopy" --redefine-syms="$out.redef" --localize-symbols="$out.local" "$tmp" "$out"
rm -f "$tmp"

bad=$("$nm" -g --defined-only "$out" | awk '{ print $NF }' | grep -v "^${prefix}" || true)
if [ -n "$bad" ]; then
    echo "musl-objlink: global definitions left that are not ${prefix}*: $bad" >&2
    rm -f "$out"; exit 1
fi
for e in $(echo "$exports" | tr , ' '); do
    if ! "$nm" -g --defined-only "$out" | awk '{ print $NF }' | grep -qx "${prefix}${e#__}"; then
        echo "musl-objlink: ${prefix}${e#__} is not defined" >&2
        rm -f "$out"; exit 1
    fi
done
undef=$("$nm" -u "$out" | awk '{ print $NF }' | grep -Ev "$allowed" | grep -Ev '^scn_mutant(_reach|_seen)?$' || true)
if [ -n "$undef" ]; then
    echo "musl-objlink: ${prefix%_} object needs symbols outside the allowed set: $undef" >&2
    rm -f "$out"; exit 1
fi
