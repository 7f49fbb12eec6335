"""Misbehaving engines over the JSON-lines adapter: each misbehaviour gives the right result.

The fakes (``tests/harness/fakes/``) crash, hang, print garbage, answer wrongly, answer slowly or
break the protocol. Through :func:`conformance.harness.evaluate.ask` each must give the right ``error``
kind (or a ``fail`` for a wrong answer), keep the engine's stderr, and never stop the run: the
engine is restarted on the next question, within its restart budget.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support import assert_error, is_running

from conformance.core.corpus import (
    Case,
    FenQuestion,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveSpec,
    PerftQuestion,
    Question,
)
from conformance.core.protocol import EngineError
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl import STDERR_SHOWN_CHARS, JsonlEngine
from conformance.harness.evaluate import ask

FAKES = Path(__file__).parent / "fakes"

# A white man on 28 next to a black man on 33: the man captures backward (Art. 4.1) and capture is
# compulsory (4.2), so 28x39 taking 33 is the only legal move. (28 is in an odd row: its SE
# neighbour is 33, and the square behind 33 in that direction is 39.)
POSITION = "W:W28:B33"
LEGAL_MOVES = LegalMovesQuestion(frozenset({MoveSpec(28, 39, frozenset({33}))}))
FEN = FenQuestion(valid=True)


def fake(name: str, *args: str, **options: Any) -> JsonlEngine:
    return JsonlEngine([sys.executable, str(FAKES / f"{name}.py"), *args], **options)


def question(engine: JsonlEngine, asked: Question, position: str = POSITION) -> Result:
    case = Case(
        id="harness-fake",
        article="4.1",
        description="a question for a fake engine",
        source="constructed",
        position=position,
        questions=(asked,),
        file="test_jsonl_fakes.py",
        line=1,
        topic="fakes",
    )
    return ask(engine, case, asked.kind, asked)


# -- crash ---------------------------------------------------------------------------------------


def test_a_crash_is_an_error_with_stderr_and_exit_status_and_the_run_goes_on() -> None:
    with fake("crash", "--op", "legal_moves") as engine:
        crashed = question(engine, LEGAL_MOVES)
        assert_error(crashed, "crash", "exited (exit status 3) while answering legal_moves (seq 1)")
        assert crashed.error is not None
        assert "cannot cope with legal_moves" in crashed.error.stderr
        assert "exit status 3]" in crashed.error.stderr
        assert question(engine, FEN).status is Status.PASS  # restarted
        assert engine.restarts == 1


def test_a_crash_by_signal_names_the_signal() -> None:
    with fake("crash", "--op", "fen", "--signal") as engine:
        assert_error(question(engine, FEN), "crash", "SIGABRT")


def test_the_restart_budget_is_honoured() -> None:
    with fake("crash", "--op", "legal_moves", restart_budget=2) as engine:
        for _ in range(3):  # the first start, then two restarts: each crashes
            assert_error(question(engine, LEGAL_MOVES), "crash", "exit status 3")
        assert engine.restarts == 2
        for asked in (FEN, LEGAL_MOVES):
            assert_error(question(engine, asked), "crash", "restart budget exhausted")
        assert engine.restarts == 2


def test_stderr_is_kept_bounded() -> None:
    with fake("crash", "--op", "legal_moves", "--noise", str(1_000_000)) as engine:
        result = question(engine, LEGAL_MOVES)
    assert result.error is not None
    assert STDERR_SHOWN_CHARS < len(result.error.stderr) < STDERR_SHOWN_CHARS + 200
    assert result.error.stderr.startswith("[... ")
    assert "cannot cope with legal_moves" in result.error.stderr  # the most recent part is kept


# -- hang and slow answers -----------------------------------------------------------------------------


def test_a_hang_times_out_kills_the_process_group_and_the_run_goes_on() -> None:
    with fake("hang", "--op", "legal_moves", "--child", timeout=1.0) as engine:
        started = time.monotonic()
        hung = question(engine, LEGAL_MOVES)
        elapsed = time.monotonic() - started
        assert_error(hung, "timeout", "no answer to legal_moves", "within 1 s", "process group was killed")
        assert 1.0 <= elapsed < 5.0
        assert hung.error is not None
        assert "thinking about legal_moves forever" in hung.error.stderr
        assert "SIGKILL" in hung.error.stderr
        child = int(hung.error.stderr.split("child pid ")[1].split()[0])
        deadline = time.monotonic() + 5
        while is_running(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not is_running(child), "the engine's child survived the timeout"
        assert question(engine, FEN).status is Status.PASS
        assert engine.restarts == 1


def test_an_engine_that_stops_reading_cannot_block_the_harness() -> None:
    with fake("deaf", timeout=0.5) as engine:
        started = time.monotonic()
        with pytest.raises(EngineError) as raised:
            engine.play("W:W31-50:B1-20", ["32-28"] * 30_000)  # a request larger than a pipe holds
        assert raised.value.kind == "timeout"
        assert time.monotonic() - started < 5


def test_a_slow_answer_within_the_timeout_passes() -> None:
    with fake("slow", "--delay", "0.3", timeout=1.5) as engine:
        result = question(engine, FEN)
    assert result.status is Status.PASS, result
    assert result.duration_ms >= 300


def test_a_slow_answer_past_the_timeout_is_a_timeout() -> None:
    with fake("slow", "--delay", "1.5", timeout=0.3) as engine:
        assert_error(question(engine, FEN), "timeout", "within 0.3 s")


# -- wrong answers, refusals, errors -------------------------------------------------------------------


def test_a_wrong_captured_set_is_a_fail_not_an_error() -> None:
    with fake("wrong_captures") as engine:
        result = question(engine, LEGAL_MOVES)
        assert result.status is Status.FAIL, result
        assert result.message == "missing: 28x39 {33}; extra: 28x39 {39}"
        assert result.got == ["28x39 {39}"]
        assert engine.restarts == 0


def test_a_declined_question_is_a_skip_and_an_undeclared_one_unsupported() -> None:
    with fake("wrong_captures") as engine:
        declined = question(engine, LEGAL_MOVES, position="W:W31-50:B1-20")
        assert declined.status is Status.SKIP
        assert "unknown position" in declined.message
        assert question(engine, FEN, position="W:W31-50:B1-20").status is Status.PASS  # still running
        unsupported = question(engine, PerftQuestion((9,)))  # the fakes do not declare perft
        assert unsupported.status is Status.UNSUPPORTED
        assert engine.restarts == 0


def test_an_error_response_is_an_exception_and_the_engine_goes_on() -> None:
    with fake("slow", "--delay", "0") as engine:
        result = question(engine, MoveCountQuestion(1))
        assert_error(result, "exception", "the move counter is broken")
        assert result.error is not None
        assert "move_count failed" in result.error.stderr
        assert question(engine, FEN).status is Status.PASS
        assert engine.restarts == 0


# -- garbage and protocol violations ---------------------------------------------------------------------


def test_garbage_instead_of_an_answer_is_a_protocol_error() -> None:
    with fake("garbage", restart_budget=5) as engine:
        first = question(engine, LEGAL_MOVES)
        assert_error(first, "protocol", "not UTF-8 JSON", "Position evaluated")
        assert first.error is not None
        assert "about to print garbage for seq 1" in first.error.stderr
        assert_error(question(engine, FEN), "protocol", "not UTF-8 JSON")
        assert engine.restarts == 1


@pytest.mark.parametrize(
    ("violation", "fragment"),
    [
        ("wrong-seq", "carries seq 2 instead of 1"),
        ("log-line", "not UTF-8 JSON: 'info: thinking about it'"),
    ],
)
def test_a_broken_response_is_a_protocol_error(violation: str, fragment: str) -> None:
    with fake("protocol", "--violation", violation) as engine:
        assert_error(question(engine, FEN), "protocol", fragment)
        assert question(engine, FEN).status is Status.ERROR  # restarted, and broken again
        assert engine.restarts == 1


def test_extra_output_lines_are_a_protocol_error() -> None:
    with fake("protocol", "--violation", "extra-line") as engine:
        assert question(engine, FEN).status is Status.PASS
        second = question(engine, FEN)
    # Depending on timing the extra line is seen before the next request is sent, or read in
    # place of its answer; either way it is reported as a protocol violation.
    assert second.error is not None
    assert second.error.kind == "protocol"
    assert "output nobody asked for after its response to fen (seq 1)" in second.message or (
        "carries seq 1 instead of 2" in second.message
    )


def test_an_answer_outside_the_schema_is_a_protocol_error_and_keeps_the_engine() -> None:
    with fake("protocol", "--violation", "bad-schema") as engine:
        moves = question(engine, LEGAL_MOVES)
        assert_error(moves, "protocol", "the response to legal_moves (seq 1) is malformed", "moves/0")
        assert_error(question(engine, FEN), "protocol", "valid: 'yes' is not of type 'boolean'")
        assert engine.restarts == 0


@pytest.mark.parametrize(
    ("script", "args", "fragments"),
    [
        ("protocol", ["--violation", "missing-start"], ["no 'started' line within 0.5 s"]),
        ("protocol", ["--violation", "wrong-version"], ["speaks protocol 2; this harness speaks protocol 1"]),
        ("protocol", ["--violation", "started-schema"], ["not a valid 'started' message", "capabilities/1"]),
        ("garbage", ["--at-start"], ["not UTF-8 JSON", "hello, I am an engine"]),
        ("exit_at_start", [], ["exited before answering 'start' (exit status 1)"]),
    ],
)
def test_a_failed_start_exchange_is_a_start_error(script: str, args: list[str], fragments: list[str]) -> None:
    with pytest.raises(EngineError) as raised:
        # a short wait only where nothing will come: a loaded machine may start Python slower than that
        fake(script, *args, start_timeout=0.5 if "missing-start" in args else 10)
    assert raised.value.kind == "start"
    for fragment in fragments:
        assert fragment in raised.value.message
    if script == "exit_at_start":
        assert "cannot open the opening book" in raised.value.stderr


def test_a_command_that_cannot_run_is_a_start_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError) as raised:
        JsonlEngine(str(tmp_path / "no-such-engine"))
    assert raised.value.kind == "start"
    assert "cannot run the engine command" in raised.value.message


# -- a run through misbehaviour, and closing -----------------------------------------------------------


def test_a_run_goes_on_through_crashes() -> None:
    with fake("crash", "--op", "legal_moves", restart_budget=10) as engine:
        statuses = [question(engine, asked).status for asked in (LEGAL_MOVES, FEN, LEGAL_MOVES, FEN, FEN)]
    assert statuses == [Status.ERROR, Status.PASS, Status.ERROR, Status.PASS, Status.PASS]


def test_close_stops_the_engine_and_later_requests_are_errors() -> None:
    engine = fake("slow", "--delay", "0")
    assert question(engine, FEN).status is Status.PASS
    process = engine._process
    assert process is not None
    engine.close()
    engine.close()  # closing twice is harmless
    assert process.popen.returncode is not None
    assert not is_running(process.popen.pid)
    assert_error(question(engine, FEN), "crash", "closed")


def test_a_shell_command_line_runs_through_the_shell() -> None:
    command = f"exec {sys.executable} {FAKES / 'slow.py'} --delay $((0))"
    with JsonlEngine(command, shell=True) as engine:
        assert engine.info.adapter == f"jsonl:{command}"
        assert question(engine, FEN).status is Status.PASS


def test_env_and_cwd_reach_the_engine(tmp_path: Path) -> None:
    script = tmp_path / "env_engine.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(FAKES)!r})\n"
        "from _fake import serve\n"
        "serve(lambda r: {'valid': True, 'position': os.environ['FAKE_FEN'] + ':' + os.path.basename(os.getcwd())})\n",
        encoding="utf-8",
    )
    with JsonlEngine([sys.executable, str(script)], env={"FAKE_FEN": "W"}, cwd=tmp_path) as engine:
        assert engine.fen(POSITION).position == f"W:{tmp_path.name}"
    assert os.environ.get("FAKE_FEN") is None
