/* libFuzzer (and AFL++ driver) harness: see fuzz_core.h and fuzz_configs.c ("ref"). */
#include <stdlib.h>

#include "fuzz_core.h"

FZ_DEFINE_FUZZER("ref")
