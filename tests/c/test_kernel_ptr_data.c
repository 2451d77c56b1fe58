/* The reference's kernel %p extensions for fixed-layout data (impl/src/
 * conv_kmisc.c, conv_kbitmap.c, conv_kresource.c, conv_ktime.c) against the
 * kernel's own lib/vsprintf.c (core/targets/kernel), at every buffer size in
 * both families (test_kernel_ptr_compare.h): %p4cc, %pb %pbl, %pr %pR, %ptR
 * %ptT with d t r s, %px %pK %pNF, and the "(%p4?)" "(%pN?)" "(%pt?)" of
 * letters that name nothing; valid, NULL and ERR pointers, odd widths and
 * precisions, inputs exactly as long as what is read (a struct rtc_time of
 * which %ptRt reads 12 bytes, a bitmap of 0 bits). Then expected strings from
 * Documentation/core-api/printk-formats.rst. */
#include "test_kernel_ptr_compare.h"

/* "<%{mod}p{form}>" for each form, with each value (its low size bytes, 4
 * or 8) and with NULL and error pointers */
static void each_form_and_value(const char *const *forms, size_t nf, const uint64_t *vals, size_t nv, size_t size)
{
    unsigned char b[8];
    for (size_t f = 0; f < nf; f++) {
        for (size_t i = 0; i < nv; i++) {
            if (size == 4) put32(b, (uint32_t)vals[i]);
            else put64(b, vals[i]);
            each_mod(forms[f], b, size, mods, NMODS);
        }
        each_mod(forms[f], NULL, 0, mods, NMODS);
    }
}

/* ---- %p4cc */
static void test_fourcc(void)
{
    static const uint64_t codes[] = { 0x34325241 /* AR24 */, 0xb4325241, 0x20202020, 0x7f001f80, 0xffffffff,
                                      0x80000000, 0, 0x7e7e2120 };
    static const char *const forms[] = { "4cc", "4ccx", "4c", "4", "4x", "4cC" };
    unsigned char b[4];
    each_form_and_value(forms, sizeof forms / sizeof forms[0], codes, sizeof codes / sizeof codes[0], 4);
    put32(b, (uint32_t)codes[0]);
    with_bytes("[%*p4cc]", "int:-40", b, 4);
}

/* ---- %pb %pbl: the width is the number of bits; ceil(bits / 64) words read */
static void test_bitmap(void)
{
    static const int bits[] = { 0, 1, 4, 5, 31, 32, 33, 63, 64, 65, 96, 100, 128, 200, 256 };
    static const char *const forms[] = { "b", "bl", "blx", "bx" };
    unsigned char map[4][32];
    for (int i = 0; i < 32; i++) {
        map[0][i] = (unsigned char)(i * 37 + 5);
        map[1][i] = 0xff;
        map[2][i] = 0;
        map[3][i] = i % 3 ? 0x0f : 0xc3;
    }
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++) {
            size_t n = (size_t)(bits[b] + 63) / 64 * 8;
            char fmt[64];
            for (int p = 0; p < 4; p++) {
                snprintf(fmt, sizeof fmt, "<%%%dp%s>", bits[b], forms[f]);
                with_bytes(fmt, NULL, map[p], n);
                snprintf(fmt, sizeof fmt, "<%%-0%d.3p%s>", bits[b], forms[f]);
                with_bytes(fmt, NULL, map[p], n);
                snprintf(fmt, sizeof fmt, "<%%*p%s>", forms[f]);
                char star[16];
                snprintf(star, sizeof star, "int:%d", -bits[b]);
                with_bytes(fmt, star, map[p], n);
            }
        }
        each_mod(forms[f], map[0], 8, mods, NMODS); /* no width: 0 bits */
        each_mod(forms[f], NULL, 0, mods, NMODS);
        char fmt[64];
        snprintf(fmt, sizeof fmt, "<%%*p%s>", forms[f]);
        with_mem(fmt, "int:-8388608", "NULL");
        with_bytes(fmt, "int:-8388608", map[0], 0); /* the width wraps to -2^23: 0 bits */
    }
}

/* ---- %pr %pR: struct resource as include/linux/ioport.h lays it out on
 * x86-64: u64 start, u64 end, const char *name, unsigned long flags (what
 * vsprintf.c reads ends there) */
