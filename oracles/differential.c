/* The differential oracle and its allowances table. See differential.h. */
#define _GNU_SOURCE
#include "differential.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn_allowances_data.h" /* generated from oracles/allowances.tsv: scn_allowances_tsv[] */

/* ------------------------------------------------------------ allowances */

#define MAX_ALLOW 128
static struct scn_allowance allow_tab[MAX_ALLOW];
static size_t allow_n;
static int allow_loaded;
static unsigned memo_gen = 1; /* see "memo" below; bumped when the table changes */

static int copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap) return -1;
    memcpy(dst, s, n);
    dst[n] = 0;
    return 0;
}

int scn_allowances_load(const char *text, size_t len, char *err, size_t errlen)
{
    static struct scn_allowance tab[MAX_ALLOW];
    size_t n = 0, lineno = 0, pos = 0;
    if (err && errlen) err[0] = 0;
    while (pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n') e++;
        const char *line = text + pos;
        size_t ll = e - pos;
        pos = e + 1;
        lineno++;
        if (ll && line[ll - 1] == '\r') ll--;
        if (ll == 0 || line[0] == '#') continue;
        const char *f[5];
        size_t fl[5], nf = 0, s = 0;
        for (size_t i = 0; i <= ll && nf < 5; i++) {
            if (i == ll || (line[i] == '\t' && nf < 4)) {
                f[nf] = line + s;
                fl[nf] = i - s;
                nf++;
                s = i + 1;
            }
        }
        if (nf != 5) {
            if (err) snprintf(err, errlen, "line %zu: expected 5 tab-separated fields, got %zu", lineno, nf);
            return -1;
        }
        if (n >= MAX_ALLOW) {
            if (err) snprintf(err, errlen, "line %zu: more than %d entries", lineno, MAX_ALLOW);
            return -1;
        }
        struct scn_allowance *a = &tab[n];
        memset(a, 0, sizeof *a);
        if (fl[1] == 3 && !memcmp(f[1], "iso", 3)) a->dialect = SCN_DIALECT_ISO;
        else if (fl[1] == 6 && !memcmp(f[1], "kernel", 6)) a->dialect = SCN_DIALECT_KERNEL;
        else if (fl[1] == 1 && f[1][0] == '*') a->dialect = -1;
        else {
            if (err) snprintf(err, errlen, "line %zu: dialect must be iso, kernel or *", lineno);
            return -1;
        }
        if (copy_field(a->id, sizeof a->id, f[0], fl[0]) || copy_field(a->pattern, sizeof a->pattern, f[2], fl[2]) ||
            copy_field(a->targets, sizeof a->targets, f[3], fl[3]) ||
            copy_field(a->citation, sizeof a->citation, f[4], fl[4])) {
            if (err) snprintf(err, errlen, "line %zu: a field is too long", lineno);
            return -1;
        }
        if (!fl[0] || !fl[2] || !fl[3] || !fl[4]) {
            if (err) snprintf(err, errlen, "line %zu: empty field", lineno);
            return -1;
        }
        /* validate the pattern terms */
        char pat[sizeof a->pattern];
        strcpy(pat, a->pattern);
        for (char *sv = NULL, *t = strtok_r(pat, "&", &sv); t; t = strtok_r(NULL, "&", &sv)) {
            if (!strncmp(t, "conv=", 5) || !strncmp(t, "flag=", 5) || !strcmp(t, "arg=null") ||
                !strcmp(t, "arg=nan") || !strcmp(t, "arg=nonascii") || !strcmp(t, "arg=zero") || !strcmp(t, "prec") ||
                !strcmp(t, "noprec") || !strcmp(t, "spec=invalid") || !strcmp(t, "whole") ||
                !strcmp(t, "ret<0") || !strcmp(t, "hexvalue"))
                continue;
            if (err) snprintf(err, errlen, "line %zu: unknown pattern term '%s'", lineno, t);
            return -1;
        }
        n++;
    }
    memcpy(allow_tab, tab, n * sizeof tab[0]);
    allow_n = n;
    allow_loaded = 1;
    memo_gen++; /* the memoised verdicts name entries of the old table */
    return (int)n;
}

int scn_allowances_load_file(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (err) snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, fp);
    int big = !feof(fp);
    fclose(fp);
    if (big) {
        if (err) snprintf(err, errlen, "%s: larger than %zu bytes", path, sizeof buf);
        return -1;
    }
    return scn_allowances_load(buf, n, err, errlen);
}

static void ensure_loaded(void)
{
    if (allow_loaded) return;
    char err[200];
    const char *env = getenv("SCN_ALLOWANCES");
    if (env && *env) {
        if (scn_allowances_load_file(env, err, sizeof err) < 0) {
            fprintf(stderr, "scnfuzz: SCN_ALLOWANCES: %s\n", err);
            abort();
        }
        return;
    }
    if (scn_allowances_load((const char *)scn_allowances_tsv, sizeof scn_allowances_tsv - 1, err,
                            sizeof err) < 0) {
        fprintf(stderr, "scnfuzz: embedded allowances.tsv: %s\n", err);
        abort();
    }
}

