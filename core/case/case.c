/* The case model: text form parser/printer, builders and the hand-built
 * x86-64 SysV va_list call. See case.h and docs/CASE_FORMAT.md. */
#define _GNU_SOURCE
#include "case.h"
#include "scn_writer.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---------------------------------------------------------------- output */

static const char hexd[] = "0123456789abcdef";

/* escape for a code point < 0x80 or a byte */
static void put_escaped_byte(struct scn_writer *o, unsigned b)
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
        put_escaped_byte(o, (unsigned char)s[i]);
    scn_w_ch(o, '"');
}

static void put_wquoted(struct scn_writer *o, const wchar_t *s, size_t n)
{
    char t[16];
    scn_w_ch(o, '"');
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = (uint32_t)s[i];
        if (cp < 0x80)
            put_escaped_byte(o, cp);
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
static void fmt_double(double d, char *t)
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
static void fmt_ldouble(long double d, char *t)
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
        fmt_double(a->v.d, t);
        scn_w_str(o, t);
        break;
    case SCN_ARG_LDOUBLE:
        fmt_ldouble(a->v.ld, t);
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

/* ---------------------------------------------------------------- parse */

#define ERR(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
}

static const char *canon_of(unsigned b, char *t)
{
    struct scn_writer o = { t, 8, 0 };
    put_escaped_byte(&o, b);
    scn_w_end(&o);
    return t;
}

/* Parses a quoted token at text[pos]. wide: code points into wout (cap
 * wchar_t), else bytes into bout. Returns new pos, or -1. */
static long parse_quoted_any(const char *text, size_t len, size_t pos, size_t col0, int wide,
                             char *bout, wchar_t *wout, size_t cap, size_t *outlen,
                             char *err, size_t errlen)
{
    size_t n = 0;
    char t[8];
    if (pos >= len || text[pos] != '"')
        ERR("col %zu: expected '\"' to open a quoted string", col0 + pos + 1);
    size_t open = pos++;
    for (;;) {
        if (pos >= len)
            ERR("col %zu: expected '\"' to close the string opened at col %zu", col0 + pos + 1,
                col0 + open + 1);
        unsigned ch = (unsigned char)text[pos];
        uint32_t val;
        size_t at = pos;
        if (ch == '"') {
            pos++;
            break;
        }
        if (ch == '\\') {
            if (pos + 1 >= len)
                ERR("col %zu: expected an escape after '\\'", col0 + pos + 2);
            unsigned e = (unsigned char)text[pos + 1];
            pos += 2;
            switch (e) {
            case '\\': val = '\\'; break;
            case '"': val = '"'; break;
            case 'n': val = '\n'; break;
            case 't': val = '\t'; break;
            case 'r': val = '\r'; break;
            case 'x': {
                int h1 = pos < len ? hexval((unsigned char)text[pos]) : -1;
                int h2 = pos + 1 < len ? hexval((unsigned char)text[pos + 1]) : -1;
                if (h1 < 0 || h2 < 0)
                    ERR("col %zu: expected two lower-case hex digits after \\x", col0 + pos + 1);
                val = (uint32_t)(h1 * 16 + h2);
                pos += 2;
                if ((val >= 0x20 && val <= 0x7e) || val == '\n' || val == '\t' || val == '\r')
                    ERR("col %zu: \\x%02x is not canonical, expected %s", col0 + at + 1,
                        (unsigned)val, canon_of(val, t));
                if (wide && val >= 0x80)
                    ERR("col %zu: expected \\u{%x} for a wide code point >= 0x80", col0 + at + 1,
                        (unsigned)val);
                break;
            }
            case 'u': {
                if (!wide)
                    ERR("col %zu: \\u{...} is only allowed in wstr strings", col0 + at + 1);
                if (pos >= len || text[pos] != '{')
                    ERR("col %zu: expected '{' after \\u", col0 + pos + 1);
                pos++;
                size_t d0 = pos;
                uint64_t v = 0;
                while (pos < len && hexval((unsigned char)text[pos]) >= 0 && pos - d0 < 9)
                    v = v * 16 + (unsigned)hexval((unsigned char)text[pos++]);
                if (pos == d0)
                    ERR("col %zu: expected lower-case hex digits in \\u{}", col0 + pos + 1);
                if (pos >= len || text[pos] != '}')
                    ERR("col %zu: expected '}' closing \\u{ (at most 8 lower-case hex digits)",
                        col0 + pos + 1);
                if (text[d0] == '0')
                    ERR("col %zu: expected no leading zeros in \\u{}", col0 + d0 + 1);
                if (v < 0x80)
                    ERR("col %zu: \\u{%x} is not canonical, expected %s", col0 + at + 1,
                        (unsigned)v, canon_of((unsigned)v, t));
                if (v > 0x7fffffff)
                    ERR("col %zu: expected a code point <= 0x7fffffff (wchar_t)", col0 + d0 + 1);
                pos++;
                val = (uint32_t)v;
                break;
            }
            default:
                ERR("col %zu: unknown escape '\\%c', expected one of \\\\ \\\" \\n \\t \\r \\xHH%s",
                    col0 + at + 1, e >= 0x20 && e < 0x7f ? (char)e : '?', wide ? " \\u{HEX}" : "");
            }
        } else {
            if (ch < 0x20 || ch > 0x7e)
                ERR("col %zu: byte 0x%02x must be escaped, expected %s", col0 + pos + 1, ch,
                    wide && ch >= 0x80 ? "\\u{...}" : canon_of(ch, t));
            val = ch;
            pos++;
        }
        if (n >= cap)
            ERR("col %zu: string too long (max %zu)", col0 + at + 1, cap);
        if (wide) wout[n++] = (wchar_t)val;
        else bout[n++] = (char)val;
    }
    *outlen = n;
    return (long)pos;
}

