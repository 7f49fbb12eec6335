"""Every position with few pieces, numbered: the positions of ``verify --exhaustive --pieces K``.

The set for ``K`` is every placement of at most ``K`` pieces on the 50 dark squares (Art. 2.2)
with both sides present, men (Art. 2.3) never on their own promotion row -- a man reaching the
far row is crowned at the end of its move (Art. 3.5), so no game reaches a man standing there --,
each with White and with Black to move. Kings may stand anywhere, men on any other square.

Positions are numbered densely from 0, so that shards and workers split a campaign by index:

* first by the number of pieces (2, 3, ..., ``K``; the set for ``K - 1`` is a prefix of the set
  for ``K``, so a position keeps its number whatever ``K``), then by the number of white pieces;
* within one (white, black) count, placements in lexicographic order of their (square, piece)
  sequence, squares ascending, pieces ordered white man, white king, black man, black king;
* the side to move last: index ``2r`` is placement ``r`` with White to move, ``2r + 1`` with Black.

The placements are counted, not listed: a table of how many ways ``w`` white and ``b`` black pieces
fill squares ``s..50`` lets :func:`positions` jump to any index and :func:`count` give the exact
size (K = 2: 17,690; K = 3: 1,630,290; K = 4: 85,572,690).

Every function takes the rule set (``rules``, default international): the same enumeration on its
board -- squares 1..N, its far rows, at most ``menRows`` x (size / 2) pieces a side -- with exact
counts per board size (8x8: K = 2: 6,976, K = 3: 399,040; 12x12: K = 2: 37,560, K = 3: 5,075,520;
tests/verify/test_exhaustive_rules.py checks them against a brute-force count).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Final

from oracle.board import Geometry
from oracle.position import MAX_PIECES_PER_SIDE, Color, Position
from oracle.rules import INTERNATIONAL, Rules

MAX_PIECES: Final = 2 * MAX_PIECES_PER_SIDE
"""On 10x10; another board: twice what a side starts with (:func:`_Board.most`)."""

# The four pieces in their order: (white pieces added, black pieces added), and which bitboard.
_WHITE_MAN, _WHITE_KING, _BLACK_MAN, _BLACK_KING = range(4)
_LABELS: Final = (_WHITE_MAN, _WHITE_KING, _BLACK_MAN, _BLACK_KING)
_ADDS: Final = ((1, 0), (1, 0), (0, 1), (0, 1))


def _allowed(square: int, label: int, board: Geometry) -> bool:
    """A man never stands on its own promotion row (Art. 3.5); a king stands anywhere."""
    if label == _WHITE_MAN:
        return board.row_of(square) != board.far_row(True)
    if label == _BLACK_MAN:
        return board.row_of(square) != board.far_row(False)
    return True


_WALK_STEP: Final = 32
"""Up to this step, walking the placements in between is cheaper than finding each by counting."""


class _Board:
    """The board of one rule set as the enumeration needs it (one per board size and side limit)."""

    def __init__(self, rules: Rules) -> None:
        geometry = rules.geometry
        self.size = rules.board_size
        self.squares = geometry.square_count
        self.bit = geometry.bit
        self.side = rules.men_rows * geometry.per_row
        """The most pieces a side has (20 on 10x10)."""
        self.options = tuple(
            tuple(label for label in _LABELS if square and _allowed(square, label, geometry))
            for square in range(self.squares + 1)
        )
        """The pieces that may stand on each square (index 0 unused)."""

    @property
    def most(self) -> int:
        return 2 * self.side


@functools.cache
def _board(size: int, men_rows: int) -> _Board:
    return _Board(Rules(men_rows=men_rows, board_size=size))


def _board_of(rules: Rules) -> _Board:
    return _board(rules.board_size, rules.men_rows)


def _check(pieces: int, board: _Board) -> None:
    if not isinstance(pieces, int) or not 2 <= pieces <= board.most:
        raise ValueError(f"pieces must be a whole number from 2 to {board.most}, not {pieces!r}")


@functools.cache
def _table(pieces: int, board: _Board) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[s][w][b]``: the ways to place exactly ``w`` white and ``b`` black pieces on squares ``s..N``."""
    side = min(pieces, board.side)
    empty = [[0] * (side + 1) for _ in range(side + 1)]
    empty[0][0] = 1
    rows: list[list[list[int]]] = [empty]  # squares N + 1.. : only the empty placement
    for square in range(board.squares, 0, -1):
        after = rows[-1]
        here = [row[:] for row in after]
        for label in board.options[square]:
            dw, db = _ADDS[label]
            for w in range(dw, side + 1):
                for b in range(db, side + 1):
                    here[w][b] += after[w - dw][b - db]
        rows.append(here)
    rows.reverse()  # rows[0] is square 1; rows[N] the empty tail
    return tuple(((),) + tuple(tuple(tuple(r) for r in row) for row in rows))


