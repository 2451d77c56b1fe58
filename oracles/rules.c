/* The rules tables (allowances, known bugs and gaps) and their one pattern
 * matcher. See rules.h and the header of oracles/allowances.tsv. */
#define _GNU_SOURCE
#include "rules.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oracle_registry.h"
#include "scn/ref_printf.h"

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

static int valid_term(const char *t)
{
    static const char *const exact[] = { "arg=null", "arg=nan", "arg=nonfinite", "arg=nonascii", "arg=zero", "prec", "noprec",
                                         "spec=invalid", "whole", "ret<0", "hexvalue", "positional",
                                         "width<0", "sharedarg", "dies", "digitsonly", "nanform", "pspelling", "fraczeros", "signdropped",
                                         "prec<0", "nullform", "posnflagstar",
                                         NULL };
    if (!strncmp(t, "conv=", 5) || !strncmp(t, "len=", 4)) return t[t[0] == 'c' ? 5 : 4] != 0;
    if (!strncmp(t, "oracle=", 7)) return t[7] && t[7] != '|' && t[strlen(t) - 1] != '|' && !strstr(t, "||");
    if (!strncmp(t, "size=", 5)) return t[5] >= '0' && t[5] <= '9' && strspn(t + 5, "0123456789") == strlen(t + 5) && strlen(t + 5) <= 9;
    if (!strncmp(t, "flag=", 5)) return t[5] && strchr(SCN_FLAG_CHARS, t[5]) && !t[6];
    if (!strncmp(t, "argpos>", 7)) return t[7] >= '0' && t[7] <= '9' && strspn(t + 7, "0123456789") == strlen(t + 7);
    if (!strncmp(t, "width>", 6) || !strncmp(t, "prec>", 5)) {
        const char *d = t + (t[0] == 'w' ? 6 : 5);
        return d[0] >= '0' && d[0] <= '9' && strspn(d, "0123456789") == strlen(d) && strlen(d) <= 9;
    }
    for (size_t i = 0; exact[i]; i++)
        if (!strcmp(t, exact[i])) return 1;
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
        char pat[sizeof r->pattern];
        strcpy(pat, r->pattern);
        for (char *sv = NULL, *term = strtok_r(pat, "&", &sv); term; term = strtok_r(NULL, "&", &sv))
            if (!valid_term(term)) ERR("line %zu: unknown pattern term '%s'", lineno, term);
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

/* conversion list "a|A|La": a bare letter matches any length */
static int conv_listed(const char *list, size_t ln, const char *len, char conv)
{
    size_t i = 0;
    while (i < ln) {
        size_t e = i;
        while (e < ln && list[e] != '|') e++;
        size_t l = e - i;
        if (l == 1 && list[i] == conv) return 1;
        if (l >= 2 && list[i + l - 1] == conv && l - 1 == strlen(len) && !memcmp(list + i, len, l - 1)) return 1;
        i = e + 1;
    }
    return 0;
}

/* "len=X|Y": "w" stands for every wN / wfN, "-" for no length modifier */
static int len_listed(const char *list, size_t ln, const char *len)
{
    size_t i = 0;
    while (i < ln) {
        size_t e = i;
        while (e < ln && list[e] != '|') e++;
        size_t l = e - i;
        if (l == 1 && list[i] == '-' && !len[0]) return 1;
        if (l == 1 && list[i] == 'w' && len[0] == 'w') return 1;
        if (l == strlen(len) && l && !memcmp(list + i, len, l)) return 1;
        i = e + 1;
    }
    return 0;
}

/* two specifications of c read the same n$ argument */
static int shared_arg(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    unsigned char used[SCN_CASE_MAX_ARGS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].pos <= 0) continue;
        int a[3] = { sp[i].warg, sp[i].parg, sp[i].varg };
        for (int j = 0; j < 3; j++)
            if (a[j] >= 0 && used[a[j]]++) return 1;
    }
    return 0;
}

/* posnflagstar: an n$ specification with a flag has a *m$ width or
 * precision that no other specification reads (as its value, or as the *
 * of a specification without a flag), and the case reads an argument
 * numbered above m. picolibc 1.8.10's skip_to_arg (tinystdio/vfprintf.c)
 * keeps FL_WIDTH from the n$ digits, so the flag after n$ is taken as the
 * conversion and the *m$ in the rest of that specification is never seen:
 * the walk to an argument above m stops short, and it reads the wrong one. */
