"""A rule's standing in a certificate (:mod:`conformance.core.certificate`), scope by scope: the
counts of its results in each scope (:class:`Tally`), the standing they give (:class:`Standing`:
certified, failed, partly covered, not covered), and one rule's row of them (:class:`Row`)."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final

from conformance.core.scopes import Scope


class Standing(enum.Enum):
    CERTIFIED = "certified"
    FAILED = "failed"
    PARTLY_COVERED = "partly covered"
    NOT_COVERED = "not covered"


COUNTS: Final = (
    "questions",
    "passed",
    "failed",
    "errored",
    "charged",
    "known",
    "blocked",
    "skipped",
    "unsupported",
)
"""The counts of a :class:`Tally`, in the order reports show them."""


@dataclasses.dataclass(frozen=True)
class Tally:
    """The results of one rule in one scope (or in all of them)."""

    questions: int = 0
    """Questions filed under the rule."""
    passed: int = 0
    failed: int = 0
    errored: int = 0
    charged: int = 0
    """Failures found in other rules' questions and charged to this one (refused legal moves...)."""
    known: int = 0
    """Failures and errors a baseline lists as known (still failures of the rule)."""
    blocked: int = 0
    skipped: int = 0
    unsupported: int = 0

    @property
    def asked(self) -> int:
        """Questions the engine was asked (all but the unsupported ones)."""
        return self.questions - self.unsupported

    @property
    def answered(self) -> int:
        """Questions of this rule whose answer was judged (pass, fail or error, blocked or not)."""
        return self.questions - self.skipped - self.unsupported

    @property
    def standing(self) -> Standing:
        if self.failed or self.errored or self.charged or self.known:
            return Standing.FAILED
        if self.passed and self.passed == self.asked:
            return Standing.CERTIFIED
        if self.passed == 0:
            return Standing.NOT_COVERED
        return Standing.PARTLY_COVERED

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(getattr(self, name) + getattr(other, name) for name in COUNTS))

    def to_json(self) -> dict[str, Any]:
        return {"standing": self.standing.value, **{name: getattr(self, name) for name in COUNTS}}


class _Total:
    """A count of a row over all its scopes (``row.passed`` is ``row.total.passed``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, row: Row, owner: type | None = None) -> int:
        return int(getattr(row.total, self.name))


@dataclasses.dataclass(frozen=True)
class Row:
    """One rule of the certificate: an article, or a reading of the project's, scope by scope."""

    key: str
    reading: bool
    """True when ``key`` is one of the project's readings rather than an FMJD article."""
    article: str
    """The article the rule belongs to (for a reading, that of its cases)."""
    scopes: tuple[tuple[Scope, Tally], ...]
    """The rule's results in each scope it has questions (or charged failures) in, in scope order."""
    blocked_by: tuple[str, ...] = ()

    @property
    def total(self) -> Tally:
        total = Tally()
        for _, tally in self.scopes:
            total += tally
        return total

    def tally(self, scope: Scope) -> Tally | None:
        return dict(self.scopes).get(scope)

    questions = _Total()
    passed = _Total()
    failed = _Total()
    errored = _Total()
    charged = _Total()
    known = _Total()
    blocked = _Total()
    skipped = _Total()
    unsupported = _Total()
    answered = _Total()

    @property
    def standing(self) -> Standing:
        """Failed when a scope failed; certified when every scope the rule was asked in is."""
        standings = [tally.standing for _, tally in self.scopes]
        if Standing.FAILED in standings:
            return Standing.FAILED
        asked = [tally.standing for _, tally in self.scopes if tally.asked]
        if asked and all(standing is Standing.CERTIFIED for standing in asked):
            return Standing.CERTIFIED
        return Standing.NOT_COVERED if self.total.passed == 0 else Standing.PARTLY_COVERED

    def standing_for(self, scope: Scope) -> Standing | None:
        """The rule's standing for ``scope`` (None: it has no question of that scope)."""
        tally = self.tally(scope)
        return tally.standing if tally is not None else None

    def certified_for(self) -> tuple[Scope, ...]:
        return tuple(scope for scope, tally in self.scopes if tally.standing is Standing.CERTIFIED)

    def scope_text(self) -> str:
        """The standing by scope in words: ``certified for moves; not covered for notation``."""
        parts = []
        for standing in (Standing.FAILED, Standing.CERTIFIED, Standing.PARTLY_COVERED, Standing.NOT_COVERED):
            scopes = [scope.value for scope, tally in self.scopes if tally.standing is standing]
            if scopes:
                parts.append(f"{standing.value} for {', '.join(scopes)}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rule": self.key,
            "reading": self.reading,
            "article": self.article,
            "standing": self.standing.value,
        }
        data.update({name: getattr(self.total, name) for name in COUNTS})
        data["scopes"] = {scope.value: tally.to_json() for scope, tally in self.scopes}
        if self.blocked_by:
            data["blocked_by"] = list(self.blocked_by)
        return data
