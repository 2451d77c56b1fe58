#!/bin/sh
# Builds gnulib's vasnprintf (module vasnprintf-posix) from Debian's gnulib
# package: the module's C files, compiled straight from GNULIB_LIB
# (/usr/share/gnulib/lib), unmodified, with gnulib-config.h as their
# config.h. That file states what gnulib-tool + configure find on this
# glibc (no NEED_PRINTF_*: each directive goes to the libc's snprintf,
# gnulib parses the format, fetches the arguments and grows the result),
# so the slow part (gnulib-tool, autoreconf, configure: minutes on two
# cores) is not run; this takes seconds.
#   vasnprintf.c  vasnprintf itself        printf-args.c   argument fetching
#   printf-parse.c the format parser       xsize.c         xsize.h's inlines
#   asnprintf.c   the module's other entry (vasnprintf-posix's Depends-on
#   modules, isnand, printf-frexp, ..., serve only NEED_PRINTF_* code)
# The files' "..." includes resolve in GNULIB_LIB itself (the including
# file's directory); only <config.h> comes from WORKDIR, so gnulib's other
# headers (error.h, regex.h, ...) never shadow the system's.
# Then every global the archive defines gets a gnulib_ prefix (objcopy
# --redefine-syms), so nothing can clash with the C library or the project.
#
#   build-gnulib.sh GNULIB_LIB CONFIG_H WORKDIR CC AR NM OBJCOPY OUT.a
set -eu
src=$1 config=$2 work=$3 cc=$4 ar=$5 nm=$6 objcopy=$7 out=$8
files="vasnprintf printf-args printf-parse xsize asnprintf"
rm -rf "$work"
mkdir -p "$work"
cp "$config" "$work/config.h"
cd "$work"
# third-party code, built plain (no project warnings or sanitizers), with
# the flags the gnulib-tool build used; -fPIC: it is linked into the
# project's programs, PIE by default. Two at a time (two cores): the big
# vasnprintf.c in the background while the small ones go one by one.
compile() {
  "$cc" -DHAVE_CONFIG_H -I"$work" -O1 -g -fPIC -c "$src/$1.c" -o "$1.o" 2>"$1.log" ||
    { cat "$1.log" >&2; echo "gnulib: compiling $src/$1.c failed" >&2; return 1; }
}
compile vasnprintf & big=$!
ok=0
for f in $files; do
  [ "$f" = vasnprintf ] || compile "$f" || ok=1
done
wait "$big" || ok=1
[ "$ok" = 0 ] || exit 1
rm -f libgnu.a
"$ar" rc libgnu.a $(for f in $files; do echo "$f.o"; done)
"$nm" -g --defined-only libgnu.a | awk 'NF == 3 { print $3 " gnulib_" $3 }' | sort -u >renames.txt
grep -q '^vasnprintf gnulib_vasnprintf$' renames.txt || { echo "libgnu.a defines no vasnprintf" >&2; exit 1; }
"$objcopy" --redefine-syms=renames.txt libgnu.a "$out"
