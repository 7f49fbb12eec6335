"""Concrete games for abstract event sequences of the draw model (part of the synthesis of games
that tell readings of Art. 6 apart).

:func:`realise` looks for a position and legal moves (:mod:`oracle.moves`) whose abstraction
(:func:`~conformance.core.draw_games.abstract_game`) is exactly a given
:class:`~conformance.core.draw_events.Start` and its events: the same kind of move at every ply,
the same material, the same pattern of repeated placements, the same blocked positions (and,
when asked, the same long-diagonal attribute). Since the model agrees with the oracle on every
ply of such a game (tests/verify/test_draw_agreement.py), the concrete game then ends as the
model said, under each reading; the synthesis replays it to make sure.

The search draws start positions with the start's material and side to move -- at random, or by
taking moves back from a position that is blocked when the last event asks for one (a blocked
position is rare among random ones) -- and walks the events forward depth first, trying the
legal moves that match each event, within a budget of nodes per start.

``steps_only`` asks for a game that engines without flying kings can play too: every king moves
one square at a time and captures only a piece right next to it, so that each move is legal,
and each position blocked or not, alike with ``flying_kings`` on and off.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Sequence
from typing import Final

from conformance.core.draw_events import Event, MoveKind, Side, Start
from conformance.core.draw_games import lone_king_on_long_diagonal, material_of
from conformance.core.errors import IncompleteError
from oracle.board import BIT, RAYS, Direction, row_of
from oracle.counters import Counters
from oracle.moves import Move, apply_raw, legal_moves, play
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules

SHORT_KINGS: Final = dataclasses.replace(INTERNATIONAL, flying_kings=False)
"""International rules with kings that move and capture one square at a time."""

PlacementKey = tuple[int, int, int, int]


@functools.lru_cache(maxsize=8192)
def _legal(position: Position, rules: Rules = INTERNATIONAL) -> tuple[Move, ...]:
    """:func:`oracle.moves.legal_moves`, in its order, remembered: the search asks again for the
    moves of a position it met before (every start twice, a game taken back, then walked forward
    along the moves taken back, the controls from the same setup, transpositions of king moves)."""
    return tuple(legal_moves(position, rules))


def _after(position: Position, move: Move) -> Position:
    """The position after ``move``, one of :func:`_legal`'s moves under international rules here:
    :func:`oracle.moves.play` without its search for the move among the legal ones (it is one)."""
    captured = position.geometry.bitboard(move.captured)
    return apply_raw(position, (move.from_square, move.to_square, captured, move.route))


@dataclasses.dataclass(frozen=True)
class ConcreteGame:
    """A setup position, its counters and the moves of a game."""

    position: Position
    counters: Counters
    moves: tuple[Move, ...]


class _OutOfNodes(IncompleteError):
    pass


def _key(position: Position) -> PlacementKey:
    return (position.white_men, position.white_kings, position.black_men, position.black_kings)


def _color(side: Side) -> Color:
    return Color.WHITE if side is Side.WHITE else Color.BLACK


def _counts(position: Position) -> tuple[int, int, int, int]:
    return (
        position.white_kings.bit_count(),
        position.white_men.bit_count(),
        position.black_kings.bit_count(),
        position.black_men.bit_count(),
    )


def _kind_before(position: Position, move: Move) -> MoveKind:
    """The kind of ``move`` without playing it (a man reaching the far row without capture crowns)."""
    if move.captured:
        return MoveKind.CAPTURE
    if not position.men(position.turn) & BIT[move.from_square]:
        return MoveKind.KING_MOVE
    if row_of(move.to_square) == position.turn.promotion_row:
        return MoveKind.PROMOTION
    return MoveKind.MAN_MOVE


def _is_step(move: Move) -> bool:
    """A move a king without flying could make: one square, or jumps over adjacent pieces."""
    route = move.route or (move.from_square, move.to_square)
    return all(
        abs(row_of(a) - row_of(b)) == (2 if move.captured else 1) for a, b in itertools.pairwise(route)
    )


@functools.lru_cache(maxsize=8192)
def _common_moves(
    position: Position, rule_sets: tuple[Rules, ...], steps_only: bool
) -> tuple[tuple[Move, ...], bool] | None:
    """:meth:`_Search.moves`, remembered like :func:`_legal`."""
    first = _legal(position, rule_sets[0])
    common = first
    for rules in rule_sets[1:]:
        others = set(_legal(position, rules))
        if bool(others) != bool(first):
            return None
        common = tuple(m for m in common if m in others)
    if steps_only:
        common = tuple(m for m in common if _is_man(position, m) or _is_step(m))
    return common, not first and bool(position.pieces(position.turn))


class _Search:
    def __init__(
        self,
        events: Sequence[Event],
        rule_sets: Sequence[Rules],
        check_diagonal: bool,
        steps_only: bool,
        rng: random.Random,
        nodes: int,
    ) -> None:
        self.events = events
        self.rule_sets = tuple(rule_sets)
        self.check_diagonal = check_diagonal
        self.steps_only = steps_only
        self.rng = rng
        self.nodes = nodes
        self.international = INTERNATIONAL in rule_sets  # every move tried is legal under it

    def moves(self, position: Position) -> tuple[tuple[Move, ...], bool] | None:
        """The moves to try (legal under every rule set; steps only, if asked) and whether the side
        to move is blocked (7.2.3); None when the rule sets disagree on that."""
        return _common_moves(position, self.rule_sets, self.steps_only)

    def run(self, position: Position, white_first: bool, hint: Sequence[Move] = ()) -> list[Move] | None:
        """Moves from ``position`` matching the events (``hint``: moves to try first, ply by ply)."""
        found = self.moves(position)
        if found is None:
            return None
        self.hint = list(hint)
        self.white_first = white_first
        self.path = [_key(position)]
        seen = {self.path[0]: 0}
        try:
            return self._walk(position, found[0], 0, seen)
        except _OutOfNodes:
            return None

    def _can_return(self, after: Position, ply: int) -> bool:
        """Whether every placement the events bring back later can still be reached in time: only
        kings move back, one per move of their side (a cheap bound that prunes most dead ends)."""
        now = _key(after)
        for later in range(ply + 1, len(self.events)):
            first = self.events[later].placement
            if first > ply or first == later + 1:
                continue
            target = self.path[first] if first < ply else now
            if now[0] != target[0] or now[2] != target[2]:  # men never go back
                return False
            white_moves = sum(1 for k in range(ply + 1, later + 2) if (k % 2 == 1) == self.white_first)
            black_moves = later + 1 - ply - white_moves
            if (now[1] & ~target[1]).bit_count() > white_moves or (
                now[3] & ~target[3]
            ).bit_count() > black_moves:
                return False
        return True

    def _walk(
        self, position: Position, legal: Sequence[Move], ply: int, seen: dict[PlacementKey, int]
    ) -> list[Move] | None:
        if ply == len(self.events):
            return []
        event = self.events[ply]
        candidates = list(legal)
        self.rng.shuffle(candidates)
        if ply < len(self.hint) and self.hint[ply] in candidates:
            candidates.remove(self.hint[ply])
            candidates.insert(0, self.hint[ply])
        wanted = (
            event.material.white_kings,
            event.material.white_men,
            event.material.black_kings,
            event.material.black_men,
        )
        for move in candidates:
            self.nodes -= 1
            if self.nodes < 0:
                raise _OutOfNodes
            if _kind_before(position, move) is not event.kind:
                continue
            if event.kind is MoveKind.CAPTURE and _is_man(position, move) != event.by_man:
                continue
            after = _after(position, move) if self.international else play(position, move)
            if _counts(after) != wanted:
                continue
            key = _key(after)
            if seen.get(key, ply + 1) != event.placement or not self._can_return(after, ply + 1):
                continue
            if self.check_diagonal and lone_king_on_long_diagonal(after) != event.long_diagonal:
                continue
            following = self.moves(after)
            if following is None or following[1] != event.blocked:
                continue
            next_legal = following[0]
            new = key not in seen
            if new:
                seen[key] = ply + 1
            self.path.append(key)
            rest = self._walk(after, next_legal, ply + 1, seen)
            self.path.pop()
            if new:
                del seen[key]
            if rest is not None:
                return [move, *rest]
        return None


def random_start(start: Start, rng: random.Random, near_promotion: bool = False) -> Position | None:
    """A random position with the start's material and side to move (None if none was drawn)."""
    material = start.material
    squares = list(range(1, 51))
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
    return Position.from_squares(_color(start.turn), chosen["wm"], chosen["wk"], chosen["bm"], chosen["bk"])


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
    edge = [s for s in range(1, 51) if len([r for r in RAYS[s] if r]) <= 2]
    placed: dict[int, tuple[Color, Kind]] = {}
    for kind, count in ((Kind.KING, mine[0]), (Kind.MAN, mine[1])):
        for _ in range(count):
            free = [s for s in edge if s not in placed and _man_square_ok(side_to_move, kind, s)]
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
    position = Position.from_squares(
        side_to_move,
        {s for s, (c, k) in placed.items() if c is Color.WHITE and k is Kind.MAN},
        {s for s, (c, k) in placed.items() if c is Color.WHITE and k is Kind.KING},
        {s for s, (c, k) in placed.items() if c is Color.BLACK and k is Kind.MAN},
        {s for s, (c, k) in placed.items() if c is Color.BLACK and k is Kind.KING},
    )
    return position if not _legal(position) else None


