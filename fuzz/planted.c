/* Planted bugs: targets that each make one classic snprintf/scnprintf
 * mistake, to show that the fuzzers and oracles find them (tests/
 * test_fuzzers.py). Selected by env SCN_PLANTED=<name>; "none" is the
 * reference itself behind the same wrapper (the control).
 *
 *   ret-would-be   vscnprintf returns the would-be length (vsnprintf's value)
 *   ret-size       vscnprintf returns size instead of size-1 when truncating
 *   nul-at-0       vscnprintf writes a NUL when size == 0
 *   no-nul-exact   vscnprintf drops the NUL at an exact fit (len == size-1)
 *   overrun-1      vscnprintf writes its NUL at buf[size] when truncating
 *   float-round    vsnprintf rounds %f by (long long)(x * 10^p + 0.5):
 *                  ties away from zero and double rounding
 *
 * The subtler ones (each changes the output only in its narrow situation;
 * everywhere else the bytes are the reference's):
 *
 *   round-prec17   %e %f %g (double) with a precision > 17: the digits past
 *                  the 17 a double needs come from the exact expansion but
 *                  the last one is truncated, not rounded ("%.18e" of 0.1:
 *                  1.000000000000000055e-01 instead of ...056e-01)
 *   alt-octal-zero %#o of 0 (no precision) prints "00": the '#' prefix is
 *                  added without looking at the digits already there
 *   exp-carry      %.0e (and %+.0e, %#.0e, any width): when rounding
 *                  carries into a new decade (9.5 -> "1e+01") the exponent
 *                  is not incremented: "1e+00"
 *   hh-trunc       %hhd %hhi %hho %hhu %hhx %hhX print the full int: the
 *                  value is not converted to (unsigned) char
 *   miscount-4096  output is staged in 4096-byte chunks, and each full chunk
 *                  flushed counts 4097 (its NUL too): both families return
 *                  one too many once the output exceeds 4096 bytes
 *
 * The kernel dialect's planted bugs (fz_planted_kernel_names: a bug inside
 * a %p extension, found by fuzz_planted_kernel) are in planted_kernel.c.
 *
 * The per-conversion bugs (float-round and the first four above) go through
 * a small printf driver that re-prints every other conversion with the
 * reference; positional formats (%n$) are left to the reference entirely.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "fuzz_core.h"
#include "scn_writer.h"
#include "scn/ref_printf.h"

enum bug {
    B_NONE, B_RET_WOULD_BE, B_RET_SIZE, B_NUL_AT_0, B_NO_NUL_EXACT, B_OVERRUN_1, B_FLOAT_ROUND,
    B_ROUND_PREC17, B_ALT_OCTAL_ZERO, B_EXP_CARRY, B_HH_TRUNC, B_MISCOUNT_4096
};

const char *const fz_planted_names[] = { "none", "ret-would-be", "ret-size", "nul-at-0", "no-nul-exact",
                                         "overrun-1", "float-round", "round-prec17", "alt-octal-zero",
                                         "exp-carry", "hh-trunc", "miscount-4096", NULL };
static enum bug bug;

#define TMP_CAP (1u << 17)
static char tmp[TMP_CAP];

/* miscount-4096: the count of a staged output of r bytes; every full
 * 4096-byte chunk flushed before the rest counts its NUL too */
static int count_of(int r)
{
    if (bug != B_MISCOUNT_4096 || r <= 4096) return r;
    return r + (r - 1) / 4096;
}

/* ---- the scnprintf-family bugs, over the reference's output ---- */

static int planted_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = ref_vsnprintf(tmp, TMP_CAP, fmt, ap);
    if (n < 0) {
        va_end(cp);
        if (size) buf[0] = 0;
        return 0;
    }
    if ((size_t)n >= TMP_CAP) {
        /* an output the staging buffer cannot hold (the decoder reaches
         * widths of 65,536 and more): the canonical wrapper, no bug */
        n = ref_vsnprintf(buf, size, fmt, cp);
        va_end(cp);
        return size == 0 || n < 0 ? 0 : (size_t)n < size ? n : (int)(size - 1);
    }
    va_end(cp);
    size_t len = (size_t)n;
    if (size == 0) {
        if (bug == B_NUL_AT_0) buf[0] = 0;
        return bug == B_RET_WOULD_BE ? n : 0;
    }
    if (len < size) {
        memcpy(buf, tmp, len);
        if (!(bug == B_NO_NUL_EXACT && len == size - 1)) buf[len] = 0;
        return count_of(n);
    }
    memcpy(buf, tmp, size - 1);
    if (bug == B_OVERRUN_1) buf[size] = 0;
    else buf[size - 1] = 0;
    if (bug == B_RET_WOULD_BE) return n;
    if (bug == B_RET_SIZE) return (int)size;
    return count_of((int)(size - 1));
}

