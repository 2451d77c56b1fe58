"""The oracle registry as the runner reads it: oracles/oracles.def, the one
list that the C side compiles (oracles/oracle_registry.c). Each oracle's
name, class, stage (per-size, expectation, differential, process,
side-effect, parser), the matrix promise a failure breaks, and what it
checks."""
import ast
import collections
import functools
import re

from .errors import SetupError
from .tree import ROOT

DEF = ROOT / "oracles" / "oracles.def"
Oracle = collections.namedtuple("Oracle", "name klass stage promise doc")
_LINE = re.compile(r"^SCN_ORACLE\((.*)\)\s*$")


@functools.lru_cache(maxsize=None)
def oracles():
    """Every oracle, in the list's order, by name."""
    out = {}
    try:
        text = DEF.read_text()
    except OSError as e:
        raise SetupError(f"{DEF}: {e.strerror}") from None
    for n, line in enumerate(text.splitlines(), 1):
        m = _LINE.match(line)
        if not m:
            continue
        try:
            fields = ast.literal_eval("(" + m.group(1) + ",)")
        except (SyntaxError, ValueError):
            fields = ()
        if len(fields) != 5 or not all(isinstance(f, str) for f in fields):
            raise SetupError(f"{DEF}:{n}: not SCN_ORACLE(\"name\", \"class\", \"stage\", \"promise\", \"doc\")")
        out[fields[0]] = Oracle(*fields)
    return out


def get(name):
    """The oracle named name, or None."""
    return oracles().get(name or "")


def promise(name):
    """The matrix promise a failure of this oracle breaks ("bytes" for a name
    the list does not have: a difference in what was printed)."""
    o = get(name)
    return o.promise if o and o.promise != "-" else "bytes"


def named(stage_name):
    """The names of the oracles of one stage, in the list's order."""
    return [o.name for o in oracles().values() if o.stage == stage_name]
