"""Certificate by scope: a rule is certified for the kinds of question it was asked, and the run's
level follows from the scopes certified; ``--require RULE[:SCOPE]``; one vocabulary in ``run`` and
``verify``."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from support import run_cli

from conformance.core.certificate import ExitStatus, Standing, certify
from conformance.core.protocol import Capability
from conformance.core.results import Result, Status
from conformance.core.scopes import Requirement, RequirementError, Scope, scope_of

ORACLE_HUB = f"hub:{sys.executable} -m conformance.servers.oracle_hub"


def result(case: str, article: str, question: str, status: Status) -> Result:
    return Result(case=case, question=question, article=article, status=status)


# -- the model -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "capabilities", "scope"),
    [
        ("legal_moves", None, Scope.MOVES),
        ("move_count", None, Scope.MOVES),
        ("perft", None, Scope.MOVES),
        ("fen", None, Scope.POSITIONS),
        ("initial_position", None, Scope.POSITIONS),
        ("move_text[3]", None, Scope.NOTATION),
        ("notation[0]", None, Scope.NOTATION),
        ("after[1]", None, Scope.GAMES),
        ("outcome", None, Scope.GAMES),
        ("legal_moves[z3]", None, Scope.MOVES),  # verify's checks
        ("symmetry", None, Scope.MOVES),
        ("outcome[draws]", None, Scope.GAMES),
        ("choose_move[oracle]", None, Scope.MOVE_CHOICE),
        # a move-choice engine is asked the legal-move questions through choose_move
        ("legal_moves", frozenset({Capability.CHOOSE_MOVE}), Scope.MOVE_CHOICE),
        ("legal_moves", frozenset({Capability.CHOOSE_MOVE, Capability.LEGAL_MOVES}), Scope.MOVES),
        ("move_count", frozenset({Capability.CHOOSE_MOVE}), Scope.MOVES),
        ("something-new", None, Scope.OTHER),
    ],
)
def test_each_question_falls_in_the_scope_of_what_it_asks(
    question: str, capabilities: frozenset[Capability] | None, scope: Scope
) -> None:
    assert scope_of(question, capabilities) is scope


def test_an_unsupported_question_never_counts_and_a_declined_one_leaves_its_scope_partly_covered() -> None:
    certificate = certify(
        [
            result("a", "4.1", "legal_moves", Status.PASS),
            result("a", "4.1", "move_text[0]", Status.UNSUPPORTED),
            result("b", "4.2", "legal_moves", Status.PASS),
            result("b", "4.2", "move_count", Status.SKIP),
            result("b", "4.2", "notation[0]", Status.UNSUPPORTED),
            result("c", "4.3", "outcome", Status.UNSUPPORTED),
        ]
    )
    rows = {row.key: row for row in certificate.rows}
    assert rows["4.1"].standing is Standing.CERTIFIED
    assert rows["4.1"].scope_text() == "certified for moves; not covered for notation"
    assert rows["4.2"].standing_for(Scope.MOVES) is Standing.PARTLY_COVERED  # one declined
    assert rows["4.2"].standing is Standing.PARTLY_COVERED
    assert rows["4.3"].standing is Standing.NOT_COVERED  # never asked anything
    assert certificate.level == "rules"
    assert certificate.scope_counts() == {Scope.MOVES: (1, 2)}  # rules certified for moves / asked in it
    assert certificate.exit_status is ExitStatus.CERTIFIED


def test_the_level_follows_from_the_scopes_certified() -> None:
    chosen = [result("a", "4.13", "legal_moves", Status.PASS), result("a", "4.13", "fen", Status.UNSUPPORTED)]
    hub = certify(chosen, engine_level="move-choice")  # a report without capabilities: level says it
    assert hub.level == "move-choice"
    assert hub.rows[0].certified_for() == (Scope.MOVE_CHOICE,)
    assert hub.summary().startswith(
        "CERTIFIED at move-choice level: rules 1 certified; rules certified for: "
    )
    assert certify(chosen, capabilities=frozenset({Capability.LEGAL_MOVES})).level == "rules"
    declined = [result("a", "4.13", "legal_moves", Status.SKIP)]
    assert certify(declined, engine_level="move-choice").level == "none"


RESULTS = [
    result("a", "4.13", "legal_moves", Status.PASS),
    result("a", "4.13", "move_text[0]", Status.UNSUPPORTED),
    result("b", "4.13", "outcome", Status.SKIP),
    result("c", "4.14", "legal_moves", Status.PASS),
    result("d", "6.1", "outcome", Status.PASS),
]


@pytest.mark.parametrize(
    ("required", "missing"),
    [
        (("4.13:moves",), ()),
        (("4.13",), ("4.13",)),  # declined in games: not certified in every scope it was asked in
        (("4.13:games",), ("4.13:games",)),
        (("4.13:notation",), ("4.13:notation",)),  # never asked: not covered
        (("4.14",), ()),
        (("4:moves",), ()),
        (("4.14:games",), ("4.14:games",)),  # 4.14 has no games question
        (("all",), ("4.13",)),
        (("all:moves",), ()),
        (("all:games",), ("4.13:games",)),
        (("all:move-choice",), ("all:move-choice",)),
        (("6.1:games", "4.14:moves"), ()),
    ],
)
def test_a_requirement_names_a_rule_and_optionally_a_scope(
    required: tuple[str, ...], missing: tuple[str, ...]
) -> None:
    certificate = certify(RESULTS, required=required)
    assert certificate.missing_required == missing
    assert certificate.exit_status is (ExitStatus.NOT_CERTIFIED if missing else ExitStatus.CERTIFIED)


def test_an_unknown_scope_is_a_clear_error() -> None:
    assert Requirement.parse("4.13:moves") == Requirement("4.13", Scope.MOVES)
    assert str(Requirement.parse("all:move-choice")) == "all:move-choice"
    with pytest.raises(RequirementError, match="unknown scope 'move'; the scopes are moves, positions"):
        Requirement.parse("4.13:move")
    with pytest.raises(RequirementError, match="unknown scope 'other'"):
        Requirement.parse("all:other")  # only for reports of other versions, never required


@pytest.mark.parametrize("command", [["run", "oracle"], ["verify", "--engine", "oracle", "-n", "1"]])
def test_an_unknown_scope_on_the_command_line_is_one_usage_line(command: list[str]) -> None:
    done = run_cli(*command, "--require", "4.13:notaton")
    assert done.returncode == ExitStatus.USAGE
    (line,) = done.stderr.strip().splitlines()[-1:]
    assert "unknown scope 'notaton'; the scopes are moves, positions, notation, games, move-choice" in line
    assert "Traceback" not in done.stderr


# -- real engines through run and verify -------------------------------------------------------------


def headline(markdown: str) -> str:
    """The bold headline of a Markdown report."""
    (line,) = [line for line in markdown.splitlines() if line.startswith("**")][:1]
    return line.strip("* ")


def test_the_projects_hub_server_is_certified_at_move_choice_level_by_run_and_verify(tmp_path: Path) -> None:
    report = tmp_path / "hub.jsonl"
    ran = run_cli("run", ORACLE_HUB, "--no-progress", "--format", "markdown", "--report", str(report))
    assert ran.returncode == ExitStatus.CERTIFIED, ran.stdout + ran.stderr
    words = re.compile(
        r"oracle 0\.1\.0: CERTIFIED at move-choice level: rules (\d+) certified, \d+ not covered; "
        r"rules certified for: move-choice (\d+)/(\d+); (\d+)/\d+ questions pass"
    )
    found = words.match(headline(ran.stdout))
    assert found, headline(ran.stdout)
    assert found[1] == found[2] == found[3] != "0"
    footer = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    assert footer["certificate"]["level"] == "move-choice"
    assert footer["certificate"]["scopes"] == {
        "move-choice": {"certified": int(found[1]), "asked": int(found[1])}
    }
    badge = json.loads(run_cli("render", str(report), "--format", "badge").stdout)
    assert badge["message"].startswith("move-choice certified ")
    junit = run_cli("render", str(report), "--format", "junit").stdout
    assert (
        '<property name="by scope" value="certified for move-choice; not covered for notation, games" />'
        in junit
    )
    assert "CERTIFIED at move-choice level" in junit  # the same headline in system-out
    checked = run_cli(
        "verify", "--engine", ORACLE_HUB, "-n", "12", "--seed", "3", "--no-progress", "--format", "markdown"
    )
    assert checked.returncode == ExitStatus.CERTIFIED, checked.stdout + checked.stderr
    assert words.match(headline(checked.stdout)), headline(
        checked.stdout
    )  # the same verdict in the same words
    required = run_cli("run", ORACLE_HUB, "--no-progress", "--require", "all:move-choice", "4.13")
    assert required.returncode == ExitStatus.CERTIFIED, required.stdout[-500:]
    strict = run_cli("run", ORACLE_HUB, "--no-progress", "--require", "4.13:moves")
    assert strict.returncode == ExitStatus.NOT_CERTIFIED
    assert "required but not certified: 4.13:moves" in strict.stdout


MOVE_GENERATOR = """
from conformance.engines.oracle_engine import OracleEngine
from conformance.core.protocol import Capability, EngineInfo


