"""Asking the engine under ``verify``: one :class:`Asker` per engine, answers remembered per
position, in-process engines held to their time by an alarm, every failure of the engine turned
into :class:`EngineFailed` (an error or a skip of that check, never a crash of the run) by the
function ``run`` uses too (:func:`conformance.harness.misbehaviour.misbehaviour`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conformance.core.errors import EngineFailure, IncompleteError
from conformance.core.protocol import (
    Engine,
    EngineInfo,
    MoveRefused,
    MoveSpec,
    OutcomeAnswer,
    PositionRefused,
)
from conformance.core.results import ErrorInfo, Status
from conformance.harness.failures import Malformed
from conformance.harness.misbehaviour import deadline, misbehaviour
from conformance.verify.differential import (
    outcome_json,
)


class EngineFailed(EngineFailure):
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


class NotApplicable(IncompleteError):
    """The check does not apply to this (shrunk) position, e.g. the move is no longer legal."""


_FEN: tuple[Callable[[Any], bool], str] = (lambda answer: isinstance(answer, str), "a FEN string")


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

    def _call(
        self,
        what: str,
        function: Callable[[], Any],
        expected: tuple[Callable[[Any], bool], str] | None = None,
    ) -> Any:
        """``function``'s answer, or :class:`EngineFailed` (:func:`misbehaviour`); an answer that
        ``expected``'s test rejects is garbage (``expected moves, got ...``)."""
        try:
            with deadline(self.timeout):
                answer = function()
                if expected is not None and not expected[0](answer):
                    raise Malformed(f"expected {expected[1]}, got {answer!r}")
                return answer
        except MoveRefused as refused:  # the moves asked about are the oracle's legal ones
            message = f"{what}: the engine refused a legal move: {refused}"
            raise EngineFailed(Status.FAIL, message, refused=refused) from None
        except PositionRefused as refused:  # generated positions always have both colours
            raise EngineFailed(
                Status.FAIL, f"{what}: the engine refused a valid position: {refused}"
            ) from None
        except BaseException as error:  # a decline, a crash, garbage, an exception: never ends the run
            outcome = misbehaviour(error, what)
            raise EngineFailed(outcome.status, outcome.message, outcome.error) from None

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
            answer = self._call(
                "legal_moves",
                lambda: list(self.engine.legal_moves(fen)),
                (lambda moves: all(isinstance(move, MoveSpec) for move in moves), "moves"),
            )
            return list(answer)

        moves: list[MoveSpec] = self._remembered(self._moves, fen, ask)
        return moves

    def play(self, fen: str, moves: Sequence[str]) -> str:
        def ask() -> str:
            answer: str = self._call("play", lambda: self.engine.play(fen, list(moves)), _FEN)
            return answer

        after: str = self._remembered(self._after, (fen, tuple(moves)), ask)
        return after

    def outcome(self, fen: str, moves: Sequence[str]) -> dict[str, Any]:
        """The engine's outcome of ``moves`` from ``fen``. A move refused at ply p > 1 after the
        engine's game was over (its outcome of the moves before p is not ``ongoing``) is read as
        that end of the game, which the protocol allows; otherwise the refusal fails the move."""
        try:
            answer = self._call(
                "outcome",
                lambda: self.engine.outcome(fen, {}, list(moves)),
                (lambda answer: isinstance(answer, OutcomeAnswer), "an OutcomeAnswer"),
            )
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
        return outcome_json(answer.result, answer.rule, answer.ply)

    def initial_position(self) -> str:
        answer: str = self._call("initial_position", self.engine.initial_position, _FEN)
        return answer

    def choose_move(self, fen: str) -> MoveSpec | None:
        answer: MoveSpec | None = self._call(
            "choose_move",
            lambda: self.engine.choose_move(fen),
            (lambda move: move is None or isinstance(move, MoveSpec), "a move or None"),
        )
        return answer
