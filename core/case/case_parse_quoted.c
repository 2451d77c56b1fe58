/* The case text form in: quoted strings (the format, str, wstr and mem
 * values), escapes accepted only in the canonical form case_format.c writes. */
#define _GNU_SOURCE
#include "case.h"
#include "case_text.h"

#include <stdio.h>
#include <string.h>

int scn_text_hexval(int ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
}

static const char *canon_of(unsigned b, char *t)
{
    struct scn_writer o = { t, 8, 0 };
    scn_text_escape_byte(&o, b);
    scn_w_end(&o);
    return t;
}

/* Parses a quoted token at text[pos]. wide: code points into wout (cap
 * wchar_t), else bytes into bout. Returns new pos, or -1. */
long scn_text_parse_quoted(const char *text, size_t len, size_t pos, size_t col0, int wide,
                           char *bout, wchar_t *wout, size_t cap, size_t *outlen,
                           char *err, size_t errlen)
{
    size_t n = 0;
    char t[8];
    if (pos >= len || text[pos] != '"')
        ERR("col %zu: expected '\"' to open a quoted string", col0 + pos + 1);
    size_t open = pos++;
    for (;;) {
        if (pos >= len)
            ERR("col %zu: expected '\"' to close the string opened at col %zu", col0 + pos + 1,
                col0 + open + 1);
        unsigned ch = (unsigned char)text[pos];
        uint32_t val;
        size_t at = pos;
        if (ch == '"') {
            pos++;
            break;
        }
        if (ch == '\\') {
            if (pos + 1 >= len)
                ERR("col %zu: expected an escape after '\\'", col0 + pos + 2);
            unsigned e = (unsigned char)text[pos + 1];
            pos += 2;
            switch (e) {
            case '\\': val = '\\'; break;
            case '"': val = '"'; break;
            case 'n': val = '\n'; break;
            case 't': val = '\t'; break;
            case 'r': val = '\r'; break;
            case 'x': {
                int h1 = pos < len ? scn_text_hexval((unsigned char)text[pos]) : -1;
                int h2 = pos + 1 < len ? scn_text_hexval((unsigned char)text[pos + 1]) : -1;
                if (h1 < 0 || h2 < 0)
                    ERR("col %zu: expected two lower-case hex digits after \\x", col0 + pos + 1);
                val = (uint32_t)(h1 * 16 + h2);
                pos += 2;
                if ((val >= 0x20 && val <= 0x7e) || val == '\n' || val == '\t' || val == '\r')
                    ERR("col %zu: \\x%02x is not canonical, expected %s", col0 + at + 1,
                        (unsigned)val, canon_of(val, t));
                if (wide && val >= 0x80)
                    ERR("col %zu: expected \\u{%x} for a wide code point >= 0x80", col0 + at + 1,
                        (unsigned)val);
                break;
            }
            case 'u': {
                if (!wide)
                    ERR("col %zu: \\u{...} is only allowed in wstr strings", col0 + at + 1);
                if (pos >= len || text[pos] != '{')
                    ERR("col %zu: expected '{' after \\u", col0 + pos + 1);
                pos++;
                size_t d0 = pos;
                uint64_t v = 0;
                while (pos < len && scn_text_hexval((unsigned char)text[pos]) >= 0 && pos - d0 < 9)
                    v = v * 16 + (unsigned)scn_text_hexval((unsigned char)text[pos++]);
                if (pos == d0)
                    ERR("col %zu: expected lower-case hex digits in \\u{}", col0 + pos + 1);
                if (pos >= len || text[pos] != '}')
                    ERR("col %zu: expected '}' closing \\u{ (at most 8 lower-case hex digits)",
                        col0 + pos + 1);
                if (text[d0] == '0')
                    ERR("col %zu: expected no leading zeros in \\u{}", col0 + d0 + 1);
                if (v < 0x80)
                    ERR("col %zu: \\u{%x} is not canonical, expected %s", col0 + at + 1,
                        (unsigned)v, canon_of((unsigned)v, t));
                if (v > 0x7fffffff)
                    ERR("col %zu: expected a code point <= 0x7fffffff (wchar_t)", col0 + d0 + 1);
                pos++;
                val = (uint32_t)v;
                break;
            }
            default:
                ERR("col %zu: unknown escape '\\%c', expected one of \\\\ \\\" \\n \\t \\r \\xHH%s",
                    col0 + at + 1, e >= 0x20 && e < 0x7f ? (char)e : '?', wide ? " \\u{HEX}" : "");
            }
        } else {
            if (ch < 0x20 || ch > 0x7e)
                ERR("col %zu: byte 0x%02x must be escaped, expected %s", col0 + pos + 1, ch,
                    wide && ch >= 0x80 ? "\\u{...}" : canon_of(ch, t));
            val = ch;
            pos++;
        }
        if (n >= cap)
            ERR("col %zu: string too long (max %zu)", col0 + at + 1, cap);
        if (wide) wout[n++] = (wchar_t)val;
        else bout[n++] = (char)val;
    }
    *outlen = n;
    return (long)pos;
}

long scn_quoted_parse(const char *text, size_t len, size_t col0, char *out, size_t cap,
                      size_t *outlen, char *err, size_t errlen)
{
    size_t n = 0;
    long r = scn_text_parse_quoted(text, len, 0, col0, 0, out, NULL, cap, &n, err, errlen);
    if (r < 0) return -1;
    if (n < cap) out[n] = 0;
    *outlen = n;
    return r;
}
