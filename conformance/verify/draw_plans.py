"""The abstract games of the draw campaigns: every timing of :mod:`conformance.verify.draw_phases`.

A :class:`~conformance.verify.draw_templates.Template` names a count (6.2, 6.3 or 6.4) and places
events in it, each at a phase (:mod:`conformance.verify.draw_templates` has them all).
:func:`plan` turns a template into a :class:`Plan` -- a start and one event per ply of the
verifier's draw model (:mod:`conformance.core.draw_events`), the plies whose outcome is asked
(around each boundary a count has or would have under another reading), the cells it asks, and the
*control* games from the same setup that pin each count a reading's answer could be confused with
(a count of the wrong length fails the control; a reading read the other way passes it and fails
the game, and only then is the disagreement filed under the reading,
:mod:`conformance.core.filing.outcomes`). The exact ply within a phase, the sides and the material
are drawn from ``rng``; the phases are the template's.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Final

from conformance.core.draw_events import Event, Material, MoveKind, Side, Start
from conformance.verify.draw_phases import (
    CAPTURE,
    COUNTS,
    DIAGONAL,
    GROUP_CHANGE,
    LONE_MAN_CROWNED,
    MAN_MOVE,
    PROMOTION,
    REPEAT_FROM,
    REPETITION,
    WIN,
    Cell,
    phase_range,
)
from conformance.verify.draw_templates import DRAW, Step, Template


@dataclasses.dataclass(frozen=True)
class Plan:
    """A template's abstract game: the start, the events, the plies asked, the cells, the controls."""

    start: Start
    events: tuple[Event, ...]
    boundaries: tuple[int, ...]
    cells: tuple[Cell, ...]
    controls: tuple[tuple[tuple[Event, ...], tuple[int, ...]], ...] = ()
    """Games from the same setup, each with its boundaries, asked before this one."""
    diagonal: bool = False
    """The long-diagonal attribute matters (the realisation must match it at every ply)."""


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
        """The side that plays the next ply."""
        return self.turn if self.ply % 2 == 0 else self.turn.opponent

    def add(self, kind: MoveKind, placement: int | None = None, **attributes: bool) -> _Events:
        new = self.ply + 1 if placement is None else placement
        self.events.append(Event(kind, self.material, new, **attributes))
        return self

    def quiet(self, until: int, weak_man: Side | None = None, diagonal: range = range(0)) -> _Events:
        """King moves (the ``weak_man`` side's man moves) to new placements until ``until`` plies;
        the lone king on the long diagonal on the plies of ``diagonal``."""
        while self.ply < until:
            man = self.mover is weak_man
            self.add(MoveKind.MAN_MOVE if man else MoveKind.KING_MOVE, long_diagonal=self.ply + 1 in diagonal)
        return self

    def man(self) -> _Events:
        return self.add(MoveKind.MAN_MOVE)

    def promote(self) -> _Events:
        self.material = _changed(self.material, self.mover, kings=1, men=-1)
        return self.add(MoveKind.PROMOTION)

    def capture(self, kings: int = 0, men: int = 0) -> _Events:
        """The side to move takes ``kings`` kings and ``men`` men, with a king."""
        self.material = _changed(self.material, self.mover.opponent, kings=-kings, men=-men)
        return self.add(MoveKind.CAPTURE)

    def repeat(self, at: int) -> _Events:
        """King moves bringing the position of ply ``at - 8`` back at ``at - 4`` and ``at``."""
        self.quiet(at - 8)
        first = self.ply
        self.quiet(at - 5).add(MoveKind.KING_MOVE, first).quiet(at - 1)
        return self.add(MoveKind.KING_MOVE, first)

    def repeat_across_sides(self, at: int) -> _Events:
        """A third occurrence at ``at`` with an occurrence of the other side to move between (one
        side's king goes round three squares of a diagonal: long moves): plies ``at - 14`` .. ``at``."""
        self.quiet(at - 14)
        first = self.ply
        self.quiet(at - 11).add(MoveKind.KING_MOVE, first).quiet(at - 6).add(MoveKind.KING_MOVE, first)
        return self.quiet(at - 1).add(MoveKind.KING_MOVE, first)

    def reset(self, event: str) -> _Events:
        """A man move, a promotion or a capture (of a king, with a king) by the side to move."""
        if event == MAN_MOVE:
            return self.man()
        if event == PROMOTION:
            return self.promote()
        return self.capture(kings=1)

    def done(self) -> tuple[Event, ...]:
        return tuple(self.events)


