"""Rule sets as data (issue 21): the built-in files, the loader and its one-line errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from oracle.errors import RulesError
from oracle.rules import INTERNATIONAL, CaptureChoice, FirstMove, MidCaptureCrowning, Rules
from oracle.ruleset import BUILTIN, builtin, describe, load_rules, rules_from_data, rules_from_text

#: menRows 3, flying kings, maximum capture, crowning stops: a game that is not built in.
USER_GAME = Path(__file__).resolve().parents[1] / "rulesets" / "stopping-eight.yaml"


def _valid() -> dict[str, object]:
    data: dict[str, object] = json.loads(json.dumps(describe(INTERNATIONAL)))
    return data


def test_the_international_file_is_exactly_todays_rules() -> None:
    loaded = builtin("international")
    assert loaded == INTERNATIONAL
    # Equality leaves the names out; every field is compared here, names included.
    for field in dataclasses.fields(Rules):
        if field.name != "geometry":
            assert getattr(loaded, field.name) == getattr(INTERNATIONAL, field.name), field.name


@pytest.mark.parametrize(
    ("name", "size", "first", "choice", "crowning", "backward", "flying"),
    [
        ("brazilian", 8, FirstMove.WHITE, CaptureChoice.MAXIMUM, MidCaptureCrowning.PASSES, True, True),
        ("canadian", 12, FirstMove.WHITE, CaptureChoice.MAXIMUM, MidCaptureCrowning.PASSES, True, True),
        ("russian", 8, FirstMove.WHITE, CaptureChoice.FREE, MidCaptureCrowning.CONTINUES, True, True),
        ("pool", 8, FirstMove.BLACK, CaptureChoice.FREE, MidCaptureCrowning.PASSES, True, True),
        ("american", 8, FirstMove.BLACK, CaptureChoice.FREE, MidCaptureCrowning.STOPS, False, False),
    ],
)
def test_builtin_switches(
    name: str,
    size: int,
    first: FirstMove,
    choice: CaptureChoice,
    crowning: MidCaptureCrowning,
    backward: bool,
    flying: bool,
) -> None:
    rules = load_rules(name)
    assert (rules.name, rules.board_size, rules.first_move) == (name, size, first)
    assert (rules.capture_choice, rules.mid_capture_crowning) == (choice, crowning)
    assert (rules.men_capture_backward, rules.flying_kings) == (backward, flying)
    assert rules.geometry.size == size


def test_null_draw_switches_are_unsettled_never_no_rule() -> None:
    pool = builtin("pool")
    assert pool.unsettled == {"repetitionDraw", "kingsOnlyDraw", "endgameCounts"}
    american = builtin("american")
    assert american.unsettled == frozenset()
    assert (american.repetition_draw, american.no_progress_moves, american.endgame_counts) == (3, 40, ())
    russian = builtin("russian")
    # An outcome names the game's own articles, qualified by their source (rulesets/README.md Q12).
    assert {count.article: count.plies for count in russian.endgame_counts} == {
        "fmjd64:7.2.4": 30,
        "fmjd64:7.2.8": 10,
    }
    assert (russian.articles.repetition, russian.articles.kings_only) == ("fmjd64:7.2.3", "fmjd64:7.2.5")
    assert (american.articles.repetition, american.articles.kings_only) == ("acf:1.32.1", "acf:1.32.2")
    # restartsOnChange null: read as FMJD's silent 6.3/6.4 are (reading endgame-no-restart)
    assert not any(count.restarts_on_change for count in russian.endgame_counts)


def test_a_user_file_for_a_game_not_built_in(tmp_path: Path) -> None:
    rules = load_rules(str(USER_GAME))
    assert rules.board_size == 8  # 2 x menRows + 2
    assert rules.mid_capture_crowning is MidCaptureCrowning.STOPS
    assert rules.name == "stopping-eight"
    json_path = tmp_path / "mine.json"
    json_path.write_text(json.dumps(describe(rules)), encoding="utf-8")
    assert load_rules(json_path) == rules


def test_describe_reads_back() -> None:
    for name in BUILTIN:
        rules = builtin(name)
        assert rules_from_data(describe(rules)) == rules


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"captureChoice": "most"}, r"^mine.yaml: captureChoice: 'most' is not one of maximum, free$"),
        ({"menRows": 0}, r"^mine.yaml: menRows: 0 is less than the minimum of 1$"),
        ({"boardSize": 9}, r"^mine.yaml: boardSize: 9 is not a multiple of 2$"),
        ({"boardSize": 6, "menRows": 3}, r"^mine.yaml: menRows must be 1-2 on a 6x6 board"),
        ({"kingsOnlyDraw": "25"}, r"^mine.yaml: kingsOnlyDraw: '25' is not of type 'integer', 'null'$"),
        ({"flyingKings": None}, r"^mine.yaml: flyingKings: None is not of type 'boolean'$"),
        ({"colour": "red"}, r"^mine.yaml: \(top level\): Additional properties .*'colour'"),
        ({"gameType": "21,B,8,8,N1,0", "firstMove": "white"}, r"^mine.yaml: firstMove: white, but gameType"),
        (
            {
                "endgameCounts": [
                    {"article": "x", "endings": ["2K v K"], "movesEach": 0, "restartsOnChange": None}
                ]
            },
            r"^mine.yaml: endgameCounts\[0\].movesEach: 0 is less than the minimum of 1$",
        ),
    ],
)
def test_errors_are_one_line_naming_the_field(change: dict[str, object], message: str) -> None:
    data = _valid() | change
    with pytest.raises(RulesError, match=message) as caught:
        rules_from_data(data, "mine.yaml")
    assert "\n" not in str(caught.value)


def test_a_missing_switch_is_named() -> None:
    data = _valid()
    del data["crownMidCapture"]
    with pytest.raises(RulesError, match=r"^mine.yaml: crownMidCapture: missing"):
        rules_from_data(data, "mine.yaml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2", r"^f.yaml: not YAML or JSON at line 1"),
        ("- 1\n- 2\n", r"^f.yaml: a rule set is a mapping of switches"),
    ],
)
def test_text_that_is_no_rule_set(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_text(text, "f.yaml")


def test_unknown_name_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"no such built-in rule set .*international, brazilian"):
        load_rules("checkers")
    with pytest.raises(RulesError, match="cannot read the rules file"):
        load_rules(str(tmp_path / "absent.yaml"))
    with pytest.raises(RulesError, match="not a regular file"):
        load_rules(tmp_path)


def test_geometry_travels_with_pickled_rules() -> None:
    import pickle

    rules = builtin("canadian")
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules
    assert again.geometry is rules.geometry  # one table set per board size


def test_rules_hash_alike_when_they_play_alike_and_in_another_process() -> None:
    """The hash is computed once; a rule set sent to a worker keys its caches like a fresh one."""
    import os
    import pickle
    import subprocess
    import sys

    renamed = dataclasses.replace(INTERNATIONAL, name="mine", title="Mine")
    assert hash(renamed) == hash(INTERNATIONAL)
    assert hash(dataclasses.replace(INTERNATIONAL, flying_kings=False)) != hash(INTERNATIONAL)
    script = (
        "import pickle, sys\n"
        "from oracle.ruleset import builtin\n"
        "sent = pickle.loads(sys.stdin.buffer.read())\n"
        "print({builtin('canadian'): 'found'}.get(sent, 'missing'), sent.name)\n"
    )
    for seed in ("1", "2"):  # strings, and so enums, hash otherwise under another seed
        done = subprocess.run(
            [sys.executable, "-c", script],
            input=pickle.dumps(builtin("canadian")),
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        assert done.stdout.decode().split() == ["found", "canadian"]
