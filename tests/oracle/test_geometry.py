"""Board geometry on every size (rulesets/README.md, "Squares: one numbering for every board size").

The 8x8 rays are compared with the table written by hand in rulesets/README.md, the 12x12 board
with the neighbour rule and the diagram given there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.board import TEN, Direction, geometry

README = Path(__file__).resolve().parents[2] / "rulesets" / "README.md"
NW, NE, SW, SE = Direction.NORTH_WEST, Direction.NORTH_EAST, Direction.SOUTH_WEST, Direction.SOUTH_EAST


def _readme_rays() -> dict[int, tuple[str, tuple[tuple[int, ...], ...]]]:
    """Square -> (algebraic name, its four rays) from the README's table of the 8x8 rays."""
    table = {}
    row = re.compile(r"^\| (\d+) \| ([a-h][1-8]) \|(.*)\|$")
    for line in README.read_text(encoding="utf-8").splitlines():
        match = row.match(line)
        if match:
            cells = [cell.strip() for cell in match.group(3).split("|")]
            rays = tuple(() if cell == "-" else tuple(int(s) for s in cell.split()) for cell in cells)
            table[int(match.group(1))] = (match.group(2), rays)
    return table


def test_the_8x8_rays_are_the_readmes() -> None:
    table = _readme_rays()
    board = geometry(8)
    assert sorted(table) == list(board.squares) == list(range(1, 33))
    for square, (name, rays) in table.items():
        assert board.rays[square] == rays, square
        assert board.algebraic(square) == name
        assert board.square_of_algebraic(name) == square


@pytest.mark.parametrize(
    ("square", "neighbours"),
    # README: rows 1-6, 13-18, ... NW s-6, NE s-5, SW s+6, SE s+7; rows 7-12, ... NW s-7, NE s-6,
    # SW s+5, SE s+6; none off the board.
    [
        (1, (None, None, 7, 8)),
        (6, (None, None, 12, None)),
        (15, (9, 10, 21, 22)),
        (19, (None, 13, None, 25)),
        (24, (17, 18, 29, 30)),
        (67, (None, 61, None, None)),
        (72, (65, 66, None, None)),
    ],
)
def test_12x12_neighbours(square: int, neighbours: tuple[int | None, ...]) -> None:
    rays = geometry(12).rays[square]
    assert tuple(ray[0] if ray else None for ray in rays) == neighbours


def test_12x12_long_diagonal_and_corners() -> None:
    board = geometry(12)
    assert (board.rays[67][NE]) == (61, 56, 50, 45, 39, 34, 28, 23, 17, 12, 6)
    assert board.algebraic(67) == "a1"
    assert board.algebraic(6) == "l12"
    assert board.square_count == 72


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14, 26])
def test_bitboard_steps_agree_with_rays(size: int) -> None:
    # Every one-step shift of a single square lands exactly on its neighbour, or off the board.
    board = geometry(size)
    assert len(set(board.bit[1:])) == board.square_count
    for square in board.squares:
        for direction in Direction:
            ray = board.rays[square][direction]
            expected = board.bit[ray[0]] if ray else 0
            assert board.step(board.bit[square], direction) == expected, (size, square, direction)
    assert board.squares_of(board.all_squares) == list(board.squares)


def test_the_10x10_constants_are_the_10x10_geometry() -> None:
    assert geometry(10) is TEN
    assert TEN.rays[46][NE][-1] == 5  # the long diagonal 46-5


@pytest.mark.parametrize("size", [3, 7, 2, 28, 0])
def test_bad_sizes(size: int) -> None:
    with pytest.raises(ValueError, match="board size"):
        geometry(size)


def test_algebraic_names_only_dark_squares() -> None:
    board = geometry(8)
    assert board.square_of_algebraic("a2") is None  # light
    assert board.square_of_algebraic("i1") is None
    assert board.square_of_algebraic("a9") is None
    assert board.square_of_algebraic("A1") is None
