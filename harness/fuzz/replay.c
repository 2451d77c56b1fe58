/* scn-replay: replays cases (text form) or raw fuzzer inputs on the targets,
 * printing each target's return value and bytes side by side, the oracle
 * findings (JSON lines) and the differential verdict.
 *
 *   scn-replay [options] CASE-TEXT | FILE...
 *     CASE-TEXT          an argument starting with '"': one case
 *     FILE               case lines (text form; '#' comments and blank lines
 *                        skipped), finding lines (JSON, as written to
 *                        SCN_FINDINGS: their "case" is replayed), or raw
 *                        fuzzer bytes (anything whose first byte is not '"',
 *                        '#' or '{'), decoded as the fuzzers do
 *   --target T         only these targets (repeatable); default: every
 *                      target of the dialect built into this binary
 *                      ("planted" needs env SCN_PLANTED)
 *   --dialect iso|kernel   dialect of case lines (default iso) and of raw
 *                      inputs (default: the ctrl byte's bit 0)
 *   --fuzzer NAME      decode/check like that fuzzer (ref, iso_diff,
 *                      kernel_diff, planted): its targets and options
 *   --allowances FILE  use this allowances table instead of the embedded one
 *   -q                 no side-by-side outputs, only findings and verdicts
 *
 * Exit status: 0 no finding, 1 findings (invariant, memory-safety or
 * divergence; implementation-defined differences are printed, not counted),
 * 2 usage or input error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_core.h"

static struct fz_config cfg;
static int quiet;
static size_t total_findings, total_cases;

static void usage(void)
{
    fprintf(stderr,
            "usage: scn-replay [--target T]... [--dialect iso|kernel] [--fuzzer NAME]\n"
            "                  [--allowances FILE] [-q] CASE-TEXT | FILE...\n");
    exit(2);
}

static const char *verdict_name(int v)
{
    switch (v) {
    case SCN_DIFF_AGREE: return "agree";
    case SCN_DIFF_IMPL: return "implementation-defined";
    case SCN_DIFF_KNOWN: return "known bug or gap";
    case SCN_DIFF_DIVERGENCE: return "divergence";
    default: return "not run (fewer than 2 targets, or an oracle finding)";
    }
}

static void run(struct scn_case *c, enum scn_dialect d)
{
    static char text[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096];
    scn_case_format(c, text, sizeof text);
    total_cases++;
    printf("case %s  [%s]\n", text, d == SCN_DIALECT_KERNEL ? "kernel" : "iso");
    if (!cfg.ntargets[d]) {
        printf("  (no target of this dialect)\n");
        return;
    }
    if (!quiet) fz_print_outputs(&cfg, c, d);
    fflush(stdout);
    size_t nf = fz_run_case(&cfg, c, d);
    fflush(stdout);
    printf("  oracles+differential: %zu finding(s); differential: %s\n", nf, verdict_name(fz_last_diff));
    total_findings += nf;
}

static int replay_text_line(const char *line, size_t len, enum scn_dialect d, const char *where)
{
    static struct scn_case c;
    char err[200];
    if (scn_case_parse(line, len, &c, err, sizeof err)) {
        fprintf(stderr, "scn-replay: %s: %s\n", where, err);
        return -1;
    }
    run(&c, d);
    return 0;
}

/* The "case" string of a finding line (JSON), unescaped into out. */
static int case_of_finding(const char *line, size_t len, char *out, size_t cap, size_t *outlen)
{
    static const char key[] = "\"case\":\"";
    const char *p = memmem(line, len, key, sizeof key - 1);
    if (!p) return -1;
    p += sizeof key - 1;
    const char *end = line + len;
    size_t k = 0;
    while (p < end && *p != '"') {
        char ch = *p++;
        if (ch == '\\' && p < end) {
            ch = *p++;
            if (ch == 'u' && end - p >= 4) {
                char hex[5] = { p[0], p[1], p[2], p[3], 0 };
                ch = (char)strtol(hex, NULL, 16);
                p += 4;
            } else if (ch == 'n') {
                ch = '\n';
            }
        }
        if (k + 1 >= cap) return -1;
        out[k++] = ch;
    }
    out[k] = 0;
    *outlen = k;
    return p < end ? 0 : -1;
}

