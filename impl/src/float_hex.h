/* %a %A: the significand in hexadecimal with one leading digit (1, or 0 for
 * zero), rounded on the binary fraction to the precision in the requested
 * direction, and the binary exponent in decimal (LLVM libc:
 * printf_core/float_hex_converter.h).
 *
 * Part of conv_float.c's translation unit (see there): included by
 * conv_float.c only, its functions static as in a single file.
 */
#ifndef SCN_REF_FLOAT_HEX_H
#define SCN_REF_FLOAT_HEX_H

#include "float_print.h"

static void conv_hex(struct sink *w, const struct fmt_spec *sp, char sign,
                     const struct fp_value *v, enum ref_rounding rm)
{
    static const char lx[] = "0123456789abcdef", ux[] = "0123456789ABCDEF";
    const char *xd = (sp->flags & FL_UPPER) ? ux : lx;
    int up = (sp->flags & FL_UPPER) != 0;
    uint64_t fr = 0;  /* the 64 fraction bits after the leading 1 */
    long x = 0;       /* binary exponent of the leading digit */
    int nd;           /* fraction hex digits to print (from fr, then zeros) */
    long long prec = sp->prec;
    int lead = 0;

    if (v->mant) {
        int lz = __builtin_clzll(v->mant);
        uint64_t n = v->mant << lz;
        x = (long)v->exp + 63 - lz;
        fr = n << 1;
        lead = 1;
    }
    if (prec < 0) {
        nd = 16;
        while (nd > 0 && ((fr >> (64 - 4 * nd)) & 15) == 0)
            nd--;
        prec = nd;
    } else if (prec < 16 && lead) {
        /* round fr to prec hex digits */
        int kb = 4 * (int)prec; /* kept bits */
        uint64_t kept = kb ? fr >> (64 - kb) : 0;
        uint64_t disc = kb ? fr << kb : fr;
        int d = (int)(disc >> 63);
        int sticky = (disc << 1) != 0;
        int odd = kb ? (int)(kept & 1) : 1;
        /* reuse the decimal rule with a binary "digit": half = d */
        int upd;
        switch (rm) {
        case REF_ROUND_TOWARD_ZERO: upd = 0; break;
        case REF_ROUND_UPWARD: upd = !v->neg && (d || sticky); break;
        case REF_ROUND_DOWNWARD: upd = v->neg && (d || sticky); break;
        default: upd = d && (sticky || odd); break;
        }
        if (upd) {
            kept++;
            if (kb == 0 || kept >> kb) {
                /* carry into the leading digit: 0x2.00 -> 0x1.00p(x+1) */
                kept = 0;
                x++;
            }
        }
        fr = kb ? kept << (64 - kb) : 0;
    }
    nd = prec < 16 ? (int)prec : 16;
    int dot = prec > 0 || (sp->flags & FL_HASH);
    size_t el = 1;
    {
        unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
        while (u >= 10) {
            u /= 10;
            el++;
        }
    }
    size_t body = 1 + (dot ? 1 + (size_t)prec : 0) + 2 + el;
    size_t rp = field_open(w, sp->flags, sp->width, sign, up ? "0X" : "0x", 2, body, 1);
    sink_putc(w, lead ? '1' : '0');
    if (dot) {
        sink_putc(w, '.');
        for (int i = 0; i < nd; i++)
            sink_putc(w, xd[(fr >> (60 - 4 * i)) & 15]);
        if (prec > nd)
            sink_pad(w, '0', (size_t)(prec - nd));
    }
    put_exp(w, up ? 'P' : 'p', x, 1); /* the exponent: at least one digit */
    sink_pad(w, ' ', rp);
}

#endif /* SCN_REF_FLOAT_HEX_H */
