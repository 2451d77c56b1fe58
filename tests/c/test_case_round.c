/* A case's rounding direction (core/case/case_round.c): its text round-trips,
 * the call runs under it (double sums through SSE, long double sums through
 * the x87 unit, and fegetround, which reads the x87 control word on glibc),
 * and the caller's environment is back after the call, also after a call a
 * fault abandoned; the reference engine (impl/) rounds its digits in the
 * direction it is called under, unless its options name one. */
#include "case.h"
#include "scn/ref_printf.h"

#include <fenv.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static void round_trip(const char *text, int want_round)
{
    static struct scn_case c;
    char err[128], out[256];
    int r = scn_case_parse(text, strlen(text), &c, err, sizeof err);
    CHECK(r == 0, "%s: refused: %s", text, err);
    if (r) return;
    CHECK(c.round == want_round, "%s: round %d, want %d", text, c.round, want_round);
    scn_case_format(&c, out, sizeof out);
    CHECK(!strcmp(out, text), "%s printed back as %s", text, out);
}

static void refused(const char *text)
{
    static struct scn_case c;
    char err[128];
    CHECK(scn_case_parse(text, strlen(text), &c, err, sizeof err) != 0, "%s: accepted", text);
}

/* What the call saw: sums whose exact value lies between two representable
 * ones, so each direction gives a different one (volatile: computed in the
 * call, not folded by the compiler), and fegetround's answer. */
struct seen { double up, down; long double lup, ldown; int fe; };
static struct seen seen;

static int observe(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt; (void)ap;
    volatile double one = 1.0, tiny = 0x1p-60;
    volatile long double lone = 1.0L, ltiny = 0x1p-70L;
    seen.up = one + tiny;     /* 1 + 2^-60: between 1 and 1 + 2^-52 */
    seen.down = one - tiny;   /* between 1 - 2^-53 and 1 */
    seen.lup = lone + ltiny;  /* between 1 and 1 + 2^-63 */
    seen.ldown = lone - ltiny;
    seen.fe = fegetround();
    if (size) buf[0] = 0;
    return 0;
}

static void under(const char *name, int round, double up, double down, long double lup, long double ldown, int fe)
{
    static struct scn_case c;
    char buf[8];
    scn_case_init(&c, "x", 1);
    c.round = (unsigned char)round;
    memset(&seen, 0, sizeof seen);
    scn_case_call(observe, &c, buf, sizeof buf);
    CHECK(seen.up == up, "%s: 1 + 2^-60 is %a, want %a", name, seen.up, up);
    CHECK(seen.down == down, "%s: 1 - 2^-60 is %a, want %a", name, seen.down, down);
    CHECK(seen.lup == lup, "%s: 1 + 2^-70 (long double) is %La, want %La", name, seen.lup, lup);
    CHECK(seen.ldown == ldown, "%s: 1 - 2^-70 (long double) is %La, want %La", name, seen.ldown, ldown);
    CHECK(seen.fe == fe, "%s: fegetround() %#x in the call, want %#x", name, (unsigned)seen.fe, (unsigned)fe);
    CHECK(fegetround() == FE_TONEAREST, "%s: fegetround() %#x after the call", name, (unsigned)fegetround());
    volatile double one = 1.0, tiny = 0x1p-60;
    CHECK(one + tiny == 1.0 && one - tiny == 1.0, "%s: double arithmetic not back to nearest", name);
    volatile long double lone = 1.0L, ltiny = 0x1p-70L;
    CHECK(lone + ltiny == 1.0L, "%s: long double arithmetic not back to nearest", name);
}

static sigjmp_buf out_of_call;

static int abandon(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)buf; (void)size; (void)fmt; (void)ap;
    siglongjmp(out_of_call, 1); /* as oracle.c leaves a call that faulted */
}

/* ref_vsnprintf (the current direction) and ref_vsnprintf_ex with explicit
 * options (REF_ROUND_NEAREST: its own) through a case's call. */
static const struct ref_options nearest_opts = { REF_DIALECT_ISO, REF_ENCODING_C, REF_ROUND_NEAREST };

static int ref_nearest(char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vsnprintf_ex(buf, size, &nearest_opts, fmt, ap);
}

static void ref_prints(const char *text, const char *want, const char *want_nearest_opts)
{
    static struct scn_case c;
    char err[128], buf[64];
    if (scn_case_parse(text, strlen(text), &c, err, sizeof err)) {
        CHECK(0, "%s: refused: %s", text, err);
        return;
    }
    scn_case_call(ref_vsnprintf, &c, buf, sizeof buf);
    CHECK(!strcmp(buf, want), "ref: %s printed %s, want %s", text, buf, want);
    scn_case_call(ref_nearest, &c, buf, sizeof buf);
    CHECK(!strcmp(buf, want_nearest_opts), "ref with REF_ROUND_NEAREST: %s printed %s, want %s", text, buf,
          want_nearest_opts);
}

/* SCN_DECODE_ROUND: some float cases of random inputs are directed (each
 * direction met, at most one in 16 of the cases with a float argument),
 * their text round-trips; without the flag, the same inputs give none. */
