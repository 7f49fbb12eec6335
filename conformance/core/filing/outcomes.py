"""Which rule a wrong outcome breaks: one draw or game-end article, or a reading, by the draw model.

An outcome (result, deciding rule, ply) an engine gives for a game differs from the rules'. A
disagreement is a claim about one rule (rules.md, Art. 6 and 7.2):

* a draw expected, the game going on (or ending otherwise) -> the expected draw's article: the
  engine missed it (6.3 expected, ``ongoing`` got -> 6.3);
* the game going on, a draw got -> the got draw's article: the engine drew where that rule does
  not (``draw 6.1`` got, ``ongoing`` expected -> 6.1); a win got -> its 7.2 sub-article;
* a win expected, anything else got -> the win's sub-article (7.2.2 no piece left, 7.2.3 blocked);

unless a *reading* of ``cases/articles.yaml`` explains it, as the verifier's draw model can tell
(:mod:`conformance.core.draw_events`, written apart from :mod:`oracle.game`): the game abstracted
into the model's events (:func:`~conformance.core.draw_games.abstract_game`, from the setup's
counters) and played through :class:`~conformance.core.draw_events.DrawBook` under the project's
rules with one reading read the other way on one article (:meth:`DrawRules.read_otherwise`, every
pair of :data:`~conformance.core.draw_events.READING_ARTICLES`) gives exactly the engine's answer
-- and gives the project's answer on every question the engine answered right before it in the
same row (``agreed``: a ``verify`` draw campaign's control games, the earlier prefixes). The result
is then filed under the reading, as the corpus files cases whose expectation rests on one: a count
applied against a lone man under ``endgame-lone-king-only``, a count restarted inside its group
under ``endgame-no-restart``, a draw named before a win under ``win-beats-draw``... Where a plain
mistake about an article (:data:`MISREADINGS`: a count a ply or two off...) gives the same answer,
the model cannot tell them apart: the result stays with the reading and relies on that article, as
a corpus case resting on a reading requires its articles (blocked where the engine fails the
article directly). The draw campaigns (:mod:`conformance.verify.draw_campaigns`) ask control games
pinning the counts first, so that an engine with a count of the wrong length fails a control, which
no reading explains, and is charged to the count's article.

``verify`` files every outcome disagreement here (:func:`outcome_filing`); ``run`` files a corpus
outcome question under the case's rule, or the draw rule firing first
(:func:`conformance.core.filing.draws.file_outcome`), unless the model shows a reading here
(:func:`reading_filing`). The moves of a game are filed apart, by the rules of the moves
(:func:`conformance.core.filing.draws.file_game`, :func:`conformance.core.filing.played.refused_move_filing`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from conformance.core.draw_events import PROJECT, READING_ARTICLES, DrawBook, DrawRules, Event, Start
from conformance.core.draw_games import abstract_game
from conformance.core.filing.base import Filing
from oracle.counters import Counters
from oracle.errors import MoveError
from oracle.moves import Move, play
from oracle.notation import Notation, parse_move
from oracle.position import Position

ENDING_RULES: Final = frozenset({"6.1", "6.2", "6.3", "6.4", "7.2", "7.2.2", "7.2.3"})
"""The rules an outcome can name (rules.md, Art. 6 and 7.2)."""

NO_COUNTERS: Final = Counters()
"""A fresh game's counters (``verify``'s games all start from one)."""

Answer = tuple[str, str | None, int | None]
"""An outcome as compared: result, and rule and ply when the game is over."""


def _answer(outcome: Mapping[str, Any]) -> Answer:
    if outcome.get("result") == "ongoing":
        return ("ongoing", None, None)
    return (str(outcome.get("result")), outcome.get("rule"), outcome.get("ply"))


@functools.lru_cache(maxsize=512)
def _abstract(
    position: Position, moves: tuple[str, ...], counters: Counters
) -> tuple[Start, tuple[Event, ...]] | None:
    """The model's start and events of a game given as PDN texts (None if a move is not legal)."""
    legal: list[Move] = []
    at = position
    try:
        for text in moves:
            move = parse_move(at, text, Notation.PDN)
            legal.append(move)
            at = play(at, move)
    except MoveError:
        return None
    start, events = abstract_game(position, legal, counters)
    return start, tuple(events)


