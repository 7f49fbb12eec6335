"""The pytest plugin: ``pytest --draughts-engine SPEC`` collects the corpus as test items."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subprocess finds the project whether or not it is installed."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def plugin_args() -> list[str]:
    """Load the plugin by module, and not a second time through its entry point (when installed)."""
    return ["-p", "no:draughts_conformance", "-p", "conformance.pytest_plugin"]


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


def test_a_baseline_makes_known_failures_xfail(pytester: pytest.Pytester) -> None:
    first = pytester.runpytest_subprocess(
        *plugin_args(),
        "--draughts-engine",
        "mutant:prefers-taking-kings",
        "--draughts-article",
        "4.14",
        "-rf",
    )
    failed = [
        line.split("::")[1].split(" ")[0] for line in first.stdout.lines if line.startswith("FAILED art-")
    ]
    assert failed
    pytester.makefile(".yaml", known="known:\n" + "".join(f"  - case: {case_id}\n" for case_id in failed))
    again = pytester.runpytest_subprocess(
        *plugin_args(),
        "--draughts-engine",
        "mutant:prefers-taking-kings",
        "--draughts-article",
        "4.14",
        "--draughts-baseline",
        "known.yaml",
    )
    assert again.ret == 0
    assert again.parseoutcomes()["xfailed"] == len(failed)


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
