/* The reference's kernel %p extensions for addresses, escapes and error names
 * (impl/src/conv_kaddr.c, conv_kescape.c, conv_kerrname.c) against the
 * kernel's own lib/vsprintf.c (core/targets/kernel), at every buffer size in
 * both families (test_kernel_ptr_compare.h): %pIS %piS with every letter,
 * %pE with every letter, %pe of every error code and of other pointers, %pV
 * (struct va_format, mem:VAF) with formats of every conversion;
 * valid, NULL and ERR pointers, odd widths and precisions, letters that name
 * nothing, inputs exactly as long as what is read. Then expected strings
 * from Documentation/core-api/printk-formats.rst.
 *
 * %pE and %pe need the kernel target built with the kernel's own
 * lib/string_helpers.c and lib/errname.c; with inert stand-ins there (%pE
 * printing nothing, %pe -N) only the expected strings check them, and the
 * test says so. */
#include "test_kernel_ptr_compare.h"

/* ---- %pIS %piS: struct sockaddr_in (16 bytes, 8 read) / sockaddr_in6 (28) */
static void test_sockaddr(void)
{
    /* p, f, s print numbers into the kernel's fixed array: widths up to 5 */
    static const char *const small[] = { "", "5", "-5", "05", ".3", ".5", "3.2", "-4.4", "#", "+" };
    static const char *const wide[] = { "30", "-30", "40.12", "050" };
    static const char *const letters[] = { "IS", "iS", "ISc", "iSc", "ISp", "ISpc", "iSp", "ISf", "ISs",
                                           "ISpfsc", "iSpfs", "ISfc", "ISsc", "ISh", "ISl", "ISn", "ISb",
                                           "ISpl", "iSph", "ISlbh", "ISpfcx", "ISq", "iSc4",
                                           /* Latin-1 letters count (lib/ctype.c): 0xe9 does, 0xd7 does not */
                                           "IS\xe9p", "ISc\xd7s" };
    static const char *const plain[] = { "IS", "iS", "ISc", "iSc", "ISh", "ISl", "iSn", "ISq" };
    unsigned char v4[3][16], v6[5][28];
    memset(v4, 0, sizeof v4);
    memset(v6, 0, sizeof v6);
    static const unsigned char a4[3][4] = { { 192, 168, 1, 10 }, { 1, 2, 3, 4 }, { 255, 0, 99, 100 } };
    static const unsigned port[] = { 0x3930 /* 12345 */, 0, 0xffff };
    for (int i = 0; i < 3; i++) {
        put16(v4[i], 2);
        v4[i][2] = (unsigned char)(port[i] >> 8), v4[i][3] = (unsigned char)port[i];
        memcpy(v4[i] + 4, a4[i], 4);
        memset(v4[i] + 8, 0xee, 8); /* sin_zero: never printed */
    }
    static const unsigned char a6[5][16] = {
        { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8 },
        { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x1b, 0x21, 0xff, 0xfe, 0x3a, 0x4f, 0x5e },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3 },
        { 0 },
        { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
    };
    static const uint32_t flow[5] = { 0x15cd5b07, 0, 0xffffffff, 0x000000f0, 0x12345678 }; /* as stored */
    static const uint32_t scope[5] = { 1234567890, 0, 0xffffffff, 7, 42 };
    for (int i = 0; i < 5; i++) {
        put16(v6[i], 10);
        v6[i][2] = (unsigned char)(0x3039 >> (i & 1 ? 0 : 8)), v6[i][3] = (unsigned char)(i * 51);
        put32(v6[i] + 4, flow[i]);
        memcpy(v6[i] + 8, a6[i], 16);
        put32(v6[i] + 24, scope[i]);
    }
    for (size_t l = 0; l < sizeof letters / sizeof letters[0]; l++) {
        for (int i = 0; i < 3; i++)
            each_mod(letters[l], v4[i], i ? 8 : 16, small, sizeof small / sizeof small[0]);
        for (int i = 0; i < 5; i++)
            each_mod(letters[l], v6[i], 28, small, sizeof small / sizeof small[0]);
        each_mod(letters[l], NULL, 0, mods, NMODS);
    }
    for (size_t l = 0; l < sizeof plain / sizeof plain[0]; l++) {
        each_mod(plain[l], v4[2], 8, wide, 4);
        each_mod(plain[l], v6[2], 28, wide, 4);
    }
    /* a family that is neither AF_INET nor AF_INET6: "(einval)", 2 bytes read */
    static const unsigned char fam[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 10 }, { 0, 2 } };
    for (int i = 0; i < 4; i++) {
        each_mod("ISpfs", fam[i], 2, mods, NMODS);
        each_mod("iS", fam[i], 2, mods, NMODS);
    }
    /* '*' widths */
    with_bytes("[%*pISp]", "int:-5", v4[0], 16);
    with_bytes("[%*pISc]", "int:-44", v6[1], 28);
    with_bytes("[%*.*pISpfs]", "int:4 int:2", v6[0], 28);
    with_mem("[%*pISp]", "int:9", "NULL");
}

