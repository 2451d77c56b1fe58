/* scn-certify driver: one vendored printf-family function (the generated
 * adapter, see harness/certify/README.md) checked in-process, under
 * ASan+UBSan, by the project's oracles.
 *
 *   scn-certify conform FILE.tsv...        the corpus at every buffer size
 *   scn-certify retval                     the return-value suite of its kind
 *   scn-certify fuzz SECONDS SEED          differential campaign vs the reference
 *
 * Output: JSON lines on stdout (flushed after each), then one {"summary":..}
 * (conform/retval) or {"stats":..} (fuzz). A sanitizer death prints
 * {"death":..,"case":..} first (death callback), so the case is known.
 *
 * The adapter defines:
 *   const int scn_cert_kind;            0 vsnprintf, 1 snprintf, 2 vscnprintf, 3 scnprintf
 *   const int scn_cert_dialect;         SCN_DIALECT_ISO / _KERNEL
 *   const char scn_cert_name[];
 *   int (*const scn_cert_vfn)(char *, size_t, const char *, va_list);   v* kinds, else NULL
 *   int (*const scn_cert_fn)(char *, size_t, const char *, ...);        variadic kinds, else NULL
 *
 * Variadic kinds: a va_list cannot be forwarded to a variadic function, so
 * the case's typed arguments are passed by a direct call whose shape covers
 * every x86-64 SysV argument sequence: the first 3 integer-class arguments
 * in the remaining general registers, the first 8 doubles in xmm0-7, every
 * other argument in order in 8-byte stack slots (long double: 16-byte
 * aligned 16-byte slot), which is exactly where a callee's va_arg looks.
 * The case being called is found from the format pointer (scn_case_call
 * always passes c->fmt), so sub-cases of the differential work too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "case.h"
#include "differential.h"
#include "oracle.h"
#include "scn/ref_printf.h"
#include "target.h"

extern const int scn_cert_kind;
extern const int scn_cert_dialect;
extern const char scn_cert_name[];
extern int (*const scn_cert_vfn)(char *, size_t, const char *, va_list);
extern int (*const scn_cert_fn)(char *, size_t, const char *, ...);

extern const struct scn_target scn_target_ref;
extern const struct scn_target scn_target_ref_kernel;

enum { K_VSN = 0, K_SN = 1, K_VSCN = 2, K_SCN = 3 };

/* ---- the variadic call ---- */
#define NSTACK 100
#define S10(b) st[b], st[b + 1], st[b + 2], st[b + 3], st[b + 4], st[b + 5], st[b + 6], st[b + 7], st[b + 8], st[b + 9]

static int call_variadic(struct scn_case *c, char *buf, size_t size)
{
    uint64_t g[3] = { 0, 0, 0 }, st[NSTACK];
    double d[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    size_t ng = 0, nd = 0, k = 0;
    memset(st, 0, sizeof st);
    for (size_t i = 0; i < c->nargs && k + 3 < NSTACK; i++) {
        const struct scn_arg *a = &c->args[i];
        uint64_t v = 0;
        switch (a->type) {
        case SCN_ARG_INT: v = (uint64_t)(int64_t)(int)a->v.i; break;
        case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE:
        case SCN_ARG_PTRDIFF: v = (uint64_t)a->v.i; break;
        case SCN_ARG_UINT: case SCN_ARG_WINT: v = (uint32_t)a->v.u; break;
        case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE: v = a->v.u; break;
        case SCN_ARG_PTR: v = a->is_null ? 0 : a->v.u; break;
        case SCN_ARG_STR: case SCN_ARG_WSTR:
            v = a->is_null ? 0 : (uint64_t)(uintptr_t)(c->arena + a->off);
            break;
        case SCN_ARG_N:
            memset(&c->nslot[i], 0, sizeof c->nslot[i]);
            v = (uint64_t)(uintptr_t)&c->nslot[i];
            break;
        case SCN_ARG_DOUBLE:
            if (nd < 8) d[nd++] = a->v.d;
            else memcpy(&st[k++], &a->v.d, 8);
            continue;
        case SCN_ARG_LDOUBLE:
            k = (k + 1) & ~(size_t)1;
            memcpy(&st[k], &a->v.ld, 10);
            k += 2;
            continue;
        }
        if (ng < 3) g[ng++] = v;
        else st[k++] = v;
    }
    return scn_cert_fn(buf, size, c->fmt, g[0], g[1], g[2], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7],
                       S10(0), S10(10), S10(20), S10(30), S10(40), S10(50), S10(60), S10(70), S10(80),
                       S10(90));
}

