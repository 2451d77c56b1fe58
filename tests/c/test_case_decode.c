/* Tests of the fuzzer-byte decoder (core/case/case_decode.c,
 * scn_case_from_bytes): every byte string decodes to a well-typed case of
 * its dialect (checked by an independent reading of the format below),
 * within the documented bounds, honouring the decode flags; decoding is
 * deterministic; every decoded case formats and parses back; and the byte
 * grammar of case_decode.c's header gives the cases it describes. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "check_case.h"
#include "case.h"

static struct scn_case C, C2;
static char out[1 << 16], out2[1 << 16], err[256];

/* Independent check that every conversion of an ISO/kernel format has an
 * argument of exactly its type: returns 0 or a message. Also notes which
 * conversion reads each argument and which conversions the format has. */
/* Independent check that every conversion of an ISO/kernel format has an
 * argument of exactly its type: returns 0 or a message. */
static struct {
    char conv[SCN_CASE_MAX_ARGS]; /* the conversion letter that reads each argument ('*' for a width/precision) */
    int seen[256];                /* conversion letters seen */
    int wlen;                     /* a wN / wfN length seen */
    int positional;               /* an n$ specification seen */
    char ext[SCN_CASE_MAX_ARGS][8]; /* the %p extension letters that read each mem argument */
    int memlen[SCN_CASE_MAX_ARGS];  /* the bytes that extension reads */
} SEEN;

/* kernel %p extensions that read bytes (SCN_DECODE_KPTR), the bytes each
 * reads (0: %ph, its width) */
static const struct { const char *name; int n; } KEXT[] = {
    { "M", 6 }, { "MR", 6 }, { "MF", 6 }, { "m", 6 }, { "mR", 6 }, { "mF", 6 },
    { "I4", 4 }, { "I4h", 4 }, { "I4n", 4 }, { "I4b", 4 }, { "I4l", 4 },
    { "i4", 4 }, { "i4h", 4 }, { "i4n", 4 }, { "i4b", 4 }, { "i4l", 4 },
    { "I6", 16 }, { "i6", 16 }, { "I6c", 16 }, { "i6c", 16 },
    { "h", 0 }, { "hC", 0 }, { "hD", 0 }, { "hN", 0 }, { "a", 8 }, { "ap", 8 }, { "ad", 8 },
    { "U", 16 }, { "Ub", 16 }, { "UB", 16 }, { "Ul", 16 }, { "UL", 16 },
    /* n < 0: the length the case decides: -1 %pE (the width, none: 1), -2 %pb
     * (8 per 64 bits of the width), -3 %pIS (by the family), -4 %pe (none) */
    { "IS", -3 }, { "iS", -3 }, { "ISc", -3 }, { "ISpc", -3 }, { "ISpfsc", -3 }, { "iSpfs", -3 },
    { "ISph", -3 }, { "ISfl", -3 }, { "E", -1 }, { "Ea", -1 }, { "Ec", -1 }, { "Eh", -1 }, { "Eo", -1 },
    { "Ep", -1 }, { "Ens", -1 }, { "Ehp", -1 }, { "e", -4 }, { "4cc", 4 }, { "4c", 4 }, { "NF", 8 },
    { "N", 8 }, { "b", -2 }, { "bl", -2 }, { "r", 32 }, { "R", 32 }, { "tR", 36 }, { "tRd", 36 },
    { "tRtr", 36 }, { "tRs", 36 }, { "tT", 8 }, { "tTdr", 8 }, { "t", 0 },
    /* -5: %pV, a struct va_format (mem:VAF) whose format check_vaf() reads */
    { "V", -5 },
};
#define NKEXT (sizeof KEXT / sizeof KEXT[0])
static int kptr_ok; /* check_types: %p extensions allowed (SCN_DECODE_KPTR) */

/* A decoded %pV format: at most 96 bytes and a NUL, none inside, and what
 * every implementation prints alike with a va_list of zeros: conversions of
 * d i u x X o c s p % with flags, widths, precisions and lengths, each %p
 * followed by one of M V I4 h U E x a ISc and then no letter. */
