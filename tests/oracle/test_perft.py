"""Perft: every published number of docs/rules.md (section ``perft``).

The numbers were published in the "Perft" thread of the World Draughts Forum, by the authors of
several independent programs (docs/rules.md gives the provenance), counting leaf nodes with
moves identified by (from, to, captured set) and draws ignored. What runs in well under a
second each is on by default; the deeper counts are marked slow (``--run-slow``): from the
start the oracle walks roughly half a million to a million leaves a second, so depth 7 takes a
second or two, depth 9 a minute or two and depth 11 (1.7 billion leaves) about an hour.
"""

from __future__ import annotations

import pytest

from oracle.moves import legal_moves
from oracle.perft import divide, perft
from oracle.position import Position

START = "W:W31-50:B1-20"
KINGS = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
MIDGAME = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
BREAKTHROUGH = "W:W6,7,8,9,10:B41,42,43,44,45"

# docs/rules.md, section perft: as published.
PUBLISHED = {
    START: [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398],
    KINGS: [14, 55, 1168, 5432, 87195, 629010, 9041010],
    MIDGAME: [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050],
    BREAKTHROUGH: [9, 81, 795, 7578, 86351, 936311],
}

# Deepest depth run by default per position (each well under a second).
DEFAULT_DEPTH = {START: 6, KINGS: 5, MIDGAME: 10, BREAKTHROUGH: 5}

NAMES = {START: "start", KINGS: "kings", MIDGAME: "midgame", BREAKTHROUGH: "breakthrough"}


def _cases() -> list[object]:
    cases: list[object] = []
    for fen, counts in PUBLISHED.items():
        for depth, nodes in enumerate(counts, start=1):
            marks = [pytest.mark.slow] if depth > DEFAULT_DEPTH[fen] else []
            cases.append(pytest.param(fen, depth, nodes, marks=marks, id=f"{NAMES[fen]}-depth-{depth}"))
    return cases


@pytest.mark.parametrize(("fen", "depth", "nodes"), _cases())
def test_published_perft(fen: str, depth: int, nodes: int) -> None:
    assert perft(Position.from_fen(fen), depth) == nodes


def test_depth_zero_is_one_leaf() -> None:
    assert perft(Position.from_fen(START), 0) == 1
    assert perft(Position.from_fen("W:B1"), 0) == 1


def test_negative_depth_is_rejected() -> None:
    with pytest.raises(ValueError, match="depth"):
        perft(Position.from_fen(START), -1)
    with pytest.raises(ValueError, match="depth"):
        divide(Position.from_fen(START), 0)


def test_a_lost_position_has_no_leaves_below_it() -> None:
    assert perft(Position.from_fen("W:B1"), 1) == 0
    assert perft(Position.from_fen("W:B1"), 3) == 0


# -- counting every capture route separately --------------------------------------------------

# rules.md: the same as by identity up to depth 7, then 6483971 at depth 8 (vs 6483961).
BY_ROUTE = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483971]


@pytest.mark.parametrize(
    ("depth", "nodes"),
    [
        pytest.param(d, n, marks=[pytest.mark.slow] if d > 5 else [], id=f"start-by-route-depth-{d}")
        for d, n in enumerate(BY_ROUTE, start=1)
    ],
)
def test_published_perft_by_route(depth: int, nodes: int) -> None:
    assert perft(Position.from_fen(START), depth, by_route=True) == nodes


def test_by_route_counts_the_two_routes_of_a_loop() -> None:
    # pydraughts: the king loop has 5 moves and 6 routes (sources.md).
    position = Position.from_fen("W:WK38:B18,19,32,33")
    assert perft(position, 1) == 5
    assert perft(position, 1, by_route=True) == 6


# -- divide ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "depth"), [(START, 1), (START, 4), (KINGS, 3), (MIDGAME, 6), (BREAKTHROUGH, 3)]
)
def test_divide_sums_to_perft(fen: str, depth: int) -> None:
    position = Position.from_fen(fen)
    split = divide(position, depth)
    assert set(split) == set(legal_moves(position))
    assert sum(split.values()) == PUBLISHED[fen][depth - 1]


def test_divide_of_the_start_at_depth_2() -> None:
    # Whatever White plays first, Black has its nine opening steps: no contact yet.
    split = divide(Position.from_fen(START), 2)
    assert len(split) == 9
    assert set(split.values()) == {9}


def test_divide_by_route_sums_to_perft_by_route() -> None:
    position = Position.from_fen("W:WK38:B18,19,32,33")
    split = divide(position, 1, by_route=True)
    assert sum(split.values()) == 6
    assert sorted(split.values()) == [1, 1, 1, 1, 2]  # 38x38 has two routes
