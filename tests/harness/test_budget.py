"""Scores that do not depend on the machine (issue 12, point 7): the restart budget belongs to the
run, shared by every worker's engine and spent in corpus order.

``fakes/crashy.py`` is the oracle crashing on about one request in 30, chosen by the request's
content: with a budget of 3, the fourth crash in corpus order ends the engine for the rest of
the run. Whatever the number of workers (1, 4, 8) and with or without pipelining, every question
gets the same result; the engines of a run restart at most 3 times in all.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from support import REPO

from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.harness.runner import RunOptions, run

FAKES = Path(__file__).parent / "fakes"
BUDGET = 3


def crashy(pipeline: int) -> list[str]:
    return [sys.executable, str(FAKES / "crashy.py"), "--every", "30", "--pipeline", str(pipeline)]


def certify(workers: int, pipeline: int) -> tuple[list[Result], list[JsonlEngine]]:
    cases = load_corpus().select(exclude_tags=("slow",))
    engines: list[JsonlEngine] = []

    def factory() -> JsonlEngine:
        engine = JsonlEngine(crashy(pipeline), restart_budget=BUDGET, env={"PYTHONPATH": str(REPO)})
        engines.append(engine)
        return engine

    results: list[Result] = []
    run(cases, factory, RunOptions(workers=workers), results.append)
    return results, engines


def outcome(result: Result) -> tuple[str, str, str, str | None, str]:
    """A result without what depends on the process that answered (``seq``, pids, timings)."""
    message = re.sub(r"\(seq \d+\)", "(seq N)", result.message)
    return result.case, result.question, result.status.value, result.error and result.error.kind, message


@pytest.fixture(scope="module")
def one_worker() -> list[Result]:
    results, engines = certify(1, 1)
    assert sum(engine.restarts for engine in engines) == BUDGET
    return results


def test_the_budget_ends_the_engine_at_the_fourth_crash_in_corpus_order(one_worker: list[Result]) -> None:
    crashes = [r for r in one_worker if r.error is not None and "exited (exit status 3)" in r.message]
    exhausted = [r for r in one_worker if "restart budget exhausted" in r.message]
    assert len(crashes) == BUDGET + 1
    assert exhausted, "the engine crashes more often than the budget allows: the rest of the run has none"
    order = [(r.case, r.question) for r in one_worker]
    assert order.index((exhausted[0].case, exhausted[0].question)) > order.index(
        (crashes[-1].case, crashes[-1].question)
    )
    counts = Counter(r.status for r in one_worker)
    assert counts[Status.PASS] > 0


@pytest.mark.parametrize(("workers", "pipeline"), [(4, 1), (8, 1), (1, 16), (4, 16)])
def test_every_question_gets_the_same_result_whatever_the_workers_and_pipelining(
    one_worker: list[Result], workers: int, pipeline: int
) -> None:
    results, engines = certify(workers, pipeline)
    assert [outcome(r) for r in results] == [outcome(r) for r in one_worker]
    assert sum(engine.restarts for engine in engines) <= BUDGET, "the budget is the run's, not each worker's"
