"""Draw-rule campaigns of ``verify`` (``--kind draws``): games steered to each rule of Art. 6 and 7.2.

Random play almost never reaches a draw of Art. 6.1, 6.2 or 6.3 (a capture comes long before), so
each ``draws`` position of a run is the setup of a game *steered* to one rule (a :class:`Scenario`):

* **6.1** cycles of king moves bringing a placement back, twice in a row, apart, and with the
  other side to move in between (``6.1-cycle``, ``6.1-apart``, ``6.1-side-to-move``);
* **6.2** fifty plies of king moves, alone or after a man move, a king's capture or a promotion
  placed at a chosen ply (``6.2-kings``, ``6.2-man-move``, ``6.2-capture``, ``6.2-promotion``);
* **6.3 / 6.4** endings arising by a capture or a promotion, changes inside a group (a man move,
  a promotion: reading ``endgame-no-restart``), a capture taking 6.3's group into 6.4's (reading
  ``endgame-group-change``) (``6.3-capture``, ``6.3-promotion``, ``6.3-inside``, ``6.3-to-6.4``,
  ``6.4-capture``, ``6.4-promotion``, ``6.4-inside``);
* a win on the ply a count expires (reading ``win-beats-draw``) and a repetition on the ply 6.4
  expires (reading ``draw-precedence``) (``win-on-expiry``, ``precedence``).

A scenario writes the game as abstract events of the verifier's draw model
(:mod:`conformance.verify.draw_events`) and :func:`~conformance.verify.draw_realise.realise` finds
a concrete game for them; the outcome is then asked after the prefixes around every boundary of the
scenario -- two plies short, one short, at it, one after -- so that a count off by one or two, a
count that does not reset, a repetition counted wrongly, each disagrees on some asked prefix. A
scenario whose expectation rests on a reading first asks a *control* game from the same setup
without the change (the same count, nothing inside it): an engine that fails the control has the
count wrong, not the reading, and its result says so.

Half of the games (all but those needing a long king move) are played with one-square king steps
and man moves only (``steps_only``): legal, and blocked or not, alike with and without flying
kings, so that an engine with short kings is judged on its draw rules too. Every game starts from
its setup with default counters; the engine is given the moves.

The game of position ``index`` of seed ``S`` depends on ``S``, ``index`` and its round (which
draws position of the run it is) only: the same whatever ``--workers`` or ``--shard``.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from typing import Final

from conformance.verify.draw_events import Event, Material, MoveKind, Side, Start
from conformance.verify.draw_realise import blocked_position, realise, realise_from, take_back
from oracle.errors import GameOverError
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Color, Position


@dataclasses.dataclass(frozen=True)
class Plan:
    """A scenario's abstract game: the start, the events, the plies around which it is asked."""

    start: Start
    events: tuple[Event, ...]
    boundaries: tuple[int, ...]
    control: tuple[Event, ...] = ()
    """A game from the same setup without the change the reading is about (asked first)."""
    control_boundaries: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class DrawGame:
    """A steered game: its setup, its moves (PDN) and the prefixes whose outcome is asked."""

    scenario: str
    article: str
    """The rule the game is steered to (an article, or the reading its expectation rests on)."""
    position: Position
    moves: tuple[str, ...]
    asked: tuple[int, ...]
    steps_only: bool
    control: tuple[str, ...] = ()
    control_asked: tuple[int, ...] = ()

    def questions(self) -> list[tuple[str, ...]]:
        """The move sequences asked, in order: the control's prefixes, then the game's."""
        return [self.control[:n] for n in self.control_asked] + [self.moves[:n] for n in self.asked]


class _Events:
    """An event sequence under construction, one ply at a time."""

    def __init__(self, material: Material, turn: Side) -> None:
        self.material = material
        self.turn = turn
        self.events: list[Event] = []

    @property
    def ply(self) -> int:
        return len(self.events)

    @property
    def mover(self) -> Side:
        return self.turn if self.ply % 2 == 0 else self.turn.opponent

    def kings(self, count: int) -> _Events:
        """``count`` king moves, each to a placement not seen before."""
        for _ in range(count):
            self.events.append(Event(MoveKind.KING_MOVE, self.material, self.ply + 1))
        return self

    def back_to(self, placement: int) -> _Events:
        """A king move bringing back the placement first seen at ply ``placement``."""
        self.events.append(Event(MoveKind.KING_MOVE, self.material, placement))
        return self

    def until(self, side: Side) -> _Events:
        """A king move if needed, so that ``side`` plays the next ply."""
        return self.kings(0 if self.mover is side else 1)

    def man(self) -> _Events:
        self.events.append(Event(MoveKind.MAN_MOVE, self.material, self.ply + 1))
        return self

    def promote(self) -> _Events:
        self.material = _changed(self.material, self.mover, kings=1, men=-1)
        self.events.append(Event(MoveKind.PROMOTION, self.material, self.ply + 1))
        return self

    def capture(self, kings: int = 0, men: int = 0) -> _Events:
        """The side to move takes ``kings`` kings and ``men`` men with a king."""
        self.material = _changed(self.material, self.mover.opponent, kings=-kings, men=-men)
        self.events.append(Event(MoveKind.CAPTURE, self.material, self.ply + 1))
        return self

    def done(self) -> tuple[Event, ...]:
        return tuple(self.events)


