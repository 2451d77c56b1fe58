/* Building cases in code: a format, then the arguments one by one, each
 * stored in the case (strings in its arena). */
#define _GNU_SOURCE
#include "case.h"

#include <string.h>

static void *arena_alloc(struct scn_case *c, size_t bytes, size_t align)
{
    size_t off = (c->arena_used + align - 1) & ~(align - 1);
    if (off > SCN_CASE_ARENA || bytes > SCN_CASE_ARENA - off) return NULL;
    c->arena_used = off + bytes;
    return c->arena + off;
}

void scn_case_init(struct scn_case *c, const char *fmt, size_t fmt_len)
{
    if (fmt_len > SCN_CASE_MAX_FMT) fmt_len = SCN_CASE_MAX_FMT;
    memcpy(c->fmt, fmt, fmt_len);
    c->fmt[fmt_len] = 0;
    c->fmt_len = fmt_len;
    c->nargs = c->nsizes = c->arena_used = 0;
    c->round = SCN_ROUND_NEAREST;
}

static struct scn_arg *new_arg(struct scn_case *c, int type)
{
    if (c->nargs >= SCN_CASE_MAX_ARGS) return NULL;
    struct scn_arg *a = &c->args[c->nargs++];
    memset(a, 0, sizeof *a);
    a->type = (unsigned char)type;
    return a;
}

int scn_case_add_int(struct scn_case *c, enum scn_arg_type t, long long v)
{
    struct scn_arg *a = new_arg(c, t);
    if (!a) return -1;
    a->v.i = t == SCN_ARG_INT ? (int)v : v;
    return 0;
}

int scn_case_add_uint(struct scn_case *c, enum scn_arg_type t, unsigned long long v)
{
    struct scn_arg *a = new_arg(c, t);
    if (!a) return -1;
    a->v.u = (t == SCN_ARG_UINT || t == SCN_ARG_WINT) ? (unsigned)v : v;
    if (t == SCN_ARG_PTR && v == 0) a->is_null = 1;
    return 0;
}

int scn_case_add_double(struct scn_case *c, double v)
{
    struct scn_arg *a = new_arg(c, SCN_ARG_DOUBLE);
    if (!a) return -1;
    a->v.d = v;
    return 0;
}

int scn_case_add_ldouble(struct scn_case *c, long double v)
{
    struct scn_arg *a = new_arg(c, SCN_ARG_LDOUBLE);
    if (!a) return -1;
    a->v.ld = v;
    return 0;
}

int scn_case_add_str(struct scn_case *c, const char *s, size_t n)
{
    if (c->nargs >= SCN_CASE_MAX_ARGS) return -1;
    char *dst = NULL;
    if (s && !(dst = arena_alloc(c, n + 1, 1))) return -1;
    struct scn_arg *a = new_arg(c, SCN_ARG_STR);
    if (!s) {
        a->is_null = 1;
        return 0;
    }
    memcpy(dst, s, n);
    dst[n] = 0;
    a->off = (uint32_t)(dst - c->arena);
    a->len = (uint32_t)n;
    return 0;
}

int scn_case_add_wstr(struct scn_case *c, const wchar_t *s, size_t n)
{
    if (c->nargs >= SCN_CASE_MAX_ARGS) return -1;
    wchar_t *dst = NULL;
    if (s && !(dst = arena_alloc(c, (n + 1) * sizeof(wchar_t), sizeof(wchar_t)))) return -1;
    struct scn_arg *a = new_arg(c, SCN_ARG_WSTR);
    if (!s) {
        a->is_null = 1;
        return 0;
    }
    memcpy(dst, s, n * sizeof(wchar_t));
    dst[n] = 0;
    a->off = (uint32_t)((char *)dst - c->arena);
    a->len = (uint32_t)n;
    return 0;
}

int scn_case_add_ptr(struct scn_case *c, const void *p)
{
    return scn_case_add_uint(c, SCN_ARG_PTR, (unsigned long long)(uintptr_t)p);
}

int scn_case_add_n(struct scn_case *c, enum scn_n_type t)
{
    struct scn_arg *a = new_arg(c, SCN_ARG_N);
    if (!a) return -1;
    a->ntype = (unsigned char)t;
    return 0;
}

int scn_case_add_mem(struct scn_case *c, const void *p, size_t n)
{
    if (c->nargs >= SCN_CASE_MAX_ARGS) return -1;
    char *dst = NULL;
    if (p && !(dst = arena_alloc(c, n, 1))) return -1;
    struct scn_arg *a = new_arg(c, SCN_ARG_MEM);
    if (!p) {
        a->is_null = 1;
        return 0;
    }
    if (n) memcpy(dst, p, n);
    a->off = (uint32_t)(dst - c->arena);
    a->len = (uint32_t)n;
    return 0;
}

int scn_case_add_mem_err(struct scn_case *c, long long e)
{
    if (e < -SCN_CASE_MAX_ERRNO || e > -1) return -1;
    struct scn_arg *a = new_arg(c, SCN_ARG_MEM);
    if (!a) return -1;
    a->is_err = 1;
    a->v.i = e;
    return 0;
}

int scn_case_add_mem_vaf(struct scn_case *c, const char *fmt, size_t n)
{
    if (c->nargs >= SCN_CASE_MAX_ARGS) return -1;
    char *dst = arena_alloc(c, n + 1, 1);
    if (!dst) return -1;
    struct scn_arg *a = new_arg(c, SCN_ARG_MEM);
    memcpy(dst, fmt, n);
    dst[n] = 0;
    a->is_vaf = 1;
    a->off = (uint32_t)(dst - c->arena);
    a->len = (uint32_t)n;
    return 0;
}
