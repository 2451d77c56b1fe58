/* scn-reproducer: writes a standalone C reproducer of one case for one target.
 *
 *   scn-reproducer [--target NAME] [--entry FN] [--family c99|scnprintf|pointer]
 *                  [--int-size] [--version TEXT] [--title TEXT] [--build LINE] CASE
 *
 * The case (docs/CASE_FORMAT.md) is parsed by the one case parser; the program
 * written on stdout includes only standard C and POSIX headers: it calls the target's
 * real entry point (FN, by default vsnprintf for a C99 target, vscnprintf for
 * a scnprintf-family one, as the target's library exports it) with the case's
 * arguments as C literals, at the case's buffer sizes (without sizes: one
 * buffer that holds the whole output), and compares the bytes, the return,
 * each %n value and the bytes past the size with what the reference engine
 * (ref, or ref-kernel for a kernel-dialect target) gives for the same call,
 * computed here. It prints expected and actual and exits 1 when they differ:
 * the bug is present. Each size's call runs in a child process: a call that
 * dies (a signal, a sanitizer's report) or does not return within
 * CALL_SECONDS is reported as what it is and exits 1 too, the other sizes
 * still checked. A maintainer needs nothing of this project to run it.
 * --int-size: the entry takes its size as an int (stb's stbsp_vsnprintf).
 * A NAME this build has no in-process target of (an executor libc: dietlibc,
 * klibc) is taken as an ISO C99 vsnprintf when --version names it.
 *
 * Exit 0: written; 2: usage, an unparsable case or an argument that has no
 * standalone form (the kernel's mem:VAF for %pV).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "target.h"

enum family { FAM_C99, FAM_SCN, FAM_POINTER };

struct opts {
    const char *target, *entry, *title, *build, *version, *casetext;
    int family; /* -1: from the target */
    int int_size;
};

/* what the reference gives at one size */
struct expect {
    int ret;
    size_t nbytes; /* the bytes before the NUL it stores (size > 0, ret >= 0) */
    char *bytes;
    long long nval[SCN_CASE_MAX_ARGS];
};

#define GUARD 64 /* bytes past the size that must stay untouched */
#define CALL_SECONDS 5 /* longer: a call that never returns (a printf call takes milliseconds) */
#define SANITIZER_EXIT 3 /* a child's status after a sanitizer's report */

/* A C string literal of n bytes: printable ASCII as itself, the rest octal
 * (an octal escape takes at most three digits, so no following digit joins it). */
static void emit_literal(FILE *o, const char *b, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)b[i];
        if (ch == '"' || ch == '\\' || ch == '?') fprintf(o, "\\%c", ch);
        else if (ch >= 0x20 && ch < 0x7f) fputc(ch, o);
        else fprintf(o, "\\%03o", ch);
        if (i % 64 == 63 && i + 1 < n) fputs("\"\n    \"", o);
    }
    fputc('"', o);
}

static const char *n_ctype(enum scn_n_type t)
{
    static const char *const names[SCN_N__COUNT] = {
        "int", "signed char", "short", "long", "long long", "intmax_t", "size_t", "ptrdiff_t"};
    return (unsigned)t < SCN_N__COUNT ? names[t] : "int";
}

static const char *int_ctype(enum scn_arg_type t)
{
    switch (t) {
    case SCN_ARG_INT: return "int";
    case SCN_ARG_LONG: return "long";
    case SCN_ARG_LLONG: return "long long";
    case SCN_ARG_INTMAX: return "intmax_t";
    case SCN_ARG_SSIZE: return "ssize_t";
    case SCN_ARG_PTRDIFF: return "ptrdiff_t";
    case SCN_ARG_UINT: return "unsigned int";
    case SCN_ARG_ULONG: return "unsigned long";
    case SCN_ARG_ULLONG: return "unsigned long long";
    case SCN_ARG_UINTMAX: return "uintmax_t";
    case SCN_ARG_SIZE: return "size_t";
    case SCN_ARG_WINT: return "wint_t";
    default: return NULL;
    }
}

