"""The pytest plugin: ``pytest --draughts-engine SPEC`` collects the corpus as test items."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.report import read_report
from conformance.report.text import defects

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subprocess finds the project whether or not it is installed."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def plugin_args() -> list[str]:
    """Load the plugin by module, and not a second time through its entry point (when installed)."""
    return ["-p", "no:draughts_conformance", "-p", "conformance.harness.pytest_plugin"]


def test_each_case_is_an_item_named_by_its_id_grouped_by_article(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(
        *plugin_args(), "--draughts-engine", "oracle", "--draughts-article", "4.14", "--collect-only", "-q"
    )
    lines = result.stdout.lines
    assert "art-4.14::4.14-no-preference-for-taking-a-king" in lines, lines
    items = [line for line in lines if "::" in line]
    assert items
    # every item checks 4.14, filed under the article or under the reading it rests on
    assert all(line.startswith(("art-4.14::", "reading-")) for line in items), items
    assert not any("4.13-three-men-beat-two-kings" in line for line in lines)


def test_the_oracle_passes_and_a_mutant_fails_with_the_details(pytester: pytest.Pytester) -> None:
    passing = pytester.runpytest_subprocess(
        *plugin_args(), "--draughts-engine", "oracle", "--draughts-article", "4.14"
    )
    assert passing.ret == 0
    assert passing.parseoutcomes()["passed"] >= 6

    failing = pytester.runpytest_subprocess(
        *plugin_args(),
        "--draughts-engine",
        "mutant:prefers-taking-kings",
        "--draughts-article",
        "4.14",
        "--junitxml=out.xml",
    )
    assert failing.ret == 1
    assert failing.parseoutcomes()["failed"] >= 1
    failing.stdout.fnmatch_lines(["*4.14-no-preference-for-taking-a-king*", "*missing:*"])
    assert (pytester.path / "out.xml").read_text().count("<failure") == failing.parseoutcomes()["failed"]


def test_a_baseline_marks_known_failures_which_xfail_only_when_accepted(pytester: pytest.Pytester) -> None:
    engine = ("--draughts-engine", "mutant:prefers-taking-kings", "--draughts-article", "4")
    first = pytester.runpytest_subprocess(*plugin_args(), *engine, "-rf")
    assert first.ret == 1
    failed = first.parseoutcomes()["failed"]
    written = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            engine[1],
            "--article",
            "4",
            "--write-baseline",
            "known.yaml",
        ],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert written.returncode == 1, written.stderr
    known = pytester.runpytest_subprocess(*plugin_args(), *engine, "--draughts-baseline", "known.yaml")
    assert known.ret == 1  # known failures still fail their rule: the run is "FAILED, N known"
    assert known.parseoutcomes()["failed"] == failed
    known.stdout.fnmatch_lines(
        ["*(known: listed in the baseline)*", "prefers-taking-kings 0.1.0: FAILED, * known, at *"]
    )
    accepted = pytester.runpytest_subprocess(
        *plugin_args(), *engine, "--draughts-baseline", "known.yaml", "--draughts-accept-known"
    )
    assert accepted.ret == 0
    assert accepted.parseoutcomes()["xfailed"] == failed
    accepted.stdout.fnmatch_lines(["prefers-taking-kings 0.1.0: FAILED, * known (accepted), at *"])


def test_an_engine_that_declines_every_question_is_not_certified(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        engine=(ROOT / "examples" / "python-inprocess" / "engine.py").read_text(encoding="utf-8")
    )
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(*plugin_args(), "--draughts-engine", "python:engine:Engine")
    assert result.parseoutcomes() == {"skipped": result.parseoutcomes()["skipped"]}  # nothing fails...
    assert result.ret == 3  # ...and nothing is certified: the same exit status as run
    result.stdout.fnmatch_lines(["my-engine 0.1: NOT CERTIFIED: rules * not covered; *0/* questions pass*"])


def test_the_plugin_shows_the_defects_and_blocked_failures_and_headline_of_run(
    pytester: pytest.Pytester,
) -> None:
    engine = "mutant:short-kings"
    ran = subprocess.run(
        [sys.executable, "-m", "conformance", "run", engine, "--no-progress", "--report", "run.jsonl"],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 1, ran.stderr
    report = read_report(pytester.path / "run.jsonl")
    found, blocked = defects(report, report.certificate())
    assert found
    assert blocked
    result = pytester.runpytest_subprocess(*plugin_args(), "--draughts-engine", engine, "-rs")
    assert result.ret == 1
    lines = result.stdout.lines
    assert ran.stdout.strip().splitlines()[-1] in lines  # the very headline of run
    assert f"Defects ({len(found)} distinct):" in lines
    for defect in found:
        assert any(
            line.startswith(f"  {defect.rule}: {defect.what} ({len(defect.new)} new;") for line in lines
        )
    assert any(line.startswith(f"{len(blocked)} failure(s) in ") for line in lines)
    # an item fails for a defect of its case; a case whose failures are all blocked is skipped, saying why
    held = {(r.case, r.question) for r in blocked}
    defective = {r.case for d in found for r in d.results if (r.case, r.question) not in held}
    assert result.parseoutcomes()["failed"] == len(defective)
    result.stdout.fnmatch_lines(["*blocked by *(failed directly)*"])


def test_without_the_option_the_plugin_collects_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess(*plugin_args())
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--draughts-engine", "bogus:x"],
            "ERROR: --draughts-engine 'bogus:x': unknown engine spec 'bogus:x'*",
        ),
        (["--draughts-engine", "python:no_such_module:Engine"], "ERROR: --draughts-engine *cannot import*"),
        (
            ["--draughts-engine", "oracle", "--draughts-baseline", "missing.yaml"],
            "ERROR: --draughts-baseline 'missing.yaml': *",
        ),
        (
            ["--draughts-engine", "oracle", "--draughts-corpus", "no-such-dir"],
            "ERROR: --draughts-corpus 'no-such-dir': *",
        ),
        (
            ["--draughts-engine", "oracle", "--draughts-rules", "chess"],
            "ERROR: --draughts-rules 'chess': *no such built-in rule set*",
        ),
    ],
)
def test_a_bad_option_is_one_usage_error_line(
    pytester: pytest.Pytester, options: list[str], message: str
) -> None:
    result = pytester.runpytest_subprocess(*plugin_args(), *options)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    output = "\n".join(result.outlines + result.errlines)
    assert "INTERNALERROR" not in output
    assert "Traceback" not in output


BROKEN_ENGINE = """
class Engine:
    def __init__(self):
        raise RuntimeError("no licence file found")
