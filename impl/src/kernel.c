/* kernel.c - the LINUX_KERNEL dialect: the observable behaviour of Linux 6.1
 * lib/vsprintf.c vsnprintf() (format_decode(), number(), string(),
 * pointer_string(), set_field_width()/set_precision()), written anew.
 *
 * What it reproduces, including the corner cases:
 *  - the field width lives in a 24-bit and the precision in a 16-bit signed
 *    bit-field: literal values wrap (skip_atoi() wraps in 32 bits first);
 *    '*' values that do not fit are clamped to +-(2^23-1) / 0..2^15-1;
 *    a negative '*' width sets LEFT (negating -2^23 wraps back to -2^23);
 *    a negative '*' precision becomes 0; "%.d" keeps "no precision";
 *  - qualifiers h hh l ll L z t (no j, no Z); ll and L are long long; they
 *    are ignored by c, s, p and %;
 *  - conversions c s p % d i o u x X; anything else (n, floats, b, j, '%' at
 *    the end...) ends the formatting at that point;
 *  - number(): '0' is kept with a precision, 0 with precision 0 prints "0",
 *    "#" gives "0x"/"0X" even for 0 and a "0" prefix to non-zero octal;
 *  - %c pads with spaces only and decrements the 24-bit width in place;
 *  - %s: NULL prints "(null)", a pointer below 4096 or in the top 4095 bytes
 *    "(efault)" (precision then defaults to 16), obeying width/precision;
 *  - %p: as with no_hash_pointers: pointer_string(), 16 zero-padded
 *    lower-case hex digits when there is no width; any alphanumeric
 *    extension letters after 'p' (kernel isalnum(), Latin-1 letters
 *    included) are skipped; the extensions that read the bytes behind the
 *    pointer (%pM %pI %ph %pa %pU %pE %pb %pr %pt %p4cc %pN %pV, %pe of an
 *    ERR_PTR) are dispatched by conv_kptr.c; %px, %pK (kptr_restrict 0) and
 *    the others print as plain %p.
 * number(), string_nocheck(), error_string() and check_pointer() are shared
 * with the extensions (internal.h).
 */
#include "internal.h"

#define FIELD_WIDTH_MAX ((1 << 23) - 1)
#define PRECISION_MAX ((1 << 15) - 1)

static inline int trunc24(unsigned v)
{
    v &= 0xffffffu;
    return (v & 0x800000u) ? (int)v - 0x1000000 : (int)v;
}

static inline int trunc16(unsigned v)
{
    v &= 0xffffu;
    return (v & 0x8000u) ? (int)v - 0x10000 : (int)v;
}

static inline int k_isdigit(unsigned char c) { return (unsigned)(c - '0') < 10; }

/* lib/ctype.c _ctype[] & (_U|_L|_D): ASCII alnum plus Latin-1 letters
 * 0xc0-0xff except 0xd7 and 0xf7. */
static inline int k_isalnum(unsigned char c)
{
    if (c >= 0xc0)
        return c != 0xd7 && c != 0xf7;
    return k_isdigit(c) || (unsigned)((c | 0x20) - 'a') < 26;
}

/* skip_atoi(): int arithmetic that wraps (the kernel builds with
 * -fno-strict-overflow); only the low bits survive the bit-field anyway. */
static unsigned skip_atoi(const unsigned char **s)
{
    unsigned i = 0;
    do {
        i = i * 10 + (unsigned)(*(*s)++ - '0');
    } while (k_isdigit(**s));
    return i;
}

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static const char hex_upper[] = "0123456789ABCDEF";

