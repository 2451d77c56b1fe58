/* A small vsnprintf that walks the format itself and formats each
 * conversion specification alone through the C library's snprintf (the
 * shape of many vendored printfs: own parser and bounds, library
 * converters). No positional arguments, no %lc/%ls.
 * Compiled with -DBUG_PAD: `%-*s` pads to one less than the width (an off
 * by one in its own padding loop). With -DBUG_ROUND: `%.0f` rounds ties
 * away from zero (round()) instead of to even, as printf must in the
 * default rounding mode. Without either: a correct implementation. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct out { char *buf; size_t size, len; };

static void put(struct out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, o->len++)
        if (o->size && o->len < o->size - 1) o->buf[o->len] = s[i];
}

#ifndef MINI_NAME
#define MINI_NAME mini_vsnprintf
#endif

int MINI_NAME(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = { buf, size, 0 };
    char spec[64], piece[4096];
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            put(&o, p, n);
            p += n;
            continue;
        }
        const char *s0 = p++;
        int minus = 0, width = -1, star_w = 0;
        while (strchr("-+ #0", *p) && *p) minus |= *p++ == '-';
        if (*p == '*') {
            star_w = 1;
            width = va_arg(ap, int);
            if (width < 0) { minus = 1; width = -width; }
            p++;
        } else {
            while (*p >= '0' && *p <= '9') p++;
        }
        int prec = -1;
        if (*p == '.') {
            p++;
            if (*p == '*') { prec = va_arg(ap, int); p++; }
            else { prec = 0; while (*p >= '0' && *p <= '9') prec = prec * 10 + (*p++ - '0'); }
        }
        char len[3] = "";
        if ((p[0] == 'h' && p[1] == 'h') || (p[0] == 'l' && p[1] == 'l')) { len[0] = p[0]; len[1] = p[1]; p += 2; }
        else if (strchr("hljztL", *p) && *p) { len[0] = *p++; }
        char conv = *p ? *p++ : '\0';
        /* the specification without '*': width and precision written out */
        size_t fl = 0;
        for (const char *f = s0 + 1; strchr("-+ #0", *f) && *f; f++) spec[fl++] = *f;
        spec[fl] = '\0';
        char *sp = spec;
        if (star_w && minus && !strchr(spec, '-')) strcat(sp, "-");
        char wbuf[40] = "";
        if (width >= 0) snprintf(wbuf, sizeof wbuf, "%d", width);
        else {
            const char *w = s0 + 1 + fl;
            size_t k = 0;
            while (w[k] >= '0' && w[k] <= '9' && k < 30) { wbuf[k] = w[k]; k++; }
            wbuf[k] = '\0';
        }
        char fmt1[80];
        if (prec >= 0) snprintf(fmt1, sizeof fmt1, "%%%s%s.%d%s%c", sp, wbuf, prec, len, conv);
        else snprintf(fmt1, sizeof fmt1, "%%%s%s%s%c", sp, wbuf, len, conv);
        int n = 0;
        switch (conv) {
        case '%': n = snprintf(piece, sizeof piece, "%%"); break;
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'b': case 'B': case 'c':
            if (!strcmp(len, "ll")) n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, long long));
            else if (!strcmp(len, "l")) n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, long));
            else if (!strcmp(len, "j")) n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, intmax_t));
            else if (!strcmp(len, "z")) n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, size_t));
            else if (!strcmp(len, "t")) n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, ptrdiff_t));
            else n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, int));
            break;
        case 's': {
            const char *str = va_arg(ap, const char *);
#ifdef BUG_PAD
            if (star_w && minus && str && prec < 0) {
                size_t sl = strlen(str);
                put(&o, str, sl);
                for (int k = (int)sl; k < width - 1; k++) put(&o, " ", 1);
                continue;
            }
#endif
            n = snprintf(piece, sizeof piece, fmt1, str);
            break;
        }
        case 'p': n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, void *)); break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
            if (!strcmp(len, "L")) {
                n = snprintf(piece, sizeof piece, fmt1, va_arg(ap, long double));
            } else {
                double v = va_arg(ap, double);
#ifdef BUG_ROUND
                if ((conv == 'f' || conv == 'F') && prec == 0 && isfinite(v)) v = round(v);
#endif
                n = snprintf(piece, sizeof piece, fmt1, v);
            }
            break;
        case 'n': {
            void *ptr = va_arg(ap, void *);
            if (!strcmp(len, "hh")) *(signed char *)ptr = (signed char)o.len;
            else if (!strcmp(len, "h")) *(short *)ptr = (short)o.len;
            else if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "t") || !strcmp(len, "j")) *(long *)ptr = (long)o.len;
            else if (!strcmp(len, "ll")) *(long long *)ptr = (long long)o.len;
            else *(int *)ptr = (int)o.len;
            continue;
        }
        default: return -1;
        }
        if (n < 0) return -1;
        if ((size_t)n >= sizeof piece) return -1;
        put(&o, piece, (size_t)n);
    }
    if (size) buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}