def model_answer(
    rules: DrawRules, position: Position, moves: tuple[str, ...], counters: Counters = NO_COUNTERS
) -> Answer | None:
    """The outcome the draw model gives after ``moves`` from ``position`` set up with ``counters``
    under ``rules``: where the game ends, if it ends before the last move (the first ply it is
    over is the one an engine reports)."""
    game = _abstract(position, moves, counters)
    if game is None:
        return None
    start, events = game
    book = DrawBook(start, rules)
    for event in events:
        if book.outcome.is_over:
            break
        book.play(event)
    return _answer(book.outcome.to_json())


def _misreadings() -> tuple[tuple[str, DrawRules], ...]:
    """The plain mistakes about an article that are no reading (each an article and its rules):
    a count a ply or two off, a repetition on another occurrence, a reset of 6.2 missed, the side
    to move left out of 6.1, an ending missing from its group, a rule missing."""
    found: list[tuple[str, DrawRules]] = []
    for article in ("6.2", "6.3", "6.4"):
        found += [(article, replace(PROJECT, limit_offsets=((article, d),))) for d in (-2, -1, 1, 2)]
    found += [("6.1", replace(PROJECT, repetition_draw=n)) for n in (2, 4, None)]
    found += [("6.1", replace(PROJECT, repetition_has_turn=False))]
    found += [("6.2", replace(PROJECT, no_progress_moves=None))]
    found += [
        ("6.2", replace(PROJECT, man_move_resets=False)),
        ("6.2", replace(PROJECT, capture_resets=False)),
    ]
    for group in PROJECT.groups:
        found.append((group.article, replace(PROJECT, groups=tuple(g for g in PROJECT.groups if g != group))))
        for ending in group.endings:
            found.append((group.article, PROJECT.with_group(group.article, endings=group.endings - {ending})))
    return tuple(found)


MISREADINGS: Final = _misreadings()
"""What a disagreement may come from besides a reading: when one of these explains it as well,
the model cannot tell, and the disagreement stays with its article (relying on the reading)."""


def _explains(
    rules: DrawRules,
    position: Position,
    moves: tuple[str, ...],
    answer: Answer,
    agreed: Sequence[tuple[str, ...]],
    counters: Counters = NO_COUNTERS,
) -> bool:
    """``rules`` give the engine's ``answer`` after ``moves`` and the project's after each ``agreed``."""
    if model_answer(rules, position, moves, counters) != answer:
        return False
    return all(
        model_answer(rules, position, p, counters) == model_answer(PROJECT, position, p, counters)
        for p in agreed
    )


def explaining_readings(
    position: Position,
    moves: Sequence[str],
    got: Mapping[str, Any],
    agreed: Sequence[tuple[str, ...]] = (),
    counters: Counters = NO_COUNTERS,
) -> tuple[str, ...]:
    """The readings which, read the other way on one article, give exactly the engine's outcome
    ``got`` after ``moves`` and the project's after each of the ``agreed`` sequences."""
    answer, played = _answer(got), tuple(moves)
    found = [
        r
        for r, a in READING_ARTICLES
        if _explains(PROJECT.read_otherwise(r, a), position, played, answer, agreed, counters)
    ]
    return tuple(dict.fromkeys(found))


def misread_articles(
    position: Position,
    moves: Sequence[str],
    got: Mapping[str, Any],
    agreed: Sequence[tuple[str, ...]] = (),
    counters: Counters = NO_COUNTERS,
) -> tuple[str, ...]:
    """The articles of the plain mistakes (:data:`MISREADINGS`) that give the engine's outcome
    ``got`` after ``moves`` and the project's after each ``agreed`` sequence."""
    answer, played = _answer(got), tuple(moves)
    found = {a for a, rules in MISREADINGS if _explains(rules, position, played, answer, agreed, counters)}
    return tuple(sorted(found))