def _changed(material: Material, side: Side, kings: int = 0, men: int = 0) -> Material:
    wk, wm, bk, bm = material.white_kings, material.white_men, material.black_kings, material.black_men
    if side is Side.WHITE:
        return Material(wk + kings, wm + men, bk, bm)
    return Material(wk, wm, bk + kings, bm + men)


def _material(strong: Side, kings: int, men: int, weak_kings: int, weak_men: int) -> Material:
    """The material with ``strong`` having ``kings`` and ``men``, the other side the rest."""
    if strong is Side.WHITE:
        return Material(kings, men, weak_kings, weak_men)
    return Material(weak_kings, weak_men, kings, men)


def _side(rng: random.Random) -> Side:
    return rng.choice((Side.WHITE, Side.BLACK))


def _start(material: Material, turn: Side) -> Start:
    return Start(material, turn)


# -- the scenarios -------------------------------------------------------------------------------


def _cycle(placements: Sequence[int]) -> Callable[[random.Random], Plan]:
    """King moves visiting ``placements`` (the ply each first occurred; a new one: its own ply)."""
    returns = tuple(ply for ply, first in enumerate(placements, start=1) if first != ply)

    def plan(rng: random.Random) -> Plan:
        strong = _side(rng)
        material = _material(strong, rng.choice((2, 3)), 0, 2, 0)
        events = _Events(material, _side(rng))
        for ply, first in enumerate(placements, start=1):
            events.kings(1) if first == ply else events.back_to(first)
        return Plan(_start(material, events.turn), events.done(), returns)

    return plan


def _no_progress(kind: str) -> Callable[[random.Random], Plan]:
    """Fifty plies of king moves (6.2), after ``kind`` at a chosen ply (or from the setup)."""

    def plan(rng: random.Random) -> Plan:
        side = _side(rng)
        turn = _side(rng)
        if kind == "kings":
            material = rng.choice((Material(2, 0, 2, 0), Material(3, 0, 2, 0), Material(2, 1, 2, 1)))
            events = _Events(material, turn).kings(50)
            return Plan(_start(material, turn), events.done(), (50,))
        at = rng.randint(6, 28)
        if kind == "man-move":
            material = Material(2, 1, 2, 1)
            events = _Events(material, turn).kings(at - 1).man()
        elif kind == "capture":
            material = Material(3, 0, 3, 0)
            events = _Events(material, turn).kings(at - 1).until(side).capture(kings=1)
        else:  # a promotion
            material = _material(side, 2, 1, 2, 0)
            events = _Events(material, turn).kings(at - 1).until(side).promote()
        reset = events.ply
        events.kings(50)
        return Plan(_start(material, turn), events.done(), (50, reset + 50))

    return plan


def _arising(article: str, how: str) -> Callable[[random.Random], Plan]:
    """An ending of 6.3 or 6.4 arising at a chosen ply by a capture or a promotion, then its count."""
    plies = 32 if article == "6.3" else 10
    strong_kings = 3 if article == "6.3" else 2

    def plan(rng: random.Random) -> Plan:
        strong, turn = _side(rng), _side(rng)
        weak = strong.opponent
        at = rng.randint(2, 16) if how == "capture" else rng.randint(1, 4)  # a lone man is soon taken
        if how == "capture" and rng.random() < 0.5:  # the strong side takes the weak side's second piece
            kings = 1 if article == "6.4" and rng.random() < 0.5 else strong_kings  # K v K too
            material = _material(strong, kings, 0, 2, 0)
            events = _Events(material, turn).kings(at - 1).until(strong).capture(kings=1)
        elif how == "capture":  # the lone king takes one of the strong side's pieces (from ply 4 on:
            # see _group_change, which it is for 6.4)
            material = _material(strong, strong_kings + 1, 0, 1, 0)
            events = _Events(material, turn).kings(max(at, 4) - 1).until(weak).capture(kings=1)
        else:  # the weak side's lone man steps forward and is crowned (it has no king to move)
            kings = 1 if article == "6.4" and rng.random() < 0.5 else strong_kings
            material = _material(strong, kings, 0, 0, 1)
            events = _Events(material, turn)
            while events.ply < at - 1 or events.mover is not weak:
                events.man() if events.mover is weak else events.kings(1)
            events.promote()
        arose = events.ply
        events.kings(plies)
        return Plan(_start(material, turn), events.done(), (plies, arose, arose + plies))

    return plan


