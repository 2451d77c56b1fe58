/* The check step: see step.h. */
#include "step.h"

#include <stdio.h>
#include <string.h>

#include "spec.h"

static int first_time(const struct scn_step *s, const char *key)
{
    return s->first ? s->first(key) : scn_seen_first(key);
}

void scn_step_oracle_key(const struct scn_step *s, const struct scn_case *c, const struct scn_target *t,
                         unsigned flags, const struct scn_finding *f, char *key, size_t cap)
{
    char conv[8], fclass[16];
    struct scn_oracle_still l = { s->loc, t, flags, f->oracle };
    scn_case_localise(c, s->dialect, scn_oracle_still, &l, conv, fclass);
    snprintf(key, cap, "%s:%s:%s:%s:%s", f->oracle, conv, fclass, t->name, scn_family_name(f->family));
}

int scn_step_oracle(const struct scn_step *s, const struct scn_case *c, const struct scn_target *t, unsigned flags,
                    const struct scn_finding *f, struct scn_rootcause *rc)
{
    char key[192];
    /* f may be in a report the reduction's own checks overwrite: its names
     * are static strings */
    const char *oracle = f->oracle, *klass = f->klass;
    scn_step_oracle_key(s, c, t, flags, f, key, sizeof key);
    if (!first_time(s, key)) return 0;
    scn_rootcause_oracle(c, s->dialect, s->loc, t, flags, oracle, klass, rc);
    return 1;
}

enum scn_diff_verdict scn_step_diff(const struct scn_step *s, struct scn_case *c, const struct scn_diff_out *outs,
                                    size_t nt, struct scn_diff_finding *df, struct scn_rootcause *rc,
                                    struct scn_out_view *ov, int *fresh)
{
    *fresh = 0;
    if (scn_diff_agree(outs, nt)) return SCN_DIFF_AGREE;
    enum scn_diff_verdict v = scn_diff_compare(c, outs, nt, s->dialect, df);
    if (v == SCN_DIFF_AGREE) return v;
    char key[sizeof df->key + 32];
    snprintf(key, sizeof key, "%s:%s", df->key, df->klass);
    if (!first_time(s, key)) return v;
    const struct scn_target *t[SCN_DIFF_MAX_TARGETS];
    if (nt > SCN_DIFF_MAX_TARGETS) nt = SCN_DIFF_MAX_TARGETS;
    for (size_t i = 0; i < nt; i++) t[i] = outs[i].target;
    scn_rootcause_diff(c, s->dialect, t, nt, df, rc);
    if (ov) {
        struct scn_diff_out rd[SCN_DIFF_MAX_TARGETS];
        scn_record_outputs(t, nt, &rc->reduced, ov);
        for (size_t i = 0; i < nt; i++)
            rd[i] = (struct scn_diff_out){ t[i], ov[i].ret, ov[i].bytes, ov[i].ret < 0 ? 0 : ov[i].len, 0, NULL };
        scn_rootcause_repair_pair(rc, rd, nt, s->dialect);
    }
    *fresh = 1;
    return v;
}
