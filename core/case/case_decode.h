/* The fuzzer-byte decoder's own pieces shared by its files (not for
 * callers, whose interface is case.h's scn_case_from_bytes): the byte
 * reader, a specification and the generator's state, and the functions of
 * each part. case_decode.c has the byte grammar and the entry table; the
 * spec builder is case_decode_spec.c, the value classes
 * case_decode_values.c, the kernel's %p extensions case_decode_kptr.c. */
#ifndef SCN_CASE_DECODE_H
#define SCN_CASE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

/* ---- the byte reader: missing bytes read as 0 ---- */

struct rd {
    const uint8_t *p;
    size_t n, i;
};

static inline unsigned rb(struct rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }
/* little-endian multi-byte reads, in a fixed order (never two rb() calls in
 * one expression: their order would be up to the compiler) */
static inline unsigned rb2(struct rd *r)
{
    unsigned lo = rb(r);
    return lo | rb(r) << 8;
}
static inline unsigned rb3(struct rd *r)
{
    unsigned lo = rb2(r);
    return lo | rb(r) << 16;
}

/* length modifiers */
enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_W8, L_W16, L_W32, L_W64, L_BIGL, L_X };

#define F_MINUS 1u
#define F_PLUS 2u
#define F_SPACE 4u
#define F_HASH 8u
#define F_ZERO 16u

struct spec {
    unsigned char conv, len, flags, wmode, pmode, is_px; /* is_px: 0, 'x' or 'K' after a kernel %p */
    unsigned char kx;          /* 'K': kptr_ext[kx - 1] */
    long long width, prec;     /* literal values */
    signed char warg, parg, varg; /* generation-order arg indices, -1 if none */
};

struct gen {
    struct scn_case *c;
    struct scn_arg tmp[SCN_CASE_MAX_ARGS];
    size_t nt;
    /* items: literal bytes stored in lit[], specs in sp[] */
    struct spec sp[SCN_CASE_MAX_ARGS + 64];
    size_t nsp;
    unsigned short item_lit_off[256], item_lit_len[256];
    short item_spec[256];
    size_t nitems;
    char lit[SCN_CASE_MAX_FMT];
    size_t litn;
    size_t est; /* estimated format length */
};

/* What a boundary value costs: a width is padded (and so is an integer's
 * precision, with zeros), a floating conversion's precision is computed
 * digit by digit, a %s precision only limits. */
enum big_use { BIG_PAD, BIG_FLOAT, BIG_LIMIT };

/* Where a boundary value is decoded: which values stay cheap there. */
enum big_where {
    BIG_ISO,    /* glibc and musl pad a field byte by byte */
    BIG_HUGE,   /* SCN_DECODE_HUGE: the targets count a field (the reference) */
    BIG_KERNEL, /* Linux keeps a literal width in 24 bits and a precision in 16,
                 * and clamps a '*' width to FIELD_WIDTH_MAX (2^23 - 1) */
};

/* What one decoding knows besides the case: the flags as the dialect makes
 * them, the header's choices, the state between items, the conversion table. */
struct dctx {
    unsigned flags;
    int kern, positional, robust;
    enum big_where where;
    int need_sep; /* 1: a '.' before an alphanumeric literal byte (after a kernel %p); 2: set by this item */
    int trailing; /* robust: a cut-short specification ends the format (cut[]), -1 none */
    unsigned nconv;
    char conv[32]; /* a conversion item's op % nconv picks one */
};

/* an ASCII letter or digit (what may not follow a kernel %p form unseparated) */
static inline int scn_dec_is_alnum(unsigned ch)
{
    return (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

/* ---- the generator (case_decode.c) ---- */

/* a literal item of n bytes (dropped when the items or the literal store are full) */
void scn_dec_item_lit(struct gen *g, const char *s, size_t n);

/* ---- the spec builder (case_decode_spec.c) ---- */

/* a conversion item: fb (flags, width mode, positional reuse), pb
 * (precision mode, length, value class), then its arguments in order:
 * width, precision, value; returns 0 (the format goes on) */
int scn_dec_item_conversion(struct gen *g, struct rd *r, unsigned op, struct dctx *x);

/* ---- the value classes (case_decode_values.c) ---- */

/* a new argument of the type (its index), -1 when the case is full */
int scn_dec_add_tmp(struct gen *g, int type);
/* the integer special value b picks (int_special[b % its length]) */
long long scn_dec_int_special(unsigned b);
/* x (finite, non-zero) outside 2^+-1100 brought within, sign and digits kept */
long double scn_dec_fold_ld(long double x);

/* A conversion's value argument, by class: each returns its index, or -1
 * when the conversion is left out. */
typedef int (*value_fn)(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r,
                        struct dctx *x);
int scn_dec_value_int(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
int scn_dec_value_char(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
int scn_dec_value_str(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
int scn_dec_value_ptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
int scn_dec_value_n(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
int scn_dec_value_float(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);

/* ---- the kernel's %p extensions (case_decode_kptr.c) ---- */

/* a %p extension (the choice byte, kptr_ext[]) and the bytes it reads */
int scn_dec_value_kptr(struct gen *g, struct spec *s, unsigned lsel, unsigned vc, struct rd *r, struct dctx *x);
/* the name after "%p" of the extension a spec's kx picks (kptr_ext[kx - 1]) */
const char *scn_dec_kptr_name(unsigned kx);

#endif /* SCN_CASE_DECODE_H */