static int flagged_star_hidden(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    unsigned char seen[SCN_CASE_MAX_ARGS + 1] = { 0 }, hidden[SCN_CASE_MAX_ARGS + 1] = { 0 };
    int top = 0;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].invalid || sp[i].pos <= 0) continue;
        int v[3] = { sp[i].pos, sp[i].wpos, sp[i].ppos };
        for (int j = 0; j < 3; j++) {
            if (v[j] <= 0 || v[j] > SCN_CASE_MAX_ARGS) continue;
            if (v[j] > top) top = v[j];
            if (j && sp[i].flags) hidden[v[j]] = 1;
            else seen[v[j]] = 1;
        }
    }
    for (int m = 1; m < top; m++)
        if (hidden[m] && !seen[m]) return 1;
    return 0;
}

/* the largest n$ number the format of c uses (0: none) */
static int max_position(const struct scn_case *c, enum scn_dialect dialect)
{
    static struct scn_spec sp[SCN_MAX_SPECS];
    size_t n = scn_scan_specs(c, dialect, sp, SCN_MAX_SPECS);
    int m = 0;
    for (size_t i = 0; i < n; i++) {
        int v[3] = { sp[i].pos, sp[i].wpos, sp[i].ppos };
        for (int j = 0; j < 3; j++)
            if (v[j] > m) m = v[j];
    }
    return m;
}

/* A code point above 0x7f that the conversion converts: for %ls with a
 * precision p, only among the first p wide characters (each is at least one
 * byte, so the one at index p or later is past what p lets it write, and
 * C17 7.21.6.1p8 (s, l) lets it read no further than it needs: musl reading
 * the next one, an encoding error there, was a bug fixed upstream) */
static int arg_is_nonascii(const struct scn_case *c, const struct scn_arg *a, long prec)
{
    if (a->type == SCN_ARG_WINT) return a->v.u > 0x7f;
    if (a->type == SCN_ARG_WSTR && !a->is_null) {
        const wchar_t *w = (const wchar_t *)(const void *)(c->arena + a->off);
        for (size_t i = 0; i < a->len && (prec < 0 || i < (size_t)prec); i++)
            if ((unsigned)w[i] > 0x7f) return 1;
    }
    return 0;
}

/* Is out (len bytes) the hexadecimal float v correctly rounded to prec hex
 * digits after the point (a tie to the even digit; prec < 0: exactly v, with
 * no trailing zero in its fraction: C17 7.21.6.1p8 (a) "sufficient for an
 * exact representation"),
 * laid out in a field of width
 * w as flags say: padding only up to w, spaces after it with '-', zeros
 * after 0x with '0' (strtold reads them as digits), else spaces before it;
 * one space before it is the sign of the space flag. */
static int hex_ok(const unsigned char *out, size_t len, long double v, long prec, long w, unsigned flags)
{
    size_t a = 0, b = len;
    while (a < b && out[a] == ' ') a++;
    while (b > a && out[b - 1] == ' ') b--;
    if (a == b) return 0;
    size_t sp = (flags & SCN_FL_SPACE) && !(flags & SCN_FL_PLUS) && !signbit(v);
    if (a < sp) return 0;
    size_t pad = a - sp + (len - b);
    if (len < (size_t)(w > 0 ? w : 0) || (pad && len != (size_t)w)) return 0;
    if ((flags & SCN_FL_MINUS) ? a != sp : (b != len || ((flags & SCN_FL_ZERO) && a != sp))) return 0;
    char small[256], *t = b - a < sizeof small ? small : malloc(b - a + 1);
    if (!t) return 0;
    memcpy(t, out + a, b - a);
    t[b - a] = 0;
    int ok = 0;
    const char *q = t;
    if (*q == '-' || *q == '+') q++;
    if (q[0] == '0' && (q[1] | 32) == 'x') {
        /* mantissa and exponent apart: "0x2.0p+16383" is 2^16384, which no
         * long double holds, yet the correctly rounded %.1La of a value just
         * below LDBL_MAX; v is scaled by the exponent instead (exact) */
        char *pe = strpbrk(q, "pP"), *end;
        /* without a precision, "sufficient for an exact representation":
         * no zero after the last digit that the value needs */
        const char *point = pe ? memchr(q, '.', (size_t)(pe - q)) : NULL;
        if (pe && prec < 0 && point && pe[-1] == '0') pe = NULL;
        if (pe) {
            *pe = 0;
            long double m = strtold(t, &end);
            int whole = end == pe;
            long e = strtol(pe + 1, &end, 10);
            if (whole && end != pe + 1 && !*end && signbit(m) == signbit(v) && e > -20000 && e < 20000) {
                long double vs = ldexpl(v, (int)-e);
                long double half = ldexpl(1.0L, (int)(-4 * prec - 1));
                /* a tie goes to the even last digit (p12 "correctly rounded", the default
                 * rounding direction: to nearest, ties to even); picolibc rounding ties up
                 * was a bug fixed upstream (bench/history picolibc-a-round-half-up) */
                /* (exact first: past 4,100 or so digits half underflows to 0) */
                ok = m == vs || (prec >= 0 && (fabsl(m - vs) < half ||
                                               (fabsl(m - vs) == half && fmodl(ldexpl(m, (int)(4 * prec)), 2.0L) == 0)));
            }
        }
    }
    if (t != small) free(t);
    return ok;
}