def _man_square_ok(color: Color, kind: Kind, square: int) -> bool:
    if kind is Kind.KING:
        return True
    return square > 5 if color is Color.WHITE else square < 46


def _is_man(position: Position, move: Move) -> bool:
    return bool(position.men(position.turn) & BIT[move.from_square])


def take_back(
    position: Position, rng: random.Random, kinds: Sequence[MoveKind], *, one_square: bool = False
) -> tuple[Position, Move] | None:
    """A position, and a legal move of the side that just moved of one of ``kinds`` (king or man
    move without capture), that leads to ``position``; None if the one drawn fails. ``one_square``:
    kings come back one square only (a game engines without flying kings can play)."""
    mover = position.turn.opponent
    options: list[tuple[int, int]] = []
    for square in position.squares(mover, Kind.KING) if MoveKind.KING_MOVE in kinds else []:
        for ray in RAYS[square]:
            for back in ray[:1] if one_square else ray:
                if position.piece_at(back) is not None:
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
                if ray and position.piece_at(ray[0]) is None and _man_square_ok(mover, Kind.MAN, ray[0]):
                    options.append((square, ray[0]))
    if not options:
        return None
    to_square, from_square = rng.choice(options)
    placed = {(color, kind): set(position.squares(color, kind)) for color in Color for kind in Kind}
    moved = next(squares for squares in placed.values() if to_square in squares)
    moved.remove(to_square)
    moved.add(from_square)
    before = Position.from_squares(
        mover,
        placed[Color.WHITE, Kind.MAN],
        placed[Color.WHITE, Kind.KING],
        placed[Color.BLACK, Kind.MAN],
        placed[Color.BLACK, Kind.KING],
    )
    move = Move(from_square, to_square, route=(from_square, to_square))
    return (before, move) if move in _legal(before) and _after(before, move) == position else None


