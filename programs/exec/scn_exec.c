/* scn-exec: a generic executor. Any libc's own vsnprintf answering printf
 * cases in its own process. Built with that libc's compiler driver
 * (`musl-gcc -static`, `diet gcc`, `klcc`, `gcc`, ...), together with
 * the case model (core/case/sources.cmake). See programs/exec/README.md.
 *
 * Protocol 2 (a superset of protocol 1, both in programs/exec/README.md):
 *   start:   "scn-exec 2 <name> <version>\n"
 *   request: one line each, either
 *     <case>        protocol 1: per size of its @sizes (none: 65536) one line
 *                   "= <size> <ret> <quoted> [n=V,...] [errno=E] [nonul] [overrun]"
 *     *<case>       all sizes, both families (see README): first
 *                   "F <ret> <quoted> [n=..] [errno=E]" (the C99 call with a buffer
 *                   big enough), then for every size S the oracles try with
 *                   SCN_CHECK_ALL_SIZES (0..len+1, or for long outputs the first
 *                   and last 64 and 64 evenly spaced) and of the @sizes:
 *                   "= S <ret> <bytes> [n=..] [errno=E] [nonul] [overrun]" (C99)
 *                   "~ S <ret> <bytes> [nonul] [overrun]"                  (scn family:
 *                   the canonical wrapper over vsnprintf); at S = len+1 twice
 *                   (the calls a repeatability check makes again).
 *                   <bytes> are buf[0..k], k = min(ret, S-1), as for '#'
 *                   ("" when S == 0 or ret < 0), written "ok" when they are the
 *                   first k bytes of the F output and a NUL.
 *     #<case>       as <case>, but the quoted bytes are buf[0..k] with
 *                   k = min(ret, size - 1): the NUL position included, NULs
 *                   inside kept (exact for the oracles: core/targets/executor.c)
 *     a line that does not parse: one "! <message>"
 *   each answer ends with ".". A crash (fatal signal) or a hang (SIGALRM,
 *   env SCN_EXEC_TIMEOUT seconds per request, default 10) writes the answers
 *   of the requests before, then "! crash signal N" or "! hang", then ".",
 *   and exits 70 / 71.
 * Batching: answers are buffered and written when the executor is about to
 * wait for input (or 64 KiB are pending), so a client may also write many
 * requests at once.
 * stdin EOF: exit 0.
 *
 * I/O is read(2)/write(2) with its own number formatting: the printf under
 * test never writes the protocol.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"

#ifndef SCN_EXEC_NAME
#define SCN_EXEC_NAME "libc"
#endif
#ifndef SCN_EXEC_VERSION
#define SCN_EXEC_VERSION "(unknown version)"
#endif

#define BIG ((size_t)65536)
#define MAX_ALLOC ((size_t)1 << 26)
#define GUARD 64
#define PRE 16
#define GUARD_BYTE 0xa5
#define ALL_MAX 512
#define ALL_EDGE 64

/* ---- output buffer: committed up to `commit` (whole answers) ---- */
static char *out;
static size_t out_len, out_cap;
static volatile size_t commit;

static void write_all(const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(1, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            _exit(1);
        }
        p += w;
        n -= (size_t)w;
    }
}

static void flush_out(void)
{
    write_all(out, out_len);
    out_len = 0;
    commit = 0;
}

static void put(const char *s, size_t n)
{
    if (out_len + n + 1 > out_cap) {
        size_t cap = out_cap ? out_cap : 1 << 16;
        while (out_len + n + 1 > cap) cap *= 2;
        char *p = realloc(out, cap);
        if (!p) _exit(3);
        out = p;
        out_cap = cap;
    }
    memcpy(out + out_len, s, n);
    out_len += n;
}
static void puts_(const char *s) { put(s, strlen(s)); }
static void putll(long long v)
{
    char b[24];
    size_t i = sizeof b;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do b[--i] = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) b[--i] = '-';
    put(b + i, sizeof b - i);
}
static void putq(const unsigned char *b, size_t n)
{
    size_t q = scn_quoted_format((const char *)b, n, NULL, 0);
    char *s = malloc(q + 1);
    if (!s) _exit(3);
    scn_quoted_format((const char *)b, n, s, q + 1);
    put(s, q);
    free(s);
}
static void end_answer(void)
{
    puts_(".\n");
    commit = out_len;
    if (out_len >= (1u << 16)) flush_out();
}

static void fatal(int sig)
{
    static const char hang[] = "! hang\n.\n";
    write_all(out, commit);
    if (sig == SIGALRM) {
        write_all(hang, sizeof hang - 1);
        _exit(71);
    }
    char m[40] = "! crash signal ";
    size_t n = strlen(m);
    if (sig >= 10) m[n++] = (char)('0' + sig / 10);
    m[n++] = (char)('0' + sig % 10);
    memcpy(m + n, "\n.\n", 3);
    write_all(m, n + 3);
    _exit(70);
}

