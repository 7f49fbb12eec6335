"""The draw rules of Art. 6 and the win of Art. 7.2 in games worked out by hand (rules.md).

Every expected ply below is counted by hand from the rules text, never taken from the oracle. The
positions are small and open so that the counting can be checked on a board:

* ``P6 = W:WK50,48:BK1,3`` -- a king and a man each, so no 6.3/6.4 ending. White's king tours the
  diagonal 50-44-39-33-28 (``W5``: 50-44, 44-39, 39-33, 33-28, 28-50); Black's king tours
  1-7-12-18 (``B4``: 1-7, 7-12, 12-18, 18-1). The two diagonals are parallel and none of these
  squares lies on a line of a square of the other king, of the man 48 or of the man 3, so no
  capture is ever possible. With a 5-move and a 4-move cycle a position comes back only every
  20 moves (40 plies): within 50 plies none occurs three times.
* ``E2 = W:WK48,K50:BK1`` (2K v K, Art. 6.4) and ``E3 = W:WK46,K48,K50:BK1`` (3K v K, Art. 6.3):
  the same tours, the extra kings standing still off every line the black king uses.

The small "mutant" games at the end override one rule step each and must fail a scenario: they
show the scenarios notice the rule they are about.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable

import pytest

from oracle.counters import Counters, EndgameClock
from oracle.game import Game
from oracle.moves import Move
from oracle.outcome import Outcome, Result
from oracle.position import Color, Kind, Piece, Position
from oracle.rules import ARTICLE_6_3, ARTICLE_6_4, INTERNATIONAL, EndgameCount, Ending, Rules

P6 = "W:WK50,48:BK1,3"
E2 = "W:WK48,K50:BK1"
E3 = "W:WK46,K48,K50:BK1"
W5 = ("50-44", "44-39", "39-33", "33-28", "28-50")
B4 = ("1-7", "7-12", "12-18", "18-1")


def alternate(
    first: tuple[str, ...], second: tuple[str, ...], plies: int, first_start: int = 0, second_start: int = 0
) -> tuple[str, ...]:
    """Moves of two cycles played in turn, ``first`` on the first ply (a way to write long king walks)."""
    return tuple(
        first[(first_start + n // 2) % len(first)]
        if n % 2 == 0
        else second[(second_start + n // 2) % len(second)]
        for n in range(plies)
    )


def draw(rule: str, ply: int) -> Outcome:
    return Outcome(Result.DRAW, rule, ply)


def white_wins(rule: str, ply: int) -> Outcome:
    return Outcome(Result.WHITE_WINS, rule, ply)


ONGOING = Outcome(Result.ONGOING)


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A game and its hand-counted end: ``outcome`` after the last move, ONGOING one ply before."""

    name: str
    fen: str
    moves: tuple[str, ...]
    outcome: Outcome
    counters: Counters = dataclasses.field(default_factory=Counters)
    rules: Rules = INTERNATIONAL


def run(scenario: Scenario, game_class: type[Game] = Game, plies: int | None = None) -> Game:
    game = game_class(Position.from_fen(scenario.fen), scenario.counters, scenario.rules)
    for text in scenario.moves[:plies]:
        game.play(text)
    return game


NO_6_4_2K = Rules(
    endgame_counts=(
        ARTICLE_6_3,
        dataclasses.replace(ARTICLE_6_4, endings=ARTICLE_6_4.endings - {Ending(2, 0)}),
    )
)
NO_REPETITION = Rules(repetition_draw=None, endgame_counts=INTERNATIONAL.endgame_counts)
NO_6_3 = Rules(endgame_counts=(ARTICLE_6_4,))
RESTART_6_3 = Rules(endgame_counts=(dataclasses.replace(ARTICLE_6_3, restarts_on_change=True), ARTICLE_6_4))
RESTART_6_4 = Rules(endgame_counts=(ARTICLE_6_3, dataclasses.replace(ARTICLE_6_4, restarts_on_change=True)))
SHORT_6_4 = Rules(endgame_counts=(ARTICLE_6_3, dataclasses.replace(ARTICLE_6_4, moves_each=3)))

# -- Art. 6.1 --------------------------------------------------------------------------------