def _changed(material: Material, side: Side, kings: int = 0, men: int = 0) -> Material:
    wk, wm, bk, bm = material.white_kings, material.white_men, material.black_kings, material.black_men
    if side is Side.WHITE:
        return Material(wk + kings, wm + men, bk, bm)
    return Material(wk, wm, bk + kings, bm + men)


def _material(strong: Side, kings: int, men: int, weak_kings: int, weak_men: int) -> Material:
    """``strong`` has ``kings`` and ``men``, the other side ``weak_kings`` and ``weak_men``."""
    if strong is Side.WHITE:
        return Material(kings, men, weak_kings, weak_men)
    return Material(weak_kings, weak_men, kings, men)


def _around(*boundaries: int) -> tuple[int, ...]:
    return tuple(sorted({b for b in boundaries if b > 0}))


class _Placing:
    """Chooses the ply of each event within its phase, in order, with the side that plays it:
    the side to move at the setup is fixed by the first event whose ply is forced."""

    def __init__(self, rng: random.Random, turn: Side | None = None) -> None:
        self.rng = rng
        self.turn = turn
        self.last = 0

    def mover(self, ply: int) -> Side:
        assert self.turn is not None
        return self.turn if ply % 2 == 1 else self.turn.opponent

    def at(self, rule: str, phase: str, event: str, start: int, side: Side | None, after: int = 1) -> int:
        """The game ply of ``event`` at ``phase`` of ``rule``'s count started at ply ``start``,
        at least ``after`` plies after the previous event, played by ``side`` (None: either)."""
        plies = [start + k for k in phase_range(rule, phase, event) if start + k >= self.last + after]
        return self.among(plies, side, f"a {event} at {phase} of {rule}'s count")

    def among(self, plies: Sequence[int], side: Side | None, what: str = "an event") -> int:
        """One of ``plies`` (after the previous event), played by ``side`` (None: either)."""
        plies = [p for p in plies if p > self.last]
        if side is not None and self.turn is not None:
            plies = [p for p in plies if self.mover(p) is side]
        if not plies:
            raise ValueError(f"no ply for {what} after ply {self.last}")
        ply = self.rng.choice(plies)
        if side is not None and self.turn is None:
            self.turn = side if ply % 2 == 1 else side.opponent
        self.last = ply
        return ply


PLACINGS: Final = 40
"""Draws of the plies (within their phases) tried before a template is declared impossible."""


def plan(template: Template, rng: random.Random) -> Plan:
    """The abstract game of ``template`` (see the module docstring). Raises ValueError when no
    plies within the phases fit the sides that play them (a template that cannot be)."""
    for _ in range(PLACINGS):
        try:
            if template.rule == "6.2":
                return _no_progress_plan(template, rng)
            return _ending_plan(template, rng)
        except ValueError as error:
            why = error
    raise ValueError(f"template {template.name}: {why}")


# -- 6.2 ------------------------------------------------------------------------------------------