static void test_resource(void)
{
    static const struct { uint64_t start, end, flags; } res[] = {
        { 0x60000000, 0x6fffffff, 0x200 },
        { 0x60000000, 0x6fffffff, 0x2200 },
        { 0x1000, 0x1fff, 0x100 },
        { 0x3f8, 0x3f8, 0x100 },
        { 5, 5, 0x400 },
        { 16, 23, 0x800 | 0x400 },
        { 0, 0xff, 0x1000 },
        { 0x123, 0x4567, 0 },
        { 0xfee00000, 0xfee00fff, 0x200 | 0x100000 | 0x2000 | 0x200000 | 0x10000000 },
        { 0x1000, 0x1fff, 0x200 | 0x20000000 },
        { 0x1000, 0xfff, 0x100 | 0x20000000 },
        { 0, ~0ull, 0x400 | 0x20000000 },
        { ~0ull, ~0ull - 1, 0x800 },
        { ~0ull, 0, 0xffffffffffffffffull },
        { 0x8000000000000000ull, 0x8000000000000001ull, 0x1000 | 0x100000 },
        { 7, 9, 0x20000000 | 0x2000 },
        { 18446744073709551615ull, 12345678901234567890ull, 0x400 | 0x10000000 | 0x2000 | 0x100000 | 0x200000 },
    };
    static const char *const forms[] = { "r", "R", "Rx", "rR" };
    unsigned char b[32] = { 0 };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        for (size_t i = 0; i < sizeof res / sizeof res[0]; i++) {
            put64(b, res[i].start);
            put64(b + 8, res[i].end);
            put64(b + 24, res[i].flags);
            each_mod(forms[f], b, 32, mods, NMODS);
        }
        each_mod(forms[f], NULL, 0, mods, NMODS);
    }
    with_bytes("[%*pR]", "int:-60", b, 32);
}

/* ---- %ptR (struct rtc_time, 36 bytes) %ptT (time64_t) */
static void test_time(void)
{
    static const char *const forms[] = { "tR", "tRd", "tRt", "tRr", "tRs", "tRdr", "tRtr", "tRrs", "tRsr",
                                         "tRdt", "tRx", "tT", "tTd", "tTt", "tTr", "tTs", "tTdrs", "tTts",
                                         "tTsx", "t", "tx", "tr" };
    static const int rtc[][6] = { /* sec min hour mday mon year */
        { 56, 34, 12, 31, 11, 99 }, { 0, 0, 0, 1, 0, 70 }, { 60, 59, 23, 29, 1, 100 },
        { -1, -2, -3, -4, -5, -1901 }, { 99, 100, 1000, 12345, 123, 2147483647 },
        { 0, 0, 0, 0, -1, -2147483647 - 1 }, { 7, 8, 9, 10, 11, 8099 },
    };
    static const int64_t secs[] = {
        0, -1, 86399, 86400, 951782400 /* 2000-02-29 */, 951868799, 1234567890, 2147483647,
        -2147483648LL, 253402300799LL /* 9999-12-31T23:59:59 */, 253402300800LL, -62135596800LL /* 0001-01-01 */,
        -62167219200LL /* 0000-01-01 */, -62167219201LL, 4102444800LL, 67767976233316800LL /* year 2^31 */,
        -67768040609740801LL, 9223372036854775807LL, -9223372036854775807LL - 1, 1LL << 40, -(1LL << 40),
        13569465600LL /* 2400-01-01 */, 4107542400LL /* 2100-03-01 */,
    };
    unsigned char b[36];
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        if (forms[f][1] != 'T') {
            for (size_t i = 0; i < sizeof rtc / sizeof rtc[0]; i++) {
                memset(b, 0x77, sizeof b); /* wday yday isdst: never printed */
                for (int k = 0; k < 6; k++)
                    put32(b + 4 * k, (uint32_t)rtc[i][k]);
                each_mod(forms[f], b, 36, mods, i ? 3 : NMODS);
            }
        } else {
            for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
                put64(b, (uint64_t)secs[i]);
                each_mod(forms[f], b, 8, mods, i > 3 ? 2 : NMODS);
            }
        }
        each_mod(forms[f], NULL, 0, mods, NMODS);
    }
    /* %ptRt reads only sec min hour (12 bytes) */
    put32(b, 1), put32(b + 4, 2), put32(b + 8, 3);
    with_bytes("<%ptRt>", NULL, b, 12);
    with_bytes("<%ptRtr>", NULL, b, 12);
}

