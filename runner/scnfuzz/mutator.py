"""Mutants of a C source file, found by libclang (a real C parser), and mutant schemata.

generate() parses the file with the flags the build compiles it with and returns the
mutants of its function bodies, each ONE source edit; apply() makes one mutant's source;
schema() makes one source holding every mutant, chosen at run time by `int scn_mutant`
(0: the original), as Mull and Dextool do.

Operators (one mutant per replacement):
  ROR   relational, the sufficient set of Kaminski, Ammann and Offutt ("Better predicate
        testing", AST 2011; it subsumes every other relational replacement):
            <  -> <=  !=  false        <= -> <   ==  true
            >  -> >=  !=  false        >= -> >   ==  true
            == -> <=  >=  false        != -> <   >   true
        (false/true: the whole comparison becomes 0/1). It holds the boundary shifts
        < <-> <= and > <-> >=. Where an operand is a pointer, == and != only swap (and
        false/true): an ordered comparison with a null pointer constant is not C.
  AOR   + - * / % to each other, only where both operands are arithmetic (pointer
        arithmetic is left alone) and never % on floating operands; the compound
        assignments += -= *= /= %= likewise; ++ <-> -- (prefix and postfix).
  LCR   && <-> ||.
  BOR   & | ^ to each other, &= |= ^= likewise.
  SOR   << <-> >>, <<= <-> >>=.
  CRCR  an integer literal to 0, 1, -1, value+1, value-1 (written with the literal's own
        type, so that no replacement changes the type of an expression: `(-1U)` for an
        unsigned int; a value the type cannot hold is left out); a character literal to
        its neighbours and to 0. Never one equal to the original, never twice the same.
  NEG   the condition of if / while / do-while / for / ?: to !(cond).
  SDL   an expression statement with an effect (call, assignment, ++/--) deleted
        (`f(x);` -> `;`); `break;` / `continue;` deleted.
  RVR   `return e;` -> `return 0;`, and -> `return 1;` for a non-pointer result (neither
        when e is already that literal); struct and void results are left alone.
Two mutants making the same edit are one (the first in the order above is kept).

Where: function bodies of the file itself (not of headers), outside constant-expression
and unevaluated contexts (case labels, array sizes and the rest of a declarator, static
initialisers, enum values, bit-field widths, _Static_assert, sizeof/_Alignof operands,
array designators, the type of a cast or compound literal, inline asm). Nothing spelled
inside a macro expansion is mutated: an operator or literal must be a token of the file
outside every macro invocation (a macro's body and its arguments both count as inside),
which the file's own token stream (cursor.get_tokens()) and libclang's record of the
macro invocations tell.

Schema: every mutant has a host, the span the schema switches on: the comparison or
arithmetic expression for an operator, the literal for CRCR, the condition for NEG, the
returned expression for RVR, the statement (with its `;`) for SDL. Hosts nest (they are
AST extents); the schema renders them recursively: an expression host becomes
    (scn_mutant == 17 ? (MUTANT 17) : scn_mutant == 18 ? (MUTANT 18) : (ORIGINAL))
where ORIGINAL holds the schemata of the hosts inside it, and MUTANT n is the host's text
with mutant n's one edit, exactly apply()'s text: while scn_mutant == n no other mutant
is active, so the schema runs exactly the code of apply(); a statement host becomes
    { if (scn_mutant != 23) STATEMENT; }
(the braces keep an `else` that follows with its own `if`). A host whose text, after
macro expansion, holds tokens of an enclosing expression (a macro that straddles its
boundary) cannot be parenthesised without changing the program, and gets no mutant.
Every replacement has the type of what it replaces (a negated pointer condition is
rendered `!!(ORIGINAL)` on the original side), so the ternary changes no value. Lines
keep their numbers (__LINE__, diagnostics): a mutant's arm is written on one line
(comments and line breaks made spaces; a host holding a preprocessor directive gets no
mutant), an edit that removes line breaks puts them back after its replacement, and the
schema's own first lines end with `#line 1`. An operator whose replacement binds
differently (`-` -> `%` in `s-buf-2`) takes the whole expression as its edit, with the
parentheses that keep its grouping: `(s-buf)%2`.
"""
import bisect
import dataclasses
import functools
import os

from .errors import ScnError

LIBCLANG = "/usr/lib/llvm-14/lib/libclang-14.so.1"
SOURCE_SUFFIXES = (".c", ".i", ".h", ".s", ".S", ".cc", ".cpp", ".cxx")
# options whose value is the next argument and may name a file
VALUE_OPTIONS = {"-include", "-imacros", "-x", "-Xclang", "-I", "-isystem", "-iquote", "-idirafter",
                 "-D", "-U", "-o", "-MF", "-MT", "-MQ", "--include"}
SCHEMA_VAR = "scn_mutant"
OPERATORS = ("ROR", "AOR", "LCR", "BOR", "SOR", "CRCR", "NEG", "SDL", "RVR")