def _classes(pieces: int, board: _Board) -> tuple[tuple[int, int, int], ...]:
    """The (white, black) piece counts in campaign order, each with its number of placements."""
    table = _table(pieces, board)
    return tuple(
        (white, total - white, table[1][white][total - white])
        for total in range(2, pieces + 1)
        for white in range(max(1, total - board.side), min(total - 1, board.side) + 1)
    )


def count(pieces: int, rules: Rules = INTERNATIONAL) -> int:
    """How many positions the campaign for ``pieces`` checks (both sides to move) on the rule set's board: exact."""
    board = _board_of(rules)
    _check(pieces, board)
    return 2 * sum(placements for _, _, placements in _classes(pieces, board))


def positions(
    pieces: int, start: int = 0, stop: int | None = None, step: int = 1, rules: Rules = INTERNATIONAL
) -> Iterator[Position]:
    """Positions ``start, start + step, ...`` (below ``stop``) of the campaign for ``pieces``.

    Jumps to ``start`` by counting (no position before it is built), then walks in order.
    """
    board = _board_of(rules)
    _check(pieces, board)
    total = count(pieces, rules)
    stop = total if stop is None else min(stop, total)
    if start < 0 or step < 1:
        raise ValueError(f"start must be 0 or more and step 1 or more, not {start!r} and {step!r}")
    if start >= stop:
        return
    if step > _WALK_STEP:  # sparse (a shard of many): find each position by counting
        for index in range(start, stop, step):
            white_men, white_kings, black_men, black_kings = next(_placements(pieces, index // 2, board))
            turn = Color.WHITE if index % 2 == 0 else Color.BLACK
            yield Position(white_men, white_kings, black_men, black_kings, turn, board.size)
        return
    index = start - start % 2  # the first index of the placement holding ``start``
    for white_men, white_kings, black_men, black_kings in _placements(pieces, start // 2, board):
        for turn in (Color.WHITE, Color.BLACK):
            if index >= stop:
                return
            if index >= start and (index - start) % step == 0:
                yield Position(white_men, white_kings, black_men, black_kings, turn, board.size)
            index += 1


def position(pieces: int, index: int, rules: Rules = INTERNATIONAL) -> Position:
    """Position ``index`` of the campaign for ``pieces``."""
    total = count(pieces, rules)
    if not 0 <= index < total:
        raise IndexError(f"position {index} is outside the {total} positions with at most {pieces} pieces")
    return next(positions(pieces, index, index + 1, rules=rules))


def _placements(pieces: int, skip: int, board: _Board) -> Iterator[tuple[int, int, int, int]]:
    """Placements (four bitboards) from number ``skip`` on, through every (white, black) count in turn."""
    table = _table(pieces, board)
    for white, black, placements in _classes(pieces, board):
        if skip >= placements:
            skip -= placements
            continue
        yield from _walk(table, board, 1, white, black, skip, (0, 0, 0, 0))
        skip = 0


def _walk(
    table: tuple[tuple[tuple[int, ...], ...], ...],
    board: _Board,
    first: int,
    white: int,
    black: int,
    skip: int,
    boards: tuple[int, int, int, int],
) -> Iterator[tuple[int, int, int, int]]:
    """The placements of ``white`` and ``black`` more pieces on squares ``first..N``, from number ``skip``."""
    if white == 0 and black == 0:
        yield boards
        return
    for square in range(first, board.squares + 1):
        if table[square][white][black] <= skip:  # nothing left from here on (or all of it skipped)
            return
        for label in board.options[square]:
            dw, db = _ADDS[label]
            if dw > white or db > black:
                continue
            ways = table[square + 1][white - dw][black - db]
            if ways <= skip:
                skip -= ways
                continue
            placed = list(boards)
            placed[label] |= board.bit[square]
            yield from _walk(table, board, square + 1, white - dw, black - db, skip, tuple(placed))  # type: ignore[arg-type]
            skip = 0
