/* scn-exec-fuzz: a differential campaign against a libc in its executor.
 *
 *   scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]
 *
 * Runs the executor (harness/exec/scn_exec.c, any libc) as a child and sees
 * it as a struct scn_target whose vsnprintf is one protocol-1 round trip:
 * the case (found from the format pointer: scn_case_call always passes
 * c->fmt) is sent with @size, the answer's bytes, return value and %n
 * values are put back. So the project's oracles (edge sizes, C99 family)
 * and the differential oracle against the reference (with localisation of
 * the culprit specification and the allowances table) run unchanged.
 * Random fuzzer bytes -> scn_case_from_bytes (ISO dialect).
 *
 * Output: one JSON line per new finding signature (runner findings shape:
 * oracle, classification, case, signature, detail, target, outputs), then
 * {"stats":{...}}. An executor crash or hang is a finding ("crash"/"hang");
 * the executor is restarted and the campaign goes on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "differential.h"
#include "oracle.h"
#include "target.h"

extern const struct scn_target scn_target_ref;

static const char *exe_path;
static pid_t child = -1;
static FILE *to_child, *from_child;
static int exec_died;      /* the last call killed the executor */
static char death[64];
static int exec_overrun;   /* the last call wrote outside its buffer (executor's guard) */
static unsigned long restarts;
static int overrun_case;   /* some call of this case wrote outside its buffer */

static void stop_child(void)
{
    if (child > 0) {
        if (to_child) fclose(to_child);
        if (from_child) fclose(from_child);
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    child = -1;
    to_child = from_child = NULL;
}

static void start_child(void)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out)) exit(3);
    child = fork();
    if (child < 0) exit(3);
    if (child == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        setenv("SCN_EXEC_TIMEOUT", "5", 1);
        execl(exe_path, exe_path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_child = fdopen(in[1], "w");
    from_child = fdopen(out[0], "r");
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, from_child) < 0 || strncmp(line, "scn-exec ", 9)) {
        fprintf(stderr, "scn-exec-fuzz: %s did not start\n", exe_path);
        exit(2);
    }
    free(line);
}

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

static void set_n(struct scn_case *c, size_t i, long long v)
{
    switch (c->args[i].ntype) {
    case SCN_N_SCHAR: c->nslot[i].hh = (signed char)v; break;
    case SCN_N_SHORT: c->nslot[i].h = (short)v; break;
    case SCN_N_LONG: c->nslot[i].l = (long)v; break;
    case SCN_N_LLONG: c->nslot[i].ll = v; break;
    case SCN_N_INTMAX: c->nslot[i].j = v; break;
    case SCN_N_SIZE: c->nslot[i].z = (size_t)v; break;
    case SCN_N_PTRDIFF: c->nslot[i].t = (ptrdiff_t)v; break;
    default: c->nslot[i].i = (int)v; break;
    }
}

static char line_buf[SCN_CASE_MAX_FMT * 4 + 8192];

