"""`scnfuzz scan`: the printf-family calls of one function body and the
candidates of misuse, from libclang's AST (scan_parse.FileScan parses).

What is a candidate here (the parent, scan.py, decides the ones that need
the output's bound: a bounded format cannot be truncated, so its C99 return
value IS the number of bytes written):
  snprintf-ret-length   len += snprintf(buf + len, size - len, ...): the C99
                        return (the would-be length) added to a running length
  snprintf-ret-pointer  p += snprintf(p, end - p, ...): added to a pointer
                        into the same buffer
  snprintf-ret-returned return snprintf(buf, PAGE_SIZE, ...) from a sysfs-style
                        show() (it returns the bytes it wrote)
  sprintf-overflow      sprintf into a fixed-size array (the bound decides)
  scnprintf-ret-compared scnprintf(buf, size, ...) >= size: never true
A site that checks the value (a relational operator or min/min_t/clamp/
WARN_ON on it, anywhere in the statements of the function that mention it)
is not a candidate: precision before recall. A statement's tokens are
clang's tokens of the function body, cut at ';', '{' and '}'.
"""
import functools

from .mutator import _cindex

WOULD_BE = {"snprintf", "vsnprintf"}  # the C99 functions whose return is the would-be length
BYTES_WRITTEN = {"scnprintf", "vscnprintf", "sysfs_emit", "sysfs_emit_at"}
SPRINTF = {"sprintf"}
CHECKED = WOULD_BE | BYTES_WRITTEN | SPRINTF  # the callees whose calls candidates() looks at
RELATIONAL = {"<", "<=", ">", ">="}
CHECK_MACROS = {"min", "min_t", "min3", "clamp", "clamp_t", "clamp_val", "umin", "WARN_ON", "WARN_ON_ONCE",
                "WARN", "WARN_ONCE", "BUG_ON", "MIN"}
LOOPS = {"FOR_STMT", "WHILE_STMT", "DO_STMT"}

FIX = {
    "snprintf-ret-length": "use scnprintf() (returns the bytes written), or stop when the return value "
                           "reaches the space left",
    "snprintf-ret-pointer": "use scnprintf(), or check the return value against end - p before advancing p",
    "snprintf-ret-returned": "return sysfs_emit(buf, ...) (or scnprintf(buf, PAGE_SIZE, ...))",
    "sprintf-overflow": "use snprintf/scnprintf with sizeof the array, or bound the %s with a precision",
    "scnprintf-ret-compared": "compare snprintf()'s return value instead (scnprintf never returns size or "
                              "more), or drop the check",
    "pa-double-0x": "drop the literal 0x: %pa and %pad print their own 0x",
}


def _strip_up(fn, i):
    """Index of the first ancestor of node i that is not a cast, paren or implicit node."""
    j = fn.parents[i]
    while j >= 0 and fn.kinds[j] in fn.K_WRAPPERS:
        j = fn.parents[j]
    return j


