/* The base types every layer shares: the dialect of a format, and the shape
 * of a vsnprintf-family call. Layers, lowest first (tests/test_layers.py
 * checks that no file includes a header of a higher layer):
 *   base (this file) <- case model <- targets <- oracles <- programs
 */
#ifndef SCN_BASE_H
#define SCN_BASE_H

#include <stdarg.h>
#include <stddef.h>

enum scn_dialect { SCN_DIALECT_ISO = 0, SCN_DIALECT_KERNEL = 1 };

typedef int (*scn_vprintf_fn)(char *buf, size_t size, const char *fmt, va_list ap);

#endif /* SCN_BASE_H */
