/* A death's crash state, as ClusterFuzz signs a crash: the sanitizer
 * report's kind and the first frame in the target's own source
 * ("signed-integer-overflow in getint (vfprintf.c)"). One bug reached by many
 * formats stops its report at one place; the shape of whatever case met it
 * does not. See rootcause.h. */
#define _GNU_SOURCE
#include "rootcause.h"

#include "supervise.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* UBSan words its checks; the check's name is what stays the same
 * (compiler-rt's ubsan_handlers.cpp messages, the -fsanitize= names). */
static const struct {
    const char *words, *kind;
} ubsan_kinds[] = {
    { "signed integer overflow", "signed-integer-overflow" },
    { "negation of", "signed-integer-overflow" },
    { "division of", "signed-integer-overflow" },
    { "unsigned integer overflow", "unsigned-integer-overflow" },
    { "division by zero", "integer-divide-by-zero" },
    { "shift exponent", "shift-exponent" },
    { "left shift of", "shift-base" },
    { "out of bounds for type", "array-bounds" },
    { "misaligned address", "misaligned-pointer-use" },
    { "null pointer", "null-pointer-use" },
    { "is not a valid value for type", "invalid-value-load" },
    { "pointer index expression", "pointer-overflow" },
    { "offset to", "pointer-overflow" },
    { "unreachable program point", "unreachable" },
    { "without returning a value", "missing-return" },
    { "variable length array bound", "vla-bound" },
    { "implicit conversion", "implicit-conversion" },
    { "outside the range of representable values", "float-cast-overflow" },
    { "not a valid argument", "invalid-builtin-use" },
    { "incorrect function type", "function-type-mismatch" },
};

/* The kind of a UBSan message ("signed integer overflow: 2147483647 * 10
 * cannot be ..."): a known check's name, else its first words up to a
 * number, a quote or a colon, joined by '-'. */
static void ubsan_kind(const char *msg, char *out, size_t cap)
{
    for (size_t i = 0; i < sizeof ubsan_kinds / sizeof ubsan_kinds[0]; i++) {
        const char *w = strstr(msg, ubsan_kinds[i].words);
        if (w && (w == msg || !strchr(msg, ':') || w < strchr(msg, ':'))) {
            snprintf(out, cap, "%s", ubsan_kinds[i].kind);
            return;
        }
    }
    size_t k = 0;
    for (const char *p = msg; *p && *p != ':' && *p != '\'' && !isdigit((unsigned char)*p) && k + 1 < cap; p++)
        out[k++] = *p == ' ' ? '-' : *p;
    while (k && out[k - 1] == '-') k--;
    out[k] = 0;
    if (!k) snprintf(out, cap, "undefined-behaviour");
}

/* "path:line:col" or "path:line" cut to "path"; its line, or 0 when it has none. */
static long cut_place(char *place)
{
    long line = 0;
    for (int i = 0; i < 2; i++) {
        char *c = strrchr(place, ':');
        if (!c || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1)) break;
        line = strtol(c + 1, NULL, 10); /* the column first, then the line */
        *c = 0;
    }
    return line;
}

/* A symbolised stack frame of a report ("    #3 0x55d0 in getint
 * /src/stdio/vfprintf.c:436:13"): its function, file and line; 0 when the
 * line is no such frame (unsymbolised: "in fn (binary+0x12)"). */
