"""The in-process adapter: any Python object with the engine's methods, certified in place.

The object needs an ``info`` (an :class:`~conformance.core.protocol.EngineInfo`, or a mapping with
``name``, ``version`` and ``capabilities``) and the methods of its capabilities. For
convenience its moves may be :class:`MoveSpec`, ``(from, to, captured)`` tuples, mappings
``{"from", "to", "captured"}`` or objects with ``from_square``/``to_square``/``captured``
(such as :class:`oracle.Move`); the adapter turns them into MoveSpec, and anything it cannot
read is a protocol error of the engine, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.core.protocol import (
    Capability,
    EngineError,
    EngineInfo,
    FenAnswer,
    MoveSpec,
    MoveTextAnswer,
    OutcomeAnswer,
    Verdict,
)


def to_move_spec(move: Any) -> MoveSpec:
    """Read one move in any of the accepted shapes; EngineError('protocol') otherwise."""
    try:
        if isinstance(move, MoveSpec):
            return move
        if isinstance(move, Mapping):
            return MoveSpec(int(move["from"]), int(move["to"]), frozenset(map(int, move.get("captured", ()))))
        if isinstance(move, tuple | list) and len(move) in (2, 3):
            captured = move[2] if len(move) == 3 else ()
            return MoveSpec(int(move[0]), int(move[1]), frozenset(map(int, captured)))
        if hasattr(move, "from_square") and hasattr(move, "to_square"):
            return MoveSpec(int(move.from_square), int(move.to_square), frozenset(map(int, move.captured)))
    except (KeyError, TypeError, ValueError) as error:
        raise EngineError("protocol", f"cannot read the move {move!r}: {error}") from None
    raise EngineError("protocol", f"cannot read the move {move!r}: expected (from, to, captured)")


def _info_of(engine: Any, adapter: str) -> EngineInfo:
    info = engine.info
    if isinstance(info, EngineInfo):
        return info
    if isinstance(info, Mapping):
        try:
            capabilities = frozenset(Capability(c) for c in info["capabilities"])
            rule_sets = frozenset(str(name) for name in info.get("rule_sets", ("international",)))
            return EngineInfo(
                str(info["name"]), str(info.get("version", "")), capabilities, adapter, rule_sets=rule_sets
            )
        except (KeyError, ValueError) as error:
            raise EngineError("start", f"engine info {info!r} is incomplete or wrong: {error}") from None
    raise EngineError("start", f"engine.info must be an EngineInfo or a mapping, not {type(info).__name__}")


class InProcessEngine:
    """Wraps a Python engine object; normalises its answers to the harness's types."""

    def __init__(self, engine: Any, adapter: str = "in-process") -> None:
        self.engine = engine
        self._info = _info_of(engine, adapter)

    @property
    def info(self) -> EngineInfo:
        return self._info

    def fen(self, fen: str) -> FenAnswer:
        answer = self.engine.fen(fen)
        if isinstance(answer, FenAnswer):
            return answer
        if isinstance(answer, Mapping):
            return FenAnswer(bool(answer.get("valid")), answer.get("position"))
        raise EngineError("protocol", f"fen: cannot read the answer {answer!r}")

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [to_move_spec(move) for move in self.engine.legal_moves(fen)]

    def move_count(self, fen: str) -> int:
        return int(self.engine.move_count(fen))

    def perft(self, fen: str, depth: int) -> int:
        return int(self.engine.perft(fen, depth))

    def play(self, fen: str, moves: Sequence[str]) -> str:
        return str(self.engine.play(fen, moves))

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        answer = self.engine.parse_move(fen, text, notation)
        if isinstance(answer, MoveTextAnswer):
            return answer
        if isinstance(answer, Mapping):
            move = answer.get("move")
            try:
                verdict = Verdict(answer["verdict"])
            except (KeyError, ValueError):
                raise EngineError("protocol", f"parse_move: cannot read the answer {answer!r}") from None
            return MoveTextAnswer(verdict, to_move_spec(move) if move is not None else None)
        raise EngineError("protocol", f"parse_move: cannot read the answer {answer!r}")

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        return str(self.engine.format_move(fen, move, notation))

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        answer = self.engine.outcome(fen, counters, moves)
        if isinstance(answer, OutcomeAnswer):
            return answer
        if isinstance(answer, Mapping) and "result" in answer:
            return OutcomeAnswer(str(answer["result"]), answer.get("rule"), answer.get("ply"))
        raise EngineError("protocol", f"outcome: cannot read the answer {answer!r}")

    def initial_position(self) -> str:
        return str(self.engine.initial_position())

    def choose_move(self, fen: str) -> MoveSpec | None:
        move = self.engine.choose_move(fen)
        return None if move is None else to_move_spec(move)

    def use_rules(self, rules: Mapping[str, Any]) -> None:
        """Hand the object the rule set it is to play, when it takes one (``use_rules``)."""
        use_rules = getattr(self.engine, "use_rules", None)
        if callable(use_rules):
            use_rules(rules)

    def close(self) -> None:
        close = getattr(self.engine, "close", None)
        if callable(close):
            close()
