/* The one finding record and its one writer (docs/FINDINGS.md): every
 * program that finds something writes the same JSON line through here, and
 * one set of the root causes it has reported. */
#ifndef SCN_FINDING_H
#define SCN_FINDING_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "rootcause.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One target's output, as shown in a record. */
struct scn_out_view {
    const char *name;            /* a target, or "buffer" / "expected" */
    int ret;
    int ret_known;               /* 0: "ret": null (an expectation without one) */
    const unsigned char *bytes;
    size_t len;
};

struct scn_record {
    const char *source;          /* "fuzz", "replay", "conform", "exec", "certify" */
    const char *program;         /* who wrote it: "fuzz_iso_diff", "scn-conform", ... */
    const char *oracle;
    const struct scn_rootcause *rc; /* signature, shape, reduced case, targets, class, rule */
    const struct scn_case *original;
    enum scn_dialect dialect;
    const char *detail;
    const char *target, *family; /* per-size oracle findings; NULL otherwise */
    long size;
    long long execs;             /* < 0: not a fuzzer */
    const struct scn_out_view *outs;
    size_t nouts;
    const char *extra;           /* more members, rendered (",\"category\":\"x\""), or NULL */
};

/* The one way a record is made: its members every record has, the optional
 * ones (target, family, size for per-size oracle findings; execs for a
 * fuzzer; outs; extra) empty, execs -1, for the caller to set by name. */
struct scn_record scn_record_new(const char *source, const char *program, const char *oracle,
                                 const struct scn_rootcause *rc, const struct scn_case *original,
                                 enum scn_dialect dialect, const char *detail);

/* The JSON object of r (no newline), in a buffer owned here that grows as
 * needed (no output is ever cut), valid until the next call. */
const char *scn_record_json(const struct scn_record *r, size_t *len);

/* Writes r as one line with one write(2), so that lines of several
 * processes appending to one O_APPEND file never interleave. 0, or -1 with
 * errno set (the line may then be torn: the caller says so). */
int scn_record_write(int fd, const struct scn_record *r);

/* The outputs (C99 call, big buffer) of c on targets t[0..n), into ov
 * (buffers owned here, valid until the next call). */
void scn_record_outputs(const struct scn_target *const *t, size_t n, struct scn_case *c,
                        struct scn_out_view *ov);

/* The one set of keys met (the dedup of findings): 1 the first time key is
 * seen, 0 after, and 0 once the set is full. Keys are kept as 64-bit hashes,
 * so the set can live in memory shared by processes (certification's
 * workers): scn_seen_first_in on the caller's slots (zeroed), scn_seen_first
 * on this process's own. */
int scn_seen_first_in(uint64_t *slots, size_t nslots, const char *key);
int scn_seen_first(const char *key);

/* JSON string of arbitrary bytes, appended to a growing buffer. */
struct scn_jbuf {
    char *p;
    size_t n, cap;
};
void scn_jbuf_put(struct scn_jbuf *b, const char *s, size_t n);
void scn_jbuf_str(struct scn_jbuf *b, const char *s);
void scn_jbuf_json(struct scn_jbuf *b, const char *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* SCN_FINDING_H */
