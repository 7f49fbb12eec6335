"""The 10x10 board: squares 1-50, rows, columns and diagonal rays (FMJD Art. 2).

The 50 dark squares are numbered row by row from Black's side: squares 1-5 form the top
row (Black's back row, where White promotes), 46-50 the bottom row (White's back row,
where Black promotes). Square 1 stands on the second column of the top row, so the long
diagonal runs 46-41-37-32-28-23-19-14-10-5.

Directions are named as seen from White: *north* is up the board toward squares 1-5.
Every table here is computed once, at import.

Bitboards
---------
Sets of squares are Python ints. Square ``s`` is bit ``s + (s - 1) // 10``: one unused
("ghost") bit after every second row. With that gap every diagonal step is the same
shift wherever it starts -- north-west -6, north-east -5, south-west +5, south-east +6 --
and a step off the board lands on a ghost bit or outside the 55 board bits, never on
another square. Use :data:`BIT` and :func:`squares_of` to convert.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Final

SQUARE_COUNT: Final = 50
ROW_COUNT: Final = 10
SQUARES: Final = tuple(range(1, SQUARE_COUNT + 1))


class Direction(enum.IntEnum):
    """The four diagonal directions, named as seen from White (north = toward 1-5)."""

    NORTH_WEST = 0
    NORTH_EAST = 1
    SOUTH_WEST = 2
    SOUTH_EAST = 3

    @property
    def opposite(self) -> Direction:
        return Direction(3 - self.value)


NORTHWARD: Final = (Direction.NORTH_WEST, Direction.NORTH_EAST)
SOUTHWARD: Final = (Direction.SOUTH_WEST, Direction.SOUTH_EAST)

_DELTAS: Final = {
    Direction.NORTH_WEST: (-1, -1),
    Direction.NORTH_EAST: (-1, 1),
    Direction.SOUTH_WEST: (1, -1),
    Direction.SOUTH_EAST: (1, 1),
}

#: How many bits a bitboard shifts for one step in each direction (negative = right shift).
SHIFT: Final = {
    Direction.NORTH_WEST: -6,
    Direction.NORTH_EAST: -5,
    Direction.SOUTH_WEST: 5,
    Direction.SOUTH_EAST: 6,
}


def row_of(square: int) -> int:
    """Row 0 (squares 1-5, Black's back row) to 9 (squares 46-50, White's back row)."""
    return (square - 1) // 5


def column_of(square: int) -> int:
    """Column 0 (left, as White sees the board) to 9."""
    row, index = divmod(square - 1, 5)
    return 2 * index + (1 if row % 2 == 0 else 0)


def square_at(row: int, column: int) -> int | None:
    """The square at (row, column), or None for a light square or a point off the board."""
    if not (0 <= row < ROW_COUNT and 0 <= column < ROW_COUNT) or (row + column) % 2 == 0:
        return None
    return row * 5 + column // 2 + 1


def is_square(value: int) -> bool:
    return 1 <= value <= SQUARE_COUNT


def square_of_digits(digits: str) -> int | None:
    """The square that ASCII ``digits`` number (leading zeros allowed), None when not 1-50.

    Digits of any length are answered without converting them to ``int``, which Python refuses
    beyond 4,300 digits.
    """
    significant = digits.lstrip("0")
    if not (digits.isascii() and digits.isdigit()) or len(significant) > 2:
        return None
    value = int(significant or "0")
    return value if is_square(value) else None


def _ray(square: int, direction: Direction) -> tuple[int, ...]:
    d_row, d_column = _DELTAS[direction]
    row, column = row_of(square) + d_row, column_of(square) + d_column
    ray = []
    while (next_square := square_at(row, column)) is not None:
        ray.append(next_square)
        row, column = row + d_row, column + d_column
    return tuple(ray)


#: ``RAYS[s][d]``: the squares met going from ``s`` in direction ``d``, nearest first.
#: Index 0 is unused so that square numbers index directly.
RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = ((),) + tuple(
    tuple(_ray(square, direction) for direction in Direction) for square in SQUARES
)

#: ``BIT[s]``: the single-bit bitboard of square ``s`` (index 0 is 0).
BIT: Final[tuple[int, ...]] = (0,) + tuple(1 << (s + (s - 1) // 10) for s in SQUARES)

_SQUARE_OF_BIT: Final = {BIT[s].bit_length() - 1: s for s in SQUARES}

ALL_SQUARES: Final = sum(BIT[1:])

#: Bitboard of each row, top (0) to bottom (9).
ROWS: Final[tuple[int, ...]] = tuple(
    sum(BIT[s] for s in SQUARES if row_of(s) == row) for row in range(ROW_COUNT)
)


def bitboard(squares: Iterator[int] | tuple[int, ...] | list[int] | frozenset[int]) -> int:
    """The bitboard holding the given squares."""
    result = 0
    for square in squares:
        result |= BIT[square]
    return result


def squares_of(board: int) -> list[int]:
    """The squares of a bitboard, ascending."""
    squares = []
    while board:
        lowest = board & -board
        squares.append(_SQUARE_OF_BIT[lowest.bit_length() - 1])
        board ^= lowest
    return squares


def step(board: int, direction: Direction) -> int:
    """Every square of ``board`` moved one step in ``direction`` (steps off the board vanish)."""
    shift = SHIFT[direction]
    moved = board << shift if shift > 0 else board >> -shift
    return moved & ALL_SQUARES