def _no_progress_plan(template: Template, rng: random.Random) -> Plan:
    """Resets at their phases, then the end; each count's would-be expiry is asked."""
    length = COUNTS["6.2"]
    end, end_phase = template.end
    place = _Placing(rng, rng.choice((Side.WHITE, Side.BLACK)))
    start, boundaries, cells, schedule = 0, [length], [], []
    for event, phase in template.steps:
        start = place.at("6.2", phase, event, start, None)
        schedule.append((start, event))
        cells.append(Cell("6.2", event, phase))
        boundaries.append(start + length)
    last = start + length
    if end != DRAW:
        after = (14 if template.flying else 8) if end == REPETITION else 1
        last = place.at("6.2", end_phase, end, start, None, after)
        cells.append(Cell("6.2", end, end_phase))
        boundaries.append(last)
    assert place.turn is not None
    material = Material(2, 2, 2, 2)
    if end == WIN:  # taken back from a blocked position: a lone king (and a man to move) is blocked
        # by four pieces (no ending of 6.3/6.4: the 6.2 count is what runs)
        blocker = place.mover(last)
        blocker_men = int(any(place.mover(ply) is blocker for ply, _ in schedule))
        blocked_men = int(any(place.mover(ply) is not blocker for ply, _ in schedule))
        material = _material(blocker, 4 - blocker_men, blocker_men, 1, blocked_men)
    events = _Events(material, place.turn)
    for ply, event in schedule:
        events.quiet(ply - 1).reset(event)
    if end == DRAW:
        events.quiet(last)
    elif end == REPETITION:
        events.repeat_across_sides(last) if template.flying else events.repeat(last)
    else:
        events.quiet(last - 1).add(MoveKind.KING_MOVE, blocked=True)
    game = events.done()
    controls: tuple[tuple[tuple[Event, ...], tuple[int, ...]], ...] = ()
    if end_phase == "boundary" and end != DRAW:  # pin the count: 50 king plies, nothing else
        controls = ((_Events(material, events.turn).quiet(length).done(), (length,)),)
    if end == REPETITION and end_phase == "boundary":  # and pin 6.1: a third occurrence alone
        controls += ((_Events(material, events.turn).repeat(REPEAT_FROM).done(), (REPEAT_FROM,)),)
    plies = _around(*(b for b in boundaries if b <= len(game)))
    return Plan(Start(material, events.turn), game, plies, tuple(cells), controls)


# -- 6.3 and 6.4 ------------------------------------------------------------------------------------


def _strong_material(rule: str, steps: tuple[Step, ...]) -> tuple[int, int]:
    """The strong side's kings and men at the setup: men enough for the man moves and promotions."""
    events = [event for event, _ in steps]
    if rule == "6.3":
        men = 2 if MAN_MOVE in events and PROMOTION in events else 1 if events else 0
        return 3 - men, men
    if MAN_MOVE in events or PROMOTION in events:
        return 1, 1
    return 2, 0


def _ending_plan(template: Template, rng: random.Random) -> Plan:
    rule, length = template.rule, COUNTS[template.rule]
    strong = rng.choice((Side.WHITE, Side.BLACK))
    weak = strong.opponent
    kings, men = _strong_material(rule, template.steps)
    lone_man = template.lone_man is not None
    weak_kings = 0 if lone_man else 2 if template.by_capture else 1
    material = _material(strong, kings, men, weak_kings, 1 if lone_man else 0)
    place = _Placing(rng)
    cells: list[Cell] = []
    start = 0
    crowned = 0
    if template.by_capture:
        start = place.among(range(2, 7), strong, "the capture that makes the ending arise")
    if template.lone_man is not None:  # the weak side's man moves until it is crowned
        crowned = place.at(rule, template.lone_man, LONE_MAN_CROWNED, 0, weak)
        cells.append(Cell(rule, LONE_MAN_CROWNED, template.lone_man))
        start = crowned
    plies: list[tuple[int, str]] = []
    for event, phase in template.steps:
        side = weak if event == CAPTURE else strong
        plies.append((place.at(rule, phase, event, start, side), event))
        cells.append(Cell(rule, event, phase))
    end, end_phase = template.end
    end_ply = start + length
    if end != DRAW:
        player = {WIN: strong, GROUP_CHANGE: weak}.get(end)
        after = 8 if end == REPETITION else 1
        try:  # a lone man: past where a count run against it would expire, where the phase allows
            outlast = length + 1 - place.last if lone_man else 0
            end_ply = place.at(rule, end_phase, end, start, player, max(after, outlast))
        except ValueError:
            end_ply = place.at(rule, end_phase, end, start, player, after)
        cells.append(Cell(rule, end, end_phase))
    if place.turn is None:
        place.turn = rng.choice((Side.WHITE, Side.BLACK))
    events = _Events(material, place.turn)
    diagonal = range(end_ply, start + length + 1) if end == DIAGONAL else range(0)
    if crowned:
        events.quiet(crowned - 1, weak_man=weak).promote()
    if template.by_capture:
        events.quiet(start - 1).capture(kings=1)
    for ply, event in plies:
        inside = events.quiet(ply - 1)
        _lone_king_takes(inside) if event == CAPTURE else inside.reset(event)
    boundaries = [start + length, *(ply for ply, _ in plies)]
    if lone_man:
        boundaries.append(length)  # where a count run against the lone man would expire
    if end in (DRAW, DIAGONAL):
        events.quiet(start + length, diagonal=diagonal)
        if end == DIAGONAL:
            boundaries.append(end_ply)
    elif end == REPETITION:
        events.repeat(end_ply)
        boundaries.append(end_ply)
    elif end == WIN:
        events.quiet(end_ply - 1).capture(kings=1)
        boundaries.append(end_ply)
    else:  # the lone king takes a king: 6.4's count starts, and runs out
        _lone_king_takes(events.quiet(end_ply - 1)).quiet(end_ply + COUNTS["6.4"])
        boundaries += [end_ply, end_ply + COUNTS["6.4"]]
    game = events.done()
    setup = Start(material, place.turn, long_diagonal=False)
    controls = _ending_controls(template, material, place.turn, strong, start, rng)
    asked = _around(*(b for b in boundaries if b <= len(game)))
    return Plan(setup, game, asked, tuple(cells), controls, diagonal=end == DIAGONAL)