/* the field width of s and its flags ('-' added for a negative * width) */
static long field_width(const struct scn_case *c, const struct scn_spec *s, unsigned *flags)
{
    *flags = s->flags;
    if (s->width >= 0) return s->width;
    if (s->width != SCN_SPEC_STAR || s->warg < 0) return 0;
    long w = (int)c->args[s->warg].v.i;
    if (w < 0) {
        *flags |= SCN_FL_MINUS;
        w = -w;
    }
    return w;
}

static int arg_prec(const struct scn_case *c, const struct scn_spec *s, long *prec)
{
    if (s->prec == -1) { *prec = -1; return 0; }
    if (s->prec >= 0) { *prec = s->prec; return 0; }
    if (s->parg < 0) return -1;
    long long v = c->args[s->parg].v.i;
    *prec = (int)v < 0 ? -1 : (int)v;
    return 0;
}


/* ------------------------------------------------ what an output may differ in */

/* The field of one output: [a, b) without the padding spaces the width w
 * and the '-' flag put there, 1 when the output is laid out as they say
 * (only spaces, only up to w, on the right with '-', else on the left;
 * none on the other side). */
static int unpad(const unsigned char *out, size_t len, long w, unsigned flags, size_t *a, size_t *b)
{
    *a = 0;
    *b = len;
    if ((flags & SCN_FL_MINUS) != 0)
        while (*b > 0 && out[*b - 1] == ' ') --*b;
    else
        while (*a < len && out[*a] == ' ') ++*a;
    /* the space flag's space before a value that has no '-' is its sign,
     * not padding (C17 7.21.6.1p6) */
    int space_sign = (flags & SCN_FL_SPACE) && !(flags & SCN_FL_PLUS) && *a < *b && out[*a] != '-' &&
                     (*a > 0 || out[*a] == ' ');
    if (space_sign && *a > 0 && !(flags & SCN_FL_MINUS)) --*a;
    size_t core = *b - *a, want = w > 0 && (size_t)w > core ? (size_t)w : core;
    return core > 0 && len == want && (out[*a] != ' ' || space_sign) && out[*b - 1] != ' ';
}

/* nullform: what a NULL %s prints (undefined, C17 7.1.4p1) is its own
 * spelling only: "(null)", nothing, or other text, laid out in its field
 * (spaces up to the width, on the right with '-'), and with a precision p
 * no more than p bytes (p8 (s): "no more than that many bytes are written");
 * "(null)" itself cut at p exactly, not shorter, not whole past p. */
static int null_ok(const unsigned char *out, size_t len, long prec, long w, unsigned flags)
{
    size_t a = 0, b = len;
    while (a < len && out[a] == ' ') a++;
    if (a == len) return len == (size_t)(w > 0 ? w : 0);
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    size_t core = b - a;
    if (prec >= 0 && core > (size_t)prec) return 0;
    static const char spelled[] = "(null)";
    if (core <= 6 && !memcmp(out + a, spelled, core))
        return core == (prec >= 0 && prec < 6 ? (size_t)prec : 6);
    return 1;
}

/* nanform: out is a NaN as C17 7.21.6.1p8 (f, F) spells it, with the sign:
 * [-]nan or [-]nan(n-char-sequence), NAN for the upper-case conversions, '-'
 * when the argument's sign bit is set (7.12.3.6: signbit "reports the sign
 * of all values, including ... NaNs"), '+' or ' ' by those flags otherwise
 * (C11 footnote 277: on NaN "the -, +, and space flag characters have their
 * usual meaning; the # and 0 flag characters have no effect"), padded with
 * spaces to the width. */
static int nan_ok(const unsigned char *out, size_t len, int neg, char conv, long w, unsigned flags)
{
    size_t a, b;
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    char sign = neg ? '-' : (flags & SCN_FL_PLUS) ? '+' : (flags & SCN_FL_SPACE) ? ' ' : 0;
    if (sign && out[a++] != sign) return 0;
    const char *nan = conv >= 'a' ? "nan" : "NAN";
    if (b - a < 3 || memcmp(out + a, nan, 3)) return 0;
    a += 3;
    if (a == b) return 1;
    if (out[a] != '(' || out[b - 1] != ')') return 0;
    for (size_t i = a + 1; i + 1 < b; i++) /* n-char-sequence: digits, letters, _ (7.22.1.3p3) */
        if (!(out[i] == '_' || (out[i] >= '0' && out[i] <= '9') || ((out[i] | 32) >= 'a' && (out[i] | 32) <= 'z')))
            return 0;
    return 1;
}

