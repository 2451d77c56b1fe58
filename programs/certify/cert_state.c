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
int cert_cov_on; /* only the fuzz worker's executions count */

/* The vendored code is compiled with libFuzzer's instrumentation
 * (-fsanitize=fuzzer-no-link): one 8-bit counter per edge, in the section
 * the linker brackets with these symbols (none: no vendored source, only a
 * library). libFuzzer clears the counters before each input. */
extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));

__attribute__((constructor)) static void cov_count(void)
{
    if (__start___sancov_cntrs && __stop___sancov_cntrs > __start___sancov_cntrs)
        cert_cov_total = (uint32_t)(__stop___sancov_cntrs - __start___sancov_cntrs);
}

/* After an input: the edges it reached join the campaign's map in shared
 * memory (which any worker of the campaign reached). */
void cert_cov_collect(void)
{
    if (!cert_cov_on || !cert_sh) return;
    for (uint32_t i = 0; i < cert_cov_total; i++)
        if (__start___sancov_cntrs[i] && !cert_sh->cov[i]) {
            cert_sh->cov[i] = 1;
            cert_sh->cov_hit++;
        }
}
