"""Shrinking a failing position: pieces taken off and kings turned into men while the failure stays
(greedy, 1-minimal), each side keeping a piece. Gets only a predicate, like Hypothesis's shrinker."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from conformance.harness.misbehaviour import EngineTimeout
from oracle.position import Color, Kind, Position


@dataclasses.dataclass(frozen=True)
class Shrunk:
    """The result of :func:`shrink_position`."""

    position: Position
    tries: int
    """How many candidate positions were checked."""
    minimal: bool
    """No single piece can be removed, and no king turned into a man, keeping the failure."""


def without(position: Position, square: int) -> Position:
    """``position`` with the piece on ``square`` taken off (still valid: nothing else moves)."""
    mask = ~position.geometry.bit[square]
    return dataclasses.replace(
        position,
        white_men=position.white_men & mask,
        white_kings=position.white_kings & mask,
        black_men=position.black_men & mask,
        black_kings=position.black_kings & mask,
    )


def demoted(position: Position, square: int) -> Position | None:
    """``position`` with the king on ``square`` turned into a man, or None if a man may not stand there."""
    board = position.geometry
    bit = board.bit[square]
    for color in Color:
        if position.kings(color) & bit:
            if board.row_of(square) == board.far_row(color is Color.WHITE):
                return None
            if color is Color.WHITE:
                return dataclasses.replace(
                    position, white_kings=position.white_kings & ~bit, white_men=position.white_men | bit
                )
            return dataclasses.replace(
                position, black_kings=position.black_kings & ~bit, black_men=position.black_men | bit
            )
    return None


def shrink_position(
    position: Position,
    fails: Callable[[Position], bool],
    *,
    max_tries: int = 3000,
    stop: Callable[[], bool] | None = None,
) -> Shrunk:
    """A smaller position on which ``fails`` still holds: pieces removed, kings turned into men.

    Greedy and 1-minimal: passes over the pieces (in square order) take each off if the failure
    stays, then turn each king into a man if it stays, until a whole pass changes nothing --
    then no single piece is removable and no king demotable (``minimal``), unless ``max_tries``
    ran out first, or ``stop`` said so (a budget of the caller's, e.g. time-outs). A side's last
    piece is never taken off: each side keeps one. ``fails`` raising counts as "does not fail"
    (the candidate is not kept).
    """
    current = position
    tries = 0

    def spent() -> bool:
        return tries >= max_tries or (stop is not None and stop())

    def holds(candidate: Position) -> bool:
        nonlocal tries
        tries += 1
        try:
            return fails(candidate)
        except (Exception, EngineTimeout):
            return False

    while True:
        changed = False
        for side, square in [(c, s) for c in Color for s in current.squares(c)]:
            if spent():
                return Shrunk(current, tries, False)
            if len(current.squares(side)) == 1:
                continue  # each side keeps a piece: a position a game can reach before its end
            candidate = without(current, square)
            if holds(candidate):
                current, changed = candidate, True
        for square in [s for color in Color for s in current.squares(color, Kind.KING)]:
            if spent():
                return Shrunk(current, tries, False)
            demotion = demoted(current, square)
            if demotion is not None and holds(demotion):
                current, changed = demotion, True
        if not changed:
            return Shrunk(current, tries, True)
