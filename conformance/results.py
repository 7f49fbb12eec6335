"""Results of asking an engine one question of one case: pass, fail, error, skip, unsupported.

The five are kept apart, as Bowtie and toml-test do: a *fail* is a wrong answer; an *error* is
the engine (or its adapter) breaking -- timeout, crash, protocol violation, exception -- and
never counts as a wrong answer; *skip* is a question the engine declined or a known gap listed
in a baseline; *unsupported* is a question outside the engine's capabilities, never sent and
never scored.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


class Status(enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"
    UNSUPPORTED = "unsupported"


@dataclasses.dataclass(frozen=True)
class ErrorInfo:
    kind: str
    message: str
    stderr: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.stderr:
            data["stderr"] = self.stderr
        return data


@dataclasses.dataclass(frozen=True)
class Result:
    """One question of one case, asked of one engine."""

    case: str
    question: str
    """The question's kind and, for list questions, its index: ``legal_moves``, ``after[1]``."""
    articles: tuple[str, ...]
    status: Status
    position: str = ""
    """The case's position (FEN), so a saved report can be rendered on its own."""
    message: str = ""
    expected: Any = None
    got: Any = None
    error: ErrorInfo | None = None
    duration_ms: float = 0.0
    baselined: bool = False
    """A failure or error the baseline lists as known: reported, but not counted against the run."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "result",
            "case": self.case,
            "question": self.question,
            "articles": list(self.articles),
            "status": self.status.value,
        }
        if self.position:
            data["position"] = self.position
        if self.message:
            data["message"] = self.message
        if self.expected is not None:
            data["expected"] = self.expected
        if self.got is not None:
            data["got"] = self.got
        if self.error is not None:
            data["error"] = self.error.to_json()
        if self.baselined:
            data["baselined"] = True
        data["duration_ms"] = round(self.duration_ms, 3)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        error = data.get("error")
        return cls(
            case=data["case"],
            question=data["question"],
            articles=tuple(data.get("articles", ())),
            status=Status(data["status"]),
            position=data.get("position", ""),
            message=data.get("message", ""),
            expected=data.get("expected"),
            got=data.get("got"),
            error=ErrorInfo(error["kind"], error["message"], error.get("stderr", "")) if error else None,
            duration_ms=float(data.get("duration_ms", 0.0)),
            baselined=bool(data.get("baselined", False)),
        )
