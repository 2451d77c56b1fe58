/* HOSTILE: forks a child that sleeps 30 s and is never waited for. */
#include <unistd.h>

#include "hostile_common.h"

int hostile_fork(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (fork() == 0) {
        sleep(30);
        _exit(0);
    }
    return vsnprintf(buf, size, fmt, ap);
}
