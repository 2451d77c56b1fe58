/* The reducer of rootcause.h: scn_reduce(). Each candidate is an edit of
 * the case's sections (sections.h), rendered back to a case and kept when
 * the caller's predicate says the same failure still happens. */
#define _GNU_SOURCE
#include "rootcause.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"

/* ------------------------------------------------------------ reducing */

struct red {
    struct scn_sections cur, cand;
    struct scn_case tmp;
    scn_still_fn still;
    void *ctx;
    unsigned tried, budget, kept;
};

/* Renders R->cand and keeps it when the failure is still there. */
static int attempt(struct red *R)
{
    if (R->tried >= R->budget) return 0;
    R->tried++;
    if (scn_sections_render(&R->cand, &R->tmp) || !R->still(&R->tmp, R->ctx)) return 0;
    memcpy(&R->cur, &R->cand, sizeof R->cand);
    R->kept++;
    return 1;
}

static void begin(struct red *R) { memcpy(&R->cand, &R->cur, sizeof R->cur); }


/* Keeps items [i] only (and no tail). */
static void only_item(struct scn_sections *m, size_t i)
{
    m->it[0] = m->it[i];
    m->n = 1;
    m->tail_len = 0;
}

static void drop_item(struct scn_sections *m, size_t i)
{
    memmove(&m->it[i], &m->it[i + 1], (m->n - i - 1) * sizeof m->it[0]);
    m->n--;
}

/* What fails on a long output whatever makes it long (a count past 4096
 * bytes, a buffer that grows): the whole case as one "%<w>d" of 0, for
 * widths 2^k + 8 (the width is then halved while it still fails). */
static int one_wide_spec(struct red *R)
{
    for (int k = 8; k <= 16; k++) {
        begin(R);
        struct scn_sections *m = &R->cand;
        m->n = 1;
        m->tail_len = 0;
        m->positional = 0;
        m->it[0] = (struct scn_section){ .is_spec = 1, .width = (1 << k) + 8, .prec = SCN_SPEC_NONE,
                                         .conv = 'd', .wa = -1, .pa = -1, .va = 0 };
        m->args[0] = (struct scn_arg){ .type = SCN_ARG_INT };
        if (m->nargs < 1) m->nargs = 1;
        if (attempt(R)) return 1;
    }
    return 0;
}

static int is_plain_d(const struct scn_sections *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->it[i].is_spec) return m->it[i].conv == 'd' && !m->it[i].lenmod[0];
    return 0;
}

/* The structure: sizes, then one specification alone, then fewer items. */
static int pass_structure(struct red *R)
{
    int progress = 0;
    if (R->cur.nsizes) {
        begin(R);
        R->cand.nsizes = 0;
        progress |= attempt(R);
    }
    if (scn_sections_count(&R->cur)) { /* no specification at all: "a" (what fails on any output) */
        begin(R);
        R->cand.n = 1;
        R->cand.tail_len = 0;
        R->cand.it[0] = (struct scn_section){ 0 };
        R->cand.it[0].off = R->cand.lit_used;
        R->cand.it[0].len = 1;
        if (R->cand.lit_used < SCN_CASE_MAX_FMT) {
            R->cand.lit[R->cand.lit_used++] = 'a';
            if (attempt(R)) return 1;
        }
    }
    if (scn_sections_count(&R->cur) > 1 || R->cur.tail_len || R->cur.n > scn_sections_count(&R->cur)) {
        for (size_t i = 0; i < R->cur.n; i++) {
            if (!R->cur.it[i].is_spec) continue;
            begin(R);
            only_item(&R->cand, i);
            if (attempt(R)) return 1;
        }
    }
    size_t nspec = scn_sections_count(&R->cur);
    if ((nspec > 1 || (nspec == 1 && !is_plain_d(&R->cur))) && one_wide_spec(R)) return 1;
    if (R->cur.tail_len) {
        begin(R);
        R->cand.tail_len = 0;
        progress |= attempt(R);
    }
    /* counted down without wrapping past 0: an OSS-Fuzz UBSan build reports an unsigned
     * wrap (recoverably) */
    for (size_t j = R->cur.n; j > 0; j--) {
        size_t i = j - 1;
        if (R->cur.n <= 1 && R->cur.it[0].is_spec) break;
        if (i >= R->cur.n || (scn_sections_frozen(&R->cur) && R->cur.it[i].is_spec)) continue;
        begin(R);
        drop_item(&R->cand, i);
        progress |= attempt(R);
    }
    /* shorter literal runs */
    for (size_t i = 0; i < R->cur.n; i++) {
        if (R->cur.it[i].is_spec) continue;
        while (R->cur.it[i].len > 1) {
            begin(R);
            R->cand.it[i].len = 1;
            if (attempt(R)) { progress = 1; break; }
            begin(R);
            R->cand.it[i].len /= 2;
            if (!attempt(R)) break;
            progress = 1;
        }
        /* then a character at a time off its end: a kernel %p's extension
         * letters begin the literal after it, and "%pI6c." needs "I6c", which
         * halving "I6c." never tries */
        while (R->cur.it[i].len > 1) {
            begin(R);
            R->cand.it[i].len--;
            if (!attempt(R)) break;
            progress = 1;
        }
    }
    return progress;
}


