"""``verify --rules``: generated positions of another game, judged by that game's oracle and z3.

Issue 21: the generators place pieces on the rule set's board, every check judges by its rules, the
header records the rule set, an engine that does not declare the game is asked nothing, the draw
model's kinds are skipped with a note, and a failure is filed under the game's own rule.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conformance.cli.commands import build_parser
from conformance.core.results import Status
from conformance.core.rule_sets import rule_set
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify import KINDS
from conformance.verify.generate import VerifyOptions, generate, unplayed_kinds
from conformance.verify.run import verify
from conformance.verify.start import check_start
from oracle.position import Color, Kind
from oracle.rules import CaptureChoice, MidCaptureCrowning
from oracle.ruleset import builtin

PLAYED = tuple(kind for kind in KINDS if kind != "draws")


def _cli(*argv: str) -> int:
    args = build_parser().parse_args(["verify", *argv])
    return int(args.handler(args))


def test_the_oracle_passes_verify_under_russian_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "russian.jsonl"
    status = _cli(
        "--engine", "oracle", "--rules", "russian", "-n", "60", "--no-progress", "--report", str(report)
    )
    captured = capsys.readouterr()
    assert status == 0, captured.out
    assert "CERTIFIED for russian" in captured.out
    assert "draws positions skipped: the draw model plays FMJD 6.1-6.4 on 10x10" in captured.err
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    header = lines[0]
    assert header["rules"]["name"] == "russian"
    assert header["rules"]["object"]["captureChoice"] == "free"
    assert header["verify"]["kinds"] == list(PLAYED)
    articles = {line["article"] for line in lines[1:] if "article" in line}
    articles |= {rule for line in lines if line.get("type") == "tally" for rule in line.get("rules", {})}
    assert all(":" in article for article in articles), articles  # the game's own numbering only


@pytest.mark.parametrize("name", ["american", "pool", "canadian"])
def test_the_oracle_passes_verify_under_other_rule_sets(name: str) -> None:
    options = VerifyOptions(examples=40, rule_set=rule_set(name), kinds=PLAYED)
    run = verify(lambda: OracleEngine(builtin(name), rule_sets=frozenset({name})), options)
    assert run.exit_status == 0, [r.message for r in run.results if r.status is not Status.PASS]
    assert run.header["rules"]["name"] == name


def _international_on(name: str, **switches: object) -> OracleEngine:
    """An engine of the game's board that plays some switches as international draughts does."""
    rules = dataclasses.replace(builtin(name), **switches)
    return OracleEngine(rules, name="international-switches", rule_sets=frozenset({name}))


def test_international_captures_on_a_russian_run_fail_under_free_choice() -> None:
    options = VerifyOptions(examples=60, rule_set=rule_set("russian"), kinds=PLAYED)
    run = verify(lambda: _international_on("russian", capture_choice=CaptureChoice.MAXIMUM), options)
    failed = [r for r in run.results if r.status is Status.FAIL]
    assert run.exit_status == 1
    assert failed
    assert {r.article for r in failed} == {"fsr:1.5.14"}  # Russian free choice of capture, no other
    assert {r.question for r in failed} == {"legal_moves[z3]", "legal_moves[oracle]"}
    assert all(d.filed_under == ("fsr:1.5.14",) for d in run.disagreements)


def test_crowning_that_passes_on_a_russian_run_fails_under_its_crowning_rule() -> None:
    options = VerifyOptions(examples=60, rule_set=rule_set("russian"), kinds=PLAYED)
    run = verify(
        lambda: _international_on("russian", mid_capture_crowning=MidCaptureCrowning.PASSES), options
    )
    failed = [r for r in run.results if r.status is Status.FAIL]
    assert failed
    assert {r.article for r in failed} == {"fsr:1.5.15"}


def test_an_engine_not_declaring_the_game_is_asked_nothing() -> None:
    options = VerifyOptions(examples=10, rule_set=rule_set("russian"), kinds=PLAYED)
    engine = OracleEngine(builtin("russian"))  # declares international only
    run = verify(lambda: engine, options, engine=engine)
    assert run.results
    assert {r.status for r in run.results} == {Status.UNSUPPORTED}
    assert "the engine does not play russian (it declares international)" in run.results[0].message
    assert run.exit_status != 0
    assert run.summary.certificate.verdict.startswith("NOT CERTIFIED")
    assert run.summary.certificate.rule_set == "russian"


def test_draws_under_another_game_is_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli("--engine", "oracle", "--rules", "american", "--kind", "draws", "-n", "2") == 2
    assert (
        "draws positions under --rules american: the draw model plays FMJD 6.1-6.4" in capsys.readouterr().err
    )
    assert unplayed_kinds(rule_set("international")) == {}


def test_outcome_is_not_asked_where_draw_switches_are_unsettled(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        _cli("--engine", "oracle", "--rules", "pool", "-n", "8", "--kind", "endgames", "--no-progress") == 0
    )
    err = capsys.readouterr().err
    assert (
        "outcome[oracle] not asked: pool's draw switches endgameCounts, kingsOnlyDraw, repetitionDraw" in err
    )


@pytest.mark.parametrize("name", ["american", "canadian"])
def test_generated_positions_stand_on_the_games_board(name: str) -> None:
    rules = builtin(name)
    board = rules.geometry
    for index in range(60):
        position = generate(3, index, PLAYED, rules).position
        assert position.board_size == rules.board_size
        for color in Color:
            far = board.far_row(color is Color.WHITE)
            assert all(board.row_of(s) != far for s in position.squares(color, Kind.MAN))
            assert position.count(color) <= rules.men_rows * board.per_row


def test_the_start_position_of_a_game_is_its_rules_files() -> None:
    american = builtin("american")  # menRows 3, firstMove black
    assert check_start("B:W21-32:B1-12", american) == []
    wrong = check_start("W:W21-32:B1-12", american)
    assert len(wrong) == 1
    assert "white to move instead of black" in str(wrong[0])
    assert check_start("W:W31-50:B1-20") == []
