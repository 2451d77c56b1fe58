/* The case text form out (docs/CASE_FORMAT.md): a case, a quoted string and
 * the hex floats in their canonical form, the one form scn_case_parse
 * (case_parse.c) accepts back. */
#define _GNU_SOURCE
#include "case.h"
#include "case_text.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[SCN_ARG__COUNT] = {
    "int", "long", "llong", "intmax", "ssize", "ptrdiff",
    "uint", "ulong", "ullong", "uintmax", "size",
    "double", "ldouble", "wint", "str", "wstr", "ptr", "n", "mem",
};
static const char *const n_names[SCN_N__COUNT] = {
    "int", "schar", "short", "long", "llong", "intmax", "size", "ptrdiff",
};

const char *scn_arg_type_name(enum scn_arg_type t)
{
    return (unsigned)t < SCN_ARG__COUNT ? type_names[t] : NULL;
}

const char *scn_n_type_name(enum scn_n_type t)
{
    return (unsigned)t < SCN_N__COUNT ? n_names[t] : NULL;
}

static const char hexd[] = "0123456789abcdef";

/* escape for a code point < 0x80 or a byte */
void scn_text_escape_byte(struct scn_writer *o, unsigned b)
{
    char t[5];
    if (b == '\\') scn_w_str(o, "\\\\");
    else if (b == '"') scn_w_str(o, "\\\"");
    else if (b == '\n') scn_w_str(o, "\\n");
    else if (b == '\t') scn_w_str(o, "\\t");
    else if (b == '\r') scn_w_str(o, "\\r");
    else if (b >= 0x20 && b <= 0x7e) scn_w_ch(o, (char)b);
    else {
        t[0] = '\\'; t[1] = 'x'; t[2] = hexd[(b >> 4) & 15]; t[3] = hexd[b & 15];
        scn_w_put(o, t, 4);
    }
}

static void put_quoted(struct scn_writer *o, const char *s, size_t n)
{
    scn_w_ch(o, '"');
    for (size_t i = 0; i < n; i++)
        scn_text_escape_byte(o, (unsigned char)s[i]);
    scn_w_ch(o, '"');
}

static void put_wquoted(struct scn_writer *o, const wchar_t *s, size_t n)
{
    char t[16];
    scn_w_ch(o, '"');
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = (uint32_t)s[i];
        if (cp < 0x80)
            scn_text_escape_byte(o, cp);
        else {
            snprintf(t, sizeof t, "\\u{%x}", (unsigned)cp);
            scn_w_str(o, t);
        }
    }
    scn_w_ch(o, '"');
}

size_t scn_quoted_format(const char *bytes, size_t n, char *out, size_t cap)
{
    struct scn_writer o = { out, cap, 0 };
    put_quoted(&o, bytes, n);
    scn_w_end(&o);
    return o.len;
}

/* The tail of a %a: ".<hex digits>" of the nd-digit fraction f, its
 * trailing zeros dropped (nothing for 0), then "p<exponent>". */
static void put_hex_tail(char *p, uint64_t f, int nd, int ex)
{
    if (f) {
        char digs[16];
        for (int i = 0; i < nd; i++)
            digs[i] = hexd[(f >> (4 * (nd - 1 - i))) & 15];
        while (nd > 0 && digs[nd - 1] == '0') nd--;
        *p++ = '.';
        memcpy(p, digs, (size_t)nd);
        p += nd;
    }
    sprintf(p, "p%+d", ex);
}

/* %a of a double exactly as glibc prints it. */
void scn_text_hex_double(double d, char *t)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    int neg = (int)(b >> 63);
    unsigned e = (unsigned)(b >> 52) & 0x7ff;
    uint64_t f = b & ((1ull << 52) - 1);
    char *p = t;
    if (neg) *p++ = '-';
    if (e == 0x7ff) {
        strcpy(p, f ? "nan" : "inf");
        return;
    }
    if (e == 0 && f == 0) {
        strcpy(p, "0x0p+0");
        return;
    }
    int lead = e ? 1 : 0;
    int ex = e ? (int)e - 1023 : -1022;
    p += sprintf(p, "0x%d", lead);
    put_hex_tail(p, f, 13, ex);
}

