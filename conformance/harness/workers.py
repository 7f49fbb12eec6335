"""The workers of a run (:func:`conformance.harness.runner.run`): the state of one run, its results
in corpus order whatever order they finish in, the restart budget its engines share
(:class:`RunBudget`), and the engines in use, closed or killed when the run ends.
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
from conformance.core.corpus.model import Case
from conformance.core.errors import ErrorKind
from conformance.core.protocol import Capability, Engine, EngineError
from conformance.core.results import ErrorInfo, Result, Status
from conformance.engines.adapters.restarts import RestartBudget
from conformance.engines.adapters.trace import asking
from conformance.harness.evaluate import ask, first_call, question_keys

EngineFactory = Callable[[], Engine]
Sink = Callable[[Result], None]

JOIN_SECONDS = 10.0
"""How long a stopped run waits for its workers once their engines are killed (an in-process
engine cannot be killed: its thread is left behind)."""


class Limits(Protocol):
    """What a run's workers read of its options (:class:`conformance.harness.runner.RunOptions`)."""

    @property
    def baseline(self) -> Baseline | None: ...

    @property
    def max_fail(self) -> int | None: ...


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


class RunBudget(RestartBudget):
    """The restart budget of a run, shared by every engine of it and spent in corpus order.

    The budget of the first engine sets the limit. An engine lost while asking question *q* may
    start again when the losses charged to *q* and to every question before it in corpus order
    number at most the limit: the thread restarting it waits until every earlier case is
    recorded, which never blocks the thread working on the earliest unfinished case. Questions
    after the first one beyond the budget that needed the engine become the exhausted error
    (:meth:`RunState.record_case`), whatever was answered meanwhile by other workers.
    """

    def __init__(self, run: RunState) -> None:
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


class RunState:
    """The state of one run: results in corpus order, the shared budget, the engines in use."""

    def __init__(
        self,
        cases: Sequence[Case],
        options: Limits,
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
        self.budget = RunBudget(self)
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
            error=ErrorInfo(ErrorKind.CRASH, message),
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


def _error_result(case: Case, key: str, info: ErrorInfo) -> Result:
    return Result(
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


def _harness_error(case: Case, key: str, message: str) -> Result:
    return _error_result(case, key, ErrorInfo(ErrorKind.HARNESS, message))


def _unasked(case: Case, start_errors: Sequence[BaseException]) -> list[_Asked]:
    """Every question of ``case`` as an error: no worker could ask it."""
    if start_errors:
        error = start_errors[0]
        kind = error.kind if isinstance(error, EngineError) else ErrorKind.START
        info = ErrorInfo(kind, f"the engine could not start: {error}", getattr(error, "stderr", ""))
    else:
        info = ErrorInfo(ErrorKind.HARNESS, "no worker was left to ask it (a worker died)")
    return [_Asked(_error_result(case, key, info)) for key, _ in question_keys(case)]
