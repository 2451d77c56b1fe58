/* The run-time mutant switch of a mutation build (`./scnfuzz mutate`,
 * runner/scnfuzz/mutate.py).
 *
 * A mutation build compiles one printf source file as a mutant schema
 * (runner/scnfuzz/mutator.py): every mutant of the file in one object, each
 * guarded by a test of the global `scn_mutant`, so that one build runs any
 * mutant and the unmodified target side by side. mutant_switch.c defines that
 * global once for every program that links a target and sets it before
 * main() from the environment:
 *
 *   SCN_MUTANT unset, "" or 0   the original (every other build: no schema)
 *   SCN_MUTANT=N (N >= 1)       mutant N
 *   SCN_MUTANT=-1               the original, noting each mutation point it
 *                               reaches (scn_mutant_reach below): which
 *                               mutants a case can kill at all
 *
 * Anything else ends the program (exit 2): a typo must not run the original
 * under a mutant's name. The schema's guards are the macro SCN_MUTANT_IS(n),
 * which mutate.py defines in front of the schema (the source under -nostdinc
 * includes nothing of ours), which also declares scn_mutant const there: it
 * is set before main() and never again, so the schema's code may load it once:
 *   (scn_mutant == (n) || (scn_mutant < 0 && !scn_mutant_seen[n] && scn_mutant_reach(n)))
 */
#ifndef SCN_MUTANT_SWITCH_H
#define SCN_MUTANT_SWITCH_H

#include <stddef.h>

extern int scn_mutant;

enum { SCN_MUTANT_MAX = 1 << 16 }; /* mutant ids are 1..SCN_MUTANT_MAX-1 */

/* Called by a guard when scn_mutant is -1 and scn_mutant_seen[n] is 0:
 * notes that mutant n's point was reached (scn_mutant_seen[n] = 1, so that
 * the guard's next evaluations cost a load, not a call) and returns 0 (the
 * original's branch is taken). */
int scn_mutant_reach(int n);
extern unsigned char scn_mutant_seen[SCN_MUTANT_MAX];

/* The mutants reached since the last call, in increasing order (at most cap
 * of them into ids; the count of all is returned), and forgets them. */
size_t scn_mutant_reached(int *ids, size_t cap);

#endif /* SCN_MUTANT_SWITCH_H */
