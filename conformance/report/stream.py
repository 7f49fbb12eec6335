"""The canonical report: JSON lines -- a header, one line per result, a footer with the counts.

A long ``verify`` campaign counts its passes instead of listing them: ``tally`` lines between
the results (:mod:`conformance.tallies`), each counting the passes of a span of positions.
Every other format is rendered from this stream. Lines are flushed as they are written, so a
run that is interrupted still leaves a report that renders (its footer is then recomputed).
"""

from __future__ import annotations

import dataclasses
import json
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from conformance.certificate import Certificate, certify
from conformance.corpus.model import article_sort_key
from conformance.protocol import Capability
from conformance.results import Result, Status
from conformance.scopes import Requirement, RequirementError, capabilities_of
from conformance.tallies import Tallied, TallyLine, total


class ReportError(ValueError):
    """A report file is not a draughts-conformance JSON-lines report."""


class ReportWriter:
    """Writes the stream to an open text file (or nowhere, with ``None``)."""

    def __init__(self, output: IO[str] | None) -> None:
        self.output = output

    def write(self, record: dict[str, Any]) -> None:
        if self.output is not None:
            line = json.dumps(record, ensure_ascii=False, sort_keys=False)
            try:
                line.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate from an engine: JSON escapes keep it
                line = json.dumps(record, ensure_ascii=True, sort_keys=False)
            self.output.write(line + "\n")
            self.output.flush()

    def result(self, result: Result) -> None:
        self.write(result.to_json())

    def tally(self, line: TallyLine, capabilities: Iterable[Capability] | None = None) -> None:
        """A ``tally`` line (its entries' scopes as asked of an engine declaring ``capabilities``)."""
        self.write(line.to_json(capabilities))


@dataclasses.dataclass
class Report:
    header: dict[str, Any]
    results: list[Result]
    """The results listed in full (every one, but where ``tallies`` count passes)."""
    footer: dict[str, Any]
    source: str = ""
    tallies: list[TallyLine] = dataclasses.field(default_factory=list)
    """The ``tally`` lines: the results counted rather than listed, span by span."""

    @property
    def engine_name(self) -> str:
        return str(self.header.get("engine", {}).get("name", "engine"))

    def tallied(self) -> Counter[Tallied]:
        """The results the tally lines count, by kind (empty when every result is listed)."""
        return total(self.tallies)

    def counts(self) -> Counter[str]:
        """Results by status, the listed and the counted ones."""
        counts = Counter(result.status.value for result in self.results)
        for kind, count in self.tallied().items():
            counts[kind.status] += count
        return counts

    def by_question(self) -> Counter[tuple[str, str]]:
        """Results by (question, status), the listed and the counted ones."""
        counts = Counter((result.question, result.status.value) for result in self.results)
        for kind, count in self.tallied().items():
            counts[kind.question, kind.status] += count
        return counts

    def counted(self, case: str, question: str, like: Result | None = None) -> Result | None:
        """The result of ``question`` at the position ``case`` names when a tally line counts it (a pass
        or an unsupported question, of the kind closest to ``like``: its rule); None otherwise."""
        index = position_index(case)
        if index is None or index < 0 or not any(line.covers(index) for line in self.tallies):
            return None
        kinds = [kind for kind in self.tallied() if kind.question == question]
        if not kinds:
            return None
        kinds.sort(key=lambda kind: (like is None or kind.article != like.article, kind))
        return kinds[0].result(case)

    def lines(self) -> Iterator[Result | TallyLine]:
        """The results and the tally lines in the order of the stream: a verify position's results
        before the tally line of its span (the start-position check first of all)."""
        tallies = iter(self.tallies)
        pending = next(tallies, None)
        for result in self.results:
            index = position_index(result.case)
            while pending is not None and index is not None and index > pending.last:
                yield pending
                pending = next(tallies, None)
            yield result
        if pending is not None:
            yield pending
        yield from tallies

    def by_rule(self) -> dict[str, list[Result]]:
        """Results grouped by the one rule each is filed under (its article, or its reading)."""
        groups: dict[str, list[Result]] = {}
        for result in self.results:
            groups.setdefault(result.judged_under, []).append(result)
        return groups

    @property
    def engine_level(self) -> str:
        return str(self.header.get("engine", {}).get("level", "rules"))

    @property
    def interrupted(self) -> bool:
        return bool(self.footer.get("interrupted"))

    def partial_footer(self) -> dict[str, Any]:
        """The footer of a run that did not finish: counts and certificate of what ran."""
        counts = self.counts()
        return {
            "type": "footer",
            "counts": {status.value: counts[status.value] for status in Status},
            "baselined": sum(1 for r in self.results if r.baselined),
            "unexpected_passes": [],
            "interrupted": True,
            "certificate": self.certificate().to_json(),
        }

    def certificate(self) -> Certificate:
        """The run's certificate, computed from its results (never read from the footer)."""
        questions = self.header.get("questions")
        if isinstance(questions, int):  # the probes of a run of some cases are asked on top
            questions += sum(1 for result in self.results if result.probe)
        filters = self.header.get("filters") or {}
        if not isinstance(filters, dict):
            filters = {}
        require = filters.get("require")
        baseline = filters.get("baseline")
        tallied = self.tallied()
        return certify(
            self.results,
            engine_level=self.engine_level,
            capabilities=self.capabilities(),
            questions=questions if isinstance(questions, int) else None,
            stopped_early=bool(self.footer.get("stopped_early")),
            interrupted=self.interrupted,
            required=[str(r) for r in require] if isinstance(require, list) else (),
            order=rule_order(self.results, tallied),
            baseline=str(baseline) if baseline is not None else None,
            accept_known=filters.get("accept_known") is True,
            tallied=tallied,
        )

    def capabilities(self) -> frozenset[Capability] | None:
        """The engine's capabilities as the header names them (None: a rules engine's)."""
        engine = self.header.get("engine", {})
        names = engine.get("capabilities", []) if isinstance(engine, dict) else []
        return capabilities_of(names if isinstance(names, list) else [], self.engine_level)