/* pspelling: the pointer's spelling (C17 7.21.6.1p8 (p): "in an
 * implementation-defined manner") laid out in its field: padded with spaces
 * to the width, on the right with '-'. The manner is the implementation's,
 * the value is the argument's: a non-NULL pointer's spelling writes its
 * hexadecimal digits (either case; a mutant printing "0" for 0x1 is no
 * spelling). With the 0 or # flag or a precision the behaviour is undefined
 * (p4, p6): any layout. */
static int pointer_ok(const unsigned char *out, size_t len, long w, unsigned flags, int prec,
                      const struct scn_arg *val)
{
    size_t a, b;
    if (prec || (flags & (SCN_FL_ZERO | SCN_FL_HASH))) return len > 0;
    if (!unpad(out, len, w, flags, &a, &b)) return 0;
    if (!val || val->type != SCN_ARG_PTR || val->is_null) return 1;
    char hex[24];
    size_t n = (size_t)snprintf(hex, sizeof hex, "%llx", val->v.u);
    for (size_t i = a; i + n <= b; i++)
        if (!strncasecmp((const char *)out + i, hex, n)) return 1;
    return 0;
}

/* A decimal number: (neg) 0.d[0..n) x 10^e, d[0] != 0 (n == 0: zero); unit
 * the power of ten of the last digit written. */
#define DEC_MAX 1200
struct dec {
    int neg;
    size_t n;
    long e, unit;
    char d[DEC_MAX];
};

/* The number an output of %f, %e or %g writes ([-]ddd.ddd[e+dd], padding
 * spaces or zeros before it): 0, or -1 when it is none. */
static int dec_parse(const unsigned char *out, size_t len, struct dec *x)
{
    size_t i = 0, ip = 0, nd = 0, lead = 0;
    int point = 0;
    while (i < len && out[i] == ' ') i++;
    x->neg = i < len && out[i] == '-';
    if (i < len && (out[i] == '-' || out[i] == '+')) i++;
    x->n = 0;
    for (; i < len; i++) {
        if (out[i] == '.' && !point) {
            point = 1;
            continue;
        }
        if (out[i] < '0' || out[i] > '9') break;
        nd++;
        ip += !point;
        if (x->n == 0 && out[i] == '0') { /* before the first nonzero digit */
            lead++;
            continue;
        }
        if (x->n == DEC_MAX) { /* zeros after the digits kept add nothing (%.4096f of 0.1) */
            if (out[i] != '0') return -1;
            continue;
        }
        x->d[x->n++] = (char)(out[i] - '0');
    }
    if (!nd) return -1;
    long ex = 0;
    if (i < len && (out[i] | 32) == 'e') {
        char t[16];
        size_t k = 0;
        for (i++; i < len && out[i] != ' ' && k < sizeof t - 1; i++) t[k++] = (char)out[i];
        t[k] = 0;
        char *end;
        ex = strtol(t, &end, 10);
        if (end == t || *end) return -1;
    }
    while (i < len && out[i] == ' ') i++; /* the padding of '-' */
    if (i != len) return -1;
    /* 0.(the nd digits) x 10^(ip + ex): the last digit at the power ip + ex - nd */
    x->unit = (long)ip + ex - (long)nd;
    x->e = (long)ip + ex - (long)lead;
    return 0;
}

/* |x - y| <= 5 x 10^(p-1): half a unit at the power of ten p */
static int dec_within_half(const struct dec *x, const struct dec *y, long p)
{
    enum { L = 8192 };
    static signed char dx[L], dy[L];
    long hi = p, lo = p - 1;
    const struct dec *v[2] = { x, y };
    for (int k = 0; k < 2; k++)
        if (v[k]->n) {
            if (v[k]->e > hi) hi = v[k]->e;
            if (v[k]->e - (long)v[k]->n < lo) lo = v[k]->e - (long)v[k]->n;
        }
    if (hi - lo + 2 > L) return 0;
    size_t len = (size_t)(hi - lo + 1);
    memset(dx, 0, len);
    memset(dy, 0, len);
    for (size_t i = 0; i < x->n; i++) dx[x->e - 1 - (long)i - lo] = x->d[i]; /* digit i at power e-1-i */
    for (size_t i = 0; i < y->n; i++) dy[y->e - 1 - (long)i - lo] = y->d[i];
    int same_sign = x->neg == y->neg || !x->n || !y->n;
    if (same_sign) { /* |x| - |y|, the larger first */
        int cmp = 0;
        for (size_t i = len; i-- > 0 && !cmp;) cmp = (dx[i] > dy[i]) - (dx[i] < dy[i]);
        signed char *big = cmp >= 0 ? dx : dy, *small = cmp >= 0 ? dy : dx;
        int borrow = 0;
        for (size_t i = 0; i < len; i++) {
            int t = big[i] - small[i] - borrow;
            borrow = t < 0;
            dx[i] = (signed char)(t + (borrow ? 10 : 0));
        }
    } else {
        int carry = 0;
        for (size_t i = 0; i < len; i++) {
            int t = dx[i] + dy[i] + carry;
            carry = t >= 10;
            dx[i] = (signed char)(t - (carry ? 10 : 0));
        }
        if (carry) return 0;
    }
    /* compare with 5 at power p-1 */
    for (size_t i = len; i-- > 0;) {
        int half = (long)i + lo == p - 1 ? 5 : 0;
        if (dx[i] != half) return dx[i] < half;
    }
    return 1;
}