static void decoder_draws(void)
{
    static struct scn_case c, back;
    char text[16384], err[128];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int floats = 0, directed[SCN_ROUND__COUNT] = {0}, without = 0;
    for (int n = 0; n < 20000; n++) {
        uint8_t in[96];
        for (size_t i = 0; i < sizeof in; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            in[i] = (uint8_t)s;
        }
        scn_case_from_bytes(in, sizeof in, &c, SCN_DIALECT_ISO, 0);
        without += c.round != SCN_ROUND_NEAREST;
        scn_case_from_bytes(in, sizeof in, &c, SCN_DIALECT_ISO, SCN_DECODE_ROUND);
        int has_float = 0;
        for (size_t i = 0; i < c.nargs; i++)
            has_float |= c.args[i].type == SCN_ARG_DOUBLE || c.args[i].type == SCN_ARG_LDOUBLE;
        floats += has_float;
        CHECK(has_float || c.round == SCN_ROUND_NEAREST, "a directed case without a float argument");
        directed[c.round]++;
        if (c.round != SCN_ROUND_NEAREST) {
            scn_case_format(&c, text, sizeof text);
            CHECK(scn_case_parse(text, strlen(text), &back, err, sizeof err) == 0 && back.round == c.round,
                  "%s: does not read back (%s)", text, err);
        }
    }
    int any = directed[SCN_ROUND_UPWARD] + directed[SCN_ROUND_DOWNWARD] + directed[SCN_ROUND_TOWARDZERO];
    CHECK(!without, "%d cases directed without SCN_DECODE_ROUND", without);
    CHECK(directed[SCN_ROUND_UPWARD] && directed[SCN_ROUND_DOWNWARD] && directed[SCN_ROUND_TOWARDZERO],
          "directions drawn: %d %d %d", directed[1], directed[2], directed[3]);
    CHECK(any * 16 <= floats, "%d of %d float cases directed: more than one in 16", any, floats);
    printf("decoder: %d of %d float cases directed (%d up, %d down, %d toward zero)\n", any, floats,
           directed[1], directed[2], directed[3]);
}

int main(void)
{
    round_trip("\"%.0f\" double:0x1.8p+0", SCN_ROUND_NEAREST);
    round_trip("\"%.0f\" double:0x1.8p+0 round=upward", SCN_ROUND_UPWARD);
    round_trip("\"%.1e|%La\" double:-0x1.8p+0 ldouble:0x8p-3 round=downward @0,3,40", SCN_ROUND_DOWNWARD);
    round_trip("\"%a\" double:0x1p+0 round=towardzero @5", SCN_ROUND_TOWARDZERO);
    round_trip("\"abc\" round=upward", SCN_ROUND_UPWARD);
    refused("\"%f\" double:0x1p+0 round=nearest");              /* the default is not written */
    refused("\"%f\" double:0x1p+0 round=up");
    refused("\"%f\" round=upward double:0x1p+0");               /* after the arguments */
    refused("\"%f\" double:0x1p+0 round=upward round=upward");
    refused("\"%f\" double:0x1p+0 @3 round=upward");            /* before @sizes */
    refused("\"%f\" double:0x1p+0 round=");

    const double d_above = 0x1.0000000000001p+0, d_below = 0x1.fffffffffffffp-1;
    const long double l_above = 0x1.0000000000000002p+0L, l_below = 0x1.fffffffffffffffep-1L;
    under("nearest", SCN_ROUND_NEAREST, 1.0, 1.0, 1.0L, 1.0L, FE_TONEAREST);
    under("upward", SCN_ROUND_UPWARD, d_above, 1.0, l_above, 1.0L, FE_UPWARD);
    under("downward", SCN_ROUND_DOWNWARD, 1.0, d_below, 1.0L, l_below, FE_DOWNWARD);
    under("towardzero", SCN_ROUND_TOWARDZERO, 1.0, d_below, 1.0L, l_below, FE_TOWARDZERO);

    /* a caller already in another direction gets it back, and a nearest case runs in it */
    fesetround(FE_DOWNWARD);
    static struct scn_case c;
    char buf[8];
    scn_case_init(&c, "x", 1);
    c.round = SCN_ROUND_UPWARD;
    scn_case_call(observe, &c, buf, sizeof buf);
    CHECK(seen.fe == FE_UPWARD && fegetround() == FE_DOWNWARD, "downward caller: %#x in, %#x after",
          (unsigned)seen.fe, (unsigned)fegetround());
    c.round = SCN_ROUND_NEAREST;
    scn_case_call(observe, &c, buf, sizeof buf);
    CHECK(seen.fe == FE_DOWNWARD, "a nearest case changed the caller's direction: %#x", (unsigned)seen.fe);
    fesetround(FE_TONEAREST);

    /* a directed call left by siglongjmp: the next call puts the environment back */
    c.round = SCN_ROUND_TOWARDZERO;
    if (!sigsetjmp(out_of_call, 0)) scn_case_call(abandon, &c, buf, sizeof buf);
    CHECK(fegetround() == FE_TOWARDZERO, "precondition: the abandoned call's direction is still set");
    c.round = SCN_ROUND_NEAREST;
    scn_case_call(observe, &c, buf, sizeof buf);
    CHECK(seen.fe == FE_TONEAREST && fegetround() == FE_TONEAREST,
          "after an abandoned call: %#x in the next, %#x after it", (unsigned)seen.fe, (unsigned)fegetround());

    ref_prints("\"%.0f\" double:0x1.4p+1", "2", "2");
    ref_prints("\"%.0f\" double:0x1.4p+1 round=upward", "3", "2");
    ref_prints("\"%.0f|%.0f\" double:0x1.4p+1 double:-0x1.4p+1 round=downward", "2|-3", "2|-2");
    ref_prints("\"%.1e\" double:-0x1.999999999999ap-4 round=towardzero", "-1.0e-01", "-1.0e-01");
    ref_prints("\"%.1f\" double:0x1.999999999999ap-4 round=upward", "0.2", "0.1");
    ref_prints("\"%.1La\" ldouble:0xc.ccccccccccccccdp-7 round=upward", "0x1.ap-4", "0x1.ap-4");
    ref_prints("\"%.1La\" ldouble:0xc.ccccccccccccccdp-7 round=towardzero", "0x1.9p-4", "0x1.ap-4");

    decoder_draws();

    if (!failures) printf("test_case_round: all passed\n");
    return failures != 0;
}
