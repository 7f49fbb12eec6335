"""Which rule an outcome disagreement is filed under: one draw or game-end article, or a reading.

``verify`` compares an engine's outcome of a game (result, deciding rule, ply) with the oracle's
(:mod:`oracle.game`). A disagreement is a claim about one rule (rules.md, Art. 6 and 7.2):

* a draw expected, the game going on (or ending otherwise) -> the expected draw's article: the
  engine missed it (6.3 expected, ``ongoing`` got -> 6.3);
* the game going on, a draw got -> the got draw's article: the engine drew where that rule does
  not (``draw 6.1`` got, ``ongoing`` expected -> 6.1); a win got -> its 7.2 sub-article;
* a win expected, anything else got -> the win's sub-article (7.2.2 no piece left, 7.2.3 blocked);

unless a *reading* of ``cases/articles.yaml`` explains it: the game replayed by the oracle under
that reading read the other way gives exactly the engine's answer (``win-beats-draw``: a win on
the ply a count expires read as a draw; ``endgame-no-restart``: a count restarted by a man move,
a promotion or a capture inside its group; ``endgame-group-change``: 6.3's count carried into
6.4; ``draw-precedence``: the higher article named when two draws coincide). The result is then
filed under the reading, as the corpus files cases whose expectation rests on one. The draw
campaigns (:mod:`conformance.verify.draw_campaigns`) ask a control game without the change
first, so that an engine with a count of the wrong length is charged to the count's article
before a reading could explain the game with the change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from conformance.filing.base import Filing
from conformance.filing.played import file_move
from conformance.mutants import DrawBeatsWin
from conformance.verify.draw_games import CountCarriedIntoNewGroup, HighestArticleFirst
from oracle.errors import GameOverError, MoveError
from oracle.game import Counters, Game
from oracle.notation import Notation, parse_move
from oracle.position import Position
from oracle.rules import ARTICLE_6_3, ARTICLE_6_4, INTERNATIONAL, Rules

GameFactory = Callable[[Position, Counters, Rules], Game]

OUTCOME_RULES: Final = frozenset({"6.1", "6.2", "6.3", "6.4", "7.2", "7.2.2", "7.2.3"})
"""The rules an outcome can name (rules.md, Art. 6 and 7.2)."""


def _rules(*restarting: str) -> Rules:
    counts = tuple(
        dataclasses.replace(count, restarts_on_change=count.article in restarting)
        for count in (ARTICLE_6_3, ARTICLE_6_4)
    )
    return dataclasses.replace(INTERNATIONAL, endgame_counts=counts)


def _plain(position: Position, counters: Counters, rules: Rules) -> Game:
    return Game(position, counters, rules)


def _typed(game: type[Game]) -> GameFactory:
    return lambda position, counters, rules: game(position, counters, rules)


READINGS_READ_OTHERWISE: Final[Mapping[str, tuple[tuple[Rules, GameFactory], ...]]] = {
    "win-beats-draw": ((INTERNATIONAL, _typed(DrawBeatsWin)),),
    "endgame-no-restart": tuple((_rules(*r), _plain) for r in (("6.3",), ("6.4",), ("6.3", "6.4"))),
    "endgame-group-change": ((INTERNATIONAL, _typed(CountCarriedIntoNewGroup)),),
    "draw-precedence": ((INTERNATIONAL, _typed(HighestArticleFirst)),),
}
"""Each reading of Art. 6 and 7.2 (cases/articles.yaml), read the other way: rules and game."""


def _outcome(factory: GameFactory, rules: Rules, position: Position, moves: Sequence[str]) -> dict[str, Any]:
    game = factory(position, Counters(), rules)
    for text in moves:
        if game.is_over:  # the first ply the game is over is the one an engine reports
            break
        game.play(text)
    return dict(game.outcome().to_json())


def explaining_reading(position: Position, moves: Sequence[str], got: Mapping[str, Any]) -> str | None:
    """The reading which, read the other way, gives exactly the engine's outcome ``got``; or None."""
    for reading, variants in READINGS_READ_OTHERWISE.items():
        for rules, factory in variants:
            try:
                theirs = _outcome(factory, rules, position, moves)
            except MoveError:
                continue  # a move that reading's rules do not allow: not its answer
            if theirs == dict(got):
                return reading
    return None


def outcome_rule(
    position: Position,
    moves: Sequence[str],
    expected: Mapping[str, Any],
    got: Mapping[str, Any],
    default: str,
    *,
    readings: bool = True,
) -> str:
    """The one rule a disagreement between ``expected`` and ``got`` outcomes is filed under.

    See the module docstring: the rule of the side that ends the game where the other does not
    (the engine's when it ends it earlier, the oracle's when the engine misses it); on the same ply,
    the expected rule -- unless the engine claims a win there, which is charged to that win's rule.
    ``readings``: first ask whether a reading read the other way explains the engine's answer
    (only where a control game ruled out a count of the wrong length). ``default`` when the
    answer names no rule an outcome can have."""
    if readings:
        reading = explaining_reading(position, moves, got)
        if reading is not None:
            return reading
    expected_rule, got_rule = expected.get("rule"), got.get("rule")
    expected_over, got_over = expected.get("result") != "ongoing", got.get("result") != "ongoing"
    got_ply, expected_ply = got.get("ply"), expected.get("ply")
    got_first = got_over and (
        not expected_over
        or (isinstance(got_ply, int) and isinstance(expected_ply, int) and got_ply < expected_ply)
    )
    got_win = got.get("result") in ("white_wins", "black_wins")
    if got_first or (expected_over and got_win and expected.get("result") == "draw"):
        return str(got_rule) if got_rule in OUTCOME_RULES else str(expected_rule or default)
    return str(expected_rule) if expected_over else default


def refused_move_filing(position: Position, moves: Sequence[str], ply: int | None) -> Filing | None:
    """Where a refusal of the move at ``ply`` (1 = first) of ``moves`` from ``position`` is filed
    (:func:`conformance.filing.played.file_move`: a king move 3.9, a man's step 3.4, a capture the
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


def refused_move_rule(position: Position, moves: Sequence[str], ply: int | None) -> str | None:
    """The rule of :func:`refused_move_filing` (None when it cannot be told)."""
    filing = refused_move_filing(position, moves, ply)
    return filing.rule if filing is not None else None
