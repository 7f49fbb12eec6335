"""What a game's outcome relies on besides its own rule: the draw rules that must *not* fire first.

An outcome question (a position, its counters, moves, and the result, rule and ply expected)
checks one rule; the answer is also wrong if another draw rule fires before it, or on its ply, in
an engine that gets that other rule wrong in the usual ways (rules.md, the pitfalls of Art. 6):

* **6.1** -- a position occurs a second time with the same side to move at or before the answer's
  ply (an engine drawing on the second occurrence ends the game there), or one placement a third
  time with either side to move (an engine ignoring the side to move);
* **6.2** -- the kings alone move, nothing captured, for :data:`KING_RUN` plies or more at or before
  the answer's ply (an engine counting 25 plies instead of 25 moves each draws there; the same run
  reaches 6.2's own limit 25 plies later), counting the 6.2 count of the setup;
* **6.3, 6.4** -- the game passes through the material of one of their endings (three pieces with
  a king against a lone king; two pieces with a king, or a king, against one): an engine whose count
  is wrong in length, or starts from the wrong ply, ends the game there;
* **endgame-lone-king-only** -- the same material against a lone *man*: an engine applying the
  6.3/6.4 counts there (the reading read the other way) ends the game.

The answer's ply is the expected outcome's ply for a game that ends, else the number of moves.
The game is replayed with the oracle's move generator only to know the positions it passes
through (no outcome of the oracle's is used).

A wrong outcome of a corpus question is filed by :func:`file_outcome` (the reading the draw model
of :mod:`conformance.core.filing.outcomes` shows, or the draw rule firing first, or the question's
rule), or by the moves where the engine's legal moves change its game (:func:`file_game`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.answers import file_answer
from conformance.core.filing.base import Filing
from conformance.core.filing.moves import relies_on
from conformance.core.filing.outcomes import reading_filing
from oracle.counters import Counters
from oracle.errors import MoveError
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, parse_move
from oracle.position import Color, Kind, Position

KING_RUN: Final = 25
"""Plies of king moves without capture from which an outcome relies on 6.2 not firing (rules.md,
Art. 6.2: counting 25 plies instead of 25 moves each is the pitfall that fires earliest)."""

LONE_KING_ONLY: Final = "endgame-lone-king-only"

OUTCOME_RULES: Final = frozenset({"6.1", "6.2", "6.3", "6.4", LONE_KING_ONLY})
"""The rules an outcome may rely on not firing (:func:`draw_requires`)."""


def replay(position: Position, moves: Sequence[str]) -> Iterator[tuple[Position, Move]]:
    """Each position of the game and the move played from it (stops at a move that is not legal)."""
    for text in moves:
        try:
            move = parse_move(position, text, Notation.PDN)
        except MoveError:
            return
        yield position, move
        position = play(position, move)


def _ending(position: Position) -> str | None:
    """``6.3``, ``6.4`` or the lone-man reading when the material is (or, but for the lone piece
    being a man, would be) the ending of a 6.3/6.4 count; None otherwise."""
    counts = {color: (position.count(color, Kind.KING), position.count(color, Kind.MAN)) for color in Color}
    for strong in Color:
        kings, men = counts[strong]
        weak_kings, weak_men = counts[strong.opponent]
        if weak_kings + weak_men != 1 or kings == 0 or kings + men > 3:
            continue
        group = "6.3" if kings + men == 3 else "6.4"
        return group if weak_kings else LONE_KING_ONLY
    return None


def draw_requires(
    fen: str,
    counters: Mapping[str, int],
    moves: Sequence[str],
    result: str,
    ply: int | None,
    rule: str | None = None,
) -> frozenset[str]:
    """The draw rules (and the lone-king reading) an outcome relies on not firing before its answer."""
    position = Position.from_fen(fen)
    answer = ply if result != "ongoing" and ply is not None else len(moves)
    positions = [position]
    kinds: list[tuple[bool, bool]] = []  # (a king move, a capture) per ply
    for before, move in replay(position, moves):
        piece = before.piece_at(move.from_square)
        kinds.append((piece is not None and piece.kind is Kind.KING, move.is_capture))
        positions.append(play(before, move))
    positions = positions[: answer + 1]
    needs: set[str] = set()
    seen: Counter[Position] = Counter({positions[0]: max(1, int(counters.get("occurrences", 1)))})
    placements: Counter[Position] = Counter({positions[0].with_turn(Color.WHITE): seen[positions[0]]})
    run = int(counters.get("no_progress_plies", 0))
    longest = run
    for index, after in enumerate(positions[1:]):
        king, capture = kinds[index]
        run = run + 1 if king and not capture else 0
        longest = max(longest, run)
        seen[after] += 1
        placements[after.with_turn(Color.WHITE)] += 1
        if seen[after] >= 2 or placements[after.with_turn(Color.WHITE)] >= 3:
            needs.add("6.1")
    if seen[positions[0]] >= 2:
        needs.add("6.1")
    if longest >= KING_RUN:
        needs.add("6.2")
    needs |= {ending for each in positions if (ending := _ending(each)) is not None}
    if result != "ongoing" and isinstance(rule, str):
        needs.add(rule)  # the rule that ends the game must fire (the case's own, unless a reading's tie)
    return frozenset(needs)


def _named(outcome: Mapping[str, object]) -> tuple[str | None, int | None]:
    """The draw rule an outcome names and its ply (None, None for anything but a draw)."""
    if outcome.get("result") != "draw":
        return None, None
    rule, ply = outcome.get("rule"), outcome.get("ply")
    return (str(rule) if rule is not None else None), (ply if isinstance(ply, int) else None)


def file_outcome(
    fen: str,
    counters: Mapping[str, int],
    moves: Sequence[str],
    expected: Mapping[str, object],
    got: Mapping[str, object],
    own: str,
    own_articles: Sequence[str],
    article: str | None = None,
) -> Filing:
    """The rule a wrong outcome breaks: the reading the draw model shows the engine reads the other
    way, where one does (:func:`conformance.core.filing.outcomes.reading_filing`: a 6.4 count against a
    lone man is ``endgame-lone-king-only``'s, a 6.3 count carried past the capture into 6.4
    ``endgame-group-change``'s, relying on the articles of the plain mistakes that give the same
    answer); else the draw rule the engine's answer names, when it fires at or before the expected
    answer's ply where the rules do not (a draw by 6.1 on a second occurrence inside a 6.2 question
    is 6.1's defect) -- for a question resting on a reading, only when that rule is not one the
    reading reads, or is the expected one firing early; else ``own`` (the question's rule).
    ``own_articles`` are the articles of the question's rule (a reading's articles: a draw it names
    on the expected ply is the reading's own matter), ``article`` the question's article.
    ``requires``: the rules of the moves played up to there, and the rule the expected outcome
    names when it is not the question's own (a reading's tie-break relies on both rules firing)."""
    result = str(expected.get("result"))
    ply = expected.get("ply")
    answer = ply if result != "ongoing" and isinstance(ply, int) else len(moves)
    rule, at = _named(got)
    position = Position.from_fen(fen)
    played = list(replay(position, moves))
    shown = reading_filing(position, moves, got, counters=Counters.from_dict(counters))
    charged = own
    earlier = rule is not None and at is not None and at <= answer and rule != own
    own_count_early = rule == expected.get("rule") and at is not None and at < answer
    if shown is not None:
        charged = shown.rule
    elif earlier and rule is not None and (rule not in own_articles or own_count_early):
        # another draw rule fired where the rules go on, or the expected rule fired early: that
        # rule's defect; a reading's other articles firing otherwise are the reading's own matter
        # (a 6.3 count carried into 6.4: endgame-group-change), blocked where the article fails
        charged = rule
    upto = min(answer, at if at is not None else answer, len(played))
    needs = {r for before, move in played[:upto] for r in relies_on(before, move)}
    if shown is not None:
        needs |= set(shown.requires)
    if charged == own and expected.get("rule") not in (None, own, article):
        needs.add(str(expected["rule"]))  # the rule that ends the game: it must fire for the answer
    why = (
        shown.why
        if shown is not None
        else ""
        if charged == own
        else f"the engine's game ends by {rule} at ply {at}, where the rules go on"
    )
    return Filing(charged, tuple(sorted(needs - {charged}, key=article_sort_key)), why)


def file_game(
    fen: str,
    moves: Sequence[str],
    upto: int,
    listed: Callable[[Position], Sequence[tuple[int, int, frozenset[int]]] | None],
) -> Filing | None:
    """The rule the engine's legal moves break where they change its game, at most ``upto`` plies in
    (``listed``: the engine's legal moves of a position, or None when it cannot say): a position
    where it does not list the move the game plays, or has no move while the rules have one (or
    the other way round: the game would end there, Art. 7.2). Moves it gets wrong elsewhere do not
    explain a wrong outcome (an engine whose kings do not fly plays a game of one-square steps)."""
    position = Position.from_fen(fen)
    played = list(replay(position, moves))[:upto]
    steps: list[tuple[Position, Move | None]] = [*played]
    if len(played) == upto:
        steps.append((play(played[-1][0], played[-1][1]) if played else position, None))
    for before, move in steps:
        answer = listed(before)
        if answer is None:
            return None
        keys = {(a, b, frozenset(c)) for a, b, c in answer}
        ends = (not keys) != (not legal_moves(before))
        if (move is not None and move.key not in keys) or ends:
            filing = file_answer(before, answer)
            if filing is not None:
                return filing
    return None
