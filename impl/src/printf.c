/* printf.c - the driver: the API of ref_printf.h, the walk over the format,
 * argument fetching (sequential, or POSIX %n$ in two passes), dialect
 * dispatch and the two return-value families.
 *
 * Stack bound (no recursion, no allocation): gcc -O2 -fstack-usage gives
 * ref_scnprintf_ex 240 B, run() 208 B (iso_format inlined), iso_positional()
 * 1232 B (REF_NL_ARGMAX+1 16-byte argument slots + kinds), emit() 80 B,
 * emit_int()/k_number() 160 B each: at most about 2 KiB of engine frames on
 * the deepest (positional) path, under 1 KiB sequentially, plus the float
 * converter's own frames (conv_float) for a e f g.
 */
#include "internal.h"

union arg {
    long long i; /* every integer kind, sign- or zero-extended per its type */
    void *p;
    double d;
    long double ld;
};

enum { ST_OK = 0, ST_ERR = -1 };

/* Literal text runs end at '%' or NUL; one table load per byte, unrolled.
 * A byte is read only after the previous one was found not to be the NUL. */
static const unsigned char text_stop[256] = { [0] = 1, ['%'] = 1 };

static inline const char *scan_text(const char *q)
{
    for (;; q += 4) {
        if (text_stop[(unsigned char)q[0]])
            return q;
        if (text_stop[(unsigned char)q[1]])
            return q + 1;
        if (text_stop[(unsigned char)q[2]])
            return q + 2;
        if (text_stop[(unsigned char)q[3]])
            return q + 3;
    }
}

/* Writes the text from p up to the next conversion ("%%" as '%'); returns
 * the '%' that starts it, or NULL at the end of the format. */
static inline const char *copy_text(struct sink *w, const char *p)
{
    for (;;) {
        const char *q = scan_text(p);
        if (q != p)
            sink_write(w, p, (size_t)(q - p));
        if (!*q)
            return NULL;
        if (q[1] != '%')
            return q;
        sink_putc(w, '%');
        p = q + 2;
    }
}

static inline void fetch(union arg *a, unsigned kind, va_list *ap)
{
    switch (kind) {
    case AK_INT: a->i = va_arg(*ap, int); break;
    case AK_WINT: a->i = (long long)va_arg(*ap, ref_wint); break;
    case AK_LONG: a->i = va_arg(*ap, long); break;
    case AK_LLONG: a->i = va_arg(*ap, long long); break;
    case AK_INTMAX: a->i = (long long)va_arg(*ap, intmax_t); break;
    case AK_SIZE: a->i = (long long)va_arg(*ap, size_t); break;
    case AK_PTRDIFF: a->i = (long long)va_arg(*ap, ptrdiff_t); break;
    case AK_PTR: a->p = va_arg(*ap, void *); break;
    case AK_DOUBLE: a->d = va_arg(*ap, double); break;
    case AK_LDOUBLE: a->ld = va_arg(*ap, long double); break;
    default: a->i = 0; break;
    }
}

/* A '*' argument: negative width = '-' flag + its magnitude; negative
 * precision = no precision. Returns ST_ERR when the width is INT_MIN (the
 * field alone would exceed INT_MAX bytes). */
static inline int apply_width(struct fmt_spec *s, int v)
{
    if (v < 0) {
        if (v == INT_MIN)
            return ST_ERR;
        s->flags |= FL_MINUS;
        v = -v;
    }
    s->width = v;
    return ST_OK;
}

static inline void apply_prec(struct fmt_spec *s, int v)
{
    s->prec = v < 0 ? -1 : v;
}