size_t scn_allowances_count(void)
{
    ensure_loaded();
    return allow_n;
}

const struct scn_allowance *scn_allowance_at(size_t i)
{
    ensure_loaded();
    return i < allow_n ? &allow_tab[i] : NULL;
}

/* ------------------------------------------------------- format scanning */

#define FL_MINUS 1u
#define FL_PLUS 2u
#define FL_SPACE 4u
#define FL_HASH 8u
#define FL_ZERO 16u

struct dspec {
    size_t start, end;  /* [start, end) in the format */
    unsigned flags;
    int width;          /* -1 none, -2 '*', else the value */
    int prec;           /* -1 none, -2 '*', else the value */
    char len[5];
    char conv;
    int invalid;
    int warg, parg, varg; /* case argument indices, -1 none */
};

#define MAX_SPECS 320

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }

static size_t read_num(const char *f, size_t i, long *v)
{
    long x = 0;
    while (is_digit(f[i])) {
        if (x < 100000000) x = x * 10 + (f[i] - '0');
        i++;
    }
    *v = x;
    return i;
}

/* Scans the format of c into specs (up to and including the first invalid
 * one). Returns the count. */
static size_t scan_specs(const struct scn_case *c, enum scn_dialect dialect, struct dspec *sp, size_t max)
{
    const char *f = c->fmt;
    size_t n = 0, i = 0;
    int next = 0, positional = -1; /* -1 unknown, 0 sequential, 1 positional */
    const char *valid = dialect == SCN_DIALECT_KERNEL ? "diouxXcsp%" : "diouxXcspnaAeEfFgGbB%";
    while (f[i] && n < max) {
        if (f[i] != '%') {
            i++;
            continue;
        }
        struct dspec *s = &sp[n++];
        memset(s, 0, sizeof *s);
        s->start = i;
        s->width = s->prec = -1;
        s->warg = s->parg = s->varg = -1;
        size_t p = i + 1;
        long pos = 0, v;
        if (is_digit(f[p]) && f[p] != '0') {
            size_t q = read_num(f, p, &v);
            if (f[q] == '$') {
                pos = v;
                p = q + 1;
            }
        }
        int is_pos = pos > 0;
        for (;; p++) {
            const char *fc = f[p] ? strchr("-+ #0", f[p]) : NULL;
            if (!fc) break;
            s->flags |= 1u << (fc - "-+ #0");
        }
        int wpos = 0, ppos = 0;
        if (f[p] == '*') {
            s->width = -2;
            p++;
            if (is_digit(f[p])) {
                size_t q = read_num(f, p, &v);
                if (f[q] == '$') { wpos = (int)v; p = q + 1; }
                else s->invalid = 1;
            }
        } else if (is_digit(f[p])) {
            p = read_num(f, p, &v);
            s->width = (int)v;
        }
        if (f[p] == '.') {
            p++;
            if (f[p] == '*') {
                s->prec = -2;
                p++;
                if (is_digit(f[p])) {
                    size_t q = read_num(f, p, &v);
                    if (f[q] == '$') { ppos = (int)v; p = q + 1; }
                    else s->invalid = 1;
                }
            } else {
                p = read_num(f, p, &v);
                s->prec = (int)v;
            }
        }
        size_t l0 = p;
        if ((f[p] == 'h' && f[p + 1] == 'h') || (f[p] == 'l' && f[p + 1] == 'l')) p += 2;
        else if (f[p] && strchr("hljztLq", f[p])) p++;
        else if (f[p] == 'w' && dialect == SCN_DIALECT_ISO) {
            p++;
            if (f[p] == 'f') p++;
            while (is_digit(f[p])) p++;
        }
        if (p - l0 < sizeof s->len) memcpy(s->len, f + l0, p - l0);
        else s->invalid = 1;
        s->conv = f[p];
        if (!f[p] || !strchr(valid, f[p])) s->invalid = 1;
        else p++;
        s->end = p;
        if (s->conv == '%' && (p - i != 2)) s->invalid = 1; /* only "%%" is complete */
        /* length/conversion pairs the dialect defines */
        if (!s->invalid && s->len[0] && dialect == SCN_DIALECT_ISO) {
            const char *L = s->len;
            int isint = strchr("diouxXbBn", s->conv) != NULL, isfl = strchr("aAeEfFgG", s->conv) != NULL;
            if (isint) s->invalid = !strcmp(L, "L") || !strcmp(L, "q");
            else if (isfl) s->invalid = strcmp(L, "L") && strcmp(L, "l");
            else if (s->conv == 'c' || s->conv == 's') s->invalid = strcmp(L, "l") != 0;
            else s->invalid = 1;
        }
        /* arguments */
        if (!s->invalid && s->conv == '%') {
            /* "%%" takes no argument and fits both styles */
        } else if (!s->invalid) {
            int this_pos = is_pos;
            if (positional < 0) positional = this_pos;
            if (positional != this_pos || (this_pos && ((s->width == -2 && !wpos) || (s->prec == -2 && !ppos))) ||
                (!this_pos && (wpos || ppos)))
                s->invalid = 1;
        }
        if (!s->invalid) {
            if (positional) {
                s->warg = s->width == -2 ? wpos - 1 : -1;
                s->parg = s->prec == -2 ? ppos - 1 : -1;
                s->varg = s->conv == '%' ? -1 : (int)pos - 1;
            } else {
                if (s->width == -2) s->warg = next++;
                if (s->prec == -2) s->parg = next++;
                if (s->conv != '%') s->varg = next++;
            }
            if (s->warg >= (int)c->nargs || s->parg >= (int)c->nargs || s->varg >= (int)c->nargs)
                s->invalid = 1;
        }
        if (s->invalid) {
            s->end = p;
            break;
        }
        i = p;
    }
    return n;
}

