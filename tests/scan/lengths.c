/* The C99 return value used as the bytes written, and the sites that check it. */
#include "kstub.h"

int list_names(char *buf, size_t size, const char **names, int n)
{
	int len = 0;
	for (int i = 0; i < n; i++)
		len += snprintf(buf + len, size - len, "%s,", names[i]); /* FINDING snprintf-ret-length */
	return len;
}

char *dump_values(char *p, char *end, const int *v, int n)
{
	for (int i = 0; i < n; i++)
		p += snprintf(p, end - p, "%d ", v[i]); /* FINDING snprintf-ret-pointer */
	return p;
}

int clamped(char *buf, size_t size, const char *s, size_t len)
{
	size_t n = snprintf(buf + len, size - len, "%s", s);
	len += n < size - len ? n : size - len - 1; /* the ?: clamp: checked */
	return len;
}

int with_min(char *buf, size_t size, const char *s, size_t len)
{
	size_t n = snprintf(buf + len, size - len, "%s", s);
	len += min(n, size - len - 1); /* min(): checked */
	return len;
}

int with_warn(char *buf, size_t size, const char *s)
{
	size_t len = 0;
	len += snprintf(buf + len, size - len, "[%s]", s);
	WARN_ON(len >= size); /* checked */
	return len;
}

int with_scnprintf(char *buf, size_t size, const char **names, int n)
{
	int len = 0;
	for (int i = 0; i < n; i++)
		len += scnprintf(buf + len, size - len, "%s,", names[i]); /* fine */
	return len;
}
