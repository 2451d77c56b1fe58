/* scnfuzz: definitions of every external symbol the kernel's lib/vsprintf.c
 * refers to, for its userspace build (see shim/kshim_kernel.h for the
 * declarations and shim/kconfig.h for the configuration). Written for
 * scnfuzz; compiled as ordinary project C (libc headers, project warnings).
 *
 * It is linked with vsprintf.o into one relocatable object (ld -r) in which
 * every symbol but the kern_* ones is then made local, so nothing here can
 * clash with or replace a libc symbol.
 *
 * The %p extensions' helpers that live elsewhere in the kernel are the
 * kernel's own, extracted with vsprintf.c: errname() (lib/errname.c, %pe),
 * string_escape_mem() (lib/string_helpers.c, %pE; its other functions'
 * callees are in kshim_helpers.c), the ctype table (lib/ctype.c) and
 * time64_to_tm() (kernel/time/timeconv.c, %ptT). What needs kernel objects
 * is out of scope for scnfuzz, and every helper it reaches here is inert:
 *   - the object/file system ones (fwnode_*, of_*, __clk_get_name) return
 *     "", 0, NULL or an error, and never look at their argument;
 *   - kptr_restrict stays 0, so current_cred()/has_capability_noaudit()
 *     (%pK under kptr_restrict=1) are never reached; they still answer safely;
 *   - the pointer-hash key helpers (siphash, get_random_bytes, workqueue) are
 *     never reached because no_hash_pointers is set before any call.
 * The extensions that read the pointed-to memory in vsprintf.c itself (%pd
 * %pD %pI %pi %pM %pm %ph %pb %pU %pR %pr %pt %pG %pN %pa %p4cc %pV,
 * and %pks/%pus like %s) do so exactly as in the kernel: the caller must pass
 * a valid object, NULL ("(null)") or a value below 4096 / an ERR_PTR value
 * ("(efault)").                                                               */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kern_printf.h"

/* ------------------------------------------------------------ set-up, WARN */
extern bool no_hash_pointers; /* defined in lib/vsprintf.c (6.1) */
unsigned long kshim_warn_count; /* bumped by the shim's WARN_ON_ONCE etc. */

/* Plain %p prints the raw address like %px: deterministic output, the same
 * choice as the reference's kernel dialect. Runs when the object loads. */
__attribute__((constructor)) static void kshim_init(void)
{
    no_hash_pointers = true;
}

unsigned long kern_warn_count(void)
{
    return kshim_warn_count;
}

/* ------------------------------------------------------------ tables */
const char hex_asc[] = "0123456789abcdef";
const char hex_asc_upper[] = "0123456789ABCDEF";
/* %pU byte orders: big endian (uuid) as stored; little endian (guid) with the
 * first three fields byte-swapped */
const unsigned char uuid_index[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
const unsigned char guid_index[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

/* %pGp %pGv %pGg: no flag names (the arrays hold only the terminator), so
 * the flags print as a number */
struct trace_print_flags { unsigned long mask; const char *name; };
const struct trace_print_flags pageflag_names[] = { { 0, NULL } };
const struct trace_print_flags gfpflag_names[] = { { 0, NULL } };
const struct trace_print_flags vmaflag_names[] = { { 0, NULL } };

/* ------------------------------------------------------------ strings */
char *strchrnul(const char *s, int c)
{
    while (*s && *s != (char)c)
        s++;
    return (char *)s;
}


/* ------------------------------------------------------------ kstrtox (vsscanf only) */
#define KSHIM_OVERFLOW (1U << 31)

const char *_parse_integer_fixup_radix(const char *s, unsigned int *base)
{
    if (*base == 0) {
        if (s[0] == '0') {
            if ((s[1] | 0x20) == 'x' && isxdigit((unsigned char)s[2]))
                *base = 16;
            else
                *base = 8;
        } else {
            *base = 10;
        }
    }
    if (*base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
        s += 2;
    return s;
}

unsigned int _parse_integer_limit(const char *s, unsigned int base,
                                  unsigned long long *res, size_t max_chars)
{
    unsigned long long v = 0;
    unsigned int n = 0, over = 0;

    for (; max_chars > 0; max_chars--, s++, n++) {
        unsigned int d, c = (unsigned char)*s;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            break;
        if (d >= base)
            break;
        if (v > (~0ULL - d) / base)
            over = KSHIM_OVERFLOW;
        v = v * base + d;
    }
    *res = v;
    return n | over;
}

unsigned int _parse_integer(const char *s, unsigned int base, unsigned long long *res)
{
    return _parse_integer_limit(s, base, res, (size_t)-1);
}

/* ------------------------------------------------------------ pointer hashing (unused) */
typedef struct { unsigned long long key[2]; } kshim_siphash_key;

unsigned long long siphash_1u64(unsigned long long a, const kshim_siphash_key *key)
{
    return a ^ key->key[0] ^ key->key[1]; /* never reached: no_hash_pointers */
}

unsigned long long siphash_1u32(unsigned int a, const kshim_siphash_key *key)
{
    return a ^ key->key[0] ^ key->key[1];
}

void get_random_bytes(void *buf, size_t len)
{
    memset(buf, 0, len);
}

bool rng_is_initialized(void)
{
    return false;
}

struct workqueue_struct;
struct delayed_work;
struct workqueue_struct *system_unbound_wq;

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
                        unsigned long delay)
{
    (void)wq, (void)dw, (void)delay;
    return false;
}

/* ------------------------------------------------------------ %pK with kptr_restrict=1 */
struct kshim_cred { unsigned int uid, euid, gid, egid; };
static const struct kshim_cred kshim_cred0;
struct task_struct;
struct task_struct *kshim_current_task;

const struct kshim_cred *current_cred(void)
{
    return &kshim_cred0;
}

bool has_capability_noaudit(struct task_struct *t, int cap)
{
    (void)t, (void)cap;
    return false;
}

/* ------------------------------------------------------------ clk, OF, fwnode */
struct clk;
struct device_node;
struct property;
struct fwnode_handle;

const char *__clk_get_name(const struct clk *clk)
{
    (void)clk;
    return "";
}

struct fwnode_handle *kshim_of_fwnode_handle(struct device_node *dn)
{
    (void)dn;
    return NULL;
}

bool of_node_check_flag(const struct device_node *dn, unsigned long flag)
{
    (void)dn, (void)flag;
    return false;
}

int of_property_read_string(const struct device_node *dn, const char *name,
                            const char **out)
{
    (void)dn, (void)name, (void)out;
    return -22; /* -EINVAL */
}

const char *of_prop_next_string(struct property *prop, const char *cur)
{
    (void)prop, (void)cur;
    return NULL;
}

struct property *of_find_property(const struct device_node *dn, const char *name,
                                  int *lenp)
{
    (void)dn, (void)name, (void)lenp;
    return NULL;
}

const char *fwnode_get_name(const struct fwnode_handle *fwnode)
{
    (void)fwnode;
    return "";
}

const char *fwnode_get_name_prefix(const struct fwnode_handle *fwnode)
{
    (void)fwnode;
    return "";
}

unsigned int fwnode_count_parents(const struct fwnode_handle *fwnode)
{
    (void)fwnode;
    return 0;
}

struct fwnode_handle *fwnode_get_nth_parent(struct fwnode_handle *fwnode,
                                            unsigned int depth)
{
    (void)fwnode, (void)depth;
    return NULL;
}

void fwnode_handle_put(struct fwnode_handle *fwnode)
{
    (void)fwnode;
}