static const char *check_vaf(const char *f, size_t n)
{
    if (n > 96 || memchr(f, 0, n) || f[n]) return "a VAF format's length or NUL";
    static const char *const ext[] = { "M", "V", "I4", "h", "U", "E", "x", "a", "ISc", "" };
    for (const char *p = f; *p; p++) {
        if (*p != '%') continue;
        p++;
        p += strspn(p, "-+ #0123456789.*hlz");
        if (!*p || !strchr("diuxXocsp%", *p)) return "a VAF format with a conversion outside the table";
        if (*p != 'p') continue;
        size_t l = 0;
        while (((p[1 + l] | 32) >= 'a' && (p[1 + l] | 32) <= 'z') || (p[1 + l] >= '0' && p[1 + l] <= '9')) l++;
        int known = 0;
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++)
            known |= strlen(ext[e]) == l && !memcmp(ext[e], p + 1, l);
        if (!known) return "a VAF format's %p with letters outside the table";
        p += l;
    }
    return NULL;
}

static const char *check_types(const struct scn_case *c, int kern, int nofloat)
{
    memset(&SEEN, 0, sizeof SEEN);
    int want[SCN_CASE_MAX_ARGS], wn[SCN_CASE_MAX_ARGS];
    int n = 0, positional = -1;
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) want[i] = -1;
    const char *p = c->fmt;
    while (*p) {
        if (*p++ != '%') continue;
        if (*p == '%') { p++; continue; }
        int pos = 0;
        const char *q = p;
        while (*q >= '0' && *q <= '9') pos = pos * 10 + (*q++ - '0');
        int is_pos = q > p && *q == '$';
        SEEN.positional |= is_pos;
        if (positional < 0) positional = is_pos;
        if (positional != is_pos) return "mixed positional and sequential";
        if (is_pos) p = q + 1;
        while (*p && strchr("-+ #0", *p)) p++;
#define ARG(T, NT)                                                             \
        do {                                                                   \
            int k_ = is_pos ? ap - 1 : n++;                                    \
            if (k_ < 0 || k_ >= SCN_CASE_MAX_ARGS) return "argument index out of range"; \
            if (want[k_] >= 0 && (want[k_] != (T) || wn[k_] != (NT))) return "a position used with two types"; \
            want[k_] = (T); wn[k_] = (NT); SEEN.conv[k_] = cv_;                   \
        } while (0)
        int ap = 0, star_w = -1, lit_w = -1;
        char cv_ = '*';
        if (*p == '*') {
            p++;
            if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
            star_w = is_pos ? ap - 1 : n;
            ARG(SCN_ARG_INT, 0);
        } else {
            int w = 0;
            while (*p >= '0' && *p <= '9') w = w * 10 + (*p++ - '0');
            if (w > SCN_DECODE_MAX_WIDTH) return "width too large";
            if (w) lit_w = w;
        }
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                ap = 0;
                if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
                ARG(SCN_ARG_INT, 0);
            } else {
                int w = 0;
                while (*p >= '0' && *p <= '9') w = w * 10 + (*p++ - '0');
                if (w > SCN_DECODE_MAX_WIDTH) return "precision too large";
            }
        }
        char len[4] = {0};
        int li = 0;
        while (*p && strchr("hljztLw0123456789", *p) && li < 3) len[li++] = *p++;
        char cv = *p ? *p++ : 0;
        SEEN.seen[(unsigned char)cv] = 1;
        SEEN.wlen |= len[0] == 'w';
        cv_ = cv;
        ap = pos;
        int sg = cv == 'd' || cv == 'i';
        int T = -1, NT = 0;
        if (strchr("diouxXbB", cv) && cv) {
            if (!strcmp(len, "l") || !strcmp(len, "w64")) T = sg ? SCN_ARG_LONG : SCN_ARG_ULONG;
            else if (!strcmp(len, "ll")) T = sg ? SCN_ARG_LLONG : SCN_ARG_ULLONG;
            else if (!strcmp(len, "j")) T = sg ? SCN_ARG_INTMAX : SCN_ARG_UINTMAX;
            else if (!strcmp(len, "z")) T = sg ? SCN_ARG_SSIZE : SCN_ARG_SIZE;
            else if (!strcmp(len, "t")) T = SCN_ARG_PTRDIFF;
            else if (!*len || !strcmp(len, "h") || !strcmp(len, "hh") || !strcmp(len, "w8") || !strcmp(len, "w16") ||
                     !strcmp(len, "w32")) T = sg ? SCN_ARG_INT : SCN_ARG_UINT;
            else return "bad integer length";
        } else if (cv && strchr("aAeEfFgG", cv)) {
            if (kern || nofloat) return "float in kernel dialect or with NO_FLOAT";
            T = !strcmp(len, "L") ? SCN_ARG_LDOUBLE : SCN_ARG_DOUBLE;
        } else if (cv == 'c') {
            T = !strcmp(len, "l") ? SCN_ARG_WINT : SCN_ARG_INT;
        } else if (cv == 's') {
            T = !strcmp(len, "l") ? SCN_ARG_WSTR : SCN_ARG_STR;
        } else if (cv == 'p') {
            T = SCN_ARG_PTR;
            const char *e = p;
            while (kern && ((*e >= '0' && *e <= '9') || ((*e | 32) >= 'a' && (*e | 32) <= 'z'))) e++;
            for (size_t x = 0; kptr_ok && e > p && x < NKEXT; x++)
                if (strlen(KEXT[x].name) == (size_t)(e - p) && !memcmp(KEXT[x].name, p, (size_t)(e - p))) {
                    T = SCN_ARG_MEM;
                    int k_ = n; /* the kernel dialect is sequential */
                    if (k_ >= SCN_CASE_MAX_ARGS) return "argument index out of range";
                    memcpy(SEEN.ext[k_], p, (size_t)(e - p));
                    SEEN.ext[k_][e - p] = 0;
                    int len = KEXT[x].n;
                    int has_w = star_w >= 0 || lit_w >= 0;
                    long long wv = star_w >= 0 ? c->args[star_w].v.i : lit_w;
                    if (wv < 0) wv = -wv;
                    if (!len && p[0] == 'h') /* %ph: the width, none: 1, at most 64 */
                        len = !has_w ? 1 : wv < 64 ? (int)wv : 64;
                    else if (len == -1) /* %pE: the width, none: 1 */
                        len = !has_w ? 1 : (int)wv;
                    else if (len == -2) /* %pb: 8 per 64 bits */
                        len = !has_w ? 0 : (int)(wv + 63) / 64 * 8;
                    else if (len == -3) { /* %pIS: by the family of the bytes */
                        const struct scn_arg *m = &c->args[k_];
                        unsigned fam = m->type == SCN_ARG_MEM && !m->is_null && !m->is_err && m->len >= 2
                                           ? (unsigned char)c->arena[m->off] | (unsigned char)c->arena[m->off + 1] << 8
                                           : 0;
                        len = fam == 10 ? 28 : fam == 2 ? (m->len == 8 ? 8 : 16) : 2;
                    } else if (len == -4) /* %pe: no bytes (a valid pointer) */
                        len = 0;
                    else if (len == -5) /* %pV: a VAF whose format has its own length */
                        len = c->args[k_].is_vaf ? (int)c->args[k_].len : -5;
                    SEEN.memlen[k_] = len;
                    p = e;
                }
            if (kern && T == SCN_ARG_PTR) {
                if (*p == 'x' || *p == 'K') p++;
                if ((*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')) return "kernel %p followed by alnum";
            }
        } else if (cv == 'n') {
            if (kern) return "%n in kernel dialect";
            static const char *const nl[] = { "", "hh", "h", "l", "ll", "j", "z", "t" };
            static const int nt[] = { SCN_N_INT, SCN_N_SCHAR, SCN_N_SHORT, SCN_N_LONG, SCN_N_LLONG, SCN_N_INTMAX, SCN_N_SIZE, SCN_N_PTRDIFF };
            for (int i = 0; i < 8; i++) if (!strcmp(len, nl[i])) { T = SCN_ARG_N; NT = nt[i]; }
            if (T < 0) return "bad %n length";
        } else {
            return "unknown conversion";
        }
        if (kern && (is_pos || !strcmp(len, "j") || (strchr("cs", cv) && *len))) return "not kernel";
        ARG(T, NT);
    }
    int max = 0;
    for (int i = 0; i < SCN_CASE_MAX_ARGS; i++) if (want[i] >= 0) max = i + 1;
    if (positional <= 0) max = n;
    if ((size_t)max != c->nargs) return "argument count differs";
    for (int i = 0; i < max; i++) {
        if (want[i] < 0) return "gap in positions";
        if (c->args[i].type != want[i]) return "argument type differs";
        if (want[i] == SCN_ARG_N && c->args[i].ntype != wn[i]) return "%n type differs";
        const struct scn_arg *a = &c->args[i];
        if (want[i] == SCN_ARG_MEM && !a->is_null && !a->is_err && (int)a->len != SEEN.memlen[i])
            return "a %p extension's mem argument has not the bytes it reads";
        if (want[i] == SCN_ARG_MEM && a->is_err && (a->v.i < -SCN_CASE_MAX_ERRNO || a->v.i > -1))
            return "mem:ERR(-E) out of range";
        if (a->is_vaf != (SEEN.memlen[i] != -5 && !strcmp(SEEN.ext[i], "V")) || (a->is_vaf && (a->is_null || a->is_err)))
            return "a VAF that is not the argument of a %pV, or a %pV's bytes that are no VAF";
        if (a->is_vaf) {
            const char *why = check_vaf(c->arena + a->off, a->len);
            if (why) return why;
        }
    }
    return NULL;
}