def _lone_king_takes(events: _Events) -> _Events:
    """The lone king takes a piece of the strong side: a man if it has one (a king must be left to
    move), else a king -- inside 6.4 (king against king is left), or from 6.3 into 6.4."""
    strong = events.mover.opponent
    men = events.material.men(strong)
    return events.capture(kings=0 if men else 1, men=1 if men else 0)


def _ending_controls(
    template: Template, material: Material, turn: Side, strong: Side, arose: int, rng: random.Random
) -> tuple[tuple[tuple[Event, ...], tuple[int, ...]], ...]:
    """The games that pin the counts a reading's answer could be confused with, from the setup
    (only for games where a reading is at stake: changes inside a group, a change of group, the
    long diagonal, a repetition or a win on the boundary):

    * the ending's count run out by king moves (a count of the wrong length fails it), and for a
      repetition on the boundary, a third occurrence alone (a repetition counted wrongly fails it);
    * for a change of group: the capture at ply 12-20 of 6.3's count, then 6.4's ten plies (a count
      carried into 6.4 draws at once, a 6.4 count of the wrong length a ply or two off);
    * where the ending arises by a capture (at ``arose`` in the game), it arises in the control at
      another ply (the game's next capture may be compulsory where the game has it);
    * a lone man: none can be had (from the same setup it is crowned at the same ply), so the
      phases of its crowning start at the third ply, where no count a ply or two off gives the
      answer of a count run against it."""
    length = COUNTS[template.rule]
    end, end_phase = template.end
    at_stake = template.steps or end in (GROUP_CHANGE, DIAGONAL) or (end != DRAW and end_phase == "boundary")
    if template.lone_man is not None or not at_stake:
        return ()
    place = _Placing(rng, turn)
    start = place.among([p for p in range(2, 9) if p != arose], strong) if template.by_capture else 0

    def setup() -> _Events:
        """From the setup to where the ending arises (by a capture at ``start``, if so)."""
        events = _Events(material, turn)
        return events.quiet(start - 1).capture(kings=1) if template.by_capture else events

    if end == GROUP_CHANGE:
        ply = place.among(range(start + 12, start + 21), strong.opponent)
        changed = _lone_king_takes(setup().quiet(ply - 1)).quiet(ply + COUNTS["6.4"])
        return ((changed.done(), (ply, ply + COUNTS["6.4"])),)
    pin = (setup().quiet(start + length).done(), (start + length,))
    if end == REPETITION:  # and pin 6.1: a third occurrence alone, before the count runs out
        return (pin, (setup().repeat(start + REPEAT_FROM).done(), (start + REPEAT_FROM,)))
    return (pin,)
