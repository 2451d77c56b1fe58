"""Certification in other projects' CI: the composite GitHub Action
(action.yml) and the pre-commit hook (.pre-commit-hooks.yaml).

Both files are parsed and their command lines run as GitHub and pre-commit
would run them, with the README's copy-paste examples as the user's
configuration (only --time shortened): the action's steps in order (shell
`bash --noprofile --norc -eo pipefail`, inputs through ${{ }} in `env:`,
GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, `if: always()`), the
upload-artifact step checked for what it would upload; the hook's entry
resolved in this repository with the example's args. A correct scnprintf
(tests/certify/good_scnprintf.c, renamed as in the examples) is certified by
the action; one that returns size on truncation (the classic bug) fails the
action, after the upload, and the hook (three short certifications).

Needs python3-yaml (bash ci/setup.sh).
Run: SCN_BUILD_DIR=$PWD/build/asan /usr/bin/python3 -m pytest -q tests/test_ci_integrations.py
"""
import json
import os
import pathlib
import re
import subprocess

import pytest

from conftest import build_dir

yaml = pytest.importorskip("yaml", reason="python3-yaml not installed (bash ci/setup.sh)")

REPO = pathlib.Path(__file__).resolve().parent.parent
GOOD = REPO / "tests" / "certify" / "good_scnprintf.c"
# the README's examples certify src/my_scnprintf.c's my_scnprintf
EXAMPLE_SOURCE = "src/my_scnprintf.c"
FAST_TIME = "1"  # seconds of fuzzing instead of the examples' 60


def _readme_yaml_blocks():
    text = (REPO / "README.md").read_text()
    return [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)]


def readme_action_inputs():
    """The `with:` of the README's workflow step that uses this action."""
    for doc in _readme_yaml_blocks():
        if isinstance(doc, dict) and "jobs" in doc:
            for job in doc["jobs"].values():
                for step in job["steps"]:
                    if "scnfuzz" in step.get("uses", ""):
                        return {k: str(v) for k, v in step["with"].items()}
    pytest.fail("README.md has no workflow example using the scnfuzz action")


def readme_hook_config():
    """The scnfuzz-certify hook of the README's .pre-commit-config.yaml example."""
    for doc in _readme_yaml_blocks():
        if isinstance(doc, dict) and "repos" in doc:
            for repo in doc["repos"]:
                for hook in repo["hooks"]:
                    if hook["id"] == "scnfuzz-certify":
                        return hook
    pytest.fail("README.md has no .pre-commit-config.yaml example with the scnfuzz-certify hook")


def workspace(tmp_path, buggy=False):
    """A user's repository holding the example's source: correct, or returning
    size (not size - 1) when the output is cut."""
    src = GOOD.read_text().replace("good_", "my_")
    if buggy:
        fixed = "return size ? (int)(size - 1) : 0;"
        assert fixed in src
        src = src.replace(fixed, "return (int)size;")
    ws = tmp_path / "ws"
    (ws / EXAMPLE_SOURCE).parent.mkdir(parents=True)
    (ws / EXAMPLE_SOURCE).write_text(src)
    return ws


def certify_env():
    # the runner's scn-conform from the tests' build (not a build/default of its own)
    return dict(os.environ, SCN_BUILD_DIR=str(build_dir()))


# ------------------------------------------------------------------ the action

def load_action():
    return yaml.safe_load((REPO / "action.yml").read_text())


EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def run_action(ws, tmp_path, inputs):
    """The composite action's steps as the runner runs them. Returns the
    steps' results [(name, 'ok'|'failed'|'skipped'|with-mapping)], the
    action's outputs and the step summary."""
    action = load_action()
    values = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    values.update(inputs)
    for k, v in action["inputs"].items():
        assert not v.get("required") or values.get(k), f"required input {k} not given"
    step_outputs = {}

    def expand(s):
        def one(m):
            e = m.group(1)
            if e.startswith("inputs."):
                return values[e[len("inputs."):]]
            parts = e.split(".")
            if parts[0] == "steps" and parts[2] == "outputs":
                return step_outputs.get(parts[1], {}).get(parts[3], "")
            raise AssertionError(f"expression the emulation does not know: {e}")
        return EXPR.sub(one, str(s))

    summary = tmp_path / "summary.md"
    results, failed = [], False
    for i, step in enumerate(action["runs"]["steps"]):
        cond = step.get("if")
        assert cond in (None, "always()"), cond
        if failed and cond != "always()":
            results.append((step["name"], "skipped"))
            continue
        if "uses" in step:
            results.append((step["name"], {k: expand(v) for k, v in step.get("with", {}).items()}))
            continue
        assert step["shell"] == "bash"
        out_file = tmp_path / f"output-{i}"
        out_file.write_text("")
        env = certify_env()
        env.update({k: expand(v) for k, v in step.get("env", {}).items()})
        env.update(GITHUB_ACTION_PATH=str(REPO), GITHUB_OUTPUT=str(out_file), GITHUB_STEP_SUMMARY=str(summary))
        script = tmp_path / f"step-{i}.sh"
        script.write_text(step["run"])
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=ws, env=env,
                           capture_output=True, text=True, timeout=600)
        if "id" in step:
            step_outputs[step["id"]] = dict(l.split("=", 1) for l in out_file.read_text().splitlines() if "=" in l)
        failed = failed or p.returncode != 0
        results.append((step["name"], "failed" if p.returncode else "ok", p.stdout + p.stderr))
    outputs = {k: expand(v["value"]) for k, v in action["outputs"].items()}
    return results, outputs, summary.read_text() if summary.exists() else ""


