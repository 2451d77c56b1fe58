"""`./scnfuzz certify --profile FILE` / `--profile-from SRC` (issue 25 item 2):
certification restricted to the format features a project's call sites use.

The profile is what `./scnfuzz scan` finds: the features of each call site's
literal format, in the names of `scn-conform --features`' "syntax" ("%d",
"flag -", "length ll", "width *", "positional", the kernel's "%pM"...).
FILE is the scan's report.json (call sites with their formats) or its
`--profile` JSON (feature -> count, sites, formats); SRC is scanned here.

Restricted:
- conformance: the corpus cases whose every feature is in the profile (the
  others are commented out of a copy of corpus/*.tsv, so that a result's line
  is still the corpus line);
- the campaign: scn-certify --profile (programs/certify/cert_profile.c) runs
  only the decoded inputs whose every feature is in the profile; the
  decoder's coarse switches (no floats, no positional, no %lc/%ls, no %n)
  are set from it too, so that fewer inputs are drawn in vain;
- a failure of the return-value suite counts when its case is in the profile.
A failure names the call sites it reaches: those whose format uses every
feature of its reduced case (else those that share the most of them).
"""
import os
import subprocess
import sys

from . import scan_format
from .errors import UsageError, read_json

NOT_LITERAL = "(format not a literal)"
FLOAT_CONVS = {"%a", "%A", "%e", "%E", "%f", "%F", "%g", "%G"}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Profile:
    def __init__(self, source, site_features, site_formats, not_literal):
        self.source = source
        self.site_features = site_features  # "file:line" -> set of features (literal formats only)
        self.site_formats = site_formats    # "file:line" -> format text (None when the JSON does not say)
        self.not_literal = not_literal      # sites whose format is not a literal: not covered
        self.features = set().union(*site_features.values()) if site_features else set()
        self.functions = None  # the functions whose call sites these are (None: every printf-family call)

    def formats(self):
        """The distinct literal formats, or None when the profile JSON has no formats."""
        if any(f is None for f in self.site_formats.values()):
            return None
        return sorted(set(self.site_formats.values()))

    def summary(self):
        fm = self.formats()
        return {"source": self.source, "functions": self.functions, "features": sorted(self.features),
                "call_sites": len(self.site_features),
                "formats": len(fm) if fm is not None else None, "sites_not_literal": len(self.not_literal)}

    def admits(self, feats):
        return set(feats) <= self.features

    def reached(self, feats, case_specs=None):
        """The call sites a failure reaches, and whether they use all its
        features. case_specs (the features of each specification of its
        reduced case): a site is reached when each of them is met by one
        specification of the site's format ("%ls" is not reached by a site
        "%s: %ld"); without them, or when the profile has no formats, by the
        site's features as a whole. When no site is reached, the sites that
        share the most features are returned (False)."""
        feats = set(feats)
        specs = self.site_specs()
        if case_specs is not None and specs is not None:
            full = [s for s in self.site_features
                    if all(any(cs <= ss for ss in specs[s]) for cs in case_specs)]
        else:
            full = [s for s, f in self.site_features.items() if feats <= f]
        if full:
            return full, True
        best = max((len(feats & f) for f in self.site_features.values()), default=0)
        near = [s for s, f in self.site_features.items() if best and len(feats & f) == best]
        return near, False

    def site_specs(self):
        """{site: [features of each specification of its format]}, or None
        when the profile does not give every site's format."""
        if not hasattr(self, "_specs"):
            fm = {s: f for s, f in self.site_formats.items() if s in self.site_features}
            if any(f is None for f in fm.values()):
                self._specs = None
            else:
                kernel = any(n.startswith("%p") and len(n) > 2 for n in self.features)
                per = spec_features(set(fm.values()), "kernel" if kernel else "iso")
                # a %p extension counts where the scan named it (the site's file was kernel code)
                self._specs = {s: [x & (self.site_features[s] | _BASE) for x in per[f]] for s, f in fm.items()}
        return self._specs

    def shown(self, site):
        """A site as the certificate writes it: relative to the directory all
        the profile's sites lie in, when they are absolute paths."""
        files = [x.rsplit(":", 1)[0] for x in self.site_features]
        if not files or not all(os.path.isabs(f) for f in files):
            return site
        if not hasattr(self, "_root"):
            self._root = os.path.commonpath([os.path.dirname(f) for f in files])
        return os.path.relpath(site, self._root)


