"""The gallery's draw mutants: the oracle's game with one rule of Art. 6 (or its meeting with 7.2)
broken each, joined to the gallery of :mod:`conformance.engines.mutants`.

* a draw-rule bug: a :class:`~oracle.game.Game` subclass overriding one rule step (the side to
  move left out of 6.1, a reset of 6.2 missed, a count a ply off, no draw rule at all);
* a reading of Art. 6 read the other way on one article only (``READING@ARTICLE``: a switch of
  the rules, or a :class:`~oracle.game.Game` subclass), one per article the reading lists in
  cases/articles.yaml (:data:`DRAW_READINGS`, :data:`DRAW_READING_MUTANTS`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Final

from conformance.engines.oracle_engine import OracleEngine
from oracle.board import bitboard
from oracle.game import Game
from oracle.moves import Move
from oracle.outcome import Outcome
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, EndgameCount, Ending, Rules

# -- draw-rule bugs ---------------------------------------------------------------------------


class RepetitionIgnoresSide(Game):
    """6.1 broken: the same placement repeats whoever is to move."""

    def repetition_key(self, position: Position) -> Hashable:
        return position.with_turn(Color.WHITE)


class ManMoveKeepsNoProgress(Game):
    """6.2 broken: a man move does not reset the 25-move count (only captures do)."""

    def resets_no_progress(self, before: Position, move: Move) -> bool:
        return move.is_capture


class CaptureKeepsNoProgress(Game):
    """6.2 broken: a capture does not reset the 25-move count (only man moves do)."""

    def resets_no_progress(self, before: Position, move: Move) -> bool:
        return bool(before.men(before.turn) & bitboard([move.from_square]))


class NoDrawRules(Game):
    """Art. 6 left out: no draw rule ever fires (an engine that only knows how games are won)."""

    def draws_at(
        self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
    ) -> list[str]:
        return []


def off_by(plies: int, article: str) -> type[Game]:
    """The count of ``article`` (6.2, 6.3 or 6.4) fires ``plies`` plies early (-1) or late (+1)."""

    class OffByOne(Game):
        def draws_at(
            self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
        ) -> list[str]:
            if article == "6.2":
                no_progress -= plies
            elif group is not None and group.article == article:
                endgame_plies -= plies
            return super().draws_at(occurrences, no_progress, group, endgame_plies)

    OffByOne.__name__ = OffByOne.__qualname__ = f"OffBy{plies:+d}In{article.replace('.', '_')}"
    return OffByOne


def game_mutant(name: str, game: type[Game], rules: Rules = INTERNATIONAL) -> Callable[[], OracleEngine]:
    return lambda: OracleEngine(rules, name=name, game_factory=lambda p, c, r: game(p, c, r))


# -- the readings of Art. 6 broken on one article at a time ------------------------------------
#
# One mutant per (reading, article) that cases/articles.yaml lists for a draw reading: the reading
# read the other way on that article only, everything else right, so that a suite is shown to tell
# each reading apart on each article it touches (the verifier's model reads them the same way:
# conformance.core.draw_events.DrawRules.read_otherwise, whose docstring says what each means).

_DRAW_ARTICLES: Final = ("6.1", "6.2", "6.3", "6.4")


def _group_named(rules: Rules, article: str) -> EndgameCount:
    return next(count for count in rules.endgame_counts if count.article == article)


def _restarting(article: str) -> Rules:
    """``endgame-no-restart`` broken on ``article``: a man move, promotion or capture inside the
    group restarts its count (a switch of the rules)."""
    counts = tuple(
        dataclasses.replace(count, restarts_on_change=count.article == article)
        for count in INTERNATIONAL.endgame_counts
    )
    return dataclasses.replace(INTERNATIONAL, endgame_counts=counts)


def _lone_man_ending(article: str) -> type[Game]:
    """``endgame-lone-king-only`` broken on ``article``: its count applies against a lone man too."""

    class LoneManEnding(Game):
        def ending_of(self, position: Position) -> Ending | None:
            found = super().ending_of(position)  # against a lone king (K v M: Black's man is strong)
            if found is not None and self.rules.endgame_count_for(found) is not None:
                return found
            for weak in (Color.WHITE, Color.BLACK):
                strong = weak.opponent
                if position.kings(weak) or position.men(weak).bit_count() != 1:
                    continue
                ending = Ending(position.kings(strong).bit_count(), position.men(strong).bit_count())
                count = self.rules.endgame_count_for(ending)
                if count is not None and count.article == article:
                    return ending
            return found

    return LoneManEnding


class CountCarriedIntoNewGroup(Game):
    """``endgame-group-change`` broken on 6.4: the count of 6.3 carries on into 6.4 after the
    capture that changes the group (6.4 then draws as soon as 6.3 has run ten plies)."""

    def endgame_count_after(
        self,
        before: Position,
        move: Move,
        group_before: EndgameCount | None,
        plies_before: int,
        group_after: EndgameCount | None,
    ) -> int:
        if group_after is not None and group_before is not None and group_before != group_after:
            return plies_before + 1
        return super().endgame_count_after(before, move, group_before, plies_before, group_after)


class _SeesThePly(Game):
    """A game whose rule steps see the position being judged, its legal moves and its ply (the
    steps of :class:`~oracle.game.Game` are given the counts only)."""

    _position: Position | None = None
    _legal: tuple[Move, ...] = ()
    _ply = 0

    def _judge(
        self,
        position: Position,
        legal: tuple[Move, ...],
        occurrences: int,
        no_progress: int,
        group: EndgameCount | None,
        endgame_plies: int,
        ply: int,
    ) -> Outcome:
        self._position, self._legal, self._ply = position, legal, ply
        return super()._judge(position, legal, occurrences, no_progress, group, endgame_plies, ply)


class CountOutlivesItsGroup(_SeesThePly):
    """``endgame-group-change`` broken on 6.3: after a capture takes the game from 6.3 into 6.4,
    6.3's count still applies; the game is drawn (Art. 6.3) sixteen moves each after the 6.3
    ending arose if 6.4's count has not drawn it before."""

    def _6_3_ran_out(self, ply: int) -> bool:
        """Whether 6.3's count, run on since its ending arose, has reached its limit at ``ply``:
        walking back through the endings played before, to the first 6.3 ending of the stretch."""
        count_6_3 = _group_named(self.rules, "6.3")
        arose, seen_6_3 = None, False
        for back, earlier in enumerate(reversed(self.positions)):  # plies ply - 1, ply - 2, ...
            group = self.endgame_group(earlier)
            if group is None or (seen_6_3 and group != count_6_3):
                break
            if group == count_6_3:
                seen_6_3, arose = True, ply - 1 - back
        else:
            if seen_6_3 and arose == 0:
                arose = -self.setup_counters.endgame_plies
        return arose is not None and ply - arose >= count_6_3.plies

    def draws_at(
        self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
    ) -> list[str]:
        articles = super().draws_at(occurrences, no_progress, group, endgame_plies)
        in_6_4 = group is not None and group.article == "6.4" and self._ply > 0
        if in_6_4 and "6.3" not in articles and self._6_3_ran_out(self._ply):
            articles.append("6.3")
        return articles


