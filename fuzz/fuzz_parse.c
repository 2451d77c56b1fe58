/* fuzz_parse: the case text form's parser and printer.
 *
 * Every input is used twice:
 *  1. as text: scn_case_parse must not crash on any bytes; when it accepts
 *     them, the printer must give them back exactly, or (a decimal floating
 *     value, which prints as its exact hex) a canonical text of the same
 *     case: it parses, prints identically and calls identically
 *                                                       -> "parse.canonical"
 *  2. as fuzzer bytes (ctrl byte as in fuzz_core.h): the decoded case must
 *     print, re-parse ("parse.decoded-unparseable"), print identically
 *     ("parse.roundtrip") and call identically on the reference
 *     ("parse.roundtrip-call").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_core.h"

#define TEXT_CAP (SCN_CASE_MAX_FMT * 4 + SCN_CASE_ARENA * 12 + 4096)

static struct scn_case c1, c2;
static char t1[TEXT_CAP], t2[TEXT_CAP];
static char o1[1 << 16], o2[1 << 16];

static void bad(const struct scn_case *c, const char *oracle, const char *detail)
{
    fz_report_simple(c, oracle, "invariant", "parser", detail);
}

/* 1 when c has a floating argument: the only kind the parser also accepts
 * in a form other than the one it prints (a decimal value) */
static int has_float(const struct scn_case *c)
{
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_DOUBLE || c->args[i].type == SCN_ARG_LDOUBLE) return 1;
    return 0;
}

/* 1 when a and b print the same on target t */
static int same_call(const struct scn_target *t, struct scn_case *a, struct scn_case *b)
{
    int r1 = scn_case_call_ctx(scn_target_full_call, (void *)t, a, o1, sizeof o1);
    int r2 = scn_case_call_ctx(scn_target_full_call, (void *)t, b, o2, sizeof o2);
    return r1 == r2 && !(r1 > 0 && memcmp(o1, o2, (size_t)r1 < sizeof o1 ? (size_t)r1 : sizeof o1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fz_config cfg;
    char err[160];
    if (!cfg.name) {
        if (fz_config_by_name("ref", &cfg) || fz_init(&cfg, FZ_MODE_FUZZ)) abort();
    }
    /* 1. text */
    size_t n = size;
    while (n && (data[n - 1] == '\n')) n--;
    if (scn_case_parse((const char *)data, n, &c1, err, sizeof err) == 0) {
        size_t l = scn_case_format(&c1, t1, sizeof t1);
        if ((l != n || memcmp(t1, data, n)) &&
            (!has_float(&c1) || l >= sizeof t1 || scn_case_parse(t1, l, &c2, err, sizeof err) ||
             scn_case_format(&c2, t2, sizeof t2) != l || memcmp(t1, t2, l) ||
             !same_call(cfg.targets[SCN_DIALECT_ISO][0], &c1, &c2)))
            bad(&c1, "parse.canonical", "accepted text does not print as a canonical text of the same case");
    }
    /* 2. decoded bytes */
    enum scn_dialect d = fz_decode(&cfg, data, size, &c1, -1);
    size_t l1 = scn_case_format(&c1, t1, sizeof t1);
    if (l1 >= sizeof t1) return 0;
    if (scn_case_parse(t1, l1, &c2, err, sizeof err)) {
        char det[200];
        snprintf(det, sizeof det, "the printed form of a decoded case does not parse: %s", err);
        bad(&c1, "parse.decoded-unparseable", det);
        return 0;
    }
    size_t l2 = scn_case_format(&c2, t2, sizeof t2);
    if (l1 != l2 || memcmp(t1, t2, l1)) {
        bad(&c1, "parse.roundtrip", "text -> case -> text changed the text");
        return 0;
    }
    if (!same_call(cfg.targets[d][0], &c1, &c2))
        bad(&c1, "parse.roundtrip-call", "the re-parsed case formats differently on the reference");
    return 0;
}
