/* scan_walk: every node of one libclang cursor's subtree, in pre-order, with
 * its parent's index: the walk `./scnfuzz scan` (scan_walk.py) makes of each
 * function body. Through the Python bindings each node costs a ctypes
 * callback and a call of clang_visitChildren; here the whole walk is one call.
 *
 * Built by scan_walk.py at run time into the run's temporary directory and
 * loaded beside the libclang the Python bindings loaded: clang_visitChildren
 * is passed in as a function pointer, so this file neither includes
 * clang-c/Index.h (libclang-14-dev) nor links libclang. The struct below is
 * CXCursor of clang-c/Index.h, whose layout libclang keeps stable. */
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int kind;
	int xdata;
	const void *data[3];
} CXCursor;

enum { CHILD_VISIT_BREAK, CHILD_VISIT_CONTINUE, CHILD_VISIT_RECURSE };

typedef int (*visitor_fn)(CXCursor cursor, CXCursor parent, void *data);
typedef unsigned (*visit_children_fn)(CXCursor parent, visitor_fn visitor, void *data);

struct walk {
	visit_children_fn visit_children;
	CXCursor *nodes;
	int *parents;
	int *kinds;
	long n, cap;
};

struct level {
	struct walk *w;
	int parent;
};

static int visit(CXCursor cursor, CXCursor parent, void *data)
{
	struct level *up = data;
	struct walk *w = up->w;
	long i = w->n++;
	struct level here = { w, (int)i };

	(void)parent;
	if (i < w->cap) {
		w->nodes[i] = cursor;
		w->parents[i] = up->parent;
		w->kinds[i] = cursor.kind;
	}
	w->visit_children(cursor, visit, &here);
	return CHILD_VISIT_CONTINUE;
}

/* Writes up to cap nodes (root first, parent -1) and returns how many the
 * subtree has: more than cap means call again with room for all. */
long scan_walk(CXCursor root, void *visit_children, CXCursor *nodes, int *parents, int *kinds, long cap)
{
	struct walk w = { (visit_children_fn)visit_children, nodes, parents, kinds, 1, cap };
	struct level top = { &w, 0 };

	if (cap > 0) {
		nodes[0] = root;
		parents[0] = -1;
		kinds[0] = root.kind;
	}
	w.visit_children(root, visit, &top);
	return w.n;
}

/* The printf-family candidates among the calls of a walk, so that the
 * scan's Python makes a cursor of those alone: most calls of a kernel
 * function body are neither of a family name nor of a function that could
 * carry a format attribute. A call is kept when its callee's spelling is one
 * of names (sorted, strcmp order), or it refers to a function declaration
 * whose type is not a prototype without variadic arguments and without a
 * va_list (scan_parse.FileScan.format_attr's own first test, which answers
 * None for every other function). The libclang functions come in as
 * pointers, in the order of struct api. */
typedef struct {
	const void *data;
	unsigned private_flags;
} CXString;

typedef struct {
	int kind;
	void *data[2];
} CXType;

enum { CURSOR_FUNCTION_DECL = 8, CURSOR_CALL_EXPR = 103, TYPE_FUNCTION_PROTO = 111 };

struct api {
	CXCursor (*referenced)(CXCursor);
	int (*is_null)(CXCursor);
	CXString (*cursor_spelling)(CXCursor);
	const char *(*c_string)(CXString);
	void (*dispose_string)(CXString);
	CXType (*cursor_type)(CXCursor);
	unsigned (*is_variadic)(CXType);
	CXString (*type_spelling)(CXType);
};

