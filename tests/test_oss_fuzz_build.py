"""ci/oss-fuzz/build.sh under a faithful simulation of OSS-Fuzz's build step.

No Docker here, so the test sets the environment the base-builder image sets
for libFuzzer + ASan (clang-14 as $CC; $CFLAGS as OSS-Fuzz's compile flags,
including -fsanitize=fuzzer-no-link; $LIB_FUZZING_ENGINE=-fsanitize=fuzzer;
temporary $SRC with the repository as $SRC/scnfuzz, $OUT, $WORK), runs
build.sh, and checks what ClusterFuzz would consume:

- $OUT holds every fuzzer + NAME_seed_corpus.zip (>0 files) + NAME.dict +
  NAME.options, and nothing in the build was compiled with -fsanitize=fuzzer;
- the differential fuzzers really contain the kernel and musl targets;
- each fuzzer runs as ClusterFuzz runs it (its .options [libfuzzer] flags, its
  dictionary, its unzipped seeds) for RUNS executions (a count, not seconds: the
  same work and the same verdict on a loaded machine): exit 0, seeds loaded, and
  more than MIN_EXECS inputs executed;
- $LIB_FUZZING_ENGINE is honoured when it is not -fsanitize=fuzzer: relinked
  against a small standalone driver archive (like AFL's/honggfuzz's driver
  archives), the fuzzers contain no libFuzzer and replay their seeds.

The same for SANITIZER=memory (musl is left out there).

Then what ClusterFuzz makes of a run (with the project's fuzz build, the
fixture fuzz_build of test_fuzzers.py, $SCN_FUZZ_BUILD_DIR):
- a new root cause aborts with a glibc-assert line naming its signature,
  which ClusterFuzz's stack analyzer takes as the crash state: two planted
  bugs, two crash states;
- each shipped fuzzer, run 30 s from its seeds as ClusterFuzz runs it (2 s
  with SCN_TEST_CAMPAIGNS=short, CI's form) (SCN_FUZZ_CONTINUE unset), does not abort: the differences of glibc, musl
  and the kernel it meets are known bugs or allowances;
- run_tests.sh (OSS-Fuzz's unit-test hook) builds and passes the C tests in
  build.sh's tree; the license headers OSS-Fuzz's presubmit asks for; the
  ClusterFuzzLite workflows.

Its cost: two builds of the fuzzer targets (ASan, MSan), run_tests.sh's
build of the C tests, the planted-bug runs, and the 30-s runs (two at a time);
all marked campaign/slow.
Env SCN_MUSL_SOURCE_CACHE: a fetch-musl-source.sh output dir to use (default:
fetched once into /tmp/scnfuzz-ossfuzz-musl-cache, as the Docker image does
at image-build time).
"""
import concurrent.futures
import configparser
import json
import os
import pathlib
import re
import shutil
import subprocess
import zipfile

import pytest

from conftest import campaign_seconds, exclusive
# the fuzz build and how test_fuzzers.py runs its fuzzers (fuzz_build: the fixture)
from test_fuzzers import binary, fuzz_build, fuzz_env, no_aslr  # noqa: F401

REPO = pathlib.Path(__file__).resolve().parent.parent
BUILD_SH = REPO / "ci" / "oss-fuzz" / "build.sh"
# the shipped fuzzers of the one list, fuzz/fuzzers.tsv (column ship = yes), as build.sh
FUZZERS = [cols[0] for cols in (line.split("\t") for line in
                                (REPO / "fuzz" / "fuzzers.tsv").read_text().splitlines())
           if cols[0].startswith("fuzz_") and len(cols) > 4 and cols[4] == "yes"]
# A run of RUNS executions from the seeds (-seed=1: the same inputs each time); the time
# limit only stops a fuzzer that hangs. It was a time box (4 s, 2 s under MSan), which a
# loaded machine could end before MIN_EXECS.
MIN_EXECS = 500
RUNS = 2 * MIN_EXECS
RUN_TIME_LIMIT = 120

