"""The ``verify`` run: generated positions through an engine, in order, into one report.

:func:`verify` draws the positions of a run (:mod:`conformance.verify.generate`), has each one
checked by a :class:`~conformance.verify.driver.Driver` (here, in worker processes or on a Dask
cluster), and takes the rows back in position order (:class:`_Collector`): it writes the report
stream, shrinks the first disagreements (one per check and kind of finding) and the engine's
errors (:mod:`conformance.verify.shrink_errors`, by a second engine from the factory), counts, and
stops at ``max_fail``. The certificate and exit status come from
:func:`conformance.core.certificate.certify`, as for ``run``.

Determinism. Position ``i`` of seed ``S`` is drawn by the seeded generators
(:class:`~conformance.verify.strategies.RandomChooser`) from ``random.Random`` seeded with a
string naming ``S`` and ``i`` (string seeds go through SHA-512: the same on every machine and
Python process, whatever ``PYTHONHASHSEED``). So the same seed gives the same positions, and the
first ``n`` positions of a run do not depend on ``N``: ``verify-S-i`` names one position for
good. Hypothesis' own machinery was not used for drawing: ``example()`` is documented as not
reproducible and ``find`` searches for one example rather than drawing ``N``; the Hypothesis
strategies of the same generators stay for the tests, where Hypothesis shrinks failures itself.

Scale. The checks of a position depend on that position only, so any process can check any
position: ``workers`` processes (:mod:`conformance.verify.pool`) or a Dask cluster
(:mod:`conformance.verify.cluster`) check chunks of them, taken back in position order; what
depends on the order -- which disagreements are shrunk, the report, ``max_fail`` -- is done here,
as on one process. A shard (``options.shard``) checks every ``N``-th position.

In-process engines get the ``engine_timeout`` as an alarm (``SIGALRM``, main thread, POSIX
only); subprocess adapters keep their own timeouts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final

from conformance.core.baseline import Baseline
from conformance.core.certificate import certify
from conformance.core.header import EngineRecord, RunHeader
from conformance.core.protocol import Engine, EngineInfo
from conformance.core.results import Result, Status
from conformance.core.shards import WHOLE
from conformance.core.stream import rule_order
from conformance.core.tallies import AGGREGATED, Tallied, TallyLine, position_index
from conformance.harness.runner import RunSummary
from conformance.report import Report, ReportWriter
from conformance.verify.casefile import Disagreement
from conformance.verify.chunk import Listed, Passed, spans_cut
from conformance.verify.disagreement import shrink_row
from conformance.verify.draw_phases import Cell
from conformance.verify.driver import Driver, Row
from conformance.verify.findings import FindingKind
from conformance.verify.generate import Generated, VerifyOptions, positions
from conformance.verify.pool import chunk_size
from conformance.verify.registry import shrink_rank
from conformance.verify.shrink_errors import ErrorShrinker, Fault, ShrunkError, stem
from conformance.verify.sweep import check_positions


def verify_header(
    info: EngineInfo, options: VerifyOptions, gate: Gate | None = None, spec: str | None = None
) -> dict[str, Any]:
    """The first line of a verify report: a ``kind: verify`` marker, the seed and N, the engine,
    and the rule set played (``rules``, as a corpus run records it; none for international).

    ``examples`` is the number of positions of the whole run (the exhaustive count with
    ``pieces``); a shard of a run says which (``shard``: index and count); ``filters`` what decides
    the verdict besides the results (requirements, baseline), as in a corpus run's header. An
    exhaustive campaign names the code it proves (``code_digest``, with ``--prove``) or the proof of
    the oracle it relies on (``oracle_proof``: :func:`conformance.verify.proofs.citation`, or null).
    """
    shard = {} if options.shard == WHOLE else {"shard": options.shard.to_json()}
    ran_on: dict[str, Any] = {
        "seed": options.seed,
        "examples": options.total,
        **shard,
        "verify": options.to_json(),
    }
    if options.pieces is not None and not options.rule_set.is_default:
        ran_on["oracle_proof"] = None  # the proof records are of international draughts
    elif options.pieces is not None:  # the code proven, or the proof of the oracle this campaign relies on
        from conformance.verify.proofs import citation, code_digest

        digest = code_digest()
        ran_on.update({"code_digest": digest} if options.prove else {"oracle_proof": citation(digest)})
    engine = EngineRecord.of(info, spec)
    return RunHeader(
        engine, ran_on, (gate or Gate()).to_json(), kind="verify", rule_set=options.rule_set
    ).to_json()


@dataclasses.dataclass(frozen=True)
class Gate:
    """What decides a verify run's verdict besides its results: ``--require``, ``--baseline``,
    ``--accept-known`` (as for ``run``; :mod:`conformance.cli.verdict_options`)."""

    require: tuple[str, ...] = ()
    baseline: Baseline | None = None
    accept_known: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "require": list(self.require),
            "baseline": self.baseline.source if self.baseline else None,
            "accept_known": self.accept_known,
        }


@dataclasses.dataclass
class VerifyRun:
    """Everything a run produced: the report lines, the summary, the shrunk disagreements."""

    header: dict[str, Any]
    results: list[Result]
    """The results listed in full: failures, errors and skips (every result with ``all_results``)."""
    footer: dict[str, Any]
    summary: RunSummary
    disagreements: list[Disagreement]
    positions: int
    """How many positions were checked (fewer than asked when stopped by ``max_fail``)."""
    first_failure: int | None
    """The index of the first position with a failing check (None: none failed)."""
    errors: list[ShrunkError] = dataclasses.field(default_factory=list)
    """The engine's errors, each kind once, shrunk (:mod:`conformance.verify.shrink_errors`)."""
    tallies: list[TallyLine] = dataclasses.field(default_factory=list)
    """The ``tally`` lines: the passes counted, span by span (:mod:`conformance.core.tallies`)."""
    draw_cells: list[Cell] = dataclasses.field(default_factory=list)
    """The draw-rule timings asked by the steered games of the positions checked in this run
    (:func:`conformance.verify.generate.draw_timings`)."""
    draw_cells_from: int = 0
    """The positions before this one (a resumed run's) are not in ``draw_cells``."""

    @property
    def report(self) -> Report:
        return Report(self.header, self.results, self.footer, tallies=self.tallies)

    @property
    def exit_status(self) -> int:
        return self.summary.exit_status


