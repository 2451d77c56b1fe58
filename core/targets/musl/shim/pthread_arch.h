/* scnfuzz: stands in for musl's arch/x86_64/pthread_arch.h (this directory is
 * searched first). musl reads its thread pointer from %fs:0, which in a glibc
 * process is glibc's TCB: musl would then take glibc's memory for its
 * `struct pthread` (errno, locale, ...). Here the thread pointer comes from
 * scn_musl_tp.c instead: a thread-local fake struct pthread owned by us. */
__attribute__((__visibility__("hidden"), __const__)) uintptr_t __get_tp(void);

#define MC_PC gregs[REG_RIP]
