/* conv_kptr.c - the LINUX_KERNEL dialect's %p extensions that depend only on
 * the bytes behind the pointer, as Documentation/core-api/printk-formats.rst
 * of Linux 6.1 describes them (and lib/vsprintf.c prints them):
 *
 *   %pM %pMR %pMF %pm %pmR %pmF      MAC address (6 bytes)
 *   %pI4 %pi4 [h n b l]              IPv4 (4 bytes; h and l: host = little-endian order)
 *   %pI6 %pi6 %pI6c                  IPv6 (16 bytes; c: RFC 5952 compressed)
 *   %pI / %pi + another letter       "(%pI?)" / "(%pi?)"   (%pIS is not handled here)
 *   %ph %phC %phD %phN               hex dump, length = field width (default 1, max 64)
 *   %pa %pap %pad                    phys_addr_t / dma_addr_t (64-bit) as 0x + 16 hex digits
 *   %pU %pUb %pUB %pUl %pUL          UUID / GUID (16 bytes)
 *
 * A NULL pointer prints "(null)", one below 4096 or in the top 4095 bytes
 * (an ERR_PTR) "(efault)" (check_pointer(): precision 16 unless given, width
 * applies), without reading. Except for %ph and %pa, the text is padded to the
 * width and cut at the precision like a string. Freestanding, no allocation.
 */
#include "internal.h"

static const char hex_lo[] = "0123456789abcdef";
static const char hex_up[] = "0123456789ABCDEF";

struct kp {
    int width; /* the 24-bit field width, -1 if none */
    int prec;  /* -1 if none */
    int left;
};

/* string_nocheck() + widen_string(): at most prec bytes, padded to width */
static void kp_string(struct sink *w, const char *s, const struct kp *k)
{
    size_t len = 0;
    while ((k->prec < 0 || len < (size_t)k->prec) && s[len])
        len++;
    size_t pad = (long long)k->width > (long long)len ? (size_t)((long long)k->width - (long long)len) : 0;
    if (!k->left)
        sink_pad(w, ' ', pad);
    sink_write(w, s, len);
    if (k->left)
        sink_pad(w, ' ', pad);
}

/* check_pointer(): 1 when p was printed as an error string */
static int kp_bad(struct sink *w, const void *p, struct kp k)
{
    uintptr_t v = (uintptr_t)p;
    if (v >= 4096 && v < (uintptr_t)-4095)
        return 0;
    if (k.prec == -1)
        k.prec = 2 * (int)sizeof(void *);
    kp_string(w, p ? "(efault)" : "(null)", &k);
    return 1;
}

static char *byte_hex(char *d, unsigned char b, const char *digits)
{
    d[0] = digits[b >> 4];
    d[1] = digits[b & 15];
    return d + 2;
}

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

/* %ph: two hex digits per byte, width bytes (none: 1, at most 64); neither
 * padded nor cut */
static void kp_hex(struct sink *w, const unsigned char *a, const unsigned char *fmt, struct kp k)
{
    char sep = fmt[1] == 'C' ? ':' : fmt[1] == 'D' ? '-' : fmt[1] == 'N' ? 0 : ' ';
    int len = 1;
    if (k.width == 0 || kp_bad(w, a, k))
        return;
    if (k.width > 0)
        len = k.width < 64 ? k.width : 64;
    for (int i = 0; i < len; i++) {
        char t[3];
        byte_hex(t, a[i], hex_lo);
        t[2] = sep;
        sink_write(w, t, sep && i != len - 1 ? 3 : 2);
    }
}

int kernel_ptr_ext(struct sink *w, const unsigned char *fmt, const void *ptr,
                   int width, int prec, int left)
{
    struct kp k = { width, prec, left };
    const unsigned char *a = ptr;
    char t[48], *d = t;

    switch (fmt[0]) {
    case 'h':
        kp_hex(w, a, fmt, k);
        return 1;
    case 'M':
    case 'm': {
        int rev = fmt[1] == 'R';
        char sep = fmt[1] == 'F' ? '-' : ':';
        if (kp_bad(w, ptr, k))
            return 1;
        for (int i = 0; i < 6; i++) {
            d = byte_hex(d, a[rev ? 5 - i : i], hex_lo);
            if (fmt[0] == 'M' && i != 5)
                *d++ = sep;
        }
        break;
    }
    case 'I':
    case 'i':
        if (fmt[1] == 'S')
            return 0; /* struct sockaddr: not implemented, plain %p */
        if (kp_bad(w, ptr, k))
            return 1;
        if (fmt[1] == '4') {
            int rev = fmt[2] == 'h' || fmt[2] == 'l'; /* x86-64: host order is little-endian */
            d = ip4_text(d, a, rev ? 3 : 0, rev ? -1 : 1, fmt[0] == 'i');
        } else if (fmt[1] == '6' && fmt[0] == 'I' && fmt[2] == 'c') {
            d = ip6_compressed(d, a);
        } else if (fmt[1] == '6') {
            for (int i = 0; i < 16; i++) {
                d = byte_hex(d, a[i], hex_lo);
                if (fmt[0] == 'I' && (i & 1) && i != 15)
                    *d++ = ':';
            }
        } else {
            kp_string(w, fmt[0] == 'i' ? "(%pi?)" : "(%pI?)", &(struct kp){ k.width, k.prec < 0 ? 16 : k.prec, k.left });
            return 1;
        }
        break;
    case 'U': {
        /* GUIDs (l, L) store the first three fields little-endian */
        static const unsigned char guid[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
        int g = fmt[1] == 'l' || fmt[1] == 'L';
        const char *digits = fmt[1] == 'B' || fmt[1] == 'L' ? hex_up : hex_lo;
        if (kp_bad(w, ptr, k))
            return 1;
        for (int i = 0; i < 16; i++) {
            d = byte_hex(d, a[g ? guid[i] : i], digits);
            if (i == 3 || i == 5 || i == 7 || i == 9)
                *d++ = '-';
        }
        break;
    }
    case 'a': {
        /* phys_addr_t or dma_addr_t, both 64-bit: "0x" + 16 digits, whatever the width */
        uint64_t v;
        if (kp_bad(w, ptr, k))
            return 1;
        __builtin_memcpy(&v, ptr, sizeof v);
        *d++ = '0';
        *d++ = 'x';
        for (int s = 60; s >= 0; s -= 4)
            *d++ = hex_lo[(v >> s) & 15];
        sink_write(w, t, (size_t)(d - t));
        return 1;
    }
    default:
        return 0;
    }
    *d = 0;
    kp_string(w, t, &k);
    return 1;
}