/* %La of an x86 80-bit long double exactly as glibc prints it. */
void scn_text_hex_ldouble(long double d, char *t)
{
    unsigned char raw[16] = {0};
    memcpy(raw, &d, 10);
    uint64_t m;
    memcpy(&m, raw, 8);
    unsigned se = (unsigned)raw[8] | ((unsigned)raw[9] << 8);
    int neg = (int)(se >> 15);
    unsigned e = se & 0x7fff;
    char *p = t;
    if (neg) *p++ = '-';
    if (e == 0x7fff) {
        strcpy(p, (m << 1) ? "nan" : "inf");
        return;
    }
    if (m == 0) {
        strcpy(p, "0x0p+0");
        return;
    }
    int ex = (e ? (int)e : 1) - 16383 - 3;
    p += sprintf(p, "0x%c", hexd[m >> 60]);
    put_hex_tail(p, m & ((1ull << 60) - 1), 15, ex);
}

static void put_arg(struct scn_writer *o, const struct scn_case *c, const struct scn_arg *a)
{
    char t[64];
    scn_w_str(o, type_names[a->type]);
    scn_w_ch(o, ':');
    switch (a->type) {
    case SCN_ARG_INT: case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX:
    case SCN_ARG_SSIZE: case SCN_ARG_PTRDIFF:
        snprintf(t, sizeof t, "%lld", a->v.i);
        scn_w_str(o, t);
        break;
    case SCN_ARG_UINT: case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX:
    case SCN_ARG_SIZE: case SCN_ARG_WINT:
        snprintf(t, sizeof t, "%llu", a->v.u);
        scn_w_str(o, t);
        break;
    case SCN_ARG_DOUBLE:
        scn_text_hex_double(a->v.d, t);
        scn_w_str(o, t);
        break;
    case SCN_ARG_LDOUBLE:
        scn_text_hex_ldouble(a->v.ld, t);
        scn_w_str(o, t);
        break;
    case SCN_ARG_STR:
        if (a->is_null) scn_w_str(o, "NULL");
        else put_quoted(o, c->arena + a->off, a->len);
        break;
    case SCN_ARG_WSTR:
        if (a->is_null) scn_w_str(o, "NULL");
        else put_wquoted(o, (const wchar_t *)(const void *)(c->arena + a->off), a->len);
        break;
    case SCN_ARG_PTR:
        if (a->is_null || a->v.u == 0) scn_w_str(o, "NULL");
        else {
            snprintf(t, sizeof t, "0x%llx", a->v.u);
            scn_w_str(o, t);
        }
        break;
    case SCN_ARG_N:
        scn_w_str(o, n_names[a->ntype]);
        break;
    case SCN_ARG_MEM:
        if (a->is_null) scn_w_str(o, "NULL");
        else if (a->is_err) {
            snprintf(t, sizeof t, "ERR(%lld)", a->v.i);
            scn_w_str(o, t);
        } else if (a->is_vaf) {
            scn_w_str(o, "VAF(");
            put_quoted(o, c->arena + a->off, a->len);
            scn_w_ch(o, ')');
        } else put_quoted(o, c->arena + a->off, a->len);
        break;
    }
}

size_t scn_case_format(const struct scn_case *c, char *out, size_t cap)
{
    struct scn_writer o = { out, cap, 0 };
    char t[32];
    put_quoted(&o, c->fmt, c->fmt_len);
    for (size_t i = 0; i < c->nargs; i++) {
        scn_w_ch(&o, ' ');
        put_arg(&o, c, &c->args[i]);
    }
    if (c->round != SCN_ROUND_NEAREST && scn_round_name(c->round)) {
        scn_w_str(&o, " round=");
        scn_w_str(&o, scn_round_name(c->round));
    }
    if (c->nsizes) {
        scn_w_str(&o, " @");
        for (size_t i = 0; i < c->nsizes; i++) {
            snprintf(t, sizeof t, i ? ",%zu" : "%zu", c->sizes[i]);
            scn_w_str(&o, t);
        }
    }
    scn_w_end(&o);
    return o.len;
}
