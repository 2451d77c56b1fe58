/* conv_kaddr.c - the LINUX_KERNEL dialect's IP addresses, as Linux 6.1's
 * printk-formats.rst describes them (lib/vsprintf.c ip_addr_string()):
 *
 *   %pI4 %pi4 [h n b l]     IPv4 (4 bytes; h and l: host = little-endian order)
 *   %pI6 %pi6 %pI6c         IPv6 (16 bytes; c: RFC 5952 compressed)
 *   %pIS %piS [p f s c h n b l]
 *                           struct sockaddr_in / sockaddr_in6 (x86-64 layout),
 *                           chosen by the family field: AF_INET (2) reads 8
 *                           bytes (family, port, address), AF_INET6 (10) 28
 *                           (family, port, flowinfo, address, scope id); any
 *                           other family prints "(einval)"
 *   %pI / %pi + another     "(%pI?)" / "(%pi?)"
 *
 * %pIS's letters are every letter after the S (the kernel's isalpha(), Latin-1
 * letters included): p the port ":N", f the flow label "/N", s the scope
 * "%N" (IPv6 only; with p, f or s the IPv6 address is in brackets), c
 * compressed (%pIS only), the last of h n b l the IPv4 byte order. The
 * numbers are printed with the conversion's own flags, width and precision
 * (number() with its spec), then the whole text is padded and cut like a
 * string. The kernel builds that text in a fixed array without a bound check:
 * a width or precision above 5 with p, f or s can overrun it there (the cases
 * worth comparing keep within it). Freestanding, no allocation.
 */
#include "internal.h"

static const char hex_lo[] = "0123456789abcdef";

/* dotted decimal of four bytes taken from a in the order idx, idx+step, ... */
static char *ip4_text(char *d, const unsigned char *a, int idx, int step, int zeros)
{
    for (int i = 0; i < 4; i++, idx += step) {
        unsigned b = a[idx];
        if (zeros || b >= 100)
            *d++ = (char)('0' + b / 100);
        if (zeros || b >= 10)
            *d++ = (char)('0' + b / 10 % 10);
        *d++ = (char)('0' + b % 10);
        if (i < 3)
            *d++ = '.';
    }
    return d;
}

/* %pI4 %pi4 and the h/l/n/b letter: host order (h, l) is little-endian */
static char *ip4_letters(char *d, const unsigned char *a, unsigned char lead, unsigned char order)
{
    int rev = order == 'h' || order == 'l';
    return ip4_text(d, a, rev ? 3 : 0, rev ? -1 : 1, lead == 'i');
}

/* RFC 5952: the first longest run of two or more zero words becomes "::";
 * IPv4-mapped (::ffff:a.b.c.d) and ISATAP (..:0:5efe:a.b.c.d, also 200:5efe)
 * addresses end in dotted decimal. */
static char *ip6_compressed(char *d, const unsigned char *a)
{
    int v4 = 0, words, best = -1, bestlen = 1, sep = 0;
    int mapped = 1;
    for (int i = 0; i < 10; i++)
        mapped &= a[i] == 0;
    if (mapped && a[10] == 0xff && a[11] == 0xff)
        v4 = 1;
    if ((a[8] | 2) == 2 && a[9] == 0 && a[10] == 0x5e && a[11] == 0xfe)
        v4 = 1;
    words = v4 ? 6 : 8;
    for (int i = 0; i < words; i++) {
        int n = 0;
        while (i + n < words && !a[2 * (i + n)] && !a[2 * (i + n) + 1])
            n++;
        if (n > bestlen) {
            bestlen = n;
            best = i;
        }
    }
    for (int i = 0; i < words; i++) {
        if (i == best) {
            if (sep || i == 0)
                *d++ = ':';
            *d++ = ':';
            sep = 0;
            i += bestlen - 1;
            continue;
        }
        if (sep)
            *d++ = ':';
        unsigned word = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
        int shift = 12;
        while (shift > 0 && !(word >> shift))
            shift -= 4;
        for (; shift >= 0; shift -= 4)
            *d++ = hex_lo[(word >> shift) & 15];
        sep = 1;
    }
    if (v4) {
        if (sep)
            *d++ = ':';
        d = ip4_text(d, a + 12, 0, 1, 0);
    }
    return d;
}

