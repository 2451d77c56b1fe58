/* The system calls uClibc-ng's vsnprintf links but never makes, compiled
 * against uClibc-ng's headers and localized with its objects.
 *
 * vsnprintf writes into a FILE whose buffer is the caller's and whose file
 * descriptor is the fake __STDIO_STREAM_FAKE_VSNPRINTF_FILEDES: __stdio_fwrite
 * copies into that buffer and never commits it (_wcommit.c -> _WRITE.c ->
 * write), and the stream starts in writing mode, so fwrite_unlocked never
 * switches it (_trans2w.c -> fseek). Those objects are still linked; these
 * definitions close them without a system call, and trap if ever reached. */
#include <stdio.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    __builtin_trap();
}
libc_hidden_def(write)

int fseek(FILE *stream, long offset, int whence)
{
    (void)stream;
    (void)offset;
    (void)whence;
    __builtin_trap();
}
libc_hidden_def(fseek)
