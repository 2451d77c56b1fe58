/* Sharp cases for the reference engine's core (everything but float digits).
 * Expected values are derived by hand from C17 7.21.6.1 / C23 / POSIX, and
 * for the kernel dialect from Linux 6.1 lib/vsprintf.c (cited per group). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "scn/ref_printf.h"

static int failures, checks;

static const struct ref_options ISO = { REF_DIALECT_ISO, REF_ENCODING_C, REF_ROUND_NEAREST };
static const struct ref_options UTF8 = { REF_DIALECT_ISO, REF_ENCODING_UTF8, REF_ROUND_NEAREST };
static const struct ref_options KERN = { REF_DIALECT_LINUX_KERNEL, REF_ENCODING_C,
                                         REF_ROUND_NEAREST };

/* Checks ret and the buffer (explen bytes, so embedded NULs can be checked). */
static void check(int line, const char *fmt, int ret, const char *buf, int expret,
                  const char *exp, size_t explen)
{
    checks++;
    if (ret != expret || memcmp(buf, exp, explen) != 0 || buf[explen] != '\0') {
        failures++;
        printf("FAIL line %d: fmt \"%s\": ret %d (want %d), buf \"%s\" (want \"%s\")\n",
               line, fmt, ret, expret, buf, exp);
    }
}

