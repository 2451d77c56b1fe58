/* The one check helper of the C tests: CHECK(cond, fmt, ...) counts and
 * reports a failed condition with its place; check_summary() ends main().
 *
 * KNOWN_BUG(cond, fmt, ...) is a check of the correct behaviour (cond) where
 * the library has a reported, not yet fixed bug: while cond fails it is
 * listed (not a failure), and once cond holds it fails, saying that the bug
 * is fixed and the KNOWN_BUG should become a CHECK. */
#ifndef SCN_TEST_CHECK_H
#define SCN_TEST_CHECK_H

#include <stdio.h>

static int failures, checks, known_bugs;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

#define KNOWN_BUG(cond, ...)                                                                 \
    do {                                                                                     \
        checks++;                                                                            \
        if (!(cond)) {                                                                       \
            known_bugs++;                                                                    \
            fprintf(stderr, "%s:%d: KNOWN BUG (reported, not counted) %s: ", __FILE__, __LINE__, #cond); \
        } else {                                                                             \
            failures++;                                                                      \
            fprintf(stderr, "%s:%d: FAIL known bug fixed, make it a CHECK: %s: ", __FILE__, __LINE__, #cond); \
        }                                                                                    \
        fprintf(stderr, __VA_ARGS__);                                                        \
        fputc('\n', stderr);                                                                 \
    } while (0)

static inline int check_summary(const char *name)
{
    if (failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, failures, checks);
        return 1;
    }
    if (known_bugs) printf("%s: %d checks passed, %d known bugs (listed above)\n", name, checks - known_bugs, known_bugs);
    else printf("%s: all %d checks passed\n", name, checks);
    return 0;
}

#endif
