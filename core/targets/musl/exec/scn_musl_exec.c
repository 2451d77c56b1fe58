/* scn-musl-exec: the real, installed musl (musl-dev's libc.a, linked with
 * `musl-gcc -static`) answering printf cases in its own process.
 * Protocol (version 1), see core/targets/musl/README.md:
 *   start:    the executor writes   "scn-exec 1 musl <version>\n"
 *   request:  one case per line, docs/CASE_FORMAT.md text form
 *   response: per buffer size one  "= <size> <ret> <quoted> [n=V,...] [errno=E] [nonul] [overrun]"
 *             (or one "! <message>" when the line is not a case), then "."
 * stdin EOF: exit 0. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

#ifndef SCN_MUSL_EXEC_VERSION
#define SCN_MUSL_EXEC_VERSION "musl (unknown version)"
#endif

#define DEFAULT_SIZE ((size_t)65536)
#define MAX_ALLOC ((size_t)1 << 26)
#define GUARD 64
#define GUARD_BYTE 0xa5

static struct scn_case the_case;

static int call_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return vsnprintf(buf, size, fmt, ap);
}

static void answer(struct scn_case *c, size_t size)
{
    size_t alloc = size;
    if (size > MAX_ALLOC) {
        if (size <= (size_t)INT_MAX) {
            printf("! size %zu too large for the executor\n", size);
            return;
        }
        alloc = DEFAULT_SIZE; /* > INT_MAX: the call must fail before writing */
    }
    unsigned char *buf = malloc(alloc + GUARD);
    if (!buf) {
        printf("! out of memory for size %zu\n", size);
        return;
    }
    memset(buf, GUARD_BYTE, alloc + GUARD);
    errno = 0;
    int ret = scn_case_call(call_vsnprintf, c, (char *)buf, size);
    int err = errno;

    /* The output: the buffer up to its NUL. Not shown when the call failed
     * (the contents are then unspecified) or when size is 0. */
    size_t shown = 0;
    int nonul = 0;
    if (ret >= 0 && size > 0) {
        const unsigned char *nul = memchr(buf, 0, alloc);
        if (nul)
            shown = (size_t)(nul - buf);
        else
            nonul = 1;
    }
    int overrun = 0;
    for (size_t i = size == 0 ? 0 : alloc; i < alloc + GUARD; i++)
        if (buf[i] != GUARD_BYTE) overrun = 1;

    size_t q = scn_quoted_format((const char *)buf, shown, NULL, 0);
    char *quoted = malloc(q + 1);
    if (!quoted) {
        printf("! out of memory for the output (size %zu)\n", size);
        free(buf);
        return;
    }
    scn_quoted_format((const char *)buf, shown, quoted, q + 1);
    printf("= %zu %d %s", size, ret, quoted);
    size_t idx[SCN_CASE_MAX_ARGS];
    size_t nn = scn_case_n_args(c, idx, SCN_CASE_MAX_ARGS);
    for (size_t i = 0; i < nn; i++)
        printf("%s%lld", i ? "," : " n=", scn_case_n_value(c, idx[i]));
    if (ret < 0) printf(" errno=%d", err);
    if (nonul) printf(" nonul");
    if (overrun) printf(" overrun");
    putchar('\n');
    free(quoted);
    free(buf);
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    char err[256];

    printf("scn-exec 1 musl %s\n", SCN_MUSL_EXEC_VERSION);
    fflush(stdout);
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (scn_case_parse(line, (size_t)len, &the_case, err, sizeof err) != 0) {
            printf("! %s\n", err);
        } else if (the_case.nsizes == 0) {
            answer(&the_case, DEFAULT_SIZE);
        } else {
            for (size_t i = 0; i < the_case.nsizes; i++)
                answer(&the_case, the_case.sizes[i]);
        }
        puts(".");
        fflush(stdout);
    }
    free(line);
    return 0;
}