static int frame(const char *l, char *fn, size_t fncap, char *file, size_t filecap, long *line)
{
    const char *p = l + strspn(l, " \t");
    if (*p != '#' || !isdigit((unsigned char)p[1]) || !(p = strstr(p, " in "))) return 0;
    p += 4;
    size_t n = strcspn(p, " ");
    if (!n || n >= fncap || p[n] != ' ') return 0;
    snprintf(fn, fncap, "%.*s", (int)n, p);
    p += n + 1;
    size_t m = strcspn(p, " (");
    if (!m || m >= filecap) return 0;
    snprintf(file, filecap, "%.*s", (int)m, p);
    return (*line = cut_place(file)) > 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A frame of the harness or of the sanitizer runtime, not of the target:
 * the suite's own directories under root, compiler-rt's sources, and the
 * sanitizer's entry points. */
static int harness_frame(const char *fn, const char *file, const char *root)
{
    static const char *const own[] = { "/core/", "/oracles/", "/fuzz/", "/programs/" };
    if (!strncmp(fn, "__sanitizer", 11) || !strncmp(fn, "__asan", 6) || !strncmp(fn, "__ubsan", 7) ||
        !strncmp(fn, "__interceptor", 13) || strstr(file, "compiler-rt") || strstr(file, "/sanitizer_common/"))
        return 1;
    size_t rn = root ? strlen(root) : 0;
    if (rn && !strncmp(file, root, rn))
        for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
            if (!strncmp(file + rn, own[i], strlen(own[i]))) return 1;
    return 0;
}

size_t scn_crash_state(const char *report, const char *root, char *out, size_t cap)
{
    char kind[96] = "", ub_file[512] = "", ub_fn[128] = "", first_fn[128] = "", first_file[512] = "";
    char fn[128], file[512], l[1024];
    long ub_line = 0, line = 0;
    out[0] = 0;
    for (const char *p = report; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), p);
        p = nl ? nl + 1 : NULL;
        const char *re = strstr(l, ": runtime error: "), *asan = strstr(l, "ERROR: AddressSanitizer: ");
        if (re && !kind[0]) { /* "path:line:col: runtime error: message": the report's place */
            ubsan_kind(re + 17, kind, sizeof kind);
            snprintf(ub_file, sizeof ub_file, "%.*s", (int)(re - l), l);
            ub_line = cut_place(ub_file);
        } else if ((asan && !kind[0]) || !strncmp(l, "SUMMARY: AddressSanitizer: ", 27)) {
            /* (the SUMMARY's kind is the canonical one: "allocation-size-too-big") */
            const char *k = asan && !kind[0] ? asan + 25 : l + 27;
            snprintf(kind, sizeof kind, "%.*s", (int)strcspn(k, " "), k);
        } else if (frame(l, fn, sizeof fn, file, sizeof file, &line) && !harness_frame(fn, file, root)) {
            if (!first_fn[0]) {
                snprintf(first_fn, sizeof first_fn, "%s", fn);
                snprintf(first_file, sizeof first_file, "%s", file);
            }
            /* UBSan's place, named by its function when a frame is there */
            if (ub_file[0] && !ub_fn[0] && line == ub_line && !strcmp(base_name(file), base_name(ub_file)))
                snprintf(ub_fn, sizeof ub_fn, "%s", fn);
        }
    }
    int n = 0;
    if (!kind[0]) return 0;
    /* (no ':' in it: the signature's fields are separated by ':', finding.schema.json) */
    if (ub_file[0] && ub_fn[0]) n = snprintf(out, cap, "%s in %s (%s)", kind, ub_fn, base_name(ub_file));
    else if (ub_file[0]) n = snprintf(out, cap, "%s at %s line %ld", kind, base_name(ub_file), ub_line);
    else if (first_fn[0]) n = snprintf(out, cap, "%s in %s (%s)", kind, first_fn, base_name(first_file));
    /* else a report that names no place of the target's: the shape signs it */
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* ------------------------------------------------------- the report of one more run */

extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
extern void __sanitizer_print_stack_trace(void) __attribute__((weak));

/* UBSan prints no stack unless asked at start-up: at its death the child prints one. */
static void stack_at_death(void)
{
    if (__sanitizer_print_stack_trace) __sanitizer_print_stack_trace();
}

struct state_job {
    long (*fn)(void *);
    void *arg;
    int err;
};

static long state_child(void *vj)
{
    struct state_job *j = vj;
    dup2(j->err, 2);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(stack_at_death);
    return j->fn(j->arg);
}

/* The tree this file was compiled from: the harness's directories are under it. */
static const char *harness_root(void)
{
    static char root[4096];
    if (!root[0]) {
        snprintf(root, sizeof root, "%s", __FILE__);
        char *s = strrchr(root, '/');
        if (s) *s = 0; /* .../oracles */
        s = strrchr(root, '/');
        if (s) *s = 0;
        else root[0] = 0;
    }
    return root;
}

int scn_rootcause_crash_state(struct scn_rootcause *rc, long (*fn)(void *), void *arg, unsigned long long limit_ns)
{
    rc->state[0] = 0;
    char path[] = "/tmp/scn-crash-state-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    unlink(path);
    struct state_job j = { fn, arg, fd };
    struct scn_sup_opts o = { 0, SCN_SUP_QUIET_OUT };
    struct scn_sup_end e;
    int ran = !scn_sup_run(&o, state_child, &j, limit_ns, &e);
    size_t n = 0;
    char *text = NULL;
    if (ran && e.kind != SCN_SUP_OK && e.kind != SCN_SUP_HANG) {
        off_t size = lseek(fd, 0, SEEK_END);
        if (size > 0 && size < (1 << 22) && (text = malloc((size_t)size + 1))) {
            n = (size_t)pread(fd, text, (size_t)size, 0);
            text[n < (size_t)size ? n : (size_t)size] = 0;
        }
    }
    close(fd);
    if (text) scn_crash_state(text, harness_root(), rc->state, sizeof rc->state);
    free(text);
    return rc->state[0] != 0;
}
