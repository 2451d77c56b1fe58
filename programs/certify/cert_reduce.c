/* scn-certify: a fatal case as a finding: reduced by running candidates in
 * fresh probes, keyed so that one root cause is reduced once. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cert_state.h"
#include "spec.h"

/* ---- reducing a fatal case: each candidate in a fresh probe */

struct death_still {
    const struct cert_outcome *want;
    uint64_t until;
    unsigned probes;
};

static void probe_body(void *arg)
{
    struct scn_case *c = arg;
    cert_publish_case(-1, NULL, c);
    cert_set_limits(cert_ref_len(c));
    struct scn_report r;
    cert_check(&cert_ctx, c, SCN_CHECK_ALL_SIZES | cert_fam_flags | SCN_CHECK_NO_REPEAT, &r);
    static unsigned char out[BIG];
    long long n[SCN_CASE_MAX_ARGS];
    size_t len, nn;
    int faulted;
    cert_own_output(c, out, &len, n, &nn, &faulted);
    cert_check_children();
}

static int death_still(struct scn_case *cand, void *vctx)
{
    struct death_still *k = vctx;
    if (cert_now_ns() >= k->until || cert_stop_requested) return 0; /* out of time: keep what is reduced so far */
    k->probes++;
    struct scn_sup_child probe;
    cert_start_child(&probe, probe_body, cand, 1);
    struct cert_outcome o;
    /* a candidate that still hangs is told in 0.15 of the call limit: the
     * others end in milliseconds */
    cert_supervise(&probe, k->until, k->want->ev == EV_TIMEOUT ? 0.15 : 1.0, &o);
    return o.ev == k->want->ev && o.code == k->want->code && !strcmp(o.kind, k->want->kind);
}

/* The pre-key of a fatal case: how it died and the conversions of its
 * format ("exit 0|o"). The first case of a pre-key is reduced (in probes);
 * later ones are hits of the same root cause, as the fuzzers count them. */
static void death_key(const struct cert_outcome *o, const struct scn_case *c, char *key, size_t cap)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, cert_dialect, sp, SCN_MAX_SPECS), k = 0;
    char convs[64] = "";
    for (size_t i = 0; i < n && k + 2 < sizeof convs; i++)
        if (!strchr(convs, sp[i].conv ? sp[i].conv : '!')) convs[k++] = sp[i].conv ? sp[i].conv : '!';
    convs[k] = 0;
    snprintf(key, cap, "%s|%s|%s", o->oracle, o->kind, convs);
}

void cert_death_record(const struct cert_outcome *o, long index, double budget_left)
{
    static struct scn_case c;
    static struct scn_rootcause rc;
    char err[200], key[200];
    if (scn_case_parse(cert_sh->case_text, strlen(cert_sh->case_text), &c, err, sizeof err)) {
        cert_send_error("the case being run could not be read back");
        return;
    }
    death_key(o, &c, key, sizeof key);
    const struct scn_rootcause *known = cert_memo_get(key);
    if (known) {
        memcpy(&rc, known, sizeof rc);
    } else {
        uint64_t t0 = cert_now_ns();
        double secs = budget_left < REDUCE_SECONDS ? budget_left : REDUCE_SECONDS;
        struct death_still k = { o, t0 + (uint64_t)(secs > 0 ? secs * 1e9 : 0), 0 };
        cert_sign_reduced(&c, o->oracle, o->klass, secs > 0.5 ? death_still : NULL, &k, &rc);
        cert_memo_put(key, &rc);
    }
    char detail[1200];
    snprintf(detail, sizeof detail, "%s (phase %s)", o->detail, cert_phase);
    size_t n;
    const char *text = cert_case_text(&c, &n);
    struct scn_result r = scn_result_new(text, n, "fail", o->oracle);
    r.phase = cert_phase;
    r.index = index;
    static struct scn_corpus_entry e;
    if (index >= 0 && cert_plan && !strcmp(cert_phase, "conform")) {
        cert_parse_plan(index, &e);
        r.target = scn_cert_name;
        r.category = e.category;
        r.kind = e.kind;
        r.file = cert_plan[index].file;
        r.line = cert_plan[index].line;
        r.citation = e.citation;
    }
    r.klass = o->klass;
    r.detail = detail;
    r.size = (long)o->size;
    r.fatal = 1;
    r.signature = rc.signature;
    r.finding = cert_record(o->oracle, &rc, &c, detail, (long)o->size, 1, 1, &r.finding_len);
    cert_send_result(&r);
}
