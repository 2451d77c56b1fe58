/* The reference's kernel %p extensions (impl/src/conv_kptr.c) against the
 * kernel's own lib/vsprintf.c (core/targets/kernel): cases with mem:
 * arguments (docs/CASE_FORMAT.md) for %pM %pm (R F), %pI4 %pi4 (h n b l),
 * %pI6 %pi6 %pI6c, %ph (C D N), %pa (p d), %pU (b B l L), with NULL and
 * error pointers, widths, precisions and '-', must give the same bytes and
 * return value on "ref-kernel" and "kernel" at every buffer size from 0 to
 * the length + 1, in both return-value families. Then a few expected strings
 * from Documentation/core-api/printk-formats.rst. */
#include "test_kernel_ptr_compare.h"

/* each conversion with each modifier, each byte pattern, NULL and errors */
static void family(const char *const *convs, size_t nconv, const unsigned char (*pats)[16], size_t npat,
                   size_t n)
{
    static const char *const mods[] = { "", "20", "-20", "3", ".5", "-.3", "25.9", "0", "#", "+" };
    for (size_t i = 0; i < nconv; i++) {
        for (size_t m = 0; m < sizeof mods / sizeof mods[0]; m++) {
            char fmt[64];
            snprintf(fmt, sizeof fmt, "<%%%sp%s>", mods[m], convs[i]);
            for (size_t p = 0; p < npat; p++)
                with_bytes(fmt, NULL, pats[p], n);
            with_mem(fmt, NULL, "NULL");
            with_mem(fmt, NULL, "ERR(-14)");
            with_mem(fmt, NULL, "ERR(-4095)");
        }
        /* '*' widths, negative and clamped */
        char fmt[64];
        snprintf(fmt, sizeof fmt, "[%%*p%s]", convs[i]);
        with_bytes(fmt, "int:-30", pats[0], n);
        with_bytes(fmt, "int:40", pats[npat - 1], n);
        with_mem(fmt, "int:-12", "NULL");
        with_mem(fmt, "int:9", "ERR(-1)");
    }
}

