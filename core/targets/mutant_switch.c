/* See mutant_switch.h. Checking machinery: no coverage instrumentation. */
#include "mutant_switch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scn_mutant;

unsigned char scn_mutant_seen[SCN_MUTANT_MAX];
static int lowest = SCN_MUTANT_MAX, highest; /* the span of ids noted since the last scn_mutant_reached() */

int scn_mutant_reach(int n)
{
    if (n > 0 && n < SCN_MUTANT_MAX && !scn_mutant_seen[n]) {
        scn_mutant_seen[n] = 1;
        if (n < lowest) lowest = n;
        if (n > highest) highest = n;
    }
    return 0;
}

size_t scn_mutant_reached(int *ids, size_t cap)
{
    size_t k = 0;
    for (int n = lowest; n <= highest; n++) {
        if (!scn_mutant_seen[n]) continue;
        scn_mutant_seen[n] = 0;
        if (k < cap) ids[k] = n;
        k++;
    }
    lowest = SCN_MUTANT_MAX;
    highest = 0;
    return k;
}

__attribute__((constructor)) static void scn_mutant_from_env(void)
{
    const char *s = getenv("SCN_MUTANT");
    if (!s || !*s) return;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < -1 || v >= SCN_MUTANT_MAX) {
        fprintf(stderr, "SCN_MUTANT=%s: not a mutant id (0: the original, 1..%d, -1: note the points reached)\n",
                s, SCN_MUTANT_MAX - 1);
        exit(2);
    }
    scn_mutant = (int)v;
}