static struct scn_case *case_of(const char *fmt)
{
    return (struct scn_case *)(void *)((char *)(uintptr_t)fmt - offsetof(struct scn_case, fmt));
}

/* the function under test, as a va_list entry of either family */
static int under_test(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (scn_cert_vfn) return scn_cert_vfn(buf, size, fmt, ap);
    return call_variadic(case_of(fmt), buf, size);
}

/* A scnprintf-family function seen as a C99 one (its full output): called
 * with a buffer big enough that nothing is cut (a return of cap - 1 may be
 * a cut: retried 16 times bigger), the first min(ret, size - 1) bytes copied
 * into buf. Used for the full output the truncation oracles compare with,
 * the expectations and the differential; the scn family itself is always
 * called directly. */
static int scn_as_c99(char *buf, size_t size, const char *fmt, va_list ap)
{
    size_t cap = (size_t)1 << 16;
    for (;;) {
        char *tmp = malloc(cap);
        if (!tmp) return -1;
        va_list cp;
        va_copy(cp, ap);
        int r = under_test(tmp, cap, fmt, cp);
        va_end(cp);
        if (r >= 0 && (size_t)r >= cap - 1 && cap < ((size_t)1 << 26)) {
            free(tmp);
            cap *= 16;
            continue;
        }
        if (size) {
            size_t k = r < 0 ? 0 : (size_t)r < size - 1 ? (size_t)r : size - 1;
            if (k > cap - 1) k = cap - 1;
            memcpy(buf, tmp, k);
            buf[k] = '\0';
        }
        free(tmp);
        return r;
    }
}

static const char *cert_version(void) { return "vendored"; }

static struct scn_target cert;  /* as the oracles see it */
static struct scn_target view;  /* the function called with a big buffer, for the differential */
static const struct scn_target *ref;
static int is_scn;
static struct scn_oracle_ctx ctx;
static unsigned fam_flags;
static const char *cur_phase = "start";
static char cur_case[SCN_CASE_MAX_FMT * 4 + 2048];

static void set_current(const struct scn_case *c)
{
    scn_case_format(c, cur_case, sizeof cur_case);
}

static void json_str(const char *s)
{
    static char tmp[sizeof cur_case * 2];
    scn_json_bytes((const unsigned char *)s, strlen(s), tmp, sizeof tmp);
    fputs(tmp, stdout);
}

static void on_death(void)
{
    printf("{\"death\":\"sanitizer\",\"phase\":\"%s\",\"case\":", cur_phase);
    json_str(cur_case);
    printf("}\n");
    fflush(stdout);
}

extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void setup(void)
{
    is_scn = scn_cert_kind == K_VSCN || scn_cert_kind == K_SCN;
    ref = scn_cert_dialect == SCN_DIALECT_KERNEL ? &scn_target_ref_kernel : &scn_target_ref;
    cert.name = scn_cert_name;
    cert.version = cert_version;
    cert.dialect = (enum scn_dialect)scn_cert_dialect;
    cert.where = "in-process";
    /* The full output is the function's own with a big buffer (a scnprintf
     * returns the full length when nothing is cut), so every truncation
     * oracle judges it against itself; differences from the standard are
     * the expectations' and the differential's business. */
    cert.vsnprintf = is_scn ? scn_as_c99 : under_test;
    if (is_scn) {
        cert.vscnprintf = under_test;
        fam_flags = SCN_CHECK_NO_C99;
    } else {
        cert.vscnprintf = NULL;
        fam_flags = SCN_CHECK_NO_SCN;
    }
    view = cert;
    view.vscnprintf = NULL;
    const char *as = getenv("SCN_CERTIFY_ALLOW_AS");
    if (as && *as) view.name = as; /* the allowances of that target apply */
    scn_oracle_set_catch_faults(1);
    if (scn_oracle_init(&ctx)) {
        fprintf(stderr, "scn-certify: cannot map the guarded buffer\n");
        exit(2);
    }
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_death);
}

