/* Test of the "kernel" target: the Linux kernel's lib/vsprintf.c built in
 * userspace (core/targets/kernel). Expected results come from the kernel's
 * Documentation/core-api/printk-formats.rst and the kernel-doc of vsnprintf()/
 * vscnprintf()/scnprintf() in lib/vsprintf.c, and, where the kernel follows
 * it, from C17 7.21.6.1 / 7.21.6.5 (snprintf).                               */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "../../core/targets/target.h"
#include "case.h"
#include "kern_printf.h"

extern const struct scn_target scn_target_kernel;

static int failures;
static int checks;

#define SENTINEL 0x5a

/* snprintf-family check: whole buffer of `size` bytes starting with SENTINEL
 * fill; expect the return `ret` and the buffer content `out` (NUL-terminated)
 * when size > 0, or an untouched buffer when size == 0. */
static void check_at(int line, int scn, size_t size, const char *out, int ret,
                     const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int got;
    size_t i;

    checks++;
    memset(buf, SENTINEL, sizeof buf);
    va_start(ap, fmt);
    got = scn ? kern_vscnprintf(buf, size, fmt, ap) : kern_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (got != ret) {
        fprintf(stderr, "line %d: %s(size %zu, \"%s\") returned %d, expected %d\n", line,
                scn ? "kern_vscnprintf" : "kern_vsnprintf", size, fmt, got, ret);
        failures++;
        return;
    }
    if (size == 0) {
        if (buf[0] != SENTINEL) {
            fprintf(stderr, "line %d: size 0 wrote to the buffer\n", line);
            failures++;
        }
        return;
    }
    if (strlen(out) >= size || memcmp(buf, out, strlen(out) + 1) != 0) {
        fprintf(stderr, "line %d: \"%s\" at size %zu gave \"%.*s\", expected \"%s\"\n", line,
                fmt, size, (int)strnlen(buf, size), buf, out);
        failures++;
        return;
    }
    for (i = size; i < sizeof buf; i++) {
        if ((unsigned char)buf[i] != SENTINEL) {
            fprintf(stderr, "line %d: wrote past the buffer size %zu\n", line, size);
            failures++;
            return;
        }
    }
}

#define SN(size, out, ret, ...) check_at(__LINE__, 0, size, out, ret, __VA_ARGS__)
#define SCN(size, out, ret, ...) check_at(__LINE__, 1, size, out, ret, __VA_ARGS__)

static void expect_true(int line, int cond, const char *what)
{
    checks++;
    if (!cond) {
        fprintf(stderr, "line %d: %s\n", line, what);
        failures++;
    }
}
#define EXPECT(cond) expect_true(__LINE__, (cond), #cond)

/* the registry-level entry points, through the adapter */
static int via_target(int scn, char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = scn ? scn_target_kernel.vscnprintf(buf, size, fmt, ap)
            : scn_target_kernel.vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return r;
}

/* --- the adapter ---------------------------------------------------- */
static void test_adapter(void)
{
    char buf[64];
    EXPECT(strcmp(scn_target_kernel.name, "kernel") == 0);
    EXPECT(scn_target_kernel.dialect == SCN_DIALECT_KERNEL);
    EXPECT(scn_target_kernel.vsnprintf == kern_vsnprintf);
    EXPECT(scn_target_kernel.vscnprintf == kern_vscnprintf);
    EXPECT(strcmp(scn_target_kernel.where, "in-process") == 0);
    EXPECT(strncmp(scn_target_kernel.version(), "linux-source-6.1 ", 17) == 0);
    EXPECT(strlen(scn_target_kernel.version()) > 17);
    EXPECT(via_target(0, buf, sizeof buf, "<%d>", 7) == 3 && strcmp(buf, "<7>") == 0);
    EXPECT(via_target(1, buf, 3, "<%d>", 7) == 2 && strcmp(buf, "<7") == 0);
}

/* --- integers, as C (C17 7.21.6.1p6, p8) ---------------------------- */
static void test_integers(void)
{
    SN(64, "-5", 2, "%d", -5);
    SN(64, "+5| 5|5", 7, "%+d|% d|%d", 5, 5, 5);
    SN(64, "-0042", 5, "%05d", -42);
    SN(64, "42   |", 6, "%-5d|", 42);
    SN(64, "   42", 5, "%*d", 5, 42);
    SN(64, "42   |", 6, "%*d|", -5, 42); /* negative * width: '-' flag */
    SN(64, "00042", 5, "%.5d", 42);
    SN(64, "10 010 ff FF 0xff 0XFF", 22, "%o %#o %x %X %#x %#X", 8, 8, 255, 255, 255, 255);
    SN(64, "4294967295", 10, "%u", 4294967295u);
    SN(64, "-9223372036854775808", 20, "%lld", LLONG_MIN);
    SN(64, "-1 18446744073709551615", 23, "%ld %lu", -1L, ULONG_MAX);
    SN(64, "18446744073709551615 -3", 23, "%zu %zd", SIZE_MAX, (ssize_t)-3);
    SN(64, "-7", 2, "%td", (ptrdiff_t)-7);
    SN(64, "44 -1 65535", 11, "%hhd %hhd %hu", 300, 255, 65535);

    /* --- integers, kernel (lib/vsprintf.c number()) --------------------- */
    SN(64, "0x0", 3, "%#x", 0);       /* ISO C: "0" */
    SN(64, "0", 1, "%#o", 0);
    SN(64, "0", 1, "%.0d", 0);        /* ISO C: "" */
    SN(64, "5", 1, "%Ld", 5LL);       /* 'L' is long long */
}