/* the libc's vsnprintf, one round trip */
static int exec_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)ap;
    struct scn_case *c = case_of(fmt);
    size_t keep_n = c->nsizes, keep0 = c->sizes[0];
    c->nsizes = 1;
    c->sizes[0] = size;
    scn_case_format(c, line_buf, sizeof line_buf);
    c->nsizes = keep_n;
    c->sizes[0] = keep0;
    exec_died = 0;
    exec_overrun = 0;
    if (child < 0) start_child();
    fputc('#', to_child); /* raw answers: buf[0..min(ret, size-1)] exactly */
    fputs(line_buf, to_child);
    fputc('\n', to_child);
    fflush(to_child);
    char *ans = NULL;
    size_t cap = 0;
    int ret = -1, got = 0;
    for (;;) {
        ssize_t n = getline(&ans, &cap, from_child);
        if (n < 0) {
            if (!exec_died) {
                exec_died = 1;
                snprintf(death, sizeof death, "crash (no answer)");
            }
            break;
        }
        if (n && ans[n - 1] == '\n') ans[--n] = '\0';
        if (!strcmp(ans, ".")) break;
        if (ans[0] == '!') {
            exec_died = strstr(ans, "crash") || strstr(ans, "hang");
            snprintf(death, sizeof death, "%s", ans + 2);
            continue;
        }
        if (ans[0] != '=' || got) continue;
        got = 1;
        char *p = ans + 2;
        strtoull(p, &p, 10);
        ret = (int)strtol(p, &p, 10);
        if (*p == ' ') p++;
        char err[128];
        size_t len = 0;
        static char bytes[65536 + 8];
        long used = scn_quoted_parse(p, strlen(p), 0, bytes, sizeof bytes - 1, &len, err, sizeof err);
        if (used < 0) len = 0;
        if (size && used >= 0) memcpy(buf, bytes, len < size ? len : size);
        p += used < 0 ? 0 : used;
        char *nn = strstr(p, " n=");
        if (nn) {
            size_t idx[SCN_CASE_MAX_ARGS];
            size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
            char *q = nn + 3;
            for (size_t i = 0; i < k; i++) {
                set_n(c, idx[i], strtoll(q, &q, 10));
                if (*q == ',') q++;
            }
        }
        if (strstr(p, " overrun")) exec_overrun = overrun_case = 1;
    }
    free(ans);
    if (exec_died) {
        stop_child();
        restarts++;
        return -1;
    }
    return ret;
}

static const char *libc_version(void) { return "executor"; }
static struct scn_target libc_t = { "libc", libc_version, SCN_DIALECT_ISO, exec_vsnprintf, NULL, "executor" };

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define MAXSIG 200
static char sigs[MAXSIG][200];
static size_t nsigs;
static unsigned long n_bug, n_impl;
static int seen(const char *s)
{
    for (size_t i = 0; i < nsigs; i++)
        if (!strcmp(sigs[i], s)) return 1;
    if (nsigs < MAXSIG) snprintf(sigs[nsigs++], sizeof sigs[0], "%s", s);
    return 0;
}

static void json(const char *s, size_t n)
{
    static char tmp[SCN_CASE_MAX_FMT * 8 + 16384];
    scn_json_bytes((const unsigned char *)s, n, tmp, sizeof tmp);
    fputs(tmp, stdout);
}

