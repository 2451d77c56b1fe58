/* Field output: sign, padding and prefix for every route (field_open), and
 * the exact route's rounded digits (struct rres over a digit source) in the
 * %e and %f layouts.  Digits stream from the source into the sink; zeros
 * past the exact expansion are written with sink_pad, so huge precisions
 * cost no memory.
 *
 * Part of conv_float.c's translation unit (see there): included by
 * conv_float.c only, its functions static as in a single file.
 */
#ifndef SCN_REF_FLOAT_PRINT_H
#define SCN_REF_FLOAT_PRINT_H

#include "float_internal.h"

/* sink_write with a fast path when everything fits */
static inline void put_bytes(struct sink *w, const char *p, size_t n)
{
    if (w->len + n < w->size) {
        char *d = w->buf + w->len;
        size_t i = 0;
        for (; i + 8 <= n; i += 8)
            __builtin_memcpy(d + i, p + i, 8);
        for (; i < n; i++)
            d[i] = p[i];
        w->len += n;
    } else {
        sink_write(w, p, n);
    }
}

/* Source digits [a, b), 0 <= a <= b <= src_n. */
static void emit_src(struct sink *w, const struct dsrc *s, long a, long b)
{
    if (s->dig) {
        put_bytes(w, s->dig + a, (size_t)(b - a));
        return;
    }
    char t[9];
    long ra = a + s->skip, rb = b + s->skip;
    while (ra < rb) {
        long li = ra / 9, off = ra % 9;
        long end = (li + 1) * 9 < rb ? (li + 1) * 9 : rb;
        put9(t, s->lim[li]);
        put_bytes(w, t + off, (size_t)(end - ra));
        ra = end;
    }
}

/* Rounded digits [from, to): negative indices and indices past the
 * significant ones are zeros. */
static void emit_digits(struct sink *w, const struct dsrc *s, const struct rres *r,
                        long long from, long long to)
{
    if (from >= to)
        return;
    if (from < 0) {
        long long z = (to < 0 ? to : 0) - from;
        sink_pad(w, '0', (size_t)z);
        from += z;
    }
    long long b = to < r->npre ? to : r->npre;
    if (from < b) {
        emit_src(w, s, (long)from, (long)b);
        from = b;
    }
    if (r->c && from == r->npre && from < to) {
        sink_putc(w, (char)('0' + r->c));
        from++;
    }
    if (from < to)
        sink_pad(w, '0', (size_t)(to - from));
}

/* Left padding, sign, prefix and zero padding; returns the right padding. */
static size_t field_open(struct sink *w, unsigned fl, int width, char sign,
                         const char *pre, size_t prelen, size_t body, int zok)
{
    size_t tot = (sign ? 1 : 0) + prelen + body;
    size_t pad = (width > 0 && (size_t)width > tot) ? (size_t)width - tot : 0;
    int zero = zok && (fl & FL_ZERO) && !(fl & FL_MINUS);
    if (!(fl & FL_MINUS) && !zero) {
        sink_pad(w, ' ', pad);
        pad = 0;
    }
    if (sign)
        sink_putc(w, sign);
    if (prelen)
        sink_write(w, pre, prelen);
    if (zero) {
        sink_pad(w, '0', pad);
        pad = 0;
    }
    return pad;
}

static size_t exp_len(long x)
{
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    size_t n = 1;
    while (u >= 10) {
        u /= 10;
        n++;
    }
    return n < 2 ? 2 : n;
}

static void put_exp(struct sink *w, char ech, long x, size_t mind)
{
    char t[24];
    int n = 0;
    unsigned long u = x < 0 ? (unsigned long)-x : (unsigned long)x;
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while ((size_t)n < mind)
        t[n++] = '0';
    sink_putc(w, ech);
    sink_putc(w, x < 0 ? '-' : '+');
    while (n)
        sink_putc(w, t[--n]);
}

static void print_e(struct sink *w, const struct fmt_spec *sp, char sign,
                    const struct dsrc *s, const struct rres *r, long long frac, int dot)
{
    long x = r->nsig ? r->E : 0;
    size_t el = exp_len(x);
    size_t body = 1 + (dot ? 1 + (size_t)frac : 0) + 2 + el;
    size_t rp = field_open(w, sp->flags, sp->width, sign, 0, 0, body, 1);
    emit_digits(w, s, r, 0, 1);
    if (dot) {
        sink_putc(w, '.');
        emit_digits(w, s, r, 1, 1 + frac);
    }
    put_exp(w, (sp->flags & FL_UPPER) ? 'E' : 'e', x, 2);
    sink_pad(w, ' ', rp);
}

static void print_f(struct sink *w, const struct fmt_spec *sp, char sign,
                    const struct dsrc *s, const struct rres *r, long long frac, int dot)
{
    int ip = r->nsig && r->E >= 0;
    size_t il = ip ? (size_t)r->E + 1 : 1;
    size_t body = il + (dot ? 1 + (size_t)frac : 0);
    size_t rp = field_open(w, sp->flags, sp->width, sign, 0, 0, body, 1);
    long long e1 = ip ? r->E + 1 : 0;
    if (ip)
        emit_digits(w, s, r, 0, e1);
    else
        sink_putc(w, '0');
    if (dot) {
        sink_putc(w, '.');
        /* fraction digit t (1-based) is index E + t */
        if (r->nsig)
            emit_digits(w, s, r, (long long)r->E + 1, (long long)r->E + 1 + frac);
        else
            sink_pad(w, '0', (size_t)frac);
    }
    sink_pad(w, ' ', rp);
}

#endif /* SCN_REF_FLOAT_PRINT_H */
