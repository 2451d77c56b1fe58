/* A plain main() for a libFuzzer harness (bench/fuzz_throughput.sh): runs
 * each file given once through LLVMFuzzerTestOneInput, as libFuzzer does
 * with file arguments, in a build without a fuzzing engine (gcc --coverage).
 * Set SCN_FUZZ_CONTINUE=1 so that findings do not abort the replay. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t r;
        while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
            n += r;
            if (n == cap) buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) return 2;
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