/* The signed argument type a length modifier reads for %d (-1: none
 * that the case model has, e.g. wN). */
static int signed_type_of(const char *len)
{
    if (!len[0] || !strcmp(len, "hh") || !strcmp(len, "h")) return SCN_ARG_INT;
    if (!strcmp(len, "l")) return SCN_ARG_LONG;
    if (!strcmp(len, "ll") || !strcmp(len, "q")) return SCN_ARG_LLONG;
    if (!strcmp(len, "j")) return SCN_ARG_INTMAX;
    if (!strcmp(len, "z")) return SCN_ARG_SSIZE;
    if (!strcmp(len, "t")) return SCN_ARG_PTRDIFF;
    return -1;
}

/* "*" widths and precisions written as the numbers they read ("%*d" of
 * -5 is "%-5d"), when no other specification reads the same argument */
static int star_to_literal(struct red *R, size_t i)
{
    int progress = 0;
    const struct scn_section *it = &R->cur.it[i];
    if (it->width == SCN_SPEC_STAR && scn_sections_uses(&R->cur, it->wa) == 1) {
        int v = (int)R->cur.args[it->wa].v.i;
        begin(R);
        struct scn_section *c = &R->cand.it[i];
        if (v < 0) c->flags |= SCN_FL_MINUS;
        c->width = v < 0 ? (v == -2147483647 - 1 ? 2147483647 : -v) : v;
        c->wa = -1;
        if (c->width == 0) c->width = SCN_SPEC_NONE;
        progress |= attempt(R);
    }
    it = &R->cur.it[i];
    if (it->prec == SCN_SPEC_STAR && scn_sections_uses(&R->cur, it->pa) == 1) {
        int v = (int)R->cur.args[it->pa].v.i;
        begin(R);
        struct scn_section *c = &R->cand.it[i];
        c->prec = v < 0 ? SCN_SPEC_NONE : v;
        c->pa = -1;
        progress |= attempt(R);
    }
    return progress;
}

/* Any other conversion (not an integer one, not %n) written as "%d" of 1,
 * then of 0, its length modifier dropped: a failure that needs a
 * conversion only to read an argument (one after it then reads the wrong
 * one) is then met in one shape whatever the fuzzer put there. */
static int to_plain_d(struct red *R, size_t i, enum scn_dialect d)
{
    const struct scn_section *it = &R->cur.it[i];
    int va = it->va;
    if (d != SCN_DIALECT_ISO || va < 0 || scn_sections_uses(&R->cur, va) != 1 || it->conv == 'n' ||
        scn_is_int_conv(it->conv) || R->cur.args[va].type == SCN_ARG_N)
        return 0;
    for (int v = 1; v >= 0; v--) {
        begin(R);
        R->cand.it[i].conv = 'd';
        R->cand.it[i].lenmod[0] = 0;
        R->cand.args[va] = (struct scn_arg){ .type = SCN_ARG_INT, .v.i = v };
        if (attempt(R)) return 1;
    }
    return 0;
}