/* %pI6 (colons between the words) or %pi6 (none), or compressed */
static char *ip6_text(char *d, const unsigned char *a, unsigned char lead, int compressed)
{
    if (lead == 'I' && compressed)
        return ip6_compressed(d, a);
    for (int i = 0; i < 16; i++) {
        *d++ = hex_lo[a[i] >> 4];
        *d++ = hex_lo[a[i] & 15];
        if (lead == 'I' && (i & 1) && i != 15)
            *d++ = ':';
    }
    return d;
}

static unsigned be16_at(const unsigned char *a) { return (unsigned)a[0] << 8 | a[1]; }

/* struct sockaddr_in / sockaddr_in6 behind a (family already read) */
static void ip_sockaddr(struct sink *w, const unsigned char *fmt, const unsigned char *a, unsigned family,
                        struct kspec spec)
{
    int have_p = 0, have_f = 0, have_s = 0, have_c = 0;
    unsigned char order = 0;
    char t[96], *d = t;
    for (const unsigned char *l = fmt + 2; kernel_isalpha(*l); l++) {
        if (*l == 'p') have_p = 1;
        else if (*l == 'f') have_f = 1;
        else if (*l == 's') have_s = 1;
        else if (*l == 'c') have_c = 1;
        else if (*l == 'h' || *l == 'l' || *l == 'n' || *l == 'b') order = *l;
    }
    if (family == 2) { /* AF_INET: sin_port at 2, sin_addr at 4 */
        d = ip4_letters(d, a + 4, fmt[0], order);
        have_f = have_s = 0;
    } else { /* AF_INET6: sin6_port 2, sin6_flowinfo 4, sin6_addr 8, sin6_scope_id 24 */
        int br = have_p || have_f || have_s;
        if (br)
            *d++ = '[';
        d = ip6_text(d, a + 8, fmt[0], have_c);
        if (br)
            *d++ = ']';
    }
    struct sink s = ksink_on(t, sizeof t);
    s.len = (size_t)(d - t);
    if (have_p) {
        sink_putc(&s, ':');
        kernel_number(&s, be16_at(a + 2), spec);
    }
    if (have_f) { /* the flow label: the low 28 bits of the big-endian word */
        sink_putc(&s, '/');
        kernel_number(&s, (unsigned long)(a[4] & 0x0f) << 24 | (unsigned long)a[5] << 16 | be16_at(a + 6), spec);
    }
    if (have_s) { /* host order */
        uint32_t scope;
        __builtin_memcpy(&scope, a + 24, 4);
        sink_putc(&s, '%');
        kernel_number(&s, scope, spec);
    }
    kernel_string_nocheck(w, ksink_text(&s), spec);
}

void kernel_ip_addr(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    const unsigned char *a = ptr;
    char t[48], *d = t;
    if (kernel_check_pointer(w, ptr, spec))
        return;
    switch (fmt[1]) {
    case '4':
        d = ip4_letters(d, a, fmt[0], fmt[2]);
        break;
    case '6':
        d = ip6_text(d, a, fmt[0], fmt[2] == 'c');
        break;
    case 'S': {
        uint16_t family; /* sa_family_t, host order */
        __builtin_memcpy(&family, a, 2);
        if (family == 2 || family == 10)
            ip_sockaddr(w, fmt, a, family, spec);
        else
            kernel_error_string(w, "(einval)", spec);
        return;
    }
    default:
        kernel_error_string(w, fmt[0] == 'i' ? "(%pi?)" : "(%pI?)", spec);
        return;
    }
    *d = 0;
    kernel_string_nocheck(w, t, spec);
}
