/* The case model's va_list (core/case/case_call.c) against the compiler's:
 * for the same arguments, a real variadic call snprintf-like(buf, size, fmt,
 * ...) and scn_case_call give a callee the same va_arg sequence, read with
 * the right classes and with wrong ones (an int read where a double was
 * passed takes the next GP slot, not the double's: psABI 3.5.7), beyond the
 * 6 GP and 8 vector registers, long doubles in memory among them. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "case.h"
#include "check.h"

/* What the recorder reads, one letter a va_arg: i int, l long, p pointer,
 * d double, L long double. */
static const char *script;
enum { MAX_READS = 48 };
struct reading {
    unsigned gp_offset, fp_offset; /* the va_list as the callee got it */
    size_t n;
    unsigned char v[MAX_READS][16];
};
static struct reading got;

static int recorder(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)buf, (void)size, (void)fmt;
    memset(&got, 0, sizeof got);
    unsigned offsets[2];
    memcpy(offsets, (const void *)ap, sizeof offsets); /* gp_offset, fp_offset */
    got.gp_offset = offsets[0];
    got.fp_offset = offsets[1];
    for (const char *s = script; *s && got.n < MAX_READS; s++) {
        unsigned char *v = got.v[got.n++];
        if (*s == 'i') {
            long long x = va_arg(ap, int);
            memcpy(v, &x, sizeof x);
        } else if (*s == 'l') {
            long x = va_arg(ap, long);
            memcpy(v, &x, sizeof x);
        } else if (*s == 'p') {
            void *x = va_arg(ap, void *);
            memcpy(v, &x, sizeof x);
        } else if (*s == 'd') {
            double x = va_arg(ap, double);
            memcpy(v, &x, sizeof x);
        } else {
            long double x = va_arg(ap, long double);
            memcpy(v, &x, 10);
        }
    }
    return (int)got.n;
}

/* The compiler's va_list: a real call with three named GP arguments, as
 * snprintf(buf, size, fmt, ...) and scnprintf are. */
__attribute__((noinline)) static int real_call(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = recorder(buf, size, fmt, ap);
    va_end(ap);
    return r;
}

static struct scn_case C;
static int real_x, real_y;

/* List A: 10 INTEGER arguments (6 GP registers, 3 of them named) and 11
 * doubles (8 XMM registers) interleaved, 3 long doubles (memory) among them. */
#define LIST_A                                                                                   \
    1, 1.5, -2L, (void *)&real_x, 2.5, 3, 4, -0.0, 5, 6L, 1e300, (void *)&real_y, 4.5, -7, 5.5,  \
        6.5, 3.25L, 7.5, 8.5, 9.5, 10.5, 99, -1.25L, 1e-300L
static void build_list_a(void)
{
    scn_case_init(&C, "", 0);
    scn_case_add_int(&C, SCN_ARG_INT, 1);
    scn_case_add_double(&C, 1.5);
    scn_case_add_int(&C, SCN_ARG_LONG, -2);
    scn_case_add_ptr(&C, &real_x);
    scn_case_add_double(&C, 2.5);
    scn_case_add_int(&C, SCN_ARG_INT, 3);
    scn_case_add_int(&C, SCN_ARG_INT, 4);
    scn_case_add_double(&C, -0.0);
    scn_case_add_int(&C, SCN_ARG_INT, 5);
    scn_case_add_int(&C, SCN_ARG_LONG, 6);
    scn_case_add_double(&C, 1e300);
    scn_case_add_ptr(&C, &real_y);
    scn_case_add_double(&C, 4.5);
    scn_case_add_int(&C, SCN_ARG_INT, -7);
    scn_case_add_double(&C, 5.5);
    scn_case_add_double(&C, 6.5);
    scn_case_add_ldouble(&C, 3.25L);
    for (int i = 0; i < 4; i++) scn_case_add_double(&C, 7.5 + i);
    scn_case_add_int(&C, SCN_ARG_INT, 99);
    scn_case_add_ldouble(&C, -1.25L);
    scn_case_add_ldouble(&C, 1e-300L);
}
static const char *const list_a_types = "idlpdiidildpdiddLddddiLL";

/* List B: a double first, then an int, a long double and an int. */
#define LIST_B 1.5, 7, 2.0L, 8
static void build_list_b(void)
{
    scn_case_init(&C, "", 0);
    scn_case_add_double(&C, 1.5);
    scn_case_add_int(&C, SCN_ARG_INT, 7);
    scn_case_add_ldouble(&C, 2.0L);
    scn_case_add_int(&C, SCN_ARG_INT, 8);
}