ROR = {"<": ("<=", "!=", False), "<=": ("<", "==", True), ">": (">=", "!=", False),
       ">=": (">", "==", True), "==": ("<=", ">=", False), "!=": ("<", ">", True)}
ROR_POINTER = {"==": ("!=", False), "!=": ("==", True)}
ARITH = ("+", "-", "*", "/", "%")
BITWISE = ("&", "|", "^")
SHIFT = ("<<", ">>")
LOGICAL = ("&&", "||")
PRECEDENCE = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11, "<": 10, "<=": 10,
              ">": 10, ">=": 10, "==": 9, "!=": 9, "&": 8, "^": 7, "|": 6, "&&": 5, "||": 4}
# layer of a host among hosts with the same span: statements outermost, then the
# wrappers of a whole condition or return value, then the expression's own operators
LAYER_STMT, LAYER_WRAP, LAYER_EXPR = 0, 1, 2
# an integer literal's type -> the suffix that gives a decimal literal that type, signed
INT_SUFFIX = {"INT": ("", True), "UINT": ("U", False), "LONG": ("L", True), "ULONG": ("UL", False),
              "LONGLONG": ("LL", True), "ULONGLONG": ("ULL", False)}
INTEGER_KINDS = {"BOOL", "CHAR_U", "UCHAR", "CHAR16", "CHAR32", "USHORT", "UINT", "ULONG",
                 "ULONGLONG", "UINT128", "CHAR_S", "SCHAR", "WCHAR", "SHORT", "INT", "LONG",
                 "LONGLONG", "INT128", "ENUM"}
FLOAT_KINDS = {"FLOAT", "DOUBLE", "LONGDOUBLE", "FLOAT128", "HALF", "FLOAT16"}
POINTER_KINDS = {"POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY", "VARIABLEARRAY",
                 "DEPENDENTSIZEDARRAY", "BLOCKPOINTER", "NULLPTR"}
WORD = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
PUNCT = set("+-*/%<>=&|^!~.:#")
# cursor kinds whose whole subtree is a constant-expression or unevaluated context
FROZEN_KINDS = {"CXX_UNARY_EXPR", "STATIC_ASSERT", "ENUM_DECL", "STRUCT_DECL", "UNION_DECL",
                "TYPEDEF_DECL", "ASM_STMT", "MS_ASM_STMT", "GENERIC_SELECTION_EXPR",
                "FIELD_DECL", "PARM_DECL", "TYPE_REF"}


class MutatorError(ScnError):
    """The file does not parse with its flags (or a schema cannot be made): one line."""


@dataclasses.dataclass(frozen=True)
class Mutant:
    id: int            # 1..N, stable for the same source and options
    file: str          # path as given
    line: int          # 1-based, of the edit's start
    col: int           # 1-based byte column
    start: int         # byte offsets of the replaced span in the ORIGINAL file
    end: int
    before: str        # the replaced text
    after: str         # its replacement
    operator: str      # one of OPERATORS
    function: str      # enclosing function
    host_start: int = -1  # the span the schema switches on (holds [start, end))
    host_end: int = -1
    host_layer: int = LAYER_EXPR
    host_negates_pointer: bool = False  # NEG of a pointer condition: original side is !!(...)


def _text(b):
    return b.decode("utf-8", "surrogateescape")


def _bytes(s):
    return s.encode("utf-8", "surrogateescape")


# --- libclang -------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _cindex():
    try:
        import clang.cindex as ci
    except ImportError as e:
        raise MutatorError(f"libclang's Python bindings are missing ({e}): "
                           f"apt-get install python3-clang-14") from None
    if not ci.Config.loaded and os.path.exists(LIBCLANG):
        ci.Config.set_library_file(LIBCLANG)
    return ci


def parse_flags(args):
    """The flags of a compile command (a compile_commands.json entry's arguments, compiler
    first or not) that matter to a parser: without the compiler, the source file, -c,
    -o FILE and the dependency-file options."""
    out, skip, prev = [], False, ""
    args = list(args)
    if args and not args[0].startswith("-") and not args[0].endswith(SOURCE_SUFFIXES):
        args = args[1:]  # the compiler
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD"):
            pass
        elif not a.startswith("-") and a.endswith(SOURCE_SUFFIXES) and prev not in VALUE_OPTIONS:
            pass  # the source file (path itself, or the file path is a copy of)
        else:
            out.append(a)
        prev = a
    return out


_tu_cache = {}


