"""The certificate judges each rule on its own (issue 10, "Done when").

* An engine whose kings step one square (``mutant:short-kings``) fails Art. 3.9, 4.3 and 4.6
  and nothing under 3.4 or 4.1; the draw rules, which it gets right, are never charged to it,
  and it passes every case of the draw file played with king steps only.
* An engine without draw rules fails each of 6.1-6.4, whether its kings fly or not, with or
  without the counters capability.

Each test runs the default corpus through :func:`conformance.harness.runner.run` and reads the standing
of each rule from the run's certificate.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

from conformance.core.certificate import Certificate, Standing
from conformance.core.corpus import Case, load_corpus
from conformance.core.results import Result, Status
from conformance.engines.draw_mutants import NoDrawRules
from conformance.engines.mutants import MUTANTS
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, run
from oracle.counters import Counters
from oracle.game import Game
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

from .engines import WithoutCounters

DRAW_RULES = ("6.1", "6.2", "6.3", "6.4")
STEP_DRAW_FILE = "6-draws/6.x-king-steps.yaml"


@cache
def default_cases() -> tuple[Case, ...]:
    return tuple(case for case in load_corpus().cases if "slow" not in case.tags)


def run_corpus(engine: Any) -> tuple[Certificate, list[Result]]:
    results: list[Result] = []
    summary = run(list(default_cases()), lambda: engine, RunOptions(), results.append, engine=engine)
    return summary.certificate, results


def standings(certificate: Certificate) -> dict[str, Standing]:
    return {row.key: row.standing for row in certificate.rows}


def test_kings_that_step_one_square_fail_only_the_king_rules() -> None:
    """Its kings neither move nor capture at a distance: 3.9 and 4.3. Its multiple king captures
    (4.6) fail only where a jump is at a distance, and are charged to 4.3."""
    certificate, _ = run_corpus(MUTANTS["short-kings"]())
    standing = standings(certificate)
    assert {rule: standing[rule] for rule in ("3.9", "4.3")} == dict.fromkeys(("3.9", "4.3"), Standing.FAILED)
    assert standing["3.4"] is Standing.CERTIFIED
    assert standing["4.1"] is Standing.CERTIFIED
    assert standing["4.6"] is not Standing.FAILED
    failed = {rule for rule, stood in standing.items() if stood is Standing.FAILED}
    assert failed == {"3.9", "4.3"}, "a rule the engine gets right was charged with its kings"


def test_kings_that_step_one_square_pass_every_step_only_draw_case() -> None:
    _, results = run_corpus(MUTANTS["short-kings"]())
    step_cases = {case.id for case in default_cases() if case.file == STEP_DRAW_FILE}
    assert len(step_cases) >= 30
    judged = [result for result in results if result.case in step_cases]
    assert {result.case for result in judged} == step_cases
    assert all(result.status is Status.PASS for result in judged), [
        f"{r.case}: {r.message}" for r in judged if r.status is not Status.PASS
    ]


@pytest.mark.parametrize("counters", [True, False], ids=["with-counters", "without-counters"])
@pytest.mark.parametrize("flying", [True, False], ids=["flying-kings", "short-kings"])
def test_an_engine_without_draw_rules_fails_each_draw_rule(flying: bool, counters: bool) -> None:
    """The Game never draws (NoDrawRules); the rules it is given make its kings fly or step."""
    rules = dataclasses.replace(INTERNATIONAL, flying_kings=flying)

    def no_draws(position: Position, setup: Counters, game_rules: Rules) -> Game:
        return NoDrawRules(position, setup, game_rules)

    engine: Any = OracleEngine(rules, name="no-draw-rules", game_factory=no_draws)
    certificate, _ = run_corpus(engine if counters else WithoutCounters(engine))
    standing = standings(certificate)
    assert {rule: standing[rule] for rule in DRAW_RULES} == dict.fromkeys(DRAW_RULES, Standing.FAILED)
    if not flying:
        assert standing["3.9"] is Standing.FAILED
        assert standing["3.4"] is Standing.CERTIFIED


def test_the_oracle_is_certified_on_every_rule() -> None:
    certificate, _ = run_corpus(OracleEngine())
    assert all(row.standing is Standing.CERTIFIED for row in certificate.rows)


# -- a reading needs its article ---------------------------------------------------------------------

ENDGAME_READINGS = ("endgame-no-restart", "endgame-group-change", "long-diagonal-not-applied")


@pytest.mark.parametrize("counters", [True, False], ids=["with-counters", "without-counters"])
def test_a_reading_of_an_article_the_engine_lacks_is_blocked_not_failed(counters: bool) -> None:
    """Without the counts of 6.3 and 6.4 (``mutant:no-endgame-counts``) the articles fail, and the
    readings about how those counts run are partly covered: their wrong answers are blocked by
    the article (each of their cases requires it), their other questions pass."""
    engine: Any = MUTANTS["no-endgame-counts"]()
    certificate, results = run_corpus(engine if counters else WithoutCounters(engine))
    rows = {row.key: row for row in certificate.rows}
    assert rows["6.3"].standing is Standing.FAILED
    assert rows["6.4"].standing is Standing.FAILED
    for reading in ENDGAME_READINGS:
        row = rows[reading]
        assert row.standing is Standing.PARTLY_COVERED, (reading, row)
        assert row.failed == row.errored == 0
        assert row.blocked > 0
        assert row.passed > 0
        assert set(row.blocked_by) <= {"6.3", "6.4"}
    wrong = [r for r in results if r.reading in ENDGAME_READINGS and r.status in (Status.FAIL, Status.ERROR)]
    assert wrong
    assert all(certificate.blocked[(r.case, r.question)] for r in wrong)


def test_an_engine_restarting_the_count_fails_the_reading_not_the_article() -> None:
    """An engine with the 6.3 count, restarting it on a man move or a promotion
    (``mutant:endgame-no-restart@6.3``), is certified on 6.3 and fails endgame-no-restart: its
    own article passes elsewhere, so nothing blocks the reading's failures."""
    certificate, _ = run_corpus(MUTANTS["endgame-no-restart@6.3"]())
    rows = {row.key: row for row in certificate.rows}
    assert rows["6.3"].standing is Standing.CERTIFIED
    reading = rows["endgame-no-restart"]
    assert reading.standing is Standing.FAILED
    assert reading.failed > 0
    assert reading.blocked == 0
    assert {row.key for row in certificate.rows if row.standing is Standing.FAILED} == {"endgame-no-restart"}
