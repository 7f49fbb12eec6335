"""A king that vanishes after a capture ending on its own start square (a draughts.js 0.2.1 bug:
it moves the piece to the end square, then clears the start square -- the same square).

Its legal moves are right; the positions after such a capture are not. The rule it breaks is the
reading start-square-empty (a capture may end where it began); nothing else."""

from __future__ import annotations

from _serve import run_playing

from oracle.moves import Move
from oracle.position import Color, Kind, Position


def _vanish(position: Position, move: Move, after: Position) -> Position:
    piece = position.piece_at(move.from_square)
    if not (move.is_capture and move.to_square == move.from_square and piece and piece.kind is Kind.KING):
        return after
    return Position.from_squares(
        after.turn,
        white_men=frozenset(after.squares(Color.WHITE, Kind.MAN)),
        white_kings=frozenset(after.squares(Color.WHITE, Kind.KING)) - {move.to_square},
        black_men=frozenset(after.squares(Color.BLACK, Kind.MAN)),
        black_kings=frozenset(after.squares(Color.BLACK, Kind.KING)) - {move.to_square},
    )


run_playing("vanishing-king", _vanish)
