"""One function from what an engine does instead of answering to a result
(``conformance/harness/misbehaviour.py``): ``run`` (``harness.evaluate.ask``) and ``verify``
(``verify.asking.Asker``) give the same result for the same misbehaviour -- a crash, a hang, garbage,
a decline, an exception -- of real JSON-lines processes (the fakes) and of in-process engines."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import REPO, legal_moves_cases

from conformance.core.corpus.model import Case, LegalMovesQuestion
from conformance.core.errors import ErrorKind
from conformance.core.protocol import Engine, EngineDeclined, MoveSpec
from conformance.core.results import Status
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import ask
from conformance.harness.misbehaviour import EngineTimeout, deadline, misbehaviour
from conformance.verify.asking import Asker, EngineFailed

FAKES = Path(__file__).parent / "fakes"


def _fake(name: str, timeout: float = 10.0) -> Callable[[], Engine]:
    command = [sys.executable, str(FAKES / f"{name}.py")]
    return lambda: JsonlEngine(command, timeout=timeout, env={"PYTHONPATH": str(REPO)})


class _Misbehaving(OracleEngine):
    """The oracle, but for its list of legal moves."""

    def __init__(self, answer: Callable[[], Any]) -> None:
        super().__init__()
        self._answer = answer

    def legal_moves(self, fen: str) -> list[MoveSpec]:
        answer: list[MoveSpec] = self._answer()
        return answer


def _raise(error: BaseException) -> Callable[[], Any]:
    def answer() -> Any:
        raise error

    return answer


def _hang() -> Any:
    with deadline(0.2):  # the alarm verify sets on an in-process engine, here for run too
        while True:
            pass


ENGINES: dict[str, tuple[Callable[[], Engine], Status, ErrorKind | None]] = {
    "crash": (_fake("crash"), Status.ERROR, ErrorKind.CRASH),
    "hang": (_fake("hang", timeout=0.5), Status.ERROR, ErrorKind.TIMEOUT),
    "garbage": (_fake("garbage"), Status.ERROR, ErrorKind.PROTOCOL),
    "declined": (lambda: _Misbehaving(_raise(EngineDeclined("too deep for me"))), Status.SKIP, None),
    "garbage in-process": (
        lambda: _Misbehaving(lambda: ["not a move", 42]),
        Status.ERROR,
        ErrorKind.PROTOCOL,
    ),
    "exception": (lambda: _Misbehaving(_raise(ZeroDivisionError("oops"))), Status.ERROR, ErrorKind.EXCEPTION),
    "exit": (lambda: _Misbehaving(_raise(SystemExit(4))), Status.ERROR, ErrorKind.EXCEPTION),
    "hang in-process": (lambda: _Misbehaving(_hang), Status.ERROR, ErrorKind.TIMEOUT),
}


@pytest.fixture(scope="module")
def case() -> Case:
    return legal_moves_cases()[0]


@pytest.mark.parametrize("name", ENGINES)
def test_run_and_verify_give_the_same_result_for_the_same_misbehaviour(name: str, case: Case) -> None:
    factory, status, kind = ENGINES[name]
    question = next(q for q in case.questions if isinstance(q, LegalMovesQuestion))
    engine = factory()
    try:
        result = ask(engine, case, "legal_moves", question)
    finally:
        engine.close()
    engine = factory()
    try:
        with pytest.raises(EngineFailed) as raised:
            Asker(engine, timeout=None).legal_moves(case.position)
    finally:
        engine.close()
    failed = raised.value

    assert result.status is failed.status is status
    assert (
        (result.error.kind if result.error else None) == (failed.error.kind if failed.error else None) == kind
    )
    # verify names the request in its message ("legal_moves: ..."); run's judges do so only for garbage
    assert failed.message.removeprefix("legal_moves: ") == result.message.removeprefix("legal_moves: ")
    if kind is not None:
        assert result.defect == f"error: {kind}"


def test_the_users_ctrl_c_goes_through_and_an_engines_keyboard_interrupt_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conformance.core import interrupts

    monkeypatch.setattr(interrupts, "requested", lambda: True)
    with pytest.raises(KeyboardInterrupt):
        misbehaviour(KeyboardInterrupt())
    monkeypatch.setattr(interrupts, "requested", lambda: False)
    outcome = misbehaviour(KeyboardInterrupt(), "play")
    assert (outcome.status, outcome.message) == (Status.ERROR, "play: KeyboardInterrupt: ")
    assert outcome.defect == "error: exception"
    timeout = misbehaviour(EngineTimeout("no answer within 2 s"), "play")
    assert timeout.error is not None
    assert timeout.error.kind is ErrorKind.TIMEOUT