/* "%-+ #0" etc. canonical flags class: flags in "-+ #0" order, "w" if a
 * width, ".p" if a precision. */
static void flags_class(const struct dspec *s, char *out, size_t cap)
{
    size_t k = 0;
    for (int b = 0; b < 5; b++)
        if (s->flags & (1u << b) && k + 1 < cap) out[k++] = "-+ #0"[b];
    if (s->width != -1 && k + 1 < cap) out[k++] = 'w';
    if (s->prec != -1 && k + 2 < cap) { out[k++] = '.'; out[k++] = 'p'; }
    out[k] = 0;
}

/* --------------------------------------------------------- sub-cases */

static int copy_arg(struct scn_case *d, const struct scn_case *c, int idx)
{
    const struct scn_arg *a = &c->args[idx];
    switch (a->type) {
    case SCN_ARG_INT: case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE:
    case SCN_ARG_PTRDIFF:
        return scn_case_add_int(d, (enum scn_arg_type)a->type, a->v.i);
    case SCN_ARG_UINT: case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
    case SCN_ARG_WINT:
        return scn_case_add_uint(d, (enum scn_arg_type)a->type, a->v.u);
    case SCN_ARG_PTR:
        return a->is_null ? scn_case_add_ptr(d, NULL) : scn_case_add_uint(d, SCN_ARG_PTR, a->v.u);
    case SCN_ARG_DOUBLE: return scn_case_add_double(d, a->v.d);
    case SCN_ARG_LDOUBLE: return scn_case_add_ldouble(d, a->v.ld);
    case SCN_ARG_STR: return scn_case_add_str(d, a->is_null ? NULL : c->arena + a->off, a->len);
    case SCN_ARG_WSTR:
        return scn_case_add_wstr(d, a->is_null ? NULL : (const wchar_t *)(const void *)(c->arena + a->off), a->len);
    case SCN_ARG_N: return scn_case_add_n(d, (enum scn_n_type)a->ntype);
    }
    return -1;
}

/* The specification alone, with its own arguments: its text as written
 * (so "%.d" stays "%.d", which the kernel dialect reads differently from
 * "%.0d"), its "n$" positions renumbered for the sub-case's arguments
 * (width, precision, value), so that a positional-only behaviour stays
 * positional. */
static int make_subcase(const struct scn_case *c, const struct dspec *s, struct scn_case *d)
{
    char f[128];
    size_t k = 0;
    int kw = 0, kp = 0, kv = 0, n = 0;
    if (s->warg >= 0) kw = ++n;
    if (s->parg >= 0) kp = ++n;
    if (s->varg >= 0) kv = ++n;
    const char *t = c->fmt;
    for (size_t i = s->start; i < s->end && k + 8 < sizeof f; i++) {
        f[k++] = t[i];
        if (t[i] == '%' || t[i] == '*') {
            size_t j = i + 1;
            while (j < s->end && is_digit(t[j])) j++;
            if (j < s->end && j > i + 1 && t[j] == '$') {
                int num = t[i] == '%' ? kv : (i > s->start && t[i - 1] == '.') ? kp : kw;
                k += (size_t)snprintf(f + k, 8, "%d$", num);
                i = j;
            }
        }
    }
    f[k] = 0;
    scn_case_init(d, f, k);
    if (s->warg >= 0 && copy_arg(d, c, s->warg)) return -1;
    if (s->parg >= 0 && copy_arg(d, c, s->parg)) return -1;
    if (s->varg >= 0 && copy_arg(d, c, s->varg)) return -1;
    return 0;
}