/* Static objects the arguments point to (strings, wide strings, mem bytes,
 * %n targets), named a<i>. Returns -1 for an argument with no standalone form. */
static int emit_arg_objects(FILE *o, const struct scn_case *c)
{
    for (size_t i = 0; i < c->nargs; i++) {
        const struct scn_arg *a = &c->args[i];
        if (a->type == SCN_ARG_STR && !a->is_null) {
            fprintf(o, "static const char a%zu[] = ", i);
            emit_literal(o, c->arena + a->off, a->len);
            fputs(";\n", o);
        } else if (a->type == SCN_ARG_WSTR && !a->is_null) {
            const wchar_t *w = (const wchar_t *)(const void *)(c->arena + a->off);
            fprintf(o, "static const wchar_t a%zu[] = {", i);
            for (uint32_t k = 0; k < a->len; k++) fprintf(o, "0x%lx, ", (unsigned long)w[k]);
            fputs("0};\n", o);
        } else if (a->type == SCN_ARG_MEM && a->is_vaf) {
            return -1;
        } else if (a->type == SCN_ARG_MEM && !a->is_null && !a->is_err) {
            const unsigned char *m = (const unsigned char *)c->arena + a->off;
            fprintf(o, "static _Alignas(16) const unsigned char a%zu[%u] = {", i, a->len ? a->len : 1u);
            for (uint32_t k = 0; k < a->len; k++) fprintf(o, "%s0x%02x", k ? ", " : "", m[k]);
            fputs("};\n", o);
        } else if (a->type == SCN_ARG_N) {
            /* the bytes after it: a store wider than the object (an int for %hhn) changes them
             * where the object's own value may still read right */
            fprintf(o, "static struct { %s v; unsigned char past[8]; } a%zu; /* the %%n target */\n",
                    n_ctype(a->ntype), i);
        }
    }
    return 0;
}

static void emit_double(FILE *o, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    if (d != d || d - d != 0) fprintf(o, "dbl_bits(0x%016" PRIx64 "ULL) /* %a */", u, d);
    else fprintf(o, "%a", d);
}

static void emit_ldouble(FILE *o, long double d)
{
    unsigned char b[sizeof d];
    uint64_t m;
    memcpy(b, &d, sizeof d);
    memcpy(&m, b, sizeof m);
    unsigned se = b[8] | (unsigned)b[9] << 8;
    fprintf(o, "ldbl_bits(0x%04x, 0x%016" PRIx64 "ULL) /* %La */", se, m, d);
}

/* One argument as the expression the variadic call passes. */
static void emit_arg_expr(FILE *o, const struct scn_case *c, size_t i)
{
    const struct scn_arg *a = &c->args[i];
    const char *it = int_ctype((enum scn_arg_type)a->type);
    if (it && a->type <= SCN_ARG_PTRDIFF) {
        if (a->v.i == INT64_MIN) fprintf(o, "(%s)(-9223372036854775807LL - 1)", it);
        else fprintf(o, "(%s)%lldLL", it, a->v.i);
    } else if (it) {
        fprintf(o, "(%s)%lluULL", it, a->v.u);
    } else if (a->type == SCN_ARG_DOUBLE) {
        emit_double(o, a->v.d);
    } else if (a->type == SCN_ARG_LDOUBLE) {
        emit_ldouble(o, a->v.ld);
    } else if (a->type == SCN_ARG_PTR) {
        if (a->is_null) fputs("(void *)0", o);
        else fprintf(o, "(void *)0x%llxULL", a->v.u);
    } else if (a->type == SCN_ARG_MEM && a->is_err) {
        fprintf(o, "(const void *)(long)%lld /* ERR_PTR */", a->v.i);
    } else if (a->is_null) {
        fputs(a->type == SCN_ARG_STR ? "(const char *)0" : a->type == SCN_ARG_WSTR ? "(const wchar_t *)0"
                                                                                  : "(const void *)0", o);
    } else if (a->type == SCN_ARG_N) {
        fprintf(o, "&a%zu.v", i);
    } else {
        fprintf(o, "a%zu", i);
    }
}

