/* Target "sqlite": SQLite's sqlite3_vsnprintf (src/printf.c), from Debian's
 * libsqlite3-dev (see CMakeLists.txt).
 *
 * It returns a pointer, the buffer: https://sqlite.org/c3ref/mprintf.html,
 * "The sqlite3_snprintf() routine ... the first two parameters are reversed
 * from snprintf() ... returns a pointer to its buffer instead of the number
 * of characters actually written into the buffer ... As long as the buffer
 * size is greater than zero, sqlite3_snprintf() guarantees that the buffer
 * is always zero-terminated." The adapter returns the length of the string
 * it stored (0 at size 0, where the buffer is untouched): a scnprintf
 * family call (SCN_API_POINTER). An output with a NUL byte (%c of 0) is cut
 * there by that length. Its buffer size is an int: larger sizes are given
 * as INT_MAX (the buffer is at least that big). */
#include <limits.h>
#include <string.h>

#include <sqlite3.h>

#include "matrix_adapter.h"

static int sqlite_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    /* as in any program that uses SQLite: sqlite3_vsnprintf does not call
     * sqlite3_initialize() itself (sqlite3_mprintf does), and a conversion
     * wider than its stack buffer allocates through sqlite3Malloc, whose
     * allocator is NULL until then (c3ref/initialize.html) */
    static int initialized;
    if (!initialized) initialized = sqlite3_initialize() == SQLITE_OK;
    if (size == 0) return 0;
    int n = size > INT_MAX ? INT_MAX : (int)size;
    return (int)strnlen(sqlite3_vsnprintf(n, buf, fmt, ap), size);
}

SCN_MATRIX_ADAPTER(sqlite, SCN_MATRIX_VERSION, vscnprintf, sqlite_entry, SCN_API_POINTER,
                   "sqlite3_vsnprintf(n, buf, fmt, ap) returns buf, always NUL-terminated when n > 0; "
                   "adapted: returns strlen(buf) (sqlite.org/c3ref/mprintf.html)");
