"""The board: squares, rows, columns and diagonal rays, for every board size (FMJD Art. 2).

The dark squares of an ``n`` x ``n`` board are numbered row by row from Black's side, as FMJD 2.6
numbers the 10x10 board: with ``p = n/2`` squares a row, squares 1 to ``p`` form the top row
(Black's back row, where White promotes), the last ``p`` the bottom row (White's back row, where
Black promotes). Square 1 stands on the second column of the top row, so the bottom-left corner
(a1) is dark and the long diagonal runs from each player's near left: 46-5 on 10x10, 29-4 on 8x8.

Directions are named as seen from White: *north* is up the board, toward square 1.

A :class:`Geometry` holds every table of one board size, computed once (:func:`geometry` caches
them); a rule set carries the geometry of its board (:attr:`oracle.rules.Rules.geometry`). The
module constants below (:data:`SQUARES`, :data:`RAYS`, :data:`BIT`, ...) and functions
(:func:`row_of`, :func:`squares_of`, ...) are those of the 10x10 board of international draughts.

Bitboards
---------
Sets of squares are Python ints. On an ``n`` x ``n`` board square ``s`` is bit ``s + (s - 1) // n``:
one unused ("ghost") bit after every second row. With that gap every diagonal step is the same
shift wherever it starts -- north-west ``-(p+1)``, north-east ``-p``, south-west ``+p``, south-east
``+(p+1)`` (-6, -5, +5, +6 on 10x10) -- and a step off the board lands on a ghost bit or outside
the board bits, never on another square. Use :attr:`Geometry.bit` and :meth:`Geometry.squares_of`
to convert.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from typing import Final

INTERNATIONAL_SIZE: Final = 10
SMALLEST_SIZE: Final = 4
LARGEST_SIZE: Final = 26
"""Board sizes run 4-26: the even sizes whose columns a-z can name (rulesets/schema.json)."""


class Direction(enum.IntEnum):
    """The four diagonal directions, named as seen from White (north = toward square 1)."""

    NORTH_WEST = 0
    NORTH_EAST = 1
    SOUTH_WEST = 2
    SOUTH_EAST = 3

    @property
    def opposite(self) -> Direction:
        return Direction(3 - self.value)


NORTHWARD: Final = (Direction.NORTH_WEST, Direction.NORTH_EAST)
SOUTHWARD: Final = (Direction.SOUTH_WEST, Direction.SOUTH_EAST)
ALL_DIRECTIONS: Final = tuple(Direction)

_DELTAS: Final = {
    Direction.NORTH_WEST: (-1, -1),
    Direction.NORTH_EAST: (-1, 1),
    Direction.SOUTH_WEST: (1, -1),
    Direction.SOUTH_EAST: (1, 1),
}

#: A short jump from a square: (direction, bit of the square jumped, landing square, its bit).
ShortJump = tuple[Direction, int, int, int]


class Geometry:
    """Every table of the ``size`` x ``size`` board. Build it with :func:`geometry` (cached).

    Square numbers index the per-square tables directly (index 0 is unused).
    """

    def __init__(self, size: int) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size % 2:
            raise ValueError(f"a board size must be an even whole number, not {size!r}")
        if not SMALLEST_SIZE <= size <= LARGEST_SIZE:
            raise ValueError(f"a board size must be {SMALLEST_SIZE} to {LARGEST_SIZE}, not {size}")
        self.size: Final = size
        self.per_row: Final = size // 2
        self.square_count: Final = size * size // 2
        self.squares: Final = tuple(range(1, self.square_count + 1))
        #: ``rays[s][d]``: the squares met going from ``s`` in direction ``d``, nearest first.
        self.rays: Final[tuple[tuple[tuple[int, ...], ...], ...]] = ((),) + tuple(
            tuple(self._ray(square, direction) for direction in Direction) for square in self.squares
        )
        #: ``bit[s]``: the single-bit bitboard of square ``s`` (index 0 is 0).
        self.bit: Final[tuple[int, ...]] = (0,) + tuple(1 << (s + (s - 1) // size) for s in self.squares)
        #: The square of each single-bit bitboard.
        self.square_of_bit: Final[dict[int, int]] = {self.bit[s]: s for s in self.squares}
        self._square_of_index: Final = {self.bit[s].bit_length() - 1: s for s in self.squares}
        self.all_squares: Final = sum(self.bit[1:])
        #: Bitboard of each row, top (0, Black's back row) to bottom (White's back row).
        self.rows: Final[tuple[int, ...]] = tuple(
            sum(self.bit[s] for s in self.squares if self.row_of(s) == row) for row in range(size)
        )
        self.top_row: Final = self.rows[0]
        """Black's back row, where White's men are crowned."""
        self.bottom_row: Final = self.rows[-1]
        """White's back row, where Black's men are crowned."""
        p = self.per_row
        #: How many bits a bitboard shifts for one step in each direction (negative = right shift).
        self.shift: Final = {
            Direction.NORTH_WEST: -(p + 1),
            Direction.NORTH_EAST: -p,
            Direction.SOUTH_WEST: p,
            Direction.SOUTH_EAST: p + 1,
        }
        self.north_shifts: Final = tuple(self.shift[d] for d in NORTHWARD)
        self.south_shifts: Final = tuple(self.shift[d] for d in SOUTHWARD)
        #: ``short_jumps[directions][s]``: the jumps over an adjacent square toward ``directions``.
        self.short_jumps: Final[dict[tuple[Direction, ...], tuple[tuple[ShortJump, ...], ...]]] = {
            directions: self._short_jumps(directions) for directions in (ALL_DIRECTIONS, NORTHWARD, SOUTHWARD)
        }

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (geometry, (self.size,))  # one geometry per size, in every process

    def __repr__(self) -> str:
        return f"<Geometry {self.size}x{self.size}, squares 1-{self.square_count}>"

    # -- squares, rows and columns ------------------------------------------------------------

    def row_of(self, square: int) -> int:
        """Row 0 (squares 1..p, Black's back row) to size - 1 (White's back row)."""
        return (square - 1) // self.per_row

    def column_of(self, square: int) -> int:
        """Column 0 (left, as White sees the board: column a) to size - 1."""
        row, index = divmod(square - 1, self.per_row)
        return 2 * index + (1 if row % 2 == 0 else 0)

    def square_at(self, row: int, column: int) -> int | None:
        """The square at (row, column), or None for a light square or a point off the board."""
        size = self.size
        if not (0 <= row < size and 0 <= column < size) or (row + column) % 2 == 0:
            return None
        return row * self.per_row + column // 2 + 1

    def is_square(self, value: int) -> bool:
        return 1 <= value <= self.square_count

    def square_of_digits(self, digits: str) -> int | None:
        """The square that ASCII ``digits`` number (leading zeros allowed), None when off the board.

        Digits of any length are answered without converting them to ``int``, which Python
        refuses beyond 4,300 digits.
        """
        significant = digits.lstrip("0")
        if not (digits.isascii() and digits.isdigit()) or len(significant) > 3:
            return None
        value = int(significant or "0")
        return value if self.is_square(value) else None

    def algebraic(self, square: int) -> str:
        """The algebraic name of a square, column letter and rank from White's side: 29 -> ``a1`` on 8x8."""
        return f"{chr(ord('a') + self.column_of(square))}{self.size - self.row_of(square)}"

    def square_of_algebraic(self, name: str) -> int | None:
        """The dark square an algebraic name (``c3``) names, or None (a light square, off the board)."""
        if not (name.isascii() and 2 <= len(name) <= 3 and name[0].islower() and name[1:].isdigit()):
            return None
        column, rank = ord(name[0]) - ord("a"), int(name[1:])
        return self.square_at(self.size - rank, column) if 1 <= rank <= self.size else None

    def mirrored(self, square: int) -> int:
        """The square seen from the other side of the board (half a turn)."""
        return self.square_count + 1 - square

    def far_row(self, white: bool) -> int:
        """The row index where a side's men are crowned: 0 for White, size - 1 for Black."""
        return 0 if white else self.size - 1

    # -- bitboards ----------------------------------------------------------------------------

    def bitboard(self, squares: Iterable[int]) -> int:
        """The bitboard holding the given squares."""
        bit = self.bit
        result = 0
        for square in squares:
            result |= bit[square]
        return result

    def squares_of(self, board: int) -> list[int]:
        """The squares of a bitboard, ascending."""
        square_of_index = self._square_of_index
        squares = []
        while board:
            lowest = board & -board
            squares.append(square_of_index[lowest.bit_length() - 1])
            board ^= lowest
        return squares

    def step(self, board: int, direction: Direction) -> int:
        """Every square of ``board`` moved one step in ``direction`` (steps off the board vanish)."""
        shift = self.shift[direction]
        moved = board << shift if shift > 0 else board >> -shift
        return moved & self.all_squares

    # -- building the tables ------------------------------------------------------------------

    def _ray(self, square: int, direction: Direction) -> tuple[int, ...]:
        d_row, d_column = _DELTAS[direction]
        row, column = self.row_of(square) + d_row, self.column_of(square) + d_column
        ray = []
        while (next_square := self.square_at(row, column)) is not None:
            ray.append(next_square)
            row, column = row + d_row, column + d_column
        return tuple(ray)

    def _short_jumps(self, directions: tuple[Direction, ...]) -> tuple[tuple[ShortJump, ...], ...]:
        bit = self.bit
        return tuple(
            tuple((d, bit[rays[d][0]], rays[d][1], bit[rays[d][1]]) for d in directions if len(rays[d]) >= 2)
            if rays
            else ()
            for rays in self.rays
        )


@functools.cache
def geometry(size: int = INTERNATIONAL_SIZE) -> Geometry:
    """The tables of the ``size`` x ``size`` board, built once per size."""
    return Geometry(size)


# -- the 10x10 board of international draughts -------------------------------------------------

TEN: Final = geometry(INTERNATIONAL_SIZE)
SQUARE_COUNT: Final = TEN.square_count
ROW_COUNT: Final = TEN.size
SQUARES: Final = TEN.squares
RAYS: Final = TEN.rays
BIT: Final = TEN.bit
ALL_SQUARES: Final = TEN.all_squares
ROWS: Final = TEN.rows
SHIFT: Final = TEN.shift

row_of: Final = TEN.row_of
column_of: Final = TEN.column_of
square_at: Final = TEN.square_at
is_square: Final = TEN.is_square
step: Final = TEN.step
bitboard: Final = TEN.bitboard
squares_of: Final = TEN.squares_of


def square_of_digits(digits: str) -> int | None:
    """The 10x10 square that ASCII ``digits`` number (leading zeros allowed), None when not 1-50."""
    return TEN.square_of_digits(digits)
