"""Bounded model checking of the draw bookkeeping: the readings of Art. 6 proved over all games.

Each :class:`Property` is a statement about *every* event sequence from a game start (any
material, either side to move, default counters), checked by z3 at every ply up to a depth: at
ply ``t`` of a game still going on at ``t - 1`` the statement must hold. The statements compare
the counters and outcome of :class:`~conformance.verify.draw_smt.DrawMachine` (the incremental
bookkeeping) with :class:`Spec`, the project's readings stated directly over the *history* of
the game -- "the last 32 positions were all endings of the 6.3 group", "the last 50 plies were
all king moves" -- so that a proof can fail: a count restarted or carried wrongly, an off-by-one,
a wrong precedence all break one. Every property comes with

* ``controls``: the same statement over a machine with one reading flipped (or one fact of the
  game dropped), on which z3 must find a counterexample -- the evidence that the proof has teeth;
* a ``witness``: a ply at which the statement is not vacuous (e.g. a 6.3 draw with a man move,
  a promotion or a capture inside its count), which z3 must reach within the depth.

:func:`prove` runs one property (or one control) to a depth; :data:`PROPERTIES` lists them and
:data:`SMALL` is a configuration with short counts for quick runs of the same statements.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Final

import z3

from conformance.verify.draw_events import (
    BLOCKED,
    GROUP_6_3,
    GROUP_6_4,
    NO_PIECES,
    NO_PROGRESS,
    PROJECT,
    REPETITION,
    DrawOutcome,
    DrawRules,
    Event,
    Group,
    Start,
    article_order,
)
from conformance.verify.draw_smt import (
    BLACK_WINS_CODE,
    CAPTURE,
    KING_MOVE,
    LOGIC,
    MAN_MOVE,
    PROMOTION,
    WHITE_WINS_CODE,
    DrawMachine,
    EventTrace,
    ite,
)

DEFAULT_TIMEOUT_MS: Final = 600_000


class ModelUnknownError(Exception):
    """z3 answered ``unknown`` (time-out, resource limit): no proof either way."""


SMALL: Final = DrawRules(
    no_progress_moves=8,
    groups=(dataclasses.replace(GROUP_6_3, moves_each=3), dataclasses.replace(GROUP_6_4, moves_each=2)),
)
"""The project's readings with short counts (6.2: 8 moves each, 6.3: 3, 6.4: 2), for quick runs
(6.2 long enough for a position to occur three times with an occurrence of the other side to
move in between)."""


class Spec:
    """rules.md's Art. 6 and 7.2 stated over the history of a trace from a game start.

    Counting a position's earlier occurrences from the history is what makes the solver work
    hardest, so only the property of 6.1 itself does (``count_repetitions``); the others read
    the 6.1 expiry from the machine's occurrence count, which that property proves equal to it
    at every ply (the proofs compose: each holds at every ply of the same bounded games).
    """

    def __init__(
        self, trace: EventTrace, rules: DrawRules, machine: DrawMachine, count_repetitions: bool
    ) -> None:
        self.trace = trace
        self.rules = rules
        self.machine = machine
        self.count_repetitions = count_repetitions

    def group(self, article: str) -> Group:
        return next(g for g in self.rules.groups if g.article == article)

    def in_group(self, ply: int, group: Group) -> z3.BoolRef:
        return self.trace.in_group(ply, group, self.rules.lone_king_only)

    def irreversible(self, ply: int) -> z3.BoolRef:
        return self.trace.kind_is(ply, MAN_MOVE, PROMOTION, CAPTURE)

    def expired(self, ply: int, article: str) -> z3.BoolRef:
        """The draw rule ``article`` holds at ``ply`` by the history alone:

        6.1 -- two earlier positions are this one (placement and side to move);
        6.2 -- the last 50 plies (all of them since the start) were king moves;
        6.3/6.4 -- the last L + 1 positions (L = the count in plies) were all endings of its group.
        """
        trace, rules = self.trace, self.rules
        if article == REPETITION:
            if rules.repetition_draw is None:
                return z3.BoolVal(False)
            if not self.count_repetitions:
                return self.machine.occurrences[ply] >= rules.repetition_draw
            same = [trace.same_key(i, ply) for i in range(ply)]
            return z3.AtLeast(*same, rules.repetition_draw - 1) if ply else z3.BoolVal(False)
        if article == NO_PROGRESS:
            limit = rules.no_progress_limit
            if limit is None or ply < limit:
                return z3.BoolVal(False)
            return z3.And([trace.kind_is(k, KING_MOVE) for k in range(ply - limit + 1, ply + 1)])
        group = self.group(article)
        limit = rules.group_limit(group)
        if ply < limit:
            return z3.BoolVal(False)
        return z3.And([self.in_group(k, group) for k in range(ply - limit, ply + 1)])

    def articles(self) -> list[str]:
        return sorted([REPETITION, NO_PROGRESS, *(g.article for g in self.rules.groups)], key=article_order)

    def no_pieces(self, ply: int) -> z3.BoolRef:
        return self.trace.to_move(ply, "pieces") == 0

    def loss(self, ply: int) -> z3.BoolRef:
        """7.2: the side to move has no piece, or all its pieces are blocked."""
        return z3.Or(self.no_pieces(ply), self.trace.plies[ply].blocked)

    def decides(self, ply: int, article: str) -> z3.BoolRef:
        """The outcome at ``ply`` must be a draw by ``article``: it expires, nobody has lost, and
        no lower article expires."""
        lower = [self.expired(ply, a) for a in self.articles() if article_order(a) < article_order(article)]
        return z3.And(self.expired(ply, article), z3.Not(self.loss(ply)), z3.Not(z3.Or(lower)))


Statement = Callable[[Spec, DrawMachine, int], z3.BoolRef]


@dataclasses.dataclass(frozen=True)
class Control:
    """A negative control: the property over a machine with one reading flipped."""

    name: str
    flip: Callable[[DrawRules], DrawRules]
    min_return_plies: int = 4


@dataclasses.dataclass(frozen=True)
class Property:
    """A reading of Art. 6 stated over all games (see the module docstring)."""

    name: str
    reading: str
    statement: str
    holds: Statement
    witness: Statement
    controls: tuple[Control, ...]
    counts_repetitions: bool = False


def _exact(article: str) -> Statement:
    def holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
        return machine.draw_by(t, article) == spec.decides(t, article)

    return holds


def _flip_group(article: str, **changes: object) -> Callable[[DrawRules], DrawRules]:
    def flip(rules: DrawRules) -> DrawRules:
        groups = tuple(
            dataclasses.replace(g, **changes) if g.article == article else g  # type: ignore[arg-type]
            for g in rules.groups
        )
        return dataclasses.replace(rules, groups=groups)

    return flip


def _no_restart_witness(article: str) -> Statement:
    def witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
        limit = spec.rules.group_limit(spec.group(article))
        inside = [spec.irreversible(k) for k in range(max(1, t - limit + 1), t + 1)]
        return z3.And(spec.decides(t, article), z3.Or(inside))

    return witness


def _from_6_3_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    limit = spec.rules.group_limit(spec.group("6.4"))
    if t - limit < 1:
        return z3.BoolVal(False)
    return z3.And(spec.decides(t, "6.4"), spec.in_group(t - limit - 1, spec.group("6.3")))


def _no_progress_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    limit = spec.rules.no_progress_limit
    if limit is None or t - limit < 1:
        return z3.BoolVal(False)
    return z3.And(spec.decides(t, NO_PROGRESS), spec.irreversible(t - limit))


def _repetition_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    other_turn = [spec.trace.same_key(i, t, has_turn=False) for i in range(t) if (t - i) % 2]
    return z3.And(spec.decides(t, REPETITION), z3.Or(other_turn) if other_turn else z3.BoolVal(False))


def _win_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    trace = spec.trace
    winner = ite(trace.white_to_move(t), BLACK_WINS_CODE, WHITE_WINS_CODE)
    rule = ite(spec.no_pieces(t), trace.rule_code(NO_PIECES), trace.rule_code(BLOCKED))
    return z3.Implies(spec.loss(t), z3.And(machine.result[t] == winner, machine.rule[t] == rule))


def _win_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    return z3.And(spec.loss(t), z3.Or([spec.expired(t, a) for a in spec.articles()]))


def _lowest_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    articles = spec.articles()
    facts = []
    for a in articles:
        lower = [spec.expired(t, b) for b in articles if article_order(b) < article_order(a)]
        facts.append(z3.Implies(machine.draw_by(t, a), z3.And(spec.expired(t, a), z3.Not(z3.Or(lower)))))
    return z3.And(facts)


def _lowest_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    expiring = [spec.expired(t, a) for a in spec.articles()]
    return z3.And(z3.Not(spec.loss(t)), z3.AtLeast(*expiring, 2))


# -- the setups oracle/game.py refuses: unreachable from a game start ------------------------


def _limits_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    rules, facts = spec.rules, []
    if rules.repetition_draw is not None:
        facts.append(machine.occurrences[t] < rules.repetition_draw)
    if rules.no_progress_limit is not None:
        facts.append(machine.no_progress[t] < rules.no_progress_limit)
    for g in rules.groups:
        facts.append(z3.Implies(spec.in_group(t, g), machine.endgame[t] < g.plies))
    return z3.Implies(machine.ongoing(t), z3.And(facts))


def _limits_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    limit = spec.rules.no_progress_limit
    assert limit is not None
    return z3.And(machine.ongoing(t), machine.no_progress[t] == limit - 1)


def _count_in_group_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    facts = []
    for g in spec.rules.groups:
        for k in range(1, t + 1):
            history = z3.And(spec.in_group(t - 1, g), spec.in_group(t - k, g))
            facts.append(z3.Implies(z3.And(spec.in_group(t, g), machine.endgame[t] == k), history))
    facts.append(
        z3.Implies(z3.Not(z3.Or([spec.in_group(t, g) for g in spec.rules.groups])), machine.endgame[t] == 0)
    )
    return z3.Implies(machine.ongoing(t), z3.And(facts))


def _count_in_group_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    if t < 2:
        return z3.BoolVal(False)
    return z3.And(
        machine.ongoing(t),
        machine.endgame[t] >= 1,
        spec.in_group(t, spec.group("6.4")),
        z3.Or([spec.in_group(k, spec.group("6.3")) for k in range(t)]),
    )


def _kings_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    trace, np = spec.trace, machine.no_progress[t]
    return z3.Implies(
        machine.ongoing(t),
        z3.And(
            z3.Implies(np >= 1, trace.just_moved(t, "kings") >= 1),
            z3.Implies(np >= 2, trace.to_move(t, "kings") >= 1),
        ),
    )


def _kings_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    trace = spec.trace
    return z3.And(machine.ongoing(t), machine.no_progress[t] >= 1, trace.to_move(t, "kings") == 0)


def _repeat_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    occ, np = machine.occurrences[t], machine.no_progress[t]
    return z3.Implies(z3.And(machine.ongoing(t), occ >= 2), np >= 4 * (occ - 1))


def _repeat_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    occ, np = machine.occurrences[t], machine.no_progress[t]
    return z3.And(machine.ongoing(t), occ >= 2, np == 4 * (occ - 1))


def _ending_resets_holds(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    in_ending = z3.Or([spec.in_group(t, g) for g in spec.rules.groups])
    return z3.Implies(z3.And(machine.ongoing(t), in_ending), machine.no_progress[t] <= machine.endgame[t])


def _ending_resets_witness(spec: Spec, machine: DrawMachine, t: int) -> z3.BoolRef:
    in_ending = z3.Or([spec.in_group(t, g) for g in spec.rules.groups])
    return z3.And(
        machine.ongoing(t),
        in_ending,
        machine.no_progress[t] >= 1,
        machine.no_progress[t] == machine.endgame[t],
    )


def _replace(**changes: object) -> Callable[[DrawRules], DrawRules]:
    return lambda rules: dataclasses.replace(rules, **changes)  # type: ignore[arg-type]


def _long_diagonal(rules: DrawRules) -> DrawRules:
    """The 2024 clause: 6.3's count cut to about a third (16 moves each: 5) on the long diagonal."""
    moves = next(g.moves_each for g in rules.groups if g.article == "6.3")
    return dataclasses.replace(rules, long_diagonal_moves=max(1, moves // 3))


def _offset(article: str, plies: int) -> Callable[[DrawRules], DrawRules]:
    return lambda rules: dataclasses.replace(rules, limit_offsets=((article, plies),))


PROPERTIES: Final = (
    Property(
        "6.3-no-restart-in-group",
        "endgame-no-restart",
        "A 6.3 draw is declared exactly when the last 32 plies (and the position before them) were "
        "all endings of the 6.3 group, whatever man moves, promotions or captures happened inside "
        "(unless a side has lost or 6.1/6.2 decide first).",
        _exact("6.3"),
        _no_restart_witness("6.3"),
        (
            Control("6.3 restarts on change", _flip_group("6.3", restarts_on_change=True)),
            Control("the 2024 long-diagonal clause applied", _long_diagonal),
        ),
    ),
    Property(
        "6.4-no-restart-in-group",
        "endgame-no-restart",
        "A 6.4 draw is declared exactly when the last 10 plies (and the position before them) were "
        "all endings of the 6.4 group, whatever happened inside.",
        _exact("6.4"),
        _no_restart_witness("6.4"),
        (Control("6.4 restarts on change", _flip_group("6.4", restarts_on_change=True)),),
    ),
    Property(
        "6.4-new-count-from-6.3",
        "endgame-group-change",
        "When a capture takes the game from the 6.3 group into the 6.4 group at ply e, 6.4's draw "
        "comes at ply e + 10 exactly, however long 6.3's count had run.",
        _exact("6.4"),
        _from_6_3_witness,
        (Control("6.3 count carried into 6.4", _replace(new_group_restarts=False)),),
    ),
    Property(
        "6.2-king-moves-since-progress",
        "Art. 6.2: man moves and captures reset the count",
        "A 6.2 draw is declared exactly when the last 50 plies were all king moves without capture "
        "(unless a side has lost or 6.1 decides first).",
        _exact(NO_PROGRESS),
        _no_progress_witness,
        (
            Control("a man move keeps the 6.2 count", _replace(man_move_resets=False)),
            Control("a capture keeps the 6.2 count", _replace(capture_resets=False)),
            Control("6.2 one ply early", _offset(NO_PROGRESS, -1)),
        ),
    ),
    Property(
        "6.1-same-side-to-move",
        "Art. 6.1: the side to move is part of the position",
        "A 6.1 draw is declared exactly when the position -- placement and side to move -- occurred "
        "twice before (unless the side to move has lost).",
        _exact(REPETITION),
        _repetition_witness,
        (Control("repetition ignores the side to move", _replace(repetition_has_turn=False)),),
        counts_repetitions=True,
    ),
    Property(
        "win-beats-draw",
        "win-beats-draw",
        "When the side to move has no piece (7.2.2) or no legal move (7.2.3) the other side has won, "
        "also on a ply where a draw rule expires.",
        _win_holds,
        _win_witness,
        (Control("a draw beats a win", _replace(win_beats_draw=False)),),
    ),
    Property(
        "lowest-article-first",
        "draw-precedence",
        "A draw names a draw rule that expires at that ply, and no lower article expires there.",
        _lowest_holds,
        _lowest_witness,
        (Control("the highest article reported", _replace(lowest_article_first=False)),),
    ),
    Property(
        "setup-1-limits-unreachable",
        "SetupError check 1",
        "No game still going on has occurrences at the repetition limit, a 6.2 count at 50, or a "
        "6.3/6.4 count at its group's limit (while 49 is reached).",
        _limits_holds,
        _limits_witness,
        (Control("6.2 one ply late", _offset(NO_PROGRESS, 1)),),
    ),
    Property(
        "setup-2-count-only-in-group",
        "SetupError check 2",
        "A 6.3/6.4 count of k > 0 means the position k plies ago, and the one before this, were "
        "endings of the same group as this one; outside the groups the count is 0.",
        _count_in_group_holds,
        _count_in_group_witness,
        (Control("6.3 count carried into 6.4", _replace(new_group_restarts=False)),),
    ),
    Property(
        "setup-3-no-progress-needs-kings",
        "SetupError check 3",
        "A 6.2 count of 1 or more means the side that just moved has a king; of 2 or more, the side "
        "to move has one too.",
        _kings_holds,
        _kings_witness,
        (Control("a man move keeps the 6.2 count", _replace(man_move_resets=False)),),
    ),
    Property(
        "setup-4-repetition-needs-king-plies",
        "SetupError check 4",
        "A position occurring for the k-th time (k >= 2) has a 6.2 count of at least 4 (k - 1).",
        _repeat_holds,
        _repeat_witness,
        (Control("a side could restore its placement in one move", lambda rules: rules, min_return_plies=2),),
    ),
    Property(
        "setup-5-ending-resets-no-progress",
        "SetupError check 5",
        "In an ending of 6.3/6.4 the 6.2 count never exceeds the endgame count.",
        _ending_resets_holds,
        _ending_resets_witness,
        (
            Control("a man move keeps the 6.2 count", _replace(man_move_resets=False)),
            Control("a capture keeps the 6.2 count", _replace(capture_resets=False)),
        ),
    ),
)
"""Every property proved, in the order of the report."""


def property_named(name: str) -> Property:
    for prop in PROPERTIES:
        if prop.name == name:
            return prop
    raise KeyError(f"no property {name!r}; known: {', '.join(p.name for p in PROPERTIES)}")


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
    """What :func:`prove` found: a proof to ``depth`` or a counterexample, and the witness."""

    name: str
    control: str | None
    depth: int
    counterexample: Counterexample | None
    witness_ply: int | None
    seconds: float
    seconds_per_depth: tuple[float, ...]

    @property
    def proved(self) -> bool:
        return self.counterexample is None


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
) -> BmcResult:
    """Check ``prop`` at every ply 0..``depth`` of every game from a game start under ``rules``
    (with ``control`` applied to the machine's rules, if given): a proof or a counterexample.

    The statement is always that of ``rules`` (the :class:`Spec`); a control only changes the
    machine. The witness is looked for until found."""
    began = time.perf_counter()
    solver = z3.SolverFor(LOGIC)
    solver.set("timeout", timeout_ms)
    trace = EventTrace(solver, min_return_plies=control.min_return_plies if control else 4)
    machine = DrawMachine(trace, control.flip(rules) if control else rules)
    spec = Spec(trace, rules, machine, prop.counts_repetitions)
    witness_ply, per_depth = None, []
    for t in range(depth + 1):
        step = time.perf_counter()
        if t:
            solver.add(machine.ongoing(t - 1))
            trace.grow()
            machine.grow()
        solver.push()
        solver.add(z3.Not(prop.holds(spec, machine, t)))
        if _check(solver):
            start, events = trace.decode(solver.model())
            found = Counterexample(t, start, tuple(events), tuple(machine.decode(solver.model())))
            solver.pop()
            per_depth.append(time.perf_counter() - step)
            return BmcResult(
                prop.name,
                control.name if control else None,
                t,
                found,
                witness_ply,
                time.perf_counter() - began,
                tuple(per_depth),
            )
        solver.pop()
        if witness_ply is None:
            solver.push()
            solver.add(prop.witness(spec, machine, t))
            if _check(solver):
                witness_ply = t
            solver.pop()
        per_depth.append(time.perf_counter() - step)
    return BmcResult(
        prop.name,
        control.name if control else None,
        depth,
        None,
        witness_ply,
        time.perf_counter() - began,
        tuple(per_depth),
    )