"""


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("jsonl:/no/such/engine --flag", "*cannot run the engine command*No such file*"),
        ("python:broken_engine:Engine", "*RuntimeError: no licence file found*"),
    ],
)
def test_an_engine_that_cannot_start_stops_the_session_in_one_line(
    pytester: pytest.Pytester, spec: str, reason: str
) -> None:
    pytester.makepyfile(broken_engine=BROKEN_ENGINE)
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(
        *plugin_args(), "--draughts-engine", spec, "--draughts-article", "4.13"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stdout.fnmatch_lines([f"*Exit: --draughts-engine '{spec}': the engine did not start: {reason}"])
    output = "\n".join(result.outlines + result.errlines)
    assert "FAILED" not in output
    assert "Traceback" not in output
    assert "INTERNALERROR" not in output
    assert len(output.splitlines()) < 30


def test_a_certified_engine_never_hides_another_tests_failure(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_mine():\n    assert 1 == 2\n")
    result = pytester.runpytest_subprocess(
        *plugin_args(), "--draughts-engine", "oracle", "--draughts-article", "4.14"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["oracle 0.1.0: CERTIFIED at rules level: *"])


def test_the_game_certified_comes_from_the_option_or_the_ini_file(pytester: pytest.Pytester) -> None:
    """``--draughts-rules russian``: the Russian corpus, its cases grouped under the Russian
    articles, the engine started for Russian; the oracle passes, a mutant playing maximum capture
    fails under fsr 1.5.14 only. ``draughts_rules`` in the ini file does the same."""
    russian = ("--draughts-engine", "oracle", "--draughts-rules", "russian")
    passing = pytester.runpytest_subprocess(*plugin_args(), *russian, "-v")
    assert passing.ret == 0
    items = [line.split()[0] for line in passing.stdout.lines if " PASSED" in line]
    assert "art-fsr:1.5.14::russian-1.5.14-man-takes-one-instead-of-two" in items, items
    assert not any("4.13" in item for item in items)
    passing.stdout.fnmatch_lines(["*oracle 0.1.0: CERTIFIED for russian at rules level*"])

    pytester.makeini("[pytest]\ndraughts_rules = russian\n")
    failing = pytester.runpytest_subprocess(
        *plugin_args(), "--draughts-engine", "mutant:maximum-capture-choice"
    )
    assert failing.ret == 1
    failed = [line for line in failing.stdout.lines if line.startswith("FAILED ")]
    assert failed
    assert all(line.startswith("FAILED art-fsr:1.5.14::") for line in failed), failed
    failing.stdout.fnmatch_lines(["*  fsr:1.5.14: *", "*maximum-capture-choice 0.1.0: FAILED for russian*"])
