"""bisect's search and its command: counts that cancel out, engines without legal_moves, a wrong
``play`` behind a wrong perft, engines that break, the case it writes, and ``run`` pointing to it."""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from conformance.bisect import BisectError, EngineProblem, bisect, bisect_command, case_rule, case_yaml
from conformance.cli.main import main
from conformance.core.corpus import CORPUS_ROOT, load_corpus
from conformance.core.move_rules import move_rule
from conformance.core.protocol import BaseEngine, Capability, EngineDeclined, EngineInfo, MoveSpec
from conformance.engines.mutants import MUTANTS
from conformance.engines.oracle_engine import OracleEngine
from conformance.report.hints import engine_spec_of
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, parse_move
from oracle.position import Color, Kind, Position

KINGS_MIDDLEGAME = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"


class CountsOnly(BaseEngine):
    """A mutant seen through ``perft`` and ``play`` only (no legal_moves, no move_count)."""

    def __init__(self, name: str) -> None:
        self.inner = MUTANTS[name]()

    @property
    def info(self) -> EngineInfo:
        return EngineInfo("counts-only", "1", frozenset({Capability.PERFT, Capability.PLAY}), "in-process")

    def perft(self, fen: str, depth: int) -> int:
        return self.inner.perft(fen, depth)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        return self.inner.play(fen, moves)


def _keeps_captured(position: Position, move: Move) -> Position:
    """The position after ``move``, but with the captured pieces still on the board."""
    after = play(position, move)

    def items(color: Color) -> str:
        men, kings = set(after.squares(color, Kind.MAN)), set(after.squares(color, Kind.KING))
        if color is position.turn.opponent:
            for square in move.captured:
                piece = position.piece_at(square)
                (kings if piece is not None and piece.kind is Kind.KING else men).add(square)
        return ",".join([*map(str, sorted(men)), *(f"K{square}" for square in sorted(kings))])

    turn = "W" if after.turn is Color.WHITE else "B"
    return Position.from_fen(f"{turn}:W{items(Color.WHITE)}:B{items(Color.BLACK)}")


class KeepsCaptured(OracleEngine):
    """Right legal moves, but its ``play`` (and so its perft) leaves captured pieces on the board."""

    def __init__(self) -> None:
        super().__init__(name="keeps-captured")

    def play(self, fen: str, moves: Sequence[str]) -> str:
        position = Position.from_fen(fen)
        for text in moves:
            position = _keeps_captured(position, parse_move(position, text, Notation.PDN))
        return position.fen()

    def perft(self, fen: str, depth: int) -> int:
        def count(position: Position, depth: int) -> int:
            moves = legal_moves(position)
            if depth == 1:
                return len(moves)
            return sum(count(_keeps_captured(position, move), depth - 1) for move in moves)

        return count(Position.from_fen(fen), depth)


class Broken(OracleEngine):
    """Raises from legal_moves after a few answers."""

    def __init__(self) -> None:
        super().__init__(name="broken")
        self.calls = 0

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        self.calls += 1
        if self.calls > 3:
            raise ZeroDivisionError("the move generator divided by zero")
        return super().legal_moves(fen)

    def perft(self, fen: str, depth: int) -> int:
        raise EngineDeclined("no perft")


class ChoosesOnly(BaseEngine):
    @property
    def info(self) -> EngineInfo:
        return EngineInfo("chooser", "1", frozenset({Capability.CHOOSE_MOVE}), "hub:chooser", "move-choice")


def test_the_oracle_differs_from_itself_nowhere() -> None:
    found = bisect(OracleEngine(), depth=4)
    assert found.difference is None
    assert not found.found
    assert [(d, e) for d, e, o in found.perft if e != o] == []