/* the reference engine itself, not the target registry: certification
 * links the oracles without the registry's targets */
static int call_ref(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = ref_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return r;
}

/* Whether out writes the value v "faithfully": (a) v correctly rounded at
 * the precision written, a tie either way (C17 7.21.6.1p13: "correctly
 * rounded"); (b) digits that read back as v itself (a shortest or a limited
 * form, zeros after the digits that matter: what strtod makes of them is v);
 * (c) v correctly rounded to DBL_DIG (15) or more significant digits,
 * zeros written after them (a fixed number of significant digits). */
static int digits_faithful(const unsigned char *out, size_t len, long double v, int ld, const struct dec *exact)
{
    static struct dec x;
    if (dec_parse(out, len, &x)) return 0;
    if (x.n && x.neg != (signbit(v) != 0)) return 0;
    if (dec_within_half(&x, exact, x.unit)) return 1;
    char t[DEC_MAX + 32];
    size_t k = 0, a = 0;
    while (a < len && (out[a] == ' ')) a++;
    for (size_t i = a; i < len && k < sizeof t - 1; i++) t[k++] = (char)out[i];
    t[k] = 0;
    char *end;
    if (ld ? strtold(t, &end) == v : strtod(t, &end) == (double)v) return 1;
    size_t sig = x.n; /* significant digits written, the zeros after them left out */
    while (sig > 0 && x.d[sig - 1] == 0) sig--;
    return x.n >= 15 && dec_within_half(&x, exact, x.e - (long)(sig > 15 ? sig : 15));
}

/* The same characters but for digits (the sign, padding spaces, the point
 * and the exponent letter in the same places). */
static int same_but_digits(const unsigned char *oa, const unsigned char *ob, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (oa[i] != ob[i] && (oa[i] < '0' || oa[i] > '9' || ob[i] < '0' || ob[i] > '9')) return 0;
    return 1;
}

/* Outputs of two lengths whose digits differ in number: %g without '#'
 * removes trailing zeros ("0.1" and "0.10000000000000001"; "5E-324" and
 * "4.94066E-324"), and a shortest form can carry into one more integer digit
 * ("%f" of 1e23: "100000000000000000000000.000000" and
 * "99999999999999991611392.000000", as many digits after the point). Each
 * is laid out in its field (spaces, no zeros), with the same sign. */
static int other_length(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, long w,
                        unsigned flags, int g)
{
    size_t a0, a1, b0, b1;
    if ((flags & SCN_FL_ZERO) || !unpad(oa, la, w, flags, &a0, &a1) || !unpad(ob, lb, w, flags, &b0, &b1)) return 0;
    oa += a0, la = a1 - a0, ob += b0, lb = b1 - b0;
    if ((strchr("+- ", oa[0]) || strchr("+- ", ob[0])) && oa[0] != ob[0]) return 0;
    const unsigned char *ea = memchr(oa, 'e', la), *eb = memchr(ob, 'e', lb);
    if (!ea) ea = memchr(oa, 'E', la);
    if (!eb) eb = memchr(ob, 'E', lb);
    if (!ea != !eb || (ea && (ea[1] != eb[1] || (*ea != *eb)))) return 0;
    if (g) return 1;
    const unsigned char *pa = memchr(oa, '.', la), *pb = memchr(ob, '.', lb); /* the fraction: as long */
    size_t fa = pa ? (size_t)((ea ? ea : oa + la) - pa) : 0, fb = pb ? (size_t)((eb ? eb : ob + lb) - pb) : 0;
    return fa == fb;
}

/* digitsonly: the two outputs of a floating conversion of a finite value
 * differ only in digits (same_but_digits, or other_length: how many digits
 * %g keeps or a carry writes), and each writes the value faithfully
 * (digits_faithful: so no digit, of the exponent either, can be wrong). */
