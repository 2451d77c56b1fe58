/* scn-certify: the function under test as the oracles see it (targets), and
 * the reference of its dialect. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "cert_state.h"
#include "rules.h"

enum { K_VSN = 0, K_SN = 1, K_VSCN = 2, K_SCN = 3 };

/* ------------------------------------------------------------ targets */

extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static const char *cert_version(void) { return "vendored"; }

struct scn_target cert_target; /* as the oracles see it */
struct scn_target cert_view;   /* C99 view with a big buffer, named --allow-as for the rules */
struct scn_target cert_named;  /* the same, under its own name (records) */
const struct scn_target *cert_ref;
int cert_is_scn;
enum scn_dialect cert_dialect;
struct scn_oracle_ctx cert_ctx, cert_lctx;
unsigned cert_fam_flags;

void cert_setup_targets(void)
{
    cert_is_scn = scn_cert_kind == K_VSCN || scn_cert_kind == K_SCN;
    cert_dialect = (enum scn_dialect)scn_cert_dialect;
    cert_ref = cert_dialect == SCN_DIALECT_KERNEL ? &scn_target_ref_kernel : &scn_target_ref;
    cert_target.name = scn_cert_name;
    cert_target.version = cert_version;
    cert_target.dialect = cert_dialect;
    cert_target.where = "in-process";
    /* The full output is the function's own with a big buffer (a scnprintf
     * returns the full length when nothing is cut), so every truncation
     * oracle judges it against itself; differences from the standard are
     * the expectations' and the differential's business. */
    cert_target.vsnprintf = cert_is_scn ? cert_scn_as_c99 : cert_under_test;
    cert_target.vscnprintf = cert_is_scn ? cert_under_test : NULL;
    cert_fam_flags = cert_is_scn ? SCN_CHECK_NO_C99 : SCN_CHECK_NO_SCN;
    cert_view = cert_target;
    cert_view.vscnprintf = NULL;
    cert_named = cert_view;
    if (cert_opt_allow_as && *cert_opt_allow_as) cert_view.name = cert_opt_allow_as;
    scn_oracle_set_catch_faults(1);
    if (scn_oracle_init(&cert_ctx) || scn_oracle_init(&cert_lctx)) {
        fprintf(stderr, "scn-certify: cannot map the guarded buffer\n");
        exit(EXIT_SETUP);
    }
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(cert_on_death);
    scn_rules_count(); /* the rules tables loaded now, before the first fork (see memo) */
}
