"""A campaign worker's death (runner/scnfuzz/campaign.py): the crash it met
is found again even when libFuzzer wrote no new artifact (the same input
crashed before: its artifact already exists), the input leaves the campaign
corpus so that the next incarnation does not die loading it, the seeds are
units of that corpus (a seed that kills the fuzzer can be taken out too),
and the signature names the crash's function or, for UBSan's summary lines
that name none, its source location."""
import hashlib
import pathlib
import sys
import types

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "runner"))
from scnfuzz import campaign  # noqa: E402


def _job(tmp_path, log_text, start=0):
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    log = tmp_path / "w.log"
    log.write_bytes(log_text)
    return types.SimpleNamespace(fuzzer="fuzz_matrix", corpus=corpus, log=types.SimpleNamespace(name=str(log)),
                                 log_start=start)


def test_the_same_crash_again_is_found_from_the_log_and_leaves_the_corpus(tmp_path):
    unit = b"\xe0\x00\x00[A-\x91"
    sha = hashlib.sha1(unit).hexdigest()
    run = types.SimpleNamespace(path=tmp_path / "run")
    art = run.path / "artifacts"
    art.mkdir(parents=True)
    (art / f"fuzz_matrix-crash-{sha}").write_bytes(unit)
    before = set(art.glob("*"))  # the artifact is not new: this input crashed before
    earlier = b"Test unit written to /nowhere/fuzz_matrix-crash-0000\n"
    job = _job(tmp_path, earlier + f"artifact_prefix='{art}/fuzz_matrix-'; Test unit written to "
                                   f"{art}/fuzz_matrix-crash-{sha}\n".encode(), start=len(earlier))
    (job.corpus / sha).write_bytes(unit)
    other = job.corpus / hashlib.sha1(b"other").hexdigest()
    other.write_bytes(b"other")
    found = campaign._crash_input(run, job, before)
    assert found == [art / f"fuzz_matrix-crash-{sha}"]
    assert not (job.corpus / sha).exists() and other.exists()  # only the crashing unit is taken out
    assert (art / f"fuzz_matrix-crash-{sha}").read_bytes() == unit  # the artifact keeps it


def test_only_this_incarnations_log_lines_count(tmp_path):
    run = types.SimpleNamespace(path=tmp_path / "run")
    (run.path / "artifacts").mkdir(parents=True)
    stale = run.path / "artifacts" / "fuzz_matrix-crash-aaaa"
    stale.write_bytes(b"x")
    text = f"Test unit written to {stale}\n".encode()
    job = _job(tmp_path, text + b"==1==ERROR: libFuzzer: out-of-memory\n", start=len(text))
    assert campaign._crash_input(run, job, set((run.path / "artifacts").glob("*"))) == []


def test_seeds_become_units_of_the_campaign_corpus(tmp_path):
    corpus = tmp_path / "c"
    campaign._seed_corpus("fuzz_iso_diff", corpus)
    seeds = [f for f in (REPO / "corpus" / "fuzz" / "fuzz_iso_diff").iterdir() if f.is_file()]
    names = {hashlib.sha1(f.read_bytes()).hexdigest() for f in seeds}
    assert {p.name for p in corpus.iterdir()} == names
    (corpus / sorted(names)[0]).unlink()
    campaign._seed_corpus("fuzz_iso_diff", corpus)  # a new campaign: the seeds again, nothing else touched
    assert {p.name for p in corpus.iterdir()} == names


def test_crash_state_names_the_function_or_the_location():
    ub = "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /usr/include/stb/stb_sprintf.h:615:10 in "
    assert campaign._crash_state(ub, "crash") == "stb_sprintf.h:615:10"
    assert campaign._crash_state("SUMMARY: AddressSanitizer: SEGV (/x.so+0x1) in curl_mvsnprintf", "crash") \
        == "curl_mvsnprintf"
    assert campaign._crash_state("", "timeout") == "timeout"