static struct reading real_reading(int list)
{
    char buf[1];
    if (list == 'A')
        real_call(buf, sizeof buf, "", LIST_A);
    else
        real_call(buf, sizeof buf, "", LIST_B);
    return got;
}

static struct reading built_reading(int list)
{
    char buf[1];
    if (list == 'A')
        build_list_a();
    else
        build_list_b();
    scn_case_call(recorder, &C, buf, sizeof buf);
    return got;
}

/* The real call and the built va_list read the same under script s. */
static void check_same(int list, const char *s)
{
    script = s;
    struct reading r = real_reading(list), b = built_reading(list);
    CHECK(b.gp_offset == r.gp_offset && b.fp_offset == r.fp_offset,
          "list %c: the built va_list starts at gp %u fp %u, a real call's at gp %u fp %u", list,
          b.gp_offset, b.fp_offset, r.gp_offset, r.fp_offset);
    CHECK(b.n == r.n && b.n == strlen(s), "list %c \"%s\": %zu reads, real %zu", list, s, b.n, r.n);
    for (size_t i = 0; i < b.n && i < r.n; i++)
        CHECK(!memcmp(b.v[i], r.v[i], sizeof b.v[i]), "list %c \"%s\": read %zu (%c) differs from a real call's",
              list, s, i, s[i]);
}

static void test_right_classes(void)
{
    check_same('A', list_a_types);
    check_same('B', "diLi");
}

/* Read with wrong classes, a real call and the built va_list still agree, and
 * the value differs from the right class's: stepping over the double as an int
 * reads the int after it (the next GP slot), not the double's 8 bytes. */
static void test_wrong_classes(void)
{
    /* only reads of bytes a real call defines: an int's or a long's low 4
     * bytes as an int, a double's 8 as a double, a long double's 10 (an int's
     * upper half, a long double's padding and the unused registers are the
     * caller's garbage) */
    check_same('B', "i");
    check_same('B', "id");
    check_same('B', "iiL");
    check_same('B', "Ldi");
    check_same('A', "iiiiiiiiiLdddddddddddiLL"); /* every INTEGER argument first, then the rest */
    check_same('A', "ddddddddiiiiiiiiiLdddiLL"); /* the 8 XMM doubles first */

    script = "i";
    struct reading wrong = built_reading('B');
    script = "d";
    struct reading right = built_reading('B');
    long long seven = 7;
    double one_half = 1.5;
    CHECK(!memcmp(wrong.v[0], &seven, sizeof seven), "an int read first takes the int argument 7");
    CHECK(!memcmp(right.v[0], &one_half, sizeof one_half), "a double read first takes 1.5");
    CHECK(memcmp(wrong.v[0], right.v[0], sizeof wrong.v[0]), "the wrong class reads the same value as the right one");

    /* a long double read first skips the registers: the first memory argument */
    script = "L";
    struct reading ld = built_reading('B');
    long double two = 2.0L;
    CHECK(!memcmp(ld.v[0], &two, 10), "a long double read first takes 2.0L from the overflow area");
}

/* Reads past the arguments get zeros: the unread registers and the tail. */
static void test_zero_tail(void)
{
    script = "iiiddddddddLL";
    struct reading b = built_reading('B');
    static const unsigned char zero[16];
    long long seven = 7, eight = 8;
    double one_half = 1.5;
    long double two = 2.0L;
    CHECK(b.n == 13, "13 reads");
    CHECK(!memcmp(b.v[0], &seven, 8) && !memcmp(b.v[1], &eight, 8), "the ints 7 and 8 first");
    CHECK(!memcmp(b.v[2], zero, 16), "the last GP slot is not 0");
    CHECK(!memcmp(b.v[3], &one_half, 8), "the double 1.5");
    for (size_t i = 4; i < 11; i++) CHECK(!memcmp(b.v[i], zero, 16), "XMM read %zu past the double is not 0", i);
    CHECK(!memcmp(b.v[11], &two, 10), "the long double 2.0L");
    CHECK(!memcmp(b.v[12], zero, 16), "the overflow area's tail is not 0");
}

int main(void)
{
    test_right_classes();
    test_wrong_classes();
    test_zero_tail();
    return check_summary("case_abi");
}