SQUARE_DANCE = ("50-44", "1-7", "44-50", "7-1")
"""From P6 and back: P6 (White to move) occurs again after every 4 plies."""

REPEAT_CONSECUTIVE = Scenario(
    # P6 occurs at plies 0, 4 and 8: the third occurrence, at ply 8, draws.
    "6.1 third occurrence in a row",
    P6,
    SQUARE_DANCE * 2,
    draw("6.1", 8),
)
REPEAT_APART = Scenario(
    # P6 at ply 0 and 4; then 50-39 1-12 39-44 12-7 (new positions, then the positions of plies 2
    # and 3 a second time), 44-50 7-1: P6 a third time at ply 10. Nothing else occurs three times.
    "6.1 occurrences need not be consecutive",
    P6,
    (*SQUARE_DANCE, "50-39", "1-12", "39-44", "12-7", "44-50", "7-1"),
    draw("6.1", 10),
)
REPEAT_OTHER_SIDE = Scenario(
    # White loses a tempo with the triangle 50-44-39-50: P6's placement comes back with BLACK to
    # move at plies 5, 9 and 13 (with White to move it occurred only at ply 0). Same placement,
    # other side to move: not the same position. The draw is at ply 13, not at ply 9, where the
    # placement occurs for the third time counting ply 0.
    "6.1 the side to move is part of the position",
    P6,
    ("50-44", "1-7", "44-39", "7-1", "39-50", "1-7", "50-44", "7-1", "44-50", "1-7", "50-44", "7-1", "44-50"),
    draw("6.1", 13),
)
REPEAT_FROM_SETUP_COUNT = Scenario(
    # The setup position has occurred twice already (4 king plies between: no_progress_plies=4):
    # its next occurrence, at ply 4, is the third.
    "6.1 setup occurrences count",
    P6,
    SQUARE_DANCE,
    draw("6.1", 4),
    counters=Counters(occurrences=2, no_progress_plies=4),
)

# -- Art. 6.2 --------------------------------------------------------------------------------

KINGS_ONLY = Scenario(
    # 50 plies of king moves without capture from a count of 0: draw at ply 50.
    "6.2 fifty king plies",
    P6,
    alternate(W5, B4, 50),
    draw("6.2", 50),
)
WHITE_MAN_MOVE_RESETS = Scenario(
    # The count is 48 at setup; ply 1 is a man move (48-43): back to 0 (without the reset the draw
    # would come at ply 2). Plies 2-51 are king moves: 50 at ply 51.
    "6.2 a man move resets",
    P6,
    ("48-43", *alternate(B4, W5, 50)),
    draw("6.2", 51),
    counters=Counters(no_progress_plies=48),
)
BLACK_MAN_MOVE_RESETS = Scenario(
    # Count 48; ply 1 50-44 makes 49; ply 2 is Black's man move 3-8: 0 (else a draw at ply 2).
    # Plies 3-52 are king moves: 50 at ply 52.
    "6.2 a man move of the other side resets",
    P6,
    ("50-44", "3-8", *alternate(W5, B4, 50, first_start=1)),
    draw("6.2", 52),
    counters=Counters(no_progress_plies=48),
)
PROMOTION_RESETS = Scenario(
    # Count 48; ply 1 crowns the man 10 on 5 -- a man move: 0. Plies 2-51: 50 at ply 51.
    "6.2 a promotion is a man move",
    "W:WK50,10,48:BK1,3",
    ("10-5", *alternate(B4, W5, 50)),
    draw("6.2", 51),
    counters=Counters(no_progress_plies=48),
)
CAPTURE_RESETS = Scenario(
    # Count 48; ply 1 is the king's capture 50x39 (of the man 44): 0. Then the tours go on from 39
    # (39-33 ...): 50 king plies more, draw at ply 51.
    "6.2 a capture resets",
    "W:WK50,48:BK1,3,44",
    ("50x39", *alternate(B4, W5, 50, second_start=2)),
    draw("6.2", 51),
    counters=Counters(no_progress_plies=48),
)
WIN_BEATS_6_2 = Scenario(
    # Count 47. 25-48 (48), 31-36 (49), 48-31 (50: the 6.2 limit) -- and 48-31 walls Black in:
    # the king on 36 has 31 (White, 27 behind it) and 41 (White, 47 behind it); the man on 27
    # cannot step (31, 32 taken) nor capture (behind 31 is 36, behind 32 is 38, behind 21 is 16,
    # all occupied). Black has pieces but no legal move: White wins by 7.2.3 on that very ply.
    "7.2.3 win beats 6.2 on the same ply",
    "W:WK25,16,21,32,38,41,47:BK31,27",
    ("25-48", "31-36", "48-31"),
    white_wins("7.2.3", 3),
    counters=Counters(no_progress_plies=47),
)
REPEAT_AND_NO_PROGRESS = Scenario(
    # P6 has occurred twice and the count is 46: at ply 4 P6 occurs a third time and the count
    # reaches 50. Both 6.1 and 6.2 expire: the lowest article is reported.
    "6.1 and 6.2 on one ply: 6.1",
    P6,
    SQUARE_DANCE,
    draw("6.1", 4),
    counters=Counters(occurrences=2, no_progress_plies=46),
)

