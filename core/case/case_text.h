/* The case text form's own pieces shared by its files (case_format.c writes,
 * case_parse*.c read): not for callers, whose interface is case.h. */
#ifndef SCN_CASE_TEXT_H
#define SCN_CASE_TEXT_H

#include <stddef.h>
#include <wchar.h>

#include "case.h"
#include "scn_writer.h"

/* A parser's error: "col N: ..." into err (when there is room), return -1. */
#define ERR(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* ---- out (case_format.c) ---- */

/* The escape of a code point < 0x80 or of a byte, as a quoted string has it. */
void scn_text_escape_byte(struct scn_writer *o, unsigned b);
/* %a of a double, %La of an x86 80-bit long double, exactly as glibc prints
 * them (t: at least 64 bytes). */
void scn_text_hex_double(double d, char *t);
void scn_text_hex_ldouble(long double d, char *t);

/* ---- in (case_parse_quoted.c, case_parse_number.c) ---- */

/* A lower-case hex digit's value, -1 for any other byte. */
int scn_text_hexval(int ch);
/* Parses a quoted token at text[pos]. wide: code points into wout (cap
 * wchar_t), else bytes into bout. Returns new pos, or -1. */
long scn_text_parse_quoted(const char *text, size_t len, size_t pos, size_t col0, int wide,
                           char *bout, wchar_t *wout, size_t cap, size_t *outlen,
                           char *err, size_t errlen);
/* A canonical decimal integer in [lo, hi] (signed) or [0, uhi] (unsigned). */
int scn_text_parse_dec(const char *s, size_t n, int is_signed, long long lo, long long hi,
                       unsigned long long uhi, long long *iv, unsigned long long *uv,
                       size_t col, char *err, size_t errlen);
/* A double or ldouble value: the canonical hex form, inf, nan (signed), or a decimal float. */
int scn_text_parse_float(const char *s, size_t n, int is_ld, struct scn_arg *a, size_t col,
                         char *err, size_t errlen);
/* A ptr value (vn bytes at v, column vcol): NULL or 0x<lower-case hex>. */
int scn_text_parse_ptr(const char *v, size_t vn, struct scn_arg *a, size_t vcol, char *err, size_t errlen);

#endif /* SCN_CASE_TEXT_H */
