/* scnfuzz shim: <linux/fs.h> for lib/vsprintf.c and its helpers; all declarations are in kshim_kernel.h */
#include <kshim_kernel.h>
