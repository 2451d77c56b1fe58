/* The case text form in: a case line, token by token (the quoted format,
 * TYPE:VALUE arguments, @sizes). Only the canonical form case_format.c
 * writes is accepted, so text -> case -> text round-trips exactly. */
#define _GNU_SOURCE
#include "case.h"
#include "case_text.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static size_t token_end(const char *text, size_t len, size_t pos)
{
    while (pos < len && text[pos] != ' ') pos++;
    return pos;
}

static int parse_arg(const char *text, size_t len, size_t pos, size_t *endpos, struct scn_case *c,
                     char *err, size_t errlen)
{
    size_t col = pos + 1;
    if (c->nargs >= SCN_CASE_MAX_ARGS) ERR("col %zu: too many arguments (max %d)", col, SCN_CASE_MAX_ARGS);
    size_t colon = pos;
    while (colon < len && text[colon] != ':' && text[colon] != ' ') colon++;
    if (colon >= len || text[colon] != ':')
        ERR("col %zu: expected TYPE:VALUE or @sizes", col);
    int type = -1;
    for (int t = 0; t < SCN_ARG__COUNT; t++)
        if (strlen(scn_arg_type_name(t)) == colon - pos && !memcmp(scn_arg_type_name(t), text + pos, colon - pos))
            type = t;
    if (type < 0)
        ERR("col %zu: unknown type '%.*s', expected int long llong intmax ssize ptrdiff uint ulong "
            "ullong uintmax size double ldouble wint str wstr ptr n mem", col, (int)(colon - pos), text + pos);
    struct scn_arg *a = &c->args[c->nargs];
    memset(a, 0, sizeof *a);
    a->type = (unsigned char)type;
    size_t vpos = colon + 1, vcol = vpos + 1;
    size_t vend = token_end(text, len, vpos);
    const char *v = text + vpos;
    size_t vn = vend - vpos;
    switch (type) {
    case SCN_ARG_INT:
        if (scn_text_parse_dec(v, vn, 1, INT_MIN, INT_MAX, 0, &a->v.i, NULL, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE: case SCN_ARG_PTRDIFF:
        if (scn_text_parse_dec(v, vn, 1, LLONG_MIN, LLONG_MAX, 0, &a->v.i, NULL, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_UINT: case SCN_ARG_WINT:
        if (scn_text_parse_dec(v, vn, 0, 0, 0, UINT_MAX, NULL, &a->v.u, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
        if (scn_text_parse_dec(v, vn, 0, 0, 0, ULLONG_MAX, NULL, &a->v.u, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_DOUBLE: case SCN_ARG_LDOUBLE:
        if (scn_text_parse_float(v, vn, type == SCN_ARG_LDOUBLE, a, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_PTR:
        if (scn_text_parse_ptr(v, vn, a, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_N: {
        int nt = -1;
        for (int t = 0; t < SCN_N__COUNT; t++)
            if (strlen(scn_n_type_name(t)) == vn && !memcmp(scn_n_type_name(t), v, vn)) nt = t;
        if (nt < 0)
            ERR("col %zu: expected n:int, n:schar, n:short, n:long, n:llong, n:intmax, n:size or "
                "n:ptrdiff", vcol);
        a->ntype = (unsigned char)nt;
        break;
    }
    case SCN_ARG_STR: case SCN_ARG_WSTR: case SCN_ARG_MEM: {
        if (vn == 4 && !memcmp(v, "NULL", 4)) {
            a->is_null = 1;
            break;
        }
        if (type == SCN_ARG_MEM && vn >= 4 && !memcmp(v, "ERR(", 4)) { /* ERR_PTR(-E) */
            size_t close = v[vn - 1] == ')' ? vn - 1 : vn;
            if (close < 5 || v[4] != '-')
                ERR("col %zu: expected a negative errno value, ERR(-1) to ERR(-%d)", vcol + 4, SCN_CASE_MAX_ERRNO);
            if (scn_text_parse_dec(v + 4, close - 4, 1, -SCN_CASE_MAX_ERRNO, 0, 0, &a->v.i, NULL, vcol + 4, err,
                                   errlen))
                return -1;
            if (close == vn) ERR("col %zu: expected ')' closing ERR(", vcol + vn);
            a->is_err = 1;
            break;
        }
        /* VAF("fmt"): a struct va_format for %pV, the format stored like a str */
        int vaf = type == SCN_ARG_MEM && vn >= 4 && !memcmp(v, "VAF(", 4);
        if (!vaf && (vn == 0 || v[0] != '"'))
            ERR("col %zu: expected %s", vcol, type == SCN_ARG_MEM ? "quoted bytes, NULL or ERR(-E), or VAF(\"fmt\")"
                                                                   : "a quoted string or NULL");
        size_t n = 0;
        long r;
        if (type != SCN_ARG_WSTR) { /* str and VAF: the bytes and a NUL; mem: the bytes */
            size_t nul = type == SCN_ARG_STR || vaf, room = SCN_CASE_ARENA - c->arena_used;
            if (room < nul) ERR("col %zu: string storage full", vcol);
            char *dst = c->arena + c->arena_used;
            r = scn_text_parse_quoted(text, len, vpos + (vaf ? 4 : 0), 0, 0, dst, NULL, room - nul, &n, err, errlen);
            if (r < 0) return -1;
            if (nul) dst[n] = 0;
            a->off = (uint32_t)c->arena_used;
            c->arena_used += n + nul;
        } else {
            size_t off = (c->arena_used + 3) & ~(size_t)3;
            if (off + sizeof(wchar_t) > SCN_CASE_ARENA) ERR("col %zu: string storage full", vcol);
            wchar_t *dst = (wchar_t *)(void *)(c->arena + off);
            size_t room = (SCN_CASE_ARENA - off) / sizeof(wchar_t);
            r = scn_text_parse_quoted(text, len, vpos, 0, 1, NULL, dst, room - 1, &n, err, errlen);
            if (r < 0) return -1;
            dst[n] = 0;
            a->off = (uint32_t)off;
            c->arena_used = off + (n + 1) * sizeof(wchar_t);
        }
        a->len = (uint32_t)n;
        if (vaf) {
            if ((size_t)r >= len || text[r] != ')') ERR("col %zu: expected ')' closing VAF(", (size_t)r + 1);
            a->is_vaf = 1;
            r++;
        }
        if ((size_t)r != vend && (size_t)r < len && text[r] != ' ')
            ERR("col %zu: expected a space after the closing %s", (size_t)r + 1, vaf ? "')'" : "'\"'");
        vend = (size_t)r;
        break;
    }
    }
    c->nargs++;
    *endpos = vend;
    return 0;
}

/* round=DIRECTION (a directed one: to nearest is the default and not written),
 * the token at text[pos] up to end. */
static int parse_round(const char *text, size_t pos, size_t end, struct scn_case *c, char *err, size_t errlen)
{
    size_t v = pos + 6; /* past "round=" */
    if (c->round != SCN_ROUND_NEAREST) ERR("col %zu: a second round=", pos + 1);
    for (int r = SCN_ROUND_NEAREST + 1; r < SCN_ROUND__COUNT; r++)
        if (strlen(scn_round_name(r)) == end - v && !memcmp(scn_round_name(r), text + v, end - v)) {
            c->round = (unsigned char)r;
            return 0;
        }
    ERR("col %zu: expected round=upward, round=downward or round=towardzero (to nearest is not written)", v + 1);
}

int scn_case_parse(const char *text, size_t len, struct scn_case *c, char *err, size_t errlen)
{
    c->fmt_len = c->nargs = c->nsizes = c->arena_used = 0;
    c->round = SCN_ROUND_NEAREST;
    c->fmt[0] = 0;
    if (err && errlen) err[0] = 0;
    size_t n = 0;
    long r = scn_text_parse_quoted(text, len, 0, 0, 0, c->fmt, NULL, SCN_CASE_MAX_FMT, &n, err, errlen);
    if (r < 0) return -1;
    c->fmt_len = n;
    c->fmt[n] = 0;
    size_t pos = (size_t)r;
    while (pos < len) {
        if (text[pos] != ' ')
            ERR("col %zu: expected a space before the next token", pos + 1);
        pos++;
        if (pos >= len || text[pos] == ' ')
            ERR("col %zu: expected a token (single spaces between tokens, none at the end)", pos + 1);
        if (text[pos] == '@') {
            pos++;
            for (;;) {
                size_t e = pos;
                while (e < len && text[e] != ',' && text[e] != ' ') e++;
                long long dummy;
                unsigned long long v = 0;
                (void)dummy;
                if (c->nsizes >= SCN_CASE_MAX_SIZES)
                    ERR("col %zu: too many sizes (max %d)", pos + 1, SCN_CASE_MAX_SIZES);
                if (scn_text_parse_dec(text + pos, e - pos, 0, 0, 0, SIZE_MAX, NULL, &v, pos + 1, err, errlen))
                    return -1;
                c->sizes[c->nsizes++] = (size_t)v;
                pos = e;
                if (pos < len && text[pos] == ',') {
                    pos++;
                    continue;
                }
                break;
            }
            if (pos < len) ERR("col %zu: expected the end of the case after @sizes", pos + 1);
            break;
        }
        size_t e;
        if (len - pos >= 6 && !memcmp(text + pos, "round=", 6)) { /* after the arguments, before @sizes */
            e = token_end(text, len, pos);
            if (parse_round(text, pos, e, c, err, errlen)) return -1;
            pos = e;
            continue;
        }
        if (c->round != SCN_ROUND_NEAREST) ERR("col %zu: expected @sizes or the end after round=", pos + 1);
        if (parse_arg(text, len, pos, &e, c, err, errlen)) return -1;
        pos = e;
    }
    return 0;
}
