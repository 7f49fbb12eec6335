"""The ``verify`` driver: generated positions through an engine, every answer checked three ways.

For each of ``N`` positions drawn from :mod:`conformance.verify.strategies` the driver asks the
engine, through the harness's :class:`~conformance.engine.Engine` interface (any adapter), for
what its capabilities allow -- the legal moves of the position and of its colour-flipped twin,
the position after a few of those moves, the outcome of a random game from an endgame -- and
checks each answer:

* **with z3** (``legal_moves[z3]``): :func:`~conformance.verify.checks.verify_position` --
  soundness, optimality (an UNSAT proof), completeness of the captures; the quiet moves when
  nothing can be captured. Independent of the oracle's move generator.
* **invariants** (``legal_moves[invariants]``, ``symmetry``, ``after[invariants]``): every
  move readable and listed once, captured squares distinct and the opponent's; the flipped
  position gets the flipped moves; after a move, pieces = before - captured, no man on its own
  promotion row, promotion exactly when a man ends on the far row. No oracle either.
* **differentially** (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``): the
  same answers next to the oracle's (:mod:`conformance.verify.differential`).

Each (position, check) is one :class:`~conformance.results.Result` of the canonical report
stream (``case`` ``verify-<seed>-<index>``, ``position`` the FEN), filed under the articles of
what was checked -- on a failure, of the findings' kinds. An engine that breaks gives ``error``,
one that declines ``skip``; z3 answering ``unknown`` is an ``error``, never a pass.

On a disagreement the driver *shrinks* the position (:func:`shrink_position`: remove pieces one
at a time, turn kings into men, while the same check still reports the same kind of finding)
and describes the minimal position (:class:`Disagreement`): FEN, board, expected vs got, and a
case for ``cases/`` whose expectation is marked ``TODO: work out by hand`` -- suggested from the
SMT enumeration (or the rules' arithmetic), never from the oracle. A check the engine fails to
answer (a crash, a hang, garbage...) is shrunk too, while the same request fails the same way
(:mod:`conformance.verify.shrink_errors`), by a second engine from the factory.

Determinism. Position ``i`` of seed ``S`` is drawn by the seeded generators
(:class:`~conformance.verify.strategies.RandomChooser`) from ``random.Random`` seeded with a
string naming ``S`` and ``i`` (string seeds go through SHA-512: the same on every machine and
Python process, whatever ``PYTHONHASHSEED``). So the same seed gives the same positions, and the
first ``n`` positions of a run do not depend on ``N``: ``verify-S-i`` names one position for
good. Hypothesis' own machinery was not used for drawing: ``example()`` is documented as not
reproducible and ``find`` searches for one example rather than drawing ``N``; the Hypothesis
strategies of the same generators stay for the tests, where Hypothesis shrinks failures itself.

Scale. The checks of a position depend on that position only (the answers are remembered per
position; a failing z3 check is described in a z3 context of its own), so any process can check
any position: ``workers`` processes (:mod:`conformance.verify.pool`) or a Dask cluster
(:mod:`conformance.verify.cluster`) check chunks of them, taken back in position order; what
depends on the order -- which disagreements are shrunk, the report, ``max_fail`` -- is done here,
as on one process. A shard (``options.shard``) checks every ``N``-th position.

In-process engines get the ``engine_timeout`` as an alarm (``SIGALRM``, main thread, POSIX
only); subprocess adapters keep their own timeouts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from conformance import __version__
from conformance.certificate import certify
from conformance.corpus.model import article_sort_key
from conformance.engine import (
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    Engine,
    EngineInfo,
)
from conformance.protocol import Capability
from conformance.report import Report, ReportWriter
from conformance.report.stream import rule_order
from conformance.results import ErrorInfo, Result, Status
from conformance.runner import RunSummary
from conformance.shards import WHOLE
from conformance.verify.asking import Asker, EngineFailed, NotApplicable
from conformance.verify.casefile import Disagreement, case_yaml
from conformance.verify.checks import FindingKind, MoveKey
from conformance.verify.differential import (
    random_game,
)
from conformance.verify.draw_filing import refused_move_rule
from conformance.verify.generate import EXHAUSTIVE, OUTCOME_KINDS, Generated, VerifyOptions, positions
from conformance.verify.judges import (
    AFTER_ARTICLES,
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    CHOSEN_ORACLE,
    CHOSEN_Z3,
    DRAWS,
    INVARIANTS,
    ORACLE,
    OUTCOME,
    SYMMETRY,
    Z3,
    Checks,
    Judgement,
    articles_of,
    filed,
    legal_move_articles,
    played_move_rule,
)
from conformance.verify.jumps import capture_graphs
from conformance.verify.shrink import Shrunk, shrink_position
from conformance.verify.shrink_errors import ErrorShrinker, Fault, ShrunkError
from conformance.verify.smt import SolverUnknownError, VerifyError
from oracle.position import Position

SHRINK_ORDER: Final = (
    INVARIANTS,
    ORACLE,
    Z3,
    SYMMETRY,
    CHOSEN_ORACLE,
    CHOSEN_Z3,
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    OUTCOME,
    DRAWS,
)
"""Which failing check of a position is shrunk: the first failing one in this order (cheapest first)."""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def verify_header(info: EngineInfo, options: VerifyOptions) -> dict[str, Any]:
    """The first line of a verify report: a ``kind: verify`` marker, the seed and N, the engine.

    ``examples`` is the number of positions of the whole run (the exhaustive count with
    ``pieces``); a shard of a run says which (``shard``: index and count).
    """
    shard = {} if options.shard == WHOLE else {"shard": options.shard.to_json()}
    return {
        "type": "header",
        "kind": "verify",
        "suite": "draughts-conformance",
        "suite_version": __version__,
        "protocol": f"{PROTOCOL_VERSION}.{PROTOCOL_MINOR}",
        "seed": options.seed,
        "examples": options.total,
        **shard,
        "verify": options.to_json(),
        "engine": {
            "name": info.name,
            "version": info.version,
            "adapter": info.adapter,
            "level": info.level,
            "capabilities": sorted(c.value for c in info.capabilities),
        },
        "started": _now(),
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


@dataclasses.dataclass(frozen=True)
class Row:
    check: str
    result: Result
    judgement: Judgement | None
    fault: Fault | None = None
    """How the engine failed the check's request (an error to shrink), if it did."""
    subject: Any = None
    """The subject (move played, moves of a game) whose request failed."""