/* The function's own output with a big buffer (both kinds). */
#define BIG 65536
static int own_output(struct scn_case *c, unsigned char *out, size_t *len, long long *n, size_t *nn, int *faulted)
{
    int ret = 0, in_guard = 0;
    char *b;
    *faulted = scn_oracle_call(&ctx, &view, SCN_FAM_C99, c, BIG, 0, &ret, &b, &in_guard);
    *len = 0;
    *nn = 0;
    if (*faulted) return -1;
    if (ret >= 0) {
        size_t l = (size_t)ret < BIG ? (size_t)ret : strnlen(b, BIG);
        memcpy(out, b, l);
        *len = l;
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t k = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < k; i++) n[i] = scn_case_n_value(c, idx[i]);
    *nn = k;
    return ret;
}

static void emit_finding(const char *phase, const struct scn_case *c, const struct scn_finding *f,
                         const char *oracle, const char *klass, const char *detail, const char *extra)
{
    char tmp[4096];
    printf("{\"phase\":\"%s\",\"status\":\"fail\",\"oracle\":\"%s\",\"class\":\"%s\",\"case\":", phase, oracle,
           klass);
    set_current(c);
    json_str(cur_case);
    if (f) {
        scn_finding_json(f, tmp, sizeof tmp);
        printf(",\"finding\":%s", tmp);
    }
    if (detail) {
        printf(",\"detail\":");
        json_str(detail);
    }
    if (extra) printf(",%s", extra);
    printf("}\n");
    fflush(stdout);
}

/* ---- conform ---- */
static unsigned long n_pass, n_fail;

static void conform_entry(struct scn_corpus_entry *e, const char *file, long line)
{
    const struct scn_expect *x = scn_cert_dialect == SCN_DIALECT_KERNEL ? &e->kernel : &e->iso;
    if (x->kind == SCN_EXPECT_NONE) return;
    set_current(&e->c);
    struct scn_report r;
    size_t nf = scn_check_case(&ctx, &cert, &e->c, SCN_CHECK_ALL_SIZES | fam_flags, &r);
    static char expected[SCN_EXPECT_MAX * 4 + 64], actual[SCN_EXPECT_MAX * 4 + 64];
    scn_expect_format(x, expected, sizeof expected);
    const char *oracle = NULL, *klass = "conformance";
    const struct scn_finding *f = NULL;
    static unsigned char out[BIG];
    long long n[SCN_CASE_MAX_ARGS];
    size_t len = 0, nn = 0;
    int faulted = 0, ret = 0;
    if (nf && strcmp(r.first.oracle, "full-too-long")) {
        oracle = r.first.oracle;
        klass = r.first.klass;
        f = &r.first;
    } else {
        ret = own_output(&e->c, out, &len, n, &nn, &faulted);
        static struct scn_expect a;
        if (faulted) {
            oracle = "crash";
            klass = "memory-safety";
        } else if (x->kind == SCN_EXPECT_ERR) {
            /* C99 kinds: a negative return; scn kinds: 0 and "" (the error is not passed through) */
            if (is_scn ? (ret != 0 || len != 0) : ret >= 0) oracle = "expect.err";
        } else if (ret < 0 || len != x->len || memcmp(out, x->bytes, len) || (size_t)ret != len) {
            oracle = "expect.output";
        } else if (x->nn == 0) {
            for (size_t i = 0; i < nn; i++)
                if (n[i]) oracle = "expect.n";
        } else if (nn != x->nn || memcmp(n, x->n, sizeof(long long) * nn)) {
            oracle = "expect.n";
        }
        if (ret < 0 || faulted) {
            a.kind = SCN_EXPECT_ERR;
        } else {
            a.kind = SCN_EXPECT_OUTPUT;
            a.len = len;
            memcpy(a.bytes, out, len);
            a.nn = nn;
            memcpy(a.n, n, sizeof(long long) * nn);
        }
        scn_expect_format(&a, actual, sizeof actual);
    }
    int impl_ok = oracle && !strncmp(oracle, "expect.", 7) && !strcmp(e->kind, "impl");
    if (!oracle || impl_ok) n_pass++;
    else n_fail++;
    printf("{\"phase\":\"conform\",\"target\":\"%s\",\"category\":\"%s\",\"case\":", scn_cert_name, e->category);
    json_str(cur_case);
    printf(",\"kind\":\"%s\",\"status\":\"%s\",\"oracle\":", e->kind, (!oracle || impl_ok) ? "pass" : "fail");
    if (oracle) {
        printf("\"%s\",\"class\":\"%s\",\"expected\":", oracle, klass);
        json_str(expected);
        if (f) {
            char tmp[4096];
            scn_finding_json(f, tmp, sizeof tmp);
            printf(",\"finding\":%s,\"ret\":%ld,\"size\":%zu,\"family\":\"%s\",\"detail\":", tmp, f->ret, f->size,
                   scn_family_name(f->family));
            json_str(f->detail);
        } else {
            printf(",\"actual\":");
            json_str(actual);
            printf(",\"ret\":%d,\"size\":null", ret);
        }
        if (impl_ok) printf(",\"note\":\"impl-differs\"");
    } else {
        printf("null");
    }
    printf(",\"file\":");
    json_str(file);
    printf(",\"line\":%ld,\"citation\":", line);
    json_str(e->citation);
    printf("}\n");
    fflush(stdout);
}

