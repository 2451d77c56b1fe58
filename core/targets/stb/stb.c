/* Target "stb": stbsp_vsnprintf of stb_sprintf.h (Debian's libstb-dev; see
 * CMakeLists.txt), the printf of the stb single-file libraries that many
 * programs (games, tools) paste in. A C99 family: it returns the would-be
 * length (seen: 11 for "%s" of "hello world" at size 5). Its documented differences (stb_sprintf.h, "API" and
 * "FLOATS/DOUBLES"): "always returns a zero-terminated string", and the
 * insignificant digits of a float "will be different than with MSVC or
 * GCC". Its count is an int: larger sizes are given as INT_MAX. */
#include <limits.h>

#include <stb/stb_sprintf.h>

#include "matrix_adapter.h"

static int stb_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return stbsp_vsnprintf(buf, size > INT_MAX ? INT_MAX : (int)size, fmt, ap);
}

SCN_MATRIX_ADAPTER(stb, SCN_MATRIX_VERSION, vsnprintf, stb_entry, SCN_API_C99,
                   "stbsp_vsnprintf: C99 would-be length, int count; insignificant float digits differ "
                   "from glibc's (stb_sprintf.h, FLOATS/DOUBLES); no n$ positions");
