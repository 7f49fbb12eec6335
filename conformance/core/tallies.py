"""Aggregated results: the passes of a long campaign counted, not listed (``tally`` report lines).

A ``verify`` campaign of millions of positions keeps one result line per failure, error and skip,
in full, and counts its passes (and its ``unsupported`` questions, whose message says only which
capability the engine lacks): one ``tally`` line per *span* of positions, a fixed stretch of
position indices (``--tally-every``, e.g. 100,000). A tally line says which positions it covers
(the first and last index, how many: a shard holds every ``N``-th index of the span) and how
many results of each kind they gave -- by question (``legal_moves[oracle]``), rule (article or
reading, and the rules it relies on), scope as the certificate counts it (``moves``...) and
status::

    {"type": "tally", "span": 3, "first": 300000, "last": 399999, "positions": 100000,
     "counts": [{"question": "legal_moves[oracle]", "article": "3.4", "scope": "moves",
                 "status": "pass", "count": 61235}, ...]}

In a shard's report the line also names its ``shard``; ``draughts-conformance merge`` adds the
shards' lines of one span up, which gives the unsharded run's line. The certificate counts a tally
entry as ``count`` results of that kind (:func:`conformance.core.certificate.certify`), so a report with
tallies certifies exactly what the report with every line would. The result lines of a span's
positions come before its tally line, which is also where an interrupted campaign resumes
(``verify --resume``): after the last tally line.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from conformance.core.protocol import Capability
from conformance.core.results import Result, Status
from conformance.core.scopes import scope_of
from conformance.core.shards import Shard

AGGREGATED: Final = frozenset({Status.PASS, Status.UNSUPPORTED})
"""The statuses counted rather than listed: a failure, an error or a skip keeps its line."""


@dataclasses.dataclass(frozen=True, order=True)
class Tallied:
    """What the results counted together share: their question, rule and status (and message)."""

    question: str
    article: str
    status: str
    """A status of :data:`AGGREGATED` (its value: ``pass``, ``unsupported``)."""
    requires: tuple[str, ...] = ()
    reading: str = ""
    message: str = ""
    """An unsupported question's message (which capability the engine lacks); a pass has none."""

    @classmethod
    def of(cls, result: Result) -> Tallied:
        """The kind of ``result`` (a pass or unsupported result)."""
        if result.status not in AGGREGATED:
            raise ValueError(f"a {result.status.value} result is reported in full, never counted")
        return cls(
            result.question,
            result.article,
            result.status.value,
            result.requires,
            result.reading or "",
            result.message if result.status is Status.UNSUPPORTED else "",
        )

    def result(self, case: str = "") -> Result:
        """One result of this kind (for code that reads results: the certificate, a diff)."""
        return Result(
            case=case,
            question=self.question,
            article=self.article,
            status=Status(self.status),
            requires=self.requires,
            reading=self.reading or None,
            message=self.message,
        )

    @property
    def judged_under(self) -> str:
        return self.reading or self.article

    def to_json(self, count: int, capabilities: Iterable[Capability] | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "question": self.question,
            "article": self.article,
            "scope": scope_of(self.question, capabilities).value,
            "status": self.status,
        }
        if self.requires:
            data["requires"] = list(self.requires)
        if self.reading:
            data["reading"] = self.reading
        if self.message:
            data["message"] = self.message
        data["count"] = count
        return data

    @classmethod
    def from_json(cls, data: Any) -> tuple[Tallied, int]:
        """An entry of a tally line: its kind and count (ValueError naming what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("a tally entry must be an object")
        texts = {key: data.get(key) for key in ("question", "article", "status", "scope")}
        for key, value in texts.items():
            if not isinstance(value, str):
                raise ValueError(f"a tally entry's {key!r} must be text")
        if data["status"] not in {status.value for status in AGGREGATED}:
            raise ValueError(f"a tally counts passes and unsupported questions, not {data['status']!r}")
        requires = data.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(rule, str) for rule in requires):
            raise ValueError("a tally entry's 'requires' must be a list of text")
        reading, message, count = data.get("reading", ""), data.get("message", ""), data.get("count")
        if not isinstance(reading, str) or not isinstance(message, str):
            raise ValueError("a tally entry's 'reading' and 'message' must be text")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("a tally entry's 'count' must be a positive integer")
        kind = cls(data["question"], data["article"], data["status"], tuple(requires), reading, message)
        return kind, count


def counted(results: Iterable[Result]) -> Counter[Tallied]:
    """``results`` (passes and unsupported ones) counted by kind."""
    return Counter(Tallied.of(result) for result in results)


@dataclasses.dataclass(frozen=True)
class TallyLine:
    """One ``tally`` line: the counted results of the positions of one span (of a shard)."""

    span: int
    """Which span: positions ``span * every`` to ``(span + 1) * every - 1`` of the whole run."""
    first: int
    last: int
    positions: int
    """How many positions the line covers (the shard's positions of the span that were checked)."""
    counts: tuple[tuple[Tallied, int], ...]
    """Each kind of result with its count, sorted by kind."""
    shard: Shard | None = None

    @classmethod
    def of(
        cls,
        span: int,
        first: int,
        last: int,
        positions: int,
        counts: Mapping[Tallied, int],
        shard: Shard | None,
    ) -> TallyLine:
        return cls(span, first, last, positions, tuple(sorted((k, n) for k, n in counts.items() if n)), shard)

    def to_json(self, capabilities: Iterable[Capability] | None = None) -> dict[str, Any]:
        kinds = frozenset(capabilities) if capabilities is not None else None
        data: dict[str, Any] = {
            "type": "tally",
            "span": self.span,
            "first": self.first,
            "last": self.last,
            "positions": self.positions,
        }
        if self.shard is not None:
            data["shard"] = self.shard.to_json()
        data["counts"] = [kind.to_json(count, kinds) for kind, count in self.counts]
        return data

    @classmethod
    def from_json(cls, data: Any) -> TallyLine:
        if not isinstance(data, dict):
            raise ValueError("a tally line must be a JSON object")
        numbers: dict[str, int] = {}
        for key in ("span", "first", "last", "positions"):
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"a tally line's {key!r} must be a whole number")
            numbers[key] = value
        entries = data.get("counts")
        if not isinstance(entries, list):
            raise ValueError("a tally line's 'counts' must be a list")
        counts: Counter[Tallied] = Counter()
        for entry in entries:
            kind, count = Tallied.from_json(entry)
            counts[kind] += count
        shard = Shard.from_json(data["shard"]) if data.get("shard") is not None else None
        return cls.of(numbers["span"], numbers["first"], numbers["last"], numbers["positions"], counts, shard)

    def counter(self) -> Counter[Tallied]:
        return Counter(dict(self.counts))

    def covers(self, index: int) -> bool:
        """Whether position ``index`` of the whole run is one of the line's (its shard's, in its span)."""
        return self.first <= index <= self.last and (self.shard is None or self.shard.owns(index))

    @property
    def results(self) -> int:
        return sum(count for _, count in self.counts)


