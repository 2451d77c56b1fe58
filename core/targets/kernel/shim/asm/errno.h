/* scnfuzz shim: <asm/errno.h>, as x86-64's generated header: the generic numbers */
#include <asm-generic/errno.h>
