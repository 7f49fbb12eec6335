"""A man whose capture passes the far row is crowned at the end of the capture wherever it ends
(the capture itself goes on as a man's, as it should). It breaks Art. 4.15 only: a man is crowned
only if its capture ends on the far row."""

from __future__ import annotations

from _serve import run_playing

from oracle.board import row_of
from oracle.moves import Move
from oracle.position import Color, Kind, Position


def _crown(position: Position, move: Move, after: Position) -> Position:
    piece = position.piece_at(move.from_square)
    far = position.turn.promotion_row
    if piece is None or piece.kind is not Kind.MAN or not any(row_of(s) == far for s in move.route[1:-1]):
        return after
    men = {color: set(after.squares(color, Kind.MAN)) for color in (position.turn, position.turn.opponent)}
    kings = {color: set(after.squares(color, Kind.KING)) for color in men}
    men[position.turn].discard(move.to_square)
    kings[position.turn].add(move.to_square)
    white, black = Color.WHITE, Color.BLACK
    return Position.from_squares(
        after.turn,
        white_men=frozenset(men[white]),
        white_kings=frozenset(kings[white]),
        black_men=frozenset(men[black]),
        black_kings=frozenset(kings[black]),
    )


run_playing("crowned-after-passing", _crown)
