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

#include "target.h"

static const char *curl_version_text(void) { return SCN_MATRIX_VERSION; }

static int curl_entry(char *buf, size_t size, const char *fmt, va_list ap)
{
    return curl_mvsnprintf(buf, size, fmt, ap);
}

const struct scn_target scn_target_curl = {
    .name = "curl",
    .version = curl_version_text,
    .dialect = SCN_DIALECT_ISO,
    .vsnprintf = NULL,
    .vscnprintf = curl_entry,
    .where = "in-process",
    .api = SCN_API_SCN,
    .group = SCN_GROUP_MATRIX,
    .conventions = "curl_mvsnprintf returns the bytes stored, not the would-be length "
                   "(curl_mprintf(3): \"the number of characters actually printed\")",
};
