"""Every hand-worked case of rulesets/cases/, checked against the oracle under its own rule set.

The expected answers were worked out by hand from each game's rulebook (rulesets/README.md); this
file only reads them and asks the oracle the same questions: the legal moves, the position after
moves, how a move text reads, the initial position and the outcome of a line of play.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from oracle.errors import AmbiguousMoveError, IllegalMoveError, MoveError
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, parse_move
from oracle.position import Position
from oracle.rules import Rules
from oracle.ruleset import builtin

CASES = Path(__file__).resolve().parents[2] / "rulesets" / "cases"


def _cases() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*/*.yaml")):
        if path.name in ("articles.yaml", "perft.yaml"):
            continue  # perft.yaml: rulesets/perft.yaml's series (test_rulesets_data), counted in test_variant_perft
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params.append(pytest.param(data["rules"], case, id=case["id"]))
    return params


def _text(move: Move) -> str:
    """A move as the cases write it: ``9-13``, ``11x2 {7}``."""
    if not move.captured:
        return f"{move.from_square}-{move.to_square}"
    return f"{move.from_square}x{move.to_square} {{{','.join(map(str, sorted(move.captured)))}}}"


def _play_line(position: Position, texts: list[str], rules: Rules) -> Position:
    for text in texts:
        position = play(position, parse_move(position, text, Notation.PDN, rules), rules)
    return position


@pytest.mark.parametrize(("game", "case"), _cases())
def test_variant_case(game: str, case: dict[str, Any]) -> None:
    rules = builtin(game)
    position = Position.from_fen(case["position"], rules)
    expect = case["expect"]
    checked = 0
    if "legal_moves" in expect:
        moves = [_text(move) for move in legal_moves(position, rules)]
        assert len(moves) == len(set(moves)), "each legal move once"
        assert sorted(moves) == sorted(expect["legal_moves"])
        checked += 1
    for line in expect.get("after", []):
        after = _play_line(position, line["moves"], rules)
        assert after == Position.from_fen(line["position"], rules), line["moves"]
        checked += 1
    for item in expect.get("move_texts", []):
        notation = Notation(item["notation"])
        verdict = item["verdict"]
        if verdict == "legal":
            assert _text(parse_move(position, item["text"], notation, rules)) == item["move"]
        else:
            error = {"illegal": IllegalMoveError, "ambiguous": AmbiguousMoveError}.get(verdict, MoveError)
            with pytest.raises(error):
                parse_move(position, item["text"], notation, rules)
        checked += 1
    if "initial_position" in expect:
        assert Position.initial(rules) == Position.from_fen(expect["initial_position"], rules)
        checked += 1
    if "outcome" in expect:
        wanted = expect["outcome"]
        game_record = Game(position, rules=rules)
        for text in wanted["moves"]:
            game_record.play(text)
        outcome = game_record.outcome()
        assert outcome.result.value == wanted["result"]
        if "rule" in wanted:
            assert (outcome.rule, outcome.ply) == (wanted["rule"], wanted["ply"])
        checked += 1
    assert checked, "the case asks something"