# What OSS-Fuzz's base-builder exports for FUZZING_ENGINE=libfuzzer SANITIZER=address
# (SANITIZER_FLAGS_address + COVERAGE_FLAGS_libfuzzer + CFLAGS' common part).
OSSFUZZ_CFLAGS = ("-O1 -fno-omit-frame-pointer -gline-tables-only "
                  "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address "
                  "-fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link")

# ... and for SANITIZER=memory (SANITIZER_FLAGS_memory)
OSSFUZZ_MSAN_CFLAGS = ("-O1 -fno-omit-frame-pointer -gline-tables-only "
                       "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=memory "
                       "-fsanitize-memory-track-origins -fsanitize=fuzzer-no-link")

CLANG = shutil.which("clang-14")
pytestmark = pytest.mark.skipif(CLANG is None, reason="clang-14 is not installed")

# A standalone fuzzing "engine" archive: main() runs every file argument once.
STANDALONE_DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) { perror(argv[i]); return 2; }
        static uint8_t buf[1 << 16];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        uint8_t *copy = malloc(len ? len : 1);
        for (size_t k = 0; k < len; k++) copy[k] = buf[k];
        LLVMFuzzerTestOneInput(copy, len);
        free(copy);
        n++;
    }
    printf("standalone: ran %d inputs\n", n);
    return 0;
}
"""


def _musl_cache() -> str | None:
    env = os.environ.get("SCN_MUSL_SOURCE_CACHE")
    if env:
        return env
    cache = pathlib.Path("/tmp/scnfuzz-ossfuzz-musl-cache")
    with exclusive(cache):  # the ASan and MSan builds may set up in two xdist workers at once
        r = subprocess.run(["sh", str(REPO / "core/targets/musl/fetch-musl-source.sh"), str(cache)],
                           capture_output=True, text=True, timeout=300)
    return str(cache) if r.returncode == 0 else None  # else build.sh's CMake fetches itself


def _run_build(env: dict, log: pathlib.Path, script: pathlib.Path = BUILD_SH) -> None:
    with open(log, "w") as lf:
        # a bound for a hung build, with room for a loaded 2-core machine (two builds at once)
        r = subprocess.run(["bash", str(script)], env=env, stdout=lf,
                           stderr=subprocess.STDOUT, timeout=1800)
    if r.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
        pytest.fail(f"build.sh failed (rc={r.returncode}); last lines of {log}:\n{tail}",
                    pytrace=False)


def _ossfuzz_build(tmp_path_factory, sanitizer: str, cflags: str) -> dict:
    root = tmp_path_factory.mktemp(f"ossfuzz-{sanitizer}")
    src, out, work = root / "src", root / "out", root / "work"
    for d in (src, out, work):
        d.mkdir()
    (src / "scnfuzz").symlink_to(REPO)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SCN_", "ASAN_", "UBSAN_", "MSAN_"))}
    env.update(SRC=str(src), OUT=str(out), WORK=str(work), CC=CLANG,
               CXX=shutil.which("clang++-14") or "clang++-14",
               CFLAGS=cflags, CXXFLAGS=cflags,
               LIB_FUZZING_ENGINE="-fsanitize=fuzzer", SANITIZER=sanitizer,
               FUZZING_ENGINE="libfuzzer", ARCHITECTURE="x86_64", SCN_JOBS="2")
    cache = _musl_cache()
    if cache:
        env["SCN_MUSL_SOURCE_CACHE"] = cache
    log = root / "build.log"
    _run_build(env, log)
    return {"root": root, "out": out, "work": work, "env": env, "log": log}


@pytest.fixture(scope="module")
def ossfuzz(tmp_path_factory):
    return _ossfuzz_build(tmp_path_factory, "address", OSSFUZZ_CFLAGS)


@pytest.fixture(scope="module")
def ossfuzz_msan(tmp_path_factory):
    return _ossfuzz_build(tmp_path_factory, "memory", OSSFUZZ_MSAN_CFLAGS)


def _options(path: pathlib.Path) -> dict:
    cp = configparser.ConfigParser()
    cp.read(path)
    return dict(cp["libfuzzer"]) if cp.has_section("libfuzzer") else {}


@pytest.mark.campaign
@pytest.mark.slow
def test_out_is_complete(ossfuzz):
    out = ossfuzz["out"]
    for f in FUZZERS:
        exe = out / f
        assert exe.is_file() and os.access(exe, os.X_OK), f"$OUT/{f} missing"
        seeds = out / f"{f}_seed_corpus.zip"
        assert seeds.is_file(), f"$OUT/{f}_seed_corpus.zip missing"
        with zipfile.ZipFile(seeds) as z:
            assert z.testzip() is None
            names = [n for n in z.namelist() if not n.endswith("/")]
        assert names, f"{seeds.name} holds no files"
        assert all("/" not in n for n in names), f"{seeds.name} is not flat"
        d = out / f"{f}.dict"
        assert d.is_file() and d.stat().st_size > 0, f"$OUT/{f}.dict missing or empty"
        o = out / f"{f}.options"
        assert o.is_file(), f"$OUT/{f}.options missing"
        cp = configparser.ConfigParser()
        cp.read(o)  # raises on a malformed file
        assert cp.has_section("libfuzzer"), f"{o.name} has no [libfuzzer] section"
    assert not (out / "fuzz_planted").exists(), "the planted-bug fuzzer must not be shipped"


@pytest.mark.campaign
def test_flags_follow_the_contract(ossfuzz):
    """Compile lines carry $CFLAGS and never -fsanitize=fuzzer (link-only)."""
    cc = (ossfuzz["work"] / "scnfuzz-build" / "compile_commands.json").read_text()
    cmds = [e["command"] for e in json.loads(cc)]
    assert cmds
    for c in cmds:
        toks = c.split()
        assert "-fsanitize=fuzzer" not in toks, c
        if "-fsanitize=address" not in toks:
            pytest.fail(f"compiled without $CFLAGS: {c[:300]}")
    # the third-party code too: kernel lib/vsprintf.c and musl's vfprintf.c
    assert any("lib/vsprintf.c" in c for c in cmds)
    assert any("src/stdio/vfprintf.c" in c for c in cmds)


@pytest.mark.campaign
def test_differential_fuzzers_contain_kernel_and_musl(ossfuzz):
    syms = subprocess.run(["nm", str(ossfuzz["out"] / "fuzz_iso_diff")],
                          capture_output=True, text=True, check=True).stdout
    assert re.search(r" [TtDdRr] scn_target_musl$", syms, re.M), "musl target not linked"
    assert re.search(r" [TtDdRr] scn_target_kernel$", syms, re.M), "kernel target not linked"
    assert "kern_vsnprintf" in syms and "musl_vsnprintf" in syms


def _run_fuzzer(out: pathlib.Path, fuzzer: str, tmp_path: pathlib.Path) -> None:
    """Runs $OUT/fuzzer as ClusterFuzz does, on its unzipped seeds."""
    corpus = tmp_path / "corpus"
    with zipfile.ZipFile(out / f"{fuzzer}_seed_corpus.zip") as z:
        z.extractall(corpus)
    nseeds = len(list(corpus.iterdir()))
    args = [str(out / fuzzer)]
    opts = _options(out / f"{fuzzer}.options")
    for k, v in opts.items():
        if k not in ("max_total_time", "runs", "dict"):
            args.append(f"-{k}={v}")
    # ClusterFuzz: the options' dict (a file in $OUT), else NAME.dict
    dict_file = out / opts.get("dict", f"{fuzzer}.dict")
    assert dict_file.is_file(), f"{fuzzer}: dictionary {dict_file.name} not in $OUT"
    args += [f"-dict={dict_file}", f"-runs={RUNS}", f"-max_total_time={RUN_TIME_LIMIT}",
             "-seed=1", "-timeout=25", "-rss_limit_mb=2560", str(corpus)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCN_")}
    env["SCN_FINDINGS"] = str(tmp_path / "findings.jsonl")
    # Campaign mode: the differential fuzzers compare real glibc and musl, whose
    # real divergences (recorded in findings.jsonl) are not what this test is
    # about; it checks that the OSS-Fuzz build runs. Sanitizer reports and
    # faults still end the run (non-zero exit), and the findings file must hold
    # no invariant or memory-safety finding.
    env["SCN_FUZZ_CONTINUE"] = "1"
    r = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=RUN_TIME_LIMIT + 60)
    err = r.stderr
    findings = tmp_path / "findings.jsonl"
    assert r.returncode == 0, (
        f"{fuzzer} exited {r.returncode}; findings: "
        f"{findings.read_text()[:1500] if findings.exists() else '(none)'}\n"
        + "\n".join(err.splitlines()[-25:]))
    if findings.exists():
        bad = [ln for ln in findings.read_text().splitlines()
               if json.loads(ln).get("classification") in ("invariant", "memory-safety")]
        assert not bad, f"{fuzzer}: invariant/memory-safety findings:\n" + "\n".join(bad[:5])
    assert "ParseDictionaryFile" not in err, "dictionary rejected by libFuzzer"
    m = re.search(r"seed corpus: files: (\d+)", err)
    assert m and int(m.group(1)) > 0 and nseeds > 0, f"seeds not loaded:\n{err[-2000:]}"
    m = re.search(r"Done (\d+) runs", err)
    assert m, f"no 'Done N runs' line:\n{err[-2000:]}"
    assert int(m.group(1)) > MIN_EXECS, f"{fuzzer} executed only {m.group(1)} inputs"


@pytest.mark.campaign
@pytest.mark.parametrize("fuzzer", FUZZERS)
def test_fuzzer_runs_on_its_seeds(ossfuzz, fuzzer, tmp_path):
    _run_fuzzer(ossfuzz["out"], fuzzer, tmp_path)


@pytest.mark.campaign
@pytest.mark.slow
def test_msan_build(ossfuzz_msan):
    """SANITIZER=memory: every fuzzer builds, musl is left out (README.md),
    the kernel object is in and MSan-instrumented."""
    out = ossfuzz_msan["out"]
    for f in FUZZERS:
        assert os.access(out / f, os.X_OK), f"$OUT/{f} missing"
    syms = subprocess.run(["nm", str(out / "fuzz_iso_diff")], capture_output=True,
                          text=True, check=True).stdout
    assert "musl_vsnprintf" not in syms and "kern_vsnprintf" in syms
    assert "musl=OFF" in ossfuzz_msan["log"].read_text()
    cmds = (ossfuzz_msan["work"] / "scnfuzz-build" / "compile_commands.json").read_text()
    vs = [e["command"] for e in json.loads(cmds) if e["file"].endswith("lib/vsprintf.c")]
    assert vs and "-fsanitize=memory" in vs[0].split()


@pytest.mark.campaign
@pytest.mark.parametrize("fuzzer", FUZZERS)
def test_msan_fuzzer_runs_on_its_seeds(ossfuzz_msan, fuzzer, tmp_path):
    _run_fuzzer(ossfuzz_msan["out"], fuzzer, tmp_path)


@pytest.mark.campaign
def test_lib_fuzzing_engine_is_honoured(ossfuzz):
    """Relink with an engine archive instead of -fsanitize=fuzzer (as with
    AFL++/honggfuzz in OSS-Fuzz), build.sh run from $SRC/build.sh: no
    libFuzzer inside, the seeds replay."""
    root = ossfuzz["root"]
    eng = root / "engine"
    eng.mkdir(exist_ok=True)
    (eng / "driver.c").write_text(STANDALONE_DRIVER)
    subprocess.run([CLANG, "-O1", "-fsanitize=address", "-c", str(eng / "driver.c"),
                    "-o", str(eng / "driver.o")], check=True)
    subprocess.run(["ar", "rcs", str(eng / "libstandalone.a"), str(eng / "driver.o")],
                   check=True)
    out2 = root / "out-standalone"
    out2.mkdir(exist_ok=True)
    env = dict(ossfuzz["env"], OUT=str(out2), LIB_FUZZING_ENGINE=str(eng / "libstandalone.a"),
               SCN_OSSFUZZ_FUZZERS="fuzz_kernel_diff fuzz_parse")
    # OSS-Fuzz's layout: build.sh copied to $SRC/build.sh (it then finds its
    # CMake hook in the checkout)
    script = root / "src" / "build.sh"
    shutil.copy(BUILD_SH, script)
    _run_build(env, root / "build-standalone.log", script)
    for f in ("fuzz_kernel_diff", "fuzz_parse"):
        exe = out2 / f
        syms = subprocess.run(["nm", str(exe)], capture_output=True, text=True,
                              check=True).stdout
        assert "FuzzerDriver" not in syms, f"{f} still links libFuzzer"
        corpus = root / f"seeds-{f}"
        with zipfile.ZipFile(out2 / f"{f}_seed_corpus.zip") as z:
            z.extractall(corpus)
        files = sorted(str(p) for p in corpus.iterdir())[:200]
        r = subprocess.run([str(exe)] + files, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"{f}: rc={r.returncode}\n{r.stderr[-2000:]}"
        assert f"standalone: ran {len(files)} inputs" in r.stdout


@pytest.mark.campaign
def test_run_tests_sh(ossfuzz):
    """OSS-Fuzz's unit-test hook ($SRC/run_tests.sh, run after build.sh in its
    container): in build.sh's tree and environment the C tests build with
    OSS-Fuzz's flags and pass."""
    # float_mpfr (the slowest C test under ASan) is left out for time: the script's own
    # exclusion logic is what is exercised
    env = dict(ossfuzz["env"], SCN_RUN_TESTS_EXCLUDE="^float_mpfr$")
    r = subprocess.run(["bash", str(REPO / "ci" / "oss-fuzz" / "run_tests.sh")], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=1200)
    assert r.returncode == 0, "\n".join(r.stdout.splitlines()[-40:])
    m = re.search(r"100% tests passed, 0 tests failed out of (\d+)", r.stdout)
    assert m and int(m.group(1)) >= 10, r.stdout[-2000:]
    assert "float_mpfr" not in r.stdout.split("Test project", 1)[-1]


