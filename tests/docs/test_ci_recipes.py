"""docs/ci.md's recipes run: their shell commands, taken from the page's code blocks (the GitHub
workflow's ``run`` steps, the GitLab jobs' ``script`` lines, the baseline command), are run in a
temporary folder with the engine replaced by the oracle, a mutant or a template, and give the exit
statuses and files the page promises.

Two substitutions, because the test cannot reach the network: installing the suite is skipped (it is
installed where the test runs), and fetching the main branch's report (``gh run download``, ``curl``)
is replaced by copying a report made here by the same recipe."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "ci.md"
MUTANT = "mutant:men-capture-forward-only"
TEMPLATE = f"jsonl:{sys.executable} {REPO / 'conformance' / 'templates' / 'jsonl-python' / 'engine.py'}"


def code_blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def workflows() -> list[dict[str, Any]]:
    return [yaml.safe_load(block) for block in code_blocks("yaml")]


def github_steps() -> dict[str, str]:
    """The hand-written workflow's ``run`` steps by name (the other one uses the action)."""
    (workflow,) = [w for w in workflows() if "jobs" in w and "SUITE" in w.get("env", {})]
    (job,) = workflow["jobs"].values()
    return {step["name"]: step["run"] for step in job["steps"] if "run" in step}


def gitlab_jobs() -> dict[str, dict[str, Any]]:
    (pipeline,) = [w for w in workflows() if "conformance-diff" in w]
    return {name: job for name, job in pipeline.items() if isinstance(job, dict) and "script" in job}


def baseline_command() -> str:
    (command,) = [
        line for block in code_blocks("sh") for line in block.splitlines() if "--write-baseline" in line
    ]
    return command


@dataclass
class Runner:
    """Runs recipe commands in a folder, with the engine and the CI variables set."""

    folder: Path
    engine: str
    bin: Path
    main_report: Path | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            ENGINE=self.engine,
            SUITE="unused: the suite is installed here",
            GITHUB_STEP_SUMMARY=str(self.folder / "summary.md"),
            PATH=f"{self.bin}{os.pathsep}{env.get('PATH', '')}",
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        )
        return env

    def line(self, command: str) -> str:
        """The command to run for one line of a recipe (see the module's docstring)."""
        if command.startswith("python -m pip install"):
            return "true"
        if command.lstrip("'").startswith(("gh run download", "curl ")):
            assert self.main_report is not None, "no main-branch report to fetch"
            return f"mkdir -p main-report && cp {shlex.quote(str(self.main_report))} main-report/conformance.jsonl"
        return command

    def script(self, script: str) -> int:
        """A GitHub ``run`` step: one bash script, stopping at the first failure (bash -e)."""
        body = "\n".join(self.line(line) for line in script.splitlines())
        return self._bash(body)

    def lines(self, commands: list[str]) -> int:
        """A GitLab ``script``: each line in turn, the job failing at the first that fails."""
        for command in commands:
            status = self._bash(self.line(command.strip("'") if command.startswith("'") else command))
            if status:
                return status
        return 0

    def _bash(self, body: str) -> int:
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", body],
            cwd=self.folder,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        (self.folder / "log.txt").open("a").write(done.stdout + done.stderr)
        return done.returncode


