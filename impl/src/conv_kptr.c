/* conv_kptr.c - the LINUX_KERNEL dialect's %p extensions, as
 * Documentation/core-api/printk-formats.rst of Linux 6.1 describes them (and
 * lib/vsprintf.c pointer() prints them): the dispatch, and the extensions that
 * print a few fixed bytes:
 *
 *   %pM %pMR %pMF %pm %pmR %pmF      MAC address (6 bytes)
 *   %ph %phC %phD %phN               hex dump, length = field width (default 1, max 64)
 *   %pa %pap %pad                    phys_addr_t / dma_addr_t (64-bit) as 0x + 16 hex digits
 *   %pU %pUb %pUB %pUl %pUL          UUID / GUID (16 bytes)
 *   %pV                              struct va_format: its format and va_list
 *                                    printed in place (a recursive vsnprintf)
 *
 * and, in their own files: %pI %pi (conv_kaddr.c), %pE (conv_kescape.c), %pe
 * (conv_kerrname.c), %pb %pbl (conv_kbitmap.c), %pr %pR (conv_kresource.c),
 * %pt (conv_ktime.c), %p4cc %pN (conv_kmisc.c).  %px, %pK (kptr_restrict 0),
 * %pe of a pointer that is no ERR_PTR and every other letter are plain %p
 * (the dialect follows no_hash_pointers): kernel_ptr_ext() returns 0.
 *
 * A NULL pointer prints "(null)", one below 4096 or in the top 4095 bytes
 * (an ERR_PTR) "(efault)" (check_pointer(): precision 16 unless given, width
 * applies), without reading. Except for %ph and %pa, the text is padded to the
 * width and cut at the precision like a string. Freestanding, no allocation.
 */
#include "internal.h"

static const char hex_lo[] = "0123456789abcdef";
static const char hex_up[] = "0123456789ABCDEF";

static char *byte_hex(char *d, unsigned char b, const char *digits)
{
    d[0] = digits[b >> 4];
    d[1] = digits[b & 15];
    return d + 2;
}

/* %ph: two hex digits per byte, width bytes (none: 1, at most 64); neither
 * padded nor cut */
static void kp_hex(struct sink *w, const unsigned char *a, const unsigned char *fmt, struct kspec k)
{
    char sep = fmt[1] == 'C' ? ':' : fmt[1] == 'D' ? '-' : fmt[1] == 'N' ? 0 : ' ';
    int len = 1;
    if (k.field_width == 0 || kernel_check_pointer(w, a, k))
        return;
    if (k.field_width > 0)
        len = k.field_width < 64 ? k.field_width : 64;
    for (int i = 0; i < len; i++) {
        char t[3];
        byte_hex(t, a[i], hex_lo);
        t[2] = sep;
        sink_write(w, t, sep && i != len - 1 ? 3 : 2);
    }
}

/* %pV: struct va_format of include/linux/printk.h. As lib/vsprintf.c's
 * va_format(): check_pointer(), then the format with a va_copy() of *va by the
 * same engine into the same buffer (the kernel's nested vsnprintf() gets the
 * room left and its full length moves buf on, so the bytes and the count are
 * the ones of printing in place); width and precision apply only to
 * "(null)" / "(efault)". A va_format whose arguments lead back to itself
 * recurses without end, in the kernel as here. */
struct va_format {
    const char *fmt;
    va_list *va;
};

static void kp_va_format(struct sink *w, const struct va_format *vaf, struct kspec k)
{
    va_list va;
    if (kernel_check_pointer(w, vaf, k))
        return;
    va_copy(va, *vaf->va);
    kernel_format(w, vaf->fmt, &va);
    va_end(va);
}

/* the extensions printed here: 1 when fmt[0] is one of them */
static int kp_fixed(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec k)
{
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
        if (kernel_check_pointer(w, ptr, k))
            return 1;
        for (int i = 0; i < 6; i++) {
            d = byte_hex(d, a[rev ? 5 - i : i], hex_lo);
            if (fmt[0] == 'M' && i != 5)
                *d++ = sep;
        }
        break;
    }
    case 'U': {
        /* GUIDs (l, L) store the first three fields little-endian */
        static const unsigned char guid[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
        int g = fmt[1] == 'l' || fmt[1] == 'L';
        const char *digits = fmt[1] == 'B' || fmt[1] == 'L' ? hex_up : hex_lo;
        if (kernel_check_pointer(w, ptr, k))
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
        if (kernel_check_pointer(w, ptr, k))
            return 1;
        __builtin_memcpy(&v, ptr, sizeof v);
        kernel_special_hex(w, v, 8);
        return 1;
    }
    default:
        return 0;
    }
    *d = 0;
    kernel_string_nocheck(w, t, k);
    return 1;
}

int kernel_ptr_ext(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    /* each extension prints and returns 1; 0 leaves the pointer to plain %p */
    switch (fmt[0]) {
    case 'I': case 'i': kernel_ip_addr(w, fmt, ptr, spec); return 1;
    case 'E': kernel_escaped(w, fmt, ptr, spec); return 1;
    case 'e':
        /* IS_ERR(): only an ERR_PTR has a name; anything else is plain %p */
        if ((uintptr_t)ptr < (uintptr_t)-4095)
            return 0;
        kernel_err_ptr(w, ptr, spec);
        return 1;
    case 'b': kernel_bitmap(w, fmt, ptr, spec); return 1;
    case 'r': case 'R': kernel_resource(w, fmt, ptr, spec); return 1;
    case 't': kernel_time(w, fmt, ptr, spec); return 1;
    case '4': kernel_fourcc(w, fmt, ptr, spec); return 1;
    case 'N': kernel_netdev(w, fmt, ptr, spec); return 1;
    case 'V': kp_va_format(w, ptr, spec); return 1;
    default: return kp_fixed(w, fmt, ptr, spec);
    }
}
