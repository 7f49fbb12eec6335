"""Capture paths square by square, with what each one needs of the rules (Art. 4).

The filing's own search. The oracle's generator (:mod:`oracle.moves`) says which captures are
legal; it follows one route per way of taking the pieces. To say *which rule* an engine must get
right to find a capture, or which rule it breaks by listing one the rules forbid, the filing
needs every physical *path*: each jump with the empty squares the piece slides over before it
and between the jumped piece and the square it lands on. Each path carries *traits*, the
features of the rules it uses:

========================  ==========================================================
``slide``                 a king slides over empty squares before a jump (4.3)
``beyond``                a king lands past the square right behind the piece (4.3)
``multi``                 more than one jump (4.5 for a man, 4.6 for a king)
``backward``              a man jumps toward its own side (4.1)
``far-row``               a man reaches the far row and goes on capturing (4.15)
``crowning``              a man's capture ends on the far row (3.5)
``recross``               an empty square is crossed or landed on a second time (4.8)
``start``                 the piece passes over its own start square (reading
                          ``start-square-empty``)
``restart``               the piece lands on its own start square and goes on (the same)
``loop``                  the capture ends on its own start square (the same)
========================  ==========================================================

A *relaxation* drops one capture rule, to tell which rule an impossible capture breaks: a piece
may be jumped a second time (4.8), captured pieces leave the board as they are jumped (4.11), a
man reaching the far row is crowned at once and goes on as a king (4.15). A capture an engine
lists that no path makes under the rules, but one does with a rule relaxed, breaks that rule.

The search has a budget of nodes (:data:`NODE_BUDGET`); past it, :class:`PathBudgetExceeded`
is raised and the caller files without the paths' evidence.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Iterator
from typing import Final

from conformance.core.errors import IncompleteError
from oracle.board import RAYS, SQUARES, Direction, row_of
from oracle.position import Color, Kind, Piece, Position

NODE_BUDGET: Final = 200_000
"""Jumps tried per (position, relaxation) before the search gives up."""


class Relaxation(enum.Enum):
    """One capture rule dropped (``value``: the rule)."""

    NONE = ""
    JUMP_TWICE = "4.8"
    """A piece already taken may be jumped once more (Art. 4.8 broken)."""
    REMOVED_AT_ONCE = "4.11"
    """A captured piece leaves the board as it is jumped (Art. 4.11 broken)."""
    CROWNED_MID_CAPTURE = "4.15"
    """A man reaching the far row mid-capture goes on as a king (Art. 4.15 broken)."""


RELAXATIONS: Final = (Relaxation.JUMP_TWICE, Relaxation.REMOVED_AT_ONCE, Relaxation.CROWNED_MID_CAPTURE)


class PathBudgetExceeded(IncompleteError):
    """The position has too many capture paths to enumerate within :data:`NODE_BUDGET`."""


Key = tuple[int, int, frozenset[int]]
"""A capture as the rules identify it: (from, to, captured squares)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Path:
    """One complete capture, square by square: its key, its landing squares, its traits."""

    key: Key
    route: tuple[int, ...]
    taken: tuple[int, ...]
    """The pieces taken, in the order they are jumped."""
    traits: frozenset[str]
    jumps: tuple[frozenset[str], ...] = ()
    """The traits of each jump, in order (``multi`` and ``crowning`` are the whole path's)."""

    def prefixes(self) -> Iterator[tuple[Key, frozenset[str]]]:
        """The captures stopped part-way along this path (after each jump but the last), each
        with the traits of the jumps that would have followed."""
        for done in range(1, len(self.taken)):
            rest = frozenset().union(*self.jumps[done:])
            yield (self.route[0], self.route[done], frozenset(self.taken[:done])), rest


@dataclasses.dataclass
class _Walk:
    """The state of one capture being searched (see :meth:`_Search.extend`)."""

    square: int
    king: bool
    taken: tuple[int, ...]
    crossed: frozenset[int]
    route: tuple[int, ...]
    traits: frozenset[str]
    jumps: tuple[frozenset[str], ...] = ()


