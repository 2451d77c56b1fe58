/* conv_kmisc.c - two small LINUX_KERNEL %p extensions, as Linux 6.1's
 * printk-formats.rst describes them (lib/vsprintf.c fourcc_string() and
 * netdev_bits()):
 *
 *   %p4cc   a V4L2/DRM four-character code (a u32, read unaligned): its four
 *           bytes from the lowest, bit 31 cleared, each printed as itself when
 *           it is printable ASCII (0x20-0x7e) and as '.' otherwise; then
 *           " big-endian" when bit 31 is set, else " little-endian"; then
 *           " (0x%08x)" of the whole value. The text is padded and cut like a
 *           string. Any other letters after "4" print "(%p4?)", before the
 *           pointer is even checked.
 *   %pNF    a netdev_features_t (u64) as "0x" + 16 hex digits (no padding,
 *           no cut); "%pN" + another letter prints "(%pN?)".
 *
 * Freestanding, no allocation.
 */
#include "internal.h"

void kernel_fourcc(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    char t[40];
    struct sink s = ksink_on(t, sizeof t);
    uint32_t orig;
    static const char big[] = " big-endian (", little[] = " little-endian (";

    if (fmt[1] != 'c' || fmt[2] != 'c') {
        kernel_error_string(w, "(%p4?)", spec);
        return;
    }
    if (kernel_check_pointer(w, ptr, spec))
        return;
    __builtin_memcpy(&orig, ptr, 4);
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)((orig & 0x7fffffffu) >> (8 * i));
        sink_putc(&s, c >= 0x20 && c < 0x7f ? (char)c : '.');
    }
    if (orig >> 31)
        sink_write(&s, big, sizeof big - 1);
    else
        sink_write(&s, little, sizeof little - 1);
    kernel_special_hex(&s, orig, 4);
    sink_putc(&s, ')');
    /* string(): the text is a local array, the pointer check passes */
    kernel_string_nocheck(w, ksink_text(&s), spec);
}

void kernel_netdev(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    uint64_t features;
    if (kernel_check_pointer(w, ptr, spec))
        return;
    if (fmt[1] != 'F') {
        kernel_error_string(w, "(%pN?)", spec);
        return;
    }
    __builtin_memcpy(&features, ptr, 8);
    kernel_special_hex(w, features, 8);
}
