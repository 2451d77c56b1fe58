/* The planted bugs of the kernel dialect (SCN_PLANTED, beside the ISO ones
 * of planted.c; fuzz_planted_kernel: fuzz_kernel_diff's configuration with
 * this target beside Linux's lib/vsprintf.c), to show that the kernel
 * differential search and oracles reach a bug inside a %p extension
 * (tests/test_fuzzers.py, bench/planted.py):
 *
 *   ip6c-last-run  %pI6c compresses the LAST of two equally long runs of
 *                  zero words ("1:0:0:2:0:0:3:4" -> "1:0:0:2::3:4"), where
 *                  RFC 5952 4.2.3 and Linux's ip6_compressed_string() take
 *                  the first ("1::2:0:0:3:4"): the `>` of the search for
 *                  the longest run written `>=`.
 *
 * The target is the reference's kernel dialect behind a small driver: every
 * specification is printed alone by the reference, except a %pI6c of a
 * readable address with two longest runs, which gets the buggy text (padded
 * and cut like the kernel's string_nocheck()/widen_string()). Formats
 * beyond the driver (an invalid specification, '*' around %pI6c, a byte
 * >= 0x80 after %p) are printed by the reference whole.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_core.h"
#include "scn_writer.h"
#include "spec.h"
#include "scn/ref_printf.h"

static const struct ref_options kernel_opt = { .dialect = REF_DIALECT_LINUX_KERNEL };

static int is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* The buggy compression into t (at least 40 bytes); 0 when the bug does not
 * apply (an IPv4-mapped or ISATAP address, or fewer than two longest runs),
 * so the caller prints the right text. */
