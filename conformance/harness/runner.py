"""Run the corpus against an engine: every question of every selected case, one result each.

The runner owns the order of work and the lifetime of the engines it starts: adapters own
timeouts, process groups and restarts (an engine that hangs or crashes becomes an ``error`` for
that question and the run goes on). Workers each get an engine of their own from the factory;
results are handed to the sink in corpus order whatever the order they finish in, so reports are
stable. When the run stops early (``--max-fail``, the user's Ctrl-C, a signal) the engines still
working are killed at once: no worker is waited on past that.

**Scores do not depend on the machine.** The engines of a run share one restart budget
(:class:`_RunBudget`), spent in corpus order: an engine lost on a question may start again while
the engines lost on that question and on every question before it in the corpus number no more
than the budget, however many workers ran them; once the budget is spent, every later question
that needed the engine is the ``restart budget exhausted`` error, as it is with one worker.

**Pipelining.** An engine that keeps several requests in flight (``pipeline`` > 1 and
``send_ahead``: :class:`~conformance.engines.adapters.jsonl.JsonlEngine`) is sent the first request of each
question of the next cases ahead of time (:func:`conformance.harness.evaluate.first_call`); the questions
are then asked one by one as usual, each taking its answer, so results, their order and each
question's own error are what they are without pipelining.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from conformance.core import interrupts
from conformance.core.baseline import Baseline
from conformance.core.certificate import Certificate, certify
from conformance.core.corpus.model import Case, Corpus
from conformance.core.header import EngineRecord, RunHeader, now
from conformance.core.protocol import (
    Capability,
    Engine,
    EngineError,
    EngineInfo,
)
from conformance.core.results import ErrorInfo, Result, Status
from conformance.core.rule_sets import DEFAULT
from conformance.core.stream import rule_order
from conformance.engines.adapters.restarts import RestartBudget
from conformance.engines.adapters.trace import asking
from conformance.harness.evaluate import ask, ask_case, first_call, question_keys

EngineFactory = Callable[[], Engine]
Sink = Callable[[Result], None]

JOIN_SECONDS = 10.0
"""How long a stopped run waits for its workers once their engines are killed (an in-process
engine cannot be killed: its thread is left behind)."""


@dataclasses.dataclass(frozen=True)
class RunOptions:
    articles: Sequence[str] = ()
    ids: Sequence[str] = ()
    tags: Sequence[str] = ()
    exclude_tags: Sequence[str] = ("slow",)
    max_fail: int | None = None
    """Stop once this many questions failed or errored (baselined ones do not count)."""
    baseline: Baseline | None = None
    accept_known: bool = False
    """The baseline's known failures do not fail the exit status (``--accept-known``)."""
    workers: int = 1
    require: Sequence[str] = ()
    """What must be certified for the run to pass: ``RULE[:SCOPE]`` (``all`` for every rule selected)."""

    def filters(self) -> dict[str, Any]:
        return {
            "articles": list(self.articles),
            "ids": list(self.ids),
            "tags": list(self.tags),
            "exclude_tags": list(self.exclude_tags),
            "max_fail": self.max_fail,
            "baseline": self.baseline.source if self.baseline else None,
            "accept_known": self.accept_known,
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
            "finished": now(),
        }


def header(
    corpus: Corpus, info: EngineInfo, options: RunOptions, cases: Sequence[Case], spec: str | None = None
) -> dict[str, Any]:
    """The first line of a report (:class:`RunHeader`): what was run, on what, with which corpus,
    how many questions; ``spec`` is the engine spec the run was given."""
    ran_on = {
        "corpus_digest": corpus.digest,
        "corpus_cases": len(corpus.cases),
        "selected_cases": len(cases),
        "questions": sum(len(case.questions) for case in cases),
        "corpus_questions": sum(len(case.questions) for case in corpus.cases if "slow" not in case.tags),
    }
    record = EngineRecord.of(info, spec)
    return RunHeader(record, ran_on, options.filters(), rule_set=corpus.rule_set).to_json()


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
    probes_from: Sequence[Case] = (),
) -> RunSummary:
    """Ask every question of ``cases``; hand each result to ``sink`` in corpus order.

    ``engine``, if given, is used by the first worker (the caller already started it for the
    header); further workers get engines from ``factory``. Every engine is closed (or, when the
    run stops early, killed) before this returns or raises.

    ``probes_from``: the cases of the whole run (a run of some cases only): the cases of the rules
    a failure relies on are asked afterwards as *probes* (:func:`probe_cases`), so that each
    failure is blocked, or not, as in the whole run.
    """
    started = time.perf_counter()
    state = _Run(cases, options, sink, progress)
    workers = max(1, min(options.workers, len(cases) or 1))
    if workers == 1:
        state.sequential(factory, engine)
    else:
        state.parallel(factory, engine, workers)
    states, asked = [state], list(cases)
    while probes_from and not state.stop.is_set():
        probes = probe_cases([r for s in states for r in s.results], probes_from, asked)
        if not probes:
            break
        state = _Run(probes, options, sink, None, probe=True)
        state.sequential(factory, None)
        states.append(state)
        asked += probes
    results = [r for s in states for r in s.results]
    counts: Counter[str] = sum((s.counts for s in states), Counter())
    stopped = any(s.max_fail_reached for s in states)
    certificate = certify(
        results,
        engine_level=states[0].levels[0] if states[0].levels else "rules",
        capabilities=states[0].capabilities,
        questions=sum(len(case.questions) for case in asked),
        stopped_early=stopped,
        required=options.require,
        order=rule_order(results),
        baseline=options.baseline.source if options.baseline else None,
        accept_known=options.accept_known,
        rule_set=cases[0].rule_set.name if cases else DEFAULT,
    )
    return RunSummary(
        counts,
        sum(s.baselined for s in states),
        [name for s in states for name in s.unexpected],
        stopped,
        time.perf_counter() - started,
        certificate,
    )


