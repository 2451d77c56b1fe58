/* scnfuzz shim for musl's printf built in-process beside glibc.
 * Compiled with musl's own headers (-nostdinc), linked into the same
 * relocatable object as musl's sources, and localized like them. */
#include "pthread_impl.h"
#include "stdio_impl.h"
#include "libc.h"

/* One fake musl thread struct per (glibc) thread. initial-exec: no
 * __tls_get_addr call, no dependency on glibc's dynamic TLS. */
static __thread struct pthread scn_musl_thread
	__attribute__((__tls_model__("initial-exec")));

uintptr_t __get_tp(void)
{
	struct pthread *self = &scn_musl_thread;
	if (!self->self) {
		self->self = self;
		/* musl's global locale with every category NULL: the C locale
		 * (MB_CUR_MAX 1, untranslated messages). */
		self->locale = &libc.global_locale;
	}
	return (uintptr_t)self;
}

/* The FILE that vsnprintf builds on its stack has lock = -1, so musl never
 * locks it; these satisfy fwrite.c's references without futex code. */
int __lockfile(FILE *f)
{
	(void)f;
	return 0;
}

void __unlockfile(FILE *f)
{
	(void)f;
}

/* Only reached from __towrite_needs_stdio_exit (fopen'ed files at exit),
 * which string formatting never uses. */
void __stdio_exit_needed(void)
{
}