/* ---- %px %pK %pNF: plain pointers and a u64 */
static void test_misc(void)
{
    static const char *const forms[] = { "x", "K", "Kx", "NF", "NFx", "N", "Nx" };
    static const uint64_t feats[] = { 0, 1, 0x8000000000000000ull, 0x123456789abcdefull, ~0ull };
    unsigned char b[8];
    each_form_and_value(forms, sizeof forms / sizeof forms[0], feats, sizeof feats / sizeof feats[0], 8);
    put64(b, feats[sizeof feats / sizeof feats[0] - 1]);
    with_bytes("[%*pNF]", "int:-30", b, 8);
    with_mem("[%*px|%-5pK]", "int:-30", "NULL mem:ERR(-5)");
    /* several in one format, each argument 8-byte aligned in the case */
    compare("\"%pb|%pISpc|%pR|%ptT|%p4cc|%pNF\" mem:NULL mem:ERR(-1) mem:NULL mem:ERR(-4095) mem:NULL mem:NULL");
    compare("\"%16pb.%ptTd.%pNF-%p4ccx\" mem:\"\\xff\\x0f\\x00\\x00\\x00\\x00\\x00\\x00\" "
            "mem:\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\" mem:\"\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\" "
            "mem:\"AR24\"");
}

static void test_expected(void)
{
    expect_args("%p4cc|%p4cc|%p4c", "AR24 little-endian (0x34325241)|AR24 big-endian (0xb4325241)|(%p4?)",
                (struct xarg[]){ { 0, "AR24", 4 }, { 0, "AR2\xb4", 4 }, { 0, NULL, 0 } }, 3);
    expect_args("%*pb|%*pbl|%*pbl|%*pb", "e0ff0|0-1,3,8-11||1,ffffffff",
                (struct xarg[]){ { "int:20", "\xf0\x0f\x0e\0\0\0\0\0", 8 }, { "int:20", "\x0b\x0f\0\0\0\0\0\0", 8 },
                                 { "int:0", "", 0 }, { "int:33", "\xff\xff\xff\xff\x01\0\0\0", 8 } }, 4);
    /* start, end, the name pointer (NULL), flags */
    unsigned char r[32] = { 0, 0, 0, 0x60, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x6f, 0, 0, 0, 0,
                            0, 0, 0, 0, 0, 0, 0, 0, 0, 0x22 };
    expect_args("%pr|%pR", "[mem 0x60000000-0x6fffffff flags 0x2200]|[mem 0x60000000-0x6fffffff pref]",
                (struct xarg[]){ { 0, r, 32 }, { 0, r, 32 } }, 2);
    unsigned char t1[8], t2[8], t0[8] = { 0 };
    put64(t1, 1234567890);
    put64(t2, 951782400);
    expect_args("%ptT|%ptTs|%ptTd|%ptTtr", "2009-02-13T23:31:30|2009-02-13 23:31:30|2000-02-29|00:00:00",
                (struct xarg[]){ { 0, t1, 8 }, { 0, t1, 8 }, { 0, t2, 8 }, { 0, t0, 8 } }, 4);
    unsigned char rtc[36] = { 0 };
    static const int f[6] = { 56, 34, 12, 31, 11, 99 };
    for (int i = 0; i < 6; i++)
        put32(rtc + 4 * i, (uint32_t)f[i]);
    expect_args("%ptR|%ptRr|%ptRt", "1999-12-31T12:34:56|0099-11-31T12:34:56|12:34:56",
                (struct xarg[]){ { 0, rtc, 36 }, { 0, rtc, 36 }, { 0, rtc, 12 } }, 3);
    unsigned char nf[8];
    put64(nf, 0x0123456789abcdefull);
    expect_args("%pNF|%pt|%p4c", "0x0123456789abcdef|(%pt?)|(%p4?)",
                (struct xarg[]){ { 0, nf, 8 }, { 0, t0, 8 }, { 0, NULL, 0 } }, 3);
}

/* the kernel target runs the kernel's own string_escape_mem() / errname():
 * %pE of "\n" is "\n" escaped, %pe of -ENOSPC a name */

int main(void)
{
    if (!kptr_targets())
        return check_summary("test_kernel_ptr_data");
    test_fourcc();
    test_bitmap();
    test_resource();
    test_time();
    test_misc();
    test_expected();
    printf("test_kernel_ptr_data: %d cases compared at every size\n", ncases);
    return check_summary("test_kernel_ptr_data");
}
