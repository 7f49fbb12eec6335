"""What ``run`` tells its user on the way (issue 24): a progress line every few seconds in a log,
the command that reruns each failure under its panel, the case and question on each trace line,
and, when every question was declined, which operation to fill in first."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest
from support import REPO

from conformance.cli.main import main
from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, select_cases
from conformance.report import progress
from conformance.report.progress import RunProgress

JSONL_TEMPLATE = REPO / "conformance" / "templates" / "jsonl-python" / "engine.py"


def result(case: str, status: Status, article: str = "4.13") -> Result:
    return Result(case, "legal_moves", article, status, (), None)


def test_progress_lines_come_every_few_seconds_with_the_counts_and_the_rule() -> None:
    now = [0.0]
    out = io.StringIO()
    lines = RunProgress(10, stream=out, clock=lambda: now[0], every=5)
    lines.record(result("a", Status.PASS, "3.9"))
    lines.advance(1)
    assert out.getvalue() == ""  # not yet five seconds
    now[0] = 5.5
    lines.record(result("b", Status.FAIL, "4.13"))
    lines.advance(2)
    assert out.getvalue().splitlines() == [
        "run: 2/10 cases, 2 questions: 1 pass, 1 fail, 0 error, 0 skip, 0 unsupported; at 4.13 (6 s)"
    ]
    now[0] = 7.0
    lines.advance(3)
    assert len(out.getvalue().splitlines()) == 1
    lines.finish()
    assert out.getvalue().splitlines()[-1].startswith("run: done: 3/10 cases, 2 questions")


def test_a_run_that_said_nothing_says_nothing_at_the_end() -> None:
    out = io.StringIO()
    lines = RunProgress(1, stream=out, clock=lambda: 0.0)
    lines.advance(1)
    lines.finish()
    assert out.getvalue() == ""


def test_run_prints_progress_lines_in_a_log(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.0)
    assert main(["run", "oracle", "--article", "4.13", "--format", "badge"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("run: ")]
    assert err[0].startswith("run: 1/")
    assert err[-1].startswith("run: done: ")
    questions = sum(
        1 for case in select_cases(load_corpus(), RunOptions(articles=("4.13",))) for _ in question_keys(case)
    )
    assert f"{questions} pass" in err[-1]
    assert "at 4.13" in err[-1]
    assert main(["run", "oracle", "--article", "4.13", "--format", "badge", "--no-progress"]) == 0
    assert "run: " not in capsys.readouterr().err


def test_each_failure_panel_ends_with_the_command_that_reruns_just_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", "mutant:kings-step-one-square", "--article", "3.9", "--show", "2"]) == 1
    out = capsys.readouterr().out
    reruns = [line.strip("│ ").strip() for line in out.splitlines() if "rerun: " in line]
    assert len(reruns) == 2
    command = shlex.split(reruns[0].removeprefix("rerun: "))
    assert command[:3] == ["draughts-conformance", "run", "mutant:kings-step-one-square"]
    case = command[command.index("--case") + 1]
    assert f"FAIL {case} " in out
    # the command runs that one case, and it fails again
    assert main([*command[1:], "--format", "json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {line["case"] for line in lines if line.get("type") == "result"} == {case}


def test_trace_lines_carry_the_case_and_question_asked(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    spec = "jsonl:" + shlex.join([sys.executable, "-m", "conformance.servers.oracle_jsonl"])
    assert main(["run", spec, "--article", "4.13", "--trace", str(trace), "--format", "badge"]) == 0
    positions = {case.id: case.position for case in load_corpus().cases}
    requests = 0
    for line in trace.read_text(encoding="utf-8").splitlines():
        if ' > {"type":"request"' not in line:
            continue
        about = line.split(" [", 1)[1].split("] > ", 1)[0]
        case, _, question = about.partition(" ")  # a question, or "sent ahead" (the engine pipelines)
        assert question in ("legal_moves", "sent ahead"), line
        request = json.loads(line.split("] > ", 1)[1])
        if request["op"] == "legal_moves":
            assert request["fen"] == positions[case], line
        requests += 1
    assert requests >= 17


def test_an_engine_that_declines_everything_is_told_what_to_fill_in_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = "jsonl:" + shlex.join([sys.executable, str(JSONL_TEMPLATE)])
    assert main(["run", spec]) == 3
    out = capsys.readouterr().out.splitlines()
    advice = " ".join(out[-3:-1])
    assert "Nothing answered yet" in advice
    assert "Fill in legal_moves first" in advice
    assert out[-1].startswith("my-engine 0.1: NOT CERTIFIED")  # the summary stays the last line
    assert main(["run", "mutant:kings-step-one-square", "--article", "3.9"]) == 1
    assert "Nothing answered yet" not in capsys.readouterr().out