/* A flag the failure needs written as the first flag ("-+ #0" order) that
 * it still fails with, and a * precision it needs as a * width: a failure
 * that needs some flag, or some * argument, then has one shape (picolibc's
 * positional bug needs a flag and a * argument, any of them). */
static int canonical_flag_star(struct red *R, size_t i)
{
    int progress = 0;
    unsigned fl = R->cur.it[i].flags & 31u;
    if (fl && !(fl & (fl - 1))) { /* one flag: an earlier one instead */
        for (unsigned k = 0; (1u << k) < fl; k++) {
            begin(R);
            R->cand.it[i].flags = (R->cand.it[i].flags & ~31u) | (1u << k);
            if (attempt(R)) {
                progress = 1;
                break;
            }
        }
    }
    const struct scn_section *it = &R->cur.it[i];
    if (it->prec == SCN_SPEC_STAR && it->width == SCN_SPEC_NONE) {
        begin(R);
        struct scn_section *c = &R->cand.it[i];
        c->width = SCN_SPEC_STAR;
        c->wa = c->pa;
        c->prec = SCN_SPEC_NONE;
        c->pa = -1;
        progress |= attempt(R);
    }
    return progress;
}

/* Each part of each specification dropped, the conversion simplified. */
static int pass_spec(struct red *R, enum scn_dialect d)
{
    int progress = 0;
    int fixed = scn_sections_frozen(&R->cur);
    if (R->cur.positional && !fixed) {
        begin(R);
        R->cand.positional = 0;
        progress |= attempt(R);
    }
    for (size_t i = 0; i < R->cur.n; i++) {
        if (!R->cur.it[i].is_spec) continue;
        for (int k = 0; k < 5; k++) {
            if (!(R->cur.it[i].flags & (1u << k))) continue;
            begin(R);
            R->cand.it[i].flags &= ~(1u << k);
            progress |= attempt(R);
        }
        if (R->cur.it[i].width != SCN_SPEC_NONE && !(fixed && R->cur.it[i].width == SCN_SPEC_STAR)) {
            begin(R);
            R->cand.it[i].width = SCN_SPEC_NONE;
            R->cand.it[i].wa = -1;
            progress |= attempt(R);
        }
        if (R->cur.it[i].prec != SCN_SPEC_NONE && !(fixed && R->cur.it[i].prec == SCN_SPEC_STAR)) {
            begin(R);
            R->cand.it[i].prec = SCN_SPEC_NONE;
            R->cand.it[i].pa = -1;
            progress |= attempt(R);
        }
        if (fixed) continue; /* the rest changes argument types or places */
        const struct scn_section *it = &R->cur.it[i];
        int va = it->va, own = va >= 0 && scn_sections_uses(&R->cur, va) == 1;
        if (it->lenmod[0] && own && (scn_is_int_conv(it->conv) || scn_is_float_conv(it->conv))) {
            begin(R);
            struct scn_section *c = &R->cand.it[i];
            struct scn_arg *a = &R->cand.args[va];
            c->lenmod[0] = 0;
            if (scn_is_float_conv(c->conv)) { /* "l" changes nothing, "L" reads a long double */
                if (a->type == SCN_ARG_LDOUBLE) a->v.d = (double)a->v.ld;
                a->type = SCN_ARG_DOUBLE;
            } else if (c->conv == 'd' || c->conv == 'i') {
                a->v.i = (int)a->v.i;
                a->type = SCN_ARG_INT;
            } else {
                a->v.u = (unsigned)a->v.u;
                a->type = SCN_ARG_UINT;
            }
            progress |= attempt(R);
        }
        it = &R->cur.it[i];
        if (it->conv == 'n' && it->lenmod[0] && own && R->cur.args[va].type == SCN_ARG_N) {
            /* a count stored through an int: what a wrong count needs */
            begin(R);
            R->cand.it[i].lenmod[0] = 0;
            R->cand.args[va].ntype = SCN_N_INT;
            progress |= attempt(R);
        }
        it = &R->cur.it[i];
        int signed_type = signed_type_of(it->lenmod);
        if (own && scn_is_int_conv(it->conv) && it->conv != 'd' && signed_type >= 0) {
            begin(R);
            struct scn_arg *a = &R->cand.args[va];
            R->cand.it[i].conv = 'd';
            if (signed_type == SCN_ARG_INT) a->v.i = (int)a->v.i;
            a->type = (unsigned char)signed_type;
            progress |= attempt(R);
        }
        progress |= star_to_literal(R, i);
        if (scn_sections_count(&R->cur) > 1) progress |= to_plain_d(R, i, d) | canonical_flag_star(R, i);
        it = &R->cur.it[i];
        if (!it->lenmod[0] && own && scn_is_float_conv(it->conv) && d == SCN_DIALECT_ISO) {
            static const char simpler[] = "fe";
            for (const char *s = simpler; *s && R->cur.it[i].conv != 'f'; s++) {
                if (R->cur.it[i].conv == *s) break;
                begin(R);
                R->cand.it[i].conv = *s;
                if (attempt(R)) {
                    progress = 1;
                    break;
                }
            }
        }
    }
    return progress;
}

