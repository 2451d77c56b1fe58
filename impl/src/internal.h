/* Internal interfaces of the reference engine: parse -> convert -> sink.
 *
 *   parse.c    reads one conversion specification into a struct fmt_spec
 *   conv_*.c   one converter per conversion family, writing into a struct sink
 *   sink       (this header) owns the bounded buffer and counts every byte
 *   printf.c   the driver: argument fetching (sequential or %n$), dispatch,
 *              dialects, and the two return-value families
 *
 * Freestanding: only compiler headers. Nothing here allocates.
 */
#ifndef SCN_REF_INTERNAL_H
#define SCN_REF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#include "scn/ref_printf.h"

/* ---- the parsed conversion specification (LLVM libc's FormatSection) ---- */

enum fmt_flag {
    FL_MINUS = 1u << 0, /* '-' left-justify */
    FL_PLUS  = 1u << 1, /* '+' always a sign */
    FL_SPACE = 1u << 2, /* ' ' space for a missing sign */
    FL_HASH  = 1u << 3, /* '#' alternative form */
    FL_ZERO  = 1u << 4, /* '0' pad with zeros */
    FL_UPPER = 1u << 5, /* conversion is the upper-case variant (X E F G A B) */
};

enum fmt_length {
    LEN_NONE = 0, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L,
    LEN_W /* C23 wN / wfN: width in fmt_spec.wbits */
};

struct fmt_spec {
    unsigned char conv;   /* conversion character, lower-cased for X E F G A B (see FL_UPPER) */
    unsigned char length; /* enum fmt_length */
    unsigned short wbits; /* N of wN/wfN, else 0 */
    unsigned flags;       /* enum fmt_flag */
    int width;            /* field width, 0 if none (a negative '*' sets FL_MINUS) */
    int prec;             /* precision, -1 if none */
};

/* ---- the sink: a bounded buffer that counts what it was asked to write ---- */

struct sink {
    char *buf;    /* may be NULL when size == 0 */
    size_t size;  /* bytes available, including room for the NUL */
    size_t len;   /* bytes the full output has so far (may exceed size) */
};

/* Writes are clipped to size-1 so that a NUL always fits; len keeps counting. */
static inline void sink_write(struct sink *s, const char *p, size_t n)
{
    if (s->len < s->size) {
        size_t room = s->size - 1 - s->len;
        size_t k = n < room ? n : room;
        for (size_t i = 0; i < k; i++)
            s->buf[s->len + i] = p[i];
    }
    s->len += n;
}

static inline void sink_putc(struct sink *s, char c)
{
    if (s->len + 1 < s->size)
        s->buf[s->len] = c;
    s->len++;
}

static inline void sink_pad(struct sink *s, char c, size_t n)
{
    if (s->len < s->size) {
        size_t room = s->size - 1 - s->len;
        size_t k = n < room ? n : room;
        for (size_t i = 0; i < k; i++)
            s->buf[s->len + i] = c;
    }
    s->len += n;
}

/* ---- floating-point values, decoded once so one converter serves double and
 * x86 80-bit long double:  value = (-1)^neg * mant * 2^exp  (finite case) ---- */

enum fp_class { FP_FINITE = 0, FP_INF, FP_NAN };

struct fp_value {
    uint64_t mant;      /* significand as an integer; 0 for zero */
    int exp;            /* binary exponent of mant's unit bit */
    unsigned char neg;  /* sign bit, also for zero and NaN */
    unsigned char cls;  /* enum fp_class */
    unsigned char bits; /* significand width of the source type: 53 or 64 */
};

struct fp_value fp_from_double(double d);
struct fp_value fp_from_long_double(long double d);

/* Formats one a/e/f/g conversion (either case) of v with spec s into w,
 * including sign, padding and every flag, rounded in direction r. */
void conv_float(struct sink *w, const struct fmt_spec *s, const struct fp_value *v,
                enum ref_rounding r);

#endif /* SCN_REF_INTERNAL_H */
