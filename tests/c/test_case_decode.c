/* Tests of the fuzzer-byte decoder (core/case/case_decode*.c,
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
 * conversion reads each argument, which conversions the format has, and
 * its widths and precisions (check_bounds() checks them). */
static struct {
    char conv[SCN_CASE_MAX_ARGS]; /* the conversion letter that reads each argument ('*' for a width/precision) */
    char star_of[SCN_CASE_MAX_ARGS];   /* a '*' argument: the conversion whose width or precision it is */
    char star_prec[SCN_CASE_MAX_ARGS]; /* ... 1: its precision */
    int nnum;                          /* literal widths and precisions: */
    struct { long long v; char conv, prec; } num[SCN_CASE_MAX_FMT / 2];
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

/* the bytes %p extension KEXT[x] reads from the mem argument k, given its
 * width (has_w: one, wv: its value) */
static int kext_len(const struct scn_case *c, size_t x, int k, int has_w, long long wv)
{
    int len = KEXT[x].n;
    if (wv < 0) wv = -wv;
    if (!len && KEXT[x].name[0] == 'h') /* %ph: the width, none: 1, at most 64 */
        return !has_w ? 1 : wv < 64 ? (int)wv : 64;
    if (len == -1) /* %pE: the width, none: 1 */
        return !has_w ? 1 : (int)wv;
    if (len == -2) /* %pb: 8 per 64 bits */
        return !has_w ? 0 : (int)(wv + 63) / 64 * 8;
    if (len == -3) { /* %pIS: by the family of the bytes */
        const struct scn_arg *m = &c->args[k];
        unsigned fam = m->type == SCN_ARG_MEM && !m->is_null && !m->is_err && m->len >= 2
                           ? (unsigned char)c->arena[m->off] | (unsigned char)c->arena[m->off + 1] << 8
                           : 0;
        return fam == 10 ? 28 : fam == 2 ? (m->len == 8 ? 8 : 16) : 2;
    }
    if (len == -4) /* %pe: no bytes (a valid pointer) */
        return 0;
    if (len == -5) /* %pV: a VAF whose format has its own length */
        return c->args[k].is_vaf ? (int)c->args[k].len : -5;
    return len;
}

/* the argument type of an integer conversion with length len (sg: signed), -1 if none */
static int int_type(const char *len, int sg)
{
    if (!strcmp(len, "l") || !strcmp(len, "w64")) return sg ? SCN_ARG_LONG : SCN_ARG_ULONG;
    if (!strcmp(len, "ll")) return sg ? SCN_ARG_LLONG : SCN_ARG_ULLONG;
    if (!strcmp(len, "j")) return sg ? SCN_ARG_INTMAX : SCN_ARG_UINTMAX;
    if (!strcmp(len, "z")) return sg ? SCN_ARG_SSIZE : SCN_ARG_SIZE;
    if (!strcmp(len, "t")) return SCN_ARG_PTRDIFF;
    if (!*len || !strcmp(len, "h") || !strcmp(len, "hh") || !strcmp(len, "w8") || !strcmp(len, "w16") ||
        !strcmp(len, "w32"))
        return sg ? SCN_ARG_INT : SCN_ARG_UINT;
    return -1;
}

/* the case's arguments against what the format reads (want, wn: type and
 * %n type of each of the max positions) */
static const char *check_args(const struct scn_case *c, const int *want, const int *wn, int max)
{
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
        while (*q >= '0' && *q <= '9') pos = pos < 100000 ? pos * 10 + (*q++ - '0') : (q++, pos); /* a width's digits too */
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
        int ap = 0, star_w = -1, star_p = -1, lit_w = -1, nnum0 = SEEN.nnum;
        char cv_ = '*';
        if (*p == '*') {
            p++;
            if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
            star_w = is_pos ? ap - 1 : n;
            ARG(SCN_ARG_INT, 0);
        } else {
            long long w = 0;
            while (*p >= '0' && *p <= '9') if ((w = w * 10 + (*p++ - '0')) > 2147483647) return "a width past INT_MAX";
            if (w) {
                lit_w = w > 1 << 30 ? 1 << 30 : (int)w;
                SEEN.num[SEEN.nnum].v = w;
                SEEN.num[SEEN.nnum++].prec = 0;
            }
        }
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                ap = 0;
                if (is_pos) { while (*p >= '0' && *p <= '9') ap = ap * 10 + (*p++ - '0'); if (*p++ != '$') return "*m$ expected"; }
                star_p = is_pos ? ap - 1 : n;
                ARG(SCN_ARG_INT, 0);
            } else {
                long long w = 0;
                while (*p >= '0' && *p <= '9') if ((w = w * 10 + (*p++ - '0')) > 2147483647) return "a precision past INT_MAX";
                SEEN.num[SEEN.nnum].v = w;
                SEEN.num[SEEN.nnum++].prec = 1;
            }
        }
        char len[4] = {0};
        int li = 0;
        while (*p && strchr("hljztLw0123456789", *p) && li < 3) len[li++] = *p++;
        char cv = *p ? *p++ : 0;
        SEEN.seen[(unsigned char)cv] = 1;
        for (int k = nnum0; k < SEEN.nnum; k++) SEEN.num[k].conv = cv;
        if (star_w >= 0 && star_w < SCN_CASE_MAX_ARGS) SEEN.star_of[star_w] = cv;
        if (star_p >= 0 && star_p < SCN_CASE_MAX_ARGS) {
            SEEN.star_of[star_p] = cv;
            SEEN.star_prec[star_p] = 1;
        }
        SEEN.wlen |= len[0] == 'w';
        cv_ = cv;
        ap = pos;
        int sg = cv == 'd' || cv == 'i';
        int T = -1, NT = 0;
        if (strchr("diouxXbB", cv) && cv) {
            if ((T = int_type(len, sg)) < 0) return "bad integer length";
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
                    SEEN.memlen[k_] = kext_len(c, x, k_, star_w >= 0 || lit_w >= 0,
                                               star_w >= 0 ? c->args[star_w].v.i : lit_w);
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
    return check_args(c, want, wn, max);
}

