/* scn-conform's isolation of the targets it checks.
 *
 * The corpus is checked by a worker process that the supervisor (the
 * process that started scn-conform) watches, so that a target which kills
 * or stalls its process on one case costs that case only: a vendored printf
 * that loops forever on "%f" of inf, or one whose write before the buffer
 * breaks the heap so that a later free() aborts, is one failing result (a
 * "crash" or "hang" finding of the case and target in progress, reduced and
 * signed) and the run goes on with the next one. The work is cut in units
 * (one corpus line on one target, numbered in the order the worker meets
 * them); before each unit the worker publishes it here, in shared memory,
 * and after a death the next worker skips every unit up to the dead one.
 * The supervisor never calls a target under test: it reduces a death by
 * running each candidate in a child of its own.
 */
#ifndef SCN_CONFORM_ISOLATE_H
#define SCN_CONFORM_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle.h"
#include "rootcause.h"
#include "target.h"

enum { CONFORM_TEXT_MAX = 1 << 20 }; /* a corpus line, at most (the kernel clamp cases are long) */

/* What scn-conform counts, kept across workers. */
struct conform_counts {
    unsigned long pass, fail, error, skip, cases;
    unsigned long restarts; /* of the executor target (--exec), crashes and hangs */
};

struct conform_shared {
    struct conform_counts n;
    struct conform_counts at_unit;  /* n when the unit in progress began */
    volatile uint64_t call_since; /* the call watch (case.h): 0 between calls */
    volatile size_t call_size;    /* the buffer size of the call in progress */
    volatile uint64_t reporting;  /* when a sanitizer began its report in the worker (0: none) */
    volatile long unit;           /* the unit in progress, -1 between units */
    volatile long resume;         /* a new worker skips the units before this one */
    volatile long last_done;      /* the last unit finished */
    volatile int fresh;           /* the worker ended itself for a fresh process */
    volatile unsigned long workers; /* started after the first: deaths, fresh starts */
    volatile long line;           /* the unit: its corpus line, */
    volatile int file, target;    /* file index and target index, */
    volatile size_t text_len;
    char text[CONFORM_TEXT_MAX];  /* and the corpus line's text */
};

/* The shared state, mapped by conform_isolate_init() (also when the run is
 * not isolated: the counters live there). */
extern struct conform_shared *conform_sh;
int conform_isolate_init(void);

/* The one clock (scn_now_ns, core/supervise): CLOCK_MONOTONIC in ns, never 0. */
uint64_t conform_now_ns(void);

/* How a worker's death is reported: the oracle ("crash", "hang"), the class
 * ("memory-safety" for SIGSEGV/SIGBUS, "crash", "hang") and a sentence. */
typedef void (*conform_death_fn)(const char *oracle, const char *klass, const char *detail);

/* Runs body() in supervised workers until one finishes it. A call of a
 * target that does not return within call_limit seconds (the call watch), or
 * a worker that dies in a unit, is reported through on_death for the unit in
 * progress (conform_sh), and a new worker goes on after it. A worker that
 * dies between units is a fault of scn-conform itself: exit 3. */
void conform_isolate_run(void (*body)(void), conform_death_fn on_death, double call_limit);

/* In the worker, around each unit: begin publishes it (and returns 0 when
 * an earlier worker did it: skip it), counts a case when first_of_case, and
 * watches the target's calls when watch (not for the executor target, which
 * has its own time limit); end flushes what the unit printed and marks that
 * no unit is in progress. When the unit caught a fault of the target (the
 * oracles' SIGSEGV catcher), its wild accesses may have damaged this
 * process elsewhere: end ends the worker, and the supervisor starts a fresh
 * one at the next unit. */
int conform_unit_begin(long unit, int file, long line, int target, const char *text, size_t len, int watch,
                       int first_of_case);
void conform_unit_end(void);

/* The root cause of a death of target t on c (oracle "crash" or "hang"):
 * reduced while a child that checks the candidate (scn_exec_check_case with
 * flags, in context x) still dies, or still stalls a call for 1 s, and
 * signed. The supervisor never calls t itself. */
void conform_isolate_rootcause(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                               const struct scn_target *t, unsigned flags, const char *oracle,
                               const char *klass, struct scn_rootcause *rc);

#endif /* SCN_CONFORM_ISOLATE_H */
