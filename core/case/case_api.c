/* The case model for ctypes callers (case_api.h): handles, and exact values
 * moved in and out of struct scn_case / struct scn_expect. The building is
 * case_build.c's (scn_case_init, scn_case_add_*), the text form too. */
#include "case_api.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

_Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wstr code points are 32-bit wchar_t");

struct scn_case *scn_api_case_new(void)
{
    return calloc(1, sizeof(struct scn_case));
}

int scn_api_case_init(struct scn_case *c, const char *fmt, size_t n)
{
    if (n > SCN_CASE_MAX_FMT) return -1;
    scn_case_init(c, fmt, n);
    return 0;
}

int scn_api_case_set_round(struct scn_case *c, int r)
{
    if (r < 0 || r >= SCN_ROUND__COUNT) return -1;
    c->round = (unsigned char)r;
    return 0;
}

int scn_api_case_get_round(const struct scn_case *c)
{
    return c->round;
}

static int add_signed(struct scn_case *c, const struct scn_api_arg *a)
{
    long long v = (long long)a->bits;
    if ((v < 0) != (a->neg != 0)) return -1; /* beyond 64 bits */
    if (a->type == SCN_ARG_INT && (v < INT_MIN || v > INT_MAX)) return -1;
    return scn_case_add_int(c, (enum scn_arg_type)a->type, v);
}

static int add_unsigned(struct scn_case *c, const struct scn_api_arg *a)
{
    if (a->neg) return -1;
    if ((a->type == SCN_ARG_UINT || a->type == SCN_ARG_WINT) && a->bits > UINT_MAX) return -1;
    return scn_case_add_uint(c, (enum scn_arg_type)a->type, a->bits);
}

int scn_api_add_arg(struct scn_case *c, const struct scn_api_arg *a)
{
    static const char no_bytes[1];
    static const wchar_t no_wide[1];
    switch (a->type) {
    case SCN_ARG_INT: case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX:
    case SCN_ARG_SSIZE: case SCN_ARG_PTRDIFF:
        return add_signed(c, a);
    case SCN_ARG_UINT: case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX:
    case SCN_ARG_SIZE: case SCN_ARG_WINT:
        return add_unsigned(c, a);
    case SCN_ARG_PTR:
        if (a->is_null) return scn_case_add_ptr(c, NULL);
        if (a->bits == 0) return -1; /* the text form has NULL, not 0x0 */
        return add_unsigned(c, a);
    case SCN_ARG_DOUBLE: {
        if (a->neg) return -1; /* a pattern, not a value */
        double d;
        memcpy(&d, &a->bits, sizeof d);
        return scn_case_add_double(c, d);
    }
    case SCN_ARG_LDOUBLE: {
        if (a->sign_exp > 0xffff) return -1;
        unsigned char raw[sizeof(long double)] = {0};
        memcpy(raw, &a->bits, 8);
        raw[8] = (unsigned char)(a->sign_exp & 0xff);
        raw[9] = (unsigned char)(a->sign_exp >> 8);
        long double v;
        memcpy(&v, raw, sizeof v);
        return scn_case_add_ldouble(c, v);
    }
    case SCN_ARG_STR:
        if (a->is_null) return scn_case_add_str(c, NULL, 0);
        return scn_case_add_str(c, a->len ? a->data : no_bytes, a->len);
    case SCN_ARG_WSTR: {
        if (a->is_null) return scn_case_add_wstr(c, NULL, 0);
        const uint32_t *cp = a->data;
        for (size_t i = 0; i < a->len; i++)
            if (cp[i] > 0x7fffffff) return -1; /* wchar_t is signed */
        return scn_case_add_wstr(c, a->len ? a->data : no_wide, a->len);
    }
    case SCN_ARG_N:
        if (a->ntype < 0 || a->ntype >= SCN_N__COUNT) return -1;
        return scn_case_add_n(c, (enum scn_n_type)a->ntype);
    case SCN_ARG_MEM:
        if (a->is_null) return scn_case_add_mem(c, NULL, 0);
        if (a->is_err) return a->neg ? scn_case_add_mem_err(c, (long long)a->bits) : -1;
        if (a->is_vaf) return scn_case_add_mem_vaf(c, a->len ? a->data : no_bytes, a->len);
        return scn_case_add_mem(c, a->len ? a->data : no_bytes, a->len);
    }
    return -1;
}

