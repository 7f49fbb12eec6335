"""Positions the draw-game search starts from, and the moves it tries, as raw moves of the oracle.

:mod:`conformance.verify.draw_realise` walks abstract events forward from a setup; this module
gives it setups -- random positions with a given material (:func:`random_start`, with every piece
near one square when captures are wanted), positions where the side to move is blocked
(:func:`blocked_position`), positions reached by taking quiet moves back (:func:`take_back`,
:func:`back_chain`), a position where a lone king can be left alone on the long diagonal
(:func:`before_flip`) -- and the moves of a position, remembered (:func:`legal_raw`).

The search tries many moves per ply, so moves are the oracle's raw moves (``(from, to, captured
bitboard, route)``, :data:`oracle.moves.RawMove`): compared and hashed as tuples, made
:class:`~oracle.moves.Move` objects only for the game found (:func:`to_move`).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterable, Sequence
from typing import Final

from conformance.core.draw_events import MoveKind, Side, Start
from conformance.core.draw_games import LONG_DIAGONAL
from oracle.board import BIT, RAYS, TEN, Direction, column_of, row_of, squares_of
from oracle.moves import Move, RawMove, apply_raw, raw_legal_moves
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules

__all__ = [
    "PlacementKey",
    "back_chain",
    "before_flip",
    "blocked_position",
    "legal_raw",
    "placement",
    "random_start",
    "take_back",
    "to_move",
]

PlacementKey = tuple[int, int, int, int]
"""The four bitboards of a position (its placement, for the repetitions of 6.1)."""


@functools.lru_cache(maxsize=16384)
def legal_raw(position: Position, rules: Rules = INTERNATIONAL) -> tuple[RawMove, ...]:
    """:func:`oracle.moves.raw_legal_moves`, in its order, remembered: the search asks again for
    the moves of a position it met before (every start twice, a game taken back, then walked
    forward along the moves taken back, the controls from the same setup, transpositions)."""
    return tuple(raw_legal_moves(position, rules))


def to_move(raw: RawMove) -> Move:
    """The :class:`~oracle.moves.Move` of a raw move on the 10x10 board."""
    from_square, to_square, captured, route = raw
    return Move(from_square, to_square, frozenset(squares_of(captured)), route)


def placement(position: Position) -> PlacementKey:
    return (position.white_men, position.white_kings, position.black_men, position.black_kings)


def random_start(
    start: Start, rng: random.Random, near_promotion: bool = False, cluster: int | None = None
) -> Position | None:
    """A random position with the start's material and side to move (None if none was drawn).
    ``cluster``: every piece within this many rows and columns of a random square (pieces next
    to each other, as the captures of kings moving one square need)."""
    material = start.material
    squares = list(range(1, 51))
    if cluster is not None:  # around a square where the side to move's men may stand, if they must
        white = start.turn is Side.WHITE
        band = range(6, 21) if white else range(31, 46)
        must = near_promotion and (material.white_men if white else material.black_men)
        centre = rng.choice(list(band) if must else squares)
        squares = [
            s
            for s in squares
            if abs(row_of(s) - row_of(centre)) <= cluster and abs(column_of(s) - column_of(centre)) <= cluster
        ]
    rng.shuffle(squares)
    chosen: dict[str, set[int]] = {"wk": set(), "wm": set(), "bk": set(), "bm": set()}

    def take(name: str, allowed: range) -> bool:
        for index, square in enumerate(squares):
            if square in allowed:
                chosen[name].add(squares.pop(index))
                return True
        return False

    white_men = range(6, 21) if near_promotion else range(6, 51)
    black_men = range(31, 46) if near_promotion else range(1, 46)
    plan = [
        ("wk", range(1, 51), material.white_kings),
        ("wm", white_men, material.white_men),
        ("bk", range(1, 51), material.black_kings),
        ("bm", black_men, material.black_men),
    ]
    for name, allowed, count in plan:
        for _ in range(count):
            if not take(name, allowed):
                return None
    turn = Color.WHITE if start.turn is Side.WHITE else Color.BLACK
    return _placed(turn, (chosen["wm"], chosen["wk"]), (chosen["bm"], chosen["bk"]))


def blocked_position(
    side_to_move: Color, material: tuple[int, int, int, int], rng: random.Random
) -> Position | None:
    """A random position in which ``side_to_move`` has pieces but none can move, or None.

    Its pieces go to the edge; the other side's pieces go next to them, each backed by a piece
    right behind (so that it cannot be jumped), as far as they go. ``material``: white kings,
    white men, black kings, black men."""
    wk, wm, bk, bm = material
    mine = (wk, wm) if side_to_move is Color.WHITE else (bk, bm)
    theirs = (bk, bm) if side_to_move is Color.WHITE else (wk, wm)
    placed: dict[int, tuple[Color, Kind]] = {}
    for kind, count in ((Kind.KING, mine[0]), (Kind.MAN, mine[1])):
        for _ in range(count):
            free = [s for s in _EDGE if s not in placed and _man_square_ok(side_to_move, kind, s)]
            if not free:
                return None
            placed[rng.choice(free)] = (side_to_move, kind)
    left = {Kind.KING: theirs[0], Kind.MAN: theirs[1]}
    other = side_to_move.opponent
    for square in [s for s, (c, _) in placed.items() if c is side_to_move]:
        directions = list(Direction)
        rng.shuffle(directions)
        for direction in directions:
            ray = RAYS[square][direction]
            for target in ray[:2]:
                if target in placed or not any(left.values()):
                    continue
                kinds = [k for k, n in left.items() if n and _man_square_ok(other, k, target)]
                if kinds:
                    kind = rng.choice(kinds)
                    placed[target] = (other, kind)
                    left[kind] -= 1
    for kind, count in left.items():
        for _ in range(count):
            free = [s for s in range(1, 51) if s not in placed and _man_square_ok(other, kind, s)]
            placed[rng.choice(free)] = (other, kind)

    def squares(color: Color, kind: Kind) -> list[int]:
        return [s for s, piece in placed.items() if piece == (color, kind)]

    white, black = Color.WHITE, Color.BLACK
    position = _placed(
        side_to_move,
        (squares(white, Kind.MAN), squares(white, Kind.KING)),
        (squares(black, Kind.MAN), squares(black, Kind.KING)),
    )
    return position if not legal_raw(position) else None


def _placed(
    turn: Color, white: tuple[Iterable[int], Iterable[int]], black: tuple[Iterable[int], Iterable[int]]
) -> Position:
    """:meth:`Position.from_squares` (each side's men, then kings) without its round trip through a
    FEN, for the setups drawn here: valid by construction (distinct squares, no man on its promotion
    row), and drawn by the thousand."""
    return Position(
        TEN.bitboard(white[0]), TEN.bitboard(white[1]), TEN.bitboard(black[0]), TEN.bitboard(black[1]), turn
    )


_EDGE: Final = tuple(s for s in range(1, 51) if len([r for r in RAYS[s] if r]) <= 2)
"""The squares on the edge of the board (two directions only): where a blocked piece stands."""


def _man_square_ok(color: Color, kind: Kind, square: int) -> bool:
    if kind is Kind.KING:
        return True
    return square > 5 if color is Color.WHITE else square < 46


def take_back(
    position: Position, rng: random.Random, kinds: Sequence[MoveKind], *, one_square: bool = False
) -> tuple[Position, Move] | None:
    """A position, and a legal move of the side that just moved of one of ``kinds`` (king or man
    move without capture), that leads to ``position``; None if the one drawn fails. ``one_square``:
    kings come back one square only (a game engines without flying kings can play)."""
    mover = position.turn.opponent
    occupied = position.occupied
    options: list[tuple[int, int]] = []
    for square in position.squares(mover, Kind.KING) if MoveKind.KING_MOVE in kinds else []:
        for ray in RAYS[square]:
            for back in ray[:1] if one_square else ray:
                if occupied & BIT[back]:
                    break
                options.append((square, back))
    if MoveKind.MAN_MOVE in kinds:
        backward = (
            (Direction.SOUTH_WEST, Direction.SOUTH_EAST)
            if mover is Color.WHITE
            else (Direction.NORTH_WEST, Direction.NORTH_EAST)
        )
        for square in position.squares(mover, Kind.MAN):
            for direction in backward:
                ray = RAYS[square][direction]
                if ray and not occupied & BIT[ray[0]] and _man_square_ok(mover, Kind.MAN, ray[0]):
                    options.append((square, ray[0]))
    if not options:
        return None
    to_square, from_square = rng.choice(options)
    before = _moved_back(position, to_square, from_square)
    for raw in legal_raw(before):
        if raw[0] == from_square and raw[1] == to_square and not raw[2]:
            if apply_raw(before, raw) != position:  # a man reaching the far row is crowned
                return None
            return before, Move(from_square, to_square, route=(from_square, to_square))
    return None


_FIELDS: Final = ("white_men", "white_kings", "black_men", "black_kings")


def _moved_back(position: Position, to_square: int, from_square: int) -> Position:
    """``position`` with the piece on ``to_square`` back on the empty ``from_square``, the side that
    moved it to move (the squares are valid for the piece: the callers check it)."""
    bit = BIT[to_square]
    field = next(name for name in _FIELDS if getattr(position, name) & bit)
    board = getattr(position, field) & ~bit | BIT[from_square]
    return dataclasses.replace(position, turn=position.turn.opponent, **{field: board})


def back_chain(
    position: Position,
    kinds: list[MoveKind],
    rng: random.Random,
    steps: bool,
    seen: set[PlacementKey],
    budget: list[int],
) -> tuple[Position, list[Move]] | None:
    """Moves of ``kinds`` (the last first) taken back from ``position``, each to a placement not
    ``seen`` before, backtracking a few times where a side gets stuck; None within the ``budget``
    (a one-element list, spent by every move taken back). ``steps``: kings come back one square."""
    if not kinds:
        return position, []
    for _ in range(4):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        step = take_back(position, rng, [kinds[-1]], one_square=steps)
        if step is None or placement(step[0]) in seen:
            continue
        seen.add(placement(step[0]))
        found = back_chain(step[0], kinds[:-1], rng, steps, seen, budget)
        if found is not None:
            return found[0], [*found[1], step[1]]
        seen.discard(placement(step[0]))
    return None


def before_flip(position: Position, rng: random.Random) -> Position | None:
    """``position`` made one where the side to move can leave a lone king alone on the long
    diagonal 46-5 (:func:`~conformance.core.draw_games.lone_king_on_long_diagonal`) in one move:
    if the lone king is the other side's, it goes onto the diagonal with one king of the side to
    move, and the other pieces off it (else the lone king can go there itself: as drawn)."""
    lone, mover = position.turn.opponent, position.turn
    if position.pieces(lone).bit_count() != 1 or not position.kings(lone) or not position.kings(mover):
        return position
    free_off = [s for s in range(1, 51) if s not in LONG_DIAGONAL and not position.occupied & BIT[s]]
    on = rng.sample(LONG_DIAGONAL, 2)
    placed = {(c, k): set(position.squares(c, k)) for c in Color for k in Kind}
    placed[lone, Kind.KING] = {on[0]}
    for kind in Kind:
        for square in sorted(placed[mover, kind]):
            if square in LONG_DIAGONAL:
                placed[mover, kind].remove(square)
                placed[mover, kind].add(free_off.pop(rng.randrange(len(free_off))))
    placed[mover, Kind.KING].remove(rng.choice(sorted(placed[mover, Kind.KING])))
    placed[mover, Kind.KING].add(on[1])
    white_men, black_men = placed[Color.WHITE, Kind.MAN], placed[Color.BLACK, Kind.MAN]
    if any(s <= 5 for s in white_men) or any(s >= 46 for s in black_men):
        return None
    return Position.from_squares(
        position.turn, white_men, placed[Color.WHITE, Kind.KING], black_men, placed[Color.BLACK, Kind.KING]
    )
