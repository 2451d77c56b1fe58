/* Runs small() (small.c, its mutants, or its schema) on the pairs "a b" given after
 * the first argument N, once for each mutant id 0..N: the id goes in scn_mutant,
 * which the schema reads (and test_mutator.py's table of apply() mutants). One line
 * per id and pair: the result, "signal N", or "hang". Each call runs in a child
 * under a CPU-time limit: a mutant may loop forever or divide by zero. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

int small(int a, int b);
int scn_mutant;

static int run(const char *a, const char *b)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* CPU time, not wall time: a loaded machine does not make a call a hang;
         * a call that ends takes some microseconds, 20 ms is a loop */
        struct itimerval limit = {{0, 0}, {0, 20000}};
        setitimer(ITIMER_VIRTUAL, &limit, NULL);
        printf("%d %s %s: %d\n", scn_mutant, a, b, small(atoi(a), atoi(b)));
        fflush(stdout);
        _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGVTALRM)
        printf("%d %s %s: hang\n", scn_mutant, a, b);
    else if (WIFSIGNALED(st))
        printf("%d %s %s: signal %d\n", scn_mutant, a, b, WTERMSIG(st));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int last = atoi(argv[1]);
    for (scn_mutant = 0; scn_mutant <= last; scn_mutant++)
        for (int i = 2; i + 1 < argc; i += 2)
            if (run(argv[i], argv[i + 1]) < 0)
                return 2;
    return 0;
}
