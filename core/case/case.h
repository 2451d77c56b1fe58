/* scnfuzz test-case model: one case = one printf call (format + typed arguments
 * + optional buffer sizes). The text form is specified in docs/CASE_FORMAT.md;
 * scn_case_parse / scn_case_format convert between it and this model, and
 * text -> model -> text round-trips exactly (the parser accepts only the
 * canonical form the printer emits).
 *
 * Fixed capacity, no malloc: a struct scn_case owns all its memory (strings,
 * wide strings and mem bytes live in an arena inside the struct), so it can be
 * reused across millions of fuzzer executions.
 *
 * ABI: scn_case_call builds an x86-64 System V va_list by hand (see case_call.c);
 * this file refuses to compile on any other ABI.
 */
#ifndef SCN_CASE_H
#define SCN_CASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "scn_base.h" /* enum scn_dialect, scn_vprintf_fn */

#if !defined(__x86_64__) || defined(_WIN32) || defined(__ILP32__)
#error "scnfuzz's case model builds x86-64 System V va_lists by hand: x86-64 LP64 SysV only"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SCN_CASE_MAX_FMT   4096  /* format bytes (excluding the terminating NUL) */
#define SCN_CASE_MAX_ARGS  32
#define SCN_CASE_MAX_SIZES 16
#define SCN_CASE_ARENA     8192  /* bytes for str/wstr/mem argument storage */
#define SCN_CASE_MAX_ERRNO 4095  /* mem:ERR(-E): 1 <= E <= MAX_ERRNO (the kernel's include/linux/err.h) */

enum scn_arg_type {
    SCN_ARG_INT = 0, SCN_ARG_LONG, SCN_ARG_LLONG, SCN_ARG_INTMAX, SCN_ARG_SSIZE, SCN_ARG_PTRDIFF,
    SCN_ARG_UINT, SCN_ARG_ULONG, SCN_ARG_ULLONG, SCN_ARG_UINTMAX, SCN_ARG_SIZE,
    SCN_ARG_DOUBLE, SCN_ARG_LDOUBLE,
    SCN_ARG_WINT, SCN_ARG_STR, SCN_ARG_WSTR, SCN_ARG_PTR, SCN_ARG_N,
    SCN_ARG_MEM, /* const void * to a copy of given bytes (the kernel's %pM %pI4 %ph ...) */
    SCN_ARG__COUNT
};

/* Type of the object a %n argument points to. */
enum scn_n_type {
    SCN_N_INT = 0, SCN_N_SCHAR, SCN_N_SHORT, SCN_N_LONG, SCN_N_LLONG, SCN_N_INTMAX,
    SCN_N_SIZE, SCN_N_PTRDIFF, SCN_N__COUNT
};

/* The rounding direction a case's call is made under (C17 7.6.3, F.5 and
 * IEEE 754-2019 5.12.2: binary-to-decimal conversion honours the current
 * direction; 7.21.6.1p13's correctly rounded digits are rounded in it). Text
 * form: a token round=upward|downward|towardzero after the arguments; the
 * default, round to nearest, is not written. */
enum scn_round {
    SCN_ROUND_NEAREST = 0, SCN_ROUND_UPWARD, SCN_ROUND_DOWNWARD, SCN_ROUND_TOWARDZERO,
    SCN_ROUND__COUNT
};

struct scn_arg {
    unsigned char type;    /* enum scn_arg_type */
    unsigned char ntype;   /* enum scn_n_type (SCN_ARG_N only) */
    unsigned char is_null; /* str/wstr/ptr/mem: the NULL pointer */
    unsigned char is_err;  /* mem: the error pointer (void *)(long)v.i, -MAX_ERRNO <= v.i <= -1 */
    unsigned char is_vaf;  /* mem: a struct va_format (the kernel's %pV) whose fmt is the bytes
                              (arena: the bytes and a NUL) and whose va_list reads only zeros */
    uint32_t off;          /* str, mem: byte offset in arena; wstr: offset (4-aligned) */
    uint32_t len;          /* str, mem: bytes; wstr: wchar_t count (str/wstr without the NUL) */
    union {
        long long i;           /* signed integer types, mem's error value */
        unsigned long long u;  /* unsigned types, wint, ptr */
        double d;
        long double ld;
    } v;
};

