/* scnfuzz target "kernel": the Linux kernel's own lib/vsprintf.c (Debian's
 * linux-source-6.1), compiled unmodified in userspace against the project's
 * shim headers and linked in-process under kern_* names (see CMakeLists.txt).
 *
 * Kernel behaviours that differ from ISO C (all from lib/vsprintf.c 6.1):
 *   - no floating point (%f %e %g %a), no %n, no 'j'/'q' lengths, no %C %S %m:
 *     such a conversion WARNs and formatting stops there (the output so far
 *     is kept and NUL-terminated; the return value counts only it);
 *   - %lc and %ls ignore the 'l': one byte of the int, a char string;
 *   - 'l' is long, but 'L' is long long (like "ll"); "hh" is char;
 *   - %p prints the address (here raw, like %px: no_hash_pointers is set)
 *     as 16 lower-case hex digits, zero-padded, no "0x"; %p<alnum...> are
 *     extensions and consume all the alphanumerics after the 'p';
 *   - %s of NULL prints "(null)", of a pointer below 4096 or an ERR_PTR
 *     "(efault)";
 *   - "%#x" of 0 is "0x0"; "%.0d" of 0 is "0" (precision 0 still prints it);
 *   - a negative precision from '*' means 0, not "omitted": "%.*s" with -1
 *     prints nothing;
 *   - %c ignores the 0 flag; "%5%" is "%" (width ignored);
 *   - width/precision live in 24-bit/16-bit fields: a '*' value that does not
 *     fit is clamped with a WARN; a literal one silently wraps ("%10000000d"
 *     has no padding);
 *   - size > INT_MAX: WARN, return 0, buffer untouched;
 *   - vscnprintf/scnprintf return the number of bytes actually stored
 *     (size ? min(len, size - 1) : 0), never negative.
 * The object's set-up (no_hash_pointers = true) runs from a constructor in
 * kshim.c, so no init call is needed.                                       */
#include "../target.h"
#include "kern_printf.h"
#include "kern_version.h" /* generated: SCN_KERN_VERSION */

const char *kern_version(void)
{
    return SCN_KERN_VERSION;
}

const struct scn_target scn_target_kernel = {
    .name = "kernel",
    .version = kern_version,
    .dialect = SCN_DIALECT_KERNEL,
    .vsnprintf = kern_vsnprintf,
    .vscnprintf = kern_vscnprintf,
    .where = "in-process",
};
