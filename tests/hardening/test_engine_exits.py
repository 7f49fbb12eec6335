"""An engine that ends its process never ends a door in exit 0 with nothing said (issue 23): a
``python:`` engine runs in a child process of its own (``conformance.servers.python_host``), so
``os._exit(0)`` or a signal in it ends only that child -- an ``error`` of the question it was
answering, the engine started again within the restart budget -- through ``run``, ``verify`` and the
pytest plugin alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hardening_support import cli, pytest_session

from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.harness.runner import RunOptions, select_cases


def results_of(report: Path) -> tuple[dict[str, object], list[Result]]:
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    return lines[0], [Result.from_json(line) for line in lines if line["type"] == "result"]


@pytest.mark.parametrize("engine", ["ExitsZero", "KillsItself"])
def test_run_reports_an_engine_that_ends_its_process_as_errors(tmp_path: Path, engine: str) -> None:
    report = tmp_path / "run.jsonl"
    done = cli("run", f"python:exiting:{engine}", "--article", "4.13", "--report", str(report), cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED" in done.stdout
    header, results = results_of(report)
    assert len(results) == header["questions"]
    errors = [r for r in results if r.status is Status.ERROR]
    exited = [r for r in errors if "the engine exited" in r.message]
    assert exited
    assert all(r.question == "legal_moves" for r in exited)
    assert all(r in exited or "restart budget exhausted" in r.message for r in errors)
    assert not [r for r in results if r.question == "legal_moves" and r.status is Status.PASS]
    assert header["engine"]["adapter"] == f"python:exiting:{engine}"  # type: ignore[index]


def test_an_engine_ending_its_process_on_one_position_costs_that_question_only(tmp_path: Path) -> None:
    cases = select_cases(load_corpus(), RunOptions(articles=["4.13"]))
    fen = next(c.position for c in cases if any(q.kind == "legal_moves" for q in c.questions))
    report = tmp_path / "run.jsonl"
    done = cli(
        "run",
        "python:exiting:ExitsAtOnePosition",
        "--article",
        "4.13",
        "--report",
        str(report),
        cwd=tmp_path,
        env={"EXIT_AT_FEN": fen},
    )
    assert done.returncode == 1, done.stderr
    _, results = results_of(report)
    errors = [r for r in results if r.status is Status.ERROR]
    assert errors
    assert all(r.position == fen and r.question == "legal_moves" for r in errors)
    assert all(r.status is Status.PASS for r in results if r.position != fen)


def test_verify_reports_an_engine_that_ends_its_process_as_errors(tmp_path: Path) -> None:
    report = tmp_path / "verify.jsonl"
    done = cli(
        "verify", "--engine", "python:exiting:ExitsZero", "-n", "3", "--report", str(report), cwd=tmp_path
    )
    assert done.returncode == 1, done.stdout + done.stderr
    _, results = results_of(report)
    assert any(r.status is Status.ERROR and "the engine exited" in r.message for r in results)


def test_the_pytest_plugin_reports_an_engine_that_ends_its_process_as_failures(tmp_path: Path) -> None:
    done = pytest_session(
        "--draughts-engine", "python:exiting:ExitsZero", "--draughts-article", "4.13", cwd=tmp_path
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "failed" in done.stdout
    assert "the engine exited" in done.stdout


def test_an_engine_module_that_ends_the_process_importing_it_did_not_start(tmp_path: Path) -> None:
    report = tmp_path / "run.jsonl"
    done = cli("run", "python:exits_at_import:Engine", "--report", str(report), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "did not start" in done.stderr
    assert "Traceback" not in done.stderr
    assert not report.exists()