/* ---- the calls ---- */
static struct scn_case the_case;
static unsigned char *mem;  /* PRE + alloc + GUARD */
static size_t mem_alloc;

static int call_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}
static int call_scn(char *buf, size_t size, const char *fmt, va_list ap)
{
    int r = vsnprintf(buf, size, fmt, ap);
    if (r < 0) {
        if (size) buf[0] = '\0';
        return 0;
    }
    if ((size_t)r < size) return r;
    return size ? (int)(size - 1) : 0;
}

static unsigned char *buffer(size_t alloc)
{
    if (!mem || alloc > mem_alloc) {
        free(mem);
        mem = malloc(PRE + alloc + GUARD);
        if (!mem) _exit(3);
        mem_alloc = alloc;
    }
    memset(mem, GUARD_BYTE, PRE + alloc + GUARD);
    return mem + PRE;
}

static int guard_hit(const unsigned char *buf, size_t size)
{
    for (size_t i = 0; i < PRE; i++)
        if (buf[-(long)PRE + (long)i] != GUARD_BYTE) return 1;
    for (size_t i = size; i < size + GUARD; i++)
        if (buf[i] != GUARD_BYTE) return 1;
    return 0;
}

static void put_n(struct scn_case *c)
{
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nn; i++) {
        puts_(i ? "," : " n=");
        putll(scn_case_n_value(c, idx[i]));
    }
}

/* protocol 1 answer for one size; raw: the bytes shown are buf[0..k], k =
 * min(ret, size - 1) (the NUL position included, embedded NULs kept) */
static void answer1(struct scn_case *c, size_t size, int raw)
{
    size_t alloc = size;
    if (size > MAX_ALLOC) {
        if (size <= (size_t)0x7fffffff) {
            puts_("! size too large for the executor\n");
            return;
        }
        alloc = BIG;
    }
    unsigned char *buf = buffer(alloc);
    errno = 0;
    int ret = scn_case_call(call_c99, c, (char *)buf, size);
    int err = errno;
    size_t shown = 0;
    int nonul = 0;
    if (ret >= 0 && size > 0) {
        const unsigned char *nul = memchr(buf, 0, alloc);
        if (raw) shown = ((size_t)ret < size - 1 ? (size_t)ret : size - 1) + 1;
        else if (nul) shown = (size_t)(nul - buf);
        if (!nul) nonul = 1;
    }
    puts_("= ");
    putll((long long)size);
    puts_(" ");
    putll(ret);
    puts_(" ");
    putq(buf, shown);
    put_n(c);
    if (ret < 0) {
        puts_(" errno=");
        putll(err);
    }
    if (nonul) puts_(" nonul");
    if (guard_hit(buf, size == 0 ? 0 : alloc)) puts_(" overrun");
    puts_("\n");
}

/* the full output of the C99 call (copied) */
static unsigned char *full;
static size_t full_len;
static int full_ret;