static int digits_only(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb, const struct scn_arg *val,
                       char conv, unsigned flags, long w)
{
    if (!val || (val->type != SCN_ARG_DOUBLE && val->type != SCN_ARG_LDOUBLE)) return 0;
    int ld = val->type == SCN_ARG_LDOUBLE;
    long double v = ld ? val->v.ld : (long double)val->v.d;
    if (isnan(v) || isinf(v)) return 0;
    int g = (conv | 32) == 'g' && !(flags & SCN_FL_HASH);
    if (!(la == lb && same_but_digits(oa, ob, la)) && !other_length(oa, la, ob, lb, w, flags, g)) return 0;
    static char buf[DEC_MAX + 64];
    static struct dec exact;
    if (call_ref(buf, sizeof buf, "%.*Le", DEC_MAX - 2, v) <= 0 ||
        dec_parse((const unsigned char *)buf, strlen(buf), &exact))
        return 0;
    return digits_faithful(oa, la, v, ld, &exact) && digits_faithful(ob, lb, v, ld, &exact);
}

/* The sign an output writes (0: none) and its magnitude: [a, b) without
 * the padding spaces, the sign and the zeros padding before the digits. */
static char sign_of(const unsigned char *o, size_t l, size_t *a, size_t *b)
{
    *a = 0;
    *b = l;
    while (*a < *b && o[*a] == ' ') ++*a;
    while (*b > *a && o[*b - 1] == ' ') --*b;
    char sign = *a < *b && (o[*a] == '-' || o[*a] == '+') ? (char)o[(*a)++] : 0;
    while (*b - *a > 1 && o[*a] == '0' && o[*a + 1] >= '0' && o[*a + 1] <= '9') ++*a;
    return sign;
}

/* fraczeros: one output is the other with the zeros after the point of a
 * style e result dropped ("1.e+03" for "1.00e+03": %#g's carry into style
 * e), with the same sign. Padding aside (spaces, or the 0 flag's zeros:
 * "01.E+02" for "1.0E+02" at width 7), but then both fill the same field:
 * a padding bug besides the carry is not this one. */
static int frac_zeros_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb)
{
    size_t a0, a1, b0, b1;
    char sa = sign_of(oa, la, &a0, &a1), sb = sign_of(ob, lb, &b0, &b1);
    int padded = a1 - a0 + (sa != 0) < la || b1 - b0 + (sb != 0) < lb;
    if (sa != sb || (padded && la != lb)) return 0;
    oa += a0, la = a1 - a0, ob += b0, lb = b1 - b0;
    if (la < lb) {
        const unsigned char *t = oa;
        oa = ob;
        ob = t;
        size_t tl = la;
        la = lb;
        lb = tl;
    }
    /* oa: d . 0...0 e..., ob: the same without the zeros */
    if (2 >= la || oa[0] < '1' || oa[0] > '9' || oa[1] != '.') return 0;
    size_t z = 2, e = z;
    while (e < la && oa[e] == '0') e++;
    if (e == z || e == la || (oa[e] | 32) != 'e') return 0;
    return lb == la - (e - z) && !memcmp(ob, oa, z) && !memcmp(ob + z, oa + e, la - e);
}

/* signdropped: one output writes the other's negative value without its
 * '-' (nothing, '+' or ' ' in its place, or a padding zero): the same
 * magnitude, the padding aside. */
static int sign_dropped(const unsigned char *oa, size_t la, const unsigned char *ob, size_t lb)
{
    size_t a0, a1, b0, b1;
    char sa = sign_of(oa, la, &a0, &a1), sb = sign_of(ob, lb, &b0, &b1);
    if ((sa == '-') == (sb == '-')) return 0;
    return a1 - a0 == b1 - b0 && a1 > a0 && !memcmp(oa + a0, ob + b0, a1 - a0);
}

/* whether the pattern has the term t */
static int pattern_has(const char *p, const char *t)
{
    size_t n = strlen(t);
    for (;;) {
        const char *e = strchr(p, '&');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && !memcmp(p, t, n)) return 1;
        if (!e) return 0;
        p = e + 1;
    }
}

/* whether the pattern has a term starting with t */
static int pattern_has_prefix(const char *p, const char *t)
{
    size_t n = strlen(t);
    for (;;) {
        if (!strncmp(p, t, n)) return 1;
        const char *e = strchr(p, '&');
        if (!e) return 0;
        p = e + 1;
    }
}

/* "oracle=a|b": the list (l bytes) names the oracle */
static int name_listed(const char *list, size_t l, const char *name)
{
    size_t nl = strlen(name), i = 0;
    while (i < l) {
        size_t e = i;
        while (e < l && list[e] != '|') e++;
        if (e - i == nl && !memcmp(list + i, name, nl)) return 1;
        i = e + 1;
    }
    return 0;
}

