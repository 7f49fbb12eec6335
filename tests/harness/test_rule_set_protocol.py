"""Protocol 1.2: ``start`` says which game is played, an engine declares the games it plays.

A JSON-lines engine gets ``rules`` (name and full object) in ``start`` when the game is not
international, and nothing new otherwise; ``started`` may declare ``rule_sets`` (absent:
international only). A Python engine declares them in its ``EngineInfo`` and is handed the rule set
through ``use_rules`` before any question. The oracle over JSON-lines plays every rule set.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.core.protocol import PROTOCOL_MINOR
from conformance.core.rule_sets import ANY, rule_set
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.specs import engine_factory
from oracle.position import Position
from oracle.ruleset import builtin

FAKES = Path(__file__).parent / "fakes"
ORACLE_SERVER = f"jsonl:{sys.executable} -m conformance.servers.oracle_jsonl"


def _received(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_start_names_the_game_and_its_full_object(tmp_path: Path) -> None:
    log = tmp_path / "received.jsonl"
    russian = rule_set("russian")
    engine = JsonlEngine([sys.executable, str(FAKES / "recorder.py"), "--log", str(log)], rule_set=russian)
    engine.close()
    start = _received(log)[0]
    assert start["minor"] == PROTOCOL_MINOR == 2
    assert start["rules"] == {"name": "russian", "object": russian.object}
    assert start["rules"]["object"]["captureChoice"] == "free"  # type: ignore[index]
    assert engine.info.rule_sets == frozenset({"international"})  # the recorder declares none


def test_an_international_start_is_as_before(tmp_path: Path) -> None:
    log = tmp_path / "received.jsonl"
    JsonlEngine([sys.executable, str(FAKES / "recorder.py"), "--log", str(log)]).close()
    assert "rules" not in _received(log)[0]


def test_the_oracle_server_declares_every_rule_set_and_plays_the_one_it_is_given(capsys) -> None:
    engine = engine_factory(ORACLE_SERVER, rule_set=rule_set("american"))()
    try:
        assert engine.info.rule_sets == frozenset({ANY})
        start = Position.from_fen(engine.initial_position(), builtin("american"))
        assert start == Position.from_fen("B:W21-32:B1-12", builtin("american"))  # Black moves first
        assert [str(m) for m in engine.legal_moves("W:WK22:B17,18")] == [
            "22x13 {17}",
            "22x15 {18}",
        ]  # short king
    finally:
        engine.close()
    assert main(["run", ORACLE_SERVER, "--rules", "pool"]) == 0
    assert "CERTIFIED for pool at rules level" in capsys.readouterr().out


PYTHON_MODULE = "rule_set_spec_engine"
PYTHON_ENGINE = """
from conformance.core.protocol import BaseEngine, Capability, EngineInfo
from oracle.position import Position
from oracle.ruleset import rules_from_data

class Engine(BaseEngine):
    rules = None

    @property
    def info(self):
        return EngineInfo(
            "checkers-kit", "1", frozenset({Capability.INITIAL_POSITION}), "in-process",
            rule_sets=frozenset({"international", "american"}),
        )

    def use_rules(self, rules):
        self.rules = rules_from_data(rules)

    def initial_position(self):
        return Position.initial(self.rules).fen() if self.rules else Position.initial().fen()
"""


@pytest.fixture
def python_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / f"{PYTHON_MODULE}.py").write_text(PYTHON_ENGINE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop(PYTHON_MODULE, None)


def test_a_python_engine_declares_its_games_and_is_handed_the_one_played(python_engine: Path) -> None:
    spec = f"python:{PYTHON_MODULE}:Engine"
    american = engine_factory(spec, rule_set=rule_set("american"))()
    try:
        assert american.info.rule_sets == frozenset({"international", "american"})
        start = Position.from_fen(american.initial_position(), builtin("american"))
        assert start == Position.from_fen("B:W21-32:B1-12", builtin("american"))
    finally:
        american.close()
    international = engine_factory(spec)()
    try:
        start = Position.from_fen(international.initial_position())  # use_rules never called
        assert start == Position.from_fen("W:W31-50:B1-20")
    finally:
        international.close()


def test_a_python_engine_is_asked_nothing_of_a_game_it_does_not_declare(
    python_engine: Path, tmp_path: Path, capsys
) -> None:
    report = tmp_path / "russian.jsonl"
    assert main(["run", f"python:{PYTHON_MODULE}:Engine", "--rules", "russian", "--report", str(report)]) == 3
    results = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:-1]]
    assert {r["status"] for r in results} == {"unsupported"}
    assert "does not play russian (it declares american, international)" in results[0]["message"]
    capsys.readouterr()
    report = tmp_path / "american.jsonl"
    main(["run", f"python:{PYTHON_MODULE}:Engine", "--rules", "american", "--report", str(report)])
    passed = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:-1]]
    assert [r["case"] for r in passed if r["status"] == "pass"] == ["american-board-initial-position"]


def test_smoke_probes_the_game_it_is_told(capsys) -> None:
    """``smoke --rules american``: the probes are asked on the game's own start position (Black
    to move, 1-32), with the oracle's answers under American rules."""
    assert main(["smoke", "oracle", "--rules", "american"]) == 0
    out = capsys.readouterr().out
    assert "plays american (it declares *)" in out
    assert "legal_moves on B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in out
    assert "PROBLEM" not in out


def test_smoke_says_an_engine_does_not_play_the_game(capsys) -> None:
    assert main(["smoke", "mutant:free-capture-choice", "--rules", "russian"]) == 1
    out = capsys.readouterr().out
    assert (
        "PROBLEM rule set         the engine does not play russian (it declares brazilian, canadian, international)"
        in out
    )
    assert "legal_moves" not in out  # nothing asked of a game it does not play