# -- Art. 6.3, 6.4 ---------------------------------------------------------------------------

TWO_KINGS = Scenario(
    # 2K v K from the setup (the ending arises at ply 0): draw after 10 plies.
    "6.4 2K v K",
    E2,
    alternate(W5, B4, 10),
    draw("6.4", 10),
)
TWO_KINGS_BLACK_TO_MOVE = Scenario(
    # The same ending with the lone king to move: material, not the turn, decides the strong side.
    "6.4 2K v K, lone king to move",
    "B:WK48,K50:BK1",
    alternate(B4, W5, 10),
    draw("6.4", 10),
)
TWO_KINGS_MIRRORED = Scenario(
    # E2 seen from the other side (square s -> 51 - s): Black has the two kings.
    "6.4 2K v K, Black strong",
    "B:WK50:BK1,K3",
    alternate(("1-7", "7-12", "12-18", "18-23", "23-1"), ("50-44", "44-39", "39-33", "33-50"), 10),
    draw("6.4", 10),
)
THREE_KINGS = Scenario(
    # 3K v K from the setup: draw after 32 plies.
    "6.3 3K v K",
    E3,
    alternate(W5, B4, 32),
    draw("6.3", 32),
)
LONG_DIAGONAL = Scenario(
    # 3K v K with the lone king on the long diagonal 46-5 all game long (5-10-14), alone on it. The
    # 2024 clause (five moves) is not applied (rules.md): no draw at ply 10, the draw comes after
    # the full sixteen moves each, at ply 32. White's cycle 50-44-39-33 (4 moves) and Black's
    # 5-10-14 (3 moves) repeat a position only every 12 moves: never three times in 32 plies.
    "6.3 lone king on the long diagonal gets sixteen moves",
    "W:WK48,K49,K50:BK5",
    alternate(("50-44", "44-39", "39-33", "33-50"), ("5-10", "10-14", "14-5"), 32),
    draw("6.3", 32),
)
THREE_TO_TWO = Scenario(
    # 3K v K (6.3) from ply 0; at ply 13 White puts a king en prise (44-40) and at ply 14 the lone
    # king takes it (12x45): 2K v K, the 6.4 group, whose own count starts at ply 14 -- the draw
    # is at ply 24 (not at 32 as 6.3, not at once as if 6.4 counted from ply 0).
    "6.3 -> 6.4: a new count",
    E3,
    (
        *alternate(W5, B4, 12),
        "44-40",
        "12x45",
        "46-41",
        "45-50",
        "48-43",
        "50-45",
        "41-46",
        "45-50",
        "43-48",
        "50-45",
        "46-41",
        "45-50",
    ),
    draw("6.4", 24),
)
MAN_AND_PROMOTION_IN_6_3 = Scenario(
    # 1K+2M v K (6.3) from ply 0: a man move at ply 3 (48-43), a promotion at ply 7 (10-5, making
    # 2K+1M): the game stays in the 6.3 group, the count runs on from ply 0: draw at ply 32.
    "6.3 man move and promotion keep the count",
    "W:WK50,10,48:BK1",
    (
        "50-44",
        "1-7",
        "48-43",
        "7-12",
        "44-39",
        "12-18",
        "10-5",
        "18-1",
        *alternate(W5, B4, 24, first_start=2),
    ),
    draw("6.3", 32),
)
CAPTURE_IN_6_4 = Scenario(
    # 2K v K (6.4) from ply 0; at ply 4 the lone king takes a king (7x45): K v K, still 6.4. The
    # count runs on from ply 0: draw at ply 10 (a restart would put it at ply 14).
    "6.4 capture inside the group keeps the count",
    E2,
    ("50-44", "1-7", "44-40", "7x45", "48-43", "45-50", "43-48", "50-45", "48-42", "45-50"),
    draw("6.4", 10),
)
PROMOTION_MAKES_6_4 = Scenario(
    # Two men v K is no ending (no king); 10-5 at ply 1 makes 1K+1M v K: the count starts at that
    # promotion, the draw is at ply 11. White's king then walks 5-14-10-5.
    "6.4 the ending arises at a promotion",
    "W:W10,48:BK1",
    ("10-5", *alternate(B4, ("5-14", "14-10", "10-5"), 10)),
    draw("6.4", 11),
)
LONE_MAN_CROWNED = Scenario(
    # 2K v a lone man is no ending; Black crowns it at ply 1 (44-49): 2K v K arises at ply 1, the
    # draw is at ply 11. (White's king 42-37-31-37-42 makes the positions of plies 2-5 come back
    # once, at plies 8-11, never a third time.)
    "6.4 a crowned lone man makes the ending arise",
    "B:WK48,K50:B44",
    ("44-49", "48-42", "49-43", "42-37", "43-49", "37-31", "49-43", "31-37", "43-49", "37-42", "49-43"),
    draw("6.4", 11),
)
WIN_BEATS_6_4 = Scenario(
    # 2K v K from ply 0, Black to move. At ply 9 the lone king goes to 23, next to the king on 28;
    # at ply 10 -- where 6.4's ten plies run out -- White takes it: Black has no piece, 7.2.2.
    "7.2.2 win on the ply 6.4 would expire",
    "B:WK48,K50:BK1",
    ("1-7", "50-44", "7-12", "44-39", "12-18", "39-33", "18-1", "33-28", "1-23", "28x19"),
    white_wins("7.2.2", 10),
)
WIN_BEATS_6_3 = Scenario(
    # 3K v K, 30 plies into 6.3's count (and into 6.2's): 1-23 (31), 28x19 takes the lone king on
    # ply 32, where 6.3 would expire: White wins by 7.2.2.
    "7.2.2 win on the ply 6.3 would expire",
    "B:WK28,K46,K48:BK1",
    ("1-23", "28x19"),
    white_wins("7.2.2", 2),
    counters=Counters(no_progress_plies=30, endgame_plies=30),
)
REPEAT_AND_6_4 = Scenario(
    # 2K v K: E2 occurs at plies 0, 4 and (after a 6-ply loop 50-44-39-50 / 1-7-12-1) 10, where
    # 6.4's count also reaches 10: both expire, 6.1 is reported.
    "6.1 and 6.4 on one ply: 6.1",
    E2,
    (*SQUARE_DANCE, "50-44", "1-7", "44-39", "7-12", "39-50", "12-1"),
    draw("6.1", 10),
)

