"""Run the corpus against an engine: every question of every selected case, one result each.

The runner owns the order of work and the lifetime of the engines it starts: adapters own
timeouts, process groups and restarts (an engine that hangs or crashes becomes an ``error`` for
that question and the run goes on). Workers each get an engine of their own from the factory;
results are handed to the sink in corpus order whatever the order they finish in, so reports are
stable. When the run stops early (``--max-fail``, the user's Ctrl-C, a signal) the engines still
working are killed at once: no worker is waited on past that.

**Scores do not depend on the machine.** The engines of a run share one restart budget
(:class:`~conformance.harness.workers.RunBudget`), spent in corpus order: an engine lost on a
question may start again while the engines lost on that question and on every question before it
in the corpus number no more than the budget, however many workers ran them; once the budget is spent, every later question
that needed the engine is the ``restart budget exhausted`` error, as it is with one worker.

**Pipelining.** An engine that keeps several requests in flight (``pipeline`` > 1 and
``send_ahead``: :class:`~conformance.engines.adapters.jsonl.JsonlEngine`) is sent the first request of each
question of the next cases ahead of time (:func:`conformance.harness.evaluate.first_call`); the questions
are then asked one by one as usual, each taking its answer, so results, their order and each
question's own error are what they are without pipelining.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from conformance.core.baseline import Baseline
from conformance.core.certificate import Certificate, certify
from conformance.core.corpus.model import Case, Corpus
from conformance.core.header import EngineRecord, RunHeader, now
from conformance.core.protocol import Engine, EngineInfo
from conformance.core.results import Result, Status
from conformance.core.rule_sets import DEFAULT
from conformance.core.stream import rule_order
from conformance.harness.evaluate import ask_case
from conformance.harness.workers import EngineFactory, RunState, Sink


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
    state = RunState(cases, options, sink, progress)
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
        state = RunState(probes, options, sink, None, probe=True)
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