def verify(
    factory: Callable[[], Engine],
    options: VerifyOptions,
    writer: ReportWriter | None = None,
    *,
    engine: Engine | None = None,
    progress: Callable[[int], None] | None = None,
    on_disagreement: Callable[[Disagreement], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    on_error: Callable[[ShrunkError], None] | None = None,
    gate: Gate | None = None,
    spec: str | None = None,
    resume: Report | None = None,
) -> VerifyRun:
    """Run the positions of ``options`` (its shard of them) through the engine.

    The report stream goes to ``writer`` as it is produced (header, one line per failure, error or
    skip, a ``tally`` line counting the passes of each span of positions -- every result on a line
    of its own with ``options.all_results`` --, footer); ``engine``, if given, is used instead of a
    new one from ``factory`` (the caller started it already). The engine is closed at the end.

    With ``workers`` > 1 the positions are checked by that many processes (``scheduler``: on a
    Dask cluster, :mod:`conformance.verify.cluster`), each with an engine of its own from
    ``factory``, which must then be picklable (:class:`conformance.engines.adapters.specs.EngineRecipe`). Results
    are taken in position order whatever order they finish in, and the disagreements are shrunk
    here with ``engine``, in that order: the report is the same whatever the workers. The
    engine's errors are shrunk here too, each kind once, with a second engine from ``factory``
    started for it (``on_error`` is told of each). ``gate`` holds the requirements and the
    baseline (its known failures are marked as each result is taken); ``spec``, the engine spec
    the run was given, goes into the report's header.

    ``resume`` is the report of this run, interrupted, up to its last ``tally`` line
    (:func:`conformance.verify.resume.read_resumable`): the run goes on from the next position,
    its header is not written again, and what the report holds counts as if checked now (the
    disagreements and errors it shrank are shrunk again, so the run ends as one that never stopped).
    """
    gate = gate or Gate()
    started = time.perf_counter()
    engine = engine or factory()
    writer = writer or ReportWriter(None)
    shrinker = ErrorShrinker(factory, options)  # starts an engine only when an error is to be shrunk
    options = _keeping(options, gate.baseline)
    try:
        header = verify_header(engine.info, options, gate, spec) if resume is None else resume.header
        if resume is None:
            writer.write(header)
        collector = _Collector(Driver(engine, options), writer, progress, on_disagreement, gate.baseline)
        collector.errors_with(shrinker, on_error)
        if resume is not None:
            collector.resume(resume)
        elif options.checks_start:
            collector.take_start(collector.driver.start_row(options.seed))
        remaining = options.indices()[collector.done :]
        with _position_rows(factory, options, collector.driver, workers, scheduler, remaining) as stream:
            for item in stream:
                if collector.take_item(item):
                    break
        collector.finish()
    finally:
        engine.close()
        shrinker.close()
    stopped = collector.stopped
    results = collector.results
    certificate = certify(
        results,
        engine_level=engine.info.level,
        capabilities=engine.info.capabilities,
        stopped_early=stopped,
        order=rule_order(results, collector.tallied),
        required=gate.require,
        baseline=gate.baseline.source if gate.baseline else None,
        accept_known=gate.accept_known,
        tallied=collector.tallied,
        rule_set=options.rule_set.name,
    )
    summary = RunSummary(
        collector.counts,
        collector.baselined,
        collector.unexpected,
        stopped,
        time.perf_counter() - started,
        certificate,
    )
    footer = summary.to_json() | {"positions": collector.done, "first_failure": collector.first_failure}
    writer.write(footer)
    return VerifyRun(
        header,
        results,
        footer,
        summary,
        collector.disagreements,
        collector.done,
        collector.first_failure,
        collector.errors,
        collector.tallies,
        collector.cells,
        collector.cells_from,
    )


def _keeping(options: VerifyOptions, baseline: Baseline | None) -> VerifyOptions:
    """``options`` listing in full the positions the baseline names (a pass of a known failure is
    then seen: an unexpected pass)."""
    if baseline is None or options.all_results:
        return options
    indices = {position_index(case) for case in baseline.cases}
    keep = frozenset(index for index in indices if index is not None and index >= 0)
    return dataclasses.replace(options, keep=keep) if keep else options


@contextlib.contextmanager
def _position_rows(
    factory: Callable[[], Engine],
    options: VerifyOptions,
    driver: Driver,
    workers: int,
    scheduler: str | None,
    indices: range,
) -> Iterator[Iterator[Passed | Listed]]:
    """The positions ``indices`` of the run checked, in position order: here, or by worker processes."""
    if workers <= 1 and scheduler is None:
        pieces = spans_cut(indices, chunk_size(options), options.span)
        yield (item for piece in pieces for item in check_positions(driver, options, piece))
        return
    if scheduler is not None:
        from conformance.verify.cluster import cluster_rows

        with cluster_rows(factory, options, scheduler, workers, indices) as stream:
            yield stream
        return
    from conformance.verify.pool import pool_rows

    with pool_rows(factory, options, workers, indices) as stream:
        yield stream


class _Span:
    """The ``tally`` line being filled: the positions of one span taken so far, and their counts."""

    def __init__(self, span: int, first: int) -> None:
        self.span = span
        self.first = self.last = first
        self.positions = 0
        self.counts: Counter[Tallied] = Counter()


class _Collector:
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
