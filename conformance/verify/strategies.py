"""Generated positions: Hypothesis strategies, and the same generators seeded for benchmarks.

Every generator is written once against a tiny :class:`Chooser` interface and runs two ways:

* as a Hypothesis strategy (:func:`positions`, :func:`capture_rich_positions`,
  :func:`far_row_captures`, :func:`long_chain_positions`, :func:`endgame_positions`,
  :func:`playouts`), so that a failing example shrinks to a small position;
* with a seeded :class:`random.Random` (:class:`RandomChooser`), so that benchmarks and the
  ``verify`` command can draw a fixed, reproducible set.

Every position respects the validity rules of rules.md (Art. 2): no White man on 1-5, no Black
man on 46-50, at most 20 pieces a side, each square at most once. Each generator takes the rule
set of the run (default international) and places its pieces on that game's board: squares
1..N, no man on its own far row, at most ``menRows`` x (board size / 2) pieces a side. Only
:func:`playout` uses the oracle's move generator (to play, from the game's own start); the
generators of capture-rich, far-row and long-chain positions build their captures from the
board geometry alone. The choices and the board under construction are
:mod:`conformance.verify.choices`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, TypeVar

from hypothesis import strategies as st

from conformance.verify.choices import (
    Board,
    Chooser,
    chance,
    most_pieces,
    pick,
    random_color,
    random_kind,
    scatter,
)
from oracle.board import NORTHWARD, SOUTHWARD, Direction, Geometry
from oracle.position import MAX_PIECES_PER_SIDE, Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules

T = TypeVar("T")

LONG_DIAGONALS: Final = (
    (46, 41, 37, 32, 28, 23, 19, 14, 10, 5),  # the main diagonal
    (1, 7, 12, 18, 23, 29, 34, 40, 45),  # the double corner diagonals
    (6, 11, 17, 22, 28, 33, 39, 44, 50),
)
"""The long diagonals: where a king sees the most of the board."""


def long_diagonals(board: Geometry) -> tuple[tuple[int, ...], ...]:
    """The long diagonals of ``board`` (:data:`LONG_DIAGONALS` on 10x10): the main diagonal from
    White's left corner, then the two double-corner diagonals beside it."""
    if board.size == 10:
        return LONG_DIAGONALS
    corner = board.square_at(board.size - 1, 0)
    top = board.square_at(0, 1)
    assert corner is not None
    assert top is not None
    main = (corner, *board.rays[corner][Direction.NORTH_EAST])
    first = (top, *board.rays[top][Direction.SOUTH_EAST])
    beside = board.square_at(1, 0)
    assert beside is not None
    second = (beside, *board.rays[beside][Direction.SOUTH_EAST])
    return (main, first, second)


class HypothesisChooser:
    """Choices drawn through Hypothesis (inside :func:`hypothesis.strategies.composite`)."""

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))


# -- the generators ------------------------------------------------------------------------------


def random_position(
    chooser: Chooser,
    max_pieces: int = MAX_PIECES_PER_SIDE,
    king_percent: int = 15,
    min_pieces: int = 1,
    rules: Rules = INTERNATIONAL,
) -> Position:
    """A valid position: ``min_pieces`` to ``max_pieces`` a side, some kings, either side to move.

    By default each side has a piece: the positions a game goes through before its end (a side
    without pieces has lost, Art. 7.2.2, and strict engines rightly refuse to be asked about it).
    ``max_pieces`` is capped at what the rule set's sides start with.
    """
    board = Board(rules=rules)
    top = min(max_pieces, board.most)
    for color in Color:
        scatter(chooser, board, color, chooser.integer(min(min_pieces, top), top), king_percent)
    return board.position(random_color(chooser))


def capture_rich_position(chooser: Chooser, rules: Rules = INTERNATIONAL) -> Position:
    """A position with several captures on: pieces en prise, kings on the long diagonals.

    The side to move gets 2-6 pieces that each have an opposing piece to jump (a man next to
    it with the square behind free; a king on a line with an opposing piece further on), often
    a king on a long diagonal, then both sides get a few more pieces around. Later pieces may
    block an earlier capture: the position is capture-rich, not guaranteed to capture.
    """
    board = Board(rules=rules)
    turn = random_color(chooser)
    them = turn.opponent
    diagonals = long_diagonals(board.geometry)
    if chance(chooser, 60):  # a king of the side to move on a long diagonal
        diagonal = pick(chooser, diagonals)
        board.place(pick(chooser, diagonal), turn, Kind.KING)
    if chance(chooser, 30):  # and one of the other side's, for counter-play
        diagonal = pick(chooser, diagonals)
        square = pick(chooser, diagonal)
        if board.can_place(square, them, Kind.KING):
            board.place(square, them, Kind.KING)
    for _ in range(chooser.integer(2, 6)):
        _plant_capture(chooser, board, turn)
    scatter(chooser, board, turn, chooser.integer(0, 6), 10)
    scatter(chooser, board, them, chooser.integer(0, 6), 10)
    return board.position(turn)


