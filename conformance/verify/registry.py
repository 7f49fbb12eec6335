"""The checks of ``verify``, each declared once: one :class:`Check` record holds everything about it.

Its name (the report's ``question``), the capability it asks of the engine, when it runs on a
position, what it judges with, the rules a result is filed under by default, which of a position's
failing checks is shrunk first, and who holds the expected answer (a disagreement's case says so).
The driver (:mod:`conformance.verify.driver`) runs the checks a position calls for, in ``order``;
the run shrinks the failing check of lowest ``shrink_rank``; the case writer
(:mod:`conformance.verify.casefile`) names the ``source``.

A new check is a judge (a function of the :class:`~conformance.verify.judges.Checks` of a position
and its subject, returning a :class:`~conformance.verify.judgement.Judgement`) and one record::

    verify_check(Check("legal_moves[toy]", Capability.LEGAL_MOVES, judge=toy_judge, order=35, ...))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal

from conformance.core.protocol import Capability
from conformance.verify.findings import FindingKind
from conformance.verify.generate import Generated
from conformance.verify.judgement import (
    AFTER_ARTICLES,
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    CHOSEN_ORACLE,
    CHOSEN_Z3,
    DRAWS,
    INVARIANTS,
    ORACLE,
    OUTCOME,
    SYMMETRY,
    Z3,
    Judgement,
    articles_of,
    legal_move_articles,
)
from conformance.verify.judges import Checks
from oracle.position import Position
from oracle.rules import INTERNATIONAL


@dataclasses.dataclass(frozen=True)
class Plan:
    """What decides which checks run on a position: the options, the engine, the position's kind."""

    with_z3: bool
    differential: bool
    lean: bool
    """An exhaustive campaign's lean path: no symmetry row (the flipped position is checked too)."""
    move_choice: bool
    """The engine chooses a move rather than listing the legal ones (Hub, DXP)."""
    outcome: bool
    """The position's kind plays games to their outcome."""
    game: bool
    """The position is the setup of a steered draw-rule game."""


Judge = Callable[[Checks], Callable[[Position, Any], Judgement]]
Subjects = Literal["position", "played", "sequences", "game"]


@dataclasses.dataclass(frozen=True)
class Check:
    name: str
    capability: Capability
    judge: Judge
    """The judging function of a position's :class:`Checks`."""
    order: int
    """Where its row stands among a position's rows."""
    runs: Callable[[Plan], bool]
    articles: Callable[[Position, Generated | None], tuple[str, ...]]
    """The rules a result is filed under when its judgement says nothing more."""
    shrink_rank: int
    """A position's failing check of lowest rank is the one shrunk (cheapest first)."""
    source: str = "rules"
    """Who holds the expected answer: ``z3``, ``oracle`` or the ``rules`` themselves (invariants)."""
    subjects: Subjects = "position"
    """What it asks about: the position, each move played from it, game sequences, a steered game."""
    filed_by_shrunk_position: bool = False
    """A disagreement is filed by the evidence of the shrunk position (legal moves, a move played)."""


_CHECKS: dict[str, Check] = {}


def verify_check(check: Check) -> Check:
    """Register ``check`` (ValueError if another has its name)."""
    known = _CHECKS.get(check.name)
    if known is not None and known != check:
        raise ValueError(f"two verify checks named {check.name!r}")
    _CHECKS[check.name] = check
    return check


def unregister(name: str) -> None:
    """Forget a check (a test's own, once it is done)."""
    _CHECKS.pop(name, None)


def checks() -> tuple[Check, ...]:
    """Every check, in row order."""
    return tuple(sorted(_CHECKS.values(), key=lambda check: check.order))


def check_named(name: str) -> Check:
    return _CHECKS[name]


def shrink_rank(name: str) -> int:
    return _CHECKS[name].shrink_rank


def _legal_moves(position: Position, generated: Generated | None) -> tuple[str, ...]:
    return legal_move_articles(position, generated.rules if generated is not None else INTERNATIONAL)


def _lists(plan: Plan) -> bool:
    return not plan.move_choice


def _chooses(plan: Plan) -> bool:
    return plan.move_choice


def _outcome_articles(position: Position, generated: Generated | None) -> tuple[str, ...]:
    return FindingKind.OUTCOME.articles


verify_check(
    Check(
        Z3,
        Capability.LEGAL_MOVES,
        lambda checks: checks.legal_moves_z3,
        order=10,
        runs=lambda plan: _lists(plan) and plan.with_z3,
        articles=_legal_moves,
        shrink_rank=2,
        source="z3",
        filed_by_shrunk_position=True,
    )
)
verify_check(
    Check(
        INVARIANTS,
        Capability.LEGAL_MOVES,
        lambda checks: checks.legal_moves_invariants,
        order=20,
        runs=_lists,
        articles=lambda position, generated: articles_of(
            (FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES)
        ),
        shrink_rank=0,
    )
)
verify_check(
    Check(
        ORACLE,
        Capability.LEGAL_MOVES,
        lambda checks: checks.legal_moves_oracle,
        order=30,
        runs=lambda plan: _lists(plan) and plan.differential,
        articles=_legal_moves,
        shrink_rank=1,
        source="oracle",
        filed_by_shrunk_position=True,
    )
)
verify_check(
    Check(
        SYMMETRY,
        Capability.LEGAL_MOVES,
        lambda checks: checks.symmetry,
        order=40,
        runs=lambda plan: _lists(plan) and not plan.lean,
        articles=lambda position, generated: FindingKind.SYMMETRY.articles,
        shrink_rank=3,
    )
)
verify_check(
    Check(
        CHOSEN_Z3,
        Capability.CHOOSE_MOVE,
        lambda checks: checks.chosen_z3,
        order=50,
        runs=lambda plan: _chooses(plan) and plan.with_z3,
        articles=_legal_moves,
        shrink_rank=5,
        source="z3",
    )
)
verify_check(
    Check(
        CHOSEN_ORACLE,
        Capability.CHOOSE_MOVE,
        lambda checks: checks.chosen_oracle,
        order=60,
        runs=lambda plan: _chooses(plan) and plan.differential,
        articles=_legal_moves,
        shrink_rank=4,
    )
)
verify_check(
    Check(
        AFTER_INVARIANTS,
        Capability.PLAY,
        lambda checks: checks.after_invariants,
        order=70,
        runs=lambda plan: True,
        articles=lambda position, generated: AFTER_ARTICLES,
        shrink_rank=6,
        subjects="played",
        filed_by_shrunk_position=True,
    )
)
verify_check(
    Check(
        AFTER_ORACLE,
        Capability.PLAY,
        lambda checks: checks.after_oracle,
        order=80,
        runs=lambda plan: plan.differential,
        articles=lambda position, generated: AFTER_ARTICLES,
        shrink_rank=7,
        source="oracle",
        subjects="played",
        filed_by_shrunk_position=True,
    )
)
verify_check(
    Check(
        OUTCOME,
        Capability.OUTCOME,
        lambda checks: checks.outcome,
        order=90,
        runs=lambda plan: plan.differential and plan.outcome,
        articles=_outcome_articles,
        shrink_rank=8,
        source="oracle",
        subjects="sequences",
    )
)
verify_check(
    Check(
        DRAWS,
        Capability.OUTCOME,
        lambda checks: checks.draws,
        order=100,
        runs=lambda plan: plan.differential and plan.game,
        articles=lambda position, generated: (
            (generated.game.article,)
            if generated is not None and generated.game is not None
            else FindingKind.OUTCOME.articles
        ),
        shrink_rank=9,
        source="oracle",
        subjects="game",
    )
)