def test_action_is_composite_and_its_scripts_hold_no_expression():
    action = load_action()
    assert action["runs"]["using"] == "composite"
    assert {k for k, v in action["inputs"].items() if v.get("required")} == {"source", "function", "kind"}
    for step in action["runs"]["steps"]:
        if "run" in step:
            # a ${{ }} in a script would splice an input into shell code
            assert "${{" not in step["run"], step["name"]
    upload = [s for s in action["runs"]["steps"] if "upload-artifact" in s.get("uses", "")]
    assert len(upload) == 1 and upload[0]["if"] == "always()"
    assert "${{ inputs.out }}" in upload[0]["with"]["path"]


def _uploaded(results, ws):
    """The directory the upload-artifact step was given (its first path line)."""
    withs = [r[1] for r in results if isinstance(r[1], dict)]
    assert len(withs) == 1
    first = withs[0]["path"].split("\n")[0].strip()
    return ws / first, withs[0]


def test_action_certifies_the_readme_example(tmp_path):
    ws = workspace(tmp_path)
    inputs = dict(readme_action_inputs(), time=FAST_TIME, install="false")
    results, outputs, summary = run_action(ws, tmp_path, inputs)
    assert [r[1] if isinstance(r[1], str) else "uses" for r in results] == ["ok", "ok", "uses", "ok"], results
    assert outputs["certified"] == "true"
    cert = json.loads((ws / outputs["certificate"]).read_text())
    assert cert["verdict"] == "certified" and cert["function"] == "my_scnprintf"
    up, with_ = _uploaded(results, ws)
    assert with_["name"] == "scnfuzz-certificate"
    for f in ["certificate.json", "certificate.md", "certificate.html", "report.json"]:
        assert (up / f).is_file(), f
    assert "CERTIFIED" in summary


def test_action_uploads_then_fails_when_not_certified(tmp_path):
    ws = workspace(tmp_path, buggy=True)
    inputs = dict(readme_action_inputs(), time=FAST_TIME, install="false")
    results, outputs, _ = run_action(ws, tmp_path, inputs)
    # certify ran to its verdict, the upload ran, the last step failed the job
    assert [r[1] if isinstance(r[1], str) else "uses" for r in results] == ["ok", "ok", "uses", "failed"], results
    assert "NOT CERTIFIED" in results[-1][2]
    assert outputs["certified"] == "false"
    up, _ = _uploaded(results, ws)
    cert = json.loads((up / "certificate.json").read_text())
    assert cert["verdict"] == "not certified"
    assert "scn.ret-le-size-1" in cert["oracles_fired"], cert["oracles_fired"]


# -------------------------------------------------------------- the pre-commit hook

def load_hook():
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["scnfuzz-certify"]
    return hooks[0]


def hook_command(hook, args):
    """pre-commit's command for a `language: script` hook: the entry's first
    word is a file of the hook's repository; then the entry's other words,
    the hook's args and (not here: pass_filenames is false) the file names."""
    entry = hook["entry"].split()
    return [str(REPO / entry[0])] + entry[1:] + [str(a) for a in args]


def test_pre_commit_hook_definition():
    hook = load_hook()
    assert hook["language"] == "script"
    exe = REPO / hook["entry"].split()[0]
    assert exe.is_file() and os.access(exe, os.X_OK)
    assert hook["pass_filenames"] is False  # --source comes from the user's args


def _example_args(hook_cfg):
    args = [str(a) for a in hook_cfg["args"]]
    args[args.index("--time") + 1] = FAST_TIME
    assert args[args.index("--source") + 1] == EXAMPLE_SOURCE
    return args


def test_pre_commit_hook_runs_the_readme_example(tmp_path):
    # the buggy source: exit 1 with a certificate that names the oracle shows
    # that the example's args make a whole certification (a correct source's
    # exit 0 is the action's test: the same command with the same options)
    hook, cfg = load_hook(), readme_hook_config()
    args = [str(a) for a in cfg["args"]]
    hook_opts = dict(zip(args[::2], args[1::2]))
    hook_opts.pop("--out")
    assert hook_opts == {f"--{k}": v for k, v in readme_action_inputs().items()}
    ws = workspace(tmp_path, buggy=True)
    p = subprocess.run(hook_command(hook, _example_args(cfg)), cwd=ws, env=certify_env(),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and "NOT CERTIFIED" in p.stdout, p.stdout + p.stderr
    out = cfg["args"][cfg["args"].index("--out") + 1]
    cert = json.loads((ws / out / "certificate.json").read_text())
    assert cert["verdict"] == "not certified" and cert["function"] == "my_scnprintf"
    assert "scn.ret-le-size-1" in cert["oracles_fired"], cert["oracles_fired"]
