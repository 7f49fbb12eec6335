"""The mutants of the draw machine: each piece of it overridden by the kind of bug a programmer makes there.

Each :class:`MachineMutant` is :class:`~conformance.verify.draw_machine.DrawMachine` with one piece
(:data:`DrawMachine.PIECES`: a helper, a counter's update or reset, an expiry, the win against a
draw, the tie-break, the winner...) overridden by one bug, and names the property written to catch
it; every piece has at least one (:data:`MUTANTS`). Scoring the proofs against them is
:mod:`conformance.verify.draw_mutation`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final

import z3

from conformance.core.draw_events import NO_PROGRESS, REPETITION, Group
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_smt import (
    BLACK_WINS_CODE,
    CAPTURE,
    KING_MOVE,
    MAN_MOVE,
    PROMOTION,
    WHITE_WINS_CODE,
    Number,
    ite,
    value,
)

__all__ = ["MUTANTS", "MachineMutant"]


@dataclasses.dataclass(frozen=True)
class MachineMutant:
    """The machine with one piece broken: its name, the piece, the bug, and the machine class."""

    name: str
    piece: str
    bug: str
    machine: type[DrawMachine]
    killer: str
    """The property written to catch this kind of bug: asked first (any other may kill it too)."""


def _mutant(name: str, killer: str, piece: str, bug: str, method: Callable[..., object]) -> MachineMutant:
    machine = type(f"Mutant_{name.replace('-', '_').replace('.', '_')}", (DrawMachine,), {piece: method})
    return MachineMutant(name, piece, bug, machine, killer)


# -- the bugs, one method each (``self`` is the machine) ----------------------------------------


def _white_first_always(self: DrawMachine, t: int) -> z3.BoolRef:
    return z3.BoolVal(t % 2 == 0)


def _lone_any_piece(self: DrawMachine, kings: Number, men: Number, group: Group) -> z3.BoolRef:
    return kings + men == 1


def _lone_one_king_with_men(self: DrawMachine, kings: Number, men: Number, group: Group) -> z3.BoolRef:
    return kings == 1


def _strong_side_to_move_only(self: DrawMachine, t: int, group: Group) -> z3.BoolRef:
    p = self.trace.plies[t]
    lone = self.is_lone(p.passive_kings, p.passive_men, group)
    return z3.Or([z3.And(lone, p.active_kings == e.kings, p.active_men == e.men) for e in group.endings])


def _strong_kings_only(self: DrawMachine, t: int, group: Group) -> z3.BoolRef:
    p = self.trace.plies[t]
    sides = ((p.active_kings, p.active_men), (p.passive_kings, p.passive_men))
    options = []
    for (sk, _), (wk, wm) in (sides, sides[::-1]):
        options += [z3.And(self.is_lone(wk, wm, group), sk == e.kings) for e in group.endings]
    return z3.Or(options)


def _groups_swapped(self: DrawMachine, t: int) -> Number:
    code: Number = value(0)
    for index in range(len(self.rules.groups)):  # the last that fits, numbered from the end
        code = ite(self.in_group(t, self.rules.groups[index]), len(self.rules.groups) - index, code)
    return code


def _placement_only(self: DrawMachine, earlier: int, later: int) -> z3.BoolRef:
    if later - earlier < self.trace.min_return_plies:
        return z3.BoolVal(False)
    return self.trace.plies[earlier].placement == self.trace.plies[later].placement


def _six_plies_apart(self: DrawMachine, earlier: int, later: int) -> z3.BoolRef:
    if later - earlier < 6 or (later - earlier) % 2:
        return z3.BoolVal(False)
    return self.trace.plies[earlier].placement == self.trace.plies[later].placement


def _kinds_reset(*kinds: int) -> Callable[[DrawMachine, int], z3.BoolRef]:
    def resets(self: DrawMachine, t: int) -> z3.BoolRef:
        kind = self.trace.plies[t].kind
        assert kind is not None
        return z3.Or([kind == k for k in kinds])

    return resets


def _first_occurrence(self: DrawMachine, t: int) -> Number:
    found: Number = value(1)
    for i in reversed(range(t)):  # the earliest earlier occurrence wins
        found = ite(self.same_position(i, t), self.occurrences[i] + 1, found)
    return found


def _occurrence_not_counted(self: DrawMachine, t: int) -> Number:
    found: Number = value(1)
    for i in range(t):
        found = ite(self.same_position(i, t), self.occurrences[i], found)
    return found


def _reset_to_one(self: DrawMachine, t: int) -> Number:
    return ite(self.resets_no_progress(t), 1, self.no_progress[t - 1] + 1)


def _no_progress_frozen(self: DrawMachine, t: int) -> Number:
    return ite(self.resets_no_progress(t), 0, self.no_progress[t - 1] + (1 if t % 2 == 0 else 0))


def _entered_from_nothing_only(self: DrawMachine, t: int, group: Number) -> z3.BoolRef:
    return z3.And(group != self.group[t - 1], self.group[t - 1] == 0)


def _entered_every_ply(self: DrawMachine, t: int, group: Number) -> z3.BoolRef:
    return group != 0


def _restart_on_change(self: DrawMachine, t: int, group: Number) -> Number:
    fresh = z3.Or(self.enters_group(t, group), self.changes_ending(t))
    return ite(group == 0, 0, ite(fresh, 0, self.endgame[t - 1] + 1))


def _kept_outside(self: DrawMachine, t: int, group: Number) -> Number:
    return ite(self.enters_group(t, group), 0, self.endgame[t - 1] + 1)


def _entered_at_one(self: DrawMachine, t: int, group: Number) -> Number:
    return ite(group == 0, 0, ite(self.enters_group(t, group), 1, self.endgame[t - 1] + 1))


def _limit_short(article: str) -> Callable[[DrawMachine, int, int], Number]:
    def limit(self: DrawMachine, index: int, t: int) -> Number:
        g = self.rules.groups[index]
        return value(self.rules.group_limit(g) - (1 if g.article == article else 0))

    return limit


def _diagonal_applied(self: DrawMachine, index: int, t: int) -> Number:
    g = self.rules.groups[index]
    return ite(self.trace.plies[t].diag, g.plies // 3, self.rules.group_limit(g))


def _expiring_with(change: str) -> Callable[[DrawMachine, int], dict[str, z3.BoolRef]]:
    """An expiry miscomputed: a strict comparison, or a group's count read without its group."""

    def expiring(self: DrawMachine, t: int) -> dict[str, z3.BoolRef]:
        found = DrawMachine.expiring_at(self, t)
        rules = self.rules
        if change == "6.1 strict" and rules.repetition_draw is not None:
            found[REPETITION] = self.occurrences[t] > rules.repetition_draw
        elif change == "6.2 strict" and rules.no_progress_limit is not None:
            found[NO_PROGRESS] = self.no_progress[t] > rules.no_progress_limit
        elif change == "any group":
            for index, g in enumerate(rules.groups):
                found[g.article] = z3.And(self.group[t] != 0, self.endgame[t] >= self.limit_of(index, t))
        return found

    return expiring


