"""rules.md's Art. 6 and 7.2 stated over the raw history of a game: what the draw machine is proved
against.

:class:`Spec` reads an :class:`~conformance.verify.draw_smt.EventTrace` -- what was played at each
ply, the material after it (by role: the side to move, the side that just moved), the placements,
blocked positions -- with helpers of its own: it shares nothing with the transition system
(:class:`~conformance.verify.draw_machine.DrawMachine`), so that a bug in the machine cannot hide
behind the same bug in the statement. Where the two must share a definition -- the group of an
ending (6.3, 6.4) -- it is stated here once (:meth:`Spec.group`), and the property
``group-of-the-ending`` of :mod:`conformance.verify.draw_bmc` proves that the machine agrees with it.

The statements are the project's readings (``cases/articles.yaml``): a count does not restart
inside its group, runs from the ply its group was entered, and stops applying when the game leaves
the group; only a lone king is a weak side; the 2024 long-diagonal clause is not applied; a win
beats a draw on the same ply; the lowest article is named. The counts (moves each) come from the
rules given (:data:`~conformance.verify.draw_bmc.SMALL` shortens them); rules with a reading read
the other way are refused -- a control flips the machine, never the statement.
"""

from __future__ import annotations

import z3

from conformance.core.draw_events import (
    DRAW_ARTICLES,
    NO_PROGRESS,
    REPETITION,
    DrawRules,
    Group,
)
from conformance.verify.draw_smt import KING_MOVE, EventTrace, Number, ite, value


