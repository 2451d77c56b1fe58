/* scnfuzz: project-written stand-in for the kernel headers that the Linux
 * kernel's lib/vsprintf.c includes, so that the unmodified file compiles in
 * userspace under -nostdinc (x86-64, 64-bit, little endian).
 *
 * Everything here is written for scnfuzz: declarations and small macros of
 * our own with the names and meanings vsprintf.c expects. No kernel code is
 * copied. Every linux/ asm/ net/ header in this directory includes just this
 * file. Functions declared `extern` here are defined (as safe stubs or small
 * implementations) in ../kshim.c; the configuration choices (which CONFIG_*
 * are on) are in kconfig.h, force-included on the command line.
 */
#ifndef SCN_KSHIM_KERNEL_H
#define SCN_KSHIM_KERNEL_H

#include <stdarg.h> /* the compiler's own (va_list, va_arg); not libc's */
#include <stddef.h> /* the compiler's own (size_t, ptrdiff_t, NULL, offsetof) */
#include <stdbool.h> /* the compiler's own */

#define SHRT_MAX 0x7fff
#define INT_MAX 0x7fffffff
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define ULONG_MAX 0xffffffffffffffffUL

/* ---------------------------------------------------------------- compiler */
#define __force
#define __user
#define __iomem
#define __rcu
#define __init
#define __initdata
#define __ro_after_init
#define __read_mostly
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __always_inline inline __attribute__((__always_inline__))
#define __maybe_unused __attribute__((__unused__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __scanf(a, b) __attribute__((__format__(scanf, a, b)))
#define noinline __attribute__((__noinline__))
#define noinline_for_stack noinline
#define fallthrough __attribute__((__fallthrough__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_wmb() barrier()
#define smp_rmb() barrier()
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* static_assert(expr) with one argument, as C2x has it */
#define static_assert(expr, ...) _Static_assert(expr, "" __VA_ARGS__)
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)
/* 0 as a constant expression, or a compile error when cond holds */
#define BUILD_BUG_ON_ZERO(cond) ((int)(sizeof(struct { int : (-!!(cond)); })))

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
/* early_param()/initcalls: kept referenced, but nothing runs them; the
 * set-up (no_hash_pointers = true) is done by a constructor in kshim.c. */
#define early_param(name, fn) \
    static int (*const kshim_early_param_##fn)(char *) __attribute__((__used__)) = fn
#define subsys_initcall(fn) \
    static int (*const kshim_initcall_##fn)(void) __attribute__((__used__)) = fn;

/* ---------------------------------------------------------------- types */
typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef u16 __le16;
typedef u16 __be16;
typedef u32 __be32;
typedef long ssize_t;
typedef long long time64_t;
typedef u64 phys_addr_t;
typedef u64 dma_addr_t;
typedef u64 resource_size_t;
typedef unsigned int gfp_t;
typedef u64 netdev_features_t;
typedef unsigned short sa_family_t;

#define BITS_PER_LONG 64
#define BITS_PER_LONG_LONG 64

/* ---------------------------------------------------------------- kernel.h */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max((v), (lo)), (hi))

/* do_div(n, base): n becomes n / base; evaluates to the remainder */
#define do_div(n, base) __extension__({                      \
        u32 kshim_base_ = (base);                            \
        u32 kshim_rem_ = (u32)((n) % kshim_base_);           \
        (n) = (n) / kshim_base_;                             \
        kshim_rem_; })

/* math64.h on a 64-bit machine: the C operators */
static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *remainder)
{
    *remainder = (s32)(dividend % divisor);
    return dividend / divisor;
}
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
    *remainder = dividend % divisor;
    return dividend / divisor;
}
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n) & 0xffffffffU))

/* WARN*: print nothing, never abort; count and evaluate to the condition. */
extern unsigned long kshim_warn_count;
#define WARN_ON_ONCE(cond) __extension__({                   \
        int kshim_c_ = !!(cond);                             \
        if (unlikely(kshim_c_)) kshim_warn_count++;          \
        kshim_c_; })
#define WARN_ONCE(cond, ...) WARN_ON_ONCE(cond)
#define WARN_ON(cond) WARN_ON_ONCE(cond)
#define pr_warn(...) ((void)0)
#define pr_info(...) ((void)0)

/* the libc string functions vsprintf.c calls (resolved against libc) */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
char *strcpy(char *dst, const char *src);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strchr(const char *s, int c);
/* kernel-only string helpers: strchrnul in kshim.c, skip_spaces in lib/string_helpers.c */
char *strchrnul(const char *s, int c);
char *skip_spaces(const char *s);

