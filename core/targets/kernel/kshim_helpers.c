/* scnfuzz: what lib/string_helpers.c refers to besides what vsprintf.c
 * needs. The kernel target compiles string_helpers.c whole, for
 * string_escape_mem (%pE); nothing in the target calls its other functions
 * (string_get_size, kstrdup_quotable*, kasprintf_strarray, parse_int_array_user,
 * devm_*). Their callees are inert here: allocation fails, copies from user
 * space fault, there is no command line, file path or device. Written for
 * scnfuzz; linked and localized with vsprintf.o like kshim.c. */
#include <stddef.h>
#include <sys/types.h>

/* lib/hexdump.c's contract: the value of a hex digit, -1 for anything else
 * (string_unescape's \x escapes) */
int hex_to_bin(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    ch |= 0x20;
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return -1;
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
    size_t i;
    if (count == 0)
        return -7; /* -E2BIG */
    for (i = 0; i + 1 < count && src[i]; i++)
        dest[i] = src[i];
    dest[i] = 0;
    return src[i] ? -7 : (ssize_t)i;
}

void *kmalloc(size_t size, unsigned int flags)
{
    (void)size, (void)flags;
    return NULL;
}

void *kcalloc(size_t n, size_t size, unsigned int flags)
{
    (void)n, (void)size, (void)flags;
    return NULL;
}

void kfree(const void *p)
{
    (void)p;
}

char *kstrdup(const char *s, unsigned int gfp)
{
    (void)s, (void)gfp;
    return NULL;
}

char *kasprintf(unsigned int gfp, const char *fmt, ...)
{
    (void)gfp, (void)fmt;
    return NULL;
}

void *memdup_user_nul(const void *src, size_t len)
{
    (void)src, (void)len;
    return (void *)-14L; /* ERR_PTR(-EFAULT) */
}

char *get_options(const char *str, int nints, int *ints)
{
    (void)nints;
    if (ints)
        ints[0] = 0;
    return (char *)str;
}

struct task_struct;
struct file;
struct device;

int get_cmdline(struct task_struct *task, char *buffer, int buflen)
{
    (void)task, (void)buffer, (void)buflen;
    return 0;
}

char *file_path(struct file *file, char *buf, int buflen)
{
    (void)file, (void)buf, (void)buflen;
    return (char *)-36L; /* ERR_PTR(-ENAMETOOLONG) */
}

void *devres_alloc(void (*release)(struct device *, void *), size_t size, unsigned int gfp)
{
    (void)release, (void)size, (void)gfp;
    return NULL;
}

void devres_free(void *res)
{
    (void)res;
}

void devres_add(struct device *dev, void *res)
{
    (void)dev, (void)res;
}