/* ---- %pE: the width is the length */
static void test_escape(int real)
{
    static const char *const letters[] = { "E", "Ea", "Ec", "Eh", "En", "Eo", "Ep", "Es", "Eap", "Eho",
                                           "Ehp", "Ecsn", "Enx", "Eoh", "Esp", "Ecp", "Ez" };
    static const char *const widths[] = { "", "0", "1", "5", "16", "40", "64", "-64", ".2", "-3.1" };
    unsigned char b[64];
    static const unsigned char first[] = { 0, '\a', 0x1b, '"', '\\', '\n', '\r', '\t', '\v', '\f', ' ',
                                           'A', '~', 0x7f, 0x80, 0x9f, 0xa0, 0xff, '\b', 'z', 0xc9, '%' };
    for (int i = 0; i < 64; i++)
        b[i] = i < (int)sizeof first ? first[i] : (unsigned char)(i * 73 + 11);
    if (!real) {
        printf("test_kernel_ptr_more: the kernel target has no string_escape_mem yet: %%pE only against "
               "expected strings\n");
        return;
    }
    for (size_t l = 0; l < sizeof letters / sizeof letters[0]; l++) {
        char fmt[64];
        each_mod(letters[l], b, 64, widths, sizeof widths / sizeof widths[0]);
        each_mod(letters[l], NULL, 0, widths, sizeof widths / sizeof widths[0]);
        snprintf(fmt, sizeof fmt, "<%%*p%s>", letters[l]);
        with_bytes(fmt, "int:-7", b, 7); /* exactly the bytes read */
        with_bytes(fmt, "int:22", b, 22);
        with_mem(fmt, "int:0", "NULL");
        snprintf(fmt, sizeof fmt, "<%%p%s>", letters[l]);
        for (int i = 0; i < (int)sizeof first; i++)
            with_bytes(fmt, NULL, first + i, 1);
    }
}

/* ---- %pe: every error code; anything else is plain %p */
static void test_errname(int real)
{
    char mem[32];
    for (int e = 1; e <= 4095; e++) {
        snprintf(mem, sizeof mem, "ERR(-%d)", e);
        if (real || !((e >= 1 && e <= 133 && e != 41 && e != 58) || (e >= 512 && e <= 530 && e != 520)))
            with_mem("<%pe>", NULL, mem);
    }
    static const char *const ms[] = { "20", "-20", "3", ".3", "08", "+", " ", "-+12", "025.4" };
    static const char *const codes[] = { "ERR(-1)", "ERR(-28)", "ERR(-517)", "ERR(-41)", "ERR(-4095)", "ERR(-531)" };
    for (size_t m = 0; m < sizeof ms / sizeof ms[0]; m++)
        for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++) {
            char fmt[32];
            snprintf(fmt, sizeof fmt, "<%%%spe>", ms[m]);
            if (real || strstr("ERR(-41) ERR(-4095) ERR(-531)", codes[c]))
                with_mem(fmt, NULL, codes[c]);
        }
    static const unsigned char x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    each_mod("e", x, 8, mods, NMODS);
    each_mod("ex", x, 8, mods, NMODS);
    with_mem("<%pe|%20pe|%-8pex>", NULL, "NULL mem:NULL mem:NULL");
}

static void test_expected(void)
{
    unsigned char in4[16] = { 2, 0, 0x30, 0x39, 1, 2, 3, 4 }, in6[28] = { 10, 0, 0x30, 0x39, 0x07, 0x5b, 0xcd, 0x15 };
    for (int i = 0; i < 8; i++)
        in6[9 + 2 * i] = (unsigned char)(i + 1);
    put32(in6 + 24, 1234567890);
    expect_args("%pISpc|%pIS|%piS", "1.2.3.4:12345|1.2.3.4|001.002.003.004",
                (struct xarg[]){ { 0, in4, 16 }, { 0, in4, 16 }, { 0, in4, 16 } }, 3);
    expect_args("%pISpfc|%pISsc|%pISc|%pIS",
                "[1:2:3:4:5:6:7:8]:12345/123456789|[1:2:3:4:5:6:7:8]%1234567890|1:2:3:4:5:6:7:8|"
                "0001:0002:0003:0004:0005:0006:0007:0008",
                (struct xarg[]){ { 0, in6, 28 }, { 0, in6, 28 }, { 0, in6, 28 }, { 0, in6, 28 } }, 4);
    expect_args("%*pE|%*pEhp|%*pEn|%*pEo|%pEs|%*pE|%pE", "a\\n\\0\\|a\\x01b|\\0a|\\101|\\t||(null)",
                (struct xarg[]){ { "int:4", "a\n\0\\", 4 }, { "int:3", "a\1b", 3 }, { "int:2", "\0a", 2 },
                                 { "int:1", "A", 1 }, { 0, "\t", 1 }, { "int:0", NULL, 0 }, { 0, NULL, 0 } }, 7);
    expect("\"%pe|%pe|%pe|%pe|%pe\" mem:ERR(-28) mem:ERR(-11) mem:ERR(-517) mem:ERR(-41) mem:ERR(-4095)",
           "-ENOSPC|-EAGAIN|-EPROBE_DEFER|-41|-4095");
}

