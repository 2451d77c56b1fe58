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
#include <stddef.h>

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

static int may_have_format(const struct api *api, CXCursor call)
{
	CXCursor decl = api->referenced(call);
	CXType t;
	CXString s;
	const char *spelling;
	int va_list = 0;

	if (api->is_null(decl) || decl.kind != CURSOR_FUNCTION_DECL)
		return 0;
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