def _parse(path, compile_args):
    ci = _cindex()
    st = os.stat(path)
    key = (os.path.realpath(path), tuple(compile_args), st.st_mtime_ns, st.st_size)
    if key in _tu_cache:
        return _tu_cache[key]
    try:
        tu = ci.Index.create().parse(path, args=parse_flags(compile_args),
                                     options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    except ci.TranslationUnitLoadError as e:
        raise MutatorError(f"{path}: libclang cannot parse it ({e})") from None
    for d in tu.diagnostics:
        if d.severity >= ci.Diagnostic.Error:
            loc = d.location
            where = f"{loc.file.name}:{loc.line}" if loc.file else path
            raise MutatorError(f"{where}: {d.spelling} (parsing {path} with its compile flags)")
    _tu_cache.clear()
    _tu_cache[key] = tu
    return tu


def _in_main_file(cursor, path):
    f = cursor.location.file
    return f is not None and os.path.realpath(f.name) == os.path.realpath(path)


def _function_definitions(tu, path):
    for c in tu.cursor.get_children():
        if c.kind.name == "FUNCTION_DECL" and c.is_definition() and _in_main_file(c, path):
            yield c


def functions_by_line(path, compile_args):
    """line -> the function defined over it, for the file's own function definitions."""
    out = {}
    for fn in _function_definitions(_parse(path, compile_args), path):
        for line in range(fn.extent.start.line, fn.extent.end.line + 1):
            out[line] = fn.spelling
    return out


def function_spans(path, compile_args):
    """name -> (start, end, name_start, static) in bytes, for the file's own function
    definitions whose name is spelled in the file (not made by a macro), static or of
    no storage class."""
    out = {}
    for fn in _function_definitions(_parse(path, compile_args), path):
        start, end, at = fn.extent.start.offset, fn.extent.end.offset, fn.location.offset
        storage = fn.storage_class.name
        toks = [t.spelling for t in fn.get_tokens() if t.extent.start.offset == at]
        if toks == [fn.spelling] and storage in ("STATIC", "NONE"):
            out[fn.spelling] = (start, end, at, storage == "STATIC")
    return out


def _macro_intervals(tu, path):
    """The file's macro invocations (name and arguments) as sorted disjoint [a, b)."""
    spans = sorted((c.extent.start.offset, c.extent.end.offset) for c in tu.cursor.get_children()
                   if c.kind.name == "MACRO_INSTANTIATION" and _in_main_file(c, path))
    merged = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [tuple(m) for m in merged]


# --- one function's AST, tokens and macros ------------------------------------------------

@dataclasses.dataclass
class _Node:
    cursor: object
    kind: str
    start: int
    end: int
    parent: int
    pre: int            # pre-order index; descendants are pre < i <= last
    last: int = 0
    frozen: bool = False  # in a constant-expression or unevaluated context
    children: list = dataclasses.field(default_factory=list)


class _Function:
    def __init__(self, cursor, source, macros):
        self.name = cursor.spelling
        self.file = cursor.location.file.name
        self.result = cursor.result_type
        self.source = source
        self.macros = macros
        self.macro_starts = [a for a, _ in macros]
        toks = [(t.extent.start.offset, t.extent.end.offset, t.spelling) for t in cursor.get_tokens()]
        toks.sort()
        self.tokens = toks
        self.token_starts = [t[0] for t in toks]
        self.nodes = []
        body = [c for c in cursor.get_children() if c.kind.name == "COMPOUND_STMT"]
        if body:
            self._walk(body[0])

    # macros
    def macro_at(self, off):
        """The macro interval holding offset off, or None."""
        i = bisect.bisect_right(self.macro_starts, off) - 1
        if i >= 0 and self.macros[i][0] <= off < self.macros[i][1]:
            return self.macros[i]
        return None

    def in_file(self, start, end):
        """A token [start, end) of the file outside every macro invocation."""
        return end > start and self.macro_at(start) is None

    # tokens
    def token_at(self, off):
        i = bisect.bisect_left(self.token_starts, off)
        if i < len(self.tokens) and self.tokens[i][0] == off:
            return self.tokens[i]
        return None

    def token_after(self, off):
        i = bisect.bisect_left(self.token_starts, off)
        return self.tokens[i] if i < len(self.tokens) else None

    def token_before(self, off):
        i = bisect.bisect_left(self.token_starts, off) - 1
        return self.tokens[i] if i >= 0 else None

    def tokens_between(self, a, b):
        i = bisect.bisect_left(self.token_starts, a)
        j = bisect.bisect_left(self.token_starts, b)
        return self.tokens[i:j]

    # the AST, pre-order, with each node's constant-context flag
    def _walk(self, root):
        stack = [(root, -1, False)]
        while stack:
            cur, parent, frozen = stack.pop()
            ext = cur.extent
            kind = cur.kind.name
            i = len(self.nodes)
            start, end = ext.start.offset, ext.end.offset
            m = self.macro_at(end)
            if m is not None and m[0] == end:
                # libclang ends a span whose last token comes from a predefined macro
                # (UINT32_MAX -> __UINT32_MAX__) at the invocation's start
                end = m[1]
            node = _Node(cur, kind, start, end, parent, i,
                         frozen=frozen or kind in FROZEN_KINDS)
            self.nodes.append(node)
            if parent >= 0:
                self.nodes[parent].children.append(i)
            m = self.macro_at(node.start)
            if m is not None and node.end <= m[1]:
                continue  # wholly inside one macro invocation: nothing in it is mutated
            f = ext.start.file
            if f is None or f.name != self.file:
                node.frozen = True  # an #include inside a function body: not this file
                continue
            kids = list(cur.get_children())
            flags = self._frozen_children(node, kids)
            for k, f in reversed(list(zip(kids, flags))):
                stack.append((k, i, node.frozen or f))
        for n in reversed(self.nodes):  # subtree ends, children after parents
            n.last = max([n.pre] + [self.nodes[c].last for c in n.children])

    def _frozen_children(self, node, kids):
        """Which children of node are constant-expression / unevaluated contexts."""
        kind = node.kind
        n = len(kids)
        if kind == "VAR_DECL":
            if node.cursor.storage_class.name in ("STATIC", "EXTERN"):
                return [True] * n
            eq = self._initialiser_start(node)
            return [eq is None or k.extent.start.offset <= eq for k in kids]
        if kind == "CASE_STMT":  # the labels (a GNU range has two), then the statement
            return [i < n - 1 for i in range(n)]
        if kind == "CSTYLE_CAST_EXPR":  # the type (typeof, array sizes), then the operand
            return [i < n - 1 for i in range(n)]
        if kind == "COMPOUND_LITERAL_EXPR":
            return [k.kind.name != "INIT_LIST_EXPR" for k in kids]
        if kind == "INIT_LIST_EXPR":
            # a designated initialiser ([3] = x, .f = x) is an expression whose children
            # are its designator indices, then its value
            return [False] * n
        if kind == "UNEXPOSED_EXPR" and node.parent >= 0 and \
                self.nodes[node.parent].kind == "INIT_LIST_EXPR":
            first = self.token_at(node.start)
            if first and first[2] in ("[", "."):
                return [i < n - 1 for i in range(n)]
        return [False] * n

    def _initialiser_start(self, node):
        """Offset of the `=` of a declaration's initialiser (outside brackets), or None."""
        depth = 0
        for a, _, s in self.tokens_between(node.start, node.end):
            if s in "([{":
                depth += 1
            elif s in ")]}":
                depth -= 1
            elif s == "=" and depth == 0:
                return a
        return None

    # hosts
    def is_clean(self, idx):
        """Whether node idx's span, after macro expansion, holds exactly its own tokens:
        true when both ends are tokens of the file; with a macro at an end, when no node
        outside its subtree and its ancestors overlaps the span (a macro straddling
        the boundary puts a sibling's token in it)."""
        n = self.nodes[idx]
        s, e = n.start, n.end
        if e <= s:
            return False
        for off in (s, e - 1):
            m = self.macro_at(off)
            if m is not None and not (s <= m[0] and m[1] <= e):
                return False  # the span cuts a macro invocation
        if self.macro_at(s) is None and self.macro_at(e - 1) is None:
            return True
        for o in self.nodes:
            if n.pre <= o.pre <= n.last or o.pre <= n.pre <= o.last:
                continue
            os_, oe = o.start, max(o.end, o.start + 1)
            if os_ < e and s < oe:
                return False
        return True


# --- the operators ------------------------------------------------------------------------

def _type_class(cursor):
    return _type_class_of(cursor.type)


def _type_class_of(ctype):
    k = ctype.get_canonical().kind.name
    if k in INTEGER_KINDS:
        return "int"
    if k in FLOAT_KINDS:
        return "float"
    if k in POINTER_KINDS:
        return "pointer"
    return "other"


def _sep(x, y):
    """Whether characters x y written side by side would merge into one token."""
    return (x in WORD and y in WORD) or (x in PUNCT and y in PUNCT)


def _glue(left, right):
    """left + right, with a space where their touching characters would merge into
    another token (`y/` + `*z`: not a comment)."""
    if left and right and _sep(left[-1], right[0]):
        return left + " " + right
    return left + right


def _int_value(spelling):
    s = spelling.rstrip("uUlL")
    if not s:
        return None
    try:
        if s[:2] in ("0x", "0X", "0b", "0B"):
            return int(s, 0)
        if len(s) > 1 and s[0] == "0":
            return int(s, 8)
        return int(s)
    except ValueError:
        return None


ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92,
           "'": 39, '"': 34, "?": 63, "e": 27}