int main(void)
{
    static unsigned char pats[12][16] = {
        { 0x00, 0x1b, 0x21, 0x3a, 0x4f, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 },
        { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x1b, 0x21, 0xff, 0xfe, 0x3a, 0x4f, 0x5e },
        { 0 },                                                               /* :: */
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 10 },       /* v4-mapped */
        { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0x5e, 0xfe, 10, 0, 0, 1 },     /* ISATAP */
        { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0x02, 0, 0x5e, 0xfe, 1, 2, 3, 4 },
        { 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 },                  /* 1:0:0:1::1 */
        { 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1 },                  /* equal runs */
        { 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0 },                  /* single zeros */
        { 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },            /* trailing run */
        { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
        { 0 },                                                               /* random, below */
    };
    for (int i = 0; i < 16; i++)
        pats[11][i] = (unsigned char)rnd();

    if (!kptr_targets())
        return check_summary("test_kernel_ptr");

    static const char *const mac[] = { "M", "MR", "MF", "m", "mR", "mF" };
    static const char *const ip4[] = { "I4", "i4", "I4h", "I4n", "I4b", "I4l", "i4h", "i4l" };
    static const char *const ip6[] = { "I6", "i6", "I6c", "i6c" };
    static const char *const ipbad[] = { "I", "i5", "I7x" };
    static const char *const uuid[] = { "U", "Ub", "UB", "Ul", "UL", "Ux" };
    static const char *const addr[] = { "a", "ap", "ad", "ax" };
    family(mac, 6, pats, 12, 6);
    family(ip4, 8, pats, 12, 4);
    family(ip6, 4, pats, 12, 16);
    family(ipbad, 3, pats, 2, 16);
    family(uuid, 6, pats, 12, 16);
    family(addr, 4, pats, 12, 8);

    /* %ph: the width is the length (none: 1, at most 64); 64 bytes behind it */
    {
        static const char *const hx[] = { "h", "hC", "hD", "hN", "hX" };
        static const char *const hw[] = { "", "1", "2", "5", "-5", "16", "63", "64", ".3", "0" };
        static const char *const star[] = { "int:0", "int:-3", "int:64", "int:65", "int:1000", "int:-8388608" };
        unsigned char b[64];
        for (int i = 0; i < 64; i++)
            b[i] = (unsigned char)(i * 37 + 5);
        for (size_t i = 0; i < 5; i++) {
            char fmt[64];
            each_mod(hx[i], b, 64, hw, sizeof hw / sizeof hw[0]);
            each_mod(hx[i], NULL, 0, hw, sizeof hw / sizeof hw[0]);
            snprintf(fmt, sizeof fmt, "<%%*p%s>", hx[i]);
            for (size_t m = 0; m < sizeof star / sizeof star[0]; m++) {
                with_bytes(fmt, star[m], b, 64);
                with_mem(fmt, star[m], "NULL");
            }
            /* exactly the bytes asked for (ASan: no read past them) */
            with_bytes(fmt, "int:3", b, 3);
            snprintf(fmt, sizeof fmt, "<%%p%s>", hx[i]);
            with_bytes(fmt, NULL, b, 1);
        }
    }

    /* several in one format, and what follows the letters */
    compare("\"%pM|%pI4|%6ph|%pU|%pa\" mem:NULL mem:ERR(-14) mem:ERR(-4095) mem:NULL mem:ERR(-22)");
    compare("\"%pI6cx-%pMRz%pI4nq\" mem:\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\" "
            "mem:\"abcdef\" mem:\"\\x7f\\x00\\x00\\x01\"");

    /* expected strings, from printk-formats.rst */
    expect("\"MAC=%pM\" mem:\"\\x00\\x1b!:O^\"", "MAC=00:1b:21:3a:4f:5e");
    expect("\"%pMR|%pMF|%pm|%pmR\" mem:\"\\x00\\x1b!:O^\" mem:\"\\x00\\x1b!:O^\" mem:\"\\x00\\x1b!:O^\" "
           "mem:\"\\x00\\x1b!:O^\"",
           "5e:4f:3a:21:1b:00|00-1b-21-3a-4f-5e|001b213a4f5e|5e4f3a211b00");
    expect("\"%pI4|%pi4|%pI4h\" mem:\"\\xc0\\xa8\\x01\\n\" mem:\"\\xc0\\xa8\\x01\\n\" mem:\"\\xc0\\xa8\\x01\\n\"",
           "192.168.1.10|192.168.001.010|10.1.168.192");
    expect("\"%pI6c\" mem:\"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x1b!\\xff\\xfe:O^\"",
           "fe80::21b:21ff:fe3a:4f5e");
    expect("\"%pI6\" mem:\"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x1b!\\xff\\xfe:O^\"",
           "fe80:0000:0000:0000:021b:21ff:fe3a:4f5e");
    expect("\"%pi6\" mem:\"\\xfe\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x1b!\\xff\\xfe:O^\"",
           "fe80000000000000021b21fffe3a4f5e");
    expect("\"%pI6c\" mem:\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xff\\xff\\xc0\\xa8\\x01\\n\"",
           "::ffff:192.168.1.10");
    expect("\"%pI6c|%pI6c\" mem:\"\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\" "
           "mem:\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\"",
           "1:0:0:1::1|::");
    expect("\"%*ph|%*phC|%*phD|%*phN|%ph\" int:3 mem:\"\\x00\\x01\\xab\" int:3 mem:\"\\x00\\x01\\xab\" int:3 "
           "mem:\"\\x00\\x01\\xab\" int:3 mem:\"\\x00\\x01\\xab\" mem:\"\\xab\"",
           "00 01 ab|00:01:ab|00-01-ab|0001ab|ab");
    expect("\"%pa|%pad|%30pap\" mem:\"\\xef\\xbe\\xad\\xde\\x00\\x00\\x00\\x00\" mem:\"\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\" "
           "mem:\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x80\"",
           "0x00000000deadbeef|0x0000000000000001|0x8000000000000000");
    expect("\"%pU|%pUB|%pUl|%pUL\" mem:\"\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r\\x0e\\x0f\" "
           "mem:\"\\xaa\\xbb\\xcc\\xdd\\xee\\xff\\x00\\x11\\\"3DUfw\\x88\\x99\" "
           "mem:\"\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r\\x0e\\x0f\" "
           "mem:\"\\xaa\\xbb\\xcc\\xdd\\xee\\xff\\x00\\x11\\\"3DUfw\\x88\\x99\"",
           "00010203-0405-0607-0809-0a0b0c0d0e0f|AABBCCDD-EEFF-0011-2233-445566778899|"
           "03020100-0504-0706-0809-0a0b0c0d0e0f|DDCCBBAA-FFEE-1100-2233-445566778899");
    expect("\"%-10pM|%20.5pI4|%pM\" mem:NULL mem:ERR(-14) mem:ERR(-1)", "(null)    |               (efau|(efault)");

    printf("test_kernel_ptr: %d cases compared at every size\n", ncases);
    return check_summary("test_kernel_ptr");
}
