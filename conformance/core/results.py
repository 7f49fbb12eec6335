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
import hashlib
from collections.abc import Callable
from typing import Any, Final

from conformance.core.errors import ErrorKind

MAX_TEXT: Final = 2000
"""The most characters of an engine's text (a message, a declined or error text, a text answer)
a result keeps: an engine may print megabytes on one line, and a campaign keeps a result per
question. The rest is cut, and the cut says how much it dropped."""
MAX_STDERR: Final = 20_000
"""The most characters of an engine's stderr a result keeps (its end: where the reason is). The
process adapters keep their last 16 KiB already; this bounds any other source (a traceback of an
in-process engine, a report read back)."""


REPEATED_STDERR: Final = 400
"""The most characters a report keeps of an engine's stderr it already holds in full in an earlier
result (its end, with a marker naming that result): a campaign whose engine prints the same
traceback on every position keeps it once, not once per position."""
MAX_REMEMBERED_TEXTS: Final = 10_000
"""The most distinct stderr texts a report remembers; past them, each is kept whole (capped)."""


class TextsOnce:
    """The engine stderr of a report's results, kept in full (up to :data:`MAX_STDERR`) the first
    time a text appears and cut to its last :data:`REPEATED_STDERR` characters after that, each cut
    naming the result that keeps the text whole (issue 23: the full text once per defect)."""

    def __init__(self) -> None:
        self._first: dict[bytes, str] = {}

    def shortened(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a result's JSON) with its stderr cut when an earlier result holds the same text."""
        error = data.get("error")
        stderr = error.get("stderr") if isinstance(error, dict) else None
        if not isinstance(stderr, str) or len(stderr) <= REPEATED_STDERR:
            return data
        key = hashlib.sha256(stderr.encode("utf-8", "surrogatepass")).digest()[:16]
        first = self._first.get(key)
        if first is None:
            if len(self._first) < MAX_REMEMBERED_TEXTS:
                self._first[key] = f"{data.get('case')} ({data.get('question')})"
            return data
        marker = f"[... the same {len(stderr):,} characters as the stderr of {first}, kept there in full] "
        assert isinstance(error, dict)
        return {**data, "error": {**error, "stderr": marker + stderr[-REPEATED_STDERR:]}}


def cut_text(text: str, limit: int = MAX_TEXT, *, keep_end: bool = False) -> str:
    """``text`` when it has at most ``limit`` characters; else its start (or, with ``keep_end``,
    its end) and a marker naming how many characters were cut, ``limit`` characters in all (so
    that cutting again changes nothing)."""
    if len(text) <= limit:
        return text
    marker = f" [... cut, {len(text):,} characters in all] "
    kept = limit - len(marker)
    return marker.lstrip() + text[-kept:] if keep_end else text[:kept] + marker.rstrip()


def _cut_answer(value: Any) -> Any:
    """An engine's answer (JSON data) with each of its texts cut to :data:`MAX_TEXT`."""
    if isinstance(value, str):
        return cut_text(value)
    if isinstance(value, list):
        return [_cut_answer(item) for item in value]
    if isinstance(value, dict):
        return {key: _cut_answer(item) for key, item in value.items()}
    return value


class Status(enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"
    UNSUPPORTED = "unsupported"


@dataclasses.dataclass(frozen=True)
class ErrorInfo:
    kind: ErrorKind | str
    """An :class:`ErrorKind`; a word no kind has (a report of another version) is kept as it is."""
    message: str
    stderr: str = ""

    def __post_init__(self) -> None:
        if self.kind in ErrorKind.__members__.values():
            object.__setattr__(self, "kind", ErrorKind(self.kind))
        object.__setattr__(self, "message", cut_text(self.message))
        object.__setattr__(self, "stderr", cut_text(self.stderr, MAX_STDERR, keep_end=True))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.stderr:
            data["stderr"] = self.stderr
        return data


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """One question of one case, asked of one engine.

    A result is filed under the one rule its case checks (``article``), or under the project's
    reading it rests on (``reading``). A failure caused by another rule names it in
    ``charged_to``: a legal move the engine refused is charged to that move's rule, a move listed
    twice to Art. 8 (move identity), a valid position refused to Art. 2.
    """

    case: str
    question: str
    """The question's kind and, for list questions, its index: ``legal_moves``, ``after[1]``."""
    article: str
    status: Status
    requires: tuple[str, ...] = ()
    """The rules the case relies on: a failure is blocked when the engine fails one elsewhere."""
    reading: str | None = None
    charged_to: str | None = None
    """For a fail or error caused by another rule than the case's own: that rule."""
    defect: str = ""
    """What went wrong in a few words, the same for the same defect (reports group by it)."""
    position: str = ""
    """The case's position (FEN), so a saved report can be rendered on its own."""
    message: str = ""
    expected: Any = None
    got: Any = None
    error: ErrorInfo | None = None
    duration_ms: float = 0.0
    baselined: bool = False
    """A failure or error the baseline lists as known: reported, but not counted against the run."""
    probe: bool = False
    """Asked by a run of some cases only, because a failure of those relies on this question's
    rule: so that it is judged as in a run of the whole corpus (blocked only by a rule the engine
    fails directly)."""

    def __post_init__(self) -> None:
        if len(self.message) > MAX_TEXT:
            object.__setattr__(self, "message", cut_text(self.message))
        if self.got is not None and not isinstance(self.got, bool | int | float):
            object.__setattr__(self, "got", _cut_answer(self.got))

    @property
    def judged_under(self) -> str:
        """Where the result is filed: the case's reading if it rests on one, else its article."""
        return self.reading or self.article

    @property
    def charged(self) -> str:
        """The rule a fail or error counts against."""
        return self.charged_to or self.judged_under

    @property
    def defect_name(self) -> str:
        """The defect a problem is grouped under: its ``defect``, else its message up to the first
        colon, else its status."""
        return self.defect or (self.message.split(":")[0] if self.message else self.status.value)

    @property
    def articles(self) -> tuple[str, ...]:
        """The article checked, then the ones relied on."""
        return (self.article, *self.requires)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "result",
            "case": self.case,
            "question": self.question,
            "article": self.article,
            "status": self.status.value,
        }
        if self.requires:
            data["requires"] = list(self.requires)
        if self.reading:
            data["reading"] = self.reading
        if self.charged_to:
            data["charged_to"] = self.charged_to
        if self.defect:
            data["defect"] = self.defect
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
        if self.probe:
            data["probe"] = True
        data["duration_ms"] = round(self.duration_ms, 3)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], *, strings: Callable[[str], str] | None = None) -> Result:
        """Read a result line (ValueError naming the field when one has the wrong type);
        reports of version 0.1 (a list of ``articles``) are read too. ``strings`` maps each name
        read (case, question, rules, position, defect) to the instance kept: the reader of a large
        report shares them (and escapes them)."""
        if not isinstance(data, dict):
            raise ValueError("a result must be a JSON object")
        name = strings or _same
        error = data.get("error")
        if "article" in data:
            article, requires = _text(data, "article"), _texts(data, "requires")
        else:
            cited = list(_texts(data, "articles")) or ["?"]
            article, requires = cited[0], tuple(cited[1:])
        if error is not None and not (
            isinstance(error, dict)
            and isinstance(error.get("kind"), str)
            and isinstance(error.get("message"), str)
            and isinstance(error.get("stderr", ""), str)
        ):
            raise ValueError("'error' must be an object with text 'kind', 'message' (and 'stderr')")
        duration = data.get("duration_ms", 0.0)
        if isinstance(duration, bool) or not isinstance(duration, int | float):
            raise ValueError("'duration_ms' must be a number")
        return cls(
            case=name(_text(data, "case")),
            question=name(_text(data, "question")),
            article=name(article),
            status=Status(data["status"]),
            requires=tuple(map(name, requires)),
            reading=name(_text(data, "reading", optional=True)) or None,
            charged_to=name(_text(data, "charged_to", optional=True)) or None,
            defect=name(_text(data, "defect", optional=True)),
            position=name(_text(data, "position", optional=True)),
            message=_text(data, "message", optional=True),
            expected=data.get("expected"),
            got=data.get("got"),
            error=ErrorInfo(error["kind"], error["message"], error.get("stderr", "")) if error else None,
            duration_ms=float(duration),
            baselined=data.get("baselined", False) is True,
            probe=data.get("probe", False) is True,
        )


def _same(text: str) -> str:
    return text


def _text(data: dict[str, Any], key: str, *, optional: bool = False) -> str:
    value = data.get(key)
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be text, not {type(value).__name__}")
    return value


def _texts(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{key!r} must be a list of text")
    return tuple(value)
