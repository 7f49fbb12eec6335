"""What the harness asks of an engine, and what an engine may answer (protocol version 1.2).

An engine implements the questions it can answer and declares them as capabilities; the
harness never sends a question outside them (the case is ``unsupported`` for that engine) and
never sends the expected answer. Answers are plain data: FEN strings, :class:`MoveSpec` moves
by identity, counts, verdicts.

Besides an answer, an engine may say one of three things, each judged differently:

* :class:`EngineDeclined` -- "I will not answer this one": the result is ``skip`` (not scored,
  and the article it concerns is not certified);
* :class:`MoveRefused` -- "this move is illegal" (inside ``play``, ``outcome``, ``format_move``):
  the result is a ``fail`` of the refused move's rule, naming the move and its ply;
* :class:`PositionRefused` -- "this position is not one I accept": a ``skip`` when the position
  cannot arise before the end of a game (a side has no pieces), a ``fail`` of Art. 2 otherwise.

Anything else an engine raises, or a malformed answer, is an ``error`` of the engine, kept apart
from a wrong answer (``fail``).

This module imports nothing but the standard library: it is what an engine author implements.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping, Sequence
from typing import Final, Protocol, runtime_checkable

from conformance.core.errors import EngineFailure, EngineRefusal, ErrorKind

PROTOCOL_VERSION: Final = 1
PROTOCOL_MINOR: Final = 2
"""Minor versions only add: 1.1 added ``illegal`` answers, the request timeout in ``start``,
the ``counters`` capability and perft answers that stop at the depth reached; 1.2 the rule set in
``start`` (the game played: name and full object) and the rule sets an engine declares it plays."""

_MOVE: Final = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)|x\s*(\d+)\s*\{([\d,\s]*)\})\s*")


@dataclasses.dataclass(frozen=True, order=True)
class MoveSpec:
    """A move by identity, as a case writes it: ``32-28`` or ``47x36 {14,29,31,42}``."""

    from_square: int
    to_square: int
    captured: frozenset[int] = frozenset()

    @classmethod
    def parse(cls, text: str, squares: int = 50) -> MoveSpec:
        """Read a move by identity whose squares are 1 to ``squares`` (the 10x10 board's 50 unless a
        rule set's board says otherwise); ValueError naming what is wrong."""
        match = _MOVE.fullmatch(text)
        if match is None:
            raise ValueError(f"{text!r} is not a move by identity ('32-28' or '47x36 {{14,29,31,42}}')")
        from_square = int(match.group(1))
        if match.group(2) is not None:
            spec = cls(from_square, int(match.group(2)))
        else:
            parts = [part.strip() for part in match.group(4).split(",")]
            if not all(parts):
                raise ValueError(f"{text!r}: the captured squares must be a comma-separated list")
            captured = [int(part) for part in parts]
            if len(set(captured)) != len(captured):
                raise ValueError(f"{text!r} lists a captured square twice")
            spec = cls(from_square, int(match.group(3)), frozenset(captured))
        for square in (spec.from_square, spec.to_square, *spec.captured):
            if not 1 <= square <= squares:
                raise ValueError(f"{text!r} names square {square}, outside 1-{squares}")
        return spec

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __str__(self) -> str:
        if not self.captured:
            return f"{self.from_square}-{self.to_square}"
        return f"{self.from_square}x{self.to_square} {{{','.join(map(str, sorted(self.captured)))}}}"


class Capability(enum.Enum):
    """What an engine can be asked; each question needs one (an outcome from a setup, two)."""

    FEN = "fen"
    LEGAL_MOVES = "legal_moves"
    MOVE_COUNT = "move_count"
    PERFT = "perft"
    PLAY = "play"
    PARSE_MOVE = "parse_move"
    FORMAT_MOVE = "format_move"
    OUTCOME = "outcome"
    COUNTERS = "counters"
    """With ``outcome``: the engine starts a game from given Art. 6 counters (a mid-game setup).
    Without it, only outcome questions that start from a fresh game are asked."""
    INITIAL_POSITION = "initial_position"
    CHOOSE_MOVE = "choose_move"
    """Move-choice engines (Hub, DXP): asked to play in a position, their move must be legal."""

    @property
    def is_operation(self) -> bool:
        """True for the capabilities that are requests of their own (all but ``counters``)."""
        return self is not Capability.COUNTERS


OPERATIONS: Final = frozenset(capability for capability in Capability if capability.is_operation)
"""The capabilities that name a request (operation) of the protocol."""


class Verdict(enum.Enum):
    LEGAL = "legal"
    ILLEGAL = "illegal"
    AMBIGUOUS = "ambiguous"
    MALFORMED = "malformed"


# -- what an engine may say instead of an answer ------------------------------------------------


class EngineDeclined(EngineRefusal):
    """The engine chose not to answer this request (the result is ``skip``, not scored)."""


class PerftReached(EngineDeclined):
    """A perft answer that stops short: ``counts`` are the leaf counts at depth 1, 2, ... reached."""

    def __init__(self, counts: Sequence[int], reason: str = "") -> None:
        super().__init__(reason or f"perft reached depth {len(counts)}")
        self.counts = tuple(counts)


class MoveRefused(EngineRefusal):
    """The engine holds a move illegal: ``move`` as it was given, ``ply`` its place (1 = first).

    Raised from ``play``, ``outcome`` or ``format_move`` (and accepted from ``parse_move``, where
    it means the verdict ``illegal``). When the move is legal, the result is a ``fail`` charged to
    the rule of that move (a king move to Art. 3.9, a man's capture to 4.2...), not an error.
    """

    def __init__(self, move: str | None = None, ply: int | None = None, reason: str = "") -> None:
        where = f"ply {ply}: " if ply is not None else ""
        what = f"{move!r} is illegal" if move is not None else "a move is illegal"
        super().__init__(f"{where}{what}" + (f" ({reason})" if reason else ""))
        self.move = move
        self.ply = ply
        self.reason = reason


class PositionRefused(EngineRefusal):
    """The engine does not accept the position it was given (e.g. a side without pieces)."""

    def __init__(self, reason: str = "") -> None:
        super().__init__(reason or "the engine refused the position")
        self.reason = reason


class EngineError(EngineFailure):
    """The engine broke while answering: crash, timeout, protocol violation, exception.

    ``kind`` is an :class:`ErrorKind` (``crash``, ``timeout``, ``protocol``, ``exception``,
    ``start``; the bare word is accepted); ``stderr`` keeps what the engine printed on its error
    stream, if anything.
    """

    def __init__(self, kind: ErrorKind | str, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.kind = ErrorKind(kind)
        self.message = message
        self.stderr = stderr


# -- answers ---------------------------------------------------------------------------------------


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
    rule_sets: frozenset[str] = frozenset({"international"})
    """The games the engine plays, by rule-set name (``russian``, ``american``...; ``*``: any rule
    set it is given, as the oracle). A question of another game is ``unsupported``, never asked."""


# -- the engine ----------------------------------------------------------------------------------


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

    # An engine that plays other games than international declares them (``EngineInfo.rule_sets``)
    # and may define ``use_rules(rules: Mapping[str, Any]) -> None``: it is called before any
    # question with the full object of the rule set played (protocol 1.2, ``start``'s ``rules``).

    def close(self) -> None:
        return None


__all__ = [
    "OPERATIONS",
    "PROTOCOL_MINOR",
    "PROTOCOL_VERSION",
    "BaseEngine",
    "Capability",
    "Engine",
    "EngineDeclined",
    "EngineError",
    "EngineInfo",
    "FenAnswer",
    "MoveRefused",
    "MoveSpec",
    "MoveTextAnswer",
    "OutcomeAnswer",
    "PerftReached",
    "PositionRefused",
    "Verdict",
]
