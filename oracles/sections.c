/* Cases as sections: see sections.h. */
#define _GNU_SOURCE
#include "sections.h"

#include <stdio.h>

#include "rootcause.h"
#include "scn_writer.h"

int scn_sections_frozen(const struct scn_sections *m)
{
    return m->tail_len && memchr(m->lit + m->tail_off, '%', m->tail_len) != NULL;
}

int scn_sections_of(const struct scn_case *c, enum scn_dialect d, struct scn_sections *m)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t ns = scn_scan_specs(c, d, sp, SCN_MAX_SPECS), at = 0;
    memset(m, 0, offsetof(struct scn_sections, lit));
    memcpy(m->arena, c->arena, sizeof m->arena);
    memcpy(m->args, c->args, sizeof m->args);
    m->nargs = c->nargs;
    m->nsizes = c->nsizes;
    m->round = c->round;
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
            struct scn_section *L = &m->it[m->n++];
            L->off = m->lit_used;
            L->len = s->start - at;
            memcpy(m->lit + m->lit_used, c->fmt + at, L->len);
            m->lit_used += L->len;
        }
        struct scn_section *S = &m->it[m->n++];
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
        struct scn_section *L = &m->it[m->n++];
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


/* "n$": a position */
static void put_pos(struct scn_writer *b, int n)
{
    scn_w_uint(b, (unsigned)n);
    scn_w_ch(b, '$');
}

/* The positional number of each slot: the order of first use. */
static void number_slots(const struct scn_sections *m, int *num)
{
    int next = 1;
    for (size_t i = 0; i < SCN_CASE_MAX_ARGS; i++) num[i] = scn_sections_frozen(m) ? (int)i + 1 : 0;
    if (scn_sections_frozen(m)) return;
    for (size_t i = 0; i < m->n; i++) {
        const struct scn_section *it = &m->it[i];
        if (!it->is_spec) continue;
        int s[3] = { it->va, it->wa, it->pa }; /* the value first: "%1$*2$d" reads naturally */
        for (int k = 0; k < 3; k++)
            if (s[k] >= 0 && !num[s[k]]) num[s[k]] = next++;
    }
}

static int is_ascii_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* The specification text of item it; shape: literal numbers as N. */
static void spec_text(const struct scn_section *it, const int *num, int positional, int shape, struct scn_writer *b)
{
    scn_w_put(b, "%", 1);
    if (positional && it->va >= 0) put_pos(b, num[it->va]);
    for (int k = 0; k < 5; k++)
        if (it->flags & (1u << k)) scn_w_put(b, &SCN_FLAG_CHARS[k], 1);
    if (it->width == SCN_SPEC_STAR) {
        scn_w_put(b, "*", 1);
        if (positional) put_pos(b, num[it->wa]);
    } else if (it->width >= 0) {
        if (shape) scn_w_put(b, "N", 1);
        else scn_w_uint(b, (unsigned)it->width);
    }
    if (it->prec == SCN_SPEC_STAR) {
        scn_w_put(b, ".*", 2);
        if (positional) put_pos(b, num[it->pa]);
    } else if (it->prec >= 0) {
        if (shape) scn_w_put(b, ".N", 2);
        else {
            scn_w_ch(b, '.');
            scn_w_uint(b, (unsigned)it->prec);
        }
    }
    /* a shape names the conversion's class: the reproducer has the exact one */
    char conv = it->conv;
    if (shape && scn_is_int_conv(conv)) conv = 'd';
    if (shape && strchr("eEfFgG", conv)) conv = 'f';
    if (shape && (conv == 'A')) conv = 'a';
    if (!(shape && (conv == 'f' || conv == 'a'))) scn_w_put(b, it->lenmod, strlen(it->lenmod));
    scn_w_put(b, &conv, 1);
}

int scn_sections_render(const struct scn_sections *m, struct scn_case *c)
{
    char f[SCN_CASE_MAX_FMT + 1]; /* a format of SCN_CASE_MAX_FMT bytes and the writer's NUL */
    struct scn_writer b = scn_writer_on(f, sizeof f);
    int num[SCN_CASE_MAX_ARGS];
    int order[SCN_CASE_MAX_ARGS * 3];
    size_t no = 0;
    number_slots(m, num);
    for (size_t i = 0; i < m->n; i++) {
        const struct scn_section *it = &m->it[i];
        if (!it->is_spec) {
            scn_w_put(&b, m->lit + it->off, it->len);
            continue;
        }
        spec_text(it, num, m->positional, 0, &b);
        if (!m->positional && !scn_sections_frozen(m)) {
            if (it->wa >= 0) order[no++] = it->wa;
            if (it->pa >= 0) order[no++] = it->pa;
            if (it->va >= 0) order[no++] = it->va;
        }
    }
    scn_w_put(&b, m->lit + m->tail_off, m->tail_len);
    if (!scn_w_fits(&b)) return -1;
    scn_case_init(c, f, b.len);
    if (scn_sections_frozen(m)) {
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
    c->round = m->round;
    memcpy(c->sizes, m->sizes, sizeof c->sizes);
    return 0;
}


size_t scn_sections_count(const struct scn_sections *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) k += m->it[i].is_spec;
    return k;
}

int scn_sections_uses(const struct scn_sections *m, int slot)
{
    int k = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct scn_section *it = &m->it[i];
        if (it->is_spec) k += (it->wa == slot) + (it->pa == slot) + (it->va == slot);
    }
    return k;
}


size_t scn_case_shape(const struct scn_case *c, enum scn_dialect d, char *out, size_t cap)
{
    static struct scn_sections m;
    scn_sections_of(c, d, &m);
    int num[SCN_CASE_MAX_ARGS];
    number_slots(&m, num);
    char tmp[1024];
    struct scn_writer b = scn_writer_on(tmp, sizeof tmp);
    for (size_t i = 0; i < m.n; i++) {
        if (!m.it[i].is_spec) continue;
        spec_text(&m.it[i], num, m.positional, 1, &b);
        /* the kernel's %p extension letters name what was printed (%pI6c,
         * %pM, %pE...): a bug in one extension is a root cause of its own */
        if (d == SCN_DIALECT_KERNEL && m.it[i].conv == 'p' && i + 1 < m.n && !m.it[i + 1].is_spec) {
            const char *l = m.lit + m.it[i + 1].off;
            size_t k = 0;
            while (k < m.it[i + 1].len && k < 6 && is_ascii_alnum((unsigned char)l[k])) k++;
            scn_w_put(&b, l, k);
        }
    }
    for (size_t i = 0; i < m.tail_len; i++)
        if (m.lit[m.tail_off + i] == '%') {
            scn_w_put(&b, "%!", 2);
            break;
        }
    if (b.len == 0) scn_w_put(&b, "-", 1);
    scn_w_end(&b);
    snprintf(out, cap, "%s", tmp);
    return b.len;
}