def _mover_has_no_pieces(self: DrawMachine, t: int) -> z3.BoolRef:
    p = self.trace.plies[t]
    return p.passive_kings + p.passive_men == 0


def _blocked_ignored(self: DrawMachine, t: int) -> z3.BoolRef:
    return self.no_pieces(t)


def _draw_first(self: DrawMachine, t: int, expiring: dict[str, z3.BoolRef]) -> z3.BoolRef:
    return z3.Not(z3.Or(list(expiring.values()))) if expiring else z3.BoolVal(True)


def _highest_first(self: DrawMachine, expiring: dict[str, z3.BoolRef]) -> Number:
    code: Number = value(0)
    for article in self.rules.precedence:  # the last expiring one in the order wins
        if article in expiring:
            code = ite(expiring[article], self.trace.rule_code(article), code)
    return code


def _groups_before_6_1(self: DrawMachine, expiring: dict[str, z3.BoolRef]) -> Number:
    code: Number = value(0)
    for article in (REPETITION, NO_PROGRESS, *(g.article for g in reversed(self.rules.groups))):
        if article in expiring:  # 6.1 checked last, the groups first
            code = ite(expiring[article], self.trace.rule_code(article), code)
    return code


def _winner_swapped(self: DrawMachine, t: int) -> Number:
    return ite(self.white_to_move(t), WHITE_WINS_CODE, BLACK_WINS_CODE)


def _loss_rules_swapped(self: DrawMachine, t: int) -> Number:
    return ite(self.no_pieces(t), self.trace.rule_code("7.2.3"), self.trace.rule_code("7.2.2"))


def _blocked_always_7_2_3(self: DrawMachine, t: int) -> Number:
    return value(self.trace.rule_code("7.2.3"))


