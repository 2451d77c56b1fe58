/* Declarations for scn_strtod.c (forced with -include when the libc has no
 * strtod/strtold, e.g. klibc). */
#ifndef SCN_EXEC_COMPAT_STRTOD_H
#define SCN_EXEC_COMPAT_STRTOD_H
double strtod(const char *s, char **end);
long double strtold(const char *s, char **end);
#endif
