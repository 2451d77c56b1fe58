/* The rules tables (allowances, known bugs and gaps): loading (each
 * pattern compiled once into terms, rule_terms.c), which target a rule
 * blames, and the match. See rules.h. */
#define _GNU_SOURCE
#include "rules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_registry.h"
#include "rule_terms.h"

#include "scn_allowances_data.h" /* generated: scn_allowances_tsv[] */
#include "scn_known_bugs_data.h" /* generated: scn_known_bugs_tsv[] */

#define MAX_RULES 240 /* memoised verdicts keep a rule index in a short (oracles/differential.c) */

enum table { T_ALLOW = 0, T_KNOWN = 1 };
static struct scn_rule tab[2][MAX_RULES];
static size_t tab_n[2];
static int loaded[2];
static unsigned generation = 1;

const char *scn_rule_kind_name(int kind)
{
    return kind == SCN_RULE_KNOWN_BUG ? "known-bug" : kind == SCN_RULE_KNOWN_GAP ? "known-gap" : "allowance";
}

const char *scn_rule_classification(int kind)
{
    return kind == SCN_RULE_ALLOWANCE ? "implementation-defined" : scn_rule_kind_name(kind);
}

unsigned scn_rules_generation(void) { return generation; }

/* ------------------------------------------------------------ loading */

static int copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap) return -1;
    memcpy(dst, s, n);
    dst[n] = 0;
    return 0;
}

#define ERR(...) do { if (err) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* "oracle:shape:target", none of the three empty */
static int signature_ok(const char *sig)
{
    const char *a = strchr(sig, ':'), *b = strrchr(sig, ':');
    return a && b && a != b && a > sig && b > a + 1 && b[1];
}

/* Columns: allowances  id dialect pattern targets citation
 *          known bugs  id kind dialect pattern targets versions reproducer [signature] citation */
static int load(enum table t, const char *text, size_t len, char *err, size_t errlen)
{
    static struct scn_rule next[MAX_RULES];
    size_t ncol = t == T_ALLOW ? 5 : 8;
    size_t n = 0, lineno = 0, pos = 0;
    if (err && errlen) err[0] = 0;
    while (pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n') e++;
        const char *line = text + pos;
        size_t ll = e - pos;
        pos = e + 1;
        lineno++;
        if (ll && line[ll - 1] == '\r') ll--;
        if (ll == 0 || line[0] == '#') continue;
        if (t == T_KNOWN) { /* the signature column is optional (a table of one's own) */
            size_t tabs = 0;
            for (size_t i = 0; i < ll; i++) tabs += line[i] == '\t';
            ncol = tabs >= 8 ? 9 : 8;
        }
        const char *f[9];
        size_t fl[9], nf = 0, s = 0;
        for (size_t i = 0; i <= ll && nf < ncol; i++)
            if (i == ll || (line[i] == '\t' && nf < ncol - 1)) {
                f[nf] = line + s;
                fl[nf++] = i - s;
                s = i + 1;
            }
        if (nf != ncol) ERR("line %zu: expected %zu tab-separated fields, got %zu", lineno, ncol, nf);
        for (size_t i = 0; i < ncol; i++)
            if (!fl[i]) ERR("line %zu: empty field %zu", lineno, i + 1);
        if (n >= MAX_RULES) ERR("line %zu: more than %d entries", lineno, MAX_RULES);
        struct scn_rule *r = &next[n];
        memset(r, 0, sizeof *r);
        size_t k = 0; /* column cursor */
        if (copy_field(r->id, sizeof r->id, f[k], fl[k])) ERR("line %zu: id too long", lineno);
        k++;
        r->kind = SCN_RULE_ALLOWANCE;
        if (t == T_KNOWN) {
            if (fl[k] == 3 && !memcmp(f[k], "bug", 3)) r->kind = SCN_RULE_KNOWN_BUG;
            else if (fl[k] == 3 && !memcmp(f[k], "gap", 3)) r->kind = SCN_RULE_KNOWN_GAP;
            else ERR("line %zu: kind must be bug or gap", lineno);
            k++;
        }
        if (fl[k] == 3 && !memcmp(f[k], "iso", 3)) r->dialect = SCN_DIALECT_ISO;
        else if (fl[k] == 6 && !memcmp(f[k], "kernel", 6)) r->dialect = SCN_DIALECT_KERNEL;
        else if (fl[k] == 1 && f[k][0] == '*') r->dialect = -1;
        else ERR("line %zu: dialect must be iso, kernel or *", lineno);
        k++;
        if (copy_field(r->pattern, sizeof r->pattern, f[k], fl[k]) ||
            copy_field(r->targets, sizeof r->targets, f[k + 1], fl[k + 1]))
            ERR("line %zu: a field is too long", lineno);
        k += 2;
        if (t == T_KNOWN) {
            if (copy_field(r->versions, sizeof r->versions, f[k], fl[k]) ||
                copy_field(r->reproducer, sizeof r->reproducer, f[k + 1], fl[k + 1]))
                ERR("line %zu: a field is too long", lineno);
            k += 2;
            if (ncol == 9) {
                if (copy_field(r->signature, sizeof r->signature, f[k], fl[k]) || !signature_ok(r->signature))
                    ERR("line %zu: the signature must be oracle:shape:target", lineno);
                k++;
            }
        }
        if (copy_field(r->citation, sizeof r->citation, f[k], fl[k])) ERR("line %zu: citation too long", lineno);
        char bad[sizeof r->pattern];
        if (scn_terms_compile(r, bad, sizeof bad)) ERR("line %zu: unknown pattern term '%s'", lineno, bad);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(next[i].id, r->id)) ERR("line %zu: id '%s' used twice", lineno, r->id);
        n++;
    }
    memcpy(tab[t], next, n * sizeof next[0]);
    tab_n[t] = n;
    loaded[t] = 1;
    generation++;
    return (int)n;
}

