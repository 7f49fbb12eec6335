"""The single-jump relation of one position: what the SMT encoding is built on (Art. 4.1, 4.3, 4.11).

This module is the verifier's own reading of the capture rules for *one* jump, written from
rules.md, the switches of a rule set (:class:`oracle.rules.Rules`, plain data) and the board
geometry only (:mod:`oracle.board`); it never uses the oracle's move generator. Sequences of
jumps -- continuation, the ban on taking a piece twice, the choice of capture -- are left to the
solver (:mod:`conformance.verify.smt`).

Why a table of single jumps is exact. During a capture nothing on the board changes except
that the capturing piece has left its start square: the captured pieces stay where they are
until the capture is over (4.11), so they keep blocking the path, and the start square counts
as empty (rules.md). The board a capture runs on is therefore fixed once its *origin* is fixed:
every piece but the capturing one. On that board

* a man (4.1) at square ``a`` jumps an adjacent opposing piece ``b`` onto the square ``c``
  right behind it, which must be empty: in any of the four directions, or only forward where
  the rule set's men do not capture backward (``menCaptureBackward: false``, American);
* a flying king (4.3) at square ``a`` slides over any number of empty squares, jumps the first
  piece it meets if that piece is an opponent's, and lands on any empty square ``c`` beyond it
  before the next piece or the edge; a short king (``flyingKings: false``) jumps like a man in
  all four directions;

and a complete capture is a walk ``origin = a0 -> a1 -> ... -> ak`` over such jumps whose
jumped pieces are pairwise distinct (4.8). A captured piece stays on the board, so a king can
neither land on it nor slide over it later: the fixed board already says so.

What the piece *is* during the walk is part of each jump (``kind`` before it, ``then`` after
it), so a walk is over *nodes* (square, kind). A man landing on the far row mid-capture
(``crownMidCapture``) stays a man and goes on as one (``passes``, FMJD 4.15); is crowned and the
capture ends there (``stops``: ``then`` is None, no jump leaves; American, Pool is ``passes``);
or is crowned and goes on capturing as a king (``continues``, Russian).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable

from oracle.board import ALL_DIRECTIONS, NORTHWARD, SOUTHWARD
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, MidCaptureCrowning, Rules

Node = tuple[int, Kind]
"""Where a capture is and what the capturing piece is there: (square, man or king)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Jump:
    """One jump of a capture by the piece that started on ``origin``: ``start`` over ``over`` to ``land``.

    ``kind`` is what the piece jumps as; ``then`` what it is on ``land`` -- a king after a man's
    crowning that ``continues``, None when the capture ends there (crowning that ``stops``).
    """

    origin: int
    start: int
    over: int
    land: int
    kind: Kind = Kind.MAN
    then: Kind | None = Kind.MAN

    @property
    def start_node(self) -> Node:
        return (self.start, self.kind)

    @property
    def land_node(self) -> Node | None:
        """The node the capture goes on from, or None when it must end on ``land``."""
        return None if self.then is None else (self.land, self.then)


@dataclasses.dataclass(frozen=True, slots=True)
class CaptureGraph:
    """Every single jump the piece on ``origin`` can make at some point of a capture.

    Only jumps from nodes the piece can reach by jumping are listed (plain reachability on
    the jump graph, ignoring 4.8): an over-approximation of the real captures that only trims
    the encoding.
    """

    origin: int
    kind: Kind
    jumps: tuple[Jump, ...]


def jumps_from(
    square: int,
    kind: Kind,
    occupied: frozenset[int],
    opponents: frozenset[int],
    *,
    rules: Rules = INTERNATIONAL,
    color: Color = Color.WHITE,
) -> Iterable[tuple[int, int]]:
    """The (captured square, landing square) pairs of one jump from ``square`` (Art. 4.1, 4.3).

    ``occupied`` is every square holding a piece during the capture (the capturing piece's
    start square excluded, captured pieces included); ``opponents`` the opposing pieces;
    ``color`` the capturing side (which way is forward for its men).
    """
    if kind is Kind.KING or rules.men_capture_backward:
        directions = ALL_DIRECTIONS
    else:  # menCaptureBackward false: a man jumps toward the far row only
        directions = NORTHWARD if color is Color.WHITE else SOUTHWARD
    flying = kind is Kind.KING and rules.flying_kings
    rays = rules.geometry.rays[square]
    for direction in directions:
        ray = rays[direction]
        distance = 0
        if flying:  # 4.3: slide over empty squares up to the first piece
            while distance < len(ray) and ray[distance] not in occupied:
                distance += 1
        if distance >= len(ray) or ray[distance] not in opponents:
            continue  # no piece, or the capturer's own piece: nothing to jump this way
        over = ray[distance]
        for land in ray[distance + 1 :]:
            if land in occupied:
                break  # 4.3: two pieces in line, or a piece right behind: no (further) landing
            yield over, land
            if not flying:
                break  # 4.1: a man (or a short king) lands right behind the piece it jumps


