"""Run the corpus against an engine: every question of every selected case, one result each.

The runner owns nothing but the order of work: adapters own timeouts, process groups and
restarts (an engine that hangs or crashes becomes an ``error`` for that question and the run
goes on). Workers each get an engine of their own from the factory; results are handed to the
sink in corpus order whatever the order they finish in, so reports are stable.
"""

from __future__ import annotations

import dataclasses
import datetime
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from conformance import __version__, interrupts
from conformance.baseline import Baseline
from conformance.certificate import Certificate, certify
from conformance.corpus import Case, Corpus
from conformance.evaluate import ask_case, question_keys
from conformance.protocol import PROTOCOL_MINOR, PROTOCOL_VERSION, Engine, EngineError, EngineInfo
from conformance.report.stream import rule_order
from conformance.results import ErrorInfo, Result, Status

EngineFactory = Callable[[], Engine]
Sink = Callable[[Result], None]


@dataclasses.dataclass(frozen=True)
class RunOptions:
    articles: Sequence[str] = ()
    ids: Sequence[str] = ()
    tags: Sequence[str] = ()
    exclude_tags: Sequence[str] = ("slow",)
    max_fail: int | None = None
    """Stop once this many questions failed or errored (baselined ones do not count)."""
    baseline: Baseline | None = None
    workers: int = 1
    require: Sequence[str] = ()
    """Rules that must be certified for the run to pass (``all`` for every rule selected)."""

    def filters(self) -> dict[str, Any]:
        return {
            "articles": list(self.articles),
            "ids": list(self.ids),
            "tags": list(self.tags),
            "exclude_tags": list(self.exclude_tags),
            "max_fail": self.max_fail,
            "baseline": self.baseline.source if self.baseline else None,
            "workers": self.workers,
            "require": list(self.require),
        }


@dataclasses.dataclass
class RunSummary:
    counts: Counter[str]
    baselined: int
    unexpected_passes: list[str]
    stopped_early: bool
    duration_s: float
    certificate: Certificate

    @property
    def exit_status(self) -> int:
        """From the certificate: 0 certified, 1 failures or errors, 3 nothing (or not all required) certified."""
        return int(self.certificate.exit_status)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "footer",
            "counts": {status.value: self.counts[status.value] for status in Status},
            "baselined": self.baselined,
            "unexpected_passes": self.unexpected_passes,
            "stopped_early": self.stopped_early,
            "duration_s": round(self.duration_s, 3),
            "exit_status": self.exit_status,
            "certificate": self.certificate.to_json(),
            "finished": _now(),
        }


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def header(corpus: Corpus, info: EngineInfo, options: RunOptions, cases: Sequence[Case]) -> dict[str, Any]:
    """The first line of a report: what was run, on what, with which corpus, how many questions."""
    return {
        "type": "header",
        "suite": "draughts-conformance",
        "suite_version": __version__,
        "protocol": f"{PROTOCOL_VERSION}.{PROTOCOL_MINOR}",
        "corpus_digest": corpus.digest,
        "corpus_cases": len(corpus.cases),
        "selected_cases": len(cases),
        "questions": sum(len(case.questions) for case in cases),
        "corpus_questions": sum(len(case.questions) for case in corpus.cases if "slow" not in case.tags),
        "engine": {
            "name": info.name,
            "version": info.version,
            "adapter": info.adapter,
            "level": info.level,
            "capabilities": sorted(c.value for c in info.capabilities),
        },
        "filters": options.filters(),
        "started": _now(),
    }


def select_cases(corpus: Corpus, options: RunOptions) -> list[Case]:
    return corpus.select(
        articles=options.articles, ids=options.ids, tags=options.tags, exclude_tags=options.exclude_tags
    )


def run_case(engine: Engine, case: Case) -> list[Result]:
    return ask_case(engine, case)


