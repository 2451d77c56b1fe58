/* What newlib's printf path needs from the rest of newlib and is not worth
 * building from its source (compiled against newlib's headers, localized by
 * musl-objlink.sh like newlib's own objects):
 *
 * - the reentrant allocator: mprec.c's Balloc (the big integers of
 *   _ldtoa_r) and vfprintf.c's buffers for long conversions call
 *   _malloc_r/_calloc_r/_realloc_r/_free_r. newlib's malloc (mallocr.c) wants
 *   sbrk and its own locks; the process's malloc (glibc's, or ASan's, which
 *   then checks newlib's use of it) serves instead. The reent argument only
 *   selects newlib's errno, which nothing here reads.
 * - __assert_func (mprec.c, ldtoa.c): newlib's prints through its own
 *   stdio; a failed newlib assertion just aborts here. */
#include <reent.h>
#include <stdlib.h>

void *_malloc_r(struct _reent *r, size_t n)
{
    (void)r;
    return malloc(n);
}

void *_calloc_r(struct _reent *r, size_t count, size_t n)
{
    (void)r;
    return calloc(count, n);
}

void *_realloc_r(struct _reent *r, void *p, size_t n)
{
    (void)r;
    return realloc(p, n);
}

void _free_r(struct _reent *r, void *p)
{
    (void)r;
    free(p);
}

void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    (void)file;
    (void)line;
    (void)func;
    (void)expr;
    abort();
}
