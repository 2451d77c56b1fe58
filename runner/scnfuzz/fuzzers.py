"""The fuzzers, as fuzz/fuzzers.tsv lists them (the one list)."""
import collections

from .tree import ROOT
TSV = ROOT / "fuzz" / "fuzzers.tsv"

Fuzzer = collections.namedtuple("Fuzzer", "name config targets dialect ship settings what")


def load(path=TSV):
    out = collections.OrderedDict()
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, config, targets, dialect, ship, settings, what = line.split("\t")
        out[name] = Fuzzer(name, config, [] if targets == "-" else targets.split(","), dialect, ship == "yes",
                           [] if settings == "-" else settings.split(), what)
    return out


ALL = load()
NAMES = tuple(ALL)
# fuzzer -> (its targets, dialect), as configured in fuzz/fuzz_configs.c
TARGETS = {f.name: (f.targets, f.dialect) for f in ALL.values()}
# fuzzer -> the scn-replay --fuzzer configuration that decodes its inputs
REPLAY_CONFIG = {f.name: f.config for f in ALL.values()}
CONFIGS = tuple(dict.fromkeys(f.config for f in ALL.values()))


def resolve(name, what="fuzzer"):
    """A fuzzer named with or without its fuzz_ prefix (`fuzz_iso_diff` or
    `iso_diff`, as `scnfuzz fuzz` and `scnfuzz replay` spell it) -> its name
    in fuzz/fuzzers.tsv; an unknown one is a usage error listing them."""
    for n in (name, f"fuzz_{name}"):
        if n in ALL:
            return n
    from .errors import UsageError
    raise UsageError(f"unknown {what} '{name}' (one of {', '.join(NAMES)}; the fuzz_ prefix is optional)")


def replay_config(name):
    """scn-replay --fuzzer: a configuration (fuzz/fuzzers.tsv's config column:
    ref, iso_diff, ...) as is, or a fuzzer (either spelling) -> the
    configuration that decodes its inputs."""
    if name in CONFIGS:
        return name
    for n in (name, f"fuzz_{name}"):
        if n in ALL:
            return REPLAY_CONFIG[n]
    from .errors import UsageError
    raise UsageError(f"unknown fuzzer '{name}' (one of {', '.join(CONFIGS + NAMES)}; "
                     f"the fuzz_ prefix is optional)")


def _planted_names(path, array):
    """The planted bugs a C list names (`array` in `path`): the list the
    fuzzers read SCN_PLANTED against."""
    import re
    try:
        m = re.search(array + r"\[\]\s*=\s*\{(.*?)\}", path.read_text(), re.S)
    except OSError:
        m = None
    return tuple(re.findall(r'"([^"]+)"', m.group(1))) if m else ()


# bug -> the fuzzer that plants it: the ISO ones (fuzz/planted.c) beside the
# reference in fuzz_planted, the kernel dialect's (fuzz/planted_kernel.c)
# beside Linux lib/vsprintf.c in fuzz_planted_kernel
PLANTED_FUZZER = {**{b: "fuzz_planted" for b in _planted_names(ROOT / "fuzz" / "planted.c", "fz_planted_names")},
                  **{b: "fuzz_planted_kernel"
                     for b in _planted_names(ROOT / "fuzz" / "planted_kernel.c", "fz_planted_kernel_names")}}
PLANTED = tuple(PLANTED_FUZZER)
