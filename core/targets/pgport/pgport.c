/* Target "pgport": PostgreSQL 15's pg_vsnprintf (src/port/snprintf.c, in
 * libpgport.a of Debian's postgresql-server-dev-15; see CMakeLists.txt).
 * port.h is not included: it needs the server's c.h and pg_config.h, and
 * the one prototype is stable (port.h: "extern int pg_vsnprintf(char *str,
 * size_t count, const char *fmt, va_list args)").
 *
 * A C99 family (snprintf.c: "This implementation now follows the C99
 * standard"), with its documented gaps (snprintf.c, header comment): "No
 * support for the "%n" format specification", "No support for wide
 * characters ("lc" and "ls" formats)", "No support for "long double"",
 * "Space and '#' flags are not implemented" (each a -1 return: "-1 is
 * returned if an error is detected in the format string"), and no %a;
 * "%m" expands to strerror(errno). oracles/known_bugs.tsv lists them. */
#include "matrix_adapter.h"

extern int pg_vsnprintf(char *str, size_t count, const char *fmt, va_list args);

SCN_MATRIX_ADAPTER(pgport, SCN_MATRIX_VERSION, vsnprintf, pg_vsnprintf, SCN_API_C99,
                   "pg_vsnprintf: C99 would-be length; -1 for %n, %lc/%ls, L, %a and the ' ' and '#' flags "
                   "(PostgreSQL src/port/snprintf.c, header comment); %m is strerror(errno)");