def probe_cases(results: Sequence[Result], corpus: Sequence[Case], asked: Sequence[Case]) -> list[Case]:
    """The cases a run of some cases must also ask: those of every rule a wrong answer relies on
    (its ``requires``), not asked yet, in corpus order."""
    needed = {rule for r in results if r.status is Status.FAIL for rule in r.requires}
    done = {case.id for case in asked}
    return [case for case in corpus if case.judged_under in needed and case.id not in done]


@runtime_checkable
class _SendsAhead(Protocol):
    """An engine that keeps several requests in flight (the JSON-lines adapter)."""

    pipeline: int

    def send_ahead(self, calls: Sequence[tuple[str, Sequence[Any]]]) -> None: ...


@dataclasses.dataclass(frozen=True)
class _Asked:
    """One question's result, and what asking it cost: charged engine losses, requests made."""

    result: Result
    losses: int = 0
    contacts: int = 0


class _RunBudget(RestartBudget):
    """The restart budget of a run, shared by every engine of it and spent in corpus order.

    The budget of the first engine sets the limit. An engine lost while asking question *q* may
    start again when the losses charged to *q* and to every question before it in corpus order
    number at most the limit: the thread restarting it waits until every earlier case is
    recorded, which never blocks the thread working on the earliest unfinished case. Questions
    after the first one beyond the budget that needed the engine become the exhausted error
    (:meth:`_Run.record_case`), whatever was answered meanwhile by other workers.
    """

    def __init__(self, run: _Run) -> None:
        super().__init__(0)
        self._run = run
        self._local = threading.local()
        self._limited = False
        self.exhausted: EngineError | None = None
        """The error of a request once the budget is spent (from the first engine)."""

    def adopt(self, engine: Engine) -> None:
        """Make ``engine`` spend this budget (an engine without restarts is left alone)."""
        share = getattr(engine, "share_budget", None)
        limit = getattr(engine, "restart_budget", None)
        exhausted = getattr(engine, "exhausted_error", None)
        if share is None or not isinstance(limit, int) or exhausted is None:
            return
        with self._run.lock:
            if not self._limited:
                self.limit, self._limited = limit, True
                self.exhausted = exhausted()
        share(self)

    def begin(self, index: int, number: int) -> None:
        """The calling thread asks question ``number`` of case ``index`` next."""
        local = self._local
        if getattr(local, "index", None) != index:
            local.case_losses = 0
        local.index, local.number = index, number
        local.losses = local.contacts = 0

    def end(self) -> tuple[int, int]:
        """The losses charged and the requests made since :meth:`begin`."""
        return getattr(self._local, "losses", 0), getattr(self._local, "contacts", 0)

    def lost(self) -> None:
        local = self._local
        if getattr(local, "index", None) is None:
            return
        local.losses += 1
        local.case_losses += 1
        local.pending = (local.index, local.case_losses)

    def spend(self) -> bool:
        local = self._local
        pending = getattr(local, "pending", None)
        if pending is None:  # not lost while asking a question of this run
            return super().spend()
        local.pending = None
        index, in_case = pending
        run = self._run
        with run.lock:
            while run.frontier < index:
                if run.stop.is_set():
                    return False
                run.lock.wait()
            allowed: bool = run.losses_before[index] + in_case <= self.limit
            if allowed:
                self.used += 1
            return allowed

    def contact(self) -> bool:
        local = self._local
        local.contacts = getattr(local, "contacts", 0) + 1
        cutoff = self._run.cutoff
        return cutoff is None or (local.index, local.number) <= cutoff