/* The bounds of case.h and case_decode.c's grammar, for a decoded case
 * (flags fl): returns NULL or what is out of bounds. */
static const char *check_bounds(const struct scn_case *c, int kern, unsigned fl)
{
    if (c->fmt_len > SCN_CASE_MAX_FMT || strlen(c->fmt) != c->fmt_len) return "format length";
    if (c->nargs > SCN_CASE_MAX_ARGS || c->arena_used > SCN_CASE_ARENA) return "argument count or arena";
    if (c->nsizes) return "a decoded case has no @sizes";
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type >= SCN_ARG__COUNT) return "argument type";
        if (SEEN.conv[i] == '*' && (a->v.i < -SCN_DECODE_MAX_WIDTH || a->v.i > SCN_DECODE_MAX_WIDTH))
            return "a '*' argument beyond [-512, 512]";
        if (a->type == SCN_ARG_STR && !a->is_null) {
            if ((size_t)a->off + a->len + 1 > c->arena_used) return "a string outside the used arena";
            if (memchr(c->arena + a->off, 0, a->len) || c->arena[a->off + a->len]) return "a string's NUL";
        }
        if (a->type == SCN_ARG_WSTR && !a->is_null) {
            if (a->off % sizeof(wchar_t) || (size_t)a->off + (a->len + 1) * sizeof(wchar_t) > c->arena_used)
                return "a wide string outside the used arena or misaligned";
            const wchar_t *w = (const wchar_t *)(const void *)(c->arena + a->off);
            for (size_t k = 0; k < a->len; k++)
                if (w[k] == 0 || (uint32_t)w[k] > 0x7fffffff) return "a wide string's code point";
            if (w[a->len]) return "a wide string's NUL";
        }
        if (a->type == SCN_ARG_STR && a->is_null && !kern) return "a NULL string in the ISO dialect";
        /* SCN_DECODE_SHORT_LD: the long double of a decimal conversion within 2^+-1100 */
        if ((fl & SCN_DECODE_SHORT_LD) && a->type == SCN_ARG_LDOUBLE && SEEN.conv[i] != 'a' && SEEN.conv[i] != 'A' &&
            isfinite(a->v.ld) && a->v.ld != 0) {
            int e;
            frexpl(a->v.ld, &e);
            if (e < -1100 || e > 1102) return "SHORT_LD: a long double beyond 2^+-1100";
        }
    }
    /* the flags: what they leave out is not there */
    if ((fl & SCN_DECODE_NO_N) && SEEN.seen['n']) return "NO_N: %n";
    if ((fl & SCN_DECODE_NO_FLOAT) && (SEEN.seen['f'] | SEEN.seen['F'] | SEEN.seen['e'] | SEEN.seen['E'] |
                                       SEEN.seen['g'] | SEEN.seen['G'] | SEEN.seen['a'] | SEEN.seen['A']))
        return "NO_FLOAT: a floating conversion";
    if ((fl & SCN_DECODE_NO_POSITIONAL) && SEEN.positional) return "NO_POSITIONAL: n$";
    for (size_t i = 0; i < c->nargs; i++)
        if ((fl & SCN_DECODE_NO_WIDE) && (c->args[i].type == SCN_ARG_WINT || c->args[i].type == SCN_ARG_WSTR))
            return "NO_WIDE: %lc / %ls";
    if ((!(fl & SCN_DECODE_C23) || (fl & SCN_DECODE_NO_BINARY) || kern) && (SEEN.seen['b'] | SEEN.seen['B']))
        return "%b / %B without C23";
    if ((!(fl & SCN_DECODE_C23) || kern) && SEEN.wlen) return "wN without C23";
    return NULL;
}