MUTANTS: Final[tuple[MachineMutant, ...]] = (
    _mutant(
        "white-always-first",
        "win-beats-draw",
        "white_to_move",
        "White is taken to move at every even ply",
        _white_first_always,
    ),
    _mutant(
        "lone-piece",
        "group-of-the-ending",
        "is_lone",
        "any single piece, a man too, is a weak side",
        _lone_any_piece,
    ),
    _mutant(
        "lone-king-with-men",
        "group-of-the-ending",
        "is_lone",
        "one king is a weak side even with men beside it",
        _lone_one_king_with_men,
    ),
    _mutant(
        "strong-side-to-move",
        "group-of-the-ending",
        "in_group",
        "only the side to move is taken as the strong side",
        _strong_side_to_move_only,
    ),
    _mutant(
        "strong-kings-only",
        "group-of-the-ending",
        "in_group",
        "the strong side's men are not compared",
        _strong_kings_only,
    ),
    _mutant(
        "groups-swapped", "group-of-the-ending", "group_at", "6.3's and 6.4's codes swapped", _groups_swapped
    ),
    _mutant(
        "placement-only",
        "6.1-occurrences-from-history",
        "same_position",
        "the side to move is left out of the position",
        _placement_only,
    ),
    _mutant(
        "six-plies-apart",
        "6.1-occurrences-from-history",
        "same_position",
        "a return within six plies is not seen",
        _six_plies_apart,
    ),
    _mutant(
        "man-move-no-reset",
        "6.2-count-from-history",
        "resets_no_progress",
        "a man move does not reset 6.2",
        _kinds_reset(PROMOTION, CAPTURE),
    ),
    _mutant(
        "promotion-no-reset",
        "6.2-count-from-history",
        "resets_no_progress",
        "a promotion does not reset 6.2",
        _kinds_reset(MAN_MOVE, CAPTURE),
    ),
    _mutant(
        "capture-no-reset",
        "6.2-count-from-history",
        "resets_no_progress",
        "a capture does not reset 6.2",
        _kinds_reset(MAN_MOVE, PROMOTION),
    ),
    _mutant(
        "king-move-resets",
        "6.2-count-from-history",
        "resets_no_progress",
        "a king move resets 6.2 too",
        _kinds_reset(KING_MOVE, MAN_MOVE, PROMOTION, CAPTURE),
    ),
    _mutant(
        "first-occurrence",
        "6.1-occurrences-from-history",
        "occurrences_at",
        "counted from the earliest occurrence, not the latest",
        _first_occurrence,
    ),
    _mutant(
        "occurrence-not-counted",
        "6.1-occurrences-from-history",
        "occurrences_at",
        "a recurrence is not counted",
        _occurrence_not_counted,
    ),
    _mutant(
        "reset-to-one",
        "6.2-count-from-history",
        "no_progress_at",
        "a reset sets 6.2's count to 1",
        _reset_to_one,
    ),
    _mutant(
        "no-progress-frozen",
        "6.2-count-from-history",
        "no_progress_at",
        "6.2 counts every other ply",
        _no_progress_frozen,
    ),
    _mutant(
        "carried-into-new-group",
        "endgame-count-from-history",
        "enters_group",
        "entering 6.4 from 6.3 keeps the count",
        _entered_from_nothing_only,
    ),
    _mutant(
        "entered-every-ply",
        "endgame-count-from-history",
        "enters_group",
        "the count starts again at every ply of a group",
        _entered_every_ply,
    ),
    _mutant(
        "restart-on-change",
        "endgame-count-from-history",
        "endgame_at",
        "a man move, promotion or capture restarts the count",
        _restart_on_change,
    ),
    _mutant(
        "kept-outside-groups",
        "endgame-count-from-history",
        "endgame_at",
        "the count runs on outside the groups",
        _kept_outside,
    ),
    _mutant(
        "count-from-one",
        "endgame-count-from-history",
        "endgame_at",
        "an ending arises with the count at 1",
        _entered_at_one,
    ),
    _mutant(
        "6.3-one-short", "6.3-count-from-arising", "limit_of", "6.3 draws a ply early", _limit_short("6.3")
    ),
    _mutant(
        "6.4-one-short", "6.4-count-from-arising", "limit_of", "6.4 draws a ply early", _limit_short("6.4")
    ),
    _mutant(
        "diagonal-applied",
        "6.3-count-from-arising",
        "limit_of",
        "the 2024 clause shortens 6.3 on the long diagonal",
        _diagonal_applied,
    ),
    _mutant(
        "6.1-strict",
        "6.1-third-occurrence",
        "expiring_at",
        "6.1 needs a fourth occurrence (> for >=)",
        _expiring_with("6.1 strict"),
    ),
    _mutant(
        "6.2-strict",
        "6.2-king-moves-since-progress",
        "expiring_at",
        "6.2 needs a 51st ply (> for >=)",
        _expiring_with("6.2 strict"),
    ),
    _mutant(
        "group-expiry-any-group",
        "6.4-count-from-arising",
        "expiring_at",
        "a group's limit read against any group's count",
        _expiring_with("any group"),
    ),
    _mutant(
        "mover-has-no-pieces",
        "win-beats-draw",
        "no_pieces",
        "7.2.2 asked of the side that just moved",
        _mover_has_no_pieces,
    ),
    _mutant("blocked-ignored", "win-beats-draw", "lost", "a blocked side has not lost", _blocked_ignored),
    _mutant(
        "draw-beats-win",
        "win-beats-draw",
        "win_stands",
        "any draw expiring on the ply beats the win",
        _draw_first,
    ),
    _mutant(
        "highest-article",
        "draw-precedence",
        "draw_rule",
        "the highest expiring article is named",
        _highest_first,
    ),
    _mutant(
        "groups-before-6.1", "draw-precedence", "draw_rule", "6.3/6.4 named before 6.1", _groups_before_6_1
    ),
    _mutant(
        "winner-swapped", "win-beats-draw", "winner", "the side to move is named the winner", _winner_swapped
    ),
    _mutant(
        "loss-rules-swapped", "win-beats-draw", "loss_rule", "7.2.2 and 7.2.3 swapped", _loss_rules_swapped
    ),
    _mutant(
        "always-blocked", "win-beats-draw", "loss_rule", "every win is called 7.2.3", _blocked_always_7_2_3
    ),
)
"""Every mutant of the machine; :data:`DrawMachine.PIECES` each have one or more (a test checks it)."""
