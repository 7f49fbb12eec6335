"""The plain-Python reading of the draw model on event sequences worked out by hand (Art. 6, 7.2).

Each expectation is counted from rules.md: plies from the setup, the ending's count from the ply
it arose, the lowest article first, a win before a draw.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from conformance.core.draw_events import (
    PROJECT,
    READING_ARTICLES,
    DrawOutcome,
    DrawRules,
    Event,
    EventError,
    Material,
    MoveKind,
    Side,
    Start,
    outcomes,
)

K, M, P, C = MoveKind.KING_MOVE, MoveKind.MAN_MOVE, MoveKind.PROMOTION, MoveKind.CAPTURE
_fresh = itertools.count(1000)


def quiet(material: Material, plies: int) -> list[Event]:
    """``plies`` king moves, each to a placement not seen before."""
    return [Event(K, material, next(_fresh)) for _ in range(plies)]


def final(start: Start, events: list[Event], rules: DrawRules = PROJECT) -> DrawOutcome:
    return outcomes(start, events, rules)[-1]


KINGS_2_2 = Material(2, 0, 2, 0)
THREE_V_KING = Material(3, 0, 1, 0)


def test_6_1_third_occurrence_with_the_same_side_to_move() -> None:
    start = Start(KINGS_2_2)  # placement 0, White to move; back at plies 4 and 8
    events = [Event(K, KINGS_2_2, p) for p in (1, 2, 3, 0, 1, 2, 3, 0)]
    found = outcomes(start, events)
    assert found[7] == DrawOutcome("ongoing")
    assert found[8] == DrawOutcome("draw", "6.1", 8)


def test_6_1_an_occurrence_with_the_other_side_to_move_does_not_count() -> None:
    start = Start(KINGS_2_2)
    placements = (1, 2, 3, 4, 0, 6, 7, 8, 9, 0)  # 0 again at ply 5 (Black to move) and 10 (White)
    events = [Event(K, KINGS_2_2, p) for p in placements]
    assert final(start, events) == DrawOutcome("ongoing")
    assert final(start, events, dataclasses.replace(PROJECT, repetition_has_turn=False)) == DrawOutcome(
        "draw", "6.1", 10
    )


def test_6_2_fifty_king_plies_after_the_last_man_move() -> None:
    material = Material(2, 1, 2, 0)
    events = [Event(M, material, 1), *quiet(material, 50)]
    found = outcomes(Start(material), events)
    assert found[50] == DrawOutcome("ongoing")  # 49 king plies since the man move
    assert found[51] == DrawOutcome("draw", "6.2", 51)
    man_keeps = dataclasses.replace(PROJECT, man_move_resets=False)
    assert final(Start(material), events[:50], man_keeps) == DrawOutcome("draw", "6.2", 50)


def test_6_2_a_capture_by_a_man_is_a_man_move_too() -> None:
    before, after = Material(2, 1, 2, 1), Material(2, 1, 1, 1)  # White takes a black king at ply 1
    captures = dataclasses.replace(PROJECT, capture_resets=False)
    for by_man, reset in ((True, True), (False, False)):
        events = [Event(C, after, 1, by_man=by_man), *quiet(after, 49)]
        expected = DrawOutcome("ongoing") if reset else DrawOutcome("draw", "6.2", 50)
        assert final(Start(before), events, captures) == expected
        assert final(Start(before), events) == DrawOutcome("ongoing")


def test_6_3_man_moves_and_promotions_inside_the_group_leave_the_count_running() -> None:
    before, after = Material(1, 2, 1, 0), Material(2, 1, 1, 0)  # 1K+2M v K, then 2K+1M v K
    events = [
        *quiet(before, 4),
        Event(M, before, 5),
        *quiet(before, 5),
        Event(P, after, 11),
        *quiet(after, 21),
    ]
    found = outcomes(Start(before), events)
    assert len(events) == 32
    assert found[31] == DrawOutcome("ongoing")
    assert found[32] == DrawOutcome("draw", "6.3", 32)
    restarts = PROJECT.read_otherwise("endgame-no-restart", "6.3")
    assert final(Start(before), events, restarts) == DrawOutcome("ongoing")  # restarted at ply 11


def test_6_4_from_6_3_counts_from_the_capture() -> None:
    two = Material(2, 0, 1, 0)
    # 3K v K with Black to move at ply 19 (White moved first): Black's king takes a king at ply 20.
    events = [*quiet(THREE_V_KING, 19), Event(C, two, 20), *quiet(two, 10)]
    found = outcomes(Start(THREE_V_KING), events)
    assert found[29] == DrawOutcome("ongoing")
    assert found[30] == DrawOutcome("draw", "6.4", 30)
    carried = PROJECT.read_otherwise("endgame-group-change", "6.4")
    assert final(Start(THREE_V_KING), events[:20], carried) == DrawOutcome("draw", "6.4", 20)


def test_6_4_a_capture_inside_the_group_leaves_the_count_running() -> None:
    two, one = Material(2, 0, 1, 0), Material(1, 0, 1, 0)  # 2K v K, then K v K
    events = [*quiet(two, 1), Event(C, one, 2), *quiet(one, 8)]  # White to move at 0: Black takes at 2
    assert final(Start(two, Side.WHITE), events) == DrawOutcome("draw", "6.4", 10)


def test_a_promoted_lone_man_makes_the_ending_arise() -> None:
    before, after = Material(1, 0, 0, 1), Material(1, 0, 1, 0)  # K v M (no ending), then K v K
    events = [*quiet(before, 1), Event(P, after, 2), *quiet(after, 10)]
    found = outcomes(Start(before), events)
    assert found[11] == DrawOutcome("ongoing")
    assert found[12] == DrawOutcome("draw", "6.4", 12)


def test_a_lone_man_is_no_weak_side() -> None:
    material = Material(2, 0, 0, 1)  # White's kings move, Black's man steps
    events = [Event(K if ply % 2 else M, material, next(_fresh)) for ply in range(1, 11)]
    assert final(Start(material), events) == DrawOutcome("ongoing")
    lone_piece = PROJECT.read_otherwise("endgame-lone-king-only", "6.4")
    assert final(Start(material), events, lone_piece) == DrawOutcome("draw", "6.4", 10)


def test_a_win_on_the_ply_a_count_expires_beats_the_draw() -> None:
    material = Material(2, 1, 1, 0)
    start = Start(material, Side.BLACK)  # so that White plays the even plies
    events = [*quiet(material, 31), Event(M, material, 2000, blocked=True)]  # ply 32 hems Black in
    assert final(start, events) == DrawOutcome("white_wins", "7.2.3", 32)
    draw_first = PROJECT.read_otherwise("win-beats-draw", "6.3")
    assert final(start, events, draw_first) == DrawOutcome("draw", "6.3", 32)


def test_the_lowest_article_when_two_draws_expire_together() -> None:
    one = Material(1, 0, 1, 0)  # K v K from the setup: 6.4 at ply 10
    placements = (1, 2, 3, 4, 5, 2, 7, 8, 9, 2)  # the position of ply 2 again at 6 and 10
    events = [Event(K, one, p) for p in placements]
    assert final(Start(one), events) == DrawOutcome("draw", "6.1", 10)
    highest = PROJECT.read_otherwise("draw-precedence", "6.4")
    assert final(Start(one), events, highest) == DrawOutcome("draw", "6.4", 10)


def test_the_long_diagonal_clause_is_not_applied() -> None:
    events = [Event(K, THREE_V_KING, next(_fresh), long_diagonal=True) for _ in range(10)]
    assert final(Start(THREE_V_KING, long_diagonal=True), events) == DrawOutcome("ongoing")
    applied = dataclasses.replace(PROJECT, long_diagonal_moves=5)
    assert final(Start(THREE_V_KING, long_diagonal=True), events, applied) == DrawOutcome("draw", "6.3", 10)


def test_counters_of_a_setup_count_on() -> None:
    start = Start(THREE_V_KING, occurrences=1, no_progress_plies=20, endgame_plies=30)
    assert final(start, quiet(THREE_V_KING, 2)) == DrawOutcome("draw", "6.3", 2)
    assert outcomes(Start(Material(0, 0, 1, 0)), [])[0] == DrawOutcome("black_wins", "7.2.2", 0)


@pytest.mark.parametrize(
    ("start", "events", "message"),
    [
        (Start(Material(0, 1, 1, 0)), [Event(K, Material(0, 1, 1, 0), 1)], "needs a king"),
        (Start(Material(1, 0, 1, 0)), [Event(M, Material(1, 0, 1, 0), 1)], "needs a man"),
        (Start(Material(1, 0, 1, 0)), [Event(C, Material(1, 0, 1, 0), 1)], "takes at least one piece"),
        (Start(Material(1, 1, 1, 0)), [Event(P, Material(1, 1, 1, 0), 1)], "turns one man into a king"),
        (
            Start(KINGS_2_2),
            [Event(K, KINGS_2_2, p) for p in (1, 2, 0)],
            "within 4 plies",
        ),
        (
            Start(Material(2, 1, 2, 0)),
            [Event(M, Material(2, 1, 2, 0), 1), *(Event(K, Material(2, 1, 2, 0), p) for p in (2, 3, 4, 0))],
            "after a man move",
        ),
        (Start(Material(0, 0, 1, 0)), [Event(K, Material(0, 0, 1, 0), 1)], "already over"),
        (Start(Material(1, 1, 1, 0)), [Event(K, Material(1, 1, 1, 0), 1, by_man=True)], "only a capture"),
        (Start(Material(1, 1, 1, 1)), [Event(C, Material(2, 0, 1, 0), 1)], "crown the capturing man"),
    ],
    ids=[
        "king-move-without-king",
        "man-move-without-man",
        "capture-of-nothing",
        "promotion-keeping-material",
        "back-in-two-plies",
        "back-after-man-move",
        "after-the-end",
        "king-move-by-a-man",
        "king-capture-crowning",
    ],
)
def test_events_no_game_can_produce_are_refused(start: Start, events: list[Event], message: str) -> None:
    with pytest.raises(EventError, match=message):
        outcomes(start, events)


def test_the_readings_the_model_can_flip_are_those_of_articles_yaml() -> None:
    """Every (reading, article) of cases/articles.yaml about Art. 6 or 7.2 is one the model (and the
    gallery, one mutant each) reads the other way."""
    from conformance.core.corpus import load_corpus
    from conformance.engines.draw_mutants import DRAW_READINGS

    readings = load_corpus().readings
    listed = {
        (name, article)
        for name, reading in readings.items()
        for article in reading.articles
        if any(a.startswith(("6.", "7.")) for a in reading.articles)
    }
    assert set(READING_ARTICLES) == listed
    assert {(r, a) for r, articles in DRAW_READINGS for a in articles} == listed


def test_6_3_still_applied_after_the_change_draws_by_6_3_where_6_4_does_not() -> None:
    two = Material(2, 0, 1, 0)
    events = [*quiet(THREE_V_KING, 26), Event(C, two, 2000), *quiet(two, 10)]  # Black takes at ply 27
    start = Start(THREE_V_KING, Side.BLACK)  # Black to move on the odd plies
    assert final(start, events) == DrawOutcome("draw", "6.4", 37)
    lingering = PROJECT.read_otherwise("endgame-group-change", "6.3")
    assert final(start, events[:32], lingering) == DrawOutcome("draw", "6.3", 32)
    assert final(start, events[:31], lingering) == DrawOutcome("ongoing")


def test_a_capture_of_the_lone_king_on_the_expiring_ply_is_a_draw_only_read_otherwise() -> None:
    none = Material(3, 0, 0, 0)
    events = [*quiet(THREE_V_KING, 31), Event(C, none, 2000)]  # ply 32: the lone king taken
    start = Start(THREE_V_KING, Side.BLACK)  # so that White plays the even plies
    assert final(start, events) == DrawOutcome("white_wins", "7.2.2", 32)
    for article in ("6.3", "7.2"):
        assert final(start, events, PROJECT.read_otherwise("win-beats-draw", article)) == DrawOutcome(
            "draw", "6.3", 32
        )
    assert final(start, events, PROJECT.read_otherwise("win-beats-draw", "6.4")) == DrawOutcome(
        "white_wins", "7.2.2", 32
    )


@pytest.mark.parametrize("article", ["6.1", "6.4"])
def test_precedence_read_otherwise_on_one_article(article: str) -> None:
    one = Material(1, 0, 1, 0)  # K v K from the setup: 6.4 at ply 10, 6.1 on the same ply
    events = [Event(K, one, p) for p in (1, 2, 3, 4, 5, 2, 7, 8, 9, 2)]
    flipped = PROJECT.read_otherwise("draw-precedence", article)
    assert final(Start(one), events, flipped) == DrawOutcome("draw", "6.4", 10)
    assert final(Start(one), events, PROJECT.read_otherwise("draw-precedence", "6.3")) == DrawOutcome(
        "draw", "6.1", 10
    )
