/* The little of the kernel's API the scan fixtures use (include/linux/...),
 * so that they parse without a kernel tree. */
#ifndef KSTUB_H
#define KSTUB_H
typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long long u64;
typedef u64 dma_addr_t;
#define PAGE_SIZE 4096UL
#define __printf(a, b) __attribute__((format(printf, a, b)))
struct device;
struct device_attribute;
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
__printf(2, 3) int sprintf(char *buf, const char *fmt, ...);
__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);
__printf(2, 3) int sysfs_emit(char *buf, const char *fmt, ...);
__printf(1, 2) int _printk(const char *fmt, ...);
__printf(2, 3) void _dev_info(const struct device *dev, const char *fmt, ...);
#define KERN_INFO "\001" "6"
#define printk(fmt, ...) _printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) _dev_info(dev, fmt, ##__VA_ARGS__)
#define min(x, y) ((x) < (y) ? (x) : (y))
#define WARN_ON(c) ((c) ? (_printk("WARNING\n"), 1) : 0)
#endif
