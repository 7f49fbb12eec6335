"""Scopes: the kinds of question a rule can be certified for, derived from what each question asks.

A rule is certified *for the kinds of question that were asked of it*. The kind follows from the
capability a question needs (:class:`conformance.core.protocol.Capability`):

=============  ==========================================================================
scope          questions
=============  ==========================================================================
``moves``      legal moves, move count, perft (and ``verify``'s legal-move checks)
``positions``  FEN, the initial position
``notation``   a move text read (``parse_move``) or written (``format_move``)
``games``      moves played (``play``), the outcome of a game (``outcome``)
``move-choice`` the move a Hub or DXP engine chooses (``choose_move``)
=============  ==========================================================================

A move-choice engine is asked the legal-move questions through ``choose_move`` (its move must be
one of the legal ones): those questions are in the ``move-choice`` scope for it, as
:func:`asked_with` says (the judges ask them that way too).

``--require RULE[:SCOPE]`` names what a run must certify (:class:`Requirement`).
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Iterable
from typing import Final

from conformance.core.corpus.model import Question
from conformance.core.errors import UsageError
from conformance.core.protocol import Capability


class Scope(enum.Enum):
    MOVES = "moves"
    POSITIONS = "positions"
    NOTATION = "notation"
    GAMES = "games"
    MOVE_CHOICE = "move-choice"
    OTHER = "other"
    """Questions of a kind this version does not know (a report written by another version)."""

    @property
    def level(self) -> str:
        """The certification level the scope belongs to: ``move-choice``, or ``rules``."""
        return "move-choice" if self is Scope.MOVE_CHOICE else "rules"


SCOPES: Final = tuple(scope for scope in Scope if scope is not Scope.OTHER)
"""The scopes a question of this version can be in (and ``--require`` accepts)."""

CAPABILITY_SCOPE: Final[dict[Capability, Scope]] = {
    Capability.LEGAL_MOVES: Scope.MOVES,
    Capability.MOVE_COUNT: Scope.MOVES,
    Capability.PERFT: Scope.MOVES,
    Capability.FEN: Scope.POSITIONS,
    Capability.INITIAL_POSITION: Scope.POSITIONS,
    Capability.PARSE_MOVE: Scope.NOTATION,
    Capability.FORMAT_MOVE: Scope.NOTATION,
    Capability.PLAY: Scope.GAMES,
    Capability.OUTCOME: Scope.GAMES,
    Capability.CHOOSE_MOVE: Scope.MOVE_CHOICE,
}
"""Each operation's scope (``counters`` only qualifies ``outcome``)."""

QUESTION_CAPABILITY: Final[dict[str, Capability]] = {
    **{kind.kind: kind.capability for kind in typing.get_args(Question)},
    "symmetry": Capability.LEGAL_MOVES,  # verify: the colour-flipped position's legal moves
    "choose_move": Capability.CHOOSE_MOVE,  # verify: a move-choice engine's chosen move
}
"""The capability a question needs, by its kind (a result's ``question`` up to the first ``[``)."""

MOVE_CHOICE_ONLY: Final = frozenset({Capability.CHOOSE_MOVE})


def asked_with(capability: Capability, capabilities: Iterable[Capability]) -> Capability:
    """The capability a question needing ``capability`` is asked with, of an engine declaring
    ``capabilities``: a legal-move question goes to ``choose_move`` when the engine only chooses moves."""
    declared = frozenset(capabilities)
    if (
        capability is Capability.LEGAL_MOVES
        and capability not in declared
        and Capability.CHOOSE_MOVE in declared
    ):
        return Capability.CHOOSE_MOVE
    return capability


def scope_of(question: str, capabilities: Iterable[Capability] | None = None) -> Scope:
    """The scope of a result's ``question`` (``legal_moves``, ``after[1]``, ``legal_moves[z3]``),
    asked of an engine declaring ``capabilities`` (None: a rules engine)."""
    capability = QUESTION_CAPABILITY.get(question.split("[", 1)[0])
    if capability is None:
        return Scope.OTHER
    if capabilities is not None:
        capability = asked_with(capability, capabilities)
    return CAPABILITY_SCOPE[capability]


def capabilities_of(names: Iterable[object], level: str = "rules") -> frozenset[Capability] | None:
    """The capabilities a report's header names (unknown names left out); None when it names none,
    in which case a ``move-choice`` engine is taken to choose moves only."""
    known = {capability.value: capability for capability in Capability}
    found = frozenset(known[name] for name in names if isinstance(name, str) and name in known)
    if found:
        return found
    return MOVE_CHOICE_ONLY if level == "move-choice" else None


class RequirementError(UsageError, ValueError):
    """A ``--require`` value that names no scope of this version."""


@dataclasses.dataclass(frozen=True)
class Requirement:
    """``RULE`` or ``RULE:SCOPE`` (``RULE`` an article with its sub-articles, a reading, or ``all``).

    ``RULE`` alone: the rule is certified in every scope it was asked in; ``RULE:SCOPE``: it is
    certified for that scope (asked, every question passing). ``all`` and ``all:SCOPE``: every rule
    with questions (of that scope)."""

    rule: str
    scope: Scope | None = None

    @classmethod
    def parse(cls, text: str) -> Requirement:
        rule, colon, scope = text.strip().rpartition(":")
        if not colon:
            return cls(text.strip())
        names = ", ".join(s.value for s in SCOPES)
        if not rule:
            raise RequirementError(f"{text!r}: a rule is needed before ':' (RULE[:SCOPE], RULE or 'all')")
        chosen = next((s for s in SCOPES if s.value == scope), None)
        if chosen is None:
            raise RequirementError(f"{text!r}: unknown scope {scope!r}; the scopes are {names}")
        return cls(rule, chosen)

    def __str__(self) -> str:
        return f"{self.rule}:{self.scope.value}" if self.scope else self.rule
