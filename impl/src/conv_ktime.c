/* conv_ktime.c - the LINUX_KERNEL dialect's dates and times, as Linux 6.1's
 * printk-formats.rst describes them (lib/vsprintf.c time_and_date()):
 *
 *   %ptR[dt][rs]   struct rtc_time (nine ints: sec min hour mday mon year
 *                  wday yday isdst; the first six are read)
 *   %ptT[dt][rs]   time64_t (seconds since 1970-01-01 00:00:00 UTC, signed
 *                  64-bit), broken down in UTC (time64_to_tm(t, 0))
 *   %pt + another  "(%pt?)"
 *
 * "YYYY-mm-ddTHH:MM:SS"; d: the date only, t: the time only (one of them,
 * right after R or T); then any of r: raw (the year and month as stored,
 * without + 1900 and + 1), s: a space instead of the 'T'. Each number is
 * printed as the kernel's number() prints an int without a sign: zero-padded
 * to 4 (year) or 2 digits, and a negative one as the unsigned 64-bit value it
 * converts to. A year beyond the int range keeps its low 32 bits (struct
 * rtc_time's tm_year is an int). The width, precision and flags do nothing
 * here. Freestanding, no allocation.
 */
#include "internal.h"

struct kdate {
    int sec, min, hour, mday, mon, year; /* as struct rtc_time: mon 0-11, year - 1900 */
};

static int32_t int_at(const unsigned char *a, int i)
{
    int32_t v;
    __builtin_memcpy(&v, a + 4 * i, 4);
    return v;
}

/* floor division */
static int64_t fdiv(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* UTC breakdown of t: days since the epoch -> the proleptic Gregorian date
 * (counting years from 1 March, so that the leap day ends the year: the
 * usual days-from-civil inverse) */
static struct kdate utc_breakdown(int64_t t)
{
    struct kdate r;
    int64_t days = t / 86400, rem = t % 86400; /* t - days * 86400 could overflow */
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    r.hour = (int)(rem / 3600);
    r.min = (int)(rem % 3600 / 60);
    r.sec = (int)(rem % 60);
    int64_t z = days + 719468; /* days since 0000-03-01 */
    int64_t era = fdiv(z, 146097);
    int64_t doe = z - era * 146097;                                 /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);          /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                               /* March = 0 */
    int64_t year = yoe + era * 400 + (mp >= 10);
    r.mday = (int)(doy - (153 * mp + 2) / 5 + 1);
    r.mon = (int)(mp < 10 ? mp + 2 : mp - 10);
    r.year = (int)(uint32_t)(uint64_t)(year - 1900); /* long -> int: the low 32 bits */
    return r;
}

/* number() of an int with a zero-padded width and no sign */
static void put_int(struct sink *w, int v, int digits)
{
    struct kspec s = { digits, -1, K_ZEROPAD, 10 };
    kernel_number(w, (unsigned long long)(long long)v, s);
}

struct kletters {
    int have_d, have_t, raw, space;
};

/* [dt] right after R or T, then any of r s */
static struct kletters time_letters(const unsigned char *fmt)
{
    struct kletters k = { fmt[2] != 't', fmt[2] != 'd', 0, 0 };
    for (const unsigned char *l = fmt + 2 + (fmt[2] == 'd' || fmt[2] == 't');; l++) {
        if (*l == 'r')
            k.raw = 1;
        else if (*l == 's')
            k.space = 1;
        else
            return k;
    }
}

static void print_date_time(struct sink *w, struct kletters k, struct kdate d)
{
    if (k.have_d) {
        /* int arithmetic that wraps, as the kernel's -fwrapv */
        put_int(w, (int)((unsigned)d.year + (k.raw ? 0u : 1900u)), 4);
        sink_putc(w, '-');
        put_int(w, (int)((unsigned)d.mon + (k.raw ? 0u : 1u)), 2);
        sink_putc(w, '-');
        put_int(w, d.mday, 2);
    }
    if (k.have_d && k.have_t)
        sink_putc(w, k.space ? ' ' : 'T');
    if (k.have_t) {
        put_int(w, d.hour, 2);
        sink_putc(w, ':');
        put_int(w, d.min, 2);
        sink_putc(w, ':');
        put_int(w, d.sec, 2);
    }
}

void kernel_time(struct sink *w, const unsigned char *fmt, const void *ptr, struct kspec spec)
{
    const unsigned char *a = ptr;
    struct kletters k = { 1, 1, 0, 0 };
    struct kdate d = { 0, 0, 0, 0, 0, 0 };
    if (kernel_check_pointer(w, ptr, spec))
        return;
    if (fmt[1] == 'R' || fmt[1] == 'T') /* fmt[2] is there: at worst the NUL */
        k = time_letters(fmt);
    if (fmt[1] == 'R') { /* only the fields printed are read, as the kernel does */
        if (k.have_t) {
            d.sec = int_at(a, 0);
            d.min = int_at(a, 1);
            d.hour = int_at(a, 2);
        }
        if (k.have_d) {
            d.mday = int_at(a, 3);
            d.mon = int_at(a, 4);
            d.year = int_at(a, 5);
        }
    } else if (fmt[1] == 'T') {
        int64_t t;
        __builtin_memcpy(&t, a, 8);
        d = utc_breakdown(t);
    } else {
        kernel_error_string(w, "(%pt?)", spec);
        return;
    }
    print_date_time(w, k, d);
}
