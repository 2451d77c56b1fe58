/* The one tools/include header tools/lib/vsprintf.c includes, reduced to
 * what that file uses (va_list); the real one pulls in the tools' whole
 * compiler/types shim for macros the file does not use. */
#ifndef SCN_LTOOLS_SHIM_KERNEL_H
#define SCN_LTOOLS_SHIM_KERNEL_H
#include <stdarg.h>
#endif