static void emit(struct scn_case *c, const char *oracle, const char *klass, const char *sig, const char *detail,
                 int ra, const unsigned char *a, size_t la, int rb, const unsigned char *b, size_t lb,
                 const char *allowance, unsigned long execs)
{
    static char text[sizeof line_buf];
    size_t keep = c->nsizes;
    c->nsizes = 0;
    scn_case_format(c, text, sizeof text);
    c->nsizes = keep;
    printf("{\"oracle\":\"%s\",\"classification\":\"%s\",\"case\":", oracle, klass);
    json(text, strlen(text));
    printf(",\"signature\":");
    json(sig, strlen(sig));
    printf(",\"detail\":");
    json(detail, strlen(detail));
    printf(",\"target\":\"%s\",\"source\":\"fuzz\",\"execs\":%lu", libc_t.name, execs);
    if (allowance) printf(",\"allowance\":\"%s\"", allowance);
    static char q[4096];
    printf(",\"outputs\":{\"ref\":{\"ret\":%d,\"bytes\":\"", ra);
    scn_quoted_format((const char *)a, la < 600 ? la : 600, q, sizeof q);
    for (char *p = q; *p; p++) {
        if (*p == '"' || *p == '\\') putchar('\\');
        putchar(*p);
    }
    printf("\"},\"%s\":{\"ret\":%d,\"bytes\":\"", libc_t.name, rb);
    scn_quoted_format((const char *)b, lb < 600 ? lb : 600, q, sizeof q);
    for (char *p = q; *p; p++) {
        if (*p == '"' || *p == '\\') putchar('\\');
        putchar(*p);
    }
    printf("\"}}}\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: scn-exec-fuzz EXECUTOR SECONDS SEED NAME [DECODE_FLAGS]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    exe_path = argv[1];
    double seconds = atof(argv[2]);
    rng = strtoull(argv[3], NULL, 0) | 1;
    libc_t.name = argv[4];
    unsigned flags = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 0) : 0;
    static struct scn_oracle_ctx x;
    if (scn_oracle_init(&x)) return 2;
    start_child();
    static struct scn_case c;
    static unsigned char a[65536], b[65536];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long execs = 0;
    uint8_t in[160];
    for (;; execs++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
        if (el >= seconds || nsigs >= MAXSIG) break;
        size_t n = 1 + rnd() % sizeof in;
        for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        scn_case_from_bytes(in, n, &c, SCN_DIALECT_ISO, flags);
        /* the C99 family's oracles at the edge sizes, through the executor */
        struct scn_report r;
        overrun_case = 0;
        size_t nf = scn_check_case(&x, &libc_t, &c, SCN_CHECK_NO_SCN | SCN_CHECK_NO_REPEAT, &r);
        if (overrun_case && !exec_died) {
            char sig[200];
            snprintf(sig, sizeof sig, "overrun:%s", libc_t.name);
            if (!seen(sig)) {
                n_bug++;
                emit(&c, "overrun", "memory-safety", sig, "the executor's guard bytes around the buffer changed",
                     0, a, 0, 0, b, 0, NULL, execs);
            }
            continue;
        }
        if (exec_died) {
            char sig[200];
            snprintf(sig, sizeof sig, "%s:%s", strncmp(death, "hang", 4) ? "crash" : "hang", libc_t.name);
            if (!seen(sig)) {
                n_bug++;
                emit(&c, strncmp(death, "hang", 4) ? "crash" : "hang", "memory-safety", sig, death, 0, a, 0, -1, b, 0,
                     NULL, execs);
            }
            continue;
        }
        if (nf && strcmp(r.first.oracle, "full-too-long")) {
            char sig[200];
            snprintf(sig, sizeof sig, "%s:%s", r.first.oracle, libc_t.name);
            if (!seen(sig)) {
                n_bug++;
                emit(&c, r.first.oracle, r.first.klass, sig, r.first.detail, r.full_ret, r.full, r.full_len,
                     (int)r.first.ret, r.first.got, r.first.got_len, NULL, execs);
            }
            continue;
        }
        /* the differential against the reference */
        int ra = 0, rb, in_guard;
        char *buf;
        if (scn_oracle_call(&x, &scn_target_ref, SCN_FAM_C99, &c, sizeof a, 0, &ra, &buf, &in_guard)) continue;
        size_t la = ra < 0 ? 0 : (size_t)ra < sizeof a ? (size_t)ra : strnlen(buf, sizeof a);
        memcpy(a, buf, la);
        size_t idx[SCN_CASE_MAX_ARGS], nn = scn_case_n_args(&c, idx, SCN_CASE_MAX_ARGS);
        for (size_t i = 0; i < nn; i++) na[i] = scn_case_n_value(&c, idx[i]);
        if (scn_oracle_call(&x, &libc_t, SCN_FAM_C99, &c, sizeof b, 0, &rb, &buf, &in_guard) || exec_died) continue;
        size_t lb = rb < 0 ? 0 : (size_t)rb < sizeof b ? (size_t)rb : strnlen(buf, sizeof b);
        memcpy(b, buf, lb);
        for (size_t i = 0; i < nn; i++) nb[i] = scn_case_n_value(&c, idx[i]);
        struct scn_diff_out outs[2] = { { &scn_target_ref, ra, a, la, nn, na }, { &libc_t, rb, b, lb, nn, nb } };
        struct scn_diff_finding df;
        enum scn_diff_verdict v = scn_diff_compare(&c, outs, 2, SCN_DIALECT_ISO, &df);
        if (v == SCN_DIFF_AGREE || seen(df.signature)) continue;
        if (v == SCN_DIFF_IMPL) n_impl++;
        else n_bug++;
        emit(&c, SCN_DIFF_ORACLE, df.klass, df.signature, df.detail, ra, a, la, rb, b, lb,
             df.allowance ? df.allowance->id : NULL, execs);
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
    printf("{\"stats\":{\"executions\":%lu,\"seconds\":%.3f,\"bugs\":%lu,\"implementation_defined\":%lu,"
           "\"restarts\":%lu,\"signatures\":%zu}}\n", execs, el, n_bug, n_impl, restarts, nsigs);
    stop_child();
    return 0;
}