def _char_value(spelling):
    if len(spelling) < 3 or spelling[0] != "'" or spelling[-1] != "'":
        return None  # L'x', u'x', U'x', u8'x': left alone
    body = spelling[1:-1]
    if len(body) == 1 and body != "\\":
        return ord(body)
    if body[0] != "\\" or len(body) < 2:
        return None
    if body[1] in "xX":
        try:
            return int(body[2:], 16)
        except ValueError:
            return None
    if body[1] in "01234567":
        try:
            return int(body[1:], 8)
        except ValueError:
            return None
    return ESCAPES.get(body[1]) if len(body) == 2 else None


def _char_literal(v):
    if 32 <= v < 127 and chr(v) not in "'\\":
        return f"'{chr(v)}'"
    return str(v) if v >= 0 else f"(-{-v})"


class _Generator:
    """The mutants of one function: run() -> (start, end, after, operator, host start,
    host end, host layer, negates a pointer)."""

    def __init__(self, source, fn):
        self.source, self.fn = source, fn
        self.found = []  # (start, end, after, operator, host_start, host_end, layer, neg_ptr)

    def add(self, start, end, after, op, host, layer, neg_pointer=False):
        before = _text(self.source[start:end])
        if after == before:
            return
        if any(t[2] == "#" for t in self.fn.tokens_between(*host)):
            return  # a directive inside the host: its copies in the schema cannot hold it
        # as many lines as before: the lines after the edit keep their numbers (__LINE__)
        after += "\n" * (before.count("\n") - after.count("\n"))
        prev = chr(self.source[start - 1]) if start > 0 else " "
        nxt = chr(self.source[end]) if end < len(self.source) else " "
        if after and _sep(prev, after[0]):
            after = " " + after
        if after and _sep(after[-1], nxt):
            after = after + " "
        self.found.append((start, end, after, op, host[0], host[1], layer, neg_pointer))

    def run(self):
        fn = self.fn
        for idx, n in enumerate(fn.nodes):
            if n.frozen:
                continue
            k = n.kind
            if k == "BINARY_OPERATOR":
                self.binary(idx, n)
            elif k == "COMPOUND_ASSIGNMENT_OPERATOR":
                self.compound(idx, n)
            elif k == "UNARY_OPERATOR":
                self.incdec(idx, n)
            elif k in ("INTEGER_LITERAL", "CHARACTER_LITERAL"):
                self.literal(idx, n)
            elif k in ("IF_STMT", "WHILE_STMT", "DO_STMT", "FOR_STMT", "CONDITIONAL_OPERATOR"):
                self.negate(n)
            elif k == "RETURN_STMT":
                self.return_value(n)
            elif k in ("BREAK_STMT", "CONTINUE_STMT"):
                self.delete_jump(n)
            self.delete_statements(n)
        return self.found

    def operator_token(self, n):
        """The one file token between a binary node's two operands, or None."""
        if len(n.children) != 2:
            return None
        lhs, rhs = (self.fn.nodes[c] for c in n.children)
        between = self.fn.tokens_between(lhs.end, rhs.start)
        if len(between) != 1 or lhs.end > rhs.start:
            return None
        tok = between[0]
        return tok if self.fn.in_file(tok[0], tok[1]) else None

    def binary(self, idx, n):
        tok = self.operator_token(n)
        if tok is None:
            return
        op = tok[2]
        lhs, rhs = (self.fn.nodes[c].cursor for c in n.children)
        classes = {_type_class(lhs), _type_class(rhs)}
        if op in ROR:
            if "other" in classes:
                return
            repl, group = ROR_POINTER.get(op, ()) if "pointer" in classes else ROR[op], "ROR"
        elif op in ARITH:
            if not classes <= {"int", "float"}:
                return
            repl = [r for r in ARITH if r != op and not (r == "%" and "float" in classes)]
            group = "AOR"
        elif op in BITWISE:
            repl, group = [r for r in BITWISE if r != op], "BOR"
        elif op in SHIFT:
            repl, group = [r for r in SHIFT if r != op], "SOR"
        elif op in LOGICAL:
            repl, group = [r for r in LOGICAL if r != op], "LCR"
        else:
            return
        if not self.fn.is_clean(idx):
            return
        for r in repl:
            if isinstance(r, bool):  # ROR's false / true: the whole comparison
                self.add(n.start, n.end, "1" if r else "0", group, (n.start, n.end), LAYER_EXPR)
            else:
                self.replace_operator(n, tok, r, group)

    def replace_operator(self, n, tok, r, group):
        """op -> r in node n. The edit is the operator token, unless r binds differently
        from op so that the operands or the enclosing expression would regroup: then it
        is the whole expression, with parentheses where needed (`s-buf-2` with % for
        its second - is `(s-buf)%2`, not `s-buf%2`)."""
        a, b, _ = tok
        fn, src = self.fn, self.source
        lhs, rhs = (fn.nodes[c] for c in n.children)
        wrap_l = self.binds_looser(lhs, r, left=True)
        wrap_r = self.binds_looser(rhs, r, left=False)
        wrap = n.parent >= 0 and self.regroups_in(n, r)
        if not (wrap_l or wrap_r or wrap):
            self.add(a, b, r, group, (n.start, n.end), LAYER_EXPR)
            return
        parts = []
        for side, paren in ((lhs, wrap_l), (rhs, wrap_r)):
            text = _text(src[side.start:side.end])
            parts.append(f"({text})" if paren else text)
        left, right = parts[0] + _text(src[lhs.end:a]), _text(src[b:rhs.start]) + parts[1]
        text = _glue(_glue(left, r), right)
        self.add(n.start, n.end, f"({text})" if wrap else text, group, (n.start, n.end), LAYER_EXPR)

    def _bare(self, node):
        """node without the implicit conversions libclang shows over it (same span)."""
        while node.kind == "UNEXPOSED_EXPR" and len(node.children) == 1:
            child = self.fn.nodes[node.children[0]]
            if (child.start, child.end) != (node.start, node.end):
                break
            node = child
        return node

    def precedence(self, node):
        """The precedence of an operator expression written bare (None: not one)."""
        node = self._bare(node)
        if node.kind == "BINARY_OPERATOR":
            tok = self.operator_token(node)
            return PRECEDENCE.get(tok[2], 1) if tok else 0  # `=` and `,` bind loosest
        if node.kind in ("COMPOUND_ASSIGNMENT_OPERATOR", "CONDITIONAL_OPERATOR"):
            return 1
        return None

    def binds_looser(self, operand, r, left):
        """Whether operand, written bare beside operator r, would not stay whole (all
        binary operators of C group from the left)."""
        p = self.precedence(operand)
        return p is not None and (p < PRECEDENCE[r] or (p == PRECEDENCE[r] and not left))

    def regroups_in(self, n, r):
        """Whether node n with its operator r would come apart in its parent."""
        parent, child = self.fn.nodes[n.parent], n
        while parent.kind == "UNEXPOSED_EXPR" and (parent.start, parent.end) == (n.start, n.end) \
                and parent.parent >= 0:
            parent, child = self.fn.nodes[parent.parent], parent
        if parent.kind != "BINARY_OPERATOR":
            return parent.kind in ("UNARY_OPERATOR", "CSTYLE_CAST_EXPR")
        tok = self.operator_token(parent)
        if tok is None:
            return True
        p = PRECEDENCE.get(tok[2], 1)
        is_left = parent.children and parent.children[0] == child.pre
        return p > PRECEDENCE[r] or (p == PRECEDENCE[r] and not is_left)

    def compound(self, idx, n):
        tok = self.operator_token(n)
        if tok is None or not tok[2].endswith("="):
            return
        a, b, op = tok
        base = op[:-1]
        lhs, rhs = (self.fn.nodes[c].cursor for c in n.children)
        classes = {_type_class(lhs), _type_class(rhs)}
        if base in ARITH:
            if not classes <= {"int", "float"}:
                return
            repl = [r for r in ARITH if r != base and not (r == "%" and "float" in classes)]
            group = "AOR"
        elif base in BITWISE:
            repl, group = [r for r in BITWISE if r != base], "BOR"
        elif base in SHIFT:
            repl, group = [r for r in SHIFT if r != base], "SOR"
        else:
            return
        if not self.fn.is_clean(idx):
            return
        for r in repl:
            self.add(a, b, r + "=", group, (n.start, n.end), LAYER_EXPR)

    def incdec(self, idx, n):
        if len(n.children) != 1:
            return
        child = self.fn.nodes[n.children[0]]
        first = self.fn.token_at(n.start)
        if first and first[2] in ("++", "--") and first[1] <= child.start:
            tok = first  # prefix
        else:
            tok = self.fn.token_before(n.end)  # postfix: the last token
            if not tok or tok[2] not in ("++", "--") or tok[1] != n.end or tok[0] < child.end:
                return
        if not self.fn.in_file(tok[0], tok[1]) or not self.fn.is_clean(idx):
            return
        self.add(tok[0], tok[1], "--" if tok[2] == "++" else "++", "AOR", (n.start, n.end), LAYER_EXPR)

    def literal(self, idx, n):
        fn = self.fn
        tok = fn.token_at(n.start)
        if tok is None or tok[1] != n.end or not fn.in_file(tok[0], tok[1]):
            return
        parent = fn.nodes[n.parent] if n.parent >= 0 else None
        if parent and parent.kind == "UNEXPOSED_EXPR" and _type_class(parent.cursor) == "pointer":
            return  # a null pointer constant: another value is no pointer
        host = (n.start, n.end)
        if n.kind == "CHARACTER_LITERAL":
            v = _char_value(tok[2])
            if v is None:
                return
            for r in dict.fromkeys((v + 1, v - 1, 0)):
                if r != v:
                    self.add(n.start, n.end, _char_literal(r), "CRCR", host, LAYER_EXPR)
            return
        v = _int_value(tok[2])
        ctype = n.cursor.type.get_canonical()
        info = INT_SUFFIX.get(ctype.kind.name)
        if v is None or info is None or (v == 0 and self.zero_initialiser(n)):
            return
        (suffix, signed), bits = info, ctype.get_size() * 8
        top = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        for r in dict.fromkeys((0, 1, -1, v + 1, v - 1)):
            if r == v or r > top or (signed and r < -top - 1) or (not signed and r < -1):
                continue
            self.add(n.start, n.end, f"(-{-r}{suffix})" if r < 0 else f"{r}{suffix}",
                     "CRCR", host, LAYER_EXPR)

    def zero_initialiser(self, n):
        """Whether literal n is the 0 of `= {0}`, the idiom for "all zero", not a value."""
        fn = self.fn
        up = fn.nodes[n.parent] if n.parent >= 0 else None
        while up is not None and up.kind == "UNEXPOSED_EXPR" and up.parent >= 0:
            up = fn.nodes[up.parent]
        return up is not None and up.kind == "INIT_LIST_EXPR" and len(up.children) == 1

    def condition(self, n):
        """The condition node of a statement or ?: whose delimiters are file tokens."""
        fn = self.fn
        kids = [fn.nodes[c] for c in n.children]
        if n.kind == "CONDITIONAL_OPERATOR":
            if len(kids) != 3:
                return None
            nxt = fn.token_after(kids[0].end)
            ok = nxt and nxt[2] == "?" and fn.in_file(nxt[0], nxt[1])
            return kids[0] if ok and fn.macro_at(kids[0].start) is None else None
        if not fn.in_file(n.start, n.start + 1):
            return None  # the keyword comes from a macro
        if n.kind == "FOR_STMT":
            semis, depth = [], 0
            for a, b, s in fn.tokens_between(n.start, n.end):
                depth += s == "("
                depth -= s == ")"
                if s == ";" and depth == 1:
                    semis.append((a, b))
                if depth == 0 and s == ")":
                    break
            if len(semis) != 2:
                return None
            inside = [k for k in kids if semis[0][1] <= k.start and k.end <= semis[1][0]]
            return inside[0] if len(inside) == 1 else None
        cond = kids[1] if n.kind == "DO_STMT" else kids[0] if kids else None
        if cond is None:
            return None
        before, after = fn.token_before(cond.start), fn.token_after(cond.end)
        if not (before and after and before[2] == "(" and after[2] == ")"
                and fn.in_file(*before[:2]) and fn.in_file(*after[:2])):
            return None
        return cond

    def negate(self, n):
        cond = self.condition(n)
        if cond is None or not self.fn.is_clean(cond.pre):
            return
        kind = _type_class(cond.cursor)
        if kind not in ("int", "float", "pointer"):
            return
        text = _text(self.source[cond.start:cond.end])
        self.add(cond.start, cond.end, f"!({text})", "NEG", (cond.start, cond.end), LAYER_WRAP,
                 neg_pointer=kind == "pointer")

    def return_value(self, n):
        fn = self.fn
        if len(n.children) != 1 or not fn.in_file(n.start, n.start + 1):
            return
        e = fn.nodes[n.children[0]]
        after = fn.token_after(e.end)
        if not after or after[2] != ";" or not fn.is_clean(e.pre):
            return
        rtype = _type_class_of(fn.result)
        if rtype not in ("int", "float", "pointer"):
            return
        text = _text(self.source[e.start:e.end]).strip()
        for r in ("0",) if rtype == "pointer" else ("0", "1"):
            if text != r:
                self.add(e.start, e.end, r, "RVR", (e.start, e.end), LAYER_WRAP)

    def delete_jump(self, n):
        fn = self.fn
        semi = fn.token_after(n.end)
        if not fn.in_file(n.start, n.end) or not semi or semi[2] != ";" or not fn.in_file(*semi[:2]):
            return
        self.add(n.start, semi[1], ";", "SDL", (n.start, semi[1]), LAYER_STMT)

    def delete_statements(self, n):
        """SDL of the expression statements among node n's statement children."""
        fn = self.fn
        k = n.kind
        kids = n.children
        if k == "COMPOUND_STMT":
            if n.parent >= 0 and fn.nodes[n.parent].cursor.kind.is_expression():
                return  # a statement expression: its last statement is its value
            slots = kids
        elif k in ("CASE_STMT", "DEFAULT_STMT", "LABEL_STMT", "FOR_STMT"):
            slots = kids[-1:]
        elif k == "IF_STMT":
            slots = kids[1:]
        elif k == "WHILE_STMT":
            slots = kids[1:2]
        elif k == "DO_STMT":
            slots = kids[:1]
        else:
            return
        for c in slots:
            s = fn.nodes[c]
            if s.frozen or not s.cursor.kind.is_expression() or not self.has_effect(s):
                continue
            semi = fn.token_after(s.end)
            if not semi or semi[2] != ";" or not fn.in_file(*semi[:2]) or not fn.is_clean(c):
                continue
            self.add(s.start, semi[1], ";", "SDL", (s.start, semi[1]), LAYER_STMT)

    def has_effect(self, s):
        fn = self.fn
        k = s.kind
        if k in ("CALL_EXPR", "COMPOUND_ASSIGNMENT_OPERATOR"):
            return True
        if k == "UNARY_OPERATOR":  # ++/-- spelled in the file, first or last
            ends = (fn.token_at(s.start), fn.token_before(s.end))
            return any(t and fn.in_file(t[0], t[1]) and t[2] in ("++", "--") for t in ends)
        if k == "BINARY_OPERATOR":
            tok = self.operator_token(s)
            return tok is not None and tok[2] in ("=", ",")
        if k in ("PAREN_EXPR", "CSTYLE_CAST_EXPR", "UNEXPOSED_EXPR", "CONDITIONAL_OPERATOR"):
            return any(self.has_effect(fn.nodes[c]) for c in s.children)
        return False


