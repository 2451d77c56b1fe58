/* The floating-point converter of the reference engine: %a %e %f %g (and
 * upper-case variants) for double and x86 80-bit long double, correctly
 * rounded at every precision in any of the four rounding directions.
 *
 * Method (all exact, no floating-point arithmetic, no libc).  A finite
 * non-zero value is  m * 2^e  (m < 2^64); its decimal expansion terminates.
 *
 * 1. Short results (fast_conv): %e/%g with at most 19 significant digits and
 *    %f whose rounded value has at most 19 digits compute
 *    D = round(value * 10^s) as one uint64_t, with the exact remainder
 *    compared with one half (ties, directed modes), in float_fast.h:
 *    unsigned __int128 arithmetic for ordinary values, binary big integers
 *    for tiny (e < -98) and huge (>= 2^128) ones.  The body is assembled in
 *    a small local buffer (float_body.h) and written in one piece.
 *
 * 2. Everything else (long precisions, %f of large values, ...) rounds a
 *    "digit source": the expansion as digits, from a lazy fast source or
 *    from base-1e9 limbs (float_round.c, float_big.c), and streams the
 *    digits into the sink (float_print.h).
 *
 * Every route is exact, so all give the same bytes; the tests compare the
 * routes with the big source (conv_float_ex(..., force_big = 1)) byte for
 * byte, and everything with MPFR.
 *
 * Files.  This file and the headers it includes (float_print.h,
 * float_fast.h, float_body.h, float_hex.h) are one translation unit, their
 * functions static as in one file (LLVM libc's printf_core keeps its
 * converters in headers for the same reason): the fast route and %a inline
 * into conv_float_ex, whose frame holds the work area of every route, and
 * the helpers they call stay visible to the optimiser.  A call into another
 * translation unit adds a frame and hides the callee, so only code behind a
 * call made once per conversion has a .c file of its own: float_round.c
 * (fp_round_value: the exact route's digits), float_big.c (the limb
 * sources) and float_decode.c (called by printf.c).  Shared declarations:
 * float_internal.h.
 */
#include "float_internal.h"
#include "float_print.h"
#include "float_fast.h"
#include "float_body.h"
#include "float_hex.h"

/* The fast route for e, f, g: returns 1 when it printed the conversion. */
static int fast_conv(struct sink *w, const struct fmt_spec *sp, char sign,
                     const struct fp_value *v, enum ref_rounding rm, uint64_t *wk)
{
    struct fxval x;
    long E = -1;
    uint64_t D;
    char tb[80], ob[112];
    char *dg;
    int nd;
    size_t n;
    unsigned fl = sp->flags;
    int hash = (fl & FL_HASH) != 0;
    int prec = sp->prec < 0 ? 6 : sp->prec;

    int tiny = 0;

    if (prec > 19)
        return 0;
    if (!fast_prep(v, &x, &E)) {
        if (!v->mant)
            return 0;
        tiny = v->exp < 0 ? 1 : 2; /* 1: m * 2^e, e < -FAST_MAX_K; 2: >= 2^128 */
        x.f = 1;
        x.ip = 0;
    }
    if (sp->conv == 'f') {
        if (!tiny && x.f == 0) {
            /* an integer: no rounding */
            dg = u128_chars(tb + 72, x.ip);
            nd = (int)(tb + 72 - dg);
            E = nd - 1;
        } else {
            /* D: the value rounded to prec fraction digits */
            if (tiny ? tiny == 2 || !tiny_f(v, prec, rm, &D, wk)
                     : (x.ip ? E + 1 : 0) + prec > 19 || !scaled_round(&x, prec, rm, v->neg, &D))
                return 0;
            if (D) {
                dg = u64_chars(tb + 72, D);
                nd = (int)(tb + 72 - dg);
                E = nd - 1 - prec;
            } else {
                dg = tb;
                nd = 0;
            }
        }
        n = fbody_f(ob + 1, dg, nd, E, prec, prec || hash);
    } else {
        /* e and g: L significant digits */
        int L = sp->conv == 'e' ? prec + 1 : prec ? prec : 1;
        if (tiny) {
            if (L > 18 || !(tiny == 1 ? tiny_e(v, L, rm, &D, &E, wk)
                                      : huge_e(v, L, rm, &D, &E, wk)))
                return 0;
        } else {
            if (L > 19 || !scaled_round(&x, (int)(L - 1 - E), rm, v->neg, &D))
                return 0;
            if (D == p10_64[L]) { /* 9.99 -> 10.0 */
                D = p10_64[L - 1];
                E++;
            }
        }
        dg = u64_chars(tb + 72, D);
        nd = L;
        if (sp->conv == 'e') {
            n = fbody_e(ob + 1, dg, nd, E, prec, prec || hash, (fl & FL_UPPER) != 0);
        } else {
            if (!hash)
                while (nd > 1 && dg[nd - 1] == '0')
                    nd--;
            if (L > E && E >= -4) {
                int fd = hash ? (int)(L - 1 - E) : (int)(nd - (E + 1));
                if (fd < 0)
                    fd = 0;
                n = fbody_f(ob + 1, dg, nd, E, fd, fd || hash);
            } else {
                int fd = hash ? L - 1 : nd - 1;
                n = fbody_e(ob + 1, dg, nd, E, fd, fd || hash, (fl & FL_UPPER) != 0);
            }
        }
    }
    /* sign + body in one piece when no padding is needed */
    if ((size_t)sp->width <= n + (sign != 0) || sp->width <= 0) {
        char *st = ob + 1;
        if (sign) {
            *--st = sign;
            n++;
        }
        put_bytes(w, st, n);
    } else {
        size_t rp = field_open(w, fl, sp->width, sign, 0, 0, n, 1);
        put_bytes(w, ob + 1, n);
        sink_pad(w, ' ', rp);
    }
    return 1;
}

