/* The functions the musl target exports: musl's own code, built from its
 * source with every other musl symbol localized (see CMakeLists.txt). */
#ifndef SCN_MUSL_API_H
#define SCN_MUSL_API_H

#include <stdarg.h>
#include <stddef.h>

/* musl's vsnprintf (src/stdio/vsnprintf.c), C99 semantics. */
int musl_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* musl's __errno_location: errno as musl sees it, a field of the calling
 * thread's fake musl `struct pthread` (not glibc's errno). */
int *musl_errno_location(void);
/* musl's strerror (C locale messages), what %m prints for musl's errno. */
char *musl_strerror(int errnum);

#endif
