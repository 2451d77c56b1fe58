/* libFuzzer (and AFL++ driver) harness: see fuzz_core.h and fuzz_configs.c
 * ("matrix": the implementation env SCN_MATRIX_TARGET names, beside the
 * reference; `scnfuzz matrix` sets it for each implementation). */
#include <stdlib.h>

#include "fuzz_core.h"

FZ_DEFINE_FUZZER("matrix")
