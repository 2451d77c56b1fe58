/* Helpers of the C tests that work on cases (beside check.h): a case from
 * its text (a test's own text: a syntax error stops the test), and a small
 * seeded pseudo-random source for generated inputs. */
#ifndef SCN_TEST_CHECK_CASE_H
#define SCN_TEST_CHECK_CASE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

/* The case of text, in a static case (valid until the next call). */
static inline struct scn_case *parse(const char *text)
{
    static struct scn_case c;
    char e[200];
    if (scn_case_parse(text, strlen(text), &c, e, sizeof e)) {
        fprintf(stderr, "bad case %s: %s\n", text, e);
        exit(2);
    }
    return &c;
}

/* xorshift64: the same sequence on every run (set check_rs to reseed) */
static uint64_t check_rs = 0x2545f4914f6cdd1dull;
static inline uint64_t rnd(void)
{
    check_rs ^= check_rs << 13;
    check_rs ^= check_rs >> 7;
    check_rs ^= check_rs << 17;
    return check_rs;
}

#endif