def generate(path, compile_args, functions=None):
    """The mutants of path's function bodies (of `functions` only, when given), parsed
    with compile_args (the build's flags for the file); ids 1..N in source order."""
    tu = _parse(path, compile_args)
    with open(path, "rb") as f:
        source = f.read()
    macros = _macro_intervals(tu, path)
    found = []
    for cur in _function_definitions(tu, path):
        if functions is not None and cur.spelling not in functions:
            continue
        fn = _Function(cur, source, macros)
        for item in _Generator(source, fn).run():
            found.append(item + (fn.name,))
    order = {op: i for i, op in enumerate(OPERATORS)}
    found.sort(key=lambda t: (t[0], t[1], t[2], order[t[3]]))
    kept, seen = [], set()
    for t in found:
        if (t[0], t[1], t[2]) not in seen:  # the same edit twice is one mutant
            seen.add((t[0], t[1], t[2]))
            kept.append(t)
    kept.sort(key=lambda t: (t[0], t[1], order[t[3]], t[2]))
    line_starts = [0] + [i + 1 for i, c in enumerate(source) if c == 0x0A]
    out = []
    for i, (s, e, after, op, hs, he, layer, negp, name) in enumerate(kept, 1):
        ln = bisect.bisect_right(line_starts, s)
        out.append(Mutant(i, path, ln, s - line_starts[ln - 1] + 1, s, e, _text(source[s:e]),
                          after, op, name, hs, he, layer, negp))
    return out