int scn_allowances_load(const char *text, size_t len, char *err, size_t errlen)
{
    return load(T_ALLOW, text, len, err, errlen);
}

int scn_known_bugs_load(const char *text, size_t len, char *err, size_t errlen)
{
    return load(T_KNOWN, text, len, err, errlen);
}

static int load_file(enum table t, const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) ERR("%s: %s", path, strerror(errno));
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf, fp);
    int big = !feof(fp);
    fclose(fp);
    if (big) ERR("%s: larger than %zu bytes", path, sizeof buf);
    char e2[200];
    int r = load(t, buf, n, e2, sizeof e2);
    if (r < 0) ERR("%s: %s", path, e2);
    return r;
}

int scn_allowances_load_file(const char *path, char *err, size_t errlen)
{
    return load_file(T_ALLOW, path, err, errlen);
}

int scn_known_bugs_load_file(const char *path, char *err, size_t errlen)
{
    return load_file(T_KNOWN, path, err, errlen);
}

/* A broken table is the user's set-up, not a finding: exit 2 naming it. */
static void ensure_loaded(void)
{
    static const struct { const char *env, *embedded_name; const unsigned char *data; size_t len; } src[2] = {
        { "SCN_ALLOWANCES", "oracles/allowances.tsv", scn_allowances_tsv, sizeof scn_allowances_tsv - 1 },
        { "SCN_KNOWN_BUGS", "oracles/known_bugs.tsv", scn_known_bugs_tsv, sizeof scn_known_bugs_tsv - 1 },
    };
    for (int t = 0; t < 2; t++) {
        if (loaded[t]) continue;
        char err[300];
        const char *env = getenv(src[t].env);
        int r = env && *env ? load_file((enum table)t, env, err, sizeof err)
                            : load((enum table)t, (const char *)src[t].data, src[t].len, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "scnfuzz: %s%s%s\n", env && *env ? "" : src[t].embedded_name,
                    env && *env ? "" : ": ", err);
            exit(2);
        }
    }
}

size_t scn_rules_count(void)
{
    ensure_loaded();
    return tab_n[T_ALLOW] + tab_n[T_KNOWN];
}

const struct scn_rule *scn_rule_at(size_t i)
{
    ensure_loaded();
    if (i < tab_n[T_ALLOW]) return &tab[T_ALLOW][i];
    i -= tab_n[T_ALLOW];
    return i < tab_n[T_KNOWN] ? &tab[T_KNOWN][i] : NULL;
}

/* ------------------------------------------------------------ matching */

