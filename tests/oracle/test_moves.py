"""Hand-checked legal-move sets (FMJD Art. 3, 4 and 7.2).

Each case gives a position and its COMPLETE legal-move set as (from, to, captured). The sets
were worked out by hand from rules.md, square by square along the diagonals of oracle.board.RAYS
-- never pasted from the oracle's output. Rows of sources.md cite their source in the case id
and were re-derived by hand too; the comments give the reasoning of the constructed cases.

Move text in the tables: "28-22" is a step, "28x19{23}" a capture taking the piece on 23.
"""

from __future__ import annotations

import re

import pytest

from oracle.errors import IllegalMoveError
from oracle.moves import Move, capture_routes, is_lost, legal_moves, play
from oracle.position import Color, Kind, Piece, Position

Key = tuple[int, int, frozenset[int]]

_TEXT = re.compile(r"(\d+)([-x])(\d+)(?:\{([\d,]*)\})?")


def key(text: str) -> Key:
    """'28-22' -> (28, 22, {}); '28x19{23}' -> (28, 19, {23})."""
    match = _TEXT.fullmatch(text)
    assert match is not None, text
    captured = frozenset(int(s) for s in match.group(4).split(",")) if match.group(4) else frozenset()
    assert (match.group(2) == "x") == bool(captured), text
    return int(match.group(1)), int(match.group(3)), captured


def move(text: str) -> Move:
    from_square, to_square, captured = key(text)
    return Move(from_square, to_square, captured)


def keys_of(fen: str) -> set[Key]:
    moves = legal_moves(Position.from_fen(fen))
    keys = [m.key for m in moves]
    assert len(keys) == len(set(keys)), f"a move is listed twice in {fen}"
    return set(keys)


def case(fen: str, moves: str, id: str) -> object:
    return pytest.param(fen, moves.split(), id=id)


def check(fen: str, expected: list[str]) -> None:
    assert keys_of(fen) == {key(text) for text in expected}


# -- Art. 3: steps, promotion, flying kings --------------------------------------------------

ARTICLE_3 = [
    case("W:W28", "28-22 28-23", "3.4-white-man-dctl-FFJD"),
    case("B:B13", "13-18 13-19", "3.4-black-man-dctl-FFJD"),
    # 36 is on the left edge: only its north-east neighbour 31 exists.
    case("W:W36", "36-31", "3.4-white-man-on-the-edge"),
    # 15 is on the right edge: a Black man goes south, and only 20 is there.
    case("B:B15", "15-20", "3.4-black-man-on-the-edge"),
    # 33 is blocked by its own men on 28 and 29; men never step backward (to 38, 39).
    case("W:W28,29,33", "28-22 28-23 29-23 29-24", "3.4-blocked-by-own-men"),
    # Black 18 is blocked toward 22 by its own man; 22 steps to 27 and 28.
    case("B:B18,22", "18-23 22-27 22-28", "3.4-black-blocked-by-own-man"),
    case("W:W8", "8-2 8-3", "3.5-onto-the-far-row-dctl-FFJD"),
    case("W:W6", "6-1", "3.5-edge-man-onto-the-far-row"),
    case("B:B41", "41-46 41-47", "3.5-black-onto-the-far-row"),
    case("B:B45", "45-50", "3.5-black-edge-man-onto-the-far-row"),
    case(
        "W:WK28",
        "28-5 28-6 28-10 28-11 28-14 28-17 28-19 28-22 28-23 28-32 28-33 28-37 28-39 28-41 28-44 28-46 28-50",
        "3.9-flying-king-dctl-FFJD",
    ),
    case("B:BK1", "1-6 1-7 1-12 1-18 1-23 1-29 1-34 1-40 1-45", "3.9-black-king-dctl-FFJD"),
    case(
        "W:WK23",
        "23-1 23-5 23-7 23-10 23-12 23-14 23-18 23-19 23-28 23-29 23-32 23-34 23-37 23-40 23-41 23-45 23-46",
        "3.9-flying-king-dctl-IT",
    ),
    # The whole long diagonal from its corner.
    case("W:WK46", "46-41 46-37 46-32 46-28 46-23 46-19 46-14 46-10 46-5", "3.9-long-diagonal"),
    # Two kings block each other: 1 cannot go to 6, 6 cannot go to 1.
    case(
        "W:WK1,K6",
        "1-7 1-12 1-18 1-23 1-29 1-34 1-40 1-45 6-11 6-17 6-22 6-28 6-33 6-39 6-44 6-50",
        "3.9-kings-blocked-by-own-king",
    ),
    # A Black king moves backward (north) as freely as forward.
    case("B:BK45", "45-40 45-34 45-29 45-23 45-18 45-12 45-7 45-1 45-50", "3.9-black-king-backward"),
    # King 28: stopped at 23 by its own man on 19, at 37 by two Black pieces in line (41, 46:
    # no capture, 4.3); the man on 19 steps to 13 and 14.
    case(
        "W:WK28,19:BK41,K46",
        "28-22 28-17 28-11 28-6 28-23 28-32 28-37 28-33 28-39 28-44 28-50 19-13 19-14",
        "3.9-king-stopped-by-pieces",
    ),
]


