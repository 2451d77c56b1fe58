/* scn-certify: --profile FILE, the format features a campaign's cases may
 * use (`./scnfuzz certify --profile`: the features of a project's call
 * sites, found by `./scnfuzz scan`). A decoded input that uses any other is
 * not run: the campaign draws only the profile's features, their values,
 * sizes and widths still free.
 *
 * The names are those of `scn-conform --features`' "syntax" (scn_conform.c
 * features_json), through the same specification scanner in the ISO
 * dialect, as `scan` names a call site's: "%d" per conversion ("%%" too),
 * "length ll" as written, "positional", "flag -" per flag of "-+ #0",
 * "width *", "precision *"; in the kernel dialect also "%pM" for a %p
 * followed by letters or digits (lib/vsprintf.c pointer() reads them all). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_state.h"
#include "spec.h"

#define PROFILE_MAX 512

const char *cert_fuzz_profile;
static char *names[PROFILE_MAX];
static size_t n_names;

int cert_profile_load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[128];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line) continue;
        if (n_names == PROFILE_MAX || !(names[n_names] = strdup(line))) {
            fclose(f);
            return -1;
        }
        n_names++;
    }
    fclose(f);
    return 0;
}

static int in_profile(const char *name)
{
    for (size_t i = 0; i < n_names; i++)
        if (!strcmp(names[i], name)) return 1;
    return 0;
}

/* The features of one specification, each checked against the profile. */
static int spec_admitted(const struct scn_case *c, const struct scn_spec *s)
{
    char f[40];
    int letter = isalpha((unsigned char)s->conv);
    if (!letter && s->conv != '%') return 1;
    snprintf(f, sizeof f, "%%%c", s->conv);
    if (!in_profile(f)) return 0;
    if (s->len[0]) {
        snprintf(f, sizeof f, "length %s", s->len);
        if (!in_profile(f)) return 0;
    }
    if (s->pos && !in_profile("positional")) return 0;
    char fc[16];
    scn_spec_flags_class(s, fc, sizeof fc);
    for (const char *p = fc; *p && strchr("-+ #0", *p); p++) {
        snprintf(f, sizeof f, "flag %c", *p);
        if (!in_profile(f)) return 0;
    }
    if (s->width == SCN_SPEC_STAR && !in_profile("width *")) return 0;
    if (s->prec == SCN_SPEC_STAR && !in_profile("precision *")) return 0;
    if (s->conv == 'p' && cert_dialect == SCN_DIALECT_KERNEL) {
        size_t e = s->end, k = 0;
        while (e + k < c->fmt_len && k < 30 && isalnum((unsigned char)c->fmt[e + k])) k++;
        if (k) {
            snprintf(f, sizeof f, "%%p%.*s", (int)k, c->fmt + e);
            if (!in_profile(f)) return 0;
        }
    }
    return 1;
}

int cert_profile_admits(const struct scn_case *c)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    if (!cert_fuzz_profile) return 1;
    size_t n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    for (size_t i = 0; i < n; i++)
        if (!spec_admitted(c, &sp[i])) return 0;
    return 1;
}
