"""The single-jump relation the SMT encoding is built on (Art. 4.1, 4.3, 4.11).

Expected jumps are worked out on the board by hand: square 28 is row 5, column 4; its
neighbours are 22 (north-west), 23 (north-east), 32 (south-west), 33 (south-east).
"""

from __future__ import annotations

import dataclasses

import pytest

from conformance.verify.jumps import Jump, can_jump, capture_graph, capture_graphs, jumps_from
from oracle.position import Kind, Position
from oracle.rules import INTERNATIONAL


def _jumps(fen: str, square: int) -> set[tuple[int, int]]:
    position = Position.from_fen(fen)
    piece = position.piece_at(square)
    assert piece is not None
    occupied = frozenset(s for s in range(1, 51) if position.piece_at(s) is not None and s != square)
    opponents = frozenset(position.squares(position.turn.opponent))
    return set(jumps_from(square, piece.kind, occupied, opponents))


def test_man_jumps_forward_onto_the_square_behind() -> None:
    assert _jumps("W:W28:B23", 28) == {(23, 19)}


def test_man_jumps_backward_too() -> None:
    # Art. 4.1: 33 is south-east of 28, 39 right behind it.
    assert _jumps("W:W28:B33", 28) == {(33, 39)}


def test_man_does_not_jump_from_a_distance_or_over_its_own_piece() -> None:
    assert _jumps("W:W28:B19", 28) == set()  # 19 is two squares away
    assert _jumps("W:W28,23", 28) == set()


def test_no_jump_over_two_pieces_in_line() -> None:
    assert _jumps("W:W28:B23,19", 28) == set()
    assert _jumps("W:WK46:B23,19", 46) == set()


def test_flying_king_lands_anywhere_behind_up_to_the_next_piece() -> None:
    assert _jumps("W:WK46:B23", 46) == {(23, 19), (23, 14), (23, 10), (23, 5)}
    assert _jumps("W:WK46:B23,10", 46) == {(23, 19), (23, 14)}


def test_flying_king_cannot_slide_over_a_piece() -> None:
    assert _jumps("W:WK46,37:B23", 46) == set()
    assert _jumps("W:WK46:B37,23", 46) == {(37, 32), (37, 28)}  # 23 stops the landings, never jumped
    assert _jumps("W:WK46:B37,28", 46) == {(37, 32)}


def test_the_start_square_counts_as_empty_during_a_capture() -> None:
    # A man on 38 goes 38x27x18x29 and then jumps 33 back onto its own start square 38.
    graph = capture_graph(Position.from_fen("W:W38:B22,23,32,33"), 38)
    assert Jump(38, 29, 33, 38) in graph.jumps
    assert graph.kind is Kind.MAN


def test_capture_graph_only_lists_pieces_that_can_capture() -> None:
    graphs = capture_graphs(Position.from_fen("W:W28,32,45:B23"))
    assert [graph.origin for graph in graphs] == [28]


def test_capture_graph_rejects_a_square_without_a_piece_of_the_side_to_move() -> None:
    with pytest.raises(ValueError, match="no piece of the side to move"):
        capture_graph(Position.from_fen("W:W28:B23"), 23)


def test_can_jump_ignores_pieces_already_taken() -> None:
    position = Position.from_fen("W:W15:B9,10")
    # After 15x4 over 10 the man stands on 4 (4.15: still a man) and can take 9 to 13.
    assert can_jump(position, 15, 4, frozenset({10}))
    assert not can_jump(position, 15, 13, frozenset({9, 10}))


def test_capture_graphs_are_remembered_per_position_and_rule_set() -> None:
    # The same position under two rule sets: a man on 28 whose only jump is backward over 33
    # (Art. 4.1); with men that do not capture backward it has none. Asked in turn, the
    # remembered answer of one rule set must never be given for the other.
    position = Position.from_fen("W:W28:B33")
    forward_only = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)
    for _ in range(2):
        assert [graph.origin for graph in capture_graphs(position, INTERNATIONAL)] == [28]
        assert capture_graphs(position, forward_only) == ()
    # Two positions of one rule set: each gets its own graphs.
    other = Position.from_fen("W:W28:B23")
    assert {jump.over for graph in capture_graphs(other) for jump in graph.jumps} == {23}
    assert {jump.over for graph in capture_graphs(position) for jump in graph.jumps} == {33}