def test_counts_that_cancel_out_do_not_hide_a_shorter_line() -> None:
    """men-capture-forward-only: perft agrees at some depth although a position that many plies
    minus one from the start already differs; bisect reports that shorter line."""
    found = bisect(MUTANTS["men-capture-forward-only"]())
    assert found.difference is not None
    plies = found.difference.plies
    agreeing = {d for d, e, o in found.perft if e == o}
    assert plies + 1 in agreeing  # perft alone would have pointed one ply deeper
    assert any("cancelled out" in note for note in found.notes)


def test_an_engine_without_legal_moves_is_compared_by_counts_and_its_refusals() -> None:
    found = bisect(CountsOnly("men-capture-forward-only"))
    difference = found.difference
    assert difference is not None
    assert difference.compared == "perft(1)"
    assert difference.engine_count != difference.oracle_count
    # The refused legal moves are the ones the mutant does not generate, a backward capture among them.
    mutant = MUTANTS["men-capture-forward-only"]()
    legal = {MoveSpec(m.from_square, m.to_square, m.captured): m for m in legal_moves(difference.position)}
    assert set(difference.missing) == legal.keys() - set(mutant.legal_moves(difference.position.fen()))
    assert any(move_rule(difference.position, legal[m]).article == "4.1" for m in difference.missing)


def test_a_wrong_play_behind_a_wrong_perft_is_found_with_the_engines_play() -> None:
    found = bisect(KeepsCaptured(), depth=5)
    difference = found.difference
    assert difference is not None, found
    assert difference.compared == "play"
    move = difference.played
    assert move is not None
    assert move.captured
    assert difference.engine_after is not None
    engine_after = Position.from_fen(difference.engine_after)
    assert engine_after != play(difference.position, move)
    assert all(engine_after.piece_at(square) is not None for square in move.captured)
    # the pieces it took are still there: Art. 4.11 (they leave the board when the capture is over)
    assert case_rule(difference)[0] == "4.11"
    assert "after:" in case_yaml(difference, "python:x:KeepsCaptured")


def test_bad_questions_are_refused_with_a_clear_error() -> None:
    with pytest.raises(BisectError, match="W:W99"):
        bisect(OracleEngine(), "W:W99:B1")
    with pytest.raises(BisectError, match="at least 1"):
        bisect(OracleEngine(), depth=0)
    with pytest.raises(BisectError, match="legal_moves, move_count or perft"):
        bisect(ChoosesOnly())


def test_an_engine_that_breaks_is_reported_with_the_position() -> None:
    with pytest.raises(EngineProblem, match=r"legal_moves on [WB]:.*ZeroDivisionError: the move generator"):
        bisect(Broken(), depth=3)


def test_the_command_prints_the_line_the_board_the_moves_and_a_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["bisect", "mutant:captures-not-compulsory", "-q"])
    out = capsys.readouterr().out
    assert status == 1
    assert "first difference after" in out
    assert "extra (the engine lists them, they are not legal):" in out
    assert "white to move" in out or "black to move" in out
    assert "  - id: 4.2-bisect-" in out
    assert "TODO: work out the expectation by hand" in out
    assert "Suggested by z3, not by the oracle" in out


def test_the_command_says_when_nothing_differs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bisect", "oracle", "--depth", "4", "--playouts", "30", "-q"]) == 0
    out = capsys.readouterr().out
    assert "no difference" in out
    assert "nor in 30 random game(s) from it" in out


def test_random_games_are_reproducible_and_stop_at_the_first_difference_plus_a_budget() -> None:
    engine = MUTANTS["kings-step-one-square"]()
    first = bisect(engine, depth=3, games=1000, seed=5)
    again = bisect(engine, depth=3, games=1000, seed=5)
    assert first.difference is not None
    assert again.difference is not None
    assert first.difference.line == again.difference.line
    assert first.games == again.games < 1000  # not every game: a budget after the first difference
    assert any("random games" in note for note in first.notes)
    assert bisect(engine, depth=3, games=0).difference is None  # none within 2 plies