class Spec:
    """The draw rules of Art. 6 and the game end of 7.2 over the history of ``trace`` (a game
    from a start: default counters), under the project's readings with the counts of ``rules``."""

    def __init__(self, trace: EventTrace, rules: DrawRules) -> None:
        readings = DrawRules(
            repetition_draw=rules.repetition_draw,
            no_progress_moves=rules.no_progress_moves,
            groups=tuple(Group(g.article, g.endings, g.moves_each) for g in rules.groups),
        )
        if rules != readings:
            raise ValueError("the spec states the project's readings: only the counts may differ")
        self.trace = trace
        self.rules = rules
        self._groups: dict[int, Number] = {}
        self._king_runs: dict[int, Number] = {}
        self._group_runs: dict[int, Number] = {}

    # -- the history, read directly ---------------------------------------------------------

    def white_moves(self, t: int) -> z3.BoolRef:
        """White has the move at ply ``t``: it had it at the setup exactly when ``t`` is even."""
        return z3.Xor(self.trace.white_first, z3.BoolVal(t % 2 == 1))

    def kings_and_men(self, t: int, to_move: bool) -> tuple[Number, Number]:
        """The kings and men of the side to move at ``t`` (else of the side that just moved)."""
        p = self.trace.plies[t]
        return (p.active_kings, p.active_men) if to_move else (p.passive_kings, p.passive_men)

    def pieces(self, t: int, to_move: bool) -> Number:
        kings, men = self.kings_and_men(t, to_move)
        return kings + men

    def king_move(self, t: int) -> z3.BoolRef:
        """The move of ply ``t`` (1 or later) is a king's move without capture."""
        kind = self.trace.plies[t].kind
        assert kind is not None, "the setup has no move"
        return kind == KING_MOVE

    def lone_man(self, t: int) -> z3.BoolRef:
        """A side has one piece, a man."""
        return z3.Or(
            [z3.And(kings == 0, men == 1) for kings, men in (self.kings_and_men(t, s) for s in (True, False))]
        )

    # -- the group of an ending: the one definition the machine must agree with ---------------

    def group(self, t: int) -> Number:
        """The group of the ending at ``t``: 0 when the material is no ending of 6.3/6.4, else
        i + 1 for the i-th group of the rules. rules.md: one side has exactly one piece, a king;
        the other side's kings and men are one of the group's endings."""
        if t not in self._groups:
            code: Number = value(0)
            for index, g in reversed(list(enumerate(self.rules.groups))):
                code = ite(z3.Or([self._ending(t, e.kings, e.men) for e in g.endings]), index + 1, code)
            self._groups[t] = code
        return self._groups[t]

    def _ending(self, t: int, kings: int, men: int) -> z3.BoolRef:
        options = []
        for strong in (True, False):
            sk, sm = self.kings_and_men(t, strong)
            wk, wm = self.kings_and_men(t, not strong)
            options.append(z3.And(sk == kings, sm == men, wk == 1, wm == 0))
        return z3.Or(options)

    def code(self, article: str) -> int:
        return next(i + 1 for i, g in enumerate(self.rules.groups) if g.article == article)

    def limit(self, article: str) -> int:
        """The count of 6.2, 6.3 or 6.4 in plies."""
        if article == NO_PROGRESS:
            assert self.rules.no_progress_moves is not None
            return 2 * self.rules.no_progress_moves
        return 2 * next(g.moves_each for g in self.rules.groups if g.article == article)

    def in_group_since(self, t: int, article: str, plies: int) -> z3.BoolRef:
        """The positions of plies ``t - plies`` .. ``t`` are all endings of the group ``article``."""
        if t < plies:
            return z3.BoolVal(False)
        return z3.And([self.group(k) == self.code(article) for k in range(t - plies, t + 1)])

    # -- the counts, from the history -------------------------------------------------------

    def same_position(self, earlier: int, later: int) -> z3.BoolRef:
        """The same placement with the same side to move (6.1)."""
        if (later - earlier) % 2:
            return z3.BoolVal(False)
        return self.trace.plies[earlier].placement == self.trace.plies[later].placement

    def occurrences(self, t: int) -> Number:
        """How many times the position at ``t`` has occurred, this time included."""
        return value(1) + z3.Sum([ite(self.same_position(i, t), 1, 0) for i in range(t)])

    def king_run(self, t: int) -> Number:
        """Plies since the last man move, promotion or capture (or since the setup)."""
        if t not in self._king_runs:
            self._king_runs[t] = value(0) if t == 0 else ite(self.king_move(t), self.king_run(t - 1) + 1, 0)
        return self._king_runs[t]

    def group_run(self, t: int) -> Number:
        """Plies since the game entered the group it is in at ``t`` (0 outside the groups)."""
        if t not in self._group_runs:
            same = (
                value(0) if t == 0 else ite(self.group(t) == self.group(t - 1), self.group_run(t - 1) + 1, 0)
            )
            self._group_runs[t] = ite(self.group(t) == 0, 0, same)
        return self._group_runs[t]

    # -- the rules --------------------------------------------------------------------------

    def expired(self, t: int, article: str) -> z3.BoolRef:
        """The draw rule ``article`` holds at ``t`` by the history alone:

        6.1 -- the position occurred twice before (placement and side to move);
        6.2 -- the last 50 plies were all king moves without capture;
        6.3/6.4 -- the last L + 1 positions (L: the count in plies) were all endings of its group."""
        if article == REPETITION:
            if self.rules.repetition_draw is None or t == 0:
                return z3.BoolVal(False)
            same = [self.same_position(i, t) for i in range(t)]
            return z3.AtLeast(*same, self.rules.repetition_draw - 1)
        if article == NO_PROGRESS:
            if self.rules.no_progress_moves is None or t < self.limit(article):
                return z3.BoolVal(False)
            return z3.And([self.king_move(k) for k in range(t - self.limit(article) + 1, t + 1)])
        return self.in_group_since(t, article, self.limit(article))

    def articles(self) -> tuple[str, ...]:
        present = {REPETITION, NO_PROGRESS, *(g.article for g in self.rules.groups)}
        return tuple(a for a in DRAW_ARTICLES if a in present)

    def lower(self, t: int, article: str) -> z3.BoolRef:
        """A draw rule of a lower article than ``article`` holds at ``t``."""
        below = DRAW_ARTICLES[: DRAW_ARTICLES.index(article)]
        return z3.Or([self.expired(t, a) for a in self.articles() if a in below])

    def no_pieces(self, t: int) -> z3.BoolRef:
        return self.pieces(t, to_move=True) == 0

    def loss(self, t: int) -> z3.BoolRef:
        """7.2: the side to move has no piece, or all its pieces are blocked."""
        return z3.Or(self.no_pieces(t), self.trace.plies[t].blocked)

    def decides(self, t: int, article: str) -> z3.BoolRef:
        """The outcome at ``t`` is a draw by ``article``: it holds, nobody has lost, no lower one holds."""
        return z3.And(self.expired(t, article), z3.Not(self.loss(t)), z3.Not(self.lower(t, article)))
