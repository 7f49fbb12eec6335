"""The ``verify`` run: generated positions through an engine, in order, into one report.

:func:`verify` draws the positions of a run (:mod:`conformance.verify.generate`), has each one
checked by a :class:`~conformance.verify.driver.Driver` (here, in worker processes or on a Dask
cluster), and takes the rows back in position order (:class:`~conformance.verify.collector.Collector`):
it writes the report stream, shrinks the first disagreements (one per check and kind of finding)
and the engine's errors (:mod:`conformance.verify.shrink_errors`, by a second engine from the
factory), counts, and stops at ``max_fail``. The certificate and exit status come from
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
depends on the order -- which disagreements are shrunk, the report, ``max_fail`` -- is done here
(by the collector), as on one process. A shard (``options.shard``) checks every ``N``-th position.

In-process engines get the ``engine_timeout`` as an alarm (``SIGALRM``, main thread, POSIX
only); subprocess adapters keep their own timeouts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any

from conformance.core.baseline import Baseline
from conformance.core.certificate import certify
from conformance.core.header import EngineRecord, RunHeader
from conformance.core.protocol import Engine, EngineInfo
from conformance.core.results import Result
from conformance.core.shards import WHOLE
from conformance.core.stream import rule_order
from conformance.core.tallies import TallyLine, position_index
from conformance.harness.runner import RunSummary
from conformance.report import Report, ReportWriter
from conformance.verify.casefile import Disagreement
from conformance.verify.chunk import Listed, Passed, spans_cut
from conformance.verify.collector import Collector
from conformance.verify.draw_phases import Cell
from conformance.verify.driver import Driver
from conformance.verify.generate import VerifyOptions
from conformance.verify.pool import chunk_size
from conformance.verify.shrink_errors import ErrorShrinker, ShrunkError
from conformance.verify.sweep import check_positions, thawed_after


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
        collector = Collector(Driver(engine, options), writer, progress, on_disagreement, gate.baseline)
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
        with thawed_after():
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