/* --- characters, strings; truncation and return values (kernel-doc of
 * vsnprintf/vscnprintf); unsupported conversions end the output (and WARN) */
static void test_strings_truncation_unsupported(void)
{
    char buf[64];
    unsigned long w0;
    SN(64, "  x|x  |", 8, "%3c|%-3c|", 'x', 'x');
    SN(64, "%", 1, "%%");
    SN(64, "(null)", 6, "%s", (char *)NULL);          /* printk-formats.rst */
    SN(64, "(efault)", 8, "%s", (char *)(uintptr_t)100); /* below PAGE_SIZE */
    SN(64, "hel|   he|he   |", 16, "%.3s|%5.2s|%-5.2s|", "hello", "hello", "hello");
    SN(64, "", 0, "%.*s", -1, "abc"); /* kernel: negative precision is 0 */

    SN(64, "hello", 5, "%s", "hello");
    SN(6, "hello", 5, "%s", "hello");
    SN(5, "hell", 5, "%s", "hello");
    SN(4, "hel", 5, "%s", "hello");
    SN(1, "", 5, "%s", "hello");
    SN(0, "", 5, "%s", "hello");
    SCN(64, "hello", 5, "%s", "hello");
    SCN(6, "hello", 5, "%s", "hello");
    SCN(5, "hell", 4, "%s", "hello");
    SCN(4, "hel", 3, "%s", "hello");
    SCN(2, "h", 1, "%s", "hello");
    SCN(1, "", 0, "%s", "hello");
    SCN(0, "", 0, "%s", "hello");
    SCN(5, "1234", 4, "%d", 123456);
    SCN(3, "  ", 2, "%5d", 1);
    EXPECT(kern_snprintf(NULL, 0, "%d", 12345) == 5);
    EXPECT(kern_scnprintf(NULL, 0, "%d", 12345) == 0);
    EXPECT(kern_snprintf(buf, 3, "%d", 12345) == 5 && strcmp(buf, "12") == 0);
    EXPECT(kern_scnprintf(buf, 3, "%d", 12345) == 2 && strcmp(buf, "12") == 0);

    w0 = kern_warn_count();
    SN(64, "a", 1, "a%fb%d", 1.0, 5);
    EXPECT(kern_warn_count() > w0);
    SN(64, "x", 1, "x%ny", (int *)buf);
    SN(64, "1 ", 2, "%d %jd %d", 1, (intmax_t)2, 3); /* no 'j' */
    SCN(64, "a", 1, "a%eb", 1.0);
    /* size > INT_MAX: WARN_ON_ONCE, return 0, buffer untouched */
    w0 = kern_warn_count();
    memset(buf, SENTINEL, sizeof buf);
    EXPECT(kern_snprintf(buf, (size_t)INT_MAX + 1, "%s", "abc") == 0);
    EXPECT((unsigned char)buf[0] == SENTINEL);
    EXPECT(kern_warn_count() == w0 + 1);
}

/* --- pointers (printk-formats.rst) ---------------------------------- */
static void test_pointers(void)
{
    /* %px: the raw address, 2*sizeof(void *) lower-case hex digits, no "0x" */
    SN(64, "0000000000001234", 16, "%px", (void *)(uintptr_t)0x1234);
    SN(64, "ffffffffffffffff", 16, "%px", (void *)(uintptr_t)UINTPTR_MAX);
    /* plain %p: hashed in a kernel; here no_hash_pointers is set: like %px */
    SN(64, "00000000deadbeef|", 17, "%p|", (void *)(uintptr_t)0xdeadbeef);
    SN(64, "0000000000000000", 16, "%p", (void *)NULL);
    /* %pK with kptr_restrict = 0: as %p */
    SN(64, "0000000000abcdef", 16, "%pK", (void *)(uintptr_t)0xabcdef);
    /* alphanumerics after %p belong to the conversion */
    SN(64, "0000000000000010-", 17, "%pxyz-", (void *)(uintptr_t)16);
    /* width and truncation apply as for numbers */
    SN(9, "00000000", 16, "%px", (void *)(uintptr_t)0x1234);
    SCN(9, "00000000", 8, "%px", (void *)(uintptr_t)0x1234);
    /* %pS without CONFIG_KALLSYMS: "0x" + 16 hex digits */
    SN(64, "0x0000000000001234", 18, "%pS", (void *)(uintptr_t)0x1234);
    /* %pe of ERR_PTR(-5): the name from the kernel's lib/errname.c
     * (CONFIG_SYMBOLIC_ERRNAME); a number without a name stays a number */
    SN(64, "-EIO", 4, "%pe", (void *)(intptr_t)-5);
    SN(64, "-4095", 5, "%pe", (void *)(intptr_t)-4095);
    /* %pE: the kernel's string_escape_mem (lib/string_helpers.c) */
    SN(64, "a\\n\\001", 7, "%3pE", "a\n\001");
}