class Function:
    """One function definition: its nodes in pre-order (kinds, parents, and
    the cursors made on demand: scan_walk)."""

    def __init__(self, fs, cursor, walk_calls=True):
        from . import scan_parse, scan_walk
        self.sp = scan_parse
        self.fs, self.cursor, self.name = fs, cursor, cursor.spelling
        self.tree = scan_walk.walk(cursor, _family_names(scan_parse) if walk_calls else None)
        self.kinds, self.parents = self.tree.kinds, self.tree.parents
        K = _kinds()
        self.K_WRAPPERS, self.K_CALL, self.K_COMPOUND = K["wrappers"], K["CALL_EXPR"], K["COMPOUND_ASSIGNMENT_OPERATOR"]
        self.K_LOOPS = K["loops"]
        self._stmts = None
        self.calls = []  # (node index, call record)

    def node(self, i):
        return self.tree.node(i)

    def indices(self, kind, start=0):
        """The indices of the nodes of a kind, from start (list.index: the
        search runs in C, most nodes are of no interest)."""
        kinds, i = self.kinds, start - 1
        while True:
            try:
                i = kinds.index(kind, i + 1)
            except ValueError:
                return
            yield i

    def in_loop(self, i):
        """Whether node i lies in a for, while or do loop of the function."""
        j = self.parents[i]
        while j >= 0:
            if self.kinds[j] in self.K_LOOPS:
                return True
            j = self.parents[j]
        return False

    # ---- tokens
    def toks(self, c):
        return [t.spelling for t in c.get_tokens()]

    def statements(self):
        """The body's tokens cut into statements (lists of token spellings)."""
        if self._stmts is None:
            out, cur = [], []
            for t in self.cursor.get_tokens():
                s = t.spelling
                if s in (";", "{", "}"):
                    if cur:
                        out.append(cur)
                    cur = []
                else:
                    cur.append(s)
            if cur:
                out.append(cur)
            self._stmts = out
        return self._stmts

    def checked(self, names):
        """Whether a statement that mentions one of names (token sequences)
        compares it or passes it to a check macro."""
        for st in self.statements():
            if not (RELATIONAL & set(st) or CHECK_MACROS & set(st)):
                continue
            for n in names:
                if n and _contains(st, n):
                    return True
        return False

    # ---- the calls
    def printf_calls(self):
        """The records of the body's printf-family calls, through the
        bindings (scan_walk.sites gives the same data from C)."""
        fs = self.fs
        out = []
        # the C walk's calls of a family name or a callee that may carry a format attribute
        # (the others are not of the family); every call with the Python walk
        for i in self.tree.calls if self.tree.calls is not None else self.indices(self.K_CALL):
            c = self.node(i)
            # the declaration the call sees (not one per name: a later redeclaration may add
            # the format attribute)
            decl = c.referenced
            attr = fs.format_attr(decl) if decl is not None and decl.kind.name == "FUNCTION_DECL" else None
            if not attr and c.spelling not in self.sp.FAMILIES:
                continue
            args = list(c.get_arguments())
            rec = call_record(fs, self.name, _plain_call(self.sp, c, args), attr)
            if rec is not None:
                self.calls.append((i, rec, args))
                out.append(rec)
        return out

    # ---- the candidates
    def candidates(self):
        out = []
        for i, rec, args in self.calls:
            callee = rec["callee"]
            if callee in WOULD_BE and len(args) >= 2:
                out.extend(self._would_be(i, rec, args))
            elif callee in BYTES_WRITTEN:
                out.extend(self._compared(i, rec, args))
            elif callee in SPRINTF and len(args) >= 2:
                out.extend(self._sprintf(i, rec, args))
        return out

    def _cand(self, rec, kind, why, **more):
        d = {"file": rec["file"], "line": rec["line"], "col": rec["col"], "function": self.name,
             "kind": kind, "why": why, "fix": FIX[kind], "code": rec["code"], "call": rec}
        d.update(more)
        return d

    def _size_const(self, size_arg, target):
        """The constant the size argument starts from (PAGE_SIZE in PAGE_SIZE - len), if clang computes it."""
        s = self.sp.strip(size_arg)
        v = self.sp.evaluate(s)
        if isinstance(v, int):
            return v
        if s.kind.name == "BINARY_OPERATOR":
            kids = list(s.get_children())
            if len(kids) == 2:
                v = self.sp.evaluate(self.sp.strip(kids[0]))
                if isinstance(v, int):
                    return v
        return None

    def _op_after(self, parent, first_child):
        """The operator token of a binary node: the token after its first operand's tokens."""
        pt, lt = self.toks(parent), self.toks(first_child)
        return pt[len(lt)] if len(pt) > len(lt) and pt[:len(lt)] == lt else None

    def _would_be(self, i, rec, args):
        j = _strip_up(self, i)
        if j < 0:
            return []
        par = self.node(j)
        kind = par.kind.name
        size_arg = args[1] if len(args) >= 2 else None
        if kind == "COMPOUND_ASSIGNMENT_OPERATOR":
            kids = list(par.get_children())
            if len(kids) == 2 and self._op_after(par, kids[0]) == "+=" and not self.is_in(i, kids[0]):
                return self._accumulated(i, rec, kids[0], size_arg)
            return []
        if kind == "RETURN_STMT":
            if self._is_show(args[0]):
                return [self._cand(rec, "snprintf-ret-returned",
                                   "a show() returns snprintf()'s would-be length as the bytes it wrote: "
                                   "past the size once the output is cut",
                                   size_const=self._size_const(size_arg, None) if size_arg else None)]
            return []
        stored = None
        if kind == "VAR_DECL":
            stored = [par.spelling]
        elif kind == "BINARY_OPERATOR":
            kids = list(par.get_children())
            if len(kids) == 2 and self._op_after(par, kids[0]) == "=":
                stored = self.toks(self.sp.strip(kids[0]))
        if not stored:
            return []
        return self._stored(i, rec, stored, size_arg)

    def _accumulated(self, i, rec, lhs, size_arg):
        target = self.toks(self.sp.strip(lhs))
        if self.checked([target]):
            return []
        ptr = lhs.type.get_canonical().kind.name == "POINTER"
        kind = "snprintf-ret-pointer" if ptr else "snprintf-ret-length"
        what = "a pointer into the buffer" if ptr else "a running length"
        return [self._cand(rec, kind, f"snprintf()'s return value (the would-be length) is added to {what} "
                           f"({' '.join(target)}) with no check against the size: once the output is cut, "
                           f"it points past the buffer and the size left wraps",
                           group=f"{self.name}:{' '.join(target)}", in_loop=self.in_loop(i),
                           size_const=self._size_const(size_arg, target) if size_arg else None)]

    def _stored(self, i, rec, var, size_arg):
        """n = snprintf(...); then n added to a length or pointer, or returned by a show()."""
        if self.checked([var]):
            return []
        for k in self.indices(self.K_COMPOUND, i + 1):
            c = self.node(k)
            kids = list(c.get_children())
            if len(kids) != 2 or self._op_after(c, kids[0]) != "+=" or self.toks(self.sp.strip(kids[1])) != var:
                continue
            target = self.toks(self.sp.strip(kids[0]))
            if self.checked([target]):
                return []
            ptr = kids[0].type.get_canonical().kind.name == "POINTER"
            kind = "snprintf-ret-pointer" if ptr else "snprintf-ret-length"
            return [self._cand(rec, kind, f"snprintf()'s return value ({' '.join(var)}, the would-be length) is "
                               f"added to {' '.join(target)} with no check against the size",
                               group=f"{self.name}:{' '.join(target)}", in_loop=self.in_loop(i),
                               size_const=self._size_const(size_arg, target) if size_arg else None)]
        return []

    def _is_show(self, dest):
        """A sysfs-style show(): returns ssize_t, and the buffer written is its char * parameter."""
        res = self.cursor.result_type
        if res.spelling != "ssize_t" and not self.name.endswith("_show"):
            return False
        d = self.sp.strip(dest)
        if d.kind.name != "DECL_REF_EXPR":
            return False
        r = d.referenced
        return r is not None and r.kind.name == "PARM_DECL" and r.type.get_canonical().kind.name == "POINTER"

    def _compared(self, i, rec, args):
        callee = rec["callee"]
        size_pos = {"scnprintf": 1, "vscnprintf": 1}.get(callee)
        if size_pos is None or len(args) <= size_pos:
            return []
        size = self.toks(self.sp.strip(args[size_pos]))
        j = _strip_up(self, i)
        if j < 0:
            return []
        par = self.node(j)
        why = (f"{callee}() returns the bytes it wrote, at most size - 1: comparing it with the size "
               f"({' '.join(size)}) is never true, so a cut output goes unnoticed")
        if par.kind.name == "BINARY_OPERATOR":
            kids = list(par.get_children())
            if len(kids) == 2:
                op = self._op_after(par, kids[0])
                first_is_call = self.is_in(i, kids[0])
                other = kids[1] if first_is_call else kids[0]
                never = (">=", ">", "==") if first_is_call else ("<=", "<", "==")
                if op in never and self.toks(self.sp.strip(other)) == size:
                    return [self._cand(rec, "scnprintf-ret-compared", why)]
            return []
        var = None
        if par.kind.name == "VAR_DECL":
            var = [par.spelling]
        elif par.kind.name == "BINARY_OPERATOR":
            kids = list(par.get_children())
            if len(kids) == 2 and self._op_after(par, kids[0]) == "=":
                var = self.toks(self.sp.strip(kids[0]))
        if var:
            for st in self.statements():
                for op in (">=", ">", "=="):
                    if _contains(st, var + [op] + size):
                        return [self._cand(rec, "scnprintf-ret-compared", why)]
        return []

    def is_in(self, i, anc):
        """Whether node i lies under the cursor anc."""
        j = i
        while j >= 0:
            if self.node(j) == anc:
                return True
            j = self.parents[j]
        return False

    def _sprintf(self, i, rec, args):
        d = self.sp.strip(args[0])
        t = d.type.get_canonical()
        if t.kind.name != "CONSTANTARRAY" or rec["format"] is None:
            return []
        return [self._cand(rec, "sprintf-overflow", "", array_size=t.get_array_size(),
                           dest=" ".join(self.toks(d)))]


