/* parse.c - one ISO C conversion specification -> struct fmt_spec.
 *
 *   %[n$][flags][width|*|*m$][.[prec|*|*m$]][length]conv        (C17 7.21.6.1, C23, POSIX)
 *
 * Table-driven: every conversion character has a class, and every class a
 * bit mask of the length modifiers C defines for it. Any other pair (e.g.
 * %Ld, %hs, %lp) is PARSE_INVALID: the argument type would be unknown.
 */
#include "internal.h"

enum conv_class {
    CC_BAD = 0,
    CC_SINT,  /* d i */
    CC_UINT,  /* o u x X b B */
    CC_N,     /* n */
    CC_CHAR,  /* c */
    CC_STR,   /* s */
    CC_PTR,   /* p */
    CC_FLOAT, /* a A e E f F g G */
};

#define LB(l) (1u << (l))
#define LEN_INTS (LB(LEN_NONE) | LB(LEN_HH) | LB(LEN_H) | LB(LEN_L) | LB(LEN_LL) | \
                  LB(LEN_J) | LB(LEN_Z) | LB(LEN_T) | LB(LEN_W))

static const unsigned short class_lengths[] = {
    [CC_BAD] = 0,
    [CC_SINT] = LEN_INTS,
    [CC_UINT] = LEN_INTS,
    [CC_N] = LEN_INTS,
    [CC_CHAR] = LB(LEN_NONE) | LB(LEN_L),
    [CC_STR] = LB(LEN_NONE) | LB(LEN_L),
    [CC_PTR] = LB(LEN_NONE),
    [CC_FLOAT] = LB(LEN_NONE) | LB(LEN_L) | LB(LEN_BIG_L),
};

/* conversion character -> class; upper-case variants are flagged by conv_upper */
static const unsigned char conv_table[128] = {
    ['d'] = CC_SINT, ['i'] = CC_SINT,
    ['o'] = CC_UINT, ['u'] = CC_UINT, ['x'] = CC_UINT, ['X'] = CC_UINT,
    ['b'] = CC_UINT, ['B'] = CC_UINT,
    ['n'] = CC_N, ['c'] = CC_CHAR, ['s'] = CC_STR, ['p'] = CC_PTR,
    ['a'] = CC_FLOAT, ['A'] = CC_FLOAT, ['e'] = CC_FLOAT, ['E'] = CC_FLOAT,
    ['f'] = CC_FLOAT, ['F'] = CC_FLOAT, ['g'] = CC_FLOAT, ['G'] = CC_FLOAT,
};

/* Integer argument kinds per length modifier: how va_arg fetches it and how
 * many bits of it are the value (hh/h convert to char/short, 7.21.6.1p7). */
static const unsigned char len_kind[] = {
    [LEN_NONE] = AK_INT, [LEN_HH] = AK_INT, [LEN_H] = AK_INT, [LEN_L] = AK_LONG,
    [LEN_LL] = AK_LLONG, [LEN_J] = AK_INTMAX, [LEN_Z] = AK_SIZE, [LEN_T] = AK_PTRDIFF,
};
static const unsigned char len_bits[] = {
    [LEN_NONE] = sizeof(int) * CHAR_BIT, [LEN_HH] = CHAR_BIT,
    [LEN_H] = sizeof(short) * CHAR_BIT, [LEN_L] = sizeof(long) * CHAR_BIT,
    [LEN_LL] = sizeof(long long) * CHAR_BIT, [LEN_J] = sizeof(intmax_t) * CHAR_BIT,
    [LEN_Z] = sizeof(size_t) * CHAR_BIT, [LEN_T] = sizeof(ptrdiff_t) * CHAR_BIT,
};

/* The va_arg kind of a (possibly promoted) integer type T. */
#define KIND_OF(T) _Generic((T)0 + 0, int: AK_INT, unsigned: AK_INT, long: AK_LONG, \
                            unsigned long: AK_LONG, long long: AK_LLONG,            \
                            unsigned long long: AK_LLONG)

/* wN / wfN for N = 8, 16, 32, 64: kind and bits, index [fast][log2(N) - 3].
 * The exact types are the <stdint.h> ones. The fast types are fixed to the
 * x86-64 glibc ABI (not the compiler's __INT_FASTn_TYPE__, which differs
 * between gcc and clang): int_fast8_t = signed char, int_fast16/32/64_t =
 * long. printf.c's %wfNn store uses the same types. */
static const unsigned char w_kind[2][4] = {
    { KIND_OF(int8_t), KIND_OF(int16_t), KIND_OF(int32_t), KIND_OF(int64_t) },
    { KIND_OF(signed char), KIND_OF(long), KIND_OF(long), KIND_OF(long) },
};
static const unsigned char w_bits[2][4] = {
    { 8, 16, 32, 64 },
    { CHAR_BIT, sizeof(long) * CHAR_BIT, sizeof(long) * CHAR_BIT, sizeof(long) * CHAR_BIT },
};

_Static_assert(CHAR_BIT == 8 && sizeof(short) == 2, "8-bit char, 16-bit short");
_Static_assert(sizeof(long long) == 8 && sizeof(intmax_t) == 8, "64-bit long long/intmax_t");

static const unsigned char flag_table[256] = {
    ['-'] = FL_MINUS, ['+'] = FL_PLUS, [' '] = FL_SPACE, ['#'] = FL_HASH, ['0'] = FL_ZERO,
};