/* number() */
void kernel_number(struct sink *w, unsigned long long num, struct kspec spec)
{
    char tmp[3 * sizeof(num)];
    char sign = 0;
    char locase = (char)(spec.flags & K_SMALL);
    int need_pfx = (spec.flags & K_SPECIAL) && spec.base != 10;
    int i = 0;
    int is_zero = num == 0;
    int field_width = spec.field_width;
    int precision = spec.precision;

    if (spec.flags & K_LEFT)
        spec.flags &= ~K_ZEROPAD;
    if (spec.flags & K_SIGN) {
        if ((long long)num < 0) {
            sign = '-';
            num = 0 - num;
            field_width--;
        } else if (spec.flags & K_PLUS) {
            sign = '+';
            field_width--;
        } else if (spec.flags & K_SPACE) {
            sign = ' ';
            field_width--;
        }
    }
    if (need_pfx) {
        if (spec.base == 16)
            field_width -= 2;
        else if (!is_zero)
            field_width--;
    }

    /* digits, reversed order in tmp[] */
    if (num < spec.base) {
        tmp[i++] = (char)(hex_upper[num] | locase);
    } else if (spec.base != 10) {
        unsigned mask = spec.base - 1, shift = spec.base == 16 ? 4 : 3;
        do {
            tmp[i++] = (char)(hex_upper[num & mask] | locase);
            num >>= shift;
        } while (num);
    } else {
        char dbuf[24];
        char *e = dbuf + sizeof dbuf, *d = u64_dec(e, num);
        while (e > d)
            tmp[i++] = *--e;
    }

    if (i > precision)
        precision = i;
    field_width -= precision;
    if (!(spec.flags & (K_ZEROPAD | K_LEFT)) && field_width > 0) {
        sink_pad(w, ' ', (size_t)field_width);
        field_width = -1;
    }
    if (sign)
        sink_putc(w, sign);
    if (need_pfx) {
        if (spec.base == 16 || !is_zero)
            sink_putc(w, '0');
        if (spec.base == 16)
            sink_putc(w, (char)('X' | locase));
    }
    if (!(spec.flags & K_LEFT) && field_width > 0) {
        sink_pad(w, (spec.flags & K_ZEROPAD) ? '0' : ' ', (size_t)field_width);
        field_width = -1;
    }
    if (precision > i)
        sink_pad(w, '0', (size_t)(precision - i));
    while (--i >= 0)
        sink_putc(w, tmp[i]);
    if (field_width > 0)
        sink_pad(w, ' ', (size_t)field_width);
}

/* string_nocheck() + widen_string(): the padding move_right() does in place
 * gives the same bytes as padding first. */
void kernel_string_nocheck(struct sink *w, const char *s, struct kspec spec)
{
    size_t len = 0;
    if (spec.precision < 0) {
        while (s[len])
            len++;
    } else {
        while (len < (size_t)spec.precision && s[len])
            len++;
    }
    if ((long long)len >= spec.field_width) {
        sink_write(w, s, len);
        return;
    }
    size_t spaces = (size_t)((long long)spec.field_width - (long long)len);
    if (!(spec.flags & K_LEFT))
        sink_pad(w, ' ', spaces);
    sink_write(w, s, len);
    if (spec.flags & K_LEFT)
        sink_pad(w, ' ', spaces);
}

/* error_string(): a message of at most 16 bytes unless a precision is given */
void kernel_error_string(struct sink *w, const char *s, struct kspec spec)
{
    if (spec.precision == -1)
        spec.precision = 2 * (int)sizeof(void *);
    kernel_string_nocheck(w, s, spec);
}

/* check_pointer() */
int kernel_check_pointer(struct sink *w, const void *p, struct kspec spec)
{
    uintptr_t v = (uintptr_t)p;
    if (v >= 4096 && v < (uintptr_t)-4095)
        return 0;
    kernel_error_string(w, p ? "(efault)" : "(null)", spec);
    return 1;
}

/* string() */
static void k_string(struct sink *w, const char *s, struct kspec spec)
{
    if (!kernel_check_pointer(w, s, spec))
        kernel_string_nocheck(w, s, spec);
}

/* pointer_string() */
static void k_pointer(struct sink *w, const void *p, struct kspec spec)
{
    spec.base = 16;
    spec.flags |= K_SMALL;
    if (spec.field_width == -1) {
        spec.field_width = 2 * (int)sizeof(p);
        spec.flags |= K_ZEROPAD;
    }
    kernel_number(w, (unsigned long long)(uintptr_t)p, spec);
}

/* "while (--spec.field_width > 0)" on the 24-bit field: returns the spaces
 * printed and leaves the field as the loop does. */
static size_t k_char_pad(int *fw)
{
    int n = trunc24((unsigned)*fw - 1u);
    if (n > 0) {
        *fw = 0;
        return (size_t)n;
    }
    *fw = n;
    return 0;
}