@pytest.mark.parametrize("argv", [["--playouts", "-1"], ["--plies", "0"]])
def test_bad_playout_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bisect", "oracle", *argv])
    assert exit_info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bisect", "mutant:nope"], "no mutant 'nope'"),
        (["bisect", "oracle", "--fen", "W:W0:B1"], "--fen 'W:W0:B1'"),
        (["bisect", "jsonl:/nonexistent/engine --flag"], "did not start"),
    ],
)
def test_usage_errors_exit_2_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_a_bad_depth_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bisect", "oracle", "--depth", "0"])
    assert exited.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_the_cases_it_writes_load_into_the_corpus(tmp_path: Path) -> None:
    """Every case bisect writes for the fast mutant scenarios is a valid case of the corpus: schema,
    registry, and no cycle between the articles' requires."""
    corpus = tmp_path / "cases"
    shutil.copytree(CORPUS_ROOT, corpus)
    found = [
        bisect(MUTANTS[name](), fen).difference
        for name, fen in [
            ("captures-not-compulsory", None),
            ("men-capture-forward-only", None),
            ("free-capture-choice", None),
            ("piece-jumped-twice", None),
            ("duplicate-routes", KINGS_MIDDLEGAME),
            ("kings-step-one-square", KINGS_MIDDLEGAME),
            ("king-counts-two", KINGS_MIDDLEGAME),
        ]
    ]
    cases = [case_yaml(d, "mutant:x") for d in found if d is not None]
    assert len(cases) == 7
    text = 'topic: found by bisect\narticle: "4.13"\ncases:\n' + "\n".join(cases) + "\n"
    (corpus / "4-captures" / "bisect-found.yaml").write_text(text, encoding="utf-8")
    loaded = {case.id: case for case in load_corpus(corpus).cases}
    written = [case for case in loaded.values() if "-bisect-" in case.id]
    assert len(written) == 7
    assert {case.article for case in written} == {"4.2", "4.1", "4.13", "4.8", "8", "3.9", "4.14"}


def test_run_points_to_bisect_and_the_command_finds_the_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["run", "mutant:short-kings", "--case", "perft-kings-middlegame-shallow", "--no-progress"]) == 1
    )
    out = capsys.readouterr().out
    hint = next(line for line in out.splitlines() if "draughts-conformance bisect" in line)
    command = shlex.split(hint.split("with", 1)[1])
    assert command[:3] == ["draughts-conformance", "bisect", "mutant:short-kings"]
    assert command[command.index("--fen") + 1] == KINGS_MIDDLEGAME
    assert main([*command[1:], "-q", "--no-case"]) == 1
    assert "first difference after 0 plies" in capsys.readouterr().out


def test_no_hint_without_a_wrong_perft(capsys: pytest.CaptureFixture[str]) -> None:
    main(["run", "mutant:captures-not-compulsory", "--case", "4.13-*", "--no-progress"])
    assert "draughts-conformance bisect" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("engine", "spec"),
    [
        ({"name": "oracle", "adapter": "in-process"}, "oracle"),
        ({"name": "short-kings", "adapter": "in-process"}, "mutant:short-kings"),
        ({"name": "py-draughts", "adapter": "in-process"}, "py-draughts"),
        ({"name": "x", "adapter": "jsonl:node engine.js"}, "jsonl:node engine.js"),
        ({"name": "x", "adapter": "in-process"}, "ENGINE"),
    ],
)
def test_the_engine_spec_is_read_back_from_the_header(engine: dict[str, str], spec: str) -> None:
    assert engine_spec_of({"engine": engine}) == spec


def test_the_command_line_quotes_what_the_shell_would_split() -> None:
    from conformance.core.results import Result, Status

    result = Result("c", "perft", "3.4", Status.FAIL, position="W:W31-50:B1-20", got=[9, 80])
    command = bisect_command([result], {"engine": {"name": "e", "adapter": "jsonl:node my engine.js"}})
    assert command == "draughts-conformance bisect 'jsonl:node my engine.js' --fen W:W31-50:B1-20 --depth 2"