class LongDiagonalApplied(_SeesThePly):
    """``long-diagonal-not-applied`` broken (on 6.3, its only article): the 2024 clause read one
    way -- a 6.3 ending is drawn after five moves each (10 plies) if at that ply the lone king is the
    only piece on the long diagonal 46-5."""

    SHORT_MOVES: Final = 5
    LONG_DIAGONAL: Final = bitboard([5, 10, 14, 19, 23, 28, 32, 37, 41, 46])

    def _lone_king_alone_on_it(self, position: Position) -> bool:
        on_it = position.occupied & self.LONG_DIAGONAL
        for color in Color:
            lone = position.pieces(color)
            if lone.bit_count() == 1 and position.kings(color) == lone and on_it == lone:
                return True
        return False

    def draws_at(
        self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
    ) -> list[str]:
        articles = super().draws_at(occurrences, no_progress, group, endgame_plies)
        short = group is not None and group.article == "6.3" and endgame_plies >= 2 * self.SHORT_MOVES
        position = self._position
        if short and position is not None and self._lone_king_alone_on_it(position) and "6.3" not in articles:
            articles.append("6.3")
        return articles


def _draw_before_win(articles: frozenset[str]) -> type[Game]:
    """``win-beats-draw`` broken on one article: a draw of ``articles`` expiring on the ply of a win
    is preferred to the win (on 7.2, the win's article: every draw is) -- the count checked before
    the move's result, so that a capture taking the lone king on the ply its 6.3/6.4 count runs
    out is a draw too, though it ends the ending."""

    class DrawBeforeWin(_SeesThePly):
        _draws: tuple[str, ...] = ()

        def draws_at(
            self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
        ) -> list[str]:
            draws = super().draws_at(occurrences, no_progress, group, endgame_plies)
            clock = self.endgame_clock if self._ply else None  # the count before this ply's move
            lost = self._position is not None and self.loss_rule(self._position, self._legal) is not None
            if lost and clock is not None and clock.plies + 1 >= clock.limit and clock.article in articles:
                draws = list(dict.fromkeys([*draws, clock.article]))  # the move ran it out
            self._draws = tuple(draws)
            return draws

        def win_beats_draw(self) -> bool:
            return not articles & set(self._draws)

    return DrawBeforeWin


