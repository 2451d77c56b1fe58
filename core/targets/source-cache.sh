# shellcheck shell=sh
# Sourced by the scripts that fetch or unpack third-party sources
# (musl/fetch-musl-source.sh, picolibc/fetch-picolibc-source.sh,
# extract-cached.sh): one cache per machine of what they download or unpack,
# so that the second build directory (asan, fuzz, afl, a mutation build, the
# OSS-Fuzz build of a test...) copies it instead of running apt-get update and
# apt-get source, or decompressing all of linux-source-6.1.tar.xz, again.
#
# The cache holds only what came from Debian unchanged (downloaded source
# packages, files unpacked from a tarball), each entry keyed by the version or
# the tarball's size and date, written to a temporary name and renamed when
# complete: a run killed half-way leaves no entry. Builds always get a copy
# (mutate writes into its build's sources). Every user of an entry takes
# its lock (flock) for as long as it fills or copies it.
#
#   SCN_SOURCE_CACHE   the cache directory (default
#                      ${XDG_CACHE_HOME:-$HOME/.cache}/scnfuzz/sources);
#                      "off": no cache, every build fetches its own.

# source_cache: sets cache to the cache directory (created); returns 1 (cache
# empty) when the cache is off or cannot be made.
source_cache() {
    cache=""
    case "${SCN_SOURCE_CACHE-}" in
        off) return 1 ;;
        "") [ -n "${XDG_CACHE_HOME-}" ] || [ -n "${HOME-}" ] || return 1
            cache="${XDG_CACHE_HOME:-$HOME/.cache}/scnfuzz/sources" ;;
        *) cache=$SCN_SOURCE_CACHE ;;
    esac
    command -v flock >/dev/null 2>&1 || { cache=""; return 1; }
    mkdir -p "$cache" 2>/dev/null || { cache=""; return 1; }
    cache=$(cd "$cache" && pwd)
}

# source_cache_lock NAME: holds the lock of entry NAME on descriptor 9 until
# the script exits (two builds configured side by side: the second waits, then
# finds the entry filled).
source_cache_lock() {
    exec 9>"$cache/$1.lock"
    flock 9
}

# source_cache_store NAME FILE...: FILE... become entry NAME (replacing none:
# an entry, once complete, is never rewritten).
source_cache_store() {
    name=$1; shift
    [ -d "$cache/$name" ] && return 0
    tmp="$cache/$name.tmp.$$"
    rm -rf "$tmp"; mkdir -p "$tmp"
    cp -p "$@" "$tmp"/ && mv "$tmp" "$cache/$name" || rm -rf "$tmp"
}
