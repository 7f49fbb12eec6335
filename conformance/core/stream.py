"""The canonical report: JSON lines -- a header, one line per result, a footer with the counts.

A long ``verify`` campaign counts its passes instead of listing them: ``tally`` lines between
the results (:mod:`conformance.core.tallies`), each counting the passes of a span of positions.

Every other format is rendered from this stream. Each line carries a counter and a digest chain
(:mod:`conformance.core.chain`); a file is written beside its name and renamed when complete
(:mod:`conformance.core.files`), lines flushed as they are written, so that a run that is
interrupted, or whose disk fills, still leaves a report that renders (its footer is then
recomputed, and the report says it is partial). Reading a report back, with every check:
:mod:`conformance.core.reading`.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Final, Self

from conformance.core import rule_sets
from conformance.core.certificate import Certificate, certify
from conformance.core.chain import UNCHAINED_NOTE, ChainWriter
from conformance.core.corpus.model import article_sort_key
from conformance.core.errors import ReportError as ReportError  # its home before core/errors.py
from conformance.core.files import LineFile
from conformance.core.protocol import Capability
from conformance.core.results import Result, Status, TextsOnce
from conformance.core.scopes import capabilities_of
from conformance.core.summary import Summary
from conformance.core.tallies import Tallied, TallyLine, position_index, total

UNCHAINED_MARK: Final = "unchained"
"""The header field of a report rewritten from an unchained one (``render --format json``,
``merge``): its new chain proves nothing of the lines it came from, and every view says so."""


class ReportWriter:
    """Writes the stream, each line with its counter and digest chain (:mod:`conformance.core.chain`).

    ``ReportWriter(stream)`` writes to an open text stream (or nowhere, with ``None``), flushed line
    by line; :meth:`to_path` writes a file safely (:class:`~conformance.core.files.LineFile`: beside
    it until :meth:`close` gives it its name; a write that fails -- a full disk -- stops the writing,
    and :meth:`close` keeps every whole line written before, marked partial). Writing never raises
    after the file is created: :attr:`failure` says what went wrong."""

    def __init__(self, output: IO[str] | None) -> None:
        self.output = output
        self.file: LineFile | None = None
        self.chain = ChainWriter()
        self.results = 0
        """Result lines written (whole)."""
        self.texts = TextsOnce()

    @classmethod
    def to_path(cls, path: Path | str) -> Self:
        """A writer of the report file ``path`` (OSError when it cannot be created)."""
        writer = cls(None)
        writer.file = LineFile(path)
        return writer

    @property
    def failure(self) -> OSError | None:
        """The write that failed (the report then holds what was written before it), or None."""
        return self.file.failure if self.file is not None else None

    def write(self, record: dict[str, Any]) -> bool:
        """Write one line; False when it was not written (no output, or writing failed)."""
        if self.output is None and self.file is None:
            return False
        before = (self.chain.count, self.chain.digest)
        line = self.chain.line(record)
        if self.file is not None:
            if not self.file.write_line(line):  # not written: the chain goes on from the last line that was
                self.chain.count, self.chain.digest = before
                return False
        elif self.output is not None:
            self.output.write(line + "\n")
            self.output.flush()
        return True

    def result(self, result: Result) -> None:
        if self.write(self.texts.shortened(result.to_json())):
            self.results += 1

    def tally(self, line: TallyLine, capabilities: Iterable[Capability] | None = None) -> None:
        """A ``tally`` line (its entries' scopes as asked of an engine declaring ``capabilities``)."""
        self.write(line.to_json(capabilities))

    def close(self) -> OSError | None:
        """Give the file its name (after a failure, with the partial marker if it fits); the
        failure, if any. Nothing to do for a stream."""
        if self.file is None:
            return None
        marker = None
        if self.file.failure is not None:
            marker = self.chain.line(
                {
                    "type": "partial",
                    "reason": f"writing the report failed: {self.file.failure}",
                    "results": self.results,
                }
            )
        return self.file.close(marker)

    @classmethod
    def for_option(cls, path: Path | None) -> Self:
        """The writer of ``--report PATH`` (nowhere for None). A report an earlier run left there is
        removed first -- it never stays to pass for this run's --, and the new one takes the name
        when :meth:`finish` closes it. OSError when it cannot be created."""
        if path is None:
            return cls(None)
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink():
                path.unlink()
        return cls.to_path(path)

    def finish(self) -> str | None:
        """Close the report (:meth:`close`); a one-line error when it could not all be written."""
        failure = self.close()
        if failure is None or self.file is None:
            return None
        reason = failure.strerror or str(failure)
        if not self.file.lines:
            return f"cannot write the report {self.file.path}: {reason}"
        return (
            f"cannot write the report {self.file.path}: {reason}; it holds the {self.results} result(s) "
            "written before, and says it is partial (render reads them)"
        )

    def discard(self) -> None:
        """Remove the file (the run never began)."""
        if self.file is not None:
            self.file.discard()


@dataclasses.dataclass
class Report:
    header: dict[str, Any]
    results: list[Result]
    """The results listed in full (every one, but where ``tallies`` count passes)."""
    footer: dict[str, Any]
    source: str = ""
    notes: tuple[str, ...] = ()
    """What reading the report found that every view must say: unchained (older format), cut
    short, control characters in its names escaped..."""
    tallies: list[TallyLine] = dataclasses.field(default_factory=list)
    """The ``tally`` lines: the results counted rather than listed, span by span (in span order)."""
    summary: Summary | None = None
    """Set when the report was read summarised (:func:`conformance.core.reading.read_report` with
    ``summarise``, for the views whose memory must not grow with the report): the result lines of
    a campaign's positions that were counted or cut as they were read."""
    _kinds: dict[str, list[Tallied]] | None = dataclasses.field(
        default=None, init=False, repr=False, compare=False
    )
    _firsts: list[int] = dataclasses.field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def unchained(self) -> bool:
        """Read without a digest chain, or rewritten from a report that had none."""
        return UNCHAINED_NOTE in self.notes or bool(self.header.get(UNCHAINED_MARK))

    @property
    def engine_name(self) -> str:
        return str(self.header.get("engine", {}).get("name", "engine"))

    def tallied(self) -> Counter[Tallied]:
        """The results the tally lines count, by kind (empty when every result is listed), and
        those a summarised reading counted (:attr:`summary`)."""
        counted = total(self.tallies)
        if self.summary is not None:
            counted.update(self.summary.folded)
        return counted

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
        if index is None or index < 0 or not self.tallies:
            return None
        if self._kinds is None:  # asked once per listed result of a diff: built once
            self._firsts = [line.first for line in self.tallies]
            self._kinds = {}
            for kind in sorted(self.tallied()):
                self._kinds.setdefault(kind.question, []).append(kind)
        at = bisect.bisect_right(self._firsts, index) - 1
        if at < 0 or not self.tallies[at].covers(index):
            return None
        kinds = sorted(
            self._kinds.get(question, []),
            key=lambda kind: (like is None or kind.article != like.article, kind),
        )
        return kinds[0].result(case) if kinds else None

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

    def recomputed_footer(self) -> dict[str, Any]:
        """The footer as the results make it: counts, baselined, certificate and exit status
        recomputed (never copied from the footer read); what only the run knew -- stopped early,
        interrupted, timings, the positions of verify -- kept, and the baselined questions that now
        pass kept only where they name a result that passed."""
        counts = self.counts()
        certificate = self.certificate()
        passed = {f"{r.case} {r.question}" for r in self.results if r.status is Status.PASS}
        unexpected = self.footer.get("unexpected_passes") or []
        footer = {
            key: value
            for key, value in self.footer.items()
            if key in ("stopped_early", "interrupted", "duration_s", "finished", "positions", "first_failure")
        }
        return {
            "type": "footer",
            "counts": {status.value: counts[status.value] for status in Status},
            "baselined": sum(1 for r in self.results if r.baselined),
            "unexpected_passes": [text for text in unexpected if isinstance(text, str) and text in passed],
            **footer,
            "exit_status": int(certificate.exit_status),
            "certificate": certificate.to_json(),
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
            rule_set=rule_sets.name_of(self.header),
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


def write_lines(report: Report, writer: ReportWriter) -> None:
    """The report's result and tally lines, in the order of its stream (between header and footer)."""
    if report.summary is not None:
        raise ValueError("a report read summarised has lost lines: it cannot be written back")
    capabilities = report.capabilities()
    for line in report.lines():
        if isinstance(line, TallyLine):
            writer.tally(line, capabilities)
        else:
            writer.result(line)


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
