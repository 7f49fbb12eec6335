"""``bisect --rules NAME``: the search plays the rule set's own game, from its own start position,
against an engine started for it; an engine that does not declare the game is refused."""

from __future__ import annotations

import dataclasses

from conformance.bisect.describe import describe
from conformance.bisect.search import bisect
from conformance.cli.main import main
from conformance.engines.oracle_engine import OracleEngine
from oracle.rules import CaptureChoice
from oracle.ruleset import builtin


def test_bisect_finds_maximum_capture_played_in_russian_draughts() -> None:
    """An engine taking the most pieces, as FMJD 4.13 says, on the Russian board: the first line
    where its legal moves differ lacks the free choice of fsr 1.5.14 (a capture taking fewer)."""
    russian = builtin("russian")
    engine = OracleEngine(dataclasses.replace(russian, capture_choice=CaptureChoice.MAXIMUM))
    bisection = bisect(engine, depth=9, rules=russian)
    difference = bisection.difference
    assert difference is not None
    assert bisection.root.fen() == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert difference.missing  # the captures taking fewer pieces
    assert not difference.extra
    assert all(move.captured for move in difference.missing)
    text = describe(bisection, "maximum-capture")
    assert "no ready-to-paste case in russian: write it in rulesets/cases/russian/" in text
    assert " 1-4 " in text  # the 8x8 board drawn
    assert "46-50" not in text


def test_bisect_agrees_with_the_oracle_of_the_same_game() -> None:
    american = builtin("american")
    bisection = bisect(OracleEngine(american), depth=5, rules=american)
    assert bisection.difference is None
    assert bisection.perft == ((2, 49, 49), (3, 302, 302), (4, 1469, 1469), (5, 7361, 7361))


def test_bisect_refuses_an_engine_that_does_not_play_the_game(capsys) -> None:
    assert main(["bisect", "mutant:free-capture-choice", "--rules", "russian", "-q"]) == 2
    assert (
        "the engine does not play russian (it declares brazilian, canadian, international)"
        in capsys.readouterr().err
    )


def test_bisect_refuses_an_unknown_rule_set(capsys) -> None:
    assert main(["bisect", "oracle", "--rules", "checkers", "-q"]) == 2
    assert "no such built-in rule set" in capsys.readouterr().err
