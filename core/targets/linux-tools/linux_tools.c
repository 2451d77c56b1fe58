/* Target "linux-tools": vscnprintf of tools/lib/vsprintf.c, Linux 6.1 (the
 * tools' own copy, not lib/vsprintf.c: see the kernel target), from Debian's
 * linux-source-6.1 (see CMakeLists.txt), as ltools_vscnprintf.
 *
 * A scnprintf family only (SCN_API_SCN): the tools' vscnprintf is
 *     int i = vsnprintf(buf, size, fmt, args); ssize_t ssize = size;
 *     return (i >= ssize) ? (ssize - 1) : i;
 * over the C library's vsnprintf, so it promises what the kernel's
 * vscnprintf does ("The return value is the number of characters which
 * have been written into the @buf not including the trailing '\0'. If
 * @size is == 0 the function returns 0.", lib/vsprintf.c) but at size 0 it
 * returns -1, and a failing vsnprintf's -1 passes through
 * (oracles/known_bugs.tsv, linux-tools-scn-size0). The dialect is ISO: the
 * formats are glibc's. */
#include "matrix_adapter.h"

int ltools_vscnprintf(char *buf, size_t size, const char *fmt, va_list args);

SCN_MATRIX_ADAPTER_NAMED(linux_tools, "linux-tools", SCN_MATRIX_VERSION " (tools/lib/vsprintf.c)", vscnprintf,
                         ltools_vscnprintf, SCN_API_SCN,
                         "tools/lib/vsprintf.c vscnprintf = min(glibc vsnprintf, size-1): bytes written, "
                         "but -1 at size 0 and on a vsnprintf error (kernel doc of vscnprintf: 0)");
