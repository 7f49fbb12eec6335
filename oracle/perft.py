"""Perft: count the leaf nodes of the legal-move tree to a depth (a move-generator check).

The published convention (rules.md) counts moves by identity, (from, to, captured set);
``by_route=True`` counts every capture route (order of taking the pieces) as a move of its
own instead -- the two conventions part at depth 8 from the international start. Draws are ignored:
every published table assumes so. Any rule set: ``perft(Position.initial(rules), depth, rules)``
counts from the game's own start (rulesets/perft.yaml lists the published counts).

The walk is depth-first with an explicit stack, not recursion, so the depth is not limited by
Python's recursion limit: a position whose game ends within a few plies has a cheap perft at depth
2,000 (namely 0). The walk keeps about 3 KB for each ply of the line it follows, so depths beyond
:data:`MAX_DEPTH` are refused: a tree with lines that long never gets counted anyway (kings can
move back and forth forever, and perft ignores the draw rules), and a tree whose lines all end
sooner has 0 leaves there. :mod:`oracle.parallel` splits the same count over several processes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from oracle.moves import (
    Move,
    apply_raw,
    capture_routes,
    check_board,
    count_legal_moves,
    legal_moves,
    play,
    raw_legal_moves,
)
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

MAX_DEPTH: Final = 10_000
"""The deepest perft counted (about 30 MB for the walk's stack)."""


def check_depth(depth: int, least: int = 0, what: str = "perft") -> None:
    """Raise ValueError unless ``least <= depth <= MAX_DEPTH``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not least <= depth <= MAX_DEPTH:
        raise ValueError(f"{what} depth must be {least} to {MAX_DEPTH:,}, not {depth!r}")


def perft(position: Position, depth: int, rules: Rules = INTERNATIONAL, *, by_route: bool = False) -> int:
    """The number of leaf nodes ``depth`` plies below ``position``."""
    check_depth(depth)
    check_board(position, rules)
    if depth == 0:
        return 1
    if by_route:
        return _perft_by_route(position, depth, rules)
    return _perft(position, depth, rules)


def _children(position: Position, rules: Rules) -> Iterator[Position]:
    return (apply_raw(position, move, rules) for move in raw_legal_moves(position, rules))


def _perft(position: Position, depth: int, rules: Rules) -> int:
    if depth == 1:
        return count_legal_moves(position, rules)
    total = 0
    # stack[k]: the children not yet visited of the node k plies below ``position`` on the
    # current line; a child drawn from stack[-1] stands len(stack) plies below it.
    stack = [_children(position, rules)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif len(stack) == depth - 1:  # the last ply: count the moves, do not play them
            total += count_legal_moves(child, rules)
        else:
            stack.append(_children(child, rules))
    return total


def weighted_moves(
    position: Position, rules: Rules = INTERNATIONAL, *, by_route: bool = False
) -> list[tuple[Move, Position, int]]:
    """Every legal move with the position after it and how many moves it counts for.

    The count is 1, or with ``by_route`` the number of routes of a capture.
    """
    routes = {move: len(r) for move, r in capture_routes(position, rules).items()} if by_route else {}
    return [(move, play(position, move, rules), routes.get(move, 1)) for move in legal_moves(position, rules)]


def _count_routes(position: Position, rules: Rules) -> int:
    """The legal moves, a capture counting once per route (by_route's last ply)."""
    routes = capture_routes(position, rules)
    return sum(map(len, routes.values())) if routes else count_legal_moves(position, rules)


def _perft_by_route(position: Position, depth: int, rules: Rules) -> int:
    if depth == 1:
        return _count_routes(position, rules)
    total = 0
    # As in _perft, plus weights[k]: the product of the route counts down to the node of stack[k].
    stack = [iter(weighted_moves(position, rules, by_route=True))]
    weights = [1]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            weights.pop()
            continue
        _, child, routes = item
        weight = weights[-1] * routes
        if len(stack) == depth - 1:
            total += weight * _count_routes(child, rules)
        else:
            stack.append(iter(weighted_moves(child, rules, by_route=True)))
            weights.append(weight)
    return total


def divide(
    position: Position, depth: int, rules: Rules = INTERNATIONAL, *, by_route: bool = False
) -> dict[Move, int]:
    """Perft split by first move, ``{move: leaves below it}``: how to localise a mismatch."""
    check_depth(depth, 1, "divide")
    return {
        move: routes * perft(child, depth - 1, rules, by_route=by_route)
        for move, child, routes in weighted_moves(position, rules, by_route=by_route)
    }