def total(lines: Iterable[TallyLine]) -> Counter[Tallied]:
    """Every line's counts added up."""
    found: Counter[Tallied] = Counter()
    for line in lines:
        for kind, count in line.counts:
            found[kind] += count
    return found


def merged(lines: Iterable[TallyLine]) -> list[TallyLine]:
    """Lines of several shards joined span by span, in span order: each span's line of the whole run."""
    spans: dict[int, list[TallyLine]] = {}
    for line in lines:
        spans.setdefault(line.span, []).append(line)
    return [
        TallyLine.of(
            span,
            min(line.first for line in group),
            max(line.last for line in group),
            sum(line.positions for line in group),
            total(group),
            None,
        )
        for span, group in sorted(spans.items())
    ]


def position_index(case: str) -> int | None:
    """The position index a verify case name ends with (``exhaustive-12``, ``verify-7-12``); -1 for
    the start-position check (``verify-7-start``); None for a corpus case."""
    if case.startswith("verify-") and case.endswith("-start"):
        return -1
    if not case.startswith(("verify-", "exhaustive-")):
        return None
    tail = case.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None


def _owned(first: int, last: int, shard: Shard | None) -> int:
    """How many indices from ``first`` to ``last`` are the shard's (all of them for None)."""
    if shard is None:
        return last - first + 1
    start = first + (shard.index - 1 - first) % shard.count
    return len(range(start, last + 1, shard.count))


