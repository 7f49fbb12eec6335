"""The draw bookkeeping of Art. 6 and the game end of Art. 7.2 as a transition system in z3.

:class:`DrawMachine` keeps, over an :class:`~conformance.verify.draw_smt.EventTrace`, what a
program playing the game keeps: per ply the occurrences of the position (6.1), the no-progress
count (6.2), the group of the ending and its count (6.3/6.4), the counts of groups left that still
apply (only when a reading says so), and the outcome (result and rule codes,
:data:`~conformance.verify.draw_smt.RESULTS`). Several machines over one trace compare two
readings on the same games.

The machine is built from small pieces, each one method (:data:`DrawMachine.PIECES`): the helpers
that read the trace, each counter's update, its reset, the expiries, the loss, the win against a
draw, the tie-break, the winner and the rules of a win. It reads only the trace's raw variables
(material by role, kind of move, placement, blocked, long diagonal, side to move first), never the
statements it is proved against (:mod:`conformance.verify.draw_spec`), so that a bug in any piece
makes some proof of :mod:`conformance.verify.draw_bmc` fail: :mod:`conformance.verify.draw_mutation`
overrides each piece in turn and shows it.
"""

from __future__ import annotations

from typing import ClassVar

import z3

from conformance.core.draw_events import (
    BLOCKED,
    NO_PIECES,
    NO_PROGRESS,
    REPETITION,
    DrawOutcome,
    DrawRules,
    Group,
)
from conformance.verify.draw_smt import (
    BLACK_WINS_CODE,
    CAPTURE,
    DRAW_CODE,
    KING_MOVE,
    MAN_MOVE,
    ONGOING_CODE,
    PROMOTION,
    RESULTS,
    WHITE_WINS_CODE,
    EventTrace,
    Number,
    ite,
    value,
    variables,
)

NONE: int = -1
"""The value of a count that does not run (a group left whose count no longer applies)."""


