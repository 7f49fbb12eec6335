"""The z3 encoding of the capture rules against published positions and the oracle (Art. 4)."""

from __future__ import annotations

import pytest
import z3

from conformance.verify import smt
from conformance.verify.capture_formula import SolverUnknownError, Witness
from conformance.verify.jumps import jumps_from
from conformance.verify.smt import CaptureSolver, maximal_captures
from oracle.moves import legal_moves
from oracle.position import Position

from .published import PUBLISHED_CAPTURES, PUBLISHED_QUIET


def _oracle_captures(fen: str) -> set[tuple[int, int, frozenset[int]]]:
    return {move.key for move in legal_moves(Position.from_fen(fen)) if move.captured}


def assert_valid_route(position: Position, witness: Witness) -> None:
    """Re-check a witness jump by jump, from the rules alone (4.1, 4.3, 4.8, 4.11)."""
    origin = witness.route[0]
    piece = position.piece_at(origin)
    assert piece is not None
    assert piece.color is position.turn
    occupied = frozenset(s for s in range(1, 51) if position.piece_at(s) is not None and s != origin)
    opponents = frozenset(position.squares(position.turn.opponent))
    assert len(set(witness.taken)) == len(witness.taken), "a piece taken twice"
    for start, over, land in zip(witness.route, witness.taken, witness.route[1:], strict=False):
        assert (over, land) in set(jumps_from(start, piece.kind, occupied, opponents)), (start, over, land)


@pytest.mark.parametrize(
    ("fen", "expected", "source"), PUBLISHED_CAPTURES, ids=[row[0] for row in PUBLISHED_CAPTURES]
)
def test_published_capture_sets(
    fen: str, expected: frozenset[tuple[int, int, frozenset[int]]], source: str
) -> None:
    solver = CaptureSolver.from_fen(fen)
    found = solver.maximal_captures()
    assert {capture.key for capture in found} == expected, source
    assert len(found) == len(expected), "a move enumerated twice"
    for capture in found:
        witness = solver.realise(*capture.key)
        assert witness is not None
        assert_valid_route(solver.position, witness)
    assert _oracle_captures(fen) == expected  # differential: the oracle agrees


@pytest.mark.parametrize(
    ("fen", "expected", "source"), PUBLISHED_QUIET, ids=[row[0] for row in PUBLISHED_QUIET]
)
def test_published_positions_without_capture(fen: str, expected: object, source: str) -> None:
    solver = CaptureSolver.from_fen(fen)
    assert not solver.can_capture, source
    assert solver.maximum() == (0, None)
    assert solver.maximal_captures() == []


def test_maximum_is_proved_and_witnessed() -> None:
    solver = CaptureSolver.from_fen("W:WK1:B7,9,17,19,20,30,31,33,43,44")
    m, witness = solver.maximum()
    assert m == 10
    assert witness is not None
    assert len(witness) == 10
    assert_valid_route(solver.position, witness)
    assert solver.at_least(11) is None
    # 10 pieces can be jumped at all, so the 11th step is ruled out by 4.8 without a solver call;
    # how many steps the formula grew to on the way depends on z3's models (8-10 seen).
    assert solver.steps <= 10


def test_steps_are_bounded_by_the_maximum_plus_one() -> None:
    solver = CaptureSolver.from_fen("W:W48:B24,K31,34,K42,43")  # 48x19 {24,34,43}, 5 pieces on the board
    assert solver.maximum()[0] == 3
    assert solver.steps == 4


def test_at_least_answers_partial_captures() -> None:
    solver = CaptureSolver.from_fen("W:W15:B8,19,20")
    witness = solver.at_least(2)
    assert witness is not None
    assert len(witness) >= 2
    assert_valid_route(solver.position, witness)
    assert solver.at_least(4) is None
    assert solver.at_least(0) == Witness((), ())


def test_realise_tells_exact_sets_apart() -> None:
    solver = CaptureSolver.from_fen("W:WK47:B14,19,29,31,42")
    assert solver.realise(47, 36, {14, 29, 31, 42}) is not None
    assert solver.realise(47, 36, {19, 29, 31, 42}) is not None
    assert solver.realise(47, 36, {14, 19, 29, 31}) is None
    assert solver.realise(47, 37, {14, 29, 31, 42}) is None
    partial = solver.realise(47, 38, {42})  # the first jump of both captures: realisable, not complete
    assert partial is not None
    assert not solver.is_complete(47, 38, {42})
    assert solver.is_complete(47, 36, {14, 29, 31, 42})


