/* The fuzzers' configurations, read from the one list of fuzzers
 * (fuzz/fuzzers.tsv, embedded at build time): shared by the libFuzzer/AFL++
 * harnesses and scn-replay, so that a reproducer replays exactly as it was
 * fuzzed. The row named fuzz_<config> defines the configuration <config>;
 * the columns and settings are documented at the top of fuzzers.tsv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_core.h"
#include "fuzzers_tsv.h" /* scn_fuzzers_tsv[] */

/* the configuration's name outlives the table's copy it was read from */
static const char *intern(const char *s)
{
    static char names[8][32];
    static int n;
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return names[i];
    if (n == 8) return "fuzzer";
    snprintf(names[n], sizeof names[n], "%s", s);
    return names[n++];
}

/* Two names are stand-ins: "planted" is the planted bug (env SCN_PLANTED),
 * "matrix" the implementation env SCN_MATRIX_TARGET names (any group: the
 * matrix's vendored printfs are not in the core list), so one fuzzer,
 * fuzz_matrix, serves every implementation of `scnfuzz matrix`. Unset or
 * unknown: no target, as for one not built here (the differential then has
 * the reference alone; scnfuzz matrix checks the name before it starts). */
static const struct scn_target *target_named(const char *name)
{
    if (!strcmp(name, "planted")) return fz_planted_target();
    if (!strcmp(name, "matrix")) {
        const char *which = getenv("SCN_MATRIX_TARGET");
        return which && *which ? scn_target_find(which) : NULL;
    }
    return scn_target_find(name);
}

static int bad(const char *fuzzer, const char *what, const char *word)
{
    fprintf(stderr, "scnfuzz: fuzz/fuzzers.tsv, %s: %s \"%s\"\n", fuzzer, what, word);
    return -1;
}

static int set_targets(struct fz_config *cfg, char *list)
{
    if (!strcmp(list, "-")) return 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const struct scn_target *tg = target_named(t);
        if (tg) fz_add_target(cfg, tg->dialect, tg); /* not built here: left out */
    }
    return 0;
}

static int set_skip(struct fz_config *cfg, char *list)
{
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
        for (int d = 0; d < 2; d++)
            for (size_t i = 0; i < cfg->ntargets[d]; i++)
                if (!strcmp(cfg->targets[d][i]->name, t)) cfg->sampled_skip[d] |= 1u << i;
    return 0;
}

static int set_settings(struct fz_config *cfg, char *words)
{
    if (!strcmp(words, "-")) return 0;
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *val = strchr(w, '=');
        if (val) *val++ = '\0';
        if (!strcmp(w, "differential") && !val) cfg->differential = 1;
        else if (!strcmp(w, "c23") && !val) cfg->allow_c23 = 1;
        else if (!strcmp(w, "no_robust") && !val) cfg->no_robust = 1;
        else if (!strcmp(w, "no_repeat") && !val) cfg->no_repeat = 1;
        else if (!strcmp(w, "no_scn") && !val) cfg->no_scn = 1;
        else if (!strcmp(w, "oracle_every") && val && *val && strspn(val, "0123456789") == strlen(val))
            cfg->oracle_every = (unsigned)strtoul(val, NULL, 10);
        else if (!strcmp(w, "sampled_skip") && val) set_skip(cfg, val);
        else if (!strcmp(w, "decode") && val && !strcmp(val, "short_ld")) cfg->decode_flags |= SCN_DECODE_SHORT_LD;
        else if (!strcmp(w, "decode") && val && !strcmp(val, "no_wide")) cfg->decode_flags |= SCN_DECODE_NO_WIDE;
        else if (!strcmp(w, "decode") && val && !strcmp(val, "kptr")) cfg->decode_flags |= SCN_DECODE_KPTR;
        else if (!strcmp(w, "decode") && val && !strcmp(val, "round")) cfg->decode_flags |= SCN_DECODE_ROUND;
        else return bad(cfg->name, "unknown setting", w);
    }
    return 0;
}

int fz_config_by_name(const char *name, struct fz_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    /* a copy of the table: strtok_r splits it in place */
    char *text = strdup((const char *)scn_fuzzers_tsv);
    if (!text) return -1;
    int rc = -1;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (*line == '#' || strncmp(line, "fuzz_", 5)) continue;
        char *col[7];
        int n = 0;
        for (char *p = line; n < 7; n++) {
            col[n] = p;
            p = strchr(p, '\t');
            if (!p) { n++; break; }
            *p++ = '\0';
        }
        if (n != 7) {
            rc = bad(line, "not 7 tab-separated columns", line);
            break;
        }
        if (strcmp(col[0] + 5, name) || strcmp(col[1], name)) continue;
        cfg->name = intern(name);
        if (!strcmp(col[3], "*")) cfg->mode = FZ_FROM_INPUT;
        else if (!strcmp(col[3], "iso")) cfg->mode = FZ_FIXED_ISO;
        else if (!strcmp(col[3], "kernel")) cfg->mode = FZ_FIXED_KERNEL;
        else {
            rc = bad(col[0], "unknown dialect", col[3]);
            break;
        }
        rc = set_targets(cfg, col[2]) || set_settings(cfg, col[5]) ? -1 : 0;
        break;
    }
    free(text);
    return rc;
}