static const char *family_name(int f)
{
    return f == FAM_SCN ? "scnprintf" : f == FAM_POINTER ? "pointer" : "c99";
}

/* Text inside the emitted comment: a star and slash in a case would end it. */
static void emit_comment_text(FILE *o, const char *s)
{
    for (; *s; s++) {
        fputc(*s, o);
        if (s[0] == '*' && s[1] == '/') fputc('\\', o);
    }
}

static int needs_wchar(const struct scn_case *c)
{
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_WSTR || c->args[i].type == SCN_ARG_WINT) return 1;
    return 0;
}

static void emit_prologue(FILE *o, const struct opts *op, const struct scn_target *t, int fam,
                          const struct scn_case *c, const char *casetext)
{
    fputs("/* Standalone reproducer", o);
    if (op->title) {
        fputs(": ", o);
        emit_comment_text(o, op->title);
    }
    fputs("\n *\n * case (scnfuzz text form): ", o);
    emit_comment_text(o, casetext);
    fputc('\n', o);
    fprintf(o, " * implementation: %s (%s); entry point: %s, %s family\n", t->name,
            t->version ? t->version() : "?", op->entry, family_name(fam));
    if (op->build) {
        fputs(" * build and run: ", o);
        emit_comment_text(o, op->build);
        fputc('\n', o);
    }
    fputs(" * Expected: what C17 7.21.6 (and, for a scnprintf-family entry, the kernel's\n"
          " * vscnprintf contract: bytes written without the NUL, 0 at size 0) require,\n"
          " * as scnfuzz's reference engine computes it.\n"
          " * Exit status 1: the bug is present; 0: the call behaves as expected. */\n"
          "#include <signal.h>\n#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n"
          "#include <stdio.h>\n#include <string.h>\n#include <sys/types.h>\n#include <sys/wait.h>\n"
          "#include <unistd.h>\n", o);
    fputs(needs_wchar(c) ? "#include <wchar.h>\n\n" : "\n", o);
    if (c->round != SCN_ROUND_NEAREST) /* the case's round=: as scn_case_call (core/case/case_round.c) */
        fputs("/* fesetround(mode) of <fenv.h> without libm (the one-line build has no -lm): x86-64's two\n"
              " * rounding controls, MXCSR bits 13-14 and the x87 control word's bits 10-11, one encoding:\n"
              " * 0 to nearest, 1 downward, 2 upward, 3 toward zero. */\n"
              "static void set_rounding(unsigned rc)\n{\n    unsigned mxcsr;\n    unsigned short cw;\n"
              "    __asm__ __volatile__(\"stmxcsr %0\" : \"=m\"(mxcsr));\n"
              "    mxcsr = (mxcsr & ~(3u << 13)) | rc << 13;\n"
              "    __asm__ __volatile__(\"ldmxcsr %0\" : : \"m\"(mxcsr));\n"
              "    __asm__ __volatile__(\"fnstcw %0\" : \"=m\"(cw));\n"
              "    cw = (unsigned short)((cw & ~(3u << 10)) | rc << 10);\n"
              "    __asm__ __volatile__(\"fldcw %0\" : : \"m\"(cw));\n}\n\n", o);
    if (fam == FAM_POINTER)
        fprintf(o, "char *%s(int size, char *buf, const char *fmt, va_list ap);\n\n", op->entry);
    else if (op->int_size)
        fprintf(o, "int %s(char *buf, int size, const char *fmt, va_list ap);\n\n", op->entry);
    else if (strcmp(op->entry, "vsnprintf") != 0)
        fprintf(o, "int %s(char *buf, size_t size, const char *fmt, va_list ap);\n\n", op->entry);
    fputs("static int call(char *buf, size_t size, const char *fmt, ...)\n{\n    va_list ap;\n"
          "    int ret;\n    va_start(ap, fmt);\n", o);
    /* a directed case is called under its direction (C17 7.6.3, F.5), as scn_case_call does */
    static const char *const fe_call[SCN_ROUND__COUNT] = { "", "2); /* fesetround(FE_UPWARD) */",
                                                           "1); /* fesetround(FE_DOWNWARD) */",
                                                           "3); /* fesetround(FE_TOWARDZERO) */" };
    if (c->round != SCN_ROUND_NEAREST && c->round < SCN_ROUND__COUNT)
        fprintf(o, "    set_rounding(%s\n", fe_call[c->round]);
    if (fam == FAM_POINTER)
        fprintf(o, "    ret = 0;\n    if (size > 0) ret = (int)strlen(%s((int)size, buf, fmt, ap));\n", op->entry);
    else
        fprintf(o, "    ret = %s(buf, %s, fmt, ap);\n", op->entry, op->int_size ? "(int)size" : "size");
    if (c->round != SCN_ROUND_NEAREST) fputs("    set_rounding(0); /* fesetround(FE_TONEAREST) */\n", o);
    fputs("    va_end(ap);\n    return ret;\n}\n\n", o);
}