@pytest.mark.parametrize(("fen", "expected"), ARTICLE_3)
def test_article_3_steps_and_flying_kings(fen: str, expected: list[str]) -> None:
    check(fen, expected)


# -- Art. 4.1-4.3: captures by men and kings --------------------------------------------------

ARTICLE_4_1_TO_4_3 = [
    case("W:W35:B30,K40", "35x24{30} 35x44{40}", "4.1-backward-and-no-king-priority-dctl-IT"),
    # 33 is behind 28 (south): a man captures backward, 28x39, and may not step instead.
    case("W:W28:B33", "28x39{33}", "4.1-white-man-captures-backward"),
    # Black's backward is north: 23 jumps 18 and lands on 12.
    case("B:B23:W18", "23x12{18}", "4.1-black-man-captures-backward"),
    # 33 jumps 28 forward to 22, then 27 backward to 31: both pieces (stopping at 22 takes fewer).
    case("W:W33:B27,28", "33x31{27,28}", "4.1-forward-then-backward"),
    # Black 32 jumps 27 north to 21, then 17 north again to 12.
    case("B:B32:W17,27", "32x12{17,27}", "4.1-black-man-twice-backward"),
    case("W:W28,32:B23", "28x19{23}", "4.2-compulsory-dctl-FFJD"),
    # 45 could step, but 32 can take 27 (landing 21): capturing is compulsory.
    case("W:W32,45:B27", "32x21{27}", "4.2-compulsory-over-another-mans-step"),
    # The man on 35 has steps; the king on 50 takes 39 and may land anywhere up to 6.
    case(
        "W:W35,K50:B39", "50x33{39} 50x28{39} 50x22{39} 50x17{39} 50x11{39} 50x6{39}", "4.2-king-must-capture"
    ),
    # Black: 12 takes 17 (landing 21); neither 12-18 nor 16-21 is allowed.
    case("B:B12,16:W17", "12x21{17}", "4.2-black-compulsory"),
    case("W:WK46:B23", "46x5{23} 46x10{23} 46x14{23} 46x19{23}", "4.3-free-landing-dctl-FFJD"),
    case("W:WK41:B23", "41x5{23} 41x10{23} 41x14{23} 41x19{23}", "4.3-free-landing-dctl-IT"),
    # 5's only ray: 10 empty, 14 Black, then seven empty squares to the corner 46.
    case(
        "W:WK5:B14",
        "5x19{14} 5x23{14} 5x28{14} 5x32{14} 5x37{14} 5x41{14} 5x46{14}",
        "4.3-capture-at-a-distance",
    ),
    # The same with a White man on 37: the landing squares stop before it; 37 may not step.
    case("W:WK5,37:B14", "5x19{14} 5x23{14} 5x28{14} 5x32{14}", "4.3-landing-stops-at-a-piece"),
    # 14 and 19 stand in line: two adjacent pieces cannot be jumped. Only 5-10 is left.
    case("W:WK5:B14,19", "5-10", "4.3-no-jump-over-two-pieces"),
    case("W:WK46:B23,28", "46-41 46-37 46-32", "4.3-no-jump-over-two-pieces-far-away"),
    # The king's own man on 37 hides 23; the man has no capture either.
    case("W:WK46,37:B23", "46-41 37-31 37-32", "4.3-own-piece-in-the-way"),
    case(
        "B:W7,28,31,33:B20,30,K50",
        "20-24 20-25 30-34 30-35 50-39 50-44 50-45",
        "4.3-no-jump-over-two-adjacent-py-draughts",
    ),
]