def problem(
    lines: Sequence[TallyLine],
    shard: Shard | None,
    every: int | None = None,
    listed: Iterable[tuple[int, str]] = (),
) -> str | None:
    """What makes the tally lines of one report impossible (None: nothing), so that no count is taken
    on trust: a line of another shard than the report's, one whose span, first and last index
    disagree (``every``: the indices per span the header gives), one claiming more positions than its
    span holds of the shard, a question counted more times than the line has positions (with the
    results of that question listed in full at its positions: ``listed``, as (position index,
    question)), and two lines for one span or overlapping stretches of positions (a line copied)."""
    previous: TallyLine | None = None
    for number, line in enumerate(lines, start=1):
        name = f"tally line {number} (span {line.span})"
        if line.shard != shard:
            return f"{name} is of shard {line.shard or 'none'}, in the report of shard {shard or 'none'}"
        if line.first > line.last:
            return f"{name}: its first position {line.first} comes after its last, {line.last}"
        if every is not None and not line.span == line.first // every == line.last // every:
            return f"{name}: positions {line.first}-{line.last} are not in span {line.span} of {every:,}"
        room = _owned(line.first, line.last, shard)
        if line.positions > room:
            return f"{name} claims {line.positions:,} positions where {line.first}-{line.last} holds {room:,}"
        if previous is not None and (line.span <= previous.span or line.first <= previous.last):
            return (
                f"{name} repeats or overlaps span {previous.span} ({previous.first}-{previous.last}): "
                "a position is counted once"
            )
        previous = line
    per_question: Counter[tuple[int, str]] = Counter()
    for at, line in enumerate(lines):
        for kind, count in line.counts:
            per_question[at, kind.question] += count
    firsts = [line.first for line in lines]
    for index, question in listed:
        at = bisect.bisect_right(firsts, index) - 1
        if at >= 0 and index <= lines[at].last:
            per_question[at, question] += 1
    for (at, question), count in per_question.items():
        line = lines[at]
        if count > line.positions:
            return (
                f"tally line {at + 1} (span {line.span}) has {count:,} results of {question} for "
                f"{line.positions:,} positions: a question is asked once per position"
            )
    return None


def report_problem(
    header: Mapping[str, Any],
    lines: Sequence[TallyLine],
    results: Iterable[Result] = (),
    *,
    listed: Iterable[tuple[int, str]] | None = None,
) -> str | None:
    """What makes a report's tally lines impossible (:func:`problem`), its header giving the shard
    and the span, its listed ``results`` the questions answered in full -- or ``listed``, their
    (position index, question) -- (None: nothing)."""
    if not lines:
        return None
    raw = header.get("shard")
    shard = Shard.from_json(raw) if raw else None
    settings = header.get("verify")
    every = settings.get("tally_every") if isinstance(settings, Mapping) else None
    if listed is None:
        indexed = ((position_index(result.case), result.question) for result in results)
        listed = ((index, question) for index, question in indexed if index is not None and index >= 0)
    return problem(
        lines,
        shard,
        every if isinstance(every, int) and not isinstance(every, bool) and every > 0 else None,
        listed,
    )