static int ip6c_last_run(char *t, const unsigned char *a)
{
    unsigned w[8], zl[8] = { 0 };
    int longest = 1, colon = -1, first = -1;
    for (int i = 0; i < 8; i++)
        w[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
    int mapped = !w[0] && !w[1] && !w[2] && !w[3] && !w[4] && w[5] == 0xffff;
    int isatap = (w[4] | 0x0200) == 0x0200 && w[5] == 0x5efe;
    if (mapped || isatap)
        return 0;
    for (int i = 0; i < 8; i++)
        for (int j = i; j < 8 && !w[j]; j++)
            zl[i]++;
    for (int i = 0; i < 8; i++) {
        if (zl[i] > (unsigned)longest && first < 0)
            first = i;
        if (zl[i] >= (unsigned)longest && zl[i] > 1) { /* the bug: >= */
            if (zl[i] > (unsigned)longest)
                first = i;
            longest = (int)zl[i];
            colon = i;
        }
    }
    if (colon < 0 || colon == first)
        return 0;
    static const char hex[] = "0123456789abcdef";
    int need = 0;
    char *p = t;
    for (int i = 0; i < 8; i++) {
        if (i == colon) {
            if (need || i == 0)
                *p++ = ':';
            *p++ = ':';
            need = 0;
            i += longest - 1;
            continue;
        }
        if (need)
            *p++ = ':';
        int started = 0;
        for (int s = 12; s >= 0; s -= 4) {
            unsigned d = w[i] >> s & 15;
            if (d || started || s == 0) {
                *p++ = hex[d];
                started = 1;
            }
        }
        need = 1;
    }
    *p = 0;
    return 1;
}

/* string_nocheck() + widen_string(): at most prec bytes, spaces to width */
static void put_string(struct scn_writer *o, const char *s, const struct scn_spec *sp)
{
    size_t len = strlen(s);
    if (sp->prec >= 0 && (size_t)sp->prec < len)
        len = (size_t)sp->prec;
    size_t pad = sp->width > 0 && (size_t)sp->width > len ? (size_t)sp->width - len : 0;
    int left = (sp->flags & SCN_FL_MINUS) != 0;
    for (size_t i = 0; !left && i < pad; i++)
        scn_w_put(o, " ", 1);
    scn_w_put(o, s, len);
    for (size_t i = 0; left && i < pad; i++)
        scn_w_put(o, " ", 1);
}

/* -1: beyond the driver (the caller prints the format with the reference) */
static int drive(struct scn_writer *o, const char *fmt, va_list ap)
{
    static struct scn_spec sps[SCN_MAX_SPECS];
    size_t nsp = scn_scan_format(fmt, SIZE_MAX, SCN_DIALECT_KERNEL, sps, SCN_MAX_SPECS), at = 0;
    for (size_t k = 0;; k++) {
        const struct scn_spec *s = k < nsp ? &sps[k] : NULL;
        size_t lit_end = s ? s->start : strlen(fmt);
        scn_w_put(o, fmt + at, lit_end - at);
        if (!s)
            return 0;
        if (s->invalid || s->pos || (k + 1 == nsp && nsp == SCN_MAX_SPECS) || s->len[0] == 'j' ||
            s->len[0] == 'q')
            return -1;
        size_t end = s->end;
        if (s->conv == 'p') {
            while (is_alnum((unsigned char)fmt[end]))
                end++;
            if ((unsigned char)fmt[end] >= 0x80)
                return -1;
        }
        char spec[96];
        if (end - s->start >= sizeof spec)
            return -1;
        memcpy(spec, fmt + s->start, end - s->start);
        spec[end - s->start] = 0;
        at = end;
        int star_w = s->width == SCN_SPEC_STAR, star_p = s->prec == SCN_SPEC_STAR;
        int w = star_w ? va_arg(ap, int) : 0, pr = star_p ? va_arg(ap, int) : 0;
        char *room = o->p + (o->len < o->cap ? o->len : o->cap);
        size_t left = o->len < o->cap ? o->cap - o->len : 0;
        int r = 0;
#define PRINT1(ARG)                                                                          \
    (star_w && star_p ? ref_snprintf_ex(room, left, &kernel_opt, spec, w, pr, ARG)           \
     : star_w        ? ref_snprintf_ex(room, left, &kernel_opt, spec, w, ARG)                \
     : star_p        ? ref_snprintf_ex(room, left, &kernel_opt, spec, pr, ARG)               \
                     : ref_snprintf_ex(room, left, &kernel_opt, spec, ARG))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
        int wide = s->len[0] == 'l' || s->len[0] == 'L' || s->len[0] == 'z' || s->len[0] == 't';
        switch (s->conv) {
        case '%':
            r = ref_snprintf_ex(room, left, &kernel_opt, "%%");
            break;
        case 's': { const char *v = va_arg(ap, const char *); r = PRINT1(v); break; }
        case 'c': { int v = va_arg(ap, int); r = PRINT1(v); break; }
        case 'p': {
            const unsigned char *v = va_arg(ap, const unsigned char *);
            char t[48];
            uintptr_t u = (uintptr_t)v;
            if (!strncmp(spec + strlen(spec) - (end - s->end), "I6c", 3) && !star_w && !star_p &&
                u >= 4096 && u < (uintptr_t)-4095 && s->width < (1 << 23) && ip6c_last_run(t, v)) {
                put_string(o, t, s);
                continue;
            }
            r = PRINT1(v);
            break;
        }
        default:
            if (wide) { long long v = va_arg(ap, long long); r = PRINT1(v); }
            else { int v = va_arg(ap, int); r = PRINT1(v); }
            break;
        }
#pragma GCC diagnostic pop
#undef PRINT1
        if (r < 0)
            return -1;
        o->len += (size_t)r;
    }
}

static int planted_kernel_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return fz_planted_drive(drive, &kernel_opt, buf, size, fmt, ap);
}

static const char *planted_kernel_version(void) { return "scnfuzz planted bug (kernel dialect)"; }

const char *const fz_planted_kernel_names[] = { "ip6c-last-run", NULL };

/* the scnprintf family: the canonical wrapper over the buggy vsnprintf */
static const struct scn_target planted_kernel = {
    .name = "planted", .version = planted_kernel_version, .dialect = SCN_DIALECT_KERNEL,
    .vsnprintf = planted_kernel_vsnprintf, .vscnprintf = NULL, .where = "in-process",
};

const struct scn_target *fz_planted_kernel_target(const char *bug)
{
    return !strcmp(bug, fz_planted_kernel_names[0]) ? &planted_kernel : NULL;
}