SCENARIOS = [
    REPEAT_CONSECUTIVE,
    REPEAT_APART,
    REPEAT_OTHER_SIDE,
    REPEAT_FROM_SETUP_COUNT,
    KINGS_ONLY,
    WHITE_MAN_MOVE_RESETS,
    BLACK_MAN_MOVE_RESETS,
    PROMOTION_RESETS,
    CAPTURE_RESETS,
    WIN_BEATS_6_2,
    REPEAT_AND_NO_PROGRESS,
    TWO_KINGS,
    TWO_KINGS_BLACK_TO_MOVE,
    TWO_KINGS_MIRRORED,
    THREE_KINGS,
    LONG_DIAGONAL,
    THREE_TO_TWO,
    MAN_AND_PROMOTION_IN_6_3,
    CAPTURE_IN_6_4,
    PROMOTION_MAKES_6_4,
    LONE_MAN_CROWNED,
    WIN_BEATS_6_4,
    WIN_BEATS_6_3,
    REPEAT_AND_6_4,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_outcome_at_the_hand_counted_ply(scenario: Scenario) -> None:
    game = run(scenario)
    assert game.outcome() == scenario.outcome
    assert game.ply == scenario.outcome.ply


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_still_ongoing_one_ply_before(scenario: Scenario) -> None:
    game = run(scenario, plies=len(scenario.moves) - 1)
    assert game.outcome() == ONGOING


# -- the counters along the way --------------------------------------------------------------


def test_occurrences_along_a_repetition() -> None:
    game = run(REPEAT_CONSECUTIVE, plies=4)
    assert game.occurrences == 2  # P6 at plies 0 and 4
    game.play("50-44")
    assert game.occurrences == 2  # the position after ply 1, again
    assert game.occurrences_of(Position.from_fen(P6)) == 2


def test_other_side_to_move_is_counted_apart() -> None:
    game = run(REPEAT_OTHER_SIDE, plies=9)
    assert game.position == Position.from_fen("B:WK50,48:BK1,3")
    assert game.occurrences == 2  # plies 5 and 9
    assert game.occurrences_of(Position.from_fen(P6)) == 1  # White to move: ply 0 only


def test_no_progress_count_along_king_moves() -> None:
    game = run(KINGS_ONLY, plies=49)
    assert game.no_progress_plies == 49
    assert game.endgame_clock is None  # a king and a man each: no ending


@pytest.mark.parametrize(
    ("scenario", "reset_ply"),
    [(WHITE_MAN_MOVE_RESETS, 1), (BLACK_MAN_MOVE_RESETS, 2), (PROMOTION_RESETS, 1), (CAPTURE_RESETS, 1)],
    ids=["man move", "black man move", "promotion", "capture"],
)
def test_no_progress_count_resets(scenario: Scenario, reset_ply: int) -> None:
    game = run(scenario, plies=reset_ply - 1)
    before = game.no_progress_plies
    assert before == scenario.counters.no_progress_plies + reset_ply - 1
    game.play(scenario.moves[reset_ply - 1])
    assert game.no_progress_plies == 0
    game.play(scenario.moves[reset_ply])
    assert game.no_progress_plies == 1  # the king move after it counts again


def test_win_on_the_ply_6_2_expires_does_reach_the_limit() -> None:
    game = run(WIN_BEATS_6_2)
    assert game.no_progress_plies == 50  # the 6.2 count did reach its limit on that ply
    assert game.legal_moves() == []
    assert game.position.count(game.position.turn) == 2  # pieces left, all blocked


def test_endgame_clock_from_setup() -> None:
    game = Game(Position.from_fen(E3))
    assert game.endgame_clock == EndgameClock("6.3", 0, 32)
    game = run(TWO_KINGS, plies=9)
    assert game.endgame_clock == EndgameClock("6.4", 9, 10)
    assert game.endgame_clock.remaining == 1


def test_long_diagonal_king_stays_on_it() -> None:
    long_diagonal = {46, 41, 37, 32, 28, 23, 19, 14, 10, 5}
    game = Game(Position.from_fen(LONG_DIAGONAL.fen))
    for ply, text in enumerate(LONG_DIAGONAL.moves, start=1):
        game.play(text)
        (black_king,) = game.position.squares(Color.BLACK)
        assert black_king in long_diagonal
        assert not set(game.position.squares(Color.WHITE)) & long_diagonal
        if ply < 32:
            assert game.outcome() == ONGOING, f"ply {ply}"
    assert game.outcome() == draw("6.3", 32)


def test_three_to_two_starts_a_new_count() -> None:
    game = run(THREE_TO_TWO, plies=13)
    assert game.endgame_clock == EndgameClock("6.3", 13, 32)
    game.play("12x45")
    assert game.endgame_clock == EndgameClock("6.4", 0, 10)
    assert game.no_progress_plies == 0


def test_man_move_and_promotion_keep_the_6_3_count() -> None:
    game = run(MAN_AND_PROMOTION_IN_6_3, plies=3)
    assert game.endgame_clock == EndgameClock("6.3", 3, 32)
    game = run(MAN_AND_PROMOTION_IN_6_3, plies=7)
    assert game.position.piece_at(5) == Piece(Color.WHITE, Kind.KING)  # 2K+1M now
    assert game.endgame_clock == EndgameClock("6.3", 7, 32)


def test_capture_inside_6_4_keeps_the_count() -> None:
    game = run(CAPTURE_IN_6_4, plies=4)
    assert game.position == Position.from_fen("W:WK48:BK45")
    assert game.endgame_clock == EndgameClock("6.4", 4, 10)


def test_no_count_against_a_lone_man_or_without_a_king() -> None:
    assert Game(Position.from_fen("W:WK48,K50:B3")).endgame_clock is None  # anything v a lone man
    assert Game(Position.from_fen("W:W10,48,49:BK1")).endgame_clock is None  # three men v K
    assert Game(Position.from_fen("W:WK1,K2,K3,K4:BK50")).endgame_clock is None  # four pieces v K
    assert Game(Position.from_fen("W:WK48,K50:BK1,3")).endgame_clock is None  # v K+M


def test_promotion_of_one_of_three_men_makes_6_3_arise() -> None:
    game = Game(Position.from_fen("W:W10,48,49:BK1"))
    game.play("10-5")
    assert game.endgame_clock == EndgameClock("6.3", 0, 32)


def test_lone_man_crowned_starts_the_count() -> None:
    game = run(LONE_MAN_CROWNED, plies=0)
    assert game.endgame_clock is None
    game.play("44-49")
    assert game.endgame_clock == EndgameClock("6.4", 0, 10)


def test_k_v_k_is_a_6_4_ending() -> None:
    assert Game(Position.from_fen("W:WK46:BK5")).endgame_clock == EndgameClock("6.4", 0, 10)


# -- every switch of the rules that concerns games changes the outcome ------------------------


def test_switch_repetition_off() -> None:
    game = run(dataclasses.replace(REPEAT_CONSECUTIVE, moves=SQUARE_DANCE * 3, rules=NO_REPETITION))
    assert game.outcome() == ONGOING
    assert game.occurrences == 4


def test_switch_repetition_limit() -> None:
    rules = Rules(repetition_draw=4, endgame_counts=INTERNATIONAL.endgame_counts)
    game = run(dataclasses.replace(REPEAT_CONSECUTIVE, rules=rules))
    assert game.outcome() == ONGOING  # third occurrence at ply 8
    for text in SQUARE_DANCE:
        game.play(text)
    assert game.outcome() == draw("6.1", 12)  # fourth at ply 12
    rules = dataclasses.replace(rules, repetition_draw=2)
    assert run(dataclasses.replace(REPEAT_CONSECUTIVE, moves=SQUARE_DANCE, rules=rules)).outcome() == draw(
        "6.1", 4
    )


def test_switch_no_progress_off() -> None:
    rules = Rules(no_progress_moves=None, endgame_counts=INTERNATIONAL.endgame_counts)
    game = run(dataclasses.replace(KINGS_ONLY, moves=alternate(W5, B4, 52), rules=rules))
    assert game.outcome() == ONGOING
    assert game.no_progress_plies == 52  # still counted, never drawn


def test_switch_no_progress_limit() -> None:
    rules = Rules(no_progress_moves=10, endgame_counts=INTERNATIONAL.endgame_counts)
    scenario = dataclasses.replace(
        KINGS_ONLY, moves=alternate(W5, B4, 20), outcome=draw("6.2", 20), rules=rules
    )
    assert run(scenario).outcome() == draw("6.2", 20)
    assert run(scenario, plies=19).outcome() == ONGOING


def test_switch_moves_each() -> None:
    scenario = dataclasses.replace(TWO_KINGS, moves=alternate(W5, B4, 6), rules=SHORT_6_4)
    assert run(scenario).outcome() == draw("6.4", 6)
    assert run(scenario, plies=5).outcome() == ONGOING


def test_switch_ending_removed() -> None:
    game = run(dataclasses.replace(TWO_KINGS, rules=NO_6_4_2K))
    assert game.endgame_clock is None
    assert game.outcome() == ONGOING  # ply 10: no count for 2K v K any more
    for text in alternate(W5, B4, 40, first_start=5, second_start=5):
        game.play(text)
    assert game.outcome() == draw("6.2", 50)  # only 6.2 is left


def test_switch_group_removed() -> None:
    game = run(dataclasses.replace(THREE_KINGS, rules=NO_6_3))
    assert game.endgame_clock is None
    assert game.outcome() == ONGOING


def test_switch_restarts_on_change_6_3() -> None:
    # Restarting on the man move (ply 3) and on the promotion (ply 7): the draw moves to ply 39.
    moves = MAN_AND_PROMOTION_IN_6_3.moves[:8] + alternate(W5, B4, 31, first_start=2)
    scenario = dataclasses.replace(MAN_AND_PROMOTION_IN_6_3, moves=moves, rules=RESTART_6_3)
    assert run(scenario, plies=32).outcome() == ONGOING
    game = run(scenario, plies=7)
    assert game.endgame_clock == EndgameClock("6.3", 0, 32)
    assert run(scenario, plies=38).outcome() == ONGOING
    assert run(scenario).outcome() == draw("6.3", 39)


def test_switch_restarts_on_change_6_4() -> None:
    # Restarting on the capture at ply 4: the draw moves from ply 10 to ply 14.
    moves = (*CAPTURE_IN_6_4.moves, "42-37", "50-45", "37-42", "45-50")
    scenario = dataclasses.replace(CAPTURE_IN_6_4, moves=moves, rules=RESTART_6_4)
    assert run(scenario, plies=10).outcome() == ONGOING
    assert run(scenario, plies=13).outcome() == ONGOING
    assert run(scenario).outcome() == draw("6.4", 14)


def test_lowest_article_among_simultaneous_draws() -> None:
    # Without 6.1 the same games end by 6.4 / 6.2 on the same ply: both rules did expire there.
    assert run(dataclasses.replace(REPEAT_AND_6_4, rules=NO_REPETITION)).outcome() == draw("6.4", 10)
    assert run(dataclasses.replace(REPEAT_AND_NO_PROGRESS, rules=NO_REPETITION)).outcome() == draw("6.2", 4)


# -- mutants: one rule step read wrongly must change a scenario -------------------------------


class RepetitionIgnoresTurn(Game):
    """Counts the placement alone as "the same position"."""

    def repetition_key(self, position: Position) -> Hashable:
        return (position.white_men, position.white_kings, position.black_men, position.black_kings)


class ManMoveKeepsCount(Game):
    """Resets the 6.2 count on captures only."""

    def resets_no_progress(self, before: Position, move: Move) -> bool:
        return move.is_capture


class DrawBeatsWin(Game):
    """Prefers a draw expiring on a ply to a win on that ply."""

    def win_beats_draw(self) -> bool:
        return False


class CaptureRestartsCount(Game):
    """Starts a new 6.3/6.4 count on every capture, inside a group too."""

    def endgame_count_after(
        self,
        before: Position,
        move: Move,
        group_before: EndgameCount | None,
        plies_before: int,
        group_after: EndgameCount | None,
    ) -> int:
        if move.is_capture and group_after is not None:
            return 0
        return super().endgame_count_after(before, move, group_before, plies_before, group_after)


@pytest.mark.parametrize(
    ("mutant", "scenario", "mutant_outcome"),
    [
        (RepetitionIgnoresTurn, REPEAT_OTHER_SIDE, draw("6.1", 9)),
        (ManMoveKeepsCount, WHITE_MAN_MOVE_RESETS, draw("6.2", 2)),
        (DrawBeatsWin, WIN_BEATS_6_2, draw("6.2", 3)),
        (CaptureRestartsCount, CAPTURE_IN_6_4, ONGOING),
    ],
    ids=["repetition ignores the turn", "man move keeps 6.2 count", "draw beats win", "capture restarts 6.4"],
)
def test_mutant_is_caught(mutant: type[Game], scenario: Scenario, mutant_outcome: Outcome) -> None:
    game = mutant(Position.from_fen(scenario.fen), scenario.counters, scenario.rules)
    for text in scenario.moves:
        if game.is_over:
            break
        game.play(text)
    assert game.outcome() == mutant_outcome
    assert game.outcome() != scenario.outcome
