/* The reducer of rootcause.h: scn_reduce() and scn_case_shape().
 *
 * A case is edited as a list of items (literal runs and specifications, like
 * the reference's FormatSection) over the case's arguments, then rendered
 * back to a case for each candidate. Arguments are rendered in the order
 * the specifications read them (sequential form) or numbered in the order
 * of their first use (positional form), so a reduced case is canonical.
 */
#define _GNU_SOURCE
#include "rootcause.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

#define MAX_ITEMS (2 * SCN_MAX_SPECS + 2)

struct item {
    int is_spec;
    size_t off, len;   /* literal: bytes in m->lit */
    unsigned flags;
    int width, prec;   /* SCN_SPEC_NONE / SCN_SPEC_STAR / value */
    char lenmod[5];
    char conv;
    int wa, pa, va;    /* argument slots, -1 none */
};

struct model {
    size_t n;
    struct item it[MAX_ITEMS];
    int positional;
    size_t tail_off, tail_len; /* from the first invalid specification (or a NUL byte) on, verbatim */
    size_t nargs;
    struct scn_arg args[SCN_CASE_MAX_ARGS];
    size_t nsizes;
    size_t sizes[SCN_CASE_MAX_SIZES];
    size_t lit_used;
    char lit[SCN_CASE_MAX_FMT + 1];
    _Alignas(16) char arena[SCN_CASE_ARENA]; /* strings only ever get shorter: offsets stay valid */
};

/* A tail that holds a '%' may read arguments (some printfs go on after an
 * invalid specification): while it is there, the arguments keep their
 * places and types, and only edits that change neither are tried. */
static int frozen(const struct model *m)
{
    return m->tail_len && memchr(m->lit + m->tail_off, '%', m->tail_len) != NULL;
}

static int from_case(const struct scn_case *c, enum scn_dialect d, struct model *m)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t ns = scn_scan_specs(c, d, sp, SCN_MAX_SPECS), at = 0;
    memset(m, 0, offsetof(struct model, lit));
    memcpy(m->arena, c->arena, sizeof m->arena);
    memcpy(m->args, c->args, sizeof m->args);
    m->nargs = c->nargs;
    m->nsizes = c->nsizes;
    memcpy(m->sizes, c->sizes, sizeof m->sizes);
    m->positional = 0;
    size_t end = strnlen(c->fmt, c->fmt_len);
    for (size_t i = 0; i < ns; i++) {
        const struct scn_spec *s = &sp[i];
        if (s->invalid) {
            end = s->start;
            break;
        }
        if (s->start > at) {
            struct item *L = &m->it[m->n++];
            L->off = m->lit_used;
            L->len = s->start - at;
            memcpy(m->lit + m->lit_used, c->fmt + at, L->len);
            m->lit_used += L->len;
        }
        struct item *S = &m->it[m->n++];
        S->is_spec = 1;
        S->flags = s->flags;
        S->width = s->width;
        S->prec = s->prec;
        memcpy(S->lenmod, s->len, sizeof S->lenmod);
        S->conv = s->conv;
        S->wa = s->warg;
        S->pa = s->parg;
        S->va = s->varg;
        if (s->pos > 0) m->positional = 1;
        at = s->end;
    }
    if (end > at) { /* literal text after the last specification */
        struct item *L = &m->it[m->n++];
        L->off = m->lit_used;
        L->len = end - at;
        memcpy(m->lit + m->lit_used, c->fmt + at, L->len);
        m->lit_used += L->len;
        at = end;
    }
    m->tail_off = m->lit_used;
    m->tail_len = c->fmt_len > at ? c->fmt_len - at : 0;
    memcpy(m->lit + m->lit_used, c->fmt + at, m->tail_len);
    m->lit_used += m->tail_len;
    return 0;
}

/* ------------------------------------------------------------ rendering */

static int is_int_conv(char c) { return c && strchr("diouxXbB", c) != NULL; }
static int is_float_conv(char c) { return c && strchr("aAeEfFgG", c) != NULL; }

struct fbuf {
    char *p;
    size_t n, cap;
    int over;
};

