/* The comparison the kernel %p extension tests share (test_kernel_ptr.c,
 * test_kernel_ptr_more.c): a case (docs/CASE_FORMAT.md, with mem: arguments)
 * must give the same bytes and return value on the reference's kernel
 * dialect ("ref-kernel") and on the kernel's own lib/vsprintf.c ("kernel") at
 * every buffer size from 0 to the length + 1, in both return-value families;
 * expect() checks the reference against a string from printk-formats.rst.
 * each_mod() runs one extension with the usual flags, widths and precisions
 * (or NULL and error pointers), expect_args() builds an expect() case from
 * bytes. A test sets rk and kt (kptr_targets()) and reports ncases. */
#ifndef SCN_TEST_KERNEL_PTR_COMPARE_H
#define SCN_TEST_KERNEL_PTR_COMPARE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../core/targets/target.h"
#include "case.h"
#include "check.h"
#include "check_case.h"

extern const struct scn_target scn_target_kernel;

#define SENTINEL 0x5a
#define BUFSZ 1100

static const struct scn_target *rk, *kt;
static int ncases;

/* the canonical quoted form of n bytes */
static void quote(char *d, const unsigned char *b, size_t n)
{
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (b[i] >= 0x20 && b[i] <= 0x7e && b[i] != '"' && b[i] != '\\')
            *d++ = (char)b[i];
        else if (b[i] == '\\' || b[i] == '"')
            d += sprintf(d, "\\%c", b[i]);
        else if (b[i] == '\n')
            d += sprintf(d, "\\n");
        else if (b[i] == '\t')
            d += sprintf(d, "\\t");
        else if (b[i] == '\r')
            d += sprintf(d, "\\r");
        else
            d += sprintf(d, "\\x%02x", b[i]);
    }
    *d++ = '"';
    *d = 0;
}

/* one case, compared at every size in both families */
static void compare(const char *text)
{
    static char a[BUFSZ], b[BUFSZ];
    struct scn_case *c = parse(text);
    int full = scn_case_call(kt->vsnprintf, c, b, sizeof b);
    ncases++;
    CHECK(full >= 0 && full < BUFSZ - 2, "%s: kernel gave %d", text, full);
    if (full < 0 || full >= BUFSZ - 2)
        return;
    for (int fam = 0; fam < 2; fam++) {
        scn_vprintf_fn rf = fam ? rk->vscnprintf : rk->vsnprintf;
        scn_vprintf_fn kf = fam ? kt->vscnprintf : kt->vsnprintf;
        for (size_t size = 0; size <= (size_t)full + 1; size++) {
            memset(a, SENTINEL, sizeof a);
            memset(b, SENTINEL, sizeof b);
            int ra = scn_case_call(rf, c, size ? a : NULL, size);
            int rb = scn_case_call(kf, c, size ? b : NULL, size);
            CHECK(ra == rb && memcmp(a, b, sizeof a) == 0,
                  "%s (%s, size %zu): ref-kernel %d \"%.*s\", kernel %d \"%.*s\"", text,
                  fam ? "vscnprintf" : "vsnprintf", size, ra, (int)strnlen(a, size), a, rb,
                  (int)strnlen(b, size), b);
        }
    }
}

/* fmt with one mem argument (and "int:W " before it when star) */
static void with_mem(const char *fmt, const char *star, const char *mem)
{
    char text[1024], qf[128];
    quote(qf, (const unsigned char *)fmt, strlen(fmt));
    snprintf(text, sizeof text, "%s %s%smem:%s", qf, star ? star : "", star ? " " : "", mem);
    compare(text);
}

static void with_bytes(const char *fmt, const char *star, const unsigned char *bytes, size_t n)
{
    char q[600];
    quote(q, bytes, n);
    with_mem(fmt, star, q);
}

static void expect(const char *text, const char *out)
{
    char buf[BUFSZ];
    struct scn_case *c = parse(text);
    int r = scn_case_call(rk->vsnprintf, c, buf, sizeof buf);
    CHECK(r == (int)strlen(out) && strcmp(buf, out) == 0, "%s: gave %d \"%s\", expected \"%s\"", text, r, buf,
          out);
}

static const char *const mods[] = { "", "20", "-20", "3", ".5", "-.3", "25.9", "0", "08", "#", "+", " " };
#define NMODS (sizeof mods / sizeof mods[0])

/* "<%{mod}p{conv}>" with the bytes, and with NULL and error pointers */
static inline void each_mod(const char *conv, const unsigned char *bytes, size_t n, const char *const *ms, size_t nm)
{
    for (size_t m = 0; m < nm; m++) {
        char fmt[64];
        snprintf(fmt, sizeof fmt, "<%%%sp%s>", ms[m], conv);
        if (bytes)
            with_bytes(fmt, NULL, bytes, n);
        else {
            with_mem(fmt, NULL, "NULL");
            with_mem(fmt, NULL, "ERR(-14)");
            with_mem(fmt, NULL, "ERR(-4095)");
        }
    }
}

static inline void put16(unsigned char *d, unsigned v) { d[0] = (unsigned char)v, d[1] = (unsigned char)(v >> 8); }
static inline void put32(unsigned char *d, uint32_t v) { memcpy(d, &v, 4); }
static inline void put64(unsigned char *d, uint64_t v) { memcpy(d, &v, 8); }

/* ---- expected strings (printk-formats.rst) */
struct xarg {
    const char *pre;          /* arguments before the mem one ("int:4"), or NULL */
    const void *bytes;        /* NULL: mem:NULL */
    size_t n;
};

/* expect() of fmt with the mem arguments, quoted canonically */
static inline void expect_args(const char *fmt, const char *out, const struct xarg *x, size_t nx)
{
    char text[2048], q[600];
    size_t k;
    quote(q, (const unsigned char *)fmt, strlen(fmt));
    k = (size_t)snprintf(text, sizeof text, "%s", q);
    for (size_t i = 0; i < nx; i++) {
        if (x[i].bytes)
            quote(q, x[i].bytes, x[i].n);
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s mem:%s", x[i].pre ? " " : "",
                              x[i].pre ? x[i].pre : "", x[i].bytes ? q : "NULL");
    }
    expect(text, out);
}

/* the two targets; 0 when the reference's is missing */
static int kptr_targets(void)
{
    rk = scn_target_find("ref-kernel");
    kt = &scn_target_kernel;
    CHECK(rk != NULL, "no ref-kernel target");
    return rk != NULL;
}

#endif
