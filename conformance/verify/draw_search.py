"""The z3 search for the shortest event sequences on which two readings of Art. 6 end differently.

Two :class:`~conformance.verify.draw_machine.DrawMachine` over one
:class:`~conformance.verify.draw_smt.EventTrace` -- the project's reading and a
:class:`~conformance.verify.draw_readings.Reading` -- are deepened ply by ply until their outcomes
can differ while both games go on before the last ply; :func:`abstract_differences` offers those
sequences, shortest first and easiest to play first (few pieces, no blocked position, no capture,
...), never one asking for a blocked position no search could build (:func:`blocked_possible`).
Making one a game on the board is :mod:`conformance.verify.draw_realise`'s.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence

import z3

from conformance.core.draw_events import PROJECT, Event, Material, Side, Start
from conformance.verify.draw_bmc import ModelUnknownError
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_readings import Reading
from conformance.verify.draw_setups import blocked_position
from conformance.verify.draw_smt import CAPTURE, KINDS, LOGIC, MAN_MOVE, PROMOTION, EventTrace, ite
from oracle.position import Color

__all__ = ["abstract_differences", "blocked_possible"]


class _Pair:
    """The project's machine and the other reading's over one trace, deepened ply by ply.

    Everything is added to the solver for good; what holds for one length only hangs on a
    literal (``differ{n}``, ``prefer{n}_{i}``) passed as an assumption."""

    def __init__(self, reading: Reading, default_counters: bool, timeout_ms: int, played: bool) -> None:
        self.solver = z3.SolverFor(LOGIC)
        self.solver.set("timeout", timeout_ms)
        self.trace = EventTrace(self.solver, default_counters=default_counters, played=played)
        self.ours = DrawMachine(self.trace, PROJECT, "a")
        self.theirs = DrawMachine(self.trace, reading.model, "b")
        self.reading = reading
        self.default_counters = default_counters
        self.diagonal = reading.model.long_diagonal_moves is not None
        self.nogoods: list[Callable[[int], z3.BoolRef]] = []
        if not default_counters:
            self.solver.add(self.ours.setup_valid(), self.theirs.setup_valid())
        self._ply_facts(0)

    def _ply_facts(self, t: int) -> None:
        if not self.diagonal:  # the attribute matters to neither reading: one value, no alternatives
            self.solver.add(z3.Not(self.trace.plies[t].diag))
        for nogood in self.nogoods:
            self.solver.add(nogood(t))

    def forbid(self, nogood: Callable[[int], z3.BoolRef]) -> None:
        """Rule something out at every ply, now and deeper."""
        self.nogoods.append(nogood)
        for t in range(self.trace.depth + 1):
            self.solver.add(nogood(t))

    def deepen(self) -> int:
        t = self.trace.depth
        self.solver.add(self.ours.ongoing(t), self.theirs.ongoing(t))
        self.trace.grow()
        self.ours.grow()
        self.theirs.grow()
        self._ply_facts(t + 1)
        return t + 1

    def check(self, *assumptions: z3.BoolRef) -> bool:
        answer = self.solver.check(*assumptions)
        if answer == z3.unknown:
            raise ModelUnknownError(f"z3 answered unknown ({self.solver.reason_unknown()})")
        return bool(answer == z3.sat)

    def preferences(self, n: int) -> list[list[z3.BoolRef]]:
        """What makes a game easy to play and to read, most important first; each entry lists
        ways to have it, best first (the first one that can be had is taken)."""
        trace = self.trace
        plies = range(1, n + 1)
        pieces = [trace.to_move(0, "pieces"), trace.just_moved(0, "pieces")]

        def at_most(kind: int, count: int) -> z3.BoolRef:
            return z3.Sum([ite(trace.kind_is(t, kind), 1, 0) for t in plies]) <= count

        wanted = [[z3.And([p <= 3 for p in pieces])]]
        if not self.default_counters:
            wanted += [[trace.occurrences0 == 1], [trace.endgame0 == 0], [trace.no_progress0 == 0]]
        wanted.append([z3.And([z3.Not(trace.plies[t].blocked) for t in range(n)])])
        if self.diagonal:
            wanted.append([z3.And([z3.Not(trace.plies[t].diag) for t in range(n)])])
        for kind in (CAPTURE, PROMOTION, MAN_MOVE):
            wanted.append([at_most(kind, count) for count in (0, 1, 2, 4)])
        wanted.append([z3.And([trace.plies[t].placement == t for t in plies])])
        wanted.append([z3.Not(trace.plies[n].blocked)])
        wanted.append([z3.And([p <= 2 for p in pieces])])
        return wanted

    def same_shape(self, start: Start, events: Sequence[Event]) -> z3.BoolRef:
        """The trace has the side to move, kinds, material and blocked plies of ``start``/``events``."""
        trace = self.trace
        facts = [trace.white_first == (start.turn is Side.WHITE)]
        for t, material in enumerate([start.material, *(e.material for e in events)]):
            facts += [
                trace.white(t, "kings") == material.white_kings,
                trace.white(t, "men") == material.white_men,
                trace.black(t, "kings") == material.black_kings,
                trace.black(t, "men") == material.black_men,
                trace.plies[t].blocked == (start.blocked if t == 0 else events[t - 1].blocked),
            ]
        for t, event in enumerate(events, start=1):
            facts += [trace.kind_is(t, KINDS.index(event.kind)), trace.plies[t].by_man == event.by_man]
        return z3.And(facts)

    def screen_blocked(self, start: Start, events: Sequence[Event]) -> bool:
        """Whether every blocked position the sequence asks for can exist at all; rules out, at
        every ply and depth, the materials for which none was found."""
        fine = True
        turn = start.turn
        for t, (material, blocked) in enumerate(
            [(start.material, start.blocked), *((e.material, e.blocked) for e in events)]
        ):
            side = turn if t % 2 == 0 else turn.opponent
            if blocked and not blocked_possible(material, side):
                fine = False
                self.forbid(functools.partial(self._blocked_with, material, side))
        return fine

    def _blocked_with(self, material: Material, side: Side, t: int) -> z3.BoolRef:
        trace = self.trace
        white = trace.white_to_move(t) if side is Side.WHITE else z3.Not(trace.white_to_move(t))
        return z3.Not(
            z3.And(
                trace.plies[t].blocked,
                white,
                trace.white(t, "kings") == material.white_kings,
                trace.white(t, "men") == material.white_men,
                trace.black(t, "kings") == material.black_kings,
                trace.black(t, "men") == material.black_men,
            )
        )


@functools.cache
def blocked_possible(material: Material, side: Side, tries: int = 400) -> bool:
    """Whether a position with ``material`` in which ``side`` (to move) is blocked was found."""
    rng = random.Random(0)
    color = Color.WHITE if side is Side.WHITE else Color.BLACK
    counts = (material.white_kings, material.white_men, material.black_kings, material.black_men)
    return any(blocked_position(color, counts, rng) is not None for _ in range(tries))


def abstract_differences(
    reading: Reading,
    *,
    default_counters: bool = True,
    max_depth: int = 64,
    alternatives: int = 4,
    extra_depth: int = 2,
    timeout_ms: int = 120_000,
) -> Iterator[tuple[Start, list[Event]]]:
    """Event sequences on which the project's reading and ``reading`` end differently, shortest
    first: up to ``alternatives`` at the shortest length and at each of ``extra_depth`` more. The
    shortest length is found on the plain abstraction, the sequences on the finer one of games
    played on the board (``EventTrace(played=True)``).
    Each later one differs from the earlier in side to move, kinds, material or blocked plies;
    a blocked position no search could build is not offered."""
    coarse = _Pair(reading, default_counters, timeout_ms, played=False)
    while coarse.trace.depth < max_depth:  # the shortest length, on the cheaper abstraction
        n = coarse.deepen()
        if coarse.check(z3.Not(coarse.ours.same_outcome(coarse.theirs, n))):
            break
    else:
        return
    pair = _Pair(reading, default_counters, timeout_ms, played=True)
    while pair.trace.depth < n - 1:
        pair.deepen()
    shortest = None
    while pair.trace.depth < max_depth:
        n = pair.deepen()
        if shortest is not None and n > shortest + extra_depth:
            return
        differ = z3.Bool(f"differ{n}")
        pair.solver.add(z3.Implies(differ, z3.Not(pair.ours.same_outcome(pair.theirs, n))))
        offered = 0
        while offered < alternatives and pair.check(differ):
            shortest = n if shortest is None else shortest
            accepted = [differ]
            for index, ways in enumerate(pair.preferences(n)):
                for way, preference in enumerate(ways):
                    literal = z3.Bool(f"prefer{n}_{offered}_{index}_{way}")
                    pair.solver.add(z3.Implies(literal, preference))
                    if pair.check(*accepted, literal):
                        accepted.append(literal)
                        break
            pair.check(*accepted)
            start, events = pair.trace.decode(pair.solver.model())
            pair.solver.add(z3.Implies(differ, z3.Not(pair.same_shape(start, events))))
            if pair.screen_blocked(start, events):
                offered += 1
                yield start, events