class _Run:
    """The state of one run: results in corpus order, the shared budget, the engines in use."""

    def __init__(
        self,
        cases: Sequence[Case],
        options: RunOptions,
        sink: Sink,
        progress: Callable[[int], None] | None,
        *,
        probe: bool = False,
    ) -> None:
        self.probe = probe
        """The cases are probes (see :func:`run`): their results are marked so."""
        self.cases = cases
        self.options = options
        self.sink = sink
        self.progress = progress
        self.lock = threading.Condition()
        self.stop = threading.Event()
        """Set when the run must end: --max-fail reached, or the run is being stopped."""
        self.max_fail_reached = False
        self.budget = _RunBudget(self)
        self.frontier = 0
        """How many cases are recorded (every case before this index)."""
        self.losses_before = [0]
        """Engine losses charged to the recorded cases before each index (prefix sums)."""
        self.cutoff: tuple[int, int] | None = None
        """The question whose loss spent the budget past its limit (case index, question number)."""
        self.results: list[Result] = []
        self.counts: Counter[str] = Counter()
        self.baselined = 0
        self.unexpected: list[str] = []
        self.failures = 0
        self.levels: list[str] = []
        self.capabilities: frozenset[Capability] | None = None
        """The first engine's capabilities (every engine of a run comes from one factory)."""
        self.engines: list[Engine] = []
        self._claimed = 0

    # -- the two ways to run ---------------------------------------------------------------

    def sequential(self, factory: EngineFactory, engine: Engine | None) -> None:
        engine = engine or factory()
        self.levels.append(engine.info.level)
        self.capabilities = engine.info.capabilities
        self.budget.adopt(engine)
        try:
            self.work(engine, self.claim, self.record_case)
        except BaseException:
            _kill(engine)  # the user's Ctrl-C or a signal: no waiting on the engine
            raise
        finally:
            engine.close()

    def parallel(self, factory: EngineFactory, first: Engine | None, workers: int) -> None:
        """Workers take cases in corpus order; a reorder buffer hands results on in that order."""
        finished: dict[int, list[_Asked]] = {}
        start_errors: list[BaseException] = []

        def deliver(index: int, asked: list[_Asked]) -> None:
            with self.lock:
                finished[index] = asked
                self.lock.notify_all()

        def worker(engine: Engine | None) -> None:
            if engine is None:
                try:
                    engine = factory()
                except BaseException as error:  # this worker has no engine: the others go on
                    start_errors.append(error)
                    return
            with self.lock:
                self.engines.append(engine)
                self.levels.append(engine.info.level)
                if self.capabilities is None:
                    self.capabilities = engine.info.capabilities
            try:
                if self.stop.is_set():
                    return
                self.budget.adopt(engine)
                self.work(engine, self.claim, deliver)
            finally:
                engine.close()

        threads = [
            threading.Thread(target=worker, args=(first if n == 0 else None,), daemon=True)
            for n in range(workers)
        ]
        for thread in threads:
            thread.start()
        try:
            with self.lock:
                while self.frontier < len(self.cases):
                    if self.frontier in finished:
                        self.record_case(self.frontier, finished.pop(self.frontier))
                    elif self.stop.is_set():
                        break
                    elif not any(thread.is_alive() for thread in threads):
                        # every worker is gone with cases unanswered: never a silent, short report
                        for index in range(self.frontier, len(self.cases)):
                            finished.setdefault(index, _unasked(self.cases[index], start_errors))
                    else:
                        self.lock.wait(timeout=0.2)
        finally:
            self._end(threads)

    def _end(self, threads: list[threading.Thread]) -> None:
        """Stop the workers: those still busy (the run stopped early) have their engines killed."""
        busy = [thread for thread in threads if thread.is_alive()]
        with self.lock:
            self.stop.set()
            self.lock.notify_all()
            engines = list(self.engines)
        if busy:
            for engine in engines:
                _kill(engine)
        deadline = time.monotonic() + JOIN_SECONDS
        for thread in busy:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    # -- one worker --------------------------------------------------------------------------

    def claim(self) -> int | None:
        """The next case to ask, in corpus order (``None``: none left, or the run is stopping)."""
        with self.lock:
            if self.stop.is_set() or self._claimed >= len(self.cases):
                return None
            self._claimed += 1
            return self._claimed - 1

    def work(
        self,
        engine: Engine,
        claim: Callable[[], int | None],
        deliver: Callable[[int, list[_Asked]], None],
    ) -> None:
        """Ask the cases ``claim`` hands out, one by one; with a pipelining engine, the requests
        of up to twice its pipeline ahead are sent before they are asked."""
        window = engine.pipeline if isinstance(engine, _SendsAhead) else 1
        ahead: collections.deque[tuple[int, int]] = collections.deque()
        planned = 0
        while not self.stop.is_set():
            if window > 1:
                while planned < 2 * window:
                    index = claim()
                    if index is None:
                        break
                    calls = self._calls(engine, index)
                    assert isinstance(engine, _SendsAhead)
                    with asking(f"{self.cases[index].id} sent ahead"):
                        engine.send_ahead(calls)
                    ahead.append((index, len(calls)))
                    planned += len(calls)
                if not ahead:
                    return
                index, count = ahead.popleft()
                planned -= count
            else:
                claimed = claim()
                if claimed is None:
                    return
                index = claimed
            deliver(index, self.ask_case(engine, index))

    def _calls(self, engine: Engine, index: int) -> list[tuple[str, Sequence[Any]]]:
        capabilities = engine.info.capabilities
        case = self.cases[index]
        calls: list[tuple[str, Sequence[Any]]] = []
        for _, question in question_keys(case):
            call = first_call(capabilities, case, question)
            if call is not None:
                calls.append(call)
        return calls

    def ask_case(self, engine: Engine, index: int) -> list[_Asked]:
        """Every question of case ``index``, with what asking it cost the engine."""
        case = self.cases[index]
        asked = []
        for number, (key, question) in enumerate(question_keys(case)):
            self.budget.begin(index, number)
            try:
                with asking(f"{case.id} {key}"):
                    result = ask(engine, case, key, question)
            except KeyboardInterrupt:
                if interrupts.requested():
                    raise
                result = _harness_error(case, key, "the question could not be asked: KeyboardInterrupt")
            except BaseException as error:  # never lose a question: it becomes an error result
                result = _harness_error(case, key, f"the question could not be asked: {error!r}")
            losses, contacts = self.budget.end()
            asked.append(_Asked(result, losses, contacts))
        return asked

    # -- results, in corpus order ------------------------------------------------------------

    def record_case(self, index: int, asked: list[_Asked]) -> None:
        """Hand on the results of case ``index`` (the next in corpus order); the budget's cutoff
        applies here."""
        losses = 0
        for number, item in enumerate(asked):
            result = item.result
            if self.cutoff is not None and item.contacts and (index, number) > self.cutoff:
                result = self._exhausted(result)
            losses += item.losses
            spent = self.losses_before[-1] + losses
            if self.cutoff is None and item.losses and spent > self.budget.limit:
                self.cutoff = (index, number)
            self._record(result)
        with self.lock:
            self.losses_before.append(self.losses_before[-1] + losses)
            self.frontier = index + 1
            self.lock.notify_all()
        if self.progress:
            self.progress(index + 1)

    def _exhausted(self, result: Result) -> Result:
        error = self.budget.exhausted
        message = error.message if error is not None else "restart budget exhausted"
        return dataclasses.replace(
            result,
            status=Status.ERROR,
            message=message,
            error=ErrorInfo("crash", message),
            got=None,
            defect="error: crash",
            charged_to=None,
        )

    def _record(self, result: Result) -> None:
        if self.probe:
            result = dataclasses.replace(result, probe=True)
        baseline = self.options.baseline
        if baseline is not None:
            result = baseline.apply(result)
            if result.status is Status.PASS and baseline.covers(result):
                self.unexpected.append(f"{result.case} {result.question}")
        self.counts[result.status.value] += 1
        self.results.append(result)
        if result.baselined:
            self.baselined += 1
        elif result.status in (Status.FAIL, Status.ERROR):
            self.failures += 1
            if self.options.max_fail is not None and self.failures >= self.options.max_fail:
                self.max_fail_reached = True
                self.stop.set()
        self.sink(result)


def _kill(engine: Engine) -> None:
    """Kill ``engine``'s process now, if it has one (an in-process engine cannot be killed)."""
    kill = getattr(engine, "kill", None)
    if callable(kill):
        kill()


def _harness_error(case: Case, key: str, message: str) -> Result:
    return Result(
        case.id,
        key,
        case.article,
        Status.ERROR,
        case.requires,
        case.reading,
        position=case.position,
        message=message,
        error=ErrorInfo("harness", message),
        defect="error: harness",
    )


def _unasked(case: Case, start_errors: Sequence[BaseException]) -> list[_Asked]:
    """Every question of ``case`` as an error: no worker could ask it."""
    if start_errors:
        error = start_errors[0]
        kind = error.kind if isinstance(error, EngineError) else "start"
        info = ErrorInfo(kind, f"the engine could not start: {error}", getattr(error, "stderr", ""))
    else:
        info = ErrorInfo("harness", "no worker was left to ask it (a worker died)")
    return [
        _Asked(
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
        )
        for key, _ in question_keys(case)
    ]