/* ---- %pV: a struct va_format (mem:VAF) whose va_list reads only zeros, so
 * every conversion of its format prints 0 / "(null)" / a NUL byte on both
 * targets; its output cut at every size (compare()) */
static void vaf_case(const char *pre, const char *fmt, const char *inner, const char *post)
{
    char text[1024], qf[256], qi[512];
    quote(qf, (const unsigned char *)fmt, strlen(fmt));
    quote(qi, (const unsigned char *)inner, strlen(inner));
    snprintf(text, sizeof text, "%s%s%s mem:VAF(%s)%s%s", qf, pre ? " " : "", pre ? pre : "", qi, post ? " " : "",
             post ? post : "");
    compare(text);
}

static void test_va_format(void)
{
    static const char *const inner[] = {
        "", "text", "%%", "100%% sure", "a%db", "%d|%i|%u|%x|%X|%o", "%s|%c|%p|%px", "x%cy%cz",
        "%5d|%-5x|%08x|%#x|%#o|%+d|% d|%.3d|%-+6i", "%.3s|%10s|%-10s|%.0s|", "%hhd %hx %ld %lld %zu %zd %td %llx",
        "[%*d|%-*s|%.*s|%*.*x]", "%pM|%pm|%pI4|%pi6|%pI6c|%ph|%pU|%pa", "%pE|%pe|%pK|%pb|%pR|%ptR|%p4cc|%pNF",
        "%pISpc|%pISpfsc", "%pV", "<%pV|%20pV|%-8pV|%.2pV>", "%pV%pV%pV", "%20pM|%-20pI4|%.3pU|%08ph",
        "forty-five bytes of text, cut at every size!", "a%nb", "x%fy", "tail %", "%5%|%y after", "%", "\n\t\x7f\xe9",
        "%pVx", "%p\xe9q",
    };
    static const char *const ms[] = { "", "20", "-20", ".3", "08", "#", "+", "-30.2" };
    for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i++)
        for (size_t m = 0; m < sizeof ms / sizeof ms[0]; m++) {
            char fmt[64];
            snprintf(fmt, sizeof fmt, "<%%%spV>", ms[m]);
            vaf_case(NULL, fmt, inner[i], NULL);
        }
    each_mod("V", NULL, 0, mods, NMODS); /* "(null)" / "(efault)" with the width and precision */
    with_mem("[%*pV]", "int:-12", "NULL");
    with_mem("[%*.*pV]", "int:12 int:3", "ERR(-14)");
    /* a %pV between other conversions, and letters after it (skipped as the kernel skips them) */
    for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i += 3) {
        vaf_case("int:-42 str:\"ab\"", "%d %s [%pV] %x", inner[i], "uint:255");
        vaf_case("int:7", "%-5d%pVz%s|%pM", inner[i], "str:NULL mem:NULL");
        vaf_case(NULL, "%pV%pV", inner[i], "mem:VAF(\"%d%s\")");
    }
    compare("\"%pV|%pV|%pV\" mem:NULL mem:VAF(\"%pV!\") mem:ERR(-22)");
}

/* what printk-formats.rst's %pV gives, with arguments that are all 0 / NULL */
static void test_va_format_expected(void)
{
    expect("\"<%pV>\" mem:VAF(\"x=%d s=%s p=%p %%\")", "<x=0 s=(null) p=0000000000000000 %>");
    expect("\"%s: %pV!\" str:\"dev\" mem:VAF(\"[%5d|%-4x|%pM|%pV]\")", "dev: [    0|0   |(null)|(null)]!");
    expect("\"%20pV|%-8pV|%.3pV|%pV\" mem:VAF(\"ab\") mem:NULL mem:ERR(-5) mem:VAF(\"\")", "ab|(null)  |(ef|");
}

static int kernel_has(const char *text, const char *out)
{
    char buf[64];
    struct scn_case *c = parse(text);
    int r = scn_case_call(kt->vsnprintf, c, buf, sizeof buf);
    return r == (int)strlen(out) && strcmp(buf, out) == 0;
}

int main(void)
{
    if (!kptr_targets())
        return check_summary("test_kernel_ptr_more");
    int escape = kernel_has("\"%pE\" mem:\"\\n\"", "\\n");
    int errnames = kernel_has("\"%pe\" mem:ERR(-28)", "-ENOSPC");
    if (!errnames)
        printf("test_kernel_ptr_more: the kernel target has no lib/errname.c yet: %%pe compared only for "
               "codes without a name\n");
    test_sockaddr();
    test_escape(escape);
    test_errname(errnames);
    test_expected();
    test_va_format();
    test_va_format_expected();
    printf("test_kernel_ptr_more: %d cases compared at every size\n", ncases);
    return check_summary("test_kernel_ptr_more");
}