def after_landing(kind: Kind, land: int, color: Color, rules: Rules) -> Kind | None:
    """What a piece of ``kind`` is after landing on ``land`` mid-capture; None: the capture ends."""
    board = rules.geometry
    if kind is Kind.KING or board.row_of(land) != board.far_row(color is Color.WHITE):
        return kind
    crowning = rules.mid_capture_crowning
    if crowning is MidCaptureCrowning.PASSES:  # FMJD 4.15: it goes on as a man
        return Kind.MAN
    if crowning is MidCaptureCrowning.STOPS:  # crowned, and the move ends here
        return None
    return Kind.KING  # continues: crowned at once, it goes on capturing as a king


def capture_graph(position: Position, origin: int, rules: Rules = INTERNATIONAL) -> CaptureGraph:
    """The jumps reachable by the side to move's piece on ``origin`` (none if it cannot capture)."""
    _check_board(position, rules)
    piece = position.piece_at(origin)
    if piece is None or piece.color is not position.turn:
        raise ValueError(
            f"square {origin} holds no piece of the side to move ({position.turn}) in {position.fen()}"
        )
    occupied = frozenset(s for s in _squares(position) if s != origin)
    opponents = frozenset(position.squares(position.turn.opponent))
    seen: set[Node] = set()
    frontier: list[Node] = [(origin, piece.kind)]
    jumps: list[Jump] = []
    while frontier:
        node = frontier.pop()
        if node in seen:
            continue
        seen.add(node)
        square, kind = node
        for over, land in jumps_from(square, kind, occupied, opponents, rules=rules, color=position.turn):
            jump = Jump(origin, square, over, land, kind, after_landing(kind, land, position.turn, rules))
            jumps.append(jump)
            if jump.land_node is not None:
                frontier.append(jump.land_node)
    return CaptureGraph(origin, piece.kind, tuple(jumps))


@functools.lru_cache(maxsize=64)
def capture_graphs(position: Position, rules: Rules = INTERNATIONAL) -> tuple[CaptureGraph, ...]:
    """The capture graphs of every piece of the side to move that has at least one jump.

    Remembered for the last positions asked, per (position, rule set): ``verify`` asks it of one
    position several times (the z3 formula, the articles a result is filed under). The graphs are
    immutable values, so sharing them is safe.
    """
    graphs = (capture_graph(position, origin, rules) for origin in position.squares(position.turn))
    return tuple(graph for graph in graphs if graph.jumps)


def can_jump(
    position: Position,
    origin: int,
    square: int,
    captured: frozenset[int],
    rules: Rules = INTERNATIONAL,
    kind: Kind | None = None,
) -> bool:
    """Whether the piece that started on ``origin``, now on ``square`` with ``captured`` taken, can go on.

    ``kind`` is what the piece is there (default: what it was on ``origin``; a man crowned by a
    capture that ``continues`` is a king). A capture is complete when this is false (4.5, 4.6):
    no jump over a piece not yet taken.
    """
    _check_board(position, rules)
    piece = position.piece_at(origin)
    if piece is None or piece.color is not position.turn:
        raise ValueError(f"square {origin} holds no piece of the side to move in {position.fen()}")
    occupied = frozenset(s for s in _squares(position) if s != origin)
    opponents = frozenset(position.squares(position.turn.opponent))
    jumps = jumps_from(square, kind or piece.kind, occupied, opponents, rules=rules, color=position.turn)
    return any(over not in captured for over, _ in jumps)


def _check_board(position: Position, rules: Rules) -> None:
    if position.board_size != rules.board_size:
        raise ValueError(
            f"a {position.board_size}x{position.board_size} position under the rules of {rules.name} "
            f"({rules.board_size}x{rules.board_size}): {position.fen()}"
        )


def _squares(position: Position) -> list[int]:
    return position.squares(Color.WHITE) + position.squares(Color.BLACK)