def test_man_keeps_capturing_as_a_man_past_the_far_row() -> None:
    # Art. 4.15: 15x4 reaches the far row and goes on 4x13 as a man; crowned, it could also
    # land on 18, 22, 27, 31 or 36 behind 9.
    assert {c.key for c in maximal_captures("W:W15:B9,10")} == {(15, 13, frozenset({9, 10}))}


def test_captured_pieces_block_the_king() -> None:
    # The Turkish strike (4.11): a piece taken earlier in the capture still stands and blocks,
    # so the king takes 4 of the 5 pieces (published answer 25x33 {27,28,39,42}).
    solver = CaptureSolver.from_fen("B:W27,28,38,39,42:BK25")
    assert solver.maximum()[0] == 4
    assert solver.at_least(5) is None


def test_unknown_is_an_error_never_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *assumptions: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    solver = CaptureSolver.from_fen("W:WK38:B18,19,32,33")
    with pytest.raises(SolverUnknownError, match="no proof either way"):
        solver.maximal_captures()
    with pytest.raises(SolverUnknownError, match="no proof either way"):
        CaptureSolver.from_fen("W:WK48:B7,8,31,34,K42,44").maximum()  # 4 of 6 pieces: needs an UNSAT


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout_ms"):
        CaptureSolver.from_fen("W:W28:B23", timeout_ms=0)


def test_no_capture_needs_no_solver() -> None:
    solver = CaptureSolver.from_fen("W:W31-50:B1-20")
    assert solver.maximal_captures() == []
    assert solver.checks == 0


def test_a_piece_takes_no_more_than_its_jumps_go_over() -> None:
    # Two men with one capture each, over different pieces: 28x19 over 23 and 46x37 over 41.
    # Two pieces can be jumped, but no piece's jumps go over more than one (4.8), so the maximum
    # of 1 is proved without a solver call, and the formula has one step.
    solver = CaptureSolver.from_fen("W:W28,46:B23,41")
    assert solver.maximum()[0] == 1
    assert solver.checks == 0
    assert {c.key for c in solver.maximal_captures()} == {
        (28, 19, frozenset({23})),
        (46, 37, frozenset({41})),
    }
    assert solver.steps == 1


def test_the_search_for_a_first_capture_leaves_the_solver_one_proof() -> None:
    # 48x39x30x19 over 43, 34 and 24 is the only capture of 3 (over 42 first, the man goes on
    # 37x26 over 31 and stops: 2). The search of the jump table finds it, so the solver is asked
    # once for the maximum (no capture of 4) and once for the enumeration (no other capture of
    # 3): the witness of the maximum is its first capture.
    solver = CaptureSolver.from_fen("W:W48:B24,K31,34,K42,43")
    m, witness = solver.maximum()
    assert m == 3
    assert witness is not None
    assert_valid_route(solver.position, witness)
    assert solver.checks == 1
    assert [c.key for c in solver.maximal_captures()] == [(48, 19, frozenset({24, 34, 43}))]
    assert solver.checks == 2


def test_the_maximum_and_its_captures_share_one_unsat() -> None:
    # The position above, its maximum captures asked first: one UNSAT (no other capture of 3
    # jumps or more) proves both the maximum and that none is missing.
    solver = CaptureSolver.from_fen("W:W48:B24,K31,34,K42,43")
    assert [c.key for c in solver.maximal_captures()] == [(48, 19, frozenset({24, 34, 43}))]
    assert solver.checks == 1
    assert solver.maximum()[0] == 3
    assert solver.at_least(4) is None
    assert solver.checks == 1


def test_a_search_that_falls_short_is_caught_up_by_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the search, the greedy walk from 48 jumps 42 first (2 pieces): the shared UNSAT
    # meets the capture of 3 instead, and the questions are asked in turn from there.
    monkeypatch.setattr(smt, "SEARCH_BUDGET", 0)
    solver = CaptureSolver.from_fen("W:W48:B24,K31,34,K42,43")
    assert [c.key for c in solver.maximal_captures()] == [(48, 19, frozenset({24, 34, 43}))]
    assert solver.checks == 3  # the capture of 3 met, no capture of 4, no other capture of 3
    m, witness = solver.maximum()
    assert m == 3
    assert witness is not None
    assert_valid_route(solver.position, witness)
    assert solver.realise(48, 26, {42, 31}) is not None  # the greedy walk's capture, not a maximum one
