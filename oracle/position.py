"""Positions and PDN FEN (FMJD Art. 2; PDN 3.0 FEN tag).

A :class:`Position` is the placement of the pieces plus the side to move, nothing else:
the counters of the draw rules (Art. 6) belong to a game (:mod:`oracle.game`).

PDN FEN looks like ``W:W31-50:B1-20``: the side to move, then a ``W`` and a ``B`` section
(in either order, either may be empty or absent) listing squares, ``K`` before a king,
ranges allowed (``31-35``, ``K1-3``).

A position knows the size of its board (:attr:`Position.board_size`); a FEN is read under a rule
set (:meth:`Position.from_fen`, international by default), whose board numbers the squares. Where
the rule set's PDN GameType writes squares algebraically (Russian and Brazilian draughts, GameType
``25,W,8,8,A0,0`` and ``26,...``), the FEN may name them so (``W:Wa1,c1:Bb8``); :meth:`Position.fen`
always writes numbers, :meth:`Position.pdn_fen` writes the game's own way.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Final

from oracle.board import INTERNATIONAL_SIZE, Geometry, geometry
from oracle.errors import FenError, excerpt, number_excerpt
from oracle.rules import INTERNATIONAL, Rules

MAX_PIECES_PER_SIDE: Final = 20
"""The most pieces a side has in international draughts (a rule set: men_rows x squares a row)."""


class _Geometries(dict[int, Geometry]):
    """Board size -> geometry, a plain dict look-up once a size has been seen."""

    def __missing__(self, size: int) -> Geometry:
        board = self[size] = geometry(size)
        return board


_GEOMETRIES: Final = _Geometries()


class Color(enum.Enum):
    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def promotion_row(self) -> int:
        """The far row where this side's men are crowned on 10x10 (Art. 3.5): 0 for White, 9 for Black
        (on any board: :meth:`oracle.board.Geometry.far_row`)."""
        return 0 if self is Color.WHITE else 9

    def __str__(self) -> str:
        return self.name.lower()


class Kind(enum.Enum):
    MAN = "man"
    KING = "king"


@dataclasses.dataclass(frozen=True, slots=True)
class Piece:
    color: Color
    kind: Kind

    @property
    def symbol(self) -> str:
        """``w``/``b`` for men, ``W``/``B`` for kings (as in the text board)."""
        letter = self.color.value
        return letter if self.kind is Kind.KING else letter.lower()


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """Placement of the pieces and the side to move (Art. 2).

    The four placements are bitboards in the layout of :mod:`oracle.board` for a board of
    ``board_size``; build positions with :meth:`from_fen`, :meth:`initial` or
    :meth:`from_squares`, and read them back with :meth:`piece_at` and :meth:`squares`. Positions
    are immutable and hashable; two positions are equal when board, placement and side to move are.
    """

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color
    board_size: int = INTERNATIONAL_SIZE
    _fen: str | None = dataclasses.field(default=None, init=False, repr=False, compare=False)
    """:meth:`fen`, once written (the position never changes, so neither does its FEN)."""

    @property
    def geometry(self) -> Geometry:
        """The tables of this position's board."""
        return _GEOMETRIES[self.board_size]

    # -- construction -------------------------------------------------------------------

    @classmethod
    def initial(cls, rules: Rules = INTERNATIONAL) -> Position:
        """The starting position (Art. 2.8): Black's men on the top rows, White's on the bottom,
        the side of ``rules.first_move`` to move."""
        rows, board = rules.men_rows, rules.geometry
        black = sum(board.rows[:rows])
        white = sum(board.rows[board.size - rows :])
        turn = Color.WHITE if rules.white_moves_first else Color.BLACK
        return cls(white, 0, black, 0, turn, board.size)

    @classmethod
    def from_squares(
        cls,
        turn: Color,
        white_men: frozenset[int] | set[int] = frozenset(),
        white_kings: frozenset[int] | set[int] = frozenset(),
        black_men: frozenset[int] | set[int] = frozenset(),
        black_kings: frozenset[int] | set[int] = frozenset(),
        rules: Rules = INTERNATIONAL,
    ) -> Position:
        """Build a position from square numbers, validated like a FEN."""
        fen = _format_fen(turn, white_men, white_kings, black_men, black_kings)
        return cls.from_fen(fen, rules)

    @classmethod
    def from_fen(cls, fen: str, rules: Rules = INTERNATIONAL) -> Position:
        """Parse PDN FEN on the board of ``rules``; raise :class:`FenError` naming the offending
        token and why."""
        return _parse_fen(fen, rules)

    # -- reading ------------------------------------------------------------------------

    @property
    def occupied(self) -> int:
        return self.white_men | self.white_kings | self.black_men | self.black_kings

    def men(self, color: Color) -> int:
        return self.white_men if color is Color.WHITE else self.black_men

    def kings(self, color: Color) -> int:
        return self.white_kings if color is Color.WHITE else self.black_kings

    def pieces(self, color: Color) -> int:
        return self.men(color) | self.kings(color)

    def squares(self, color: Color, kind: Kind | None = None) -> list[int]:
        """The squares holding ``color``'s pieces (of one kind, if given), ascending."""
        squares_of = self.geometry.squares_of
        if kind is Kind.MAN:
            return squares_of(self.men(color))
        if kind is Kind.KING:
            return squares_of(self.kings(color))
        return squares_of(self.pieces(color))

    def piece_at(self, square: int) -> Piece | None:
        bit = self.geometry.bit[square]
        if self.white_men & bit:
            return Piece(Color.WHITE, Kind.MAN)
        if self.white_kings & bit:
            return Piece(Color.WHITE, Kind.KING)
        if self.black_men & bit:
            return Piece(Color.BLACK, Kind.MAN)
        if self.black_kings & bit:
            return Piece(Color.BLACK, Kind.KING)
        return None

    def count(self, color: Color, kind: Kind | None = None) -> int:
        return len(self.squares(color, kind))

    def fen(self) -> str:
        """Canonical PDN FEN: side, ``W`` section, ``B`` section, ascending square numbers, no ranges."""
        if self._fen is None:
            squares_of = self.geometry.squares_of
            fen = _format_fen(
                self.turn,
                squares_of(self.white_men),
                squares_of(self.white_kings),
                squares_of(self.black_men),
                squares_of(self.black_kings),
            )
            object.__setattr__(self, "_fen", fen)  # a cache, not a change: the position is frozen
            return fen
        return self._fen

    def pdn_fen(self, rules: Rules = INTERNATIONAL) -> str:
        """The FEN as the rule set's PDN GameType writes it: algebraic squares (``Wa1,c1``, in
        ascending square order) for the algebraic games, else :meth:`fen`."""
        if not rules.algebraic:
            return self.fen()
        board = self.geometry

        def section(men: int, kings: int) -> str:
            items = sorted(
                [(s, "") for s in board.squares_of(men)] + [(s, "K") for s in board.squares_of(kings)]
            )
            return ",".join(f"{prefix}{board.algebraic(square)}" for square, prefix in items)

        white, black = section(self.white_men, self.white_kings), section(self.black_men, self.black_kings)
        return f"{self.turn.value}:W{white}:B{black}"

    def mirror(self) -> Position:
        """The same position seen from the other side: square s -> count + 1 - s, colours swapped."""
        board = self.geometry

        def flip(pieces: int) -> int:
            return board.bitboard([board.mirrored(s) for s in board.squares_of(pieces)])

        return Position(
            white_men=flip(self.black_men),
            white_kings=flip(self.black_kings),
            black_men=flip(self.white_men),
            black_kings=flip(self.white_kings),
            turn=self.turn.opponent,
            board_size=self.board_size,
        )

    def with_turn(self, turn: Color) -> Position:
        return dataclasses.replace(self, turn=turn)

    def diagram(self) -> str:
        """A text board: ``w``/``b`` men, ``W``/``B`` kings, ``.`` empty dark squares."""
        board = self.geometry
        width = len(str(board.square_count))
        lines = []
        for row in range(board.size):
            cells = [" "] * board.size
            for square in board.squares:
                if board.row_of(square) == row:
                    piece = self.piece_at(square)
                    cells[board.column_of(square)] = piece.symbol if piece else "."
            first, last = row * board.per_row + 1, (row + 1) * board.per_row
            lines.append(f"{first:>{width}}-{last:<{width}} " + " ".join(cells))
        lines.append(f"{self.turn} to move")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.fen()


