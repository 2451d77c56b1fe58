/* Minimal <wchar.h> for a libc that has none (klibc): the case model (core/case)
 * only needs the types. Used by the executor build when a probe compile of
 * `#include <wchar.h>` fails (programs/exec/README.md). */
#ifndef SCN_EXEC_COMPAT_WCHAR_H
#define SCN_EXEC_COMPAT_WCHAR_H
#include <stddef.h>
#ifndef __cplusplus
typedef __WCHAR_TYPE__ wchar_t;
#endif
typedef __WINT_TYPE__ wint_t;
#endif