/* Smaller numbers: widths, precisions, argument values. */
static int *spec_number(struct scn_sections *m, size_t i, int prec) { return prec ? &m->it[i].prec : &m->it[i].width; }

static int shrink_number(struct red *R, size_t i, int prec)
{
    static const int first[] = { 1, 0 };
    for (size_t k = 0; k < 2; k++) {
        if (*spec_number(&R->cur, i, prec) == first[k]) return 0;
        if (first[k] == 0 && !prec) continue; /* a width of 0 would read as the 0 flag */
        begin(R);
        *spec_number(&R->cand, i, prec) = first[k];
        if (attempt(R)) return 1;
    }
    int progress = 0;
    while (*spec_number(&R->cur, i, prec) > 1) {
        begin(R);
        *spec_number(&R->cand, i, prec) /= 2;
        if (!attempt(R)) break;
        progress = 1;
    }
    return progress;
}

static int is_star_slot(const struct scn_sections *m, int slot)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->it[i].is_spec && (m->it[i].wa == slot || m->it[i].pa == slot)) return 1;
    return 0;
}

static int try_arg(struct red *R, int slot, const struct scn_arg *v)
{
    begin(R);
    R->cand.args[slot] = *v;
    return attempt(R);
}

static int shrink_signed(struct red *R, int slot, long long v, int keep_sign)
{
    static const long long simple[] = { 0, 1, -1 };
    struct scn_arg a = R->cur.args[slot];
    for (size_t k = 0; k < 3; k++) {
        if (v == simple[k]) return 0;
        if (keep_sign && (simple[k] < 0) != (v < 0)) continue;
        a.v.i = simple[k];
        if (try_arg(R, slot, &a)) return 1;
    }
    int progress = 0;
    while (v / 2 != 0 && v / 2 != v) {
        a.v.i = v / 2;
        if (!try_arg(R, slot, &a)) break;
        v /= 2;
        progress = 1;
    }
    return progress;
}

static int shrink_unsigned(struct red *R, int slot, unsigned long long v)
{
    struct scn_arg a = R->cur.args[slot];
    for (unsigned long long s = 0; s < 2; s++) {
        if (v == s) return 0;
        a.v.u = s;
        if (try_arg(R, slot, &a)) return 1;
    }
    int progress = 0;
    while (v / 2 > 0) {
        a.v.u = v / 2;
        if (!try_arg(R, slot, &a)) break;
        v /= 2;
        progress = 1;
    }
    return progress;
}