def explaining_reading(
    position: Position,
    moves: Sequence[str],
    got: Mapping[str, Any],
    agreed: Sequence[tuple[str, ...]] = (),
    counters: Counters = NO_COUNTERS,
) -> str | None:
    """The reading the engine's answer shows, where the draw model can tell: one reading explains
    it (with the ``agreed`` answers), and no plain mistake of :data:`MISREADINGS` does; or None."""
    readings = explaining_readings(position, moves, got, agreed, counters)
    if len(readings) != 1 or misread_articles(position, moves, got, agreed, counters):
        return None
    return readings[0]


def outcome_filing(
    position: Position,
    moves: Sequence[str],
    expected: Mapping[str, Any],
    got: Mapping[str, Any],
    default: str,
    *,
    readings: bool = True,
    agreed: Sequence[tuple[str, ...]] = (),
    counters: Counters = NO_COUNTERS,
) -> Filing:
    """Where a disagreement between ``expected`` and ``got`` outcomes is filed.

    See the module docstring: the rule of the side that ends the game where the other does not
    (the engine's when it ends it earlier, the oracle's when the engine misses it); on the same ply,
    the expected rule -- unless the engine claims a win there, which is charged to that win's rule.
    ``readings``: first ask which readings read the other way explain the engine's answer (and the
    ``agreed`` answers before it in the row: the control games that rule out a count of the wrong
    length). One reading: filed under it -- relying on the articles of the plain mistakes that
    explain the answer as well, as a corpus case resting on a reading requires its articles (a
    count a ply or two long also misses a draw a restarted count misses: blocked where the engine
    fails that article directly). Several: under the rule, relying on them. ``default`` when the
    answer names no rule an outcome can have; ``counters``: the setup's (a fresh game by default)."""
    rule = _outcome_rule(expected, got, default)
    if not readings:
        return Filing(rule)
    explaining = explaining_readings(position, moves, got, agreed, counters)
    if len(explaining) != 1:
        return Filing(rule, explaining)
    return _under_reading(explaining[0], position, moves, got, agreed, counters)


def reading_filing(
    position: Position,
    moves: Sequence[str],
    got: Mapping[str, Any],
    agreed: Sequence[tuple[str, ...]] = (),
    counters: Counters = NO_COUNTERS,
) -> Filing | None:
    """The one reading the engine's outcome ``got`` shows, relying on the articles of the plain
    mistakes that give it too (see :func:`outcome_filing`); None when no reading, or several,
    explain it."""
    explaining = explaining_readings(position, moves, got, agreed, counters)
    if len(explaining) != 1:
        return None
    return _under_reading(explaining[0], position, moves, got, agreed, counters)


def _under_reading(
    reading: str,
    position: Position,
    moves: Sequence[str],
    got: Mapping[str, Any],
    agreed: Sequence[tuple[str, ...]],
    counters: Counters,
) -> Filing:
    mistakes = misread_articles(position, moves, got, agreed, counters)
    why = f"the draw model with {reading} read the other way gives the engine's answer"
    if mistakes:
        why += f" (so does a plain mistake of {', '.join(mistakes)})"
    return Filing(reading, mistakes, why)


def _outcome_rule(expected: Mapping[str, Any], got: Mapping[str, Any], default: str) -> str:
    expected_rule, got_rule = expected.get("rule"), got.get("rule")
    expected_over, got_over = expected.get("result") != "ongoing", got.get("result") != "ongoing"
    got_ply, expected_ply = got.get("ply"), expected.get("ply")
    got_first = got_over and (
        not expected_over
        or (isinstance(got_ply, int) and isinstance(expected_ply, int) and got_ply < expected_ply)
    )
    got_win = got.get("result") in ("white_wins", "black_wins")
    if got_first or (expected_over and got_win and expected.get("result") == "draw"):
        return str(got_rule) if got_rule in ENDING_RULES else str(expected_rule or default)
    return str(expected_rule) if expected_over else default
