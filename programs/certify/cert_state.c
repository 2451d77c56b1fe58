/* scn-certify: the state the supervisor and its workers share, the clock
 * (the one of core/supervise),
 * the per-case limits, and the coverage of the vendored code. */
#define _GNU_SOURCE
#include <stdint.h>

#include "cert_state.h"

/* ------------------------------------------------------------ shared state */

struct cert_shared *cert_sh;
int cert_proto_fd = -1;
pid_t cert_supervisor_pid;
double cert_opt_call_limit = 1.0, cert_opt_fault_budget = 30.0;
const char *cert_opt_allow_as, *cert_opt_categories, *cert_opt_sanlog;
const char *cert_phase = "start";

uint64_t cert_now_ns(void) { return scn_now_ns(); }

/* Limits of the calls of one case, proportional to its output length:
 * 1 s (--call-limit) + 1 s per MB per call; 512 MB + 64 bytes per output
 * byte of resident memory above what the worker had at its start. */
void cert_set_limits(size_t out_len)
{
    cert_sh->call_limit = (uint64_t)(cert_opt_call_limit * 1e9) + (uint64_t)out_len * 1000u;
    cert_sh->mem_limit = ((uint64_t)512 << 20) + (uint64_t)out_len * 64u;
}

/* ------------------------------------------------------------ coverage */

uint32_t cert_cov_total;
int cert_cov_on; /* only the fuzz worker's executions feed the corpus */
int cert_cov_new;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start) return;
    for (uint32_t *x = start; x < stop; x++) *x = ++cert_cov_total;
}
/* The guard holds the edge's index until its first hit in this process;
 * the shared map says whether any worker of the campaign reached it. */
void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    uint32_t i = *guard;
    if (!i) return;
    *guard = 0;
    if (!cert_cov_on || !cert_sh || cert_sh->cov[i]) return;
    cert_sh->cov[i] = 1;
    cert_sh->cov_hit++;
    cert_cov_new = 1;
}
