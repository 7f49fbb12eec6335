"""Misbehaving in-process engines and careless command lines (issue 12, points 1, 6 and 8): each
ends in a recorded result for the question, or one clear line and exit status 2; never exit 0 with
results missing, never a traceback, never a stale report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hardening_support import cli

from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.harness.runner import RunOptions, run, select_cases

ROOT = Path(__file__).resolve().parents[2]

RAISING_ENGINE = """
import sys
from conformance.engines.oracle_engine import OracleEngine

class Engine(OracleEngine):
    def legal_moves(self, fen):
        if fen == {fen!r}:
            raise {exception}
        return super().legal_moves(fen)
"""


def one_line_error(done: subprocess.CompletedProcess[str], expected: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3, done.stderr


def some_case_fen() -> str:
    cases = select_cases(load_corpus(), RunOptions(articles=["4.13"]))
    return next(case.position for case in cases if any(q.kind == "legal_moves" for q in case.questions))


@pytest.mark.parametrize("exception", ["SystemExit(0)", "KeyboardInterrupt()", "GeneratorExit()"])
@pytest.mark.parametrize("workers", [1, 2])
def test_an_engine_that_exits_or_interrupts_on_one_position_gets_an_error_there_only(
    tmp_path: Path, exception: str, workers: int
) -> None:
    fen = some_case_fen()
    (tmp_path / "raising.py").write_text(
        RAISING_ENGINE.format(fen=fen, exception=exception), encoding="utf-8"
    )
    report = tmp_path / "run.jsonl"
    done = cli(
        "run",
        "python:raising:Engine",
        "--article",
        "4.13",
        "--workers",
        str(workers),
        "--report",
        str(report),
        "--format",
        "badge",
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    results = [Result.from_json(line) for line in lines if line["type"] == "result"]
    assert len(results) == lines[0]["questions"]  # every question got its result
    errors = [r for r in results if r.status is Status.ERROR]
    assert errors
    assert all(r.position == fen and r.question == "legal_moves" for r in errors)
    assert json.loads(done.stdout)["color"] == "red"


@pytest.mark.parametrize(
    ("module", "attribute", "expected"),
    [
        ("import sys\nsys.exit(0)\n", "Engine", "importing 'bad' raised SystemExit"),
        ("raise RuntimeError('broken at import')\n", "Engine", "raised RuntimeError: broken at import"),
        ("class Engine:\n    pass\n", "Engine", "it has no 'info'"),
        (
            "class Engine:\n    info = {'name': 'x', 'capabilities': ['nonsense']}\n",
            "Engine",
            "did not start",
        ),
        ("class Engine:\n    info = {'name': 'x', 'capabilities': 3}\n", "Engine", "did not start"),
        (
            "class Engine:\n    def __init__(self):\n        raise ValueError('no')\n",
            "Engine",
            "raised ValueError",
        ),
    ],
)
def test_a_broken_python_engine_is_a_usage_error(
    tmp_path: Path, module: str, attribute: str, expected: str
) -> None:
    (tmp_path / "bad.py").write_text(module, encoding="utf-8")
    one_line_error(cli("run", f"python:bad:{attribute}", cwd=tmp_path), expected)


def test_a_callable_that_is_not_an_engine_is_refused_without_being_called(tmp_path: Path) -> None:
    marker = tmp_path / "called"
    (tmp_path / "shell.py").write_text(
        f"def run(*args):\n    open({str(marker)!r}, 'w').write('x')\n", encoding="utf-8"
    )
    one_line_error(cli("run", "python:shell:run", cwd=tmp_path), "is not an engine")
    one_line_error(cli("run", "python:os:system", cwd=tmp_path), "python:os:system")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
@pytest.mark.parametrize(
    "command", [["run", "oracle"], ["verify", "--engine", "oracle"], ["bisect", "oracle"]]
)
def test_a_timeout_that_is_not_a_positive_finite_number_is_a_usage_error(
    tmp_path: Path, value: str, command: list[str]
) -> None:
    done = cli(*command, "--timeout", value, cwd=tmp_path)
    assert done.returncode == 2
    assert "--timeout" in done.stderr
    assert "Traceback" not in done.stderr


MARKER_ENGINE = """
open({marker!r}, "w").write("started")
from conformance.engines.oracle_engine import OracleEngine as Engine
"""


@pytest.mark.parametrize(
    ("option", "target", "expected"),
    [
        ("--report", "missing/run.jsonl", "the folder missing does not exist"),
        ("--report", ".", "it is a folder"),
        ("--write-baseline", "missing/known.yaml", "the folder missing does not exist"),
        ("-o", "missing/out.xml", "the folder missing does not exist"),
    ],
)
def test_an_unwritable_output_is_refused_before_the_engine_starts(
    tmp_path: Path, option: str, target: str, expected: str
) -> None:
    marker = tmp_path / "started"
    (tmp_path / "marked.py").write_text(MARKER_ENGINE.format(marker=str(marker)), encoding="utf-8")
    one_line_error(cli("run", "python:marked:Engine", option, target, cwd=tmp_path), expected)
    assert not marker.exists()


def test_a_failed_start_leaves_no_stale_report(tmp_path: Path) -> None:
    report = tmp_path / "run.jsonl"
    report.write_text('{"type": "header"}\n', encoding="utf-8")  # a report of an earlier run
    done = cli("run", "jsonl:/no/such/program", "--report", str(report), cwd=tmp_path)
    assert done.returncode == 2
    assert not report.exists()  # removed before the engine started; nothing written after
    assert not list(tmp_path.glob("run.jsonl*.partial"))


def test_an_unterminated_quote_in_a_command_is_a_usage_error(tmp_path: Path) -> None:
    one_line_error(cli("run", "jsonl:python -c 'print(1)", cwd=tmp_path), "quot")


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        f"{sys.executable} -m conformance list | head -1",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert len(done.stdout.splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert "BrokenPipe" not in done.stderr


def test_an_engine_exiting_is_an_error_result_in_process_too() -> None:
    from conformance.engines.oracle_engine import OracleEngine

    fen = some_case_fen()

    class Exits(OracleEngine):
        def legal_moves(self, position: str):  # type: ignore[no-untyped-def]
            if position == fen:
                raise SystemExit(3)
            return super().legal_moves(position)

    cases = select_cases(load_corpus(), RunOptions(articles=["4.13"]))
    results: list[Result] = []
    summary = run(cases, Exits, RunOptions(workers=2), results.append)
    assert len(results) == sum(len(case.questions) for case in cases)
    (error,) = [r for r in results if r.status is Status.ERROR]
    assert "exit (3)" in error.message
    assert summary.exit_status == 1


def test_the_docs_of_a_usage_error_name_the_spec() -> None:
    from conformance.engines.adapters.specs import SpecError, engine_factory

    with pytest.raises(SpecError, match="unknown engine spec"):
        engine_factory("nonsense")
    with pytest.raises(SpecError, match="No closing quotation"):
        engine_factory("hub:scan 'hub")