/* %n: stores the count so far in the target's type. */
static void store_count(const struct fmt_spec *s, void *p, size_t count)
{
    long long v = (long long)count;
    switch (s->length) {
    case LEN_HH: *(signed char *)p = (signed char)v; break;
    case LEN_H: *(short *)p = (short)v; break;
    case LEN_L: *(long *)p = (long)v; break;
    case LEN_LL: *(long long *)p = v; break;
    case LEN_J: *(intmax_t *)p = (intmax_t)v; break;
    case LEN_Z: *(size_t *)p = (size_t)v; break;
    case LEN_T: *(ptrdiff_t *)p = (ptrdiff_t)v; break;
    case LEN_W:
        if (s->flags & FL_WFAST) {
            /* x86-64 glibc's int_fastN_t, see parse.c */
            if (s->wbits == 8)
                *(signed char *)p = (signed char)v;
            else
                *(long *)p = (long)v;
        } else {
            switch (s->wbits) {
            case 8: *(int8_t *)p = (int8_t)v; break;
            case 16: *(int16_t *)p = (int16_t)v; break;
            case 32: *(int32_t *)p = (int32_t)v; break;
            default: *(int64_t *)p = (int64_t)v; break;
            }
        }
        break;
    default: *(int *)p = (int)v; break;
    }
}

/* Converts one argument. */
static int emit(struct sink *w, const struct fmt_spec *s, const union arg *a,
                const struct ref_options *o)
{
    switch (s->conv) {
    case 'd':
    case 'i': {
        unsigned sh = 64u - s->ibits;
        int64_t v = (int64_t)((uint64_t)a->i << sh) >> sh;
        uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        conv_int(w, s, mag, v < 0);
        return ST_OK;
    }
    case 'o':
    case 'u':
    case 'x':
    case 'b': {
        uint64_t v = (uint64_t)a->i;
        if (s->ibits < 64)
            v &= ((uint64_t)1 << s->ibits) - 1;
        conv_int(w, s, v, 0);
        return ST_OK;
    }
    case 's':
        if (s->length == LEN_L)
            return conv_wstr(w, s, (const ref_wchar *)a->p, o->encoding);
        conv_str(w, s, (const char *)a->p);
        return ST_OK;
    case 'c':
        if (s->length == LEN_L)
            return conv_wchar(w, s, (ref_wint)a->i, o->encoding);
        conv_char(w, s, (unsigned char)a->i);
        return ST_OK;
    case 'p':
        conv_ptr(w, s, a->p);
        return ST_OK;
    case 'n':
        store_count(s, a->p, w->len);
        return ST_OK;
    default: { /* a e f g */
        struct fp_value v = s->length == LEN_BIG_L ? fp_from_long_double(a->ld)
                                                    : fp_from_double(a->d);
        conv_float(w, s, &v, o->rounding);
        return ST_OK;
    }
    }
}

/* Positional formats: all-or-nothing. Pass 1 parses every specification and
 * records the kind of every position (1..REF_NL_ARGMAX); a specification
 * without n$, a '*' without m$, an unused position below the highest one, or
 * a position used with two different kinds fails the call before anything
 * is written. Then the arguments are fetched once, in position order. */
static int iso_positional(struct sink *w, const char *fmt, va_list *ap,
                          const struct ref_options *o)
{
    unsigned char kinds[REF_NL_ARGMAX + 1];
    union arg args[REF_NL_ARGMAX + 1];
    unsigned maxpos = 0;
    struct fmt_spec s;
    const char *p;

    for (unsigned i = 0; i <= REF_NL_ARGMAX; i++)
        kinds[i] = AK_NONE;

#define USE_POS(pos, kind)                                              \
    do {                                                                \
        if ((pos) == 0)                                                 \
            return ST_ERR;                                              \
        if (kinds[pos] != AK_NONE && kinds[pos] != (kind))              \
            return ST_ERR;                                              \
        kinds[pos] = (unsigned char)(kind);                             \
        if ((pos) > maxpos)                                             \
            maxpos = (pos);                                             \
    } while (0)

    for (p = fmt; *p;) {
        if (*p++ != '%')
            continue;
        if (*p == '%') {
            p++;
            continue;
        }
        if (parse_spec(&p, &s) != PARSE_OK)
            return ST_ERR;
        USE_POS(s.pos, s.argk);
        if (s.wpos != SPEC_NO_STAR)
            USE_POS(s.wpos, AK_INT);
        if (s.ppos != SPEC_NO_STAR)
            USE_POS(s.ppos, AK_INT);
    }
#undef USE_POS
    for (unsigned i = 1; i <= maxpos; i++) {
        if (kinds[i] == AK_NONE)
            return ST_ERR;
        fetch(&args[i], kinds[i], ap);
    }

    for (p = fmt;;) {
        const char *q = copy_text(w, p);
        if (!q)
            return ST_OK;
        p = q + 1;
        (void)parse_spec(&p, &s); /* validated in pass 1 */
        if (s.wpos != SPEC_NO_STAR && apply_width(&s, (int)args[s.wpos].i) != ST_OK)
            return ST_ERR;
        if (s.ppos != SPEC_NO_STAR)
            apply_prec(&s, (int)args[s.ppos].i);
        if (emit(w, &s, &args[s.pos], o) != ST_OK)
            return ST_ERR;
    }
}

