/* scnfuzz: the Linux kernel's own printf family (lib/vsprintf.c from Debian's
 * linux-source-6.1, built in userspace), under kern_* names so that it can
 * never stand in for libc's. Kernel semantics, not ISO C: see
 * printk-formats.rst and the notes in kernel.c.                             */
#ifndef SCN_KERN_PRINTF_H
#define SCN_KERN_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

/* The kernel's format checking is printf-like but the dialect differs (%p
 * extensions, no %n/%f/%j...): no format attribute, on purpose. */
int kern_vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int kern_vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
int kern_snprintf(char *buf, size_t size, const char *fmt, ...);
int kern_scnprintf(char *buf, size_t size, const char *fmt, ...);

/* How many times the kernel code hit a WARN_ONCE/WARN_ON_ONCE (unsupported
 * conversion, width/precision clamp, size > INT_MAX) since the process
 * started. The shim's WARN prints nothing and never aborts. */
unsigned long kern_warn_count(void);

/* "linux-source-6.1 <Debian package version>", recorded at configure time */
const char *kern_version(void);

#endif /* SCN_KERN_PRINTF_H */