class Driver:
    def __init__(self, engine: Engine, options: VerifyOptions) -> None:
        self.options = options
        self.asker = Asker(engine, options.engine_timeout)
        self.checks = Checks(self.asker, options)
        self.capabilities = engine.info.capabilities

    def rows(self, generated: Generated) -> list[Row]:
        """Every check of one position, in report order."""
        self.checks.forget()
        options = self.options
        rows: list[Row] = []
        can = self.capabilities.__contains__
        with_z3 = options.z3 and (options.z3_examples is None or generated.index < options.z3_examples)
        # The lean path of an exhaustive campaign: z3 only where a capture exists (without one it
        # only re-derives the steps the oracle's differential checks), and no symmetry row (the
        # colour-flipped position is in the campaign too, checked on its own).
        lean = generated.kind == EXHAUSTIVE
        if lean:
            with_z3 = with_z3 and bool(capture_graphs(generated.position))
        if can(Capability.LEGAL_MOVES) or not can(Capability.CHOOSE_MOVE):
            checks = [
                *([Z3] if with_z3 else []),
                INVARIANTS,
                *([ORACLE] if options.differential else []),
                *([] if lean else [SYMMETRY]),
            ]
            for check in checks:
                rows.append(self.row(generated, check, Capability.LEGAL_MOVES, [None]))
        else:  # a move-choice engine (Hub, DXP): its chosen move is judged
            for check in [
                *([CHOSEN_Z3] if with_z3 else []),
                *([CHOSEN_ORACLE] if options.differential else []),
            ]:
                rows.append(self.row(generated, check, Capability.CHOOSE_MOVE, [None]))
        played = self.moves_to_play(generated) if options.plays else []
        if played:  # nothing to play (no legal move, or none the engine lists): no after rows
            for check in [AFTER_INVARIANTS, *([AFTER_ORACLE] if options.differential else [])]:
                rows.append(self.row(generated, check, Capability.PLAY, played))
        if options.differential and generated.kind in OUTCOME_KINDS and options.outcome_plies:
            rows.append(self.row(generated, OUTCOME, Capability.OUTCOME, self.sequences(generated)))
        if options.differential and generated.game is not None:
            rows.append(self.row(generated, DRAWS, Capability.OUTCOME, generated.game.questions()))
        return rows

    def moves_to_play(self, generated: Generated) -> list[MoveKey]:
        """A sample of the oracle's moves (the same whatever the engine), kept if the engine lists them too.

        The oracle only provides the move text (notation), never the judgement of ``after[invariants]``.
        """
        moves = sorted(
            (m.key for m in self.checks.oracle_moves(generated.position)),
            key=lambda k: (k[0], k[1], sorted(k[2])),
        )
        sample = generated.rng("plays").sample(moves, min(self.options.plays, len(moves)))
        if Capability.LEGAL_MOVES not in self.capabilities:
            return sample
        try:
            listed = {
                (m.from_square, m.to_square, m.captured)
                for m in self.asker.legal_moves(generated.position.fen())
            }
        except EngineFailed:
            return sample
        return [key for key in sample if key in listed]

    def sequences(self, generated: Generated) -> list[tuple[str, ...]]:
        """A random game's moves; when it ends, also the moves but the last (still going on)."""
        game = random_game(generated.position, generated.rng("game"), self.options.outcome_plies)
        moves = tuple(game.move_texts())
        return [moves, moves[:-1]] if game.is_over and moves else [moves]

    def row(self, generated: Generated, check: str, capability: Capability, subjects: Sequence[Any]) -> Row:
        """One check's result; a move played (``after``) that passes is filed under that move's rule."""
        row = self._row(generated, check, capability, subjects)
        if check in (AFTER_INVARIANTS, AFTER_ORACLE) and subjects and row.result.status is not Status.FAIL:
            rule = played_move_rule(generated.position, subjects[0])
            if rule is not None:
                row = dataclasses.replace(
                    row, result=dataclasses.replace(row.result, article=rule, requires=())
                )
        return row

    def _row(self, generated: Generated, check: str, capability: Capability, subjects: Sequence[Any]) -> Row:
        position = generated.position
        base: dict[str, Any] = {"case": generated.case, "question": check, "position": position.fen()}
        default = self.default_articles(check, position, generated)
        if capability not in self.capabilities:
            result = Result(
                **base,
                **filed(default),
                status=Status.UNSUPPORTED,
                message=f"engine lacks {capability.value}",
            )
            return Row(check, result, None)
        function = self.checks.function(check)
        started = time.perf_counter()
        judgements: list[Judgement] = []
        subject: Any = None
        try:
            for subject in subjects:
                judgement = function(position, subject)
                judgements.append(judgement)
                if judgement.findings:
                    break
        except EngineFailed as failed:
            refused = self.refused_rule(check, position, subject, failed)
            result = Result(
                **base,
                **filed((refused,) if refused else default),
                status=failed.status,
                message=failed.message
                + (f" (charged to Art. {refused}, the rule of that move)" if refused else ""),
                error=failed.error,
                duration_ms=(time.perf_counter() - started) * 1000,
            )
            return Row(check, result, None, Fault.of(failed), subject)
        except (VerifyError, NotApplicable) as error:
            kind = "z3-unknown" if isinstance(error, SolverUnknownError) else "verifier"
            message = f"{check}: {error}"
            result = Result(
                **base,
                **filed(default),
                status=Status.ERROR,
                message=message,
                error=ErrorInfo(kind, message),
                duration_ms=(time.perf_counter() - started) * 1000,
            )
            return Row(check, result, None)
        duration = (time.perf_counter() - started) * 1000
        failing = next((j for j in judgements if j.findings), None)
        if failing is None:
            articles = (
                default  # a steered draw game: the rule it is steered to
                if check == DRAWS
                else judgements[0].articles  # an outcome: the rule that ends the whole game, if any
                if check == OUTCOME and judgements
                else tuple(sorted({a for j in judgements for a in j.articles}, key=article_sort_key))
            ) or default
            return Row(
                check, Result(**base, **filed(articles), status=Status.PASS, duration_ms=duration), None
            )
        message = "; ".join(str(f) for f in failing.findings[:4])
        if len(failing.findings) > 4:
            message += f"; and {len(failing.findings) - 4} more"
        result = Result(
            **base,
            **filed(failing.articles),
            status=Status.FAIL,
            message=message,
            expected=failing.expected,
            got=failing.got,
            duration_ms=duration,
            defect=failing.findings[0].kind.describe(),
        )
        return Row(check, result, failing)

    @staticmethod
    def refused_rule(check: str, position: Position, subject: Any, failed: EngineFailed) -> str | None:
        """The rule of the legal move an outcome question's engine refused (a king's slide: 3.9),
        which the failure is charged to instead of the draw rules; None for anything else."""
        if failed.refused is None or check not in (OUTCOME, DRAWS) or not subject:
            return None
        return refused_move_rule(position, subject, failed.refused.ply)

    def default_articles(
        self, check: str, position: Position, generated: Generated | None = None
    ) -> tuple[str, ...]:
        if check in (Z3, ORACLE, CHOSEN_Z3, CHOSEN_ORACLE):
            return legal_move_articles(position)
        if check == INVARIANTS:
            return articles_of((FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES))
        if check == SYMMETRY:
            return FindingKind.SYMMETRY.articles
        if check in (AFTER_INVARIANTS, AFTER_ORACLE):
            return AFTER_ARTICLES
        if check == DRAWS and generated is not None and generated.game is not None:
            return (generated.game.article,)
        return FindingKind.OUTCOME.articles

    def shrink(self, generated: Generated, row: Row) -> Disagreement:
        """Shrink the failing ``row``'s position, keeping its check and finding kind."""
        assert row.judgement is not None
        assert row.judgement.kind is not None
        kind = row.judgement.kind
        subject = row.judgement.subject
        function = self.checks.function(row.check)
        if row.check == DRAWS:
            return self.shrink_game(generated, row)

        def fails(candidate: Position) -> bool:
            self.checks.forget()
            return kind in {f.kind for f in function(candidate, subject).findings}

        shrunk = shrink_position(generated.position, fails)
        self.checks.forget()
        try:
            judgement = function(shrunk.position, subject)
        except Exception:  # cannot happen for a kept candidate unless the engine is erratic
            judgement = row.judgement
            shrunk = Shrunk(generated.position, shrunk.tries, False)
        if not judgement.findings:
            judgement, shrunk = row.judgement, Shrunk(generated.position, shrunk.tries, False)
        text = case_yaml(
            row.check, kind, judgement, shrunk.position, generated.seed, self.options.z3_timeout_ms
        )
        return Disagreement(
            generated.case, row.check, kind, generated.seed, generated.position, shrunk, judgement, text
        )

    def shrink_game(self, generated: Generated, row: Row) -> Disagreement:
        """The shortest prefix of a draw game that still disagrees: the prefixes shorter than the
        failing one, from the longest down, until one agrees (the asked prefixes before it agreed)."""
        assert row.judgement is not None
        assert row.judgement.kind is not None
        judgement = row.judgement
        moves: tuple[str, ...] = judgement.subject
        tries = 0
        for length in range(len(moves) - 1, -1, -1):
            tries += 1
            self.checks.forget()
            try:
                shorter = self.checks.draws(generated.position, moves[:length])
            except (EngineFailed, NotApplicable):
                break
            if not shorter.findings:
                break
            judgement = shorter
        shrunk = Shrunk(generated.position, tries, True)
        text = case_yaml(
            DRAWS,
            judgement.findings[0].kind,
            judgement,
            generated.position,
            generated.seed,
            self.options.z3_timeout_ms,
        )
        return Disagreement(
            generated.case,
            DRAWS,
            judgement.findings[0].kind,
            generated.seed,
            generated.position,
            shrunk,
            judgement,
            text,
        )


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
) -> VerifyRun:
    """Run the positions of ``options`` (its shard of them) through the engine.

    The report stream goes to ``writer`` as it is produced (header, one line per result,
    footer); ``engine``, if given, is used instead of a new one from ``factory`` (the caller
    started it already). The engine is closed at the end.

    With ``workers`` > 1 the positions are checked by that many processes (``scheduler``: on a
    Dask cluster, :mod:`conformance.verify.cluster`), each with an engine of its own from
    ``factory``, which must then be picklable (:class:`conformance.adapters.specs.EngineRecipe`). Results
    are taken in position order whatever order they finish in, and the disagreements are shrunk
    here with ``engine``, in that order: the report is the same whatever the workers. The
    engine's errors are shrunk here too, each kind once, with a second engine from ``factory``
    started for it (``on_error`` is told of each).
    """
    started = time.perf_counter()
    engine = engine or factory()
    writer = writer or ReportWriter(None)
    shrinker = ErrorShrinker(factory, options)  # starts an engine only when an error is to be shrunk
    try:
        header = verify_header(engine.info, options)
        writer.write(header)
        collector = _Collector(Driver(engine, options), writer, progress, on_disagreement)
        collector.errors_with(shrinker, on_error)
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
        results, engine_level=engine.info.level, stopped_early=stopped, order=rule_order(results)
    )
    summary = RunSummary(collector.counts, 0, [], stopped, time.perf_counter() - started, certificate)
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

    order: Final = {check: n for n, check in enumerate(SHRINK_ORDER)}

    def __init__(
        self,
        driver: Driver,
        writer: ReportWriter,
        progress: Callable[[int], None] | None,
        on_disagreement: Callable[[Disagreement], None] | None,
    ) -> None:
        self.driver = driver
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

    def take(self, generated: Generated, rows: list[Row]) -> bool:
        """Record one position's rows; True when the run must stop (``max_fail`` reached)."""
        options = self.options
        failed = sorted(
            (row for row in rows if row.judgement is not None), key=lambda row: self.order[row.check]
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
        erring = sorted((row for row in rows if row.fault is not None), key=lambda row: self.order[row.check])
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
        for row in rows:
            self.results.append(row.result)
            self.counts[row.result.status.value] += 1
            self.writer.result(row.result)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done)
        if any(row.result.status in (Status.FAIL, Status.ERROR) for row in rows):
            self.failing_positions += 1
            if options.max_fail is not None and self.failing_positions >= options.max_fail:
                self.stopped = self.done < len(options.indices())
                return True
        return False
