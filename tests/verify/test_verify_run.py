"""The ``verify`` driver and command: the oracle passes, runs are reproducible, disagreements are
shrunk and described, engine trouble becomes ``error``/``skip``, and the report stream renders.

The default run checks 2,000 generated positions without z3 (differential and invariants) and the
first 300 of them with z3; ``--run-slow`` checks 20,000 and 3,000.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from rich.console import Console

from conformance.cli import verify as commands
from conformance.cli.commands import build_parser
from conformance.core.corpus import CORPUS_ROOT, Capability, MoveSpec
from conformance.core.protocol import BaseEngine, EngineDeclined, EngineInfo, OutcomeAnswer
from conformance.core.results import Status
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.report import ReportWriter, read_report
from conformance.report.junit import render_junit
from conformance.report.terminal import render_terminal
from conformance.verify import KINDS, casefile
from conformance.verify import judges as driver
from conformance.verify.after import position_after
from conformance.verify.asking import Asker
from conformance.verify.capture_formula import SolverUnknownError
from conformance.verify.checks import quiet_moves
from conformance.verify.findings import FindingKind
from conformance.verify.generate import VerifyOptions, generate
from conformance.verify.judgement import Judgement
from conformance.verify.judges import Checks
from conformance.verify.registry import check_named
from conformance.verify.run import verify
from conformance.verify.shrink import demoted, shrink_position, without
from conformance.verify.smt import CaptureSolver
from oracle.moves import legal_moves
from oracle.position import Color, Kind, Position

ROOT = Path(__file__).resolve().parents[2]


def _by_check(results: Sequence[Any]) -> Counter[tuple[str, str]]:
    return Counter((result.question, result.status.value) for result in results)


# -- the oracle passes ------------------------------------------------------------------------------


def _oracle_passes(examples: int, z3_examples: int, seed: int) -> None:
    run = verify(OracleEngine, VerifyOptions(examples=examples, seed=seed, z3_examples=z3_examples))
    problems = [r for r in run.results if r.status is not Status.PASS]
    assert not problems, [(r.case, r.question, r.message) for r in problems[:5]]
    assert run.exit_status == 0
    assert run.positions == examples
    assert run.disagreements == []
    counts = run.report.by_question()
    assert counts["legal_moves[z3]", "pass"] == z3_examples
    for check in ("legal_moves[invariants]", "legal_moves[oracle]", "symmetry"):
        assert counts[check, "pass"] == examples, check
    # Every position with a legal move gets moves played; every endgame position an outcome.
    assert counts["after[invariants]", "pass"] == counts["after[oracle]", "pass"] >= examples * 0.8
    assert counts["outcome[oracle]", "pass"] == examples // len(KINDS)
    assert counts["initial_position", "pass"] == 1, "the start position is checked once per run"
    listed = run.results  # the start position's check alone: every other pass is counted
    assert [(r.question, r.status) for r in listed] == [("initial_position", Status.PASS)]
    counted = [kind.result() for kind in run.report.tallied()]
    articles = {article for result in [*listed, *counted] for article in result.articles}
    assert {"2.8", "3.4", "3.5", "3.9", "4.13", "4.15", "6.4", "7.2.2"} <= articles


def test_the_oracle_passes_verify() -> None:
    _oracle_passes(240, 60, seed=20260)  # the deep run below: 20,000 positions, 3,000 through z3


@pytest.mark.slow
def test_the_oracle_passes_verify_deep() -> None:
    _oracle_passes(20_000, 3_000, seed=777)


def test_every_kind_is_generated_with_its_questions() -> None:
    for index, kind in enumerate(KINDS):
        generated = generate(5, index)
        assert generated.kind == kind
        assert generated.case == f"verify-5-{index}"
    positions = [generate(5, index, ("captures",)).position for index in range(40)]
    assert sum(CaptureSolver(p).can_capture for p in positions) >= 30
    endgames = [generate(5, index, ("endgames",)).position for index in range(20)]
    assert all(sum(p.count(color) for color in Color) <= 5 for p in endgames)


# -- determinism ------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_positions() -> None:
    first = [generate(42, index).position for index in range(60)]
    assert first == [generate(42, index).position for index in range(60)]
    assert first != [generate(43, index).position for index in range(60)]
    assert len(set(first)) >= 55


def test_positions_do_not_depend_on_n_nor_on_the_process() -> None:
    short = verify(OracleEngine, VerifyOptions(examples=10, seed=3, z3=False, all_results=True))
    long = verify(OracleEngine, VerifyOptions(examples=25, seed=3, z3=False, all_results=True))
    positions = [(r.case, r.question, r.position) for r in short.results]
    assert positions == [(r.case, r.question, r.position) for r in long.results][: len(positions)]
    # String seeds go through SHA-512: another process, another hash seed, the same positions.
    script = "from conformance.verify.generate import generate; print([generate(3, i).position.fen() for i in range(10)])"
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(ROOT))
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    assert output.stdout.strip() == str([generate(3, i).position.fen() for i in range(10)])


def test_a_run_reports_the_same_results_twice() -> None:
    options = VerifyOptions(examples=30, seed=11, z3_examples=10)
    one = verify(lambda: mutant("king-counts-two"), options)
    two = verify(lambda: mutant("king-counts-two"), options)
    strip = [
        (r.case, r.question, r.status, r.message, json.dumps(r.expected), json.dumps(r.got))
        for r in one.results
    ]
    assert strip == [
        (r.case, r.question, r.status, r.message, json.dumps(r.expected), json.dumps(r.got))
        for r in two.results
    ]
    assert [d.position for d in one.disagreements] == [d.position for d in two.disagreements]


# -- shrinking ------------------------------------------------------------------------------------------


def test_shrinking_keeps_exactly_the_pieces_the_failure_needs() -> None:
    position = Position.from_fen("W:W31,32,K33,40,45:B7,K12,19,24,28")

    def fails(candidate: Position) -> bool:  # "a white piece on 33 and a black piece on 28"
        return candidate.piece_at(33) is not None and candidate.piece_at(28) is not None

    shrunk = shrink_position(position, fails)
    assert shrunk.minimal
    assert shrunk.position == Position.from_fen("W:W33:B28")  # the king on 33 became a man


def test_shrinking_keeps_a_king_that_must_stay_a_king() -> None:
    position = Position.from_fen("B:WK3,20:BK5,K40")

    def fails(candidate: Position) -> bool:
        piece = candidate.piece_at(40)
        return piece is not None and piece.kind is Kind.KING

    shrunk = shrink_position(position, fails)
    assert shrunk.position == Position.from_fen("B:W20:BK40")  # White keeps a piece; 3 went first
    assert demoted(Position.from_fen("W:WK3:B10"), 3) is None  # a white man may not stand on row 0
    assert without(position, 20) == Position.from_fen("B:WK3:BK5,K40")


def test_shrinking_treats_an_exception_as_not_failing() -> None:
    position = Position.from_fen("W:W31,32:B19,20")

    def fails(candidate: Position) -> bool:
        if candidate.count(Color.WHITE) < 2:
            raise RuntimeError("the engine broke")
        return True

    shrunk = shrink_position(position, fails)
    assert shrunk.position == Position.from_fen("W:W31,32:B20")  # Black keeps its last piece
    assert shrunk.minimal


def test_shrinking_never_takes_a_sides_last_piece() -> None:
    shrunk = shrink_position(Position.from_fen("W:W31,32,33:BK5,19,20"), lambda candidate: True)
    assert shrunk.position.count(Color.WHITE) == shrunk.position.count(Color.BLACK) == 1
    assert shrunk.minimal


def test_generated_positions_have_pieces_of_both_colours() -> None:
    for index in range(300):
        position = generate(11, index).position
        assert position.count(Color.WHITE), position.fen()
        assert position.count(Color.BLACK), position.fen()


def test_shrinking_gives_up_after_max_tries() -> None:
    position = Position.from_fen("W:W31,32,33,34:B16,17,18,19")
    shrunk = shrink_position(position, lambda candidate: candidate.count(Color.WHITE) >= 1, max_tries=3)
    assert not shrunk.minimal
    assert shrunk.tries == 3


@pytest.mark.parametrize("name", ["free-capture-choice", "start-square-occupied", "crowned-mid-capture"])
def test_a_shrunk_disagreement_still_fails_and_has_no_removable_piece(name: str) -> None:
    run = verify(lambda: mutant(name), VerifyOptions(examples=200, seed=4, max_fail=1, shrink=1))
    assert run.disagreements, f"{name} not caught"
    disagreement = run.disagreements[0]
    checks = Checks(Asker(mutant(name), None), VerifyOptions())
    function = check_named(disagreement.check).judge(checks)
    subject = disagreement.judgement.subject

    def kinds(position: Position) -> set[FindingKind]:
        checks.forget()
        try:
            return {finding.kind for finding in function(position, subject).findings}
        except Exception:
            return set()

    shrunk = disagreement.position
    assert disagreement.shrunk.minimal
    assert disagreement.kind in kinds(shrunk)
    for color in Color:
        for square in shrunk.squares(color):
            assert disagreement.kind not in kinds(without(shrunk, square)), (shrunk.fen(), square)
        for square in shrunk.squares(color, Kind.KING):
            smaller = demoted(shrunk, square)
            assert smaller is None or disagreement.kind not in kinds(smaller)
    assert sum(shrunk.count(color) for color in Color) < sum(disagreement.original.count(c) for c in Color)


# -- the case for cases/ ---------------------------------------------------------------------------------


def _case_file(case_yaml: str) -> dict[str, Any]:
    text = f'topic: "generated"\narticle: "4.13"\ncases:\n{case_yaml}\n'
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


# king-counts-two's first disagreement (seed 2) is a tie it narrows: filed under 4.14, relying on 4.13
@pytest.mark.parametrize(("name", "article"), [("king-counts-two", "4.14"), ("duplicate-routes", "8")])
def test_the_case_for_a_legal_move_disagreement_is_valid_and_suggested_by_z3(
    name: str, article: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = verify(lambda: mutant(name), VerifyOptions(examples=100, seed=2, max_fail=1, shrink=1))
    disagreement = run.disagreements[0]
    assert disagreement.check in ("legal_moves[oracle]", "legal_moves[invariants]", "legal_moves[z3]")
    text = disagreement.text()
    for part in (disagreement.position.fen(), disagreement.position.diagram(), "expected (", "got (engine):"):
        assert part in text
    assert "TODO: work out" in disagreement.case_yaml
    data = _case_file(disagreement.case_yaml)
    schema = json.loads((CORPUS_ROOT / "schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    case = data["cases"][0]
    assert case["id"].startswith(f"verify-{article}-")
    assert case["article"] == article
    if article == "4.14":
        assert "4.13" in case["requires"]
    assert f"ready-to-paste case for {casefile._folder(article)}" in text
    assert case["source"] == "found by draughts-conformance verify (seed 2)"
    assert case["position"] == disagreement.position.fen()
    solver = CaptureSolver(disagreement.position)
    assert set(case["expect"]["legal_moves"]) == {str(c) for c in solver.maximal_captures()}

    # The suggestion never asks the oracle: with its move generator broken, the case is the same.
    def broken(*args: object, **kwargs: object) -> list[object]:
        raise AssertionError("the case's expectation must not come from the oracle")

    monkeypatch.setattr(driver, "legal_moves", broken)
    again = casefile.case_yaml(
        disagreement.check,
        disagreement.kind,
        disagreement.judgement,
        disagreement.position,
        2,
        10_000,
        articles=disagreement.filed_under or None,
    )
    assert again == disagreement.case_yaml


def test_a_case_without_capture_suggests_the_rules_quiet_moves() -> None:
    position = Position.from_fen("W:W31,K46:B5")
    judgement = Judgement((), ("3.4",))
    text = casefile.case_yaml("legal_moves[oracle]", FindingKind.QUIET_MOVES, judgement, position, 9, 10_000)
    case = _case_file(text)["cases"][0]
    expected = {move.key for move in legal_moves(position)}  # a cross-check of the suggestion, not its source
    assert {MoveSpec.parse(t) for t in case["expect"]["legal_moves"]} == {MoveSpec(*key) for key in expected}


def test_after_and_outcome_cases_leave_the_answer_to_the_author() -> None:
    position = Position.from_fen("W:W15,33:B9,10,29")
    key = (33, 24, frozenset({29}))
    judgement = Judgement((), ("4.11",), subject=key)
    after = _case_file(
        casefile.case_yaml("after[oracle]", FindingKind.RESULT_POSITION, judgement, position, 1, 1000)
    )
    assert after["cases"][0]["expect"]["after"] == [
        {"moves": ["33x24"], "position": position_after(position, key).fen()}
    ]
    assert position_after(position, key) == Position.from_fen("B:W15,24:B9,10")
    judgement = Judgement((), ("6.4",), subject=("15-4", "9-14"))
    outcome = _case_file(
        casefile.case_yaml("outcome[oracle]", FindingKind.OUTCOME, judgement, position, 1, 1000)
    )
    assert outcome["cases"][0]["expect"]["outcome"] == {
        "moves": ["15-4", "9-14"],
        "result": "TODO",
        "rule": "TODO",
        "ply": "TODO",
    }


# -- engines that break, decline or lack capabilities -----------------------------------------------------


class _Fake(BaseEngine):
    def __init__(self, capabilities: frozenset[Capability], **behaviour: Any) -> None:
        self._info = EngineInfo("fake", "0", capabilities, "in-process")
        self.behaviour = behaviour
        self.oracle = OracleEngine()

    @property
    def info(self) -> EngineInfo:
        return self._info

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        action = self.behaviour.get("legal_moves")
        if action == "raise":
            raise ValueError("boom")
        if action == "decline":
            raise EngineDeclined("not today")
        if action == "hang":
            import time

            time.sleep(30)
        if action == "garbage":
            return ["32-28"]  # type: ignore[list-item]
        return self.oracle.legal_moves(fen)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        after = Position.from_fen(self.oracle.play(fen, moves))
        if self.behaviour.get("play") != "no-promotion":
            return after.fen()
        squares = re.findall(r"[0-9]+", moves[0])  # a man that ends on the far row is not crowned
        start, end = int(squares[0]), int(squares[-1])
        man = Position.from_fen(fen).piece_at(start)
        if man is None or man.kind is not Kind.MAN:
            return after.fen()
        kings = set(after.squares(Color.WHITE, Kind.KING) + after.squares(Color.BLACK, Kind.KING)) - {end}
        sections = [
            color.value + ",".join(f"K{s}" if s in kings else str(s) for s in after.squares(color))
            for color in Color
        ]
        return f"{after.turn.value}:{sections[0]}:{sections[1]}"

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        return self.oracle.outcome(fen, counters, moves)

    def choose_move(self, fen: str) -> MoveSpec | None:
        moves = self.oracle.legal_moves(fen)
        if self.behaviour.get("choose") == "last":
            return moves[-1] if moves else None
        return moves[0] if moves else None


ALL = frozenset({Capability.LEGAL_MOVES, Capability.PLAY, Capability.OUTCOME})


@pytest.mark.parametrize(
    ("behaviour", "status", "kind"),
    [
        ("raise", Status.ERROR, "exception"),
        ("decline", Status.SKIP, None),
        ("garbage", Status.ERROR, "protocol"),
    ],
)
def test_engine_trouble_is_an_error_or_a_skip_never_a_pass(
    behaviour: str, status: Status, kind: str | None
) -> None:
    run = verify(lambda: _Fake(ALL, legal_moves=behaviour), VerifyOptions(examples=5, seed=1))
    rows = [r for r in run.results if r.question.startswith(("legal_moves", "symmetry"))]
    assert rows
    assert {r.status for r in rows} == {status}
    assert all((r.error.kind if r.error else None) == kind for r in rows)
    assert run.exit_status == (1 if status is Status.ERROR else 0)


def test_an_in_process_engine_that_hangs_times_out() -> None:
    run = verify(
        lambda: _Fake(ALL, legal_moves="hang"), VerifyOptions(examples=1, seed=1, engine_timeout=0.2, plays=0)
    )
    rows = [r for r in run.results if r.question.startswith("legal_moves")]
    assert rows
    assert all(r.status is Status.ERROR and r.error is not None and r.error.kind == "timeout" for r in rows)
    # One time-out per position: the failure is remembered for the other checks.
    assert sum(r.duration_ms for r in run.results) < 1500


def test_z3_unknown_is_an_error_never_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown(*args: object, **kwargs: object) -> list[object]:
        raise SolverUnknownError("z3 gave no answer (timeout)")

    monkeypatch.setattr(driver, "verify_position", unknown)
    run = verify(OracleEngine, VerifyOptions(examples=3, seed=1))
    rows = [r for r in run.results if r.question == "legal_moves[z3]"]
    assert len(rows) == 3
    assert all(
        r.status is Status.ERROR and r.error is not None and r.error.kind == "z3-unknown" for r in rows
    )
    assert run.exit_status == 1


def test_wrong_positions_after_a_move_are_caught() -> None:
    options = VerifyOptions(examples=40, seed=8, kinds=("captures",), plays=6, shrink=1)
    run = verify(lambda: _Fake(ALL, play="no-promotion"), options)
    failing = {r.question for r in run.results if r.status is Status.FAIL}
    assert failing == {"after[invariants]", "after[oracle]"}
    kinds = {d.kind for d in run.disagreements}
    assert kinds & {FindingKind.PROMOTION, FindingKind.PROMOTION_ROW}
    case = _case_file(run.disagreements[0].case_yaml)["cases"][0]
    assert "after" in case["expect"]


def test_a_missing_capability_is_unsupported() -> None:
    run = verify(lambda: _Fake(frozenset({Capability.LEGAL_MOVES})), VerifyOptions(examples=5, seed=1))
    statuses = {(question, Status(status)) for question, status in run.report.by_question()}
    assert ("after[oracle]", Status.UNSUPPORTED) in statuses
    assert ("outcome[oracle]", Status.UNSUPPORTED) in statuses
    assert ("legal_moves[z3]", Status.PASS) in statuses
    assert run.exit_status == 0


def test_a_move_choice_engine_gets_its_chosen_move_judged() -> None:
    right = verify(lambda: _Fake(frozenset({Capability.CHOOSE_MOVE})), VerifyOptions(examples=20, seed=1))
    assert {question for question, status in right.report.by_question() if status == "pass"} >= {
        "choose_move[z3]",
        "choose_move[oracle]",
    }
    assert right.exit_status == 0

    class Steps(_Fake):  # chooses a step even when it must capture
        def choose_move(self, fen: str) -> MoveSpec | None:
            steps = sorted(quiet_moves(Position.from_fen(fen)), key=lambda key: (key[0], key[1]))
            return MoveSpec(*steps[0]) if steps else MoveSpec(1, 2)

    wrong = verify(
        lambda: Steps(frozenset({Capability.CHOOSE_MOVE})),
        VerifyOptions(examples=20, seed=1, kinds=("captures",)),
    )
    assert {r.question for r in wrong.results if r.status is Status.FAIL} == {
        "choose_move[z3]",
        "choose_move[oracle]",
    }


# -- the report stream and the command ------------------------------------------------------------------------


def test_the_report_stream_renders(tmp_path: Path) -> None:
    path = tmp_path / "verify.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        run = verify(
            lambda: mutant("prefers-taking-kings"),
            VerifyOptions(examples=30, seed=6, z3_examples=10),
            ReportWriter(handle),
        )
    report = read_report(path)
    assert report.header["kind"] == "verify"
    assert report.header["seed"] == 6
    assert report.header["examples"] == 30
    assert report.header["engine"]["name"] == "prefers-taking-kings"
    assert report.footer["counts"]["fail"] == run.summary.counts["fail"] > 0
    assert [r.case for r in report.results] == [r.case for r in run.results]
    assert all(r.case.startswith("verify-6-") and r.position for r in report.results)
    failing = [r for r in report.results if r.status is Status.FAIL]
    assert all(r.articles and r.message and r.got is not None for r in failing)
    assert {a for r in failing for a in r.articles} & {"4.13", "4.14"}
    console = Console(file=io.StringIO(), width=120)
    render_terminal(report, console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "FAIL verify-6-" in text
    assert "4.13" in text
    root = ET.fromstring(render_junit(report))
    assert sum(int(suite.get("failures", "0")) for suite in root) > 0


def _parser() -> argparse.ArgumentParser:
    parser = build_parser()
    return parser


def test_the_command_passes_the_oracle_and_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "v.jsonl"
    args = _parser().parse_args(
        [
            "verify",
            "--engine",
            "oracle",
            "-n",
            "25",
            "--seed",
            "4",
            "--report",
            str(report),
            "--z3-examples",
            "10",
        ]
    )
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "oracle 0.1.0: CERTIFIED at rules level" in out
    assert "verify: seed 4, 25 of 25 positions" in out
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[0]["kind"] == "verify"
    assert lines[-1]["type"] == "footer"
    assert lines[-1]["exit_status"] == 0
    # Every check passed: counted, not listed, but for the start position's (a result of the run, not
    # of a position).
    listed = [line for line in lines if line["type"] == "result"]
    assert [line["case"] for line in listed] == ["verify-4-start"]
    tallies = [line for line in lines if line["type"] == "tally"]
    assert [(t["first"], t["last"], t["positions"]) for t in tallies] == [(0, 24, 25)]
    z3 = [entry for entry in tallies[0]["counts"] if entry["question"] == "legal_moves[z3]"]
    assert sum(entry["count"] for entry in z3) == 10
    assert {entry["scope"] for entry in z3} == {"moves"}


def test_the_command_prints_shrunk_disagreements_and_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _parser().parse_args(
        [
            "verify",
            "--engine",
            "mutant:captures-not-compulsory",
            "-n",
            "10",
            "--seed",
            "1",
            "--format",
            "junit",
        ]
    )
    assert args.handler(args) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("<?xml")  # stdout holds only the JUnit XML...
    assert "== disagreement: verify-1-" in captured.err  # ...the disagreements go to stderr
    assert "ready-to-paste case" in captured.err


def test_the_command_reports_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    parser = _parser()
    args = parser.parse_args(["verify", "--engine", "no-such-engine"])
    assert args.handler(args) == 2
    assert "unknown engine spec" in capsys.readouterr().err
    args = parser.parse_args(
        ["verify", "--engine", "oracle", "--report", str(tmp_path / "no" / "dir" / "r.jsonl")]
    )
    assert args.handler(args) == 2
    assert "cannot write the report" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parser.parse_args(["verify", "--engine", "oracle", "-n", "0"])
    with pytest.raises(SystemExit):
        parser.parse_args(["verify", "--engine", "oracle", "--kind", "openings"])


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown position kinds"):
        VerifyOptions(kinds=("openings",))
    with pytest.raises(ValueError, match="z3_timeout_ms"):
        VerifyOptions(z3_timeout_ms=0)
    options = commands.options_from(
        _parser().parse_args(
            ["verify", "--engine", "oracle", "--kind", "chains", "--no-z3", "--z3-timeout", "0.5"]
        )
    )
    assert options.kinds == ("chains",)
    assert not options.z3
    assert options.z3_timeout_ms == 500


def test_a_strict_engine_refusing_lone_side_positions_passes_verify_without_errors() -> None:
    """Issue 10: generated positions are positions a game can reach, so a strict engine (Scan
    refuses a position where a side has no pieces) is never asked one."""
    from conformance.engines.adapters.jsonl import JsonlEngine

    fake = ROOT / "tests" / "harness" / "fakes" / "strict_jsonl.py"
    run = verify(
        lambda: JsonlEngine([sys.executable, str(fake)]),
        VerifyOptions(examples=60, seed=11, z3=False),
    )
    assert run.results
    assert {r.status for r in run.results} == {Status.PASS}, [
        (r.case, r.question, r.message) for r in run.results if r.status is not Status.PASS
    ][:3]
