/* Throughput and instruction-count benchmark: the reference engine against
 * glibc's vsnprintf (and musl's when that target is built) on a fixed mix.
 *
 *   bench_printf [--impl NAME] [--workload NAME] [--iters N]
 *
 * Prints one line per (impl, workload): calls, seconds, calls/s. Under
 * `valgrind --tool=callgrind --toggle-collect=bench_run_*` the instruction
 * count of the measured loop alone is collected (bench/run.sh does that).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scn/ref_printf.h"

typedef int (*vfn)(char *, size_t, const char *, va_list);

#ifdef SCN_BENCH_MUSL
int musl_vsnprintf(char *, size_t, const char *, va_list);
#endif

static const struct impl { const char *name; vfn fn; } impls[] = {
    {"ref", ref_vsnprintf},
    {"glibc", vsnprintf},
#ifdef SCN_BENCH_MUSL
    {"musl", musl_vsnprintf},
#endif
};

static int call(vfn fn, char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = fn(buf, size, fmt, ap);
    va_end(ap);
    return r;
}

/* Each workload runs a fixed list of calls; its cost is per call. */
static const double dvals[] = {3.14159265358979, 1e-5, 123456.789, 6.02214076e23, 0.1, 2.5, -7.75e-300, 1.0/3};
#define ND (sizeof dvals / sizeof dvals[0])

static unsigned long sink_sum; /* keeps the calls from being optimised away */

__attribute__((noinline)) static void bench_run_int_str(vfn fn, long iters)
{
    char buf[256];
    for (long i = 0; i < iters; i++) {
        int k = (int)(i & 7);
        sink_sum += (unsigned)call(fn, buf, sizeof buf, "%d", (int)i * 7919 - 4000);
        sink_sum += (unsigned)call(fn, buf, sizeof buf, "id=%u name=%s", (unsigned)i, "scnfuzz");
        sink_sum += (unsigned)call(fn, buf, sizeof buf, "%08x %-10s|", (unsigned)(i * 2654435761u), k ? "ab" : "abcdefgh");
        sink_sum += (unsigned)call(fn, buf, sizeof buf, "%lld %5.3s %c", (long long)i << 20, "truncate", 'A' + k);
        sink_sum += (unsigned)call(fn, buf, sizeof buf, "%p %zu", (void *)(buf + k), (size_t)i);
    }
}

#define FLOAT_BENCH(NAME, FMT)                                              \
    __attribute__((noinline)) static void bench_run_##NAME(vfn fn, long iters) \
    {                                                                       \
        char buf[512];                                                      \
        for (long i = 0; i < iters; i++)                                    \
            sink_sum += (unsigned)call(fn, buf, sizeof buf, FMT, dvals[i % ND]); \
    }
FLOAT_BENCH(g17, "%.17g")
FLOAT_BENCH(f, "%f")
FLOAT_BENCH(f3, "%.3f")
FLOAT_BENCH(e6, "%e")
FLOAT_BENCH(e12, "%.12e")
FLOAT_BENCH(g, "%g")

static const struct workload {
    const char *name;
    void (*run)(vfn, long);
    int calls_per_iter;
} workloads[] = {
    {"int_str", bench_run_int_str, 5},
    {"%.17g", bench_run_g17, 1},
    {"%f", bench_run_f, 1},
    {"%.3f", bench_run_f3, 1},
    {"%e", bench_run_e6, 1},
    {"%.12e", bench_run_e12, 1},
    {"%g", bench_run_g, 1},
};

int main(int argc, char **argv)
{
    const char *only_impl = NULL, *only_wl = NULL;
    long iters = 200000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--impl") && i + 1 < argc) only_impl = argv[++i];
        else if (!strcmp(argv[i], "--workload") && i + 1 < argc) only_wl = argv[++i];
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--impl ref|glibc|musl] [--workload NAME] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    int matched = 0;
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
        if (only_wl && strcmp(only_wl, workloads[w].name)) continue;
        for (size_t m = 0; m < sizeof impls / sizeof impls[0]; m++) {
            if (only_impl && strcmp(only_impl, impls[m].name)) continue;
            matched++;
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            workloads[w].run(impls[m].fn, iters);
            clock_gettime(CLOCK_MONOTONIC, &b);
            double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
            long calls = iters * workloads[w].calls_per_iter;
            printf("%-6s %-8s calls=%ld seconds=%.4f calls_per_s=%.0f\n", impls[m].name,
                   workloads[w].name, calls, s, calls / s);
        }
    }
    if (!matched) {
        fprintf(stderr, "bench_printf: no implementation/workload matched\n");
        return 2;
    }
    return sink_sum == 42 ? 3 : 0;
}
