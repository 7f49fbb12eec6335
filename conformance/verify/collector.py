"""The rows of a ``verify`` run taken back in position order (:class:`Collector`).

However the positions were checked -- here, by worker processes or on a Dask cluster
(:mod:`conformance.verify.run`) -- their rows are taken here in position order: the collector
writes the report stream (a result listed, or counted in the ``tally`` line of its span),
shrinks the first disagreements (one per check and kind of finding) and the engine's errors
(:mod:`conformance.verify.shrink_errors`), counts, and stops at ``max_fail``. What depends on the
order is done here alone, so the report is the same whichever process checked a position. A
resumed run's report is taken first (:meth:`Collector.resume`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from conformance.core.baseline import Baseline
from conformance.core.results import Result, Status
from conformance.core.shards import WHOLE
from conformance.core.tallies import AGGREGATED, Tallied, TallyLine, position_index
from conformance.report import Report, ReportWriter
from conformance.verify.casefile import Disagreement
from conformance.verify.chunk import Listed, Passed
from conformance.verify.disagreement import shrink_row
from conformance.verify.draw_phases import Cell
from conformance.verify.driver import Driver, Row
from conformance.verify.findings import FindingKind
from conformance.verify.generate import Generated, positions
from conformance.verify.registry import shrink_rank
from conformance.verify.shrink_errors import ErrorShrinker, Fault, ShrunkError, stem


class _Span:
    """The ``tally`` line being filled: the positions of one span taken so far, and their counts."""

    def __init__(self, span: int, first: int) -> None:
        self.span = span
        self.first = self.last = first
        self.positions = 0
        self.counts: Counter[Tallied] = Counter()


class Collector:
    """Takes the positions' rows in position order: shrinks, writes, counts, stops at ``max_fail``.

    Which failures are shrunk depends only on the rows before (in position order), so it is the
    same whichever process checked them. Results are listed in the report (and kept for the
    certificate) when they are failures, errors or skips, or with ``all_results``; the others are
    counted, one ``tally`` line per span of positions.
    """

    def __init__(
        self,
        driver: Driver,
        writer: ReportWriter,
        progress: Callable[[int], None] | None,
        on_disagreement: Callable[[Disagreement], None] | None,
        baseline: Baseline | None = None,
    ) -> None:
        self.driver = driver
        self.baseline = baseline
        self.baselined = 0
        self.unexpected: list[str] = []
        self.options = driver.options
        self.writer = writer
        self.progress = progress
        self.on_disagreement = on_disagreement
        self.results: list[Result] = []
        self.tallied: Counter[Tallied] = Counter()
        self.tallies: list[TallyLine] = []
        self.span: _Span | None = None
        self.capabilities = driver.capabilities
        self.counts: Counter[str] = Counter()
        self.disagreements: list[Disagreement] = []
        self.shrunk_kinds: set[tuple[str, FindingKind]] = set()
        self.failing_positions = 0
        self.first_failure: int | None = None
        self.stopped = False
        self.done = 0
        self.errors: list[ShrunkError] = []
        self.shrunk_faults: set[Fault] = set()
        self.shrinker: ErrorShrinker | None = None
        self.on_error: Callable[[ShrunkError], None] | None = None
        self.cells: list[Cell] = []
        self.cells_from = 0

    def errors_with(self, shrinker: ErrorShrinker, on_error: Callable[[ShrunkError], None] | None) -> None:
        """Shrink the engine's errors with ``shrinker``; ``on_error`` is told of each."""
        self.shrinker = shrinker
        self.on_error = on_error

    def take_start(self, row: Row) -> None:
        """Record the start-position check (Art. 2.8): one result, not a position, nothing to shrink."""
        self.record(row.result)

    def record(self, result: Result) -> Result:
        """Write and count one result, marked known when the baseline lists its failure."""
        if self.baseline is not None:
            result = self.baseline.apply(result)
            if result.status is Status.PASS and self.baseline.covers(result):
                self.unexpected.append(f"{result.case} {result.question}")
            self.baselined += result.baselined
        self.keep(result)
        self.writer.result(result)
        return result

    def keep(self, result: Result) -> None:
        self.results.append(result)
        self.counts[result.status.value] += 1

    def listed(self, index: int, result: Result) -> bool:
        """Whether ``result`` of position ``index`` is listed rather than counted."""
        return self.options.all_results or result.status not in AGGREGATED or index in self.options.keep

    # -- spans --------------------------------------------------------------------------------------

    def enter(self, index: int) -> _Span:
        """The span of position ``index``: the current one, or a new one once the current is written."""
        span = index // self.options.span
        if self.span is not None and self.span.span != span:
            self.flush()
        if self.span is None:
            self.span = _Span(span, index)
        return self.span

    def flush(self) -> None:
        """Write the current span's ``tally`` line."""
        if self.span is None:
            return
        span, self.span = self.span, None
        shard = self.options.shard if self.options.shard != WHOLE else None
        line = TallyLine.of(span.span, span.first, span.last, span.positions, span.counts, shard)
        self.writer.tally(line, self.capabilities)
        self.adopt(line)

    def adopt(self, line: TallyLine) -> None:
        """Count a written ``tally`` line in the run's totals."""
        self.tallies.append(line)
        for kind, count in line.counts:
            self.tallied[kind] += count
            self.counts[kind.status] += count

    def finish(self) -> None:
        self.flush()

    # -- positions ----------------------------------------------------------------------------------

    def take_item(self, item: Passed | Listed) -> bool:
        """Take a run of counted positions or one listed position; True when the run must stop."""
        if isinstance(item, Passed):
            span = self.enter(item.first)
            span.last = item.last
            span.positions += item.positions
            span.counts.update(item.counts)
            self.done += item.positions
            self.cells += item.cells
            if self.progress is not None:
                self.progress(self.done)
            return False
        return self.take(*item)

    def shrink(self, generated: Generated, rows: list[Row]) -> None:
        """Shrink the position's first failing check of a kind not shrunk yet, and its first error
        of a kind not shrunk yet (up to ``shrink`` of each)."""
        options = self.options
        failed = sorted(
            (row for row in rows if row.judgement is not None), key=lambda row: shrink_rank(row.check)
        )
        for row in failed if len(self.disagreements) < options.shrink else ():
            assert row.judgement is not None
            assert row.judgement.kind is not None
            if (row.check, row.judgement.kind) in self.shrunk_kinds:
                continue
            self.shrunk_kinds.add((row.check, row.judgement.kind))
            disagreement = shrink_row(self.driver, generated, row)
            self.disagreements.append(disagreement)
            if self.on_disagreement is not None:
                self.on_disagreement(disagreement)
            break  # one disagreement per position
        erring = sorted(
            (row for row in rows if row.fault is not None), key=lambda row: shrink_rank(row.check)
        )
        for row in erring if self.shrinker is not None and len(self.errors) < options.shrink else ():
            assert row.fault is not None
            assert self.shrinker is not None
            if row.fault in self.shrunk_faults:
                continue
            self.shrunk_faults.add(row.fault)
            error = self.shrinker.shrink(generated.case, generated.position, row.check, row.fault, row)
            self.errors.append(error)
            if self.on_error is not None:
                self.on_error(error)
            break  # one error per position

    def take(self, generated: Generated, rows: list[Row]) -> bool:
        """Record one position's rows; True when the run must stop (``max_fail`` reached)."""
        options = self.options
        if self.first_failure is None and any(row.judgement is not None for row in rows):
            self.first_failure = generated.index
        self.shrink(generated, rows)
        span = self.enter(generated.index)
        recorded = []
        for row in rows:
            if self.listed(generated.index, row.result):
                recorded.append(self.record(row.result))
            else:
                span.counts[Tallied.of(row.result)] += 1
        span.last = generated.index
        span.positions += 1
        self.done += 1
        if generated.game is not None:
            self.cells += generated.game.cells
        if self.progress is not None:
            self.progress(self.done)
        if any(result.status in (Status.FAIL, Status.ERROR) and not result.baselined for result in recorded):
            self.failing_positions += 1
            if options.max_fail is not None and self.failing_positions >= options.max_fail:
                self.stopped = self.done < len(options.indices())
                return True
        return False

    # -- a resumed run ------------------------------------------------------------------------------

    def resume(self, report: Report) -> None:
        """Take the report of this run up to its last ``tally`` line as checked: its results and
        tallies counted, the positions it covers done, and the disagreements and errors the run had
        shrunk by then shrunk again (their positions checked again for that alone, never reported twice)."""
        by_position: dict[int, list[Result]] = {}
        for result in report.results:
            index = position_index(result.case)
            if self.baseline is not None and result.status is Status.PASS and self.baseline.covers(result):
                self.unexpected.append(f"{result.case} {result.question}")
            self.baselined += result.baselined
            self.keep(result)
            if index is not None and index >= 0:
                by_position.setdefault(index, []).append(result)
        for line in report.tallies:
            self.adopt(line)
            self.done += line.positions
        seen: set[tuple[str, ...]] = set()
        for index, results in by_position.items():
            problems = [r for r in results if r.status in (Status.FAIL, Status.ERROR)]
            if (
                any(r.status is Status.FAIL and r.defect in _KINDS for r in results)
                and self.first_failure is None
            ):
                self.first_failure = index
            if any(not r.baselined for r in problems):
                self.failing_positions += 1
            signatures = {_signature(r) for r in problems} - seen
            seen |= signatures
            budget = len(self.disagreements) < self.options.shrink or len(self.errors) < self.options.shrink
            if signatures and budget:  # it may have been shrunk: check it again, for shrinking alone
                generated = next(positions(self.options, range(index, index + 1)))
                self.shrink(generated, self.driver.rows(generated))
        self.cells_from = self.done
        if self.progress is not None:
            self.progress(self.done)


_KINDS: Final = {kind.describe(): kind for kind in FindingKind}
"""A failure's ``defect`` -> its kind of finding (a failing check's, not a refused move's)."""


def _signature(result: Result) -> tuple[str, ...]:
    """What makes a failing or erring result shrink as a new disagreement or a new error."""
    kind = result.error.kind if result.error is not None else ""
    return (result.question, result.status.value, result.defect, kind, stem(result.message))
