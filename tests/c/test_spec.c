/* Tests of the one specification scanner (oracles/spec.c): what a format's
 * specifications read, where the scan stops, sub-cases. Cases as sections
 * (oracles/sections.c) are tested in test_sections.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "case.h"
#include "check.h"
#include "spec.h"

static struct scn_case *parse(const char *text)
{
    static struct scn_case c;
    char err[200];
    if (scn_case_parse(text, strlen(text), &c, err, sizeof err)) {
        fprintf(stderr, "bad case %s: %s\n", text, err);
        return NULL;
    }
    return &c;
}

static void text_of(const struct scn_case *c, char *out, size_t cap) { scn_case_format(c, out, cap); }

int main(void)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    char t[512];

    /* sequential: each specification reads its width, precision and value in order */
    struct scn_case *c = parse("\"a%-*.*ld|%%|%s\" int:-5 int:2 long:7 str:\"x\"");
    size_t n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 3, "%zu specs", n);
    CHECK(sp[0].flags == SCN_FL_MINUS && sp[0].width == SCN_SPEC_STAR && sp[0].prec == SCN_SPEC_STAR, "spec 0");
    CHECK(sp[0].warg == 0 && sp[0].parg == 1 && sp[0].varg == 2 && !strcmp(sp[0].len, "l") && sp[0].conv == 'd',
          "spec 0 args %d %d %d", sp[0].warg, sp[0].parg, sp[0].varg);
    CHECK(sp[1].conv == '%' && sp[1].varg == -1 && sp[2].varg == 3 && sp[2].conv == 's', "%% and %%s");
    scn_spec_flags_class(&sp[0], t, sizeof t);
    CHECK(!strcmp(t, "-w.p"), "flags class %s", t);

    /* positional: the n$ numbers, the arguments they name, one read twice */
    c = parse("\"%2$*1$d %2$x\" int:4 uint:9");
    n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 2 && sp[0].pos == 2 && sp[0].wpos == 1 && sp[0].varg == 1 && sp[0].warg == 0 && sp[1].varg == 1,
          "positional %zu %d %d", n, sp[0].pos, sp[0].wpos);

    /* widths and precisions up to INT_MAX as written (the decoder's boundary values) */
    c = parse("\"%2147483647d%-1000000000.2147483646s%.*x\" int:1 str:\"a\" int:-2147483648 uint:2");
    n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 3 && sp[0].width == 2147483647 && sp[1].width == 1000000000 && sp[1].prec == 2147483646 &&
              sp[2].prec == SCN_SPEC_STAR && sp[2].varg == 3,
          "big widths: %zu %d %d %d", n, sp[0].width, sp[1].width, sp[1].prec);

    /* the scan stops at the first invalid specification (mixed styles, unknown letter, length misuse) */
    c = parse("\"%d %1$d %s\" int:1 str:\"y\"");
    n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 2 && !sp[0].invalid && sp[1].invalid, "mixed: %zu", n);
    c = parse("\"%Ld\" llong:1");
    n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 1 && sp[0].invalid, "%%Ld is not ISO");
    /* the kernel dialect knows no floating conversions */
    c = parse("\"%f\" double:0x1p+0");
    n = scn_scan_specs(c, SCN_DIALECT_KERNEL, sp, SCN_MAX_SPECS);
    CHECK(n == 1 && sp[0].invalid, "kernel %%f");

    /* a sub-case: the specification alone, its positions renumbered, as written */
    static struct scn_case sub;
    c = parse("\"xx%3$-*1$.d yy\" int:6 str:\"q\" int:0");
    n = scn_scan_specs(c, SCN_DIALECT_ISO, sp, SCN_MAX_SPECS);
    CHECK(n == 1 && scn_spec_subcase(c, &sp[0], &sub) == 0, "subcase");
    text_of(&sub, t, sizeof t);
    CHECK(!strcmp(t, "\"%2$-*1$.d\" int:6 int:0"), "subcase %s", t);

    /* a precision '.' without digits: 0 in ISO C (7.21.6.1p4), none in the
     * kernel (lib/vsprintf.c format_decode); a bare format scans the same */
    struct scn_spec one[2];
    CHECK(scn_scan_format("%.s", SIZE_MAX, SCN_DIALECT_ISO, one, 2) == 1 && one[0].prec == 0 && one[0].end == 3,
          "ISO %%.s: precision %d", one[0].prec);
    CHECK(scn_scan_format("%.s", SIZE_MAX, SCN_DIALECT_KERNEL, one, 2) == 1 && one[0].prec == SCN_SPEC_NONE &&
              one[0].end == 3 && one[0].conv == 's',
          "kernel %%.s: precision %d", one[0].prec);
    CHECK(scn_scan_format("%.3s", SIZE_MAX, SCN_DIALECT_KERNEL, one, 2) == 1 && one[0].prec == 3, "kernel %%.3s");
    CHECK(scn_scan_format("%d", 0, SCN_DIALECT_ISO, one, 2) == 1 && one[0].invalid, "%%d without an argument");
    return check_summary("test_spec");
}
