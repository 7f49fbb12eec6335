"""The case corpus's model: cases, the questions they ask with complete expected answers, readings.

A case is one position (with optional draw-rule counters) checking exactly one rule, and one or
more questions with complete expected answers (see docs/cases.md). This module only describes
them, and selects and sorts them; :mod:`conformance.core.corpus.load` builds them from the YAML files
under ``cases/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from conformance.core.protocol import Capability, MoveSpec, Verdict
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet


@dataclasses.dataclass(frozen=True)
class FenQuestion:
    """Is the case's FEN valid, and (if so) which position is it?"""

    valid: bool
    position: str | None = None
    reason: str | None = None
    kind = "fen"
    capability = Capability.FEN


@dataclasses.dataclass(frozen=True)
class InitialPositionQuestion:
    """The start position of a new game (Art. 2.8)."""

    position: str
    kind = "initial_position"
    capability = Capability.INITIAL_POSITION


@dataclasses.dataclass(frozen=True)
class LegalMovesQuestion:
    """The complete set of legal moves (Art. 3, 4)."""

    moves: frozenset[MoveSpec]
    kind = "legal_moves"
    capability = Capability.LEGAL_MOVES


@dataclasses.dataclass(frozen=True)
class MoveCountQuestion:
    count: int
    kind = "move_count"
    capability = Capability.MOVE_COUNT


@dataclasses.dataclass(frozen=True)
class PerftQuestion:
    """Leaf counts at depth 1, 2, ... (moves counted by identity)."""

    counts: tuple[int, ...]
    kind = "perft"
    capability = Capability.PERFT


@dataclasses.dataclass(frozen=True)
class AfterQuestion:
    """The position reached by playing PDN moves from the case's position."""

    moves: tuple[str, ...]
    position: str
    kind = "after"
    capability = Capability.PLAY


@dataclasses.dataclass(frozen=True)
class MoveTextQuestion:
    """What a move text means in the position: a legal move, illegal, ambiguous or malformed."""

    text: str
    notation: str
    verdict: Verdict
    move: MoveSpec | None = None
    kind = "move_text"
    capability = Capability.PARSE_MOVE


@dataclasses.dataclass(frozen=True)
class NotationQuestion:
    """How a legal move is written in PDN (any of ``pdn``) and in Hub."""

    move: MoveSpec
    pdn: tuple[str, ...] = ()
    hub: str | None = None
    kind = "notation"
    capability = Capability.FORMAT_MOVE


@dataclasses.dataclass(frozen=True)
class OutcomeQuestion:
    """The outcome after playing PDN moves from the case's position (with its counters)."""

    moves: tuple[str, ...]
    result: str
    rule: str | None
    ply: int | None
    kind = "outcome"
    capability = Capability.OUTCOME


Question = (
    FenQuestion
    | InitialPositionQuestion
    | LegalMovesQuestion
    | MoveCountQuestion
    | PerftQuestion
    | AfterQuestion
    | MoveTextQuestion
    | NotationQuestion
    | OutcomeQuestion
)


@dataclasses.dataclass(frozen=True)
class Interpretation:
    reading: str
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Case:
    """One position (or short game) and its questions, checking exactly one rule.

    ``article`` is the rule the case checks: its results are judged and filed under it -- or
    under its reading, when the case rests on one of the project's readings (``interpretation``).
    ``requires`` are the rules it relies on without checking them: when the engine fails one of
    them elsewhere in the run, a failure of this case is reported as blocked by it.
    """

    id: str
    article: str
    description: str
    source: str
    position: str
    questions: tuple[Question, ...]
    file: str
    line: int
    topic: str
    requires: tuple[str, ...] = ()
    counters: Mapping[str, int] = dataclasses.field(default_factory=dict)
    interpretation: Interpretation | None = None
    tags: tuple[str, ...] = ()
    rule_set: RuleSet = INTERNATIONAL_SET
    """The game the case is played under (its file's ``rules:``; international for ``cases/``)."""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def articles(self) -> tuple[str, ...]:
        """The article checked, then the ones relied on."""
        return (self.article, *self.requires)

    @property
    def reading(self) -> str | None:
        return self.interpretation.reading if self.interpretation else None

    @property
    def judged_under(self) -> str:
        """Where the case's results are filed: its reading if it rests on one, else its article."""
        return self.reading or self.article

    @property
    def has_counters(self) -> bool:
        """True when the case starts from counters other than a fresh game's (Art. 6 setup)."""
        defaults = {"occurrences": 1, "no_progress_plies": 0, "endgame_plies": 0}
        return any(value != defaults.get(key) for key, value in self.counters.items())

    def capabilities_for(self, question: Question) -> frozenset[Capability]:
        """What an engine must declare to be asked ``question`` of this case."""
        if isinstance(question, OutcomeQuestion) and self.has_counters:
            return frozenset({question.capability, Capability.COUNTERS})
        return frozenset({question.capability})


@dataclasses.dataclass(frozen=True)
class Reading:
    id: str
    articles: tuple[str, ...]
    text: str


@dataclasses.dataclass(frozen=True)
class Corpus:
    cases: tuple[Case, ...]
    articles: Mapping[str, str]
    readings: Mapping[str, Reading]
    digest: str
    root: Path
    rule_set: RuleSet = INTERNATIONAL_SET
    """The game every case of the corpus is played under."""

    def by_id(self) -> dict[str, Case]:
        return {case.id: case for case in self.cases}

    def select(
        self,
        *,
        articles: Sequence[str] = (),
        ids: Sequence[str] = (),
        tags: Sequence[str] = (),
        exclude_tags: Sequence[str] = (),
    ) -> list[Case]:
        """The cases matching every given filter. An article filter selects the cases that check
        it (or a sub-article: ``4`` selects 4.13), or rest on a reading of that name; an id filter
        matches exactly or as a prefix ending in ``*``."""
        chosen = []
        for case in self.cases:
            if articles and not any(
                _article_matches(case.article, wanted) or case.reading == wanted for wanted in articles
            ):
                continue
            if ids and not any(_id_matches(case.id, wanted) for wanted in ids):
                continue
            if tags and not set(tags) & set(case.tags):
                continue
            if exclude_tags and set(exclude_tags) & set(case.tags):
                continue
            chosen.append(case)
        return chosen


def _article_matches(article: str, wanted: str) -> bool:
    return article == wanted or article.startswith(wanted + ".")


def _id_matches(case_id: str, wanted: str) -> bool:
    if wanted.endswith("*"):
        return case_id.startswith(wanted[:-1])
    return case_id == wanted


def article_sort_key(article: str) -> tuple[tuple[int, int | str], ...]:
    """Sort 2 < 3.4 < 4.2 < 4.13 < 6.1 < PDN < Hub numerically, not as text."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in article.split("."))
