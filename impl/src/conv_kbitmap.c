/* conv_kbitmap.c - the LINUX_KERNEL dialect's bitmaps, as Linux 6.1's
 * printk-formats.rst describes them (lib/vsprintf.c bitmap_string() and
 * bitmap_list_string()):
 *
 *   %*pb    the bitmap as comma-separated 32-bit chunks of hex digits, the
 *           most significant first; the first chunk holds the nbits % 32 top
 *           bits (all 32 when that is 0) in as many digits as they need
 *           (nbits % 32 = 5: 2 digits), the others 8 digits each
 *   %*pbl   the set bits as a range list, "0,3-5,9" (decimal)
 *
 * The field width is the number of bits (none or negative: 0, which prints
 * nothing after the pointer check); it is not padding, and flags and
 * precision do nothing. The bitmap is an array of unsigned long (64-bit,
 * bit i in word i / 64), of which the words holding bits below nbits are
 * read. Freestanding, no allocation.
 */
#include "internal.h"

/* bit i of the bitmap */
static int bit_at(const unsigned char *map, int i)
{
    uint64_t word;
    __builtin_memcpy(&word, map + (size_t)(i / 64) * 8, 8);
    return (int)(word >> (i % 64) & 1);
}

/* the 32-bit chunk of bits [lo, lo + n), n <= 32, lo a multiple of 32 */
static uint32_t chunk_at(const unsigned char *map, int lo, int n)
{
    uint64_t word;
    __builtin_memcpy(&word, map + (size_t)(lo / 64) * 8, 8);
    word >>= lo % 64;
    return (uint32_t)(word & ((1ull << n) - 1));
}

static void bitmap_hex(struct sink *w, const unsigned char *map, int nbits)
{
    int chunk = nbits % 32 ? nbits % 32 : 32;
    struct kspec hex = { 0, 0, K_SMALL | K_ZEROPAD, 16 };
    /* from the chunk holding the top bits down to bit 0 */
    for (int lo = (nbits + 31) / 32 * 32 - 32, first = 1; lo >= 0; lo -= 32, first = 0) {
        if (!first)
            sink_putc(w, ',');
        hex.field_width = (chunk + 3) / 4;
        kernel_number(w, chunk_at(map, lo, chunk), hex);
        chunk = 32;
    }
}

static void bitmap_list(struct sink *w, const unsigned char *map, int nbits)
{
    struct kspec dec = { 0, -1, 0, 10 };
    int first = 1;
    for (int i = 0; i < nbits; i++) {
        if (!bit_at(map, i))
            continue;
        int end = i + 1;
        while (end < nbits && bit_at(map, end))
            end++;
        if (!first)
            sink_putc(w, ',');
        first = 0;
        kernel_number(w, (unsigned)i, dec);
        if (end != i + 1) {
            sink_putc(w, '-');
            kernel_number(w, (unsigned)(end - 1), dec);
        }
        i = end;
    }
}

void kernel_bitmap(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    int nbits = spec.field_width > 0 ? spec.field_width : 0;
    if (kernel_check_pointer(w, ptr, spec))
        return;
    if (fmt[1] == 'l')
        bitmap_list(w, ptr, nbits);
    else
        bitmap_hex(w, ptr, nbits);
}
