"""Which rule a legal move exercises: what an engine that refuses the move gets wrong.

When an engine holds a legal move illegal, the fault is in the rule that makes the move legal,
not in the rule the question was about (a draw-rule question whose sequence has a long king
move, refused by an engine whose kings step one square, shows a defect of Art. 3.9, not of
Art. 6.2). :func:`move_rule` names that rule for one move, with a few words for reports:

========  ==============================================================================
3.4       a man's step
3.5       a man's step onto the far row (it is crowned)
3.9       a king's move (one square, or several: "long king move")
4.2       a man's single forward capture
4.1       a man's capture with a backward jump
4.5       a man's multiple capture (forward only)
4.15      a man's capture that passes the far row and goes on
4.3       a king's single capture
4.6       a king's multiple capture
========  ==============================================================================
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from oracle.board import row_of
from oracle.errors import FenError, MoveError
from oracle.moves import Move, play
from oracle.notation import Notation, parse_move
from oracle.position import Color, Kind, Position


@dataclasses.dataclass(frozen=True)
class MoveRule:
    """The rule a move exercises (``article``) and what kind of move it is, in words."""

    article: str
    kind: str


def _far_row(color: Color) -> int:
    return 0 if color is Color.WHITE else 9


def move_rule(position: Position, move: Move) -> MoveRule:
    """The rule that makes ``move`` legal in ``position`` (which it must be)."""
    is_king = _is_king(position, move)
    if not move.is_capture:
        if is_king:
            distance = abs(row_of(move.to_square) - row_of(move.from_square))
            return MoveRule("3.9", "king move" if distance == 1 else "long king move")
        if row_of(move.to_square) == _far_row(position.turn):
            return MoveRule("3.5", "promoting man step")
        return MoveRule("3.4", "man step")
    if is_king:
        if len(move.captured) == 1:
            return MoveRule("4.3", "king capture")
        return MoveRule("4.6", "multiple king capture")
    if _passes_far_row(position, move):
        return MoveRule("4.15", "man capture passing the far row")
    if _jumps_backward(position, move):
        return MoveRule("4.1", "backward man capture")
    if len(move.captured) > 1:
        return MoveRule("4.5", "multiple man capture")
    return MoveRule("4.2", "man capture")


def move_rules(position: Position, move: Move) -> frozenset[str]:
    """Every rule of the table ``move`` exercises, not only the most specific one: a man's capture
    that jumps backward and passes the far row needs 4.1 and 4.15; a king's multiple capture 4.3
    (capturing at a distance) and 4.6. What an engine must get right to find the move."""
    main = move_rule(position, move).article
    if not move.is_capture:
        return frozenset({main})
    if _is_king(position, move):
        return frozenset({"4.3", *(("4.6",) if len(move.captured) > 1 else ())})
    return frozenset(
        {
            main,
            *(("4.1",) if _jumps_backward(position, move) else ()),
            *(("4.5",) if len(move.captured) > 1 else ()),
        }
    )


def _is_king(position: Position, move: Move) -> bool:
    piece = position.piece_at(move.from_square)
    return piece is not None and piece.kind is Kind.KING


def _route_rows(move: Move) -> list[int]:
    return [row_of(square) for square in move.route or (move.from_square, move.to_square)]


def _passes_far_row(position: Position, move: Move) -> bool:
    """A man's capture that reaches the far row and goes on (Art. 4.15)."""
    return any(row == _far_row(position.turn) for row in _route_rows(move)[1:-1])


def _jumps_backward(position: Position, move: Move) -> bool:
    """A man's capture with a jump toward its own side (Art. 4.1)."""
    forward = -1 if position.turn is Color.WHITE else 1
    return any((after - before) * forward < 0 for before, after in itertools.pairwise(_route_rows(move)))


def refused_move_rule(fen: str, moves: Sequence[str], index: int) -> tuple[str, MoveRule] | None:
    """The text and rule of ``moves[index]`` (PDN) played from ``fen`` after the ones before it.

    None when the sequence cannot be replayed (it is then not this module's to judge).
    """
    try:
        position = Position.from_fen(fen)
        for text in moves[:index]:
            position = play(position, parse_move(position, text, Notation.PDN))
        move = parse_move(position, moves[index], Notation.PDN)
    except (FenError, MoveError, IndexError):
        return None
    return moves[index], move_rule(position, move)
