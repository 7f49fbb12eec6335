"""Each check passes a right answer and catches a deliberately wrong one.

The right answers are the published sets of sources.md (tests/verify/published.py); each wrong
answer is one of them with a single, named defect.
"""

from __future__ import annotations

import dataclasses

import pytest
import z3

from conformance.verify.after import check_result, read_placement
from conformance.verify.capture_formula import SolverUnknownError
from conformance.verify.checks import (
    check_captured_squares,
    check_symmetry,
    mirror_move,
    mirrored_fen,
    quiet_moves,
    verify_position,
)
from conformance.verify.findings import Finding, FindingKind
from conformance.verify.judgement import played_move_rule
from oracle.position import Position

from .published import PUBLISHED_CAPTURES, PUBLISHED_QUIET

Key = tuple[int, int, frozenset[int]]


def _c(from_square: int, to_square: int, *captured: int) -> Key:
    return (from_square, to_square, frozenset(captured))


def kinds(findings: list[Finding]) -> set[FindingKind]:
    return {finding.kind for finding in findings}


@pytest.mark.parametrize(("fen", "expected", "source"), PUBLISHED_CAPTURES + PUBLISHED_QUIET)
def test_published_answers_pass(fen: str, expected: frozenset[Key], source: str) -> None:
    assert verify_position(fen, sorted(expected, key=str)) == [], source


# -- captures ------------------------------------------------------------------------------------

AMBIGUOUS = "W:WK47:B14,19,29,31,42"
ANSWER = [_c(47, 36, 14, 29, 31, 42), _c(47, 36, 19, 29, 31, 42)]


def test_a_missing_capture_is_incomplete() -> None:
    findings = verify_position(AMBIGUOUS, ANSWER[:1])
    assert kinds(findings) == {FindingKind.COMPLETENESS}
    assert findings[0].detail["move"] == "47x36 {19,29,31,42}"
    assert findings[0].articles == ("4.13", "4.14")


def test_a_shorter_capture_listed_with_the_maximum_ones_is_reported() -> None:
    fen = "W:W48:B24,K31,34,K42,43"  # 48x19 {24,34,43}; the complete capture 48x37x26 takes two
    findings = verify_position(fen, [_c(48, 19, 24, 34, 43), _c(48, 26, 31, 42)])
    assert kinds(findings) == {FindingKind.OPTIMALITY}
    assert findings[0].detail == {"fen": Position.from_fen(fen).fen(), "move": "48x26 {31,42}", "maximum": 3}


def test_an_answer_whose_captures_all_take_too_few_fails_optimality_with_a_witness() -> None:
    fen = "W:W48:B24,K31,34,K42,43"
    findings = verify_position(fen, [_c(48, 26, 31, 42)])
    assert FindingKind.OPTIMALITY in kinds(findings)
    assert FindingKind.COMPLETENESS in kinds(findings)
    witness = next(f for f in findings if "witness_route" in f.detail)
    assert witness.detail["maximum"] == 3
    assert witness.detail["witness_route"] == [48, 39, 30, 19]


def test_a_wrong_captured_set_is_unsound() -> None:
    findings = verify_position(AMBIGUOUS, [*ANSWER, _c(47, 36, 14, 19, 31, 42)])
    assert kinds(findings) == {FindingKind.SOUNDNESS}
    assert findings[0].detail["move"] == "47x36 {14,19,31,42}"


def test_a_wrong_end_square_is_unsound() -> None:
    findings = verify_position(
        "W:WK46:B23", [_c(46, 5, 23), _c(46, 10, 23), _c(46, 14, 23), _c(46, 19, 23), _c(46, 28, 23)]
    )
    assert kinds(findings) == {FindingKind.SOUNDNESS}


def test_a_capture_that_cannot_be_played_at_all_is_unsound() -> None:
    # No capture takes all five pieces: the pieces taken stay and block the king (4.11).
    fen = "B:W27,28,38,39,42:BK25"
    findings = verify_position(fen, [_c(25, 33, 27, 28, 39, 42), _c(25, 43, 27, 28, 38, 39, 42)])
    assert kinds(findings) == {FindingKind.SOUNDNESS}
    assert "most any capture takes is 4" in findings[0].message


def test_a_capture_by_a_piece_of_the_wrong_side_is_unsound() -> None:
    findings = verify_position("W:W28,32:B23", [_c(28, 19, 23), _c(23, 32, 28)])
    assert FindingKind.SOUNDNESS in kinds(findings)
    assert any("holds a black man" in finding.message for finding in findings)