def load(path, functions=None):
    """The profile in FILE; functions (names): only the call sites of those
    (as written or after macro expansion), which needs a report.json."""
    d = read_json(path, f"--profile {path}")
    if isinstance(d, dict) and isinstance(d.get("call_sites"), list):  # a scan's report.json
        feats, fmts, nonlit = {}, {}, []
        for c in d["call_sites"]:
            if functions and c.get("name") not in functions and c.get("callee") not in functions:
                continue
            s = f"{c['file']}:{c['line']}"
            if c.get("format") is None:
                nonlit.append(s)
                continue
            feats.setdefault(s, set()).update(c.get("features") or [])
            fmts[s] = c["format"]
        prof = Profile(path, feats, fmts, nonlit)
        prof.functions = sorted(functions) if functions else None
        return prof
    if functions:
        raise UsageError(f"--profile-functions needs the call sites of a scan's report.json, "
                         f"not {path}")
    if isinstance(d, dict) and all(isinstance(v, dict) and "sites" in v for v in d.values()):
        feats, fmts = {}, {}
        for name, v in d.items():
            if name == NOT_LITERAL:
                continue
            for s in v["sites"]:
                feats.setdefault(s, set()).add(name)
                fmts.setdefault(s, None)
        for name, v in d.items():  # a site's format, when only one of its features' formats can be it
            for s in v["sites"] if len(v.get("formats") or []) == 1 else []:
                if s in fmts:
                    fmts[s] = v["formats"][0]
        return Profile(path, feats, fmts, list(d.get(NOT_LITERAL, {}).get("sites", [])))
    raise UsageError(f"--profile {path}: neither a scan's report.json nor its --profile JSON")


def from_sources(srcs, where, scan_args=(), functions=None):
    """Scan SRC (./scnfuzz scan) into where/scan, then its profile."""
    from .progress import slow_step
    out = os.path.join(where, "scan")
    # its output is read only when it fails: a long scan (perf's 479 files) says what it waits on
    with slow_step(f"scanning {' '.join(map(str, srcs))} for the formats of its call sites", prefix="certify"):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scnfuzz"), "scan", *scan_args, *srcs, "--out", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1) or not os.path.isfile(os.path.join(out, "report.json")):
        raise UsageError(f"--profile-from: the scan failed: {(p.stderr or p.stdout).strip()[-2000:]}")
    return load(os.path.join(out, "report.json"), functions)


def format_of_case(case):
    """The format bytes of a case's text ("%-6d" int:0 -> b'%-6d')."""
    from . import casetext
    i = 1
    while i < len(case) and case[i] != '"':
        i += 2 if case[i] == "\\" else 1
    return casetext.unquote(case[:i + 1])


def case_features(cases, dialect):
    """{case text: features}, named as the scan names a call site's."""
    fmts = {}
    for c in cases:
        try:
            fmts[c] = format_of_case(c)
        except Exception:  # not a case the parser reads: it has no features to admit
            fmts[c] = None
    feats = scan_format.features_of({f for f in fmts.values() if f is not None})
    exts = scan_format.p_extensions(feats) if dialect == "kernel" else {}
    out = {}
    for c, f in fmts.items():
        if f is None or f not in feats:
            out[c] = None
            continue
        names = set(feats[f][1])
        names |= {f"%p{e}" for _, e in exts.get(f, [])}
        out[c] = names
    return out


_BASE = set()  # (no feature is implied: a spec's features are intersected with its site's)


def pieces(fmt):
    """A format's specifications, one piece each (scan_format.spec_pieces)."""
    return [p for _, p in scan_format.spec_pieces(fmt)]


def spec_features(formats, dialect):
    """{format text: [the features of each of its specifications]}."""
    cut = {f: pieces(f.encode("latin-1")) for f in formats}
    allp = {p for ps in cut.values() for p in ps}
    feats = scan_format.features_of(allp)
    exts = scan_format.p_extensions(feats) if dialect == "kernel" else {}
    named = {}
    for p in allp:
        names = set(feats.get(p, ([], []))[1])
        names |= {f"%p{e}" for _, e in exts.get(p, [])}
        named[p] = names
    return {f: [named[p] for p in ps if named[p]] for f, ps in cut.items()}


def restrict_corpus(files, profile, dialect, where):
    """Copies of the corpus files with the cases outside the profile commented
    out -> (paths, cases kept, cases in all)."""
    os.makedirs(where, exist_ok=True)
    texts, cases = {}, []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            texts[f] = fh.read().split("\n")
        for line in texts[f]:
            if line and not line.startswith("#"):
                cols = line.split("\t")
                if len(cols) > 1:
                    cases.append(cols[1])
    feats = case_features(cases, dialect)
    out, kept, total = [], 0, 0
    for f in files:
        lines = []
        for line in texts[f]:
            if line and not line.startswith("#") and len(line.split("\t")) > 1:
                total += 1
                fs = feats.get(line.split("\t")[1])
                if fs is not None and profile.admits(fs):
                    kept += 1
                else:
                    line = "# outside the profile: " + line
            lines.append(line)
        p = os.path.join(where, os.path.basename(f))
        with open(p, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))
        out.append(p)
    return out, kept, total


def write_feature_list(profile, path):
    with open(path, "w") as f:
        f.write("".join(n + "\n" for n in sorted(profile.features)))
    return path


def decode_flags(profile, dec_no_float, dec_no_pos, dec_no_wide, dec_no_n):
    """The decoder's switches a profile turns off (certify's DEC_* bits)."""
    F = profile.features
    dec = 0
    if not F & FLOAT_CONVS:
        dec |= dec_no_float
    if "positional" not in F:
        dec |= dec_no_pos
    if not ({"length l"} <= F and F & {"%c", "%s"}):
        dec |= dec_no_wide
    if "%n" not in F:
        dec |= dec_no_n
    return dec