def run(
    cases: Sequence[Case],
    factory: EngineFactory,
    options: RunOptions,
    sink: Sink,
    *,
    engine: Engine | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunSummary:
    """Ask every question of ``cases``; hand each result to ``sink`` in corpus order.

    ``engine``, if given, is used by the first worker (the caller already started it for the
    header); further workers get engines from ``factory``.
    """
    started = time.perf_counter()
    counts: Counter[str] = Counter()
    baselined = 0
    results: list[Result] = []
    unexpected: list[str] = []
    stop = threading.Event()  # set once --max-fail is reached
    failures = 0

    def record(result: Result) -> None:
        nonlocal baselined, failures
        if options.baseline is not None:
            result = options.baseline.apply(result)
            if result.status is Status.PASS and options.baseline.covers(result):
                unexpected.append(f"{result.case} {result.question}")
        counts[result.status.value] += 1
        results.append(result)
        if result.baselined:
            baselined += 1
        elif result.status in (Status.FAIL, Status.ERROR):
            failures += 1
            if options.max_fail is not None and failures >= options.max_fail:
                stop.set()
        sink(result)

    workers = max(1, min(options.workers, len(cases) or 1))
    levels: list[str] = [engine.info.level] if engine is not None else []
    if workers == 1:
        engine = engine or factory()
        levels.append(engine.info.level)
        try:
            for done, case in enumerate(cases, start=1):
                if stop.is_set():
                    break
                try:
                    results_of_case = run_case(engine, case)
                except KeyboardInterrupt:
                    if interrupts.requested():
                        raise
                    results_of_case = _case_failed(
                        case, "harness", "the case could not be asked: KeyboardInterrupt"
                    )
                except Exception as error:  # never lose a case: it becomes an error result
                    results_of_case = _case_failed(case, "harness", f"the case could not be asked: {error!r}")
                for result in results_of_case:
                    record(result)
                if progress:
                    progress(done)
        finally:
            engine.close()
    else:
        _run_parallel(cases, factory, engine, workers, record, stop, progress, levels)

    certificate = certify(
        results,
        engine_level=levels[0] if levels else "rules",
        questions=sum(len(case.questions) for case in cases),
        stopped_early=stop.is_set(),
        required=options.require,
        order=rule_order(results),
    )
    return RunSummary(
        counts, baselined, unexpected, stop.is_set(), time.perf_counter() - started, certificate
    )


def _run_parallel(
    cases: Sequence[Case],
    factory: EngineFactory,
    first_engine: Engine | None,
    workers: int,
    record: Callable[[Result], None],
    stop: threading.Event,
    progress: Callable[[int], None] | None,
    levels: list[str],
) -> None:
    """Workers take cases from a queue; a reorder buffer hands results on in corpus order."""
    work: queue.Queue[int] = queue.Queue()
    for index in range(len(cases)):
        work.put(index)
    finished: dict[int, list[Result]] = {}
    lock = threading.Condition()
    done = threading.Event()  # the reorder loop has finished: idle workers stop

    def worker(engine_or_none: Engine | None) -> None:
        engine: Engine | None = engine_or_none
        start_error: BaseException | None = None
        if engine is None:
            try:
                engine = factory()
                levels.append(engine.info.level)
            except BaseException as error:  # an engine that cannot start: its cases become errors
                start_error = error
        try:
            while not (stop.is_set() or done.is_set()):
                try:
                    index = work.get_nowait()
                except queue.Empty:
                    return
                case = cases[index]
                try:
                    results = (
                        run_case(engine, case) if engine is not None else _start_failed(case, start_error)
                    )
                except BaseException as error:  # never lose a case: it becomes an error result
                    results = _case_failed(case, "harness", f"the case could not be asked: {error!r}")
                with lock:
                    finished[index] = results
                    lock.notify_all()
        finally:
            if engine is not None:
                engine.close()

    threads = [
        threading.Thread(target=worker, args=(first_engine if n == 0 else None,), daemon=True)
        for n in range(workers)
    ]
    for thread in threads:
        thread.start()
    next_index = 0
    with lock:
        while next_index < len(cases):
            if next_index in finished:
                for result in finished.pop(next_index):
                    record(result)
                next_index += 1
                if progress:
                    progress(next_index)
            elif stop.is_set():
                break
            elif not any(thread.is_alive() for thread in threads):
                # every worker is gone with cases unanswered: never a silent, short report
                for index in range(next_index, len(cases)):
                    if index not in finished:
                        finished[index] = _case_failed(
                            cases[index], "harness", "no worker was left to ask it (a worker died)"
                        )
            else:
                lock.wait(timeout=0.2)
    done.set()
    for thread in threads:
        thread.join(timeout=30)


def _case_failed(case: Case, kind: str, message: str) -> list[Result]:
    """Every question of ``case`` as an error of ``kind``."""
    info = ErrorInfo(kind, message)
    return [
        Result(
            case.id,
            key,
            case.article,
            Status.ERROR,
            case.requires,
            case.reading,
            position=case.position,
            message=message,
            error=info,
            defect=f"error: {kind}",
        )
        for key, _ in question_keys(case)
    ]


def _start_failed(case: Case, error: BaseException | None) -> list[Result]:
    kind = error.kind if isinstance(error, EngineError) else "start"
    info = ErrorInfo(kind, f"the engine could not start: {error}", getattr(error, "stderr", ""))
    return [
        Result(
            case.id,
            key,
            case.article,
            Status.ERROR,
            case.requires,
            case.reading,
            position=case.position,
            message=info.message,
            error=info,
            defect=f"error: {info.kind}",
        )
        for key, _ in question_keys(case)
    ]