int scn_case_localise(const struct scn_case *c, enum scn_dialect dialect,
                      int (*pred)(struct scn_case *sub, void *ctx), void *ctx,
                      char conv[8], char fclass[16])
{
    static struct dspec specs[MAX_SPECS];
    static struct scn_case sub;
    size_t ns = scan_specs(c, dialect, specs, MAX_SPECS);
    for (size_t i = 0; i < ns; i++) {
        const struct dspec *s = &specs[i];
        if (s->invalid || make_subcase(c, s, &sub) || !pred(&sub, ctx)) continue;
        snprintf(conv, 8, "%s%c", s->len, s->conv);
        flags_class(s, fclass, 16);
        return (int)i;
    }
    if (ns && specs[ns - 1].invalid) {
        strcpy(conv, "!I");
        flags_class(&specs[ns - 1], fclass, 16);
        return (int)(ns - 1);
    }
    strcpy(conv, "-");
    fclass[0] = 0;
    return -1;
}

/* --------------------------------------------------------- matching */

static int target_listed(const char *list, const char *name)
{
    if (!strcmp(list, "*")) return 1;
    size_t nl = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == nl && !memcmp(p, name, l)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* conversion list "a|A|La": a bare letter matches any length */
static int conv_listed(const char *list, size_t ln, const char *len, char conv)
{
    size_t i = 0;
    while (i < ln) {
        size_t e = i;
        while (e < ln && list[e] != '|') e++;
        size_t l = e - i;
        if (l == 1 && list[i] == conv) return 1;
        if (l >= 2 && list[i + l - 1] == conv && l - 1 == strlen(len) && !memcmp(list + i, len, l - 1)) return 1;
        i = e + 1;
    }
    return 0;
}

static int arg_is_nonascii(const struct scn_case *c, const struct scn_arg *a)
{
    if (a->type == SCN_ARG_WINT) return a->v.u > 0x7f;
    if (a->type == SCN_ARG_WSTR && !a->is_null) {
        const wchar_t *w = (const wchar_t *)(const void *)(c->arena + a->off);
        for (size_t i = 0; i < a->len; i++)
            if ((unsigned)w[i] > 0x7f) return 1;
    }
    return 0;
}

/* Is out (len bytes) a hexadecimal float equal to v correctly rounded to prec
 * hex digits after the point (prec < 0: exactly v)? */
static int hex_ok(const unsigned char *out, size_t len, long double v, long prec)
{
    char t[2048];
    if (len == 0 || len >= sizeof t) return 0;
    memcpy(t, out, len);
    t[len] = 0;
    const char *p = t;
    while (*p == ' ') p++;
    const char *q = p;
    if (*q == '-' || *q == '+' || *q == ' ') q++;
    if (q[0] != '0' || (q[1] | 32) != 'x') return 0;
    char *end;
    errno = 0;
    long double got = strtold(p, &end);
    if (end == p) return 0;
    while (*end == ' ') end++;
    if (*end) return 0;
    if (signbit(got) != signbit(v)) return 0;
    if (prec < 0) return got == v;
    const char *pe = strchr(q, 'p');
    if (!pe) pe = strchr(q, 'P');
    if (!pe) return 0;
    long e = strtol(pe + 1, NULL, 10);
    long double half_ulp = ldexpl(1.0L, (int)(e - 4 * prec - 1));
    long double diff = fabsl(got - v);
    return diff <= half_ulp;
}

static int arg_prec(const struct scn_case *c, const struct dspec *s, long *prec)
{
    if (s->prec == -1) { *prec = -1; return 0; }
    if (s->prec >= 0) { *prec = s->prec; return 0; }
    if (s->parg < 0) return -1;
    long long v = c->args[s->parg].v.i;
    *prec = (int)v < 0 ? -1 : (int)v;
    return 0;
}

struct culprit {
    const struct dspec *s; /* NULL: the whole case */
    int ret_a, ret_b;
    const unsigned char *oa, *ob;
    size_t la, lb;
};

static int matches(const struct scn_allowance *al, enum scn_dialect dialect, const struct scn_case *c,
                   const struct culprit *k, const char *ta, const char *tb)
{
    if (al->dialect >= 0 && al->dialect != (int)dialect) return 0;
    if (!target_listed(al->targets, ta) || !target_listed(al->targets, tb)) return 0;
    const struct dspec *s = k->s;
    const struct scn_arg *val = s && s->varg >= 0 ? &c->args[s->varg] : NULL;
    const char *p = al->pattern;
    while (*p) {
        const char *e = strchr(p, '&');
        size_t l = e ? (size_t)(e - p) : strlen(p);
#define IS(lit) (l == sizeof(lit) - 1 && !memcmp(p, lit, l))
        int ok;
        if (l > 5 && !memcmp(p, "conv=", 5)) ok = s && !s->invalid && conv_listed(p + 5, l - 5, s->len, s->conv);
        else if (l == 6 && !memcmp(p, "flag=", 5)) {
            const char *fc = strchr("-+ #0", p[5]);
            ok = s && fc && (s->flags & (1u << (fc - "-+ #0")));
        } else if (IS("arg=null")) ok = val && val->is_null;
        else if (IS("arg=nan"))
            ok = val && ((val->type == SCN_ARG_DOUBLE && isnan(val->v.d)) ||
                         (val->type == SCN_ARG_LDOUBLE && isnan(val->v.ld)));
        else if (IS("arg=nonascii")) ok = val && arg_is_nonascii(c, val);
        else if (IS("arg=zero"))
            ok = val && (val->type <= SCN_ARG_SIZE || val->type == SCN_ARG_WINT) && val->v.u == 0;
        else if (IS("prec")) ok = s && s->prec != -1;
        else if (IS("noprec")) ok = s && s->prec == -1;
        else if (IS("spec=invalid")) ok = s && s->invalid;
        else if (IS("whole")) ok = s == NULL;
        else if (IS("ret<0")) ok = k->ret_a < 0 && k->ret_b < 0;
        else if (IS("hexvalue")) {
            long prec;
            ok = 0;
            if (s && val && !arg_prec(c, s, &prec) && k->ret_a >= 0 && k->ret_b >= 0) {
                long double v = val->type == SCN_ARG_LDOUBLE ? val->v.ld
                              : val->type == SCN_ARG_DOUBLE ? (long double)val->v.d : NAN;
                ok = !isnan(v) && !isinf(v) && hex_ok(k->oa, k->la, v, prec) && hex_ok(k->ob, k->lb, v, prec);
            }
        } else ok = 0;
#undef IS
        if (!ok) return 0;
        if (!e) break;
        p = e + 1;
    }
    return 1;
}

int scn_allowance_matches(const struct scn_allowance *al, enum scn_dialect dialect,
                          const char *spec, const struct scn_arg *value, const struct scn_case *c,
                          const char *ta, const char *tb, int ret_a, int ret_b,
                          const unsigned char *out_a, size_t len_a,
                          const unsigned char *out_b, size_t len_b)
{
    struct dspec d;
    struct culprit k = { NULL, ret_a, ret_b, out_a, out_b, len_a, len_b };
    if (spec) {
        /* scan the spec alone against a case whose only argument is value */
        static struct scn_case tmp;
        size_t sl = strlen(spec);
        scn_case_init(&tmp, spec, sl);
        tmp.nargs = value ? 1 : 0;
        if (value) tmp.args[0] = *value;
        if (value && (value->type == SCN_ARG_STR || value->type == SCN_ARG_WSTR) && c) {
            /* strings point into c's arena */
            memcpy(tmp.arena, c->arena, sizeof tmp.arena);
            tmp.arena_used = c->arena_used;
        }
        struct dspec arr[4];
        size_t n = scan_specs(&tmp, dialect, arr, 4);
        if (n == 0) return 0;
        d = arr[0];
        d.warg = -1;
        if (d.prec == -2) d.prec = -1;
        if (d.width == -2) d.width = -1;
        if (value) d.varg = 0;
        k.s = &d;
        return matches(al, dialect, &tmp, &k, ta, tb);
    }
    return matches(al, dialect, c, &k, ta, tb);
}

/* --------------------------------------------------------- comparing */

#define SUB_CAP (1u << 16)

static int outs_equal(const struct scn_diff_out *x, const struct scn_diff_out *y, const char **what)
{
    if (x->ret < 0 && y->ret < 0) {
        if (x->len != y->len || (x->len && memcmp(x->bytes, y->bytes, x->len))) { *what = "bytes"; return 0; }
        return 1;
    }
    if (x->ret != y->ret) { *what = "ret"; return 0; }
    if (x->len != y->len || (x->len && memcmp(x->bytes, y->bytes, x->len))) { *what = "bytes"; return 0; }
    if (x->nn != y->nn) { *what = "n"; return 0; }
    for (size_t i = 0; i < x->nn; i++)
        if (x->n[i] != y->n[i]) { *what = "n"; return 0; }
    return 1;
}

static void spec_text(const struct scn_case *c, const struct dspec *s, char *out, size_t cap)
{
    size_t l = s->end - s->start;
    if (l >= cap) l = cap - 1;
    memcpy(out, c->fmt + s->start, l);
    out[l] = 0;
}

/* ------------------------------------------------------------ memo */

/* The verdicts on one specification alone (for each pair of targets: same
 * output, or different but allowed by entry j) depend only on the
 * sub-case, the dialect, the targets and the table. A fuzzer meets the same
 * sub-cases over and over ("%p" of NULL, "%a" of 1.0 ...): localising them
 * again was a sixth of the ISO differential fuzzer's time. The memo keys on
 * the exact bytes of all of that (no hash is trusted: a collision could hide
 * a divergence), keeps only sub-cases where every pair is "same" or
 * "allowed" (an unexplained difference is always re-run, so its report
 * carries its real outputs) and is off with env SCN_DIFF_NO_MEMO=1 or
 * scn_diff_set_memo(0). */
#define MEMO_SLOTS 4096
#define MEMO_KEY 232
#define MEMO_SAME (-1)
#define MAX_PAIRS (SCN_DIFF_MAX_TARGETS * (SCN_DIFF_MAX_TARGETS - 1) / 2)
_Static_assert(MAX_ALLOW <= 128, "allowance indices are kept in a signed char");
struct memo_slot {
    unsigned gen;
    unsigned short klen;
    signed char verdict[MAX_PAIRS]; /* per pair: MEMO_SAME, or the index of the allowance */
    unsigned char key[MEMO_KEY];
};
static struct memo_slot memo_tab[MEMO_SLOTS];
static int memo_state = -1; /* -1 unread, 0 off, 1 on */
static unsigned long long memo_hits, memo_misses;

void scn_diff_set_memo(int on)
{
    memo_state = on ? 1 : 0;
    memo_gen++;
}

void scn_diff_memo_stats(unsigned long long *hits, unsigned long long *misses)
{
    *hits = memo_hits;
    *misses = memo_misses;
}

static int memo_on(void)
{
    if (memo_state < 0) {
        const char *e = getenv("SCN_DIFF_NO_MEMO");
        memo_state = !(e && !strcmp(e, "1"));
    }
    return memo_state;
}

static int key_put(unsigned char *k, size_t *n, const void *p, size_t l)
{
    if (*n + l > MEMO_KEY) return -1;
    memcpy(k + *n, p, l);
    *n += l;
    return 0;
}

/* The memo key of sub-case sub (of specification s) for the targets of
 * outs[0..n): its length, or 0 when it does not fit (then nothing is
 * memoised). */
static size_t memo_key(const struct scn_case *sub, const struct dspec *s, enum scn_dialect dialect,
                       const struct scn_diff_out *outs, size_t n, unsigned char *k)
{
    size_t kn = 0;
    unsigned char d = (unsigned char)dialect;
    /* make_subcase copies at most ~120 bytes of a specification */
    if (s->end - s->start > 100) return 0;
    if (key_put(k, &kn, &d, 1)) return 0;
    for (size_t t = 0; t < n; t++)
        if (key_put(k, &kn, outs[t].target->name, strlen(outs[t].target->name) + 1)) return 0;
    if (key_put(k, &kn, sub->fmt, sub->fmt_len + 1)) return 0;
    for (size_t i = 0; i < sub->nargs; i++) {
        const struct scn_arg *a = &sub->args[i];
        unsigned char h[3] = { a->type, a->ntype, a->is_null };
        if (key_put(k, &kn, h, sizeof h)) return 0;
        int r = 0;
        switch (a->type) {
        case SCN_ARG_DOUBLE: r = key_put(k, &kn, &a->v.d, sizeof a->v.d); break;
        case SCN_ARG_LDOUBLE: r = key_put(k, &kn, &a->v.ld, 10); break; /* x86: 10 value bytes */
        case SCN_ARG_STR:
            r = key_put(k, &kn, &a->len, sizeof a->len) ||
                (!a->is_null && key_put(k, &kn, sub->arena + a->off, a->len));
            break;
        case SCN_ARG_WSTR:
            r = key_put(k, &kn, &a->len, sizeof a->len) ||
                (!a->is_null && key_put(k, &kn, sub->arena + a->off, a->len * sizeof(wchar_t)));
            break;
        case SCN_ARG_N: break;
        default: r = key_put(k, &kn, &a->v.u, sizeof a->v.u); break;
        }
        if (r) return 0;
    }
    return kn;
}

static struct memo_slot *memo_slot_of(const unsigned char *k, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    return &memo_tab[(h ^ (h >> 29)) % MEMO_SLOTS];
}

/* 1 with verdict[] set when the memo knows this key */
static int memo_get(const unsigned char *k, size_t n, signed char *verdict)
{
    const struct memo_slot *m = memo_slot_of(k, n);
    if (m->gen != memo_gen || m->klen != n || memcmp(m->key, k, n)) {
        memo_misses++;
        return 0;
    }
    memo_hits++;
    memcpy(verdict, m->verdict, sizeof m->verdict);
    return 1;
}

static void memo_put(const unsigned char *k, size_t n, const signed char *verdict)
{
    struct memo_slot *m = memo_slot_of(k, n);
    m->gen = memo_gen;
    m->klen = (unsigned short)n;
    memcpy(m->verdict, verdict, sizeof m->verdict);
    memcpy(m->key, k, n);
}

/* ---------------------------------------------------------- classifying */

/* The localisation of one pair of targets whose full outputs differ: its
 * first culprit specification with no allowance (which decides), else its
 * first allowed one. */
struct pair_state {
    size_t a, b;
    const char *what;
    int nbad, nok;
    struct culprit bad, ok;
    const struct scn_allowance *al;
    char sbad[48], sok[48];
};

/* index of pair (a, b), a < b, among the n*(n-1)/2 pairs in (a, b) order */
static size_t pair_index(size_t a, size_t b, size_t n) { return a * (2 * n - a - 1) / 2 + (b - a - 1); }

static const struct scn_allowance *find_allowance(enum scn_dialect dialect, const struct scn_case *c,
                                                  const struct culprit *k, const char *ta, const char *tb)
{
    for (size_t j = 0; j < scn_allowances_count(); j++)
        if (matches(&allow_tab[j], dialect, c, k, ta, tb)) return &allow_tab[j];
    return NULL;
}

static void note_culprit(struct pair_state *p, const struct scn_case *c, const struct culprit *k,
                         const struct scn_allowance *al)
{
    if (!al) {
        if (!p->nbad++) {
            p->bad = *k;
            spec_text(c, k->s, p->sbad, sizeof p->sbad);
        }
    } else if (!p->nok++) {
        p->ok = *k;
        p->al = al;
        spec_text(c, k->s, p->sok, sizeof p->sok);
    }
}

/* Localises every differing pair at once, one specification at a time:
 * each specification's sub-case is built once, looked up once in the memo
 * and, when unknown, run once on each target (a target shared by two pairs
 * is not called twice). */
static void localise_pairs(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                           enum scn_dialect dialect, struct pair_state *ps, size_t np)
{
    static struct dspec specs[MAX_SPECS];
    static struct scn_case sub;
    static unsigned char *buf[SCN_DIFF_MAX_TARGETS];
    int ret[SCN_DIFF_MAX_TARGETS];
    size_t len[SCN_DIFF_MAX_TARGETS];
    struct pair_state *of[MAX_PAIRS] = { 0 }; /* pair index -> its state, if it differs */
    for (size_t t = 0; t < n; t++)
        if (!buf[t] && !(buf[t] = malloc(SUB_CAP))) abort();
    for (size_t i = 0; i < np; i++) of[pair_index(ps[i].a, ps[i].b, n)] = &ps[i];
    size_t ns = scan_specs(c, dialect, specs, MAX_SPECS), open = np;
    int memo = memo_on();
    for (size_t i = 0; i < ns && open; i++) {
        const struct dspec *s = &specs[i];
        if (s->invalid) {
            for (size_t j = 0; j < np; j++) {
                struct pair_state *p = &ps[j];
                if (p->nbad) continue;
                struct culprit k = { s, 0, 0, buf[p->a], buf[p->b], 0, 0 };
                note_culprit(p, c, &k, find_allowance(dialect, c, &k, outs[p->a].target->name, outs[p->b].target->name));
                open -= p->nbad != 0;
            }
            continue;
        }
        if (make_subcase(c, s, &sub)) continue;
        unsigned char key[MEMO_KEY];
        signed char v[MAX_PAIRS];
        size_t kn = memo ? memo_key(&sub, s, dialect, outs, n, key) : 0;
        if (kn && memo_get(key, kn, v)) {
            for (size_t j = 0; j < np; j++) {
                struct pair_state *p = &ps[j];
                int mv = v[pair_index(p->a, p->b, n)];
                if (p->nbad || mv == MEMO_SAME) continue;
                struct culprit k = { s, 0, 0, buf[p->a], buf[p->b], 0, 0 };
                note_culprit(p, c, &k, &allow_tab[mv]);
            }
            continue;
        }
        for (size_t t = 0; t < n; t++) {
            ret[t] = scn_case_call(outs[t].target->vsnprintf, &sub, (char *)buf[t], SUB_CAP);
            len[t] = ret[t] < 0 ? strnlen((char *)buf[t], SUB_CAP) : (size_t)ret[t] < SUB_CAP ? (size_t)ret[t] : SUB_CAP - 1;
        }
        /* every pair's verdict (all of them, for the memo); culprits of the
         * pairs still open */
        int storable = kn != 0;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                size_t pi = pair_index(a, b, n);
                int same = (ret[a] < 0 && ret[b] < 0) || ret[a] == ret[b];
                if (ret[a] >= 0 && ret[b] >= 0) same = same && len[a] == len[b] && !memcmp(buf[a], buf[b], len[a]);
                if (same) {
                    v[pi] = MEMO_SAME;
                    continue;
                }
                struct culprit k = { s, ret[a], ret[b], buf[a], buf[b], len[a], len[b] };
                const struct scn_allowance *al = find_allowance(dialect, c, &k, outs[a].target->name, outs[b].target->name);
                if (al) v[pi] = (signed char)(al - allow_tab);
                else storable = 0;
                struct pair_state *p = of[pi];
                if (p && !p->nbad) {
                    note_culprit(p, c, &k, al);
                    open -= p->nbad != 0;
                }
            }
        if (storable) memo_put(key, kn, v);
    }
    for (size_t j = 0; j < np; j++) {
        struct pair_state *p = &ps[j];
        if (p->nbad || p->nok) continue;
        /* no single specification differs: the whole case */
        const struct scn_diff_out *A = &outs[p->a], *B = &outs[p->b];
        struct culprit k = { NULL, A->ret, B->ret, A->bytes, B->bytes, A->len, B->len };
        const struct scn_allowance *al = find_allowance(dialect, c, &k, A->target->name, B->target->name);
        if (al) { p->nok = 1; p->ok = k; p->al = al; }
        else { p->nbad = 1; p->bad = k; }
    }
}

