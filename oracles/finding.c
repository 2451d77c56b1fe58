/* The one finding record and writer: see finding.h. */
#define _GNU_SOURCE
#include "finding.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle.h"

/* ------------------------------------------------------------ buffers */

static void reserve(struct scn_jbuf *b, size_t more)
{
    if (b->n + more + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) abort(); /* a record is never written cut */
    b->p = p;
    b->cap = cap;
}

void scn_jbuf_put(struct scn_jbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void scn_jbuf_str(struct scn_jbuf *b, const char *s) { scn_jbuf_put(b, s, strlen(s)); }

void scn_jbuf_json(struct scn_jbuf *b, const char *s, size_t n)
{
    size_t need = scn_json_bytes((const unsigned char *)s, n, NULL, 0);
    reserve(b, need);
    scn_json_bytes((const unsigned char *)s, n, b->p + b->n, b->cap - b->n);
    b->n += need;
}

/* bytes -> the text form's quoted string -> a JSON string */
static void put_bytes(struct scn_jbuf *b, const unsigned char *bytes, size_t n)
{
    static char *q;
    static size_t qcap;
    size_t need = scn_quoted_format((const char *)bytes, n, NULL, 0) + 1;
    if (need > qcap) {
        free(q);
        qcap = need * 2;
        if (!(q = malloc(qcap))) abort();
    }
    size_t l = scn_quoted_format((const char *)bytes, n, q, qcap);
    scn_jbuf_json(b, q, l);
}

static void put_case(struct scn_jbuf *b, const struct scn_case *c)
{
    static char *t;
    static size_t tcap;
    size_t need = scn_case_format(c, NULL, 0) + 1;
    if (need > tcap) {
        free(t);
        tcap = need;
        if (!(t = malloc(tcap))) abort();
    }
    size_t l = scn_case_format(c, t, tcap);
    scn_jbuf_json(b, t, l);
}

static void member(struct scn_jbuf *b, const char *name, const char *value)
{
    scn_jbuf_str(b, ",\"");
    scn_jbuf_str(b, name);
    scn_jbuf_str(b, "\":");
    scn_jbuf_json(b, value, strlen(value));
}

/* ------------------------------------------------------------ the record */

struct scn_record scn_record_new(const char *source, const char *program, const char *oracle,
                                 const struct scn_rootcause *rc, const struct scn_case *original,
                                 enum scn_dialect dialect, const char *detail)
{
    struct scn_record r = { .source = source, .program = program, .oracle = oracle, .rc = rc,
                            .original = original, .dialect = dialect, .detail = detail, .execs = -1 };
    return r;
}

const char *scn_record_json(const struct scn_record *r, size_t *len)
{
    static struct scn_jbuf b;
    const struct scn_rootcause *rc = r->rc;
    char t[128];
    b.n = 0;
    scn_jbuf_str(&b, "{\"oracle\":");
    scn_jbuf_json(&b, r->oracle, strlen(r->oracle));
    member(&b, "classification", rc->klass);
    member(&b, "signature", rc->signature);
    member(&b, "shape", rc->shape);
    scn_jbuf_str(&b, ",\"case\":");
    put_case(&b, &rc->reduced);
    scn_jbuf_str(&b, ",\"original_case\":");
    put_case(&b, r->original ? r->original : &rc->reduced);
    scn_jbuf_str(&b, rc->steps ? ",\"reduced\":true" : ",\"reduced\":false");
    member(&b, "dialect", r->dialect == SCN_DIALECT_KERNEL ? "kernel" : "iso");
    scn_jbuf_str(&b, ",\"targets\":[");
    for (const char *p = rc->targets; *p;) {
        const char *e = strchr(p, '~');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (p != rc->targets) scn_jbuf_str(&b, ",");
        scn_jbuf_json(&b, p, l);
        if (!e) break;
        p = e + 1;
    }
    scn_jbuf_str(&b, "]");
    if (rc->rule) {
        scn_jbuf_str(&b, ",\"rule\":{\"id\":");
        scn_jbuf_json(&b, rc->rule->id, strlen(rc->rule->id));
        member(&b, "kind", scn_rule_kind_name(rc->rule->kind));
        member(&b, "citation", rc->rule->citation);
        if (rc->rule->reproducer[0]) member(&b, "reproducer", rc->rule->reproducer);
        if (rc->rule->versions[0]) member(&b, "versions", rc->rule->versions);
        scn_jbuf_str(&b, "}");
    }
    member(&b, "detail", r->detail ? r->detail : "");
    member(&b, "source", r->source);
    member(&b, "program", r->program);
    if (r->target) {
        member(&b, "target", r->target);
        member(&b, "family", r->family ? r->family : "c99");
        snprintf(t, sizeof t, ",\"size\":%ld", r->size);
        scn_jbuf_str(&b, t);
    }
    if (r->execs >= 0) {
        snprintf(t, sizeof t, ",\"execs\":%lld", r->execs);
        scn_jbuf_str(&b, t);
    }
    if (r->extra) scn_jbuf_str(&b, r->extra);
    scn_jbuf_str(&b, ",\"outputs\":{");
    for (size_t i = 0; i < r->nouts; i++) {
        if (i) scn_jbuf_str(&b, ",");
        scn_jbuf_json(&b, r->outs[i].name, strlen(r->outs[i].name));
        if (r->outs[i].ret_known) snprintf(t, sizeof t, ":{\"ret\":%d,\"bytes\":", r->outs[i].ret);
        else snprintf(t, sizeof t, ":{\"ret\":null,\"bytes\":");
        scn_jbuf_str(&b, t);
        put_bytes(&b, r->outs[i].bytes, r->outs[i].len);
        scn_jbuf_str(&b, "}");
    }
    scn_jbuf_str(&b, "}}");
    *len = b.n;
    return b.p;
}

int scn_record_write(int fd, const struct scn_record *r)
{
    size_t n;
    char *line = (char *)scn_record_json(r, &n);
    line[n] = '\n'; /* the buffer always has room for the NUL: the newline goes there */
    for (size_t off = 0; off < n + 1;) {
        ssize_t w = write(fd, line + off, n + 1 - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            line[n] = 0;
            return -1;
        }
        off += (size_t)w;
    }
    line[n] = 0;
    return 0;
}

void scn_record_outputs(const struct scn_target *const *t, size_t n, struct scn_case *c,
                        struct scn_out_view *ov)
{
    /* each slot grows to the whole output: the rules read the reduced case's
     * outputs, and a field of 64 KiB or more cut short is no longer one that
     * an allowance's matcher recognises */
    static unsigned char *buf[16];
    static size_t cap[16];
    for (size_t i = 0; i < n && i < 16; i++) {
        if (!buf[i]) {
            cap[i] = 1 << 16;
            if (!(buf[i] = malloc(cap[i]))) abort();
        }
        int r = -1, crashed;
        for (;;) {
            buf[i][0] = 0;
            crashed = scn_oracle_full_call(t[i], c, (char *)buf[i], cap[i], &r);
            if (crashed || r < 0 || (size_t)r < cap[i] || (size_t)r >= SCN_ORACLE_MAX_OUTPUT) break;
            unsigned char *g = realloc(buf[i], (size_t)r + 1);
            if (!g) break;
            buf[i] = g, cap[i] = (size_t)r + 1;
        }
        if (crashed) { /* it crashed: no output */
            ov[i] = (struct scn_out_view){ t[i]->name, -1, 0, (const unsigned char *)"", 0 };
            continue;
        }
        size_t len = r < 0 ? strnlen((char *)buf[i], cap[i]) : (size_t)r < cap[i] ? (size_t)r : cap[i] - 1;
        ov[i] = (struct scn_out_view){ t[i]->name, r, 1, buf[i], len };
    }
}

/* ------------------------------------------------------------ seen set */

int scn_seen_first_in(uint64_t *slots, size_t nslots, const char *key)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a; 0 marks a free slot */
    for (const char *s = key; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    if (!h) h = 1;
    for (size_t k = 0; k < nslots; k++) {
        uint64_t *s = &slots[(h + k) % nslots];
        if (*s == h) return 0;
        if (!*s) {
            *s = h;
            return 1;
        }
    }
    return 0; /* full: treat as seen, never grow without bound */
}

int scn_seen_first(const char *key)
{
    static uint64_t seen[16384];
    return scn_seen_first_in(seen, sizeof seen / sizeof seen[0], key);
}
