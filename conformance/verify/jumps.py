"""The single-jump relation of one position: what the SMT encoding is built on (Art. 4.1, 4.3, 4.11).

This module is the verifier's own reading of the capture rules for *one* jump, written from
rules.md and the board geometry only (:mod:`oracle.board`); it never uses the oracle's move
generator. Sequences of jumps -- continuation, the ban on taking a piece twice, the maximum
capture -- are left to the solver (:mod:`conformance.verify.smt`).

Why a table of single jumps is exact. During a capture nothing on the board changes except
that the capturing piece has left its start square: the captured pieces stay where they are
until the capture is over (4.11), so they keep blocking the path, and the start square counts
as empty (rules.md). The board a capture runs on is therefore fixed once its *origin* is fixed:
every piece but the capturing one. On that board

* a man (4.1) at square ``a`` jumps an adjacent opposing piece ``b``, in any of the four
  directions, onto the square ``c`` right behind it, which must be empty;
* a king (4.3) at square ``a`` slides over any number of empty squares, jumps the first piece
  it meets if that piece is an opponent's, and lands on any empty square ``c`` beyond it
  before the next piece or the edge;

and a complete capture is a walk ``origin = a0 -> a1 -> ... -> ak`` over such jumps whose
jumped pieces are pairwise distinct (4.8). A captured piece stays on the board, so a king can
neither land on it nor slide over it later: the fixed board already says so.

A man stays a man for the whole capture, even when it passes the far row (4.15), so a man's
walk uses men's jumps only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from oracle.board import RAYS, Direction
from oracle.position import Color, Kind, Position


@dataclasses.dataclass(frozen=True, slots=True)
class Jump:
    """One jump of a capture by the piece that started on ``origin``: ``start`` over ``over`` to ``land``."""

    origin: int
    start: int
    over: int
    land: int


@dataclasses.dataclass(frozen=True, slots=True)
class CaptureGraph:
    """Every single jump the piece on ``origin`` can make at some point of a capture.

    Only jumps from squares the piece can reach by jumping are listed (plain reachability on
    the jump graph, ignoring 4.8): an over-approximation of the real captures that only trims
    the encoding.
    """

    origin: int
    kind: Kind
    jumps: tuple[Jump, ...]


def jumps_from(
    square: int, kind: Kind, occupied: frozenset[int], opponents: frozenset[int]
) -> Iterable[tuple[int, int]]:
    """The (captured square, landing square) pairs of one jump from ``square`` (Art. 4.1, 4.3).

    ``occupied`` is every square holding a piece during the capture (the capturing piece's
    start square excluded, captured pieces included); ``opponents`` the opposing pieces.
    """
    for direction in Direction:
        ray = RAYS[square][direction]
        distance = 0
        if kind is Kind.KING:  # 4.3: slide over empty squares up to the first piece
            while distance < len(ray) and ray[distance] not in occupied:
                distance += 1
        if distance >= len(ray) or ray[distance] not in opponents:
            continue  # no piece, or the capturer's own piece: nothing to jump this way
        over = ray[distance]
        for land in ray[distance + 1 :]:
            if land in occupied:
                break  # 4.3: two pieces in line, or a piece right behind: no (further) landing
            yield over, land
            if kind is Kind.MAN:
                break  # 4.1: a man lands right behind the piece it jumps


def capture_graph(position: Position, origin: int) -> CaptureGraph:
    """The jumps reachable by the side to move's piece on ``origin`` (none if it cannot capture)."""
    piece = position.piece_at(origin)
    if piece is None or piece.color is not position.turn:
        raise ValueError(
            f"square {origin} holds no piece of the side to move ({position.turn}) in {position.fen()}"
        )
    occupied = frozenset(s for s in _squares(position) if s != origin)
    opponents = frozenset(position.squares(position.turn.opponent))
    seen: set[int] = set()
    frontier = [origin]
    jumps: list[Jump] = []
    while frontier:
        square = frontier.pop()
        if square in seen:
            continue
        seen.add(square)
        for over, land in jumps_from(square, piece.kind, occupied, opponents):
            jumps.append(Jump(origin, square, over, land))
            frontier.append(land)
    return CaptureGraph(origin, piece.kind, tuple(jumps))


def capture_graphs(position: Position) -> tuple[CaptureGraph, ...]:
    """The capture graphs of every piece of the side to move that has at least one jump."""
    graphs = (capture_graph(position, origin) for origin in position.squares(position.turn))
    return tuple(graph for graph in graphs if graph.jumps)


def can_jump(position: Position, origin: int, square: int, captured: frozenset[int]) -> bool:
    """Whether the piece that started on ``origin``, now on ``square`` with ``captured`` taken, can go on.

    A capture is complete when this is false (4.5, 4.6): no jump over a piece not yet taken.
    """
    piece = position.piece_at(origin)
    if piece is None or piece.color is not position.turn:
        raise ValueError(f"square {origin} holds no piece of the side to move in {position.fen()}")
    occupied = frozenset(s for s in _squares(position) if s != origin)
    opponents = frozenset(position.squares(position.turn.opponent))
    return any(over not in captured for over, _ in jumps_from(square, piece.kind, occupied, opponents))


def _squares(position: Position) -> list[int]:
    return position.squares(Color.WHITE) + position.squares(Color.BLACK)