/* The helpers every reproducer carries: value builders and the comparison. */
static void emit_helpers(FILE *o, int fam)
{
    fputs("static __attribute__((unused)) double dbl_bits(uint64_t u)\n{\n    double d;\n"
          "    memcpy(&d, &u, sizeof d);\n    return d;\n}\n\n"
          "/* an x86 80-bit long double from its sign and exponent, and its significand */\n"
          "static __attribute__((unused)) long double ldbl_bits(unsigned se, uint64_t m)\n{\n"
          "    long double x;\n    unsigned char b[sizeof x];\n    memset(b, 0, sizeof b);\n"
          "    memcpy(b, &m, 8);\n    b[8] = (unsigned char)se;\n    b[9] = (unsigned char)(se >> 8);\n"
          "    memcpy(&x, b, sizeof x);\n    return x;\n}\n\n"
          "static void show(const char *who, const char *b, size_t n, int ret)\n{\n"
          "    printf(\"  %-8s ret %d, buffer \\\"\", who, ret);\n"
          "    for (size_t i = 0; i < n; i++) {\n        unsigned char ch = (unsigned char)b[i];\n"
          "        if (ch == '\"' || ch == '\\\\') printf(\"\\\\%c\", ch);\n"
          "        else if (ch >= 0x20 && ch < 0x7f) putchar(ch);\n"
          "        else printf(\"\\\\x%02x\", ch);\n    }\n    printf(\"\\\"\\n\");\n}\n\n", o);
    fputs("/* whether a %n store reached the 8 bytes after its object (all 0xa5 before the call) */\n"
          "static __attribute__((unused)) int wrote_past(const unsigned char *past)\n{\n"
          "    for (int i = 0; i < 8; i++)\n        if (past[i] != 0xa5) return 1;\n    return 0;\n}\n\n", o);
    fprintf(o, "#define GUARD %d\n\n", GUARD);
    fputs("/* buf holds size bytes between two guards of GUARD bytes, all 0xa5 before the call */\n"
          "static int check(size_t size, const char *buf, int ret, const char *exp, size_t nexp, int expret,\n"
          "                 int n_wrong)\n"
          "{\n    int bad = n_wrong || (expret < 0 ? ret >= 0 : ret != expret);\n    size_t n = 0;\n"
          "    for (size_t i = 1; i <= GUARD; i++)\n"
          "        if ((unsigned char)buf[-(long)i] != 0xa5) {\n"
          "            printf(\"  byte buf[-%zu] written, before the buffer\\n\", i);\n"
          "            bad = 1;\n            break;\n        }\n"
          "    if (size > 0 && expret >= 0) bad |= memcmp(buf, exp, nexp + 1) != 0;\n", o);
    if (fam == FAM_C99)
        fputs("    if (size > 0) n = ret >= 0 ? ((size_t)ret < size ? (size_t)ret : size - 1) : strnlen(buf, size);\n", o);
    else
        fputs("    if (size > 0) n = ret >= 0 && (size_t)ret < size ? (size_t)ret : strnlen(buf, size);\n", o);
    fputs("    for (size_t i = size; i < size + GUARD; i++)\n"
          "        if ((unsigned char)buf[i] != 0xa5) {\n"
          "            printf(\"  byte %zu written, past the size %zu\\n\", i, size);\n"
          "            bad = 1;\n            break;\n        }\n"
          "    printf(\"size %zu: %s\\n\", size, bad ? \"WRONG\" : \"as expected\");\n"
          "    show(\"expected\", exp, size > 0 && expret >= 0 ? nexp : 0, expret);\n"
          "    show(\"actual\", buf, n, ret);\n    return bad;\n}\n\n", o);
    /* A memory bug (a write below or past a buffer that reaches a return address or unmapped
     * memory) or a call that never returns must still be reported as the bug, with the other
     * sizes' results: each size runs in a child, its death or its silence is the bug seen. */
    fprintf(o, "#define CALL_SECONDS %d\n#define SANITIZER_EXIT %d\n\n"
               "/* Built with -fsanitize, a sanitizer's report ends the child with SANITIZER_EXIT, told\n"
               " * apart from a wrong output's 1 (the runtimes call these hooks; otherwise unused). */\n"
               "const char *__asan_default_options(void);\nconst char *__ubsan_default_options(void);\n"
               "const char *__asan_default_options(void) { return \"exitcode=%d\"; }\n"
               "const char *__ubsan_default_options(void) { return \"exitcode=%d\"; }\n\n",
            CALL_SECONDS, SANITIZER_EXIT, SANITIZER_EXIT, SANITIZER_EXIT);
    fputs("static const char *signal_name(int sig)\n{\n"
          "    return sig == SIGSEGV ? \"SIGSEGV, a bad memory access\" : sig == SIGBUS ? \"SIGBUS\"\n"
          "         : sig == SIGABRT ? \"SIGABRT, an abort (a stack-smashing or heap check?)\"\n"
          "         : sig == SIGFPE ? \"SIGFPE\" : sig == SIGILL ? \"SIGILL\" : \"a signal\";\n}\n\n"
          "/* Runs one size's call and checks in a child process: a call that crashes or never\n"
          " * returns is reported (and counted as the bug) instead of ending the program. */\n"
          "static int isolated(int (*at_size)(void), size_t size)\n{\n    int status;\n    pid_t pid;\n"
          "    fflush(stdout);\n    pid = fork();\n"
          "    if (pid < 0) /* no child to be had: the call in this process */\n        return at_size();\n"
          "    if (pid == 0) {\n        alarm(CALL_SECONDS);\n        status = at_size();\n"
          "        fflush(stdout);\n        _exit(status);\n    }\n"
          "    if (waitpid(pid, &status, 0) != pid) {\n        perror(\"waitpid\");\n        return 1;\n    }\n"
          "    if (WIFEXITED(status)) {\n"
          "        if (WEXITSTATUS(status) == SANITIZER_EXIT)\n"
          "            printf(\"size %zu: WRONG: a sanitizer reported the call (its report is on stderr)\\n\", size);\n"
          "        else if (WEXITSTATUS(status) > 1)\n"
          "            printf(\"size %zu: WRONG: the call's process exited with status %d\\n\", size, WEXITSTATUS(status));\n"
          "        return WEXITSTATUS(status) != 0;\n    }\n"
          "    if (WTERMSIG(status) == SIGALRM)\n"
          "        printf(\"size %zu: WRONG: the call did not return within %d s\\n\", size, CALL_SECONDS);\n"
          "    else\n"
          "        printf(\"size %zu: WRONG: the call died of signal %d (%s)\\n\", size, WTERMSIG(status),\n"
          "               signal_name(WTERMSIG(status)));\n"
          "    return 1;\n}\n\n", o);
}

