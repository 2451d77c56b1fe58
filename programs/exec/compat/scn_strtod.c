/* strtod/strtold for a libc without them (klibc has no floating point), for
 * what the case text form uses: hexadecimal floats ("0x1.8p+1",
 * "-0xc.90fdaa22168c235p-2"), "inf", "nan" with optional sign. The values
 * are exact (the text form is %a/%La of the value), so scaling by powers of
 * two does not round. Anything else: 0 with *end == s. */
#include "scn_strtod.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
static int hexval(int c)
{
    c = lower(c);
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

long double strtold(const char *s, char **end)
{
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'f') {
        if (end) *end = (char *)(p + 3);
        long double inf = __builtin_infl();
        return neg ? -inf : inf;
    }
    if (lower(p[0]) == 'n' && lower(p[1]) == 'a' && lower(p[2]) == 'n') {
        if (end) *end = (char *)(p + 3);
        long double nan = __builtin_nanl("");
        return neg ? -nan : nan;
    }
    if (!(p[0] == '0' && lower(p[1]) == 'x' && (hexval(p[2]) >= 0 || (p[2] == '.' && hexval(p[3]) >= 0)))) {
        if (end) *end = (char *)s;
        return 0;
    }
    p += 2;
    unsigned long long m = 0;
    long e = 0;
    int seen_dot = 0;
    for (;; p++) {
        int v = hexval(*p);
        if (*p == '.' && !seen_dot) {
            seen_dot = 1;
            continue;
        }
        if (v < 0) break;
        if (m >> 60) { /* keep 64 bits; more digits only ever are zeros here */
            if (!seen_dot) e += 4;
            continue;
        }
        m = m * 16 + (unsigned)v;
        if (seen_dot) e -= 4;
    }
    if (lower(*p) == 'p') {
        const char *q = p + 1;
        int eneg = 0;
        if (*q == '+' || *q == '-') eneg = *q++ == '-';
        if (*q >= '0' && *q <= '9') {
            long x = 0;
            while (*q >= '0' && *q <= '9') {
                if (x < 100000) x = x * 10 + (*q - '0');
                q++;
            }
            e += eneg ? -x : x;
            p = q;
        }
    }
    if (end) *end = (char *)p;
    long double v = (long double)m;
    while (e > 0) { v *= 2; e--; }
    while (e < 0) { v *= 0.5L; e++; }
    return neg ? -v : v;
}

double strtod(const char *s, char **end)
{
    return (double)strtold(s, end);
}
