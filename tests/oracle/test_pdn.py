"""PDN games: reading, replaying, errors, writing, and ``python -m oracle game``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.counters import Counters
from oracle.errors import PdnError
from oracle.game import Game
from oracle.outcome import Outcome, Result
from oracle.pdn import read_file, read_game, read_games, write_game
from oracle.position import Position

OPENING = """\
[Event "Club match"]
[White "A. Player"]
[Black "B. \\"Quote\\" Player"]
[Result "*"]

1. 32-28 19-23 {the classic exchange} 2. 28x19! 14x23 $1 (2... 13x24 {also possible} 3. 34-29)
3.37-32 ; a comment to the end of the line
% an escape line
3... 20-25?! *
"""

REPETITION = """\
[FEN "W:WK50,48:BK1,3"]
1. 50-44 1-7 2. 44-50 7-1 3. 50-44 1-7 4. 44-50 7-1 1-1
"""


def test_read_a_game_with_comments_nags_and_variations() -> None:
    pdn = read_game(OPENING)
    assert pdn.tags["Event"] == "Club match"
    assert pdn.tags["Black"] == 'B. "Quote" Player'  # escapes undone
    assert pdn.result == "*"
    assert pdn.game.ply == 6  # the variation's 13x24 and 34-29 are skipped
    assert pdn.game.move_texts() == ["32-28", "19-23", "28x19", "14x23", "37-32", "20-25"]
    assert pdn.game.outcome() == Outcome(Result.ONGOING)


def test_replayed_outcome_and_ply() -> None:
    # P6 occurs at plies 0, 4 and 8: a draw by 6.1 at ply 8 (see test_game_draws).
    pdn = read_game(REPETITION)
    assert pdn.game.outcome() == Outcome(Result.DRAW, "6.1", 8)
    assert pdn.result == "1-1"
    assert pdn.game.setup_position == Position.from_fen("W:WK50,48:BK1,3")


def test_black_to_move_setup_and_move_numbers_without_spaces() -> None:
    text = '[FEN "B:WK48,K50:BK1"]\n1...1-7 2.50-44 7-12 3.44-39 *'
    pdn = read_game(text)
    assert pdn.game.ply == 4
    assert pdn.game.position.fen() == "B:WK39,K48:BK12"


def test_moves_without_numbers_and_without_result() -> None:
    pdn = read_game("32-28 19-23 28x19")
    assert pdn.game.ply == 3
    assert pdn.result is None
    assert pdn.tags == {}


def test_several_games() -> None:
    text = (
        OPENING
        + "\n"
        + REPETITION
        + '\n[Event "third"]\n1. 33-29 *\n[Event "fourth"]\n1. 31-27\n[Event "fifth"]'
    )
    games = read_games(text)
    assert [g.index for g in games] == [1, 2, 3, 4, 5]
    assert [g.game.ply for g in games] == [6, 8, 1, 1, 0]
    assert [g.result for g in games] == ["*", "1-1", "*", None, None]
    assert games[3].tags == {"Event": "fourth"}  # a tag after move text starts a new game
    assert games[1].line == 11  # OPENING is 9 lines, then a blank line
    assert read_games("") == []
    assert read_games("  {just a comment}\n") == []


def test_results_are_not_moves() -> None:
    # 1-12 is a king move (1, 7, 12 on one diagonal); 1-1 right after it is the result.
    pdn = read_game('[FEN "W:WK1:BK50"]\n1. 1-12 1-1')
    assert pdn.game.moves[0].to_square == 12
    assert pdn.result == "1-1"
    for token in ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "*"):
        assert read_game(f"1. 32-28 {token}").result == token


def test_a_win_replayed() -> None:
    pdn = read_game('[FEN "W:W28,32:B23"]\n1. 28x19 2-0')
    assert pdn.game.outcome() == Outcome(Result.WHITE_WINS, "7.2.2", 1)


# -- errors -------------------------------------------------------------------------------


def test_illegal_move_names_number_text_and_position() -> None:
    text = '[Event "x"]\n1. 32-28 19-23\n2. 28x19 14x23\n3. 33-29 23-27 *'
    with pytest.raises(PdnError) as caught:
        read_games(text)
    error = caught.value
    assert error.game == 1
    assert error.line == 4
    assert error.move_number == "3..."
    assert error.move_text == "23-27"
    # White: 32 went to 28, 19 and was taken; 33 is on 29. Black: 19 was taken, 14 is on 23.
    white, black = [29, 31, *range(34, 51)], [*range(1, 14), 15, 16, 17, 18, 20, 23]
    assert error.fen == f"B:W{','.join(map(str, white))}:B{','.join(map(str, black))}"
    assert "move 3... 23-27" in str(error)
    assert "not a legal move" in str(error)


def test_ambiguous_move_is_an_error() -> None:
    with pytest.raises(PdnError, match=r"move 1\. 47x36 .*ambiguous") as caught:
        read_game('[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x36 *')
    assert caught.value.move_number == "1."
    # the full route is accepted
    assert read_game('[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x38x24x13x36 *').game.ply == 1


def test_move_after_the_end_is_an_error() -> None:
    text = REPETITION.replace("1-1", "5. 50-44 1-1")
    with pytest.raises(PdnError, match=r"move 5\. 50-44 .*after the end of the game: draw \(Art. 6.1"):
        read_game(text)


def test_second_game_error_names_the_game() -> None:
    with pytest.raises(PdnError, match="game 2") as caught:
        read_games("1. 32-28 *\n\n1. 32-23 *")
    assert caught.value.game == 2
    assert caught.value.line == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[FEN "W:W31-50:B1-20:X"]\n*', "bad FEN tag"),
        ('[GameType "21"]\n1. 32-28 *', "GameType '21' is not international draughts"),
        ('[Event "a"]\n[Event "b"]\n*', "tag Event is given twice"),
        ("1. 32-28 {never closed", "never closed"),
        ("1. 32-28 ) 19-23", "closes no variation"),
        ("1. 32-28 (19-23", "never closed"),
        ("1. e4 e5", "unexpected 'e4'"),
        ("[Event]\n1. 32-28", "is not a tag pair"),
        ('[Counters "occurrences=two"]\n*', "bad Counters tag"),
        ('[FEN "W:WK50,48:BK1,3"]\n[Counters "occurrences=2"]\n*', "needs at least 4 plies"),
    ],
)
def test_malformed_pdn(text: str, message: str) -> None:
    with pytest.raises(PdnError, match=message):
        read_games(text)


def test_game_type_20_is_accepted() -> None:
    assert read_game('[GameType "20,W,10,10,N2,0"]\n1. 32-28 *').game.ply == 1


# -- writing ------------------------------------------------------------------------------


def test_write_and_read_back() -> None:
    original = read_game(OPENING)
    text = write_game(original.game, original.tags)
    assert text.startswith(
        '[Event "Club match"]\n[White "A. Player"]\n[Black "B. \\"Quote\\" Player"]\n[Result "*"]\n'
    )
    assert "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 20-25 *" in text
    again = read_game(text)
    assert again.game.moves == original.game.moves
    assert again.game.positions == original.game.positions
    assert dict(again.tags) == dict(original.tags)


def test_write_uses_the_outcome_as_result_and_records_the_setup() -> None:
    game = Game(Position.from_fen("W:WK50,48:BK1,3"), Counters(occurrences=2, no_progress_plies=4))
    for text in ("50-44", "1-7", "44-50", "7-1"):
        game.play(text)
    written = write_game(game, {"Event": "E", "Result": "0-2"})
    assert '[Result "1-1"]' in written  # the game is drawn (6.1 at ply 4), whatever the tag said
    assert '[FEN "W:W48,K50:BK1,3"]' in written
    assert '[Counters "occurrences=2,no_progress_plies=4,endgame_plies=0"]' in written
    assert written.rstrip().endswith("1. 50-44 1-7 2. 44-50 7-1 1-1")
    back = read_game(written)
    assert back.game.outcome() == game.outcome()
    assert back.game.setup_counters == game.setup_counters


def test_write_black_first_and_full_routes() -> None:
    game = Game(Position.from_fen("B:W27,28,38,39,42:BK25"))  # the Turkish strike (sources.md)
    game.play("25x33")
    assert write_game(game).splitlines()[-1] == "1... 25x33 *"  # 25x33 takes 27, 28, 39, 42: 38 is left
    ambiguous = Game(Position.from_fen("W:WK47:B14,19,29,31,42"))
    ambiguous.play("47x38x20x9x36")
    assert "1. 47x38x20x9x36" in write_game(ambiguous)


def test_write_wraps_long_games() -> None:
    game = Game(Position.from_fen("W:WK50,48:BK1,3"))
    white, black = ("50-44", "44-39", "39-33", "33-28", "28-50"), ("1-7", "7-12", "12-18", "18-1")
    for n in range(20):
        game.play(white[n // 2 % 5] if n % 2 == 0 else black[n // 2 % 4])
    lines = write_game(game, width=40).splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert read_game("\n".join(lines)).game.moves == game.moves


def test_write_refuses_bad_tag_names() -> None:
    with pytest.raises(ValueError, match="tag name"):
        write_game(Game(), {"Bad Name": "x"})


# -- files and the command line -----------------------------------------------------------


def test_read_file_latin1(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_bytes('[White "Jan Doré"]\n1. 32-28 *\n'.encode("latin-1"))
    (game,) = read_file(path)
    assert game.tags["White"] == "Jan Doré"


def test_cli_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(REPETITION + '\n[Event "win"]\n[FEN "W:W28,32:B23"]\n1. 28x19 2-0\n', encoding="utf-8")
    assert main(["game", str(path)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["count"] == 2
    first, second = answer["games"]
    assert first["plies"] == 8
    assert first["outcome"] == {"result": "draw", "rule": "6.1", "ply": 8}
    assert first["fen"] == "W:W48,K50:BK1,3"
    assert first["pdn_result"] == "1-1"
    assert second["tags"] == {"Event": "win", "FEN": "W:W28,32:B23"}
    assert second["outcome"] == {"result": "white_wins", "rule": "7.2.2", "ply": 1}


def test_cli_game_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text("1. 32-28 19-23 2. 28-22 *", encoding="utf-8")
    assert main(["game", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "move 2. 28-22" in err
    assert str(path) in err
    assert main(["game", str(tmp_path / "missing.pdn")]) == 2
    assert "No such file" in capsys.readouterr().err
    empty = tmp_path / "empty.pdn"
    empty.write_text("", encoding="utf-8")
    assert main(["game", str(empty)]) == 2
    assert "no PDN game found" in capsys.readouterr().err