static void test_decoder(void)
{
    unsigned char data[512];
    static const unsigned flagsets[] = { 0, SCN_DECODE_C23, SCN_DECODE_NO_FLOAT | SCN_DECODE_NO_N, SCN_DECODE_NO_POSITIONAL };
    int nonempty = 0, positional = 0, withargs = 0;
    for (int it = 0; it < 6000; it++) {
        size_t n = rnd() % sizeof data;
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        int kern = it % 3 == 0;
        unsigned fl = flagsets[it % 4];
        scn_case_from_bytes(data, n, &C, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, fl);
        CHECK(strlen(C.fmt) == C.fmt_len, "decoded format has a NUL byte");
        const char *why = check_types(&C, kern, (fl & SCN_DECODE_NO_FLOAT) != 0);
        scn_case_format(&C, out, sizeof out);
        CHECK(why == NULL, "decoded case not well-typed (%s): %s", why, out);
        if (why) break;
        nonempty += C.fmt_len > 0;
        withargs += C.nargs > 3;
        positional += strchr(C.fmt, '$') != NULL;
        /* text round trip: decode -> text -> model -> text */
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "decoded case does not parse: %s: %s", err, out);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "decoded round trip:\n  %s\n  %s", out, out2);
        /* glibc (2.36: no wN) can run every ISO case (and ASan/UBSan watch the va_list) */
        if (!kern && !(fl & SCN_DECODE_C23)) {
            if (getenv("SCN_TEST_VERBOSE")) fprintf(stderr, "%s\n", out);
            char buf[256];
            int r = scn_case_call(vsnprintf, &C, buf, sizeof buf);
            CHECK(r >= -1, "glibc ret %d", r);
        }
        /* deterministic */
        scn_case_from_bytes(data, n, &C2, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, fl);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "decoding is not deterministic");
    }
    CHECK(nonempty > 5000 && withargs > 1000 && positional > 300, "decoder variety: %d nonempty, %d with >3 args, %d positional",
          nonempty, withargs, positional);
    /* robust mode: garbage allowed but the arguments still match the conversions glibc sees */
    int garbage = 0;
    for (int it = 0; it < 3000; it++) {
        size_t n = rnd() % 256;
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        scn_case_from_bytes(data, n, &C, it & 1 ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, SCN_DECODE_ROBUST);
        garbage += check_types(&C, it & 1, 0) != NULL;
        scn_case_format(&C, out, sizeof out);
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "robust case does not parse: %s", err);
    }
    CHECK(garbage > 300, "robust mode produced garbage only %d times", garbage);
    /* a one-byte change to a literal-run byte changes only that literal */
    unsigned char a[] = { 0x00, 0x03, 'a', 'b', 'c', 'd', 0x4b, 0x00, 0x00, 0x05 }; /* 0x4b % 25 = 0: 'd' */
    scn_case_from_bytes(a, sizeof a, &C, SCN_DIALECT_ISO, 0);
    CHECK(!strcmp(C.fmt, "abcd%d") && C.nargs == 1 && C.args[0].v.i == 5, "grammar example: %s", C.fmt);
    /* conversion 'd', fb 0x21 = '-' + literal width, pb 0x01 = literal precision,
     * width 10 (2 bytes, little-endian), precision 3, value byte 0xfe = -2 */
    unsigned char a2[] = { 0x00, 0x4b, 0x21, 0x01, 0x0a, 0x00, 0x03, 0x00, 0xfe };
    scn_case_from_bytes(a2, sizeof a2, &C, SCN_DIALECT_ISO, 0);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, "\"%-10.3d\" int:-2"), "grammar example 2: %s", out);
    unsigned char a3[] = { 0x00, 0x4b, 0x20, 0x00, 0x05, 0x01, 0x07 }; /* width 0x105 = 261 */
    scn_case_from_bytes(a3, sizeof a3, &C, SCN_DIALECT_ISO, 0);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, "\"%261d\" int:7"), "grammar example 3: %s", out);
}