static int ref_scn_call(void *t, char *buf, size_t size, const char *fmt, va_list ap)
{
    return scn_target_vscnprintf(t, buf, size, fmt, ap);
}

/* The reference's call at size (the family's return, its bytes, its %n values). */
static int reference_at(const struct scn_target *ref, int fam, struct scn_case *c, size_t size,
                        struct expect *e)
{
    size_t cap = size + GUARD;
    char *buf = malloc(cap);
    if (!buf) return -1;
    memset(buf, 0xa5, cap);
    if (fam == FAM_C99) e->ret = scn_case_call(ref->vsnprintf, c, buf, size);
    else e->ret = scn_case_call_ctx(ref_scn_call, (void *)ref, c, buf, size);
    e->nbytes = 0;
    if (size > 0 && e->ret >= 0)
        e->nbytes = (size_t)e->ret < size ? (size_t)e->ret : size - 1;
    e->bytes = buf;
    for (size_t i = 0; i < c->nargs; i++)
        e->nval[i] = c->args[i].type == SCN_ARG_N ? scn_case_n_value(c, i) : 0;
    return 0;
}

/* The call at the case's k-th size and its check, as function size_k of the program. */
static void emit_size_block(FILE *o, const struct scn_case *c, size_t k, size_t size, const struct expect *e)
{
    fprintf(o, "static int size_%zu(void) /* size %zu */\n{\n    int bad = 0;\n    {\n"
               "        static char guarded[GUARD + %zu + GUARD];\n        char *buf = guarded + GUARD;\n"
               "        static const char exp[] = ", k, size, size);
    emit_literal(o, e->bytes, e->nbytes);
    fputs(";\n        int ret;\n        memset(guarded, 0xa5, sizeof guarded);\n", o);
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_N)
            fprintf(o, "        memset(&a%zu, 0xa5, sizeof a%zu);\n        a%zu.v = 0;\n", i, i, i);
    fprintf(o, "        ret = call(buf, %zu, fmt", size);
    for (size_t i = 0; i < c->nargs; i++) {
        fputs(",\n                   ", o);
        emit_arg_expr(o, c, i);
    }
    /* a wrong %n value makes the size's verdict WRONG; its detail follows the verdict */
    fprintf(o, ");\n        bad |= check(%zu, buf, ret, exp, sizeof exp - 1, %d, 0", size, e->ret);
    for (size_t i = 0; i < c->nargs; i++)
        if (c->args[i].type == SCN_ARG_N)
            fprintf(o, "\n                     || (long long)a%zu.v != %lldLL || wrote_past(a%zu.past)", i, e->nval[i],
                    i);
    fputs(");\n", o);
    for (size_t i = 0; i < c->nargs; i++) {
        if (c->args[i].type != SCN_ARG_N) continue;
        fprintf(o, "        if ((long long)a%zu.v != %lldLL)\n"
                   "            printf(\"  %%%%n (argument %zu) stored %%lld, expected %lld\\n\", (long long)a%zu.v);\n",
                i, e->nval[i], i + 1, e->nval[i], i);
        fprintf(o, "        if (wrote_past(a%zu.past))\n"
                   "            printf(\"  %%%%n (argument %zu) wrote past its %s: the bytes after it changed\\n\");\n",
                i, i + 1, n_ctype(c->args[i].ntype));
    }
    fputs("    }\n    return bad;\n}\n\n", o);
}