/* The common specifications without flags, width, precision or length
 * ("%d", "%s", ...) skip parse_spec(): indexed by the conversion character. */
#define SIMPLE(ch, cv, fl, k, bits) \
    [ch] = { .conv = cv, .flags = fl, .prec = -1, .argk = k, .ibits = bits, \
             .wpos = SPEC_NO_STAR, .ppos = SPEC_NO_STAR }
static const struct fmt_spec simple_spec[128] = {
    SIMPLE('d', 'd', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('i', 'i', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('u', 'u', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('o', 'o', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('x', 'x', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('X', 'x', FL_UPPER, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('b', 'b', 0, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('B', 'b', FL_UPPER, AK_INT, sizeof(int) * CHAR_BIT),
    SIMPLE('c', 'c', 0, AK_INT, 0),
    SIMPLE('s', 's', 0, AK_PTR, 0),
    SIMPLE('p', 'p', 0, AK_PTR, 0),
};
#undef SIMPLE

/* The ISO walk. Returns ST_OK or ST_ERR (invalid specification, encoding
 * error, field too wide); on ST_ERR the output so far stays in the sink. */
static int iso_format(struct sink *w, const char *fmt, va_list *ap,
                      const struct ref_options *o)
{
    const char *p = fmt;
    int first = 1;
    struct fmt_spec s;
    union arg a;

    for (;;) {
        const char *q = copy_text(w, p);
        if (!q)
            return ST_OK;
        /* the hot path: %d %i %u %x %X %s %c without flags or width */
        switch (q[1]) {
        case 'd':
        case 'i': {
            char b[12], *e = b + sizeof b, *d;
            int v = va_arg(*ap, int);
            d = u32_dec(e, v < 0 ? 0u - (unsigned)v : (unsigned)v);
            if (v < 0)
                *--d = '-';
            sink_write(w, d, (size_t)(e - d));
            p = q + 2;
            first = 0;
            continue;
        }
        case 'u': {
            char b[12], *e = b + sizeof b, *d;
            d = u32_dec(e, va_arg(*ap, unsigned));
            sink_write(w, d, (size_t)(e - d));
            p = q + 2;
            first = 0;
            continue;
        }
        case 'x':
        case 'X': {
            char b[8], *e = b + sizeof b, *d = e;
            const char *xd = q[1] == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
            unsigned v = va_arg(*ap, unsigned);
            do {
                *--d = xd[v & 15];
                v >>= 4;
            } while (v);
            sink_write(w, d, (size_t)(e - d));
            p = q + 2;
            first = 0;
            continue;
        }
        case 's': {
            const char *str = va_arg(*ap, const char *);
            size_t n = 0;
            if (!str)
                str = "(null)";
            while (str[n])
                n++;
            sink_write(w, str, n);
            p = q + 2;
            first = 0;
            continue;
        }
        case 'c':
            sink_putc(w, (char)(unsigned char)va_arg(*ap, int));
            p = q + 2;
            first = 0;
            continue;
        }
        if ((unsigned char)q[1] < 128 && simple_spec[(unsigned char)q[1]].conv) {
            s = simple_spec[(unsigned char)q[1]];
            p = q + 2;
        } else {
            p = q + 1;
            if (parse_spec(&p, &s) != PARSE_OK)
                return ST_ERR;
        }
        if (s.pos || (s.wpos != 0 && s.wpos != SPEC_NO_STAR) ||
            (s.ppos != 0 && s.ppos != SPEC_NO_STAR)) {
            if (!first)
                return ST_ERR; /* numbered after unnumbered */
            w->len = 0;        /* start over: nothing is kept from this pass */
            return iso_positional(w, fmt, ap, o);
        }
        first = 0;
        if (s.wpos == 0 && apply_width(&s, va_arg(*ap, int)) != ST_OK)
            return ST_ERR;
        if (s.ppos == 0)
            apply_prec(&s, va_arg(*ap, int));
        fetch(&a, s.argk, ap);
        if (emit(w, &s, &a, o) != ST_OK)
            return ST_ERR;
    }
}

static const struct ref_options default_options = {
    REF_DIALECT_ISO, REF_ENCODING_C, REF_ROUND_CURRENT
};

static inline void terminate(struct sink *w)
{
    if (w->size)
        w->buf[w->len < w->size ? w->len : w->size - 1] = '\0';
}

/* Runs the format; returns the C99-family result of the chosen dialect and
 * leaves the number of bytes written (excluding the NUL) in *written. */
static int run(char *buf, size_t size, const struct ref_options *o, const char *fmt,
               va_list ap, size_t *written)
{
    struct sink w = { buf, size, 0 };
    va_list aq;
    int ret;

    if (!o)
        o = &default_options;
    *written = 0;
    if (o->dialect == REF_DIALECT_LINUX_KERNEL) {
        /* lib/vsprintf.c: sizes above INT_MAX return 0, writing nothing */
        if (size > INT_MAX)
            return 0;
        va_copy(aq, ap);
        kernel_format(&w, fmt, &aq);
        va_end(aq);
        terminate(&w);
        *written = size ? (w.len < size ? w.len : size - 1) : 0;
        /* the kernel returns str - buf converted to int */
        return (int)(unsigned)w.len;
    }
    va_copy(aq, ap);
    ret = iso_format(&w, fmt, &aq, o);
    va_end(aq);
    terminate(&w);
    *written = size ? (w.len < size ? w.len : size - 1) : 0;
    if (ret != ST_OK || w.len > INT_MAX)
        return -1;
    return (int)w.len;
}

int ref_vsnprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                     const char *fmt, va_list ap)
{
    size_t written;
    return run(buf, size, opt, fmt, ap, &written);
}

int ref_vscnprintf_ex(char *buf, size_t size, const struct ref_options *opt,
                      const char *fmt, va_list ap)
{
    size_t written;
    int r;

    if (size == 0)
        return 0;
    if (opt && opt->dialect == REF_DIALECT_LINUX_KERNEL) {
        /* lib/vsprintf.c vscnprintf(): i < size ? i : size - 1 */
        r = run(buf, size, opt, fmt, ap, &written);
        if ((size_t)r < size)
            return r;
        return (int)(size - 1);
    }
    /* ISO: the bytes written; at most INT_MAX bytes are written so that the
     * count always fits the int result */
    if (size > (size_t)INT_MAX + 1)
        size = (size_t)INT_MAX + 1;
    (void)run(buf, size, opt, fmt, ap, &written);
    return (int)written;
}

int ref_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vsnprintf_ex(buf, size, NULL, fmt, ap);
}

int ref_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vscnprintf_ex(buf, size, NULL, fmt, ap);
}

/* The variadic entry points, each its va_list function over its arguments. */
#define REF_VARIADIC(call) \
    va_list ap;            \
    int r;                 \
    va_start(ap, fmt);     \
    r = call;              \
    va_end(ap);            \
    return r

int ref_snprintf(char *buf, size_t size, const char *fmt, ...)
{ REF_VARIADIC(ref_vsnprintf_ex(buf, size, NULL, fmt, ap)); }
int ref_scnprintf(char *buf, size_t size, const char *fmt, ...)
{ REF_VARIADIC(ref_vscnprintf_ex(buf, size, NULL, fmt, ap)); }
int ref_snprintf_ex(char *buf, size_t size, const struct ref_options *opt, const char *fmt, ...)
{ REF_VARIADIC(ref_vsnprintf_ex(buf, size, opt, fmt, ap)); }
int ref_scnprintf_ex(char *buf, size_t size, const struct ref_options *opt, const char *fmt, ...)
{ REF_VARIADIC(ref_vscnprintf_ex(buf, size, opt, fmt, ap)); }