/* A target named X-exec is libc X through the executor (the matrix's
 * dietlibc-exec, klibc-exec, `./scnfuzz targets`' musl-exec): X's rules are its. */
static int target_listed(const char *list, const char *name)
{
    if (!strcmp(list, "*")) return 1;
    size_t nl = strlen(name);
    if (nl > 5 && !strcmp(name + nl - 5, "-exec")) nl -= 5;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == nl && !memcmp(p, name, l)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static int same_output(const struct scn_blame *b, size_t x, size_t y)
{
    if (b->ret[x] < 0 || b->ret[y] < 0) return b->ret[x] < 0 && b->ret[y] < 0;
    if (b->ret[x] != b->ret[y] || b->len[x] != b->len[y] || memcmp(b->out[x], b->out[y], b->len[x])) return 0;
    /* the same bytes, a different %n store (stb's %hn writes an int past
     * the short): that target is as wrong as one that prints a wrong byte */
    if (!b->nn || !b->nv) return 1;
    return b->nn[x] == b->nn[y] && (!b->nn[x] || !memcmp(b->nv[x], b->nv[y], b->nn[x] * sizeof *b->nv[x]));
}

/* Which of the pair (ta, tb) a known bug or gap of the listed targets
 * blames (bit 0 ta, bit 1 tb; 0: it explains nothing here): a listed target
 * that is the one that is wrong. */
static unsigned blamed(const struct scn_rule *r, const struct scn_culprit *k, const char *ta, const char *tb)
{
    const struct scn_blame *b = k->all;
    if (!b) return target_listed(r->targets, tb) ? 2u : 0u;
    const char *pair[2] = { ta, tb };
    unsigned wrong = 0;
    for (int i = 0; i < 2; i++) {
        if (!target_listed(r->targets, pair[i])) continue;
        size_t x = 0;
        while (x < b->n && strcmp(b->names[x], pair[i])) x++;
        if (x == b->n || x == b->ref || same_output(b, x, b->ref)) continue;
        int shared = 0; /* an unlisted target prints the same: the reference is the odd one out */
        for (size_t u = 0; u < b->n && !shared; u++)
            shared = u != x && u != b->ref && !(b->known_wrong >> u & 1) && !target_listed(r->targets, b->names[u]) &&
                     same_output(b, u, x);
        if (!shared) wrong |= 1u << i;
    }
    return wrong;
}

/* A rule made by hand (a test's, through scn_rule_explains), not loaded:
 * its pattern compiled on a copy; NULL when a term is unknown. */
static const struct scn_rule *compiled(const struct scn_rule *r, struct scn_rule *tmp)
{
    if (r->nterms) return r;
    *tmp = *r;
    char bad[sizeof tmp->pattern];
    return scn_terms_compile(tmp, bad, sizeof bad) ? NULL : tmp;
}

/* on_output: whether the finding's oracle compares outputs (-1: not known yet) */
static int matches(const struct scn_rule *al, enum scn_dialect dialect, const struct scn_case *c,
                   const struct scn_culprit *k, const char *ta, const char *tb, int on_output)
{
    static struct scn_rule tmp;
    if (!(al = compiled(al, &tmp))) return 0;
    if (al->dialect >= 0 && al->dialect != (int)dialect) return 0;
    unsigned wrong = al->kind != SCN_RULE_ALLOWANCE ? blamed(al, k, ta, tb)
                     : target_listed(al->targets, ta) && target_listed(al->targets, tb) ? 3u : 0u;
    if (!wrong) return 0;
    struct scn_term_ctx x = { c, dialect, k, k->s, k->s && k->s->varg >= 0 ? &c->args[k->s->varg] : NULL,
                              k->oracle ? k->oracle : "differential", wrong };
    /* a death is claimed only by a rule that says so (the term dies) */
    if (k->death && !scn_terms_have(al, "dies")) return 0;
    /* a rule without oracle= explains only the oracles that compare outputs */
    if (on_output < 0) on_output = scn_oracle_on_output(x.oracle);
    if (!k->death && !on_output && !scn_terms_have(al, "oracle=")) return 0;
    return scn_terms_hold(al, &x);
}

int scn_rule_matches(const struct scn_rule *al, enum scn_dialect dialect, const char *spec,
                     const struct scn_arg *value, const struct scn_case *c, const char *ta,
                     const char *tb, int ret_a, int ret_b, const unsigned char *out_a, size_t len_a,
                     const unsigned char *out_b, size_t len_b)
{
    struct scn_spec d;
    struct scn_culprit k = { .ret_a = ret_a, .ret_b = ret_b, .oa = out_a, .ob = out_b, .la = len_a, .lb = len_b };
    if (spec) {
        /* scan the spec alone against a case whose only argument is value */
        static struct scn_case tmp;
        size_t sl = strlen(spec);
        scn_case_init(&tmp, spec, sl);
        if (c) tmp.round = c->round;
        tmp.nargs = value ? 1 : 0;
        if (value) tmp.args[0] = *value;
        if (value && (value->type == SCN_ARG_STR || value->type == SCN_ARG_WSTR) && c) {
            /* strings point into c's arena */
            memcpy(tmp.arena, c->arena, sizeof tmp.arena);
            tmp.arena_used = c->arena_used;
        }
        struct scn_spec arr[4];
        size_t n = scn_scan_specs(&tmp, dialect, arr, 4);
        if (n == 0) return 0;
        d = arr[0];
        d.warg = -1;
        if (d.prec == -2) d.prec = -1;
        if (d.width == -2) d.width = -1;
        if (value) d.varg = 0;
        k.s = &d;
        return matches(al, dialect, &tmp, &k, ta, tb, -1);
    }
    return matches(al, dialect, c, &k, ta, tb, -1);
}

int scn_rule_explains(const struct scn_rule *r, enum scn_dialect dialect, const struct scn_case *c,
                      const struct scn_culprit *k, const char *ta, const char *tb)
{
    return matches(r, dialect, c, k, ta, tb, -1);
}

/* The rules that list ta or tb (or "*"), in table order: the fuzzers ask for
 * the same few pairs of targets at every difference they localise, and a
 * rule's target list is text (target_listed) that every rule tried would
 * parse again. Keyed by the names' text and the tables' generation. */
enum { PAIR_CACHE = 8, PAIR_NAME = 64 };
struct pair_rules {
    char ta[PAIR_NAME], tb[PAIR_NAME];
    unsigned gen;
    size_t n;
    unsigned short idx[2 * MAX_RULES];
};

static const struct pair_rules *rules_of_pair(const char *ta, const char *tb)
{
    static struct pair_rules cache[PAIR_CACHE];
    static size_t next;
    if (!ta || !tb || strlen(ta) >= PAIR_NAME || strlen(tb) >= PAIR_NAME) return NULL;
    size_t n = scn_rules_count(); /* loads the tables: the generation is theirs after it */
    for (size_t i = 0; i < PAIR_CACHE; i++)
        if (cache[i].gen == generation && !strcmp(cache[i].ta, ta) && !strcmp(cache[i].tb, tb)) return &cache[i];
    struct pair_rules *p = &cache[next++ % PAIR_CACHE];
    p->n = 0;
    for (size_t j = 0; j < n && j < 2 * MAX_RULES; j++) {
        const struct scn_rule *r = scn_rule_at(j);
        if (target_listed(r->targets, ta) || target_listed(r->targets, tb)) p->idx[p->n++] = (unsigned short)j;
    }
    snprintf(p->ta, sizeof p->ta, "%s", ta);
    snprintf(p->tb, sizeof p->tb, "%s", tb);
    p->gen = generation;
    return p;
}

int scn_rule_find(enum scn_dialect dialect, const struct scn_case *c, const struct scn_culprit *k,
                  const char *ta, const char *tb)
{
    int on_output = scn_oracle_on_output(k->oracle ? k->oracle : "differential");
    const struct pair_rules *p = rules_of_pair(ta, tb);
    if (p) {
        for (size_t i = 0; i < p->n; i++)
            if (matches(scn_rule_at(p->idx[i]), dialect, c, k, ta, tb, on_output)) return (int)p->idx[i];
        return -1;
    }
    size_t n = scn_rules_count();
    for (size_t j = 0; j < n; j++)
        if (matches(scn_rule_at(j), dialect, c, k, ta, tb, on_output)) return (int)j;
    return -1;
}