@pytest.mark.parametrize(("fen", "expected"), ARTICLE_4_1_TO_4_3)
def test_articles_4_1_to_4_3(fen: str, expected: list[str]) -> None:
    check(fen, expected)


# -- Art. 4.5-4.11: multiple captures, dead pieces, the start square --------------------------

ARTICLE_4_5_TO_4_11 = [
    # 15x24 (20), x13 (19), x2 (8): ends on the far row.
    case("W:W15:B8,19,20", "15x2{8,19,20}", "4.5-man-multiple-capture-dctl-FFJD"),
    # 47 x41 ->36, x31 ->27, x22 ->18, x13 ->9, x14 ->20, x24 ->29, x34 ->40, x44 ->49: one chain.
    case("W:W47:B13,14,22,24,31,34,K41,44", "47x49{13,14,22,24,31,34,41,44}", "4.5-eight-piece-man-dctl-IT"),
    # 47 takes 33 and must land where it goes on: 29 (then 12 -> 7 or 1: two pieces) or 20
    # (then 9 -> 3, then 12 -> 17, 21 or 26: three pieces). 24 and 15 are dead ends.
    case("W:WK47:B9,12,33", "47x17{9,12,33} 47x21{9,12,33} 47x26{9,12,33}", "4.6-king-must-go-on-dctl-FFJD"),
    # 46 takes 37 landing 32..5; only from 28 can it go on (33, landing 39, 44 or 50).
    case("W:WK46:B33,37", "46x39{33,37} 46x44{33,37} 46x50{33,37}", "4.6-king-lands-where-it-can-go-on"),
    # 50 x44 straight on x28 (39 behind 44), turn at 22, x31 -> 36.
    case("B:WK2,28,31,44:B20,K50", "50x36{28,31,44}", "4.6-king-three-pieces-py-draughts"),
    # 41 x19 ->14, x9 ->3, x12 ->21, x38 ->43: the empty square 32 is crossed twice.
    case("W:WK41,49:B9,10,12,19,38", "41x43{9,12,19,38}", "4.8-square-crossed-twice-dctl-FFJD"),
    # Turkish strike: 25 x39 ->48, x42 ->31, x27 ->22, x28 ->33; then 38 cannot be taken, the
    # dead piece on 42 stands right behind it.
    case("B:W27,28,38,39,42:BK25", "25x33{27,28,39,42}", "4.8-4.11-turkish-strike-dctl-IT"),
    # 49 x38 ->32, x28 ->19, x24 -> 30 or 35 (x41 from 32 takes only two).
    case("B:W6,24,28,38,41:B13,K49", "49x30{24,28,38} 49x35{24,28,38}", "4.8-king-py-draughts"),
    # 46 x37 ->28, x33 ->39, x43 ->48; then 42, 37 lie north-west of 48: the dead 37 blocks
    # the way to 31. Were captured pieces lifted at once, 46x26 would take four.
    case("W:WK46:B31,33,37,43", "46x48{33,37,43}", "4.11-dead-piece-blocks-the-king"),
    # 49 x43 ->38, round 28 (x32 ->27, x22 ->18, x23 ->29, x33 ->38, or the other way), then
    # x42 ->47: the man lands on 38 twice.
    case("W:W49:B22,23,32,33,42,43", "49x47{22,23,32,33,42,43}", "4.8-man-lands-twice-on-a-square"),
    # The man's loop round 28 ends on its own start square 38, which counts as empty.
    case("W:W38:B22,23,32,33", "38x38{22,23,32,33}", "4.8-man-ends-on-its-start-square"),
    # The same loop, passing through the start square, then on over 42 to 47 (five pieces).
    case("W:W38:B22,23,32,33,42", "38x47{22,23,32,33,42}", "4.8-man-passes-its-start-square"),
    # The king's loop: 38 x32 ->27, x18 ->13, x19 ->24, x33 -> 38, 42 or 47; or 38 x33 ->24,
    # x19 ->13, x18 ->27, x32 -> 38, 43 or 49. Two routes end on 38 with the same pieces.
    case(
        "W:WK38:B18,19,32,33",
        "38x38{18,19,32,33} 38x42{18,19,32,33} 38x47{18,19,32,33} 38x43{18,19,32,33} 38x49{18,19,32,33}",
        "4.8-king-loop-through-its-origin-pydraughts",
    ),
    # Two different captures share 47x36: via 24 and 13 (taking 19) or via 20 and 9 (taking 14).
    case(
        "W:WK47:B14,19,29,31,42",
        "47x36{14,29,31,42} 47x36{19,29,31,42}",
        "8.2-two-different-47x36-pydraughts",
    ),
    # 4 x13 then 32 (turn at 27, land 38) or 37 (turn at 31, land 42), then 20 -> 15.
    case("W:WK4:B13,32,37,20", "4x15{13,20,32} 4x15{13,20,37}", "8.2-two-different-4x15-py-draughts"),
]


