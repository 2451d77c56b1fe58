/* The one scanner of conversion specifications: see spec.h. */
#define _GNU_SOURCE
#include "spec.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }

/* a decimal number: exact up to INT_MAX (a width or precision is an int);
 * of a longer one the digits an int holds */
static size_t read_num(const char *f, size_t i, long *v)
{
    long x = 0;
    int whole = 1;
    while (is_digit(f[i])) {
        if (whole && x <= (INT_MAX - (f[i] - '0')) / 10) x = x * 10 + (f[i] - '0');
        else whole = 0;
        i++;
    }
    *v = x;
    return i;
}

size_t scn_scan_specs(const struct scn_case *c, enum scn_dialect dialect, struct scn_spec *sp, size_t max)
{
    return scn_scan_format(c->fmt, c->nargs, dialect, sp, max);
}

size_t scn_scan_format(const char *f, size_t nargs, enum scn_dialect dialect, struct scn_spec *sp, size_t max)
{
    size_t n = 0, i = 0;
    int next = 0, positional = -1; /* -1 unknown, 0 sequential, 1 positional */
    const char *valid = dialect == SCN_DIALECT_KERNEL ? "diouxXcsp%" : "diouxXcspnaAeEfFgGbB%";
    while (f[i] && n < max) {
        if (f[i] != '%') {
            i++;
            continue;
        }
        struct scn_spec *s = &sp[n++];
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
            } else if (dialect == SCN_DIALECT_KERNEL && !is_digit(f[p])) {
                /* Linux format_decode: a '.' without digits leaves no precision */
                s->prec = SCN_SPEC_NONE;
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
        s->pos = (int)pos;
        s->wpos = wpos;
        s->ppos = ppos;
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
            if ((s->warg >= 0 && (size_t)s->warg >= nargs) || (s->parg >= 0 && (size_t)s->parg >= nargs) ||
                (s->varg >= 0 && (size_t)s->varg >= nargs))
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
void scn_spec_flags_class(const struct scn_spec *s, char *out, size_t cap)
{
    size_t k = 0;
    for (int b = 0; b < 5; b++)
        if (s->flags & (1u << b) && k + 1 < cap) out[k++] = "-+ #0"[b];
    if (s->width != -1 && k + 1 < cap) out[k++] = 'w';
    if (s->prec != -1 && k + 2 < cap) { out[k++] = '.'; out[k++] = 'p'; }
    out[k] = 0;
}

/* --------------------------------------------------------- sub-cases */

int scn_case_add_arg(struct scn_case *d, const struct scn_arg *a, const char *arena)
{
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
    case SCN_ARG_STR: return scn_case_add_str(d, a->is_null ? NULL : arena + a->off, a->len);
    case SCN_ARG_WSTR:
        return scn_case_add_wstr(d, a->is_null ? NULL : (const wchar_t *)(const void *)(arena + a->off), a->len);
    case SCN_ARG_N: return scn_case_add_n(d, (enum scn_n_type)a->ntype);
    case SCN_ARG_MEM:
        if (a->is_vaf) return scn_case_add_mem_vaf(d, arena + a->off, a->len);
        return a->is_err ? scn_case_add_mem_err(d, a->v.i) : scn_case_add_mem(d, a->is_null ? NULL : arena + a->off, a->len);
    }
    return -1;
}

int scn_spec_subcase(const struct scn_case *c, const struct scn_spec *s, struct scn_case *d)
{
    char f[128];
    size_t k = 0;
    int kw = 0, kp = 0, kv = 0, n = 0;
    if (s->warg >= 0) kw = ++n;
    if (s->parg >= 0) kp = ++n;
    if (s->varg >= 0) kv = ++n;
    const char *t = c->fmt;
    int numbered = 0;
    for (size_t i = s->start; i < s->end && k + 8 < sizeof f; i++) {
        f[k++] = t[i];
        if (t[i] == '%' || t[i] == '*') {
            size_t j = i + 1;
            while (j < s->end && is_digit(t[j])) j++;
            if (j < s->end && j > i + 1 && t[j] == '$') {
                int num = t[i] == '%' ? kv : (i > s->start && t[i - 1] == '.') ? kp : kw;
                k += (size_t)snprintf(f + k, 8, "%d$", num);
                i = j;
                numbered = 1;
            }
        }
    }
    f[k] = 0;
    scn_case_init(d, f, k);
    d->round = c->round; /* the sub-case is called under the case's rounding direction */
    if (s->warg >= 0 && scn_case_add_arg(d, &c->args[s->warg], c->arena)) return -1;
    if (s->parg >= 0 && scn_case_add_arg(d, &c->args[s->parg], c->arena)) return -1;
    if (s->varg >= 0 && scn_case_add_arg(d, &c->args[s->varg], c->arena)) return -1;
    /* the case's arguments after the specification's own follow them (excess
     * arguments are evaluated and ignored, C17 7.21.6.1p2): they fill the
     * registers a read of the wrong class takes (curl's %Le reading a double
     * gets the next double's register, as in the whole case) */
    int last = s->warg > s->parg ? s->warg : s->parg;
    if (s->varg > last) last = s->varg;
    if (!numbered && last >= 0)
        for (size_t i = (size_t)last + 1; i < c->nargs; i++)
            if (scn_case_add_arg(d, &c->args[i], c->arena)) return -1;
    return 0;
}

int scn_case_localise(const struct scn_case *c, enum scn_dialect dialect,
                      int (*pred)(struct scn_case *sub, void *ctx), void *ctx,
                      char conv[8], char fclass[16])
{
    static struct scn_spec specs[SCN_MAX_SPECS];
    static struct scn_case sub;
    size_t ns = scn_scan_specs(c, dialect, specs, SCN_MAX_SPECS);
    for (size_t i = 0; i < ns; i++) {
        const struct scn_spec *s = &specs[i];
        if (s->invalid || scn_spec_subcase(c, s, &sub) || !pred(&sub, ctx)) continue;
        snprintf(conv, 8, "%s%c", s->len, s->conv);
        scn_spec_flags_class(s, fclass, 16);
        return (int)i;
    }
    if (ns && specs[ns - 1].invalid) {
        strcpy(conv, "!I");
        scn_spec_flags_class(&specs[ns - 1], fclass, 16);
        return (int)(ns - 1);
    }
    strcpy(conv, "-");
    fclass[0] = 0;
    return -1;
}