def _plant_capture(chooser: Chooser, board: Board, turn: Color) -> None:
    """Put a piece of ``turn`` (or reuse one) with an opposing piece it can jump."""
    kind = random_kind(chooser, 30)
    own = [s for s, piece in board.pieces.items() if piece[0] is turn]
    if own and chance(chooser, 30):
        square = pick(chooser, own)
        kind = board.pieces[square][1]
    else:
        free = [s for s in board.geometry.squares if board.can_place(s, turn, kind)]
        if not free:
            return
        square = pick(chooser, free)
        board.place(square, turn, kind)
    options: list[int] = []  # squares where an opposing piece could stand and be jumped
    for direction in Direction:
        ray = board.geometry.rays[square][direction]
        reach = len(ray) - 1 if kind is Kind.KING else min(1, len(ray) - 1)
        for distance in range(reach):
            if ray[distance] in board.pieces:
                break  # a king slides over empty squares only (4.3)
            if ray[distance + 1] not in board.pieces:
                options.append(ray[distance])
    if not options:
        return
    target = pick(chooser, options)
    far = board.geometry.row_of(target) == board.far_row(turn.opponent)
    target_kind = Kind.KING if far else random_kind(chooser, 15)
    if board.can_place(target, turn.opponent, target_kind):
        board.place(target, turn.opponent, target_kind)


def far_row_capture_position(chooser: Chooser, rules: Rules = INTERNATIONAL) -> Position:
    """A man of the side to move whose capture reaches its far row, often able to go on (Art. 4.15).

    The man stands two rows from its far row behind an opposing piece, the far-row square beyond
    it empty: its capture lands on the far row. Then, each often: an opposing piece next to the
    landing square with the square behind it empty (the capture goes on, the man stays a man),
    and an opposing piece further along a diagonal from the landing square with empty squares
    before and behind it (a king could take it, a man cannot). The squares those captures need
    stay empty; a few more pieces of both sides are scattered elsewhere. Positions where reading
    4.15 wrongly (crowning the man mid-capture) changes the legal moves.
    """
    board = Board(rules=rules)
    geometry = board.geometry
    turn = random_color(chooser)
    them = turn.opponent
    backward = SOUTHWARD if turn is Color.WHITE else NORTHWARD
    landing = pick(chooser, [s for s in geometry.squares if geometry.row_of(s) == board.far_row(turn)])
    rays = [geometry.rays[landing][d] for d in backward if len(geometry.rays[landing][d]) >= 2]
    first = pick(chooser, rays)
    board.place(first[1], turn, Kind.MAN)  # two rows from the far row: a man may stand there
    board.place(first[0], them, random_kind(chooser, 15))
    keep_empty = {landing}
    for ray in rays:
        if ray is first:
            continue
        if chance(chooser, 60) and len(ray) >= 2:  # a man's next jump, from the far row
            board.place(ray[0], them, random_kind(chooser, 15))
            keep_empty.add(ray[1])
        elif chance(chooser, 70) and len(ray) >= 3:  # a piece only a king could reach
            distance = chooser.integer(1, len(ray) - 2)
            far = geometry.row_of(ray[distance]) == board.far_row(them)
            board.place(ray[distance], them, Kind.KING if far else random_kind(chooser, 15))
            keep_empty.update(ray[:distance])
            keep_empty.add(ray[distance + 1])
    forbidden = frozenset(keep_empty)
    scatter(chooser, board, turn, chooser.integer(0, 5), 10, forbidden)
    scatter(chooser, board, them, chooser.integer(0, 5), 10, forbidden)
    return board.position(turn)


@dataclasses.dataclass(frozen=True)
class Chain:
    """A position built around one capture route: the route, the pieces it takes, in order."""

    position: Position
    route: tuple[int, ...]
    taken: tuple[int, ...]


