/* conv_kerrname.c - the LINUX_KERNEL dialect's %pe of an error pointer, as
 * Linux 6.1 prints it with CONFIG_SYMBOLIC_ERRNAME=y (lib/vsprintf.c
 * err_ptr() over lib/errname.c errname()): the symbolic name "-ENOSPC",
 * padded and cut like a string; a code without a name (41, 58, 134-511, 520,
 * 531-4095) as the signed decimal number -N with the conversion's flags
 * ('+' and ' ' do nothing for a negative number, '0' pads with zeros).
 * A pointer that is no ERR_PTR is plain %p (kernel_ptr_ext() returns 0).
 *
 * The names are x86-64's (include/uapi/asm-generic/errno*.h and the kernel's
 * own codes from 512 of include/linux/errno.h); where two names share a code
 * errname() gives one: EAGAIN (not EWOULDBLOCK), EDEADLK (not EDEADLOCK),
 * ECANCELED, ECONNREFUSED. Freestanding, no allocation.
 */
#include "internal.h"

/* errno 1..133; 0 where no name is defined */
static const char *const names_0[134] = {
    0, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
    "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV",
    "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
    "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK",
    "ENOSYS", "ENOTEMPTY", "ELOOP", 0, "ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST",
    "ELNRNG", "EUNATCH", "ENOCSI", "EL2HLT", "EBADE", "EBADR", "EXFULL", "ENOANO", "EBADRQC",
    "EBADSLT", 0, "EBFONT", "ENOSTR", "ENODATA", "ETIME", "ENOSR", "ENONET", "ENOPKG", "EREMOTE",
    "ENOLINK", "EADV", "ESRMNT", "ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW",
    "ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN", "ELIBMAX", "ELIBEXEC",
    "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS", "ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE",
    "EPROTOTYPE", "ENOPROTOOPT", "EPROTONOSUPPORT", "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT",
    "EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN", "ENETUNREACH", "ENETRESET",
    "ECONNABORTED", "ECONNRESET", "ENOBUFS", "EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS",
    "ETIMEDOUT", "ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS", "ESTALE",
    "EUCLEAN", "ENOTNAM", "ENAVAIL", "EISNAM", "EREMOTEIO", "EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE",
    "ECANCELED", "ENOKEY", "EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
    "ENOTRECOVERABLE", "ERFKILL", "EHWPOISON"
};

/* the kernel's own codes, 512..530 */
static const char *const names_512[19] = {
    "ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD", "ERESTART_RESTARTBLOCK",
    "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM", 0, "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE", "ENOTSUPP",
    "ETOOSMALL", "ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED", "ERECALLCONFLICT"
};

/* the name of -err (1 <= err <= 4095), or NULL */
static const char *errname(unsigned err)
{
    if (err < sizeof names_0 / sizeof names_0[0])
        return names_0[err];
    if (err >= 512 && err - 512 < sizeof names_512 / sizeof names_512[0])
        return names_512[err - 512];
    return 0;
}

void kernel_err_ptr(struct sink *w, const void *ptr, struct kspec spec)
{
    int err = (int)(intptr_t)ptr; /* PTR_ERR(): -4095..-1 */
    const char *name = errname((unsigned)-err);
    if (name) {
        char t[24];
        int n = 0;
        t[n++] = '-';
        while (*name && n < (int)sizeof t - 1)
            t[n++] = *name++;
        t[n] = 0;
        kernel_string_nocheck(w, t, spec);
        return;
    }
    spec.flags |= K_SIGN;
    spec.base = 10;
    kernel_number(w, (unsigned long long)(long long)err, spec);
}