def header_differences(
    first: dict[str, Any], other: dict[str, Any], describe: Callable[[Any, Any], str], prefix: str = ""
) -> list[str]:
    """The fields of two report headers that differ (``engine.version``...), nested fields by their
    dotted name, each as ``name (describe(first's value, other's value))``."""
    differ = []
    for key in sorted(set(first) | set(other)):
        mine, theirs = first.get(key), other.get(key)
        if mine == theirs:
            continue
        if isinstance(mine, dict) and isinstance(theirs, dict):
            differ += header_differences(mine, theirs, describe, f"{prefix}{key}.")
        else:
            differ.append(f"{prefix}{key} ({describe(mine, theirs)})")
    return differ


def write_stream(report: Report, writer: ReportWriter) -> None:
    """The whole report as its JSON-lines stream: header, results and tally lines, footer."""
    writer.write(report.header)
    capabilities = report.capabilities()
    for line in report.lines():
        if isinstance(line, TallyLine):
            writer.tally(line, capabilities)
        else:
            writer.result(line)
    writer.write(report.footer)


def position_index(case: str) -> int | None:
    """The position index a verify case name ends with (``exhaustive-12``, ``verify-7-12``); -1 for
    the start-position check (``verify-7-start``); None for a corpus case."""
    if case.startswith("verify-") and case.endswith("-start"):
        return -1
    if not case.startswith(("verify-", "exhaustive-")):
        return None
    tail = case.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None


def pass_rate(results: list[Result]) -> float | None:
    """Passed / scored (pass + fail + error), or None when nothing was scored."""
    counts = Counter(r.status for r in results)
    scored = counts[Status.PASS] + counts[Status.FAIL] + counts[Status.ERROR]
    return counts[Status.PASS] / scored if scored else None


def rule_order(results: Sequence[Result], tallied: Iterable[Tallied] = ()) -> list[str]:
    """Rules in reading order: articles numerically (2 < 3.4 < 4.13 < 6.1 < PDN), then readings
    (of the listed ``results`` and of the kinds of counted ones, ``tallied``)."""
    kinds = list(tallied)
    readings = {result.reading for result in results if result.reading} | {
        k.reading for k in kinds if k.reading
    }
    keys = {result.judged_under for result in results} | {r.charged_to for r in results if r.charged_to}
    keys |= {kind.judged_under for kind in kinds}
    return sorted(keys, key=lambda key: (key in readings, article_sort_key(key)))


def _header_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with a header's fields, for the renderers that read them (None: nothing)."""
    engine = header.get("engine", {})
    if not isinstance(engine, dict) or not all(isinstance(v, str | list) for v in engine.values()):
        return "header: 'engine' must be an object of text fields"
    for key in ("questions", "corpus_questions", "corpus_cases", "selected_cases", "seed", "examples"):
        value = header.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"header: {key!r} must be an integer"
    filters = header.get("filters", {})
    if not isinstance(filters, dict):
        return "header: 'filters' must be an object"
    require = filters.get("require", [])
    if not isinstance(require, list) or not all(isinstance(r, str) for r in require):
        return "header: 'filters.require' must be a list of text"
    for text in require:
        try:
            Requirement.parse(text)
        except RequirementError as error:
            return f"header: 'filters.require': {error}"
    baseline = filters.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        return "header: 'filters.baseline' must be text (the baseline's file) or null"
    return None


def _footer_problem(footer: dict[str, Any]) -> str | None:
    unexpected = footer.get("unexpected_passes", [])
    if not isinstance(unexpected, list) or not all(isinstance(u, str) for u in unexpected):
        return "footer: 'unexpected_passes' must be a list of text"
    counts = footer.get("counts", {})
    if not isinstance(counts, dict):
        return "footer: 'counts' must be an object"
    return None


def read_report(path: Path | str) -> Report:
    """Read a saved report; a missing footer (interrupted run) is recomputed from the results."""
    path = Path(path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ReportError(f"{path}: cannot read the report: not a regular file")
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ReportError(f"{path}: cannot read the report: {error}") from None
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    results = []
    tallies = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            kind = record["type"]
            if kind == "header":
                header = record
            elif kind == "footer":
                footer = record
            elif kind == "result":
                results.append(Result.from_json(record))
            elif kind == "tally":
                tallies.append(TallyLine.from_json(record))
            else:
                raise ReportError(f"{path}:{number}: unknown record type {kind!r}")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, RecursionError) as error:
            if isinstance(error, ReportError):
                raise
            raise ReportError(f"{path}:{number}: not a report line ({error})") from None
    if header is None:
        raise ReportError(f"{path}: no header line: not a draughts-conformance report")
    problem = _header_problem(header) or (_footer_problem(footer) if footer is not None else None)
    if problem:
        raise ReportError(f"{path}: {problem}")
    if footer is None:
        footer = Report(header, results, {"interrupted": True}, tallies=tallies).partial_footer()
    return Report(header, results, footer, str(path), tallies)
