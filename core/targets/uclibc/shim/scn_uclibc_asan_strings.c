/* Under SCN_SANITIZE uClibc-ng's string functions are not built: the
 * process's (glibc's, intercepted and checked by ASan) serve instead, as for
 * musl. uClibc-ng's code calls them by their libc-internal hidden names
 * (libc_hidden_proto in its headers: memcpy -> __GI_memcpy); these forward
 * the hidden names to the public ones. Compiled with the process's headers,
 * not uClibc-ng's (whose declarations would rename the calls back), and
 * localized by musl-objlink.sh with uClibc-ng's objects. */
#include <string.h>

void *__GI_memcpy(void *dst, const void *src, size_t n);
void *__GI_memset(void *dst, int c, size_t n);
void *__GI_memchr(const void *s, int c, size_t n);
void *__GI_memrchr(const void *s, int c, size_t n);
size_t __GI_strlen(const char *s);
size_t __GI_strnlen(const char *s, size_t max);

void *__GI_memcpy(void *dst, const void *src, size_t n) { return memcpy(dst, src, n); }
void *__GI_memset(void *dst, int c, size_t n) { return memset(dst, c, n); }
void *__GI_memchr(const void *s, int c, size_t n) { return memchr(s, c, n); }
void *__GI_memrchr(const void *s, int c, size_t n) { return memrchr(s, c, n); }
size_t __GI_strlen(const char *s) { return strlen(s); }
size_t __GI_strnlen(const char *s, size_t max) { return strnlen(s, max); }