def call_record(fs, function, c, attr):
    """The record of a call (c: scan_walk.sites' plain data of it) in the
    function named function of fs, or None when it is not of the printf
    family (attr: the (M, N) of its callee's format attribute, or None)."""
    sp = _scan_parse()
    callee = c["callee"]
    fam = sp.FAMILIES.get(callee)
    if not attr and not fam:
        return None
    family = fam[0] if fam else "attribute"
    if attr:
        fmt_i, first = attr
    else:
        fmt_i = fam[1]
        first = 0 if callee in sp.VA_LIST_FUNCS else fmt_i + 1
    args = c["args"]
    if fmt_i < 1 or fmt_i > len(args):
        return None
    fmt = args[fmt_i - 1]["f"]
    level = None
    if fmt is not None and fmt[:1] == "\x01" and len(fmt) >= 2:  # KERN_<LEVEL>: printk_skip_level()
        level, fmt = fmt[1:2], fmt[2:]
    vargs = []
    if first >= 1:
        kind = _type_kind_name
        for a in args[first - 1:]:
            p, n = a.get("p"), a.get("a")
            vargs.append({"type": a["t"], "canonical": a["c"], "kind": kind(a["k"]), "size": a["z"],
                          "pointee": kind(p) if p is not None else None, "array": n, "literal": a["l"]})
    line = c["line"]
    return {"file": fs.path, "line": line, "col": c["col"], "name": fs.expansion_name_at(c["off"], callee),
            "callee": callee, "family": family, "function": function, "format": fmt,
            "format_index": fmt_i, "va_list": first == 0, "args": vargs, "level": level,
            "format_warning": line in fs.format_warnings, "code": fs.line_text(line)}


