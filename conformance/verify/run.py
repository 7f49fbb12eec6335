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
from typing import Any

from conformance.core.baseline import Baseline
from conformance.core.certificate import certify
from conformance.core.engine import Engine, EngineInfo
from conformance.core.header import EngineRecord, RunHeader
from conformance.core.results import Result, Status
from conformance.core.shards import WHOLE
from conformance.core.stream import rule_order
from conformance.harness.runner import RunSummary
from conformance.report import Report, ReportWriter
from conformance.verify.casefile import Disagreement
from conformance.verify.checks import FindingKind
from conformance.verify.driver import Driver, Row
from conformance.verify.generate import Generated, VerifyOptions, positions
from conformance.verify.registry import shrink_rank
from conformance.verify.shrink_errors import ErrorShrinker, Fault, ShrunkError


def verify_header(
    info: EngineInfo, options: VerifyOptions, gate: Gate | None = None, spec: str | None = None
) -> dict[str, Any]:
    """The first line of a verify report: a ``kind: verify`` marker, the seed and N, the engine.

    ``examples`` is the number of positions of the whole run (the exhaustive count with
    ``pieces``); a shard of a run says which (``shard``: index and count); ``filters`` what decides
    the verdict besides the results (requirements, baseline), as in a corpus run's header.
    """
    shard = {} if options.shard == WHOLE else {"shard": options.shard.to_json()}
    ran_on = {"seed": options.seed, "examples": options.total, **shard, "verify": options.to_json()}
    engine = EngineRecord.of(info, spec)
    return RunHeader(engine, ran_on, (gate or Gate()).to_json(), kind="verify").to_json()


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
    footer: dict[str, Any]
    summary: RunSummary
    disagreements: list[Disagreement]
    positions: int
    """How many positions were checked (fewer than asked when stopped by ``max_fail``)."""
    first_failure: int | None
    """The index of the first position with a failing check (None: none failed)."""
    errors: list[ShrunkError] = dataclasses.field(default_factory=list)
    """The engine's errors, each kind once, shrunk (:mod:`conformance.verify.shrink_errors`)."""

    @property
    def report(self) -> Report:
        return Report(self.header, self.results, self.footer)

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
) -> VerifyRun:
    """Run the positions of ``options`` (its shard of them) through the engine.

    The report stream goes to ``writer`` as it is produced (header, one line per result,
    footer); ``engine``, if given, is used instead of a new one from ``factory`` (the caller
    started it already). The engine is closed at the end.

    With ``workers`` > 1 the positions are checked by that many processes (``scheduler``: on a
    Dask cluster, :mod:`conformance.verify.cluster`), each with an engine of its own from
    ``factory``, which must then be picklable (:class:`conformance.engines.adapters.specs.EngineRecipe`). Results
    are taken in position order whatever order they finish in, and the disagreements are shrunk
    here with ``engine``, in that order: the report is the same whatever the workers. The
    engine's errors are shrunk here too, each kind once, with a second engine from ``factory``
    started for it (``on_error`` is told of each). ``gate`` holds the requirements and the
    baseline (its known failures are marked as each result is taken); ``spec``, the engine spec
    the run was given, goes into the report's header.
    """
    gate = gate or Gate()
    started = time.perf_counter()
    engine = engine or factory()
    writer = writer or ReportWriter(None)
    shrinker = ErrorShrinker(factory, options)  # starts an engine only when an error is to be shrunk
    try:
        header = verify_header(engine.info, options, gate, spec)
        writer.write(header)
        collector = _Collector(Driver(engine, options), writer, progress, on_disagreement, gate.baseline)
        collector.errors_with(shrinker, on_error)
        if options.checks_start:
            collector.take_start(collector.driver.start_row(options.seed))
        with _position_rows(factory, options, collector.driver, workers, scheduler) as stream:
            for generated, rows in stream:
                if collector.take(generated, rows):
                    break
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
        order=rule_order(results),
        required=gate.require,
        baseline=gate.baseline.source if gate.baseline else None,
        accept_known=gate.accept_known,
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
    )


@contextlib.contextmanager
def _position_rows(
    factory: Callable[[], Engine],
    options: VerifyOptions,
    driver: Driver,
    workers: int,
    scheduler: str | None,
) -> Iterator[Iterator[tuple[Generated, list[Row]]]]:
    """Each position of the run with its rows, in position order: here, or from worker processes."""
    if workers <= 1 and scheduler is None:
        yield ((generated, driver.rows(generated)) for generated in positions(options, options.indices()))
        return
    if scheduler is not None:
        from conformance.verify.cluster import cluster_rows

        with cluster_rows(factory, options, scheduler, workers) as stream:
            yield stream
        return
    from conformance.verify.pool import pool_rows

    with pool_rows(factory, options, workers) as stream:
        yield stream


class _Collector:
    """Takes the positions' rows in position order: shrinks, writes, counts, stops at ``max_fail``.

    Which failures are shrunk depends only on the rows before (in position order), so it is the
    same whichever process checked them.
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
        self.results.append(result)
        self.counts[result.status.value] += 1
        self.writer.result(result)
        return result

    def take(self, generated: Generated, rows: list[Row]) -> bool:
        """Record one position's rows; True when the run must stop (``max_fail`` reached)."""
        options = self.options
        failed = sorted(
            (row for row in rows if row.judgement is not None), key=lambda row: shrink_rank(row.check)
        )
        if failed and self.first_failure is None:
            self.first_failure = generated.index
        for row in failed if len(self.disagreements) < options.shrink else ():
            assert row.judgement is not None
            assert row.judgement.kind is not None
            if (row.check, row.judgement.kind) in self.shrunk_kinds:
                continue
            self.shrunk_kinds.add((row.check, row.judgement.kind))
            disagreement = self.driver.shrink(generated, row)
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
        recorded = [self.record(row.result) for row in rows]
        self.done += 1
        if self.progress is not None:
            self.progress(self.done)
        if any(result.status in (Status.FAIL, Status.ERROR) and not result.baselined for result in recorded):
            self.failing_positions += 1
            if options.max_fail is not None and self.failing_positions >= options.max_fail:
                self.stopped = self.done < len(options.indices())
                return True
        return False
