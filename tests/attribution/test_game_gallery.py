"""The mutant gallery per rule set: in every game a mutant declares, ``run mutant:NAME --rules
GAME`` is FAILED under the one rule it breaks there (conformance.engines.game_mutants.GAME_BREAKS)
and nothing else; in a game it does not declare it is asked nothing, so never certified.

Each mutant's switch differs from the game's own value (a mutant means something only where its
rule holds: free choice is no bug under Russian), and the runs are the games' small corpora.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.core.certificate import ExitStatus
from conformance.core.corpus import Case
from conformance.core.corpus.load import corpus_root_for, load_corpus
from conformance.core.results import Status
from conformance.core.rule_sets import DEFAULT, rule_set
from conformance.engines.game_mutants import GAME_BREAKS, GAME_MUTANTS, SWITCHES, UNCAUGHT
from conformance.engines.mutants import BREAKS, KNOWN, MUTANTS, mutant
from conformance.harness.runner import RunOptions, run
from oracle.ruleset import BUILTIN, builtin

DECLARED = [(name, game) for name, games in GAME_BREAKS.items() for game in games]
UNDECLARED = [(name, game) for name, games in UNCAUGHT.items() for game in games] + [
    ("maximum-capture-choice", "brazilian")  # the game's own value: no mutant there
]


@cache
def game_cases(game: str) -> tuple[Case, ...]:
    played = rule_set(game)
    return tuple(c for c in load_corpus(corpus_root_for(played), played).cases if "slow" not in c.tags)


def _run(name: str, game: str) -> tuple[ExitStatus, Counter[str], set[Status]]:
    engine = mutant(name, rule_set(game))
    results: list[Status] = []
    summary = run(
        list(game_cases(game)),
        lambda: engine,
        RunOptions(),
        lambda r: results.append(r.status),
        engine=engine,
    )
    certificate = summary.certificate
    charged = Counter(
        {row.key: row.failed + row.charged for row in certificate.rows if row.failed + row.charged}
    )
    return certificate.exit_status, charged, set(results)


@pytest.mark.parametrize(("name", "game"), DECLARED, ids=[f"{n}@{g}" for n, g in DECLARED])
def test_a_mutant_fails_in_each_game_it_declares_under_the_one_rule_it_breaks(name: str, game: str) -> None:
    engine = mutant(name, rule_set(game))
    assert game in engine.info.rule_sets
    assert engine.rules != builtin(game)  # its switch is not the game's own value: it means something
    assert engine.rules.board_size == builtin(game).board_size
    status, charged, _ = _run(name, game)
    assert status is ExitStatus.FAILED
    assert set(charged) == set(GAME_BREAKS[name][game]), charged


@pytest.mark.parametrize(("name", "game"), UNDECLARED, ids=[f"{n}@{g}" for n, g in UNDECLARED])
def test_a_mutant_is_asked_nothing_in_a_game_it_does_not_declare(name: str, game: str) -> None:
    assert game not in mutant(name, rule_set(game)).info.rule_sets
    status, charged, statuses = _run(name, game)
    assert (status, charged, statuses) == (ExitStatus.NOT_CERTIFIED, Counter(), {Status.UNSUPPORTED})


def test_every_switch_mutant_is_meaningful_exactly_where_it_is_declared_or_said_uncaught() -> None:
    """A game where the mutant's switch differs from the game's value is declared or listed as a
    corpus gap; one where it equals the game's value (the mutant is the oracle there) is neither."""
    for name, changes in SWITCHES.items():
        for game in BUILTIN:
            differs = any(getattr(builtin(game), field) != value for field, value in changes.items())
            international = game == DEFAULT and name in MUTANTS
            covered = game in GAME_BREAKS.get(name, {}) or game in UNCAUGHT.get(name, {}) or international
            assert differs == covered or (game == DEFAULT and name in GAME_MUTANTS), (name, game)


def test_the_international_gallery_is_unchanged_and_the_game_mutants_are_known() -> None:
    assert set(BREAKS) == set(MUTANTS)
    assert set(KNOWN) == set(MUTANTS) | set(GAME_MUTANTS)
    assert not set(GAME_MUTANTS) & set(MUTANTS)
    assert mutant("maximum-capture-choice").info.rule_sets == frozenset({"russian", "pool", "american"})
    assert mutant("free-capture-choice").info.rule_sets == frozenset({DEFAULT, "brazilian", "canadian"})


def test_run_names_the_game_and_the_rule(tmp_path: Path, capsys) -> None:
    assert main(["run", "mutant:maximum-capture-choice", "--rules", "russian"]) == 1
    out = capsys.readouterr().out
    assert "maximum-capture-choice 0.1.0: FAILED for russian" in out
    assert "fsr:1.5.14" in out
    report = tmp_path / "international.jsonl"
    assert main(["run", "mutant:maximum-capture-choice", "--report", str(report), "--article", "4.13"]) == 3
    first = json.loads(report.read_text(encoding="utf-8").splitlines()[1])
    assert first["status"] == "unsupported"
    assert "does not play international (it declares american, pool, russian)" in first["message"]
