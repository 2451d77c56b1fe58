/* The decoder's digest: one 64-bit FNV-1a hash of the text form (and the
 * bytes consumed) of every case scn_case_from_bytes makes from the fuzzers'
 * seeds (corpus/fuzz/<fuzzer>/, fuzz/make_seeds.py, ctrl byte dropped) and
 * from 100,000 pseudo-random inputs of a fixed seed (fewer when asked), each decoded under
 * every dialect and flag set below.
 *
 * A refactoring of the decoder (core/case/case_decode*.c) keeps the digest
 * printed: compare it before and after (the commit message says it was the
 * same). A change of what the decoder makes changes it, on purpose.
 *
 * The test itself asserts that decoding is a function of its input alone:
 * the same digest in reverse order (the decoder keeps scratch state between
 * calls, and a case made from leftovers of the previous input would differ).
 *
 *   test_case_decode_digest [--random N] [SEED_DIR]
 *
 * N random inputs (default and at most 100,000: the recorded digests are of
 * those; ctest runs fewer, for time), SEED_DIR by default the repository's
 * corpus/fuzz. */
#define _GNU_SOURCE
#include "case.h"
#include "check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANDOM_INPUTS_MAX 100000
#define INPUT_MAX_BYTES 320
#define MAX_INPUTS (RANDOM_INPUTS_MAX + 4096)

static const struct { enum scn_dialect d; unsigned flags; } decodings[] = {
    { SCN_DIALECT_ISO, 0 },
    { SCN_DIALECT_ISO, SCN_DECODE_ROBUST },
    { SCN_DIALECT_ISO, SCN_DECODE_C23 },
    { SCN_DIALECT_ISO, SCN_DECODE_C23 | SCN_DECODE_ROBUST | SCN_DECODE_HUGE },
    { SCN_DIALECT_ISO, SCN_DECODE_C23 | SCN_DECODE_NO_BINARY | SCN_DECODE_SHORT_LD },
    { SCN_DIALECT_ISO, SCN_DECODE_NO_FLOAT | SCN_DECODE_NO_N | SCN_DECODE_NO_WIDE },
    { SCN_DIALECT_ISO, SCN_DECODE_NO_POSITIONAL | SCN_DECODE_ROBUST | SCN_DECODE_SHORT_LD },
    { SCN_DIALECT_KERNEL, 0 },
    { SCN_DIALECT_KERNEL, SCN_DECODE_ROBUST },
    { SCN_DIALECT_KERNEL, SCN_DECODE_KPTR },
    { SCN_DIALECT_KERNEL, SCN_DECODE_KPTR | SCN_DECODE_ROBUST },
};

struct input { unsigned char *p; size_t n; };
static struct input inputs[MAX_INPUTS];
static size_t ninputs;

static void add_input(const unsigned char *p, size_t n)
{
    if (ninputs >= MAX_INPUTS) return;
    inputs[ninputs].p = malloc(n ? n : 1);
    memcpy(inputs[ninputs].p, p, n);
    inputs[ninputs++].n = n;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* every file of every fuzzer's seed directory, in name order, without its ctrl byte */
static size_t read_seeds(const char *root)
{
    struct dirent **fz;
    size_t before = ninputs;
    int nf = scandir(root, &fz, NULL, by_name);
    for (int i = 0; i < nf; i++) {
        char dir[4096];
        struct dirent **files;
        snprintf(dir, sizeof dir, "%s/%s", root, fz[i]->d_name);
        int nfiles = fz[i]->d_name[0] == '.' ? -1 : scandir(dir, &files, NULL, by_name);
        for (int j = 0; j < nfiles; j++) {
            char path[8192];
            unsigned char buf[4096];
            snprintf(path, sizeof path, "%s/%s", dir, files[j]->d_name);
            FILE *f = files[j]->d_name[0] == '.' ? NULL : fopen(path, "rb");
            if (f) {
                size_t n = fread(buf, 1, sizeof buf, f);
                fclose(f);
                if (n) add_input(buf + 1, n - 1);
            }
            free(files[j]);
        }
        if (nfiles >= 0) free(files);
        free(fz[i]);
    }
    if (nf >= 0) free(fz);
    return ninputs - before;
}

static void add_random_inputs(int count)
{
    uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64, a fixed seed */
    unsigned char buf[INPUT_MAX_BYTES];
    for (int i = 0; i < count; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = (size_t)(x % INPUT_MAX_BYTES);
        for (size_t k = 0; k < n; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[k] = (unsigned char)(x >> 32);
        }
        add_input(buf, n);
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    return h;
}

/* the digest of input i under every decoding */
static uint64_t input_digest(size_t i, struct scn_case *c, char *text, size_t cap)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t d = 0; d < sizeof decodings / sizeof decodings[0]; d++) {
        uint64_t used = scn_case_from_bytes(inputs[i].p, inputs[i].n, c, decodings[d].d, decodings[d].flags);
        size_t len = scn_case_format(c, text, cap);
        h = fnv(h, &used, sizeof used);
        h = fnv(h, text, len < cap ? len : cap - 1);
        h = fnv(h, "\n", 1);
    }
    return h;
}

int main(int argc, char **argv)
{
    static struct scn_case c;
    static char text[1 << 16];
    static uint64_t fwd[MAX_INPUTS];
    int random_inputs = RANDOM_INPUTS_MAX, a = 1;
    if (argc > 2 && !strcmp(argv[1], "--random")) {
        random_inputs = atoi(argv[2]);
        if (random_inputs < 0 || random_inputs > RANDOM_INPUTS_MAX) random_inputs = RANDOM_INPUTS_MAX;
        a = 3;
    }
    const char *seed_dir = argc > a ? argv[a] : SCN_TEST_SEED_DIR;
    size_t seeds = read_seeds(seed_dir);
    CHECK(seeds > 0, "no seeds read from %s", seed_dir);
    add_random_inputs(random_inputs);
    uint64_t all = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < ninputs; i++) {
        fwd[i] = input_digest(i, &c, text, sizeof text);
        all = fnv(all, &fwd[i], sizeof fwd[i]);
    }
    size_t differ = 0;
    for (size_t i = ninputs; i-- > 0;)
        if (input_digest(i, &c, text, sizeof text) != fwd[i] && differ++ == 0)
            CHECK(0, "input %zu decodes otherwise after input %zu", i, i + 1);
    CHECK(differ == 0, "%zu inputs decode otherwise in reverse order", differ);
    printf("decoder digest %016llx (%zu seeds + %d random inputs, %zu decodings each)\n",
           (unsigned long long)all, seeds, random_inputs, sizeof decodings / sizeof decodings[0]);
    for (size_t i = 0; i < ninputs; i++) free(inputs[i].p);
    return check_summary("test_case_decode_digest");
}