# -- PDN FEN ----------------------------------------------------------------------------

_RANGE: Final = re.compile(r"([0-9]+)-([0-9]+)")


def _format_fen(
    turn: Color,
    white_men: frozenset[int] | set[int] | list[int],
    white_kings: frozenset[int] | set[int] | list[int],
    black_men: frozenset[int] | set[int] | list[int],
    black_kings: frozenset[int] | set[int] | list[int],
) -> str:
    def section(
        men: frozenset[int] | set[int] | list[int], kings: frozenset[int] | set[int] | list[int]
    ) -> str:
        items = sorted([(s, "") for s in men] + [(s, "K") for s in kings])
        return ",".join(f"{prefix}{square}" for square, prefix in items)

    return f"{turn.value}:W{section(white_men, white_kings)}:B{section(black_men, black_kings)}"


def _parse_fen(fen: str, rules: Rules) -> Position:
    if not isinstance(fen, str):
        raise FenError(f"a FEN must be a string, not {type(fen).__name__}")
    text = fen.strip()
    shown = excerpt(text)
    if not text:
        raise FenError("empty FEN: expected something like 'W:W31-50:B1-20'")
    side, *sections = text.split(":")
    side = side.strip()
    if side not in ("W", "B"):
        raise FenError(f"FEN {shown}: side to move {excerpt(side)} must be 'W' or 'B'")

    board, algebraic = rules.geometry, rules.algebraic
    most_pieces = rules.men_rows * board.per_row
    occupied = 0
    boards = {"W": (0, 0), "B": (0, 0)}  # per colour letter: (men, kings)
    seen_sections: set[str] = set()
    for section in sections:
        section = section.strip()
        letter = section[:1]
        if letter not in ("W", "B"):
            raise FenError(
                f"FEN {shown}: section {excerpt(section)} must start with 'W' or 'B' "
                "(a FEN is the side to move, then a W and a B section)"
            )
        color = Color(letter)
        if letter in seen_sections:
            raise FenError(f"FEN {shown}: the {color} section appears twice")
        seen_sections.add(letter)
        own_row = board.rows[board.far_row(color is Color.WHITE)]
        men = kings = 0
        body = section[1:].strip()
        for raw_item in body.split(",") if body else ():
            item = raw_item.strip()
            for square, king in _parse_item(shown, item, board, algebraic):
                bit = board.bit[square]
                if occupied & bit:
                    raise FenError(f"FEN {shown}: square {square} is listed twice ({excerpt(item)})")
                occupied |= bit
                if king:
                    kings |= bit
                elif bit & own_row:
                    raise FenError(
                        f"FEN {shown}: {excerpt(item)} puts a {color} man on square {square}, "
                        f"on {color}'s own promotion row, where a man cannot stand (Art. 3.5)"
                    )
                else:
                    men |= bit
        total = (men | kings).bit_count()
        if total > most_pieces:
            raise FenError(f"FEN {shown}: {color} has {total} pieces, more than {most_pieces}")
        boards[letter] = (men, kings)
    (white_men, white_kings), (black_men, black_kings) = boards["W"], boards["B"]
    return Position(white_men, white_kings, black_men, black_kings, Color(side), board.size)