static int parse_opts(int argc, char **argv, struct opts *op)
{
    memset(op, 0, sizeof *op);
    op->target = "glibc";
    op->family = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = !strcmp(a, "--target") ? &op->target : !strcmp(a, "--entry") ? &op->entry
                          : !strcmp(a, "--title") ? &op->title : !strcmp(a, "--build") ? &op->build
                          : !strcmp(a, "--version") ? &op->version : NULL;
        if (!strcmp(a, "--int-size")) {
            op->int_size = 1;
        } else if (!strcmp(a, "--family") && i + 1 < argc) {
            const char *f = argv[++i];
            op->family = !strcmp(f, "c99") ? FAM_C99 : !strcmp(f, "scnprintf") ? FAM_SCN
                       : !strcmp(f, "pointer") ? FAM_POINTER : -2;
            if (op->family == -2) return -1;
        } else if (slot && i + 1 < argc) {
            *slot = argv[++i];
        } else if (a[0] == '-' && a[1] == '-') {
            return -1;
        } else if (!op->casetext) {
            op->casetext = a;
        } else {
            return -1;
        }
    }
    return op->casetext ? 0 : -1;
}

static int default_family(const struct scn_target *t)
{
    return t->api == SCN_API_SCN ? FAM_SCN : t->api == SCN_API_POINTER ? FAM_POINTER : FAM_C99;
}

