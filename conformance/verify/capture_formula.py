"""The z3 formula of one position's capture sequences (Art. 4.1, 4.3, 4.5-4.8, 4.11, 4.13, 4.15).

The encoding half of the verifier's second, independent description of the captures
(:mod:`conformance.verify.smt` asks the questions of it): like it, this module reads positions with
:mod:`oracle.position` and takes single jumps from :mod:`conformance.verify.jumps`, and never uses
the oracle's move generator. :class:`CaptureFormula` builds the formula step by step, defines a
capture's identity (origin, end square, captured set) and the completeness of a capture of ``k``
jumps, and reads a route back from a model; :class:`Capture` and :class:`Witness` are what the
questions answer with.

How the formula is built
------------------------
The step constraints are written as SMT-LIB text and parsed by z3 in one call per batch of steps (the
Python API's formula building costs several times the solving, as measured before writing it).
Variables, all Boolean:

* ``x{i}_{j}``: jump ``j`` is the capture's jump number ``i`` (at most one per step);
* ``act{i}``: the capture has at least ``i + 1`` jumps (``act{i}`` implies ``act{i-1}``);
* ``at{i}_{o}_{s}{m|k}``: jump ``i`` of the piece from ``o`` leaves from ``s`` as a man (``m``)
  or a king (``k``), which some jump ``i - 1`` of that piece must have landed on, being that;
* ``u{i}_{b}``: piece ``b`` was taken before jump ``i`` (a jump over ``b`` at step ``i``
  requires ``not u{i}_{b}``: 4.8);
* a capture's identity (origin, end square, captured pieces) is no variable of its own: for a
  capture of exactly ``k`` jumps it is a formula of the variables above (a jump ``x0_{j}`` from
  the origin, a jump ``x{k-1}_{j}`` onto the end square, the ``u{n}_{b}`` of the captured
  pieces), written into the questions and blocking clauses where they need it;
* ``steps``: a piece's jumps are left out of the steps after as many as the pieces they go
  over (4.8: it cannot take more);
* under free choice, ``fin{k}``: a capture of exactly ``k`` jumps is complete (no jump from its
  last node over a piece not taken) and its last jump lands where it can go on if any landing
  of that jump can.

Every check has a timeout; an ``unknown`` answer raises :class:`SolverUnknownError`, so a
time-out can never pass for a proof.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

import z3

from conformance.core.errors import IncompleteError
from conformance.verify.jumps import CaptureGraph, Jump, Node, capture_graphs
from oracle.position import Kind, Position
from oracle.rules import INTERNATIONAL, Rules

DEFAULT_TIMEOUT_MS: Final = 10_000
"""Per solver call. The benchmark's worst position needs well under a tenth of this."""


class VerifyError(IncompleteError):
    """The verifier could not give an answer (not a finding about an engine)."""


class SolverUnknownError(VerifyError):
    """z3 answered ``unknown`` (time-out, resource limit): no proof either way."""


@dataclasses.dataclass(frozen=True, slots=True)
class Capture:
    """A capture as the rules identify it: (from, to, captured set), with one witness ``route``.

    ``route`` is the start square then the landing square of every jump, in order.
    """

    from_square: int
    to_square: int
    captured: frozenset[int]
    route: tuple[int, ...] = dataclasses.field(default=(), compare=False, hash=False)

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.from_square, self.to_square, self.captured)

    def __str__(self) -> str:
        taken = ",".join(map(str, sorted(self.captured)))
        return f"{self.from_square}x{self.to_square} {{{taken}}}"


@dataclasses.dataclass(frozen=True, slots=True)
class Witness:
    """A (complete or partial) capture found by the solver: its route and the pieces it takes in order."""

    route: tuple[int, ...]
    taken: tuple[int, ...]

    @property
    def capture(self) -> Capture:
        return Capture(self.route[0], self.route[-1], frozenset(self.taken), self.route)

    def __len__(self) -> int:
        return len(self.taken)


