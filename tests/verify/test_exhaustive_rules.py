"""The exhaustive enumeration on another board: exact counts per board size, checked by brute force."""

from __future__ import annotations

import itertools

import pytest

from conformance.core.rule_sets import rule_set
from conformance.verify import exhaustive
from conformance.verify.generate import VerifyOptions
from oracle.position import Color, Position
from oracle.rules import Rules
from oracle.ruleset import builtin


def brute_force(rules: Rules, pieces: int) -> set[Position]:
    """Every placement of 2..``pieces`` pieces, both sides present, no man on its own far row, each
    side to move: listed square by square, not counted."""
    board = rules.geometry
    found: set[Position] = set()
    for k in range(2, pieces + 1):
        for squares in itertools.combinations(board.squares, k):
            for labels in itertools.product(
                range(4), repeat=k
            ):  # white man, white king, black man, black king
                if not any(label < 2 for label in labels) or not any(label >= 2 for label in labels):
                    continue
                boards = [0, 0, 0, 0]
                valid = True
                for square, label in zip(squares, labels, strict=True):
                    if label in (0, 2) and board.row_of(square) == board.far_row(label == 0):
                        valid = False
                        break
                    boards[label] |= board.bit[square]
                if valid:
                    for turn in Color:
                        white_men, white_kings, black_men, black_kings = boards
                        found.add(Position(white_men, white_kings, black_men, black_kings, turn, board.size))
    return found


@pytest.mark.parametrize(("name", "pieces"), [("russian", 2), ("russian", 3), ("canadian", 2)])
def test_the_enumeration_is_every_position_once(name: str, pieces: int) -> None:
    rules = builtin(name)
    listed = list(exhaustive.positions(pieces, rules=rules))
    assert len(listed) == len(set(listed)) == exhaustive.count(pieces, rules)
    assert set(listed) == brute_force(rules, pieces)


def test_counts_per_board_size() -> None:
    # K = 2 by hand: each side's piece has (squares + squares - far row) choices; the pairs on one
    # square are subtracted (a far-row square holds 1 x 2, the others 2 x 2); twice for the turn.
    for name, squares, per_row in (("russian", 32, 4), ("canadian", 72, 6), ("international", 50, 5)):
        choices = 2 * squares - per_row
        same_square = 2 * per_row * 2 + (squares - 2 * per_row) * 4
        assert exhaustive.count(2, builtin(name)) == 2 * (choices * choices - same_square)
    assert exhaustive.count(2, builtin("american")) == 6_976
    assert exhaustive.count(3, builtin("canadian")) == 5_075_520


def test_a_position_found_by_counting_is_the_walked_one() -> None:
    rules = builtin("american")
    walked = list(exhaustive.positions(3, 1000, 1400, rules=rules))
    assert list(exhaustive.positions(3, 1000, 1400, 97, rules=rules)) == walked[::97]
    assert exhaustive.position(3, 1234, rules) == walked[234]


def test_options_of_an_exhaustive_campaign_of_another_game() -> None:
    options = VerifyOptions(pieces=2, rule_set=rule_set("russian"), kinds=("random",))
    assert options.total == 6_976
    with pytest.raises(ValueError, match="--prove under --rules russian"):
        VerifyOptions(pieces=2, prove=True, rule_set=rule_set("russian"), kinds=("random",))


def test_the_oracle_passes_the_exhaustive_campaign_of_a_users_rules_file() -> None:
    from pathlib import Path

    from conformance.engines.oracle_engine import OracleEngine
    from conformance.verify.run import verify

    played = rule_set(Path(__file__).parent.parent / "rulesets" / "stopping-eight.yaml")
    options = VerifyOptions(pieces=2, rule_set=played, kinds=("random",))
    run = verify(lambda: OracleEngine(played.rules, rule_sets=frozenset({"*"})), options)
    assert run.exit_status == 0
    assert run.positions == exhaustive.count(2, played.rules) == 6_976
    assert run.header["rules"]["name"] == "stopping-eight"
    assert run.header["oracle_proof"] is None  # the proof records are of international draughts