static int same_output(const struct scn_blame *b, size_t x, size_t y)
{
    if (b->ret[x] < 0 || b->ret[y] < 0) return b->ret[x] < 0 && b->ret[y] < 0;
    return b->ret[x] == b->ret[y] && b->len[x] == b->len[y] && !memcmp(b->out[x], b->out[y], b->len[x]);
}

/* Whether a known bug or gap of the listed targets explains the pair
 * (ta, tb): one of them is listed and is the one that is wrong. */
static int blamed(const struct scn_rule *r, const struct scn_culprit *k, const char *ta, const char *tb)
{
    const struct scn_blame *b = k->all;
    if (!b) return target_listed(r->targets, tb);
    const char *pair[2] = { ta, tb };
    for (int i = 0; i < 2; i++) {
        if (!target_listed(r->targets, pair[i])) continue;
        size_t x = 0;
        while (x < b->n && strcmp(b->names[x], pair[i])) x++;
        if (x == b->n || x == b->ref || same_output(b, x, b->ref)) continue;
        int shared = 0; /* an unlisted target prints the same: the reference is the odd one out */
        for (size_t u = 0; u < b->n && !shared; u++)
            shared = u != x && u != b->ref && !(b->known_wrong >> u & 1) && !target_listed(r->targets, b->names[u]) &&
                     same_output(b, u, x);
        if (!shared) return 1;
    }
    return 0;
}