/* bounds and flags over many random inputs, robust mode included */
static void test_bounds_and_flags(void)
{
    static const unsigned flagsets[] = {
        SCN_DECODE_NO_N,
        SCN_DECODE_NO_WIDE,
        SCN_DECODE_NO_FLOAT,
        SCN_DECODE_NO_POSITIONAL | SCN_DECODE_SHORT_LD,
        SCN_DECODE_C23 | SCN_DECODE_NO_BINARY,
        SCN_DECODE_C23 | SCN_DECODE_SHORT_LD,
        SCN_DECODE_SHORT_LD,
        SCN_DECODE_ROBUST | SCN_DECODE_NO_WIDE | SCN_DECODE_NO_N,
    };
    static unsigned char data[4096];
    int binary = 0, wlen = 0, wide = 0, n = 0, ld = 0, big = 0;
    for (int it = 0; it < 8000; it++) {
        /* mostly short inputs, some long ones that reach the format/argument limits */
        size_t len = it % 50 == 0 ? sizeof data : rnd() % 600;
        for (size_t i = 0; i < len; i++) data[i] = (unsigned char)rnd();
        int kern = it % 5 == 0;
        unsigned fl = flagsets[it % (sizeof flagsets / sizeof flagsets[0])];
        size_t used = scn_case_from_bytes(data, len, &C, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, fl);
        CHECK(used <= len, "consumed %zu of %zu bytes", used, len);
        const char *why = check_types(&C, kern, (fl & SCN_DECODE_NO_FLOAT) != 0);
        if (fl & SCN_DECODE_ROBUST) why = NULL; /* garbage is allowed there; the bounds are not */
        const char *oob = check_bounds(&C, kern, kern ? fl | SCN_DECODE_NO_FLOAT | SCN_DECODE_NO_POSITIONAL |
                                                            SCN_DECODE_NO_WIDE | SCN_DECODE_NO_N
                                                      : fl);
        if (why || oob) {
            scn_case_format(&C, out, sizeof out);
            CHECK(!why && !oob, "flags %#x %s: %s / %s: %.300s", fl, kern ? "kernel" : "iso", why ? why : "",
                  oob ? oob : "", out);
            break;
        }
        binary += SEEN.seen['b'] | SEEN.seen['B'];
        wlen += SEEN.wlen;
        n += SEEN.seen['n'];
        big += C.fmt_len > SCN_CASE_MAX_FMT / 2 || C.nargs > SCN_CASE_MAX_ARGS - 4;
        for (size_t i = 0; i < C.nargs; i++) {
            wide += C.args[i].type == SCN_ARG_WSTR;
            ld += C.args[i].type == SCN_ARG_LDOUBLE;
        }
    }
    /* the checks above saw what they check */
    CHECK(binary > 50 && wlen > 50 && wide > 50 && n > 50 && ld > 50 && big > 20,
          "variety: %d %%b, %d wN, %d wide, %d %%n, %d long double, %d near the limits", binary, wlen, wide, n, ld, big);

    /* nothing in, nothing out; a missing byte reads as 0 */
    scn_case_from_bytes(NULL, 0, &C, SCN_DIALECT_ISO, 0);
    CHECK(C.fmt_len == 0 && C.nargs == 0 && C.fmt[0] == 0, "empty input: %s", C.fmt);
    unsigned char one = 0x01;
    CHECK(scn_case_from_bytes(&one, 1, &C, SCN_DIALECT_ISO, 0) == 1 && C.fmt_len == 0 && C.nargs == 0, "header only");
    /* a literal run cut short: the missing bytes are 0, written 'x' */
    unsigned char cut[] = { 0x00, 0x03, 'a' };
    scn_case_from_bytes(cut, sizeof cut, &C, SCN_DIALECT_ISO, 0);
    CHECK(!strcmp(C.fmt, "axxx"), "cut-short literal: %s", C.fmt);
}

