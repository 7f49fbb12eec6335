"""Mutation adequacy: every mutant of the gallery -- the oracle with one rule broken -- fails the
corpus, with and without the ``counters`` capability, and fails a case of the rule it breaks.

Without counters, every outcome question that starts from setup counters is unsupported, so the
draw rules must be caught by the cases that play whole games from a fresh start. "A case of the
rule it breaks": a case filed under one of the rules :data:`conformance.mutants.BREAKS` lists for
the mutant (its article, or its reading) must fail, not only some case somewhere. The kill matrix
(mutant x rule charged) is printed at the end of the run (tests/corpus/conftest.py).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest

from conformance.corpus import Case, load_corpus
from conformance.evaluate import ask, question_keys
from conformance.mutants import BREAKS, MUTANTS, unmutated_capture_search
from conformance.oracle_engine import OracleEngine
from conformance.results import Result, Status

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


def test_every_mutant_says_which_rules_it_breaks() -> None:
    assert set(BREAKS) == set(MUTANTS)
    rules = set(load_corpus().articles) | set(load_corpus().readings)
    assert {rule for broken in BREAKS.values() for rule in broken} <= rules


@pytest.mark.parametrize("counters", [True, False], ids=["with-counters", "without-counters"])
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_is_killed_under_the_rule_it_breaks(
    name: str, counters: bool, kill_matrix: dict[str, Counter[str]]
) -> None:
    engine: Any = MUTANTS[name]() if counters else WithoutCounters(MUTANTS[name]())
    results = results_of(engine)
    failures = failing(results)
    kill_matrix[name if counters else f"{name} (no counters)"] = Counter(r.charged for r in failures)
    assert failures, f"no case of the corpus notices the mutant {name!r}"
    under = sorted({r.judged_under for r in failures})
    assert set(BREAKS[name]) & set(under), (
        f"{name!r} breaks {', '.join(BREAKS[name])}, but fails only cases filed under {under}"
    )


def test_without_counters_the_setup_counter_questions_are_unsupported() -> None:
    results = results_of(WithoutCounters(OracleEngine()))
    with_counters = {case.id for case in default_cases() if case.has_counters}
    assert with_counters
    unsupported = {r.case for r in results if r.status is Status.UNSUPPORTED}
    assert unsupported == with_counters
    assert failing(results) == []


def test_the_oracle_itself_is_not_killed() -> None:
    assert failing(results_of(OracleEngine())) == []