@pytest.fixture
def shim(tmp_path: Path) -> Path:
    """``draughts-conformance`` on PATH, running this checkout's suite."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "draughts-conformance"
    script.write_text(
        f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m conformance "$@"\n', encoding="utf-8"
    )
    script.chmod(0o755)
    return folder


def runner(tmp_path: Path, shim: Path, name: str, engine: str, baseline_from: Path | None = None) -> Runner:
    folder = tmp_path / name
    folder.mkdir()
    found = Runner(folder, engine, shim)
    if baseline_from is None:
        assert found.script(baseline_command()) in (0, 1, 3)  # 1: it fails something; 3: it declines all
        assert (folder / "known-failures.yaml").is_file()
    else:
        shutil.copy(baseline_from / "known-failures.yaml", folder)
    return found


def test_the_page_holds_both_recipes_and_every_command() -> None:
    steps = github_steps()
    assert {
        "Install the suite",
        "Certify",
        "Fetch the main branch's report",
        "Compare with the main branch",
    } <= set(steps)
    assert "$GITHUB_STEP_SUMMARY" in steps["Certify"]
    jobs = gitlab_jobs()
    assert jobs["conformance"]["artifacts"]["reports"]["junit"] == "conformance.xml"
    assert any("draughts-conformance diff" in line for line in jobs["conformance-diff"]["script"])


def test_the_pull_request_steps_fail_on_a_regression_and_write_the_summary(
    tmp_path: Path, shim: Path
) -> None:
    """The two pull-request steps alone, on reports made here in-process (fast)."""
    from conformance.cli.main import main as cli

    reports = tmp_path / "reports"
    reports.mkdir()
    for name, engine in (("main", "oracle"), ("pull", MUTANT)):
        report = reports / f"{name}.jsonl"
        cli(
            [
                "run",
                engine,
                "--article",
                "4.1",
                "--report",
                str(report),
                "--format",
                "badge",
                "-o",
                str(tmp_path / "b"),
            ]
        )
    pull = Runner(tmp_path, MUTANT, shim, main_report=reports / "main.jsonl")
    shutil.copy(reports / "pull.jsonl", tmp_path / "conformance.jsonl")
    steps = github_steps()
    assert pull.script(steps["Fetch the main branch's report"]) == 0
    assert pull.script(steps["Compare with the main branch"]) == 1
    summary = (tmp_path / "summary.md").read_text()
    assert "### Regressions" in summary
    assert "| 4.1 | certified | failed :x: |" in summary
    shutil.copy(reports / "main.jsonl", tmp_path / "conformance.jsonl")
    assert pull.script(steps["Compare with the main branch"]) == 0


@pytest.mark.slow
def test_github_main_certifies_the_oracle_and_a_pull_request_with_a_regression_fails(
    tmp_path: Path, shim: Path
) -> None:
    steps = github_steps()
    main = runner(tmp_path, shim, "main", "oracle")
    assert (main.folder / "known-failures.yaml").read_text().endswith("known: []\n")
    assert main.script(steps["Certify"]) == 0, (main.folder / "log.txt").read_text()
    assert (main.folder / "conformance.xml").read_text().startswith("<?xml")
    summary = (main.folder / "summary.md").read_text()
    assert summary.startswith("## FMJD conformance: oracle")
    assert "CERTIFIED" in summary

    pull = runner(tmp_path, shim, "pull", MUTANT, baseline_from=main.folder)
    pull.main_report = main.folder / "conformance.jsonl"
    assert pull.script(steps["Certify"]) == 1
    assert ElementTree.parse(pull.folder / "conformance.xml").getroot().get("failures") != "0"
    assert pull.script(steps["Fetch the main branch's report"]) == 0
    assert pull.script(steps["Compare with the main branch"]) == 1
    summary = (pull.folder / "summary.md").read_text()
    assert "FAILED" in summary
    assert "### Regressions" in summary


@pytest.mark.slow
def test_github_known_failures_in_the_baseline_pass_and_a_template_is_not_certified(
    tmp_path: Path, shim: Path
) -> None:
    steps = github_steps()
    known = runner(tmp_path, shim, "known", MUTANT)
    assert "men-capture-forward-only" in (known.folder / "known-failures.yaml").read_text()
    assert known.script(steps["Certify"]) == 0
    template = runner(tmp_path, shim, "template", TEMPLATE)
    assert template.script(steps["Certify"]) == 3
    assert "NOT CERTIFIED" in (template.folder / "summary.md").read_text()
    broken = runner(tmp_path, shim, "broken", "oracle")
    broken.engine = "no-such-engine"
    assert broken.script(steps["Certify"]) == 2


@pytest.mark.slow
def test_gitlab_keeps_the_junit_and_markdown_and_a_merge_request_diff_fails(
    tmp_path: Path, shim: Path
) -> None:
    jobs = gitlab_jobs()
    main = runner(tmp_path, shim, "main", "oracle")
    assert main.lines(jobs["conformance"]["script"]) == 0
    assert main.lines(jobs["conformance"]["after_script"]) == 0
    for name in jobs["conformance"]["artifacts"]["paths"]:
        assert (main.folder / name).is_file(), name
    merge = runner(tmp_path, shim, "merge", MUTANT, baseline_from=main.folder)
    merge.main_report = main.folder / "conformance.jsonl"
    assert merge.lines(jobs["conformance"]["script"]) == 1
    assert merge.lines(jobs["conformance"]["after_script"]) == 0
    assert merge.lines(jobs["conformance-diff"]["script"]) == 1
    assert "### Regressions" in (merge.folder / "diff.md").read_text()
