"""The properties of the draw model: one per reading and switch of Art. 6, each a formula of its own.

Each :class:`~conformance.verify.draw_bmc.Property` relates what the machine
(:class:`~conformance.verify.draw_machine.DrawMachine`) says to the rules stated over the history
(:class:`~conformance.verify.draw_spec.Spec`), with its negative controls (its reading read the other
way on each article it reads, a switch flipped, or a fact of the game dropped) and its witnesses;
:func:`conformance.verify.draw_bmc.prove` proves one. :data:`PROPERTIES` lists them, in the order of
the report: the group of an ending (the one definition machine and spec share), the three counts
from the history, the articles 6.1-6.4, the readings, and the setups ``oracle/game.py`` refuses.
Their texts, negative controls and shared conditions are built by
:mod:`conformance.verify.draw_property_parts`.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import z3

from conformance.core.draw_events import (
    BLOCKED,
    NO_PIECES,
    NO_PROGRESS,
    REPETITION,
    Ending,
)
from conformance.verify.draw_bmc import Control, Property, Statement, Witness
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_property_parts import (
    GROUPS,
    against_lone_man,
    irreversible_inside,
    move_fewer_control,
    offset_control,
    read_otherwise,
    reading_controls,
    replaced_control,
    statement_text,
)
from conformance.verify.draw_smt import (
    BLACK_WINS_CODE,
    KING_KEEPS_MATERIAL,
    KING_NEEDS_KING,
    WHITE_WINS_CODE,
    ite,
)
from conformance.verify.draw_spec import Spec

_OWN_GROUPS: Final = frozenset({"group-of-the-ending", "endgame-lone-king-only"})
"""The properties that do not assume ``group-of-the-ending``: itself, and the one whose controls
read the group otherwise (a lone man as a weak side) -- assuming the definition there would
rule out exactly the games on which the flipped machine differs."""


# -- the shared definition and the counts -------------------------------------------------------


def _group_witness(article: str) -> Witness:
    return Witness(f"a {article} ending", lambda s, m, t: s.group(t) == s.code(article))


GROUP_OF_THE_ENDING = Property(
    "group-of-the-ending",
    "the group of an ending (6.3, 6.4), the one definition machine and spec share",
    statement_text(
        "At every ply the machine puts the material in the group rules.md gives: 6.3 for three "
        "pieces with a king, 6.4 for two or one, against exactly one piece that is a king (either "
        "side strong); no group otherwise."
    ),
    lambda s, m, t: m.group[t] == s.group(t),
    (
        _group_witness("6.3"),
        _group_witness("6.4"),
        Witness("a lone man against 6.4's material", lambda s, m, t: against_lone_man(s, t, "6.4")),
    ),
    (
        *reading_controls("endgame-lone-king-only", *GROUPS),
        Control(
            "6.4 without king against king",
            lambda rules: rules.with_group("6.4", endings=rules.group_named("6.4").endings - {Ending(1, 0)}),
        ),
    ),
)


def _counter(
    name: str,
    reading: str,
    template: str,
    holds: Statement,
    witness: Witness,
    *controls: Control,
) -> Property:
    return Property(name, reading, statement_text(template), holds, (witness,), controls)


COUNTERS = (
    _counter(
        "6.1-occurrences-from-history",
        "the occurrences of a position (6.1), as a player counts them",
        "At every ply the machine's occurrence count is 1 + the earlier plies with the same placement "
        "and the same side to move.",
        lambda s, m, t: m.occurrences[t] == s.occurrences(t),
        Witness("a second occurrence", lambda s, m, t: s.occurrences(t) >= 2),
        replaced_control("repetition ignores the side to move", repetition_has_turn=False),
    ),
    _counter(
        "6.2-count-from-history",
        "the 6.2 count, as a player counts it",
        "At every ply the machine's 6.2 count is the number of plies since the last man move, "
        "promotion or capture (or since the setup).",
        lambda s, m, t: m.no_progress[t] == s.king_run(t),
        Witness(
            "a count restarted by a man move, promotion or capture",
            lambda s, m, t: (
                z3.BoolVal(False) if t < 2 else z3.And(z3.Not(s.king_move(t - 1)), s.king_move(t))
            ),
        ),
        replaced_control("a man move keeps the 6.2 count", man_move_resets=False),
        replaced_control("a capture keeps the 6.2 count", capture_resets=False),
    ),
    _counter(
        "endgame-count-from-history",
        "the 6.3/6.4 count, as a player counts it",
        "At every ply the machine's 6.3/6.4 count is the number of plies since the game entered the "
        "group it is in (0 outside the groups), whatever moves were made inside it.",
        lambda s, m, t: m.endgame[t] == s.group_run(t),
        Witness(
            "a group's count across a man move, promotion or capture",
            lambda s, m, t: (
                z3.BoolVal(False)
                if t == 0
                else z3.And(s.group(t) != 0, s.group(t) == s.group(t - 1), z3.Not(s.king_move(t)))
            ),
        ),
        *reading_controls("endgame-no-restart", *GROUPS),
        read_otherwise("endgame-group-change", "6.4"),
    ),
)


# -- the articles --------------------------------------------------------------------------------


def _exact(article: str) -> Statement:
    return lambda s, m, t: m.draw_by(t, article) == s.decides(t, article)


def _other_side_between(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    other = [s.trace.plies[i].placement == s.trace.plies[t].placement for i in range(t) if (t - i) % 2]
    return z3.And(s.decides(t, REPETITION), z3.Or(other) if other else z3.BoolVal(False))


def _after_progress(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    limit = s.limit(NO_PROGRESS)
    if t - limit < 1:
        return z3.BoolVal(False)
    return z3.And(s.decides(t, NO_PROGRESS), z3.Not(s.king_move(t - limit)))


def _only_after_count(article: str) -> Statement:
    """A draw by the group's article only once the last L + 1 positions were all its endings."""
    return lambda s, m, t: z3.Implies(m.draw_by(t, article), s.in_group_since(t, article, s.limit(article)))