void kernel_format(struct sink *w, const char *fmt, va_list *ap)
{
    const unsigned char *p = (const unsigned char *)fmt;

    while (*p) {
        const unsigned char *q = p;
        struct kspec spec;
        unsigned char qualifier = 0;
        unsigned long long num;

        while (*q && *q != '%')
            q++;
        if (q != p) {
            sink_write(w, (const char *)p, (size_t)(q - p));
            p = q;
            continue;
        }

        /* flags */
        spec.flags = 0;
        for (;;) {
            ++p;
            if (*p == '-') spec.flags |= K_LEFT;
            else if (*p == '+') spec.flags |= K_PLUS;
            else if (*p == ' ') spec.flags |= K_SPACE;
            else if (*p == '#') spec.flags |= K_SPECIAL;
            else if (*p == '0') spec.flags |= K_ZEROPAD;
            else break;
        }

        /* width */
        spec.field_width = -1;
        if (k_isdigit(*p)) {
            spec.field_width = trunc24(skip_atoi(&p));
        } else if (*p == '*') {
            int v = va_arg(*ap, int);
            p++;
            /* set_field_width() */
            spec.field_width = trunc24((unsigned)v);
            if (spec.field_width != v)
                spec.field_width = clampi(v, -FIELD_WIDTH_MAX, FIELD_WIDTH_MAX);
            /* format_decode() re-entered with FORMAT_TYPE_WIDTH */
            if (spec.field_width < 0) {
                spec.field_width = trunc24(0u - (unsigned)spec.field_width);
                spec.flags |= K_LEFT;
            }
        }

        /* precision */
        spec.precision = -1;
        if (*p == '.') {
            ++p;
            if (k_isdigit(*p)) {
                spec.precision = trunc16(skip_atoi(&p));
                if (spec.precision < 0)
                    spec.precision = 0;
            } else if (*p == '*') {
                int v = va_arg(*ap, int);
                p++;
                /* set_precision() */
                spec.precision = trunc16((unsigned)v);
                if (spec.precision != v)
                    spec.precision = clampi(v, 0, PRECISION_MAX);
                if (spec.precision < 0)
                    spec.precision = 0;
            }
        }

        /* qualifier */
        if (*p == 'h' || (*p | 0x20) == 'l' || *p == 'z' || *p == 't') {
            qualifier = *p++;
            if (qualifier == *p) {
                if (qualifier == 'l') {
                    qualifier = 'L';
                    ++p;
                } else if (qualifier == 'h') {
                    qualifier = 'H';
                    ++p;
                }
            }
        }

        spec.base = 10;
        switch (*p) {
        case 'c': {
            char c;
            ++p;
            if (!(spec.flags & K_LEFT))
                sink_pad(w, ' ', k_char_pad(&spec.field_width));
            c = (char)(unsigned char)va_arg(*ap, int);
            sink_putc(w, c);
            sink_pad(w, ' ', k_char_pad(&spec.field_width));
            continue;
        }
        case 's':
            ++p;
            k_string(w, va_arg(*ap, const char *), spec);
            continue;
        case 'p': {
            const void *ptr = va_arg(*ap, const void *);
            ++p;
            if (!k_isalnum(*p) ||
                !kernel_ptr_ext(w, p, ptr, spec))
                k_pointer(w, ptr, spec);
            while (k_isalnum(*p))
                p++;
            continue;
        }
        case '%':
            ++p;
            sink_putc(w, '%');
            continue;
        case 'o':
            spec.base = 8;
            break;
        case 'x':
            spec.flags |= K_SMALL;
            spec.base = 16;
            break;
        case 'X':
            spec.base = 16;
            break;
        case 'd':
        case 'i':
            spec.flags |= K_SIGN;
            break;
        case 'u':
            break;
        default:
            /* FORMAT_TYPE_INVALID (including %n): stop here */
            return;
        }
        ++p;

        switch (qualifier) {
        case 'L':
            num = (unsigned long long)va_arg(*ap, long long);
            break;
        case 'l':
            if (spec.flags & K_SIGN)
                num = (unsigned long long)va_arg(*ap, long);
            else
                num = va_arg(*ap, unsigned long);
            break;
        case 'z':
            if (spec.flags & K_SIGN)
                num = (unsigned long long)(long long)(ptrdiff_t)va_arg(*ap, size_t);
            else
                num = va_arg(*ap, size_t);
            break;
        case 't':
            num = (unsigned long long)va_arg(*ap, ptrdiff_t);
            break;
        case 'H':
            if (spec.flags & K_SIGN)
                num = (unsigned long long)(signed char)va_arg(*ap, int);
            else
                num = (unsigned char)va_arg(*ap, int);
            break;
        case 'h':
            if (spec.flags & K_SIGN)
                num = (unsigned long long)(short)va_arg(*ap, int);
            else
                num = (unsigned short)va_arg(*ap, int);
            break;
        default:
            if (spec.flags & K_SIGN)
                num = (unsigned long long)va_arg(*ap, int);
            else
                num = va_arg(*ap, unsigned int);
            break;
        }
        kernel_number(w, num, spec);
    }
}
