"""junit.xml: one testcase per (target, category) of the conformance matrix and
one per bug root cause. Known bugs and gaps and allowed differences are
properties, not test cases: the set of test cases does not change when only
they do (those of the suite root-causes, all of them; a conformance cell's own
in its testcase's <properties>).

The Jenkins JUnit schema (junit-4.xsd of Jenkins' dtkit) is followed but for
two extensions pytest's own junit files (its xunit1 family) also write: `file` on a
testcase (the corpus file of a category; the vendored source of a
certification run, else the corpus file of a root cause) and <properties> in a
testcase. tests/test_report_formats.py validates against that schema with
exactly these two additions."""
import re
import xml.etree.ElementTree as ET

from .report_matrix import cell_failed

# characters XML 1.0 cannot carry at all, not even escaped (control bytes, surrogates,
# U+FFFE/U+FFFF): a corpus category or a case may hold them
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text):
    """text with each character XML cannot carry written \\xNN / \\uNNNN."""
    if not text or not _NOT_XML.search(text):
        return text
    return _NOT_XML.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                        else "\\u%04x" % ord(m.group()), text)


def _make_valid(root):
    for el in root.iter():
        el.text, el.tail = _xml_safe(el.text), _xml_safe(el.tail)
        for k, v in list(el.attrib.items()):
            el.set(k, _xml_safe(v))


def _stamp(iso):
    """JUnit's timestamp has no time zone: the UTC time without its Z."""
    return (iso or "").rstrip("Z") or "1970-01-01T00:00:00"


def _conform_seconds(rep):
    return sum(p.get("duration_s", 0) or 0 for p in rep["parts"] if p.get("kind") == "conform")


def _known_in_cell(rep, target, category):
    """The root causes a rule explains whose reduced case conformance met in
    one cell (a root cause is represented by its first case: one that also
    explains failures of other categories is listed in its own only)."""
    return [f for f in rep["findings"] if not f["bug"] and f.get("source") == "conform"
            and target in f["targets"] and f.get("category") == category]


def _properties(parent, findings):
    props = ET.SubElement(parent, "properties")
    for f in findings:
        r = f.get("rule") or {}
        ET.SubElement(props, "property", name=f"{f['classification']}:{f['signature']}",
                      value=f"{f['count']} raw line(s); {r.get('id', '')}: {r.get('citation', '')}; "
                            f"{f['reproduce']}")
    return props


def _where_file(f):
    w = str(f.get("where") or "")
    return w.rpartition(":")[0] if w.rpartition(":")[2].isdigit() else w


def _conformance(suites, rep, category_files):
    m = rep["matrix"]
    ts = ET.SubElement(suites, "testsuite", name="conformance", timestamp=_stamp(rep["run"].get("started")))
    total = sum(c["pass"] + c["fail"] + c["error"] for c in m["totals"].values()) or 1
    secs = _conform_seconds(rep)
    n = fails = 0
    for row in m["rows"]:
        for t in m["targets"]:
            c = row["cells"].get(t)
            if not c:
                continue
            n += 1
            run = c["pass"] + c["fail"] + c["error"]
            # the part's time shared out by results: scn-conform times no single category
            tc = ET.SubElement(ts, "testcase", classname=f"conformance.{t}", name=row["category"],
                               time=f"{secs * run / total:.3f}")
            if category_files.get(row["category"]):
                tc.set("file", category_files[row["category"]])
            if c.get("known"):  # the cell's allowed differences and known bugs: properties, never test cases
                props = _properties(tc, _known_in_cell(rep, t, row["category"]))
                ET.SubElement(props, "property", name="explained-failures", value=str(c["known"]))
            bad = cell_failed(c)
            if bad:
                fails += 1
                rel = [f for f in rep["findings"] if f["bug"] and f.get("source") == "conform"
                       and t in f["targets"] and f.get("category") == row["category"]]
                fe = ET.SubElement(tc, "failure", message=f"{bad} of {run} cases failed")
                fe.text = "\n".join(f"{f['id']} {f['signature']} ({f['count']} cases): {f['case']}\n"
                                    f"  {f['reproduce']}" for f in rel)
            if c.get("known"):
                so = ET.SubElement(tc, "system-out")
                so.text = f"{c['known']} failing case(s) explained by known bugs, gaps or allowances"
    ts.set("tests", str(n))
    ts.set("failures", str(fails))
    ts.set("errors", "0")
    ts.set("time", f"{secs:.3f}")


def _root_causes(suites, rep, sources):
    bugs = [f for f in rep["findings"] if f["bug"]]
    secs = sum(p.get("duration_s", 0) or 0 for p in rep["parts"])
    failing = [f for f in bugs if f.get("baseline", "new") == "new"]
    ts = ET.SubElement(suites, "testsuite", name="root-causes", tests=str(len(bugs)), failures=str(len(failing)),
                       skipped=str(len(bugs) - len(failing)), errors="0", time=f"{secs:.3f}",
                       timestamp=_stamp(rep["run"].get("started")))
    others = [f for f in rep["findings"] if not f["bug"]]
    if others:
        _properties(ts, others)
    for f in bugs:
        tc = ET.SubElement(ts, "testcase", classname=f"root-causes.{f['classification']}", name=f["signature"],
                           time="0")
        where = sources[0] if sources else _where_file(f)
        if where:
            tc.set("file", where)
        msg = f"{f['oracle']} ({f['classification']}): {f['count']} raw line(s)"
        if f.get("baseline") == "still":  # as the exit status: only a new bug fails the run
            fe = ET.SubElement(tc, "skipped", message=msg + ", also in the baseline")
        else:
            fe = ET.SubElement(tc, "failure", message=msg)
        fe.text = f"{f['id']}\n{f['case']}\n{f.get('detail', '')}\n{f['reproduce']}"


def junit_text(rep, category_files=None, sources=()):
    """junit.xml's text. category_files: corpus category -> its file;
    sources: the vendored source files of a certification run."""
    suites = ET.Element("testsuites", name="scnfuzz")
    if rep["matrix"]["rows"]:
        _conformance(suites, rep, category_files or {})
    _root_causes(suites, rep, list(sources))
    kids = list(suites)
    suites.set("tests", str(sum(int(k.get("tests")) for k in kids)))
    suites.set("failures", str(sum(int(k.get("failures")) for k in kids)))
    suites.set("time", f"{sum(p.get('duration_s', 0) or 0 for p in rep['parts']):.3f}")
    _make_valid(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
