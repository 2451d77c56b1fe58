/* Conformance corpus lines: category TAB case TAB iso TAB kernel TAB kind TAB citation. */
#include "case.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define ERR(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int scn_expect_parse(const char *s, size_t n, size_t col0, struct scn_expect *x, char *err,
                     size_t errlen)
{
    x->len = 0;
    x->nn = 0;
    x->bytes[0] = 0;
    if (n == 1 && s[0] == '-') {
        x->kind = SCN_EXPECT_NONE;
        return 0;
    }
    if (n == 4 && !memcmp(s, "!err", 4)) {
        x->kind = SCN_EXPECT_ERR;
        return 0;
    }
    if (n == 0 || s[0] != '"')
        ERR("col %zu: expected a quoted output, !err or -", col0 + 1);
    x->kind = SCN_EXPECT_OUTPUT;
    long r = scn_quoted_parse(s, n, col0, x->bytes, SCN_EXPECT_MAX, &x->len, err, errlen);
    if (r < 0) return -1;
    size_t pos = (size_t)r;
    if (pos == n) return 0;
    if (n - pos < 3 || memcmp(s + pos, " n=", 3))
        ERR("col %zu: expected ' n=V[,V...]' or the end of the field", col0 + pos + 1);
    pos += 3;
    for (;;) {
        size_t st = pos;
        int neg = 0;
        if (pos < n && s[pos] == '-') { neg = 1; pos++; }
        /* the magnitude, up to LLONG_MAX (LLONG_MIN's when negative) */
        unsigned long long v = 0, lim = neg ? 0ull - (unsigned long long)LLONG_MIN : (unsigned long long)LLONG_MAX;
        size_t d0 = pos;
        while (pos < n && s[pos] >= '0' && s[pos] <= '9') {
            unsigned d = (unsigned)(s[pos++] - '0');
            if (v > (lim - d) / 10)
                ERR("col %zu: %%n value out of range (%s %lld)", col0 + st + 1, neg ? "min" : "max",
                    neg ? LLONG_MIN : LLONG_MAX);
            v = v * 10 + d;
        }
        if (pos == d0) ERR("col %zu: expected a decimal %%n value", col0 + st + 1);
        if (x->nn >= SCN_CASE_MAX_ARGS) ERR("col %zu: too many n= values", col0 + st + 1);
        /* -(v - 1) - 1: LLONG_MIN without negating 2^63 as a long long */
        x->n[x->nn++] = neg && v ? -(long long)(v - 1) - 1 : (long long)v;
        if (pos < n && s[pos] == ',') { pos++; continue; }
        if (pos != n) ERR("col %zu: expected ',' or the end of the field", col0 + pos + 1);
        return 0;
    }
}

int scn_corpus_parse_line(const char *line, size_t len, struct scn_corpus_entry *e, char *err,
                          size_t errlen)
{
    if (len && line[len - 1] == '\r') len--;
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len || line[i] == '#') return 0;
    const char *f[6];
    size_t fl[6], fc[6], nf = 0, st = 0;
    for (size_t p = 0; p <= len; p++) {
        if (p == len || line[p] == '\t') {
            if (nf < 6) { f[nf] = line + st; fl[nf] = p - st; fc[nf] = st; }
            nf++;
            st = p + 1;
        }
    }
    if (nf != 6) ERR("expected 6 tab-separated fields (category, case, iso, kernel, kind, citation), got %zu", nf);
    if (fl[0] == 0 || fl[0] >= sizeof e->category) ERR("field 1 (category): expected 1..63 bytes");
    memcpy(e->category, f[0], fl[0]);
    e->category[fl[0]] = 0;
    if (!((fl[4] == 3 && !memcmp(f[4], "std", 3)) || (fl[4] == 4 && !memcmp(f[4], "impl", 4))))
        ERR("field 5 (kind) col %zu: expected std or impl", fc[4] + 1);
    memcpy(e->kind, f[4], fl[4]);
    e->kind[fl[4]] = 0;
    size_t cl = fl[5] < sizeof e->citation - 1 ? fl[5] : sizeof e->citation - 1;
    memcpy(e->citation, f[5], cl);
    e->citation[cl] = 0;
    char sub[200];
    if (scn_case_parse(f[1], fl[1], &e->c, sub, sizeof sub))
        ERR("field 2 (case, from line col %zu) %s", fc[1] + 1, sub);
    e->case_text = f[1];
    e->case_len = fl[1];
    if (scn_expect_parse(f[2], fl[2], 0, &e->iso, sub, sizeof sub))
        ERR("field 3 (iso) %s", sub);
    if (scn_expect_parse(f[3], fl[3], 0, &e->kernel, sub, sizeof sub))
        ERR("field 4 (kernel) %s", sub);
    return 1;
}

size_t scn_expect_format(const struct scn_expect *x, char *out, size_t cap)
{
    if (x->kind == SCN_EXPECT_NONE) return (size_t)snprintf(out, cap, "-");
    if (x->kind == SCN_EXPECT_ERR) return (size_t)snprintf(out, cap, "!err");
    size_t n = scn_quoted_format(x->bytes, x->len, out, cap);
    for (size_t i = 0; i < x->nn; i++) {
        char t[32];
        int k = snprintf(t, sizeof t, "%s%lld", i ? "," : " n=", x->n[i]);
        if (n < cap) snprintf(out + n, cap - n, "%s", t);
        n += (size_t)k;
    }
    return n;
}
