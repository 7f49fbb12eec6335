"""The controls of the mutant gallery: the plain capture search the capture mutants share passes
the corpus unbroken, and the oracle passes it with or without the ``counters`` capability. That
every mutant fails the corpus under the rules it breaks, and only those, is
tests/attribution/test_gallery.py (with its kill matrices)."""

from __future__ import annotations

from functools import cache
from typing import Any

from conformance.core.corpus import Case, load_corpus
from conformance.core.results import Result, Status
from conformance.engines.mutants import unmutated_capture_search
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import ask, question_keys

from .engines import WithoutCounters


@cache
def default_cases() -> tuple[Case, ...]:
    return tuple(case for case in load_corpus().cases if "slow" not in case.tags)


def results_of(engine: Any) -> list[Result]:
    return [
        ask(engine, case, key, question) for case in default_cases() for key, question in question_keys(case)
    ]


def failing(results: list[Result]) -> list[Result]:
    return [result for result in results if result.status in (Status.FAIL, Status.ERROR)]


def test_the_plain_capture_search_alone_passes_the_corpus() -> None:
    """The capture mutants share a plain search; unbroken it must pass, or a kill proves nothing."""
    assert failing(results_of(unmutated_capture_search())) == []


def test_without_counters_the_setup_counter_questions_are_unsupported() -> None:
    results = results_of(WithoutCounters(OracleEngine()))
    with_counters = {case.id for case in default_cases() if case.has_counters}
    assert with_counters
    unsupported = {r.case for r in results if r.status is Status.UNSUPPORTED}
    assert unsupported == with_counters
    assert failing(results) == []


def test_the_oracle_itself_is_not_killed() -> None:
    assert failing(results_of(OracleEngine())) == []
