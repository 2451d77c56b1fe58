/* Target "apr": APR's apr_vsnprintf (strings/apr_snprintf.c, over
 * apr_vformatter), from Debian's libapr1-dev (see CMakeLists.txt).
 *
 * apr_strings.h (the comment of apr_snprintf): "It will return the number
 * of characters inserted into the buffer, not including the terminating
 * NUL. As a special case, if len is 0, apr_snprintf will return the number
 * of characters that would have been inserted if the buffer had been
 * infinite (in this case, *buffer can be NULL). In no event does
 * apr_snprintf return a negative number." So it is a scnprintf family
 * (SCN_API_SCN) except at size 0, a documented difference
 * (oracles/known_bugs.tsv, apr-size0-would-be). Its %p is APR's prefix of
 * extensions (%pp is the pointer; apr_lib.h, apr_vformatter). */
#include <apr_strings.h>

#include "matrix_adapter.h"

SCN_MATRIX_ADAPTER(apr, SCN_MATRIX_VERSION, vscnprintf, apr_vsnprintf, SCN_API_SCN,
                   "apr_vsnprintf returns the bytes stored, but at size 0 the would-be length "
                   "(apr_strings.h, apr_snprintf); %p starts APR's extensions (apr_lib.h)");
