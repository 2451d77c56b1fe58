/* conv_kresource.c - the LINUX_KERNEL dialect's struct resource, as Linux
 * 6.1's printk-formats.rst describes it (lib/vsprintf.c resource_string()):
 *
 *   %pr   [mem 0x60000000-0x6fffffff flags 0x2200]     raw flags
 *   %pR   [mem 0x60000000-0x6fffffff pref]             decoded flags
 *
 * The struct is Linux 6.1's on x86-64 (include/linux/ioport.h): u64 start,
 * u64 end, const char *name (not read), unsigned long flags at offset 24;
 * the 32 bytes up to the end of flags are read. The type is the first of the IORESOURCE_IO (0x100, "io  ", 0x +
 * at least 4 hex digits), MEM (0x200, "mem ", 0x + 8), IRQ (0x400, "irq ",
 * decimal), DMA (0x800, "dma ", decimal), BUS (0x1000, "bus ", 2 hex digits,
 * no 0x) bits set in flags, else "??? " (as mem, and never decoded). Then
 * "start" or "start-end" (only start when the two are equal); %pR with
 * IORESOURCE_UNSET (0x20000000) prints "size " and end - start + 1 instead;
 * %pR adds " 64bit" (0x100000), " pref" (0x2000), " window" (0x200000),
 * " disabled" (0x10000000), %pr " flags 0x<hex>". The text in brackets is
 * padded and cut like a string by the conversion's width and precision.
 * Freestanding, no allocation.
 */
#include "internal.h"

#define IORES_IO 0x100u
#define IORES_MEM 0x200u
#define IORES_IRQ 0x400u
#define IORES_DMA 0x800u
#define IORES_BUS 0x1000u
#define IORES_PREFETCH 0x2000u
#define IORES_MEM_64 0x100000u
#define IORES_WINDOW 0x200000u
#define IORES_DISABLED 0x10000000u
#define IORES_UNSET 0x20000000u

static void put_str(struct sink *s, const char *t)
{
    while (*t)
        sink_putc(s, *t++);
}

void kernel_resource(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    static const struct kspec io = { 6, -1, K_SPECIAL | K_SMALL | K_ZEROPAD, 16 };
    static const struct kspec mem = { 10, -1, K_SPECIAL | K_SMALL | K_ZEROPAD, 16 };
    static const struct kspec bus = { 2, -1, K_SMALL | K_ZEROPAD, 16 };
    static const struct kspec dec = { 0, -1, 0, 10 };
    static const struct kspec raw_flags = { 0, -1, K_SPECIAL | K_SMALL, 16 };
    uint64_t start, end, flags;
    const struct kspec *num;
    int decode = fmt[0] == 'R';
    char t[96];
    struct sink s = ksink_on(t, sizeof t);

    if (kernel_check_pointer(w, ptr, spec))
        return;
    __builtin_memcpy(&start, ptr, 8);
    __builtin_memcpy(&end, (const char *)ptr + 8, 8);
    __builtin_memcpy(&flags, (const char *)ptr + 24, 8);

    sink_putc(&s, '[');
    if (flags & IORES_IO) {
        put_str(&s, "io  ");
        num = &io;
    } else if (flags & IORES_MEM) {
        put_str(&s, "mem ");
        num = &mem;
    } else if (flags & IORES_IRQ) {
        put_str(&s, "irq ");
        num = &dec;
    } else if (flags & IORES_DMA) {
        put_str(&s, "dma ");
        num = &dec;
    } else if (flags & IORES_BUS) {
        put_str(&s, "bus ");
        num = &bus;
    } else {
        put_str(&s, "??? ");
        num = &mem;
        decode = 0;
    }
    if (decode && (flags & IORES_UNSET)) {
        put_str(&s, "size ");
        kernel_number(&s, end - start + 1, *num);
    } else {
        kernel_number(&s, start, *num);
        if (start != end) {
            sink_putc(&s, '-');
            kernel_number(&s, end, *num);
        }
    }
    if (decode) {
        if (flags & IORES_MEM_64)
            put_str(&s, " 64bit");
        if (flags & IORES_PREFETCH)
            put_str(&s, " pref");
        if (flags & IORES_WINDOW)
            put_str(&s, " window");
        if (flags & IORES_DISABLED)
            put_str(&s, " disabled");
    } else {
        put_str(&s, " flags ");
        kernel_number(&s, flags, raw_flags);
    }
    sink_putc(&s, ']');
    kernel_string_nocheck(w, ksink_text(&s), spec);
}
