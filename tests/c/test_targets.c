/* Tests of the targets' registry and the canonical scnprintf wrapper
 * (core/targets/registry.c, canonical.c; adapters ref.c, glibc.c): the
 * registry lists exactly the targets this build has (the kernel and musl
 * ones when CMake built them: SCN_TEST_HAVE_KERNEL / _MUSL), each well
 * formed; the canonical wrapper keeps the rules of target.h, checked with
 * fake C99 functions that return chosen values; every target's scnprintf
 * family agrees with its C99 family as those rules say. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "target.h"

#ifndef SCN_TEST_HAVE_KERNEL
#define SCN_TEST_HAVE_KERNEL 0
#endif
#ifndef SCN_TEST_HAVE_MUSL
#define SCN_TEST_HAVE_MUSL 0
#endif

/* ---------------------------------------------------------------- the registry */

static void test_registry(void)
{
    struct { const char *name; int dialect, built, native_scn; } want[] = {
        { "ref", SCN_DIALECT_ISO, 1, 1 },
        { "ref-kernel", SCN_DIALECT_KERNEL, 1, 1 },
        { "glibc", SCN_DIALECT_ISO, 1, 0 },
        { "musl", SCN_DIALECT_ISO, SCN_TEST_HAVE_MUSL, -1 },
        { "kernel", SCN_DIALECT_KERNEL, SCN_TEST_HAVE_KERNEL, -1 },
    };
    size_t nwant = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) nwant += want[i].built;

    const struct scn_target *const *list = scn_targets();
    size_t n = 0;
    for (const struct scn_target *const *t = list; *t; t++, n++) {
        const struct scn_target *a = *t;
        CHECK(a->name && a->name[0] && a->vsnprintf && a->version && a->version()[0] && a->where &&
                  !strcmp(a->where, "in-process"),
              "target %zu (%s) is not well formed", n, a->name ? a->name : "?");
        for (const struct scn_target *const *u = list; u != t; u++)
            CHECK(strcmp((*u)->name, a->name), "target %s listed twice", a->name);
        int known = 0;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            if (!strcmp(want[i].name, a->name)) known = 1;
        CHECK(known, "an unknown target %s", a->name);
    }
    CHECK(n == nwant, "%zu targets, this build has %zu", n, nwant);
    CHECK(scn_targets() == list, "the list moved");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct scn_target *t = scn_target_find(want[i].name);
        CHECK((t != NULL) == want[i].built, "target %s: found %d, built %d", want[i].name, t != NULL, want[i].built);
        if (!t) continue;
        CHECK(!strcmp(t->name, want[i].name) && (int)t->dialect == want[i].dialect, "target %s: dialect %d",
              want[i].name, t->dialect);
        if (want[i].native_scn >= 0)
            CHECK((t->vscnprintf != NULL) == want[i].native_scn, "target %s: native scnprintf %d", want[i].name,
                  t->vscnprintf != NULL);
    }
    CHECK(scn_target_find("nope") == NULL && scn_target_find("") == NULL && scn_target_find("ref ") == NULL &&
              scn_target_find("REF") == NULL,
          "an unknown name was found");
    CHECK(!strncmp(scn_target_find("glibc")->version(), "glibc 2.", 8), "glibc version %s",
          scn_target_find("glibc")->version());
}

/* ---------------------------------------------------------------- the canonical wrapper */

/* A fake C99 function: writes "abcdef..." truncated to the buffer and
 * returns the value the test chose. */
static int fake_ret;
static int fake_calls;
static int fake_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)fmt;
    (void)ap;
    fake_calls++;
    const char *text = "abcdefghijklmnopqrstuvwxyz";
    if (size) {
        size_t n = fake_ret >= 0 && (size_t)fake_ret < size ? (size_t)fake_ret : size - 1;
        if (n > 26) n = 26;
        memcpy(buf, text, n);
        buf[n] = 0;
    }
    return fake_ret;
}

static int canon(char *buf, size_t size, ...)
{
    va_list ap;
    va_start(ap, size);
    int r = scn_canonical_vscnprintf(fake_vsnprintf, buf, size, "x", ap);
    va_end(ap);
    return r;
}

static int native_calls;
static int fake_native(char *buf, size_t size, const char *fmt, va_list ap)
{
    (void)buf;
    (void)size;
    (void)fmt;
    (void)ap;
    native_calls++;
    return 77;
}

static int via_target(const struct scn_target *t, char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = scn_target_vscnprintf(t, buf, size, fmt, ap);
    va_end(ap);
    return r;
}

