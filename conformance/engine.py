"""What the harness asks of an engine, and what an engine may answer (protocol version 1).

An engine implements the questions it can answer and declares them as capabilities; the
harness never sends a question outside them (the case is ``unsupported`` for that engine) and
never sends the expected answer. Answers are plain data: FEN strings, :class:`MoveSpec` moves
by identity, counts, verdicts. An engine that cannot or will not answer one request raises
:class:`EngineDeclined` (the result is ``skip``); anything else it raises, or a malformed
answer, is an ``error`` of the engine, kept apart from a wrong answer (``fail``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from conformance.corpus import Capability, MoveSpec, Verdict

PROTOCOL_VERSION = 1


class EngineError(Exception):
    """The engine broke while answering: crash, timeout, protocol violation, exception.

    ``kind`` is one of ``crash``, ``timeout``, ``protocol``, ``exception``, ``start``;
    ``stderr`` keeps what the engine printed on its error stream, if anything.
    """

    def __init__(self, kind: str, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = stderr


class EngineDeclined(Exception):
    """The engine chose not to answer this request (the result is ``skip``, not scored)."""


@dataclasses.dataclass(frozen=True)
class FenAnswer:
    """Whether the engine accepts a FEN, and the position it read (any PDN FEN spelling)."""

    valid: bool
    position: str | None = None


@dataclasses.dataclass(frozen=True)
class MoveTextAnswer:
    """What a move text means to the engine: a legal move, or why it is not one."""

    verdict: Verdict
    move: MoveSpec | None = None


@dataclasses.dataclass(frozen=True)
class OutcomeAnswer:
    """The state of a game: ``result`` (ongoing, white_wins, black_wins, draw), its rule and ply."""

    result: str
    rule: str | None = None
    ply: int | None = None


@dataclasses.dataclass(frozen=True)
class EngineInfo:
    name: str
    version: str
    capabilities: frozenset[Capability]
    adapter: str
    """How the harness reaches the engine, e.g. ``in-process``, ``jsonl:node engine.js``."""
    level: str = "rules"
    """``rules`` (answers rule questions) or ``move-choice`` (Hub/DXP: only chooses moves)."""


@runtime_checkable
class Engine(Protocol):
    """An engine under test. Implement the methods of the capabilities ``info`` declares."""

    @property
    def info(self) -> EngineInfo: ...

    def fen(self, fen: str) -> FenAnswer: ...

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]: ...

    def move_count(self, fen: str) -> int: ...

    def perft(self, fen: str, depth: int) -> int: ...

    def play(self, fen: str, moves: Sequence[str]) -> str: ...

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer: ...

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str: ...

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer: ...

    def initial_position(self) -> str: ...

    def choose_move(self, fen: str) -> MoveSpec | None: ...

    def close(self) -> None: ...


class BaseEngine:
    """Convenience base: every question declined unless overridden; ``close`` does nothing."""

    @property
    def info(self) -> EngineInfo:
        raise NotImplementedError

    def fen(self, fen: str) -> FenAnswer:
        raise EngineDeclined("fen")

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        raise EngineDeclined("legal_moves")

    def move_count(self, fen: str) -> int:
        raise EngineDeclined("move_count")

    def perft(self, fen: str, depth: int) -> int:
        raise EngineDeclined("perft")

    def play(self, fen: str, moves: Sequence[str]) -> str:
        raise EngineDeclined("play")

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        raise EngineDeclined("parse_move")

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        raise EngineDeclined("format_move")

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        raise EngineDeclined("outcome")

    def initial_position(self) -> str:
        """The FEN of a new game's start position."""
        raise EngineDeclined("initial_position")

    def choose_move(self, fen: str) -> MoveSpec | None:
        """The move the engine would play, or None when it finds no legal move."""
        raise EngineDeclined("choose_move")

    def close(self) -> None:
        return None
