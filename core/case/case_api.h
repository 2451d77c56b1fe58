/* The case model for callers without C structures: Python, through ctypes
 * (runner/scnfuzz/casetext.py loads libscn_casetext.so, built from this file
 * with the case model's files and corpus.c, core/CMakeLists.txt).
 *
 * A case or an expectation is a handle. A case is built argument by argument
 * from exact values (scn_api_add_arg) or parsed from its text form
 * (scn_case_parse), printed with scn_case_format, and read back part by part
 * (scn_api_case_parts, scn_api_get_arg). An expectation likewise
 * (scn_api_expect_set / scn_expect_parse, scn_expect_format,
 * scn_api_expect_get). Quoting is scn_quoted_format / scn_quoted_parse. This
 * file only moves values across: the text form is case_format.c's, case_parse*.c's
 * and corpus.c's.
 */
#ifndef SCN_CASE_API_H
#define SCN_CASE_API_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One argument, both ways. Only the fields of its type are used. */
struct scn_api_arg {
    int type;          /* enum scn_arg_type */
    int ntype;         /* SCN_ARG_N: enum scn_n_type */
    int is_null;       /* str, wstr, ptr, mem: the NULL pointer */
    int neg;           /* integer types, mem's error: the value is negative (bits in two's complement) */
    uint64_t bits;     /* integers and ptr: the value; double: its IEEE-754 pattern;
                          ldouble: the 64-bit significand (explicit integer bit);
                          mem with is_err: the error value (-SCN_CASE_MAX_ERRNO..-1) */
    uint32_t sign_exp; /* ldouble: sign << 15 | biased exponent */
    const void *data;  /* str, mem: the bytes; wstr: the code points (uint32_t) */
    size_t len;        /* str, mem: bytes; wstr: code points */
    int is_err;        /* mem: the error pointer ERR_PTR(bits) */
    int is_vaf;        /* mem: a struct va_format for %pV whose format is data/len (VAF("...")) */
};

/* A handle, NULL when out of memory; a caller keeps its handles for good
 * (casetext.py: one of each per thread). */
struct scn_case *scn_api_case_new(void);
/* Starts a case with its format (bytes, NULs allowed): 0, or -1 when too long. */
int scn_api_case_init(struct scn_case *c, const char *fmt, size_t n);
/* Appends an argument: 0, or -1 when the value does not fit its type (an int
 * beyond 32 bits, a negative unsigned, ptr 0 that is not is_null, ...), the
 * type is unknown, a mem error is not -SCN_CASE_MAX_ERRNO..-1, or the case is full. */
int scn_api_add_arg(struct scn_case *c, const struct scn_api_arg *a);
/* Appends a buffer size: 0, or -1 when the case has SCN_CASE_MAX_SIZES. */
int scn_api_add_size(struct scn_case *c, uint64_t size);
/* The parts of a case: its format, argument count, sizes (pointers into c). */
void scn_api_case_parts(const struct scn_case *c, const char **fmt, size_t *fmt_len, size_t *nargs,
                        const size_t **sizes, size_t *nsizes);
/* The rounding direction the call is made under (enum scn_round; names from
 * scn_round_name): set returns 0, or -1 when r is out of range. */
int scn_api_case_set_round(struct scn_case *c, int r);
int scn_api_case_get_round(const struct scn_case *c);
/* The i-th argument (data points into c): 0, or -1 when i is out of range. */
int scn_api_get_arg(const struct scn_case *c, size_t i, struct scn_api_arg *a);

struct scn_expect *scn_api_expect_new(void);
/* kind SCN_EXPECT_*; bytes and n values for SCN_EXPECT_OUTPUT: 0, or -1 when
 * they do not fit (SCN_EXPECT_MAX bytes, SCN_CASE_MAX_ARGS values). */
int scn_api_expect_set(struct scn_expect *x, int kind, const char *bytes, size_t len,
                       const long long *n, size_t nn);
void scn_api_expect_get(const struct scn_expect *x, int *kind, const char **bytes, size_t *len,
                        const long long **n, size_t *nn);

#ifdef __cplusplus
}
#endif

#endif /* SCN_CASE_API_H */
