"""Squares follow the game's board over JSON-lines: 1-50 in international draughts, 1 to
boardSize x boardSize / 2 in the game ``start`` names (1-32 on 8x8, 1-72 on Canadian 12x12).

The harness checks an engine's squares against the run's rule set (a square off the board is a
malformed answer, an ``error`` naming the square), and the reference server checks a request's
squares against the game of its ``start``: so the oracle served over JSON-lines plays Canadian.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.main import main
from conformance.core.protocol import EngineError
from conformance.core.rule_sets import rule_set
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.jsonl_messages import (
    board_squares,
    message_validator,
    response_is_valid,
    schema_problem,
)
from conformance.servers.oracle_jsonl import answer, oracle_engine

FAKES = Path(__file__).parent / "fakes"
ORACLE_SERVER = f"jsonl:{sys.executable} -m conformance.servers.oracle_jsonl"


def _moves(*squares: int) -> dict[str, Any]:
    return {"type": "response", "seq": 1, "moves": [{"from": s, "to": 1, "captured": []} for s in squares]}


@pytest.mark.parametrize(("size", "squares"), [(8, 32), (10, 50), (12, 72)])
def test_a_square_is_valid_up_to_the_last_of_the_board_and_no_further(size: int, squares: int) -> None:
    assert board_squares(size) == squares
    validator = message_validator("response", "legal_moves-answer", squares)
    for fast in (True, False):
        ok = (
            response_is_valid("legal_moves-answer", _moves(squares), squares)
            if fast
            else validator.is_valid(_moves(squares))
        )
        off = (
            response_is_valid("legal_moves-answer", _moves(squares + 1), squares)
            if fast
            else validator.is_valid(_moves(squares + 1))
        )
        assert (ok, off) == (True, False)
    problem = schema_problem(validator, _moves(1, squares + 1))
    assert problem == f"moves/1/from: square {squares + 1} is not on the board (squares 1-{squares})"


def test_the_international_range_is_the_schema_file_as_written() -> None:
    assert response_is_valid("legal_moves-answer", _moves(50))
    assert not response_is_valid("legal_moves-answer", _moves(51))
    assert schema_problem(message_validator("response", "legal_moves-answer"), _moves(51)) == (
        "moves/0/from: square 51 is not on the board (squares 1-50)"
    )


def test_the_oracle_served_over_json_lines_is_certified_for_canadian(tmp_path: Path, capsys) -> None:
    report = tmp_path / "canadian.jsonl"
    assert main(["run", ORACLE_SERVER, "--rules", "canadian", "--report", str(report)]) == 0
    assert "CERTIFIED for canadian at rules level" in capsys.readouterr().out
    results = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:-1]]
    assert {r["status"] for r in results} == {"pass"}
    assert any(r["question"] == "legal_moves" and "67" in r["position"] for r in results)  # beyond 50


def test_the_server_reads_a_request_on_the_board_of_its_game() -> None:
    request = {
        "type": "request",
        "seq": 1,
        "op": "format_move",
        "fen": "W:W67:B61",
        "move": {"from": 67, "to": 56, "captured": [61]},
        "notation": "pdn",
    }
    refused = answer(oracle_engine(), request)  # 10x10: squares 56, 61, 67 are off the board
    assert refused["error"].startswith("invalid request: move/")
    assert "is not on the board (squares 1-50)" in refused["error"]
    canadian = oracle_engine()
    canadian.use_rules(rule_set("canadian").object)  # type: ignore[attr-defined]
    assert answer(canadian, request, 72) == {"type": "response", "seq": 1, "text": "67x56"}


def _scripted(reply: dict[str, Any], game: str) -> JsonlEngine:
    command = [
        sys.executable,
        str(FAKES / "scripted.py"),
        "--reply",
        f"legal_moves={json.dumps(reply)}",
        "--minor",
        "2",
        "--rule-sets",
        game,
    ]
    return JsonlEngine(command, rule_set=rule_set(game))


@pytest.mark.parametrize(("game", "square", "last"), [("canadian", 73, 72), ("russian", 33, 32)])
def test_an_engine_naming_a_square_off_the_board_gets_an_error_naming_it(
    game: str, square: int, last: int
) -> None:
    engine = _scripted({"moves": [{"from": square, "to": 1, "captured": []}]}, game)
    try:
        with pytest.raises(EngineError) as raised:
            engine.legal_moves("W:W67:B62")
    finally:
        engine.close()
    assert raised.value.kind == "protocol"
    assert f"moves/0/from: square {square} is not on the board (squares 1-{last})" in str(raised.value)


def test_a_canadian_square_is_read_from_an_engine_playing_canadian() -> None:
    engine = _scripted({"moves": [{"from": 72, "to": 67, "captured": []}]}, "canadian")
    try:
        assert [str(move) for move in engine.legal_moves("W:W72:B1")] == ["72-67"]
    finally:
        engine.close()