def long_chain(
    chooser: Chooser,
    min_length: int = 8,
    max_length: int = 12,
    king_percent: int = 60,
    rules: Rules = INTERNATIONAL,
) -> Chain:
    """A position where one piece of the side to move has a capture of ``min_length``-``max_length``.

    The route is built jump by jump from the geometry (Art. 4.1, 4.3): each jump puts an
    opposing piece where none stands yet (or jumps one already there), on a square no earlier
    jump passed or landed on, and keeps its own path and landing squares empty for good. The
    capturing piece's start square counts as empty (rules.md). So the route stays a legal
    capture whatever else is added: the maximum capture takes at least ``len(taken)`` pieces
    (possibly more). Other pieces are scattered off the route. A random walk that gets stuck
    before ``min_length`` is started again (up to 30 times; then the longest one is kept).
    """
    most = most_pieces(rules)
    if not 1 <= min_length <= max_length <= most:
        raise ValueError(f"chain lengths must satisfy 1 <= {min_length} <= {max_length} <= {most}")
    target = chooser.integer(min_length, max_length)
    turn = random_color(chooser)
    kind = random_kind(chooser, king_percent)
    best: _Walk | None = None
    for _ in range(30):
        walk = _walk(chooser, turn, kind, target, rules)
        if best is None or len(walk.taken) > len(best.taken):
            best = walk
        if len(best.taken) >= min_length:
            break
    assert best is not None
    forbidden = frozenset(best.keep_empty | {best.route[0]})
    scatter(chooser, best.board, turn.opponent, chooser.integer(0, 4), 10, forbidden)
    scatter(chooser, best.board, turn, chooser.integer(0, 6), 10, forbidden)
    return Chain(best.board.position(turn), tuple(best.route), tuple(best.taken))


@dataclasses.dataclass
class _Walk:
    board: Board
    route: list[int]
    taken: list[int]
    keep_empty: set[int]


def _walk(chooser: Chooser, turn: Color, kind: Kind, target: int, rules: Rules) -> _Walk:
    """One random capture route of up to ``target`` jumps, with the board it needs."""
    them = turn.opponent
    board = Board(rules=rules)
    geometry = board.geometry
    origin = pick(chooser, [s for s in geometry.squares if board.can_place(s, turn, kind)])
    board.place(origin, turn, kind)
    walk = _Walk(board, [origin], [], set())

    def free(square: int) -> bool:
        return square == origin or square not in board.pieces

    while len(walk.taken) < target:
        here = walk.route[-1]
        options: list[tuple[int, int, tuple[int, ...]]] = []  # (jumped, landing, squares kept empty)
        for direction in Direction:
            ray = geometry.rays[here][direction]
            for distance in range(len(ray) - 1 if kind is Kind.KING else min(1, len(ray) - 1)):
                path = ray[:distance]
                if not all(free(s) for s in path):
                    break
                jumped = ray[distance]
                if jumped == origin or jumped in walk.keep_empty or jumped in walk.taken:
                    continue
                if jumped in board.pieces and board.pieces[jumped][0] is not them:
                    continue
                if jumped not in board.pieces and board.count(them) >= board.most:
                    continue
                beyond = ray[distance + 1 :] if kind is Kind.KING else ray[distance + 1 : distance + 2]
                for index, landing in enumerate(beyond):
                    if not free(landing):
                        break
                    options.append((jumped, landing, path + beyond[: index + 1]))
        if not options:
            break
        jumped, landing, empty = pick(chooser, options)
        if jumped not in board.pieces:
            far = geometry.row_of(jumped) == board.far_row(them)
            jumped_kind = Kind.KING if far else random_kind(chooser, 10)
            board.place(jumped, them, jumped_kind)
        walk.keep_empty.update(empty)
        walk.taken.append(jumped)
        walk.route.append(landing)
    return walk


def long_chain_position(
    chooser: Chooser, min_length: int = 8, max_length: int = 12, rules: Rules = INTERNATIONAL
) -> Position:
    """The position of :func:`long_chain` (lengths capped at what a side of the rule set has)."""
    most = most_pieces(rules)
    return long_chain(chooser, min(min_length, most), min(max_length, most), rules=rules).position


ENDINGS: Final = ((3, 0), (2, 1), (1, 2), (2, 0), (1, 1), (1, 0))
"""The (kings, men) of the strong side in the endings of Art. 6.3 and 6.4, against a lone king."""