/* ctype: the kernel's own include/linux/ctype.h and lib/ctype.c (extracted) */
#include <linux/ctype.h>

/* hex helpers (tables in kshim.c) */
extern const char hex_asc[];
extern const char hex_asc_upper[];
#define hex_asc_lo(x) hex_asc[((x) & 0x0f)]
#define hex_asc_hi(x) hex_asc[((x) & 0xf0) >> 4]
static inline char *hex_byte_pack(char *p, u8 b)
{
    *p++ = hex_asc_hi(b);
    *p++ = hex_asc_lo(b);
    return p;
}
static inline char *hex_byte_pack_upper(char *p, u8 b)
{
    *p++ = hex_asc_upper[(b & 0xf0) >> 4];
    *p++ = hex_asc_upper[b & 0x0f];
    return p;
}

/* ---------------------------------------------------------------- errors */
#include <linux/errno.h> /* the kernel's own numbers (extracted) */
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p) { return IS_ERR_VALUE((unsigned long)p); }
static inline bool IS_ERR_OR_NULL(const void *p) { return !p || IS_ERR_VALUE((unsigned long)p); }

/* ---------------------------------------------------------------- bytes */
#define cpu_to_le16(x) ((__le16)(u16)(x))
#define ntohs(x) __builtin_bswap16((u16)(x))
#define ntohl(x) __builtin_bswap32((u32)(x))
#define get_unaligned(p) __extension__({                      \
        __typeof__((__typeof__(*(p)))0) kshim_v_;                          \
        memcpy(&kshim_v_, (p), sizeof(kshim_v_));             \
        kshim_v_; })

/* ---------------------------------------------------------------- page */
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

/* ---------------------------------------------------------------- hash, rng */
typedef struct { u64 key[2]; } siphash_key_t;
u64 siphash_1u64(u64 a, const siphash_key_t *key);
u64 siphash_1u32(u32 a, const siphash_key_t *key);
static inline u64 hash_long(unsigned long v, unsigned int bits)
{
    return (u64)(v * 0x61c8864680b583ebULL) >> (64 - bits);
}
void get_random_bytes(void *buf, size_t len);
bool rng_is_initialized(void);

/* workqueues: fill_ptr_key_workfn() may re-queue itself; never runs here */
struct work_struct { int kshim_unused; };
struct delayed_work { struct work_struct work; };
struct workqueue_struct;
extern struct workqueue_struct *system_unbound_wq;
#define HZ 100
#define DECLARE_DELAYED_WORK(n, f) struct delayed_work n = { { 0 } }
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
                        unsigned long delay);

/* ---------------------------------------------------------------- context, creds */
#define in_irq() 0
#define in_serving_softirq() 0
#define in_nmi() 0
typedef struct { unsigned int val; } kuid_t;
typedef struct { unsigned int val; } kgid_t;
struct cred { kuid_t uid, euid; kgid_t gid, egid; };
struct task_struct;
extern struct task_struct *kshim_current_task;
#define current kshim_current_task
const struct cred *current_cred(void);
#define CAP_SYSLOG 34
bool has_capability_noaudit(struct task_struct *t, int cap);
static inline bool uid_eq(kuid_t a, kuid_t b) { return a.val == b.val; }
static inline bool gid_eq(kgid_t a, kgid_t b) { return a.val == b.val; }
#define rcu_read_lock() ((void)0)
#define rcu_read_unlock() ((void)0)

/* ---------------------------------------------------------------- symbols */
#define KSYM_SYMBOL_LEN 512
/* x86-64 has no function descriptors: the identity */
static inline void *dereference_symbol_descriptor(void *p) { return p; }

/* ---------------------------------------------------------------- fs */
struct qstr { const unsigned char *name; };
struct dentry { struct dentry *d_parent; struct qstr d_name; };
struct path { struct dentry *dentry; };
struct file { struct path f_path; };
struct block_device;

/* ---------------------------------------------------------------- resource */
/* include/linux/ioport.h's layout (vsprintf.c reads start, end and flags) */
struct resource {
    resource_size_t start, end;
    const char *name;
    unsigned long flags, desc;
    struct resource *parent, *sibling, *child;
};
#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_IRQ 0x00000400
#define IORESOURCE_DMA 0x00000800
#define IORESOURCE_BUS 0x00001000
#define IORESOURCE_PREFETCH 0x00002000
#define IORESOURCE_MEM_64 0x00100000
#define IORESOURCE_WINDOW 0x00200000
#define IORESOURCE_UNSET 0x20000000
#define IORESOURCE_DISABLED 0x10000000
static inline resource_size_t resource_size(const struct resource *r)
{
    return r->end - r->start + 1;
}