/* ---- the float rounding bug: a small printf driver ---- */

/* the planted driver's output: the one bounded writer (scn_writer.h) on tmp */
static void put(struct scn_writer *o, const char *s, size_t l) { scn_w_put(o, s, l); }

/* Pads body to width as the flags say ('-': spaces after; '0': zeros after
 * the sign; else spaces before) and appends it. */
static void put_padded(struct scn_writer *o, const char *flags, int width, const char *body, size_t b)
{
    size_t pad = width > 0 && (size_t)width > b ? (size_t)width - b : 0;
    size_t sign = b && strchr("+- ", body[0]) ? 1 : 0;
    if (strchr(flags, '-')) {
        put(o, body, b);
        for (size_t i = 0; i < pad; i++) put(o, " ", 1);
    } else if (strchr(flags, '0')) {
        put(o, body, sign);
        for (size_t i = 0; i < pad; i++) put(o, "0", 1);
        put(o, body + sign, b - sign);
    } else {
        for (size_t i = 0; i < pad; i++) put(o, " ", 1);
        put(o, body, b);
    }
}

static void naive_f(struct scn_writer *o, const char *flags, int width, int prec, double x, int upper)
{
    static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12 };
    char digits[64], body[96];
    int neg = signbit(x) != 0;
    double ax = fabs(x);
    unsigned long long v = (unsigned long long)(ax * p10[prec] + 0.5); /* the bug */
    int k = 0;
    do digits[k++] = (char)('0' + v % 10); while ((v /= 10) || k <= prec);
    size_t b = 0;
    if (neg) body[b++] = '-';
    else if (strchr(flags, '+')) body[b++] = '+';
    else if (strchr(flags, ' ')) body[b++] = ' ';
    for (int i = k - 1; i >= prec; i--) body[b++] = digits[i];
    if (prec > 0 || strchr(flags, '#')) body[b++] = '.';
    for (int i = prec - 1; i >= 0; i--) body[b++] = digits[i];
    (void)upper;
    put_padded(o, flags, width, body, b);
}

/* ---- the subtler per-conversion bugs ---- */

/* One conversion's argument, as fetched by the driver. */
struct val {
    enum { V_LL, V_D, V_LD } kind;
    long long i;
    double d;
    long double ld;
};

static char one[1 << 14]; /* one conversion's output */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* The reference prints one normalised specification (no '*'). */
static int ref1(enum ref_rounding rd, const char *sp, const struct val *v)
{
    struct ref_options opt = { REF_DIALECT_ISO, REF_ENCODING_C, rd };
    int r;
    switch (v->kind) {
    case V_D: r = ref_snprintf_ex(one, sizeof one, &opt, sp, v->d); break;
    case V_LD: r = ref_snprintf_ex(one, sizeof one, &opt, sp, v->ld); break;
    default: r = ref_snprintf_ex(one, sizeof one, &opt, sp, v->i); break;
    }
    return r >= 0 && (size_t)r < sizeof one ? r : -1;
}
#pragma GCC diagnostic pop

/* "%<flags><width>.<prec><len><conv>" with '*' values made explicit (a
 * negative '*' width is the '-' flag, a negative '*' precision none);
 * drop: flags left out; width <= 0 / prec < 0: none. */
static void respec(char *sp, size_t cap, const char *flags, const char *drop, int width, int prec,
                   const char *len, char conv)
{
    size_t k = 0;
    sp[k++] = '%';
    for (const char *f = flags; *f && k < cap - 40; f++)
        if (!strchr(drop, *f)) sp[k++] = *f;
    sp[k] = 0;
    char tail[48];
    char *t = tail;
    if (width > 0) t += sprintf(t, "%d", width); /* (a width of 0 would read as the 0 flag) */
    if (prec >= 0) t += sprintf(t, ".%d", prec);
    sprintf(t, "%s%c", len, conv);
    snprintf(sp + k, cap - k, "%s", tail);
}

