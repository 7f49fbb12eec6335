"""Perft: count the leaf nodes of the legal-move tree to a depth (a move-generator check).

The published convention (rules.md) counts moves by identity, (from, to, captured set);
``by_route=True`` counts every capture route (order of taking the pieces) as a move of its
own instead -- the two conventions part at depth 8 from the start. Draws are ignored: every
published table assumes so.
"""

from __future__ import annotations

from oracle.moves import (
    Move,
    apply_raw,
    capture_routes,
    count_legal_moves,
    legal_moves,
    play,
    raw_legal_moves,
)
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules


def perft(position: Position, depth: int, rules: Rules = INTERNATIONAL, *, by_route: bool = False) -> int:
    """The number of leaf nodes ``depth`` plies below ``position``."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if by_route:
        return sum(divide(position, depth, rules, by_route=True).values()) if depth else 1
    return _perft(position, depth, rules)


def _perft(position: Position, depth: int, rules: Rules) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return count_legal_moves(position, rules)
    return sum(
        _perft(apply_raw(position, move, rules), depth - 1, rules)
        for move in raw_legal_moves(position, rules)
    )


def divide(
    position: Position, depth: int, rules: Rules = INTERNATIONAL, *, by_route: bool = False
) -> dict[Move, int]:
    """Perft split by first move, ``{move: leaves below it}``: how to localise a mismatch."""
    if depth < 1:
        raise ValueError(f"divide depth must be 1 or more, not {depth}")
    route_counts = (
        {move: len(routes) for move, routes in capture_routes(position, rules).items()} if by_route else {}
    )
    return {
        move: route_counts.get(move, 1)
        * perft(play(position, move, rules), depth - 1, rules, by_route=by_route)
        for move in legal_moves(position, rules)
    }
