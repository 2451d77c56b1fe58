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
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "fuzz_core.h"
#include "scn/ref_printf.h"

enum bug { B_NONE, B_RET_WOULD_BE, B_RET_SIZE, B_NUL_AT_0, B_NO_NUL_EXACT, B_OVERRUN_1, B_FLOAT_ROUND };

const char *const fz_planted_names[] = { "none", "ret-would-be", "ret-size", "nul-at-0", "no-nul-exact",
                                         "overrun-1", "float-round", NULL };
static enum bug bug;

#define TMP_CAP (1u << 17)
static char tmp[TMP_CAP];

/* ---- the scnprintf-family bugs, over the reference's output ---- */

static int planted_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    int n = ref_vsnprintf(tmp, TMP_CAP, fmt, ap);
    if (n < 0) {
        if (size) buf[0] = 0;
        return 0;
    }
    size_t len = (size_t)n < TMP_CAP ? (size_t)n : TMP_CAP - 1;
    if (size == 0) {
        if (bug == B_NUL_AT_0) buf[0] = 0;
        return bug == B_RET_WOULD_BE ? n : 0;
    }
    if (len < size) {
        memcpy(buf, tmp, len);
        if (!(bug == B_NO_NUL_EXACT && len == size - 1)) buf[len] = 0;
        return n;
    }
    memcpy(buf, tmp, size - 1);
    if (bug == B_OVERRUN_1) buf[size] = 0;
    else buf[size - 1] = 0;
    if (bug == B_RET_WOULD_BE) return n;
    if (bug == B_RET_SIZE) return (int)size;
    return (int)(size - 1);
}

/* ---- the float rounding bug: a small printf driver ---- */

struct out {
    size_t n;
};

static void put(struct out *o, const char *s, size_t l)
{
    if (o->n < TMP_CAP) memcpy(tmp + o->n, s, o->n + l <= TMP_CAP ? l : TMP_CAP - o->n);
    o->n += l;
}

static void naive_f(struct out *o, const char *flags, int width, int prec, double x, int upper)
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
    size_t sign = b;
    for (int i = k - 1; i >= prec; i--) body[b++] = digits[i];
    if (prec > 0 || strchr(flags, '#')) body[b++] = '.';
    for (int i = prec - 1; i >= 0; i--) body[b++] = digits[i];
    (void)upper;
    size_t pad = width > 0 && (size_t)width > b ? (size_t)width - b : 0;
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

/* Returns -1 when the format is beyond this small driver (the caller then
 * uses the reference on a copy of the arguments). */
