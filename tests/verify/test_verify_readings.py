"""``draughts-conformance verify --kind readings``: the games telling readings of Art. 6 apart, on the
command line -- a mode of its own (no engine, no positions), with clear errors for the options
that do not apply, and the same output as ``python -m conformance.verify.draw_model readings``.

The default run synthesises quick readings only; ``--run-slow`` every reading through the CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main
from conformance.verify import draw_model
from conformance.verify.draw_readings import READINGS
from oracle.game import Game
from oracle.position import Position

QUICK = ("repetition-on-second", "6.4-four-moves")


def _game_lines(out: str) -> dict[str, tuple[str, list[str], str]]:
    """Per reading: the FEN, the moves and the outcome line printed for it."""
    lines = out.splitlines()
    found = {}
    for index, line in enumerate(lines):
        name, sep, rest = line.partition(": ")
        if sep and name in READINGS and " plies: " in rest:
            fen = rest.split(", ")[0].split(" counters ")[0]
            moves = rest.split(" plies: ")[1].split()
            found[name] = (fen, moves, lines[index + 1].rsplit("  [", 1)[0])  # without the time
    return found


def test_readings_print_each_game_both_outcomes_and_the_confirmation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", "--kind", "readings", *QUICK]) == 0
    out = capsys.readouterr().out
    games = _game_lines(out)
    assert set(games) == set(QUICK)
    for name, (fen, moves, outcomes) in games.items():
        assert outcomes.startswith(f"  project: ongoing; {name}: draw (")
        game = Game(Position.from_fen(fen))  # the printed game is one the oracle plays through
        for text in moves:
            game.play(text)
        assert not game.is_over  # the project's reading: still going on, as printed
    assert out.count("confirmed: replayed with the oracle under both readings") == len(QUICK)
    assert out.rstrip().endswith(f"{len(QUICK)} of {len(QUICK)} told apart by a confirmed game")


def test_yaml_and_write_cases_propose_cases_with_the_outcome_left_to_work_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verify", "--kind", "readings", "--steps-only", "--yaml", "--write-cases", str(tmp_path)]
    assert main([*argv, "6.4-four-moves"]) == 0
    out = capsys.readouterr().out
    printed = yaml.safe_load(out[out.index("  # Synthesised") : out.index("  proposed case written")])
    written = yaml.safe_load((tmp_path / "6.4-four-moves-steps.yaml").read_text(encoding="utf-8"))
    assert written["cases"] == printed
    case = printed[0]
    assert case["article"] == "6.4"
    assert case["expect"]["outcome"]["result"] == "TODO"
    assert "--steps-only 6.4-four-moves`, seed 0" in case["source"]
    assert case["position"] == _game_lines(out)["6.4-four-moves"][0]


def test_the_draw_model_command_delegates_to_the_same_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--kind", "readings", "repetition-on-second"]) == 0
    via_verify = _game_lines(capsys.readouterr().out)
    assert draw_model.main(["readings", "repetition-on-second"]) == 0
    via_model = _game_lines(capsys.readouterr().out)
    assert via_verify == via_model


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--kind", "readings", "--engine", "oracle"], "--engine: meaningless with --kind readings"),
        (["--kind", "readings", "-n", "50", "--plies", "90"], "--examples, --plies: meaningless"),
        (["--kind", "readings", "--exhaustive"], "--exhaustive: meaningless with --kind readings"),
        (["--kind", "readings", "no-such-reading"], "no reading 'no-such-reading'; known: repetition-on"),
        (["--engine", "oracle", "--steps-only"], "--steps-only: only with --kind readings"),
        (["--engine", "oracle", "repetition-off"], "NAME: only with --kind readings"),
        (["--engine", "oracle", "--kind", "chains", "--yaml"], "--yaml: only with --kind readings"),
        (["-n", "3"], "no engine: give --engine SPEC on the command line"),
    ],
)
def test_options_of_the_other_mode_are_refused_by_name(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "told apart" not in captured.out


def test_an_unwritable_case_directory_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    assert main(["verify", "--kind", "readings", "--write-cases", str(blocker / "sub"), *QUICK]) == 2
    assert f"cannot write cases into {blocker / 'sub'}" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("steps", [False, True], ids=["flying", "steps-only"])
def test_every_reading_through_the_command_line(steps: bool, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.verify.test_draw_synthesis import NO_STEPS_GAME

    status = main(["verify", "--kind", "readings", *(["--steps-only"] if steps else [])])
    out = capsys.readouterr().out
    games = _game_lines(out)
    missing = set(NO_STEPS_GAME) if steps else set()
    assert set(games) == set(READINGS) - missing
    assert status == (1 if missing else 0)
    for name in missing:
        assert f"{name}: NOT FOUND" in out
