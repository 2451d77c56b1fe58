/* Runs small() (small.c, a mutant of it, or its schema) on the pairs "a b" given as
 * arguments, one line per pair: the result, "signal N", or "hang". Each call runs in a
 * child under a CPU-time limit: a mutant may loop forever or divide by zero. The
 * schema's switch is set here from env SCN_MUTANT, as the suite's own switch does. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

int small(int a, int b);
int scn_mutant;

int main(int argc, char **argv)
{
    const char *m = getenv("SCN_MUTANT");
    scn_mutant = m ? atoi(m) : 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            /* CPU time, not wall time: a loaded machine does not make a call a hang;
             * a call that ends takes some microseconds */
            struct itimerval limit = {{0, 0}, {0, 100000}};
            setitimer(ITIMER_VIRTUAL, &limit, NULL);
            printf("%s %s: %d\n", argv[i], argv[i + 1], small(atoi(argv[i]), atoi(argv[i + 1])));
            fflush(stdout);
            _exit(0);
        }
        int st;
        if (waitpid(pid, &st, 0) < 0)
            return 2;
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGVTALRM)
            printf("%s %s: hang\n", argv[i], argv[i + 1]);
        else if (WIFSIGNALED(st))
            printf("%s %s: signal %d\n", argv[i], argv[i + 1], WTERMSIG(st));
    }
    return 0;
}
