"""Concrete games for abstract event sequences of the draw model (part of the synthesis of games
that tell readings of Art. 6 apart).

:func:`realise` looks for a position and legal moves (:mod:`oracle.moves`) whose abstraction
(:func:`~conformance.core.draw_games.abstract_game`) is exactly a given
:class:`~conformance.core.draw_events.Start` and its events: the same kind of move at every ply,
the same material, the same pattern of repeated placements, the same blocked positions (and,
when asked, the same long-diagonal attribute). Since the model agrees with the oracle on every
ply of such a game (tests/verify/test_draw_agreement.py), the concrete game then ends as the
model said, under each reading; the synthesis replays it to make sure.

The search draws start positions with the start's material and side to move
(:mod:`conformance.verify.draw_setups`) and walks the events forward depth first, trying the legal
moves that match each event, within a budget of nodes per start. Three kinds of start:

* *pivots*, first: where the first capture or promotion (or the move that leaves a lone king alone
  on the long diagonal) comes after quiet moves, a random position with the material before it
  (its pieces near one another, for captures), from which the events from there on are found
  forward, then the quiet moves before it taken back -- a capture after many quiet plies is
  rarely walked into forward, and taking moves back is cheap;
* positions taken back from a blocked one, when the last event asks for a blocked position (rare
  among random ones);
* random positions.

Every start is checked the same way: the whole game is walked forward from it, the moves found
for the pivot tried first.

``steps_only`` asks for a game that engines without flying kings can play too: every king moves
one square at a time and captures only a piece right next to it, so that each move is legal,
and each position blocked or not, alike with ``flying_kings`` on and off.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Final

from conformance.core.draw_events import Event, MoveKind, Side, Start
from conformance.core.draw_games import lone_king_on_long_diagonal, material_of
from conformance.core.errors import IncompleteError
from conformance.verify.draw_setups import (
    PlacementKey,
    back_chain,
    before_flip,
    blocked_position,
    legal_raw,
    placement,
    random_start,
    take_back,
    to_move,
)
from oracle.board import BIT, row_of
from oracle.counters import Counters
from oracle.moves import Move, RawMove, apply_raw
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, Rules

SHORT_KINGS: Final = dataclasses.replace(INTERNATIONAL, flying_kings=False)
"""International rules with kings that move and capture one square at a time."""


@dataclasses.dataclass(frozen=True)
class ConcreteGame:
    """A setup position, its counters and the moves of a game."""

    position: Position
    counters: Counters
    moves: tuple[Move, ...]


class _OutOfNodes(IncompleteError):
    pass


def _color(side: Side) -> Color:
    return Color.WHITE if side is Side.WHITE else Color.BLACK


def _counts(position: Position) -> tuple[int, int, int, int]:
    return (
        position.white_kings.bit_count(),
        position.white_men.bit_count(),
        position.black_kings.bit_count(),
        position.black_men.bit_count(),
    )


def _kind_before(position: Position, move: RawMove) -> MoveKind:
    """The kind of ``move`` without playing it (a man reaching the far row without capture crowns)."""
    if move[2]:
        return MoveKind.CAPTURE
    if not position.men(position.turn) & BIT[move[0]]:
        return MoveKind.KING_MOVE
    if row_of(move[1]) == position.turn.promotion_row:
        return MoveKind.PROMOTION
    return MoveKind.MAN_MOVE


def _is_step(move: RawMove) -> bool:
    """A move a king without flying could make: one square, or jumps over adjacent pieces."""
    route = move[3] or (move[0], move[1])
    rows = 2 if move[2] else 1
    return all(abs(row_of(a) - row_of(b)) == rows for a, b in itertools.pairwise(route))


def _is_man(position: Position, move: RawMove) -> bool:
    return bool(position.men(position.turn) & BIT[move[0]])


@functools.lru_cache(maxsize=16384)
def _common_moves(
    position: Position, rule_sets: tuple[Rules, ...], steps_only: bool
) -> tuple[tuple[RawMove, ...], bool] | None:
    """:meth:`_Search.moves`, remembered like :func:`~conformance.verify.draw_setups.legal_raw`.
    Moves are the same under two rule sets when they go from and to the same squares and take the
    same pieces (the route may differ)."""
    first = legal_raw(position, rule_sets[0])
    common = first
    for rules in rule_sets[1:]:
        others = {move[:3] for move in legal_raw(position, rules)}
        if bool(others) != bool(first):
            return None
        common = tuple(m for m in common if m[:3] in others)
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
        self.budget = nodes
        self.rules = self.rule_sets[0]  # every move tried is legal under it

    def moves(self, position: Position) -> tuple[tuple[RawMove, ...], bool] | None:
        """The moves to try (legal under every rule set; steps only, if asked) and whether the side
        to move is blocked (7.2.3); None when the rule sets disagree on that."""
        return _common_moves(position, self.rule_sets, self.steps_only)

    @property
    def spent(self) -> int:
        """Moves tried so far (at most the budget)."""
        return self.budget - max(self.nodes, 0)

    def run(self, position: Position, white_first: bool, hint: Sequence[Move] = ()) -> list[Move] | None:
        """Moves from ``position`` matching the events (``hint``: moves to try first, ply by ply)."""
        found = self.moves(position)
        if found is None:
            return None
        self.hint = [
            (move.from_square, move.to_square, position.geometry.bitboard(move.captured)) for move in hint
        ]
        self.white_first = white_first
        self.path = [placement(position)]
        seen = {self.path[0]: 0}
        try:
            walked = self._walk(position, found[0], 0, seen)
        except _OutOfNodes:
            return None
        return None if walked is None else [to_move(raw) for raw in walked]

    def _can_return(self, after: Position, ply: int) -> bool:
        """Whether every placement the events bring back later can still be reached in time: only
        kings move back, one per move of their side (a cheap bound that prunes most dead ends)."""
        now = placement(after)
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
        self, position: Position, legal: Sequence[RawMove], ply: int, seen: dict[PlacementKey, int]
    ) -> list[RawMove] | None:
        if ply == len(self.events):
            return []
        event = self.events[ply]
        candidates = list(legal)
        self.rng.shuffle(candidates)
        if ply < len(self.hint):
            hinted = next((m for m in candidates if m[:3] == self.hint[ply]), None)
            if hinted is not None:
                candidates.remove(hinted)
                candidates.insert(0, hinted)
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
            after = apply_raw(position, move, self.rules)
            if _counts(after) != wanted:
                continue
            key = placement(after)
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


PIVOT_NODES: Final = 400
"""Moves tried from each drawn pivot (:func:`_pivot_starts`) for the events after it."""


PIVOT_CLUSTER: Final = 2
"""The pieces of a drawn pivot stand within this many rows and columns of one square: the
captures that follow it are then often there to be had (by kings moving one square too)."""


def _pivot(events: Sequence[Event], check_diagonal: bool = False) -> int | None:
    """The ply of the first capture or promotion (or, with ``check_diagonal``, the first move that
    changes the long-diagonal attribute), if the quiet moves before it each reach a new placement,
    or None: the game is then searched from the position before it, and the moves before it are
    taken back (a capture after many quiet plies is rarely walked into forward)."""
    diagonal = False
    for ply, event in enumerate(events):
        if event.kind in (MoveKind.CAPTURE, MoveKind.PROMOTION):
            return ply
        if check_diagonal and event.long_diagonal != diagonal:
            return ply
        if event.placement != ply + 1 or event.blocked:
            return None
    return None


def _pivot_starts(
    start: Start,
    events: Sequence[Event],
    sets: Sequence[Rules],
    check_diagonal: bool,
    steps_only: bool,
    rng: random.Random,
    count: int,
    budget: list[int],
) -> Iterator[tuple[Position, list[Move]]]:
    """Candidate setups for events with a capture, a promotion or a long-diagonal change at ply
    ``c`` after quiet moves (:func:`_pivot`), each with the moves to try first: a random position with the material and
    side to move before that ply, from which the events from ``c`` on are found forward, then
    ``c`` quiet moves taken back from it, each to a placement not seen before. The caller checks
    the whole game forward from the setup, as for any other start."""
    pivot = _pivot(events, check_diagonal)
    if pivot is None or (check_diagonal and start.long_diagonal):
        return
    before = events[pivot - 1] if pivot else Event(MoveKind.KING_MOVE, start.material, 0)
    turn = start.turn if pivot % 2 == 0 else start.turn.opponent
    at_pivot = dataclasses.replace(start, material=before.material, turn=turn, long_diagonal=False)
    later = [dataclasses.replace(e, placement=e.placement - pivot) for e in events[pivot:]]
    kinds = [e.kind for e in events[:pivot]]
    promotes = later[0].kind is MoveKind.PROMOTION
    cluster = PIVOT_CLUSTER if later[0].kind is MoveKind.CAPTURE else None
    flip = check_diagonal and later[0].long_diagonal != before.long_diagonal
    for _ in range(count):
        position = random_start(at_pivot, rng, near_promotion=promotes, cluster=cluster)
        if position is not None and flip:
            position = before_flip(position, rng)
        if position is None:
            continue
        if check_diagonal and lone_king_on_long_diagonal(position) != before.long_diagonal:
            continue
        if budget[0] <= 0:
            return
        search = _Search(later, sets, check_diagonal, steps_only, rng, min(PIVOT_NODES, budget[0]))
        found = search.moves(position)
        if found is None or found[1]:
            continue
        suffix = search.run(position, turn is Side.WHITE)
        budget[0] -= search.spent
        if suffix is None:
            continue
        chain = back_chain(position, kinds, rng, steps_only, {placement(position)}, [200])
        if chain is not None:
            yield chain[0], [*chain[1], *suffix]


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
    pivots: bool = False,
    total: int | None = None,
) -> ConcreteGame | None:
    """A concrete game whose abstraction is ``start`` and ``events``, or None within the budget
    (``starts`` setup positions, ``nodes`` moves tried from each, ``total`` moves tried in all if
    given). ``pivots``: try up to ``starts`` pivots first (the draw campaigns; off, the search
    finds the games the recorded seeds of the synthesised corpus cases name)."""
    rng = random.Random(seed)
    sets = [*rule_sets, SHORT_KINGS] if steps_only else list(rule_sets)
    counters = Counters(start.occurrences, start.no_progress_plies, start.endgame_plies)
    budget = [total if total is not None else sys.maxsize]

    def candidates() -> Iterator[tuple[Position, list[Move]]]:
        if pivots:
            yield from _pivot_starts(start, events, sets, check_diagonal, steps_only, rng, starts, budget)
        yield from _starts(start, events, rng, starts)  # drawn all at once, when the pivots are done

    for position, hint in candidates():
        if material_of(position) != start.material or position.turn is not _color(start.turn):
            continue
        if check_diagonal and lone_king_on_long_diagonal(position) != start.long_diagonal:
            continue
        if budget[0] <= 0:
            return None
        search = _Search(events, sets, check_diagonal, steps_only, rng, min(nodes, budget[0]))
        found = search.moves(position)
        if found is None or found[1] != start.blocked:
            continue
        moves = search.run(position, start.turn is Side.WHITE, hint)
        budget[0] -= search.spent
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