class _Search:
    """Every complete capture path of the side to move, under one relaxation."""

    def __init__(self, position: Position, relaxation: Relaxation) -> None:
        self.turn = position.turn
        self.relaxation = relaxation
        self.enemies = frozenset(position.squares(position.turn.opponent))
        self.pieces = frozenset(position.squares(Color.WHITE)) | frozenset(position.squares(Color.BLACK))
        self.far_row = frozenset(s for s in SQUARES if row_of(s) == position.turn.promotion_row)
        self.nodes = 0
        self.start = 0
        self.occupied: frozenset[int] = frozenset()

    def paths(self, position: Position) -> Iterator[Path]:
        for start in position.squares(self.turn):
            self.start = start
            self.occupied = self.pieces - {start}
            king = position.piece_at(start) == Piece(self.turn, Kind.KING)
            walk = _Walk(start, king, (), frozenset(), (start,), frozenset(), ())
            yield from self.extend(walk, king_at_start=king)

    def blocked(self, square: int, taken: tuple[int, ...]) -> bool:
        if self.relaxation is Relaxation.REMOVED_AT_ONCE and square in taken:
            return False
        return square in self.occupied

    def may_jump(self, over: int, taken: tuple[int, ...]) -> bool:
        if over not in self.enemies:
            return False
        if over not in taken:
            return True
        return self.relaxation is Relaxation.JUMP_TWICE and len(set(taken)) == len(taken)

    def extend(self, walk: _Walk, *, king_at_start: bool) -> Iterator[Path]:
        jumped = False
        for direction in Direction:
            for jump in self.jumps(walk, direction):
                jumped = True
                yield from self.extend(jump, king_at_start=king_at_start)
        if not jumped and walk.taken:
            traits = set(walk.traits)
            if len(walk.taken) > 1:
                traits.add("multi")
            jumps = walk.jumps
            if walk.square == self.start:
                traits.add("loop")  # ends on its start square
                jumps = (*jumps[:-1], jumps[-1] | {"loop"})
            if not king_at_start and walk.square in self.far_row:
                traits.add("crowning")
            key = (self.start, walk.square, frozenset(walk.taken))
            yield Path(key, walk.route, walk.taken, frozenset(traits), jumps)

    def jumps(self, walk: _Walk, direction: Direction) -> Iterator[_Walk]:
        """The walks one jump longer toward ``direction``."""
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            raise PathBudgetExceeded(f"more than {NODE_BUDGET} capture steps")
        ray = RAYS[walk.square][direction]
        index = 0
        if walk.king:
            while index < len(ray) and not self.blocked(ray[index], walk.taken):
                index += 1
        if index >= len(ray) - 1 or not self.may_jump(ray[index], walk.taken):
            return
        over = ray[index]
        slid = ray[:index]
        traits = set()
        if walk.square == self.start and walk.taken:
            traits.add("restart")  # landed on its start square, it goes on from there
        if slid:
            traits.add("slide")
        if not walk.king and _backward(self.turn, direction):
            traits.add("backward")
        if walk.taken and walk.square in self.far_row and not walk.king:
            traits.add("far-row")
        for landing_index in range(index + 1, len(ray)):
            landing = ray[landing_index]
            if self.blocked(landing, walk.taken):
                break
            between = ray[index + 1 : landing_index + 1]
            crossed = (*slid, *between)
            here = set(traits)
            if landing_index > index + 1:
                here.add("beyond")
            if self.start in crossed[:-1]:
                here.add("start")  # passes over its start square
            if (walk.crossed - {self.start}) & set(crossed):
                here.add("recross")
            king = walk.king
            if not king and landing in self.far_row and self.relaxation is Relaxation.CROWNED_MID_CAPTURE:
                king = True
            yield _Walk(
                landing,
                king,
                (*walk.taken, over),
                walk.crossed | set(crossed),
                (*walk.route, landing),
                walk.traits | here,
                (*walk.jumps, frozenset(here)),
            )
            if not walk.king:
                break  # a man lands right behind the piece it jumps


def _backward(turn: Color, direction: Direction) -> bool:
    north = direction in (Direction.NORTH_WEST, Direction.NORTH_EAST)
    return north if turn is Color.BLACK else not north


@functools.lru_cache(maxsize=256)
def capture_paths(position: Position, relaxation: Relaxation = Relaxation.NONE) -> tuple[Path, ...]:
    """Every complete capture path of the side to move (of any length), under ``relaxation``.

    Raises :class:`PathBudgetExceeded` for positions with too many paths to enumerate.
    """
    search = _Search(position, relaxation)
    return tuple(search.paths(position))


def paths_by_key(position: Position, relaxation: Relaxation = Relaxation.NONE) -> dict[Key, list[Path]]:
    """:func:`capture_paths` grouped by (from, to, captured)."""
    grouped: dict[Key, list[Path]] = {}
    for path in capture_paths(position, relaxation):
        grouped.setdefault(path.key, []).append(path)
    return grouped


def needed_traits(paths: list[Path]) -> frozenset[str]:
    """The traits every one of ``paths`` has: what a capture needs whichever way it is made."""
    if not paths:
        return frozenset()
    return frozenset.intersection(*(path.traits for path in paths))