def _inside(article: str) -> Callable[[random.Random], Plan]:
    """An ending present at setup with a man move or a promotion inside its count (reading
    ``endgame-no-restart``); the control: the same setup, king moves only."""
    plies = 32 if article == "6.3" else 10

    def plan(rng: random.Random) -> Plan:
        strong, turn = _side(rng), _side(rng)
        material = _material(strong, 2 if article == "6.3" else 1, 1, 1, 0)
        events = _Events(material, turn).kings(rng.randint(1, plies // 2)).until(strong)
        events.promote() if rng.random() < 0.5 else events.man()
        events.kings(plies - events.ply)
        control = _Events(material, turn).kings(plies).done()
        return Plan(_start(material, turn), events.done(), (plies,), control, (plies,))

    return plan


def _group_change(rng: random.Random) -> Plan:
    """6.3 at setup, then the lone king takes a piece: 6.4's count starts (``endgame-group-change``)."""
    strong, turn = _side(rng), _side(rng)
    material = _material(strong, 3, 0, 1, 0)
    # From ply 4 on: a count carried on from 6.3 (reading endgame-group-change read the other way)
    # then draws at ply 10 or at the capture, never where 6.4's count two plies short would.
    events = _Events(material, turn).kings(rng.randint(3, 20)).until(strong.opponent).capture(kings=1)
    arose = events.ply
    events.kings(10)
    return Plan(_start(material, turn), events.done(), (10, arose, arose + 10))


def _win_on_expiry(rng: random.Random) -> Plan:
    """The strong side blocks the lone king (7.2.3) on the ply its count expires (``win-beats-draw``;
    taking the lone king would end the ending, so the win is a block); the control: the same
    setup, the count expiring with a king move that blocks nothing. Only 6.3: two pieces cannot
    shut a lone king in with their last move (it would have had a capture the ply before)."""
    plies = 32
    strong = _side(rng)
    turn = strong.opponent  # the strong side plays the even plies, the last one included
    material = _material(strong, 3, 0, 1, 0)
    events = _Events(material, turn).kings(plies - 1).done()
    blocked = (*events, Event(MoveKind.KING_MOVE, material, plies, blocked=True))
    control = _Events(material, turn).kings(plies).done()
    return Plan(_start(material, turn), blocked, (plies,), control, (plies,))


def _precedence(rng: random.Random) -> Plan:
    """6.4 at setup and the third occurrence of the setup placement on its tenth ply
    (``draw-precedence``); the control: the same setup, the third occurrence at ply 8 alone."""
    strong, turn = _side(rng), _side(rng)
    material = _material(strong, 2, 0, 1, 0)
    events = _Events(material, turn).kings(3).back_to(0).kings(5).back_to(0)
    control = _Events(material, turn).kings(3).back_to(0).kings(3).back_to(0).done()
    return Plan(_start(material, turn), events.done(), (4, 10), control, (4, 8))


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str
    article: str
    """The rule it is steered to: an article, or the reading of cases/articles.yaml it rests on."""
    plan: Callable[[random.Random], Plan]
    flying: bool = False
    """It needs long king moves (an odd cycle of one side: three moves along one diagonal)."""


SCENARIOS: Final[tuple[Scenario, ...]] = (
    Scenario("6.1-cycle", "6.1", _cycle([1, 2, 3, 0, 5, 6, 7, 0])),
    Scenario("6.2-man-move", "6.2", _no_progress("man-move")),
    Scenario("6.3-capture", "6.3", _arising("6.3", "capture")),
    Scenario("6.4-capture", "6.4", _arising("6.4", "capture")),
    Scenario("6.3-inside", "endgame-no-restart", _inside("6.3")),
    Scenario("6.2-capture", "6.2", _no_progress("capture")),
    Scenario("6.1-side-to-move", "6.1", _cycle([1, 2, 3, 0, 5, 6, 7, 8, 0, 10, 11, 12, 13, 0]), flying=True),
    Scenario("win-on-expiry", "win-beats-draw", _win_on_expiry, flying=True),
    Scenario("6.3-to-6.4", "endgame-group-change", _group_change),
    Scenario("6.2-promotion", "6.2", _no_progress("promotion")),
    Scenario("6.4-promotion", "6.4", _arising("6.4", "promotion")),
    Scenario("6.1-apart", "6.1", _cycle([1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 0])),
    Scenario("6.4-inside", "endgame-no-restart", _inside("6.4")),
    Scenario("6.3-promotion", "6.3", _arising("6.3", "promotion")),
    Scenario("6.2-kings", "6.2", _no_progress("kings")),
    Scenario("precedence", "draw-precedence", _precedence, flying=True),
)
"""The scenarios, in the order the ``draws`` positions of a run take them (round ``r``: ``r % 16``)."""

SCENARIO_NAMES: Final = tuple(scenario.name for scenario in SCENARIOS)

ATTEMPTS: Final = 12
"""Plans tried (each with its own random start positions) before a scenario gives up."""


class CampaignError(RuntimeError):
    """No game was found for a scenario within its attempts (a bug of the scenario)."""


def asked_plies(boundaries: Sequence[int], length: int) -> tuple[int, ...]:
    """The prefixes asked: around each boundary ``b``, ``b - 2`` to ``b + 1``, within the game."""
    return tuple(sorted({b + d for b in boundaries for d in (-2, -1, 0, 1) if 1 <= b + d <= length}))


def _texts(position: Position, moves: Sequence[Move]) -> tuple[str, ...] | None:
    """The moves as PDN text, or None if the game ends before its last move (then it is no use)."""
    game = Game(position)
    try:
        for move in moves:
            game.play(move)
    except GameOverError:
        return None
    return tuple(game.move_texts())


def _taken_back(
    plan: Plan, rng: random.Random, tries: int = 1000
) -> tuple[Position, tuple[Move, ...]] | None:
    """A game for a plan of king moves ending in a blocked position, found by taking king moves
    back from a blocked position (the forward search rarely walks into one)."""
    start, events = plan.start, plan.events
    final_turn = start.turn if len(events) % 2 == 0 else start.turn.opponent
    m = start.material
    for _ in range(tries):
        position = blocked_position(
            Color.WHITE if final_turn is Side.WHITE else Color.BLACK,
            (m.white_kings, m.white_men, m.black_kings, m.black_men),
            rng,
        )
        hint: list[Move] = []
        for _ in events:
            if position is None:
                break
            step = next(
                (s for s in (take_back(position, rng, [MoveKind.KING_MOVE]) for _ in range(12)) if s), None
            )
            position, hint = (None, hint) if step is None else (step[0], [step[1], *hint])
        if position is None:
            continue
        moves = realise_from(position, events, seed=rng.randrange(1 << 32), nodes=200, hint=hint)
        if moves is not None:
            return position, moves
    return None


@functools.lru_cache(maxsize=4096)
def draw_game(seed: int, index: int, round_: int) -> DrawGame:
    """The steered game of ``draws`` position ``index`` of seed ``seed`` (its ``round_``-th such).

    Remembered (the search costs tens of milliseconds; a game is immutable): runs of several
    engines over one seed in a process search each game once."""
    rng = random.Random(f"draughts-conformance verify draws {seed} {index}")
    for turn in range(len(SCENARIOS)):  # a scenario that finds no game gives its turn to the next
        scenario = SCENARIOS[(round_ + turn) % len(SCENARIOS)]
        game = _steered(scenario, rng)
        if game is not None:
            return game
    raise CampaignError(f"no game found for any draw scenario (seed {seed}, index {index})")


def _steered(scenario: Scenario, rng: random.Random) -> DrawGame | None:
    """A game for ``scenario`` within :data:`ATTEMPTS` plans, or None."""
    steps = not scenario.flying and rng.random() < 0.5
    for _ in range(ATTEMPTS):
        plan = scenario.plan(rng)
        if plan.events[-1].blocked:
            found = _taken_back(plan, rng)
        else:
            realised = realise(
                plan.start, plan.events, steps_only=steps, seed=rng.randrange(1 << 32), starts=30, nodes=2000
            )
            found = None if realised is None else (realised.position, realised.moves)
        if found is None:
            continue
        position = found[0]
        moves = _texts(position, found[1])
        control: tuple[str, ...] | None = ()
        if plan.control:
            played = realise_from(position, plan.control, steps_only=steps, seed=rng.randrange(1 << 32))
            control = None if played is None else _texts(position, played)
        if moves is None or control is None:
            continue
        return DrawGame(
            scenario.name,
            scenario.article,
            position,
            moves,
            asked_plies(plan.boundaries, len(moves)),
            steps,
            control,
            asked_plies(plan.control_boundaries, len(control)),
        )
    return None
