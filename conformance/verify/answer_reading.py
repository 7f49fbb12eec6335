"""Reading an engine's legal-move answer: each move as (from, to, captured), or why it cannot be read.

An answer's moves may be tuples, :class:`oracle.moves.Move` or anything with ``from_square``,
``to_square`` and ``captured``; :func:`read_moves` keeps the readable ones and reports the
unreadable and repeated ones as findings (Art. 8: a move is its (from, to, captured)).
"""

from __future__ import annotations

import dataclasses
import typing
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from conformance.verify.findings import Finding, FindingKind, MoveKey, move_order, move_text


@runtime_checkable
class MoveObject(Protocol):
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def captured(self) -> Iterable[int]: ...


MoveLike = MoveObject | tuple[int, int, Iterable[int]] | Sequence[Any]
"""What an answer's moves may be: (from, to, captured) tuples or objects with those attributes."""


@dataclasses.dataclass(frozen=True)
class ReadMove:
    key: MoveKey
    captured_list: tuple[int, ...]


def read_move(move: object, board_squares: int = 50) -> ReadMove | str:
    """The move's key, or why it cannot be read (``board_squares``: how many the board has)."""
    # What isinstance(move, MoveObject) checks, without the runtime protocol's cost (~50 us a call).
    if all(hasattr(move, name) for name in ("from_square", "to_square", "captured")):
        move = typing.cast(MoveObject, move)
        parts: tuple[object, object, object] = (move.from_square, move.to_square, move.captured)
    elif isinstance(move, Sequence) and not isinstance(move, str) and len(move) == 3:
        parts = (move[0], move[1], move[2])
    else:
        return f"{move!r} is not a (from, to, captured) move"
    from_square, to_square, captured = parts
    if isinstance(captured, (str, bytes)) or not isinstance(captured, Iterable):
        return f"{move!r}: captured squares {captured!r} are not a collection of squares"
    squares: list[int] = []
    for square in (from_square, to_square, *captured):
        if not isinstance(square, int) or isinstance(square, bool):
            return f"{move!r}: {square!r} is not a square number"
        if not 1 <= square <= board_squares:
            return f"{move!r}: square {square} is outside 1-{board_squares}"
        squares.append(square)
    captured_list = tuple(squares[2:])
    key = (squares[0], squares[1], frozenset(captured_list))
    return ReadMove(key, captured_list)


def read_moves(
    moves: Iterable[object], fen: str = "", squares: int = 50
) -> tuple[list[ReadMove], list[Finding]]:
    """The readable moves of an answer, and findings for the unreadable and repeated ones."""
    findings: list[Finding] = []
    read: list[ReadMove] = []
    for move in moves:
        result = read_move(move, squares)
        if isinstance(result, str):
            findings.append(Finding(FindingKind.MALFORMED, result, {"fen": fen, "move": repr(move)}))
        else:
            read.append(result)
    counts = Counter(item.key for item in read)
    for key, count in sorted(counts.items(), key=lambda item: move_order(item[0])):
        if count > 1:
            findings.append(
                Finding(
                    FindingKind.DUPLICATE,
                    f"{move_text(key)} is listed {count} times; a move is (from, to, captured), routes do not count",
                    {"fen": fen, "move": move_text(key), "count": count},
                )
            )
    return read, findings
