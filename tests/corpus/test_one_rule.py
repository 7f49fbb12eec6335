"""The corpus model of issue 10: one rule per case, judged on its own.

* ``requires`` only points down the layering of docs/cases.md, so that a rule's failures are
  blocked only by more basic rules, never the other way round;
* a case rests on a reading only when it names one of the reading's articles;
* questions about moves, captures and draws are asked about positions where both sides have
  pieces, except where an empty side is the point (FEN validity, Art. 7.2.2);
* every draw rule, reset, change of group and tie-break is also played from a fresh game (no
  counters) with king steps, man moves and one-square captures only.
"""

from __future__ import annotations

from functools import cache

import pytest

from conformance.core.corpus import Case, Corpus, OutcomeQuestion, load_corpus
from conformance.core.filing.layers import LAYER as FILING_LAYER
from conformance.core.filing.layers import layer_of
from conformance.core.move_rules import move_rule
from oracle.board import row_of
from oracle.errors import FenError
from oracle.moves import play
from oracle.notation import Notation, parse_move
from oracle.position import Color, Position

#: The layering of docs/cases.md, most basic first. A case may require only rules of lower layers.
LAYER = FILING_LAYER

#: Where a position with a side without pieces is the point of the case.
EMPTY_SIDE_ALLOWED = {"2", "fen-missing-section", "7.2.2"}

#: King moves of one square, man moves and captures of one piece over one square: every engine
#: with kings plays them, flying or not.
STEP_KINDS = {
    "man step",
    "promoting man step",
    "king move",
    "man capture",
    "backward man capture",
    "king capture",
}


@cache
def corpus() -> Corpus:
    return load_corpus()


def test_the_layering_names_every_article() -> None:
    assert set(LAYER) == set(corpus().articles)


@pytest.mark.parametrize("case", corpus().cases, ids=lambda c: c.id)
def test_requires_point_down_the_layering(case: Case) -> None:
    """Down the layering; a case resting on a reading may also require the articles the reading
    reads (the reading is judged on its own and needs them to work: a 6.3 case of
    endgame-group-change plays on into 6.4, whose count, wrong, would end it). The reading sits in
    the layer of its highest article, and no case of an article may require a reading of its layer,
    so this makes no cycle."""
    readings = {name: reading.articles for name, reading in corpus().readings.items()}
    upward = [
        rule
        for rule in case.requires
        if layer_of(rule, readings) >= layer_of(case.judged_under, readings)
        and not (case.reading and rule in readings[case.reading])
    ]
    assert not upward, f"{case.where}: {case.id} ({case.article}) requires {upward}, not below it"


def test_the_draw_readings_require_their_own_article() -> None:
    """A reading of Art. 6 only makes sense where the article itself works: its cases require
    their article, so that a failure is blocked when the engine fails the article elsewhere (an
    engine without 6.3 cannot be judged on how its 6.3 count behaves), not charged to the reading."""
    draw_readings = {
        name
        for name, reading in corpus().readings.items()
        if any(a.startswith("6.") for a in reading.articles)
    }
    assert len(draw_readings) >= 5
    resting = [case for case in corpus().cases if case.reading in draw_readings]
    assert {case.reading for case in resting} == draw_readings
    assert [case.id for case in resting if case.article not in case.requires] == []


def test_a_case_rests_on_a_reading_of_its_own_article() -> None:
    readings = corpus().readings
    wrong = [
        f"{case.id}: {case.reading} reads {readings[case.reading].articles}, not {case.article}"
        for case in corpus().cases
        if case.reading and case.article not in readings[case.reading].articles
    ]
    assert not wrong


def _position(case: Case) -> Position | None:
    try:
        return Position.from_fen(case.position)
    except FenError:  # an invalid FEN: a case about FEN validity
        return None


