/* scnfuzz oracles: properties every snprintf/scnprintf call must satisfy,
 * checked on one case of one target at many buffer sizes, in a guarded buffer.
 *
 * Guarded buffer: the buffer passed to the call lies flush against a
 * PROT_NONE page (its last byte is the last byte before the guard), and the
 * SCN_GUARD_PRE bytes before it are poisoned (0xA5) and checked afterwards,
 * so a one-byte overrun faults and an underrun is seen, with or without ASan.
 * At size 0 the pointer passed is the first byte of the guard page itself
 * (any write faults), unless SCN_CHECK_NULL_AT_0 asks for NULL.
 *
 * Without ASan, SIGSEGV/SIGBUS during a checked call are caught (sigsetjmp/
 * siglongjmp) and reported as "overrun" (fault in the guard page) or "crash".
 * Under ASan the signal is left to ASan, which reports and aborts (unless
 * scn_oracle_set_catch_faults(1); scn-conform does that by default).
 * Not thread-safe: one checking thread per process (the fault handler state
 * is global).
 *
 * The oracles checked here are the "per-size" ones of the registry
 * (oracles/oracles.def: each one's name, class and what it checks; a crash
 * caught here is a fault: memory-safety).
 */
#ifndef SCN_ORACLE_H
#define SCN_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCN_GUARD_PRE 64
#define SCN_POISON 0xA5
#define SCN_ORACLE_MAX_OUTPUT (16u << 20)
#define SCN_FINDING_BYTES 256
/* SCN_CHECK_ALL_SIZES tries every size when the output is shorter than
 * the limit (default SCN_ALL_SIZES_MAX - 1, see scn_oracle_set_all_sizes_max);
 * for longer outputs, the first and last SCN_ALL_SIZES_EDGE sizes and 64
 * sizes evenly spaced between. */
#define SCN_ALL_SIZES_MAX 512
#define SCN_ALL_SIZES_EDGE 64

enum scn_family { SCN_FAM_C99 = 0, SCN_FAM_SCN = 1 };

/* ---- the guarded buffer (usable standalone) ---- */
struct scn_guard {
    unsigned char *map;   /* the whole mapping */
    size_t map_len;
    unsigned char *guard; /* first byte of the PROT_NONE page */
    size_t cap;           /* largest buffer size available */
};
int scn_guard_init(struct scn_guard *g, size_t cap); /* 0 or -1 (errno) */
int scn_guard_reserve(struct scn_guard *g, size_t cap); /* grow if needed */
void scn_guard_fini(struct scn_guard *g);
/* Poisons SCN_GUARD_PRE bytes before and the size bytes of the buffer, and
 * returns the buffer (ending at the guard page). size must be <= g->cap. */
char *scn_guard_buffer(struct scn_guard *g, size_t size);
/* After a call: index (relative to buf, negative) of the first changed byte
 * in the SCN_GUARD_PRE poisoned bytes before buf, or 0 if none. */
long scn_guard_underrun(const struct scn_guard *g, const char *buf);

/* ---- findings ---- */
struct scn_finding {
    const char *oracle;     /* stable name, see above */
    const char *klass;      /* "invariant", "memory-safety" */
    enum scn_family family;
    size_t size;            /* buffer size of the call */
    long ret;               /* its return value */
    long expect_ret;        /* what the oracle expected (-1: n/a) */
    char detail[160];       /* one line, human-readable */
    size_t got_len;         /* bytes of the buffer shown in got (min(size, cap)) */
    unsigned char got[SCN_FINDING_BYTES];
};