def _arose_in_game(article: str) -> Witness:
    def holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
        before = t - s.limit(article) - 1
        if before < 0:
            return z3.BoolVal(False)
        return z3.And(m.draw_by(t, article), s.group(before) != s.code(article))

    return Witness(f"a {article} draw after the ending arose by a move", holds)


def _diagonal_witness(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    short = 2 * max(1, s.limit("6.3") // 2 // 3)
    return z3.And(m.ongoing(t), s.trace.plies[t].diag, s.in_group_since(t, "6.3", short))


ARTICLES = (
    Property(
        "6.1-third-occurrence",
        "Art. 6.1",
        statement_text(
            "A 6.1 draw is declared exactly when the position -- placement and side to move -- "
            "occurred {occ} times, this one included (unless the side to move has lost)."
        ),
        _exact(REPETITION),
        (Witness("an occurrence with the other side to move in between", _other_side_between),),
        (
            replaced_control("repetition ignores the side to move", repetition_has_turn=False),
            replaced_control("a draw at the second occurrence", repetition_draw=2),
            replaced_control("a draw at the fourth occurrence", repetition_draw=4),
        ),
    ),
    Property(
        "6.2-king-moves-since-progress",
        "Art. 6.2",
        statement_text(
            "A 6.2 draw is declared exactly when the last {np} plies ({np_moves} moves each) were "
            "all king moves without capture (unless a side has lost or 6.1 decides first)."
        ),
        _exact(NO_PROGRESS),
        (Witness("a 6.2 draw after a man move, promotion or capture", _after_progress),),
        (
            replaced_control("a man move keeps the 6.2 count", man_move_resets=False),
            replaced_control("a capture keeps the 6.2 count", capture_resets=False),
            offset_control(NO_PROGRESS, -1),
            offset_control(NO_PROGRESS, 1),
            Control(
                "6.2 a move each fewer",
                lambda rules: dataclasses.replace(
                    rules, no_progress_moves=(rules.no_progress_moves or 2) - 1
                ),
            ),
        ),
    ),
    Property(
        "6.3-count-from-arising",
        "Art. 6.3, and long-diagonal-not-applied",
        statement_text(
            "A 6.3 draw comes only once the last {g63} plies ({g63_moves} moves each), and the "
            "position before them, were all endings of the 6.3 group -- wherever the lone king "
            "stands: the 2024 long-diagonal clause is not applied."
        ),
        _only_after_count("6.3"),
        (
            _arose_in_game("6.3"),
            Witness("the lone king on the long diagonal past the shortened count", _diagonal_witness),
        ),
        (
            offset_control("6.3", -1),
            move_fewer_control("6.3"),
            *reading_controls("long-diagonal-not-applied", "6.3"),
        ),
    ),
    Property(
        "6.4-count-from-arising",
        "Art. 6.4",
        statement_text(
            "A 6.4 draw comes only once the last {g64} plies ({g64_moves} moves each), and the "
            "position before them, were all endings of the 6.4 group."
        ),
        _only_after_count("6.4"),
        (_arose_in_game("6.4"),),
        (offset_control("6.4", -1), move_fewer_control("6.4")),
    ),
)


# -- the readings --------------------------------------------------------------------------------


def _runs_through(s: Spec, article: str, t: int) -> z3.BoolRef:
    return z3.And(
        s.in_group_since(t, article, s.limit(article)), z3.Not(s.loss(t)), z3.Not(s.lower(t, article))
    )


def _no_restart_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    return z3.And([z3.Implies(_runs_through(s, a, t), m.draw_by(t, a)) for a in GROUPS])


def _no_restart_witness(article: str) -> Witness:
    def holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
        return z3.And(_runs_through(s, article, t), irreversible_inside(s, t, s.limit(article)))

    return Witness(f"a {article} count with a man move, promotion or capture inside", holds)


def _entered_6_4(s: Spec, k: int) -> z3.BoolRef:
    return z3.And(s.group(k - 1) == s.code("6.3"), s.group(k) == s.code("6.4"))


def _group_change_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    start = max(1, t - s.limit("6.4") + 1)
    fresh = z3.Not(z3.Or([_entered_6_4(s, k) for k in range(start, t + 1)]))
    return z3.And(
        z3.Implies(m.draw_by(t, "6.3"), s.group(t) == s.code("6.3")),
        z3.Implies(m.draw_by(t, "6.4"), fresh),
    )


def _6_3_outrun(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    limit = s.limit("6.3")
    if t < limit:
        return z3.BoolVal(False)
    endings = [
        z3.Or(s.group(k) == s.code("6.3"), s.group(k) == s.code("6.4")) for k in range(t - limit, t + 1)
    ]
    return z3.And(m.ongoing(t), s.group(t) == s.code("6.4"), s.group(t - limit) == s.code("6.3"), *endings)


def _6_4_right_after(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    entry = t - s.limit("6.4")
    return z3.BoolVal(False) if entry < 1 else z3.And(m.draw_by(t, "6.4"), _entered_6_4(s, entry))


def _lone_king_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    return z3.And([z3.Implies(m.draw_by(t, a), z3.Not(s.lone_man(t))) for a in GROUPS])


def _lone_man_witness(article: str) -> Witness:
    def holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
        limit = s.limit(article)
        if t < limit:
            return z3.BoolVal(False)
        return z3.And(m.ongoing(t), *[against_lone_man(s, k, article) for k in range(t - limit, t + 1)])

    return Witness(f"{article}'s material against a lone man for a whole count", holds)


def _win_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    trace = s.trace
    winner = ite(s.white_moves(t), BLACK_WINS_CODE, WHITE_WINS_CODE)
    rule = ite(s.no_pieces(t), trace.rule_code(NO_PIECES), trace.rule_code(BLOCKED))
    return z3.Implies(s.loss(t), z3.And(m.result[t] == winner, m.rule[t] == rule))


def _win_witness(article: str) -> Witness:
    return Witness(
        f"a win on the ply {article} expires", lambda s, m, t: z3.And(s.loss(t), s.expired(t, article))
    )


def _precedence_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    return z3.And(
        [z3.Implies(m.draw_by(t, a), z3.And(s.expired(t, a), z3.Not(s.lower(t, a)))) for a in s.articles()]
    )


def _together_witness(article: str) -> Witness:
    def holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
        return z3.And(z3.Not(s.loss(t)), s.expired(t, REPETITION), s.expired(t, article))

    return Witness(f"6.1 and {article} on one ply", holds)


READINGS = (
    Property(
        "endgame-no-restart",
        "endgame-no-restart",
        statement_text(
            "When the last {g63} plies (6.3) or {g64} plies (6.4), and the position before them, were "
            "all endings of the group, its draw is declared, whatever man moves, promotions or "
            "captures happened inside (unless a side has lost or a lower article decides first)."
        ),
        _no_restart_holds,
        tuple(_no_restart_witness(a) for a in GROUPS),
        (
            *reading_controls("endgame-no-restart", *GROUPS),
            offset_control("6.3", 1),
            offset_control("6.4", 1),
        ),
    ),
    Property(
        "endgame-group-change",
        "endgame-group-change",
        statement_text(
            "A 6.3 draw comes only on a 6.3 ending: once a capture takes the game into 6.4, 6.3's "
            "count no longer applies; and no 6.4 draw comes within {g64} plies of the capture that "
            "took the game from 6.3 into 6.4: its count starts there."
        ),
        _group_change_holds,
        (
            Witness("6.3's count outrun inside 6.4, the game going on", _6_3_outrun),
            Witness("a 6.4 draw right after the change from 6.3", _6_4_right_after),
        ),
        reading_controls("endgame-group-change", *GROUPS),
    ),
    Property(
        "endgame-lone-king-only",
        "endgame-lone-king-only",
        statement_text("No 6.3 or 6.4 draw is declared while a side's only piece is a man."),
        _lone_king_holds,
        tuple(_lone_man_witness(a) for a in GROUPS),
        reading_controls("endgame-lone-king-only", *GROUPS),
    ),
    Property(
        "win-beats-draw",
        "win-beats-draw",
        statement_text(
            "When the side to move has no piece (7.2.2) or no legal move (7.2.3), the other side has "
            "won, also on a ply where a draw rule expires."
        ),
        _win_holds,
        tuple(_win_witness(a) for a in (NO_PROGRESS, *GROUPS)),
        reading_controls("win-beats-draw", "7.2", NO_PROGRESS, *GROUPS),
    ),
    Property(
        "draw-precedence",
        "draw-precedence",
        statement_text("A draw names a draw rule that holds at that ply, and no lower article holds there."),
        _precedence_holds,
        tuple(_together_witness(a) for a in (NO_PROGRESS, *GROUPS)),
        reading_controls("draw-precedence", REPETITION, NO_PROGRESS, *GROUPS),
    ),
)


# -- the setups oracle/game.py refuses: unreachable from a game start -----------------------------


def _reachable_holds(s: Spec, m: DrawMachine, t: int) -> z3.BoolRef:
    run, group, since = s.king_run(t), s.group(t), s.group_run(t)
    rules = s.rules
    same = [s.same_position(i, t) for i in range(t)]
    limit = rules.repetition_draw or 0

    def occurred(k: int) -> z3.BoolRef:  # the position occurs for the k-th time (at least)
        return z3.AtLeast(*same, k - 1) if same else z3.BoolVal(k <= 1)

    checks = [z3.Not(occurred(limit))] if limit else []  # check 1
    if rules.no_progress_moves is not None:
        checks.append(run < s.limit(NO_PROGRESS))
    checks += [z3.Implies(group == s.code(a), since < s.limit(a)) for a in GROUPS]
    just_moved, to_move = s.kings_and_men(t, False)[0], s.kings_and_men(t, True)[0]
    checks += [
        z3.Implies(run >= 1, just_moved >= 1),  # check 3
        z3.Implies(run >= 2, to_move >= 1),
        *(z3.Implies(occurred(k), run >= 4 * (k - 1)) for k in range(2, max(limit, 3))),  # check 4
        z3.Implies(group != 0, run <= since),  # check 5
    ]
    return z3.Implies(m.ongoing(t), z3.And(checks))


SETUP = Property(
    "setup-counters-reachable",
    "the counters oracle/game.py accepts at a setup (SetupError checks 1, 3-5)",
    statement_text(
        "In a game still going on, the history's counts pass the oracle's setup checks: fewer than "
        "{occ} occurrences, a 6.2 count below {np}, a 6.3/6.4 count below its limit; a 6.2 count of 1 "
        "or more only if the side that just moved has a king, of 2 or more only if the other has one "
        "too; a k-th occurrence only after 4 (k - 1) king plies; in an ending, a 6.2 count no larger "
        "than the ending's."
    ),
    _reachable_holds,
    (
        Witness(
            "a 6.2 count one short of its limit",
            lambda s, m, t: z3.And(m.ongoing(t), s.king_run(t) == s.limit(NO_PROGRESS) - 1),
        ),
        Witness(
            "a second occurrence after four king plies",
            lambda s, m, t: z3.And(s.occurrences(t) == 2, s.king_run(t) == 4),
        ),
    ),
    (
        offset_control(NO_PROGRESS, 1),
        Control("a side could restore its placement in one move", min_return_plies=2),
        Control("a king move without a king", dropped=frozenset({KING_NEEDS_KING})),
        Control("a king move taking a piece", dropped=frozenset({KING_KEEPS_MATERIAL})),
    ),
)

PROPERTIES: Final = tuple(
    prop if prop.name in _OWN_GROUPS else dataclasses.replace(prop, assumes=(GROUP_OF_THE_ENDING,))
    for prop in (GROUP_OF_THE_ENDING, *COUNTERS, *ARTICLES, *READINGS, SETUP)
)
"""Every property proved, in the order of the report."""


def property_named(name: str) -> Property:
    for prop in PROPERTIES:
        if prop.name == name:
            return prop
    raise KeyError(f"no property {name!r}; known: {', '.join(p.name for p in PROPERTIES)}")