/* The decoder overwrites the whole case: decoding into a case that held
 * another one gives the same case as decoding into a fresh one. */
static void test_reuse(void)
{
    static struct scn_case fresh;
    unsigned char data[300];
    for (int it = 0; it < 500; it++) {
        for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)rnd();
        /* C first holds a big case */
        const char *t = "\"%s %s %d %@\" str:\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" str:\"b\" int:5 @1,2,3";
        CHECK(scn_case_parse(t, strlen(t), &C, err, sizeof err) == 0, "%s", err);
        size_t n = rnd() % sizeof data;
        memset(&fresh, 0, sizeof fresh);
        scn_case_from_bytes(data, n, &fresh, it & 1 ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, 0);
        scn_case_from_bytes(data, n, &C, it & 1 ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, 0);
        scn_case_format(&fresh, out, sizeof out);
        scn_case_format(&C, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "reused case differs:\n  %s\n  %s", out, out2);
        if (strcmp(out, out2)) break;
    }
}

/* SCN_DECODE_KPTR: kernel cases get every %p extension of conv_kptr.c, each
 * with a mem argument of the bytes it reads (or NULL / ERR(-E)), still
 * well-typed, deterministic and round-tripping; ISO cases and kernel cases
 * without the flag have none; the flag changes no ISO case. */
