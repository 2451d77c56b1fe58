/* scn-certify: phase fuzz: a coverage-guided differential campaign against
 * the reference of the dialect. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_state.h"
#include "differential.h"
#include "step.h"

/* ------------------------------------------------------------ fuzz */

static uint64_t rnd(void)
{
    cert_sh->rng ^= cert_sh->rng << 13;
    cert_sh->rng ^= cert_sh->rng >> 7;
    cert_sh->rng ^= cert_sh->rng << 17;
    return cert_sh->rng;
}

static void fuzz_finding(const char *oracle, const struct scn_rootcause *rc, const struct scn_case *c,
                         const char *detail, long size, int with_size)
{
    cert_sh->n_findings++;
    if (rc->rule || !strcmp(rc->klass, "implementation-defined")) cert_sh->n_impl++;
    else cert_sh->n_bug++;
    cert_begin();
    cert_jstr("phase", "fuzz");
    cert_jstr("oracle", oracle);
    cert_jstr("class", rc->klass);
    cert_jcase("case", c);
    cert_jstr("signature", rc->signature);
    cert_jnum("execs", (long long)cert_sh->execs);
    cert_jrecord(oracle, rc, c, detail, size, with_size, 2);
    cert_send();
}

/* The differential names the function by the target whose rules apply
 * ("between ref and glibc"): the detail says which function it is. */
static void own_detail(const char *d, char *out, size_t cap)
{
    const char *as = cert_view.name;
    size_t n = strlen(as);
    const char *p = d;
    while ((p = strstr(p, as)) && !((p == d || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0 || p[n] == ':')))
        p += n;
    if (!p || as == scn_cert_name) {
        snprintf(out, cap, "%s", d);
        return;
    }
    snprintf(out, cap, "%.*s%s (rules of %s)%s", (int)(p - d), d, scn_cert_name, as, p + n);
}

/* scn kinds, when the reference fails: the function must return 0 and "" */
static int err_pred(struct scn_case *cand, void *vctx)
{
    (void)vctx;
    static char *b;
    if (!b && !(b = malloc(BIG))) abort();
    if (scn_case_call(cert_ref->vsnprintf, cand, b, BIG) >= 0) return 0;
    int faulted, ret = 0, in_guard;
    char *buf;
    faulted = scn_oracle_call(&cert_lctx, &cert_target, SCN_FAM_SCN, cand, BIG, 0, &ret, &buf, &in_guard);
    cert_sh->in_call = 0;
    return !faulted && (ret != 0 || buf[0] != 0);
}

static void fuzz_checks(struct scn_case *c)
{
    static unsigned char a[BIG], b[BIG];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    size_t la = 0, lb = 0, nna, nnb = 0;
    /* the reference first: its output length sets the limits */
    int ra = 0, in_guard = 0;
    char *buf;
    if (scn_oracle_call(&cert_ctx, cert_ref, SCN_FAM_C99, c, BIG, 0, &ra, &buf, &in_guard)) return;
    if (ra >= 0) {
        la = (size_t)ra < BIG ? (size_t)ra : strnlen(buf, BIG);
        memcpy(a, buf, la);
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    nna = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nna; i++) na[i] = scn_case_n_value(c, idx[i]);
    cert_set_limits(la);
    unsigned flags = cert_fam_flags | SCN_CHECK_NO_REPEAT;
    struct scn_report r;
    size_t nf = cert_check(&cert_ctx, c, flags, &r);
    if (nf && strcmp(r.first.oracle, "full-too-long")) {
        static struct scn_finding f;
        f = r.first;
        char conv[8], fclass[16], key[160];
        struct cert_oracle_loc l = { flags, f.oracle };
        scn_case_localise(c, cert_dialect, cert_oracle_pred, &l, conv, fclass);
        snprintf(key, sizeof key, "%s:%s:%s:%s", f.oracle, conv, fclass, scn_family_name(f.family));
        if (cert_seen_first(key)) {
            const struct scn_rootcause *rc = cert_oracle_rootcause(c, &f, flags);
            fuzz_finding(f.oracle, rc, c, f.detail, (long)f.size, 1);
        }
        if (cert_fault_oracle(f.oracle)) cert_after_fault(f.oracle, -1);
        return;
    }
    int faulted = 0;
    int rb = cert_own_output(c, b, &lb, nb, &nnb, &faulted);
    if (faulted) cert_restart_worker();
    static struct scn_rootcause rc;
    if (cert_is_scn && ra < 0) {
        if ((rb != 0 || lb != 0) && cert_seen_first("differential:error-ret")) {
            char d[200];
            snprintf(d, sizeof d, "the reference fails (ret %d): a scnprintf must return 0 and \"\", got %d", ra, rb);
            cert_sign_reduced(c, SCN_DIFF_ORACLE, "divergence", err_pred, NULL, &rc);
            cert_own_names(&rc, SCN_DIFF_ORACLE, 1);
            fuzz_finding(SCN_DIFF_ORACLE, &rc, c, d, 0, 0);
        }
        return;
    }
    struct scn_diff_out outs[2] = {
        { cert_ref, ra, a, la, nna, na },
        { &cert_view, rb, b, lb, nnb, nb },
    };
    struct scn_diff_finding df;
    const struct scn_step step = { cert_dialect, &cert_lctx, cert_seen_first };
    int fresh;
    scn_step_diff(&step, c, outs, 2, &df, &rc, NULL, &fresh);
    if (!fresh) return;
    cert_own_names(&rc, SCN_DIFF_ORACLE, 1);
    char detail[sizeof df.detail + 160];
    own_detail(df.detail, detail, sizeof detail);
    fuzz_finding(SCN_DIFF_ORACLE, &rc, c, detail, 0, 0);
}

