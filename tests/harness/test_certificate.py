"""The certificate: coverage per rule, one defect under one rule, exit statuses, partial runs."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from conformance.core.certificate import ExitStatus, Standing, certify
from conformance.core.corpus import Case, LegalMovesQuestion, OutcomeQuestion, load_corpus
from conformance.core.protocol import (
    BaseEngine,
    Capability,
    EngineInfo,
    MoveRefused,
    MoveSpec,
    OutcomeAnswer,
    PositionRefused,
)
from conformance.core.results import Result, Status
from conformance.core.scopes import Scope
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import ask
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report import ReportWriter, read_report
from conformance.report.badge import render_badge
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.report.terminal import render_terminal
from oracle.counters import Counters
from oracle.position import Position
from oracle.rules import INTERNATIONAL

EVERYTHING = frozenset(Capability) - {Capability.CHOOSE_MOVE}


def result(
    case: str, article: str, status: Status, question: str = "legal_moves", **fields: object
) -> Result:
    return Result(case=case, question=question, article=article, status=status, **fields)  # type: ignore[arg-type]


# -- the model ---------------------------------------------------------------------------------------


def test_a_rule_is_certified_only_when_every_question_of_it_passes() -> None:
    certificate = certify(
        [
            result("a", "3.4", Status.PASS),
            result("b", "3.4", Status.PASS),
            result("c", "3.9", Status.PASS),
            result("d", "3.9", Status.SKIP),
            result("e", "4.2", Status.UNSUPPORTED),
            result("f", "4.3", Status.FAIL),
        ]
    )
    standings = {row.key: row.standing for row in certificate.rows}
    assert standings == {
        "3.4": Standing.CERTIFIED,
        "3.9": Standing.PARTLY_COVERED,
        "4.2": Standing.NOT_COVERED,
        "4.3": Standing.FAILED,
    }
    assert certificate.exit_status is ExitStatus.FAILED


def test_a_failure_explained_by_a_required_rule_failed_elsewhere_is_blocked_not_charged() -> None:
    certificate = certify(
        [
            result("king-capture", "4.3", Status.FAIL),
            result("max-with-kings", "4.13", Status.FAIL, requires=("4.3",)),
            result("max-with-men", "4.13", Status.PASS, requires=("4.2",)),
        ]
    )
    rows = {row.key: row for row in certificate.rows}
    assert rows["4.3"].standing is Standing.FAILED
    assert (rows["4.13"].failed, rows["4.13"].blocked, rows["4.13"].blocked_by) == (0, 1, ("4.3",))
    assert rows["4.13"].standing is Standing.PARTLY_COVERED
    assert certificate.blocked == {("max-with-kings", "legal_moves"): ("4.3",)}
    assert certificate.problems == 2  # the blocked failure is still a defect of the engine: exit 1
    assert certificate.problems_blocked == 1
    assert certificate.summary().endswith("2 failed or erred (1 of them blocked by a failed prerequisite)")
    assert certificate.exit_status is ExitStatus.FAILED


def test_a_required_rule_failing_only_in_the_same_case_does_not_block() -> None:
    results = [
        dataclasses.replace(result("one", "4.13", Status.FAIL, requires=("4.3",)), question="legal_moves"),
        dataclasses.replace(result("one", "4.13", Status.FAIL, charged_to="4.3"), question="after[0]"),
    ]
    rows = {row.key: row for row in certify(results).rows}
    assert rows["4.13"].failed == 1  # the 4.3 failure is found in this very case, not elsewhere
    assert rows["4.3"].charged == 1


def test_a_refused_move_is_charged_to_its_rule_and_blocks_the_question_it_was_in() -> None:
    certificate = certify(
        [
            result("draw", "6.2", Status.FAIL, charged_to="3.9"),
            result("draw-steps", "6.2", Status.PASS),
        ]
    )
    rows = {row.key: row for row in certificate.rows}
    assert (rows["3.9"].charged, rows["3.9"].questions, rows["3.9"].standing) == (1, 0, Standing.FAILED)
    assert (rows["6.2"].passed, rows["6.2"].blocked, rows["6.2"].standing) == (
        1,
        1,
        Standing.PARTLY_COVERED,
    )


def test_a_reading_is_its_own_rule() -> None:
    certificate = certify(
        [result("a", "6.3", Status.FAIL, reading="endgame-no-restart"), result("b", "6.3", Status.PASS)]
    )
    rows = {row.key: row for row in certificate.rows}
    assert rows["6.3"].standing is Standing.CERTIFIED
    assert rows["endgame-no-restart"].reading
    assert rows["endgame-no-restart"].standing is Standing.FAILED


def test_baselined_failures_fail_their_rule_and_the_run_unless_accepted() -> None:
    results = [result("a", "4.3", Status.FAIL, baselined=True), result("b", "3.4", Status.PASS)]
    certificate = certify(results, baseline="known.yaml")
    rows = {row.key: row for row in certificate.rows}
    assert rows["4.3"].standing is Standing.FAILED
    assert rows["4.3"].known == 1
    assert certificate.exit_status is ExitStatus.FAILED
    assert certificate.summary().startswith("FAILED, 1 known, at rules level: rules 1 certified, 1 failed")
    assert "the baseline hides 1 of 2 questions (50%)" in certificate.summary()
    accepted = certify(results, baseline="known.yaml", accept_known=True)
    assert accepted.exit_status is ExitStatus.CERTIFIED
    assert accepted.verdict == "FAILED, 1 known (accepted)"  # never "CERTIFIED" beside a failed rule
    assert "CERTIFIED" not in accepted.summary().replace("FAILED", "")
    mixed = certify([*results, result("c", "4.2", Status.FAIL)], baseline="known.yaml", accept_known=True)
    assert mixed.exit_status is ExitStatus.FAILED  # accepting the known never hides a new failure
    assert mixed.verdict == "FAILED (1 new, 1 known)"


@pytest.mark.parametrize(
    ("required", "missing"),
    [((), ()), (("3",), ()), (("3.4",), ()), (("4",), ("4",)), (("all",), ("4.2",)), (("6.1",), ("6.1",))],
)
def test_required_rules_must_be_certified(required: tuple[str, ...], missing: tuple[str, ...]) -> None:
    certificate = certify(
        [result("a", "3.4", Status.PASS), result("b", "3.9", Status.PASS), result("c", "4.2", Status.SKIP)],
        required=required,
    )
    assert certificate.missing_required == missing
    assert certificate.exit_status is (ExitStatus.NOT_CERTIFIED if missing else ExitStatus.CERTIFIED)


def test_an_incomplete_run_is_never_certified() -> None:
    passing = [result("a", "3.4", Status.PASS)]
    assert certify(passing, questions=1).exit_status is ExitStatus.CERTIFIED
    for incomplete in (
        certify(passing, questions=5),
        certify(passing, interrupted=True),
        certify(passing, stopped_early=True),
    ):
        assert not incomplete.complete
        assert incomplete.exit_status is ExitStatus.NOT_CERTIFIED
        assert "PARTIAL RUN" in incomplete.verdict


# -- engines through the runner --------------------------------------------------------------------


class Decliner(BaseEngine):
    """Declares every question and declines every one."""

    @property
    def info(self) -> EngineInfo:
        return EngineInfo("decliner", "1", EVERYTHING, "in-process")


def run_corpus(factory, options: RunOptions | None = None):  # type: ignore[no-untyped-def]
    options = options or RunOptions()
    corpus = load_corpus()
    cases = select_cases(corpus, options)
    results: list[Result] = []
    summary = run(cases, factory, options, results.append)
    return corpus, cases, results, summary


def test_an_engine_that_declines_everything_is_not_certified() -> None:
    corpus, cases, results, summary = run_corpus(Decliner)
    assert {r.status for r in results} == {Status.SKIP}
    assert summary.certificate.level == "none"
    assert summary.exit_status == ExitStatus.NOT_CERTIFIED
    report = _report(corpus, cases, Decliner().info, results, summary.to_json())
    badge = json.loads(render_badge(report))
    assert badge["color"] not in {"green", "brightgreen"}
    assert badge["message"].startswith("not certified · 0/")


class OnlyMoves(OracleEngine):
    """The oracle answering legal-move questions only."""

    def __init__(self) -> None:
        super().__init__(name="only-moves")
        self._info = dataclasses.replace(self._info, capabilities=frozenset({Capability.LEGAL_MOVES}))


def test_a_partial_engine_gets_coverage_per_rule_and_scope_and_no_green_badge() -> None:
    corpus, cases, results, summary = run_corpus(OnlyMoves)
    certificate = summary.certificate
    for row in certificate.rows:
        mine = [r for r in results if r.judged_under == row.key]
        passed = sum(1 for r in mine if r.status is Status.PASS)
        assert (row.questions, row.passed, row.unsupported) == (len(mine), passed, len(mine) - passed)
        # the legal-move questions are the only ones asked: the rule stands as they do
        assert row.standing is (Standing.CERTIFIED if passed else Standing.NOT_COVERED), row
        assert row.standing_for(Scope.MOVES) in (None, row.standing)
        for scope in (Scope.POSITIONS, Scope.NOTATION, Scope.GAMES):
            assert row.standing_for(scope) in (None, Standing.NOT_COVERED)
    assert summary.exit_status == ExitStatus.CERTIFIED
    assert certificate.level == "rules"
    report = _report(corpus, cases, OnlyMoves().info, results, summary.to_json())
    badge = json.loads(render_badge(report))
    answered = sum(1 for r in results if r.status is Status.PASS)
    assert badge["color"] == "blue"
    assert f"{answered}/{len(results)} answered" in badge["message"]


def _report(corpus, cases, info, results, footer):  # type: ignore[no-untyped-def]
    from conformance.core.stream import Report

    return Report(header(corpus, info, RunOptions(), cases), results, footer)


def test_an_interrupted_run_says_so_in_every_format(tmp_path: Path) -> None:
    corpus = load_corpus()
    cases = select_cases(corpus, RunOptions(articles=["4.13"]))
    path = tmp_path / "interrupted.jsonl"
    engine = OracleEngine()
    with path.open("w", encoding="utf-8") as handle:
        writer = ReportWriter(handle)
        writer.write(header(corpus, engine.info, RunOptions(articles=["4.13"]), cases))
        for case in cases[: len(cases) // 2]:
            for key, question in [("legal_moves", q) for q in case.questions][:1]:
                writer.result(ask(engine, case, key, question))
    report = read_report(path)
    certificate = report.certificate()
    assert not certificate.complete
    assert certificate.exit_status is ExitStatus.NOT_CERTIFIED
    console = Console(record=True, width=140)
    render_terminal(report, console)
    assert "PARTIAL RUN" in console.export_text()
    assert "Partial run" in render_markdown(report)
    root = ET.fromstring(render_junit(report))
    assert "PARTIAL RUN" in (root.findtext("system-out") or "")
    badge = json.loads(render_badge(report))
    assert badge["message"].startswith("partial run")
    assert badge["color"] == "lightgrey"


# -- refusals ------------------------------------------------------------------------------------------


def _case(position: str, question: object, article: str = "6.2", requires: Sequence[str] = ()) -> Case:
    return Case(
        id="t",
        article=article,
        description="test",
        source="constructed",
        position=position,
        questions=(question,),  # type: ignore[arg-type]
        file="t.yaml",
        line=1,
        topic="t",
        requires=tuple(requires),
    )


def test_a_refused_legal_move_is_a_fail_of_that_moves_rule_naming_move_and_ply() -> None:
    short_kings = OracleEngine(dataclasses.replace(INTERNATIONAL, flying_kings=False), name="short-kings")
    # White king 15 to 4 crosses two squares (15-10-4): an engine with short kings refuses it.
    question = OutcomeQuestion(("15-4", "46-5", "48-25"), "ongoing", None, None)
    case = _case("W:WK15,K48,6,45:BK2,K46", question, requires=("3.9",))
    got = ask(short_kings, case, "outcome", question)
    assert got.status is Status.FAIL
    assert got.charged_to == "3.9"
    assert got.message.startswith("ply 1: refused the legal move '15-4'")
    assert "(Art. 3.9)" in got.message
    assert got.defect == "refuses a legal long king move"


def test_a_position_refused_is_a_skip_without_a_side_and_a_fail_of_art_2_with_both() -> None:
    class Refuses(OracleEngine):
        def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
            raise PositionRefused("no")

    empty_side = _case("W:W28", LegalMovesQuestion(frozenset()), article="3.4")
    both = _case("W:W28:B1", LegalMovesQuestion(frozenset()), article="3.4")
    assert ask(Refuses(), empty_side, "legal_moves", empty_side.questions[0]).status is Status.SKIP
    refused = ask(Refuses(), both, "legal_moves", both.questions[0])
    assert (refused.status, refused.charged_to, refused.defect) == (
        Status.FAIL,
        "2",
        "refuses a valid position",
    )


def test_outcome_questions_from_counters_need_the_counters_capability() -> None:
    class NoCounters(OracleEngine):
        def __init__(self) -> None:
            super().__init__(name="no-counters")
            self._info = dataclasses.replace(self._info, capabilities=EVERYTHING - {Capability.COUNTERS})

        def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
            assert not counters, "an engine without the counters capability was given counters"
            return super().outcome(fen, counters, moves)

    corpus = load_corpus()
    with_counters = [c for c in corpus.cases if c.has_counters]
    assert with_counters
    results = [ask(NoCounters(), c, "outcome", q) for c in with_counters for q in c.questions]
    assert {r.status for r in results if r.question == "outcome"} == {Status.UNSUPPORTED}
    assert all("counters" in r.message for r in results)


def test_a_refusal_in_a_case_whose_legal_moves_are_wrong_is_that_cases_defect() -> None:
    """An engine crowning mid-capture refuses the man's maximum capture (a backward capture, say)
    and lists a longer king capture instead: one defect, of Art. 4.15, not of 4.1."""
    from conformance.engines.mutants import mutant

    _, _, results, summary = run_corpus(lambda: mutant("crowned-mid-capture"), RunOptions(articles=["4.15"]))
    refused = [r for r in results if r.status is Status.FAIL and r.defect.startswith("refuses")]
    assert refused
    assert all(r.charged == "4.15" for r in refused)
    assert {row.key for row in summary.certificate.rows_by(Standing.FAILED)} == {"4.15"}


class RefusesMovesAfterItsEnd(OracleEngine):
    """A strict engine: once its game is over, the next move is illegal (here with a 6.1 bug:
    the draw comes at the second occurrence)."""

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        game = self.game_factory(Position.from_fen(fen), Counters.from_dict(counters), self.rules)
        for ply, text in enumerate(moves, start=1):
            if game.is_over:
                raise MoveRefused(text, ply, "the game is over")
            game.play(text)
        found = game.outcome()
        return OutcomeAnswer(found.result.value, found.rule, found.ply)


CYCLE = ("44-17", "2-19", "17-44", "19-2", "44-17", "2-19", "17-44", "19-2")
"""White king 44 and Black king 2 go out and back twice: the start position occurs a third time,
with White to move, after ply 8 (Art. 6.1)."""


def test_a_move_refused_after_the_engines_own_end_of_game_is_its_draw_not_the_moves_rule() -> None:
    engine = RefusesMovesAfterItsEnd(dataclasses.replace(INTERNATIONAL, repetition_draw=2), name="strict")
    question = OutcomeQuestion(CYCLE, "draw", "6.1", 8)
    got = ask(engine, _case("W:WK44:BK2", question, article="6.1"), "outcome", question)
    assert got.status is Status.FAIL
    assert got.charged_to is None  # the case's own rule, 6.1: not 3.9 for the king move refused
    assert got.got == {"result": "draw", "rule": "6.1", "ply": 4}
    assert "refused the move at ply 5" in got.message


def test_a_correct_engine_refusing_moves_after_the_end_passes() -> None:
    engine = RefusesMovesAfterItsEnd(name="strict")
    question = OutcomeQuestion((*CYCLE, "44-17"), "draw", "6.1", 8)
    assert (
        ask(engine, _case("W:WK44:BK2", question, article="6.1"), "outcome", question).status is Status.PASS
    )
