/* Target "trio": trio's trio_vsnprintf (trio.c), a portable printf that
 * projects vendor to replace a missing or broken libc one (trio.h maps
 * vsnprintf to it without HAVE_VSNPRINTF); Debian's libtrio-dev (see
 * CMakeLists.txt). A C99 family: it returns the would-be length
 * (/usr/share/doc/libtrio-dev/html/group___printf.html, "Returns: Number of
 * printed characters"), a negative trio error code (TRIO_ERROR_RETURN) on a
 * bad format. */
#include <trio.h>

#include "matrix_adapter.h"

SCN_MATRIX_ADAPTER(trio, SCN_MATRIX_VERSION, vsnprintf, trio_vsnprintf, SCN_API_C99,
                   "trio_vsnprintf: C99 would-be length; a bad format returns a negative trio error code, "
                   "not -1 (trio.h TRIO_ERROR_RETURN; libtrio-dev html/group___printf.html)");
