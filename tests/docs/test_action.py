"""The GitHub Action (``action.yml``) and the GitLab CI template run here (issue 24): their shell steps,
as written, in a new virtual environment with a fake ``GITHUB_*`` / ``CI_*`` environment. The action's
install step installs the suite from its own checkout (a clone of this repository); the certificate,
the JUnit XML, the report and the pull request's comparison land where the workflow reads them.

The platforms' own parts are stood in for: ``actions/upload-artifact`` (the test checks the folder it
would upload), and the ``gh`` and ``curl`` calls to the platforms' APIs (scripts on PATH that record
their arguments and serve a base report)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from install_support import REPO, clean_env, fresh_venv

ACTION = REPO / "action.yml"
GITLAB = REPO / "gitlab" / "draughts-conformance.gitlab-ci.yml"
MUTANT = "mutant:kings-step-one-square"

FAKE_GH = """#!/bin/sh
# gh, stood in for: records its arguments; `pr comment --body-file F` keeps F; `run list` finds no run.
echo "$*" >> "$FAKE_LOG"
if [ "$1 $2" = "pr comment" ]; then
  while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "$FAKE_COMMENT"; shift; done
fi
"""

FAKE_CURL = """#!/bin/sh
# curl, stood in for: records its arguments; --output F gets a zip of the base report (the job's artifact).
echo "$*" >> "$FAKE_LOG"
while [ $# -gt 0 ]; do
  if [ "$1" = --output ]; then
    case "$2" in /*) out="$2" ;; *) out="$PWD/$2" ;; esac
    (cd "$FAKE_ARTIFACT" && python -m zipfile -c "$out" conformance-report) || exit 22
  fi
  shift
done
"""


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory, suite_clone: Path) -> Path:
    """A new venv (the suite gets installed into it by the steps themselves) and the stand-ins, on PATH."""
    root = tmp_path_factory.mktemp("ci")
    bin_folder = fresh_venv(root / "venv")
    for name, script in (("gh", FAKE_GH), ("curl", FAKE_CURL)):
        path = bin_folder / name
        path.write_text(script, encoding="utf-8")
        path.chmod(0o755)
    return bin_folder


def workspace(root: Path, name: str) -> Path:
    """An engine's repository: a settings file naming a mutant that fails Art. 3.9."""
    folder = root / name
    folder.mkdir()
    (folder / ".git").mkdir()
    (folder / "draughts-conformance.toml").write_text(
        f'engine = "{MUTANT}"\nrequire = ["3.9"]\n', encoding="utf-8"
    )
    return folder


def base_report(folder: Path) -> Path:
    """The base branch's report: the oracle on Art. 3.9, certified (by the suite under test)."""
    report = folder / "base.jsonl"
    subprocess.run(
        [sys.executable, "-m", "conformance", "run", "oracle", "--article", "3.9",
         "--report", str(report), "--format", "badge"],
        check=True, capture_output=True, timeout=300, cwd=folder,
    )  # fmt: skip
    return report


# -- the GitHub Action ------------------------------------------------------------------------------

_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class ActionRun:
    """Runs a composite action's steps as the runner does: each ``run`` with bash -eo pipefail in its
    working directory, its ``env`` and ``with`` expressions filled in; a failed step skips the rest
    but the ``if: always()`` steps."""

    def __init__(
        self, workspace: Path, bin_folder: Path, inputs: dict[str, str], event: str, action_path: Path
    ) -> None:
        self.action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
        self.inputs = {name: spec.get("default", "") for name, spec in self.action["inputs"].items()}
        unknown = set(inputs) - set(self.inputs)
        assert not unknown, f"no such inputs: {unknown}"
        self.inputs.update(inputs)
        self.workspace = workspace
        self.files = workspace.parent / f"{workspace.name}-runner"
        self.files.mkdir()
        for name in ("summary.md", "output", "log.txt"):
            (self.files / name).touch()
        self.env = clean_env(
            bin_folder,
            GITHUB_ACTION_PATH=str(action_path),
            GITHUB_STEP_SUMMARY=str(self.files / "summary.md"),
            GITHUB_EVENT_NAME=event,
            GITHUB_REF="refs/pull/7/merge" if event == "pull_request" else "refs/heads/main",
            GITHUB_BASE_REF="main" if event == "pull_request" else "",
            GITHUB_REPOSITORY="me/my-engine",
            GITHUB_WORKFLOW="conformance",
            GITHUB_WORKSPACE=str(workspace),
            FAKE_LOG=str(self.files / "calls.txt"),
            FAKE_COMMENT=str(self.files / "comment.md"),
        )
        self.statuses: dict[str, int | None] = {}
        self.uploaded: list[Path] = []

    def value(self, text: str) -> str:
        def evaluate(match: re.Match[str]) -> str:
            expression = match.group(1)
            if expression.startswith("inputs."):
                return self.inputs[expression.removeprefix("inputs.")]
            if expression == "github.token":
                return "fake-token"
            raise AssertionError(f"the test does not evaluate ${{{{ {expression} }}}}")

        return _EXPRESSION.sub(evaluate, text)

    def outputs(self) -> dict[str, str]:
        lines = (self.files / "output").read_text(encoding="utf-8").splitlines()
        return dict(line.split("=", 1) for line in lines if "=" in line)

    def run(self) -> dict[str, int | None]:
        failed = False
        for step in self.action["runs"]["steps"]:
            name = step["name"]
            condition = step.get("if")
            assert condition in (None, "always()"), f"{name}: the test evaluates no other condition"
            if failed and condition is None:
                self.statuses[name] = None
                continue
            if "uses" in step:
                self.uploaded.append(self.workspace / self.value(step["with"]["path"]))
                self.statuses[name] = 0
                continue
            env = {**self.env, **{key: self.value(str(value)) for key, value in step.get("env", {}).items()}}
            env["GITHUB_OUTPUT"] = str(self.files / "output")
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", self.value(step["run"])],
                cwd=self.workspace / self.value(step.get("working-directory", ".")),
                env=env, capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            with (self.files / "log.txt").open("a", encoding="utf-8") as log:
                log.write(f"== {name}: {done.returncode}\n{done.stdout}{done.stderr}")
            self.statuses[name] = done.returncode
            failed = failed or done.returncode != 0
        return self.statuses

    def text(self, name: str) -> str:
        return (self.files / name).read_text(encoding="utf-8") if (self.files / name).exists() else ""


def test_the_action_certifies_uploads_and_compares_a_pull_request_with_its_base(
    tools: Path, suite_clone: Path, tmp_path: Path
) -> None:
    folder = workspace(tmp_path, "pull")
    base = base_report(tmp_path)
    action = ActionRun(folder, tools, {"args": "--article 3.9", "python": "python", "base-report": str(base)}, "pull_request", suite_clone)  # fmt: skip
    statuses = action.run()
    log = action.text("log.txt")
    assert statuses == {
        "Install draughts-conformance": 0,
        "Certify": 1,  # the mutant fails 3.9
        "Keep the report, the JUnit XML and the comparison": 0,
        "Compare with the base branch": 1,  # a regression against the base branch
    }, log
    assert action.outputs()["status"] == "1"
    report = Path(action.outputs()["report"])
    assert report == folder / "conformance-report" / "conformance.jsonl"
    assert '"name": "kings-step-one-square"' in report.read_text(encoding="utf-8").splitlines()[0]
    junit = ElementTree.parse(folder / "conformance-report" / "conformance.xml").getroot()
    assert int(junit.get("failures") or 0) > 0
    assert action.uploaded == [folder / "./conformance-report/"]
    assert {p.name for p in action.uploaded[0].iterdir()} == {
        "conformance.jsonl",
        "conformance.xml",
        "diff.md",
    }
    summary = action.text("summary.md")
    assert summary.startswith("## FMJD conformance: kings-step-one-square")
    assert "FAILED" in summary
    assert "### Regressions" in summary
    assert "| 3.9 | certified | failed :x: |" in summary
    diff = (folder / "conformance-report" / "diff.md").read_text(encoding="utf-8")
    assert action.text("comment.md") == diff
    assert "pr comment 7 --repo me/my-engine --body-file conformance-report/diff.md" in action.text(
        "calls.txt"
    )
    assert "kings-step-one-square" in log  # the certificate printed in the log too


def test_on_a_push_the_action_certifies_and_compares_nothing(
    tools: Path, suite_clone: Path, suite_wheel: Path, tmp_path: Path
) -> None:
    """On a push, with the ``suite`` input (a wheel) instead of the action's own checkout."""
    folder = workspace(tmp_path, "main")
    inputs = {
        "engine": "oracle",
        "require": "3.9 4.1",
        "args": "--article 3.9 --article 4.1",
        "python": "python",
        "suite": str(suite_wheel),
    }
    action = ActionRun(folder, tools, inputs, "push", suite_clone)
    statuses = action.run()
    assert set(statuses.values()) == {0}, action.text("log.txt")
    assert action.outputs()["status"] == "0"
    summary = action.text("summary.md")
    assert summary.startswith("## FMJD conformance: oracle")
    assert "CERTIFIED" in summary
    assert "Regressions" not in summary
    assert action.text("calls.txt") == ""  # no API called


def test_a_pull_request_without_a_base_report_says_so_and_passes_the_comparison(
    tools: Path, suite_clone: Path, suite_wheel: Path, tmp_path: Path
) -> None:
    folder = workspace(tmp_path, "first")
    inputs = {"engine": "oracle", "args": "--article 3.9", "python": "python", "suite": str(suite_wheel)}
    action = ActionRun(folder, tools, inputs, "pull_request", suite_clone)
    statuses = action.run()
    assert statuses["Compare with the base branch"] == 0, action.text("log.txt")
    assert "run list --repo me/my-engine --branch main --workflow conformance" in action.text("calls.txt")
    assert "No report of main to compare with" in action.text("summary.md")


def test_the_action_declares_what_the_docs_say() -> None:
    action: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    documented = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    for name in action["inputs"]:
        assert f"`{name}`" in documented, name
    for name in action["outputs"]:
        assert f"`{name}`" in documented, name


# -- the GitLab template ---------------------------------------------------------------------------


def gitlab_job(name: str) -> dict[str, Any]:
    pipeline: dict[str, Any] = yaml.safe_load(GITLAB.read_text(encoding="utf-8"))
    job = dict(pipeline[name])
    base = pipeline[job.pop("extends")] if "extends" in job else {}
    return {**base, **job, "variables": pipeline["variables"]}


def gitlab_lines(job: dict[str, Any], part: str, folder: Path, env: dict[str, str]) -> int:
    """A job's ``before_script``/``script``/``after_script``: each entry with bash, stopping at the first
    that fails (as the runner does)."""
    for entry in job.get(part, []):
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", entry],
            cwd=folder, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        with (folder.parent / f"{folder.name}-log.txt").open("a", encoding="utf-8") as log:
            log.write(f"== {part}: {done.returncode}\n{done.stdout}{done.stderr}")
        if done.returncode:
            return done.returncode
    return 0


def test_the_gitlab_template_keeps_junit_and_markdown_and_a_merge_request_diff_fails(
    tools: Path, suite_wheel: Path, tmp_path: Path
) -> None:
    main_folder = workspace(tmp_path, "main")
    merge_folder = workspace(tmp_path, "merge")
    job = gitlab_job("draughts-conformance")
    variables = {name: str(value) for name, value in job["variables"].items()}

    def env(folder: Path, **more: str) -> dict[str, str]:
        return clean_env(
            tools,
            **{**variables, "DRAUGHTS_SUITE": str(suite_wheel), "DRAUGHTS_ARGS": "--article 3.9", **more},
            CI_API_V4_URL="https://gitlab.invalid/api/v4", CI_PROJECT_ID="42", CI_JOB_TOKEN="job-token",
            CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main", CI_MERGE_REQUEST_IID="5",
            FAKE_LOG=str(folder / "calls.txt"), FAKE_ARTIFACT=str(main_folder),
        )  # fmt: skip

    main_env = env(main_folder, DRAUGHTS_ENGINE="oracle")
    assert gitlab_lines(job, "before_script", main_folder, main_env) == 0
    assert gitlab_lines(job, "script", main_folder, main_env) == 0, (tmp_path / "main-log.txt").read_text()
    assert gitlab_lines(job, "after_script", main_folder, main_env) == 0
    for path in job["artifacts"]["paths"]:
        assert (main_folder / path).is_dir()
    assert (main_folder / job["artifacts"]["reports"]["junit"]).is_file()
    assert "CERTIFIED" in (main_folder / "conformance-report" / "conformance.md").read_text(encoding="utf-8")

    merge_env = env(merge_folder, DRAUGHTS_NOTE_TOKEN="note-token")  # the engine: the settings file's mutant
    assert gitlab_lines(job, "script", merge_folder, merge_env) == 1
    assert gitlab_lines(job, "after_script", merge_folder, merge_env) == 0
    junit = ElementTree.parse(merge_folder / "conformance-report" / "conformance.xml").getroot()
    assert int(junit.get("failures") or 0) > 0
    diff_job = gitlab_job("draughts-conformance-diff")
    assert diff_job["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert gitlab_lines(diff_job, "script", merge_folder, merge_env) == 1  # a regression
    diff = (merge_folder / "conformance-report" / "diff.md").read_text(encoding="utf-8")
    assert "### Regressions" in diff
    calls = (merge_folder / "calls.txt").read_text(encoding="utf-8").splitlines()
    assert "jobs/artifacts/main/download?job=draughts-conformance" in calls[0]
    assert "merge_requests/5/notes" in calls[1]
    assert "body@conformance-report/diff.md" in calls[1]
    shutil.rmtree(merge_folder / "conformance-base")