/* The finding of pair p (localised). */
static enum scn_diff_verdict describe_pair(const struct pair_state *p, const struct scn_diff_out *outs,
                                           struct scn_diff_finding *f)
{
    const char *ta = outs[p->a].target->name, *tb = outs[p->b].target->name;
    int bad = p->nbad != 0;
    const struct culprit *k = bad ? &p->bad : &p->ok;
    memset(f, 0, sizeof *f);
    f->a = p->a;
    f->b = p->b;
    f->verdict = bad ? SCN_DIFF_DIVERGENCE : SCN_DIFF_IMPL;
    f->klass = bad ? "divergence" : "implementation-defined";
    f->allowance = bad ? NULL : p->al;
    snprintf(f->what, sizeof f->what, "%s", p->what);
    if (k->s) {
        snprintf(f->conv, sizeof f->conv, "%s%c", k->s->invalid ? "!" : k->s->len, k->s->invalid ? 'I' : k->s->conv);
        flags_class(k->s, f->fclass, sizeof f->fclass);
        snprintf(f->spec, sizeof f->spec, "%s", bad ? p->sbad : p->sok);
    } else {
        strcpy(f->conv, "-");
        f->fclass[0] = 0;
        f->spec[0] = 0;
    }
    int swap = strcmp(ta, tb) > 0;
    snprintf(f->signature, sizeof f->signature, "%s:%s:%s:%s~%s", SCN_DIFF_ORACLE, f->conv, f->fclass,
             swap ? tb : ta, swap ? ta : tb);
    if (bad)
        snprintf(f->detail, sizeof f->detail, "%s differ between %s and %s%s%s (%s: ret %d vs %d)", p->what, ta, tb,
                 k->s ? " in " : "", k->s ? f->spec : "", k->s ? "alone" : "whole case", k->ret_a, k->ret_b);
    else
        snprintf(f->detail, sizeof f->detail, "%s differ between %s and %s%s%s: allowed by %s", p->what, ta, tb,
                 k->s ? " in " : "", k->s ? f->spec : "", p->al->id);
    return f->verdict;
}