static void test_kptr(void)
{
    static unsigned char data[1024];
    int seen[NKEXT] = {0}, null = 0, errp = 0, bytes = 0, star = 0, odd = 0, left = 0, prec = 0;
    int zrun = 0, mapped = 0, isatap = 0, ph64 = 0, ph1 = 0, vaf = 0, vaf_conv = 0, vaf_nested = 0;
    for (int it = 0; it < 4000; it++) {
        size_t n = rnd() % (it % 10 ? 300 : sizeof data);
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        unsigned fl = SCN_DECODE_KPTR | (it & 1 ? SCN_DECODE_ROBUST : 0);
        scn_case_from_bytes(data, n, &C, SCN_DIALECT_KERNEL, fl);
        kptr_ok = 1;
        const char *why = check_types(&C, 1, 1);
        kptr_ok = 0;
        if (fl & SCN_DECODE_ROBUST) why = NULL; /* garbage allowed; the bounds are not */
        const char *oob = check_bounds(&C, 1, SCN_DECODE_NO_FLOAT | SCN_DECODE_NO_POSITIONAL | SCN_DECODE_NO_WIDE |
                                                  SCN_DECODE_NO_N);
        scn_case_format(&C, out, sizeof out);
        CHECK(!why && !oob, "kptr case: %s / %s: %.300s", why ? why : "", oob ? oob : "", out);
        if (why || oob) break;
        CHECK(scn_case_parse(out, strlen(out), &C2, err, sizeof err) == 0, "kptr case does not parse: %s: %s", err, out);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "kptr round trip:\n  %s\n  %s", out, out2);
        scn_case_from_bytes(data, n, &C2, SCN_DIALECT_KERNEL, fl);
        scn_case_format(&C2, out2, sizeof out2);
        CHECK(!strcmp(out, out2), "kptr decoding is not deterministic");
        if (!(fl & SCN_DECODE_ROBUST))
            for (size_t i = 0; i < C.nargs; i++) {
                const struct scn_arg *a = &C.args[i];
                if (SEEN.conv[i] != 'p' || !SEEN.ext[i][0]) continue;
                CHECK(a->type == SCN_ARG_MEM, "%%p%s without a mem argument: %s", SEEN.ext[i], out);
                for (size_t x = 0; x < NKEXT; x++) seen[x] += !strcmp(KEXT[x].name, SEEN.ext[i]);
                null += a->is_null;
                errp += a->is_err;
                if (a->is_null || a->is_err) continue;
                bytes++;
                const unsigned char *b = (const unsigned char *)C.arena + a->off;
                if (!strcmp(SEEN.ext[i] + 1, "6c") || !strcmp(SEEN.ext[i] + 1, "6")) {
                    int run = 0, best = 0;
                    for (int w = 0; w < 8; w++) {
                        run = b[2 * w] | b[2 * w + 1] ? 0 : run + 1;
                        if (run > best) best = run;
                    }
                    zrun += best >= 2 && best < 8;
                    static const unsigned char pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
                    mapped += !memcmp(b, pre, 12);
                    isatap += b[10] == 0x5e && b[11] == 0xfe;
                }
                if (SEEN.ext[i][0] == 'h') {
                    ph64 += a->len == 64;
                    ph1 += a->len == 1;
                }
                if (a->is_vaf) {
                    vaf++;
                    vaf_conv += strchr((const char *)b, '%') != NULL;
                    vaf_nested += strstr((const char *)b, "%pV") != NULL || strstr((const char *)b, "%20pV") != NULL;
                }
            }
        /* the specifications' odd parts around the extensions */
        for (const char *q = C.fmt; (q = strchr(q, '%')); q++) {
            const char *e = q + 1 + strspn(q + 1, "-+ #0123456789.*");
            if (*e != 'p' || !strchr("MmIiahU", e[1])) continue;
            star += memchr(q, '*', (size_t)(e - q)) != NULL;
            left += memchr(q, '-', (size_t)(e - q)) != NULL;
            prec += memchr(q, '.', (size_t)(e - q)) != NULL;
            odd += strspn(q + 1, "+ #0") > 0;
        }
    }
    for (size_t x = 0; x < NKEXT; x++) CHECK(seen[x] > 20, "%%p%s decoded only %d times", KEXT[x].name, seen[x]);
    CHECK(null > 100 && errp > 100 && bytes > 1000 && star > 100 && left > 100 && prec > 100 && odd > 100,
          "kptr variety: %d NULL, %d ERR, %d with bytes, %d '*', %d '-', %d precisions, %d odd flags", null, errp,
          bytes, star, left, prec, odd);
    CHECK(zrun > 30 && mapped > 10 && isatap > 5 && ph64 > 10 && ph1 > 10,
          "kptr bytes: %d %%pI6 with zero runs, %d IPv4-mapped, %d ISATAP; %%ph: %d of 64 bytes, %d of 1", zrun,
          mapped, isatap, ph64, ph1);
    CHECK(vaf > 15 && vaf_conv > 10 && vaf_nested > 0, "%%pV: %d VAF arguments, %d with conversions, %d with a nested %%pV",
          vaf, vaf_conv, vaf_nested);
    /* without the flag (kernel) and in the ISO dialect: no extension */
    for (int it = 0; it < 2000; it++) {
        size_t n = rnd() % 300;
        for (size_t i = 0; i < n; i++) data[i] = (unsigned char)rnd();
        int kern = it & 1;
        scn_case_from_bytes(data, n, &C, kern ? SCN_DIALECT_KERNEL : SCN_DIALECT_ISO, kern ? 0 : SCN_DECODE_KPTR);
        const char *why = check_types(&C, kern, 0);
        for (size_t i = 0; i < C.nargs; i++)
            if (C.args[i].type == SCN_ARG_MEM) why = "a mem argument";
        scn_case_format(&C, out, sizeof out);
        CHECK(!why, "%s without SCN_DECODE_KPTR: %s: %s", kern ? "kernel" : "ISO with the flag", why, out);
        if (why) break;
        if (!kern) { /* the flag changes no ISO case */
            scn_case_from_bytes(data, n, &C2, SCN_DIALECT_ISO, 0);
            scn_case_format(&C2, out2, sizeof out2);
            CHECK(!strcmp(out, out2), "SCN_DECODE_KPTR changed an ISO case");
        }
    }
    /* the grammar: K (op 0x4e % 16 = 14), fb 0x40 '*' width, pb 0x80 value class 4 (raw bytes),
     * width -3 (2 bytes), e = 20 (%ph), then the 3 bytes */
    unsigned char g[] = { 0x00, 0x4e, 0x40, 0x80, 0xfd, 0xff, 20, 0x01, 0xab, 'z', 0x00, 'q' };
    scn_case_from_bytes(g, sizeof g, &C, SCN_DIALECT_KERNEL, SCN_DECODE_KPTR);
    scn_case_format(&C, out, sizeof out);
    CHECK(!strcmp(out, "\"%*ph.q\" int:-3 mem:\"\\x01\\xabz\""), "kptr grammar example: %s", out);
}

int main(void)
{
    test_decoder();
    test_kptr();
    test_bounds_and_flags();
    test_reuse();
    return check_summary("test_case_decode");
}
