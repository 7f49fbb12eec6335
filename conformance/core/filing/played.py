"""Which rule a move refused, or played wrongly, breaks (Art. 3, 4).

* A legal move held illegal breaks the most specific rule it relies on
  (:func:`~conformance.core.filing.moves.relies_on`): a king's capture through its start square the
  reading ``start-square-empty``, not the king's capture of 4.3 it is also; a king's step of one
  square Art. 3.9.
* A legal move played to a wrong position: captured pieces left on the board, or other pieces
  taken, break 4.11 (the pieces taken leave the board when the capture is over, those and only
  those); a man not crowned at the end of its move on the far row, or crowned elsewhere, 3.5 (4.15
  when its capture passed the far row); the moving piece missing from its square, or anything
  else, the rule of the move as for a refusal.

``requires``: for a refusal or the moving piece misplaced, the move's other rules (a failure
resting on one the engine fails directly is blocked by it); pieces taken, or crowned, wrongly rely
on nothing: the engine found the move.

A legal move refused inside a game (an outcome question's sequence) is filed as a refusal of that
move from the position the game reached (:func:`refused_move_filing`).
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.base import Filing
from conformance.core.filing.moves import most_specific, relies_on
from conformance.core.move_rules import move_rule
from oracle.board import row_of
from oracle.errors import FenError, GameOverError, MoveError
from oracle.game import Game
from oracle.moves import Move, play
from oracle.notation import Notation, parse_move
from oracle.position import Color, Kind, Position


def _requires(rules: frozenset[str], rule: str) -> tuple[str, ...]:
    return tuple(sorted(rules - {rule}, key=article_sort_key))


def file_move(position: Position, move: Move) -> Filing:
    """The rule a refusal of the legal ``move`` breaks, and the move's other rules."""
    rules = relies_on(position, move)
    kind = move_rule(position, move)
    rule = most_specific(rules - {"4.13"}) if rules - {"4.13"} else kind.article
    return Filing(rule, _requires(rules, rule), f"refuses a legal {kind.kind}")


def _pieces(position: Position, color: Color) -> dict[int, Kind]:
    return {square: kind for kind in Kind for square in position.squares(color, kind)}


def file_played(position: Position, move: Move, got_fen: str) -> Filing:
    """The rule the position ``got_fen``, an engine's answer for ``move`` played, breaks."""
    expected = play(position, move)
    played = file_move(position, move)
    try:
        got = Position.from_fen(got_fen)
    except FenError:
        return Filing(played.rule, played.requires, "gives an invalid position after the move")
    us, them = position.turn, position.turn.opponent
    # The engine played the move (it found it): what is wrong is the position it leaves, whatever
    # the move relied on to be found -- those rules are not this verdict's prerequisites.
    if _pieces(got, them) != _pieces(expected, them):
        if move.is_capture:
            return Filing("4.11", (), "leaves captured pieces on the board or takes others")
        return Filing(played.rule, played.requires, "moves other pieces")
    mine, wanted = _pieces(got, us), _pieces(expected, us)
    landed, should = mine.get(move.to_square), wanted.get(move.to_square)
    if landed is not None and should is not None and landed is not should:
        passed = any(row_of(square) == us.promotion_row for square in move.route[1:-1])
        return Filing("4.15" if landed is Kind.KING and passed else "3.5", (), "crowns wrongly")
    return Filing(played.rule, played.requires, "plays the move to a wrong position")


def refused_move_filing(position: Position, moves: Sequence[str], ply: int | None) -> Filing | None:
    """Where a refusal of the move at ``ply`` (1 = first) of ``moves`` from ``position`` is filed
    (:func:`file_move`: a king move 3.9, a man's step 3.4, a capture the
    most specific rule it relies on), or None when it cannot be told (no such ply, or the game
    cannot be played that far)."""
    if ply is None or not 1 <= ply <= len(moves):
        return None
    game = Game(position)
    try:
        for text in moves[: ply - 1]:
            game.play(text)
        move = parse_move(game.position, moves[ply - 1], Notation.PDN)
    except (MoveError, GameOverError):
        return None
    return file_move(game.position, move)