class Engine(OracleEngine):
    \"\"\"A correct move generator: legal moves, move counts and perft, no notation, no games.\"\"\"

    @property
    def info(self):
        moves = frozenset({Capability.LEGAL_MOVES, Capability.MOVE_COUNT, Capability.PERFT})
        return EngineInfo("move-generator", "1", moves, "in-process")
"""


def test_a_move_generator_without_notation_certifies_4_1_and_4_2_for_moves(tmp_path: Path) -> None:
    (tmp_path / "movegen.py").write_text(MOVE_GENERATOR, encoding="utf-8")
    report = tmp_path / "movegen.jsonl"
    done = run_cli(
        "run", "python:movegen:Engine", "--no-progress", "--report", str(report), "--require", "4.1:moves", "4.2:moves", "all:moves",
        path=tmp_path,
    )  # fmt: skip
    assert done.returncode == ExitStatus.CERTIFIED, done.stdout[-2000:] + done.stderr
    rules = {
        row["rule"]: row for row in json.loads(report.read_text().splitlines()[-1])["certificate"]["rules"]
    }
    for article in ("4.1", "4.2"):
        scopes = rules[article]["scopes"]
        assert scopes["moves"]["standing"] == "certified"
        assert scopes["moves"]["passed"] == scopes["moves"]["questions"] > 0
        assert scopes["notation"]["standing"] == "not covered"
        assert scopes["notation"]["unsupported"] == scopes["notation"]["questions"] > 0
        assert rules[article]["standing"] == "certified"
    markdown = run_cli("render", str(report), "--format", "markdown").stdout
    (row,) = [line for line in markdown.splitlines() if line.startswith("| 4.1 |")]
    assert "| certified | certified for moves; not covered for notation" in row
    notation = run_cli(
        "run",
        "python:movegen:Engine",
        "--no-progress",
        "--article",
        "4.1",
        "--require",
        "4.1:notation",
        path=tmp_path,
    )
    assert notation.returncode == ExitStatus.NOT_CERTIFIED
    assert "required but not certified: 4.1:notation" in notation.stdout
