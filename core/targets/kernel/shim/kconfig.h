/* scnfuzz: the kernel configuration the shimmed lib/vsprintf.c is built
 * with (force-included with -include). Written for scnfuzz.
 *
 * On:  CONFIG_64BIT (x86-64, like Debian's amd64 kernel).
 * Off (so that the %p extensions needing them stay inert, see kshim.c):
 *   CONFIG_KALLSYMS      %pS %ps %pB print the address as 0x%016lx
 *   CONFIG_BLOCK         %pg is a plain %p
 *   CONFIG_HAVE_CLK      %pC prints "(%pC?)"
 *   CONFIG_OF            %pOF prints "(%pOF?)"
 *   CONFIG_RUST          %pA prints "(%pA?)"
 *   CONFIG_BINARY_PRINTF no vbin_printf/bstr_printf
 */
#ifndef SCN_KSHIM_KCONFIG_H
#define SCN_KSHIM_KCONFIG_H
#define __KERNEL__ 1
#define CONFIG_64BIT 1
#define CONFIG_X86_64 1
/* %pe prints -ENOSPC, not -28 (Debian's kernel has it on; lib/errname.c) */
#define CONFIG_SYMBOLIC_ERRNAME 1
/* IS_ENABLED(CONFIG_X): vsprintf.c asks it only about CONFIG_RUST,
 * CONFIG_HAVE_CLK and CONFIG_OF, all off here. */
#define IS_ENABLED(option) 0
#endif
