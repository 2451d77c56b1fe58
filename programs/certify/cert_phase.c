/* scn-certify: one phase run to its end: workers restarted after each fatal
 * case, the fault budget, the end record. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "cert_state.h"

#define MAX_DEATHS 200       /* fatal cases in one phase before it stops (each costs a new process) */

static double fault_seconds;

/* fuzz: the inputs libFuzzer kept in the campaign's corpus directory */
static long long corpus_size(void)
{
    DIR *d = cert_fuzz_corpus ? opendir(cert_fuzz_corpus) : NULL;
    long long n = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
} /* spent on fatal cases: their timeouts and reductions */

/* Runs one phase to its end: workers restarted after each fatal case. */
int cert_run_phase(void (*body)(void *), long planned, uint64_t deadline, int fuzz)
{
    uint64_t t0 = cert_now_ns();
    long deaths = 0, restarts = 0;
    const char *stop = NULL;
    char stopped_case[CASE_TEXT_MAX > 2000 ? 2000 : CASE_TEXT_MAX] = "";
    cert_sh->next = 0;
    for (;;) {
        struct scn_sup_child worker;
        cert_start_child(&worker, body, NULL, 0);
        struct cert_outcome o;
        cert_supervise(&worker, fuzz ? deadline + (uint64_t)30e9 : deadline, 1.0, &o);
        if (o.ev == EV_DONE) break;
        if (o.ev == EV_RESTART) {
            restarts++;
            continue;
        }
        if (o.ev == EV_DEADLINE || o.ev == EV_STOPPED) {
            stop = o.ev == EV_STOPPED ? "stopped by a signal (SIGTERM)"
                   : fuzz ? "the worker did not end within 30 s of the phase's time (a reduction too long?)"
                          : "the phase limit (--phase-limit) was reached";
            snprintf(stopped_case, sizeof stopped_case, "%s", cert_sh->case_text);
            break;
        }
        /* a fatal case: a finding on it, then the next case */
        if (!cert_sh->case_set) {
            stop = "the worker died before it ran a case (a set-up failure)";
            snprintf(stopped_case, sizeof stopped_case, "%s", o.detail);
            break;
        }
        deaths++;
        long index = fuzz ? -1 : cert_sh->index;
        uint64_t case_t0 = cert_sh->case_t0; /* the probes of the reduction publish their own cases */
        snprintf(stopped_case, sizeof stopped_case, "%s", cert_sh->case_text);
        cert_death_record(&o, index, fuzz ? ((double)deadline - (double)cert_now_ns()) / 1e9 + REDUCE_SECONDS
                                     : cert_opt_fault_budget - fault_seconds);
        /* what the fatal case cost, from its start to its record: the wait
         * for a timeout, the sanitizer's report, the reduction */
        fault_seconds += (double)(cert_now_ns() - case_t0) / 1e9;
        if (!fuzz) cert_sh->next = index + 1;
        if (!fuzz && (fault_seconds > cert_opt_fault_budget || deaths >= MAX_DEATHS)) {
            stop = deaths >= MAX_DEATHS ? "too many fatal cases (200)"
                                        : "the fault budget (--fault-budget) is spent: fatal cases cost too much time";
            break;
        }
    }
    long run = fuzz ? (long)cert_sh->execs : (stop ? cert_sh->next : planned);
    struct scn_jbuf *b = cert_line();
    scn_jbuf_str(b, "\"end\":{");
    scn_json_str(b, "phase", cert_phase);
    scn_json_raw(b, "complete", stop ? "false" : "true", stop ? 5 : 4);
    if (stop) {
        scn_json_str(b, "reason", stop);
        scn_json_str(b, "case", stopped_case);
    }
    scn_json_num(b, "planned", planned);
    scn_json_num(b, "run", run);
    scn_json_num(b, "deaths", deaths);
    scn_json_num(b, "restarts", restarts);
    scn_json_dbl(b, "fault_seconds", fault_seconds);
    scn_json_dbl(b, "seconds", (double)(cert_now_ns() - t0) / 1e9);
    if (fuzz) {
        scn_json_num(b, "executions", (long long)cert_sh->execs);
        if (cert_fuzz_profile) scn_json_num(b, "outside_profile", (long long)cert_sh->outside_profile);
        scn_json_num(b, "coverage_edges", (long long)cert_sh->cov_hit);
        scn_json_num(b, "coverage_total", (long long)cert_cov_total);
        scn_json_num(b, "corpus", corpus_size());
        scn_json_num(b, "findings", (long long)cert_sh->n_findings);
        scn_json_num(b, "bugs", (long long)cert_sh->n_bug);
        scn_json_num(b, "implementation_defined", (long long)cert_sh->n_impl);
    }
    scn_jbuf_str(b, "}");
    cert_send();
    return 0;
}