static void answer_sized(struct scn_case *c, size_t size, int scn)
{
    unsigned char *buf = buffer(size);
    errno = 0;
    int ret = scn_case_call(scn ? call_scn : call_c99, c, (char *)buf, size);
    int err = errno;
    puts_(scn ? "~ " : "= ");
    putll((long long)size);
    puts_(" ");
    putll(ret);
    int over = guard_hit(buf, size);
    /* the bytes shown: buf[0..k], k = min(ret, size - 1), as in a '#' answer;
     * "ok" when they are the first k bytes of the F output and a NUL */
    size_t shown = size && ret >= 0 ? ((size_t)ret < size - 1 ? (size_t)ret : size - 1) + 1 : 0;
    if (shown && shown - 1 <= full_len && !memcmp(buf, full, shown - 1) && buf[shown - 1] == 0) {
        puts_(" ok");
    } else {
        puts_(" ");
        putq(buf, shown);
    }
    if (!scn) {
        put_n(c);
        if (ret < 0) {
            puts_(" errno=");
            putll(err);
        }
    }
    if (size && !memchr(buf, 0, size)) puts_(" nonul");
    if (over) puts_(" overrun");
    puts_("\n");
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static void answer_all(struct scn_case *c)
{
    size_t alloc = BIG;
    for (;;) {
        unsigned char *buf = buffer(alloc);
        errno = 0;
        full_ret = scn_case_call(call_c99, c, (char *)buf, alloc);
        int err = errno;
        if (full_ret >= 0 && (size_t)full_ret >= alloc && alloc < MAX_ALLOC) {
            alloc = (size_t)full_ret + 1 > MAX_ALLOC ? MAX_ALLOC : (size_t)full_ret + 1;
            continue;
        }
        const unsigned char *nul = memchr(buf, 0, alloc);
        /* the bytes the call claims to have produced (they may contain NULs),
         * else (error, or a return larger than the buffer) up to the NUL */
        full_len = full_ret < 0 ? 0 : (size_t)full_ret < alloc ? (size_t)full_ret : nul ? (size_t)(nul - buf) : alloc;
        free(full);
        full = malloc(full_len + 1);
        if (!full) _exit(3);
        memcpy(full, buf, full_len);
        puts_("F ");
        putll(full_ret);
        puts_(" ");
        putq(full, full_len);
        put_n(c);
        if (full_ret < 0) {
            puts_(" errno=");
            putll(err);
        }
        if (full_ret >= 0 && (full_len >= alloc || buf[full_len] != 0)) puts_(" nonul");
        if (guard_hit(buf, alloc)) puts_(" overrun");
        puts_("\n");
        break;
    }
    /* the sizes: the reference length is the larger of the stored bytes and the return */
    size_t len = full_len;
    if (full_ret > 0 && (size_t)full_ret > len && (size_t)full_ret < MAX_ALLOC) len = (size_t)full_ret;
    static size_t sizes[ALL_MAX + 3 * ALL_EDGE + SCN_CASE_MAX_SIZES];
    size_t ns = 0;
    if (len + 2 <= ALL_MAX) {
        for (size_t s = 0; s <= len + 1; s++) sizes[ns++] = s;
    } else {
        for (size_t s = 0; s < ALL_EDGE; s++) sizes[ns++] = s;
        for (size_t s = len + 2 - ALL_EDGE; s <= len + 1; s++) sizes[ns++] = s;
        for (size_t j = 1; j <= ALL_EDGE; j++) sizes[ns++] = ALL_EDGE + (len + 2 - 2 * ALL_EDGE) * j / (ALL_EDGE + 1);
    }
    for (size_t i = 0; i < c->nsizes; i++)
        if (c->sizes[i] <= MAX_ALLOC) sizes[ns++] = c->sizes[i];
    qsort(sizes, ns, sizeof sizes[0], cmp_size);
    for (size_t i = 0; i < ns; i++) {
        if (i && sizes[i] == sizes[i - 1]) continue;
        /* at len + 1 twice: the calls a repeatability check makes again */
        for (int k = 0; k < (sizes[i] == len + 1 ? 2 : 1); k++) {
            answer_sized(c, sizes[i], 0);
            answer_sized(c, sizes[i], 1);
        }
    }
}

static unsigned timeout_s = 10;

static void request(char *line, size_t len)
{
    char err[256];
    int all = len > 0 && line[0] == '*', raw = len > 0 && line[0] == '#';
    if (all || raw) {
        line++;
        len--;
    }
    alarm(timeout_s);
    if (scn_case_parse(line, len, &the_case, err, sizeof err) != 0) {
        puts_("! ");
        puts_(err);
        puts_("\n");
    } else if (all) {
        answer_all(&the_case);
    } else if (the_case.nsizes == 0) {
        answer1(&the_case, BIG, raw);
    } else {
        for (size_t i = 0; i < the_case.nsizes; i++) answer1(&the_case, the_case.sizes[i], raw);
    }
    alarm(0);
    end_answer();
}

int main(void)
{
    const char *t = getenv("SCN_EXEC_TIMEOUT");
    if (t && *t) timeout_s = (unsigned)atoi(t);
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM };
#if !defined(__KLIBC__) && defined(SA_ONSTACK)
    /* the handler runs on its own stack: a smashed or exhausted stack (a
     * buffer overflow inside the printf under test) still gets reported */
    static char altstack[1 << 16];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, NULL);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fatal;
        sa.sa_flags = SA_ONSTACK;
        sigaction(sigs[i], &sa, NULL);
    }
#else
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], fatal);
#endif

    puts_("scn-exec 2 " SCN_EXEC_NAME " " SCN_EXEC_VERSION "\n");
    flush_out();
    size_t cap = 1 << 16, have = 0;
    char *in = malloc(cap + 1);
    if (!in) return 3;
    for (;;) {
        if (have == cap) {
            cap *= 2;
            char *p = realloc(in, cap + 1);
            if (!p) return 3;
            in = p;
        }
        flush_out(); /* about to wait: answer what came so far */
        ssize_t r = read(0, in + have, cap - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        have += (size_t)r;
        size_t start = 0;
        for (;;) {
            char *nl = memchr(in + start, '\n', have - start);
            if (!nl) break;
            size_t n = (size_t)(nl - (in + start));
            if (n && in[start + n - 1] == '\r') n--;
            in[start + n] = '\0';
            request(in + start, n);
            start = (size_t)(nl - in) + 1;
        }
        memmove(in, in + start, have - start);
        have -= start;
    }
    if (have) {
        in[have] = '\0';
        request(in, have);
    }
    flush_out();
    free(in);
    return 0;
}
