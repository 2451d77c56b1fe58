/* Target "curl": libcurl's curl_mvsnprintf (lib/mprintf.c), the printf curl
 * vendors and exports (Debian's libcurl4-openssl-dev, see CMakeLists.txt).
 *
 * It returns the bytes it stored, not the would-be length: curl_mprintf(3),
 * https://curl.se/libcurl/c/curl_mprintf.html, "return the number of
 * characters actually printed (excluding the null byte used to end output
 * to strings). Note that this sometimes differ from how the POSIX versions
 * of these functions work". So it has no C99 family: it is checked as a
 * scnprintf (target.h, SCN_API_SCN).
 *
 * libcurl is opened at the target's first call, not linked: linked, its ~30
 * libraries (TLS, Kerberos, LDAP, ...) load and initialise in every process
 * of the suite, whichever targets it checks, the largest part of a short
 * sanitized process's start. */
#include <curl/mprintf.h>
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

#include "matrix_adapter.h"

/* libcurl4's soname (Debian's libcurl4 package; the ABI of libcurl 7.16 on) */
#define SCN_CURL_SONAME "libcurl.so.4"

typedef int (*curl_mvsnprintf_fn)(char *buffer, size_t maxlength, const char *format, va_list args);
/* the type checked against curl's own declaration, without a reference to the
 * symbol (an unoptimised build would otherwise need libcurl at link time) */
_Static_assert(__builtin_types_compatible_p(__typeof__(&curl_mvsnprintf), curl_mvsnprintf_fn),
               "curl_mvsnprintf's type");

static curl_mvsnprintf_fn curl_entry(void)
{
    static curl_mvsnprintf_fn fn;
    if (!fn) {
        void *h = dlopen(SCN_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
        void *sym = h ? dlsym(h, "curl_mvsnprintf") : NULL;
        if (!sym) {
            /* the target was built against libcurl: it is gone or broken since */
            const char *why = dlerror();
            fprintf(stderr, "scnfuzz: target curl: cannot open %s: %s (apt-get install libcurl4)\n", SCN_CURL_SONAME,
                    why ? why : "no curl_mvsnprintf in it");
            _exit(2);
        }
        *(void **)&fn = sym;
    }
    return fn;
}

static int curl_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return curl_entry()(buf, size, fmt, ap);
}

SCN_MATRIX_ADAPTER(curl, SCN_MATRIX_VERSION, vscnprintf, curl_vscnprintf, SCN_API_SCN,
                   "curl_mvsnprintf returns the bytes stored, not the would-be length "
                   "(curl_mprintf(3): \"the number of characters actually printed\")");