@pytest.mark.parametrize(("fen", "expected"), ARTICLE_4_5_TO_4_11)
def test_articles_4_5_to_4_11(fen: str, expected: list[str]) -> None:
    check(fen, expected)


# -- Art. 4.13-4.15: the maximum, free choice, no crowning mid-capture ------------------------

ARTICLE_4_13_TO_4_15 = [
    # 48 x42 x31 takes two kings; 48 x43 x34 x24 takes three men: three beat two.
    case("W:W48:B24,K31,34,K42,43", "48x19{24,34,43}", "4.13-three-men-beat-two-kings-dctl-FFJD"),
    # 48 x34 ->30, x8 ->2, x7 ->11, x44 ->50 (four) beats 48 x42 x31 x8 (three).
    case("W:WK48:B7,8,31,34,K42,44", "48x50{7,8,34,44}", "4.13-king-maximum-dctl-IT"),
    # 33x22 takes the king on 28; 33 x29 ->24 x19 ->13 takes two men.
    case("W:W33:BK28,29,19", "33x13{19,29}", "4.13-two-men-beat-one-king"),
    # The king on 50 can take one (44, landing 39 only); the man takes two: the man must.
    case("W:W33,K50:B19,29,44", "33x13{19,29}", "4.13-counted-over-all-pieces"),
    # Black 18 x23 (a king) ->29 ends; 18 x22 ->27 x32 ->38 takes two men.
    case("B:W22,K23,32:B18", "18x38{22,32}", "4.13-black-two-men-beat-one-king"),
    case("W:W26:B12,K21,31,32", "26x8{12,21} 26x28{31,32}", "4.14-no-quality-rule-dctl-IT"),
    # One piece each way: the man's 34x23 and the king's eight landings after 41.
    case(
        "W:W34,K46:B29,41",
        "34x23{29} 46x37{41} 46x32{41} 46x28{41} 46x23{41} 46x19{41} 46x14{41} 46x10{41} 46x5{41}",
        "4.14-no-preference-for-the-king",
    ),
    # Taking a man or a king, one piece each: both legal.
    case("W:W28:B22,K23", "28x17{22} 28x19{23}", "4.14-king-or-man-taken"),
    case("B:W23,K24:B19", "19x28{23} 19x30{24}", "4.14-black-king-or-man-taken"),
    # 15 x10 -> 4 (far row), must go on x9 -> 13 as a man.
    case("W:W15:B9,10", "15x13{9,10}", "4.15-passes-the-far-row-dctl-IT"),
    # 14 x9 -> 3 (far row), x8 -> 12: a man again.
    case("W:W14:B8,9", "14x12{8,9}", "4.15-passes-the-far-row"),
    # Black 37 x42 -> 48 (Black's far row), x43 -> 39.
    case("B:W42,43:B37", "37x39{42,43}", "4.15-black-passes-the-far-row"),
    # 15 x10 -> 4 ends there: as a man it has nothing more (a king could take 22, see the
    # mid-capture crowning switch).
    case("W:W15:B10,22", "15x4{10}", "4.15-ends-on-the-far-row"),
]


@pytest.mark.parametrize(("fen", "expected"), ARTICLE_4_13_TO_4_15)
def test_articles_4_13_to_4_15(fen: str, expected: list[str]) -> None:
    check(fen, expected)