# --- apply and schema ---------------------------------------------------------------------

def relocated(m, delta):
    """Mutant m for a text whose byte 0 is byte -delta of m's file."""
    return dataclasses.replace(m, start=m.start + delta, end=m.end + delta,
                               host_start=m.host_start + delta, host_end=m.host_end + delta)


def apply(source, m):
    """The source of mutant m: the original with its one edit."""
    if _text(source[m.start:m.end]) != m.before:
        raise MutatorError(f"{m.file}:{m.line}:{m.col}: mutant {m.id} does not match the source "
                           f"(expected {m.before!r}); regenerate the mutants")
    return source[:m.start] + _bytes(m.after) + source[m.end:]


def _one_line(text):
    """C text on one line: comments and line breaks become spaces (string and
    character literals kept), a backslash-newline joins. The text holds no directive."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1].replace("\\\n", ""))
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("\\\n", i):
            i += 2
        else:
            out.append(" " if c in "\r\n" else c)
            i += 1
    return "".join(out)


def schema(source, mutants, var=SCHEMA_VAR):
    """One source holding every mutant: mutant n runs while `var` == n, the original at 0."""
    hosts = {}
    for m in mutants:
        if _text(source[m.start:m.end]) != m.before:
            raise MutatorError(f"{m.file}:{m.line}:{m.col}: mutant {m.id} does not match the "
                               f"source (expected {m.before!r}); regenerate the mutants")
        if not (m.host_start <= m.start <= m.end <= m.host_end):
            raise MutatorError(f"{m.file}:{m.line}:{m.col}: mutant {m.id} has no host span")
        hosts.setdefault((m.host_start, m.host_end, m.host_layer), []).append(m)
    # outer before inner: by start, longer first, then by layer
    order = sorted(hosts, key=lambda h: (h[0], -h[1], h[2]))
    tree = {h: [] for h in order}
    roots, stack = [], []
    for h in order:
        while stack and not (h[0] >= stack[-1][0] and h[1] <= stack[-1][1]):
            top = stack.pop()
            if h[0] < top[1]:
                raise MutatorError(f"mutant hosts overlap at bytes {top[:2]} and {h[:2]}")
        (tree[stack[-1]] if stack else roots).append(h)
        stack.append(h)

    def render(a, b, inner):
        parts, pos = [], a
        for h in inner:
            parts.append(_text(source[pos:h[0]]))
            parts.append(host(h))
            pos = h[1]
        parts.append(_text(source[pos:b]))
        return "".join(parts)

    def host(h):
        s, e, layer = h
        original = render(s, e, tree[h])
        ms = sorted(hosts[h], key=lambda m: m.id)
        if layer == LAYER_STMT:
            # one statement host carries one deletion
            conds = " && ".join(f"{var} != {m.id}" for m in ms)
            return f"{{ if ({conds}) {original} }}"
        if any(m.host_negates_pointer for m in ms):
            original = f"!!({original})"
        arms = []
        for m in ms:
            # on one line: the original's lines after it keep their numbers (__LINE__)
            text = _one_line(_text(source[s:m.start]) + m.after + _text(source[m.end:e]))
            arms.append(f"{var} == {m.id} ? ({text}) : ")
        return "(" + "".join(arms) + f"({original}))"

    body = render(0, len(source), roots)
    # A mutant may draw a warning the original does not (a constant that no longer fits):
    # the build's -Werror must not stop the schema. The original compiled with them.
    head = (f"extern int {var};\n#ifdef __clang__\n#pragma clang diagnostic ignored \"-Weverything\"\n"
            f"#endif\n#line 1\n")
    return _bytes(head + body)