def _precedence_broken(article: str) -> type[Game]:
    """``draw-precedence`` broken on one article: of draw rules expiring together, 6.1 is named last
    (on 6.1), or ``article`` first (on 6.2-6.4)."""
    order = [a for a in _DRAW_ARTICLES if a != article]
    order = [*order, article] if article == "6.1" else [article, *order]

    class PrecedenceBroken(Game):
        def first_article(self, articles: list[str]) -> str:
            return min(articles, key=order.index)

    return PrecedenceBroken


def _reading_game(reading: str, article: str) -> type[Game]:
    """The game of a reading read the other way on one article (not a switch of the rules)."""
    if reading == "endgame-lone-king-only":
        return _lone_man_ending(article)
    if reading == "endgame-group-change":
        return CountOutlivesItsGroup if article == "6.3" else CountCarriedIntoNewGroup
    if reading == "long-diagonal-not-applied":
        return LongDiagonalApplied
    if reading == "win-beats-draw":
        return _draw_before_win(frozenset(_DRAW_ARTICLES if article == "7.2" else (article,)))
    return _precedence_broken(article)


def _reading_mutant(reading: str, article: str) -> Callable[[], OracleEngine]:
    name = f"{reading}@{article}"
    if reading == "endgame-no-restart":
        return lambda: OracleEngine(_restarting(article), name=name)
    return game_mutant(name, _reading_game(reading, article))


DRAW_READINGS: Final = (
    ("endgame-no-restart", ("6.3", "6.4")),
    ("endgame-group-change", ("6.3", "6.4")),
    ("endgame-lone-king-only", ("6.3", "6.4")),
    ("long-diagonal-not-applied", ("6.3",)),
    ("win-beats-draw", ("7.2", "6.2", "6.3", "6.4")),
    ("draw-precedence", ("6.1", "6.2", "6.3", "6.4")),
)
"""The readings of Art. 6 in cases/articles.yaml and the articles each lists (a test checks it)."""

DRAW_READING_MUTANTS: Final[dict[str, Callable[[], OracleEngine]]] = {
    f"{reading}@{article}": _reading_mutant(reading, article)
    for reading, articles in DRAW_READINGS
    for article in articles
}
"""``READING@ARTICLE``: the reading read the other way on that article only."""


DRAW_READING_BREAKS: Final[dict[str, tuple[str, ...]]] = {
    name: (name.split("@")[0],) for name in DRAW_READING_MUTANTS
}
"""Each ``READING@ARTICLE`` mutant breaks its reading only (filed under the reading, as the corpus
files the cases resting on it)."""