def _starts(
    start: Start, events: Sequence[Event], rng: random.Random, count: int
) -> list[tuple[Position, list[Move]]]:
    """Candidate setup positions, each with moves to try first: random ones (no moves), and ones
    taken back from a blocked final position (the moves taken back)."""
    found: list[tuple[Position, list[Move]]] = []
    promotes = any(e.kind is MoveKind.PROMOTION for e in events)
    last = events[-1] if events else None
    tail = 0  # plies at the end without capture or promotion: they can be taken back
    for event in reversed(events):
        if event.kind not in (MoveKind.KING_MOVE, MoveKind.MAN_MOVE):
            break
        tail += 1
    back_from_blocked = last is not None and last.blocked and tail == len(events)
    for _ in range(count):
        position: Position | None
        moves: list[Move] = []
        if back_from_blocked:  # a blocked position is rare among random ones: take moves back from one
            assert last is not None
            final_turn = _color(start.turn) if len(events) % 2 == 0 else _color(start.turn).opponent
            m = last.material
            position = blocked_position(
                final_turn, (m.white_kings, m.white_men, m.black_kings, m.black_men), rng
            )
            for event in reversed(events):
                if position is None:
                    break
                step = take_back(position, rng, [event.kind])
                position, moves = (None, moves) if step is None else (step[0], [step[1], *moves])
        else:
            position = random_start(start, rng, near_promotion=promotes and rng.random() < 0.5)
        if position is not None:
            found.append((position, moves))
    return found


def realise(
    start: Start,
    events: Sequence[Event],
    *,
    rule_sets: Sequence[Rules] = (INTERNATIONAL,),
    check_diagonal: bool = False,
    steps_only: bool = False,
    seed: int = 0,
    starts: int = 300,
    nodes: int = 3000,
) -> ConcreteGame | None:
    """A concrete game whose abstraction is ``start`` and ``events``, or None within the budget
    (``starts`` setup positions, ``nodes`` moves tried from each)."""
    rng = random.Random(seed)
    sets = [*rule_sets, SHORT_KINGS] if steps_only else list(rule_sets)
    counters = Counters(start.occurrences, start.no_progress_plies, start.endgame_plies)
    for position, hint in _starts(start, events, rng, starts):
        if material_of(position) != start.material or position.turn is not _color(start.turn):
            continue
        if check_diagonal and lone_king_on_long_diagonal(position) != start.long_diagonal:
            continue
        search = _Search(events, sets, check_diagonal, steps_only, rng, nodes)
        found = search.moves(position)
        if found is None or found[1] != start.blocked:
            continue
        moves = search.run(position, start.turn is Side.WHITE, hint)
        if moves is not None:
            return ConcreteGame(position, counters, tuple(moves))
    return None


def realise_from(
    position: Position,
    events: Sequence[Event],
    *,
    steps_only: bool = False,
    seed: int = 0,
    nodes: int = 3000,
    hint: Sequence[Move] = (),
) -> tuple[Move, ...] | None:
    """Legal moves from the given ``position`` whose abstraction is ``events`` (see :func:`realise`),
    or None within ``nodes`` moves tried (``hint``: moves to try first, ply by ply): a second game
    from the setup of one found before (the draw campaigns' control games), or a game found by
    taking moves back."""
    sets = [INTERNATIONAL, SHORT_KINGS] if steps_only else [INTERNATIONAL]
    search = _Search(events, sets, False, steps_only, random.Random(seed), nodes)
    moves = search.run(position, position.turn is Color.WHITE, hint)
    return None if moves is None else tuple(moves)
