"""The data of rulesets/ (issue 21) is well formed and consistent with itself.

Nothing loads rulesets/ yet; these tests keep it checkable until the rule-set implementation does:
every rule-set file against oracle/rulesets/schema.json, international.yaml against today's rules, every
case file against the corpus schema (with the documented extensions: `rules:` and article ids of
the form `source:number`), every square inside its board, every start position from `menRows`.
They do not compute any expected answer: those are worked by hand (rulesets/README.md).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from oracle.rules import INTERNATIONAL, CaptureChoice, Ending, MidCaptureCrowning

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
BUILT_IN = ROOT / "oracle" / "rulesets"  # the rule-set files and their schema ship with the oracle
GAMES = ("international", "brazilian", "canadian", "russian", "pool", "american")
SWITCHES = (
    "boardSize",
    "menRows",
    "menCaptureBackward",
    "flyingKings",
    "captureChoice",
    "crownMidCapture",
    "repetitionDraw",
    "kingsOnlyDraw",
    "endgameCounts",
)
SQUARE = re.compile(r"\d+")


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _ruleset(game: str) -> dict[str, Any]:
    data: dict[str, Any] = _load(BUILT_IN / f"{game}.yaml")
    return data


def _case_files() -> list[Path]:
    return sorted(p for p in (RULESETS / "cases").glob("*/*.yaml") if p.name != "articles.yaml")


def _squares(fen: str) -> dict[int, tuple[str, bool]]:
    """Square -> (colour, is_king) of a numeric PDN FEN (ranges allowed)."""
    pieces: dict[int, tuple[str, bool]] = {}
    for section in fen.split(":")[1:]:
        colour, items = section[0], section[1:]
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            first, _, last = item.lstrip("K").partition("-")
            for square in range(int(first), int(last or first) + 1):
                pieces[square] = (colour, king)
    return pieces


@pytest.mark.parametrize("game", GAMES)
def test_ruleset_matches_schema_and_cites_every_switch(game: str) -> None:
    schema = json.loads((BUILT_IN / "schema.json").read_text(encoding="utf-8"))
    data = _ruleset(game)
    jsonschema.validate(data, schema)
    assert data["name"] == game
    assert data.get("boardSize", 2 * data["menRows"] + 2) == 2 * data["menRows"] + 2
    given = set(SWITCHES) | ({"firstMove"} if "firstMove" in data else set())
    assert set(data["cite"]) == given, "every switch given names its source"
    source_ids = {source["id"] for source in data["sources"]}
    for switch, citation in data["cite"].items():
        if citation.get("source") is not None:
            assert citation["source"] in source_ids, f"{game}.{switch}: unknown source"
        if citation.get("read") is False:
            assert data[switch] is None, f"{game}.{switch}: a switch whose article was not read must be null"


def test_schema_refuses_a_bad_switch() -> None:
    schema = json.loads((BUILT_IN / "schema.json").read_text(encoding="utf-8"))
    data = _ruleset("russian")
    data["captureChoice"] = "longest"
    with pytest.raises(jsonschema.ValidationError, match="longest"):
        jsonschema.validate(data, schema)


def _ending(text: str) -> Ending:
    strong = text.removesuffix(" v K")
    kings = men = 0
    for part in strong.split("+"):
        if part.endswith("K"):
            kings = int(part[:-1])
        else:
            men = int(part[:-1])
    return Ending(kings, men)


def test_international_is_todays_rules() -> None:
    data = _ruleset("international")
    assert data["menRows"] == INTERNATIONAL.men_rows
    assert data["menCaptureBackward"] == INTERNATIONAL.men_capture_backward
    assert data["flyingKings"] == INTERNATIONAL.flying_kings
    assert CaptureChoice(data["captureChoice"]) is INTERNATIONAL.capture_choice
    assert data["crownMidCapture"] == "passes"
    assert INTERNATIONAL.mid_capture_crowning is MidCaptureCrowning.PASSES
    assert data["repetitionDraw"] == INTERNATIONAL.repetition_draw
    assert data["kingsOnlyDraw"] == INTERNATIONAL.no_progress_moves
    counts = {
        (c["article"], frozenset(map(_ending, c["endings"])), c["movesEach"], c["restartsOnChange"])
        for c in data["endgameCounts"]
    }
    assert counts == {
        (c.article, c.endings, c.moves_each, c.restarts_on_change) for c in INTERNATIONAL.endgame_counts
    }


def _start_fen(data: dict[str, Any]) -> str:
    per_row = data["boardSize"] // 2
    men = data["menRows"] * per_row
    last = data["boardSize"] * per_row
    first = data["gameType"].split(",")[1]
    return f"{first}:W{last - men + 1}-{last}:B1-{men}"


@pytest.mark.parametrize("game", GAMES)
def test_perft_start_is_the_rule_sets_start(game: str) -> None:
    data = _ruleset(game)
    entry = _load(RULESETS / "perft.yaml")[game]
    assert _squares(entry["start"]["fen"]) == _squares(_start_fen(data))
    assert entry["start"]["fen"][0] == _start_fen(data)[0]
    assert entry["start"]["gameType"] == data["gameType"]
    counts = entry["perft"]
    assert len(counts) >= 6
    assert all(b > a > 0 for a, b in itertools.pairwise(counts))


@pytest.mark.parametrize("game", [game for game in GAMES if game != "international"])
def test_perft_cases_copy_perft_yaml(game: str) -> None:
    """The corpus's perft questions are the published series of rulesets/perft.yaml, from its start:
    a series by identity (each of its depths published by identity, or by routes where the two
    countings are published and agree)."""
    entry = _load(RULESETS / "perft.yaml")[game]
    assert entry["counting"] == "identity"
    cases = _load(RULESETS / "cases" / game / "perft.yaml")["cases"]
    assert cases
    for case in cases:
        counts = case["expect"]["perft"]
        assert case["position"] == entry["start"]["fen"]
        assert counts == entry["perft"][: len(counts)]
    assert any("slow" not in case.get("tags", ()) for case in cases)


def _case_schema() -> dict[str, Any]:
    """cases/schema.json with the documented extensions of rulesets/README.md (Q12)."""
    schema: dict[str, Any] = copy.deepcopy(json.loads((ROOT / "cases" / "schema.json").read_text("utf-8")))
    schema["properties"]["rules"] = {"enum": list(GAMES)}
    schema["required"] = [*schema["required"], "rules"]
    article = {"type": "string", "pattern": r"^([a-z][a-z0-9-]*:[A-Za-z0-9.-]+|perft)$"}
    schema["$defs"]["article"] = article
    schema["$defs"]["questions"]["properties"]["outcome"]["properties"]["rule"] = {
        "oneOf": [article, {"type": "null"}]
    }
    return schema


@pytest.mark.parametrize("path", _case_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_file_is_well_formed(path: Path) -> None:
    data = _load(path)
    jsonschema.validate(data, _case_schema())
    game = path.parent.name
    assert data["rules"] == game
    registry = _load(path.parent / "articles.yaml")
    board = _ruleset(game)["boardSize"]
    per_row, squares = board // 2, board * board // 2
    for case in data["cases"]:
        assert case["id"].startswith(f"{game}-")
        assert case.get("article", data["article"]) in registry["articles"]
        rule = case["expect"].get("outcome", {}).get("rule")
        assert rule is None or rule in registry["articles"], f"{case['id']}: outcome names unknown {rule}"
        for rule in case.get("requires", data.get("requires", [])):
            assert rule in registry["articles"], f"{case['id']}: requires unknown {rule}"
        positions = [case["position"]] + [a["position"] for a in case["expect"].get("after", [])]
        for fen in positions:
            for square, (colour, king) in _squares(fen).items():
                assert 1 <= square <= squares, f"{case['id']}: square {square} off the {board}x{board} board"
                if not king:
                    far_row = (
                        range(1, per_row + 1) if colour == "W" else range(squares - per_row + 1, squares + 1)
                    )
                    assert square not in far_row, f"{case['id']}: a man on its crowning row in {fen}"
        texts = case["expect"].get("legal_moves", []) + case["expect"].get("outcome", {}).get("moves", [])
        for text in texts:
            assert all(1 <= int(n) <= squares for n in SQUARE.findall(text)), f"{case['id']}: {text}"


def test_case_ids_are_unique_and_apart_from_the_corpus() -> None:
    corpus_ids = {
        case["id"]
        for path in (ROOT / "cases").rglob("*.yaml")
        for case in (_load(path) or {}).get("cases", [])
    }
    ids = [case["id"] for path in _case_files() for case in _load(path)["cases"]]
    assert len(ids) == len(set(ids))
    assert not set(ids) & corpus_ids


def test_every_differing_switch_has_eight_cases() -> None:
    """The issue's minimum, counted per case file (one file per switch, README table)."""
    for path in _case_files():
        if path.name.startswith("rules-of-play-5"):
            continue  # pool's crowning equals international's: its cases show the free-choice combination
        if path.name == "perft.yaml":
            continue  # the published perft of the start: no switch of its own
        assert len(_load(path)["cases"]) >= 8, path.name
