/* scn-certify: one case in a worker: published for the supervisor, its
 * limits, the function's own output, the oracles' checks, after a fault. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert_state.h"

/* ------------------------------------------------------------ the case */

void cert_publish_case(long index, const char *category, const struct scn_case *c)
{
    cert_sh->case_set = 1;
    cert_sh->case_t0 = cert_now_ns();
    cert_sh->index = index;
    snprintf(cert_sh->category, sizeof cert_sh->category, "%s", category ? category : "");
    scn_case_format(c, cert_sh->case_text, sizeof cert_sh->case_text);
}

/* The function's own output with a big buffer (the C99 view). */
int cert_own_output(struct scn_case *c, unsigned char *out, size_t *len, long long *n, size_t *nn, int *faulted)
{
    int ret = 0, in_guard = 0;
    char *b;
    *faulted = scn_oracle_call(&cert_ctx, &cert_view, SCN_FAM_C99, c, BIG, 0, &ret, &b, &in_guard);
    cert_sh->in_call = 0;
    *len = 0;
    *nn = 0;
    if (*faulted) return -1;
    if (ret >= 0) {
        size_t l = (size_t)ret < BIG ? (size_t)ret : strnlen(b, BIG);
        memcpy(out, b, l);
        *len = l;
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < k; i++) n[i] = scn_case_n_value(c, idx[i]);
    *nn = k;
    return ret;
}

/* The reference's output length of c: the limits of its calls. */
size_t cert_ref_len(struct scn_case *c)
{
    static char *b;
    if (!b && !(b = malloc(BIG))) abort();
    int r = scn_case_call(cert_ref->vsnprintf, c, b, BIG);
    return r < 0 ? 0 : (size_t)r;
}

int cert_fault_oracle(const char *o) { return !strcmp(o, "overrun") || !strcmp(o, "crash"); }

/* A fault the oracles catch (siglongjmp out of the function) skips the end
 * of under_test: the heartbeat must not go on timing a call that is over. */
size_t cert_check(struct scn_oracle_ctx *x, struct scn_case *c, unsigned flags, struct scn_report *r)
{
    size_t n = scn_check_case(x, &cert_target, c, flags, r);
    cert_sh->in_call = 0;
    return n;
}

void cert_restart_worker(void)
{
    cert_sh->in_call = 0;
    cert_sh->restart = 1;
    _exit(EXIT_RESTART);
}

/* After a fault the oracles caught: a wild one ("crash") may have left the
 * function's state broken, so the next case gets a fresh worker. A write
 * into the guard page after the buffer ("overrun") never happened, so the
 * worker goes on (a restart costs a new process, and such a function
 * overruns on most cases); a later fatal case of this worker says so. */
void cert_after_fault(const char *oracle, long next)
{
    if (!strcmp(oracle, "overrun")) {
        if (!cert_sh->tainted[0]) snprintf(cert_sh->tainted, sizeof cert_sh->tainted, "%s", cert_sh->case_text);
        return;
    }
    if (next >= 0) cert_sh->next = next;
    cert_restart_worker();
}
