/* scn-certify: the protocol: one JSON object per line on its own descriptor,
 * built in a growing buffer and written whole; the finding record. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert_state.h"
#include "finding.h"

/* ------------------------------------------------------------ protocol */

static struct scn_jbuf line;
static int jfirst; /* no comma before the next member */

void cert_begin(void)
{
    line.n = 0;
    scn_jbuf_str(&line, "{");
    jfirst = 1;
}
static void jkey(const char *k)
{
    scn_jbuf_str(&line, jfirst ? "\"" : ",\"");
    jfirst = 0;
    scn_jbuf_str(&line, k);
    scn_jbuf_str(&line, "\":");
}
void cert_jopen(const char *k)
{
    jkey(k);
    scn_jbuf_str(&line, "{");
    jfirst = 1;
}
void cert_jclose(void)
{
    scn_jbuf_str(&line, "}");
    jfirst = 0;
}
void cert_jstr(const char *k, const char *v)
{
    jkey(k);
    if (v) scn_jbuf_json(&line, v, strlen(v));
    else scn_jbuf_str(&line, "null");
}
void cert_jnum(const char *k, long long v)
{
    char t[32];
    jkey(k);
    snprintf(t, sizeof t, "%lld", v);
    scn_jbuf_str(&line, t);
}
void cert_jdbl(const char *k, double v)
{
    char t[40];
    jkey(k);
    snprintf(t, sizeof t, "%.3f", v);
    scn_jbuf_str(&line, t);
}
void cert_jraw(const char *k, const char *v)
{
    jkey(k);
    scn_jbuf_str(&line, v);
}
void cert_jcase(const char *k, const struct scn_case *c)
{
    static char *t;
    static size_t cap;
    size_t need = scn_case_format(c, NULL, 0) + 1;
    if (need > cap && !(t = realloc(t, cap = need))) abort();
    size_t l = scn_case_format(c, t, cap);
    jkey(k);
    scn_jbuf_json(&line, t, l);
}

/* Writes the line in the buffer, whole (no size limit). */
static void write_line(void)
{
    cert_sh->writing = 1;
    for (size_t off = 0; off < line.n;) {
        ssize_t w = write(cert_proto_fd, line.p + off, line.n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3); /* the runner is gone: nobody to tell */
        off += (size_t)w;
    }
    cert_sh->writing = 0;
}

/* Writes the line being built with its end and newline. */
void cert_send(void)
{
    scn_jbuf_str(&line, "}\n");
    write_line();
}

void cert_send_error(const char *msg)
{
    cert_begin();
    cert_jstr("error", msg);
    cert_send();
}

/* The record of a finding (docs/FINDINGS.md), its JSON in a buffer of
 * finding.c's (valid until the next record). */
static const char *record_json(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                               const char *detail, long size, int with_size, int sides, long long execs, size_t *n)
{
    struct scn_out_view ov[2];
    size_t nov = 0;
    static struct scn_case shown;
    memcpy(&shown, &rc->reduced, sizeof shown);
    if (sides == 2) { /* the reference and the function (a call the worker may make) */
        const struct scn_target *t[2] = { cert_ref, &cert_named };
        scn_record_outputs(t, 2, &shown, ov);
        nov = 2;
    } else if (sides == 1) { /* the reference only: the supervisor never calls the function */
        const struct scn_target *t[1] = { cert_ref };
        scn_record_outputs(t, 1, &shown, ov);
        nov = 1;
    }
    char extra[80];
    snprintf(extra, sizeof extra, ",\"phase\":\"%s\"", cert_phase);
    struct scn_record r = scn_record_new("certify", "scn-certify", oracle, rc, original, cert_dialect, detail);
    if (with_size) {
        r.target = scn_cert_name;
        r.family = cert_is_scn ? "scn" : "c99";
        r.size = size;
    }
    r.execs = execs;
    r.outs = ov;
    r.nouts = nov;
    r.extra = extra;
    return scn_record_json(&r, n);
}

/* The record as member "finding" of a result line (conform, retval, a fatal case). */
void cert_jrecord(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                  const char *detail, long size, int with_size, int sides)
{
    size_t n;
    const char *j = record_json(oracle, rc, original, detail, size, with_size, sides, -1, &n);
    jkey("finding");
    scn_jbuf_put(&line, j, n);
}

/* The record as a line of its own (the fuzz phase's findings): the line of
 * findings.jsonl itself, with the phase and the executions so far. */
void cert_send_record(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                      const char *detail, long size, int with_size, long long execs)
{
    size_t n;
    const char *j = record_json(oracle, rc, original, detail, size, with_size, 2, execs, &n);
    line.n = 0;
    scn_jbuf_put(&line, j, n);
    scn_jbuf_str(&line, "\n");
    write_line();
}
