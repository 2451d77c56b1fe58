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