/* ---- checking a case ---- */
enum scn_check_flags {
    SCN_CHECK_ALL_SIZES = 1u << 0,  /* every size 0..len+1, see SCN_ALL_SIZES_MAX (default: 0,1,len-1,len,len+1, 3 random, case @sizes) */
    SCN_CHECK_NULL_AT_0 = 1u << 1,  /* pass NULL as buf at size 0 */
    SCN_CHECK_NO_SCN = 1u << 2,     /* only the c99 family */
    SCN_CHECK_NO_C99 = 1u << 3,     /* only the scn family (the full output still comes from one c99 call) */
    SCN_CHECK_NO_REPEAT = 1u << 4,
    SCN_CHECK_ALL_FINDINGS = 1u << 5 /* keep checking after the first finding (count all) */
};

/* The size the full output is first taken at (scn_check_case): this many
 * bytes, and when the output does not fit, exactly its length and the NUL.
 * A root cause of a conformance failure calls at the same sizes (rootcause.c). */
#define SCN_FULL_FIRST_SIZE 1024u

struct scn_report {
    int full_ret;                  /* the c99 return with a big buffer (negative: error) */
    size_t full_len;               /* bytes in full (0 when full_ret < 0) */
    const unsigned char *full;     /* the full output, owned by the ctx, valid until the next check */
    int full_taken;                /* full_ret and full are the target's (0: a finding came first) */
    size_t nn;                     /* %n values of the full call, in argument order */
    long long n[SCN_CASE_MAX_ARGS];
    size_t calls;                  /* calls made */
    size_t nfindings;
    struct scn_finding first;      /* valid when nfindings > 0 */
};

struct scn_oracle_ctx {
    struct scn_guard g;
    unsigned char *full;           /* copy of the full output */
    size_t full_cap;
    uint64_t rng;
};

int scn_oracle_init(struct scn_oracle_ctx *x);  /* 0 or -1 */
void scn_oracle_fini(struct scn_oracle_ctx *x);

/* Checks target t on case c with every oracle above. Returns the number of
 * findings (0: all hold). r->first describes the first one. */
size_t scn_check_case(struct scn_oracle_ctx *x, const struct scn_target *t, struct scn_case *c,
                      unsigned flags, struct scn_report *r);

/* One call of one family in the guarded buffer, nothing checked except
 * faults. *buf_out receives the buffer used (valid until the next call).
 * Returns 0, or 1 when the call faulted (then *ret is undefined and
 * *fault_in_guard tells whether the fault address was in the guard page). */
/* The target's full output (scn_target_full_call) into buf, under the same
 * fault guard as the checks' calls (when faults are caught): 1 when the call
 * faulted (buf and *ret then say nothing), else 0. For what a finding
 * records of each target's output: a target that crashes on the case must
 * not end the program that reports it. */
int scn_oracle_full_call(const struct scn_target *t, struct scn_case *c, char *buf, size_t cap, int *ret);

int scn_oracle_call(struct scn_oracle_ctx *x, const struct scn_target *t, enum scn_family fam,
                    struct scn_case *c, size_t size, unsigned flags, int *ret, char **buf_out,
                    int *fault_in_guard);


/* Whether SIGSEGV is caught (1: default without ASan, 0: under ASan). */
int scn_oracle_catch_faults(void);
/* Faults caught so far in this process: a target that faulted once may have
 * written elsewhere before, so a long run may want a fresh process after. */
unsigned long scn_oracle_faults_caught(void);
void scn_oracle_set_catch_faults(int on);
/* Output length + 2 up to which SCN_CHECK_ALL_SIZES tries every size
 * (default SCN_ALL_SIZES_MAX; SIZE_MAX: always every size). */
void scn_oracle_set_all_sizes_max(size_t n);

/* Prints a finding as one JSON object (no newline) into out; returns the full length. */
size_t scn_finding_json(const struct scn_finding *f, char *out, size_t cap);
/* JSON string escaping of bytes (with the quotes); returns the full length. */
size_t scn_json_bytes(const unsigned char *b, size_t n, char *out, size_t cap);
const char *scn_family_name(enum scn_family f); /* "c99", "scn" */

#ifdef __cplusplus
}
#endif

#endif /* SCN_ORACLE_H */
