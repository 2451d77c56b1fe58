/* scn-certify: root causes: the memo of known ones (reduced once), the seen
 * set, signing under the function's own name, per-size oracle findings. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "cert_state.h"
#include "finding.h"
#include "step.h"

/* ------------------------------------------------------------ root causes */

/* Known root causes of the phase, by pre-key (the localised finding), so
 * that one bug met by many cases is reduced once. In shared memory: a
 * worker restarted after a fault keeps them (the rules they point to were
 * loaded before the first fork, at the same address in every process). */
#define MEMO_SLOTS 512
struct memo {
    char key[240];
    struct scn_rootcause rc;
};
static struct memo *memo;
static volatile size_t *nmemo;

/* The memo in shared memory, mapped before the first worker. */
int cert_memo_init(void)
{
    memo = mmap(NULL, MEMO_SLOTS * sizeof *memo + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memo == MAP_FAILED) return -1;
    nmemo = (volatile size_t *)(void *)(memo + MEMO_SLOTS);
    return 0;
}

const struct scn_rootcause *cert_memo_get(const char *key)
{
    for (size_t i = 0; i < *nmemo; i++)
        if (!strcmp(memo[i].key, key)) return &memo[i].rc;
    return NULL;
}
const struct scn_rootcause *cert_memo_put(const char *key, const struct scn_rootcause *rc)
{
    if (*nmemo >= MEMO_SLOTS || strlen(key) >= sizeof memo[0].key) return rc; /* full: not remembered */
    struct memo *m = &memo[*nmemo];
    snprintf(m->key, sizeof m->key, "%s", key);
    memcpy(&m->rc, rc, sizeof *rc);
    ++*nmemo; /* published once whole */
    return &m->rc;
}

/* 1 the first time the campaign (every worker) meets key: the one seen set
 * (finding.h) on slots in the shared memory. */
int cert_seen_first(const char *key) { return scn_seen_first_in(cert_sh->seen, SEEN_SLOTS, key); }

/* The pair as the records name it: the function under its own name (not
 * the --allow-as target whose rules apply), re-signed. */
void cert_own_names(struct scn_rootcause *rc, const char *oracle, int pair)
{
    if (pair) {
        int fn_first = strcmp(scn_cert_name, cert_ref->name) < 0;
        snprintf(rc->targets, sizeof rc->targets, "%s~%s", fn_first ? scn_cert_name : cert_ref->name,
                 fn_first ? cert_ref->name : scn_cert_name);
    } else {
        snprintf(rc->targets, sizeof rc->targets, "%s", scn_cert_name);
    }
    scn_rootcause_sign(rc, oracle, cert_dialect);
}

/* Signs c as reduced by pred (rootcause.h's scheme). */
void cert_sign_reduced(const struct scn_case *c, const char *oracle, const char *klass, scn_still_fn pred,
                       void *pctx, struct scn_rootcause *rc)
{
    memcpy(&rc->reduced, c, sizeof *c);
    rc->reduced.nsizes = 0;
    rc->steps = pred ? scn_reduce(&rc->reduced, cert_dialect, pred, pctx, SCN_REDUCE_BUDGET) : 0;
    rc->rule = NULL;
    rc->klass = klass;
    cert_own_names(rc, oracle, 0);
}

/* Per-size oracle findings: the check step's pre-key (oracles/step.h:
 * localised to the first specification that alone fires the same oracle). A
 * fault caught during the localisation skips the end of the call's
 * heartbeat, which is cleared here. */
void cert_oracle_key(const struct scn_case *c, const struct scn_finding *f, unsigned flags, char *key, size_t cap)
{
    const struct scn_step step = { cert_dialect, &cert_lctx, cert_seen_first };
    scn_step_oracle_key(&step, c, &cert_target, flags, f, key, cap);
    cert_sh->in_call = 0;
}

/* The root cause of a per-size oracle finding, reduced once per pre-key
 * (the memo: conform and retval sign every failing case, the campaign only
 * the first of each). Reduced at the failing size besides the edge sizes,
 * not at every size: the same oracle at the same size is what must stay. */
const struct scn_rootcause *cert_oracle_rootcause(struct scn_case *c, const struct scn_finding *f, unsigned flags)
{
    char key[192];
    cert_oracle_key(c, f, flags, key, sizeof key);
    const struct scn_rootcause *known = cert_memo_get(key);
    if (known) return known;
    static struct scn_rootcause rc;
    static struct scn_case work;
    memcpy(&work, c, sizeof work);
    work.nsizes = 1; /* the failing size, besides the edge sizes every check tries */
    work.sizes[0] = f->size;
    scn_rootcause_oracle(&work, cert_dialect, &cert_lctx, &cert_target, flags & ~(unsigned)SCN_CHECK_ALL_SIZES, f->oracle, f->klass,
                         &rc);
    cert_sh->in_call = 0;
    return cert_memo_put(key, &rc);
}