/* The value an integer conversion prints, after its length modifier. */
static unsigned long long int_as(long long v, const char *len)
{
    if (!strcmp(len, "hh")) return (unsigned char)v;
    if (!strcmp(len, "h")) return (unsigned short)v;
    if (!*len) return (unsigned)v;
    return (unsigned long long)v;
}

/* The exponent of an %e output ("...e+01" -> 1); *at: where its sign is. */
static int exp_of(const char *s, size_t n, size_t *at)
{
    size_t i = n;
    while (i && s[i - 1] != 'e' && s[i - 1] != 'E') i--;
    if (!i) return 0;
    *at = i;
    return atoi(s + i);
}

/* The buggy output of one conversion, appended to o: 1; 0 when the bug is
 * not in this conversion's situation (the caller prints it correctly);
 * -1 when it does not fit. flags/width/prec are normalised (width < 0:
 * none; prec < 0: none; a negative '*' width already made '-'). */
static int planted_conv(struct scn_writer *o, const char *flags, int width, int prec, const char *len, char conv,
                        const struct val *v)
{
    char sp[96];
    int r;
    switch (bug) {
    case B_HH_TRUNC:
        /* the length modifier is parsed, then ignored: the int is printed */
        if (v->kind != V_LL || strcmp(len, "hh") || !strchr("diouxX", conv)) return 0;
        respec(sp, sizeof sp, flags, "", width, prec, "", conv);
        if ((r = ref1(REF_ROUND_NEAREST, sp, v)) < 0) return -1;
        put(o, one, (size_t)r);
        return 1;
    case B_ALT_OCTAL_ZERO:
        /* '#': "0" + digits, though the digits of 0 already are "0" */
        if (conv != 'o' || !strchr(flags, '#') || prec >= 0 || int_as(v->i, len) != 0) return 0;
        respec(sp, sizeof sp, flags, "-0", -1, -1, len, conv);
        if ((r = ref1(REF_ROUND_NEAREST, sp, v)) < 0) return -1; /* "0" */
        memcpy(one + r, "0", 2);
        put_padded(o, flags, width, one, (size_t)r + 1);
        return 1;
    case B_ROUND_PREC17:
        /* past 17 digits: exact digits, the last one truncated */
        if (v->kind != V_D || prec <= 17 || !strchr("eEfFgG", conv)) return 0;
        respec(sp, sizeof sp, flags, "", width, prec, len, conv);
        if ((r = ref1(REF_ROUND_TOWARD_ZERO, sp, v)) < 0) return -1;
        put(o, one, (size_t)r);
        return 1;
    case B_EXP_CARRY: {
        /* the exponent is fixed before rounding; a carry out of the one
         * digit ("9.5" -> "10") makes the digit "1" but leaves the exponent */
        if (prec != 0 || (conv != 'e' && conv != 'E')) return 0;
        if (v->kind == V_D ? !isfinite(v->d) : v->kind == V_LD ? !isfinite(v->ld) : 1) return 0;
        if (v->kind == V_D ? v->d == 0 : v->ld == 0) return 0;
        respec(sp, sizeof sp, flags, "-0", -1, 0, len, conv);
        size_t at = 0, at0 = 0;
        if ((r = ref1(REF_ROUND_TOWARD_ZERO, sp, v)) < 0) return -1;
        int x0 = exp_of(one, (size_t)r, &at0); /* the exponent before rounding */
        if ((r = ref1(REF_ROUND_NEAREST, sp, v)) < 0) return -1;
        int x = exp_of(one, (size_t)r, &at);
        if (!at || x == x0) return 0;
        char body[64];
        if (at > 40) return -1;
        memcpy(body, one, at);
        int m = snprintf(body + at, sizeof body - at, "%c%02d", x0 < 0 ? '-' : '+', x0 < 0 ? -x0 : x0);
        put_padded(o, flags, width, body, at + (size_t)m);
        return 1;
    }
    default:
        return 0;
    }
}

