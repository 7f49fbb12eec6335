"""Every move switch of oracle.rules.Rules changes behaviour for real (rules.md "The rules as a
configuration"). Each expected set was worked out by hand under the switched rule.
"""

from __future__ import annotations

import dataclasses

import pytest

from oracle.moves import Move, legal_moves, play
from oracle.perft import perft
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, Ending, MidCaptureCrowning, Rules

Key = tuple[int, int, frozenset[int]]

NO_BACKWARD = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)
SHORT_KINGS = dataclasses.replace(INTERNATIONAL, flying_kings=False)
FREE = dataclasses.replace(INTERNATIONAL, capture_choice=CaptureChoice.FREE)
CROWNS = dataclasses.replace(INTERNATIONAL, mid_capture_crowning=MidCaptureCrowning.CROWNS)
CROWNS_SHORT = dataclasses.replace(CROWNS, flying_kings=False)


def key(text: str) -> Key:
    """'28-22' -> (28, 22, {}); '28x19{23}' -> (28, 19, {23})."""
    if "-" in text:
        a, b = text.split("-")
        return int(a), int(b), frozenset()
    ends, captured = text.rstrip("}").split("{")
    a, b = ends.split("x")
    return int(a), int(b), frozenset(int(s) for s in captured.split(","))


def keys(fen: str, rules: Rules) -> set[Key]:
    return {m.key for m in legal_moves(Position.from_fen(fen), rules)}


def expected(texts: str) -> set[Key]:
    return {key(t) for t in texts.split()}


def test_international_is_the_rules_md_setting() -> None:
    assert INTERNATIONAL.men_rows == 4
    assert INTERNATIONAL.men_capture_backward is True
    assert INTERNATIONAL.flying_kings is True
    assert INTERNATIONAL.capture_choice is CaptureChoice.MAXIMUM
    assert INTERNATIONAL.mid_capture_crowning is MidCaptureCrowning.PASSES
    assert INTERNATIONAL.repetition_draw == 3
    assert INTERNATIONAL.no_progress_moves == 25
    six_three = INTERNATIONAL.endgame_count_for(Ending(3, 0))
    six_four = INTERNATIONAL.endgame_count_for(Ending(1, 0))
    assert six_three is not None
    assert six_three.moves_each == 16
    assert not six_three.restarts_on_change
    assert six_three.endings == {Ending(3, 0), Ending(2, 1), Ending(1, 2)}
    assert six_four is not None
    assert six_four.moves_each == 5
    assert not six_four.restarts_on_change
    assert six_four.endings == {Ending(2, 0), Ending(1, 1), Ending(1, 0)}
    assert INTERNATIONAL.endgame_count_for(Ending(0, 3)) is None  # three men v K: 6.1/6.2 only


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        INTERNATIONAL.flying_kings = False  # type: ignore[misc]


@pytest.mark.parametrize("rows", [0, 5, -1])
def test_men_rows_out_of_range(rows: int) -> None:
    with pytest.raises(ValueError, match="men_rows"):
        Rules(men_rows=rows)


# -- men_capture_backward (Art. 4.1) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "international", "switched"),
    [
        # 35 takes 30 forward (-> 24) or 40 backward (-> 44); without backward only 30.
        ("W:W35:B30,K40", "35x24{30} 35x44{40}", "35x24{30}"),
        # 33 is behind 28: with no backward capture 28 simply steps.
        ("W:W28:B33", "28x39{33}", "28-22 28-23"),
        # Black's backward is north: 23x12 goes, steps to 28/29 come back.
        ("B:B23:W18", "23x12{18}", "23-28 23-29"),
        # 33 x28 -> 22 can no longer go on backward over 27 (to 31).
        ("W:W33:B27,28", "33x31{27,28}", "33x22{28}"),
        # Black 32's two captures are both backward (north): none left.
        ("B:B32:W17,27", "32x12{17,27}", "32-37 32-38"),
        # Kings are not men: 28 still takes 33 behind it, landing on 39, 44 or 50.
        ("W:WK28:B33", "28x39{33} 28x44{33} 28x50{33}", "28x39{33} 28x44{33} 28x50{33}"),
    ],
)
def test_men_capture_backward(fen: str, international: str, switched: str) -> None:
    assert keys(fen, INTERNATIONAL) == expected(international)
    assert keys(fen, NO_BACKWARD) == expected(switched)


