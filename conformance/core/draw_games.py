"""Concrete games and the abstract draw model: the bridge between :mod:`oracle` and the model.

The model of Art. 6 (:mod:`conformance.core.draw_events`, :mod:`conformance.verify.draw_smt`)
is written without the oracle; this module is where the two meet:

* :func:`draw_rules_of` reads a rule configuration (:class:`oracle.rules.Rules`) as
  :class:`~conformance.core.draw_events.DrawRules`;
* :func:`abstract_game` turns a concrete game -- a position, counters, moves -- into the model's
  :class:`~conformance.core.draw_events.Start` and one
  :class:`~conformance.core.draw_events.Event` per ply, using the oracle's move generator
  (whether the side to move is blocked is a question of legal moves);
* two readings of Art. 6 read the other way on every article at once, as
  :class:`~oracle.game.Game` subclasses overriding one rule step (those on one article at a time are
  the gallery's, :data:`conformance.engines.draw_mutants.DRAW_READING_MUTANTS`): :class:`LonePieceEnding`,
  :class:`HighestArticleFirst`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from conformance.core.draw_events import (
    DrawRules,
    Ending,
    Event,
    Group,
    Material,
    MoveKind,
    Side,
    Start,
)
from oracle.board import BIT, bitboard
from oracle.counters import Counters
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.outcome import Outcome
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, Rules
from oracle.rules import Ending as OracleEnding

LONG_DIAGONAL: Final = (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)
"""The long diagonal (rules.md), which the 2024 clause of 6.3 speaks of."""
_LONG: Final = bitboard(LONG_DIAGONAL)


def draw_rules_of(rules: Rules) -> DrawRules:
    """The Art. 6 part of a rule configuration, as the model reads it (readings: the project's)."""
    groups = tuple(
        Group(
            count.article,
            frozenset(Ending(e.kings, e.men) for e in count.endings),
            count.moves_each,
            count.restarts_on_change,
        )
        for count in rules.endgame_counts
    )
    return DrawRules(rules.repetition_draw, rules.no_progress_moves, groups)


def material_of(position: Position) -> Material:
    w, b = Color.WHITE, Color.BLACK
    return Material(
        position.kings(w).bit_count(),
        position.men(w).bit_count(),
        position.kings(b).bit_count(),
        position.men(b).bit_count(),
    )


def lone_king_on_long_diagonal(position: Position) -> bool:
    """A side's only piece is a king on 46-5, and no other piece stands on that diagonal."""
    for color in Color:
        pieces = position.pieces(color)
        if pieces.bit_count() == 1 and position.kings(color) and pieces & _LONG:
            return (position.occupied & _LONG) == pieces
    return False


def is_man_move(before: Position, move: Move) -> bool:
    return bool(before.men(before.turn) & BIT[move.from_square])


def move_kind(before: Position, move: Move, after: Position) -> MoveKind:
    """The model's kind of ``move``: capture, promotion (a man move ending crowned), man or king move."""
    if move.captured:
        return MoveKind.CAPTURE
    if not is_man_move(before, move):
        return MoveKind.KING_MOVE
    if after.kings(before.turn) & BIT[move.to_square]:
        return MoveKind.PROMOTION
    return MoveKind.MAN_MOVE


def blocked(position: Position, rules: Rules = INTERNATIONAL) -> bool:
    """7.2.3: the side to move has pieces but no legal move."""
    return bool(position.pieces(position.turn)) and not legal_moves(position, rules)


def _side(color: Color) -> Side:
    return Side.WHITE if color is Color.WHITE else Side.BLACK


class Placements:
    """Placement ids as the model numbers them: the ply at which a placement first occurred."""

    def __init__(self) -> None:
        self._first: dict[tuple[int, int, int, int], int] = {}

    def id(self, position: Position, ply: int) -> int:
        key = (position.white_men, position.white_kings, position.black_men, position.black_kings)
        return self._first.setdefault(key, ply)


def event_of(
    before: Position, move: Move, after: Position, placement: int, rules: Rules = INTERNATIONAL
) -> Event:
    """One ply of a concrete game as the model sees it."""
    return Event(
        move_kind(before, move, after),
        material_of(after),
        placement,
        blocked(after, rules),
        lone_king_on_long_diagonal(after),
        bool(move.captured) and is_man_move(before, move),
    )


def abstract_game(
    position: Position,
    moves: Sequence[Move],
    counters: Counters | None = None,
    rules: Rules = INTERNATIONAL,
) -> tuple[Start, list[Event]]:
    """The model's start and events of a concrete game (``moves`` must be legal)."""
    counters = counters or Counters()
    placements = Placements()
    start = Start(
        material_of(position),
        _side(position.turn),
        placements.id(position, 0),
        blocked(position, rules),
        lone_king_on_long_diagonal(position),
        counters.occurrences,
        counters.no_progress_plies,
        counters.endgame_plies,
    )
    events = []
    for ply, move in enumerate(moves, start=1):
        after = play(position, move, rules)
        events.append(event_of(position, move, after, placements.id(after, ply), rules))
        position = after
    return start, events


# -- the readings that are no switch of the rule configuration --------------------------------


class LonePieceEnding(Game):
    """Reading ``endgame-lone-king-only`` flipped: a lone man is a weak side of 6.3/6.4 too."""

    def ending_of(self, position: Position) -> OracleEnding | None:
        found = None
        for strong in (Color.WHITE, Color.BLACK):
            weak = strong.opponent
            if position.pieces(weak).bit_count() == 1 and position.pieces(strong):
                ending = OracleEnding(position.kings(strong).bit_count(), position.men(strong).bit_count())
                if self.rules.endgame_count_for(ending) is not None:
                    return ending
                found = found or ending
        return found


class HighestArticleFirst(Game):
    """Reading ``draw-precedence`` flipped: of draws expiring together, the highest article."""

    def first_article(self, articles: list[str]) -> str:
        return max(articles, key=lambda a: tuple(int(p) for p in a.split(".")))


def replay(
    game_type: type[Game] | Any,
    position: Position,
    moves: Sequence[Move | str],
    counters: Counters | None = None,
    rules: Rules = INTERNATIONAL,
) -> list[Outcome]:
    """The outcome at every ply of a game played with ``game_type(position, counters, rules)``."""
    game = game_type(position, counters or Counters(), rules)
    found = [game.outcome()]
    for move in moves:
        game.play(move)
        found.append(game.outcome())
    return found
