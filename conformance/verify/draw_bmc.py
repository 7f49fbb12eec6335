"""Bounded model checking of the draw bookkeeping: the machine proved against the rules over all games.

Each :class:`Property` is a statement about *every* event sequence from a game start (any
material, either side to move, default counters), checked by z3 at every ply up to a depth: at
ply ``t`` of a game the machine has not ended before ``t`` the statement must hold. A statement
relates what the machine (:class:`~conformance.verify.draw_machine.DrawMachine`) says -- its
counters, its outcome -- to :class:`~conformance.verify.draw_spec.Spec`, the project's readings
stated over the raw history with helpers of its own ("the last 32 positions were all endings of
the 6.3 group", "the last 50 plies were all king moves"). There is one property per reading and
per switch of Art. 6 in the configuration (:class:`~conformance.core.draw_events.DrawRules`),
each a formula of its own, plus the one definition both sides share (the group of an ending) and
the counts, and every property comes with

* ``controls``: the same statement over a machine with its reading flipped (on each article the
  reading reads: :meth:`DrawRules.read_otherwise`) or a fact of the game dropped, on which z3 must
  find a counterexample -- the evidence that the proof has teeth;
* ``witnesses``: plies at which the statement is not vacuous (e.g. a 6.3 draw with a man move
  inside its count), each of which z3 must reach within the depth.

:mod:`conformance.verify.draw_mutation` goes further: every piece of the machine broken in turn
must make some property fail. :func:`prove` runs one property (with a control, or on a mutant
machine) to a depth; :data:`~conformance.verify.draw_properties.PROPERTIES` lists them; :data:`SMALL` has short counts for quick runs
of the same statements (their text follows the counts).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Final

import z3

from conformance.core.draw_events import (
    GROUP_6_3,
    GROUP_6_4,
    PROJECT,
    DrawOutcome,
    DrawRules,
    Event,
    Start,
)
from conformance.core.errors import IncompleteError
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_smt import (
    LOGIC,
    EventTrace,
)
from conformance.verify.draw_spec import Spec

DEFAULT_TIMEOUT_MS: Final = 600_000


class ModelUnknownError(IncompleteError):
    """z3 answered ``unknown`` (time-out, resource limit): no proof either way."""


SMALL: Final = DrawRules(
    no_progress_moves=8,
    groups=(dataclasses.replace(GROUP_6_3, moves_each=5), dataclasses.replace(GROUP_6_4, moves_each=4)),
)
"""The project's readings with short counts (6.2: 8 moves each, 6.3: 5, 6.4: 4), for quick runs:
6.2 long enough for a position to occur three times with an occurrence of the other side to move
in between, 6.3 and 6.4 long enough (8 plies) for a third occurrence to fall on their last ply."""

Statement = Callable[[Spec, DrawMachine, int], z3.BoolRef]


@dataclasses.dataclass(frozen=True)
class Witness:
    """A ply at which a statement is not vacuous: what it shows, and the condition."""

    name: str
    holds: Statement


@dataclasses.dataclass(frozen=True)
class Control:
    """A negative control: the property over a machine with a reading flipped, or a fact dropped."""

    name: str
    flip: Callable[[DrawRules], DrawRules] = lambda rules: rules
    min_return_plies: int = 4
    dropped: frozenset[str] = frozenset()


@dataclasses.dataclass(frozen=True)
class Property:
    """One reading or switch of Art. 6 stated over all games (see the module docstring)."""

    name: str
    reading: str
    """The reading of ``cases/articles.yaml``, or the article or definition, it states."""
    text: Callable[[DrawRules], str]
    """The statement in words, for the counts of the rules it is proved under."""
    holds: Statement
    witnesses: tuple[Witness, ...]
    controls: tuple[Control, ...]
    assumes: tuple[Property, ...] = ()
    """Properties whose statements are taken as facts at every ply (each is proved on its own, for
    the same machine, rules and depth): the proofs compose, and the solver need not derive again
    what another property proves."""

    def statement(self, rules: DrawRules) -> str:
        return self.text(rules)


@dataclasses.dataclass(frozen=True)
class Counterexample:
    """A game (abstract) on which a statement fails at ``ply``."""

    ply: int
    start: Start
    events: tuple[Event, ...]
    outcomes: tuple[DrawOutcome, ...]

    def __str__(self) -> str:
        moves = ", ".join(f"{e.kind.value} -> {e.material}" for e in self.events)
        return f"at ply {self.ply}: start {self.start.material} ({self.start.turn.value} to move); {moves}"


@dataclasses.dataclass(frozen=True)
class BmcResult:
    """What :func:`prove` found: a proof to ``depth`` or a counterexample, and the witnesses."""

    name: str
    control: str | None
    depth: int
    counterexample: Counterexample | None
    witnesses: tuple[tuple[str, int | None], ...]
    """Each witness and the first ply it was reached at (None: not within the depth)."""
    seconds: float
    seconds_per_depth: tuple[float, ...]

    @property
    def proved(self) -> bool:
        return self.counterexample is None

    @property
    def witness_ply(self) -> int | None:
        """The ply by which every witness was reached (None if one was not)."""
        plies = [ply for _, ply in self.witnesses]
        return None if any(ply is None for ply in plies) else max(plies, default=0)  # type: ignore[type-var]

    @property
    def unwitnessed(self) -> list[str]:
        return [name for name, ply in self.witnesses if ply is None]


def _check(solver: z3.Solver) -> bool:
    answer = solver.check()
    if answer == z3.unknown:
        raise ModelUnknownError(f"z3 answered unknown ({solver.reason_unknown()})")
    return bool(answer == z3.sat)


def prove(
    prop: Property,
    depth: int,
    rules: DrawRules = PROJECT,
    control: Control | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    *,
    machine: type[DrawMachine] = DrawMachine,
    witnesses: bool = True,
) -> BmcResult:
    """Check ``prop`` at every ply 0..``depth`` of every game from a game start under ``rules``
    (with ``control`` applied to the machine's rules and the trace's facts, if given; ``machine``:
    a mutant of the machine): a proof or a counterexample.

    The statement is always that of ``rules`` (the :class:`Spec`); a control only changes the
    machine and the trace. The statements of the properties ``prop`` assumes are added as facts
    at every ply. The witnesses are looked for (``witnesses``) until each is found."""
    began = time.perf_counter()
    solver = z3.SolverFor(LOGIC)
    solver.set("timeout", timeout_ms)
    trace = EventTrace(
        solver,
        min_return_plies=control.min_return_plies if control else 4,
        dropped=control.dropped if control else frozenset(),
    )
    built = machine(trace, control.flip(rules) if control else rules)
    spec = Spec(trace, rules)
    found: dict[str, int | None] = {w.name: None for w in prop.witnesses} if witnesses else {}
    per_depth: list[float] = []

    def result(counterexample: Counterexample | None, reached: int) -> BmcResult:
        return BmcResult(
            prop.name,
            control.name if control else None,
            reached,
            counterexample,
            tuple(found.items()),
            time.perf_counter() - began,
            tuple(per_depth),
        )

    for t in range(depth + 1):
        step = time.perf_counter()
        if t:
            solver.add(built.ongoing(t - 1))
            trace.grow()
            built.grow()
        for assumed in prop.assumes:
            solver.add(assumed.holds(spec, built, t))
        holds = prop.holds(spec, built, t)
        solver.push()
        solver.add(z3.Not(holds))
        if _check(solver):
            start, events = trace.decode(solver.model())
            counterexample = Counterexample(t, start, tuple(events), tuple(built.decode(solver.model())))
            solver.pop()
            per_depth.append(time.perf_counter() - step)
            return result(counterexample, t)
        solver.pop()
        for witness in prop.witnesses if witnesses else ():
            if found[witness.name] is None:
                solver.push()
                solver.add(witness.holds(spec, built, t))
                if _check(solver):
                    found[witness.name] = t
                solver.pop()
        per_depth.append(time.perf_counter() - step)
    return result(None, depth)
