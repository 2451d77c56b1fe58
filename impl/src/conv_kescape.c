/* conv_kescape.c - the LINUX_KERNEL dialect's %pE: a buffer printed with
 * escapes, as Linux 6.1's printk-formats.rst describes it (lib/vsprintf.c
 * escaped_string() over lib/string_helpers.c string_escape_mem()).
 *
 *   %pE[achnops]   the field width is the length (none: 1; 0: nothing is
 *                  printed, not even for NULL); the letters choose the classes
 *                  (none: all of a and p):
 *     a  any: s c n o together
 *     c  special: \" \\ \a \e
 *     h  hex: \xHH for any byte (octal takes precedence when both are set)
 *     n  null: \0
 *     o  octal: \NNN for any byte
 *     p  printable bytes pass unchanged (the kernel's isprint(): 0x20-0x7e and
 *        the Latin-1 range 0xa0-0xff)
 *     s  space: \f \n \r \t \v
 *
 * A byte goes, in this order: through unchanged if printable and p is set;
 * escaped by the first of s, c, n, o, h that takes it; else unchanged. The
 * output is neither padded nor cut; a buffer too small receives the escapes
 * up to its end, a last escape cut in the middle, and the length counts all
 * of them (string_escape_mem() returns the size it would have written).
 * Freestanding, no allocation.
 */
#include "internal.h"

#define ESC_SPACE 0x01u
#define ESC_SPECIAL 0x02u
#define ESC_NULL 0x04u
#define ESC_OCTAL 0x08u
#define ESC_ANY (ESC_SPACE | ESC_SPECIAL | ESC_NULL | ESC_OCTAL)
#define ESC_NP 0x10u
#define ESC_HEX 0x20u

static const char hex_lo[] = "0123456789abcdef";

/* lib/ctype.c isprint(): ASCII printable, or a Latin-1 byte 0xa0-0xff */
static int k_isprint(unsigned char c)
{
    return (c >= 0x20 && c < 0x7f) || c >= 0xa0;
}

/* the letter after the backslash for s (space) and c (special), or 0 */
static char space_letter(unsigned char c)
{
    switch (c) {
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\v': return 'v';
    case '\f': return 'f';
    default: return 0;
    }
}

static char special_letter(unsigned char c)
{
    switch (c) {
    case '\\': return '\\';
    case '\a': return 'a';
    case 0x1b: return 'e';
    case '"': return '"';
    default: return 0;
    }
}

/* one byte of the input, escaped by the flags */
static void escape_byte(struct sink *w, unsigned char c, unsigned flags)
{
    char t[4];
    char l;
    if ((flags & ESC_NP) && k_isprint(c)) {
        sink_putc(w, (char)c);
        return;
    }
    t[0] = '\\';
    if ((flags & ESC_SPACE) && (l = space_letter(c)) != 0) {
        t[1] = l;
        sink_write(w, t, 2);
    } else if ((flags & ESC_SPECIAL) && (l = special_letter(c)) != 0) {
        t[1] = l;
        sink_write(w, t, 2);
    } else if ((flags & ESC_NULL) && c == 0) {
        t[1] = '0';
        sink_write(w, t, 2);
    } else if (flags & ESC_OCTAL) {
        t[1] = (char)('0' + (c >> 6));
        t[2] = (char)('0' + (c >> 3 & 7));
        t[3] = (char)('0' + (c & 7));
        sink_write(w, t, 4);
    } else if (flags & ESC_HEX) {
        t[1] = 'x';
        t[2] = hex_lo[c >> 4];
        t[3] = hex_lo[c & 15];
        sink_write(w, t, 4);
    } else {
        sink_putc(w, (char)c);
    }
}

void kernel_escaped(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    const unsigned char *a = ptr;
    unsigned flags = 0;
    int len;

    if (spec.field_width == 0 || kernel_check_pointer(w, ptr, spec))
        return;
    for (const unsigned char *l = fmt + 1;; l++) {
        unsigned f = *l == 'a' ? ESC_ANY : *l == 'c' ? ESC_SPECIAL : *l == 'h' ? ESC_HEX : *l == 'n' ? ESC_NULL
                   : *l == 'o' ? ESC_OCTAL : *l == 'p' ? ESC_NP : *l == 's' ? ESC_SPACE : 0;
        if (!f)
            break;
        flags |= f;
    }
    if (!flags)
        flags = ESC_ANY | ESC_NP;
    len = spec.field_width < 0 ? 1 : spec.field_width;
    for (int i = 0; i < len; i++)
        escape_byte(w, a[i], flags);
}
