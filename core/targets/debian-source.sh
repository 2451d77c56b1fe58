# shellcheck shell=sh
# shellcheck disable=SC2034  # uri, suite and aptopts are for the script that sources this
# Sourced by the scripts that fetch a Debian source package into a build
# directory (musl/fetch-musl-source.sh, picolibc/fetch-picolibc-source.sh):
# the machine's own Debian mirror, and apt-get with a PRIVATE deb-src list
# under that directory, so nothing in /etc/apt is changed.

# debian_mirror: sets uri and suite from the first deb entry whose suite has
# no '-' (not -updates, -security) in /etc/apt/sources.list.d/*.sources
# (deb822), else /etc/apt/sources.list(.d/*.list). Exits with FAIL if none.
debian_mirror() {
    uri="" suite=""
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
}

# private_apt OUT SUITE: a deb-src list of $uri SUITE main in OUT, aptopts
# for apt-get/apt-cache to use it (lists and cache in OUT too), then
# `apt-get update` (log OUT/apt-update-SUITE.log); returns its status.
private_apt() {
    lists="$1/apt-lists-$2"
    mkdir -p "$lists/partial" "$1/apt-cache/archives/partial"
    printf 'deb-src %s %s main\n' "$uri" "$2" > "$1/sources-$2.list"
    aptopts="-o Dir::Etc::SourceList=$1/sources-$2.list -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$lists -o Dir::Cache=$1/apt-cache -o Debug::NoLocking=1"
    # shellcheck disable=SC2086
    apt-get -q $aptopts update > "$1/apt-update-$2.log" 2>&1
}

# source_found NAME SRC VERSION PROBE: the unpacked tree SRC has PROBE; records
# it for the build (OUT/NAME-src.path, OUT/NAME-src.version; $out is the
# caller's OUTDIR) and prints the OK line the CMake side reads.
source_found() {
    [ -f "$2/$4" ] || { echo "FAIL $2 has no $4" >&2; exit 1; }
    echo "$2" > "$out/$1-src.path"
    echo "$3" > "$out/$1-src.version"
    echo "OK $2 $3"
}