# --- the files around build.sh (no Docker here: what can be checked statically) ---

def _copy_sources(dockerfile: pathlib.Path) -> list[str]:
    """Sources of the COPY lines that read the build context (not --from)."""
    srcs = []
    for line in dockerfile.read_text().splitlines():
        toks = line.split()
        if toks[:1] == ["COPY"] and not any(t.startswith("--from") for t in toks):
            srcs += [t for t in toks[1:-1] if not t.startswith("--")]
    return srcs


IMAGE_DEPS = REPO / "ci" / "oss-fuzz" / "image-deps.sh"


@pytest.mark.parametrize("dockerfile,context", [
    ("ci/oss-fuzz/Dockerfile", "ci/oss-fuzz"),   # context: OSS-Fuzz's projects/scnfuzz/
    (".clusterfuzzlite/Dockerfile", "."),        # context: the repository
])
def test_dockerfile(dockerfile, context):
    df = REPO / dockerfile
    text = df.read_text()
    assert "FROM gcr.io/oss-fuzz-base/base-builder" in text
    assert "FROM debian:bookworm AS debian-sources" in text
    # both run the one script of the shared steps, in both stages
    assert "image-deps.sh debian-sources" in text and "image-deps.sh builder /tmp/debs" in text
    deps = IMAGE_DEPS.read_text()
    assert "apt-get download linux-source-6.1" in deps and "apt-get source musl" in deps
    for s in _copy_sources(df):
        assert (REPO / context / s).exists(), f"{dockerfile}: COPY {s}: not in its context"
    # build.sh finds the musl cache where the image puts it
    assert "$SRC/scnfuzz-deps/musl-source" in BUILD_SH.read_text()
    assert "/src/scnfuzz-deps/musl-source" in deps and "/src/scnfuzz-deps/" in text
    # the checkout: cloned for OSS-Fuzz (how it finds the repository), copied for ClusterFuzzLite
    if context == ".":
        assert "COPY . $SRC/scnfuzz" in text and "git clone" not in text
    else:
        assert "git clone" in text and "$SRC/scnfuzz" in text
        assert re.search(r"^COPY build\.sh run_tests\.sh \$SRC/$", text, re.M), \
            "OSS-Fuzz runs $SRC/build.sh and $SRC/run_tests.sh"


