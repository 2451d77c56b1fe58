/* conv_int.c - ISO d i u o x X b B, c, s, p (C17 7.21.6.1p6-p8, C23 %b %B).
 *
 * Digits are produced backwards into a small stack buffer (decimal two at a
 * time from a 200-byte table, other bases by shifts: no division except the
 * compiler's multiply-by-reciprocal for /100), then written to the sink in at
 * most five runs: left spaces, prefix, zeros, digits, right spaces.
 */
#include "internal.h"

const char ref_dec_pairs[200] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char *u64_dec(char *end, uint64_t v)
{
    char *d = end;
    while (v > UINT32_MAX) {
        uint64_t q = v / 100;
        unsigned r = (unsigned)(v - q * 100);
        d -= 2;
        __builtin_memcpy(d, ref_dec_pairs + 2 * r, 2);
        v = q;
    }
    return u32_dec(d, (uint32_t)v);
}

static const char xdigits[2][16] = {
    { '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f' },
    { '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F' },
};

/* Emits [spaces][sign][prefix][zeros][digits][spaces] for a non-negative
 * magnitude. sign is 0 or the sign character. */
static void emit_int(struct sink *w, const struct fmt_spec *s, uint64_t mag, char sign)
{
    char buf[72]; /* 64 binary digits + slack */
    char *end = buf + sizeof buf, *d = end;
    char pre[3];
    size_t npre = 0, nd, body, zeros, total;
    unsigned fl = s->flags;
    int prec = s->prec;

    if (sign)
        pre[npre++] = sign;

    if (mag != 0) {
        switch (s->conv) {
        case 'x': {
            const char *xd = xdigits[(fl & FL_UPPER) != 0];
            do { *--d = xd[mag & 15]; mag >>= 4; } while (mag);
            if (fl & FL_HASH) {
                pre[npre++] = '0';
                pre[npre++] = (fl & FL_UPPER) ? 'X' : 'x';
            }
            break;
        }
        case 'o':
            do { *--d = (char)('0' + (mag & 7)); mag >>= 3; } while (mag);
            break;
        case 'b':
            do { *--d = (char)('0' + (mag & 1)); mag >>= 1; } while (mag);
            if (fl & FL_HASH) {
                pre[npre++] = '0';
                pre[npre++] = (fl & FL_UPPER) ? 'B' : 'b';
            }
            break;
        default:
            d = mag <= UINT32_MAX ? u32_dec(end, (uint32_t)mag) : u64_dec(end, mag);
            break;
        }
    }
    /* for 0: no digits; the default precision 1 supplies the "0" */
    nd = (size_t)(end - d);
    if (prec < 0)
        prec = 1;
    /* %#o: increase the precision so that the first digit is a zero */
    if ((fl & FL_HASH) && s->conv == 'o' && (size_t)prec <= nd)
        prec = (int)nd + 1;

    body = (size_t)prec > nd ? (size_t)prec : nd;
    zeros = body - nd;
    total = npre + body;
    if ((fl & (FL_ZERO | FL_MINUS)) == FL_ZERO && s->prec < 0 && (size_t)s->width > total) {
        zeros += (size_t)s->width - total;
        total = (size_t)s->width;
    }
    pad_left(w, s, total);
    if (npre)
        sink_write(w, pre, npre);
    if (zeros)
        sink_pad(w, '0', zeros);
    sink_write(w, d, nd);
    pad_right(w, s, total);
}

void conv_int(struct sink *w, const struct fmt_spec *s, uint64_t mag, int neg)
{
    char sign = 0;
    if (s->conv == 'd' || s->conv == 'i') {
        if (neg)
            sign = '-';
        else if (s->flags & FL_PLUS)
            sign = '+';
        else if (s->flags & FL_SPACE)
            sign = ' ';
    }
    emit_int(w, s, mag, sign);
}

void conv_char(struct sink *w, const struct fmt_spec *s, unsigned char c)
{
    pad_left(w, s, 1);
    sink_putc(w, (char)c);
    pad_right(w, s, 1);
}

/* %s: precision limits the bytes read; a NULL pointer prints "(null)" when
 * that fits the precision, else nothing (glibc's choice; UB in C). */
void conv_str(struct sink *w, const struct fmt_spec *s, const char *str)
{
    size_t n = 0;
    if (!str) {
        str = "(null)";
        if (s->prec >= 0 && s->prec < 6)
            str = "";
    }
    if (s->prec < 0) {
        while (str[n])
            n++;
    } else {
        size_t lim = (size_t)s->prec;
        while (n < lim && str[n])
            n++;
    }
    pad_left(w, s, n);
    sink_write(w, str, n);
    pad_right(w, s, n);
}

/* %p: glibc's spelling. Non-null: as %#lx, with the '+' and ' ' flags giving
 * a sign character, precision and '0' applying; null: "(nil)" padded to the
 * width with spaces, precision ignored. */
void conv_ptr(struct sink *w, const struct fmt_spec *s, const void *p)
{
    if (!p) {
        static const char nil[] = "(nil)";
        pad_left(w, s, 5);
        sink_write(w, nil, 5);
        pad_right(w, s, 5);
        return;
    }
    struct fmt_spec t = *s;
    t.conv = 'x';
    t.flags = (s->flags & ~FL_UPPER) | FL_HASH;
    emit_int(w, &t, (uint64_t)(uintptr_t)p,
             (s->flags & FL_PLUS) ? '+' : (s->flags & FL_SPACE) ? ' ' : 0);
}
