"""Event sequences in z3: the raw history the draw model of Art. 6 and 7.2 is checked over.

The second half of the verifier's model of the draw rules, next to the plain-Python reading of
:mod:`conformance.core.draw_events` (same events, same rules); like it, it imports nothing from
:mod:`oracle`. Three layers, grown one ply at a time for bounded model checking:

* :class:`EventTrace` -- the z3 variables of *any* event sequence: the setup's material, side to
  move and counters, then per ply the kind of move (``kind``: 0 king move, 1 man move,
  2 promotion, 3 capture; ``by_man`` for a capture made by a man), the material after it, the
  placement id, ``blocked`` (7.2.3) and
  ``diag`` (the lone king solely on 46-5), with the facts every game obeys: a king move keeps the
  material, a man move needs a man, a promotion crowns one, a capture takes at least one piece
  and may crown the capturing man; no placement recurs across a man move, promotion or capture,
  nor within four plies (each side needs two moves to bring its pieces back); whether the side to
  move is blocked, and the long-diagonal attribute, depend on the position only.
* :class:`~conformance.verify.draw_machine.DrawMachine` -- the counters and the outcome of one
  :class:`~conformance.core.draw_events.DrawRules` over a trace (the transition system);
* :class:`~conformance.verify.draw_spec.Spec` -- the same rules stated directly over the history
  of a trace, with helpers of its own (what the bounded model checking proves the machine against).

Here, only the trace. :meth:`EventTrace.decode` and ``DrawMachine.decode`` turn a z3 model back into a
:class:`~conformance.core.draw_events.Start`, its events and the outcomes, so that every answer
of the solver can be replayed by the plain-Python reading.
"""

from __future__ import annotations

import dataclasses
from typing import Final, TypeAlias

import z3

from conformance.core.draw_events import (
    BLOCKED,
    MAX_PIECES,
    NO_PIECES,
    NO_PROGRESS,
    REPETITION,
    Event,
    Material,
    MoveKind,
    Side,
    Start,
)

KINDS: Final = tuple(MoveKind)
"""``kind`` codes: the index in this tuple."""
KING_MOVE, MAN_MOVE, PROMOTION, CAPTURE = range(4)

RESULTS: Final = ("ongoing", "white_wins", "black_wins", "draw")
"""``result`` codes: the index in this tuple."""
ONGOING_CODE, WHITE_WINS_CODE, BLACK_WINS_CODE, DRAW_CODE = range(4)


WIDTH: Final = 12
"""Bits of every number of the model. Every variable is bounded so that no sum overflows (material
0..20 per kind, setup counters 0..:data:`MAX_COUNT`, counts at most those plus the depth), hence
z3's signed bit-vector comparisons are the plain ones; bit-vectors are solved several times faster
than integers here."""

KING_NEEDS_KING: Final = "a king move needs a king"
KING_KEEPS_MATERIAL: Final = "a king move takes no piece"
DROPPABLE: Final = frozenset({KING_NEEDS_KING, KING_KEEPS_MATERIAL})
"""Facts of every game a negative control may leave out (``EventTrace(dropped=...)``)."""

MAX_COUNT: Final = 200
"""Bound of the setup's free counters (well above every limit of Art. 6)."""

LOGIC: Final = "QF_BV"
"""The logic to ask z3 for (``z3.SolverFor(LOGIC)``)."""

Number: TypeAlias = z3.BitVecRef


def value(number: int) -> Number:
    return z3.BitVecVal(number, WIDTH)


def variable(name: str) -> Number:
    return z3.BitVec(name, WIDTH)


def variables(names: str) -> list[Number]:
    return [variable(name) for name in names.split()]


def ite(condition: z3.BoolRef, then: Number | int, other: Number | int) -> Number:
    """``z3.If`` with plain numbers made bit-vectors."""
    return z3.If(
        condition,
        value(then) if isinstance(then, int) else then,
        value(other) if isinstance(other, int) else other,
    )


@dataclasses.dataclass(frozen=True)
class PlyVars:
    """The z3 variables of one ply (the setup is ply 0, without a ``kind``).

    Material is kept by role, not by colour: ``active_*`` is the side to move at this ply,
    ``passive_*`` the side that just moved (so no move needs a case split on colours)."""

    active_kings: Number
    active_men: Number
    passive_kings: Number
    passive_men: Number
    kind: Number | None
    placement: Number
    blocked: z3.BoolRef
    diag: z3.BoolRef
    last_irreversible: Number
    by_man: z3.BoolRef
    played: tuple[Number, ...] | None = None
    """With ``EventTrace(played=True)``: ids of the active and the passive side's own placement;
    the last ply that changed White's, Black's placement for good; White's, Black's man steps."""