def test_image_deps_script_is_valid_sh():
    r = subprocess.run(["sh", "-n", str(IMAGE_DEPS)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["sh", str(IMAGE_DEPS)], capture_output=True, text=True)
    assert r.returncode == 2 and "usage" in r.stderr  # no step named: nothing done


# OSS-Fuzz's presubmit (google/oss-fuzz infra/presubmit.py, check_license): a file named
# Dockerfile or ending in .sh/.yaml/.py/... must contain this string.
APACHE_LICENSE_URL = "http://www.apache.org/licenses/LICENSE-2.0"
LICENSE_CHECKED_SUFFIXES = {".bash", ".c", ".cc", ".cpp", ".h", ".js", ".py", ".sh", ".yaml"}


@pytest.mark.parametrize("directory", ["ci/oss-fuzz", ".clusterfuzzlite"])
def test_license_headers(directory):
    checked = [f for f in sorted((REPO / directory).iterdir())
               if f.name == "Dockerfile" or f.suffix in LICENSE_CHECKED_SUFFIXES]
    assert {"Dockerfile", "build.sh", "project.yaml"} <= {f.name for f in checked}
    for f in checked:
        head = "\n".join(f.read_text().splitlines()[:20])
        assert APACHE_LICENSE_URL in head, f"{f}: no Apache-2.0 license header"
        assert "Copyright 2026 the scnfuzz authors" in head, f"{f}: no copyright line"


def test_clusterfuzzlite_workflows():
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load((REPO / ".clusterfuzzlite/project.yaml").read_text())["language"] == "c"
    proj = yaml.safe_load((REPO / "ci/oss-fuzz/project.yaml").read_text())
    assert proj["language"] == "c" and "address" in proj["sanitizers"]

    def steps(wf):
        doc = yaml.safe_load((REPO / ".github/workflows" / wf).read_text())
        out = []
        for job in doc["jobs"].values():
            out += job["steps"]
        return doc, out

    pr, st = steps("cflite_pr.yml")
    assert "pull_request" in pr[True]  # YAML 1.1 reads the key `on` as True
    uses = [s["uses"] for s in st]
    assert any(u.startswith("google/clusterfuzzlite/actions/build_fuzzers@") for u in uses)
    assert [s["with"]["mode"] for s in st if "run_fuzzers" in s["uses"]] == ["code-change"]
    assert all(s["with"]["language"] == "c" for s in st if "build_fuzzers" in s["uses"])

    batch, st = steps("cflite_batch.yml")
    assert batch[True]["schedule"]
    modes = {s["with"]["mode"] for s in st if "run_fuzzers" in s["uses"]}
    assert {"batch", "prune"} <= modes

    # continuous builds: each push to main builds and uploads, for every sanitizer PR
    # fuzzing uses (it replays its crashes on that build: one main has is not reported)
    build, st = steps("cflite_build.yml")
    assert build[True]["push"]["branches"] == ["main"]
    assert [s["uses"] for s in st] == ["google/clusterfuzzlite/actions/build_fuzzers@v1"]
    assert st[0]["with"]["upload-build"] is True and st[0]["with"]["language"] == "c"
    build_sanitizers = build["jobs"]["Build"]["strategy"]["matrix"]["sanitizer"]
    pr_sanitizers = pr["jobs"]["PR"]["strategy"]["matrix"]["sanitizer"]
    assert set(pr_sanitizers) <= set(build_sanitizers)


# --- what ClusterFuzz makes of a run: the project's fuzz build (test_fuzzers.py's fixture) ---

# ClusterFuzz's stack analyzer tries these patterns on every line of a crash's output, in
# this order; the last match becomes the crash state's first line (crash type ASSERT; the
# sanitizer's ABRT report after it is then not taken for the crash), and each line of the
# crash state is cut to LINE_LENGTH_CAP. Copied from google/clusterfuzz,
# src/clusterfuzz/stacktraces/constants.py (ASSERT_REGEX, ASSERT_REGEX_GLIBC,
# ASSERT_REGEX_GLIBC_SUFFIXED, LINE_LENGTH_CAP) at commit
# 0284dc21999b6ddaf30db96a40569dc68b915567; used by StackParser.parse/match_assert in
# src/clusterfuzz/stacktraces/__init__.py.
CF_C_CPP_EXTENSIONS = ['c', 'cc', 'cpp', 'cxx', 'h', 'hh', 'hpp', 'hxx']
CF_ASSERT_REGEXES = [
    re.compile(r'(?:\[.*?\]|.*\.(?:%s):.*)?' % ('|'.join(CF_C_CPP_EXTENSIONS)) +
               r'\s*(?:ASSERT(?:ION)? FAIL(?:URE|ED)|panic): (.*)', re.IGNORECASE),
    re.compile(r'.*:\s*assertion [`\'"]?(.*?)[`\'"]? failed\.?$', re.IGNORECASE),
    re.compile(r'.*\S.*\/.*:\d+:\s*assertion .* failed:\s*(\S.*)'),
]
CF_LINE_LENGTH_CAP = 80


def clusterfuzz_assert_state(output: str) -> str | None:
    """The first line of the crash state ClusterFuzz gives this output, when an
    assertion line sets it."""
    state = None
    for line in output.splitlines():
        for rx in CF_ASSERT_REGEXES:
            m = rx.match(line)
            if m and m.group(1):
                state = m.group(1)
    return state[:CF_LINE_LENGTH_CAP] if state is not None else None


def _run_planted(fuzz_build, bug: str, tmp_path: pathlib.Path) -> subprocess.Popen:
    d = tmp_path / bug
    (d / "corpus").mkdir(parents=True)
    return subprocess.Popen(
        no_aslr() + [str(binary(fuzz_build, "fuzz_planted")), "-runs=50000", "-seed=1",
                     "-max_len=64", f"-artifact_prefix={d}/", str(d / "corpus")],
        env=fuzz_env(d, SCN_PLANTED=bug), cwd=d, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)


@pytest.mark.campaign
def test_new_root_cause_is_its_own_clusterfuzz_crash(fuzz_build, tmp_path):
    """A new root cause aborts (SCN_FUZZ_CONTINUE unset, as under ClusterFuzz) after a
    glibc-assert line naming its signature, which ClusterFuzz takes as the crash
    state: two planted bugs (one differential, one per-size oracle) are two crashes,
    not one crash in write_record()."""
    bugs = ["hh-trunc", "ret-size"]  # both found within a few thousand executions
    procs = {bug: _run_planted(fuzz_build, bug, tmp_path) for bug in bugs}
    states = {}
    for bug, proc in procs.items():
        _, err = proc.communicate(timeout=600)
        assert proc.returncode != 0, f"{bug}: not found, or found without abort:\n{err[-2000:]}"
        rows = [json.loads(ln) for ln in (tmp_path / bug / "findings.jsonl").read_text().splitlines()]
        new = [r for r in rows if "rule" not in r]
        assert new, f"{bug}: no new root cause recorded: {rows}"
        signature = new[-1]["signature"]  # the one that aborted: the last one written
        assert len(re.findall(r"Assertion `", err)) == 1, err[-3000:]
        state = clusterfuzz_assert_state(err)
        assert state == signature[:CF_LINE_LENGTH_CAP], (
            f"{bug}: ClusterFuzz would read the crash state {state!r}, not the signature "
            f"{signature!r}:\n{err[-3000:]}")
        states[bug] = state
    assert len(set(states.values())) == len(bugs), states


# The fuzzers run 30 s each, two at a time (marked slow and campaign); 2 s in CI's short form
# (their seeds meet known differences at once; MIN_EXECS holds on a loaded machine).
SHIPPED_RUN_SECONDS = campaign_seconds(30, 2)


def _run_shipped(out: pathlib.Path, fuzzer: str, tmp_path: pathlib.Path):
    """Runs the OSS-Fuzz build's `fuzzer` ($OUT) as ClusterFuzz runs it: its
    .options flags and dictionary from $OUT, its seed corpus zip unpacked, no
    SCN_FUZZ_CONTINUE."""
    d = tmp_path / fuzzer
    corpus = d / "corpus"
    corpus.mkdir(parents=True)
    with zipfile.ZipFile(out / f"{fuzzer}_seed_corpus.zip") as z:
        z.extractall(corpus)  # libFuzzer adds to it
    opts = _options(out / f"{fuzzer}.options")
    args = [str(out / fuzzer)]
    args += [f"-{k}={v}" for k, v in opts.items() if k not in ("max_total_time", "runs", "dict")]
    args += [f"-dict={out / opts.get('dict', 'printf.dict')}",
             f"-max_total_time={SHIPPED_RUN_SECONDS}", "-seed=1", "-timeout=25",
             "-rss_limit_mb=2560", f"-artifact_prefix={d}/", str(corpus)]
    r = subprocess.run(args, env=fuzz_env(d), cwd=d, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=SHIPPED_RUN_SECONDS + 120)
    f = d / "findings.jsonl"
    rows = [json.loads(ln) for ln in f.read_text().splitlines()] if f.exists() else []
    return r, rows


@pytest.mark.campaign
@pytest.mark.slow
def test_shipped_fuzzers_do_not_abort_on_known_differences(ossfuzz, tmp_path):
    """Under ClusterFuzz every abort is a crash report. The differences of glibc, musl
    and the kernel the shipped fuzzers meet from their seeds are known bugs or
    allowances (oracles/known_bugs.tsv, allowances.tsv): they are recorded, and the
    run goes on."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # 2 cores
        runs = dict(zip(FUZZERS, pool.map(lambda f: _run_shipped(ossfuzz["out"], f, tmp_path),
                                          FUZZERS)))
    failed = []
    for fuzzer, (r, rows) in runs.items():
        if r.returncode != 0:
            new = [f"{x['signature']}  {x['case']}" for x in rows if "rule" not in x]
            failed.append(f"{fuzzer}: exit {r.returncode}; new root causes: {new}\n"
                          + "\n".join(r.stderr.splitlines()[-15:]))
            continue
        m = re.search(r"Done (\d+) runs", r.stderr)
        assert m and int(m.group(1)) > MIN_EXECS, f"{fuzzer}: {r.stderr[-1500:]}"
        assert all("rule" in x for x in rows), rows  # no abort, so only explained ones
    assert not failed, "\n\n".join(failed)
    # they did meet known differences, and went on
    explained = sum(len(rows) for _, rows in runs.values())
    assert explained > 0, "no known bug or allowance met: the test checked nothing"