struct scn_case {
    size_t fmt_len;                   /* bytes of fmt (may contain NUL bytes; the call stops at the first) */
    size_t nargs;
    size_t nsizes;                    /* 0: the runner chooses */
    size_t arena_used;
    unsigned char round;              /* enum scn_round: the direction the call is made under */
    struct scn_arg args[SCN_CASE_MAX_ARGS];
    size_t sizes[SCN_CASE_MAX_SIZES];
    /* %n targets of the last call, zeroed before each call (index = argument index). */
    union { signed char hh; short h; int i; long l; long long ll; intmax_t j; size_t z; ptrdiff_t t; }
        nslot[SCN_CASE_MAX_ARGS];
    char fmt[SCN_CASE_MAX_FMT + 1];   /* always NUL-terminated */
    _Alignas(16) char arena[SCN_CASE_ARENA];
};

/* Type names as in the text form ("int", "ldouble", "wstr", ...), NULL if out of range. */
const char *scn_arg_type_name(enum scn_arg_type t);
const char *scn_n_type_name(enum scn_n_type t);
/* The text form's name of a direction ("nearest", "upward", "downward",
 * "towardzero"), NULL if out of range. */
const char *scn_round_name(enum scn_round r);

/* ---- text form ---- */

/* Parses one case (without a trailing newline). Returns 0, or -1 with a
 * message "col N: expected ..." in err (columns are 1-based bytes). */
int scn_case_parse(const char *text, size_t len, struct scn_case *c, char *err, size_t errlen);

/* Writes the canonical text form (NUL-terminated, truncated to cap).
 * Returns the full length (like snprintf), so out may be NULL with cap 0. */
size_t scn_case_format(const struct scn_case *c, char *out, size_t cap);

/* Parses a quoted string token ("...") as in the format field, starting at
 * text[0] == '"'. Writes the bytes to out (cap bytes max; NUL-terminated if
 * room) and stores their count in *outlen. Returns the bytes consumed from
 * text, or -1 with an "col N: ..." message (columns relative to col0). */
long scn_quoted_parse(const char *text, size_t len, size_t col0, char *out, size_t cap,
                      size_t *outlen, char *err, size_t errlen);
/* Canonical quoted form of bytes; returns the full length like snprintf. */
size_t scn_quoted_format(const char *bytes, size_t n, char *out, size_t cap);

/* ---- building cases in code ---- */

void scn_case_init(struct scn_case *c, const char *fmt, size_t fmt_len);
/* Each returns 0, or -1 when the case is full (args or arena). */
int scn_case_add_int(struct scn_case *c, enum scn_arg_type t, long long v);       /* signed types */
int scn_case_add_uint(struct scn_case *c, enum scn_arg_type t, unsigned long long v); /* unsigned, wint, ptr */
int scn_case_add_double(struct scn_case *c, double v);
int scn_case_add_ldouble(struct scn_case *c, long double v);
int scn_case_add_str(struct scn_case *c, const char *s, size_t n);   /* s NULL: the NULL pointer */
int scn_case_add_wstr(struct scn_case *c, const wchar_t *s, size_t n);
int scn_case_add_ptr(struct scn_case *c, const void *p);
int scn_case_add_n(struct scn_case *c, enum scn_n_type t);
int scn_case_add_mem(struct scn_case *c, const void *p, size_t n);   /* p NULL: the NULL pointer */
/* The error pointer ERR_PTR(e): -1 too when e is not in [-SCN_CASE_MAX_ERRNO, -1]. */
int scn_case_add_mem_err(struct scn_case *c, long long e);
/* mem:VAF("fmt"): a pointer to a struct va_format { fmt, va } for the kernel's
 * %pV, fmt a NUL-terminated copy of the n bytes, va a va_list of zeros. */
int scn_case_add_mem_vaf(struct scn_case *c, const char *fmt, size_t n);
/* The struct va_format a mem:VAF argument (index i) passes: fmt (the
 * caller's copy of its bytes and NUL) and a va_list of zero words. Rebuilt
 * by each call: scn_case_call does it; a caller passing its own copies
 * (certification) calls it once per call. */
void *scn_case_vaf_struct(size_t i, const char *fmt);

/* ---- calling ---- */

/* Calls fn(buf, size, c->fmt, ap) where ap is an x86-64 SysV va_list built by
 * hand as a real call snprintf(buf, size, fmt, ...) makes it (psABI 3.5.7):
 * gp_offset 24 (three named GP arguments), fp_offset 48; integers and
 * pointers (int/uint sign-/zero-extended) in the register save area's GP
 * slots while one is left, doubles in its 16-byte XMM slots while one is
 * left, the rest in the overflow area in order (8-byte slots), every long
 * double there too, 16-byte aligned in a 16-byte slot; the unused slots and
 * the overflow area's tail are zero. str/wstr arguments point into c->arena (NUL-terminated), %n
 * arguments into c->nslot, whose object is zeroed before the call (the rest of
 * its slot poisoned: scn_case_n_value says when a store wrote past the object).
 * A mem argument
 * points to a copy of its bytes made for the call in the case model's call
 * pool (case_call.c), 16-byte aligned; under ASan every byte of the pool but the
 * copies is poisoned during the call, so a read past (or before) a copy is
 * reported. A VAF mem argument passes a pointer to a struct va_format
 * { const char *fmt; va_list *va; } (the kernel's include/linux/printk.h) in
 * a static slot of its argument index, rebuilt by every call: fmt is the copy
 * of its bytes and a NUL in the pool, va a va_list with gp_offset 48,
 * fp_offset 304 and an overflow area of zero words (more than the format can
 * read), so every conversion of the inner format reads 0 or NULL. The pool
 * and the slots are one for the process: calls with mem arguments are for
 * one thread at a time, and a call made from inside fn with another case that
 * has mem arguments overwrites the copies. */
