/* A function the code declares printf-like: its calls are printf-family calls. */
#include "kstub.h"

__attribute__((format(printf, 2, 3))) void log_at(int level, const char *fmt, ...);

void report(unsigned long long bytes, const char *who, int w, int v)
{
	log_at(1, "%llu bytes from %-8s: %*d", bytes, who, w, v);
	log_at(2, "%#x %+05d %c%%", 255u, v, 'x');
	log_at(3, who);
}