static int write_reproducer(FILE *o, struct opts *op, const struct scn_target *t, struct scn_case *c)
{
    int fam = op->family >= 0 ? op->family : default_family(t);
    if (!op->entry) op->entry = fam == FAM_C99 ? "vsnprintf" : "vscnprintf";
    const struct scn_target *ref = scn_target_find(t->dialect == SCN_DIALECT_KERNEL ? "ref-kernel" : "ref");
    size_t sizes[SCN_CASE_MAX_SIZES], nsizes = c->nsizes;
    memcpy(sizes, c->sizes, sizeof sizes);
    if (nsizes == 0) { /* one buffer the whole output fits in, with room to show a longer one */
        int full = scn_case_call_ctx(scn_target_full_call, (void *)ref, c, NULL, 0);
        sizes[nsizes++] = full >= 0 ? (size_t)full + 1 + 16 : 256;
    }
    char text[SCN_CASE_MAX_FMT * 4 + 4096];
    scn_case_format(c, text, sizeof text);
    emit_prologue(o, op, t, fam, c, text);
    emit_helpers(o, fam);
    fputs("static const char fmt[] = ", o);
    emit_literal(o, c->fmt, c->fmt_len);
    fputs(";\n", o);
    if (emit_arg_objects(o, c) < 0) return -1;
    fputc('\n', o);
    for (size_t k = 0; k < nsizes; k++) {
        struct expect e;
        if (reference_at(ref, fam, c, sizes[k], &e) < 0) return -1;
        emit_size_block(o, c, k, sizes[k], &e);
        free(e.bytes);
    }
    fputs("int main(void)\n{\n    int bad = 0;\n", o);
    for (size_t k = 0; k < nsizes; k++)
        fprintf(o, "    bad |= isolated(size_%zu, %zu);\n", k, sizes[k]);
    fputs("    puts(bad ? \"BUG PRESENT\" : \"ok: no difference\");\n    return bad;\n}\n", o);
    return 0;
}

static const char *executor_name, *executor_version;
static const char *executor_version_text(void) { return executor_version; }
static struct scn_target executor_target = {.version = executor_version_text, .dialect = SCN_DIALECT_ISO,
                                            .api = SCN_API_C99, .where = "executor"};

int main(int argc, char **argv)
{
    struct opts op;
    static struct scn_case c;
    char err[256];
    if (parse_opts(argc, argv, &op) < 0) {
        fputs("usage: scn-reproducer [--target NAME] [--entry FN] [--family c99|scnprintf|pointer]\n"
              "                      [--int-size] [--version TEXT] [--title TEXT] [--build LINE] CASE\n", stderr);
        return 2;
    }
    const struct scn_target *t = scn_target_find(op.target);
    if (!t && op.version) { /* an executor libc: an ISO C99 vsnprintf */
        executor_name = op.target;
        executor_version = op.version;
        executor_target.name = executor_name;
        t = &executor_target;
    }
    if (!t) {
        fprintf(stderr, "scn-reproducer: no target %s in this build\n", op.target);
        return 2;
    }
    if (scn_case_parse(op.casetext, strlen(op.casetext), &c, err, sizeof err) < 0) {
        fprintf(stderr, "scn-reproducer: %s\n", err);
        return 2;
    }
    /* the program is written whole before it goes out: no half program on an error */
    char *out = NULL;
    size_t outlen = 0;
    FILE *o = open_memstream(&out, &outlen);
    if (!o) return 2;
    int rc = write_reproducer(o, &op, t, &c);
    fclose(o);
    if (rc < 0) {
        fputs("scn-reproducer: the case has an argument with no standalone form (mem:VAF)\n", stderr);
        free(out);
        return 2;
    }
    fwrite(out, 1, outlen, stdout);
    free(out);
    return 0;
}