static int replay_file(const char *path, int dialect_override)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "scn-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    if (n && (buf[0] == '"' || buf[0] == '#' || buf[0] == '{')) {
        enum scn_dialect d = dialect_override >= 0 ? (enum scn_dialect)dialect_override : SCN_DIALECT_ISO;
        size_t pos = 0, lineno = 0;
        int rc = 0;
        while (pos < n) {
            size_t e = pos;
            while (e < n && buf[e] != '\n') e++;
            lineno++;
            size_t l = e - pos;
            if (l && buf[pos + l - 1] == '\r') l--;
            char where[600];
            snprintf(where, sizeof where, "%s:%zu", path, lineno);
            if (l && buf[pos] == '{') {
                /* a finding line (SCN_FINDINGS): replay its case */
                static char text[SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096];
                size_t tl;
                if (case_of_finding((const char *)buf + pos, l, text, sizeof text, &tl)) {
                    fprintf(stderr, "scn-replay: %s: no \"case\" in this JSON line\n", where);
                    rc = -1;
                } else if (replay_text_line(text, tl,
                                            dialect_override < 0 && memmem(buf + pos, l, "\"dialect\":\"kernel\"", sizeof "\"dialect\":\"kernel\"" - 1)
                                                ? SCN_DIALECT_KERNEL : d,
                                            where)) {
                    rc = -1;
                }
            } else if (l && buf[pos] != '#') {
                if (replay_text_line((const char *)buf + pos, l, d, where)) rc = -1;
            }
            pos = e + 1;
        }
        return rc;
    }
    static struct scn_case c;
    printf("# %s: %zu fuzzer bytes (fuzzer config %s)\n", path, n, cfg.name);
    enum scn_dialect d = fz_decode(&cfg, buf, n, &c, dialect_override);
    run(&c, d);
    return 0;
}

int main(int argc, char **argv)
{
    const char *targets[SCN_DIFF_MAX_TARGETS];
    size_t ntargets = 0;
    int dialect = -1;
    const char *fuzzer = NULL, *allow = NULL;
    int first_input = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            if (ntargets >= SCN_DIFF_MAX_TARGETS) usage();
            targets[ntargets++] = argv[++i];
        } else if (!strcmp(argv[i], "--dialect") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "iso")) dialect = SCN_DIALECT_ISO;
            else if (!strcmp(argv[i], "kernel")) dialect = SCN_DIALECT_KERNEL;
            else usage();
        } else if (!strcmp(argv[i], "--fuzzer") && i + 1 < argc) {
            fuzzer = argv[++i];
        } else if (!strcmp(argv[i], "--allowances") && i + 1 < argc) {
            allow = argv[++i];
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage();
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            usage();
        } else {
            if (first_input == argc) first_input = i;
        }
    }
    if (first_input == argc) usage();
    if (allow) {
        char err[300];
        if (scn_allowances_load_file(allow, err, sizeof err) < 0) {
            fprintf(stderr, "scn-replay: %s\n", err);
            return 2;
        }
    }
    if (fuzzer) {
        if (fz_config_by_name(fuzzer, &cfg)) {
            fprintf(stderr, "scn-replay: unknown fuzzer '%s' (ref, iso_diff, kernel_diff, planted)\n", fuzzer);
            return 2;
        }
    } else {
        cfg.name = "replay";
        cfg.mode = FZ_FROM_INPUT;
        cfg.allow_c23 = 1;
        cfg.differential = 1;
        for (const struct scn_target *const *t = scn_targets(); *t; t++) fz_add_target(&cfg, (*t)->dialect, *t);
    }
    if (ntargets) {
        cfg.ntargets[0] = cfg.ntargets[1] = 0;
        for (size_t i = 0; i < ntargets; i++) {
            const struct scn_target *t = !strcmp(targets[i], "planted") ? fz_planted_target()
                                                                       : scn_target_find(targets[i]);
            if (!t) {
                fprintf(stderr, "scn-replay: no target '%s' in this build%s\n", targets[i],
                        !strcmp(targets[i], "planted") ? " (set SCN_PLANTED)" : "");
                return 2;
            }
            fz_add_target(&cfg, t->dialect, t);
        }
    }
    if (fz_init(&cfg, FZ_MODE_REPLAY)) {
        fprintf(stderr, "scn-replay: cannot set up the oracles\n");
        return 2;
    }
    int bad_input = 0;
    for (int i = first_input; i < argc; i++) {
        if (!strcmp(argv[i], "--target") || !strcmp(argv[i], "--dialect") || !strcmp(argv[i], "--fuzzer") ||
            !strcmp(argv[i], "--allowances")) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "-q")) continue;
        if (argv[i][0] == '"') {
            enum scn_dialect d = dialect >= 0 ? (enum scn_dialect)dialect : SCN_DIALECT_ISO;
            if (replay_text_line(argv[i], strlen(argv[i]), d, "argument")) bad_input = 1;
        } else if (replay_file(argv[i], dialect)) {
            bad_input = 1;
        }
    }
    printf("# %zu case(s), %zu finding(s)\n", total_cases, total_findings);
    if (bad_input) return 2;
    return total_findings ? 1 : 0;
}