static inline int is_digit(unsigned char c) { return (unsigned)(c - '0') < 10; }

/* Reads a decimal number, saturating at UINT_MAX (> INT_MAX). */
static unsigned read_num(const unsigned char **pp)
{
    const unsigned char *p = *pp;
    unsigned v = 0;
    while (is_digit(*p)) {
        unsigned d = *p++ - '0';
        v = v > (UINT_MAX - 9) / 10 ? UINT_MAX : v * 10 + d;
    }
    *pp = p;
    return v;
}

/* '*' [m$]: *pos = m, or 0 for a plain '*'. */
static enum parse_status read_star(const unsigned char **pp, unsigned char *pos)
{
    const unsigned char *p = *pp + 1; /* past '*' */
    *pos = 0;
    if (is_digit(*p)) {
        const unsigned char *q = p;
        unsigned m = read_num(&q);
        if (*q == '$') {
            if (m == 0 || m > REF_NL_ARGMAX)
                return PARSE_BADPOS;
            *pos = (unsigned char)m;
            p = q + 1;
        }
        /* otherwise the digits are not part of the '*': the caller then
         * meets a digit where a conversion belongs -> invalid */
    }
    *pp = p;
    return PARSE_OK;
}

enum parse_status parse_spec(const char **fmt, struct fmt_spec *s)
{
    const unsigned char *p = (const unsigned char *)*fmt;
    unsigned flags = 0;
    enum parse_status st;
    unsigned char c, cls, len;

    s->pos = 0;
    s->wpos = SPEC_NO_STAR;
    s->ppos = SPEC_NO_STAR;
    s->width = 0;
    s->prec = -1;
    s->wbits = 0;

    /* n$ */
    if (is_digit(*p) && *p != '0') {
        const unsigned char *q = p;
        unsigned n = read_num(&q);
        if (*q == '$') {
            if (n > REF_NL_ARGMAX)
                return PARSE_BADPOS;
            s->pos = (unsigned char)n;
            p = q + 1;
        }
    } else if (*p == '0' && p[1] == '$') {
        return PARSE_BADPOS;
    }

    /* flags */
    for (unsigned f; (f = flag_table[*p]) != 0; p++)
        flags |= f;

    /* width */
    if (is_digit(*p)) {
        unsigned v = read_num(&p);
        if (v > INT_MAX)
            return PARSE_OVERFLOW;
        s->width = (int)v;
    } else if (*p == '*') {
        if ((st = read_star(&p, &s->wpos)) != PARSE_OK)
            return st;
    }

    /* precision: '.' alone is precision 0 */
    if (*p == '.') {
        p++;
        if (*p == '*') {
            if ((st = read_star(&p, &s->ppos)) != PARSE_OK)
                return st;
        } else {
            unsigned v = read_num(&p);
            if (v > INT_MAX)
                return PARSE_OVERFLOW;
            s->prec = (int)v;
        }
    }

    /* length */
    len = LEN_NONE;
    switch (*p) {
    case 'h':
        if (p[1] == 'h') { len = LEN_HH; p += 2; } else { len = LEN_H; p++; }
        break;
    case 'l':
        if (p[1] == 'l') { len = LEN_LL; p += 2; } else { len = LEN_L; p++; }
        break;
    case 'j': len = LEN_J; p++; break;
    case 'z': len = LEN_Z; p++; break;
    case 't': len = LEN_T; p++; break;
    case 'L': len = LEN_BIG_L; p++; break;
    case 'w': {
        unsigned fast = 0, n, i;
        p++;
        if (*p == 'f') { fast = 1; p++; }
        if (!is_digit(*p) || *p == '0')
            return PARSE_INVALID;
        n = read_num(&p);
        switch (n) {
        case 8: i = 0; break;
        case 16: i = 1; break;
        case 32: i = 2; break;
        case 64: i = 3; break;
        default: return PARSE_INVALID;
        }
        len = LEN_W;
        s->wbits = (unsigned short)n;
        if (fast)
            flags |= FL_WFAST;
        s->argk = w_kind[fast][i];
        s->ibits = w_bits[fast][i];
        break;
    }
    }

    c = *p;
    cls = c < 128 ? conv_table[c] : CC_BAD;
    if (cls == CC_BAD || !(class_lengths[cls] & LB(len)))
        return PARSE_INVALID;
    p++;

    if (c >= 'A' && c <= 'Z') {
        flags |= FL_UPPER;
        c = (unsigned char)(c + ('a' - 'A'));
    }
    s->conv = c;
    s->length = len;

    switch (cls) {
    case CC_SINT:
    case CC_UINT:
        if (len != LEN_W) {
            s->argk = len_kind[len];
            s->ibits = len_bits[len];
        }
        break;
    case CC_N:
        if (len != LEN_W)
            s->ibits = len_bits[len];
        s->argk = AK_PTR;
        break;
    case CC_CHAR:
        s->argk = len == LEN_L ? AK_WINT : AK_INT;
        break;
    case CC_STR:
    case CC_PTR:
        s->argk = AK_PTR;
        break;
    default: /* CC_FLOAT */
        s->argk = len == LEN_BIG_L ? AK_LDOUBLE : AK_DOUBLE;
        break;
    }
    s->flags = flags;
    *fmt = (const char *)p;
    return PARSE_OK;
}