def test_extreme_man_capture_lidraughts() -> None:
    """lidraughts stress FEN (sources.md): 12 captures of 10 pieces, 4.5/4.13/4.15.

    Worked out by hand. The man on 23 can only land on the 13 squares 1,3,5,12,14,21,23,25,32,
    34,41,43,45; each Black piece is then one edge between two of them (7: 1-12, 8: 3-12,
    9: 3-14, 10: 5-14, 17: 12-21, 18: 12-23, 19: 14-23, 20: 14-25, 27: 21-32, 28: 23-32,
    29: 23-34, 30: 25-34, 37: 32-41, 38: 32-43, 39: 34-43, 40: 34-45). A capture is a trail
    from 23. The corners 1, 5, 41, 45 hang on one edge each, so a trail uses at most one of
    them, as its last edge. The core (the 12 other edges) has odd squares 12, 14, 32, 34; a
    trail from 23 to the corner's neighbour must drop a 3-edge join, at best: 10 pieces, three
    ways for each corner (the joins below), each still connected.
    """
    corner_sets = {
        1: ["7,8,9,17,18,19,27,29,38,39", "7,8,9,17,18,20,27,28,29,30", "7,8,9,17,18,20,27,30,38,39"],
        5: ["8,9,10,17,19,20,27,28,29,30", "8,9,10,17,19,20,27,30,38,39", "8,9,10,18,19,20,28,30,38,39"],
        41: ["8,9,17,19,27,28,29,37,38,39", "8,9,17,20,27,28,30,37,38,39", "17,18,19,20,27,28,30,37,38,39"],
        45: ["8,9,17,20,27,29,30,38,39,40", "8,9,18,20,28,29,30,38,39,40", "17,18,19,20,27,29,30,38,39,40"],
    }
    expected = [f"23x{to}{{{captured}}}" for to, sets in corner_sets.items() for captured in sets]
    fen = "W:W23:B7,8,9,10,17,18,19,20,27,28,29,30,37,38,39,40"
    check(fen, expected)
    # One trail of the first set, square by square: 23 x29 34 x39 43 x38 32 x27 21 x17 12 x18 23
    # x19 14 x9 3 x8 12 x7 1 (through 23 again, past 3 on the far row).
    routes = capture_routes(Position.from_fen(fen))
    assert (23, 34, 43, 32, 21, 12, 23, 14, 3, 12, 1) in routes[move("23x1{7,8,9,17,18,19,27,29,38,39}")]


def test_ten_piece_king_capture_dctl_it() -> None:
    """dctl IT (4.6): W:WK1:B7,9,17,19,20,30,31,33,43,44 -> 1x15 taking all ten.

    The single move is the source's assertion. The route was found by hand: 1 x7 ->29, x33 ->42,
    x31 ->26, x17 ->3, x9 ->14, x19 ->32, x43 ->49, x44 ->35, x30 ->24 (19, dead, stops it),
    x20 ->15, turning at every landing square.
    """
    fen = "W:WK1:B7,9,17,19,20,30,31,33,43,44"
    check(fen, ["1x15{7,9,17,19,20,30,31,33,43,44}"])
    routes = capture_routes(Position.from_fen(fen))
    assert (1, 29, 42, 26, 3, 14, 32, 49, 35, 24, 15) in routes[move("1x15{7,9,17,19,20,30,31,33,43,44}")]


def test_ten_piece_king_capture_lidraughts() -> None:
    """lidraughts MoveGenPerfTest (4.6): one move, ten pieces; 40 survives.

    The source asserts 1 move taking 10. Route by hand: 23 x28 ->37, x31 ->26, x17 ->12 (8
    stops it), x29 ->34 (40 stops it), x39 ->43, x38 ->27, x9 ->4, x10 ->15, x20 ->24 (29, dead,
    stops it), x8 ->2.
    """
    fen = "W:WK23:B28,17,10,20,29,39,40,38,31,8,9"
    check(fen, ["23x2{8,9,10,17,20,28,29,31,38,39}"])
    routes = capture_routes(Position.from_fen(fen))
    assert (23, 37, 26, 12, 34, 43, 27, 4, 15, 24, 2) in routes[move("23x2{8,9,10,17,20,28,29,31,38,39}")]


# -- Art. 7.2: no legal move, the game is lost ------------------------------------------------

