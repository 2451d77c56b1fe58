/* Internal interfaces of the reference engine: parse -> convert -> sink.
 *
 *   parse.c    reads one conversion specification into a struct fmt_spec
 *   conv_*.c   one converter per conversion family, writing into a struct sink
 *              (floating point: conv_float.c and its float_* files)
 *   sink       (this header) owns the bounded buffer and counts every byte
 *   printf.c   the driver: argument fetching (sequential or %n$), dispatch,
 *              dialects, and the two return-value families
 *
 * Freestanding: only compiler headers. Nothing here allocates.
 */
#ifndef SCN_REF_INTERNAL_H
#define SCN_REF_INTERNAL_H

#include <stdarg.h>
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
    FL_WFAST = 1u << 8, /* driver only: the length was wfN (int_fastN_t), not wN */
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
    /* Filled by parse_spec(), used by the driver only (converters ignore them): */
    unsigned char argk;   /* enum arg_kind of the converted argument (AK_NONE: none) */
    unsigned char ibits;  /* integer conversions: width of the argument's type in bits */
    unsigned char pos;    /* n of %n$, 0 if none */
    unsigned char wpos;   /* '*': m of *m$, 0 for a plain '*'; SPEC_NO_STAR if no '*' */
    unsigned char ppos;   /* '.*': likewise for the precision */
};

#define SPEC_NO_STAR 0xffu

/* ---- the sink: a bounded buffer that counts what it was asked to write ---- */

struct sink {
    char *buf;    /* may be NULL when size == 0 */
    size_t size;  /* bytes available, including room for the NUL */
    size_t len;   /* bytes the full output has so far (may exceed size) */
};

/* Writes are clipped to size-1 so that a NUL always fits; len keeps counting.
 * Fast path: the whole run fits; it is copied 8 bytes at a time (constant-size
 * __builtin_memcpy compiles to plain moves, never to a library call). */
static inline void sink_write(struct sink *s, const char *p, size_t n)
{
    size_t len = s->len;
    if (len + n < s->size) {
        char *d = s->buf + len;
        s->len = len + n;
        while (n >= 8) {
            __builtin_memcpy(d, p, 8);
            d += 8;
            p += 8;
            n -= 8;
        }
        if (n >= 4) {
            __builtin_memcpy(d, p, 4);
            __builtin_memcpy(d + n - 4, p + n - 4, 4);
            return;
        }
        for (size_t i = 0; i < n; i++)
            d[i] = p[i];
        return;
    }
    if (len < s->size) {
        size_t room = s->size - 1 - len;
        for (size_t i = 0; i < room; i++)
            s->buf[len + i] = p[i];
    }
    s->len = len + n;
}

static inline void sink_putc(struct sink *s, char c)
{
    if (s->len + 1 < s->size)
        s->buf[s->len] = c;
    s->len++;
}