int scn_case_call(scn_vprintf_fn fn, struct scn_case *c, char *buf, size_t size);

/* Same, for a callee that needs a context pointer. */
typedef int (*scn_vprintf_ctx_fn)(void *ctx, char *buf, size_t size, const char *fmt, va_list ap);
int scn_case_call_ctx(scn_vprintf_ctx_fn fn, void *ctx, struct scn_case *c, char *buf, size_t size);

/* ---- the rounding direction of a call (case_round.c) ---- */

/* The floating-point environment's rounding direction set for a directed
 * case and put back after it, as fesetround does on x86-64 but with no libm
 * (the case model is built against libcs without one): both the SSE control
 * register MXCSR (RC, bits 13-14: double and float arithmetic) and the x87
 * control word (RC, bits 10-11: long double arithmetic, glibc's fegetround),
 * saved whole and restored whole. SCN_ROUND_NEAREST changes nothing: the
 * call runs in the caller's environment. */
struct scn_round_saved { unsigned int mxcsr; unsigned short x87; unsigned char set; };
void scn_round_enter(enum scn_round r, struct scn_round_saved *saved);
void scn_round_leave(const struct scn_round_saved *saved);

/* scn_case_call_ctx's one hook: when c's direction is not to nearest, *fn
 * and *ctx become a trampoline (its state in *rc, the caller's) that enters
 * the direction, calls the original and leaves it; otherwise they are left
 * alone. A call abandoned by a fault (a siglongjmp out of the callee) cannot
 * leave: the next call through here puts the environment back first. */
struct scn_round_call { scn_vprintf_ctx_fn fn; void *ctx; unsigned char round; };
void scn_case_round_wrap(const struct scn_case *c, struct scn_round_call *rc, scn_vprintf_ctx_fn *fn,
                         void **ctx);

/* The call watch: with now set (a clock in ns that never reads 0), every
 * scn_case_call_ctx stores the buffer size in *size (if size is not NULL)
 * and now() in *since before it calls the target, and 0 in *since when the
 * call returns, so that a supervisor in another process (since in shared
 * memory) sees a call that does not return (programs/conform_isolate.c).
 * scn_case_watch_calls(NULL, NULL, NULL) ends it. */
void scn_case_watch_calls(volatile uint64_t *since, volatile size_t *size, uint64_t (*now)(void));

/* Value stored by the last call through the i-th %n argument (sign-extended;
 * size_t read as unsigned then converted). i is the argument index.
 * SCN_N_WRITTEN_PAST when the call wrote past the object (a %n or %hhn
 * stored as a wider type: no count printf stores is negative). */
#define SCN_N_WRITTEN_PAST (-0x7fffffffffffffffLL - 1)
long long scn_case_n_value(const struct scn_case *c, size_t i);
/* The i-th (%n) argument's slot made ready for a call, as scn_case_call does
 * it: for a caller that builds its own argument list from c (certification). */
void *scn_case_n_slot(struct scn_case *c, size_t i);
/* Indices of the %n arguments: writes up to max of them to idx, returns the count. */
size_t scn_case_n_args(const struct scn_case *c, size_t *idx, size_t max);

/* ---- fuzzer input decoding ---- */

