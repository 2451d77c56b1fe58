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
  dictionary, its unzipped seeds) for a few seconds: exit 0, seeds loaded, and
  more than MIN_EXECS inputs executed;
- $LIB_FUZZING_ENGINE is honoured when it is not -fsanitize=fuzzer: relinked
  against a small standalone driver archive (like AFL's/honggfuzz's driver
  archives), the fuzzers contain no libFuzzer and replay their seeds.

The same for SANITIZER=memory (musl is left out there), 2 s per fuzzer.

Two builds of the fuzzer targets (ASan, MSan: ~30-60 s each on 2 cores) +
~5 s and ~3 s per fuzzer; about 1 to 1.5 minutes in all.
Env SCN_MUSL_SOURCE_CACHE: a fetch-musl-source.sh output dir to use (default:
fetched once into /tmp/scnfuzz-ossfuzz-musl-cache, as the Docker image does
at image-build time).
"""
import configparser
import json
import os
import pathlib
import re
import shutil
import subprocess
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
BUILD_SH = REPO / "ci" / "oss-fuzz" / "build.sh"
FUZZERS = ["fuzz_ref", "fuzz_iso_diff", "fuzz_kernel_diff", "fuzz_parse"]
RUN_SECONDS = 4
MIN_EXECS = 500

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
    r = subprocess.run(["sh", str(REPO / "core/targets/musl/fetch-musl-source.sh"), str(cache)],
                       capture_output=True, text=True, timeout=300)
    return str(cache) if r.returncode == 0 else None  # else build.sh's CMake fetches itself


def _run_build(env: dict, log: pathlib.Path, script: pathlib.Path = BUILD_SH) -> None:
    with open(log, "w") as lf:
        r = subprocess.run(["bash", str(script)], env=env, stdout=lf,
                           stderr=subprocess.STDOUT, timeout=480)
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


def test_differential_fuzzers_contain_kernel_and_musl(ossfuzz):
    syms = subprocess.run(["nm", str(ossfuzz["out"] / "fuzz_iso_diff")],
                          capture_output=True, text=True, check=True).stdout
    assert re.search(r" [TtDdRr] scn_target_musl$", syms, re.M), "musl target not linked"
    assert re.search(r" [TtDdRr] scn_target_kernel$", syms, re.M), "kernel target not linked"
    assert "kern_vsnprintf" in syms and "musl_vsnprintf" in syms


def _run_fuzzer(out: pathlib.Path, fuzzer: str, tmp_path: pathlib.Path, seconds: int) -> None:
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
    args += [f"-dict={dict_file}", f"-max_total_time={seconds}",
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
                       timeout=seconds + 60)
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


@pytest.mark.parametrize("fuzzer", FUZZERS)
def test_fuzzer_runs_on_its_seeds(ossfuzz, fuzzer, tmp_path):
    _run_fuzzer(ossfuzz["out"], fuzzer, tmp_path, RUN_SECONDS)


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


@pytest.mark.parametrize("fuzzer", FUZZERS)
def test_msan_fuzzer_runs_on_its_seeds(ossfuzz_msan, fuzzer, tmp_path):
    _run_fuzzer(ossfuzz_msan["out"], fuzzer, tmp_path, 2)


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


# --- the files around build.sh (no Docker here: what can be checked statically) ---

def _copy_sources(dockerfile: pathlib.Path) -> list[str]:
    """Sources of the COPY lines that read the build context (not --from)."""
    srcs = []
    for line in dockerfile.read_text().splitlines():
        toks = line.split()
        if toks[:1] == ["COPY"] and not any(t.startswith("--from") for t in toks):
            srcs += [t for t in toks[1:-1] if not t.startswith("--")]
    return srcs


@pytest.mark.parametrize("dockerfile,context", [
    ("ci/oss-fuzz/Dockerfile", "ci/oss-fuzz"),   # context: OSS-Fuzz's projects/scnfuzz/
    (".clusterfuzzlite/Dockerfile", "."),        # context: the repository
])
def test_dockerfile(dockerfile, context):
    df = REPO / dockerfile
    text = df.read_text()
    assert "FROM gcr.io/oss-fuzz-base/base-builder" in text
    assert "apt-get download linux-source-6.1" in text and "apt-get source musl" in text
    for s in _copy_sources(df):
        assert (REPO / context / s).exists(), f"{dockerfile}: COPY {s}: not in its context"
    # build.sh finds the musl cache where the image puts it
    assert "$SRC/scnfuzz-deps/musl-source" in BUILD_SH.read_text()
    assert "/src/scnfuzz-deps/musl-source" in text


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
