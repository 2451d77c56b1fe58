/* scn-certify: phase retval: the return-value suite of the kind. */
#define _GNU_SOURCE
#include <string.h>

#include "cert_state.h"

/* ------------------------------------------------------------ retval */

static const char *const rv_fmts[] = { "%s", "%s|", "%-*s|", "%*s", "%d", "%x%s", "%.3s%s" };
#define RV_LENS 27 /* 0..19, then 20..62 by 7 */

long cert_retval_count(void) { return (long)(sizeof rv_fmts / sizeof rv_fmts[0]) * RV_LENS; }

static void retval_build(long i, struct scn_case *c)
{
    const char *f = rv_fmts[i / RV_LENS];
    int j = (int)(i % RV_LENS), L = j < 20 ? j : 20 + 7 * (j - 20);
    char s[80];
    for (int k = 0; k < L; k++) s[k] = (char)('a' + k % 26);
    s[L] = 0;
    scn_case_init(c, f, strlen(f));
    if (!strcmp(f, "%-*s|") || !strcmp(f, "%*s")) {
        scn_case_add_int(c, SCN_ARG_INT, L);
        scn_case_add_str(c, "ab", 2);
    } else if (!strcmp(f, "%d")) {
        scn_case_add_int(c, SCN_ARG_INT, -(long long)L * 1234567);
    } else if (!strcmp(f, "%x%s")) {
        scn_case_add_uint(c, SCN_ARG_UINT, (unsigned long long)L * 0x1111u);
        scn_case_add_str(c, s, (size_t)L);
    } else {
        scn_case_add_str(c, s, (size_t)L);
        if (!strcmp(f, "%.3s%s")) scn_case_add_str(c, s, (size_t)L);
    }
}

static void retval_case(long i)
{
    static struct scn_case c;
    retval_build(i, &c);
    cert_publish_case(i, "retval", &c);
    cert_set_limits(cert_ref_len(&c));
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    unsigned flags = SCN_CHECK_ALL_SIZES | cert_fam_flags;
    struct scn_report r;
    size_t nf = cert_check(&cert_ctx, &c, flags, &r);
    static struct scn_finding f;
    int have_f = nf && strcmp(r.first.oracle, "full-too-long");
    if (have_f) f = r.first;
    cert_check_children();
    int fd = cert_written_since(&m);
    char side[400] = "";
    size_t n;
    const char *text = cert_case_text(&c, &n);
    struct scn_result res = scn_result_new(text, n, "pass", NULL);
    res.phase = "retval";
    res.index = i;
    const struct scn_rootcause *rc = NULL;
    if (fd) {
        cert_side_detail(fd, &m, side, sizeof side);
        res.oracle = fd == 1 ? "writes-stdout" : "writes-stderr";
        res.klass = "invariant";
        res.detail = side;
        rc = cert_side_rootcause(&c, fd);
        res.finding = cert_record(res.oracle, rc, &c, side, 0, 0, 2, &res.finding_len);
    } else if (have_f) {
        rc = cert_oracle_rootcause(&c, &f, flags);
        res.oracle = f.oracle;
        res.f = &f;
        res.finding = cert_record(f.oracle, rc, &c, f.detail, (long)f.size, 1, 2, &res.finding_len);
    }
    if (rc) {
        res.status = "fail";
        res.signature = rc->signature;
    }
    cert_send_result(&res);
    cert_check_children();
    if (have_f && cert_fault_oracle(f.oracle)) cert_after_fault(f.oracle, i + 1);
}

void cert_retval_body(void *arg)
{
    (void)arg;
    long n = cert_retval_count();
    for (long i = cert_sh->next; i < n; i++) {
        retval_case(i);
        cert_sh->next = i + 1;
        cert_sh->case_set = 0; /* a death from here on is not this case's */
    }
}
