/* sysfs show() functions, sprintf into arrays, scnprintf compared with the size. */
#include "kstub.h"

struct dev_priv { int speed; const char *name; dma_addr_t dma; unsigned char mac[6]; };

static ssize_t speed_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dev_priv *p = (struct dev_priv *)dev;
	return snprintf(buf, PAGE_SIZE, "%d\n", p->speed); /* bounded: not a finding */
}

static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dev_priv *p = (struct dev_priv *)dev;
	return snprintf(buf, PAGE_SIZE, "%s\n", p->name); /* FINDING snprintf-ret-returned */
}

static ssize_t mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", 0644u); /* fine */
}

void label(struct dev_priv *p, int port)
{
	char tag[16];
	char num[16];
	sprintf(tag, "%s", p->name); /* FINDING sprintf-overflow */
	sprintf(num, "%d", port);    /* at most 11 bytes: fine */
	sprintf(tag, "%.8s-%u", p->name, (unsigned char)port); /* at most 12 bytes: fine */
	pr_info("label %s port %d mac %pM\n", tag, port, p->mac);
}

int cut(char *buf, size_t size, struct dev_priv *p)
{
	if (scnprintf(buf, size, "%s", p->name) >= size) /* FINDING scnprintf-ret-compared */
		return -1;
	return 0;
}

void trb(struct device *dev, struct dev_priv *p)
{
	dev_info(dev, "trb: V=%p, P=0x%pad\n", p, &p->dma); /* FINDING pa-double-0x */
	dev_info(dev, "dma %pad\n", &p->dma);
}

struct with_small { char small[8]; };

void copy_small(struct with_small *w)
{
	char tag[16];
	sprintf(tag, "%s", w->small); /* a char[8] holds at most 7 bytes: fine */
}
