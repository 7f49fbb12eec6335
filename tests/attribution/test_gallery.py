"""Attribution as a test: every engine of the mutant gallery -- the oracle with one rule broken --
fails exactly the rules it breaks (conformance.engines.mutants.BREAKS), in ``run`` and in ``verify``.

What is counted is what the certificate charges: wrong answers filed under a rule (their question's,
or another rule's they are charged to) and not blocked by a prerequisite the engine fails directly.
The kill matrix (engine x rule) is a diagonal: nothing is charged to a rule the engine gets right.

* ``run``: the default corpus, with and without the ``counters`` capability; every mutant must be
  caught there, under its rules only.
* ``verify``: the default seed with a modest number of positions (:data:`VERIFY_EXAMPLES`; the full
  size of the command's default under ``--run-slow``); what it catches lies under the mutant's rules
  only (``verify`` asks no FEN or move-text question, so the notation readings' mutants pass it).

The gallery is read whole, so mutants added to it are covered as they come.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from corpus.engines import WithoutCounters

from conformance.core.certificate import Certificate
from conformance.core.corpus import Case, load_corpus
from conformance.core.results import Status
from conformance.engines.mutants import BREAKS, MUTANTS, mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, run
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify

VERIFY_EXAMPLES = 40
"""Positions per mutant in the default test run (``--run-slow``: :data:`VERIFY_EXAMPLES_SLOW`)."""

VERIFY_EXAMPLES_SLOW = 300


@cache
def default_cases() -> tuple[Case, ...]:
    return tuple(case for case in load_corpus().cases if "slow" not in case.tags)


def charged(certificate: Certificate) -> Counter[str]:
    """Unblocked failures by the rule they are filed under (their own, or charged to)."""
    return Counter(
        {row.key: row.failed + row.charged for row in certificate.rows if row.failed + row.charged}
    )


def run_certificate(engine: Any) -> Certificate:
    summary = run(list(default_cases()), lambda: engine, RunOptions(), lambda result: None, engine=engine)
    return summary.certificate


def test_every_mutant_says_which_rules_it_breaks() -> None:
    assert set(BREAKS) == set(MUTANTS)
    rules = set(load_corpus().articles) | set(load_corpus().readings)
    assert {rule for broken in BREAKS.values() for rule in broken} <= rules


@pytest.mark.parametrize("counters", [True, False], ids=["with-counters", "without-counters"])
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_run_files_the_mutant_under_the_rules_it_breaks_only(
    name: str, counters: bool, kill_matrices: dict[str, dict[str, Counter[str]]]
) -> None:
    engine: Any = mutant(name) if counters else WithoutCounters(mutant(name))
    found = charged(run_certificate(engine))
    kill_matrices.setdefault("run" if counters else "run, no counters", {})[name] = found
    assert found, f"no case of the corpus notices the mutant {name!r}"
    assert set(found) <= set(BREAKS[name]), f"{name} breaks {BREAKS[name]}; charged: {dict(found)}"


def _verify(name: str, examples: int, kill_matrices: dict[str, dict[str, Counter[str]]], key: str) -> None:
    result = verify(lambda: mutant(name), VerifyOptions(examples=examples, seed=0))
    found = charged(result.summary.certificate)
    kill_matrices.setdefault(key, {})[name] = found
    assert set(found) <= set(BREAKS[name]), f"{name} breaks {BREAKS[name]}; charged: {dict(found)}"
    if found:
        assert result.exit_status == 1


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_verify_files_the_mutant_under_the_rules_it_breaks_only(
    name: str, kill_matrices: dict[str, dict[str, Counter[str]]]
) -> None:
    _verify(name, VERIFY_EXAMPLES, kill_matrices, f"verify --examples {VERIFY_EXAMPLES}")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_verify_at_full_size_files_the_mutant_under_the_rules_it_breaks_only(
    name: str, kill_matrices: dict[str, dict[str, Counter[str]]]
) -> None:
    _verify(name, VERIFY_EXAMPLES_SLOW, kill_matrices, f"verify --examples {VERIFY_EXAMPLES_SLOW}")


def test_the_oracle_is_charged_nothing() -> None:
    """The control: the rules themselves are charged nothing, by run or by verify."""
    assert charged(run_certificate(OracleEngine())) == Counter()
    checked = verify(OracleEngine, VerifyOptions(examples=VERIFY_EXAMPLES, seed=0))
    assert [r.message for r in checked.results if r.status in (Status.FAIL, Status.ERROR)] == []