/* floats: 0, 1, -1, the integer part, then the value with fewer mantissa bits */
static int shrink_float(struct red *R, int slot)
{
    struct scn_arg a = R->cur.args[slot];
    int ld = a.type == SCN_ARG_LDOUBLE;
    long double v = ld ? a.v.ld : (long double)a.v.d;
    if (isnan(v) || isinf(v)) return 0;
    long double cand[3 + 1 + 12];
    size_t n = 0;
    cand[n++] = 0.0L;
    cand[n++] = 1.0L;
    cand[n++] = -1.0L;
    cand[n++] = truncl(v);
    static const int bits[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 56 };
    int e;
    long double m = frexpl(v, &e);
    for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) cand[n++] = ldexpl(roundl(ldexpl(m, bits[k])), e - bits[k]);
    for (size_t k = 0; k < n; k++) {
        if (cand[k] == v && signbit(cand[k]) == signbit(v)) return 0; /* nothing simpler than v itself */
        if (ld) a.v.ld = cand[k];
        else a.v.d = (double)cand[k];
        if (try_arg(R, slot, &a)) return 1;
    }
    return 0;
}

static int shrink_string(struct red *R, int slot)
{
    struct scn_arg a = R->cur.args[slot];
    if (a.is_null || a.len == 0) return 0;
    a.len = 0;
    if (try_arg(R, slot, &a)) return 1;
    for (uint32_t l = 1; l < R->cur.args[slot].len; l = l * 2) {
        a.len = l;
        if (try_arg(R, slot, &a)) return 1;
    }
    return 0;
}

static int pass_values(struct red *R)
{
    int progress = 0;
    for (size_t i = 0; i < R->cur.n; i++) {
        if (!R->cur.it[i].is_spec) continue;
        if (R->cur.it[i].width >= 0) progress |= shrink_number(R, i, 0);
        if (R->cur.it[i].prec >= 0) progress |= shrink_number(R, i, 1);
        int wa = R->cur.it[i].wa, pa = R->cur.it[i].pa;
        /* a negative width means '-': keep the sign, move toward -1 / 1 */
        if (wa >= 0) progress |= shrink_signed(R, wa, (int)R->cur.args[wa].v.i, 1);
        if (pa >= 0) progress |= shrink_signed(R, pa, (int)R->cur.args[pa].v.i, 1);
    }
    for (size_t s = 0; s < R->cur.nargs; s++) {
        if (!scn_sections_uses(&R->cur, (int)s)) continue;
        struct scn_arg *a = &R->cur.args[s];
        switch (a->type) {
        case SCN_ARG_INT: case SCN_ARG_LONG: case SCN_ARG_LLONG: case SCN_ARG_INTMAX: case SCN_ARG_SSIZE:
        case SCN_ARG_PTRDIFF:
            if (!is_star_slot(&R->cur, (int)s)) progress |= shrink_signed(R, (int)s, a->v.i, 0);
            break;
        case SCN_ARG_UINT: case SCN_ARG_ULONG: case SCN_ARG_ULLONG: case SCN_ARG_UINTMAX: case SCN_ARG_SIZE:
            progress |= shrink_unsigned(R, (int)s, a->v.u);
            break;
        case SCN_ARG_DOUBLE: case SCN_ARG_LDOUBLE: progress |= shrink_float(R, (int)s); break;
        case SCN_ARG_STR: case SCN_ARG_WSTR: progress |= shrink_string(R, (int)s); break;
        default: break;
        }
    }
    return progress;
}

unsigned scn_reduce(struct scn_case *c, enum scn_dialect d, scn_still_fn still, void *ctx, unsigned budget)
{
    static struct red R;
    R.still = still;
    R.ctx = ctx;
    R.tried = R.kept = 0;
    R.budget = budget;
    scn_sections_of(c, d, &R.cur);
    for (int round = 0; round < 6 && R.tried < R.budget; round++) {
        int p = pass_structure(&R);
        p |= pass_spec(&R, d);
        p |= pass_values(&R);
        if (!p) break;
    }
    if (R.kept && !scn_sections_render(&R.cur, &R.tmp)) memcpy(c, &R.tmp, sizeof *c);
    return R.kept;
}