static inline void sink_pad(struct sink *s, char c, size_t n)
{
    size_t len = s->len;
    if (len < s->size) {
        size_t room = s->size - 1 - len;
        size_t k = n < room ? n : room;
        char *d = s->buf + len;
        if (k >= 8) {
            uint64_t v = 0x0101010101010101ull * (unsigned char)c;
            size_t i = 0;
            for (; i + 8 <= k; i += 8)
                __builtin_memcpy(d + i, &v, 8);
            __builtin_memcpy(d + k - 8, &v, 8);
        } else {
            for (size_t i = 0; i < k; i++)
                d[i] = c;
        }
    }
    s->len = len + n;
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
/* The rounding direction in force (C17 F.5: conversions honour it), read
 * without libm (float_decode.c). */
enum ref_rounding fp_current_rounding(void);

/* Formats one a/e/f/g conversion (either case) of v with spec s into w,
 * including sign, padding and every flag, rounded in direction r. */
void conv_float(struct sink *w, const struct fmt_spec *s, const struct fp_value *v,
                enum ref_rounding r);

/* ---- argument kinds: how the driver fetches one argument with va_arg ----
 * Signed and unsigned variants of one type share a kind (C17 7.16.1.1p2). */
enum arg_kind {
    AK_NONE = 0, AK_INT, AK_LONG, AK_LLONG, AK_INTMAX, AK_SIZE, AK_PTRDIFF,
    AK_PTR, AK_DOUBLE, AK_LDOUBLE, AK_WINT
};

/* POSIX NL_ARGMAX of the reference: the highest %n$ / *m$ position. */
#define REF_NL_ARGMAX 64

/* parse_spec() results */
enum parse_status {
    PARSE_OK = 0,
    PARSE_INVALID,  /* unknown conversion, bad length/conversion pair, '%' at end, ... */
    PARSE_OVERFLOW, /* a literal width or precision above INT_MAX */
    PARSE_BADPOS    /* a position 0 or above REF_NL_ARGMAX */
};

/* Parses one ISO conversion specification; *fmt points just past the '%'.
 * On PARSE_OK, *fmt is left just past the conversion character. Reads no
 * byte after the conversion character or the terminating NUL. */
enum parse_status parse_spec(const char **fmt, struct fmt_spec *s);

/* ---- converters (ISO dialect) ---- */

/* Writes the digits of v in base 10 ending just before end; returns the start.
 * end must have 20 bytes before it. */
char *u64_dec(char *end, uint64_t v);

/* "00" "01" ... "99" */
extern const char ref_dec_pairs[200];

/* u64_dec for 32-bit values: two digits per step from the pair table. */
static inline char *u32_dec(char *end, uint32_t u)
{
    char *d = end;
    while (u >= 100) {
        uint32_t q = u / 100, r = u - q * 100;
        d -= 2;
        __builtin_memcpy(d, ref_dec_pairs + 2 * r, 2);
        u = q;
    }
    if (u >= 10) {
        d -= 2;
        __builtin_memcpy(d, ref_dec_pairs + 2 * u, 2);
    } else {
        *--d = (char)('0' + u);
    }
    return d;
}

/* d i u o x X b B: mag is the magnitude, neg the sign (d, i only). */
void conv_int(struct sink *w, const struct fmt_spec *s, uint64_t mag, int neg);
void conv_char(struct sink *w, const struct fmt_spec *s, unsigned char c);
void conv_str(struct sink *w, const struct fmt_spec *s, const char *str);
void conv_ptr(struct sink *w, const struct fmt_spec *s, const void *p);

/* %lc / %ls: return 0, or -1 on an encoding error (nothing of the conversion
 * is written then). */
typedef __WCHAR_TYPE__ ref_wchar;
typedef __WINT_TYPE__ ref_wint;
int conv_wchar(struct sink *w, const struct fmt_spec *s, ref_wint c, enum ref_encoding e);
int conv_wstr(struct sink *w, const struct fmt_spec *s, const ref_wchar *str,
              enum ref_encoding e);

/* Space padding helper shared by the converters. */
static inline void pad_left(struct sink *w, const struct fmt_spec *s, size_t len)
{
    if (!(s->flags & FL_MINUS) && (size_t)s->width > len)
        sink_pad(w, ' ', (size_t)s->width - len);
}
static inline void pad_right(struct sink *w, const struct fmt_spec *s, size_t len)
{
    if ((s->flags & FL_MINUS) && (size_t)s->width > len)
        sink_pad(w, ' ', (size_t)s->width - len);
}

/* ---- LINUX_KERNEL dialect (kernel.c): formats all of fmt into w, with the
 * semantics of Linux 6.1 lib/vsprintf.c vsnprintf() after its size check. */
void kernel_format(struct sink *w, const char *fmt, va_list *ap);

/* The kernel's struct printf_spec as the dialect keeps it (its flag bits). */
#define K_SIGN 1
#define K_LEFT 2
#define K_PLUS 4
#define K_SPACE 8
#define K_ZEROPAD 16
#define K_SMALL 32
#define K_SPECIAL 64

struct kspec {
    int field_width; /* always a value of a 24-bit signed bit-field; -1: none */
    int precision;   /* always a value of a 16-bit signed bit-field; -1: none */
    unsigned flags;
    unsigned base;
};

/* The kernel's helpers, shared by kernel.c and the %p extensions:
 * number(), string_nocheck() + widen_string(), error_string() and
 * check_pointer() (which prints "(null)" / "(efault)" and returns 1 for NULL,
 * a pointer below 4096 or an ERR_PTR, without reading). */
void kernel_number(struct sink *w, unsigned long long num, struct kspec spec);
void kernel_string_nocheck(struct sink *w, const char *s, struct kspec spec);
void kernel_error_string(struct sink *w, const char *s, struct kspec spec);
int kernel_check_pointer(struct sink *w, const void *p, struct kspec spec);

/* "0x" + 2 * size lower-case hex digits: special_hex_number() */
static inline void kernel_special_hex(struct sink *w, unsigned long long num, int size)
{
    struct kspec s = { 2 + 2 * size, -1, K_SPECIAL | K_SMALL | K_ZEROPAD, 16 };
    kernel_number(w, num, s);
}

/* lib/ctype.c isalpha(): ASCII letters plus the Latin-1 letters 0xc0-0xff
 * except 0xd7 and 0xf7 */
static inline int kernel_isalpha(unsigned char c)
{
    if (c >= 0xc0)
        return c != 0xd7 && c != 0xf7;
    return (unsigned)((c | 0x20) - 'a') < 26;
}

/* A bounded text buffer for extensions that build their text first (the
 * kernel's local char arrays): a sink over t[n], NUL-terminated by
 * ksink_text(). */
static inline struct sink ksink_on(char *t, size_t n)
{
    struct sink s = { t, n, 0 };
    return s;
}
static inline const char *ksink_text(struct sink *s)
{
    s->buf[s->len < s->size ? s->len : s->size - 1] = 0;
    return s->buf;
}

/* The kernel's %p extensions that read the bytes behind the pointer: fmt
 * points at the letter after 'p', spec is the conversion's. Each returns 0
 * when the letters name no extension it prints (the caller prints plain %p). */
int kernel_ptr_ext(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_kaddr.c: %pI4 %pi4 %pI6 %pi6 %pI6c %pIS %piS and the "(%pI?)" ones */
void kernel_ip_addr(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_kescape.c: %pE */
void kernel_escaped(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_kerrname.c: %pe of an ERR_PTR */
void kernel_err_ptr(struct sink *w, const void *ptr, struct kspec spec);
/* conv_kbitmap.c: %pb %pbl */
void kernel_bitmap(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_kresource.c: %pr %pR */
void kernel_resource(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_ktime.c: %ptR %ptT */
void kernel_time(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
/* conv_kmisc.c: %p4cc %pNF */
void kernel_fourcc(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);
void kernel_netdev(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec);

#endif /* SCN_REF_INTERNAL_H */
