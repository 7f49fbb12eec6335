"""``verify`` shrinks the engine's errors (issue 13): a crash, garbage, a hang or an exception on a
position is shrunk while the same request fails the same way, reported last, each kind once; the
run's report is the same as without shrinking, and a correct engine is unaffected. Real engines:
the misbehaving JSON-lines fakes (tests/harness/fakes/faulty.py) and the oracle with one fault."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from conformance.core.corpus import MoveSpec
from conformance.core.protocol import Engine
from conformance.core.results import ErrorInfo, Status
from conformance.engines.adapters.specs import EngineRecipe, engine_factory
from conformance.engines.adapters.trace import Trace
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify import shrink_errors
from conformance.verify.asking import EngineFailed
from conformance.verify.generate import VerifyOptions
from conformance.verify.jumps import capture_graphs
from conformance.verify.run import VerifyRun, verify
from conformance.verify.shrink_errors import ERROR_SHRINK_TRIES, REFUSED, Fault, stem
from oracle.position import Color, Position

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
FAULTY = REPO / "tests" / "harness" / "fakes" / "faulty.py"
TIMINGS = ("duration_ms", "duration_s", "started", "finished")


def faulty(option: str) -> str:
    return f"jsonl:{PY} {FAULTY} {option}"


def pieces(position: Position) -> int:
    return sum(position.count(color) for color in Color)


def has_king(position: Position) -> bool:
    return any(position.kings(color) for color in Color)


def statuses(run: VerifyRun) -> list[tuple[str, str, str]]:
    return [(r.case, r.question or "", r.status.value) for r in run.results]


class KingAllergy(OracleEngine):
    """The oracle, but its legal_moves raises on any position with a king (an in-process bug)."""

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        if has_king(Position.from_fen(fen)):
            raise KeyError(f"no table for kings in {fen}")
        return super().legal_moves(fen)


def test_the_stem_leaves_out_numbers_and_quoted_output() -> None:
    one = "legal_moves: the engine exited (exit status 3) while answering legal_moves (seq 7)"
    two = "legal_moves: the engine exited (exit status 11) while answering legal_moves (seq 102)"
    assert (
        stem(one)
        == stem(two)
        == ("legal_moves: the engine exited (exit status N) while answering legal_moves (seq N)")
    )
    garbage = "play: the answer to play (seq 2) is not UTF-8 JSON: 'eval +0.35'"
    assert (
        stem(garbage)
        == stem(garbage.replace("+0.35", "-1.2 W:W31"))
        == ("play: the answer to play (seq N) is not UTF-N JSON:")
    )
    assert "engine's process group" in stem("x: no answer within 1 s; the engine's process group was killed")
    assert stem(one) != stem(one.replace("legal_moves", "play"))


def test_faults_that_are_not_the_positions_doing_are_not_shrunk() -> None:
    def failed(status: Status, message: str, kind: str | None) -> EngineFailed:
        return EngineFailed(status, message, ErrorInfo(kind, message) if kind else None)

    assert Fault.of(failed(Status.SKIP, "legal_moves: declined", None)) is None
    assert Fault.of(failed(Status.ERROR, "legal_moves: restart budget exhausted (3 of 3)", "crash")) is None
    assert Fault.of(failed(Status.ERROR, "legal_moves: restart 1 of 3 failed: gone", "start")) is None
    refusal = Fault.of(failed(Status.FAIL, "play: the engine refused a legal move: 32-28", None))
    assert refusal is not None
    assert (refusal.status, refusal.kind) == (Status.FAIL, REFUSED)
    crash = Fault.of(failed(Status.ERROR, "legal_moves: the engine exited (exit status 3)", "crash"))
    assert crash is not None
    assert "crashed" in crash.describe()


def test_a_crash_on_kings_is_shrunk_to_a_small_position_with_a_king(tmp_path: Path) -> None:
    options = VerifyOptions(examples=6, seed=0, z3=False)
    with Trace.open(tmp_path / "trace.txt") as trace:
        run = verify(engine_factory(faulty("--crash-on-king"), trace=trace), options)
    unshrunk = verify(engine_factory(faulty("--crash-on-king")), dataclasses.replace(options, shrink=0))
    assert run.errors, "the crashes are shrunk"
    assert unshrunk.errors == []
    assert statuses(run) == statuses(unshrunk), "shrinking does not spend the run's restarts"
    assert len({error.fault for error in run.errors}) == len(run.errors), "each kind of error once"
    first = run.errors[0]
    assert first.fault.kind == "crash"
    assert first.check.startswith("legal_moves")
    assert has_king(first.position)
    assert pieces(first.position) == 2, first.text()
    assert first.shrunk.minimal
    assert "the engine exited (exit status 3) while answering legal_moves" in first.message
    text = first.text()
    assert "crashed" in text
    assert f"faulty: a king on the board of {first.position.fen()}" in text, (
        "its stderr, on the shrunk position"
    )
    assert f"FEN {first.position.fen()}" in text
    assert first.shrunk.tries <= ERROR_SHRINK_TRIES
    # The shrinking engine is a second one, in the same trace.
    engines = {line.split()[1:3][1] for line in (tmp_path / "trace.txt").read_text().splitlines()[1:]}
    assert len(engines) >= 3, "the run's engine (and its restarts) and the shrinking one"


def test_garbage_when_a_capture_exists_is_shrunk_to_a_small_capture() -> None:
    run = verify(engine_factory(faulty("--garbage-on-capture")), VerifyOptions(examples=6, seed=0, z3=False))
    assert run.errors
    for error in run.errors:
        assert error.fault.kind == "protocol"
        assert "is not UTF-8 JSON: 'capture found, thinking... (not JSON)'" in error.message
        assert "answered outside the protocol" in error.text()
    legal = next(error for error in run.errors if error.check.startswith("legal_moves"))
    assert pieces(legal.position) == 2, legal.text()
    assert capture_graphs(legal.position), "the side to move can capture"


def test_an_in_process_exception_is_shrunk_and_a_correct_engine_is_unaffected() -> None:
    options = VerifyOptions(examples=8, seed=2, z3=False)
    run = verify(KingAllergy, options)
    assert run.errors
    kinds = {(error.fault.kind, error.fault.stem) for error in run.errors}
    assert ("exception", "legal_moves: KeyError:") in kinds
    error = next(e for e in run.errors if e.fault.stem == "legal_moves: KeyError:")
    assert has_king(error.position)
    assert pieces(error.position) == 2
    assert f"no table for kings in {error.position.fen()}" in error.message
    correct = verify(OracleEngine, options)
    assert correct.errors == []
    assert correct.exit_status == 0


def test_shrinking_a_hang_is_capped_and_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shrink_errors, "HANG_SECONDS", 1.0)
    options = VerifyOptions(examples=2, seed=0, z3=False, plays=0, engine_timeout=0.5)
    run = verify(engine_factory(faulty("--hang-on-king"), timeout=0.5), options)
    assert len(run.errors) == 1
    (hang,) = run.errors
    assert hang.fault.kind == "timeout"
    assert "did not answer in time" in hang.text()
    assert "stopped after 2 time-outs of 0.5 s" in hang.note
    assert "not minimal" in hang.text()
    monkeypatch.setattr(shrink_errors, "HANG_SECONDS", 0.2)
    skipped = verify(engine_factory(faulty("--hang-on-king"), timeout=0.5), options)
    (hang,) = skipped.errors
    assert hang.shrunk.tries == 0
    assert hang.position == hang.original
    assert "not shrunk: each try would wait the 0.5 s time-out" in hang.text()


@pytest.mark.slow  # two verify runs with engine restarts: about 15 s
def test_two_workers_shrink_the_same_errors_as_one() -> None:
    options = VerifyOptions(examples=6, seed=0, z3=False)
    recipe = EngineRecipe(faulty("--crash-on-king"))
    one = verify(recipe, options)
    two = verify(recipe, options, workers=2)

    def shrunk(run: VerifyRun) -> list[tuple[Any, ...]]:
        return [(e.case, e.check, e.fault, e.position) for e in run.errors]

    assert one.errors
    assert shrunk(two) == shrunk(one)


def test_the_command_prints_the_shrunk_errors_last(tmp_path: Path) -> None:
    done = subprocess.run(
        [PY, "-m", "conformance", "verify", "--engine", faulty("--crash-on-king"), "-n", "6", "--no-z3"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1
    out = done.stdout
    assert "engine error(s) shrunk" in out  # the summary's last line
    section = out.index("shrunk while the engine failed the same way ==")
    assert out.index("== engine error: ") > section
    heading = out[: section + 2].splitlines()[-1]  # "== N engine errors (N crash), one for each ..."
    printed = out.count("\n== engine error: ")
    assert heading.startswith(f"== {printed} engine error")
    kinds = {
        line.split(": ")[2].split(" --")[0]
        for line in out.splitlines()
        if line.startswith("== engine error: ")
    }
    assert ("each kind once" in heading) == (len(kinds) == printed), heading  # true only when it is so
    assert out.rstrip().splitlines()[-1].startswith("kept while shrinking: error, crash")
    assert "╭─ ERROR" not in out, "the unshrunk panels stay out, as for disagreements"
    progress = [line for line in done.stderr.splitlines() if "the engine crashed" in line]  # a log's lines
    assert progress
    assert "shrunk to" in progress[0]


def test_an_engine_error_without_a_second_engine_is_still_reported() -> None:
    starts = []

    def once() -> Engine:
        if starts:
            raise OSError("only one engine here")
        starts.append(1)
        return KingAllergy()

    run = verify(once, VerifyOptions(examples=4, seed=2, z3=False))
    assert run.errors
    assert all(e.shrunk.tries == 0 and "did not start" in e.note for e in run.errors)
    assert all(e.position == e.original for e in run.errors)


def test_an_error_no_smaller_position_reproduces_is_reported_unshrunk_and_says_why() -> None:
    crashy = f"jsonl:{PY} {REPO / 'tests' / 'harness' / 'fakes' / 'crashy.py'} --every 30"  # by request text
    run = verify(engine_factory(crashy), VerifyOptions(examples=1, seed=1, z3=False, plays=0))
    (error,) = run.errors
    assert error.fault.kind == "crash"
    assert error.position == error.original
    assert 0 < error.shrunk.tries <= ERROR_SHRINK_TRIES
    assert f"none of the {error.shrunk.tries} candidates tried" in error.text()