def _plain_call(sp, c, args):
    """A call's data through the bindings, as scan_walk.c's put_call and put_argument give it."""
    def text(v):
        return v.decode("latin-1") if isinstance(v, bytes) else None

    out = []
    for a in args:
        s = sp.strip(a, casts=False)  # an explicit cast is the type passed
        fcur = sp.strip(a)
        t = s.type
        ct = t.get_canonical()
        k = ct.kind.name
        d = {"f": text(sp.evaluate(a)) if fcur.kind.name == "STRING_LITERAL" else None,
             "l": text(sp.evaluate(a) if s.kind.name == "STRING_LITERAL" else _longest_literal(sp, s)),
             "t": t.spelling, "c": ct.spelling, "k": ct.kind.value,
             "z": ct.get_size() if k not in ("POINTER", "INVALID") else 8}
        if k == "POINTER":
            d["p"] = ct.get_pointee().get_canonical().kind.value
        if k == "CONSTANTARRAY":
            d["a"] = ct.get_array_size()
        out.append(d)
    start = c.extent.start
    return {"callee": c.spelling, "line": start.line, "col": start.column, "off": start.offset, "args": out}


_KIND_NAMES = {}


def _type_kind_name(k):
    name = _KIND_NAMES.get(k)
    if name is None:
        name = _KIND_NAMES[k] = _cindex().TypeKind.from_id(k).name
    return name


def _scan_parse():
    from . import scan_parse
    return scan_parse


def _contains(seq, sub):
    n = len(sub)
    return any(seq[k:k + n] == sub for k in range(len(seq) - n + 1))


@functools.lru_cache(maxsize=None)
def _family_names(sp):
    return tuple(sp.FAMILIES)


@functools.lru_cache(maxsize=None)
def _kinds():
    K = _cindex().CursorKind
    return {"wrappers": {K.UNEXPOSED_EXPR.value, K.PAREN_EXPR.value, K.CSTYLE_CAST_EXPR.value},
            "loops": {getattr(K, n).value for n in LOOPS}, "CALL_EXPR": K.CALL_EXPR.value,
            "COMPOUND_ASSIGNMENT_OPERATOR": K.COMPOUND_ASSIGNMENT_OPERATOR.value}


def _longest_literal(sp, c):
    """cond ? "a" : "bc" -> "bc" (the longer), when both branches are string literals."""
    if c.kind.name != "CONDITIONAL_OPERATOR":
        return None
    kids = list(c.get_children())
    if len(kids) != 3:
        return None
    vals = []
    for k in kids[1:]:
        s = sp.strip(k)
        if s.kind.name == "STRING_LITERAL":
            v = sp.evaluate(k)
        else:
            v = _longest_literal(sp, s)
        if not isinstance(v, bytes):
            return None
        vals.append(v)
    return max(vals, key=len)