class EventTrace:
    """Any event sequence, as z3 variables over a solver; :meth:`grow` adds one ply.

    ``default_counters`` fixes the setup's counters to 1, 0, 0 (a game start); otherwise they are
    free (:meth:`DrawMachine.setup_valid` states the checks a setup must pass).
    ``min_return_plies`` is the fact that a placement recurs at the earliest four plies later
    (a negative control of the proofs lowers it); ``dropped`` names facts of :data:`DROPPABLE`
    left out (for the negative controls too). ``max_pieces`` bounds each side's material.
    ``played`` adds facts of games played on the board, a finer abstraction for games that must
    be played for real: each side's own placement (a move changes the mover's, a capture the
    other's; a side's placement never comes back after one move of its own, a man move of its own
    or the loss of a piece), and a side's man steps (man moves and promotions) are at most nine
    per man it started with, plus two per piece it captured (a man may capture backward).
    """

    def __init__(
        self,
        solver: z3.Solver,
        *,
        default_counters: bool = True,
        max_pieces: int = MAX_PIECES,
        min_return_plies: int = 4,
        played: bool = False,
        prefix: str = "e",
        dropped: frozenset[str] = frozenset(),
    ) -> None:
        unknown = dropped - DROPPABLE
        if unknown:
            raise ValueError(f"no droppable fact {sorted(unknown)}; known: {sorted(DROPPABLE)}")
        self.dropped = dropped
        self.solver = solver
        self.played = played
        self.prefix = prefix
        self.max_pieces = max_pieces
        self.min_return_plies = min_return_plies
        self.white_first = z3.Bool(f"{prefix}_white_first")
        if default_counters:
            self.occurrences0: Number = value(1)
            self.no_progress0: Number = value(0)
            self.endgame0: Number = value(0)
        else:
            self.occurrences0, self.no_progress0, self.endgame0 = variables(
                f"{prefix}_occ0 {prefix}_np0 {prefix}_clk0"
            )
            solver.add(self.occurrences0 >= 1, self.no_progress0 >= 0, self.endgame0 >= 0)
            solver.add(*(c <= MAX_COUNT for c in (self.occurrences0, self.no_progress0, self.endgame0)))
        self.plies: list[PlyVars] = []
        self._codes: dict[str, int] = {}
        for article in (REPETITION, NO_PROGRESS, "6.3", "6.4", NO_PIECES, BLOCKED):
            self.rule_code(article)
        self._add_ply()

    @property
    def depth(self) -> int:
        """The plies after the setup."""
        return len(self.plies) - 1

    def rule_code(self, article: str) -> int:
        """The ``rule`` code of an article (0 is no rule)."""
        return self._codes.setdefault(article, len(self._codes) + 1)

    def article(self, code: int) -> str | None:
        return next((article for article, value in self._codes.items() if value == code), None)

    # -- sides and material --------------------------------------------------------------

    def white_to_move(self, ply: int) -> z3.BoolRef:
        return self.white_first if ply % 2 == 0 else z3.Not(self.white_first)

    def to_move(self, ply: int, kind: str) -> Number:
        """``kind`` ("kings", "men", "pieces") of the side to move at ``ply``."""
        p = self.plies[ply]
        return {"kings": p.active_kings, "men": p.active_men, "pieces": p.active_kings + p.active_men}[kind]

    def just_moved(self, ply: int, kind: str) -> Number:
        """``kind`` of the side that is not to move at ``ply`` (it played the last move)."""
        p = self.plies[ply]
        return {"kings": p.passive_kings, "men": p.passive_men, "pieces": p.passive_kings + p.passive_men}[
            kind
        ]

    def white(self, ply: int, kind: str) -> Number:
        return ite(self.white_to_move(ply), self.to_move(ply, kind), self.just_moved(ply, kind))

    def black(self, ply: int, kind: str) -> Number:
        return ite(self.white_to_move(ply), self.just_moved(ply, kind), self.to_move(ply, kind))

    def kind_is(self, ply: int, *kinds: int) -> z3.BoolRef:
        kind = self.plies[ply].kind
        assert kind is not None, "the setup has no move"
        return z3.Or([kind == k for k in kinds])

    # -- growing -------------------------------------------------------------------------

    def _add_ply(self) -> int:
        t = len(self.plies)
        name = f"{self.prefix}{t}"
        ak, am, pk, pm, q, last = variables(f"{name}_ak {name}_am {name}_pk {name}_pm {name}_q {name}_irr")
        kind = variable(f"{name}_kind") if t else None
        played = (
            tuple(variables(f"{name}_qa {name}_qp {name}_wl {name}_bl {name}_ws {name}_bs"))
            if self.played
            else None
        )
        ply = PlyVars(
            ak,
            am,
            pk,
            pm,
            kind,
            q,
            z3.Bool(f"{name}_blocked"),
            z3.Bool(f"{name}_diag"),
            last,
            z3.Bool(f"{name}_by_man"),
            played,
        )
        self.plies.append(ply)
        add = self.solver.add
        add(*(z3.And(v >= 0, v <= self.max_pieces) for v in (ak, am, pk, pm)))
        add(ak + am <= self.max_pieces, pk + pm <= self.max_pieces)
        add(z3.Implies(ply.blocked, ak + am >= 1))
        # a placement's id is the ply it first occurred at
        add(z3.Or(q == t, *[z3.And(q == i, self.plies[i].placement == i) for i in range(t)]))
        if t == 0:
            add(last == 0, z3.Not(ply.by_man))
            if ply.played is not None:
                add(*(v == 0 for v in ply.played[2:]))
            return t
        assert kind is not None
        self._add_move(t, kind)
        add(last == ite(kind == KING_MOVE, self.plies[t - 1].last_irreversible, t))
        if ply.played is not None:
            self._add_played(t)
        for i in range(t):
            earlier = self.plies[i]
            if t - i < self.min_return_plies:
                add(earlier.placement != q)
                continue
            facts = [last <= i, earlier.diag == ply.diag]
            if (t - i) % 2 == 0:
                facts.append(earlier.blocked == ply.blocked)
            add(z3.Implies(earlier.placement == q, z3.And(facts)))
        return t

    def _add_played(self, t: int) -> None:
        """The facts of ``played``: see the class docstring."""
        before, now = self.plies[t - 1], self.plies[t]
        assert before.played is not None
        assert now.played is not None
        qa0, qp0, wl0, bl0, ws0, bs0 = before.played
        qa, qp, wl, bl, ws, bs = now.played
        white_moved = self.white_to_move(t - 1)
        own = self.kind_is(t, MAN_MOVE, PROMOTION)
        capture = self.kind_is(t, CAPTURE)
        add = self.solver.add
        add(qp != qa0, z3.If(capture, qa != qp0, qa == qp0))
        white_lost_for_good = z3.Or(z3.And(white_moved, own), z3.And(z3.Not(white_moved), capture))
        black_lost_for_good = z3.Or(z3.And(z3.Not(white_moved), own), z3.And(white_moved, capture))
        add(wl == ite(white_lost_for_good, t, wl0), bl == ite(black_lost_for_good, t, bl0))
        add(
            ws == ws0 + ite(z3.And(white_moved, own), 1, 0),
            bs == bs0 + ite(z3.And(z3.Not(white_moved), own), 1, 0),
        )
        add(ws <= 9 * self.white(0, "men") + 2 * (self.black(0, "pieces") - self.black(t, "pieces")))
        add(bs <= 9 * self.black(0, "men") + 2 * (self.white(0, "pieces") - self.white(t, "pieces")))
        for i in range(t):
            earlier = self.plies[i]
            assert earlier.played is not None
            ea, ep = earlier.played[0], earlier.played[1]
            even = (t - i) % 2 == 0
            pairs = ((ea, qa if even else qp), (ep, qp if even else qa))
            # the side to move at ply i moves at plies i+1, i+3, ...; the other at i+2, i+4, ...
            for (was, now_id), moves, white in zip(
                pairs,
                ((t - i + 1) // 2, (t - i) // 2),
                (self.white_to_move(i), z3.Not(self.white_to_move(i))),
                strict=True,
            ):
                if moves == 1:
                    add(was != now_id)
                else:
                    add(z3.Implies(was == now_id, ite(white, wl, bl) <= i))
            add(z3.And([a == b for a, b in pairs]) == (earlier.placement == now.placement))

    def _add_move(self, t: int, kind: Number) -> None:
        """Art. 3, 4: what each kind of move does to the material of the mover and the other side.

        The mover is the active side of ply ``t - 1`` and the passive side of ply ``t``."""
        before, after = self.plies[t - 1], self.plies[t]
        mk, mm, ok, om = before.active_kings, before.active_men, before.passive_kings, before.passive_men
        mk2, mm2, ok2, om2 = after.passive_kings, after.passive_men, after.active_kings, after.active_men
        same_mover = z3.And(mk2 == mk, mm2 == mm)
        crowned = z3.And(mm >= 1, mk2 == mk + 1, mm2 == mm - 1)
        by_man = after.by_man
        same_other = z3.And(ok2 == ok, om2 == om)
        king = [] if KING_NEEDS_KING in self.dropped else [mk >= 1]
        keeps = [same_mover, same_other]
        if KING_KEEPS_MATERIAL in self.dropped:
            keeps = [same_mover, z3.Or(same_other, z3.And(ok2 <= ok, om2 <= om))]
        self.solver.add(
            kind >= 0,
            kind <= 3,
            z3.Implies(kind == KING_MOVE, z3.And(*king, *keeps)),
            z3.Implies(kind == MAN_MOVE, z3.And(mm >= 1, same_mover, same_other)),
            z3.Implies(kind == PROMOTION, z3.And(crowned, same_other)),
            z3.Implies(
                kind == CAPTURE,
                z3.And(
                    mk + mm >= 1,
                    ok2 <= ok,
                    om2 <= om,
                    ok2 + om2 < ok + om,
                    z3.Or(same_mover, z3.And(crowned, by_man)),
                ),
            ),
            z3.Implies(by_man, z3.And(kind == CAPTURE, mm >= 1)),
        )

    def grow(self) -> int:
        """Add the next ply; return its number."""
        return self._add_ply()

    def fix(self, start: Start, events: list[Event]) -> list[z3.BoolRef]:
        """Constraints making this trace exactly ``start`` and ``events`` (as deep as the trace)."""

        def same(t: int, material: Material, placement: int, blocked: bool, diag: bool) -> list[z3.BoolRef]:
            p = self.plies[t]
            return [
                self.white(t, "kings") == material.white_kings,
                self.white(t, "men") == material.white_men,
                self.black(t, "kings") == material.black_kings,
                self.black(t, "men") == material.black_men,
                p.placement == placement,
                p.blocked == blocked,
                p.diag == diag,
            ]

        facts = same(0, start.material, start.placement, start.blocked, start.long_diagonal)
        facts += [
            self.white_first == (start.turn is Side.WHITE),
            self.occurrences0 == start.occurrences,
            self.no_progress0 == start.no_progress_plies,
            self.endgame0 == start.endgame_plies,
        ]
        for t, event in enumerate(events[: self.depth], start=1):
            p = self.plies[t]
            assert p.kind is not None
            facts += same(t, event.material, event.placement, event.blocked, event.long_diagonal)
            facts += [p.kind == KINDS.index(event.kind), p.by_man == event.by_man]
        return facts

    # -- reading a model back ------------------------------------------------------------

    def decode(self, model: z3.ModelRef) -> tuple[Start, list[Event]]:
        """The setup and the events of a model, as the plain-Python reading takes them."""

        def num(expr: Number) -> int:
            return int(model.eval(expr, model_completion=True).as_long())

        def truth(expr: z3.BoolRef) -> bool:
            return bool(z3.is_true(model.eval(expr, model_completion=True)))

        def material(t: int) -> Material:
            return Material(
                num(self.white(t, "kings")),
                num(self.white(t, "men")),
                num(self.black(t, "kings")),
                num(self.black(t, "men")),
            )

        setup = self.plies[0]
        start = Start(
            material(0),
            Side.WHITE if truth(self.white_first) else Side.BLACK,
            num(setup.placement),
            truth(setup.blocked),
            truth(setup.diag),
            num(self.occurrences0),
            num(self.no_progress0),
            num(self.endgame0),
        )
        events = []
        for t, p in enumerate(self.plies[1:], start=1):
            assert p.kind is not None
            kind = KINDS[num(p.kind)]
            events.append(
                Event(kind, material(t), num(p.placement), truth(p.blocked), truth(p.diag), truth(p.by_man))
            )
        return start, events
