"""Board geometry (FMJD Art. 2; rules.md "Board and position").

Every expected value here is read off the board as rules.md describes it: 50 dark squares
numbered row by row from Black's side, square 1 on the second column of the top row, the long
diagonal 46-5.
"""

from __future__ import annotations

import pytest

from oracle.board import (
    ALL_SQUARES,
    BIT,
    RAYS,
    ROWS,
    SQUARES,
    Direction,
    bitboard,
    column_of,
    row_of,
    square_at,
    squares_of,
    step,
)

NW, NE, SW, SE = Direction.NORTH_WEST, Direction.NORTH_EAST, Direction.SOUTH_WEST, Direction.SOUTH_EAST


def test_fifty_squares_numbered_from_one() -> None:
    assert tuple(range(1, 51)) == SQUARES


def test_square_1_is_on_the_second_column_of_the_top_row() -> None:
    assert (row_of(1), column_of(1)) == (0, 1)
    assert square_at(0, 1) == 1
    assert square_at(0, 0) is None  # the top-left corner is a light square


@pytest.mark.parametrize(
    ("square", "row", "column"),
    [
        (1, 0, 1),
        (5, 0, 9),  # the top-right corner: the long diagonal ends here
        (6, 1, 0),
        (10, 1, 8),
        (28, 5, 4),
        (45, 8, 9),
        (46, 9, 0),  # the bottom-left corner: the long diagonal starts here
        (50, 9, 8),
    ],
)
def test_row_and_column_of_landmark_squares(square: int, row: int, column: int) -> None:
    assert (row_of(square), column_of(square)) == (row, column)
    assert square_at(row, column) == square


def test_rows_hold_five_squares_each_numbered_left_to_right() -> None:
    for row in range(10):
        squares = [s for s in SQUARES if row_of(s) == row]
        assert squares == list(range(5 * row + 1, 5 * row + 6))
        assert [column_of(s) for s in squares] == sorted(column_of(s) for s in squares)


def test_every_square_is_dark_and_square_at_inverts_row_and_column() -> None:
    for square in SQUARES:
        row, column = row_of(square), column_of(square)
        assert (row + column) % 2 == 1  # dark squares only
        assert square_at(row, column) == square
    dark = [(r, c) for r in range(10) for c in range(10) if (r + c) % 2 == 1]
    found = [square_at(r, c) for r, c in dark]
    assert sorted(s for s in found if s is not None) == list(SQUARES)
    assert None not in found


@pytest.mark.parametrize(("row", "column"), [(-1, 0), (10, 1), (0, 10), (3, -1), (4, 4), (0, 0)])
def test_square_at_off_board_or_light_is_none(row: int, column: int) -> None:
    assert square_at(row, column) is None


def test_long_diagonal_runs_from_46_to_5() -> None:
    assert RAYS[46][NE] == (41, 37, 32, 28, 23, 19, 14, 10, 5)
    assert RAYS[5][SW] == (10, 14, 19, 23, 28, 32, 37, 41, 46)
    assert RAYS[46][NW] == RAYS[46][SW] == RAYS[46][SE] == ()
    assert RAYS[5][NW] == RAYS[5][NE] == RAYS[5][SE] == ()


def test_rays_of_28_match_the_dctl_flying_king_table() -> None:
    # dctl FFJD (sources.md, W:WK28): 28-5 6 10 11 14 17 19 22 23 32 33 37 39 41 44 46 50.
    assert RAYS[28][NW] == (22, 17, 11, 6)
    assert RAYS[28][NE] == (23, 19, 14, 10, 5)
    assert RAYS[28][SW] == (32, 37, 41, 46)
    assert RAYS[28][SE] == (33, 39, 44, 50)
    reached = sorted(s for ray in RAYS[28] for s in ray)
    assert reached == [5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33, 37, 39, 41, 44, 46, 50]


@pytest.mark.parametrize(
    ("square", "neighbours"),
    [
        # (NW, NE, SW, SE) one step away; None off the board.
        (28, (22, 23, 32, 33)),
        (33, (28, 29, 38, 39)),
        (6, (None, 1, None, 11)),
        (15, (10, None, 20, None)),
        (45, (40, None, 50, None)),
        (1, (None, None, 6, 7)),
        (47, (41, 42, None, None)),
    ],
)
def test_first_square_of_each_ray_is_the_diagonal_neighbour(
    square: int, neighbours: tuple[int | None, ...]
) -> None:
    for direction, expected in zip(Direction, neighbours, strict=True):
        ray = RAYS[square][direction]
        assert (ray[0] if ray else None) == expected


def test_rays_follow_a_diagonal_to_the_edge() -> None:
    deltas = {NW: (-1, -1), NE: (-1, 1), SW: (1, -1), SE: (1, 1)}
    for square in SQUARES:
        for direction, (d_row, d_column) in deltas.items():
            ray = RAYS[square][direction]
            row, column = row_of(square), column_of(square)
            for k, next_square in enumerate(ray, start=1):
                assert (row_of(next_square), column_of(next_square)) == (
                    row + k * d_row,
                    column + k * d_column,
                )
            end_row, end_column = row + (len(ray) + 1) * d_row, column + (len(ray) + 1) * d_column
            assert not (0 <= end_row < 10 and 0 <= end_column < 10)  # the ray stops only at the edge


def test_rays_are_symmetric() -> None:
    for square in SQUARES:
        for direction in Direction:
            for other in RAYS[square][direction]:
                assert square in RAYS[other][direction.opposite]


def test_opposite_directions() -> None:
    assert NW.opposite is SE
    assert SE.opposite is NW
    assert NE.opposite is SW
    assert SW.opposite is NE


def test_mirror_square_51_minus_s_is_the_half_turn() -> None:
    # Position.mirror() relies on this: s -> 51 - s turns the board half a turn round.
    for square in SQUARES:
        assert (row_of(51 - square), column_of(51 - square)) == (9 - row_of(square), 9 - column_of(square))


def test_every_step_agrees_with_rays() -> None:
    for square in SQUARES:
        for direction in Direction:
            ray = RAYS[square][direction]
            assert step(BIT[square], direction) == (BIT[ray[0]] if ray else 0), (square, direction)


def test_step_moves_a_whole_bitboard() -> None:
    board = bitboard([6, 15, 28, 46])
    # 6 and 46 sit on the left edge: their north-west step falls off the board.
    assert squares_of(step(board, NW)) == [10, 22]
    assert squares_of(step(board, NE)) == [1, 23, 41]
    assert squares_of(step(ALL_SQUARES, SE)) == sorted(s for s in SQUARES if RAYS[s][NW])


def test_bitboard_round_trip_and_rows() -> None:
    assert squares_of(bitboard(list(SQUARES))) == list(SQUARES)
    assert bitboard(list(SQUARES)) == ALL_SQUARES
    assert squares_of(0) == []
    assert len(set(BIT[1:])) == 50
    assert all(b.bit_count() == 1 for b in BIT[1:])
    assert squares_of(ROWS[0]) == [1, 2, 3, 4, 5]
    assert squares_of(ROWS[9]) == [46, 47, 48, 49, 50]