int scn_diff_agree(const struct scn_diff_out *outs, size_t n)
{
    const char *what;
    for (size_t i = 1; i < n; i++)
        if (!outs_equal(&outs[0], &outs[i], &what)) return 0;
    return 1;
}

enum scn_diff_verdict scn_diff_compare(struct scn_case *c, const struct scn_diff_out *outs, size_t n,
                                       enum scn_dialect dialect, struct scn_diff_finding *f)
{
    if (n > SCN_DIFF_MAX_TARGETS) n = SCN_DIFF_MAX_TARGETS;
    if (scn_diff_agree(outs, n)) {
        f->verdict = SCN_DIFF_AGREE;
        f->klass = "";
        return SCN_DIFF_AGREE;
    }
    /* slow path: localise every differing pair; report the worst verdict,
     * of the first pair (in (a, b) order) that has it */
    struct pair_state ps[MAX_PAIRS];
    size_t np = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            const char *what = NULL;
            if (outs_equal(&outs[a], &outs[b], &what)) continue;
            memset(&ps[np], 0, sizeof ps[np]);
            ps[np].a = a;
            ps[np].b = b;
            ps[np].what = what;
            np++;
        }
    localise_pairs(c, outs, n, dialect, ps, np);
    size_t worst_p = 0;
    enum scn_diff_verdict worst = SCN_DIFF_AGREE;
    for (size_t j = 0; j < np; j++) {
        enum scn_diff_verdict v = ps[j].nbad ? SCN_DIFF_DIVERGENCE : SCN_DIFF_IMPL;
        if (v > worst) {
            worst = v;
            worst_p = j;
        }
    }
    return describe_pair(&ps[worst_p], outs, f);
}