static int matches(const struct scn_rule *al, enum scn_dialect dialect, const struct scn_case *c,
                   const struct scn_culprit *k, const char *ta, const char *tb)
{
    if (al->dialect >= 0 && al->dialect != (int)dialect) return 0;
    if (al->kind == SCN_RULE_ALLOWANCE ? !(target_listed(al->targets, ta) && target_listed(al->targets, tb))
                                       : !blamed(al, k, ta, tb))
        return 0;
    const struct scn_spec *s = k->s;
    const struct scn_arg *val = s && s->varg >= 0 ? &c->args[s->varg] : NULL;
    const char *p = al->pattern, *oracle = k->oracle ? k->oracle : "differential";
    /* a death is claimed only by a rule that says so (the term dies); a
     * rule that names no oracle explains differences of outputs only */
    if (k->death && !pattern_has(p, "dies")) return 0;
    /* a rule without oracle= explains only the oracles that compare outputs */
    if (!k->death && !scn_oracle_on_output(oracle) && !pattern_has_prefix(p, "oracle=")) return 0;
    while (*p) {
        const char *e = strchr(p, '&');
        size_t l = e ? (size_t)(e - p) : strlen(p);
#define IS(lit) (l == sizeof(lit) - 1 && !memcmp(p, lit, l))
        int ok;
        if (l > 5 && !memcmp(p, "conv=", 5)) ok = s && !s->invalid && conv_listed(p + 5, l - 5, s->len, s->conv);
        else if (l == 6 && !memcmp(p, "flag=", 5)) {
            const char *fc = strchr(SCN_FLAG_CHARS, p[5]);
            ok = s && fc && (s->flags & (1u << (fc - SCN_FLAG_CHARS)));
        } else if (IS("arg=null")) ok = val && val->is_null;
        else if (IS("arg=nan"))
            ok = val && ((val->type == SCN_ARG_DOUBLE && isnan(val->v.d)) ||
                         (val->type == SCN_ARG_LDOUBLE && isnan(val->v.ld)));
        else if (IS("arg=nonfinite")) {
            long double v = !val ? 0 : val->type == SCN_ARG_LDOUBLE ? val->v.ld
                          : val->type == SCN_ARG_DOUBLE ? (long double)val->v.d : 0;
            ok = isinf(v) || isnan(v);
        } else if (IS("arg=nonascii")) {
            long prec = -1; /* (a * precision without its argument: all of the string) */
            if (s && !s->invalid) (void)arg_prec(c, s, &prec);
            ok = val && arg_is_nonascii(c, val, prec);
        }
        else if (IS("arg=zero"))
            ok = val && (val->type <= SCN_ARG_SIZE || val->type == SCN_ARG_WINT) && val->v.u == 0;
        else if (IS("prec")) ok = s && s->prec != -1;
        else if (IS("noprec")) ok = s && s->prec == -1;
        else if (IS("spec=invalid")) ok = s && s->invalid;
        else if (IS("whole")) ok = s == NULL;
        else if (IS("ret<0")) ok = k->ret_a < 0 && k->ret_b < 0;
        else if (IS("positional")) ok = s && s->pos > 0;
        else if (IS("width<0"))
            ok = s && s->width == SCN_SPEC_STAR && s->warg >= 0 && (int)c->args[s->warg].v.i < 0;
        else if (IS("sharedarg")) ok = !s && shared_arg(c, dialect);
        else if (IS("posnflagstar")) ok = flagged_star_hidden(c, dialect);
        else if (IS("dies")) ok = k->death;
        else if (l > 7 && !memcmp(p, "oracle=", 7)) ok = name_listed(p + 7, l - 7, oracle);
        else if (l > 5 && !memcmp(p, "size=", 5)) ok = k->sized && k->size == (size_t)atol(p + 5);
        else if (l > 7 && !memcmp(p, "argpos>", 7)) ok = max_position(c, dialect) > atoi(p + 7);
        else if (l > 6 && !memcmp(p, "width>", 6)) {
            unsigned fl = 0;
            ok = s && !s->invalid && field_width(c, s, &fl) > atol(p + 6);
        } else if (l > 5 && !memcmp(p, "prec>", 5)) {
            long prec;
            ok = s && !s->invalid && !arg_prec(c, s, &prec) && prec > atol(p + 5);
        } else if (l > 4 && !memcmp(p, "len=", 4)) ok = s && !s->invalid && len_listed(p + 4, l - 4, s->len);
        else if (IS("hexvalue")) {
            long prec;
            ok = 0;
            if (s && val && !arg_prec(c, s, &prec) && k->ret_a >= 0 && k->ret_b >= 0) {
                long double v = val->type == SCN_ARG_LDOUBLE ? val->v.ld
                              : val->type == SCN_ARG_DOUBLE ? (long double)val->v.d : NAN;
                unsigned fl = 0;
                long w = field_width(c, s, &fl);
                ok = !isnan(v) && !isinf(v) && hex_ok(k->oa, k->la, v, prec, w, fl) &&
                     hex_ok(k->ob, k->lb, v, prec, w, fl);
            }
        } else if (IS("digitsonly")) {
            unsigned fl = 0;
            long w = s && !s->invalid ? field_width(c, s, &fl) : 0;
            ok = s && !s->invalid && k->ret_a >= 0 && k->ret_b >= 0 && k->oa && k->ob &&
                 digits_only(k->oa, k->la, k->ob, k->lb, val, s->conv, fl, w);
        } else if (IS("prec<0")) {
            ok = s && s->prec == SCN_SPEC_STAR && s->parg >= 0 && (int)c->args[s->parg].v.i < 0;
        } else if (IS("signdropped")) {
            ok = k->ret_a >= 0 && k->ret_b >= 0 && k->oa && k->ob && sign_dropped(k->oa, k->la, k->ob, k->lb);
        } else if (IS("fraczeros")) {
            ok = k->ret_a >= 0 && k->ret_b >= 0 && k->oa && k->ob && frac_zeros_dropped(k->oa, k->la, k->ob, k->lb);
        } else if (IS("nullform")) {
            unsigned fl = 0;
            long prec = -1, w = s && !s->invalid ? field_width(c, s, &fl) : 0;
            ok = s && !s->invalid && !arg_prec(c, s, &prec) && k->ret_a >= 0 && k->ret_b >= 0 && k->oa && k->ob &&
                 null_ok(k->oa, k->la, prec, w, fl) && null_ok(k->ob, k->lb, prec, w, fl);
        } else if (IS("nanform") || IS("pspelling")) {
            unsigned fl = 0;
            long w = s && !s->invalid ? field_width(c, s, &fl) : 0;
            int nan = IS("nanform");
            int neg = val && (val->type == SCN_ARG_LDOUBLE ? signbit(val->v.ld) : signbit(val->v.d));
            ok = s && !s->invalid && k->ret_a >= 0 && k->ret_b >= 0 && k->oa && k->ob &&
                 (nan ? nan_ok(k->oa, k->la, neg, s->conv, w, fl) && nan_ok(k->ob, k->lb, neg, s->conv, w, fl)
                      : pointer_ok(k->oa, k->la, w, fl, s->prec != -1, val) &&
                        pointer_ok(k->ob, k->lb, w, fl, s->prec != -1, val));
        } else ok = 0;
#undef IS
        if (!ok) return 0;
        if (!e) break;
        p = e + 1;
    }
    return 1;
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
        return matches(al, dialect, &tmp, &k, ta, tb);
    }
    return matches(al, dialect, c, &k, ta, tb);
}

int scn_rule_explains(const struct scn_rule *r, enum scn_dialect dialect, const struct scn_case *c,
                      const struct scn_culprit *k, const char *ta, const char *tb)
{
    return matches(r, dialect, c, k, ta, tb);
}

int scn_rule_find(enum scn_dialect dialect, const struct scn_case *c, const struct scn_culprit *k,
                  const char *ta, const char *tb)
{
    size_t n = scn_rules_count();
    for (size_t j = 0; j < n; j++)
        if (matches(scn_rule_at(j), dialect, c, k, ta, tb)) return (int)j;
    return -1;
}