# -- flying_kings (Art. 3.9, 4.3) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "switched"),
    [
        # One square in each direction, like a man that may also go back.
        ("W:WK28", "28-22 28-23 28-32 28-33"),
        ("B:BK1", "1-6 1-7"),
        # 23 is far away: no capture at a distance, the only step is 46-41.
        ("W:WK46:B23", "46-41"),
        # 37's neighbours are empty: 28 cannot be taken from 37.
        ("W:WK37:B28", "37-31 37-32 37-41 37-42"),
        # A short king captures like a man, landing right behind the piece, in all directions.
        ("W:WK28:B33", "28x39{33}"),
        ("B:BK23:W28", "23x32{28}"),
        # 28 x22 -> 17 x12 -> 8 (a flying king could also land on 3).
        ("W:WK28:B12,22", "28x8{12,22}"),
    ],
)
def test_short_kings(fen: str, switched: str) -> None:
    assert keys(fen, SHORT_KINGS) == expected(switched)


@pytest.mark.parametrize(
    ("fen", "international"),
    [
        (
            "W:WK28",
            "28-5 28-6 28-10 28-11 28-14 28-17 28-19 28-22 28-23 28-32 28-33 28-37 28-39 28-41 28-44 28-46 28-50",
        ),
        ("B:BK1", "1-6 1-7 1-12 1-18 1-23 1-29 1-34 1-40 1-45"),
        ("W:WK46:B23", "46x5{23} 46x10{23} 46x14{23} 46x19{23}"),
        ("W:WK37:B28", "37x23{28} 37x19{28} 37x14{28} 37x10{28} 37x5{28}"),
        ("W:WK28:B33", "28x39{33} 28x44{33} 28x50{33}"),
        ("B:BK23:W28", "23x32{28} 23x37{28} 23x41{28} 23x46{28}"),
        # x22 -> 17, 11 or 6; only from 17 can it go on (x12 -> 8 or 3).
        ("W:WK28:B12,22", "28x8{12,22} 28x3{12,22}"),
    ],
)
def test_the_same_positions_with_flying_kings(fen: str, international: str) -> None:
    assert keys(fen, INTERNATIONAL) == expected(international)


def test_short_kings_do_not_change_men() -> None:
    fen = "W:W47:B13,14,22,24,31,34,K41,44"
    assert keys(fen, SHORT_KINGS) == keys(fen, INTERNATIONAL) == expected("47x49{13,14,22,24,31,34,41,44}")


# -- capture_choice (Art. 4.13) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "international", "free"),
    [
        # Two kings (48 x42 ->37 x31 ->26) or three men (48 x43 ->39 x34 ->30 x24 ->19).
        ("W:W48:B24,K31,34,K42,43", "48x19{24,34,43}", "48x26{31,42} 48x19{24,34,43}"),
        # One king (33x22) or two men (33 x29 ->24 x19 ->13).
        ("W:W33:BK28,29,19", "33x13{19,29}", "33x22{28} 33x13{19,29}"),
        # After 33 the king must still land where it can go on: 29 (then 12 -> 7 or 1) or 20
        # (then 9 -> 3, 12 -> 17, 21, 26); never 24 or 15, where it would stop with one piece.
        (
            "W:WK47:B9,12,33",
            "47x17{9,12,33} 47x21{9,12,33} 47x26{9,12,33}",
            "47x7{12,33} 47x1{12,33} 47x17{9,12,33} 47x21{9,12,33} 47x26{9,12,33}",
        ),
        # A capture, once begun, is completed: 33x22 stopping before 27 is not a choice.
        ("W:W33:B27,28", "33x31{27,28}", "33x31{27,28}"),
        # Capturing stays compulsory: 45's steps stay illegal.
        ("W:W32,45:B27", "32x21{27}", "32x21{27}"),
    ],
)
def test_free_capture_choice(fen: str, international: str, free: str) -> None:
    assert keys(fen, INTERNATIONAL) == expected(international)
    assert keys(fen, FREE) == expected(free)