class DrawMachine:
    """The Art. 6 counters and the outcome of ``rules`` over an :class:`EventTrace`.

    Per ply: ``occurrences``, ``no_progress``, ``group`` (0: no ending, i + 1: ``rules.groups[i]``),
    ``endgame`` (its count), ``lingering`` (per group whose count outlives it, ``Group.ends_on_exit``
    off: its count, or :data:`NONE`), ``result`` and ``rule`` codes, and the draw rules that expire
    there (``expiring``: article -> Bool). Call :meth:`grow` after every :meth:`EventTrace.grow`.
    """

    PIECES: ClassVar[tuple[str, ...]] = (
        "white_to_move",
        "is_lone",
        "in_group",
        "group_at",
        "same_position",
        "resets_no_progress",
        "occurrences_at",
        "no_progress_at",
        "enters_group",
        "endgame_at",
        "limit_of",
        "expiring_at",
        "no_pieces",
        "lost",
        "win_stands",
        "draw_rule",
        "winner",
        "loss_rule",
    )
    """The pieces of the machine, each one method: what a mutant overrides (one at a time). Not
    among them: :meth:`changes_ending`, :meth:`_lingering_at` and :meth:`_ran_out_with_the_move`,
    which run only under a reading read the other way (``restarts_on_change``, ``ends_on_exit``
    off, ``draws_before_win``), never under the project's;
    the controls of :mod:`conformance.verify.draw_bmc` run them."""

    def __init__(self, trace: EventTrace, rules: DrawRules, name: str = "m") -> None:
        self.trace = trace
        self.rules = rules
        self.name = name
        self.occurrences: list[Number] = []
        self.no_progress: list[Number] = []
        self.group: list[Number] = []
        self.endgame: list[Number] = []
        self.lingering: dict[int, list[Number]] = {
            index: [] for index, g in enumerate(rules.groups) if not g.ends_on_exit
        }
        self.result: list[Number] = []
        self.rule: list[Number] = []
        self.expiring: list[dict[str, z3.BoolRef]] = []
        while len(self.result) < len(trace.plies):
            self.grow()

    # -- reading the trace -----------------------------------------------------------------

    def white_to_move(self, t: int) -> z3.BoolRef:
        """White is to move at ply ``t`` (the sides alternate from the setup's)."""
        return self.trace.white_first if t % 2 == 0 else z3.Not(self.trace.white_first)

    def is_lone(self, kings: Number, men: Number, group: Group) -> z3.BoolRef:
        """A side of ``kings`` and ``men`` is the weak side of ``group``: one king (or, if the group
        is not ``lone_king_only``, one piece)."""
        if group.lone_king_only:
            return z3.And(kings == 1, men == 0)
        return kings + men == 1

    def in_group(self, t: int, group: Group) -> z3.BoolRef:
        """The material at ``t`` is an ending of ``group``: either side strong, the other lone."""
        p = self.trace.plies[t]
        sides = ((p.active_kings, p.active_men), (p.passive_kings, p.passive_men))
        options = []
        for (sk, sm), (wk, wm) in (sides, sides[::-1]):
            lone = self.is_lone(wk, wm, group)
            options += [z3.And(lone, sk == e.kings, sm == e.men) for e in group.endings]
        return z3.Or(options)

    def group_at(self, t: int) -> Number:
        """The group code at ``t``: 0 no ending, i + 1 for ``rules.groups[i]`` (the first that fits)."""
        code: Number = value(0)
        for index in reversed(range(len(self.rules.groups))):
            code = ite(self.in_group(t, self.rules.groups[index]), index + 1, code)
        return code

    def same_position(self, earlier: int, later: int) -> z3.BoolRef:
        """The positions at two plies are the same: the placement, and the side to move (6.1)
        unless the rules leave it out. A placement never recurs sooner than the trace allows."""
        distance = later - earlier
        if distance < self.trace.min_return_plies or (self.rules.repetition_has_turn and distance % 2):
            return z3.BoolVal(False)
        return self.trace.plies[earlier].placement == self.trace.plies[later].placement

    def _kind_in(self, t: int, *kinds: int) -> z3.BoolRef:
        kind = self.trace.plies[t].kind
        assert kind is not None, "the setup has no move"
        return z3.Or([kind == k for k in kinds]) if kinds else z3.BoolVal(False)

    def resets_no_progress(self, t: int) -> z3.BoolRef:
        """6.2: the move of ply ``t`` restarts the count: a man move, a promotion, a capture (as the
        rules say; a capture by a man is a man move too)."""
        rules, kinds = self.rules, []
        if rules.man_move_resets:
            kinds += [MAN_MOVE, PROMOTION]
        if rules.capture_resets:
            kinds.append(CAPTURE)
        reset = self._kind_in(t, *kinds)
        if rules.man_move_resets and not rules.capture_resets:
            reset = z3.Or(reset, self.trace.plies[t].by_man)
        return reset

    def changes_ending(self, t: int) -> z3.BoolRef:
        """The move of ply ``t`` changes an ending (for ``restarts_on_change``): any but a king move."""
        return z3.Not(self._kind_in(t, KING_MOVE))

    # -- the counters ----------------------------------------------------------------------

    def occurrences_at(self, t: int) -> Number:
        """6.1: one more than at the latest earlier occurrence of the position, else 1."""
        found: Number = value(1)
        for i in range(t):
            found = ite(self.same_position(i, t), self.occurrences[i] + 1, found)
        return found

    def no_progress_at(self, t: int) -> Number:
        """6.2: 0 after a reset, else one more than before."""
        return ite(self.resets_no_progress(t), 0, self.no_progress[t - 1] + 1)

    def enters_group(self, t: int, group: Number) -> z3.BoolRef:
        """The game enters the group ``group`` at ``t``: from no ending, or from another group
        whose count does not carry into this one (``fresh_count_on_entry``)."""
        before = self.group[t - 1]
        entered = group != before
        fresh = [i + 1 for i, g in enumerate(self.rules.groups) if g.fresh_count_on_entry]
        if len(fresh) < len(self.rules.groups):
            into_fresh = [group == code for code in fresh]
            entered = z3.And(entered, z3.Or(before == 0, *into_fresh) if into_fresh else before == 0)
        return entered

    def endgame_at(self, t: int, group: Number) -> Number:
        """6.3/6.4: 0 outside the groups, on entering one, or on a change restarting it; else one more."""
        entered = self.enters_group(t, group)
        restarting = [i + 1 for i, g in enumerate(self.rules.groups) if g.restarts_on_change]
        restart = z3.And(z3.Or([group == code for code in restarting]), self.changes_ending(t))
        return ite(group == 0, 0, ite(z3.Or(entered, restart), 0, self.endgame[t - 1] + 1))

    def _lingering_at(self, t: int, index: int, group: Number, endgame: Number) -> Number:
        """The count of group ``index`` that outlives it: its own count while in it, one more per ply
        while the game stays in endings after it, :data:`NONE` otherwise."""
        own = index + 1
        if t == 0:
            return ite(group == own, endgame, NONE)
        before = self.lingering[index][t - 1]
        return ite(group == own, endgame, ite(z3.And(group != 0, before != NONE), before + 1, NONE))

    # -- the outcome -----------------------------------------------------------------------

    def limit_of(self, index: int, t: int) -> Number:
        """The plies after which group ``index`` draws at ``t`` (the 2024 clause, if applied)."""
        g = self.rules.groups[index]
        full, short = self.rules.group_limit(g), self.rules.group_limit(g, long_diagonal=True)
        return value(full) if short == full else ite(self.trace.plies[t].diag, short, full)

    def expiring_at(self, t: int) -> dict[str, z3.BoolRef]:
        """The draw rules whose count has run out at ``t``, by article."""
        rules, expiring = self.rules, {}
        if rules.repetition_draw is not None:
            expiring[REPETITION] = self.occurrences[t] >= rules.repetition_draw
        if rules.no_progress_limit is not None:
            expiring[NO_PROGRESS] = self.no_progress[t] >= rules.no_progress_limit
        for index, g in enumerate(rules.groups):
            running = z3.And(self.group[t] == index + 1, self.endgame[t] >= self.limit_of(index, t))
            if index in self.lingering:
                left = z3.And(self.group[t] != 0, self.group[t] != index + 1)
                outlived = z3.And(left, self.lingering[index][t] >= rules.group_limit(g))
                running = z3.Or(running, outlived)
            expiring[g.article] = running
        return expiring

    def no_pieces(self, t: int) -> z3.BoolRef:
        """7.2.2: the side to move has no piece left."""
        p = self.trace.plies[t]
        return p.active_kings + p.active_men == 0

    def lost(self, t: int) -> z3.BoolRef:
        """7.2: the side to move has lost -- no piece, or every piece blocked."""
        return z3.Or(self.no_pieces(t), self.trace.plies[t].blocked)

    def win_stands(self, t: int, expiring: dict[str, z3.BoolRef]) -> z3.BoolRef:
        """A loss on a ply is the other side's win unless a draw the rules put first expires there
        (reading ``win-beats-draw``: none)."""
        before = [expiring[a] for a in self.rules.draws_before_win if a in expiring]
        return z3.Not(z3.Or(before)) if before else z3.BoolVal(True)

    def _ran_out_with_the_move(self, t: int) -> dict[str, z3.BoolRef]:
        """For ``draws_before_win`` (read otherwise only): the group whose count the move of ``t``
        brought to its limit, counted as if the game were still in it."""
        found: dict[str, z3.BoolRef] = {}
        for index, g in enumerate(self.rules.groups):
            if t and g.article in self.rules.draws_before_win:
                limit = self.rules.group_limit(g)
                found[g.article] = z3.And(self.group[t - 1] == index + 1, self.endgame[t - 1] + 1 >= limit)
        return found

    def draw_rule(self, expiring: dict[str, z3.BoolRef]) -> Number:
        """The rule code of the draw reported: the first expiring one in the rules' precedence."""
        code: Number = value(0)
        for article in reversed(self.rules.precedence):
            if article in expiring:
                code = ite(expiring[article], self.trace.rule_code(article), code)
        return code

    def winner(self, t: int) -> Number:
        """The result code of a win at ``t``: the side to move has lost."""
        return ite(self.white_to_move(t), BLACK_WINS_CODE, WHITE_WINS_CODE)

    def loss_rule(self, t: int) -> Number:
        """The rule code of a win: 7.2.2 when the loser has no piece, else 7.2.3."""
        return ite(self.no_pieces(t), self.trace.rule_code(NO_PIECES), self.trace.rule_code(BLOCKED))

    # -- growing ---------------------------------------------------------------------------

    def grow(self) -> None:
        t = len(self.result)
        trace = self.trace
        if t >= len(trace.plies):
            raise ValueError(f"grow the trace first: it has {trace.depth} plies, the machine {t}")
        group = self.group_at(t)
        if t == 0:
            occurrences, no_progress = trace.occurrences0, trace.no_progress0
            endgame = ite(group == 0, 0, trace.endgame0)
        else:
            occurrences, no_progress = self.occurrences_at(t), self.no_progress_at(t)
            endgame = self.endgame_at(t, group)
        names = f"{self.name}{t}"
        state = variables(f"{names}_occ {names}_np {names}_grp {names}_clk")
        for var, expr in zip(state, (occurrences, no_progress, group, endgame), strict=True):
            trace.solver.add(var == expr)
        self.occurrences.append(state[0])
        self.no_progress.append(state[1])
        self.group.append(state[2])
        self.endgame.append(state[3])
        for index, counts in self.lingering.items():
            (linger,) = variables(f"{names}_linger{index}")
            trace.solver.add(linger == self._lingering_at(t, index, state[2], state[3]))
            counts.append(linger)
        self._judge(t)

    def _judge(self, t: int) -> None:
        # (the terms are made in a fixed order: z3's search, and so the games the synthesis of
        # conformance.verify.draw_synthesis finds, depend on it)
        expiring = self.expiring_at(t)
        lost = self.lost(t)
        for article, ran_out in self._ran_out_with_the_move(t).items():
            expiring[article] = z3.Or(expiring[article], z3.And(lost, ran_out))
        self.expiring.append(expiring)
        any_draw = z3.Or(list(expiring.values())) if expiring else z3.BoolVal(False)
        win = z3.And(lost, self.win_stands(t, expiring))
        draw_rule = self.draw_rule(expiring)
        result = ite(win, self.winner(t), ite(any_draw, DRAW_CODE, ONGOING_CODE))
        rule = ite(win, self.loss_rule(t), draw_rule)
        names = f"{self.name}{t}"
        result_var, rule_var = variables(f"{names}_result {names}_rule")
        self.trace.solver.add(result_var == result, rule_var == rule)
        self.result.append(result_var)
        self.rule.append(rule_var)

    # -- questions -------------------------------------------------------------------------

    def ongoing(self, ply: int) -> z3.BoolRef:
        return self.result[ply] == ONGOING_CODE

    def draw_by(self, ply: int, article: str) -> z3.BoolRef:
        return z3.And(self.result[ply] == DRAW_CODE, self.rule[ply] == self.trace.rule_code(article))

    def same_outcome(self, other: DrawMachine, ply: int) -> z3.BoolRef:
        return z3.And(self.result[ply] == other.result[ply], self.rule[ply] == other.rule[ply])

    def setup_valid(self) -> z3.BoolRef:
        """The checks a setup's counters must pass (rules.md; the oracle refuses the others):
        not already at a limit; an endgame count only in an ending; a no-progress count only
        after king moves of sides that have kings; a repeated position only after four king plies
        per earlier occurrence; in an ending, no more no-progress plies than endgame plies."""
        trace, rules = self.trace, self.rules
        occ, np, clk = trace.occurrences0, trace.no_progress0, trace.endgame0
        facts = [occ >= 1, np >= 0, clk >= 0]
        if rules.repetition_draw is not None:
            facts.append(occ < rules.repetition_draw)
        if rules.no_progress_moves is not None:
            facts.append(np < 2 * rules.no_progress_moves)
        group = self.group[0]
        facts.append(z3.Implies(group == 0, clk == 0))
        for index, g in enumerate(rules.groups):
            facts.append(z3.Implies(group == index + 1, clk < g.plies))
        facts.append(z3.Implies(np >= 1, trace.just_moved(0, "kings") >= 1))
        facts.append(z3.Implies(np >= 2, trace.to_move(0, "kings") >= 1))
        facts.append(z3.Implies(occ >= 2, np >= 4 * (occ - 1)))
        facts.append(z3.Implies(group != 0, np <= clk))
        return z3.And(facts)

    def decode(self, model: z3.ModelRef, upto: int | None = None) -> list[DrawOutcome]:
        """The outcome at each ply of a model, up to ``upto`` (default: every ply)."""
        found = []
        for t in range(len(self.result) if upto is None else upto + 1):
            result = RESULTS[model.eval(self.result[t], model_completion=True).as_long()]
            if result == "ongoing":
                found.append(DrawOutcome(result))
                continue
            code = model.eval(self.rule[t], model_completion=True).as_long()
            found.append(DrawOutcome(result, self.trace.article(code), t))
        return found
