/* scn-certify: the protocol: one JSON object per line on its own descriptor,
 * written whole. A case's result is scn-conform's result line (the one
 * writer, programs/result_line.c); a finding is the one record
 * (oracles/finding.c); the plan, end and error lines are made of the same
 * writer's members. */
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

/* Writes the line in buf, whole (no size limit). */
static void write_line(const char *p, size_t n)
{
    cert_sh->writing = 1;
    for (size_t off = 0; off < n;) {
        ssize_t w = write(cert_proto_fd, p + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3); /* the runner is gone: nobody to tell */
        off += (size_t)w;
    }
    cert_sh->writing = 0;
}

/* A line of the phase's accounting (plan, end, error), begun: its members
 * are the result writer's (scn_json_*). */
struct scn_jbuf *cert_line(void)
{
    line.n = 0;
    scn_jbuf_str(&line, "{");
    return &line;
}

/* Writes the line begun with its end and newline. */
void cert_send(void)
{
    scn_jbuf_str(&line, "}\n");
    write_line(line.p, line.n);
}

void cert_send_error(const char *msg)
{
    scn_json_str(cert_line(), "error", msg);
    cert_send();
}

/* A result line: scn-conform's writer (programs/result_line.h). */
void cert_send_result(const struct scn_result *r)
{
    size_t n;
    const char *j = scn_result_json(r, &n);
    write_line(j, n);
}

/* The text form of c, in a buffer of this file's (valid until the next call). */
const char *cert_case_text(const struct scn_case *c, size_t *n)
{
    static char *t;
    static size_t cap;
    size_t need = scn_case_format(c, NULL, 0) + 1;
    if (need > cap && !(t = realloc(t, cap = need))) abort();
    *n = scn_case_format(c, t, cap);
    return t;
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

/* The record for member "finding" of a result line (conform, retval, a
 * fatal case), in a buffer of finding.c's. */
const char *cert_record(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *original,
                        const char *detail, long size, int with_size, int sides, size_t *n)
{
    return record_json(oracle, rc, original, detail, size, with_size, sides, -1, n);
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
    write_line(line.p, line.n);
}
