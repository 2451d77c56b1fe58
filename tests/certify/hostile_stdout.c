/* HOSTILE: a debug line on stdout in every call (left in a vendored printf). */
#include "hostile_common.h"

int hostile_stdout(char *buf, size_t size, const char *fmt, va_list ap)
{
    printf("debug: vsnprintf(%zu, \"%s\")\n", size, fmt);
    return vsnprintf(buf, size, fmt, ap);
}