long scn_quoted_parse(const char *text, size_t len, size_t col0, char *out, size_t cap,
                      size_t *outlen, char *err, size_t errlen)
{
    size_t n = 0;
    long r = parse_quoted_any(text, len, 0, col0, 0, out, NULL, cap, &n, err, errlen);
    if (r < 0) return -1;
    if (n < cap) out[n] = 0;
    *outlen = n;
    return r;
}

static size_t token_end(const char *text, size_t len, size_t pos)
{
    while (pos < len && text[pos] != ' ') pos++;
    return pos;
}

/* decimal integer in [lo, hi] (signed) or [0, uhi] (unsigned) */
static int parse_dec(const char *s, size_t n, int is_signed, long long lo, long long hi,
                     unsigned long long uhi, long long *iv, unsigned long long *uv,
                     size_t col, char *err, size_t errlen)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && s[i] == '-') {
        if (!is_signed) ERR("col %zu: expected an unsigned decimal value, got '-'", col);
        neg = 1;
        i++;
    }
    if (i >= n || s[i] < '0' || s[i] > '9')
        ERR("col %zu: expected a decimal digit", col + i);
    if (s[i] == '0' && (n - i > 1 || neg))
        ERR("col %zu: expected a canonical decimal (no leading zeros, no -0)", col + i);
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') ERR("col %zu: expected a decimal digit", col + i);
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (ULLONG_MAX - d) / 10) ERR("col %zu: value out of range", col);
        v = v * 10 + d;
    }
    if (is_signed) {
        if (neg) {
            if (v > (unsigned long long)(-(lo + 1)) + 1ull)
                ERR("col %zu: value out of range (min %lld)", col, lo);
            *iv = v == 0 ? 0 : -(long long)(v - 1) - 1;
        } else {
            if (v > (unsigned long long)hi) ERR("col %zu: value out of range (max %lld)", col, hi);
            *iv = (long long)v;
        }
    } else {
        if (v > uhi) ERR("col %zu: value out of range (max %llu)", col, uhi);
        *uv = v;
    }
    return 0;
}

/* Decimal floating values ("999999.5", "-0.1", "1e300": a C decimal floating
 * constant without suffix, so at least a '.' or an exponent) are accepted as
 * input and converted correctly rounded by the libc's strtod_l/strtold_l in the
 * C locale; the case keeps the value, printed back as its exact hex form. Not
 * in the executor builds (programs/exec, -Dstrtod=scn_strtod): their strtod is
 * the hex-only compat/scn_strtod.c (dietlibc's is not exact, klibc has none),
 * and the cases they get are the printed hex form. */
#if !defined(strtod) && !defined(SCN_CASE_HEX_FLOATS_ONLY)
#define SCN_CASE_DECIMAL_FLOATS 1
#include <locale.h>
#include <math.h>

/* The length of the decimal floating constant at m ([digits][.digits][e[+-]digits]
 * with a digit in the mantissa and a '.' or an exponent), 0 if there is none. */
