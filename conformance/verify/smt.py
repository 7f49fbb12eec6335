"""An SMT encoding of the capture rules of a game of the draughts family, solved with z3 (Art. 4).

The encoding is the verifier's second, independent description of the captures: it shares the
board geometry with the oracle (:mod:`oracle.board`) and reads positions with
:mod:`oracle.position`, but never uses the oracle's move generator. What a single jump is
(4.1 for men, 4.3 for flying kings, on the board of 4.11) comes from
:mod:`conformance.verify.jumps`; this module encodes everything about *sequences* of jumps:

* a capture is a walk of jumps from the capturing piece's start square, each jump leaving
  from where the previous one landed (4.5, 4.6); one piece moves (4.1, 4.3);
* no piece is taken twice (4.8); captured pieces stay and block (4.11, via the jump table);
* the number of pieces taken is the number of jumps, a king counting one like a man (4.13);
* a man that passes the far row goes on as a man (4.15), is crowned and stops, or is crowned and
  goes on as a king, as the rule set's ``crownMidCapture`` says (via the jump table: a walk is
  over nodes (square, kind), and a capture that stops has no node to go on from).

The rule set (:class:`oracle.rules.Rules`, default international) gives the board, the jumps of
:mod:`~conformance.verify.jumps`, and the choice among the complete captures: under
``captureChoice: maximum`` the legal captures are those taking the most pieces (4.13); under
``free`` every *complete* capture is legal -- one whose piece cannot jump again -- and a flying
king's last jump must land where the capture goes on if one of its landings allows that (the
constraint ``fin{k}`` below).

The questions
-------------
:class:`CaptureSolver` holds one z3 solver per position and asks all questions of it:

* :meth:`~CaptureSolver.at_least`: is there a (complete or partial) capture taking at least
  ``k`` pieces? -- with a witness route;
* :meth:`~CaptureSolver.maximum`: the most pieces any capture takes, ``m``, proved by a model
  for ``m`` and an UNSAT answer for ``m + 1``;
* :meth:`~CaptureSolver.realise`: a route with a given start, end and captured set;
* :meth:`~CaptureSolver.maximal_captures`: every distinct maximum capture (4.13) as
  (from, to, captured set), enumerated with blocking clauses on exactly that triple;
* :meth:`~CaptureSolver.complete_captures`: every distinct complete capture (free choice);
  :meth:`~CaptureSolver.legal_captures` is the one of the two the rule set chooses.

Why partial captures suffice: every prefix of a capture is a partial capture, so "a capture of
at least ``k``" is "a walk of ``k`` jumps". A walk of ``m`` jumps, ``m`` the maximum, cannot go
on, so it is a complete capture; and it satisfies the rule that a king must land where it can
go on (rules.md, from 4.13): a walk landing where it cannot go on while another landing of the
same jump could, would extend to ``m + 1`` jumps. Hence the maximum captures of Art. 4.13 are
exactly the walks of ``m`` jumps, and the formula needs at most ``m + 1`` steps.

The formula
-----------
How the formula is built, its variables and its constraints: :mod:`conformance.verify.capture_formula`.
Every check has a timeout; an ``unknown`` answer raises
:class:`~conformance.verify.capture_formula.SolverUnknownError`, so a time-out can never pass for a proof.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import z3

from conformance.verify.capture_formula import (
    DEFAULT_TIMEOUT_MS,
    Capture,
    CaptureFormula,
    VerifyError,
    Witness,
)
from conformance.verify.jumps import Jump, Node
from oracle.position import Position
from oracle.rules import INTERNATIONAL, CaptureChoice, Rules

SEARCH_BUDGET: Final = 2000
"""Jumps tried by the search for a first long capture per position (:meth:`CaptureSolver._longest_start`)."""


class CaptureSolver(CaptureFormula):
    """The capture rules of one position as one z3 solver (Art. 4.1, 4.3, 4.5-4.8, 4.11, 4.13, 4.15).

    Build it with a :class:`Position` (or :meth:`from_fen`); the steps of the formula are added
    only as the questions need them, never more than ``m + 1``. Not thread-safe (z3 is not).
    Every answer is the same in any ``context`` but the witnesses' routes: give it a fresh
    ``z3.Context()`` for routes that depend on the position alone (the default, z3's main
    context, is cheaper).
    """

    def __init__(
        self,
        position: Position,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        context: z3.Context | None = None,
        rules: Rules = INTERNATIONAL,
    ) -> None:
        super().__init__(position, timeout_ms, context, rules)
        self._maximum: tuple[int, Witness | None] | None = None
        self._start: Witness | None = None  # the first lower bound, once searched
        self._maximal: dict[tuple[int, int, frozenset[int]], Witness] | None = None
        self._complete: dict[tuple[int, int, frozenset[int]], Witness] | None = None
        self._queries = 0

    @classmethod
    def from_fen(
        cls, fen: str, timeout_ms: int = DEFAULT_TIMEOUT_MS, rules: Rules = INTERNATIONAL
    ) -> CaptureSolver:
        """Parse ``fen`` on the rule set's board (raises :class:`oracle.errors.FenError` naming what is wrong)."""
        return cls(Position.from_fen(fen, rules), timeout_ms, rules=rules)

    # -- the questions ------------------------------------------------------------------------

    @property
    def can_capture(self) -> bool:
        """Whether the side to move has any jump at all (then it must capture, 4.2)."""
        return bool(self._jumps)

    @property
    def steps(self) -> int:
        """How many steps (jumps) the formula has so far."""
        return len(self._steps)

    def at_least(self, k: int) -> Witness | None:
        """A capture taking at least ``k`` pieces (complete or partial), or None when there is none.

        The witness may take more than ``k``; ``k <= 0`` is answered by the empty witness. When
        ``k`` exceeds, for every piece that can capture, the number of opposing pieces its jumps
        go over, the answer is None without a solver call: each piece is taken at most once (4.8).
        """
        if k <= 0:
            return Witness((), ())
        if k > self._most_takeable:
            return None
        if self._maximum is not None:
            m, best = self._maximum
            return best if k <= m else None
        self._ensure_steps(k)
        solver = self._get_solver()
        if self._check(solver, [z3.Bool(f"act{k - 1}", self._context)]) == z3.unsat:
            return None
        return self._read_witness(solver)

    def maximum(self) -> tuple[int, Witness | None]:
        """The most pieces a capture takes (4.13), with a witness (None when no capture exists).

        Proved by a capture of ``m`` jumps and the solver's UNSAT for ``m + 1`` (or, when no piece's
        jumps go over ``m + 1`` pieces, by 4.8). The capture of ``m`` is a walk of the jump table
        found by :meth:`_longest_start` (jumps of the same table, so the same rules), or where that
        falls short a model of the solver, possibly lengthened by :meth:`_extend`. The formula has
        ``min(m + 1, that number)`` steps afterwards. (Asked after :meth:`maximal_captures`, the
        UNSAT was that of the enumeration, which covers ``m + 1``.)
        """
        if self._maximum is None:
            best = self._start or self._longest_start()
            while best is not None and (witness := self.at_least(len(best) + 1)) is not None:
                best = self._extend(witness)
            self._maximum = (len(best) if best else 0, best)
        return self._maximum

    def maximal_captures(self) -> list[Capture]:
        """Every distinct capture taking the most pieces (4.13), each once as (from, to, captured).

        Each capture found is excluded by a blocking clause on its origin, end square and
        captured set -- not on its route: many routes make one move (rules.md). Empty when the
        side to move cannot capture. The blocking clauses are dropped afterwards, so the other
        questions can still be asked. Asked before :meth:`maximum`, both are answered by one last
        UNSAT where it can (:meth:`_maximum_and_maximal`).
        """
        if self._maximal is None and self._maximum is None:
            self._maximal = self._maximum_and_maximal()
        if self._maximal is None:
            m, _ = self.maximum()
            self._maximal = self._enumerate((m,) if m > 0 else (), complete=False)
        return [witness.capture for witness in self._maximal.values()]

    def _maximum_and_maximal(self) -> dict[tuple[int, int, frozenset[int]], Witness] | None:
        """The maximum and every maximum capture from one UNSAT, or None to ask them in turn.

        With ``g`` the length of the first capture found (:meth:`_longest_start`): the solver is
        asked for a capture of at least ``g`` jumps that is none of those found yet, each found
        one blocked only as a capture of exactly ``g`` jumps. Its UNSAT proves both that no
        capture takes ``g + 1`` pieces (no capture of ``g + 1`` jumps or more is blocked) and
        that every capture of ``g`` is found. A longer capture coming up instead (the search fell
        short) ends the attempt: its findings are dropped and the questions asked in turn.
        """
        start = self._start = self._longest_start()
        if start is None or len(start) >= self._most_takeable:
            return None  # no capture, or the bound is 4.8's count: no UNSAT to share
        g = len(start)
        self._ensure_steps(g + 1)
        solver = self._get_solver()
        found: dict[tuple[int, int, frozenset[int]], Witness] = {}
        solver.push()
        try:
            longer = self._collect(solver, [z3.Bool(f"act{g - 1}", self._context)], found, start, g)
        finally:
            solver.pop()
        if longer is not None:
            self._start = self._extend(longer)
            return None
        self._maximum = (g, start)
        self._finalise()
        return found

    def complete_captures(self) -> list[Capture]:
        """Every distinct *complete* capture, each once as (from, to, captured): the legal ones of free choice.

        A capture is complete when its piece cannot jump again over a piece not yet taken (4.5,
        4.6), and a flying king's last jump lands where the capture goes on when one of its
        landings allows that (the king goes on while it can). Enumerated length by length, from
        the proved maximum down to one jump, with the blocking clauses of :meth:`maximal_captures`.
        """
        if self._complete is None:
            m, _ = self.maximum()
            # Longest first: a blocking clause names a captured set, not its complement, so it
            # would also block the longer captures that take a superset of it.
            self._complete = self._enumerate(range(m, 0, -1), complete=True)
        return [witness.capture for witness in self._complete.values()]

    def legal_captures(self) -> list[Capture]:
        """The captures the rule set's ``captureChoice`` allows: the maximum ones (4.13) or every complete one."""
        if self.rules.capture_choice is CaptureChoice.FREE:
            return self.complete_captures()
        return self.maximal_captures()

    def realise(self, from_square: int, to_square: int, captured: Iterable[int]) -> Witness | None:
        """A capture from ``from_square`` to ``to_square`` taking exactly ``captured``, or None.

        The witness may be a partial capture: :meth:`is_complete` tells whether a capture may
        stop there. A set larger than the maximum is answered by the proof of :meth:`maximum`.
        """
        return self._realise((from_square, to_square, frozenset(captured)), complete=False)

    def is_complete(self, from_square: int, square: int, captured: Iterable[int]) -> bool:
        """Whether a capture by the piece from ``from_square``, now on ``square``, must stop (4.5, 4.6).

        True when no jump from ``square`` over a piece not yet in ``captured`` exists. Under
        free choice, or where the piece could be there as a man or as a king, the solver answers:
        some capture (from, square, captured) is complete and its king landed where it had to.
        """
        taken = frozenset(captured)
        leaving = self._leaving.get(from_square, {})
        nodes = [node for node in leaving if node[0] == square]
        if self.rules.capture_choice is CaptureChoice.FREE or len(nodes) > 1:
            return self._realise((from_square, square, taken), complete=True) is not None
        return not any(jump.over not in taken for node in nodes for jump in leaving[node])

    def _realise(self, key: tuple[int, int, frozenset[int]], *, complete: bool) -> Witness | None:
        from_square, _, taken = key
        k = len(taken)
        if k == 0 or from_square not in self._origins or not taken <= self._opponents:
            return None  # no jump by that piece, or over one of those squares, exists at all
        for found in (self._complete, None if complete else self._maximal):
            if found is not None and key in found:
                return found[key]  # found by an enumeration
        m, _ = self.maximum()
        if k > m:
            return None
        solver = self._finalise()
        if not self._nameable(key):
            return None  # e.g. no jump of any capture lands on to_square
        assumptions = [*self._exactly(k), *([self._fin(k)] if complete else [])]
        self._queries += 1
        query = f"q{self._queries}"  # "the capture is this one", asked as an assumption
        solver.from_string(f"(declare-const {query} Bool)(assert (= {query} {self._identity(key)}))")
        if self._check(solver, [*assumptions, z3.Bool(query, self._context)]) == z3.unsat:
            return None
        return self._read_witness(solver)

    def _enumerate(
        self, lengths: Iterable[int], *, complete: bool
    ) -> dict[tuple[int, int, frozenset[int]], Witness]:
        """Every distinct capture of each length in ``lengths`` (complete ones only if ``complete``)."""
        found: dict[tuple[int, int, frozenset[int]], Witness] = {}
        lengths = tuple(lengths)
        if not lengths:
            return found
        solver = self._finalise()
        ends = {k: self._fin(k) for k in lengths} if complete else {}
        solver.push()
        try:
            for k in lengths:
                assumptions = [*self._exactly(k), *([ends[k]] if complete else [])]
                _, best = self.maximum()
                # The maximum's witness is a capture of m jumps, so a maximum capture: found already.
                witness = best if not complete and best is not None and len(best) == k else None
                self._collect(solver, assumptions, found, witness)
        finally:
            solver.pop()
        return found

    def _collect(
        self,
        solver: z3.Solver,
        assumptions: list[z3.BoolRef],
        found: dict[tuple[int, int, frozenset[int]], Witness],
        first: Witness | None,
        length: int | None = None,
    ) -> Witness | None:
        """Add to ``found`` every capture the solver has under ``assumptions``, ``first`` (if any)
        first, each with its siblings and blocked as found, until UNSAT.

        With ``length``, the found captures are blocked only as captures of exactly that many
        jumps, and a longer one ends the collection: it is returned (else None).
        """
        witness = first
        while witness is not None or self._check(solver, assumptions) == z3.sat:
            capture, witness = witness or self._read_witness(solver), None
            if length is not None and len(capture) > length:
                return capture
            new = [w for w in self._siblings(capture) if w.capture.key not in found]
            if not new:
                raise VerifyError("internal: the solver repeated a blocked capture")
            found.update((w.capture.key, w) for w in new)
            blocked = [self._identity(w.capture.key) for w in new]
            if length is not None:
                blocked = [f"(and {identity} (not act{length}))" for identity in blocked]
            solver.from_string("".join(f"(assert (not {identity}))" for identity in blocked))
        return None

    # -- skipping easy questions ----------------------------------------------------------------

    def _extend(self, witness: Witness) -> Witness:
        """The witness lengthened greedily by more jumps of the table over pieces not yet taken.

        Only saves solver calls while the maximum is searched: each added jump is a jump of the
        table leaving from the previous landing square over a new piece, which is what the
        formula's steps say, so the result is a capture by the same rules. The choice prefers
        landings with the most jumps onward (a cheap heuristic; the solver does the proving).
        """
        if not witness.route:
            return witness
        origin = witness.route[0]
        leaving = self._leaving.get(origin, {})
        route, taken = list(witness.route), list(witness.taken)
        done = set(taken)
        jumps = self._route_jumps(witness)
        node: Node | None = jumps[-1].land_node if jumps else (origin, self._kinds[origin])
        while True:
            options = [jump for jump in leaving.get(node, ()) if jump.over not in done] if node else []
            if not options:
                return Witness(tuple(route), tuple(taken))

            def onward(jump: Jump) -> int:
                after = leaving.get(jump.land_node, ()) if jump.land_node is not None else ()
                return sum(1 for nxt in after if nxt.over not in done and nxt.over != jump.over)

            jump = max(options, key=onward)
            route.append(jump.land)
            taken.append(jump.over)
            done.add(jump.over)
            node = jump.land_node

    def _longest_start(self) -> Witness | None:
        """A long capture to start the proof of the maximum from, or None when none exists.

        The longest greedy walk over the pieces that can capture, then a depth-first search of
        the jump table for a longer one (jumps over pieces not yet taken, 4.8), within
        :data:`SEARCH_BUDGET` jumps tried. Only saves solver calls: when the search finds the
        maximum, the solver is asked once, for the UNSAT of one more; when it stops short, the
        solver finds the longer captures.
        """
        best: Witness | None = None
        for origin in sorted(self._origins):
            witness = self._extend(Witness((origin,), ()))
            if best is None or len(witness) > len(best):
                best = witness
        if best is None or len(best) == 0:
            return None
        budget = SEARCH_BUDGET
        for origin in sorted(self._origins):
            if self._takeable[origin] > len(best):
                best, budget = self._search(origin, best, budget)
        return best

    def _search(self, origin: int, best: Witness, budget: int) -> tuple[Witness, int]:
        """The longest walk from ``origin`` found within ``budget`` jumps tried, if longer than
        ``best`` (else ``best``), and the budget left."""
        leaving = self._leaving.get(origin, {})
        route, taken, done = [origin], list[int](), set[int]()
        stack = [iter(leaving.get((origin, self._kinds[origin]), ()))]
        while stack and budget > 0:
            jump = next(stack[-1], None)
            if jump is None:  # every jump from here tried: back one jump
                stack.pop()
                if taken:
                    done.discard(taken.pop())
                    route.pop()
                continue
            if jump.over in done:
                continue
            budget -= 1
            route.append(jump.land)
            taken.append(jump.over)
            done.add(jump.over)
            if len(taken) > len(best):
                best = Witness(tuple(route), tuple(taken))
                if len(best) == self._takeable[origin]:
                    break  # no walk from origin is longer (4.8)
            stack.append(iter(leaving.get(jump.land_node, ()) if jump.land_node is not None else ()))
        return best, budget

    def _siblings(self, witness: Witness) -> list[Witness]:
        """The witness's capture and those landing elsewhere after the same last jump (4.3).

        A king's last jump may land on any empty square behind the piece it takes; every such
        landing ends a capture of the same length, so when the witness is a maximum capture they
        are maximum captures too (and cannot go on). Saves one solver call per landing square;
        the final UNSAT of the enumeration still proves that nothing is missing.
        """
        last = self._route_jumps(witness)[-1]
        witnesses = [witness]
        for jump in self._leaving[last.origin][last.start_node]:
            if jump.over == last.over and jump.land != last.land:
                witnesses.append(Witness((*witness.route[:-1], jump.land), witness.taken))
        return witnesses

    def _route_jumps(self, witness: Witness) -> list[Jump]:
        """The jumps of the table a witness takes, node by node (what the piece is at each square)."""
        if not witness.route:
            return []
        origin = witness.route[0]
        leaving = self._leaving.get(origin, {})
        node: Node | None = (origin, self._kinds[origin])
        jumps: list[Jump] = []
        for over, land in zip(witness.taken, witness.route[1:], strict=True):
            match = [j for j in leaving.get(node, ()) if j.over == over and j.land == land] if node else []
            if not match:
                raise VerifyError(f"internal: the route {witness.route} leaves the jump table at {land}")
            jumps.append(match[0])
            node = match[0].land_node
        return jumps

    def _finalise(self) -> z3.Solver:
        """The solver with the capture's identity defined, on ``m + 1`` steps (at most as many as the
        most pieces one piece's jumps go over)."""
        m, _ = self.maximum()
        return self._define_capture(min(m + 1, self._most_takeable))


def maximal_captures(fen: str, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[Capture]:
    """Every maximum capture (4.13) of the side to move in ``fen``, as (from, to, captured)."""
    return CaptureSolver.from_fen(fen, timeout_ms).maximal_captures()


def legal_captures(
    fen: str, rules: Rules = INTERNATIONAL, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> list[Capture]:
    """Every capture the rule set allows the side to move in ``fen`` (read on its board)."""
    return CaptureSolver.from_fen(fen, timeout_ms, rules).legal_captures()