static int cmd_conform(int argc, char **argv)
{
    cur_phase = "conform";
    struct scn_corpus_entry *e = malloc(sizeof *e);
    if (!e) return 3;
    char *line = NULL, err[300];
    size_t cap = 0;
    for (int i = 0; i < argc; i++) {
        FILE *fp = fopen(argv[i], "r");
        if (!fp) {
            fprintf(stderr, "scn-certify: cannot open %s\n", argv[i]);
            return 2;
        }
        ssize_t n;
        long ln = 0;
        while ((n = getline(&line, &cap, fp)) >= 0) {
            ln++;
            if (n && line[n - 1] == '\n') n--;
            int k = scn_corpus_parse_line(line, (size_t)n, e, err, sizeof err);
            if (k < 0) {
                fprintf(stderr, "scn-certify: %s:%ld: %s\n", argv[i], ln, err);
                return 2;
            }
            if (k > 0) conform_entry(e, argv[i], ln);
        }
        fclose(fp);
    }
    free(line);
    free(e);
    printf("{\"summary\":{\"phase\":\"conform\",\"pass\":%lu,\"fail\":%lu}}\n", n_pass, n_fail);
    return 0;
}

/* ---- retval: the return-value suite of the kind ---- */
static int cmd_retval(void)
{
    cur_phase = "retval";
    static struct scn_case c;
    static const char *const fmts[] = { "%s", "%s|", "%-*s|", "%*s", "%d", "%x%s", "%.3s%s" };
    unsigned long checked = 0, failed = 0;
    char s[80];
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
        for (int L = 0; L <= 66; L += (L < 20 ? 1 : 7)) {
            for (int j = 0; j < L; j++) s[j] = (char)('a' + j % 26);
            s[L] = 0;
            scn_case_init(&c, fmts[fi], strlen(fmts[fi]));
            if (!strcmp(fmts[fi], "%-*s|") || !strcmp(fmts[fi], "%*s")) {
                scn_case_add_int(&c, SCN_ARG_INT, L);
                scn_case_add_str(&c, "ab", 2);
            } else if (!strcmp(fmts[fi], "%d")) {
                scn_case_add_int(&c, SCN_ARG_INT, -(long long)L * 1234567);
            } else if (!strcmp(fmts[fi], "%x%s")) {
                scn_case_add_uint(&c, SCN_ARG_UINT, (unsigned long long)L * 0x1111u);
                scn_case_add_str(&c, s, (size_t)L);
            } else {
                scn_case_add_str(&c, s, (size_t)L);
                if (!strcmp(fmts[fi], "%.3s%s")) scn_case_add_str(&c, s, (size_t)L);
            }
            set_current(&c);
            struct scn_report r;
            size_t nf = scn_check_case(&ctx, &cert, &c, SCN_CHECK_ALL_SIZES | fam_flags, &r);
            checked++;
            if (nf && strcmp(r.first.oracle, "full-too-long")) {
                failed++;
                emit_finding("retval", &c, &r.first, r.first.oracle, r.first.klass, r.first.detail, NULL);
            }
        }
    }
    printf("{\"summary\":{\"phase\":\"retval\",\"cases\":%lu,\"fail\":%lu}}\n", checked, failed);
    return 0;
}

