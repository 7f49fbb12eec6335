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
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Final

from oracle.board import BIT, SQUARE_COUNT, row_of
from oracle.position import MAX_PIECES_PER_SIDE, Color, Position

MAX_PIECES: Final = 2 * MAX_PIECES_PER_SIDE

# The four pieces in their order: (white pieces added, black pieces added), and which bitboard.
_WHITE_MAN, _WHITE_KING, _BLACK_MAN, _BLACK_KING = range(4)
_LABELS: Final = (_WHITE_MAN, _WHITE_KING, _BLACK_MAN, _BLACK_KING)
_ADDS: Final = ((1, 0), (1, 0), (0, 1), (0, 1))


def _allowed(square: int, label: int) -> bool:
    """A man never stands on its own promotion row (Art. 3.5); a king stands anywhere."""
    if label == _WHITE_MAN:
        return row_of(square) != Color.WHITE.promotion_row
    if label == _BLACK_MAN:
        return row_of(square) != Color.BLACK.promotion_row
    return True


_WALK_STEP: Final = 32
"""Up to this step, walking the placements in between is cheaper than finding each by counting."""

_OPTIONS: Final = tuple(
    tuple(label for label in _LABELS if square and _allowed(square, label))
    for square in range(SQUARE_COUNT + 1)
)
"""The pieces that may stand on each square (index 0 unused)."""


def _check(pieces: int) -> None:
    if not isinstance(pieces, int) or not 2 <= pieces <= MAX_PIECES:
        raise ValueError(f"pieces must be a whole number from 2 to {MAX_PIECES}, not {pieces!r}")


@functools.cache
def _table(pieces: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[s][w][b]``: the ways to place exactly ``w`` white and ``b`` black pieces on squares ``s..50``."""
    side = min(pieces, MAX_PIECES_PER_SIDE)
    empty = [[0] * (side + 1) for _ in range(side + 1)]
    empty[0][0] = 1
    rows: list[list[list[int]]] = [empty]  # squares 51.. : only the empty placement
    for square in range(SQUARE_COUNT, 0, -1):
        after = rows[-1]
        here = [row[:] for row in after]
        for label in _OPTIONS[square]:
            dw, db = _ADDS[label]
            for w in range(dw, side + 1):
                for b in range(db, side + 1):
                    here[w][b] += after[w - dw][b - db]
        rows.append(here)
    rows.reverse()  # rows[0] is square 1; rows[50] the empty tail
    return tuple(((),) + tuple(tuple(tuple(r) for r in row) for row in rows))


def _classes(pieces: int) -> tuple[tuple[int, int, int], ...]:
    """The (white, black) piece counts in campaign order, each with its number of placements."""
    table = _table(pieces)
    return tuple(
        (white, total - white, table[1][white][total - white])
        for total in range(2, pieces + 1)
        for white in range(max(1, total - MAX_PIECES_PER_SIDE), min(total - 1, MAX_PIECES_PER_SIDE) + 1)
    )


def count(pieces: int) -> int:
    """How many positions the campaign for ``pieces`` checks (both sides to move): exact."""
    _check(pieces)
    return 2 * sum(placements for _, _, placements in _classes(pieces))


def positions(pieces: int, start: int = 0, stop: int | None = None, step: int = 1) -> Iterator[Position]:
    """Positions ``start, start + step, ...`` (below ``stop``) of the campaign for ``pieces``.

    Jumps to ``start`` by counting (no position before it is built), then walks in order.
    """
    _check(pieces)
    total = count(pieces)
    stop = total if stop is None else min(stop, total)
    if start < 0 or step < 1:
        raise ValueError(f"start must be 0 or more and step 1 or more, not {start!r} and {step!r}")
    if start >= stop:
        return
    if step > _WALK_STEP:  # sparse (a shard of many): find each position by counting
        for index in range(start, stop, step):
            white_men, white_kings, black_men, black_kings = next(_placements(pieces, index // 2))
            turn = Color.WHITE if index % 2 == 0 else Color.BLACK
            yield Position(white_men, white_kings, black_men, black_kings, turn)
        return
    index = start - start % 2  # the first index of the placement holding ``start``
    for white_men, white_kings, black_men, black_kings in _placements(pieces, start // 2):
        for turn in (Color.WHITE, Color.BLACK):
            if index >= stop:
                return
            if index >= start and (index - start) % step == 0:
                yield Position(white_men, white_kings, black_men, black_kings, turn)
            index += 1


def position(pieces: int, index: int) -> Position:
    """Position ``index`` of the campaign for ``pieces``."""
    if not 0 <= index < count(pieces):
        raise IndexError(
            f"position {index} is outside the {count(pieces)} positions with at most {pieces} pieces"
        )
    return next(positions(pieces, index, index + 1))


def _placements(pieces: int, skip: int) -> Iterator[tuple[int, int, int, int]]:
    """Placements (four bitboards) from number ``skip`` on, through every (white, black) count in turn."""
    table = _table(pieces)
    for white, black, placements in _classes(pieces):
        if skip >= placements:
            skip -= placements
            continue
        yield from _walk(table, 1, white, black, skip, (0, 0, 0, 0))
        skip = 0


def _walk(
    table: tuple[tuple[tuple[int, ...], ...], ...],
    first: int,
    white: int,
    black: int,
    skip: int,
    boards: tuple[int, int, int, int],
) -> Iterator[tuple[int, int, int, int]]:
    """The placements of ``white`` and ``black`` more pieces on squares ``first..50``, from number ``skip``."""
    if white == 0 and black == 0:
        yield boards
        return
    for square in range(first, SQUARE_COUNT + 1):
        if table[square][white][black] <= skip:  # nothing left from here on (or all of it skipped)
            return
        for label in _OPTIONS[square]:
            dw, db = _ADDS[label]
            if dw > white or db > black:
                continue
            ways = table[square + 1][white - dw][black - db]
            if ways <= skip:
                skip -= ways
                continue
            placed = list(boards)
            placed[label] |= BIT[square]
            yield from _walk(table, square + 1, white - dw, black - db, skip, tuple(placed))  # type: ignore[arg-type]
            skip = 0