static int strcmp_(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

static int named(const struct api *api, CXCursor call, const char *const *names, long count)
{
	CXString s = api->cursor_spelling(call);
	const char *name = api->c_string(s);
	long lo = 0, hi = count;
	int found = 0;

	while (name && lo < hi) {
		long mid = lo + (hi - lo) / 2;
		int d = strcmp_(name, names[mid]);

		if (d == 0) {
			found = 1;
			break;
		}
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	api->dispose_string(s);
	return found;
}

/* Whether a function declaration's type could carry format(printf, ...):
 * not a prototype, variadic, or taking a va_list. */
static int type_may_have_format(const struct api *api, CXCursor decl)
{
	CXType t;
	CXString s;
	const char *spelling;
	int va_list = 0;

	t = api->cursor_type(decl);
	if (t.kind != TYPE_FUNCTION_PROTO || api->is_variadic(t))
		return 1;
	s = api->type_spelling(t);
	spelling = api->c_string(s);
	for (const char *p = spelling; p && *p && !va_list; p++) {
		const char *w = "va_list", *q = p;

		while (*w && *q == *w)
			q++, w++;
		va_list = !*w;
	}
	api->dispose_string(s);
	return va_list;
}

static int may_have_format(const struct api *api, CXCursor call)
{
	CXCursor decl = api->referenced(call);

	if (api->is_null(decl) || decl.kind != CURSOR_FUNCTION_DECL)
		return 0;
	return type_may_have_format(api, decl);
}

/* Writes the indices of the kept calls among nodes[0..n) into out (room for
 * n) and returns how many. */
long scan_calls(const CXCursor *nodes, long n, const struct api *api, const char *const *names, long count,
		int *out)
{
	long kept = 0;

	for (long i = 0; i < n; i++) {
		if (nodes[i].kind != CURSOR_CALL_EXPR)
			continue;
		if (named(api, nodes[i], names, count) || may_have_format(api, nodes[i]))
			out[kept++] = (int)i;
	}
	return kept;
}

static int keep_last(CXCursor cursor, CXCursor parent, void *data)
{
	CXCursor *last = data;

	(void)parent;
	*last = cursor;
	return CHILD_VISIT_CONTINUE;
}

/* The last child of a cursor (scan_parse.strip's step through an implicit
 * node, a paren or a cast), without a Python callback per child: writes it
 * to last and returns whether there is one. */
int scan_last_child(CXCursor cursor, void *visit_children, CXCursor *last)
{
	last->kind = -1;
	((visit_children_fn)visit_children)(cursor, keep_last, last);
	return last->kind != -1;
}

/* ---- scan_sites: all that `./scnfuzz scan` reads of a translation unit, in
 * one call (scan_parse.FileScan.scan, through scan_walk.sites): its error
 * count, the lines of its -Wformat warnings, and for each function defined in
 * the scanned file the calls that scan_calls keeps, each with its callee, the
 * declaration it refers to (by hash, with the source ranges of that
 * declaration's attributes: Python reads format(printf, M, N) from their
 * text), its location and, for every argument, the string clang evaluates it
 * to and its type. The answer is JSON (one allocation, kept until the next
 * call), so that Python makes no cursor, type or string through the bindings
 * for the call sites: it makes the checks on plain data. The libclang
 * functions are looked up by name in the library the bindings loaded. */

typedef struct {
	const void *ptr_data[2];
	unsigned int_data;
} CXSourceLocation;

typedef struct {
	const void *ptr_data[2];
	unsigned begin_int_data;
	unsigned end_int_data;
} CXSourceRange;

enum {
	CURSOR_UNEXPOSED_EXPR = 100,
	CURSOR_STRING_LITERAL = 109,
	CURSOR_PAREN_EXPR = 111,
	CURSOR_CONDITIONAL_OPERATOR = 116,
	CURSOR_CSTYLE_CAST_EXPR = 117,
	TYPE_INVALID = 0,
	TYPE_POINTER = 101,
	TYPE_CONSTANT_ARRAY = 112,
	EVAL_STR_LITERAL = 4,
	DIAGNOSTIC_ERROR = 3,
};

static struct clang {
	CXCursor (*tu_cursor)(void *tu);
	unsigned (*visit_children)(CXCursor, visitor_fn, void *);
	CXSourceLocation (*cursor_location)(CXCursor);
	void (*expansion_location)(CXSourceLocation, void **file, unsigned *line, unsigned *col, unsigned *off);
	CXString (*file_name)(void *file);
	unsigned (*is_definition)(CXCursor);
	CXSourceRange (*cursor_extent)(CXCursor);
	CXSourceLocation (*range_start)(CXSourceRange);
	CXSourceLocation (*range_end)(CXSourceRange);
	unsigned (*is_attribute)(int kind);
	int (*num_arguments)(CXCursor);
	CXCursor (*argument)(CXCursor, unsigned);
	void *(*evaluate)(CXCursor);
	int (*eval_kind)(void *);
	const char *(*eval_str)(void *);
	void (*eval_dispose)(void *);
	CXType (*canonical)(CXType);
	long long (*size_of)(CXType);
	CXType (*pointee)(CXType);
	long long (*array_size)(CXType);
	unsigned (*hash)(CXCursor);
	unsigned (*num_diagnostics)(void *tu);
	void *(*diagnostic)(void *tu, unsigned);
	int (*severity)(void *);
	CXString (*option)(void *, CXString *);
	CXSourceLocation (*diagnostic_location)(void *);
	void (*dispose_diagnostic)(void *);
	void *(*child_diagnostics)(void *);
	unsigned (*num_in_set)(void *);
	void *(*diagnostic_in_set)(void *, unsigned);
	void (*get_inclusions)(void *tu, void (*visitor)(void *, CXSourceLocation *, unsigned, void *), void *);
	CXCursor (*canonical_cursor)(CXCursor);
	struct api walk; /* scan_calls' own */
} L;

static const char *const clang_names[] = {
	"clang_getTranslationUnitCursor", "clang_visitChildren", "clang_getCursorLocation",
	"clang_getExpansionLocation", "clang_getFileName", "clang_isCursorDefinition", "clang_getCursorExtent",
	"clang_getRangeStart", "clang_getRangeEnd", "clang_isAttribute", "clang_Cursor_getNumArguments",
	"clang_Cursor_getArgument", "clang_Cursor_Evaluate", "clang_EvalResult_getKind",
	"clang_EvalResult_getAsStr", "clang_EvalResult_dispose", "clang_getCanonicalType", "clang_Type_getSizeOf",
	"clang_getPointeeType", "clang_getArraySize", "clang_hashCursor", "clang_getNumDiagnostics",
	"clang_getDiagnostic", "clang_getDiagnosticSeverity", "clang_getDiagnosticOption",
	"clang_getDiagnosticLocation", "clang_disposeDiagnostic", "clang_getChildDiagnostics",
	"clang_getNumDiagnosticsInSet", "clang_getDiagnosticInSet", "clang_getInclusions", "clang_getCanonicalCursor",
	/* struct api, in its order */
	"clang_getCursorReferenced", "clang_Cursor_isNull", "clang_getCursorSpelling", "clang_getCString",
	"clang_disposeString", "clang_getCursorType", "clang_isFunctionTypeVariadic", "clang_getTypeSpelling",
};

/* Looks the functions up in the libclang of handle (the bindings' dlopen
 * handle): 0, or -1 when one is missing. */
int scan_sites_init(void *handle)
{
	void **slot = (void **)&L;

	if (sizeof(L) != sizeof(clang_names) / sizeof(clang_names[0]) * sizeof(void *))
		return -1;
	for (size_t i = 0; i < sizeof(clang_names) / sizeof(clang_names[0]); i++) {
		slot[i] = dlsym(handle, clang_names[i]);
		if (!slot[i])
			return -1;
	}
	return 0;
}

/* ---- the JSON answer */
struct out {
	char *p;
	size_t n, cap;
	int failed;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 1 << 16;
		char *p;

		while (o->n + n + 1 > cap)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p) {
			o->failed = 1;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void putf(struct out *o, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* A JSON string of s (NULL: null). latin: each byte is one character (the
 * bytes over 127 as \u00XX: Python reads them as latin-1, as the scan reads
 * a format); else the bytes are UTF-8 text, as the bindings decode names. */
static void put_string(struct out *o, const char *s, int latin)
{
	static const char hex[] = "0123456789abcdef";

	if (!s) {
		puts_(o, "null");
		return;
	}
	put(o, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *q = p;

		while (*q >= 0x20 && *q != '"' && *q != '\\' && !(latin && *q >= 0x7f))
			q++;
		if (q > p) {
			put(o, (const char *)p, (size_t)(q - p));
			p = q;
			if (!*p)
				break;
		}
		if (*p == '"' || *p == '\\') {
			char esc[2] = { '\\', (char)*p };

			put(o, esc, 2);
		} else {
			char esc[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

			put(o, esc, 6);
		}
	}
	put(o, "\"", 1);
}

static void put_cxstring(struct out *o, CXString s)
{
	put_string(o, L.walk.c_string(s), 0);
	L.walk.dispose_string(s);
}

/* ---- the scanned files: the members of a batch (one file, or several that
 * one main file #includes). A CXFile is a member when its name is the path
 * given or resolves to the same real path (scan_parse.FileScan._mine). Its
 * owner is the member it is, or the member under whose #include a header
 * outside the prelude was first read, or -1 (the prelude's headers, which a
 * member parsed alone loads too, and the main file). */
#define FILE_SLOTS 4096
#define MAX_MEMBERS 256

struct file_entry {
	void *file;
	int self, owner;
};

struct members {
	const char *const *paths, *const *reals;
	int n;
	struct file_entry e[FILE_SLOTS]; /* open addressing on the CXFile */
	int used;
	unsigned char owns_headers[MAX_MEMBERS];
	unsigned char included[MAX_MEMBERS]; /* a member another member #includes, and that member */
};

static int member_of(struct members *m, void *file)
{
	CXString s = L.file_name(file);
	const char *name = L.walk.c_string(s);
	char buf[PATH_MAX];
	int found = -1;

	for (int k = 0; name && k < m->n && found < 0; k++)
		if (!strcmp(name, m->paths[k]))
			found = k;
	if (name && found < 0 && realpath(name, buf))
		for (int k = 0; k < m->n && found < 0; k++)
			if (!strcmp(buf, m->reals[k]))
				found = k;
	L.walk.dispose_string(s);
	return found;
}

/* The entry of a file, made on first sight (a member owns itself, any other
 * file not seen among the inclusions has no owner). */
static struct file_entry *file_entry(struct members *m, void *file)
{
	static struct file_entry spare;
	uintptr_t h = (uintptr_t)file * 0x9e3779b97f4a7c15ULL;
	unsigned i = (unsigned)(h >> 40) % FILE_SLOTS;

	while (m->e[i].file && m->e[i].file != file)
		i = (i + 1) % FILE_SLOTS;
	if (m->e[i].file)
		return &m->e[i];
	if (m->used >= FILE_SLOTS / 2) { /* full: answered without keeping */
		spare = (struct file_entry){ file, member_of(m, file), -1 };
		spare.owner = spare.self;
		return &spare;
	}
	m->used++;
	m->e[i] = (struct file_entry){ file, member_of(m, file), -1 };
	m->e[i].owner = m->e[i].self;
	return &m->e[i];
}

static int is_member(struct members *m, void *file)
{
	return file ? file_entry(m, file)->self : -1;
}

static int owner(struct members *m, void *file)
{
	return file ? file_entry(m, file)->owner : -1;
}

static void *expansion_file(CXSourceLocation loc, unsigned *line, unsigned *col, unsigned *off);

/* clang_getInclusions' visitor: each header read outside the prelude is
 * owned by the member in its include stack. */
static void note_inclusion(void *file, CXSourceLocation *stack, unsigned depth, void *data)
{
	struct members *m = data;
	struct file_entry *e = file_entry(m, file);
	unsigned line, col, off;

	for (unsigned i = 0; i < depth; i++) {
		int k = is_member(m, expansion_file(stack[i], &line, &col, &off));

		if (k < 0)
			continue;
		if (e->self >= 0) { /* a member that another member #includes: both read its text */
			m->included[e->self] = m->included[k] = 1;
		} else {
			if (e->owner < 0) /* the inclusions come in order: the first read owns a header */
				e->owner = k;
			m->owns_headers[k] = 1;
		}
		return;
	}
}

static void *expansion_file(CXSourceLocation loc, unsigned *line, unsigned *col, unsigned *off)
{
	void *file = NULL;

	L.expansion_location(loc, &file, line, col, off);
	return file;
}

/* ---- expressions (scan_parse.strip, evaluate; scan_misuse._longest_literal) */
static CXCursor strip(CXCursor c, int casts)
{
	CXCursor last;

	while (c.kind == CURSOR_UNEXPOSED_EXPR || c.kind == CURSOR_PAREN_EXPR ||
	       (casts && c.kind == CURSOR_CSTYLE_CAST_EXPR)) {
		if (!scan_last_child(c, (void *)L.visit_children, &last))
			break;
		c = last;
	}
	return c;
}

/* The string clang evaluates an expression to (cut at a NUL), malloc'd, or NULL. */
static char *evaluate_string(CXCursor c)
{
	void *r = L.evaluate(c);
	char *s = NULL;

	if (!r)
		return NULL;
	if (L.eval_kind(r) == EVAL_STR_LITERAL) {
		const char *v = L.eval_str(r);

		s = v ? strdup(v) : NULL;
	}
	L.eval_dispose(r);
	return s;
}

struct children {
	CXCursor c[4];
	int n;
};

static int keep_children(CXCursor cursor, CXCursor parent, void *data)
{
	struct children *k = data;

	(void)parent;
	if (k->n < 4)
		k->c[k->n] = cursor;
	k->n++;
	return CHILD_VISIT_CONTINUE;
}

/* cond ? "a" : "bc" -> "bc" (the longer, the first of equals), when both
 * branches are string literals (or such conditionals); malloc'd, or NULL. */
static char *longest_literal(CXCursor c)
{
	struct children k = { .n = 0 };
	char *v[2] = { NULL, NULL };

	if (c.kind != CURSOR_CONDITIONAL_OPERATOR)
		return NULL;
	L.visit_children(c, keep_children, &k);
	if (k.n != 3)
		return NULL;
	for (int i = 0; i < 2; i++) {
		CXCursor s = strip(k.c[i + 1], 1);

		v[i] = s.kind == CURSOR_STRING_LITERAL ? evaluate_string(k.c[i + 1]) : longest_literal(s);
		if (!v[i]) {
			free(v[0]);
			return NULL;
		}
	}
	if (strlen(v[1]) > strlen(v[0])) {
		free(v[0]);
		return v[1];
	}
	free(v[1]);
	return v[0];
}

static void put_owned_string(struct out *o, char *s)
{
	put_string(o, s, 1);
	free(s);
}

/* One argument: "f" the string it evaluates to when, casts stripped, it is a
 * string literal (a format); "l" the same without stripping casts, or the
 * longer branch of a ?: (a %s argument's literal); its type without the
 * implicit conversions and parentheses: "t" as written, "c" canonical, "k"
 * the canonical kind, "z" the size (8 for a pointer), "p" a pointer's
 * canonical pointee kind, "a" a constant array's length. */
static void put_argument(struct out *o, CXCursor a)
{
	CXCursor s = strip(a, 0);
	CXType t, ct;

	puts_(o, "{\"f\":");
	put_owned_string(o, strip(a, 1).kind == CURSOR_STRING_LITERAL ? evaluate_string(a) : NULL);
	puts_(o, ",\"l\":");
	put_owned_string(o, s.kind == CURSOR_STRING_LITERAL ? evaluate_string(a) : longest_literal(s));
	t = L.walk.cursor_type(s);
	ct = L.canonical(t);
	puts_(o, ",\"t\":");
	put_cxstring(o, L.walk.type_spelling(t));
	puts_(o, ",\"c\":");
	put_cxstring(o, L.walk.type_spelling(ct));
	putf(o, ",\"k\":%d,\"z\":%lld", ct.kind,
	     ct.kind == TYPE_POINTER || ct.kind == TYPE_INVALID ? 8LL : L.size_of(ct));
	if (ct.kind == TYPE_POINTER)
		putf(o, ",\"p\":%d", L.canonical(L.pointee(ct)).kind);
	if (ct.kind == TYPE_CONSTANT_ARRAY)
		putf(o, ",\"a\":%lld", L.array_size(ct));
	put(o, "}", 1);
}

/* ---- the declarations calls refer to: "decls" [[hash, ranges], ...], ranges
 * null when the type cannot carry format(printf, ...) (a prototype neither
 * variadic nor taking a va_list: scan_parse.FileScan.format_attr's first
 * test), else the [file, start offset, end offset] of each attribute whose
 * expansion starts and ends in one file */
struct decls {
	struct out o;
	unsigned *seen;
	size_t n, cap;
};

struct attr_visit {
	struct out *o;
	int count;
};

static int put_attribute(CXCursor c, CXCursor parent, void *data)
{
	struct attr_visit *v = data;
	CXSourceRange ext;
	unsigned line, col, s_off, e_off;
	void *sf, *ef;
	CXString sn, en;
	int same;

	(void)parent;
	if (!L.is_attribute(c.kind))
		return CHILD_VISIT_CONTINUE;
	ext = L.cursor_extent(c);
	sf = expansion_file(L.range_start(ext), &line, &col, &s_off);
	ef = expansion_file(L.range_end(ext), &line, &col, &e_off);
	if (!sf || !ef)
		return CHILD_VISIT_CONTINUE;
	sn = L.file_name(sf);
	en = L.file_name(ef);
	same = L.walk.c_string(sn) && L.walk.c_string(en) && !strcmp(L.walk.c_string(sn), L.walk.c_string(en));
	if (same) {
		puts_(v->o, v->count++ ? ",[" : "[");
		put_string(v->o, L.walk.c_string(sn), 0);
		putf(v->o, ",%u,%u]", s_off, e_off);
	}
	L.walk.dispose_string(sn);
	L.walk.dispose_string(en);
	return CHILD_VISIT_CONTINUE;
}

static void note_decl(struct decls *d, CXCursor decl, unsigned hash)
{
	struct attr_visit v = { &d->o, 0 };

	for (size_t i = 0; i < d->n; i++)
		if (d->seen[i] == hash)
			return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		unsigned *p = realloc(d->seen, cap * sizeof(*p));

		if (!p) {
			d->o.failed = 1;
			return;
		}
		d->seen = p;
		d->cap = cap;
	}
	d->seen[d->n++] = hash;
	putf(&d->o, "%s[%u,", d->n > 1 ? "," : "", hash);
	if (!type_may_have_format(&L.walk, decl)) {
		puts_(&d->o, "null]");
		return;
	}
	put(&d->o, "[", 1);
	L.visit_children(decl, put_attribute, &v);
	put(&d->o, "]]", 2);
}

/* ---- the calls of one function and the functions of the file */
struct sites {
	struct out o;
	struct decls decls;
	struct members *members;
	unsigned char tainted[MAX_MEMBERS];
	unsigned char ended[MAX_MEMBERS]; /* the main file's declaration after member k is at file scope */
	const void *ref_decl[FILE_SLOTS]; /* declarations referred to, and their owners */
	int ref_owner[FILE_SLOTS];
	const char *const *names;
	long count;
	CXCursor *nodes; /* the walk of the current function */
	int *parents, *kinds;
	long cap;
	CXCursor *functions; /* the functions answered, "fi" */
	long n_functions, cap_functions;
};

static long walk_function(struct sites *st, CXCursor fn)
{
	for (;;) {
		long n = scan_walk(fn, (void *)L.visit_children, st->nodes, st->parents, st->kinds, st->cap);

		if (n <= st->cap)
			return n;
		free(st->nodes);
		free(st->parents);
		free(st->kinds);
		st->cap = 2 * n;
		st->nodes = malloc(st->cap * sizeof(*st->nodes));
		st->parents = malloc(st->cap * sizeof(*st->parents));
		st->kinds = malloc(st->cap * sizeof(*st->kinds));
		if (!st->nodes || !st->parents || !st->kinds) {
			st->cap = 0;
			return -1;
		}
	}
}

/* {"i": the call's index in the walk, "callee", "h": the hash of the function
 * declaration it refers to (or null), "line", "col", "off": where its extent
 * starts (expansion), "args": [...]} */
static void put_call(struct sites *st, long i)
{
	struct out *o = &st->o;
	CXCursor call = st->nodes[i], decl = L.walk.referenced(call);
	unsigned line, col, off;
	int n;

	putf(o, "{\"i\":%ld,\"callee\":", i);
	put_cxstring(o, L.walk.cursor_spelling(call));
	if (!L.walk.is_null(decl) && decl.kind == CURSOR_FUNCTION_DECL) {
		unsigned hash = L.hash(decl);

		note_decl(&st->decls, decl, hash);
		putf(o, ",\"h\":%u", hash);
	} else {
		puts_(o, ",\"h\":null");
	}
	expansion_file(L.range_start(L.cursor_extent(call)), &line, &col, &off);
	putf(o, ",\"line\":%u,\"col\":%u,\"off\":%u,\"args\":[", line, col, off);
	n = L.num_arguments(call);
	for (int k = 0; k < n; k++) {
		if (k)
			put(o, ",", 1);
		put_argument(o, L.argument(call, (unsigned)k));
	}
	puts_(o, "]}");
}

/* why a member is parsed alone again ("tainted"; 0: it is not) */
enum { TAINT_REFERENCE = 2, TAINT_NOTE, TAINT_INCLUDED, TAINT_UNENDED };

enum {
	CURSOR_TYPE_REF = 43,
	CURSOR_MEMBER_REF = 47,
	CURSOR_DECL_REF_EXPR = 101,
	CURSOR_MEMBER_REF_EXPR = 102,
	CURSOR_TYPEDEF_DECL = 20,
};

/* A compiler builtin: declared by clang where it is first used, so in
 * whichever member uses it first, the same declaration for every member. */
static int is_builtin(CXCursor fn)
{
	static const char *const prefixes[] = { "__builtin", "__sync_", "__atomic_", "__c11_atomic_" };
	CXString s = L.walk.cursor_spelling(fn);
	const char *name = L.walk.c_string(s);
	int yes = 0;

	for (size_t i = 0; name && i < sizeof(prefixes) / sizeof(prefixes[0]) && !yes; i++)
		yes = !strncmp(name, prefixes[i], strlen(prefixes[i]));
	L.walk.dispose_string(s);
	return yes;
}

static int count_child(CXCursor c, CXCursor parent, void *data)
{
	(void)c;
	(void)parent;
	++*(int *)data;
	return CHILD_VISIT_BREAK;
}

/* A function declared implicitly by its first call, `int f()` (C89's rule,
 * which clang keeps in gnu11): it has no source range of its own and no
 * parameters. A member that calls f parsed alone declares f the same way. */
static int is_implicit(CXCursor fn)
{
	unsigned line, col, off;
	int children = 0;

	if (expansion_file(L.range_start(L.cursor_extent(fn)), &line, &col, &off))
		return 0;
	L.visit_children(fn, count_child, &children);
	return children == 0;
}

/* The member owning the first declaration of what a reference names, or -1
 * (a name the prelude declares first is seen by a member parsed alone too,
 * whatever another member redeclares: `struct device;`). */
static int referred_owner(struct sites *st, CXCursor ref)
{
	CXCursor d = L.walk.referenced(ref);
	uintptr_t h;
	unsigned i, line, col, off;
	int o;

	if (L.walk.is_null(d))
		return -1;
	d = L.canonical_cursor(d);
	h = (uintptr_t)d.data[0] * 0x9e3779b97f4a7c15ULL;
	i = (unsigned)(h >> 40) % FILE_SLOTS;
	for (int probes = 0; probes < 64 && st->ref_decl[i]; probes++, i = (i + 1) % FILE_SLOTS)
		if (st->ref_decl[i] == d.data[0])
			return st->ref_owner[i];
	o = owner(st->members, expansion_file(L.cursor_location(d), &line, &col, &off));
	if (o >= 0 && d.kind == CURSOR_FUNCTION_DECL && (is_builtin(d) || is_implicit(d)))
		o = -1;
	if (!st->ref_decl[i]) {
		st->ref_decl[i] = d.data[0];
		st->ref_owner[i] = o;
	}
	return o;
}

/* Whether a member's declaration (its walk in st->nodes) refers to what a
 * member before it declares first: parsed alone, that name would not be
 * there. (What a later member declares is read after this member was
 * parsed: it may complete a type the walk meets, never what the parse
 * decided.) */
static int refers_to_earlier(struct sites *st, long n, int self)
{
	for (long i = 0; i < n; i++) {
		int k = st->kinds[i], o;

		if (k != CURSOR_TYPE_REF && k != CURSOR_MEMBER_REF && k != CURSOR_DECL_REF_EXPR &&
		    k != CURSOR_MEMBER_REF_EXPR)
			continue;
		o = referred_owner(st, st->nodes[i]);
		if (o >= 0 && o < self)
			return 1;
	}
	return 0;
}

static void put_function(struct sites *st, CXCursor fn, int member)
{
	long n = walk_function(st, fn), kept;
	int *calls;

	if (n < 0) {
		st->o.failed = 1;
		return;
	}
	if (member > 0 && !st->tainted[member] && refers_to_earlier(st, n, member))
		st->tainted[member] = TAINT_REFERENCE;
	if (fn.kind != CURSOR_FUNCTION_DECL || !L.is_definition(fn))
		return;
	calls = malloc((n ? n : 1) * sizeof(*calls));
	if (!calls) {
		st->o.failed = 1;
		return;
	}
	kept = scan_calls(st->nodes, n, &L.walk, st->names, st->count, calls);
	if (kept) {
		if (st->n_functions == st->cap_functions) {
			long cap = st->cap_functions ? 2 * st->cap_functions : 64;
			CXCursor *p = realloc(st->functions, cap * sizeof(*p));

			if (!p) {
				st->o.failed = 1;
				free(calls);
				return;
			}
			st->functions = p;
			st->cap_functions = cap;
		}
		st->functions[st->n_functions] = fn;
		putf(&st->o, "%s{\"file\":%d,\"fi\":%ld,\"name\":", st->n_functions ? "," : "", member,
		     st->n_functions);
		st->n_functions++;
		put_cxstring(&st->o, L.walk.cursor_spelling(fn));
		puts_(&st->o, ",\"calls\":[");
		for (long k = 0; k < kept; k++) {
			if (k)
				put(&st->o, ",", 1);
			put_call(st, calls[k]);
		}
		puts_(&st->o, "]}");
	}
	free(calls);
}

/* The main file of a batch declares scnfuzz_batch_member_end_<k> after
 * member k (scan_parse.batch_main): at file scope, a top-level cursor, only
 * when the member's parse ended there. When an error's recovery in member k
 * skipped on to a closing brace, the members after it were read as the
 * inside of k's declaration: k and they are parsed alone again. */
static void note_member_end(struct sites *st, CXCursor c)
{
	static const char prefix[] = "scnfuzz_batch_member_end_";
	CXString s = L.walk.cursor_spelling(c);
	const char *name = L.walk.c_string(s);

	if (name && !strncmp(name, prefix, sizeof(prefix) - 1)) {
		long k = strtol(name + sizeof(prefix) - 1, NULL, 10);

		if (k >= 0 && k < st->members->n)
			st->ended[k] = 1;
	}
	L.walk.dispose_string(s);
}

static int visit_top(CXCursor c, CXCursor parent, void *data)
{
	struct sites *st = data;
	unsigned line, col, off;
	int member = is_member(st->members, expansion_file(L.cursor_location(c), &line, &col, &off));

	(void)parent;
	if (member < 0 && c.kind == CURSOR_TYPEDEF_DECL && st->members->n > 1)
		note_member_end(st, c);
	if (member < 0)
		return CHILD_VISIT_CONTINUE;
	/* alone, only the function definitions are walked; in a batch, every
	 * declaration of a member after the first, for the names it refers to */
	if ((c.kind == CURSOR_FUNCTION_DECL && L.is_definition(c)) || member > 0)
		put_function(st, c, member);
	return CHILD_VISIT_CONTINUE;
}

/* Whether one of a diagnostic's notes points into another member's text
 * ("previous definition is here": a name both define). */
static int note_in_other(struct sites *st, void *d, int self)
{
	void *set = L.child_diagnostics(d);
	unsigned n = set ? L.num_in_set(set) : 0, line, col, off;
	int found = 0;

	for (unsigned i = 0; i < n && !found; i++) {
		void *note = L.diagnostic_in_set(set, i);
		int o = owner(st->members, expansion_file(L.diagnostic_location(note), &line, &col, &off));

		found = o >= 0 && o != self;
		L.dispose_diagnostic(note);
	}
	return found;
}

/* The names of the headers outside the prelude first read under member k. */
static void put_headers(struct sites *st, int k)
{
	struct members *m = st->members;
	int count = 0;

	if (!m->owns_headers[k])
		return;
	for (int i = 0; i < FILE_SLOTS; i++) {
		if (!m->e[i].file || m->e[i].owner != k || m->e[i].self >= 0)
			continue;
		if (count++)
			put(&st->o, ",", 1);
		put_cxstring(&st->o, L.file_name(m->e[i].file));
	}
}

/* Per member: "errors", the diagnostics of error severity or worse in its
 * text or its own headers (alone: anywhere); "wformat", the lines of its
 * -Wformat warnings. A member with a diagnostic whose note points into
 * another member's text is tainted. */
static void put_diagnostics(struct sites *st, void *tu)
{
	struct members *m = st->members;
	unsigned n = L.num_diagnostics(tu), line, col, off;
	unsigned errors[MAX_MEMBERS] = { 0 };
	unsigned *found = malloc(2 * (n ? n : 1) * sizeof(*found)); /* (member, line) of each -Wformat warning */
	unsigned n_found = 0;

	if (!found) {
		st->o.failed = 1;
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		void *d = L.diagnostic(tu, i);
		void *file = expansion_file(L.diagnostic_location(d), &line, &col, &off);
		int o = m->n == 1 ? 0 : owner(m, file);

		if (o >= 0 && L.severity(d) >= DIAGNOSTIC_ERROR) {
			errors[o]++;
		} else if (o >= 0) {
			CXString opt = L.option(d, NULL);
			const char *s = L.walk.c_string(opt);
			int k = is_member(m, file);

			if (s && !strncmp(s, "-Wformat", 8) && k >= 0) {
				found[2 * n_found] = (unsigned)k;
				found[2 * n_found++ + 1] = line;
			}
			L.walk.dispose_string(opt);
		}
		if (o >= 0 && m->n > 1 && !st->tainted[o] && note_in_other(st, d, o))
			st->tainted[o] = TAINT_NOTE;
		L.dispose_diagnostic(d);
	}
	puts_(&st->o, "\"files\":[");
	for (int k = 0; k < m->n; k++) {
		unsigned lines = 0;

		putf(&st->o, "%s{\"wformat\":[", k ? "," : "");
		for (unsigned i = 0; i < n_found; i++)
			if (found[2 * i] == (unsigned)k)
				putf(&st->o, "%s%u", lines++ ? "," : "", found[2 * i + 1]);
		putf(&st->o, "],\"errors\":%u,\"tainted\":%d,\"headers\":[", errors[k], st->tainted[k]);
		put_headers(st, k);
		puts_(&st->o, "]}");
	}
	put(&st->o, "]", 1);
	free(found);
}

static struct sites answer;
static struct members batch;

/* The JSON of a translation unit (above) whose scanned files are the n
 * members paths (reals: their real paths), in the order the main file
 * #includes them; names: the family names, sorted (scan_calls). A member is
 * tainted (to be parsed alone again) when one of its declarations refers to
 * what a member before it (or a header first read under it) declares, when a
 * diagnostic in it has a note in another member (a name both define), when
 * it #includes another member or another member #includes it, or when its
 * parse or a member's before it did not end at file scope; per
 * member "headers" names the headers outside the prelude first read under
 * it (scan_parse.scan_batch checks that their macros were saved).
 * Returns the JSON's length, its text at *json until the next call, or -1. */
long scan_sites(void *tu, const char *const *paths, const char *const *reals, long n, const char *const *names,
		long count, const char **json)
{
	struct sites *st = &answer;

	if (n < 1 || n > MAX_MEMBERS)
		return -1;
	memset(&batch, 0, sizeof(batch));
	batch.paths = paths;
	batch.reals = reals;
	batch.n = (int)n;
	memset(st->tainted, 0, sizeof(st->tainted));
	memset(st->ref_decl, 0, sizeof(st->ref_decl));
	st->members = &batch;
	st->o.n = st->decls.o.n = 0;
	st->o.failed = st->decls.o.failed = 0;
	st->decls.n = 0;
	st->names = names;
	st->count = count;
	st->n_functions = 0;
	if (n > 1) {
		L.get_inclusions(tu, note_inclusion, &batch);
		for (long k = 0; k < n; k++)
			st->tainted[k] = batch.included[k] ? TAINT_INCLUDED : 0;
	}
	memset(st->ended, 0, sizeof(st->ended));
	put(&st->o, "{\"functions\":[", 14);
	L.visit_children(L.tu_cursor(tu), visit_top, st);
	puts_(&st->o, "],");
	for (long k = 0, unended = 0; n > 1 && k < n; k++) {
		unended |= !st->ended[k];
		if (unended)
			st->tainted[k] = TAINT_UNENDED;
	}
	put_diagnostics(st, tu);
	puts_(&st->o, ",\"decls\":[");
	if (st->decls.o.n)
		put(&st->o, st->decls.o.p, st->decls.o.n);
	puts_(&st->o, "]}");
	if (st->o.failed || st->decls.o.failed)
		return -1;
	*json = st->o.p;
	return (long)st->o.n;
}

/* The cursor of the answer's function "fi": 1, or 0 when there is none. */
int scan_sites_function(long fi, CXCursor *out)
{
	if (fi < 0 || fi >= answer.n_functions)
		return 0;
	*out = answer.functions[fi];
	return 1;
}

/* ---- the macros a file #defines or #undefs (the names a batch's main file
 * saves with #pragma push_macro before the member and restores after it, so
 * that no member sees another's macros). A lexer of C's translation phases
 * 1-3 as far as directives need: lines spliced at a backslash-newline,
 * comments and string and character literals skipped, and a '#' (or "%:")
 * first on a line followed by "define" or "undef" and the name. Directives
 * in #if 0 blocks are read too: saving a name that is never defined does
 * nothing. */
static long splice(const char *in, long n, char *out)
{
	long k = 0;

	for (long i = 0; i < n; i++) {
		if (in[i] == '\\' && i + 1 < n && in[i + 1] == '\n') {
			i++;
			continue;
		}
		if (in[i] == '\\' && i + 2 < n && in[i + 1] == '\r' && in[i + 2] == '\n') {
			i += 2;
			continue;
		}
		out[k++] = in[i];
	}
	return k;
}

static int ident_start(char c)
{
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (unsigned char)c >= 0x80;
}

static int ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Past blanks and comments on the same line, from i. */
static long skip_blank(const char *s, long n, long i)
{
	for (;;) {
		if (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\v' || s[i] == '\r')) {
			i++;
		} else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			const char *e = i + 2 < n ? strstr(s + i + 2, "*/") : NULL;

			i = e ? (e - s) + 2 : n;
		} else {
			return i;
		}
	}
}

static long directive_name(const char *s, long n, long i, struct out *o)
{
	long w = skip_blank(s, n, i), e = w;

	while (e < n && ident_char(s[e]))
		e++;
	if ((e - w == 6 && !strncmp(s + w, "define", 6)) || (e - w == 5 && !strncmp(s + w, "undef", 5))) {
		long a = skip_blank(s, n, e), b = a;

		while (b < n && ident_char(s[b]))
			b++;
		if (b > a && ident_start(s[a])) {
			put(o, s + a, (size_t)(b - a));
			put(o, "\n", 1);
		}
		return b;
	}
	return e;
}

static void lex_directives(const char *s, long n, struct out *o)
{
	int line_start = 1;

	for (long i = 0; i < n;) {
		char c = s[i];

		if (c == '\n') {
			line_start = 1;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' ||
			   (c == '/' && i + 1 < n && s[i + 1] == '*')) {
			i = skip_blank(s, n, i);
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
		} else if (line_start && (c == '#' || (c == '%' && i + 1 < n && s[i + 1] == ':'))) {
			line_start = 0;
			i = directive_name(s, n, i + (c == '#' ? 1 : 2), o);
		} else if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c && s[i] != '\n'; i++)
				if (s[i] == '\\' && i + 1 < n)
					i++;
			i += i < n && s[i] == c;
			line_start = 0;
		} else {
			line_start = 0;
			i++;
		}
	}
}

/* The names, one a line, at *names until the next call: their length, or -1
 * when the file cannot be read. */
long scan_macro_names(const char *path, const char **names)
{
	static struct out o;
	FILE *f = fopen(path, "rb");
	char *text = NULL, *spliced;
	long n = 0, cap = 0, got;

	if (!f)
		return -1;
	do {
		if (n + 65536 + 1 > cap) {
			char *p = realloc(text, cap = 2 * cap + 65536 + 1);

			if (!p) {
				free(text);
				fclose(f);
				return -1;
			}
			text = p;
		}
		got = (long)fread(text + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	fclose(f);
	text[n] = 0;
	spliced = malloc(n + 1);
	if (!spliced) {
		free(text);
		return -1;
	}
	n = splice(text, n, spliced);
	spliced[n] = 0;
	free(text);
	o.n = 0;
	o.failed = 0;
	put(&o, "", 0);
	lex_directives(spliced, n, &o);
	free(spliced);
	if (o.failed)
		return -1;
	*names = o.p;
	return (long)o.n;
}
