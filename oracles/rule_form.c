/* The predicates of the rules' terms on a specification's form, its
 * arguments and the whole case. See rule_form.h. */
#define _GNU_SOURCE
#include "rule_form.h"

#include <stdlib.h>
#include <string.h>

int scn_form_conv_listed(const char *list, size_t ln, const char *len, char conv)
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

int scn_form_len_listed(const char *list, size_t ln, const char *len)
{
    size_t i = 0;
    while (i < ln) {
        size_t e = i;
        while (e < ln && list[e] != '|') e++;
        size_t l = e - i;
        if (l == 1 && list[i] == '-' && !len[0]) return 1;
        if (l == 1 && list[i] == 'w' && len[0] == 'w') return 1;
        if (l == strlen(len) && l && !memcmp(list + i, len, l)) return 1;
        i = e + 1;
    }
    return 0;
}

int scn_form_shared_arg(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    unsigned char used[SCN_CASE_MAX_ARGS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].pos <= 0) continue;
        int a[3] = { sp[i].warg, sp[i].parg, sp[i].varg };
        for (int j = 0; j < 3; j++)
            if (a[j] >= 0 && used[a[j]]++) return 1;
    }
    return 0;
}

int scn_form_flagged_star_hidden(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    unsigned char seen[SCN_CASE_MAX_ARGS + 1] = { 0 }, hidden[SCN_CASE_MAX_ARGS + 1] = { 0 };
    int top = 0;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].pos <= 0) continue;
        int v[3] = { sp[i].pos, sp[i].wpos, sp[i].ppos };
        for (int j = 0; j < 3; j++) {
            if (v[j] <= 0 || v[j] > SCN_CASE_MAX_ARGS) continue;
            if (v[j] > top) top = v[j];
            const struct scn_arg *a = v[j] <= (int)c->nargs ? &c->args[v[j] - 1] : NULL;
            int floating = a && (a->type == SCN_ARG_DOUBLE || a->type == SCN_ARG_LDOUBLE);
            if (sp[i].flags && (j || floating)) hidden[v[j]] = 1;
            else seen[v[j]] = 1;
        }
    }
    for (int m = 1; m < top; m++)
        if (hidden[m] && !seen[m]) return 1;
    return 0;
}

int scn_form_star_out_of_order(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    for (size_t i = 0; i < n; i++) {
        const struct scn_spec *s = &sp[i];
        if (s->invalid || s->pos <= 0 || (s->wpos <= 0 && s->ppos <= 0)) continue;
        int next = s->pos - 1; /* the argument read just before the value */
        if (s->ppos > 0 && s->ppos != next--) return 1;
        if (s->wpos > 0 && s->wpos != next) return 1;
    }
    return 0;
}

int scn_form_max_position(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    int m = 0;
    for (size_t i = 0; i < n; i++) {
        int v[3] = { sp[i].pos, sp[i].wpos, sp[i].ppos };
        for (int j = 0; j < 3; j++)
            if (v[j] > m) m = v[j];
    }
    return m;
}

int scn_form_arg_is_nonascii(const struct scn_case *c, const struct scn_arg *a, long prec)
{
    if (a->type == SCN_ARG_WINT) return a->v.u > 0x7f;
    if (a->type == SCN_ARG_WSTR && !a->is_null) {
        const wchar_t *w = (const wchar_t *)(const void *)(c->arena + a->off);
        for (size_t i = 0; i < a->len && (prec < 0 || i < (size_t)prec); i++)
            if ((unsigned)w[i] > 0x7f) return 1;
    }
    return 0;
}

long scn_form_field_width(const struct scn_case *c, const struct scn_spec *s, unsigned *flags)
{
    *flags = s->flags;
    if (s->width >= 0) return s->width;
    if (s->width != SCN_SPEC_STAR || s->warg < 0) return 0;
    long w = (int)c->args[s->warg].v.i;
    if (w < 0) {
        *flags |= SCN_FL_MINUS;
        w = -w;
    }
    return w;
}

int scn_form_arg_prec(const struct scn_case *c, const struct scn_spec *s, long *prec)
{
    if (s->prec == -1) { *prec = -1; return 0; }
    if (s->prec >= 0) { *prec = s->prec; return 0; }
    if (s->parg < 0) return -1;
    long long v = c->args[s->parg].v.i;
    *prec = (int)v < 0 ? -1 : (int)v;
    return 0;
}


int scn_form_name_listed(const char *list, size_t l, const char *name)
{
    size_t nl = strlen(name), i = 0;
    while (i < l) {
        size_t e = i;
        while (e < l && list[e] != '|') e++;
        if (e - i == nl && !memcmp(list + i, name, nl)) return 1;
        i = e + 1;
    }
    return 0;
}
