/* See result_line.h. */
#include "result_line.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"

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