/* --- pointers to data: times, buffers, addresses, bitmaps ----------- */
static void test_pointers_to_data(void)
{
    /* %ptT: the kernel's time64_to_tm (kernel/time/timeconv.c) */
    {
        static const long long t = 951782400; /* 2000-02-29 00:00:00 UTC */
        SN(64, "2000-02-29T00:00:00", 19, "%ptT", &t);
    }
    /* %ph of a buffer; %pM (MAC); %pI4 (IPv4) */
    {
        static const unsigned char b[6] = { 0x00, 0x01, 0x02, 0xab, 0xcd, 0xef };
        static const unsigned char ip[4] = { 192, 168, 1, 10 };
        SN(64, "00 01 02", 8, "%3ph", b);
        SN(64, "00:01:02:ab:cd:ef", 17, "%pM", b);
        SN(64, "192.168.1.10", 12, "%pI4", ip);
        SN(64, "192.168.001.010", 15, "%pi4", ip);
    }
    /* %pISp of a struct sockaddr_in: address:port (exercises the shim's
     * ctype, called as isalpha(*++fmt)) */
    {
        struct sockaddr_in sa;
        memset(&sa, 0, sizeof sa);
        sa.sin_family = AF_INET;
        sa.sin_port = htons(80);
        sa.sin_addr.s_addr = htonl(0x0a000001);
        SN(64, "10.0.0.1:80|", 12, "%pISp|", &sa);
    }
    /* %*pb / %*pbl: a bitmap as hex / as a range list (printk-formats.rst) */
    {
        unsigned long bm = 0x779; /* bits 0,3-6,8-10 */
        SN(64, "779|0,3-6,8-10", 14, "%*pb|%*pbl", 12, &bm, 12, &bm);
    }
    /* %ptT of a time64_t: ISO 8601 date and time, UTC */
    {
        long long t = 946080061; /* 1999-12-25 00:01:01 UTC */
        SN(64, "1999-12-25T00:01:01", 19, "%ptT", &t);
    }
}

/* --- cases with mem arguments (bytes behind a pointer, docs/CASE_FORMAT.md)
 * through the case model's call: the text form's examples */
static void test_mem_cases(void)
{
    char buf[64];
    static struct scn_case kc;
    static const struct { const char *text, *out; } mc[] = {
        { "\"MAC=%pM\" mem:\"\\x00\\x1b!:O^\"", "MAC=00:1b:21:3a:4f:5e" },
        { "\"%pI4|%pi4\" mem:\"\\xc0\\xa8\\x01\\n\" mem:\"\\n\\x00\\x00\\x01\"", "192.168.1.10|010.000.000.001" },
        { "\"%pI6c\" mem:\"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\"", "fe80::1" },
        { "\"%*ph\" int:3 mem:\"\\x00\\x01\\xab\"", "00 01 ab" },
        /* struct sockaddr_in: AF_INET (2, little-endian), port 80 and 10.0.0.1 in network order */
        { "\"%pISp\" mem:\"\\x02\\x00\\x00P\\n\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\"", "10.0.0.1:80" },
        /* check_pointer(): NULL and error pointers are not read */
        { "\"%pM|%pI4|%6ph\" mem:NULL mem:ERR(-14) mem:ERR(-4095)", "(null)|(efault)|(efault)" },
    };
    char err[128];
    for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++) {
        int ok = scn_case_parse(mc[i].text, strlen(mc[i].text), &kc, err, sizeof err) == 0;
        int r = ok ? scn_case_call(kern_vsnprintf, &kc, buf, sizeof buf) : -1;
        checks++;
        if (!ok || r != (int)strlen(mc[i].out) || strcmp(buf, mc[i].out) != 0) {
            fprintf(stderr, "case %s: %s gave %d \"%s\", expected \"%s\"\n", mc[i].text, ok ? "" : err, r,
                    ok ? buf : "", mc[i].out);
            failures++;
        }
    }
}

int main(void)
{
    test_adapter();
    test_integers();
    test_strings_truncation_unsupported();
    test_pointers();
    test_pointers_to_data();
    test_mem_cases();
    if (failures) {
        fprintf(stderr, "test_kernel_target: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_kernel_target: %d checks passed (%s)\n", checks, scn_target_kernel.version());
    return 0;
}
