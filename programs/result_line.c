/* See result_line.h. */
#include "result_line.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"

static void key(struct scn_jbuf *b, const char *k)
{
    scn_jbuf_str(b, b->n > 1 ? ",\"" : "\"");
    scn_jbuf_str(b, k);
    scn_jbuf_str(b, "\":");
}

static void str(struct scn_jbuf *b, const char *k, const char *v)
{
    if (!v) return;
    key(b, k);
    scn_jbuf_json(b, v, strlen(v));
}

static void num(struct scn_jbuf *b, const char *k, long v)
{
    char t[32];
    key(b, k);
    snprintf(t, sizeof t, "%ld", v);
    scn_jbuf_str(b, t);
}

static void raw(struct scn_jbuf *b, const char *k, const char *v, size_t n)
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
        num(b, "ret", f->ret);
        num(b, "size", (long)f->size);
        str(b, "family", scn_family_name(f->family));
        str(b, "class", f->klass);
        str(b, "detail", f->detail);
        key(b, "buffer");
        scn_jbuf_json(b, (const char *)f->got, f->got_len);
        return;
    }
    if (r->has_ret) num(b, "ret", r->ret);
    if (r->size >= 0) num(b, "size", r->size);
    else if (r->size_null) raw(b, "size", "null", 4);
    str(b, "class", r->klass);
    str(b, "detail", r->detail);
}

const char *scn_result_json(const struct scn_result *r, size_t *len)
{
    static struct scn_jbuf b;
    b.n = 0;
    scn_jbuf_str(&b, "{");
    str(&b, "phase", r->phase);
    if (r->index >= 0) num(&b, "index", r->index);
    str(&b, "target", r->target);
    str(&b, "category", r->category);
    key(&b, "case");
    scn_jbuf_json(&b, r->case_text, r->case_len);
    str(&b, "kind", r->kind);
    str(&b, "status", r->status);
    if (r->oracle) str(&b, "oracle", r->oracle);
    else raw(&b, "oracle", "null", 4);
    str(&b, "expected", r->expected);
    str(&b, "actual", r->actual);
    where_it_failed(&b, r);
    str(&b, "note", r->note);
    if (r->iso_matches) raw(&b, "iso_matches", "true", 4); /* the dialect, not the function, may be what is wrong */
    if (r->fatal) raw(&b, "fatal", "true", 4);
    if (r->features) raw(&b, "features", r->features, strlen(r->features));
    str(&b, "rule", r->rule);
    str(&b, "rule_kind", r->rule_kind);
    str(&b, "signature", r->signature);
    if (r->finding) raw(&b, "finding", r->finding, r->finding_len);
    str(&b, "file", r->file);
    if (r->line >= 0) num(&b, "line", r->line);
    str(&b, "citation", r->citation);
    scn_jbuf_str(&b, "}\n");
    *len = b.n;
    return b.p;
}