enum scn_decode_flags {
    /* Allow format garbage: invalid conversion specifiers, a lone '%' at the
     * end, specifications cut short. Never an argument-type mismatch. */
    SCN_DECODE_ROBUST = 1u << 0,
    SCN_DECODE_C23 = 1u << 1,        /* ISO: also %b %B and wN/wfN lengths */
    SCN_DECODE_NO_FLOAT = 1u << 2,   /* no a/e/f/g conversions */
    SCN_DECODE_NO_POSITIONAL = 1u << 3,
    SCN_DECODE_NO_WIDE = 1u << 4,    /* no %lc / %ls */
    SCN_DECODE_NO_N = 1u << 5,       /* no %n */
    SCN_DECODE_NO_BINARY = 1u << 6,  /* with SCN_DECODE_C23: still no %b/%B */
    SCN_DECODE_SHORT_LD = 1u << 7,   /* long doubles of %e/%f/%g kept within 2^+-1100 */
    /* kernel dialect: also the %p extensions that read bytes (%pM %pI4 %pI6c
     * %ph %pa %pU ..., docs/CHOICES.md) with mem arguments, and %pV with a
     * mem:VAF argument (case_decode.c) */
    SCN_DECODE_KPTR = 1u << 8,
    /* ISO: boundary widths and precisions up to INT_MAX, '*' values down to
     * INT_MIN, for targets that count a field instead of writing it (the
     * reference): glibc pads a field of INT_MAX byte by byte, for seconds.
     * The kernel dialect has them without the flag (its targets clamp). */
    SCN_DECODE_HUGE = 1u << 9,
    /* ISO: a floating conversion's special value (value class 0) may also
     * draw the case's rounding direction from its choice byte's unused high
     * bits (case_decode_values.c: one floating value in 64), so that a few
     * float cases in 100 run under upward, downward or toward zero. Only
     * for callers that call every target through scn_case_call (which sets
     * the direction): certification's own call does not (cert_call.c). */
    SCN_DECODE_ROUND = 1u << 10,
};

/* Decodes fuzzer bytes into a well-defined case of the dialect: every
 * conversion gets an argument of exactly its type (positional formats are
 * consistent), widths and precisions are <= SCN_DECODE_MAX_WIDTH but for
 * rare boundary values (case_decode.c: 1023 ... 131072 and, where no target
 * pads them (a %s precision, a negative '*' precision, the kernel dialect,
 * SCN_DECODE_HUGE), INT_MAX, INT_MIN and the kernel's 2^23 and 2^24
 * limits; none past INT_MAX), strings are
 * real memory, floating values are canonical (no NaN payloads, no invalid
 * long double encodings) so the text form round-trips. The kernel dialect
 * uses only: d i u o x X c s p px % with hh h l ll z t, flags - + space # 0,
 * width/precision (also *), no floats/j/n/positional/%lc/%ls, and %p/%px
 * always followed by an ASCII non-alphanumeric byte (< 0x80) or the end;
 * with SCN_DECODE_KPTR also the %p extensions of case_decode_kptr.c's kptr_ext[]
 * (likewise followed), each with a mem argument: NULL, ERR(-E), or exactly
 * the bytes it reads (%ph: as many as its width says, at most 64; %pV: a
 * VAF whose short format is built from the input).
 * The byte grammar (see case_decode.c) is: a header byte, then a stream of
 * items (literal runs, conversions with their flag/width/precision/length/
 * value bytes). Never fails: returns the number of input bytes consumed. */
#define SCN_DECODE_MAX_WIDTH 512
size_t scn_case_from_bytes(const uint8_t *data, size_t size, struct scn_case *c,
                           enum scn_dialect dialect, unsigned flags);

/* ---- conformance corpus lines (corpus/NAME.tsv, docs/CASE_FORMAT.md) ---- */

#define SCN_EXPECT_MAX 65536
struct scn_expect {
    int kind;                 /* SCN_EXPECT_NONE ('-'), _OUTPUT, _ERR ('!err') */
    size_t len;
    size_t nn;                /* number of n= values */
    long long n[SCN_CASE_MAX_ARGS];
    char bytes[SCN_EXPECT_MAX + 1];
};
enum { SCN_EXPECT_NONE = 0, SCN_EXPECT_OUTPUT = 1, SCN_EXPECT_ERR = 2 };

struct scn_corpus_entry {
    char category[64];
    char kind[16];            /* "std" or "impl" */
    char citation[256];
    const char *case_text;    /* points into the parsed line */
    size_t case_len;
    struct scn_case c;
    struct scn_expect iso, kernel;
};

/* Parses one TSV line (without the newline). Returns 1 for a case, 0 for a
 * comment/blank line, -1 with "field F col N: ..." in err. */
int scn_corpus_parse_line(const char *line, size_t len, struct scn_corpus_entry *e,
                          char *err, size_t errlen);
/* Parses an expectation field ("\"...\" n=1,2", "!err" or "-"). Returns 0, or
 * -1 with "col N: ..." in err (columns relative to col0). */
int scn_expect_parse(const char *s, size_t n, size_t col0, struct scn_expect *x, char *err,
                     size_t errlen);
/* Canonical text of an expectation: "\"...\" n=1,2", "!err" or "-". */
size_t scn_expect_format(const struct scn_expect *x, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SCN_CASE_H */