class CaptureFormula:
    """The capture rules of one position as the steps of one z3 formula, built as the questions need them.

    Not thread-safe (z3 is not). The questions are :class:`conformance.verify.smt.CaptureSolver`'s.
    """

    def __init__(
        self,
        position: Position,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        context: z3.Context | None = None,
        rules: Rules = INTERNATIONAL,
    ) -> None:
        if timeout_ms <= 0:
            raise ValueError(f"timeout_ms must be positive, not {timeout_ms}")
        self.position = position
        self.rules = rules
        self.timeout_ms = timeout_ms
        self.graphs: tuple[CaptureGraph, ...] = capture_graphs(position, rules)
        self._jumps: tuple[Jump, ...] = tuple(jump for graph in self.graphs for jump in graph.jumps)
        self._origins = frozenset(graph.origin for graph in self.graphs)
        self._kinds = {graph.origin: graph.kind for graph in self.graphs}
        self._opponents = frozenset(jump.over for jump in self._jumps)
        # 4.8: the piece from o takes each piece its jumps go over at most once, so a capture by
        # it has at most this many jumps (its jumps are left out of the later steps).
        self._takeable = {graph.origin: len({jump.over for jump in graph.jumps}) for graph in self.graphs}
        self._most_takeable = max(self._takeable.values(), default=0)
        self._leaving: dict[int, dict[Node, list[Jump]]] = {}  # origin -> node -> jumps leaving it
        for jump in self._jumps:
            self._leaving.setdefault(jump.origin, {}).setdefault(jump.start_node, []).append(jump)
        # The nodes jump number i may leave from, per origin (reachability only; see jumps.py).
        self._starts: list[dict[int, frozenset[Node]]] = [
            {graph.origin: frozenset({(graph.origin, graph.kind)}) for graph in self.graphs}
        ]
        self._steps: list[tuple[int, ...]] = []  # the jump indices of each built step
        self._step_terms: list[z3.ArithRef] = []  # per step: 1 + the index of the jump taken, or 0
        self._solver: z3.Solver | None = None
        # The models (which route witnesses a capture) depend on what the context solved before;
        # a context of its own makes them depend on this position only (a context costs ~2 ms).
        self._context = context if context is not None else z3.main_ctx()
        self._final = False
        self._fins: set[str] = set()
        self.checks = 0
        """How many times the solver was called (for benchmarks)."""

    def _get_solver(self) -> z3.Solver:
        if self._solver is None:
            solver = z3.SolverFor("QF_FD", ctx=self._context)
            solver.set(timeout=self.timeout_ms)
            self._solver = solver
        return self._solver

    def _check(self, solver: z3.Solver, assumptions: Sequence[z3.BoolRef]) -> z3.CheckSatResult:
        self.checks += 1
        result = solver.check(*assumptions)
        if result == z3.unknown:
            raise SolverUnknownError(
                f"z3 gave no answer ({solver.reason_unknown()}) within {self.timeout_ms} ms "
                f"for {self.position.fen()}: no proof either way"
            )
        return result

    def _ensure_steps(self, count: int) -> None:
        if count > len(self._steps) and self._final:
            raise VerifyError("internal: the formula was finalised before all its steps were built")
        texts: list[str] = []
        terms: list[str] = []
        while len(self._steps) < count:
            text, declarations, ites = self._step_text(len(self._steps))
            texts.append(text)
            terms.append(f"{declarations}(assert (= 0 (+ 0 {ites})))")
        if texts:
            # The terms telling which jump a model takes at each new step, parsed in one call,
            # step by step and before the steps' constraints: the order z3 makes the variables in
            # is part of which models it finds (so of the witnesses' routes).
            parsed = z3.parse_smt2_string("".join(terms), ctx=self._context)
            self._step_terms.extend(parsed[i].arg(1) for i in range(len(terms)))
            self._get_solver().from_string("\n".join(texts))

    def _step_text(self, i: int) -> tuple[str, str, str]:
        """SMT-LIB text of jump number ``i``, the declarations of its jump variables, and the terms
        whose sum tells which jump a model takes there (1 + its index, or 0 for none)."""
        starts = self._starts[i]
        step = tuple(
            index
            for index, jump in enumerate(self._jumps)
            if jump.start_node in starts.get(jump.origin, frozenset()) and i < self._takeable[jump.origin]
        )
        lands: dict[int, set[Node]] = {}
        for index in step:
            node = self._jumps[index].land_node
            if node is not None:  # a capture that stops on crowning goes on from nowhere
                lands.setdefault(self._jumps[index].origin, set()).add(node)
        self._starts.append({origin: frozenset(squares) for origin, squares in lands.items()})
        names = [f"x{i}_{index}" for index in step]
        declarations = "".join(f"(declare-const {name} Bool)" for name in names)
        act = f"act{i}"
        lines = [declarations, f"(declare-const {act} Bool)"]
        if names:
            lines.append(f"(assert (= {act} (or {' '.join(names)})))")
            if len(names) > 1:
                lines.append(f"(assert ((_ at-most 1) {' '.join(names)}))")  # one jump at a time
        else:
            lines.append(f"(assert (not {act}))")
        if i > 0:
            lines.append(f"(assert (=> {act} act{i - 1}))")
            # 4.5, 4.6: jump i leaves from the square where jump i - 1 of the same piece landed.
            arrivals: dict[tuple[int, Node | None], list[str]] = {}
            for index in self._steps[i - 1]:
                jump = self._jumps[index]
                arrivals.setdefault((jump.origin, jump.land_node), []).append(f"x{i - 1}_{index}")
            declared: set[str] = set()
            for index, name in zip(step, names, strict=True):
                jump = self._jumps[index]
                at = f"at{i}_{jump.origin}_{jump.start}{'k' if jump.kind is Kind.KING else 'm'}"
                if at not in declared:
                    declared.add(at)
                    lines.append(f"(declare-const {at} Bool)")
                    lines.append(
                        f"(assert (=> {at} (or {' '.join(arrivals[jump.origin, jump.start_node])})))"
                    )
                lines.append(f"(assert (=> {name} {at}))")
        # 4.8: no piece is jumped twice. u{i}_{b} holds exactly when b was taken by jumps 0 .. i-1.
        over: dict[int, list[str]] = {}
        for index, name in zip(step, names, strict=True):
            over.setdefault(self._jumps[index].over, []).append(name)
        for b in sorted(self._opponents):
            here = over.get(b, [])
            terms = ([f"u{i}_{b}"] if i > 0 else []) + here
            lines.append(f"(declare-const u{i + 1}_{b} Bool)")
            lines.append(
                f"(assert (= u{i + 1}_{b} (or {' '.join(terms)})))"
                if terms
                else f"(assert (not u{i + 1}_{b}))"
            )
            if i > 0:
                lines.extend(f"(assert (=> {name} (not u{i}_{b})))" for name in here)
        self._steps.append(step)
        ites = " ".join(f"(ite {name} {index + 1} 0)" for index, name in zip(step, names, strict=True))
        return "\n".join(lines), declarations, ites

    def _define_capture(self, steps: int) -> z3.Solver:
        """Build the formula to ``steps`` steps, its last (once; the solver calls it with ``m + 1``
        steps, ``m`` the proved maximum, or fewer where no piece can take that many: 4.8).

        A capture's identity is then a formula of the steps' variables (:meth:`_identity`): no
        variable is defined for it, so nothing is added to the solver here but the steps.
        """
        solver = self._get_solver()
        if self._final:
            return solver
        self._ensure_steps(steps)
        self._final = True
        self._ends = frozenset(self._jumps[index].land for step in self._steps for index in step)
        return solver

    def _fin(self, k: int) -> z3.BoolRef:
        """``fin{k}``: a capture of exactly ``k`` jumps ends where it must (defined once, after finalising).

        Its last jump ``x{k-1}_j`` implies that every jump leaving its landing node is over a
        piece already taken (complete: 4.5, 4.6), and the same of every other landing of that
        jump (a king lands where the capture goes on, if it can). ``u{k}_b``: ``b`` is taken.
        """
        name = f"fin{k}"
        if not self._final:
            raise VerifyError("internal: fin asked of a formula not finalised")
        if name not in self._fins:
            leaving = self._leaving
            clauses: list[str] = []
            for index in self._steps[k - 1]:
                jump = self._jumps[index]
                landings = [
                    other.land_node
                    for other in leaving[jump.origin][jump.start_node]
                    if other.over == jump.over and other.land_node is not None
                ]
                taken = sorted({nxt.over for node in landings for nxt in leaving[jump.origin].get(node, ())})
                if taken:
                    needed = " ".join(f"u{k}_{b}" for b in taken)
                    clauses.append(f"(=> x{k - 1}_{index} (and {needed}))")
            body = f"(and {' '.join(clauses)})" if clauses else "true"
            self._get_solver().from_string(f"(declare-const {name} Bool)(assert (= {name} {body}))")
            self._fins.add(name)
        return z3.Bool(name, self._context)

    def _nameable(self, key: tuple[int, int, frozenset[int]]) -> bool:
        from_square, to_square, captured = key
        return from_square in self._origins and to_square in self._ends and captured <= self._opponents

    def _identity(self, key: tuple[int, int, frozenset[int]]) -> str:
        """The formula "the capture is (from, to, captured)", given that it has exactly
        ``len(captured)`` jumps (:meth:`_exactly`): its first jump leaves ``from``, its last jump
        (number ``len(captured) - 1``) lands on ``to``, and it takes every piece of ``captured``
        (``u{n}_{b}``, ``n`` the number of steps; a capture of ``k`` jumps takes ``k`` pieces).
        """
        from_square, to_square, captured = key
        last = len(captured) - 1
        first = [f"x0_{index}" for index in self._steps[0] if self._jumps[index].origin == from_square]
        ends = [f"x{last}_{index}" for index in self._steps[last] if self._jumps[index].land == to_square]
        if not first or not ends:
            return "false"
        n = len(self._steps)
        taken = " ".join(f"u{n}_{b}" for b in sorted(captured))
        return f"(and (or {' '.join(first)}) (or {' '.join(ends)}) {taken})"

    def _exactly(self, k: int) -> list[z3.BoolRef]:
        """Assumptions for a capture of exactly ``k`` jumps."""
        assumptions = [z3.Bool(f"act{k - 1}", self._context)]
        if k < len(self._steps):
            assumptions.append(z3.Not(z3.Bool(f"act{k}", self._context)))
        return assumptions

    def _read_witness(self, solver: z3.Solver) -> Witness:
        """The route of the solver's model: one evaluation per step."""
        model = solver.model()
        jumps: list[Jump] = []
        for term in self._step_terms:
            value = model.eval(term, model_completion=True)
            index = value.as_long() if isinstance(value, z3.IntNumRef) else -1
            if index < 0:
                raise VerifyError(f"internal: the model gives no number for {term}")
            if index == 0:
                break
            jumps.append(self._jumps[index - 1])
        if not jumps:
            raise VerifyError("internal: a model of a capture with no jump")
        route = [jumps[0].origin]
        for jump in jumps:
            if jump.start != route[-1]:
                raise VerifyError(f"internal: the model's route {route} does not go on with {jump}")
            route.append(jump.land)
        return Witness(tuple(route), tuple(jump.over for jump in jumps))
