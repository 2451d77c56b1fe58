/* libFuzzer (and AFL++ driver) harness: see fuzz_core.h and fuzz_configs.c ("kernel_diff"). */
#include <stdlib.h>

#include "fuzz_core.h"

FZ_DEFINE_FUZZER("kernel_diff")
