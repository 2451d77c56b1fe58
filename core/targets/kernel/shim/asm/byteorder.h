/* scnfuzz shim: <asm/byteorder.h> for lib/vsprintf.c; all declarations are in kshim_kernel.h */
#include <kshim_kernel.h>