/* ---- fuzz: coverage-guided differential campaign ---- */
static size_t cov_total, cov_hit;
static int cov_new;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start) return;
    for (uint32_t *x = start; x < stop; x++) *x = 1;
    cov_total += (size_t)(stop - start);
}
void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    if (!*guard) return;
    *guard = 0;
    cov_hit++;
    cov_new = 1;
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

#define MAXIN 256
#define MAXCORP 2048
#define MAXSIG 64
static uint8_t corp[MAXCORP][MAXIN];
static size_t corp_len[MAXCORP], ncorp;
static char sigs[MAXSIG][200];
static size_t nsigs;
static unsigned long n_bug, n_impl;

static int seen_sig(const char *s)
{
    for (size_t i = 0; i < nsigs; i++)
        if (!strcmp(sigs[i], s)) return 1;
    if (nsigs < MAXSIG) snprintf(sigs[nsigs++], sizeof sigs[0], "%s", s);
    return 0;
}

static void fuzz_one(struct scn_case *c, unsigned long execs)
{
    set_current(c);
    struct scn_report r;
    char extra[64];
    snprintf(extra, sizeof extra, "\"execs\":%lu", execs);
    size_t nf = scn_check_case(&ctx, &cert, c, fam_flags | SCN_CHECK_NO_REPEAT, &r);
    if (nf && strcmp(r.first.oracle, "full-too-long")) {
        char sig[200];
        snprintf(sig, sizeof sig, "%s:%s", r.first.oracle, scn_family_name(r.first.family));
        if (!seen_sig(sig)) {
            n_bug++;
            emit_finding("fuzz", c, &r.first, r.first.oracle, r.first.klass, r.first.detail, extra);
        }
        return;
    }
    /* the differential: the reference's full C99 output vs the function's own */
    static unsigned char a[BIG], b[BIG];
    long long na[SCN_CASE_MAX_ARGS], nb[SCN_CASE_MAX_ARGS];
    size_t la = 0, lb = 0, nna = 0, nnb = 0;
    int ra = 0, in_guard = 0;
    char *buf;
    if (scn_oracle_call(&ctx, ref, SCN_FAM_C99, c, BIG, 0, &ra, &buf, &in_guard)) return;
    if (ra >= 0) {
        la = (size_t)ra < BIG ? (size_t)ra : strnlen(buf, BIG);
        memcpy(a, buf, la);
    }
    size_t idx[SCN_CASE_MAX_ARGS];
    nna = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nna; i++) na[i] = scn_case_n_value(c, idx[i]);
    int faulted = 0;
    int rb = own_output(c, b, &lb, nb, &nnb, &faulted);
    if (faulted) return; /* the oracles above saw it */
    if (is_scn && ra < 0) {
        if (rb != 0 || lb != 0) {
            char d[160];
            snprintf(d, sizeof d, "the reference fails (ret %d): a scnprintf must return 0 and \"\", got %d", ra, rb);
            if (!seen_sig("differential:error-ret")) {
                n_bug++;
                emit_finding("fuzz", c, NULL, "differential", "divergence", d, extra);
            }
        }
        return;
    }
    struct scn_diff_out outs[2] = {
        { ref, ra, a, la, nna, na },
        { &view, rb, b, lb, nnb, nb },
    };
    struct scn_diff_finding df;
    enum scn_diff_verdict v = scn_diff_compare(c, outs, 2, (enum scn_dialect)scn_cert_dialect, &df);
    if (v == SCN_DIFF_AGREE) return;
    if (seen_sig(df.signature)) return;
    if (v == SCN_DIFF_IMPL) n_impl++;
    else n_bug++;
    char ex[2048], q1[600], q2[600];
    scn_json_bytes(a, la < 200 ? la : 200, q1, sizeof q1);
    scn_json_bytes(b, lb < 200 ? lb : 200, q2, sizeof q2);
    snprintf(ex, sizeof ex, "%s,\"signature\":\"%s\",\"allowance\":\"%s\",\"outputs\":{\"reference\":{\"ret\":%d,\"bytes\":%s},\"%s\":{\"ret\":%d,\"bytes\":%s}}",
             extra, df.signature, df.allowance ? df.allowance->id : "", ra, q1, scn_cert_name, rb, q2);
    emit_finding("fuzz", c, NULL, "differential", df.klass, df.detail, ex);
}