/* The boundary values of case_decode.c's header: 1 when v (a literal
 * number when !star, else a '*' value) is one of them */
static int boundary_value(long long v, int star)
{
    static const long long lits[] = {
        1023, 1024, 2047, 2048, 4095, 4096, 4097, 8192, 8191, 16383, 16384, 32766, 32767, 32768, 32769,
        65534, 65535, 65536, 65537, 131072, 2147483646, 2147483647, 8388607, 8388608, 16777215, 16777216,
        1073741824,
    };
    if (star && (v == -2147483647 - 1 || v == -2147483647)) return 1;
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++)
        if (v == lits[i] || (star && v == -lits[i])) return 1;
    return 0;
}

/* A width or precision v of conversion conv (star: a '*' value; prec: a
 * precision) in a case decoded where (0 ISO, 1 SCN_DECODE_HUGE, 2 kernel):
 * NULL, or why it is out of bounds: beyond [0, 512] ('*': [-512, 512]) it
 * is a boundary value, and one that a target there pads past 65537 bytes
 * (the kernel: 8192; its literal widths kept in 24 bits, precisions in 16,
 * a '*' width clamped to 2^23 - 1) or computes past 8192 digits only where
 * nothing is padded: a %s precision, a negative precision, SCN_DECODE_HUGE. */
static const char *check_number(long long v, int star, int prec, char conv, int where)
{
    if (v >= (star ? -SCN_DECODE_MAX_WIDTH : 0) && v <= SCN_DECODE_MAX_WIDTH) return NULL;
    if (!boundary_value(v, star)) return "a width or precision beyond 512 that is no boundary value";
    if (where == 1 || (prec && (conv == 's' || v < 0))) return NULL;
    long long e = v; /* what a target pads or computes */
    if (where == 2 && !star && prec) e = (int16_t)(uint16_t)v < 0 ? 0 : (int16_t)(uint16_t)v;
    else if (where == 2 && !star) e = (int32_t)((uint32_t)v << 8) >> 8;
    if (e < 0) e = -e;
    if (e > (where == 2 || (prec && strchr("aAeEfFgG", conv)) ? 8192 : 65537))
        return "a boundary value that a target of the dialect pads or computes for long";
    return NULL;
}