static void put(struct fbuf *b, const char *s, size_t n)
{
    if (b->n + n > b->cap) {
        b->over = 1;
        return;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void putf(struct fbuf *b, const char *fmt, int v)
{
    char t[24];
    int l = snprintf(t, sizeof t, fmt, v);
    put(b, t, (size_t)l);
}

/* The positional number of each slot: the order of first use. */
static void number_slots(const struct model *m, int *num)
{
    int next = 1;
    for (size_t i = 0; i < SCN_CASE_MAX_ARGS; i++) num[i] = frozen(m) ? (int)i + 1 : 0;
    if (frozen(m)) return;
    for (size_t i = 0; i < m->n; i++) {
        const struct item *it = &m->it[i];
        if (!it->is_spec) continue;
        int s[3] = { it->va, it->wa, it->pa }; /* the value first: "%1$*2$d" reads naturally */
        for (int k = 0; k < 3; k++)
            if (s[k] >= 0 && !num[s[k]]) num[s[k]] = next++;
    }
}

/* The specification text of item it; shape: literal numbers as N. */
static void spec_text(const struct item *it, const int *num, int positional, int shape, struct fbuf *b)
{
    put(b, "%", 1);
    if (positional && it->va >= 0) putf(b, "%d$", num[it->va]);
    for (int k = 0; k < 5; k++)
        if (it->flags & (1u << k)) put(b, &SCN_FLAG_CHARS[k], 1);
    if (it->width == SCN_SPEC_STAR) {
        put(b, "*", 1);
        if (positional) putf(b, "%d$", num[it->wa]);
    } else if (it->width >= 0) {
        if (shape) put(b, "N", 1);
        else putf(b, "%d", it->width);
    }
    if (it->prec == SCN_SPEC_STAR) {
        put(b, ".*", 2);
        if (positional) putf(b, "%d$", num[it->pa]);
    } else if (it->prec >= 0) {
        if (shape) put(b, ".N", 2);
        else putf(b, ".%d", it->prec);
    }
    /* a shape names the conversion's class: the reproducer has the exact one */
    char conv = it->conv;
    if (shape && is_int_conv(conv)) conv = 'd';
    if (shape && strchr("eEfFgG", conv)) conv = 'f';
    if (shape && (conv == 'A')) conv = 'a';
    if (!(shape && (conv == 'f' || conv == 'a'))) put(b, it->lenmod, strlen(it->lenmod));
    put(b, &conv, 1);
}

static int render(const struct model *m, struct scn_case *c)
{
    char f[SCN_CASE_MAX_FMT];
    struct fbuf b = { f, 0, sizeof f, 0 };
    int num[SCN_CASE_MAX_ARGS];
    int order[SCN_CASE_MAX_ARGS * 3];
    size_t no = 0;
    number_slots(m, num);
    for (size_t i = 0; i < m->n; i++) {
        const struct item *it = &m->it[i];
        if (!it->is_spec) {
            put(&b, m->lit + it->off, it->len);
            continue;
        }
        spec_text(it, num, m->positional, 0, &b);
        if (!m->positional && !frozen(m)) {
            if (it->wa >= 0) order[no++] = it->wa;
            if (it->pa >= 0) order[no++] = it->pa;
            if (it->va >= 0) order[no++] = it->va;
        }
    }
    put(&b, m->lit + m->tail_off, m->tail_len);
    if (b.over) return -1;
    scn_case_init(c, f, b.n);
    if (frozen(m)) {
        for (size_t s = 0; s < m->nargs; s++) order[no++] = (int)s;
    } else if (m->positional) {
        int maxn = 0;
        for (size_t s = 0; s < SCN_CASE_MAX_ARGS; s++)
            if (num[s] > maxn) maxn = num[s];
        for (int k = 1; k <= maxn; k++)
            for (size_t s = 0; s < SCN_CASE_MAX_ARGS; s++)
                if (num[s] == k) order[no++] = (int)s;
    }
    if (no > SCN_CASE_MAX_ARGS) return -1;
    for (size_t k = 0; k < no; k++)
        if (scn_case_add_arg(c, &m->args[order[k]], m->arena)) return -1;
    c->nsizes = m->nsizes;
    memcpy(c->sizes, m->sizes, sizeof c->sizes);
    return 0;
}

/* ------------------------------------------------------------ reducing */

struct red {
    struct model cur, cand;
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
    if (render(&R->cand, &R->tmp) || !R->still(&R->tmp, R->ctx)) return 0;
    memcpy(&R->cur, &R->cand, sizeof R->cand);
    R->kept++;
    return 1;
}

static void begin(struct red *R) { memcpy(&R->cand, &R->cur, sizeof R->cur); }

static size_t count_specs(const struct model *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) k += m->it[i].is_spec;
    return k;
}

/* Keeps items [i] only (and no tail). */
static void only_item(struct model *m, size_t i)
{
    m->it[0] = m->it[i];
    m->n = 1;
    m->tail_len = 0;
}

static void drop_item(struct model *m, size_t i)
{
    memmove(&m->it[i], &m->it[i + 1], (m->n - i - 1) * sizeof m->it[0]);
    m->n--;
}

static int uses(const struct model *m, int slot)
{
    int k = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct item *it = &m->it[i];
        if (it->is_spec) k += (it->wa == slot) + (it->pa == slot) + (it->va == slot);
    }
    return k;
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
    if (count_specs(&R->cur)) { /* no specification at all: "a" (what fails on any output) */
        begin(R);
        R->cand.n = 1;
        R->cand.tail_len = 0;
        R->cand.it[0] = (struct item){ 0 };
        R->cand.it[0].off = R->cand.lit_used;
        R->cand.it[0].len = 1;
        if (R->cand.lit_used < SCN_CASE_MAX_FMT) {
            R->cand.lit[R->cand.lit_used++] = 'a';
            if (attempt(R)) return 1;
        }
    }
    if (count_specs(&R->cur) > 1 || R->cur.tail_len || R->cur.n > count_specs(&R->cur)) {
        for (size_t i = 0; i < R->cur.n; i++) {
            if (!R->cur.it[i].is_spec) continue;
            begin(R);
            only_item(&R->cand, i);
            if (attempt(R)) return 1;
        }
    }
    if (R->cur.tail_len) {
        begin(R);
        R->cand.tail_len = 0;
        progress |= attempt(R);
    }
    for (size_t i = R->cur.n; i-- > 0;) {
        if (R->cur.n <= 1 && R->cur.it[0].is_spec) break;
        if (i >= R->cur.n || (frozen(&R->cur) && R->cur.it[i].is_spec)) continue;
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
    const struct item *it = &R->cur.it[i];
    if (it->width == SCN_SPEC_STAR && uses(&R->cur, it->wa) == 1) {
        int v = (int)R->cur.args[it->wa].v.i;
        begin(R);
        struct item *c = &R->cand.it[i];
        if (v < 0) c->flags |= SCN_FL_MINUS;
        c->width = v < 0 ? (v == -2147483647 - 1 ? 2147483647 : -v) : v;
        c->wa = -1;
        if (c->width == 0) c->width = SCN_SPEC_NONE;
        progress |= attempt(R);
    }
    it = &R->cur.it[i];
    if (it->prec == SCN_SPEC_STAR && uses(&R->cur, it->pa) == 1) {
        int v = (int)R->cur.args[it->pa].v.i;
        begin(R);
        struct item *c = &R->cand.it[i];
        c->prec = v < 0 ? SCN_SPEC_NONE : v;
        c->pa = -1;
        progress |= attempt(R);
    }
    return progress;
}

/* Each part of each specification dropped, the conversion simplified. */
static int pass_spec(struct red *R, enum scn_dialect d)
{
    int progress = 0;
    int fixed = frozen(&R->cur);
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
        const struct item *it = &R->cur.it[i];
        int va = it->va, own = va >= 0 && uses(&R->cur, va) == 1;
        if (it->lenmod[0] && own && (is_int_conv(it->conv) || is_float_conv(it->conv))) {
            begin(R);
            struct item *c = &R->cand.it[i];
            struct scn_arg *a = &R->cand.args[va];
            c->lenmod[0] = 0;
            if (is_float_conv(c->conv)) { /* "l" changes nothing, "L" reads a long double */
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
        int signed_type = signed_type_of(it->lenmod);
        if (own && is_int_conv(it->conv) && it->conv != 'd' && signed_type >= 0) {
            begin(R);
            struct scn_arg *a = &R->cand.args[va];
            R->cand.it[i].conv = 'd';
            if (signed_type == SCN_ARG_INT) a->v.i = (int)a->v.i;
            a->type = (unsigned char)signed_type;
            progress |= attempt(R);
        }
        progress |= star_to_literal(R, i);
        it = &R->cur.it[i];
        if (!it->lenmod[0] && own && is_float_conv(it->conv) && d == SCN_DIALECT_ISO) {
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
static int *spec_number(struct model *m, size_t i, int prec) { return prec ? &m->it[i].prec : &m->it[i].width; }

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

static int is_star_slot(const struct model *m, int slot)
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
        if (!uses(&R->cur, (int)s)) continue;
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
    from_case(c, d, &R.cur);
    for (int round = 0; round < 6 && R.tried < R.budget; round++) {
        int p = pass_structure(&R);
        p |= pass_spec(&R, d);
        p |= pass_values(&R);
        if (!p) break;
    }
    if (R.kept && !render(&R.cur, &R.tmp)) memcpy(c, &R.tmp, sizeof *c);
    return R.kept;
}

size_t scn_case_shape(const struct scn_case *c, enum scn_dialect d, char *out, size_t cap)
{
    static struct model m;
    from_case(c, d, &m);
    int num[SCN_CASE_MAX_ARGS];
    number_slots(&m, num);
    char tmp[1024];
    struct fbuf b = { tmp, 0, sizeof tmp - 1, 0 };
    for (size_t i = 0; i < m.n; i++)
        if (m.it[i].is_spec) spec_text(&m.it[i], num, m.positional, 1, &b);
    for (size_t i = 0; i < m.tail_len; i++)
        if (m.lit[m.tail_off + i] == '%') {
            put(&b, "%!", 2);
            break;
        }
    if (b.n == 0) put(&b, "-", 1);
    tmp[b.n] = 0;
    snprintf(out, cap, "%s", tmp);
    return b.n;
}