def test_a_capture_that_stops_too_early_is_unsound_and_not_optimal() -> None:
    # W:W15:B8,19,20 must go 15x24x13x2; stopping on 24 after one jump leaves jumps to make.
    findings = verify_position("W:W15:B8,19,20", [_c(15, 24, 20)])
    assert {FindingKind.SOUNDNESS, FindingKind.OPTIMALITY, FindingKind.COMPLETENESS} <= kinds(findings)
    assert any("can go on" in finding.message for finding in findings)


def test_a_quiet_move_when_a_capture_exists_breaks_compulsory_capture() -> None:
    findings = verify_position("W:W28,32:B23", [_c(28, 19, 23), _c(32, 27)])
    assert kinds(findings) == {FindingKind.COMPULSORY_CAPTURE}
    assert findings[0].articles == ("4.2",)


def test_ignoring_a_capture_altogether_is_reported() -> None:
    findings = verify_position("W:W28,32:B23", [_c(28, 22), _c(32, 27), _c(32, 28)])
    assert {FindingKind.COMPULSORY_CAPTURE, FindingKind.COMPLETENESS} <= kinds(findings)


def test_routes_are_not_moves() -> None:
    # The loop W:WK38:B18,19,32,33 has 6 routes but 5 moves: listing 38x38 twice is wrong.
    expected = next(row[1] for row in PUBLISHED_CAPTURES if row[0] == "W:WK38:B18,19,32,33")
    answer = [*sorted(expected, key=str), _c(38, 38, 18, 19, 32, 33)]
    findings = verify_position("W:WK38:B18,19,32,33", answer)
    assert kinds(findings) == {FindingKind.DUPLICATE}


def test_unreadable_moves_are_malformed() -> None:
    findings = verify_position("W:W28,32:B23", [_c(28, 19, 23), (28, 51, [23]), "28x19", (28, 19, "23")])
    assert [finding.kind for finding in findings] == [FindingKind.MALFORMED] * 3


def test_move_objects_with_attributes_are_accepted() -> None:
    from oracle.moves import Move

    assert verify_position("W:W28,32:B23", [Move(28, 19, frozenset({23}))]) == []


def test_a_solver_time_out_is_an_error_not_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *assumptions: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    with pytest.raises(SolverUnknownError):
        verify_position("W:W28,32:B23", [_c(28, 19, 23)])


# -- quiet moves ---------------------------------------------------------------------------------


def test_quiet_moves_follow_the_rule() -> None:
    for fen, expected, source in PUBLISHED_QUIET:
        assert quiet_moves(Position.from_fen(fen)) == expected, source


def test_a_missing_or_extra_quiet_move_is_reported() -> None:
    findings = verify_position("W:W28", [_c(28, 22)])
    assert kinds(findings) == {FindingKind.QUIET_MOVES}
    assert findings[0].detail["missing"] == ["28-23"]
    findings = verify_position("W:W28", [_c(28, 22), _c(28, 23), _c(28, 33)])  # a man steps forward only
    assert findings[0].detail["extra"] == ["28-33"]
    findings = verify_position("W:WK28", [_c(28, to) for to in (5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33)])
    assert kinds(findings) == {FindingKind.QUIET_MOVES}


def test_a_blocked_side_has_no_move() -> None:
    # White's man on 46 faces a black man on 41 with another on 37 behind it: no step, no jump.
    assert verify_position("W:W46:B41,37", []) == []
    assert kinds(verify_position("W:W46:B41,37", [_c(46, 41)])) == {FindingKind.QUIET_MOVES}


def test_a_capture_claimed_where_there_is_none_is_unsound() -> None:
    findings = verify_position("W:W28", [_c(28, 22), _c(28, 23), _c(28, 19, 23)])
    assert kinds(findings) == {FindingKind.SOUNDNESS, FindingKind.CAPTURED_SQUARES}
    assert any("no capture exists" in finding.message for finding in findings)


# -- captured squares ------------------------------------------------------------------------------


def test_captured_squares_must_be_distinct_and_the_opponents() -> None:
    position = Position.from_fen("W:W15:B8,19,20")
    assert check_captured_squares(position, _c(15, 2, 8, 19, 20), [20, 19, 8]) == []
    repeated = check_captured_squares(position, _c(15, 2, 8, 19, 20), [20, 19, 8, 19])
    assert kinds(repeated) == {FindingKind.CAPTURED_SQUARES}
    assert repeated[0].detail["repeated"] == [19]
    empty = check_captured_squares(position, _c(15, 2, 8, 19, 21), None)
    assert empty[0].detail["not_opponent"] == [21]
    own = check_captured_squares(Position.from_fen("W:W15,19:B8,20"), _c(15, 2, 8, 19, 20), None)
    assert own[0].detail["not_opponent"] == [19]


