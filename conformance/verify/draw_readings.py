"""The other readings of Art. 6 that a game can tell apart, each for z3 and for the oracle.

For every switch of the rule configuration that concerns Art. 6 (:mod:`oracle.rules`, the mutants
of :mod:`conformance.engines.mutants`) and every reading of ``cases/articles.yaml`` about Art. 6, a
:class:`Reading` names the other way of reading the rules -- as the model's
:class:`~conformance.core.draw_events.DrawRules` and as the oracle's rules and
:class:`~oracle.game.Game` (a subclass for readings that are no switch). :data:`READINGS` lists them;
:mod:`conformance.verify.draw_synthesis` finds the game that tells each apart from the project's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final

from conformance.core.draw_events import DRAW_ARTICLES, GROUP_6_3, GROUP_6_4, PROJECT, DrawRules
from conformance.core.draw_games import HighestArticleFirst, LonePieceEnding, draw_rules_of
from conformance.engines.draw_mutants import (
    DRAW_READING_MUTANTS,
    CountCarriedIntoNewGroup,
    LongDiagonalApplied,
)
from conformance.engines.mutants import mutant
from oracle.counters import Counters
from oracle.game import Game
from oracle.position import Position
from oracle.rules import ARTICLE_6_3, ARTICLE_6_4, INTERNATIONAL, Rules

__all__ = ["NEVER", "READINGS", "GameFactory", "Reading"]

GameFactory = Callable[[Position, Counters, Rules], Game]


def _plain_game(position: Position, counters: Counters, rules: Rules) -> Game:
    return Game(position, counters, rules)


@dataclasses.dataclass(frozen=True)
class Reading:
    """Another reading of Art. 6: ``model`` for z3, ``rules`` and ``game`` for the oracle."""

    name: str
    concerns: str
    articles: tuple[str, ...]
    model: DrawRules
    rules: Rules = INTERNATIONAL
    game: GameFactory = _plain_game
    reading: str | None = None
    """The reading of ``cases/articles.yaml`` this one flips, if any."""

    def new_game(self, position: Position, counters: Counters) -> Game:
        return self.game(position, counters, self.rules)


def _switch(
    name: str, concerns: str, articles: tuple[str, ...], reading: str | None = None, **changes: object
) -> Reading:
    rules = dataclasses.replace(INTERNATIONAL, **changes)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, draw_rules_of(rules), rules, reading=reading)


def _gallery(
    name: str, concerns: str, articles: tuple[str, ...], reading: str | None = None, **model: object
) -> Reading:
    """A draw-rule mutant of :mod:`conformance.engines.mutants`, with the model's reading of it."""
    engine = mutant(name)
    drawn = dataclasses.replace(draw_rules_of(engine.rules), **model)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, drawn, engine.rules, engine.game_factory, reading)


def _read_otherwise(reading: str, article: str) -> dict[str, object]:
    """The fields of the model's rules that ``reading`` read the other way on ``article`` changes."""
    flipped = PROJECT.read_otherwise(reading, article)
    return {
        f.name: getattr(flipped, f.name)
        for f in dataclasses.fields(flipped)
        if getattr(flipped, f.name) != getattr(PROJECT, f.name)
    }


def _reading(name: str) -> Reading:
    """The gallery's mutant ``READING@ARTICLE``, with the model's reading of it."""
    reading, article = name.split("@")
    return _gallery(
        name,
        f"reading {reading} read otherwise on {article}",
        (article,),
        reading,
        **_read_otherwise(reading, article),
    )


def _subclass(
    name: str,
    concerns: str,
    articles: tuple[str, ...],
    reading: str | None,
    game: type[Game],
    **model: object,
) -> Reading:
    drawn = dataclasses.replace(PROJECT, **model)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, drawn, INTERNATIONAL, game, reading)


NEVER: Final = 500
"""Moves each of a count that no game of the model reaches (1,000 plies: its numbers have
:data:`~conformance.verify.draw_smt.WIDTH` bits)."""

_RESTARTS_6_3 = dataclasses.replace(ARTICLE_6_3, restarts_on_change=True)
_RESTARTS_6_4 = dataclasses.replace(ARTICLE_6_4, restarts_on_change=True)