int scn_api_add_size(struct scn_case *c, uint64_t size)
{
    if (c->nsizes >= SCN_CASE_MAX_SIZES || size > SIZE_MAX) return -1;
    c->sizes[c->nsizes++] = (size_t)size;
    return 0;
}

void scn_api_case_parts(const struct scn_case *c, const char **fmt, size_t *fmt_len, size_t *nargs,
                        const size_t **sizes, size_t *nsizes)
{
    *fmt = c->fmt;
    *fmt_len = c->fmt_len;
    *nargs = c->nargs;
    *sizes = c->sizes;
    *nsizes = c->nsizes;
}

int scn_api_get_arg(const struct scn_case *c, size_t i, struct scn_api_arg *a)
{
    if (i >= c->nargs) return -1;
    const struct scn_arg *s = &c->args[i];
    memset(a, 0, sizeof *a);
    a->type = s->type;
    a->ntype = s->ntype;
    a->is_null = s->is_null;
    switch (s->type) {
    case SCN_ARG_INT: case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX:
    case SCN_ARG_SSIZE: case SCN_ARG_PTRDIFF:
        a->bits = (uint64_t)s->v.i;
        a->neg = s->v.i < 0;
        break;
    case SCN_ARG_DOUBLE:
        memcpy(&a->bits, &s->v.d, 8);
        break;
    case SCN_ARG_LDOUBLE: {
        unsigned char raw[sizeof(long double)];
        memcpy(raw, &s->v.ld, sizeof raw);
        memcpy(&a->bits, raw, 8);
        a->sign_exp = (uint32_t)raw[8] | (uint32_t)raw[9] << 8;
        break;
    }
    case SCN_ARG_STR: case SCN_ARG_WSTR: case SCN_ARG_MEM:
        a->is_err = s->is_err;
        a->is_vaf = s->is_vaf;
        if (s->is_err) {
            a->bits = (uint64_t)s->v.i;
            a->neg = 1;
        } else if (!s->is_null) {
            a->data = c->arena + s->off;
            a->len = s->len;
        }
        break;
    case SCN_ARG_N:
        break;
    default: /* unsigned types, wint, ptr */
        a->bits = s->is_null ? 0 : s->v.u;
        break;
    }
    return 0;
}

struct scn_expect *scn_api_expect_new(void)
{
    return calloc(1, sizeof(struct scn_expect));
}

int scn_api_expect_set(struct scn_expect *x, int kind, const char *bytes, size_t len,
                       const long long *n, size_t nn)
{
    if (kind != SCN_EXPECT_NONE && kind != SCN_EXPECT_OUTPUT && kind != SCN_EXPECT_ERR) return -1;
    if (kind != SCN_EXPECT_OUTPUT) len = nn = 0;
    if (len > SCN_EXPECT_MAX || nn > SCN_CASE_MAX_ARGS) return -1;
    x->kind = kind;
    if (len) memcpy(x->bytes, bytes, len);
    x->bytes[len] = 0;
    x->len = len;
    if (nn) memcpy(x->n, n, nn * sizeof *n);
    x->nn = nn;
    return 0;
}

void scn_api_expect_get(const struct scn_expect *x, int *kind, const char **bytes, size_t *len,
                        const long long **n, size_t *nn)
{
    *kind = x->kind;
    *bytes = x->bytes;
    *len = x->len;
    *n = x->n;
    *nn = x->nn;
}