static size_t decimal_float_len(const char *m)
{
    size_t i = 0, digits = 0;
    int dot = 0, expo = 0;
    while (m[i] >= '0' && m[i] <= '9') i++, digits++;
    if (m[i] == '.') {
        dot = 1;
        i++;
        while (m[i] >= '0' && m[i] <= '9') i++, digits++;
    }
    if (!digits) return 0;
    if (m[i] == 'e' || m[i] == 'E') {
        size_t j = i + 1;
        if (m[j] == '+' || m[j] == '-') j++;
        if (!(m[j] >= '0' && m[j] <= '9')) return 0;
        while (m[j] >= '0' && m[j] <= '9') j++;
        i = j;
        expo = 1;
    }
    return dot || expo ? i : 0;
}

static locale_t c_locale(void)
{
    static locale_t loc;
    locale_t l = __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
    if (l) return l;
    locale_t mine = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!mine) return (locale_t)0;
    locale_t expected = (locale_t)0;
    if (!__atomic_compare_exchange_n(&loc, &expected, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        freelocale(mine);
        return expected;
    }
    return mine;
}
#endif

static int parse_float_tok(const char *s, size_t n, int is_ld, struct scn_arg *a, size_t col,
                           char *err, size_t errlen)
{
    char buf[1024], back[80];
    if (n == 0) ERR("col %zu: expected a hex float, inf or nan", col);
    if (n >= sizeof buf) ERR("col %zu: a float value of more than %zu characters", col, sizeof buf - 1);
    const char *nul = memchr(s, 0, n);
    if (nul) ERR("col %zu: unexpected NUL byte in a float value", col + (size_t)(nul - s));
    memcpy(buf, s, n);
    buf[n] = 0;
    int neg = buf[0] == '-';
    const char *m = buf + neg;
    if (!strcmp(m, "inf") || !strcmp(m, "nan")) {
        if (is_ld) {
            long double v = m[0] == 'i' ? (long double)__builtin_infl() : (long double)__builtin_nanl("");
            a->v.ld = neg ? -v : v;
        } else {
            double v = m[0] == 'i' ? __builtin_inf() : __builtin_nan("");
            a->v.d = neg ? -v : v;
        }
        return 0;
    }
#ifdef SCN_CASE_DECIMAL_FLOATS
    size_t dl = strncmp(m, "0x", 2) ? decimal_float_len(m) : 0;
    if (dl) {
        if (m[dl]) ERR("col %zu: expected a decimal float, stopped at '%c'", col + (size_t)(m + dl - buf), m[dl]);
        locale_t loc = c_locale();
        if (!loc) ERR("col %zu: no C locale to convert a decimal float", col);
        char *end;
        int inf;
        if (is_ld) {
            a->v.ld = strtold_l(buf, &end, loc);
            inf = isinf(a->v.ld);
        } else {
            a->v.d = strtod_l(buf, &end, loc);
            inf = isinf(a->v.d);
        }
        if (*end) ERR("col %zu: expected a decimal float, stopped at '%c'", col + (size_t)(end - buf), *end);
        if (inf) ERR("col %zu: %s is beyond the range of %s (write inf)", col, buf, is_ld ? "ldouble" : "double");
        return 0;
    }
#define SCN_DECIMAL_HINT ", or a decimal float (1.5, -0.1, 1e300)"
#else
#define SCN_DECIMAL_HINT ""
#endif
    if (strncmp(m, "0x", 2) != 0)
        ERR("col %zu: expected a hex float (0x...p+N), inf, nan, -inf or -nan" SCN_DECIMAL_HINT, col);
#undef SCN_DECIMAL_HINT
    char *end;
    errno = 0;
    if (is_ld) {
        a->v.ld = strtold(buf, &end);
        fmt_ldouble(a->v.ld, back);
    } else {
        a->v.d = strtod(buf, &end);
        fmt_double(a->v.d, back);
    }
    if (*end) ERR("col %zu: expected a hex float, stopped at '%c'", col + (size_t)(end - buf), *end);
    if (strcmp(back, buf))
        ERR("col %zu: expected the exact canonical form %s (as %%%sa prints it)", col, back,
            is_ld ? "L" : "");
    return 0;
}

static void *arena_alloc(struct scn_case *c, size_t bytes, size_t align)
{
    size_t off = (c->arena_used + align - 1) & ~(align - 1);
    if (off > SCN_CASE_ARENA || bytes > SCN_CASE_ARENA - off) return NULL;
    c->arena_used = off + bytes;
    return c->arena + off;
}