/* One input: its checks, then what they left behind (a child process,
 * output on stdout/stderr), which is a finding on this case. */
static void fuzz_one(struct scn_case *c)
{
    cert_publish_case(-1, NULL, c);
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    fuzz_checks(c);
    cert_check_children();
    int fd = cert_written_since(&m);
    if (fd) {
        const char *o = fd == 1 ? "writes-stdout" : "writes-stderr";
        char side[400];
        cert_side_detail(fd, &m, side, sizeof side);
        const struct scn_rootcause *rc = cert_side_rootcause(c, fd);
        if (cert_seen_first(rc->signature)) fuzz_finding(o, rc, c, side, 0, 0);
    }
}

static void mutate(uint8_t *d, size_t *n)
{
    int k = 1 + (int)(rnd() % 4);
    while (k--) {
        switch (rnd() % 5) {
        case 0: if (*n) d[rnd() % *n] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: if (*n) d[rnd() % *n] = (uint8_t)rnd(); break;
        case 2: if (*n < MAXIN) { size_t p = rnd() % (*n + 1); memmove(d + p + 1, d + p, *n - p); d[p] = (uint8_t)rnd(); (*n)++; } break;
        case 3: if (*n > 1) { size_t p = rnd() % *n; memmove(d + p, d + p + 1, *n - p - 1); (*n)--; } break;
        case 4: if (cert_sh->ncorp) { size_t o = rnd() % cert_sh->ncorp, p = rnd() % (*n + 1), q = rnd() % (cert_sh->corp_len[o] + 1);
                    size_t m = cert_sh->corp_len[o] - q; if (p + m > MAXIN) m = MAXIN - p; memcpy(d + p, cert_sh->corp[o] + q, m);
                    if (p + m > *n) *n = p + m; } break;
        }
    }
}

unsigned cert_fuzz_decode_flags;

static void fuzz_body(void)
{
    static struct scn_case c;
    uint8_t in[MAXIN];
    cert_cov_on = 1;
    while (cert_now_ns() < cert_sh->deadline) {
        size_t n;
        if (cert_sh->ncorp && rnd() % 8) {
            size_t o = rnd() % cert_sh->ncorp;
            n = cert_sh->corp_len[o];
            memcpy(in, cert_sh->corp[o], n);
            mutate(in, &n);
        } else {
            n = 1 + rnd() % 96;
            for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        }
        scn_case_from_bytes(in, n, &c, cert_dialect, cert_fuzz_decode_flags);
        cert_cov_new = 0;
        cert_sh->execs++; /* counted before it runs: a case that kills the worker was executed */
        fuzz_one(&c);
        if (cert_cov_new && cert_sh->ncorp < MAXCORP) {
            memcpy(cert_sh->corp[cert_sh->ncorp], in, n);
            cert_sh->corp_len[cert_sh->ncorp++] = n;
        }
    }
}

void cert_fuzz_body_arg(void *arg)
{
    (void)arg;
    fuzz_body();
}
