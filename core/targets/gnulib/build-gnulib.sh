#!/bin/sh
# Builds gnulib's vasnprintf (module vasnprintf-posix) from Debian's gnulib
# package the way a project that imports it does: gnulib-tool makes a test
# directory with the module, its configure decides which of gnulib's own
# formatting paths this libc needs (NEED_PRINTF_* in config.h; on glibc
# none: each directive goes to the libc's snprintf, gnulib parses the format,
# fetches the arguments and grows the result), make builds gllib/libgnu.a.
# Then every global the archive defines gets a gnulib_ prefix (objcopy
# --redefine-syms), so nothing can clash with the C library or the project.
#
#   build-gnulib.sh GNULIB_TOOL WORKDIR CC NM OBJCOPY OUT.a
# Slow (gnulib-tool and configure: minutes on two cores): CMake runs it once
# per build directory (SCN_WITH_GNULIB=ON) and keeps WORKDIR.
set -eu
tool=$1 work=$2 cc=$3 nm=$4 objcopy=$5 out=$6
rm -rf "$work"
"$tool" --create-testdir --dir="$work" --without-tests vasnprintf-posix >"$work.log" 2>&1 ||
  { echo "gnulib-tool failed (see $work.log)" >&2; exit 1; }
cd "$work"
# third-party code, built plain (no project warnings or sanitizers); -fPIC:
# it is linked into the project's programs, PIE by default
./configure -q CC="$cc" CFLAGS="-O1 -g -fPIC" >>"$work.log" 2>&1 ||
  { echo "gnulib configure failed (see $work.log)" >&2; exit 1; }
make -j2 >>"$work.log" 2>&1 || { echo "gnulib make failed (see $work.log)" >&2; exit 1; }
"$nm" -g --defined-only gllib/libgnu.a | awk 'NF == 3 { print $3 " gnulib_" $3 }' | sort -u >renames.txt
grep -q '^vasnprintf gnulib_vasnprintf$' renames.txt || { echo "libgnu.a defines no vasnprintf" >&2; exit 1; }
"$objcopy" --redefine-syms=renames.txt gllib/libgnu.a "$out"
