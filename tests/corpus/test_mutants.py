"""Mutation adequacy: every mutant of the gallery -- the oracle with one rule broken -- fails at
least one case of the corpus. The kill matrix (mutant x article) is printed at the end of the run (tests/corpus/conftest.py).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from conformance.corpus import Case, load_corpus
from conformance.evaluate import ask, question_keys
from conformance.mutants import MUTANTS, unmutated_capture_search
from conformance.oracle_engine import OracleEngine
from conformance.results import Status


@cache
def default_cases() -> tuple[Case, ...]:
    return tuple(case for case in load_corpus().cases if "slow" not in case.tags)


def failing_cases(engine: OracleEngine) -> list[Case]:
    failing = []
    for case in default_cases():
        for key, question in question_keys(case):
            if ask(engine, case, key, question).status in (Status.FAIL, Status.ERROR):
                failing.append(case)
                break
    return failing


def test_the_plain_capture_search_alone_passes_the_corpus() -> None:
    """The capture mutants share a plain search; unbroken it must pass, or a kill proves nothing."""
    assert failing_cases(unmutated_capture_search()) == []


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_is_killed(name: str, kill_matrix: dict[str, Counter[str]]) -> None:
    failing = failing_cases(MUTANTS[name]())
    kill_matrix[name] = Counter(article for case in failing for article in case.articles)
    assert failing, f"no case of the corpus notices the mutant {name!r}"


def test_the_oracle_itself_is_not_killed() -> None:
    assert failing_cases(OracleEngine()) == []
