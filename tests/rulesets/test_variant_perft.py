"""Perft from each built-in game's start matches its published count (rulesets/perft.yaml), and a
rules file for a game that is not built in runs perft with no code change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from oracle.perft import perft
from oracle.position import Position
from oracle.ruleset import BUILTIN, builtin

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED: dict[str, Any] = yaml.safe_load((ROOT / "rulesets" / "perft.yaml").read_text(encoding="utf-8"))

#: Deepest depth counted by default; deeper ones are slow-marked. Pool and Russian first differ at
#: depth 8 (a man reaching the far row mid-capture passes in pool, is crowned and goes on in Russian).
DEFAULT_DEPTH = {"international": 6, "brazilian": 7, "canadian": 6, "russian": 8, "pool": 8, "american": 7}
SLOW_DEPTH = {"international": 7, "brazilian": 9, "canadian": 7, "russian": 9, "pool": 9, "american": 9}


def _params(slow: bool) -> list[Any]:
    params = []
    for game in BUILTIN:
        low, high = (DEFAULT_DEPTH[game] + 1, SLOW_DEPTH[game]) if slow else (1, DEFAULT_DEPTH[game])
        for depth in range(low, high + 1):
            marks = [pytest.mark.slow] if slow else []
            params.append(pytest.param(game, depth, marks=marks, id=f"{game}-{depth}"))
    return params


@pytest.mark.parametrize(("game", "depth"), _params(slow=False) + _params(slow=True))
def test_perft_from_the_start_matches_the_published_count(game: str, depth: int) -> None:
    rules = builtin(game)
    start = Position.initial(rules)
    entry = PUBLISHED[game]
    assert start == Position.from_fen(entry["start"]["fen"], rules)
    assert start == Position.from_fen(entry["start"]["pdnFen"], rules)  # the GameType's own FEN
    assert perft(start, depth, rules) == entry["perft"][depth - 1]


# menRows 3, flying kings, maximum capture, crowning stops: no built-in game plays this.
USER_GAME = Path(__file__).resolve().parent / "stopping-eight.yaml"


def _oracle(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "oracle", *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_a_user_rules_file_runs_perft() -> None:
    path = USER_GAME
    answer = _oracle("perft", "--rules", str(path), "start", "6")
    # The game differs from Brazilian draughts only when a man reaches the far row in a capture,
    # which no line of six plies from the start can do (a man needs five steps to get there); so
    # the count is Brazilian's published one.
    assert answer["rules"] == "stopping-eight"
    assert answer["fen"] == Position.initial(builtin("brazilian")).fen()
    assert answer["nodes"] == PUBLISHED["brazilian"]["perft"][5] == 37628
    # And crowning does stop there: White's man 10 jumps 7 onto 3, the far row, where a man that
    # passes (Brazilian) would go on over 8 to 12.
    position = "W:W10:B7,8"
    assert [m["pdn"] for m in _oracle("moves", "--rules", str(path), position)["moves"]] == ["10x3"]
    assert [m["pdn"] for m in _oracle("moves", "--rules", "brazilian", position)["moves"]] == ["10x12"]
    assert _oracle("play", "--rules", str(path), position, "10x3")["fen"] == "B:WK3:B8"


def test_a_start_for_the_wrong_board_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "oracle", "perft", "--rules", "russian", "W:W31-50:B1-20", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: FEN 'W:W31-50:B1-20': '31-50' names square 50, outside 1-32")