def test_positions_have_pieces_of_both_colours_unless_an_empty_side_is_the_point() -> None:
    one_sided = [
        f"{case.id} ({case.judged_under}): {case.position}"
        for case in corpus().cases
        if (position := _position(case)) is not None
        and not (position.pieces(Color.WHITE) and position.pieces(Color.BLACK))
        and case.judged_under not in EMPTY_SIDE_ALLOWED
    ]
    assert not one_sided, "positions a game can reach have pieces of both colours"


def test_the_empty_side_cases_exist() -> None:
    """The exception above is used: FEN validity and Art. 7.2.2 do show positions with one side empty."""
    judged = {
        case.judged_under
        for case in corpus().cases
        if (position := _position(case)) is not None
        and not (position.pieces(Color.WHITE) and position.pieces(Color.BLACK))
    }
    assert judged == EMPTY_SIDE_ALLOWED


# -- draw rules from a fresh game, with king steps only ---------------------------------------------


def _kinds(case: Case, question: OutcomeQuestion) -> list[str] | None:
    """The kind of every move of the sequence, or None if one is more than a step."""
    position = Position.from_fen(case.position)
    kinds = []
    for text in question.moves:
        move = parse_move(position, text, Notation.PDN)
        kind = move_rule(position, move).kind
        one_square_jump = abs(row_of(move.to_square) - row_of(move.from_square)) == 2
        if kind not in STEP_KINDS or (kind == "king capture" and not one_square_jump):
            return None
        kinds.append(kind)
        position = play(position, move)
    return kinds


#: (rule the case is judged under, a kind of move its sequence must contain, the result expected)
FRESH_STEP_COVERAGE = [
    ("6.1", None, "draw"),
    ("6.2", None, "draw"),
    ("6.2", "man step", "draw"),
    ("6.2", "promoting man step", "draw"),
    ("6.2", "king capture", "draw"),
    ("6.3", None, "draw"),
    ("6.3", "king capture", "draw"),
    ("6.3", "promoting man step", "draw"),
    ("6.4", None, "draw"),
    ("6.4", "king capture", "draw"),
    ("6.4", "promoting man step", "draw"),
    ("endgame-no-restart", "man step", "draw"),
    ("endgame-no-restart", "promoting man step", "draw"),
    ("endgame-no-restart", "king capture", "draw"),
    ("endgame-group-change", "king capture", "draw"),
    ("win-beats-draw", None, "white_wins"),
    ("draw-precedence", None, "draw"),
    ("7.2.2", None, "white_wins"),
    ("7.2.2", None, "black_wins"),
    ("7.2.3", None, "white_wins"),
    ("7.2.3", None, "black_wins"),
]


@pytest.mark.parametrize(("rule", "kind", "result"), FRESH_STEP_COVERAGE, ids=lambda x: str(x))
def test_every_draw_and_game_end_rule_is_played_fresh_with_steps(
    rule: str, kind: str | None, result: str
) -> None:
    found = []
    for case in corpus().cases:
        if case.judged_under != rule or case.counters:
            continue
        for question in case.questions:
            if isinstance(question, OutcomeQuestion) and question.result == result and question.moves:
                kinds = _kinds(case, question)
                if kinds is not None and (kind is None or kind in kinds):
                    found.append(case.id)
    assert found, f"no fresh, step-only case under {rule} with a {kind or 'sequence'} ending in {result}"


@pytest.mark.parametrize("rule", ["6.1", "6.2", "6.3", "6.4"])
def test_every_draw_rule_has_a_fresh_step_only_case_one_ply_short(rule: str) -> None:
    """Next to each draw, the same sequence one ply short: an engine drawing too early fails it."""
    draws, ongoing = set(), set()
    for case in corpus().cases:
        if case.judged_under != rule or case.counters:
            continue
        for question in case.questions:
            if isinstance(question, OutcomeQuestion) and _kinds(case, question) is not None:
                (draws if question.result == "draw" else ongoing).add((case.position, question.moves))
    assert any((position, moves[:-1]) in ongoing for position, moves in draws)
