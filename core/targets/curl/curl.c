/* Target "curl": libcurl's curl_mvsnprintf (lib/mprintf.c), the printf curl
 * vendors and exports (Debian's libcurl4-openssl-dev, see CMakeLists.txt).
 *
 * It returns the bytes it stored, not the would-be length: curl_mprintf(3),
 * https://curl.se/libcurl/c/curl_mprintf.html, "return the number of
 * characters actually printed (excluding the null byte used to end output
 * to strings). Note that this sometimes differ from how the POSIX versions
 * of these functions work". So it has no C99 family: it is checked as a
 * scnprintf (target.h, SCN_API_SCN). */
#include <curl/mprintf.h>

#include "matrix_adapter.h"

SCN_MATRIX_ADAPTER(curl, SCN_MATRIX_VERSION, vscnprintf, curl_mvsnprintf, SCN_API_SCN,
                   "curl_mvsnprintf returns the bytes stored, not the would-be length "
                   "(curl_mprintf(3): \"the number of characters actually printed\")");
