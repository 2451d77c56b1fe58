/* See result_line.h. */
#include "result_line.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "spec.h"

static void key(struct scn_jbuf *b, const char *k)
{
    scn_jbuf_str(b, b->n && b->p[b->n - 1] != '{' ? ",\"" : "\"");
    scn_jbuf_str(b, k);
    scn_jbuf_str(b, "\":");
}

void scn_json_str(struct scn_jbuf *b, const char *k, const char *v)
{
    if (!v) return;
    key(b, k);
    scn_jbuf_json(b, v, strlen(v));
}

void scn_json_num(struct scn_jbuf *b, const char *k, long long v)
{
    char t[32];
    key(b, k);
    snprintf(t, sizeof t, "%lld", v);
    scn_jbuf_str(b, t);
}

void scn_json_dbl(struct scn_jbuf *b, const char *k, double v)
{
    char t[48];
    key(b, k);
    snprintf(t, sizeof t, "%.3f", v);
    scn_jbuf_str(b, t);
}

void scn_json_raw(struct scn_jbuf *b, const char *k, const char *v, size_t n)
{
    key(b, k);
    scn_jbuf_put(b, v, n);
}

struct scn_result scn_result_new(const char *case_text, size_t case_len, const char *status, const char *oracle)
{
    struct scn_result r = { .index = -1, .case_text = case_text, .case_len = case_len, .status = status,
                            .oracle = oracle, .size = -1, .line = -1 };
    return r;
}

/* What failed: a per-size oracle's finding, or the call's return and size. */
static void where_it_failed(struct scn_jbuf *b, const struct scn_result *r)
{
    const struct scn_finding *f = r->f;
    if (f) {
        scn_json_num(b, "ret", f->ret);
        scn_json_num(b, "size", (long)f->size);
        scn_json_str(b, "family", scn_family_name(f->family));
        scn_json_str(b, "class", f->klass);
        scn_json_str(b, "detail", f->detail);
        key(b, "buffer");
        scn_jbuf_json(b, (const char *)f->got, f->got_len);
        return;
    }
    if (r->has_ret) scn_json_num(b, "ret", r->ret);
    if (r->size >= 0) scn_json_num(b, "size", r->size);
    else if (r->size_null) scn_json_raw(b, "size", "null", 4);
    scn_json_str(b, "class", r->klass);
    scn_json_str(b, "detail", r->detail);
}

const char *scn_result_json(const struct scn_result *r, size_t *len)
{
    static struct scn_jbuf b;
    b.n = 0;
    scn_jbuf_str(&b, "{");
    scn_json_str(&b, "phase", r->phase);
    if (r->index >= 0) scn_json_num(&b, "index", r->index);
    scn_json_str(&b, "target", r->target);
    scn_json_str(&b, "category", r->category);
    key(&b, "case");
    scn_jbuf_json(&b, r->case_text, r->case_len);
    scn_json_str(&b, "kind", r->kind);
    scn_json_str(&b, "status", r->status);
    if (r->oracle) scn_json_str(&b, "oracle", r->oracle);
    else scn_json_raw(&b, "oracle", "null", 4);
    scn_json_str(&b, "expected", r->expected);
    scn_json_str(&b, "actual", r->actual);
    where_it_failed(&b, r);
    scn_json_str(&b, "note", r->note);
    scn_json_str(&b, "after_oracle", r->after_oracle);
    scn_json_str(&b, "after_signature", r->after_signature);
    if (r->iso_matches) scn_json_raw(&b, "iso_matches", "true", 4); /* the dialect, not the function, may be what is wrong */
    if (r->fatal) scn_json_raw(&b, "fatal", "true", 4);
    if (r->features) scn_json_raw(&b, "features", r->features, strlen(r->features));
    scn_json_str(&b, "rule", r->rule);
    scn_json_str(&b, "rule_kind", r->rule_kind);
    scn_json_str(&b, "signature", r->signature);
    if (r->finding) scn_json_raw(&b, "finding", r->finding, r->finding_len);
    scn_json_str(&b, "file", r->file);
    if (r->line >= 0) scn_json_num(&b, "line", r->line);
    scn_json_str(&b, "citation", r->citation);
    scn_jbuf_str(&b, "}\n");
    *len = b.n;
    return b.p;
}

/* ------------------------------------------------------------ features */

int scn_spec_features(const struct scn_case *c, const struct scn_spec *s, unsigned how,
                      int (*each)(const char *name, void *ctx), void *ctx)
{
    char f[40];
    char conv = s->conv;
    int syntax = how & SCN_FEATURES_SYNTAX;
    int letter = (conv >= 'a' && conv <= 'z') || (conv >= 'A' && conv <= 'Z');
    if (!letter && !(syntax && conv == '%')) return 1;
    snprintf(f, sizeof f, "%%%c", conv);
    if (!each(f, ctx)) return 0;
    if (s->len[0]) {
        int l = syntax ? (int)strlen(s->len) : (int)strcspn(s->len, "0123456789");
        snprintf(f, sizeof f, "length %.*s%s", l, s->len, s->len[l] ? "N" : "");
        if (!each(f, ctx)) return 0;
    }
    if (s->pos && !each("positional", ctx)) return 0;
    if (syntax) {
        char fc[16]; /* the flags in "-+ #0" order, then "w", ".p" */
        scn_spec_flags_class(s, fc, sizeof fc);
        for (const char *p = fc; *p && strchr("-+ #0", *p); p++) {
            snprintf(f, sizeof f, "flag %c", *p);
            if (!each(f, ctx)) return 0;
        }
        if (s->width == SCN_SPEC_STAR && !each("width *", ctx)) return 0;
        if (s->prec == SCN_SPEC_STAR && !each("precision *", ctx)) return 0;
    }
    if ((how & SCN_FEATURES_POINTER_EXT) && conv == 'p') { /* lib/vsprintf.c pointer() reads them all */
        size_t e = s->end, k = 0;
        while (e + k < c->fmt_len && k < 30 &&
               ((c->fmt[e + k] >= 'a' && c->fmt[e + k] <= 'z') || (c->fmt[e + k] >= 'A' && c->fmt[e + k] <= 'Z') ||
                (c->fmt[e + k] >= '0' && c->fmt[e + k] <= '9')))
            k++;
        if (k) {
            snprintf(f, sizeof f, "%%p%.*s", (int)k, c->fmt + e);
            if (!each(f, ctx)) return 0;
        }
    }
    return 1;
}

struct feature_list {
    char *out;
    size_t k, cap;
};

static int list_feature(const char *name, void *vctx)
{
    struct feature_list *l = vctx;
    char q[32]; /* quoted */
    snprintf(q, sizeof q, "\"%s\"", name);
    if (!strstr(l->out, q) && l->k + sizeof q + 2 < l->cap)
        l->k += (size_t)snprintf(l->out + l->k, l->cap - l->k, "%s%s", l->k > 1 ? "," : "", q);
    return 1;
}

const char *scn_features_json(const struct scn_case *c, enum scn_dialect d, unsigned how)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    static char out[4096];
    size_t n = scn_scan_specs(c, d, sp, SCN_MAX_SPECS);
    struct feature_list l = { out, 1, sizeof out };
    out[0] = '[';
    out[1] = 0;
    for (size_t i = 0; i < n; i++) scn_spec_features(c, &sp[i], how, list_feature, &l);
    snprintf(out + l.k, sizeof out - l.k, "]");
    return out;
}
