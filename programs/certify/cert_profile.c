/* scn-certify: --profile FILE, the format features a campaign's cases may
 * use (`./scnfuzz certify --profile`: the features of a project's call
 * sites, found by `./scnfuzz scan`). A decoded input that uses any other is
 * not run: the campaign draws only the profile's features, their values,
 * sizes and widths still free.
 *
 * The names are those of `scn-conform --features`' "syntax", by the same
 * code (scn_spec_features, programs/result_line.c), through the same
 * specification scanner in the ISO dialect, as `scan` names a call site's:
 * "%d" per conversion ("%%" too), "length ll" as written, "positional", "flag -" per flag of "-+ #0",
 * "width *", "precision *"; in the kernel dialect also "%pM" for a %p
 * followed by letters or digits (lib/vsprintf.c pointer() reads them all). */
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

static int admitted(const char *name, void *ctx)
{
    (void)ctx;
    return in_profile(name);
}

int cert_profile_admits(const struct scn_case *c)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    if (!cert_fuzz_profile) return 1;
    size_t n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    unsigned how = SCN_FEATURES_SYNTAX | (cert_dialect == SCN_DIALECT_KERNEL ? SCN_FEATURES_POINTER_EXT : 0);
    for (size_t i = 0; i < n; i++)
        if (!scn_spec_features(c, &sp[i], how, admitted, NULL)) return 0;
    return 1;
}