static void test_canonical(void)
{
    char buf[64];
    /* ret < size -> ret (the buffer as the C99 call left it) */
    for (int ret = 0; ret < 10; ret++)
        for (size_t size = (size_t)ret + 1; size < 12; size++) {
            fake_ret = ret;
            CHECK(canon(buf, size) == ret && strlen(buf) == (size_t)ret, "ret %d size %zu", ret, size);
        }
    /* ret >= size > 0 -> size - 1 (ret == size included: no room for the NUL) */
    for (int ret = 1; ret < 40; ret++)
        for (size_t size = 1; size <= (size_t)ret && size < sizeof buf; size++) {
            fake_ret = ret;
            CHECK(canon(buf, size) == (int)size - 1, "truncated: ret %d size %zu -> %d", ret, size, canon(buf, size));
        }
    /* size 0 -> 0, nothing written, whatever the C99 call returned */
    for (int ret = -3; ret < 5; ret++) {
        fake_ret = ret;
        memset(buf, 'X', sizeof buf);
        CHECK(canon(buf, 0) == 0 && buf[0] == 'X', "size 0, ret %d", ret);
    }
    /* ret < 0 -> "" and 0 (size > 0) */
    for (int ret = -3; ret < 0; ret++)
        for (size_t size = 1; size < 8; size++) {
            fake_ret = ret;
            memset(buf, 'X', sizeof buf);
            CHECK(canon(buf, size) == 0 && buf[0] == 0, "error ret %d size %zu: %d '%s'", ret, size, canon(buf, size), buf);
        }
    /* one C99 call per scnprintf call */
    fake_calls = 0;
    fake_ret = 30;
    canon(buf, 5);
    CHECK(fake_calls == 1, "%d C99 calls", fake_calls);

    /* scn_target_vscnprintf: the native entry when there is one, else the wrapper */
    struct scn_target nat = { .name = "nat", .dialect = SCN_DIALECT_ISO, .vsnprintf = fake_vsnprintf, .vscnprintf = fake_native, .where = "in-process" };
    struct scn_target wrap = { .name = "wrap", .dialect = SCN_DIALECT_ISO, .vsnprintf = fake_vsnprintf, .vscnprintf = NULL, .where = "in-process" };
    native_calls = fake_calls = 0;
    CHECK(via_target(&nat, buf, 8, "x") == 77 && native_calls == 1 && fake_calls == 0, "native entry not used");
    fake_ret = 30;
    CHECK(via_target(&wrap, buf, 8, "x") == 7 && fake_calls == 1 && native_calls == 1 && !strcmp(buf, "abcdefg"),
          "wrapper not used: %s", buf);
}

/* Every target: its scnprintf family is what the canonical rules make of
 * its C99 family (a native one must agree with them on valid formats). */
static void test_families_agree(void)
{
    /* each reads a string, then an int */
    static const char *const fmts[] = { "%s|%d", "%5s|%x", "", "%.3s%o", "%-9s%+d!" };
    for (const struct scn_target *const *tp = scn_targets(); *tp; tp++) {
        const struct scn_target *t = *tp;
        const struct scn_target wrapped = { .name = t->name, .version = t->version, .dialect = t->dialect,
                                            .vsnprintf = t->vsnprintf, .where = t->where };
        for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
            for (size_t size = 0; size < 24; size++) {
                char a[64], b[64];
                memset(a, 'X', sizeof a);
                memset(b, 'X', sizeof b);
                int sr = via_target(t, a, size, fmts[i], "hello", 12345);
                int cr = via_target(&wrapped, b, size, fmts[i], "hello", 12345);
                CHECK(sr == cr && (size == 0 ? a[0] == 'X' : !strcmp(a, b)),
                      "target %s, \"%s\" at size %zu: scn %d '%s', canonical %d '%s'", t->name, fmts[i], size, sr,
                      size ? a : "", cr, size ? b : "");
            }
    }
    /* the glibc target on an encoding error: "" and 0 */
    const struct scn_target *g = scn_target_find("glibc");
    char buf[8] = "XXXXXXX";
    CHECK(via_target(g, buf, 8, "a%lsb", L"\xe9") == 0 && buf[0] == 0, "glibc, error: ret 0 and \"\"");
    /* ref-kernel through the registry: the kernel dialect stops at %f */
    CHECK(via_target(scn_target_find("ref-kernel"), buf, 8, "ab%fcd", 1.0) == 2 && !strcmp(buf, "ab"), "ref-kernel: %s",
          buf);
}

int main(void)
{
    test_registry();
    test_canonical();
    test_families_agree();
    return check_summary("test_targets");
}
