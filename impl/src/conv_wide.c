/* conv_wide.c - %lc and %ls (C17 7.21.6.1p8): wide characters -> multibyte,
 * in the encoding chosen by the options (the engine has no locale).
 *
 *   REF_ENCODING_C:    0..0x7f are one byte each; anything else is an error
 *   REF_ENCODING_UTF8: UTF-8; surrogates and values above 0x10ffff are errors
 *
 * %ls: a precision counts bytes, and no partial multibyte character is
 * written; wide characters are read only until the precision is reached.
 */
#include "internal.h"

/* Encodes c into out; returns the byte count or -1. */
static int encode(uint32_t c, enum ref_encoding e, char out[4])
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (e != REF_ENCODING_UTF8)
        return -1;
    if (c < 0x800) {
        out[0] = (char)(0xc0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        if (c >= 0xd800 && c <= 0xdfff)
            return -1;
        out[0] = (char)(0xe0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    if (c <= 0x10ffff) {
        out[0] = (char)(0xf0 | (c >> 18));
        out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[3] = (char)(0x80 | (c & 0x3f));
        return 4;
    }
    return -1;
}

/* %lc: the character's bytes (a null wide character writes one NUL byte,
 * as glibc and musl do); the precision is ignored. */
int conv_wchar(struct sink *w, const struct fmt_spec *s, ref_wint c, enum ref_encoding e)
{
    char b[4];
    /* C17 7.21.6.1p8: %lc converts as if by %ls of the two-element array
     * {c, L'\0'}, so a null wide character ends that string at once and
     * writes nothing (only the padding). glibc writes a NUL byte here; musl
     * follows the text. */
    int n = c ? encode((uint32_t)c, e, b) : 0;
    if (n < 0)
        return -1;
    pad_left(w, s, (size_t)n);
    sink_write(w, b, (size_t)n);
    pad_right(w, s, (size_t)n);
    return 0;
}

int conv_wstr(struct sink *w, const struct fmt_spec *s, const ref_wchar *str,
              enum ref_encoding e)
{
    size_t lim = s->prec < 0 ? SIZE_MAX : (size_t)s->prec;
    size_t total = 0, nchars = 0;
    char b[4];

    if (!str) {
        conv_str(w, s, NULL);
        return 0;
    }
    /* pass 1: how many bytes (and wide characters) fit */
    while (total < lim && str[nchars]) {
        int n = encode((uint32_t)str[nchars], e, b);
        if (n < 0)
            return -1;
        if ((size_t)n > lim - total)
            break;
        total += (size_t)n;
        nchars++;
    }
    /* pass 2: write them */
    pad_left(w, s, total);
    for (size_t i = 0; i < nchars; i++) {
        int n = encode((uint32_t)str[i], e, b);
        sink_write(w, b, (size_t)n);
    }
    pad_right(w, s, total);
    return 0;
}
