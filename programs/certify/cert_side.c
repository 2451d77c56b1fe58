/* scn-certify: side effects of a case: output on stdout or stderr, a child
 * process the function left behind. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cert_state.h"
#include "finding.h"

/* ------------------------------------------------------------ side effects */

/* What the function wrote to stdout or stderr: both are regular files
 * (set up by the supervisor), so their size tells. */
static off_t out_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) ? 0 : st.st_size;
}

void cert_mark_outputs(struct cert_outs_mark *m)
{
    fflush(stdout);
    fflush(stderr);
    m->o[1] = out_size(1);
    m->o[2] = out_size(2);
}
/* 1 or 2: the descriptor written since the mark, else 0 */
int cert_written_since(const struct cert_outs_mark *m)
{
    fflush(stdout);
    fflush(stderr);
    if (out_size(1) > m->o[1]) return 1;
    if (out_size(2) > m->o[2]) return 2;
    return 0;
}

static int side_pred(struct scn_case *cand, void *vctx)
{
    int fd = *(const int *)vctx;
    struct cert_outs_mark m;
    cert_mark_outputs(&m);
    static struct scn_report r;
    cert_check(&cert_lctx, cand, cert_fam_flags | SCN_CHECK_NO_REPEAT, &r);
    return cert_written_since(&m) == fd;
}

const struct scn_rootcause *cert_side_rootcause(struct scn_case *c, int fd)
{
    const char *oracle = fd == 1 ? "writes-stdout" : "writes-stderr";
    char conv[8], fclass[16], key[96];
    scn_case_localise(c, cert_dialect, side_pred, &fd, conv, fclass);
    snprintf(key, sizeof key, "%s:%s:%s", oracle, conv, fclass);
    const struct scn_rootcause *known = cert_memo_get(key);
    if (known) return known;
    static struct scn_rootcause rc;
    cert_sign_reduced(c, oracle, "invariant", side_pred, &fd, &rc);
    return cert_memo_put(key, &rc);
}

void cert_side_detail(int fd, const struct cert_outs_mark *m, char *out, size_t cap)
{
    char got[129], q[600];
    ssize_t n = pread(fd, got, sizeof got - 1, m->o[fd]);
    if (n < 0) n = 0;
    scn_quoted_format(got, (size_t)n, q, sizeof q);
    snprintf(out, cap, "the function wrote %lld byte(s) to %s during the case: %s%s",
             (long long)(out_size(fd) - m->o[fd]), fd == 1 ? "stdout" : "stderr", q, n == 128 ? "..." : "");
}

/* A child process the function created: a fork left running (or exited and
 * never waited for). The supervisor kills it and names the case. */
void cert_check_children(void)
{
    int st;
    pid_t p = waitpid(-1, &st, WNOHANG | __WALL);
    if (p >= 0) {
        cert_sh->fork_seen = p == 0 ? 1 : 2;
        _exit(EXIT_FORK);
    }
}