# -- mid_capture_crowning (Art. 4.15) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "international", "crowns"),
    [
        # 15 x10 -> 4: crowned there, it goes on as a flying king over 9 to any of 13..36.
        (
            "W:W15:B9,10",
            "15x13{9,10}",
            "15x13{9,10} 15x18{9,10} 15x22{9,10} 15x27{9,10} 15x31{9,10} 15x36{9,10}",
        ),
        # As a man on 4 it has nothing more; as a king it sees 22 down the diagonal 4-36.
        ("W:W15:B10,22", "15x4{10}", "15x27{10,22} 15x31{10,22} 15x36{10,22}"),
        # Black 37 x42 -> 48, crowned, then x43 up the diagonal to 39, 34, 30 or 25.
        ("B:W42,43:B37", "37x39{42,43}", "37x39{42,43} 37x34{42,43} 37x30{42,43} 37x25{42,43}"),
    ],
)
def test_crowned_mid_capture_goes_on_as_a_king(fen: str, international: str, crowns: str) -> None:
    assert keys(fen, INTERNATIONAL) == expected(international)
    assert keys(fen, CROWNS) == expected(crowns)


@pytest.mark.parametrize(
    ("fen", "text", "rules", "after"),
    [
        ("W:W15:B9,10", "15x13{9,10}", INTERNATIONAL, "B:W13:B"),
        ("W:W15:B9,10", "15x13{9,10}", CROWNS, "B:WK13:B"),
        ("W:W15:B9,10", "15x36{9,10}", CROWNS, "B:WK36:B"),
        # Short kings: crowned on 4, it jumps 9 like a man and lands on 13 -- a king.
        ("W:W15:B9,10", "15x13{9,10}", CROWNS_SHORT, "B:WK13:B"),
        ("B:W42,43:B37", "37x39{42,43}", INTERNATIONAL, "W:W:B39"),
        ("B:W42,43:B37", "37x25{42,43}", CROWNS, "W:W:BK25"),
    ],
)
def test_play_crowns_mid_capture_only_when_switched(fen: str, text: str, rules: Rules, after: str) -> None:
    from_to, captured = text.rstrip("}").split("{")
    a, b = from_to.split("x")
    m = Move(int(a), int(b), frozenset(int(s) for s in captured.split(",")))
    assert play(Position.from_fen(fen), m, rules) == Position.from_fen(after)


def test_crowning_short_king_captures_like_a_man() -> None:
    assert keys("W:W15:B9,10", CROWNS_SHORT) == expected("15x13{9,10}")


# -- men_rows (Art. 2.4) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "black", "white"), [(4, (1, 20), (31, 50)), (3, (1, 15), (36, 50)), (1, (1, 5), (46, 50))]
)
def test_initial_position_by_men_rows(rows: int, black: tuple[int, int], white: tuple[int, int]) -> None:
    position = Position.initial(Rules(men_rows=rows))
    assert position.turn is Color.WHITE
    assert position.squares(Color.BLACK, Kind.MAN) == list(range(black[0], black[1] + 1))
    assert position.squares(Color.WHITE, Kind.MAN) == list(range(white[0], white[1] + 1))
    assert position.squares(Color.WHITE, Kind.KING) == position.squares(Color.BLACK, Kind.KING) == []


@pytest.mark.parametrize("rows", [1, 2, 3, 4])
def test_perft_1_from_any_initial_position(rows: int) -> None:
    # The front row always has five men: the edge man has one step, the four others two.
    rules = Rules(men_rows=rows)
    assert perft(Position.initial(rules), 1, rules) == 9


def test_three_rows_of_men_perft_3() -> None:
    # With three rows the armies cannot meet within three plies: every first White move
    # leaves 10 White moves (one lost, one gained by the man behind the vacated square, one
    # extra for the advanced man, net +1), and Black always has 9: 9 * 9 * 10 = 810.
    # With four rows captures start at ply 3 and the published count is 658.
    rules = Rules(men_rows=3)
    assert perft(Position.initial(rules), 2, rules) == 81
    assert perft(Position.initial(rules), 3, rules) == 810
    assert perft(Position.initial(), 3) == 658
