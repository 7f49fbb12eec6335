"""The z3 encoding under each rule set: against the oracle of that game, and hand-worked positions.

8x8 squares are numbered as the checkers numbering (docs/rulesets.md): square 1 is b8, row by row
from Black's side, four a row; White's men move toward squares 1-4. Each hand-worked position below
is read from the rulebook each oracle/rulesets/*.yaml cites for the switch it tests.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conformance.verify.smt import CaptureSolver, legal_captures
from oracle.moves import legal_moves
from oracle.position import Color, Position
from oracle.rules import Rules
from oracle.ruleset import BUILTIN, builtin, load_file

Key = tuple[int, int, frozenset[int]]
STOPPING_EIGHT = Path(__file__).parent.parent / "rulesets" / "stopping-eight.yaml"


def capture_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Random positions of the rule set's board where the side to move must capture.

    Men are placed mostly near their far row, so captures often cross or end on it (crowning).
    """
    rng = random.Random(seed)
    board = rules.geometry
    found: list[Position] = []
    while len(found) < count:
        pieces: dict[tuple[Color, bool], set[int]] = {}
        for square in rng.sample(board.squares, rng.randint(2, 12)):
            color = Color.WHITE if rng.random() < 0.45 else Color.BLACK
            king = rng.random() < 0.3 or board.row_of(square) == board.far_row(color is Color.WHITE)
            pieces.setdefault((color, king), set()).add(square)
        turn = Color.WHITE if rng.random() < 0.5 else Color.BLACK
        position = Position.from_squares(
            turn,
            white_men=pieces.get((Color.WHITE, False), set()),
            white_kings=pieces.get((Color.WHITE, True), set()),
            black_men=pieces.get((Color.BLACK, False), set()),
            black_kings=pieces.get((Color.BLACK, True), set()),
            rules=rules,
        )
        moves = legal_moves(position, rules)
        if moves and moves[0].captured:
            found.append(position)
    return found


@pytest.mark.parametrize("name", BUILTIN)
def test_z3_legal_captures_equal_the_oracles(name: str) -> None:
    rules = builtin(name)
    for position in capture_positions(rules, 300, seed=21):
        expected = {move.key for move in legal_moves(position, rules)}
        solver = CaptureSolver(position, rules=rules)
        found = solver.legal_captures()
        assert len(found) == len({capture.key for capture in found}), "a capture listed twice"
        assert {capture.key for capture in found} == expected, f"{name} {position.fen()}"


def test_a_users_rules_file_stopping_on_crowning_agrees_with_the_oracle() -> None:
    rules = load_file(STOPPING_EIGHT)
    for position in capture_positions(rules, 100, seed=7):
        expected = {move.key for move in legal_moves(position, rules)}
        assert {c.key for c in CaptureSolver(position, rules=rules).legal_captures()} == expected, (
            position.fen()
        )


def _captures(fen: str, name: str) -> set[Key]:
    return {capture.key for capture in legal_captures(fen, builtin(name))}


def key(start: int, end: int, *taken: int) -> Key:
    return (start, end, frozenset(taken))


def test_russian_man_crowned_mid_capture_goes_on_as_a_king() -> None:
    # The man on 9 (b6) jumps 6 (c7) onto 2 (d8), the far row: crowned at once, it goes on as a
    # flying king (Russian rules, crownMidCapture continues) over 11 (f6) onto 16 (g5) or 20 (h4).
    assert _captures("W:W9:B6,11", "russian") == {key(9, 16, 6, 11), key(9, 20, 6, 11)}
    # Pool and Brazilian: it passes the far row as a man, with no man's jump from d8: it ends there.
    assert _captures("W:W9:B6,11", "pool") == {key(9, 2, 6)}
    assert _captures("W:W9:B6,11", "brazilian") == {key(9, 2, 6)}


def test_american_capture_stops_on_crowning() -> None:
    # 9x2 over 6 reaches the king row; a king on 2 could jump 7 onto 11, but the move ends on
    # crowning (American, crownMidCapture stops). Russian: crowned, it goes on flying over 7.
    assert _captures("W:W9:B6,7", "american") == {key(9, 2, 6)}
    assert _captures("W:W9:B6,7", "russian") == {key(9, 11, 6, 7), key(9, 16, 6, 7), key(9, 20, 6, 7)}


def test_a_users_game_stops_on_crowning_under_maximum_capture() -> None:
    rules = load_file(STOPPING_EIGHT)  # Brazilian men and kings, but crowning stops the capture
    assert {c.key for c in legal_captures("W:W9:B6,7", rules)} == {key(9, 2, 6)}


def test_free_choice_lists_a_shorter_capture() -> None:
    # The man on 22 takes 17 (one piece, ending on 13) or 18 then 11 (two, ending on 8).
    # Free choice (American, Russian): both; maximum capture (Brazilian): only the longer.
    both = {key(22, 13, 17), key(22, 8, 18, 11)}
    assert _captures("W:W22:B11,17,18", "american") == both
    assert _captures("W:W22:B11,17,18", "russian") == both
    assert _captures("W:W22:B11,17,18", "brazilian") == {key(22, 8, 18, 11)}


def test_free_choice_still_completes_a_capture() -> None:
    # 22x15 over 18 could stop there, but a capture goes on while it can: it is not a move.
    assert key(22, 15, 18) not in _captures("W:W22:B11,17,18", "russian")


def test_short_kings_jump_adjacent_pieces_only() -> None:
    # American kings step one square: K18 jumps 23 (adjacent) onto 27, never 11 two squares away.
    assert _captures("W:WK18:B11,23", "american") == {key(18, 27, 23)}
    # A flying king (Russian) takes either, landing on any square beyond it.
    assert _captures("W:WK18:B11,23", "russian") == {
        key(18, 8, 11),
        key(18, 4, 11),
        key(18, 27, 23),
        key(18, 32, 23),
    }


def test_men_capture_backward_or_not() -> None:
    # The man on 22 has 25 behind it with 29 empty: a backward jump (Russian) but not American.
    assert _captures("W:W22:B25", "russian") == {key(22, 29, 25)}
    assert _captures("W:W22:B25", "american") == set()
    assert not CaptureSolver.from_fen("W:W22:B25", rules=builtin("american")).can_capture


def test_a_flying_king_under_free_choice_lands_where_it_can_go_on() -> None:
    # K29 jumps 22; of its landings 18, 15, 11, 8, 4 only 18 lets it go on (over 23 onto 27 or
    # 32), so it must land there and go on: 29x15 {22} and the like are not moves (Russian).
    assert _captures("W:WK29:B22,23", "russian") == {key(29, 27, 22, 23), key(29, 32, 22, 23)}


def test_a_position_of_another_board_is_refused() -> None:
    with pytest.raises(ValueError, match="under the rules of russian"):
        CaptureSolver(Position.from_fen("W:W22:B25"), rules=builtin("russian"))
