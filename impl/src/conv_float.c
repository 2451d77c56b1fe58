/* PLACEHOLDER until the float converter lands: decodes values, prints "?". */
#include "internal.h"

struct fp_value fp_from_double(double d)
{
    struct fp_value v = {0};
    uint64_t b;
    __builtin_memcpy(&b, &d, sizeof b);
    v.neg = (unsigned char)(b >> 63);
    v.bits = 53;
    return v;
}

struct fp_value fp_from_long_double(long double d)
{
    struct fp_value v = {0};
    (void)d;
    v.bits = 64;
    return v;
}

void conv_float(struct sink *w, const struct fmt_spec *s, const struct fp_value *v,
                enum ref_rounding r)
{
    (void)s; (void)v; (void)r;
    sink_putc(w, '?');
}