/* ------------------------------------------------------------- driver -- */

void conv_float_ex(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                   enum ref_rounding rm, int force_big);

void conv_float_ex(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                   enum ref_rounding rm, int force_big)
{
    unsigned fl = sp->flags;
    char sign = v->neg ? '-' : (fl & FL_PLUS) ? '+' : (fl & FL_SPACE) ? ' ' : 0;

    if (v->cls != FP_FINITE) {
        const char *t = v->cls == FP_INF ? ((fl & FL_UPPER) ? "INF" : "inf")
                                         : ((fl & FL_UPPER) ? "NAN" : "nan");
        size_t rp = field_open(w, fl, sp->width, sign, 0, 0, 3, 0);
        sink_write(w, t, 3);
        sink_pad(w, ' ', rp);
        return;
    }
    if (sp->conv == 'a') {
        conv_hex(w, sp, sign, v, rm);
        return;
    }

    /* one big-number work area for every route */
    union {
        uint32_t l32[BIG_LIMBS];
        uint64_t l64[BIG_LIMBS / 2];
    } wk;
    if (!force_big && fast_conv(w, sp, sign, v, rm, wk.l64))
        return;

    uint32_t *buf = wk.l32;
    char dbuf[FAST_DIGS];
    struct dsrc s;
    struct rres r;
    long long prec = sp->prec < 0 ? 6 : sp->prec;
    int hash = (fl & FL_HASH) != 0;

    if (sp->conv == 'f') {
        fp_round_value(v, 'f', prec, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        print_f(w, sp, sign, &s, &r, prec, prec > 0 || hash);
    } else if (sp->conv == 'e') {
        fp_round_value(v, 'e', prec + 1, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        print_e(w, sp, sign, &s, &r, prec, prec > 0 || hash);
    } else { /* 'g' */
        long long P = prec == 0 ? 1 : prec;
        fp_round_value(v, 'e', P, rm, force_big, buf, wk.l64, dbuf, &s, &r);
        long long X = r.nsig ? r.E : 0;
        if (P > X && X >= -4) {
            long long fd = P - 1 - X;
            if (!hash) {
                long long nz =
                    fp_last_nonzero(&s, &r, P > (long long)r.nsig ? r.nsig : (long)P);
                fd = nz - (X + 1);
                if (fd < 0)
                    fd = 0;
            }
            print_f(w, sp, sign, &s, &r, fd, fd > 0 || hash);
        } else {
            long long fd = P - 1;
            if (!hash) {
                long long nz =
                    fp_last_nonzero(&s, &r, P > (long long)r.nsig ? r.nsig : (long)P);
                fd = nz - 1;
                if (fd < 0)
                    fd = 0;
            }
            print_e(w, sp, sign, &s, &r, fd, fd > 0 || hash);
        }
    }
}

void conv_float(struct sink *w, const struct fmt_spec *sp, const struct fp_value *v,
                enum ref_rounding rm)
{
    if (rm == REF_ROUND_CURRENT)
        rm = fp_current_rounding();
    conv_float_ex(w, sp, v, rm, 0);
}