LOST = [
    pytest.param("W:B1", id="7.2.2-white-has-no-piece"),
    pytest.param("B:W31", id="7.2.2-black-has-no-piece"),
    pytest.param("B:W:B", id="7.2.2-empty-board"),
    # 46's only neighbour 41 is Black, and 37 behind it is Black too.
    pytest.param("W:W46:B37,41", id="7.2.3-white-man-blocked"),
    # 50: 44 with 39 behind it, 45 with the edge behind it.
    pytest.param("W:W50:B39,44,45", id="7.2.3-white-man-blocked-in-the-corner"),
    # The king's only ray starts with two White men in line.
    pytest.param("B:BK5:W10,14", id="7.2.3-black-king-blocked"),
    # 13 is hemmed in by 18, 19 with 22, 24 behind them.
    pytest.param("B:W18,19,22,24:B13", id="7.2.3-black-man-blocked"),
]


@pytest.mark.parametrize("fen", LOST)
def test_no_legal_move_is_lost(fen: str) -> None:
    position = Position.from_fen(fen)
    assert legal_moves(position) == []
    assert is_lost(position)


@pytest.mark.parametrize("fen", ["W:W31-50:B1-20", "W:W31", "W:W46:B41", "B:BK5:W10"])
def test_a_side_with_a_legal_move_has_not_lost(fen: str) -> None:
    assert not is_lost(Position.from_fen(fen))


def test_the_same_placement_with_the_other_side_to_move_is_not_lost() -> None:
    # In W:W46:B37,41 White is blocked; Black, to move, has 37-42 at least.
    assert not is_lost(Position.from_fen("B:W46:B37,41"))
    assert key("37-42") in keys_of("B:W46:B37,41")


# -- play(): promotion, captured pieces, errors -----------------------------------------------


def test_play_a_step() -> None:
    after = play(Position.initial(), move("32-28"))
    assert after.turn is Color.BLACK
    assert after.piece_at(32) is None
    assert after.piece_at(28) == Piece(Color.WHITE, Kind.MAN)
    assert after.count(Color.WHITE) == after.count(Color.BLACK) == 20


@pytest.mark.parametrize(
    ("fen", "text", "after"),
    [
        ("W:W8", "8-2", "B:WK2:B"),
        ("W:W6:B40", "6-1", "B:WK1:B40"),
        ("B:B41:W10", "41-47", "W:W10:BK47"),
        # Ending a capture on the far row crowns (3.5).
        ("W:W15:B8,19,20", "15x2{8,19,20}", "B:WK2:B"),
        ("W:W15:B10,22", "15x4{10}", "B:WK4:B22"),
    ],
)
def test_a_man_ending_on_the_far_row_is_crowned(fen: str, text: str, after: str) -> None:
    assert play(Position.from_fen(fen), move(text)) == Position.from_fen(after)


@pytest.mark.parametrize(
    ("fen", "text", "after"),
    [
        ("W:W15:B9,10", "15x13{9,10}", "B:W13:B"),
        ("W:W14:B8,9", "14x12{8,9}", "B:W12:B"),
        ("B:W42,43:B37", "37x39{42,43}", "W:W:B39"),
    ],
)
def test_a_man_passing_the_far_row_mid_capture_is_not_crowned(fen: str, text: str, after: str) -> None:
    assert play(Position.from_fen(fen), move(text)) == Position.from_fen(after)


def test_play_removes_exactly_the_captured_pieces() -> None:
    # Turkish strike: 38 survives, the king lands on 33.
    after = play(Position.from_fen("B:W27,28,38,39,42:BK25"), move("25x33{27,28,39,42}"))
    assert after == Position.from_fen("W:W38:BK33")


def test_play_a_loop_back_to_the_start_square() -> None:
    after = play(Position.from_fen("W:WK38:B18,19,32,33"), move("38x38{18,19,32,33}"))
    assert after == Position.from_fen("B:WK38:B")


def test_play_a_king_keeps_it_a_king() -> None:
    after = play(Position.from_fen("B:BK1:W31"), move("1-45"))
    assert after == Position.from_fen("W:W31:BK45")


def test_two_different_moves_with_the_same_ends_leave_different_positions() -> None:
    position = Position.from_fen("W:WK47:B14,19,29,31,42")
    assert play(position, move("47x36{19,29,31,42}")) == Position.from_fen("B:WK36:B14")
    assert play(position, move("47x36{14,29,31,42}")) == Position.from_fen("B:WK36:B19")