/* Returns -1 when the format is beyond this small driver (the caller then
 * uses the reference on a copy of the arguments): positional arguments, wN
 * lengths, an invalid specification, more specifications than one scan. */
/* %n: the count so far, stored at the width its length modifier says. */
static void store_count(void *v, const char *len, int is_ll, long long cnt)
{
    if (!strcmp(len, "hh")) *(signed char *)v = (signed char)cnt;
    else if (!strcmp(len, "h")) *(short *)v = (short)cnt;
    else if (is_ll) *(long long *)v = cnt;
    else *(int *)v = (int)cnt;
}

/* B_FLOAT_ROUND's %f: naive_f with the specification's flags, its width
 * (a negative '*' width is '-', a negative literal none) and precision. */
static void naive_f_spec(struct scn_writer *o, const char *flags, int width, int star_w, int prec, double v,
                         int upper)
{
    char fl2[10];
    strcpy(fl2, flags);
    if (width < 0 && star_w) {
        strcat(fl2, "-");
        width = -width;
    } else if (width < 0) {
        width = 0;
    }
    naive_f(o, fl2, width, prec < 0 ? 6 : prec, v, upper);
}

static int drive(struct scn_writer *o, const char *fmt, va_list ap)
{
    static struct scn_spec sps[SCN_MAX_SPECS];
    size_t nsp = scn_scan_format(fmt, SIZE_MAX, SCN_DIALECT_ISO, sps, SCN_MAX_SPECS), at = 0;
    for (size_t k = 0;; k++) {
        const struct scn_spec *s = k < nsp ? &sps[k] : NULL;
        size_t lit_end = s ? s->start : strlen(fmt);
        put(o, fmt + at, lit_end - at);
        if (!s) break;
        if (s->invalid || s->pos || s->len[0] == 'w' || s->len[0] == 'q' || (k + 1 == nsp && nsp == SCN_MAX_SPECS))
            return -1;
        at = s->end;
        char flags[8];
        size_t nf = 0;
        for (int b = 0; b < 5; b++)
            if (s->flags & (1u << b)) flags[nf++] = SCN_FLAG_CHARS[b];
        flags[nf] = 0;
        int width = s->width == SCN_SPEC_STAR ? va_arg(ap, int) : s->width == SCN_SPEC_NONE ? -1 : s->width;
        int prec = s->prec == SCN_SPEC_STAR ? va_arg(ap, int) : s->prec == SCN_SPEC_NONE ? -1 : s->prec;
        const char *len = s->len;
        char conv = s->conv;
        /* one specification: re-print it alone with the reference */
        char spec[64];
        size_t sl = s->end - s->start;
        if (sl >= sizeof spec) return -1;
        memcpy(spec, fmt + s->start, sl);
        spec[sl] = 0;
        /* the reference prints into the writer's room, then the writer counts it */
        char *room = o->p + (o->len < o->cap ? o->len : o->cap);
        size_t left = o->len < o->cap ? o->cap - o->len : 0;
        int r = 0;
        /* '*' values were already fetched: pass them again explicitly */
        int w = width, pr = prec;
        int star_w = s->width == SCN_SPEC_STAR;
        int star_p = s->prec == SCN_SPEC_STAR;
#define PRINT1(ARG)                                                                          \
    (star_w && star_p ? ref_snprintf(room, left, spec, w, pr, ARG)                           \
     : star_w        ? ref_snprintf(room, left, spec, w, ARG)                                \
     : star_p        ? ref_snprintf(room, left, spec, pr, ARG)                               \
                     : ref_snprintf(room, left, spec, ARG))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
        /* normalised for planted_conv: a negative '*' width is '-' */
        char nflags[10];
        strcpy(nflags, flags);
        int nw = width, npr = prec < 0 ? -1 : prec;
        if (star_w && nw < 0) {
            strcat(nflags, "-");
            nw = -nw;
        }
        int is_ll = !strcmp(len, "l") || !strcmp(len, "ll") || !strcmp(len, "j") || !strcmp(len, "z") ||
                    !strcmp(len, "t");
        switch (conv) {
        case '%':
            r = ref_snprintf(room, left, "%s", "%");
            break;
        case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'b': case 'B': {
            struct val pv = { V_LL, 0, 0, 0 };
            if (is_ll) { long long v = va_arg(ap, long long); pv.i = v; }
            else { int v = va_arg(ap, int); pv.i = v; }
            int k = planted_conv(o, nflags, nw, npr, len, conv, &pv);
            if (k < 0) return -1;
            if (k) continue;
            if (is_ll) { long long v = pv.i; r = PRINT1(v); }
            else { int v = (int)pv.i; r = PRINT1(v); }
            break;
        }
        case 'c':
            if (len[0] == 'l') { wint_t v = va_arg(ap, wint_t); r = PRINT1(v); }
            else { int v = va_arg(ap, int); r = PRINT1(v); }
            break;
        case 's':
            if (len[0] == 'l') { const wchar_t *v = va_arg(ap, const wchar_t *); r = PRINT1(v); }
            else { const char *v = va_arg(ap, const char *); r = PRINT1(v); }
            break;
        case 'p': { void *v = va_arg(ap, void *); r = PRINT1(v); break; }
        case 'n':
            store_count(va_arg(ap, void *), len, is_ll, (long long)o->len);
            break;
        default: /* floats */
            if (len[0] == 'L') {
                long double v = va_arg(ap, long double);
                struct val pv = { V_LD, 0, 0, v };
                int k = planted_conv(o, nflags, nw, npr, len, conv, &pv);
                if (k < 0) return -1;
                if (k) continue;
                r = PRINT1(v);
            } else {
                double v = va_arg(ap, double);
                struct val pv = { V_D, 0, v, 0 };
                int k = planted_conv(o, nflags, nw, npr, len, conv, &pv);
                if (k < 0) return -1;
                if (k) continue;
                if (bug == B_FLOAT_ROUND && (conv == 'f' || conv == 'F') && isfinite(v) && pr <= 12 &&
                    fabs(v) * pow(10, pr < 0 ? 6 : pr) < 9e15) {
                    naive_f_spec(o, flags, w, star_w, pr, v, conv == 'F');
                    continue;
                }
                r = PRINT1(v);
            }
            break;
        }
#pragma GCC diagnostic pop
#undef PRINT1
        if (r < 0) return -1;
        o->len += (size_t)r;
    }
    return 0;
}

