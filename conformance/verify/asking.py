"""Asking the engine under ``verify``: one :class:`Asker` per engine, answers remembered per
position, in-process engines held to their time by an alarm, every failure of the engine turned
into :class:`EngineFailed` (an error or a skip of that check, never a crash of the run)."""

from __future__ import annotations

import contextlib
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any

from conformance.core import interrupts
from conformance.core.engine import (
    Engine,
    EngineDeclined,
    EngineError,
    EngineInfo,
    MoveRefused,
    OutcomeAnswer,
    PositionRefused,
)
from conformance.core.protocol import MoveSpec
from conformance.core.results import ErrorInfo, Status
from conformance.verify.differential import (
    outcome_json,
)


class EngineTimeout(BaseException):
    """An in-process engine ran past its time (raised by the alarm; a BaseException so that an
    engine's own ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`EngineTimeout` in the block after ``seconds`` (main thread, POSIX; else no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or seconds <= 0 or not usable:
        yield
        return

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise EngineTimeout(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class EngineFailed(Exception):
    """The engine did not answer: ``status`` error (it broke) or skip (it declined)."""

    def __init__(
        self, status: Status, message: str, error: ErrorInfo | None = None, refused: MoveRefused | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error = error
        self.refused = refused
        """The engine held a legal move illegal (its ply tells which): the move's rule is charged."""


class NotApplicable(Exception):
    """The check does not apply to this (shrunk) position, e.g. the move is no longer legal."""


def _in_process(info: EngineInfo) -> bool:
    return info.adapter == "in-process" or info.adapter.startswith("python:")


class Asker:
    """Asks one engine questions; turns what goes wrong into :class:`EngineFailed`.

    Legal-move and play answers are remembered until :meth:`forget` (the checks of one position
    share them). In-process engines get ``timeout`` seconds per request (:func:`deadline`).
    """

    def __init__(self, engine: Engine, timeout: float | None) -> None:
        self.engine = engine
        self.capabilities = engine.info.capabilities
        self.timeout = timeout if _in_process(engine.info) else None
        self._moves: dict[str, list[MoveSpec] | EngineFailed] = {}
        self._after: dict[tuple[str, tuple[str, ...]], str | EngineFailed] = {}

    def forget(self) -> None:
        self._moves.clear()
        self._after.clear()

    def _call(self, what: str, function: Callable[[], Any]) -> Any:
        try:
            with deadline(self.timeout):
                return function()
        except EngineDeclined as declined:
            raise EngineFailed(Status.SKIP, f"the engine declined {what}: {declined}") from None
        except MoveRefused as refused:  # the moves asked about are the oracle's legal ones
            message = f"{what}: the engine refused a legal move: {refused}"
            raise EngineFailed(Status.FAIL, message, refused=refused) from None
        except PositionRefused as refused:  # generated positions always have both colours
            raise EngineFailed(
                Status.FAIL, f"{what}: the engine refused a valid position: {refused}"
            ) from None
        except EngineError as error:
            raise EngineFailed(
                Status.ERROR, f"{what}: {error.message}", ErrorInfo(error.kind, error.message, error.stderr)
            ) from None
        except EngineTimeout as timeout:
            message = f"{what}: {timeout}"
            raise EngineFailed(Status.ERROR, message, ErrorInfo("timeout", message)) from None
        except KeyboardInterrupt:
            if interrupts.requested():
                raise
            message = f"{what}: the engine raised KeyboardInterrupt"
            raise EngineFailed(Status.ERROR, message, ErrorInfo("exception", message)) from None
        except (Exception, SystemExit) as error:  # an in-process engine raised: reported, never fatal
            message = f"{what}: {type(error).__name__}: {error}"
            raise EngineFailed(
                Status.ERROR, message, ErrorInfo("exception", message, traceback.format_exc())
            ) from None

    def _remembered(self, memory: dict[Any, Any], key: Any, ask: Callable[[], Any]) -> Any:
        """The answer to ``key``, asked once; a failure is remembered too (a time-out costs once)."""
        if key not in memory:
            try:
                memory[key] = ask()
            except EngineFailed as failed:
                memory[key] = failed
        answer = memory[key]
        if isinstance(answer, EngineFailed):
            raise answer
        return answer

    def legal_moves(self, fen: str) -> list[MoveSpec]:
        def ask() -> list[MoveSpec]:
            answer = self._call("legal_moves", lambda: list(self.engine.legal_moves(fen)))
            if not all(isinstance(move, MoveSpec) for move in answer):
                message = f"legal_moves: expected moves, got {answer!r}"
                raise EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
            return list(answer)

        moves: list[MoveSpec] = self._remembered(self._moves, fen, ask)
        return moves

    def play(self, fen: str, moves: Sequence[str]) -> str:
        def ask() -> str:
            answer = self._call("play", lambda: self.engine.play(fen, list(moves)))
            if not isinstance(answer, str):
                message = f"play: expected a FEN string, got {answer!r}"
                raise EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
            return answer

        after: str = self._remembered(self._after, (fen, tuple(moves)), ask)
        return after

    def outcome(self, fen: str, moves: Sequence[str]) -> dict[str, Any]:
        """The engine's outcome of ``moves`` from ``fen``. A move refused at ply p > 1 after the
        engine's game was over (its outcome of the moves before p is not ``ongoing``) is read as
        that end of the game, which the protocol allows; otherwise the refusal fails the move."""
        try:
            answer = self._call("outcome", lambda: self.engine.outcome(fen, {}, list(moves)))
        except EngineFailed as failed:
            ply = failed.refused.ply if failed.refused is not None else None
            if ply is None or not 2 <= ply <= len(moves):
                raise
            try:
                before = self.outcome(fen, moves[: ply - 1])
            except EngineFailed:
                raise failed from None
            if before["result"] == "ongoing":
                raise
            return before
        if not isinstance(answer, OutcomeAnswer):
            message = f"outcome: expected an OutcomeAnswer, got {answer!r}"
            raise EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
        return outcome_json(answer.result, answer.rule, answer.ply)

    def initial_position(self) -> str:
        answer = self._call("initial_position", self.engine.initial_position)
        if not isinstance(answer, str):
            message = f"initial_position: expected a FEN string, got {answer!r}"
            raise EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
        return answer

    def choose_move(self, fen: str) -> MoveSpec | None:
        answer = self._call("choose_move", lambda: self.engine.choose_move(fen))
        if answer is not None and not isinstance(answer, MoveSpec):
            message = f"choose_move: expected a move or None, got {answer!r}"
            raise EngineFailed(Status.ERROR, message, ErrorInfo("protocol", message))
        return answer
