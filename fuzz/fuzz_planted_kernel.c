/* libFuzzer (and AFL++ driver) harness: see fuzz_core.h and fuzz_configs.c ("planted_kernel"). */
#include <stdlib.h>

#include "fuzz_core.h"

FZ_DEFINE_FUZZER("planted_kernel")