def endgame_position(chooser: Chooser, rules: Rules = INTERNATIONAL) -> Position:
    """Small material for the draw rules (Art. 6.3, 6.4, 7).

    Mostly an ending of 6.3/6.4 (3K, 2K+1M, 1K+2M, 2K, 1K+1M or 1K against a lone king, which
    often stands on the main diagonal), sometimes a near miss the rules treat differently
    (three men against a king; a lone man; two kings against two kings).
    """
    board = Board(rules=rules)
    strong = random_color(chooser)
    weak = strong.opponent
    variant = chooser.integer(0, 9)
    if variant < 7:
        kings, men = pick(chooser, ENDINGS)
        weak_pieces = [(Kind.KING, 1)]
    elif variant == 7:
        kings, men = 0, 3
        weak_pieces = [(Kind.KING, 1)]
    elif variant == 8:
        kings, men = pick(chooser, ((1, 0), (2, 0), (1, 1)))
        weak_pieces = [(Kind.MAN, 1)]
    else:
        kings, men = 2, 0
        weak_pieces = [(Kind.KING, 2)]
    lone_on_diagonal = weak_pieces == [(Kind.KING, 1)] and chance(chooser, 40)
    if lone_on_diagonal:
        board.place(pick(chooser, long_diagonals(board.geometry)[0]), weak, Kind.KING)
    else:
        for kind, count in weak_pieces:
            scatter(chooser, board, weak, count, 100 if kind is Kind.KING else 0)
    scatter(chooser, board, strong, kings, 100)
    scatter(chooser, board, strong, men, 0)
    return board.position(random_color(chooser))


def playout(chooser: Chooser, max_plies: int = 80, rules: Rules = INTERNATIONAL) -> Position:
    """The position after up to ``max_plies`` random legal moves from the rule set's initial position.

    Plays with the oracle of the rule set (:func:`oracle.moves.legal_moves`); stops early when the
    side to move has no move (Art. 7.2).
    """
    from oracle.moves import legal_moves, play  # the oracle plays; the SMT encoding never does

    position = Position.initial(rules)
    for _ in range(chooser.integer(0, max_plies)):
        moves = legal_moves(position, rules)
        if not moves:
            break
        moves.sort(key=lambda move: (move.from_square, move.to_square, sorted(move.captured)))
        after = play(position, pick(chooser, moves), rules)
        if not (after.squares(Color.WHITE) and after.squares(Color.BLACK)):
            break  # the game is over: a position without one side is not asked about
        position = after
    return position


# -- Hypothesis strategies -----------------------------------------------------------------------


@st.composite
def positions(
    draw: st.DrawFn, max_pieces: int = MAX_PIECES_PER_SIDE, king_percent: int = 15, min_pieces: int = 0
) -> Position:
    """Any valid position (Art. 2), a side without pieces included unless ``min_pieces`` >= 1.

    Examples from this strategy shrink toward fewer pieces, men rather than kings, White to move.
    """
    return random_position(HypothesisChooser(draw), max_pieces, king_percent, min_pieces)


@st.composite
def capture_rich_positions(draw: st.DrawFn) -> Position:
    """Positions with several pieces en prise and kings on the long diagonals."""
    return capture_rich_position(HypothesisChooser(draw))


@st.composite
def far_row_captures(draw: st.DrawFn) -> Position:
    """Positions where a man's capture reaches its far row and may go on (Art. 4.15)."""
    return far_row_capture_position(HypothesisChooser(draw))


@st.composite
def long_chains(draw: st.DrawFn, min_length: int = 8, max_length: int = 12) -> Chain:
    """Positions built around a capture of ``min_length``-``max_length`` pieces, with its route."""
    return long_chain(HypothesisChooser(draw), min_length, max_length)


def long_chain_positions(min_length: int = 8, max_length: int = 12) -> st.SearchStrategy[Position]:
    """The positions of :func:`long_chains`."""
    return long_chains(min_length, max_length).map(lambda chain: chain.position)


@st.composite
def endgame_positions(draw: st.DrawFn) -> Position:
    """Small material for the draw rules (Art. 6.3, 6.4)."""
    return endgame_position(HypothesisChooser(draw))


@st.composite
def playouts(draw: st.DrawFn, max_plies: int = 80) -> Position:
    """Positions reached by random legal play from the initial position."""
    return playout(HypothesisChooser(draw), max_plies)


def any_positions() -> st.SearchStrategy[Position]:
    """One of every kind above."""
    return st.one_of(
        positions(),
        capture_rich_positions(),
        far_row_captures(),
        long_chain_positions(),
        endgame_positions(),
        playouts(),
    )
