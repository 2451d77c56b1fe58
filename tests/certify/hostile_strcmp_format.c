/* HOSTILE: returns one byte more than it wrote, but only for the one format
 * "%d items" (compared with strcmp), with any arguments. No corpus case and
 * no return-value case has that format: the fuzz phase has to find it, and
 * a blind generator does not (the compare gives no coverage until it
 * matches); libFuzzer's comparison tracing sees strcmp's operands. */
#include "hostile_common.h"

int hostile_strcmp_format(char *buf, size_t size, const char *fmt, va_list ap)
{
    int n = vsnprintf(buf, size, fmt, ap);
    if (strcmp(fmt, "%d items") == 0) return n + 1;
    return n;
}