/* ---------------------------------------------------------------- bitmaps */
#define DECLARE_BITMAP(name, bits) unsigned long name[DIV_ROUND_UP((bits), BITS_PER_LONG)]
static inline bool test_bit(long nr, const unsigned long *a)
{
    return (a[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}
static inline void __set_bit(long nr, unsigned long *a)
{
    a[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}
static inline void __clear_bit(long nr, unsigned long *a)
{
    a[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}
static inline void bitmap_complement(unsigned long *dst, const unsigned long *src,
                                     unsigned int nbits)
{
    unsigned int i;
    for (i = 0; i < DIV_ROUND_UP(nbits, BITS_PER_LONG); i++)
        dst[i] = ~src[i];
}
/* first set bit at or after `start` below `size`, or `size` */
static inline unsigned long kshim_find_bit(const unsigned long *a, unsigned long size,
                                           unsigned long start, int want)
{
    for (; start < size; start++)
        if (test_bit((long)start, a) == (bool)want)
            return start;
    return size;
}
/* for each maximal run [b, e) of set bits below `size` */
#define for_each_set_bitrange(b, e, addr, size)                                   \
    for ((b) = (int)kshim_find_bit((addr), (size), 0, 1),                         \
         (e) = (int)kshim_find_bit((addr), (size), (b), 0);                       \
         (b) < (int)(size);                                                       \
         (b) = (int)kshim_find_bit((addr), (size), (e) + 1, 1),                   \
         (e) = (int)kshim_find_bit((addr), (size), (b), 0))

/* ---------------------------------------------------------------- net */
#define AF_INET 2
#define AF_INET6 10
#define IPV6_FLOWINFO_MASK 0xffffff0fU /* in network byte order, seen as a u32 */
struct in_addr { __be32 s_addr; };
struct in6_addr {
    union { u8 u6_addr8[16]; __be16 u6_addr16[8]; __be32 u6_addr32[4]; } in6_u;
};
#define s6_addr in6_u.u6_addr8
#define s6_addr16 in6_u.u6_addr16
#define s6_addr32 in6_u.u6_addr32
struct sockaddr { sa_family_t sa_family; char sa_data[14]; };
struct sockaddr_in {
    sa_family_t sin_family; __be16 sin_port; struct in_addr sin_addr;
    unsigned char kshim_pad[8];
};
struct sockaddr_in6 {
    sa_family_t sin6_family; __be16 sin6_port; __be32 sin6_flowinfo;
    struct in6_addr sin6_addr; u32 sin6_scope_id;
};
static inline bool ipv6_addr_v4mapped(const struct in6_addr *a)
{
    return a->s6_addr32[0] == 0 && a->s6_addr32[1] == 0 &&
           a->s6_addr32[2] == __builtin_bswap32(0x0000ffffU);
}
static inline bool ipv6_addr_is_isatap(const struct in6_addr *a)
{
    return (a->s6_addr32[2] | __builtin_bswap32(0x02000000U)) ==
           __builtin_bswap32(0x02005efeU);
}

/* ---------------------------------------------------------------- uuid */
#define UUID_STRING_LEN 36
extern const u8 guid_index[16];
extern const u8 uuid_index[16];

/* ---------------------------------------------------------------- time */
struct rtc_time {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};
struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon;
    long tm_year;
    int tm_wday, tm_yday;
};
/* the kernel's own kernel/time/timeconv.c (extracted) */
void time64_to_tm(time64_t totalsecs, int offset, struct tm *result);

/* ---------------------------------------------------------------- clk, OF, fwnode */
struct clk;
const char *__clk_get_name(const struct clk *clk);
struct fwnode_handle;
struct property;
struct device_node { const char *full_name; u32 phandle; unsigned long _flags; };
#define OF_DYNAMIC 1
#define OF_DETACHED 2
#define OF_POPULATED 3
#define OF_POPULATED_BUS 4
/* CONFIG_OF is off: %pOF stops at "(%pOF?)" before any of these is called */
struct fwnode_handle *kshim_of_fwnode_handle(struct device_node *dn);
#define of_fwnode_handle(dn) kshim_of_fwnode_handle(dn)
bool of_node_check_flag(const struct device_node *dn, unsigned long flag);
int of_property_read_string(const struct device_node *dn, const char *name,
                            const char **out);
const char *of_prop_next_string(struct property *prop, const char *cur);
struct property *of_find_property(const struct device_node *dn, const char *name,
                                  int *lenp);
#define of_property_for_each_string(np, name, prop, s)                 \
    for ((prop) = of_find_property((np), (name), NULL),                \
         (s) = of_prop_next_string((prop), NULL);                      \
         (s); (s) = of_prop_next_string((prop), (s)))
const char *fwnode_get_name(const struct fwnode_handle *fwnode);
const char *fwnode_get_name_prefix(const struct fwnode_handle *fwnode);
unsigned int fwnode_count_parents(const struct fwnode_handle *fwnode);
struct fwnode_handle *fwnode_get_nth_parent(struct fwnode_handle *fwnode,
                                            unsigned int depth);
void fwnode_handle_put(struct fwnode_handle *fwnode);

/* ---------------------------------------------------------------- mm flags */
struct trace_print_flags { unsigned long mask; const char *name; };
extern const struct trace_print_flags pageflag_names[];
extern const struct trace_print_flags gfpflag_names[];
extern const struct trace_print_flags vmaflag_names[];
/* page->flags layout: only the page flags proper; no section/node/zone/... fields */
#define PAGEFLAGS_MASK ((1UL << 24) - 1)
#define SECTIONS_WIDTH 0
#define SECTIONS_PGSHIFT 0
#define SECTIONS_MASK 0
#define NODES_WIDTH 0
#define NODES_PGSHIFT 0
#define NODES_MASK 0
#define ZONES_WIDTH 0
#define ZONES_PGSHIFT 0
#define ZONES_MASK 0
#define LAST_CPUPID_WIDTH 0
#define LAST_CPUPID_PGSHIFT 0
#define LAST_CPUPID_MASK 0
#define KASAN_TAG_WIDTH 0
#define KASAN_TAG_PGSHIFT 0
#define KASAN_TAG_MASK 0

/* ---------------------------------------------------------------- kstrtox (sscanf side) */
#define KSTRTOX_OVERFLOW (1U << 31)
const char *_parse_integer_fixup_radix(const char *s, unsigned int *base);
unsigned int _parse_integer_limit(const char *s, unsigned int base,
                                  unsigned long long *res, size_t max_chars);
unsigned int _parse_integer(const char *s, unsigned int base, unsigned long long *res);

/* ---------------------------------------------------------------- printf family */
struct va_format { const char *fmt; va_list *va; };
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args) __printf(3, 0);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args) __printf(3, 0);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vsprintf(char *buf, const char *fmt, va_list args) __printf(2, 0);
int sprintf(char *buf, const char *fmt, ...) __printf(2, 3);
char *kvasprintf(unsigned int gfp, const char *fmt, va_list args);
int vsscanf(const char *buf, const char *fmt, va_list args) __scanf(2, 0);
int sscanf(const char *buf, const char *fmt, ...) __scanf(2, 3);
int num_to_str(char *buf, int size, unsigned long long num, unsigned int width);
unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
long simple_strtol(const char *cp, char **endp, unsigned int base);
long long simple_strtoll(const char *cp, char **endp, unsigned int base);
int ptr_to_hashval(const void *ptr, unsigned long *hashval_out);
int no_hash_pointers_enable(char *str);
extern bool no_hash_pointers;
extern int kptr_restrict;

/* ---------------------------------------------------------------- lib/string_helpers.c */
/* string_helpers.c is compiled whole for string_escape_mem (%pE); its other
 * functions allocate, copy from user space or manage devices. Nothing here
 * calls them; what they call is declared here and defined inert in
 * ../kshim_helpers.c (allocation fails, user copies fault). */
#define GFP_KERNEL 0U
#define PATH_MAX 4096
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline int abs(int v) { return v < 0 ? -v : v; }
int strcmp(const char *a, const char *b); /* libc's */
int hex_to_bin(unsigned char ch);
ssize_t strscpy(char *dest, const char *src, size_t count);
void *kmalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
char *kstrdup(const char *s, gfp_t gfp);
char *kasprintf(gfp_t gfp, const char *fmt, ...) __printf(2, 3);
void *memdup_user_nul(const void __user *src, size_t len);
char *get_options(const char *str, int nints, int *ints);
struct task_struct;
int get_cmdline(struct task_struct *task, char *buffer, int buflen);
char *file_path(struct file *file, char *buf, int buflen);
struct device;
typedef void (*dr_release_t)(struct device *dev, void *res);
void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp);
void devres_free(void *res);
void devres_add(struct device *dev, void *res);

#endif /* SCN_KSHIM_KERNEL_H */