@pytest.mark.parametrize(
    ("fen", "text"),
    [
        ("W:W28", "28-19"),  # not a neighbour
        ("W:W28", "28-33"),  # a man does not step backward
        ("W:W28", "27-22"),  # no piece on 27
        ("W:W31-50:B1-20", "19-23"),  # Black's man, White to move
        ("W:W28,32:B23", "32-27"),  # a step while a capture is compulsory
        ("W:W28:B23", "28x19{24}"),  # right ends, wrong captured piece
        ("W:W26:B12,K21,31,32", "26x8{12}"),  # a capture cut short
        ("W:W48:B24,K31,34,K42,43", "48x26{31,42}"),  # not the maximum (4.13)
        ("W:WK38:B18,19,32,33", "38x38{18,19}"),
        ("W:W15:B9,10", "15x4{10}"),  # stopping on the far row instead of going on (4.15)
    ],
)
def test_play_of_an_illegal_move_raises(fen: str, text: str) -> None:
    with pytest.raises(IllegalMoveError):
        play(Position.from_fen(fen), move(text))


# -- move identity: (from, to, captured) -------------------------------------------------------


def test_move_equality_ignores_the_route() -> None:
    a = Move(38, 38, frozenset({18, 19, 32, 33}), (38, 27, 13, 24, 38))
    b = Move(38, 38, frozenset({18, 19, 32, 33}), (38, 24, 13, 27, 38))
    assert a == b
    assert hash(a) == hash(b)
    assert a != Move(38, 38, frozenset({18, 19}))
    assert Move(28, 22) == Move(28, 22, frozenset(), (28, 22))
    assert Move(28, 22) != Move(22, 28)


def test_routes_with_the_same_ends_and_pieces_are_one_move() -> None:
    # pydraughts: 6 routes, 5 moves. The two routes ending on 38 are one move.
    routes = capture_routes(Position.from_fen("W:WK38:B18,19,32,33"))
    assert set(routes) == {
        move(t) for t in ("38x38{18,19,32,33}", "38x42{18,19,32,33}", "38x47{18,19,32,33}")
    } | {move(t) for t in ("38x43{18,19,32,33}", "38x49{18,19,32,33}")}
    assert sum(len(r) for r in routes.values()) == 6
    assert sorted(routes[move("38x38{18,19,32,33}")]) == [(38, 24, 13, 27, 38), (38, 27, 13, 24, 38)]
    assert routes[move("38x42{18,19,32,33}")] == [(38, 27, 13, 24, 42)]
    assert routes[move("38x47{18,19,32,33}")] == [(38, 27, 13, 24, 47)]
    assert routes[move("38x43{18,19,32,33}")] == [(38, 24, 13, 27, 43)]
    assert routes[move("38x49{18,19,32,33}")] == [(38, 24, 13, 27, 49)]


def test_man_loop_has_two_routes_and_one_move() -> None:
    routes = capture_routes(Position.from_fen("W:W38:B22,23,32,33"))
    assert list(routes) == [move("38x38{22,23,32,33}")]
    assert sorted(routes[move("38x38{22,23,32,33}")]) == [(38, 27, 18, 29, 38), (38, 29, 18, 27, 38)]


def test_routes_of_a_straight_capture_name_the_square_behind_each_piece() -> None:
    # 47 x42 goes straight on over 29 (38 right behind 42), turns at 24 or 20.
    routes = capture_routes(Position.from_fen("W:WK47:B14,19,29,31,42"))
    assert routes[move("47x36{19,29,31,42}")] == [(47, 38, 24, 13, 36)]
    assert routes[move("47x36{14,29,31,42}")] == [(47, 38, 20, 9, 36)]


def test_each_legal_move_carries_a_route_from_start_to_end() -> None:
    for fen in ("W:WK47:B14,19,29,31,42", "W:W31-50:B1-20", "B:W27,28,38,39,42:BK25"):
        for m in legal_moves(Position.from_fen(fen)):
            assert m.route[0] == m.from_square
            assert m.route[-1] == m.to_square
            assert len(m.route) == (len(m.captured) + 1 if m.captured else 2)