# -- the position after a move ---------------------------------------------------------------------


def test_a_right_result_passes() -> None:
    assert check_result("W:W15:B8,19,20", _c(15, 2, 8, 19, 20), "B:WK2:B") == []
    assert check_result("W:W15:B9,10", _c(15, 13, 9, 10), "B:W13:B") == []
    assert check_result("W:W28,32:B23", _c(28, 19, 23), "B:W19,32:B") == []


def test_a_captured_piece_left_on_the_board_breaks_the_piece_count() -> None:
    findings = check_result("W:W28,32:B23", _c(28, 19, 23), "B:W19,32:B23")
    assert kinds(findings) == {FindingKind.PIECE_COUNT}
    assert findings[0].articles == ("4.11",)


def test_a_man_left_on_its_promotion_row_is_reported() -> None:
    findings = check_result("W:W15:B8,19,20", _c(15, 2, 8, 19, 20), "B:W2:B")
    assert {FindingKind.PROMOTION_ROW, FindingKind.PROMOTION} == kinds(findings)


def test_crowning_a_man_that_only_passed_the_far_row_is_reported() -> None:
    findings = check_result("W:W15:B9,10", _c(15, 13, 9, 10), "B:WK13:B")
    assert kinds(findings) == {FindingKind.PROMOTION}
    assert "4.15" in findings[0].articles


def test_other_wrong_results_are_reported() -> None:
    assert kinds(check_result("W:W28,32:B23", _c(28, 19, 23), "W:W19,32:B")) == {FindingKind.RESULT_POSITION}
    assert kinds(check_result("W:W28,32:B23", _c(28, 19, 23), "B:W18,32:B")) == {FindingKind.RESULT_POSITION}
    assert kinds(check_result("W:W28,32:B23", _c(28, 19, 23), "B:W19,32,33:B")) == {FindingKind.PIECE_COUNT}
    assert kinds(check_result("W:W28,32:B23", _c(28, 19, 23), "not a fen")) == {FindingKind.MALFORMED}


def test_read_placement_keeps_what_the_oracle_would_reject() -> None:
    turn, placement = read_placement("B:W2,K3-4:B")
    assert turn.value == "B"
    assert sorted(placement) == [2, 3, 4]
    with pytest.raises(ValueError, match=r"outside|within"):
        read_placement("W:W51")


# -- symmetry --------------------------------------------------------------------------------------


def test_colour_flip_symmetry() -> None:
    fen = "W:W35:B30,K40"
    answer = [_c(35, 24, 30), _c(35, 44, 40)]
    assert mirrored_fen(fen) == "B:WK11,21:B16"
    flipped = [mirror_move(key) for key in answer]
    assert flipped == [_c(16, 27, 21), _c(16, 7, 11)]
    assert check_symmetry(fen, answer, flipped) == []
    findings = check_symmetry(fen, answer, flipped[:1])
    assert kinds(findings) == {FindingKind.SYMMETRY}
    assert findings[0].detail["missing"] == ["16x7 {11}"]


def test_every_kind_names_its_articles_and_findings_are_frozen() -> None:
    for kind in FindingKind:
        assert kind.articles, kind
    finding = Finding(FindingKind.SOUNDNESS, "message", {"fen": "W:W28:B23"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.message = "other"  # type: ignore[misc]
    assert hash(finding) == hash(Finding(FindingKind.SOUNDNESS, "message"))
    assert str(finding).startswith("[soundness, Art. 4.1,")


def test_the_rule_of_a_played_move_is_its_own_positions() -> None:
    # 32-28 (from, to, nothing taken) is a man's step (3.4) from the start, a king's move (3.9)
    # where a king stands on 32, and no move at all where 28 is taken; asked in turn, the
    # remembered answers must never be given for another position.
    key = (32, 28, frozenset[int]())
    for _ in range(2):
        assert played_move_rule(Position.initial(), key) == "3.4"
        assert played_move_rule(Position.from_fen("W:WK32:B1"), key) == "3.9"
        assert played_move_rule(Position.from_fen("W:W28,32:B1"), key) is None
