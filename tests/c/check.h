/* The one check helper of the C tests: CHECK(cond, fmt, ...) counts and
 * reports a failed condition with its place; check_summary() ends main(). */
#ifndef SCN_TEST_CHECK_H
#define SCN_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

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

static inline int check_summary(const char *name)
{
    if (failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, failures, checks);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, checks);
    return 0;
}

#endif