static int planted_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (bug == B_MISCOUNT_4096) return count_of(ref_vsnprintf(buf, size, fmt, ap));
    if (bug < B_FLOAT_ROUND) return ref_vsnprintf(buf, size, fmt, ap);
    return fz_planted_drive(drive, NULL, buf, size, fmt, ap);
}

int fz_planted_drive(int (*drv)(struct scn_writer *, const char *, va_list), const struct ref_options *opt,
                     char *buf, size_t size, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    struct scn_writer o = scn_writer_on(tmp, TMP_CAP);
    int r = drv(&o, fmt, ap);
    if (r < 0 || !scn_w_fits(&o)) {
        r = ref_vsnprintf_ex(buf, size, opt, fmt, cp);
        va_end(cp);
        return r;
    }
    va_end(cp);
    if (size) {
        size_t m = o.len < size - 1 ? o.len : size - 1;
        memcpy(buf, tmp, m);
        buf[m] = 0;
    }
    return (int)o.len;
}

static const char *planted_version(void) { return "scnfuzz planted bug"; }

static struct scn_target planted = {
    .name = "planted", .version = planted_version, .dialect = SCN_DIALECT_ISO,
    .vsnprintf = planted_vsnprintf, .vscnprintf = planted_vscnprintf, .where = "in-process",
};

const struct scn_target *fz_planted_target(void)
{
    const char *e = getenv("SCN_PLANTED");
    if (!e) return NULL;
    const struct scn_target *k = fz_planted_kernel_target(e);
    if (k) return k;
    for (int i = 0; fz_planted_names[i]; i++)
        if (!strcmp(e, fz_planted_names[i])) {
            bug = (enum bug)i;
            /* the per-conversion bugs: the canonical scnprintf wrapper over
             * the buggy C99 call; the others: the planted scnprintf family */
            planted.vscnprintf = bug >= B_FLOAT_ROUND && bug != B_MISCOUNT_4096 ? NULL : planted_vscnprintf;
            return &planted;
        }
    return NULL;
}