def _parse_item(
    shown: str, item: str, board: Geometry, algebraic: bool
) -> tuple[tuple[int, bool], ...] | list[tuple[int, bool]]:
    """One comma-separated item of a FEN section: ``31``, ``K31``, ``31-35`` or ``K31-35``
    (or, where the game writes squares algebraically, ``c3`` and ``Kc3``).

    ``shown`` is the FEN as error messages quote it.
    """
    king = item.startswith("K")
    digits = item[1:] if king else item
    if digits.isascii() and digits.isdigit():  # the common case: one square
        return ((_square(shown, item, digits, board), king),)
    if algebraic and digits[:1].isalpha():
        square = board.square_of_algebraic(digits)
        if square is None:
            raise FenError(
                f"FEN {shown}: {excerpt(item)} is not a dark square of the {board.size}x{board.size} board"
            )
        return ((square, king),)
    match = _RANGE.fullmatch(digits)
    if match is None:
        what = "an empty item (two commas in a row?)" if not item else "not a square, a K-square or a range"
        raise FenError(f"FEN {shown}: {excerpt(item)} is {what}")
    first, last = (_square(shown, item, match.group(group), board) for group in (1, 2))
    if last < first:
        raise FenError(f"FEN {shown}: range {excerpt(item)} runs backward ({first} > {last})")
    return [(square, king) for square in range(first, last + 1)]


def _square(shown: str, item: str, digits: str, board: Geometry) -> int:
    square = board.square_of_digits(digits)
    if square is None:
        raise FenError(
            f"FEN {shown}: {excerpt(item)} names square {number_excerpt(digits)}, "
            f"outside 1-{board.square_count}"
        )
    return square