static int drive(struct out *o, const char *fmt, va_list ap)
{
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t l = q ? (size_t)(q - p) : strlen(p);
            put(o, p, l);
            p += l;
            continue;
        }
        const char *start = p++;
        char flags[8] = "";
        size_t nf = 0;
        while (*p && strchr("-+ #0", *p)) {
            if (nf < 7) flags[nf++] = *p;
            p++;
        }
        flags[nf] = 0;
        int width = -1, prec = -1;
        if (*p == '*') { width = va_arg(ap, int); p++; }
        else if (*p >= '1' && *p <= '9') {
            width = 0;
            while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
            if (*p == '$') return -1;
        }
        if (*p == '.') {
            p++;
            if (*p == '*') { prec = va_arg(ap, int); p++; }
            else { prec = 0; while (*p >= '0' && *p <= '9') prec = prec * 10 + (*p++ - '0'); }
        }
        char len[4] = "";
        size_t nl = 0;
        while (*p && strchr("hljztL", *p) && nl < 3) len[nl++] = *p++;
        if (*p == 'w') return -1;
        len[nl] = 0;
        char conv = *p;
        if (!conv || !strchr("diouxXcspnaAeEfFgGbB%", conv)) return -1;
        p++;
        /* one specification: re-print it alone with the reference */
        char spec[64];
        size_t sl = (size_t)(p - start);
        if (sl >= sizeof spec) return -1;
        memcpy(spec, start, sl);
        spec[sl] = 0;
        char *room = tmp + (o->n < TMP_CAP ? o->n : TMP_CAP);
        size_t left = o->n < TMP_CAP ? TMP_CAP - o->n : 0;
        int r = 0;
        /* '*' values were already fetched: pass them again explicitly */
        int w = width, pr = prec;
        int star_w = strchr(spec, '*') && spec[strcspn(spec, "*") - 1] != '.';
        int star_p = strstr(spec, ".*") != NULL;
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
        int is_ll = !strcmp(len, "l") || !strcmp(len, "ll") || !strcmp(len, "j") || !strcmp(len, "z") ||
                    !strcmp(len, "t");
        switch (conv) {
        case '%':
            r = ref_snprintf(room, left, "%s", "%");
            break;
        case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'b': case 'B':
            if (is_ll) { long long v = va_arg(ap, long long); r = PRINT1(v); }
            else { int v = va_arg(ap, int); r = PRINT1(v); }
            break;
        case 'c':
            if (len[0] == 'l') { wint_t v = va_arg(ap, wint_t); r = PRINT1(v); }
            else { int v = va_arg(ap, int); r = PRINT1(v); }
            break;
        case 's':
            if (len[0] == 'l') { const wchar_t *v = va_arg(ap, const wchar_t *); r = PRINT1(v); }
            else { const char *v = va_arg(ap, const char *); r = PRINT1(v); }
            break;
        case 'p': { void *v = va_arg(ap, void *); r = PRINT1(v); break; }
        case 'n': {
            void *v = va_arg(ap, void *);
            long long cnt = (long long)o->n;
            if (!strcmp(len, "hh")) *(signed char *)v = (signed char)cnt;
            else if (!strcmp(len, "h")) *(short *)v = (short)cnt;
            else if (is_ll) *(long long *)v = cnt;
            else *(int *)v = (int)cnt;
            break;
        }
        default: /* floats */
            if (len[0] == 'L') {
                long double v = va_arg(ap, long double);
                r = PRINT1(v);
            } else {
                double v = va_arg(ap, double);
                if ((conv == 'f' || conv == 'F') && isfinite(v) && pr <= 12 &&
                    fabs(v) * pow(10, pr < 0 ? 6 : pr) < 9e15) {
                    char fl2[10];
                    strcpy(fl2, flags);
                    int fw = w;
                    if (fw < 0 && star_w) {
                        strcat(fl2, "-");
                        fw = -fw;
                    } else if (fw < 0) {
                        fw = 0;
                    }
                    naive_f(o, fl2, fw, pr < 0 ? 6 : pr, v, conv == 'F');
                    continue;
                }
                r = PRINT1(v);
            }
            break;
        }
#pragma GCC diagnostic pop
#undef PRINT1
        if (r < 0) return -1;
        o->n += (size_t)r;
    }
    return 0;
}

static int planted_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (bug != B_FLOAT_ROUND) return ref_vsnprintf(buf, size, fmt, ap);
    va_list cp;
    va_copy(cp, ap);
    struct out o = { 0 };
    int r = drive(&o, fmt, ap);
    if (r < 0 || o.n >= TMP_CAP) {
        r = ref_vsnprintf(buf, size, fmt, cp);
        va_end(cp);
        return r;
    }
    va_end(cp);
    if (size) {
        size_t m = o.n < size - 1 ? o.n : size - 1;
        memcpy(buf, tmp, m);
        buf[m] = 0;
    }
    return (int)o.n;
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
    for (int i = 0; fz_planted_names[i]; i++)
        if (!strcmp(e, fz_planted_names[i])) {
            bug = (enum bug)i;
            if (bug == B_FLOAT_ROUND) planted.vscnprintf = NULL; /* canonical wrapper over the buggy C99 call */
            return &planted;
        }
    return NULL;
}