READINGS: Final[dict[str, Reading]] = {
    r.name: r
    for r in (
        # switches of the rule configuration (and the gallery's mutants of them)
        _gallery("repetition-on-second", "switch repetition_draw = 2", ("6.1",)),
        _gallery("repetition-on-fourth", "switch repetition_draw = 4", ("6.1",)),
        _switch("repetition-off", "switch repetition_draw = None", ("6.1",), repetition_draw=None),
        _gallery("no-progress-24-moves", "switch no_progress_moves = 24", ("6.2",)),
        _gallery("no-progress-26-moves", "switch no_progress_moves = 26", ("6.2",)),
        _switch("no-progress-off", "switch no_progress_moves = None", ("6.2",), no_progress_moves=None),
        _gallery("6.3-fifteen-moves", "switch 6.3 moves_each = 15", ("6.3",)),
        _gallery("6.3-seventeen-moves", "switch 6.3 moves_each = 17", ("6.3",)),
        _gallery("6.4-four-moves", "switch 6.4 moves_each = 4", ("6.4",)),
        _gallery("6.4-six-moves", "switch 6.4 moves_each = 6", ("6.4",)),
        _switch(
            "6.4-restarts-on-change",
            "switch 6.4 restarts_on_change",
            ("6.4",),
            "endgame-no-restart",
            endgame_counts=(ARTICLE_6_3, _RESTARTS_6_4),
        ),
        _switch(
            "endgame-restarts-on-change",
            "switch restarts_on_change of both groups",
            ("6.3", "6.4"),
            "endgame-no-restart",
            endgame_counts=(_RESTARTS_6_3, _RESTARTS_6_4),
        ),
        _gallery("6.4-missing-king-v-king", "switch 6.4 endings without K v K", ("6.4",)),
        _gallery("no-endgame-counts", "switch endgame_counts = ()", ("6.3", "6.4")),
        # the gallery's draw-rule bugs
        _gallery(
            "no-draw-rules",
            "mutant: Art. 6 left out",
            ("6.1", "6.2", "6.3", "6.4"),
            repetition_draw=None,
            no_progress_moves=None,
            # The engine keeps the counts of 6.3/6.4 (as the oracle's game does) but never draws.
            groups=tuple(dataclasses.replace(group, moves_each=NEVER) for group in (GROUP_6_3, GROUP_6_4)),
        ),
        _gallery(
            "repetition-ignores-side",
            "6.1: the side to move is part of the position",
            ("6.1",),
            repetition_has_turn=False,
        ),
        _gallery(
            "man-move-keeps-25-move-count",
            "6.2: a man move resets the count",
            ("6.2",),
            man_move_resets=False,
        ),
        *(
            _gallery(
                f"{article}-off-by{plies:+d}-ply",
                f"mutant: {article} {plies:+d} ply",
                (article,),
                limit_offsets=((article, plies),),
            )
            for article in ("6.2", "6.3", "6.4")
            for plies in (-1, 1)
        ),
        _gallery(
            "capture-keeps-25-move-count", "6.2: a capture resets the count", ("6.2",), capture_resets=False
        ),
        # readings of cases/articles.yaml, each read the other way on one article (the gallery's)
        *(_reading(name) for name in DRAW_READING_MUTANTS),
        # and on both groups at once, or under the names the synthesised cases cite
        _subclass(
            "endgame-count-carried",
            "reading endgame-group-change",
            ("6.4",),
            "endgame-group-change",
            CountCarriedIntoNewGroup,
            # a count carried into any group entered from another (only 6.3 -> 6.4 can happen)
            groups=tuple(dataclasses.replace(g, fresh_count_on_entry=False) for g in PROJECT.groups),
        ),
        _subclass(
            "endgame-lone-piece",
            "reading endgame-lone-king-only",
            ("6.4",),
            "endgame-lone-king-only",
            LonePieceEnding,
            groups=tuple(dataclasses.replace(g, lone_king_only=False) for g in PROJECT.groups),
        ),
        _subclass(
            "long-diagonal-applied",
            "reading long-diagonal-not-applied",
            ("6.3",),
            "long-diagonal-not-applied",
            LongDiagonalApplied,
            long_diagonal_moves=LongDiagonalApplied.SHORT_MOVES,
        ),
        _subclass(
            "highest-article-first",
            "reading draw-precedence",
            ("6.1", "6.2", "6.3", "6.4"),
            "draw-precedence",
            HighestArticleFirst,
            precedence=tuple(reversed(DRAW_ARTICLES)),
        ),
    )
}
"""Every other reading of Art. 6 (and of its meeting with 7.2) that a game can tell apart."""