/* The bounds of case.h and case_decode.c's grammar, for a decoded case
 * (flags fl): returns NULL or what is out of bounds. */
static const char *check_bounds(const struct scn_case *c, int kern, unsigned fl)
{
    int where = kern ? 2 : fl & SCN_DECODE_HUGE ? 1 : 0;
    for (int i = 0; i < SEEN.nnum; i++) {
        const char *why = check_number(SEEN.num[i].v, 0, SEEN.num[i].prec, SEEN.num[i].conv, where);
        if (why) return why;
    }
    if (c->fmt_len > SCN_CASE_MAX_FMT || strlen(c->fmt) != c->fmt_len) return "format length";
    if (c->nargs > SCN_CASE_MAX_ARGS || c->arena_used > SCN_CASE_ARENA) return "argument count or arena";
    if (c->nsizes) return "a decoded case has no @sizes";
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type >= SCN_ARG__COUNT) return "argument type";
        if (SEEN.conv[i] == '*') {
            const char *why = check_number(a->v.i, 1, SEEN.star_prec[i], SEEN.star_of[i], where);
            if (why) return why;
        }
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

/* The boundary values of the header's grammar: a width's, precision's or
 * '*' value's high byte 0x7c..0x7f, its low byte b the choice. */
static void test_boundary_grammar(void)
{
    static const struct {
        unsigned char op, fb, pb, lo, hi;
        int dialect;
        unsigned flags;
        const char *text;
    } ex[] = {
        /* 'd' (ISO op 0x4b), literal width (fb 0x20): b 4 = 4095, b 65 = 32768 (64 + 65 % 12) */
        { 0x4b, 0x20, 0x00, 0x04, 0x7c, SCN_DIALECT_ISO, 0, "\"%4095d\" int:7" },
        { 0x4b, 0x20, 0x00, 0x41, 0x7f, SCN_DIALECT_ISO, 0, "\"%32768d\" int:7" },
        /* b 113: INT_MAX, which glibc pads for seconds: 1024 (b % 8 = 1 of the first group) in
         * the ISO dialect, itself with SCN_DECODE_HUGE and in the kernel (24 bits: -1, no width) */
        { 0x4b, 0x20, 0x00, 0x71, 0x7c, SCN_DIALECT_ISO, 0, "\"%1024d\" int:7" },
        { 0x4b, 0x20, 0x00, 0x71, 0x7c, SCN_DIALECT_ISO, SCN_DECODE_HUGE, "\"%2147483647d\" int:7" },
        { 0x38, 0x20, 0x00, 0x71, 0x7e, SCN_DIALECT_KERNEL, 0, "\"%2147483647d\" int:7" },
        /* b 99: 2^23 - 1, the kernel's FIELD_WIDTH_MAX: 2048 (b % 8 = 3) but with SCN_DECODE_HUGE */
        { 0x4b, 0x20, 0x00, 0x63, 0x7c, SCN_DIALECT_ISO, 0, "\"%2048d\" int:7" },
        { 0x4b, 0x20, 0x00, 0x63, 0x7c, SCN_DIALECT_ISO, SCN_DECODE_HUGE, "\"%8388607d\" int:7" },
        /* '*' (fb 0x40): b 0x84 = -4095; b 114 INT_MIN, a width only with SCN_DECODE_HUGE (else
         * 2047), a precision (pb 0x02) anywhere: negative, omitted */
        { 0x4b, 0x40, 0x00, 0x84, 0x7d, SCN_DIALECT_ISO, 0, "\"%*d\" int:-4095 int:7" },
        { 0x4b, 0x40, 0x00, 0x72, 0x7c, SCN_DIALECT_ISO, 0, "\"%*d\" int:2047 int:7" },
        { 0x4b, 0x40, 0x00, 0x72, 0x7c, SCN_DIALECT_ISO, SCN_DECODE_HUGE, "\"%*d\" int:-2147483648 int:7" },
        { 0x4b, 0x00, 0x02, 0x72, 0x7c, SCN_DIALECT_ISO, 0, "\"%.*d\" int:-2147483648 int:7" },
        /* a %s precision (op 0x39, pb 0x01) only limits: INT_MAX anywhere */
        { 0x39, 0x00, 0x01, 0x71, 0x7d, SCN_DIALECT_ISO, 0, "\"%.2147483647s\" str:\"\\x07\\x07\\x07\\x07\\x07\\x07\\x07\"" },
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        unsigned char d[] = { 0x00, ex[i].op, ex[i].fb, ex[i].pb, ex[i].lo, ex[i].hi, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07 };
        size_t n = ex[i].op == 0x39 ? sizeof d : 7;
        scn_case_from_bytes(d, n, &C, (enum scn_dialect)ex[i].dialect, ex[i].flags);
        scn_case_format(&C, out, sizeof out);
        CHECK(!strcmp(out, ex[i].text), "boundary example %zu: %s, expected %s", i, out, ex[i].text);
    }
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
        SCN_DECODE_HUGE,
        SCN_DECODE_HUGE | SCN_DECODE_C23 | SCN_DECODE_ROBUST,
    };
    static unsigned char data[4096];
    int binary = 0, wlen = 0, wide = 0, n = 0, ld = 0, big = 0;
    /* boundary values: numbers and '*' values beyond 512, of the header's groups */
    long nums = 0, beyond = 0, small = 0, mid = 0, edge = 0, intmax = 0, intmax_s = 0, star_big = 0, star_min = 0;
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
        for (int i = 0; i < SEEN.nnum; i++) {
            long long v = SEEN.num[i].v;
            nums++;
            beyond += v > SCN_DECODE_MAX_WIDTH;
            small += v > SCN_DECODE_MAX_WIDTH && v <= 8192;
            mid += v > 8192 && v <= 131072;
            edge += v > 131072;
            intmax += v == 2147483647 && SEEN.num[i].conv != 's';
            intmax_s += v == 2147483647 && SEEN.num[i].conv == 's';
        }
        for (size_t i = 0; i < C.nargs; i++)
            if (SEEN.conv[i] == '*') {
                nums++;
                beyond += C.args[i].v.i > SCN_DECODE_MAX_WIDTH || C.args[i].v.i < -SCN_DECODE_MAX_WIDTH;
                star_big += C.args[i].v.i > SCN_DECODE_MAX_WIDTH || C.args[i].v.i < -SCN_DECODE_MAX_WIDTH;
                star_min += C.args[i].v.i == -2147483647 - 1;
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
    /* boundary values: every group reached, INT_MAX as a %s precision and
     * (kernel, SCN_DECODE_HUGE) elsewhere, INT_MIN as a '*' value; and rare:
     * about one number in 64 (a gate on one byte of two) */
    CHECK(small > 300 && mid > 100 && edge > 50 && intmax > 3 && intmax_s > 0 && star_big > 100 && star_min > 20,
          "boundary values: %ld of 513..8192, %ld of 8193..131072, %ld beyond, INT_MAX %ld times (%ld as a "
          "%%s precision), %ld '*' values beyond 512, %ld INT_MIN", small, mid, edge, intmax, intmax_s, star_big,
          star_min);
    CHECK(beyond * 20 < nums && beyond * 200 > nums, "boundary values are %ld of %ld numbers", beyond, nums);

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
    test_boundary_grammar();
    test_kptr();
    test_bounds_and_flags();
    test_reuse();
    return check_summary("test_case_decode");
}
