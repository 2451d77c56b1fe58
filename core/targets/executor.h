/* The executor target: any libc's printf in its own process
 * (programs/exec/scn_exec.c, built with that libc's compiler driver), seen as
 * a struct scn_target. The client side of the executor protocol
 * (programs/exec/README.md): the child is started with the memory limit
 * (env SCN_CHILD_MEM_MB, default 1024 MiB; 0: none) and dies with this
 * process; a crash or hang of the child is noted and it is restarted on the
 * next call.
 *
 * A call is answered from what the executor said about the case: on the
 * first call for a case (a case not seen just before), one `*` request asks
 * for the C99 call and both families at every buffer size the oracles try
 * (SCN_CHECK_ALL_SIZES) plus the size of that call, and each of those answers
 * serves one call; any other call (a size not in the batch, the same
 * family and size again) is one `#` round trip. Every call of the oracles is
 * so one real call in the executor, and the buffer, return value, %n values
 * and errno are put back as the libc left them (the buffer up to
 * min(ret, size - 1) and its NUL; the bytes after are not known).
 *
 * The case of a call is found from its format pointer: the target may only be
 * called through scn_case_call (core/case), which always passes c->fmt.
 * One executor per process (the target's functions have no context); not
 * thread-safe. SIGPIPE is ignored once the executor is started.
 */
#ifndef SCN_EXECUTOR_H
#define SCN_EXECUTOR_H

#include <stddef.h>

#include "target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the executor at exe_path and reads its banner
 * ("scn-exec 2 <name> <version>"). name NULL: the banner's name. Returns the
 * target (dialect ISO, version from the banner, where "executor"), or NULL
 * with a message in err when it does not start. A second call replaces the
 * first executor. */
const struct scn_target *scn_executor_target(const char *exe_path, const char *name, char *err, size_t errcap);

/* 1 when t is the executor target. */
int scn_is_executor(const struct scn_target *t);

enum scn_exec_fault {
    SCN_EXEC_OK = 0,
    SCN_EXEC_OVERRUN, /* a call wrote outside its buffer (the executor's guard bytes) */
    SCN_EXEC_HANG,    /* no answer within the time limit: the executor was killed */
    SCN_EXEC_CRASH    /* the executor died (a fatal signal, or no answer at all) */
};

/* What the executor saw since the last scn_executor_clear(): the worst fault
 * of the calls, the first call that showed it, and the executor's words. */
struct scn_exec_status {
    enum scn_exec_fault fault;
    int scn_family;       /* that call: 0 the C99 family, 1 the scn family */
    size_t size;          /* its buffer size */
    const char *klass;    /* its class: "memory-safety", "crash", "hang" (core/supervise/end.c) */
    char why[300];        /* how the executor ended, in the one supervisor's words ("the process died of
                           * SIGSEGV during a call at size 5"), or a guard bytes' overrun */
};
void scn_executor_clear(void);
const struct scn_exec_status *scn_executor_status(void);

/* Times the executor was (re)started after a crash or hang. */
unsigned long scn_executor_restarts(void);

/* Ends the executor (at exit; the next call starts it again). */
void scn_executor_stop(void);

#ifdef __cplusplus
}
#endif

#endif /* SCN_EXECUTOR_H */
