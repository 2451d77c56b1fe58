/* scn-launch: runs a command as a child of the one supervisor's rules, for
 * the Python runner, which starts its children through it instead of arming
 * the parent-death signal itself:
 *
 *   scn-launch PARENT SIG MEM_MB -- COMMAND [ARG...]
 *
 * The launcher is the child the runner (pid PARENT) forked: it arms signal
 * SIG for the death of its parent (scn_die_with_parent: the signal stays
 * armed across exec), turns core files off, limits the address space to
 * MEM_MB MiB (0: no limit) and execs COMMAND in its own place. When PARENT
 * has already ended, nobody would send the signal: it takes it at once.
 * Exit 127 (126) with a message when COMMAND cannot be found (run). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "supervise.h"

static long number(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0) {
        fprintf(stderr, "scn-launch: %s: not a number: %s\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 6 || strcmp(argv[4], "--")) {
        fprintf(stderr, "usage: scn-launch PARENT SIG MEM_MB -- COMMAND [ARG...]\n");
        return 2;
    }
    pid_t parent = (pid_t)number(argv[1], "PARENT");
    int sig = (int)number(argv[2], "SIG");
    unsigned long mb = (unsigned long)number(argv[3], "MEM_MB");
    if (scn_die_with_parent(sig, parent)) raise(sig); /* the parent ended before the signal was armed */
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    scn_limit_memory(mb);
    execvp(argv[5], argv + 5);
    int err = errno;
    fprintf(stderr, "scn-launch: %s: %s\n", argv[5], strerror(err));
    return err == ENOENT ? 127 : 126;
}