#define TO(opt, exp, fmt, ...)                                                         \
    do {                                                                               \
        char b_[256];                                                                  \
        memset(b_, 'Z', sizeof b_);                                                    \
        int r_ = ref_snprintf_ex(b_, sizeof b_, &(opt), fmt, ##__VA_ARGS__);           \
        check(__LINE__, fmt, r_, b_, (int)(sizeof(exp) - 1), exp, sizeof(exp) - 1);    \
    } while (0)
#define T(exp, fmt, ...) TO(ISO, exp, fmt, ##__VA_ARGS__)
#define K(exp, fmt, ...) TO(KERN, exp, fmt, ##__VA_ARGS__)
/* the call must fail (ISO) / stop (kernel) with this output */
#define TFAIL(exp, fmt, ...)                                                           \
    do {                                                                               \
        char b_[64];                                                                   \
        int r_ = ref_snprintf_ex(b_, sizeof b_, &ISO, fmt, ##__VA_ARGS__);             \
        check(__LINE__, fmt, r_, b_, -1, exp, sizeof(exp) - 1);                        \
    } while (0)

static void test_iso_int(void)
{
    /* 7.21.6.1p6 flags, p8 d/i/o/u/x/X */
    T("42", "%d", 42);
    T("-42", "%i", -42);
    T("   42|", "%5d|", 42);
    T("42   |", "%-5d|", 42);
    T("00042", "%05d", 42);
    T("-0042", "%05d", -42);
    T("+42", "%+d", 42);
    T(" 42", "% d", 42);
    T("+42", "%+ d", 42);             /* '+' overrides ' ' */
    T("42   ", "%-05d", 42);          /* '0' ignored with '-' */
    T("  042", "%05.3d", 42);         /* '0' ignored with a precision */
    T("", "%.0d", 0);                 /* precision 0, value 0: no digits */
    T("+", "%+.0d", 0);
    T("    ", "%4.0d", 0);
    T("-2147483648", "%d", INT_MIN);
    T("-9223372036854775808", "%lld", LLONG_MIN);
    T("18446744073709551615", "%llu", ULLONG_MAX);
    T("4294967295", "%u", -1);
    T("ff", "%x", 255);
    T("FF", "%X", 255);
    T("0xff", "%#x", 255);
    T("0XFF", "%#X", 255);
    T("0", "%#x", 0);                 /* prefix only for non-zero */
    T("0x0001", "%#06x", 1);          /* zeros after the prefix */
    T("17", "%o", 15);
    T("017", "%#o", 15);
    T("0", "%#o", 0);
    T("0", "%#.0o", 0);               /* # forces a leading 0 */
    T("010", "%#.3o", 8);             /* already starts with 0 */
    T("101", "%b", 5);                /* C23 */
    T("0b101", "%#b", 5);
    T("0B101", "%#B", 5);
    T("0", "%#b", 0);
    T("-1", "%hhd", 255);             /* converted to signed char */
    T("255", "%hhu", -1);
    T("-1", "%hd", 65535);
    T("65535", "%hu", -1);
    T("-1", "%ld", -1L);
    T("-1", "%jd", (intmax_t)-1);
    T("18446744073709551615", "%zu", (size_t)-1);
    T("-1", "%zd", (size_t)-1);
    T("-5", "%td", (ptrdiff_t)-5);
    T("-128", "%w8d", 128);           /* C23 wN: int8_t */
    T("65535", "%w16u", -1);
    T("-1", "%w32d", -1);
    T("-1", "%w64d", (int64_t)-1);
    T("-1", "%wf8d", -1);
    T("4294967296", "%wf32d", (int_fast32_t)4294967296); /* x86-64 glibc: long */
    T("   -7", "%*d", 5, -7);
    T("-7   |", "%*d|", -5, -7);      /* negative * width: '-' and |w| */
    T("007", "%.*d", 3, 7);
    T("7", "%.*d", -1, 7);            /* negative * precision: none */
    T("100%", "%d%%", 100);
}

static void test_iso_str_char_ptr(void)
{
    T("hello", "%s", "hello");
    T("hel", "%.3s", "hello");
    T("  hel", "%5.3s", "hello");
    T("hel  ", "%-5.3s", "hello");
    T("", "%.s", "hello");            /* '.' alone is precision 0 */
    T("ab", "%.2s", (char[2]){ 'a', 'b' }); /* not NUL-terminated: must not read on */
    T("(null)", "%s", (char *)NULL);
    T("", "%.5s", (char *)NULL);
    T("(null)", "%.6s", (char *)NULL);
    T("    a", "%5c", 'a');
    T("a    ", "%-5c", 'a');
    T("A", "%c", 0x141);              /* converted to unsigned char */
    TO(ISO, "a\0b", "a%cb", 0);       /* %c of 0 writes a NUL that counts */
    T("0x1f", "%p", (void *)0x1f);
    T("(nil)", "%p", (void *)0);
    T("   (nil)", "%8p", (void *)0);
    T("  0x1f", "%6p", (void *)0x1f);
}

static void test_iso_n_and_positional(void)
{
    int n = -1;
    signed char hh = -1;
    long long ll = -1;
    size_t z = 99;
    T("abcd", "ab%ncd", &n);
    if (n != 2) { failures++; printf("FAIL %%n stored %d\n", n); }
    T("12345", "12345%hhn", &hh);
    if (hh != 5) { failures++; printf("FAIL %%hhn stored %d\n", hh); }
    T("xyz", "x%llnyz%zn", &ll, &z);
    if (ll != 1 || z != 3) { failures++; printf("FAIL %%lln/%%zn %lld %zu\n", ll, z); }
    checks += 3;

    /* POSIX %n$ */
    T("x 7", "%2$s %1$d", 7, "x");
    n = -1;
    T("ab", "%2$s%1$n", &n, "ab");    /* %n$n: the count at that point */
    checks++;
    if (n != 2) { failures++; printf("FAIL %%1$n stored %d\n", n); }
    T("7 7", "%1$d %1$d", 7);
    T("  ab|", "%2$*1$s|", 4, "ab");
    T("00042", "%1$.*2$d", 42, 5);
    T("%5", "%%%1$d", 5);
    TFAIL("", "%1$d %d", 1, 2);       /* mixed: fails before writing */
    TFAIL("", "ab%2$d", 1, 2);        /* gap at position 1 */
    TFAIL("", "%1$d %1$ld", 1);       /* conflicting kinds */
    TFAIL("", "%0$d", 1);
    TFAIL("", "%65$d", 1);
    TFAIL("1 ", "%d %1$d", 1);        /* numbered after unnumbered */
}

static void test_iso_errors_and_families(void)
{
    char b[16];
    int r;

    TFAIL("ab", "ab%y", 1);           /* unknown conversion: stop, fail */
    TFAIL("ab", "ab%");               /* '%' at the end */
    TFAIL("", "%Ld", 1LL);            /* L with d is not defined */
    TFAIL("", "%5%");
    TFAIL("", "%w12d", 1);
    TFAIL("", "%99999999999d", 1);    /* width above INT_MAX */

    /* truncation: C99 family returns the would-be length */
    memset(b, 'Z', sizeof b);
    r = ref_snprintf(b, 4, "%d", 123456);
    checks++;
    if (r != 6 || strcmp(b, "123") != 0) { failures++; printf("FAIL trunc %d %s\n", r, b); }
    r = ref_scnprintf(b, 4, "%d", 123456);
    checks++;
    if (r != 3 || strcmp(b, "123") != 0) { failures++; printf("FAIL sc trunc %d %s\n", r, b); }
    r = ref_snprintf(NULL, 0, "%s", "abc");
    checks++;
    if (r != 3) { failures++; printf("FAIL size0 %d\n", r); }
    r = ref_scnprintf(NULL, 0, "%s", "abc");
    checks++;
    if (r != 0) { failures++; printf("FAIL sc size0 %d\n", r); }
    r = ref_scnprintf(b, 1, "%s", "abc");
    checks++;
    if (r != 0 || b[0] != 0) { failures++; printf("FAIL sc size1 %d\n", r); }
    /* the output count exceeding INT_MAX */
    r = ref_snprintf_ex(b, sizeof b, &ISO, "%2147483647d%d", 1, 2);
    checks++;
    if (r != -1) { failures++; printf("FAIL overflow %d\n", r); }
    r = ref_scnprintf_ex(b, sizeof b, &ISO, "%2147483647d%d", 1, 2);
    checks++;
    if (r != 15 || strlen(b) != 15) { failures++; printf("FAIL sc overflow %d\n", r); }
    /* ISO: size > INT_MAX is not special (only len + 1 bytes are touched) */
    r = ref_snprintf(b, (size_t)INT_MAX + 2, "%d", 42);
    checks++;
    if (r != 2 || strcmp(b, "42") != 0) { failures++; printf("FAIL big size %d\n", r); }
    r = ref_snprintf_ex(b, sizeof b, &ISO, "%*d", INT_MIN, 1);
    checks++;
    if (r != -1) { failures++; printf("FAIL INT_MIN width %d\n", r); }
}

static void test_iso_wide(void)
{
    TO(UTF8, "caf\xc3\xa9", "%ls", L"caf\u00e9");
    TO(UTF8, "caf", "%.4ls", L"caf\u00e9");      /* no partial character */
    TO(UTF8, "caf\xc3\xa9", "%.5ls", L"caf\u00e9");
    TO(UTF8, "\xf0\x9f\x98\x80", "%lc", (wint_t)0x1f600);
    TO(UTF8, " \xe2\x82\xac", "%4lc", (wint_t)0x20ac); /* width counts bytes */
    TO(ISO, "ab", "%ls", L"ab");
    TO(ISO, "xy", "x%lcy", (wint_t)0);      /* C17 p8: as if %ls of {0, 0}: nothing */
    TO(ISO, "x  y", "x%2lcy", (wint_t)0);   /* the padding still applies */
    TO(ISO, "(null)", "%ls", (wchar_t *)NULL);
    TO(UTF8, "a", "%.1ls", (wchar_t[2]){ L'a', 0xd800 }); /* never reads index 1 */
    {
        char b[16];
        int r = ref_snprintf_ex(b, sizeof b, &ISO, "ab%lc", (wint_t)0xe9);
        checks++;
        if (r >= 0 || strcmp(b, "ab") != 0) { failures++; printf("FAIL C enc %d\n", r); }
        r = ref_scnprintf_ex(b, sizeof b, &ISO, "ab%lc", (wint_t)0xe9);
        checks++;
        if (r != 2 || strcmp(b, "ab") != 0) { failures++; printf("FAIL sc C enc %d\n", r); }
        r = ref_snprintf_ex(b, sizeof b, &UTF8, "%ls", L"a\xd800");
        checks++;
        if (r >= 0) { failures++; printf("FAIL surrogate %d\n", r); }
        r = ref_snprintf_ex(b, sizeof b, &UTF8, "%lc", (wint_t)0x110000);
        checks++;
        if (r >= 0) { failures++; printf("FAIL >0x10ffff %d\n", r); }
    }
}

/* Linux 6.1 lib/vsprintf.c */
static void test_kernel(void)
{
    char b[16];
    int r;

    K("42", "%d", 42);
    K("00000005", "%08.3d", 5);      /* number(): ZEROPAD survives a precision */
    K("0", "%.0d", 0);               /* number(): always one digit */
    K("0x0", "%#x", 0);              /* SPECIAL hex: prefix even for 0 */
    K("0", "%#o", 0);
    K("010", "%#o", 8);
    K("0010", "%#.3o", 8);           /* "0" prefix plus precision */
    K("5", "%.d", 5);                /* "." without digits: no precision */
    K("abc", "%.s", "abc");
    K("0", "%.*d", -1, 0);           /* negative * precision -> 0; still "0" */
    K("    a", "%05c", 'a');         /* %c pads with spaces */
    K("%", "%5%");
    K("(null)", "%s", (char *)NULL);
    K("(nu", "%.3s", (char *)NULL);
    K("  (null)", "%8s", (char *)NULL);
    K("(efault)", "%s", (char *)16);
    K("0000000000000000", "%p", (void *)0);
    K("00000000deadbeef", "%p", (void *)0xdeadbeef);
    K("00000000deadbeef", "%px", (void *)0xdeadbeef);
    K("00000000000000ab!", "%pK!", (void *)0xab);  /* extension letters skipped */
    K("      ab", "%8p", (void *)0xab);
    K("0x000000000000ab", "%#p", (void *)0xab);
    K("ab              |", "%-p|", (void *)0xab);
    K("-1", "%Ld", -1LL);            /* L == ll */
    K("18446744073709551615", "%zu", (size_t)-1);
    K("-1", "%hhd", 255);
    K("ab", "ab%jd", (intmax_t)1);   /* j is not a qualifier: invalid -> stop */
    K("x", "x%n", &r);               /* %n unsupported -> stop */
    K("x", "x%f", 1.0);
    K("x", "x%");
    K("-42  |", "%*d|", -5, -42);
    K("1", "%.40000d", 1);           /* 16-bit precision: wraps negative -> 0 */
    K("5", "%16777217d", 5);         /* 24-bit width: wraps to 1 */

    /* set_precision(): 70000 does not fit 16 bits -> clamped to 32767 */
    r = ref_snprintf_ex(b, sizeof b, &KERN, "%.*d", 70000, 0);
    checks++;
    if (r != 32767 || strcmp(b, "000000000000000") != 0) { failures++; printf("FAIL k prec %d\n", r); }
    /* literal 70000 wraps to 4464 */
    r = ref_snprintf_ex(b, sizeof b, &KERN, "%.70000d", 0);
    checks++;
    if (r != 4464) { failures++; printf("FAIL k lit prec %d\n", r); }
    /* width -2^23 via '*': LEFT, and %c's in-place decrement wraps to 2^23-1 */
    r = ref_snprintf_ex(b, sizeof b, &KERN, "%*c", -8388608, 'a');
    checks++;
    if (r != 8388608 || strcmp(b, "a              ") != 0) { failures++; printf("FAIL k c %d\n", r); }
    /* size > INT_MAX: returns 0, writes nothing */
    memset(b, 'Z', sizeof b);
    r = ref_snprintf_ex(b, (size_t)INT_MAX + 1, &KERN, "%d", 1);
    checks++;
    if (r != 0 || b[0] != 'Z') { failures++; printf("FAIL k big size %d\n", r); }
    r = ref_scnprintf_ex(b, 4, &KERN, "%d", 123456);
    checks++;
    if (r != 3 || strcmp(b, "123") != 0) { failures++; printf("FAIL k scn %d\n", r); }
}

int main(void)
{
    test_iso_int();
    test_iso_str_char_ptr();
    test_iso_n_and_positional();
    test_iso_errors_and_families();
    test_iso_wide();
    test_kernel();
    printf("%d/%d checks passed\n", checks - failures, checks);
    return failures != 0;
}
