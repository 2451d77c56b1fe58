/* scnfuzz reference printf engine: public API.
 *
 * A complete, freestanding formatting engine (no libc calls, no malloc),
 * with both return-value families:
 *   - ref_vsnprintf/ref_snprintf:   C17 7.21.6.5 (returns the would-be length)
 *   - ref_vscnprintf/ref_scnprintf: Linux-kernel semantics (returns the bytes
 *     actually written, excluding the NUL; 0 when size == 0; never negative)
 *
 * The plain entry points use the ISO dialect and the C locale's multibyte
 * encoding. The *_ex variants take a struct ref_options (NULL = defaults).
 */
#ifndef SCN_REF_PRINTF_H
#define SCN_REF_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ref_dialect {
    REF_DIALECT_ISO = 0,          /* C17 + C23 (%b, wN) + POSIX (%n$) */
    REF_DIALECT_LINUX_KERNEL = 1  /* lib/vsprintf.c of Linux 6.1, with some %p extensions (docs/CHOICES.md) */
};

enum ref_encoding {
    REF_ENCODING_C = 0,   /* the C locale: code points 0..0x7f are bytes, others are encoding errors */
    REF_ENCODING_UTF8 = 1 /* UTF-8; surrogates and code points > 0x10ffff are encoding errors */
};

/* Rounding of decimal and hexadecimal float output (C17 F.5, IEEE 754-2019
 * 5.12.2: conversions are correctly rounded in the current rounding
 * direction). The plain entry points (opt NULL) use REF_ROUND_CURRENT: the
 * direction in force at the call, read from the floating-point environment
 * without libm (x86-64: MXCSR's rounding control, which fesetround sets with
 * the x87 control word's; elsewhere by arithmetic, as musl's fmt_fp does).
 * An options struct may name a direction instead. */
enum ref_rounding {
    REF_ROUND_NEAREST = 0, /* to nearest, ties to even */
    REF_ROUND_TOWARD_ZERO = 1,
    REF_ROUND_UPWARD = 2,
    REF_ROUND_DOWNWARD = 3,
    REF_ROUND_CURRENT = 4  /* the current direction (fegetround's), the default */
};

struct ref_options {
    enum ref_dialect dialect;
    enum ref_encoding encoding;
    enum ref_rounding rounding;
};

int ref_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ref_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ref_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ref_scnprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* opt may be NULL (ISO dialect, C encoding, the current rounding direction). */
int ref_vsnprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                     const char *fmt, va_list ap);
int ref_snprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                    const char *fmt, ...);
int ref_vscnprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                      const char *fmt, va_list ap);
int ref_scnprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                     const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* SCN_REF_PRINTF_H */