/* A ptr value (vn bytes at v, column vcol): NULL or 0x<lower-case hex>. */
static int parse_ptr_value(const char *v, size_t vn, struct scn_arg *a, size_t vcol, char *err, size_t errlen)
{
    if (vn == 4 && !memcmp(v, "NULL", 4)) {
        a->is_null = 1;
        return 0;
    }
    if (vn < 3 || v[0] != '0' || v[1] != 'x')
        ERR("col %zu: expected 0x<lower-case hex> or NULL", vcol);
    if (v[2] == '0') ERR("col %zu: expected no leading zeros (and NULL, not 0x0)", vcol + 2);
    if (vn > 18) ERR("col %zu: pointer value out of range", vcol);
    for (size_t i = 2; i < vn; i++) {
        int h = hexval((unsigned char)v[i]);
        if (h < 0) ERR("col %zu: expected a lower-case hex digit", vcol + i);
        a->v.u = a->v.u * 16 + (unsigned)h;
    }
    return 0;
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
        if (strlen(type_names[t]) == colon - pos && !memcmp(type_names[t], text + pos, colon - pos))
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
        if (parse_dec(v, vn, 1, INT_MIN, INT_MAX, 0, &a->v.i, NULL, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE: case SCN_ARG_PTRDIFF:
        if (parse_dec(v, vn, 1, LLONG_MIN, LLONG_MAX, 0, &a->v.i, NULL, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_UINT: case SCN_ARG_WINT:
        if (parse_dec(v, vn, 0, 0, 0, UINT_MAX, NULL, &a->v.u, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
        if (parse_dec(v, vn, 0, 0, 0, ULLONG_MAX, NULL, &a->v.u, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_DOUBLE: case SCN_ARG_LDOUBLE:
        if (parse_float_tok(v, vn, type == SCN_ARG_LDOUBLE, a, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_PTR:
        if (parse_ptr_value(v, vn, a, vcol, err, errlen)) return -1;
        break;
    case SCN_ARG_N: {
        int nt = -1;
        for (int t = 0; t < SCN_N__COUNT; t++)
            if (strlen(n_names[t]) == vn && !memcmp(n_names[t], v, vn)) nt = t;
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
            if (parse_dec(v + 4, close - 4, 1, -SCN_CASE_MAX_ERRNO, 0, 0, &a->v.i, NULL, vcol + 4, err, errlen))
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
            r = parse_quoted_any(text, len, vpos + (vaf ? 4 : 0), 0, 0, dst, NULL, room - nul, &n, err, errlen);
            if (r < 0) return -1;
            if (nul) dst[n] = 0;
            a->off = (uint32_t)c->arena_used;
            c->arena_used += n + nul;
        } else {
            size_t off = (c->arena_used + 3) & ~(size_t)3;
            if (off + sizeof(wchar_t) > SCN_CASE_ARENA) ERR("col %zu: string storage full", vcol);
            wchar_t *dst = (wchar_t *)(void *)(c->arena + off);
            size_t room = (SCN_CASE_ARENA - off) / sizeof(wchar_t);
            r = parse_quoted_any(text, len, vpos, 0, 1, NULL, dst, room - 1, &n, err, errlen);
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

int scn_case_parse(const char *text, size_t len, struct scn_case *c, char *err, size_t errlen)
{
    c->fmt_len = c->nargs = c->nsizes = c->arena_used = 0;
    c->fmt[0] = 0;
    if (err && errlen) err[0] = 0;
    size_t n = 0;
    long r = parse_quoted_any(text, len, 0, 0, 0, c->fmt, NULL, SCN_CASE_MAX_FMT, &n, err, errlen);
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
                if (parse_dec(text + pos, e - pos, 0, 0, 0, SIZE_MAX, NULL, &v, pos + 1, err, errlen))
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
        if (parse_arg(text, len, pos, &e, c, err, errlen)) return -1;
        pos = e;
    }
    return 0;
}

/* ---------------------------------------------------------------- build */

void scn_case_init(struct scn_case *c, const char *fmt, size_t fmt_len)
{
    if (fmt_len > SCN_CASE_MAX_FMT) fmt_len = SCN_CASE_MAX_FMT;
    memcpy(c->fmt, fmt, fmt_len);
    c->fmt[fmt_len] = 0;
    c->fmt_len = fmt_len;
    c->nargs = c->nsizes = c->arena_used = 0;
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

/* ---------------------------------------------------------------- call */

/* The x86-64 System V va_list element (psABI 3.5.7). */
struct sysv_va_tag {
    unsigned int gp_offset;   /* 48 = all 6 general-purpose registers consumed */
    unsigned int fp_offset;   /* 304 = 48 + 16 * 16: all 8 vector registers consumed */
    void *overflow_arg_area;  /* the next stack argument */
    void *reg_save_area;
};
_Static_assert(sizeof(va_list) == sizeof(struct sysv_va_tag), "x86-64 SysV va_list expected");
_Static_assert(sizeof(wchar_t) == 4, "wstr arguments are arrays of 32-bit wchar_t");

/* The call pool: where a call puts the copies of its mem arguments' bytes,
 * each 16-byte aligned after a gap of at least 16 bytes (a copy takes at most
 * its length + 31 bytes, the gaps included, and the lengths add up to at most
 * the arena). Under ASan the whole pool is poisoned for each call that has mem
 * arguments and only the copies are unpoisoned, so a read past the end of one
 * (or before its start) is an ASan report ("use-after-poison") in the callee.
 * The copies are not in the case's arena because whole cases are copied and
 * compared (memcpy of the arena) where no poison may be, and a call abandoned
 * by a fault (oracle.c's siglongjmp) would leave the poison behind; the pool
 * is touched by nothing but scn_case_call_ctx. It is one for the process (no
 * thread-local storage: case.c is also built against libcs without TLS, see
 * runner/scnfuzz/anylibc.py), so calls with mem arguments are for one thread
 * at a time. */
#if defined(__SANITIZE_ADDRESS__)
#define SCN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCN_ASAN 1
#endif
#endif
#ifdef SCN_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#define POOL_GAP 16
static _Alignas(16) unsigned char call_pool[POOL_GAP + SCN_CASE_ARENA + SCN_CASE_MAX_ARGS * (2 * POOL_GAP)];

/* The copy of a mem argument's bytes (a VAF's with its NUL) in the pool;
 * *used: the pool bytes taken so far. */
static uint64_t mem_copy(const struct scn_case *c, const struct scn_arg *a, size_t *used)
{
    size_t n = (size_t)a->len + a->is_vaf;
    if (n > sizeof call_pool - POOL_GAP - *used) /* args sharing bytes (not built by case.c) */
        return (uint64_t)(uintptr_t)(c->arena + a->off);
    if (*used == 0) {
        POISON(call_pool, sizeof call_pool);
        *used = POOL_GAP;
    }
    unsigned char *p = call_pool + *used;
    UNPOISON(p, n);
    memcpy(p, c->arena + a->off, n);
    *used = ((*used + n + 15) & ~(size_t)15) + POOL_GAP;
    return (uint64_t)(uintptr_t)p;
}

/* mem:VAF: struct va_format as include/linux/printk.h declares it, one slot
 * per argument index, and the zero words its va_list reads: a format of n
 * bytes reads at most 2n/3 + 1 arguments ("%*d%*d..."), and n is at most the
 * arena. The slots are rebuilt by every call (the kernel va_copy()s *va, but
 * a callee that va_arg()s it in place must not change the next call); the
 * zeros are only read (va_arg moves the va_list's pointer, not the words). */
struct scn_va_format { const char *fmt; va_list *va; };
static struct scn_va_format vaf_slot[SCN_CASE_MAX_ARGS];
static va_list vaf_va[SCN_CASE_MAX_ARGS];
static uint64_t vaf_zeros[SCN_CASE_ARENA * 2 / 3 + 16];

/* The pointer a mem argument passes (argument i). */
static uint64_t mem_pointer(const struct scn_case *c, size_t i, size_t *used)
{
    const struct scn_arg *a = &c->args[i];
    if (a->is_null) return 0;
    if (a->is_err) return (uint64_t)a->v.i; /* ERR_PTR(e): (void *)(long)e */
    if (!a->is_vaf) return mem_copy(c, a, used);
    return (uint64_t)(uintptr_t)scn_case_vaf_struct(i, (const char *)(uintptr_t)mem_copy(c, a, used));
}

void *scn_case_vaf_struct(size_t i, const char *fmt)
{
    struct sysv_va_tag tag = { 48, 304, vaf_zeros, vaf_zeros };
    memcpy((void *)vaf_va[i], &tag, sizeof tag);
    vaf_slot[i].fmt = fmt;
    vaf_slot[i].va = &vaf_va[i];
    return &vaf_slot[i];
}

/* The call watch (scn_case_watch_calls): a clock passed in, so that case.c
 * needs nothing of the libc it is built against. */
static volatile uint64_t *watch_since;
static volatile size_t *watch_size;
static uint64_t (*watch_now)(void);

void scn_case_watch_calls(volatile uint64_t *since, volatile size_t *size, uint64_t (*now)(void))
{
    watch_now = now;
    watch_size = size;
    watch_since = now ? since : NULL;
}

struct direct_ctx { scn_vprintf_fn fn; };

static int direct_tramp(void *ctx, char *buf, size_t size, const char *fmt, va_list ap)
{
    return ((struct direct_ctx *)ctx)->fn(buf, size, fmt, ap);
}

int scn_case_call(scn_vprintf_fn fn, struct scn_case *c, char *buf, size_t size)
{
    struct direct_ctx d = { fn };
    return scn_case_call_ctx(direct_tramp, &d, c, buf, size);
}

int scn_case_call_ctx(scn_vprintf_ctx_fn fn, void *ctx, struct scn_case *c, char *buf, size_t size)
{
    /* 2 slots per argument at most (long double) + alignment + zero tail */
    _Alignas(16) uint64_t area[2 * SCN_CASE_MAX_ARGS + 10];
    _Alignas(16) uint64_t regs[40]; /* a dummy register save area, never read */
    size_t k = 0, pool_used = 0;
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        switch (a->type) {
        case SCN_ARG_INT:
            area[k++] = (uint64_t)(int64_t)(int)a->v.i;
            break;
        case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE:
        case SCN_ARG_PTRDIFF:
            area[k++] = (uint64_t)a->v.i;
            break;
        case SCN_ARG_UINT: case SCN_ARG_WINT:
            area[k++] = (uint32_t)a->v.u;
            break;
        case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
            area[k++] = a->v.u;
            break;
        case SCN_ARG_PTR:
            area[k++] = a->is_null ? 0 : a->v.u;
            break;
        case SCN_ARG_DOUBLE:
            memcpy(&area[k++], &a->v.d, 8);
            break;
        case SCN_ARG_LDOUBLE:
            k = (k + 1) & ~(size_t)1; /* 16-byte aligned slot */
            area[k] = area[k + 1] = 0;
            memcpy(&area[k], &a->v.ld, 10);
            k += 2;
            break;
        case SCN_ARG_STR: case SCN_ARG_WSTR:
            area[k++] = a->is_null ? 0 : (uint64_t)(uintptr_t)(c->arena + a->off);
            break;
        case SCN_ARG_N:
            memset(&c->nslot[i], 0, sizeof c->nslot[i]);
            area[k++] = (uint64_t)(uintptr_t)&c->nslot[i];
            break;
        case SCN_ARG_MEM:
            area[k++] = mem_pointer(c, i, &pool_used);
            break;
        }
    }
    for (size_t j = 0; j < 8; j++) area[k + j] = 0; /* a format reading too far gets zeros */
    struct sysv_va_tag tag = { 48, 304, area, regs };
    va_list ap;
    memcpy((void *)ap, &tag, sizeof tag);
    if (!watch_since) return fn(ctx, buf, size, c->fmt, ap);
    if (watch_size) *watch_size = size;
    *watch_since = watch_now();
    int r = fn(ctx, buf, size, c->fmt, ap);
    *watch_since = 0;
    return r;
}

long long scn_case_n_value(const struct scn_case *c, size_t i)
{
    if (i >= c->nargs || c->args[i].type != SCN_ARG_N) return 0;
    switch (c->args[i].ntype) {
    case SCN_N_INT: return c->nslot[i].i;
    case SCN_N_SCHAR: return c->nslot[i].hh;
    case SCN_N_SHORT: return c->nslot[i].h;
    case SCN_N_LONG: return c->nslot[i].l;
    case SCN_N_LLONG: return c->nslot[i].ll;
    case SCN_N_INTMAX: return (long long)c->nslot[i].j;
    case SCN_N_SIZE: return (long long)c->nslot[i].z;
    case SCN_N_PTRDIFF: return (long long)c->nslot[i].t;
    }
    return 0;
}

size_t scn_case_n_args(const struct scn_case *c, size_t *idx, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_N) {
            if (n < max) idx[n] = i;
            n++;
        }
    return n;
}
