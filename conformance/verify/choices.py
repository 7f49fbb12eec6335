"""What every generator of positions is written against: random choices and a board under construction.

A generator of :mod:`conformance.verify.strategies` takes its choices from a :class:`Chooser` --
a seeded :class:`RandomChooser` here, Hypothesis's draws there -- and places pieces on a
:class:`Board`, whose :meth:`Board.position` keeps the validity rules (Art. 2 as rules.md reads
them, on the rule set's board): no man on its own far row, at most ``menRows`` x (board size / 2)
pieces a side, each square at most once. Needs no Hypothesis.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from oracle.board import Geometry
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules

T = TypeVar("T")


def most_pieces(rules: Rules) -> int:
    """How many pieces a side may have: as many as it starts with (20 on 10x10)."""
    return rules.men_rows * rules.geometry.per_row


class Chooser(Protocol):
    """Where a generator takes its random choices from."""

    def integer(self, low: int, high: int) -> int:
        """An integer in ``low..high`` (both included); shrinks toward ``low``."""
        ...


class RandomChooser:
    """Choices from a seeded :class:`random.Random`: reproducible sets for benchmarks."""

    def __init__(self, seed: int | random.Random) -> None:
        self.random = seed if isinstance(seed, random.Random) else random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)


def pick(chooser: Chooser, options: Sequence[T]) -> T:
    if not options:
        raise ValueError("nothing to choose from")
    return options[chooser.integer(0, len(options) - 1)]


def chance(chooser: Chooser, percent: int) -> bool:
    """True with about ``percent`` % probability (shrinks toward True for 0 < percent)."""
    return chooser.integer(0, 99) < percent


# -- a board under construction --------------------------------------------------------------


@dataclasses.dataclass
class Board:
    """A placement being built; :meth:`position` checks the rules.md validity rules."""

    pieces: dict[int, tuple[Color, Kind]] = dataclasses.field(default_factory=dict)
    rules: Rules = INTERNATIONAL

    @property
    def geometry(self) -> Geometry:
        return self.rules.geometry

    @property
    def most(self) -> int:
        return most_pieces(self.rules)

    def count(self, color: Color) -> int:
        return sum(1 for owner, _ in self.pieces.values() if owner is color)

    def far_row(self, color: Color) -> int:
        return self.geometry.far_row(color is Color.WHITE)

    def can_place(self, square: int, color: Color, kind: Kind) -> bool:
        if square in self.pieces or self.count(color) >= self.most:
            return False
        return kind is Kind.KING or self.geometry.row_of(square) != self.far_row(color)

    def place(self, square: int, color: Color, kind: Kind) -> None:
        if not self.can_place(square, color, kind):
            raise ValueError(f"cannot place a {color} {kind.value} on {square}")
        self.pieces[square] = (color, kind)

    def position(self, turn: Color) -> Position:
        def squares(color: Color, kind: Kind) -> frozenset[int]:
            return frozenset(s for s, piece in self.pieces.items() if piece == (color, kind))

        return Position.from_squares(
            turn,
            white_men=squares(Color.WHITE, Kind.MAN),
            white_kings=squares(Color.WHITE, Kind.KING),
            black_men=squares(Color.BLACK, Kind.MAN),
            black_kings=squares(Color.BLACK, Kind.KING),
            rules=self.rules,
        )


def random_color(chooser: Chooser) -> Color:
    return Color.WHITE if chooser.integer(0, 1) == 0 else Color.BLACK


def random_kind(chooser: Chooser, king_percent: int) -> Kind:
    """A king with ``king_percent`` % probability; shrinks toward a man."""
    return Kind.KING if chooser.integer(0, 99) >= 100 - king_percent else Kind.MAN


def scatter(
    chooser: Chooser,
    board: Board,
    color: Color,
    count: int,
    king_percent: int,
    forbidden: frozenset[int] = frozenset(),
) -> None:
    """Place up to ``count`` pieces of ``color`` on free squares (kings with ``king_percent`` %)."""
    # The squares where board.can_place holds, found without recounting the side each time: a
    # king may stand anywhere free, a man not on its far row.
    geometry, far = board.geometry, board.far_row(color)
    for_king = [s for s in geometry.squares if s not in forbidden]
    for_man = [s for s in for_king if geometry.row_of(s) != far]
    for _ in range(count):
        kind = random_kind(chooser, king_percent)
        if board.count(color) >= board.most:
            return
        free = [s for s in (for_king if kind is Kind.KING else for_man) if s not in board.pieces]
        if not free:
            return
        board.place(pick(chooser, free), color, kind)