static void mutate(uint8_t *d, size_t *n)
{
    int k = 1 + (int)(rnd() % 4);
    while (k--) {
        switch (rnd() % 5) {
        case 0: if (*n) d[rnd() % *n] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: if (*n) d[rnd() % *n] = (uint8_t)rnd(); break;
        case 2: if (*n < MAXIN) { size_t p = rnd() % (*n + 1); memmove(d + p + 1, d + p, *n - p); d[p] = (uint8_t)rnd(); (*n)++; } break;
        case 3: if (*n > 1) { size_t p = rnd() % *n; memmove(d + p, d + p + 1, *n - p - 1); (*n)--; } break;
        case 4: if (ncorp) { size_t o = rnd() % ncorp, p = rnd() % (*n + 1), q = rnd() % (corp_len[o] + 1);
                    size_t m = corp_len[o] - q; if (p + m > MAXIN) m = MAXIN - p; memcpy(d + p, corp[o] + q, m);
                    if (p + m > *n) *n = p + m; } break;
        }
    }
}

static int cmd_fuzz(double seconds, unsigned long long seed, unsigned decode_flags)
{
    cur_phase = "fuzz";
    rng_state = seed ? seed : 0x9e3779b97f4a7c15ull;
    static struct scn_case c;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long execs = 0;
    size_t cov_start = cov_hit;
    uint8_t in[MAXIN];
    for (;;) {
        if ((execs & 63) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
            if (el >= seconds || nsigs >= MAXSIG) break;
        }
        size_t n;
        if (ncorp && rnd() % 8) {
            size_t o = rnd() % ncorp;
            n = corp_len[o];
            memcpy(in, corp[o], n);
            mutate(in, &n);
        } else {
            n = 1 + rnd() % 96;
            for (size_t i = 0; i < n; i++) in[i] = (uint8_t)rnd();
        }
        scn_case_from_bytes(in, n, &c, (enum scn_dialect)scn_cert_dialect, decode_flags);
        cov_new = 0;
        fuzz_one(&c, execs);
        execs++;
        if (cov_new && ncorp < MAXCORP) {
            memcpy(corp[ncorp], in, n);
            corp_len[ncorp++] = n;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
    printf("{\"stats\":{\"phase\":\"fuzz\",\"executions\":%lu,\"seconds\":%.3f,\"coverage_edges\":%zu,"
           "\"coverage_total\":%zu,\"coverage_from_fuzz\":%zu,\"corpus\":%zu,\"bugs\":%lu,\"implementation_defined\":%lu,"
           "\"stopped_early\":%s}}\n",
           execs, el, cov_hit, cov_total, cov_hit - cov_start, ncorp, n_bug, n_impl,
           nsigs >= MAXSIG ? "true" : "false");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: scn-certify conform FILE.tsv... | retval | fuzz SECONDS SEED [DECODE_FLAGS]\n");
        return 2;
    }
    setup();
    if (!strcmp(argv[1], "conform")) return cmd_conform(argc - 2, argv + 2);
    if (!strcmp(argv[1], "retval")) return cmd_retval();
    if (!strcmp(argv[1], "fuzz") && argc >= 4)
        return cmd_fuzz(atof(argv[2]), strtoull(argv[3], NULL, 0),
                        argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 0);
    fprintf(stderr, "scn-certify: unknown command '%s'\n", argv[1]);
    return 2;
}
